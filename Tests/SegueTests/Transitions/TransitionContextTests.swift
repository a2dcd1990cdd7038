import Segue
import Testing

/// `TransitionContext`: construction and its rejections, ids and bounds, `completeTransition(_:)`
/// exactly once, `transitionWasCancelled`, `viewLayer`; and the `TransitionAnimator` protocol
/// end to end with a small hand-written animator.
@Suite("TransitionContext")
struct TransitionContextTests {
  static func view(_ id: String, size: Size = Size(width: 390, height: 844)) throws -> LayerTree {
    var tree = LayerTree()
    try tree.add(TransitionContext.viewLayer(id, containerSize: size))
    try tree.add(
      Layer(id: id + ".label", bounds: Rect(x: 0, y: 0, width: 10, height: 10)), parent: id)
    return tree
  }

  static func context(
    _ operation: TransitionOperation = .push, size: Size = Size(width: 390, height: 844)
  ) throws -> TransitionContext {
    try TransitionContext(
      operation: operation, containerSize: size, fromView: try view("old", size: size),
      toView: try view("new", size: size))
  }

  /// Defaults and derived values: container 390 × 844, ids are the views' root layers, bounds
  /// (0, 0, W, H), not completed.
  @Test func defaults() throws {
    let c = try TransitionContext(
      operation: .pop, fromView: try Self.view("a"), toView: try Self.view("b"))
    #expect(c.operation == .pop)
    #expect(c.containerSize == Size(width: 390, height: 844))
    #expect(c.fromID == "a")
    #expect(c.toID == "b")
    #expect(c.fromView.count == 2)
    #expect(c.toView.layers.map(\.id) == ["b", "b.label"])
    #expect(c.containerBounds == Rect(x: 0, y: 0, width: 390, height: 844))
    #expect(c.completion == nil)
    #expect(!c.transitionWasCancelled)
  }

  @Test func rejectsZeroWidth() {
    #expect(throws: ValidationError(field: "containerSize.width", reason: .notPositive)) {
      try Self.context(size: Size(width: 0, height: 844))
    }
  }

  @Test func rejectsNegativeHeight() {
    #expect(throws: ValidationError(field: "containerSize.height", reason: .notPositive)) {
      try TransitionContext(
        operation: .push, containerSize: Size(width: 390, height: -1),
        fromView: try Self.view("a"), toView: try Self.view("b"))
    }
  }

  @Test func rejectsNaNWidth() {
    #expect(throws: ValidationError(field: "containerSize.width", reason: .notFinite)) {
      try TransitionContext(
        operation: .push, containerSize: Size(width: .nan, height: 844),
        fromView: try Self.view("a"), toView: try Self.view("b"))
    }
  }

  @Test func rejectsInfiniteHeight() {
    #expect(throws: ValidationError(field: "containerSize.height", reason: .notFinite)) {
      try TransitionContext(
        operation: .push, containerSize: Size(width: 390, height: .infinity),
        fromView: try Self.view("a"), toView: try Self.view("b"))
    }
  }

  @Test func rejectsEmptyFromView() {
    #expect(throws: ValidationError(field: "fromView", reason: .tooFew(minimum: 1, actual: 0))) {
      try TransitionContext(operation: .push, fromView: LayerTree(), toView: try Self.view("b"))
    }
  }

  @Test func rejectsEmptyToView() {
    #expect(throws: ValidationError(field: "toView", reason: .tooFew(minimum: 1, actual: 0))) {
      try TransitionContext(operation: .push, fromView: try Self.view("a"), toView: LayerTree())
    }
  }

  /// `completeTransition(true)`: finished, not cancelled.
  @Test func completeFinished() throws {
    var c = try Self.context()
    try c.completeTransition(true)
    #expect(c.completion == .finished)
    #expect(!c.transitionWasCancelled)
  }

  /// `completeTransition(false)`: cancelled.
  @Test func completeCancelled() throws {
    var c = try Self.context()
    try c.completeTransition(false)
    #expect(c.completion == .cancelled)
    #expect(c.transitionWasCancelled)
  }

  /// A second call is an error, whatever its argument, and the first outcome stays.
  @Test func completeTwiceIsAnError() throws {
    var c = try Self.context()
    try c.completeTransition(false)
    for again in [true, false] {
      #expect(
        throws: ValidationError(
          field: "completeTransition", reason: .invalidState("was already called"))
      ) {
        try c.completeTransition(again)
      }
    }
    #expect(c.completion == .cancelled)
    #expect(c.transitionWasCancelled)
  }

  /// `viewLayer`: bounds (0, 0, W, H), position (x + W/2, H/2), the colour; frame origin x.
  @Test func viewLayer() throws {
    let size = Size(width: 100, height: 60)
    let layer = TransitionContext.viewLayer("v", containerSize: size, x: -30, color: .black)
    #expect(layer.id == "v")
    #expect(layer.bounds == Rect(x: 0, y: 0, width: 100, height: 60))
    #expect(layer.position == Point(x: 20, y: 30))
    #expect(layer.backgroundColor == .black)
    #expect(layer.frame == Rect(x: -30, y: 0, width: 100, height: 60))
    let plain = TransitionContext.viewLayer("w", containerSize: size)
    #expect(plain.position == Point(x: 50, y: 30))
    #expect(plain.backgroundColor == .white)
    #expect(plain.opacity == 1)
    #expect(plain.transform == .identity)
  }

  /// A minimal animator (a linear slide-in of **to** from x = W over 0.5 s, **from** removed on
  /// finish, **to** on cancel) drives context → builder → scene → samples.
  struct SlideIn: TransitionAnimator {
    func transitionDuration(using context: TransitionContext) -> Double { 0.5 }

    func animateTransition(using context: TransitionContext) throws(ValidationError)
      -> TransitionScene
    {
      var b = SceneBuilder()
      let w = context.containerSize.width
      try b.add(view: context.fromView)
      try b.add(view: context.toView)
      try b.set(.positionX, of: context.toID, to: .number(w + w / 2))
      try b.animate(
        .positionX, of: context.toID, to: .number(w / 2),
        duration: transitionDuration(using: context),
        timingParameters: nil)
      b.finishChanges = [.remove(layerID: context.fromID)]
      b.cancelChanges = [.remove(layerID: context.toID)]
      return try b.scene(
        duration: transitionDuration(using: context), containerSize: context.containerSize)
    }
  }

  /// By hand, W = 200: **to** x = 200·(1 − t/0.5); at 0.125 its frame origin is 150 (matrix
  /// translation 150), its label follows; at 0.5 the transition is complete with **new** alone at
  /// x 0. Cancelled, only **old** remains.
  @Test func animatorEndToEnd() throws {
    let context = try Self.context(size: Size(width: 200, height: 100))
    let animator = SlideIn()
    #expect(animator.transitionDuration(using: context) == 0.5)
    let scene = try animator.animateTransition(using: context)
    let mid = try scene.sample(at: 0.125)
    #expect(mid.layers.map(\.id) == ["old", "old.label", "new", "new.label"])
    #expect(mid["new"]!.matrix == .makeTranslation(x: 150, y: 0, z: 0))
    #expect(mid["new"]!.corners[0].point == Point(x: 150, y: 0))
    #expect(mid["new.label"]!.corners[2].point == Point(x: 155, y: 5))
    let end = try scene.sample(at: 0.5)
    #expect(end.isCompleted)
    #expect(end.layers.map(\.id) == ["new", "new.label"])
    #expect(end["new"]!.matrix == .identity)
    let cancelled = scene.presentation(at: 0.3, completion: .cancelled)
    #expect(cancelled.layers.map(\.id) == ["old", "old.label"])
  }
}

