import PropertyBased
import Segue
import Testing

/// `CompiledAnimation`: evaluation at parent times — basic content with and without timing
/// functions, fill modes, repeats and autoreverse, speed and offset, spring content on its own
/// clock, keyframe content, transforms by decomposition. Every expected number is worked by hand
/// below or was printed by an independent mpmath computation (described where used).
@Suite("CompiledAnimation")
struct CompiledAnimationTests {
  static let r2 = 0.5.squareRoot()

  /// The number an animation presents at parent time `t`, or `nil`.
  static func number(_ c: CompiledAnimation, _ t: Double) -> Double? {
    guard let v = c.value(atParentTime: t) else { return nil }
    guard case .number(let x) = v else {
      Issue.record("expected a number, got \(v)")
      return nil
    }
    return x
  }

  static func transform(_ v: AnimationValue?) -> Transform3D? {
    guard case .transform(let m)? = v else {
      Issue.record("expected a transform, got \(String(describing: v))")
      return nil
    }
    return m
  }

  static func close(_ a: Transform3D?, _ b: [Double], _ tol: Double = 1e-14) -> Bool {
    guard let a else { return false }
    return zip(a.fields, b).allSatisfy { abs($0 - $1) <= tol }
  }

  /// `position.x` from `from` to `to`.
  static func basic(
    from: Double = 0, to: Double = 10, beginTime: Double = 0, duration: Double = 1,
    timingFunction: TimingFunction? = nil, fillMode: MediaTiming.FillMode = .both
  ) throws -> CompiledAnimation {
    CompiledAnimation(
      try LayerAnimation.basic(
        .positionX, from: .number(from), to: .number(to), beginTime: beginTime,
        duration: duration, timingFunction: timingFunction, fillMode: fillMode))
  }

  static func with(_ timing: MediaTiming, timingFunction: TimingFunction? = nil) throws
    -> CompiledAnimation
  {
    CompiledAnimation(
      try LayerAnimation(
        property: .positionX, content: .basic(from: .number(0), to: .number(10)), timing: timing,
        timingFunction: timingFunction))
  }

  /// Keeps the description it was compiled from.
  @Test func keepsAnimation() throws {
    let a = try LayerAnimation.basic(.opacity, from: .number(0), to: .number(1), duration: 1)
    #expect(CompiledAnimation(a).animation == a)
  }

  /// Linear pacing (no timing function): 0 → 10 over [0, 1) is 10·t: 2.5 at 0.25 (exact:
  /// 0·0.75 + 10·0.25); from beginTime 1 over 2 s, parent time 2 is progress 0.5, value 5.
  @Test func linearBasic() throws {
    #expect(Self.number(try Self.basic(), 0) == 0)
    #expect(Self.number(try Self.basic(), 0.25) == 2.5)
    #expect(Self.number(try Self.basic(beginTime: 1, duration: 2), 2) == 5)
    #expect(Self.number(try Self.basic(from: 4, to: -4, beginTime: 1, duration: 2), 1.5) == 2)
  }

  /// easeInEaseOut, the Bézier (0.42, 0), (0.58, 1), is point-symmetric about (½, ½): the value at
  /// half time is the midpoint. Off-centre values from an independent mpmath computation (40
  /// digits: bisection of Bx(s) = x on [0, 1] for 200 steps, then By(s)):
  /// easeInEaseOut(0.25) = 0.12916193104731981165, easeInEaseOut(0.75) = 0.87083806895268018835,
  /// easeIn(0.25) = 0.093464650718824859243, easeOut(0.25) = 0.37813813082510979734.
  @Test func timingFunctions() throws {
    let eio = try Self.basic(duration: 2, timingFunction: .easeInEaseOut)
    #expect(abs(Self.number(eio, 1)! - 5) < 1e-10)
    #expect(abs(Self.number(eio, 0.5)! - 1.2916193104731981165) < 1e-10)
    #expect(abs(Self.number(eio, 1.5)! - 8.7083806895268018835) < 1e-10)
    let easeIn = try Self.basic(timingFunction: .easeIn)
    #expect(abs(Self.number(easeIn, 0.25)! - 0.93464650718824859243) < 1e-10)
    let easeOut = try Self.basic(timingFunction: .easeOut)
    #expect(abs(Self.number(easeOut, 0.25)! - 3.7813813082510979734) < 1e-10)
    // Ends exact: eased 0 and 1 give from and to.
    #expect(Self.number(eio, 0) == 0)
    #expect(Self.number(eio, 2) == 10)
  }

