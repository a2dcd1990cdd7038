/// A view controller as a transition sees it (UIKit's `UIViewController`, reduced to what an
/// animator reads): an identifier and its view, a layer tree whose first layer is the view's own
/// layer.
public struct ViewController: Equatable, Sendable {
  /// The view controller's identifier (a navigation stack entry, `"from"`, `"to"`, …).
  public let identifier: String
  /// `view`: the view's layer tree, its root layer first.
  public let view: LayerTree

  /// Creates a view controller.
  ///
  /// - Throws: ``ValidationError`` on `"view"` (``ValidationError/Reason/tooFew(minimum:actual:)``)
  ///   when the view has no layer.
  public init(identifier: String, view: LayerTree) throws(ValidationError) {
    guard view.count > 0 else {
      throw ValidationError(field: "view", reason: .tooFew(minimum: 1, actual: 0))
    }
    self.identifier = identifier
    self.view = view
  }

  /// The id of the view's root layer.
  public var viewID: String { view.layers[0].id }
}

/// `UITransitionContextViewControllerKey`: which view controller of a transition.
public enum TransitionContextViewControllerKey: String, Hashable, Sendable, CaseIterable {
  /// `.from`: the view controller visible at the start.
  case from
  /// `.to`: the view controller visible at the end.
  case to
}

/// `UITransitionContextViewKey`: which view of a transition.
public enum TransitionContextViewKey: String, Hashable, Sendable, CaseIterable {
  /// `.from`: the view of the view controller visible at the start.
  case from
  /// `.to`: the view of the view controller visible at the end.
  case to
}

/// The two view controllers a transition moves between, in the container (UIKit's
/// `UIViewControllerContextTransitioning`).
///
/// Each view is a layer tree whose first layer is the view's own layer (id `from` or `to` for
/// the presets) with its sublayers under it. ``completeTransition(_:)`` must be called exactly
/// once.
///
/// **Frames.** UIKit returns `.zero` from `initialFrame(for:)` and `finalFrame(for:)` when "the
/// frame rectangle is not known or the view is not visible", and the container's bounds for a
/// view that fills it. Here every view fills the container, so for every operation (push, pop,
/// present, dismiss, tab switch): the view controller being left starts at the container's
/// bounds and ends at `.zero` (not visible at the end); the one being shown starts at `.zero`
/// (not yet on screen) and ends at the container's bounds. Any other view controller gets `.zero`
/// both times.
///
/// **Views.** UIKit's `view(forKey:)` may return `nil` for a view the animator must not touch (the
/// presenting view of a non-full-screen presentation). Both views always take part here, so
/// ``view(forKey:)`` and ``viewController(forKey:)`` are not optional.
///
/// **Interactive state.** ``isInteractive`` starts as given (true when an interaction controller
/// drives the transition); ``finishInteractiveTransition()`` and ``cancelInteractiveTransition()``
/// end the interaction (UIKit: the animator takes over) and ``pauseInteractiveTransition()``
/// resumes it. ``transitionWasCancelled`` is true once the latest of those decisions was a cancel
/// (so an animator's completion can pass `!transitionWasCancelled`), or once the transition
/// completed with `false`.
public struct TransitionContext: Sendable {
  /// What the transition does.
  public let operation: TransitionOperation
  /// Container size in points (default 390 × 844).
  public let containerSize: Size
  /// `viewController(forKey: .from)`.
  public let fromViewController: ViewController
  /// `viewController(forKey: .to)`.
  public let toViewController: ViewController
  /// `isAnimated`: whether the transition is animated (default `true`).
  public let isAnimated: Bool
  /// `isInteractive`: whether an interaction drives the transition now.
  public private(set) var isInteractive: Bool
  /// The latest `updateInteractiveTransition(_:)` percent, clamped to `[0, 1]` (0 before).
  public private(set) var percentComplete: Double
  /// How the transition ended, once ``completeTransition(_:)`` was called.
  public private(set) var completion: TransitionCompletion?
  /// The latest finish (`false`) or cancel (`true`) of the interaction, if any.
  private var interactionCancelled: Bool?

