import PropertyBased
import Segue
import Testing

/// `ViewPropertyAnimator` (`UIViewPropertyAnimator`): blocks, their progress and additive sum,
/// transforms taking over, scrubbing, springs on release, completion handlers, the plain run as a
/// scene, and every rejection.
@Suite("ViewPropertyAnimator")
struct ViewPropertyAnimatorTests {
  /// One layer **v**: bounds (0, 0, 100, 100), position (50, 50), opacity 1.
  static func container() throws -> SceneBuilder { try SceneBuilderTests.builder() }

  static func x(_ tree: LayerTree) -> Double { tree[id: "v"]!.position.x }

  static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool {
    abs(a - b) <= tolerance
  }

  /// A linear block x 50 → 150: the model takes the target at once; before the start the layer
  /// shows the old value; at t it shows 50 + 100·t; at the end the target.
  @Test func oneBlock() throws {
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: try Self.container()
    ) { views throws(ValidationError) in
      try views.set(.positionX, of: "v", to: .number(150))
    }
    #expect(Self.x(animator.model) == 150)
    #expect(Self.x(animator.container) == 50)
    #expect(Self.x(try animator.presentation(at: 0)) == 50)
    try animator.startAnimation(at: 1)
    #expect(Self.close(Self.x(try animator.presentation(at: 1.25)), 75))
    let end = try animator.sample(at: 2)
    #expect(end.isCompleted && !end.isCancelled && end.progress == 1)
    #expect(end["v"]!.matrix.m41 == 100)
  }

  /// Two blocks on one property add up: x 50 → 150 over [0, 1] (linear), and at t = 0.5 (f = 0.5)
  /// x → 250 over the remaining half. At 0.75: q₁ = 0.75, q₂ = 0.5, so
  /// x = 250 + (50 − 150)·0.25 + (150 − 250)·0.5 = 175; at 0.5 both views agree: 100.
  @Test func blocksAddUp() throws {
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: try Self.container()
    ) { views throws(ValidationError) in
      try views.set(.positionX, of: "v", to: .number(150))
    }
    try animator.startAnimation(at: 0)
    let before = Self.x(try animator.presentation(at: 0.5))
    try animator.addAnimations(
      { views throws(ValidationError) in
        #expect(views.value(.positionX, of: "v") == .number(150))
        try views.set(.positionX, of: "v", to: .number(250))
      }, at: 0.5)
    #expect(Self.close(before, 100))
    #expect(Self.close(Self.x(try animator.presentation(at: 0.5)), 100))
    #expect(Self.close(Self.x(try animator.presentation(at: 0.75)), 175))
    #expect(Self.x(try animator.presentation(at: 1)) == 250)
    // Sampling before the block was added ignores it.
    #expect(Self.close(Self.x(try animator.presentation(at: 0.25)), 75))
  }

  /// A block with a delay factor on an inactive animator: delayFactor 0.5 of D = 2 starts at 1 s
  /// and eases (easeIn) over its own second: at 1.5 s, q = easeIn(0.5).
  @Test func delayedBlockEasesOverItsOwnInterval() throws {
    var animator = try ViewPropertyAnimator(
      duration: 2, curve: .easeIn, container: try Self.container())
    try animator.addAnimations(
      { views throws(ValidationError) in try views.set(.opacity, of: "v", to: .number(0)) },
      delayFactor: 0.5)
    try animator.startAnimation(at: 0)
    #expect(try animator.presentation(at: 0.9)[id: "v"]!.opacity == 1)
    let opacity = try animator.presentation(at: 1.5)[id: "v"]!.opacity
    #expect(Self.close(opacity, 1 - 0.31535681257253930426))
  }

  /// A whole transform does not add: the later block takes over from the presented value.
  /// Block 1: identity → S(2) (linear, D = 1); at 0.5 (presented S(1.5)) block 2 → identity:
  /// at 0.75 it is half way from S(1.5) to the identity, S(1.25).
  @Test func transformTakesOver() throws {
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: try Self.container()
    ) { views throws(ValidationError) in
      try views.set(.transform, of: "v", to: .transform(.makeScale(x: 2, y: 2, z: 1)))
    }
    try animator.startAnimation(at: 0)
    try animator.addAnimations(
      { views throws(ValidationError) in
        try views.set(.transform, of: "v", to: .transform(.identity))
      }, at: 0.5)
    let t = try animator.presentation(at: 0.75)[id: "v"]!.transform
    #expect(Self.close(t.m11, 1.25) && Self.close(t.m22, 1.25) && Self.close(t.m33, 1))
  }

  /// Scrubbing an easeIn animator: linearly by default (x = 50 + 100·0.3), along the curve
  /// without `scrubsLinearly`.
  @Test func scrubbing() throws {
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .easeIn, container: try Self.container()
    ) { views throws(ValidationError) in try views.set(.positionX, of: "v", to: .number(150)) }
    try animator.pauseAnimation(at: 0)
    try animator.setFractionComplete(0.5, at: 0)
    #expect(animator.fractionComplete == 0.5 && animator.scrubsLinearly)
    #expect(Self.close(Self.x(try animator.presentation(at: 0)), 100))
    try animator.setScrubsLinearly(false, at: 0.1)
    try animator.setFractionComplete(0.5, at: 0.1)
    #expect(
      Self.close(Self.x(try animator.presentation(at: 0.1)), 50 + 100 * 0.31535681257253930426))
  }

  /// Release with a spring: paused half way (x = 100), continued with ζ = 1, v0 = 2 over
  /// 0.4·D: x = 100 + 50·x_spring(τ) with ω0 = X/0.4 (as PropertyAnimator's test).
  @Test func releaseWithASpring() throws {
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: try Self.container()
    ) { views throws(ValidationError) in try views.set(.positionX, of: "v", to: .number(150)) }
    try animator.startAnimation(at: 0)
    try animator.pauseAnimation(at: 0.5)
    let spring = try SpringTimingParameters(dampingRatio: 1, initialVelocity: Vector2(dx: 2, dy: 0))
    try animator.continueAnimation(
      withTimingParameters: .spring(spring), durationFactor: 0.4, at: 1)
    let omega0 = SpringReference.criticalRoot / 0.4
    let expected = 100 + 50 * SpringReference.critical(omega0: omega0, v0: 2, t: 0.1)
    #expect(Self.close(Self.x(try animator.presentation(at: 1.1)), expected, 1e-10))
    #expect(try animator.advance(to: 2) == AnimatorCompletionEvent(position: .end, time: 1.4))
  }

  /// Completion handlers run once the completion fires, with its position: reversed back to the
  /// start, the layer shows its old value and the handler's change; the sample is "cancelled".
  @Test func completionHandlers() throws {
    var container = try Self.container()
    try container.add(Layer(id: "w"))
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: container
    ) { views throws(ValidationError) in try views.set(.positionX, of: "v", to: .number(150)) }
    try animator.addCompletion { position in
      position == .end
        ? [.remove(layerID: "w")] : [.set(layerID: "w", property: .opacity, value: .number(0.5))]
    }
    try animator.startAnimation(at: 0)
    try animator.setReversed(true, at: 0.5)
    let running = try animator.sample(at: 0.75)
    #expect(!running.isCompleted && running["w"]?.opacity == 1)
    #expect(try animator.advance(to: 2) == AnimatorCompletionEvent(position: .start, time: 1))
    let done = try animator.sample(at: 1)
    #expect(done.isCompleted && done.isCancelled && done.progress == 0)
    #expect(done["v"]!.matrix.m41 == 0)
    #expect(done["w"]?.opacity == 0.5)
    #expect(
      throws: ValidationError(
        field: "animator", reason: .invalidState("addCompletion: the animator is over"))
    ) {
      try animator.addCompletion { _ in [] }
    }
  }

  /// A handler's change that names no layer is a typed error when the layers are sampled.
  @Test func completionChangeForAnUnknownLayer() throws {
    var animator = try ViewPropertyAnimator(duration: 1, container: try Self.container())
    try animator.addCompletion { _ in [.remove(layerID: "ghost")] }
    try animator.startAnimation(at: 0)
    #expect(try animator.presentation(at: 0.5)[id: "v"] != nil)
    #expect(throws: ValidationError(field: "completion", index: 0, reason: .unknown("ghost"))) {
      try animator.presentation(at: 1)
    }
  }

  /// The plain run's scene samples like the animator started at 0, at any time: a cubic curve,
  /// a UIKit spring and a spring animation, two blocks (one delayed), a completion handler.
  @Test(arguments: [
    TimingCurveProvider.easeInEaseOut, .spring(try! SpringTimingParameters(dampingRatio: 0.6)),
    .springAnimation(try! DampedSpring(mass: 1, stiffness: 200, damping: 8)),
  ])
  func sceneMatchesTheAnimator(curve: TimingCurveProvider) async throws {
    var container = try Self.container()
    try container.add(Layer(id: "w", bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
    var animator = try ViewPropertyAnimator(
      duration: 0.8, timingParameters: curve, container: container)
    try animator.addAnimations { views throws(ValidationError) in
      try views.set(.positionX, of: "v", to: .number(250))
      try views.set(.opacity, of: "v", to: .number(0.2))
      try views.set(.transform, of: "v", to: .transform(.makeRotation(by: 0.7, x: 0, y: 0, z: 1)))
    }
    try animator.addAnimations(
      { views throws(ValidationError) in
        try views.set(.bounds, of: "w", to: .rect(Rect(x: 0, y: 0, width: 40, height: 20)))
      }, delayFactor: 0.25)
    try animator.addCompletion { position in position == .end ? [.remove(layerID: "w")] : [] }
    let scene = try animator.scene(containerSize: Size(width: 300, height: 300))
    try animator.startAnimation(at: 0)
    let fixed = animator
    await propertyCheck(count: 120, input: Gen.double(in: 0...1)) { t in
      let a = try fixed.sample(at: t)
      let b = try scene.sample(at: t)
      #expect(a.isCompleted == b.isCompleted)
      #expect(a.layers.map(\.id) == b.layers.map(\.id))
      for (p, q) in zip(a.layers, b.layers) {
        #expect(abs(p.opacity - q.opacity) <= 1e-12)
        for (u, v) in zip(p.corners, q.corners) {
          #expect(abs(u.point.x - v.point.x) <= 1e-9 && abs(u.point.y - v.point.y) <= 1e-9)
        }
      }
    }
  }

  /// delayFactor 1: the block does not move until the very end, in the animator and its scene.
  @Test func blockDelayedToTheEnd() throws {
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: try Self.container())
    try animator.addAnimations(
      { views throws(ValidationError) in try views.set(.positionX, of: "v", to: .number(150)) },
      delayFactor: 1)
    let scene = try animator.scene(containerSize: Size(width: 100, height: 100))
    try animator.startAnimation(at: 0)
    for t in [0.0, 0.5, 0.999] {
      #expect(Self.x(try animator.presentation(at: t)) == 50)
      #expect(Self.x(scene.presentation(at: t)) == 50)
    }
    #expect(Self.x(try animator.presentation(at: 1)) == 150)
    #expect(try scene.sample(at: 1)["v"]!.matrix.m41 == 100)
  }

  /// Starting after a delay holds the layers.
  @Test func startAfterDelay() throws {
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: try Self.container()
    ) { views throws(ValidationError) in try views.set(.positionX, of: "v", to: .number(150)) }
    try animator.startAnimation(afterDelay: 0.5, at: 0)
    #expect(animator.delay == 0.5 && animator.isRunning && animator.state == .active)
    #expect(Self.x(try animator.presentation(at: 0.4)) == 50)
    #expect(Self.close(Self.x(try animator.presentation(at: 1)), 100))
  }

  /// Stopped without finishing, the layers stay where they were; stopped then finished at the
  /// end, they jump there.
  @Test func stopAndFinish() throws {
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: try Self.container()
    ) { views throws(ValidationError) in try views.set(.positionX, of: "v", to: .number(150)) }
    try animator.startAnimation(at: 0)
    var stopped = animator
    try stopped.stopAnimation(withoutFinishing: true, at: 0.25)
    #expect(stopped.state == .inactive)
    #expect(Self.close(Self.x(try stopped.presentation(at: 5)), 75))
    try animator.stopAnimation(withoutFinishing: false, at: 0.25)
    #expect(animator.state == .stopped)
    try animator.finishAnimation(at: .end, time: 0.5)
    #expect(Self.x(try animator.presentation(at: 0.5)) == 150)
    #expect(try animator.sample(at: 0.5).isCompleted)
  }

  @Test func properties() throws {
    var animator = try ViewPropertyAnimator(
      duration: 2, dampingRatio: 0.7, container: try Self.container())
    #expect(animator.duration == 2 && animator.state == .inactive && !animator.isRunning)
    #expect(animator.timingParameters == .spring(try SpringTimingParameters(dampingRatio: 0.7)))
    #expect(!animator.pausesOnCompletion && !animator.isReversed && animator.delay == 0)
    try animator.setPausesOnCompletion(true, at: 0)
    try animator.setReversed(true, at: 0)
    #expect(animator.pausesOnCompletion && animator.isReversed)
    let cubic = try ViewPropertyAnimator(
      duration: 1, controlPoint1: Point(x: 0.42, y: 0), controlPoint2: Point(x: 1, y: 1),
      container: try Self.container())
    #expect(cubic.timingParameters == .easeIn)
    #expect(cubic.currentTime == 0)
  }

  // MARK: Rejections

  @Test func rejectsBadDelayFactor() throws {
    var animator = try ViewPropertyAnimator(duration: 1, container: try Self.container())
    let block: (inout AnimationBlock) throws(ValidationError) -> Void = {
      views throws(ValidationError) in
      try views.set(.opacity, of: "v", to: .number(0))
    }
    #expect(throws: ValidationError(field: "delayFactor", reason: .outOfRange(lower: 0, upper: 1)))
    {
      try animator.addAnimations(block, delayFactor: 1.5)
    }
    #expect(throws: ValidationError(field: "delayFactor", reason: .notFinite)) {
      try animator.addAnimations(block, delayFactor: .nan)
    }
    #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
      try animator.addAnimations(block, at: .infinity)
    }
    try animator.startAnimation(at: 1)
    #expect(throws: ValidationError(field: "time", reason: .decreasing)) {
      try animator.addAnimations(block, at: 0.5)
    }
    #expect(Self.x(animator.model) == 50 && animator.model[id: "v"]!.opacity == 1)
  }

  @Test func rejectsABlockThatThrows() throws {
    var animator = try ViewPropertyAnimator(duration: 1, container: try Self.container())
    #expect(throws: ValidationError(field: "layer", reason: .unknown("ghost"))) {
      try animator.addAnimations { views throws(ValidationError) in
        try views.set(.opacity, of: "v", to: .number(0))
        try views.set(.opacity, of: "ghost", to: .number(0))
      }
    }
    #expect(throws: ValidationError(field: "opacity", index: 0, reason: .notFinite)) {
      try animator.addAnimations { views throws(ValidationError) in
        try views.set(.opacity, of: "v", to: .number(.nan))
      }
    }
    #expect(throws: ValidationError.self) {
      try animator.addAnimations { views throws(ValidationError) in
        try views.set(.opacity, of: "v", to: .point(.zero))
      }
    }
    #expect(animator.model[id: "v"]!.opacity == 1)
    #expect(try animator.scene(containerSize: Size(width: 1, height: 1)).animations.entries.isEmpty)
  }

  @Test func rejectsAddingToAStoppedOrFinishedAnimator() throws {
    var animator = try ViewPropertyAnimator(duration: 1, container: try Self.container())
    try animator.startAnimation(at: 0)
    try animator.stopAnimation(withoutFinishing: false, at: 0.5)
    let block: (inout AnimationBlock) throws(ValidationError) -> Void = {
      views throws(ValidationError) in
      try views.set(.opacity, of: "v", to: .number(0))
    }
    #expect(
      throws: ValidationError(
        field: "animator", reason: .invalidState("addAnimations: the animator is stopped"))
    ) { try animator.addAnimations(block) }
    #expect(
      throws: ValidationError(
        field: "animator", reason: .invalidState("addCompletion: the animator is stopped"))
    ) { try animator.addCompletion { _ in [] } }
    try animator.finishAnimation(at: .current, time: 0.6)
    #expect(
      throws: ValidationError(
        field: "animator", reason: .invalidState("addAnimations: the animator is over"))
    ) { try animator.addAnimations(block) }
  }

  @Test func rejectsAContainerWithAnimations() throws {
    var container = try Self.container()
    try container.animate(.opacity, of: "v", to: .number(0), duration: 1, timingParameters: nil)
    #expect(
      throws: ValidationError(
        field: "container",
        reason: .invalidState(
          "holds animations, events or completion changes; a property animator makes its own"))
    ) { try ViewPropertyAnimator(duration: 1, container: container) }
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try ViewPropertyAnimator(duration: 0, container: try Self.container())
    }
    #expect(throws: ValidationError(field: "dampingRatio", reason: .notPositive)) {
      try ViewPropertyAnimator(duration: 1, dampingRatio: -1, container: try Self.container())
    }
  }

  @Test func sceneRejections() throws {
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: try Self.container()
    ) { views throws(ValidationError) in try views.set(.positionX, of: "v", to: .number(150)) }
    try animator.addAnimations { views throws(ValidationError) in
      try views.set(.positionX, of: "v", to: .number(250))
    }
    #expect(
      throws: ValidationError(
        field: "animations", reason: .invalidState("v.position.x is animated by two blocks"))
    ) { try animator.scene(containerSize: Size(width: 1, height: 1)) }
    let drivenError = ValidationError(
      field: "animator",
      reason: .invalidState(
        "has been driven beyond a start at time 0; the scene describes a plain run"))
    var paused = try ViewPropertyAnimator(duration: 1, container: try Self.container())
    try paused.startAnimation(at: 0)
    try paused.pauseAnimation(at: 0.5)
    #expect(throws: drivenError) { try paused.scene(containerSize: Size(width: 1, height: 1)) }
    var late = try ViewPropertyAnimator(duration: 1, container: try Self.container())
    try late.startAnimation(at: 0.25)
    #expect(throws: drivenError) { try late.scene(containerSize: Size(width: 1, height: 1)) }
    var paused0 = try ViewPropertyAnimator(duration: 1, container: try Self.container())
    try paused0.pauseAnimation(at: 0)
    #expect(throws: drivenError) { try paused0.scene(containerSize: Size(width: 1, height: 1)) }
  }

  /// An animator started inside `animateTransition(using:)` (a start at time 0, as UIKit code
  /// does) yields the same scene as before it started; `startAnimation(afterDelay: 0.25)` moves
  /// the block 0.25 s later: linear x 50 → 150 over [0.25, 1.25], so x(0.75) = 100, and the scene
  /// lasts 1.25 s.
  @Test func sceneOfAnAnimatorStartedAtZero() throws {
    let block: (inout AnimationBlock) throws(ValidationError) -> Void = {
      views throws(ValidationError) in
      try views.set(.positionX, of: "v", to: .number(150))
    }
    var animator = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: try Self.container(), animations: block)
    let before = try animator.scene(containerSize: Size(width: 100, height: 100))
    try animator.startAnimation(at: 0)
    let started = try animator.scene(containerSize: Size(width: 100, height: 100))
    #expect(started.animations.entries == before.animations.entries)
    #expect(started.duration == 1)
    var delayed = try ViewPropertyAnimator(
      duration: 1, curve: .linear, container: try Self.container(), animations: block)
    try delayed.startAnimation(afterDelay: 0.25, at: 0)
    let scene = try delayed.scene(containerSize: Size(width: 100, height: 100))
    #expect(scene.duration == 1.25)
    for (t, x) in [(0.0, 50.0), (0.25, 50), (0.75, 100), (1.25, 150)] {
      #expect(Self.close(Self.x(scene.presentation(at: t)), x, 1e-9))
      #expect(Self.close(Self.x(try delayed.presentation(at: t)), x, 1e-9))
    }
  }

  /// `UIViewPropertyAnimator(duration: 0, timingParameters: UISpringTimingParameters(mass: 1,
  /// stiffness: 100, damping: 15))`, as UIKit code writes it: the duration is ignored and the
  /// animator lasts the spring's settling duration, "just over 1 second" in Apple's
  /// `CASpringAnimation` example for these values (1.007 s).
  @Test func physicalSpringWithZeroDuration() throws {
    let spring = try SpringTimingParameters(mass: 1, stiffness: 100, damping: 15)
    let animator = try ViewPropertyAnimator(
      duration: 0, timingParameters: .spring(spring), container: try Self.container())
    #expect(abs(animator.duration - 1.007) < 1e-3)
    #expect(throws: ValidationError(field: "duration", reason: .negative)) {
      try ViewPropertyAnimator(
        duration: -1, timingParameters: .spring(spring), container: try Self.container())
    }
    #expect(throws: ValidationError(field: "duration", reason: .notFinite)) {
      try ViewPropertyAnimator(
        duration: .nan, timingParameters: .spring(spring), container: try Self.container())
    }
    // A duration-based spring and a cubic curve still need a positive duration.
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try ViewPropertyAnimator(
        duration: 0, timingParameters: .spring(try SpringTimingParameters(dampingRatio: 0.8)),
        container: try Self.container())
    }
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try ViewPropertyAnimator(duration: 0, container: try Self.container())
    }
  }

  /// A run too short to fit a spring to (1e-300 s: ω0 beyond 1e100 rad/s): the animator jumps
  /// to the end values, and its scene is a typed error.
  @Test func noSpringFitsAnExtremeRun() throws {
    var animator = try ViewPropertyAnimator(
      duration: 1e-300, dampingRatio: 1, container: try Self.container()
    ) { views throws(ValidationError) in try views.set(.positionX, of: "v", to: .number(150)) }
    #expect(
      throws: ValidationError(
        field: "duration", reason: .invalidState("no spring fits a run of 1e-300 s"))
    ) { try animator.scene(containerSize: Size(width: 1, height: 1)) }
    try animator.pauseAnimation(at: 0)
    try animator.setScrubsLinearly(false, at: 0)
    try animator.setFractionComplete(0.5, at: 0)
    #expect(Self.x(try animator.presentation(at: 0)) == 150)
  }

  @Test func rejectsBadSampleTimes() throws {
    let animator = try ViewPropertyAnimator(duration: 1, container: try Self.container())
    #expect(throws: ValidationError(field: "time", reason: .negative)) {
      try animator.sample(at: -1)
    }
    #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
      try animator.presentation(at: .nan)
    }
  }
}