  /// The curve is symmetric: v(t) + v(D − t) = from + to, at any t.
  @Test func easeInEaseOutSymmetry() async throws {
    let eio = try Self.basic(from: 0, to: 1, duration: 1, timingFunction: .easeInEaseOut)
    await propertyCheck(count: 200, input: Gen.double(in: 0...1)) { t in
      let sum = Self.number(eio, t)! + Self.number(eio, 1 - t)!
      #expect(abs(sum - 1) < 1e-10)
    }
  }

  /// Fill modes, animation over [1, 2): before the start, backwards fill shows fromValue, removed
  /// (or forwards only) has no effect (nil); after the end, forwards shows toValue, removed (or
  /// backwards only) nil. The end time itself is already "after".
  @Test func fillModes() throws {
    let removed = try Self.basic(beginTime: 1, fillMode: .removed)
    let backwards = try Self.basic(beginTime: 1, fillMode: .backwards)
    let forwards = try Self.basic(beginTime: 1, fillMode: .forwards)
    let both = try Self.basic(beginTime: 1, fillMode: .both)

    #expect(Self.number(removed, 0.5) == nil)
    #expect(Self.number(backwards, 0.5) == 0)
    #expect(Self.number(forwards, 0.5) == nil)
    #expect(Self.number(both, 0.5) == 0)

    for c in [removed, backwards, forwards, both] { #expect(Self.number(c, 1.5) == 5) }

    #expect(Self.number(removed, 2) == nil)
    #expect(Self.number(removed, 3) == nil)
    #expect(Self.number(backwards, 3) == nil)
    #expect(Self.number(forwards, 2) == 10)
    #expect(Self.number(forwards, 3) == 10)
    #expect(Self.number(both, 3) == 10)
  }

  /// A NaN or infinite parent time never yields NaN: NaN has no effect, ±∞ is before/after.
  @Test func nonFiniteTimes() throws {
    let both = try Self.basic(fillMode: .both)
    #expect(both.value(atParentTime: .nan) == nil)
    #expect(Self.number(both, -.infinity) == 0)
    #expect(Self.number(both, .infinity) == 10)
  }

  /// Autoreverse, duration 1, one repeat: active 2 s. Forward pass p = t; the backward pass
  /// mirrors, p = 1 − (t − 1): at 1.25, p = 0.75, value 7.5; at 1.75, p = 0.25, value 2.5. After
  /// the end with a forwards fill the whole cycle is done: progress 0, the fromValue.
  @Test func autoreverse() throws {
    var timing = MediaTiming(duration: 1, fillMode: .both)
    timing.autoreverses = true
    let c = try Self.with(timing)
    #expect(Self.number(c, 0.25) == 2.5)
    #expect(Self.number(c, 1.25) == 7.5)
    #expect(Self.number(c, 1.75) == 2.5)
    #expect(Self.number(c, 2.5) == 0)
  }

  /// The timing function sees the mirrored progress (CAMediaTiming's autoreverse): easeIn at
  /// t = 1.25 of an autoreversing 1 s animation is easeIn(0.75) = 0.62186186917489020266
  /// (mpmath, as in ``timingFunctions()``), value 6.2186…
  @Test func autoreverseWithTimingFunction() throws {
    var timing = MediaTiming(duration: 1, fillMode: .both)
    timing.autoreverses = true
    let c = try Self.with(timing, timingFunction: .easeIn)
    #expect(abs(Self.number(c, 1.25)! - 6.2186186917489020266) < 1e-10)
  }

  /// repeatCount 2.5, duration 1: active 2.5 s; at 2.25 the third pass is at p = 0.25 (2.5); after
  /// the end a forwards fill holds the value at D = 2.5, half-way through a pass (5).
  @Test func fractionalRepeatCount() throws {
    var timing = MediaTiming(duration: 1, fillMode: .both)
    timing.repeatCount = 2.5
    let c = try Self.with(timing)
    #expect(Self.number(c, 1.5) == 5)
    #expect(Self.number(c, 2.25) == 2.5)
    #expect(Self.number(c, 3) == 5)
  }

  /// repeatCount 2 without autoreverse: after the end the last pass is reported finished
  /// (the end-of-active rule), so a forwards fill shows toValue, not the start of a new pass.
  @Test func wholeRepeatCountEndsAtToValue() throws {
    var timing = MediaTiming(duration: 1, fillMode: .forwards)
    timing.repeatCount = 2
    let c = try Self.with(timing)
    #expect(Self.number(c, 1.25) == 2.5)
    #expect(Self.number(c, 2) == 10)
  }

  /// repeatDuration 1.5 s with duration 1: active until 1.5; the held value is p = 0.5.
  @Test func repeatDuration() throws {
    var timing = MediaTiming(duration: 1, fillMode: .forwards)
    timing.repeatDuration = 1.5
    let c = try Self.with(timing)
    #expect(Self.number(c, 1.25) == 2.5)
    #expect(Self.number(c, 5) == 5)
  }

  /// Speed and timeOffset: local = (t − beginTime)·speed + timeOffset. beginTime 1, speed 2: parent
  /// 1.25 is local 0.5 (value 5). timeOffset 0.25: parent 0 is local 0.25 (value 2.5).
  @Test func speedAndOffset() throws {
    let fast = try Self.with(MediaTiming(beginTime: 1, duration: 1, speed: 2, fillMode: .both))
    #expect(Self.number(fast, 1.25) == 5)
    let offset = try Self.with(MediaTiming(duration: 1, timeOffset: 0.25, fillMode: .both))
    #expect(Self.number(offset, 0) == 2.5)
  }

  /// Spring content runs on the spring's clock in seconds. Critically damped, ω0 = 10 (m 1,
  /// k 100, c 20), v0 = 0: x(t) = 1 − e^{−10t}(1 + 10t). Printed by mpmath (40 digits) from that
  /// formula: x(0.05) = 0.090204010431049864594, x(0.1) = 0.26424111765711535681,
  /// x(0.25) = 0.71270250481635421691, x(0.5) = 0.95957231800548719742.
  /// Values 100 → 200: 100 + 100·x.
  @Test func criticallyDampedSpring() throws {
    let spring = try DampedSpring(mass: 1, stiffness: 100, damping: 20)
    let a = try LayerAnimation(
      property: .positionX, content: .spring(spring, from: .number(100), to: .number(200)),
      timing: MediaTiming(duration: 1, fillMode: .both))
    let c = CompiledAnimation(a)
    #expect(Self.number(c, 0) == 100)
    #expect(abs(Self.number(c, 0.1)! - 126.424111765711535681) < 1e-11)
    #expect(abs(Self.number(c, 0.25)! - 171.270250481635421691) < 1e-11)
    #expect(abs(Self.number(c, 0.5)! - 195.957231800548719742) < 1e-11)

    // Begin time shifts the clock: at 0.55 with beginTime 0.5 the spring has run 0.05 s.
    var delayed = a
    delayed.timing.beginTime = 0.5
    #expect(abs(Self.number(CompiledAnimation(delayed), 0.55)! - 109.0204010431049864594) < 1e-11)

    // A 0.5 s duration shows the spring only for 0.5 s: a forwards fill holds x(0.5), not 1.
    var short = a
    short.timing.duration = 0.5
    #expect(abs(Self.number(CompiledAnimation(short), 3)! - 195.957231800548719742) < 1e-11)
  }

  /// The underdamped default spring (m 1, k 100, c 10: ζ = ½, ω0 = 10, ωd = 10·√¾) overshoots:
  /// x(0.3) = 1 − e^{−5·0.3}[cos(ωd·0.3) + (5/ωd) sin(ωd·0.3)] = 1.1243547674084117666 (mpmath,
  /// 40 digits). Numbers extrapolate to 11.24…; a translation T(0) → T(100, 0, 0) extrapolates to
  /// m41 = 112.43…
  @Test func overshootingSpring() throws {
    let spring = try DampedSpring()
    let number = CompiledAnimation(
      try LayerAnimation(
        property: .positionX, content: .spring(spring, from: .number(0), to: .number(10)),
        timing: MediaTiming(duration: 1, fillMode: .both)))
    #expect(abs(Self.number(number, 0.3)! - 11.243547674084117666) < 1e-11)

    let move = CompiledAnimation(
      try LayerAnimation(
        property: .transform,
        content: .spring(
          spring, from: .transform(.identity), to: .transform(.makeTranslation(x: 100, y: 0, z: 0))),
        timing: MediaTiming(duration: 1, fillMode: .both)))
    let m = Self.transform(move.value(atParentTime: 0.3))
    var expected = Transform3D.identity.fields
    expected[12] = 112.43547674084117666
    #expect(Self.close(m, expected, 1e-10))
  }

  /// Keyframe content over the eased progress: linear keys [0, 10, 30] at [0, 0.5, 1], duration 2.
  /// Parent 0.5 → u = 0.25, half-way through segment 0: 5. Parent 1.5 → u = 0.75: 20. End: 30.
  /// With easeInEaseOut on the animation, parent 1 → eased ½ → the middle key, 10.
  @Test func keyframeContent() throws {
    let track = try KeyframeTrack<Double>(values: [0, 10, 30], keyTimes: [0, 0.5, 1])
    let a = try LayerAnimation(
      property: .positionX, content: .keyframes(.numbers(track)),
      timing: MediaTiming(duration: 2, fillMode: .both))
    let c = CompiledAnimation(a)
    #expect(Self.number(c, 0) == 0)
    #expect(Self.number(c, 0.5) == 5)
    #expect(Self.number(c, 1.5) == 20)
    #expect(Self.number(c, 2) == 30)

    var eased = a
    eased.timingFunction = .easeInEaseOut
    #expect(abs(Self.number(CompiledAnimation(eased), 1)! - 10) < 1e-9)
  }

  /// Keyframes of other kinds: colours black → white at ½ are grey ½; transforms Rz(0), Rz(π/2),
  /// Rz(π) at u = 0.75 are Rz(3π/4) (m11 = −√½, m12 = √½, m21 = −√½, m22 = −√½); points.
  @Test func keyframeKinds() throws {
    let timing = MediaTiming(duration: 1, fillMode: .both)
    let colours = CompiledAnimation(
      try LayerAnimation(
        property: .backgroundColor,
        content: .keyframes(.colors(try KeyframeTrack(values: [RGBAColor.black, .white]))),
        timing: timing))
    #expect(
      colours.value(atParentTime: 0.5)
        == .color(try RGBAColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)))