  /// Creates a context whose view controllers are named after their views' root layers.
  ///
  /// - Throws: ``ValidationError`` when the container size is not finite and positive
  ///   (`containerSize.width`, `containerSize.height`), a view is empty (`fromView`,
  ///   `toView`, `.tooFew`), or both root layers have the same id (`toView`, `.duplicate`).
  public init(
    operation: TransitionOperation, containerSize: Size = Size(width: 390, height: 844),
    fromView: LayerTree, toView: LayerTree, isAnimated: Bool = true, isInteractive: Bool = false
  ) throws(ValidationError) {
    try Validate.positive(containerSize.width, "containerSize.width")
    try Validate.positive(containerSize.height, "containerSize.height")
    guard fromView.count > 0 else {
      throw ValidationError(field: "fromView", reason: .tooFew(minimum: 1, actual: 0))
    }
    guard toView.count > 0 else {
      throw ValidationError(field: "toView", reason: .tooFew(minimum: 1, actual: 0))
    }
    let from = try ViewController(identifier: fromView.layers[0].id, view: fromView)
    let to = try ViewController(identifier: toView.layers[0].id, view: toView)
    guard from.identifier != to.identifier else {
      throw ValidationError(field: "toView", reason: .duplicate(to.identifier))
    }
    try self.init(
      operation: operation, containerSize: containerSize, from: from, to: to,
      isAnimated: isAnimated, isInteractive: isInteractive)
  }

  /// Creates a context between two view controllers.
  ///
  /// - Throws: ``ValidationError``: `containerSize.width`, `containerSize.height` not finite and
  ///   positive; `to.identifier` ``ValidationError/Reason/duplicate(_:)`` when both view
  ///   controllers have the same identifier (frames are looked up by identifier).
  public init(
    operation: TransitionOperation, containerSize: Size = Size(width: 390, height: 844),
    from: ViewController, to: ViewController, isAnimated: Bool = true,
    isInteractive: Bool = false
  ) throws(ValidationError) {
    try Validate.positive(containerSize.width, "containerSize.width")
    try Validate.positive(containerSize.height, "containerSize.height")
    guard from.identifier != to.identifier else {
      throw ValidationError(field: "to.identifier", reason: .duplicate(to.identifier))
    }
    self.operation = operation
    self.containerSize = containerSize
    self.fromViewController = from
    self.toViewController = to
    self.isAnimated = isAnimated
    self.isInteractive = isInteractive
    self.percentComplete = 0
  }

  /// The view being left, as a layer tree (its root first).
  public var fromView: LayerTree { fromViewController.view }
  /// The view being shown, as a layer tree (its root first).
  public var toView: LayerTree { toViewController.view }
  /// The id of the view being left (its root layer).
  public var fromID: String { fromViewController.viewID }
  /// The id of the view being shown (its root layer).
  public var toID: String { toViewController.viewID }

  /// `viewController(forKey:)`.
  public func viewController(forKey key: TransitionContextViewControllerKey) -> ViewController {
    key == .from ? fromViewController : toViewController
  }

  /// `view(forKey:)`: the view's layer tree (never `nil` here, see the type's notes).
  public func view(forKey key: TransitionContextViewKey) -> LayerTree {
    key == .from ? fromView : toView
  }

  /// `containerView`: a ``SceneBuilder`` holding the view being left, as UIKit's container holds
  /// it when `animateTransition(using:)` is called. Add the view being shown to it (`addSubview`,
  /// `insertSubview(_:aboveSubview:)`, `insertSubview(_:belowSubview:)`), set and animate
  /// properties, then build the scene. Its container layer has the container's bounds
  /// (``LayerTree/container``), so a `sublayerTransform` set on it pivots about the centre.
  /// Each call returns a new builder.
  public var containerView: SceneBuilder {
    var builder = SceneBuilder()
    // The from view passed validation when its tree was built, so adding it cannot fail.
    try? builder.add(view: fromView)
    builder.model.container.bounds = containerBounds
    return builder
  }

  /// `transitionWasCancelled`: true once the interaction was last cancelled
  /// (``cancelInteractiveTransition()``), or the transition completed with `false`.
  public var transitionWasCancelled: Bool {
    if let completion { return completion == .cancelled }
    return interactionCancelled ?? false
  }

  /// The container's bounds, `(0, 0, W, H)`.
  public var containerBounds: Rect {
    Rect(x: 0, y: 0, width: containerSize.width, height: containerSize.height)
  }

  /// `initialFrame(for:)`: the container's bounds for the view controller being left, `.zero`
  /// for the one being shown (not yet on screen) and for any other (matched by identifier).
  public func initialFrame(for viewController: ViewController) -> Rect {
    viewController.identifier == fromViewController.identifier ? containerBounds : .zero
  }

  /// `finalFrame(for:)`: the container's bounds for the view controller being shown, `.zero` for
  /// the one being left (no longer visible) and for any other (matched by identifier).
  public func finalFrame(for viewController: ViewController) -> Rect {
    viewController.identifier == toViewController.identifier ? containerBounds : .zero
  }

  /// `updateInteractiveTransition(_:)`: records the interaction's percent (clamped to `[0, 1]`).
  ///
  /// - Throws: ``ValidationError``: `"percentComplete"` not finite; `"interaction"`
  ///   ``ValidationError/Reason/invalidState(_:)`` unless interactive.
  public mutating func updateInteractiveTransition(_ percentComplete: Double)
    throws(ValidationError)
  {
    try Validate.finite(percentComplete, "percentComplete")
    try requireInteractive()
    self.percentComplete = Swift.min(Swift.max(percentComplete, 0), 1)
  }

