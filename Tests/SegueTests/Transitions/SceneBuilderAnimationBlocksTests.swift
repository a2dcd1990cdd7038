import Segue
import Testing

/// `SceneBuilder`'s UIView block animations: `animate(withDuration:delay:timingParameters:animations:)`
/// (frames and non-animatable properties inside blocks) and
/// `animateKeyframes(withDuration:delay:options:animations:)` with `addKeyframe` blocks, the
/// UIView keyframe rule, calculation modes, the overall curve, and every rejection.
@Suite("SceneBuilder animation blocks")
struct SceneBuilderAnimationBlocksTests {
  /// **v**: bounds (0, 0, 100, 100), position (50, 50), opacity 1.
  static func builder() throws -> SceneBuilder { try SceneBuilderTests.builder() }

  static func opacity(_ b: SceneBuilder, at t: Double) -> Double {
    b.animations.presentation(of: b.model, at: t)[id: "v"]!.opacity
  }

  static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool {
    abs(a - b) <= tolerance
  }

  // MARK: animate(withDuration:)

  /// `view.frame = (0, 0, 200, 50)` inside a linear 1 s block starting at 0.5 s: bounds.size
  /// (100, 100) → (200, 50) and position (50, 50) → (100, 25); at t = 1 (half way) size
  /// (150, 75), position (75, 37.5), so the frame is (0, 0, 150, 75). `clipsToBounds` set in the
  /// same block is a model change at once, with no animation.
  @Test func frameInsideABlock() throws {
    var b = try Self.builder()
    try b.animate(withDuration: 1, delay: 0.5, timingParameters: .linear) {
      views throws(ValidationError) in
      try views.setFrame(Rect(x: 0, y: 0, width: 200, height: 50), of: "v")
      try views.set(.masksToBounds, of: "v", to: .boolean(true))
      #expect(views.frame(of: "v") == Rect(x: 0, y: 0, width: 200, height: 50))
    }
    #expect(b.model[id: "v"]!.frame == Rect(x: 0, y: 0, width: 200, height: 50))
    #expect(b.model[id: "v"]!.masksToBounds)
    #expect(b.animations.entries.map(\.animation.property) == [.boundsSize, .position])
    let at = { (t: Double) in b.animations.presentation(of: b.model, at: t)[id: "v"]! }
    #expect(at(0.25).frame == Rect(x: 0, y: 0, width: 100, height: 100))
    let half = at(1).frame
    #expect(Self.close(half.width, 150) && Self.close(half.height, 75))
    #expect(Self.close(half.minX, 0) && Self.close(half.minY, 0))
    #expect(at(0).masksToBounds)
  }