/// The UIKit vocabulary of the context: view controllers and views by key, frames by UIKit's
/// rule, `isAnimated`, the interactive calls and `transitionWasCancelled`, `containerView`; and
/// the animator protocol's defaults.
@Suite("TransitionContext, UIKit vocabulary")
struct TransitionContextUIKitTests {
  static let size = Size(width: 200, height: 100)
  static let bounds = Rect(x: 0, y: 0, width: 200, height: 100)

  static func controllers() throws -> (ViewController, ViewController) {
    (
      try ViewController(
        identifier: "list", view: try TransitionContextTests.view("old", size: size)),
      try ViewController(
        identifier: "detail", view: try TransitionContextTests.view("new", size: size))
    )
  }

  static func context(
    _ operation: TransitionOperation = .push, isInteractive: Bool = false
  ) throws -> TransitionContext {
    let (a, b) = try controllers()
    return try TransitionContext(
      operation: operation, containerSize: size, from: a, to: b, isInteractive: isInteractive)
  }

  /// `viewController(forKey:)` and `view(forKey:)` return the two ends; ids are the views' root
  /// layers, identifiers the view controllers'.
  @Test func keys() throws {
    let c = try Self.context()
    #expect(c.viewController(forKey: .from).identifier == "list")
    #expect(c.viewController(forKey: .to).identifier == "detail")
    #expect(c.view(forKey: .from).layers.map(\.id) == ["old", "old.label"])
    #expect(c.view(forKey: .to) == c.toView)
    #expect(c.fromID == "old" && c.toID == "new")
    #expect(c.viewController(forKey: .to).viewID == "new")
    #expect(c.isAnimated && !c.isInteractive)
    #expect(TransitionContextViewControllerKey.allCases.map(\.rawValue) == ["from", "to"])
    #expect(TransitionContextViewKey.allCases.map(\.rawValue) == ["from", "to"])
  }

  /// UIKit's frame rule for every operation: from starts at the container's bounds and ends at
  /// `.zero`; to starts at `.zero` and ends at the bounds; anything else is `.zero`.
  @Test(arguments: TransitionOperation.allCases)
  func frames(operation: TransitionOperation) throws {
    let c = try Self.context(operation)
    let (from, to) = try Self.controllers()
    #expect(c.initialFrame(for: from) == Self.bounds)
    #expect(c.finalFrame(for: from) == .zero)
    #expect(c.initialFrame(for: to) == .zero)
    #expect(c.finalFrame(for: to) == Self.bounds)
    let other = try ViewController(
      identifier: "other", view: try TransitionContextTests.view("x", size: Self.size))
    #expect(c.initialFrame(for: other) == .zero && c.finalFrame(for: other) == .zero)
  }

