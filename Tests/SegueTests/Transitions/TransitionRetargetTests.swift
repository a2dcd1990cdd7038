import Testing

@testable import Segue

/// ``TransitionScene/retarget(_:of:to:at:duration:timingParameters:)``: the presented value is
/// continuous at the switch, and so is its velocity with a curve that starts at rest (checked
/// through ``TransitionScene/velocity(at:)`` and by central differences of ``TransitionScene/sample(at:)``);
/// the new target is reached; times before the switch are unchanged; bad calls leave the scene
/// as it was.
@Suite struct TransitionRetargetTests {
  /// One layer whose position runs from (0, 0) to (100, 0), opacity 1 → 0.2, and transform
  /// identity → scale 0.5, over [0, 1) (ease-in-ease-out); the scene lasts 1 s.
  static func scene() throws -> TransitionScene {
    var tree = LayerTree()
    try tree.add(
      Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 40, height: 20),
        position: Point(x: 100, y: 0), transform: .makeScale(x: 0.5, y: 0.5, z: 1),
        opacity: 0.2))
    var animations = AnimationSet()
    animations.add(
      try .basic(
        .position, from: .point(.zero), to: .point(Point(x: 100, y: 0)), duration: 1,
        timingFunction: .easeInEaseOut, fillMode: .backwards), to: "card")
    animations.add(
      try .basic(
        .opacity, from: .number(1), to: .number(0.2), duration: 1,
        timingFunction: .easeInEaseOut, fillMode: .backwards), to: "card")
    animations.add(
      try .basic(
        .transform, from: .transform(.identity),
        to: .transform(.makeScale(x: 0.5, y: 0.5, z: 1)), duration: 1,
        timingFunction: .easeInEaseOut, fillMode: .backwards), to: "card")
    return try TransitionScene(
      duration: 1, containerSize: Size(width: 400, height: 400), model: tree,
      animations: animations)
  }

  /// The retargets the tests make: (property, new target).
  static let targets: [(LayerProperty, AnimationValue)] = [
    (.position, .point(Point(x: 60, y: 200))),
    (.opacity, .number(0.9)),
    (
      .transform,
      .transform(Transform3D.makeRotation(by: 0.7, x: 0, y: 0, z: 1).translated(x: 30, y: 5, z: 0))
    ),
  ]

  static let restingCurves: [TimingCurveProvider] = [
    .easeIn, .easeInEaseOut, .spring(try! SpringTimingParameters(dampingRatio: 0.8)),
  ]

  static func fields(_ s: TransitionSample) -> [Double] {
    s.layers[0].matrix.fields + [s.layers[0].opacity]
  }

  static func rates(_ v: [LayerVelocity]) -> [Double] { v[0].matrix.fields + [v[0].opacity] }

  @Test(arguments: 0..<3, 0..<3)
  func valueAndVelocityAreContinuousAtTheSwitch(target: Int, curve: Int) throws {
    let original = try Self.scene()
    var scene = original
    let t0 = 0.4
    let (property, value) = Self.targets[target]
    try scene.retarget(
      property, of: "card", to: value, at: t0, timingParameters: Self.restingCurves[curve])
    // Before the switch nothing changed.
    for t in [0, 0.1, 0.3999] {
      #expect(Self.fields(try scene.sample(at: t)) == Self.fields(try original.sample(at: t)))
    }
    // Value: within 1e-6 (points, opacity) either side of t0 ± 1e-7 s.
    let h = 1e-7
    for (a, b) in zip(
      Self.fields(try scene.sample(at: t0 - h)), Self.fields(try scene.sample(at: t0 + h)))
    {
      #expect(abs(a - b) <= 1e-4, "\(a) vs \(b)")
    }
    // Velocity: analytic either side, and second-order one-sided differences of the sample
    // ending at t0 from each side (step 1e-4 s: truncation h²·|f‴|/3 ≈ 2e-3 points/s for a
    // 200-point spring retarget, rounding ≈ 1e-12·F/h; tolerance 1e-3·(F/0.2 s + |v|), far
    // below the jump Δ/d a curve that does not start at rest makes, see the next test).
    let left = Self.rates(try scene.velocity(at: t0 - 1e-9))
    let right = Self.rates(try scene.velocity(at: t0))
    let step = 1e-4
    let f0 = Self.fields(try scene.sample(at: t0))
    let l1 = Self.fields(try scene.sample(at: t0 - step))
    let l2 = Self.fields(try scene.sample(at: t0 - 2 * step))
    let r1 = Self.fields(try scene.sample(at: t0 + step))
    let r2 = Self.fields(try scene.sample(at: t0 + 2 * step))
    let magnitude = f0.map(abs).max() ?? 1
    for k in left.indices {
      let numericLeft = (3 * f0[k] - 4 * l1[k] + l2[k]) / (2 * step)
      let numericRight = (-3 * f0[k] + 4 * r1[k] - r2[k]) / (2 * step)
      let tolerance = 1e-3 * (max(magnitude, 1) / 0.2 + abs(right[k]))
      #expect(
        abs(left[k] - right[k]) <= 1e-6 * (1 + abs(left[k])),
        "channel \(k): \(left[k]) vs \(right[k])")
      #expect(abs(numericLeft - numericRight) <= tolerance, "channel \(k)")
      #expect(abs(numericRight - right[k]) <= tolerance, "channel \(k)")
      #expect(abs(numericLeft - left[k]) <= tolerance, "channel \(k)")
    }
  }

  /// A linear curve does not start at rest: the velocity jumps by `Δ/d` at the switch (the
  /// continuity check above would catch a curve that does not start at rest).
  @Test func aLinearRetargetJumpsInVelocity() throws {
    var scene = try Self.scene()
    try scene.retarget(
      .opacity, of: "card", to: .number(0.9), at: 0.5, duration: 0.25, timingParameters: .linear)
    let jump = try scene.velocity(at: 0.5)[0].opacity - scene.velocity(at: 0.5 - 1e-9)[0].opacity
    // Δ = 0.9 − 0.2 over 0.25 s.
    #expect(abs(jump - 0.7 / 0.25) <= 1e-6)
  }

  /// Velocities after the switch equal central differences of the samples (the additive rate
  /// through the chain rule; transforms as `Δ′·B + Δ·B′`).
  @Test(arguments: 0..<3)
  func velocityMatchesCentralDifferences(target: Int) throws {
    var scene = try Self.scene()
    let (property, value) = Self.targets[target]
    try scene.retarget(property, of: "card", to: value, at: 0.3, duration: 0.5)
    for t in [0.35, 0.5, 0.62, 0.79, 0.9] {
      try TransitionVelocityTests.expectMatchesCentralDifference(scene, at: t)
    }
  }

  /// The new target is reached by the end of the retarget and shown in the finished state; a
  /// second retarget starts from the first one's target.
  @Test(arguments: 0..<3)
  func theNewTargetIsReached(target: Int) throws {
    var scene = try Self.scene()
    let (property, value) = Self.targets[target]
    try scene.retarget(property, of: "card", to: value, at: 0.2, duration: 0.5)
    var expected = scene.model
    try expected.set(property, to: value, at: 0)
    let reference = try TransitionScene(
      duration: 1, containerSize: scene.containerSize, model: expected,
      animations: AnimationSet())
    // Once the old animations are over too (the end, the finished state).
    for t in [1.0, 3.0] {
      let a = Self.fields(try scene.sample(at: t))
      let b = Self.fields(try reference.sample(at: t))
      for (x, y) in zip(a, b) { #expect(abs(x - y) <= 1e-9 * (1 + abs(y)), "t = \(t)") }
    }
    // After the retarget's end the offset is all of Δ over what runs beneath (the presented
    // opacity clamped to [0, 1]).
    if property == .opacity {
      let original = try Self.scene()
      for t in [0.7, 0.95] {
        let beneath = try original.sample(at: t).layers[0].opacity
        #expect(
          abs(try scene.sample(at: t).layers[0].opacity - min(beneath + 0.9 - 0.2, 1)) <= 1e-12)
      }
    }
    // Chained: the second retarget's old target is the first one's new target.
    try scene.retarget(.opacity, of: "card", to: .number(0.5), at: 0.75)
    #expect(abs(try scene.sample(at: 1).layers[0].opacity - 0.5) <= 1e-12)
    #expect(abs(try scene.sample(at: 0.999_999).layers[0].opacity - 0.5) <= 1e-6)
    // Cancelled: as before any retarget.
    let cancelled = try scene.sample(at: 2, completion: .cancelled)
    #expect(
      Self.fields(cancelled) == Self.fields(try Self.scene().sample(at: 2, completion: .cancelled)))
  }

  /// Every rejected input throws its typed error and leaves the scene unchanged.
  @Test func badCallsAreTypedErrorsAndChangeNothing() throws {
    let original = try Self.scene()
    func rejects(
      _ field: String, _ call: (inout TransitionScene) throws -> Void,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      var scene = original
      do {
        try call(&scene)
        Issue.record("accepted", sourceLocation: sourceLocation)
      } catch {
        #expect(
          (error as? ValidationError)?.field == field, "\(error)", sourceLocation: sourceLocation)
      }
      #expect(
        scene.animations.entries == original.animations.entries, sourceLocation: sourceLocation)
    }
    let p = AnimationValue.point(Point(x: 1, y: 2))
    rejects("time") { try $0.retarget(.position, of: "card", to: p, at: .nan) }
    rejects("time") { try $0.retarget(.position, of: "card", to: p, at: -0.1) }
    rejects("time") { try $0.retarget(.position, of: "card", to: p, at: 1) }
    rejects("layer") { try $0.retarget(.position, of: "nope", to: p, at: 0.5) }
    rejects("keyPath") {
      try $0.retarget(.backgroundColor, of: "card", to: .color(.black), at: 0.5)
    }
    rejects("keyPath") { try $0.retarget(.strokeEnd, of: "card", to: .number(1), at: 0.5) }
    rejects("toValue") {
      try $0.retarget(.position, of: "card", to: .point(Point(x: .infinity, y: 0)), at: 0.5)
    }
    rejects("toValue") { try $0.retarget(.position, of: "card", to: .number(3), at: 0.5) }
    rejects("duration") { try $0.retarget(.position, of: "card", to: p, at: 0.5, duration: 0) }
    rejects("duration") {
      try $0.retarget(.position, of: "card", to: p, at: 0.5, duration: 0.6)
    }
    var flat = original
    flat.model.storage[0].transform = .makeScale(x: 0, y: 1, z: 1)
    flat.animations = AnimationSet()
    var copy = flat
    do {
      try copy.retarget(.transform, of: "card", to: .transform(.identity), at: 0.5)
      Issue.record("a singular old target was accepted")
    } catch {
      #expect(error.reason == .singular)
    }
    #expect(copy.animations.entries.isEmpty)
  }

  /// An additive animation made by hand: content other than basic or spring, or a kind that does
  /// not add, is rejected.
  @Test func additiveAnimationsAreChecked() throws {
    #expect(throws: ValidationError.self) {
      try LayerAnimation(
        property: .backgroundColor, content: .basic(from: .color(.black), to: .color(.white)),
        timing: MediaTiming(duration: 1), isAdditive: true)
    }
    #expect(throws: ValidationError.self) {
      try LayerAnimation(
        property: .opacity,
        content: .keyframes(.numbers(try KeyframeTrack(values: [0, 1], keyTimes: [0, 1]))),
        timing: MediaTiming(duration: 1), isAdditive: true)
    }
  }
}