  /// A duration `≤ 0` changes the model at once with no animation (UIKit's rule); a duration
  /// that is not finite or a negative delay is refused and changes nothing.
  @Test func blockDurationRules() throws {
    var b = try Self.builder()
    try b.animate(withDuration: 0) { views throws(ValidationError) in
      try views.set(.opacity, of: "v", to: .number(0.25))
    }
    #expect(b.model[id: "v"]!.opacity == 0.25 && b.animations.entries.isEmpty)
    let set: (inout AnimationBlock) throws(ValidationError) -> Void = {
      views throws(ValidationError) in
      try views.set(.opacity, of: "v", to: .number(1))
    }
    #expect(throws: ValidationError(field: "duration", reason: .notFinite)) {
      try b.animate(withDuration: .infinity, animations: set)
    }
    #expect(throws: ValidationError(field: "delay", reason: .negative)) {
      try b.animate(withDuration: 1, delay: -1, animations: set)
    }
    #expect(throws: ValidationError(field: "layer", reason: .unknown("ghost"))) {
      try b.animate(withDuration: 1) { views throws(ValidationError) in
        try views.set(.opacity, of: "v", to: .number(1))
        try views.setFrame(.zero, of: "ghost")
      }
    }
    #expect(throws: ValidationError(field: "frame", index: 1, reason: .notFinite)) {
      try b.animate(withDuration: 1) { views throws(ValidationError) in
        try views.setFrame(Rect(x: 0, y: .infinity, width: 1, height: 1), of: "v")
      }
    }
    #expect(b.model[id: "v"]!.opacity == 0.25 && b.animations.entries.isEmpty)
  }

  // MARK: animateKeyframes

  /// Keyframes (0, 0.5) opacity → 0 and (0.75, 0.25) opacity → 0.5 over 2 s after 0.5 s: keys
  /// (0, 1), (0.5, 0), hold (0.75, 0), (1, 0.5), linear mode and pacing. At t the animation is at
  /// p = (t − 0.5)/2: t = 1 → p = 0.25 → 0.5; t = 1.5 → 0; t = 1.75 → 0 (the hold);
  /// t = 2.25 → p = 0.875 → 0.25; before 0.5 the old value 1; from 2.5 on the model, 0.5.
  @Test func keyframesFollowTheUIViewRule() throws {
    var b = try Self.builder()
    try b.animateKeyframes(withDuration: 2, delay: 0.5) { keyframes throws(ValidationError) in
      try keyframes.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
        views throws(ValidationError) in try views.set(.opacity, of: "v", to: .number(0))
      }
      try keyframes.addKeyframe(withRelativeStartTime: 0.75, relativeDuration: 0.25) {
        views throws(ValidationError) in try views.set(.opacity, of: "v", to: .number(0.5))
      }
    }
    #expect(b.model[id: "v"]!.opacity == 0.5)
    #expect(b.animations.entries.count == 1)
    for (t, expected) in [(0.0, 1.0), (1, 0.5), (1.5, 0), (1.75, 0), (2.25, 0.25), (3, 0.5)] {
      #expect(Self.close(Self.opacity(b, at: t), expected), "t = \(t)")
    }
  }

  /// `.calculationModeDiscrete`: each key's value holds until the next key time, so at p = 0.25
  /// (t = 0.5 of 2 s) the first value 1 still shows and at p = 0.5 the second, 0.
  @Test func discreteCalculationMode() throws {
    var b = try Self.builder()
    try b.animateKeyframes(withDuration: 2, options: .calculationModeDiscrete) {
      keyframes throws(ValidationError) in
      try keyframes.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
        views throws(ValidationError) in try views.set(.opacity, of: "v", to: .number(0))
      }
    }
    #expect(Self.opacity(b, at: 0.5) == 1)
    #expect(Self.opacity(b, at: 1.0) == 0)
    #expect(Self.opacity(b, at: 1.5) == 0)
  }

  /// The curve applies to the whole animation, not per keyframe: with `.easeIn` (the Bézier
  /// (0.42, 0), (1, 1)) the keyframe track is read at easeIn(p). One keyframe (0, 1) opacity
  /// 1 → 0 over 1 s: opacity(t) = 1 − easeIn(t); at t = 0.5 easeIn is below 0.5 (it starts
  /// slowly), so opacity is above 0.5.
  @Test func curveAppliesToTheWholeAnimation() throws {
    var b = try Self.builder()
    try b.animateKeyframes(withDuration: 1, options: KeyframeAnimationOptions(curve: .easeIn)) {
      keyframes throws(ValidationError) in
      try keyframes.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) {
        views throws(ValidationError) in try views.set(.opacity, of: "v", to: .number(0))
      }
    }
    #expect(b.animations.entries[0].animation.timingFunction == .easeIn)
    for t in [0.1, 0.5, 0.9] {
      #expect(Self.close(Self.opacity(b, at: t), 1 - TimingFunction.easeIn.transform(t), 1e-9))
    }
    #expect(Self.opacity(b, at: 0.5) > 0.5)
  }

  /// Two views and a transform in one keyframe; `clipsToBounds` and `maskedCorners` set in a
  /// keyframe change the model at once and get no track.
  @Test func keyframesOnSeveralViewsAndModelOnlyProperties() throws {
    var b = try Self.builder()
    try b.add(Layer(id: "w"))
    let turn = Transform3D.makeRotation(by: .pi / 2, x: 0, y: 1, z: 0)
    try b.animateKeyframes(withDuration: 1) { keyframes throws(ValidationError) in
      try keyframes.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) {
        views throws(ValidationError) in
        try views.set(.transform, of: "v", to: .transform(turn))
        try views.set(.opacity, of: "w", to: .number(0))
        try views.set(.masksToBounds, of: "w", to: .boolean(true))
        try views.set(.maskedCorners, of: "w", to: .cornerMask(.layerMinXMinYCorner))
      }
    }
    #expect(b.animations.entries.map(\.layerID) == ["v", "w"])
    #expect(b.model[id: "w"]!.masksToBounds)
    #expect(b.model[id: "w"]!.maskedCorners == .layerMinXMinYCorner)
    let quarter = b.animations.presentation(of: b.model, at: 0.75)
    #expect(Self.close(quarter[id: "w"]!.opacity, 0.5))
    // Half way through the turn: a rotation by π/4 about y (m11 = cos π/4).
    #expect(Self.close(quarter[id: "v"]!.transform.m11, (0.5).squareRoot(), 1e-9))
  }

  /// A duration `≤ 0` applies the keyframes' changes at once without animating.
  @Test func zeroDurationKeyframesChangeAtOnce() throws {
    var b = try Self.builder()
    try b.animateKeyframes(withDuration: 0) { keyframes throws(ValidationError) in
      try keyframes.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) {
        views throws(ValidationError) in try views.set(.opacity, of: "v", to: .number(0.5))
      }
    }
    #expect(b.model[id: "v"]!.opacity == 0.5 && b.animations.entries.isEmpty)
  }

  /// Every rejection names its field (and the keyframe's index); nothing changes.
  @Test func keyframeRejections() throws {
    var b = try Self.builder()
    func fails(
      _ expected: ValidationError, duration: Double = 1, delay: Double = 0,
      _ body: @escaping (inout KeyframeAnimationBlock) throws(ValidationError) -> Void
    ) {
      #expect(throws: expected) {
        try b.animateKeyframes(withDuration: duration, delay: delay, animations: body)
      }
    }
    let opacity0: (inout AnimationBlock) throws(ValidationError) -> Void = {
      views throws(ValidationError) in try views.set(.opacity, of: "v", to: .number(0))
    }
    fails(ValidationError(field: "duration", reason: .notFinite), duration: .nan) { _ in }
    fails(ValidationError(field: "delay", reason: .negative), delay: -0.1) { _ in }
    fails(
      ValidationError(field: "relativeStartTime", index: 0, reason: .outOfRange(lower: 0, upper: 1))
    ) {
      k throws(ValidationError) in
      try k.addKeyframe(withRelativeStartTime: -0.1, relativeDuration: 0.5, animations: opacity0)
    }
    fails(ValidationError(field: "relativeDuration", index: 0, reason: .notFinite)) {
      k throws(ValidationError) in
      try k.addKeyframe(withRelativeStartTime: 0, relativeDuration: .nan, animations: opacity0)
    }
    fails(
      ValidationError(
        field: "relativeDuration", index: 1, reason: .outOfRange(lower: 0, upper: 0.5))
    ) {
      k throws(ValidationError) in
      try k.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.1) { _ in }
      try k.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.6, animations: opacity0)
    }
    fails(ValidationError(field: "keyframes.v.opacity", index: 1, reason: .overlapping)) {
      k throws(ValidationError) in
      try k.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5, animations: opacity0)
      try k.addKeyframe(withRelativeStartTime: 0.25, relativeDuration: 0.5, animations: opacity0)
    }
    fails(ValidationError(field: "layer", reason: .unknown("ghost"))) {
      k throws(ValidationError) in
      try k.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) {
        views throws(ValidationError) in try views.set(.opacity, of: "ghost", to: .number(0))
      }
    }
    #expect(b.model[id: "v"]!.opacity == 1 && b.animations.entries.isEmpty)
  }
}