  /// The plain initialiser names the view controllers after the root layers.
  @Test func plainInitialiserIdentifiers() throws {
    let c = try TransitionContextTests.context(.pop)
    #expect(c.fromViewController.identifier == "old")
    #expect(c.toViewController.identifier == "new")
    #expect(c.finalFrame(for: c.toViewController) == c.containerBounds)
  }

  @Test func rejectsSameIdentifiers() throws {
    let a = try ViewController(identifier: "a", view: try TransitionContextTests.view("p"))
    let b = try ViewController(identifier: "a", view: try TransitionContextTests.view("q"))
    #expect(throws: ValidationError(field: "to.identifier", reason: .duplicate("a"))) {
      try TransitionContext(operation: .push, from: a, to: b)
    }
    #expect(throws: ValidationError(field: "toView", reason: .duplicate("p"))) {
      try TransitionContext(
        operation: .push, fromView: try TransitionContextTests.view("p"),
        toView: try TransitionContextTests.view("p"))
    }
  }

  @Test func rejectsEmptyViewControllerView() {
    #expect(throws: ValidationError(field: "view", reason: .tooFew(minimum: 1, actual: 0))) {
      try ViewController(identifier: "a", view: LayerTree())
    }
  }

  @Test func rejectsBadContainerInViewControllerInitialiser() throws {
    let (a, b) = try Self.controllers()
    #expect(throws: ValidationError(field: "containerSize.height", reason: .notFinite)) {
      try TransitionContext(
        operation: .push, containerSize: Size(width: 1, height: .nan), from: a, to: b)
    }
  }

  /// `isAnimated` is as given.
  @Test func notAnimated() throws {
    let (a, b) = try Self.controllers()
    let c = try TransitionContext(operation: .push, from: a, to: b, isAnimated: false)
    #expect(!c.isAnimated)
  }

  /// An interactive transition: updates clamp, cancel ends the interaction and makes
  /// `transitionWasCancelled` true, pause resumes it, finish clears the cancel, and
  /// `completeTransition` ends everything.
  @Test func interactiveCalls() throws {
    var c = try Self.context(isInteractive: true)
    #expect(c.isInteractive && c.percentComplete == 0)
    try c.updateInteractiveTransition(0.4)
    #expect(c.percentComplete == 0.4)
    try c.updateInteractiveTransition(1.5)
    #expect(c.percentComplete == 1)
    try c.updateInteractiveTransition(-2)
    #expect(c.percentComplete == 0)
    try c.cancelInteractiveTransition()
    #expect(!c.isInteractive && c.transitionWasCancelled)
    try c.pauseInteractiveTransition()
    #expect(c.isInteractive && c.transitionWasCancelled)
    try c.finishInteractiveTransition()
    #expect(!c.isInteractive && !c.transitionWasCancelled)
    try c.completeTransition(!c.transitionWasCancelled)
    #expect(c.completion == .finished && !c.isInteractive)
  }

  @Test func interactiveCallsNeedAnInteraction() throws {
    var c = try Self.context()
    let notInteractive = ValidationError(
      field: "interaction", reason: .invalidState("is not interactive"))
    #expect(throws: notInteractive) { try c.updateInteractiveTransition(0.5) }
    #expect(throws: notInteractive) { try c.finishInteractiveTransition() }
    #expect(throws: notInteractive) { try c.cancelInteractiveTransition() }
    var i = try Self.context(isInteractive: true)
    #expect(
      throws: ValidationError(field: "interaction", reason: .invalidState("is already interactive"))
    ) { try i.pauseInteractiveTransition() }
    #expect(throws: ValidationError(field: "percentComplete", reason: .notFinite)) {
      try i.updateInteractiveTransition(.nan)
    }
    try i.completeTransition(false)
    let over = ValidationError(
      field: "interaction", reason: .invalidState("the transition has completed"))
    #expect(throws: over) { try i.pauseInteractiveTransition() }
    #expect(throws: over) { try i.updateInteractiveTransition(0.5) }
    #expect(i.transitionWasCancelled)
  }

  /// `containerView` holds the from view; the to view can be inserted below it.
  @Test func containerViewHoldsTheFromView() throws {
    let c = try Self.context(.pop)
    var container = c.containerView
    #expect(container.model.layers.map(\.id) == ["old", "old.label"])
    try container.insertSubview(c.view(forKey: .to), belowSubview: c.view(forKey: .from))
    let order = container.model.drawOrder().map { container.model.layers[$0.layer].id }
    #expect(order == ["new", "new.label", "old", "old.label"])
  }

  /// An animator that implements only the two required methods: `animationEnded(_:)` does
  /// nothing and `interruptibleAnimator(using:)` is `nil`.
  @Test func protocolDefaults() throws {
    let animator = TransitionContextTests.SlideIn()
    let c = try Self.context()
    animator.animationEnded(true)
    #expect(try animator.interruptibleAnimator(using: c) == nil)
  }
}