  /// `pauseInteractiveTransition()`: the interaction takes over again (an interruptible
  /// animator was caught mid-flight); ``isInteractive`` becomes true.
  ///
  /// - Throws: ``ValidationError`` on `"interaction"` (``ValidationError/Reason/invalidState(_:)``)
  ///   when already interactive or completed.
  public mutating func pauseInteractiveTransition() throws(ValidationError) {
    try requireNotCompleted()
    guard !isInteractive else {
      throw ValidationError(field: "interaction", reason: .invalidState("is already interactive"))
    }
    isInteractive = true
  }

  /// `finishInteractiveTransition()`: the interaction ends towards the end state;
  /// ``isInteractive`` becomes false and ``transitionWasCancelled`` false.
  ///
  /// - Throws: as ``updateInteractiveTransition(_:)`` (unless interactive).
  public mutating func finishInteractiveTransition() throws(ValidationError) {
    try requireInteractive()
    isInteractive = false
    interactionCancelled = false
  }

  /// `cancelInteractiveTransition()`: the interaction ends towards the start state;
  /// ``isInteractive`` becomes false and ``transitionWasCancelled`` true.
  ///
  /// - Throws: as ``updateInteractiveTransition(_:)`` (unless interactive).
  public mutating func cancelInteractiveTransition() throws(ValidationError) {
    try requireInteractive()
    isInteractive = false
    interactionCancelled = true
  }

  /// `completeTransition(_:)`: records how the transition ended.
  ///
  /// - Throws: ``ValidationError/Reason/invalidState(_:)`` on field `"completeTransition"` when
  ///   it was already called.
  public mutating func completeTransition(_ didComplete: Bool) throws(ValidationError) {
    guard completion == nil else {
      throw ValidationError(
        field: "completeTransition", reason: .invalidState("was already called"))
    }
    completion = didComplete ? .finished : .cancelled
    isInteractive = false
  }

  private func requireNotCompleted() throws(ValidationError) {
    guard completion == nil else {
      throw ValidationError(
        field: "interaction", reason: .invalidState("the transition has completed"))
    }
  }

  private func requireInteractive() throws(ValidationError) {
    try requireNotCompleted()
    guard isInteractive else {
      throw ValidationError(field: "interaction", reason: .invalidState("is not interactive"))
    }
  }

  /// A full-container view layer named `id` whose frame origin x is `x` (points):
  /// bounds `(0, 0, W, H)`, position `(x + W/2, H/2)`.
  public static func viewLayer(
    _ id: String, containerSize: Size, x: Double = 0, color: RGBAColor = .white
  ) -> Layer {
    Layer(
      id: id, bounds: Rect(x: 0, y: 0, width: containerSize.width, height: containerSize.height),
      position: Point(x: x + containerSize.width / 2, y: containerSize.height / 2),
      backgroundColor: color)
  }
}

/// A custom transition's animator (`UIViewControllerAnimatedTransitioning`): its duration and
/// the animations it sets up, as data both the scalar evaluator and the batch kernel read.
///
/// UIKit's optional requirements have defaults as UIKit's behave when they are not implemented:
/// ``animationEnded(_:)`` does nothing and ``interruptibleAnimator(using:)`` returns `nil`.
public protocol TransitionAnimator: Sendable {
  /// `transitionDuration(using:)`, in seconds (> 0).
  func transitionDuration(using context: TransitionContext) -> Double
  /// `animateTransition(using:)`: the layers, animations and completion changes.
  func animateTransition(using context: TransitionContext) throws(ValidationError)
    -> TransitionScene
  /// `animationEnded(_:)`: called once the transition has completed (``NavigationController``
  /// calls it from ``NavigationController/complete(finished:)``), with whether it finished.
  func animationEnded(_ transitionCompleted: Bool)
  /// `interruptibleAnimator(using:)`: the property animator that runs the transition, for an
  /// interactive transition that can be caught and released mid-flight. UIKit asks for it more
  /// than once and expects the same animator; here it must be a pure function of the context.
  func interruptibleAnimator(using context: TransitionContext) throws(ValidationError)
    -> ViewPropertyAnimator?
}

extension TransitionAnimator {
  /// Does nothing (UIKit's behaviour for an animator that does not implement it).
  public func animationEnded(_ transitionCompleted: Bool) {}

  /// `nil`: the animator is not interruptible (UIKit's behaviour when it is not implemented).
  public func interruptibleAnimator(using context: TransitionContext) throws(ValidationError)
    -> ViewPropertyAnimator?
  { nil }
}