    let rotations = CompiledAnimation(
      try LayerAnimation(
        property: .transform,
        content: .keyframes(
          .transforms(
            try KeyframeTrack(values: [
              Transform3D.identity, .makeRotation(by: .pi / 2, x: 0, y: 0, z: 1),
              .makeRotation(by: .pi, x: 0, y: 0, z: 1),
            ]))),
        timing: timing))
    let m = Self.transform(rotations.value(atParentTime: 0.75))
    let rz135: [Double] = [
      -Self.r2, Self.r2, 0, 0, -Self.r2, -Self.r2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
    ]
    #expect(Self.close(m, rz135, 1e-14))

    let points = CompiledAnimation(
      try LayerAnimation(
        property: .position,
        content: .keyframes(.points(try KeyframeTrack(values: [Point.zero, Point(x: 4, y: 8)]))),
        timing: timing))
    #expect(points.value(atParentTime: 0.25) == .point(Point(x: 1, y: 2)))
  }

  /// `value(atEased:)` skips the timing: basic content at e = 0.25, keyframes at e = 0.75, a
  /// spring at e·duration seconds (critical ω0 = 10, duration 0.4, e = 0.25 → x(0.1), see
  /// ``criticallyDampedSpring()``).
  @Test func valueAtEased() throws {
    let basic = try Self.basic(timingFunction: .easeIn)
    #expect(basic.value(atEased: 0.25) == .number(2.5))
    let spring = CompiledAnimation(
      try LayerAnimation(
        property: .opacity,
        content: .spring(
          try DampedSpring(mass: 1, stiffness: 100, damping: 20), from: .number(0), to: .number(1)),
        timing: MediaTiming(duration: 0.4, fillMode: .both)))
    guard case .number(let x) = spring.value(atEased: 0.25) else {
      Issue.record("expected a number")
      return
    }
    #expect(abs(x - 0.26424111765711535681) < 1e-13)
  }

  /// A `transform` animation Rz(0) → Rz(π/2) at half time is Rz(π/4) (decomposition: the angle is
  /// lerped), not the field-wise average. Ends are the given matrices field for field, even when
  /// not normalised (2·T(10, 0, 0), m44 = 2, is returned as is at progress 0).
  @Test func transformContent() throws {
    let turn = CompiledAnimation(
      try LayerAnimation.basic(
        .transform, from: .transform(.identity),
        to: .transform(.makeRotation(by: .pi / 2, x: 0, y: 0, z: 1)), duration: 1))
    let half = Self.transform(turn.value(atParentTime: 0.5))
    let rz45: [Double] = [
      Self.r2, Self.r2, 0, 0, -Self.r2, Self.r2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
    ]
    #expect(Self.close(half, rz45))

    let doubled = try Transform3D(
      fields: Transform3D.makeTranslation(x: 10, y: 0, z: 0).fields.map { $0 * 2 })
    let end = Transform3D.makeScale(x: 2, y: 2, z: 1)
    let c = CompiledAnimation(
      try LayerAnimation.basic(
        .transform, from: .transform(doubled), to: .transform(end), duration: 1,
        timingFunction: .easeInEaseOut))
    #expect(c.value(atParentTime: 0) == .transform(doubled))
    #expect(c.value(atParentTime: 1) == .transform(end))
    #expect(c.value(atParentTime: 5) == .transform(end))
  }

  /// A singular end cannot be decomposed: the value switches at progress ½ (S(0, 0, 1) until then,
  /// the identity from ½ on).
  @Test func singularTransformIsDiscrete() throws {
    let flat = Transform3D.makeScale(x: 0, y: 0, z: 1)
    let c = CompiledAnimation(
      try LayerAnimation.basic(
        .transform, from: .transform(flat), to: .transform(.identity), duration: 1))
    #expect(c.value(atParentTime: 0.25) == .transform(flat))
    #expect(c.value(atParentTime: 0.49) == .transform(flat))
    #expect(c.value(atParentTime: 0.5) == .transform(.identity))
    #expect(c.value(atParentTime: 0.75) == .transform(.identity))
  }

  /// Property: random basic animations (random begin, duration, values, curve and fill) give
  /// exactly fromValue at the begin time, exactly toValue at the end with a forwards fill, a
  /// finite value inside, and nil outside without the matching fill.
  @Test func randomBasicAnimations() async throws {
    let curves: [TimingFunction?] = [
      nil, .linear, .easeIn, .easeOut, .easeInEaseOut, .systemDefault,
      try .cubicBezier(0.3, -0.5, 0.7, 1.5),
    ]
    await propertyCheck(
      count: 200,
      input: Gen.double(in: -5...5), Gen.double(in: 0.01...3), Gen.double(in: -1e4...1e4),
      Gen.double(in: -1e4...1e4), Gen.int(in: 0...6), Gen.double(in: 0...1)
    ) { begin, duration, from, to, curve, u in
      let both = try Self.basic(
        from: from, to: to, beginTime: begin, duration: duration, timingFunction: curves[curve],
        fillMode: .both)
      let removed = try Self.basic(
        from: from, to: to, beginTime: begin, duration: duration, timingFunction: curves[curve],
        fillMode: .removed)
      // The first parent time whose local time (t − begin) is not below the duration (the
      // rounded sum begin + duration can fall a hair short).
      var end = begin + duration
      while end - begin < duration { end = end.nextUp }
      #expect(Self.number(both, begin) == from)
      #expect(Self.number(both, end) == to)
      #expect(Self.number(both, begin - 1) == from)
      #expect(Self.number(removed, begin - 1e-3) == nil)
      #expect(Self.number(removed, end) == nil)
      let inside = Self.number(removed, begin + u * duration * 0.999)
      #expect(inside?.isFinite == true)
    }
  }
}
