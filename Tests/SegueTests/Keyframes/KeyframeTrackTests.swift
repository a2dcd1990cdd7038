import PropertyBased
import Segue
import Testing

/// `KeyframeTrack` and its compiled form: every calculation mode at key times and between them,
/// timing functions, validation.
///
/// Reference timing-function values come from an independent python/mpmath computation at 40
/// digits: the Bézier `x(t) = 3(1−t)²t·x1 + 3(1−t)t²·x2 + t³` is inverted by 200 bisection steps
/// and `y(t)` evaluated there. Spline values are worked by hand or, for TCB, in exact rational
/// arithmetic (python `fractions`) from the Kochanek–Bartels formulas, as noted at each test.
@Suite("KeyframeTrack")
struct KeyframeTrackTests {
  /// mpmath: easeIn (0.42, 0, 1, 1) at x = 0.5.
  static let easeInAtHalf = 0.3153568125725393116
  /// mpmath: easeIn at x = 0.3.
  static let easeInAt03 = 0.12957676084535254836

  // MARK: linear

  /// [0, 10, 30] at [0, 0.25, 1]: u = 0.125 is half of segment 0 → 5; u = 0.625 is half of
  /// segment 1 → 20; keys exact; outside [0, 1] (only an overshooting overall curve gets there)
  /// the end segments extrapolate: u = −3 is segment 0 at s = −12 → −120, u = 7 segment 1 at
  /// s = (7 − 0.25)/0.75 = 9 → 10 + 20·9 = 190; NaN counts as 0; infinities hold the ends.
  @Test func linearByHand() throws {
    let track = try KeyframeTrack(values: [0.0, 10, 30], keyTimes: [0, 0.25, 1])
    #expect(track.value(at: 0.125) == 5)
    #expect(track.value(at: 0.625) == 20)
    #expect(track.value(at: 0) == 0)
    #expect(track.value(at: 0.25) == 10)
    #expect(track.value(at: 1) == 30)
    #expect(track.value(at: -3) == -120)
    #expect(track.value(at: 7) == 190)
    #expect(track.value(at: .nan) == 0)
    #expect(track.value(at: .infinity) == 30)
    #expect(track.value(at: -.infinity) == 0)
  }

  /// mpmath (40 digits, bisection of X(s) then Y(s*)): cubic-bezier(0.34, 1.56, 0.64, 1) at
  /// x = 0.5 is 1.0874006702186978771 (s* = 0.50769044…; by hand Y(0.5) = 3·⅛·1.56 + 3·⅛ + ⅛ =
  /// 1.085 and X(0.5) = 0.4925 < 0.5, so s* is a little above ½ and Y a little above 1.085).
  static let backOutAtHalf = 1.087400670218697877

  /// Per-segment timing functions are not clamped (as in a basic animation): a
  /// segment from 0 to 100 with cubic-bezier(0.34, 1.56, 0.64, 1) overshoots to
  /// 100·1.08740067… = 108.740067… at its middle, exactly as the same curve on a basic
  /// animation does.
  @Test func perSegmentOvershootIsNotClamped() throws {
    let back = try TimingFunction.cubicBezier(0.34, 1.56, 0.64, 1)
    let track = try KeyframeTrack(values: [0.0, 100], timingFunctions: [back])
    #expect(abs(track.value(at: 0.5) - 100 * Self.backOutAtHalf) < 1e-9)
    let basic = CompiledAnimation(
      try LayerAnimation.basic(
        .positionX, from: .number(0), to: .number(100), duration: 1, timingFunction: back))
    #expect(basic.value(atParentTime: 0.5) == .number(track.value(at: 0.5)))
    // The middle segment of three: [0, 10, 20, 30], segment 1 at s = 0.5 → 10 + 10·1.0874….
    let three = try KeyframeTrack(
      values: [0.0, 10, 20, 30], timingFunctions: [.linear, back, .linear])
    #expect(abs(three.value(at: 0.5) - (10 + 10 * Self.backOutAtHalf)) < 1e-9)
    // Cubic mode: [0, 100] Catmull–Rom (tangents 50 at both ends) at s' = 1.0874…:
    // h01·100 + 50·(h10 + h11), beyond the end value.
    let cubic = try KeyframeTrack(
      values: [0.0, 100], calculationMode: .cubic, timingFunctions: [back])
    let s = Self.backOutAtHalf
    let hermite =
      (-2 * s * s * s + 3 * s * s) * 100 + 50 * ((s * s * s - 2 * s * s + s) + (s * s * s - s * s))
    #expect(abs(cubic.value(at: 0.5) - hermite) < 1e-9)
    #expect(cubic.value(at: 0.5) > 100)
  }

  /// An overshooting overall timing function extrapolates the last segment, so a two-key track
  /// equals the basic animation with that curve: [0, 100] with the back-out curve at u = 0.5 is
  /// 108.740067…; discrete and cubicPaced hold their last value.
  @Test func overallOvershootExtrapolatesTheEndSegment() throws {
    let back = try TimingFunction.cubicBezier(0.34, 1.56, 0.64, 1)
    let track = try KeyframeTrack(values: [0.0, 100], timingFunction: back)
    #expect(abs(track.value(at: 0.5) - 100 * Self.backOutAtHalf) < 1e-9)
    let discrete = try KeyframeTrack(
      values: [0.0, 100], calculationMode: .discrete, timingFunction: back)
    #expect(discrete.value(at: 0.5) == 100)
    // cubicPaced holds its ends: the arc-length parameterisation ends with the curve.
    let paced = try KeyframeTrack(
      values: [0.0, 1, 2, 4], calculationMode: .cubicPaced, timingFunction: back)
    #expect(paced.value(at: 0.5) == 4)
  }

  /// `steps()` per segment: jump-start gives 1/n at s = 0, so a key time shows the first step
  /// into its segment (linear mode has no exception at the ends), except with the before flag.
  @Test func stepsPerSegmentAtKeyTimesAndBeforeFlag() throws {
    let start = TimingFunction.steps(try StepsEasing(steps: 4, position: .jumpStart))
    let track = try KeyframeTrack(values: [0.0, 100, 40], timingFunctions: [start, start])
    #expect(track.value(at: 0) == 25)
    #expect(track.value(at: 0, beforeFlag: true) == 0)
    #expect(track.value(at: 0.5) == 100 - 60 * 0.25)
    #expect(track.value(at: 1) == 40)
  }

  /// No key times: even spacing [0, 0.5, 1]; u = 0.75 → 10 + 20·0.5 = 20.
  @Test func linearEvenSpacing() throws {
    let track = try KeyframeTrack(values: [0.0, 10, 30])
    #expect(track.compiled.keyTimes == [0, 0.5, 1])
    #expect(track.value(at: 0.75) == 20)
  }

  /// [0, 5, 10, 20] at [0, 0.5, 0.5, 1]: a zero-length segment jumps; at 0.5 the jump has
  /// happened (10); just before, segment 0 at 0.4: 5·0.8 = 4; after, 0.75 → 15.
  @Test func linearZeroLengthSegmentJumps() throws {
    let track = try KeyframeTrack(values: [0.0, 5, 10, 20], keyTimes: [0, 0.5, 0.5, 1])
    #expect(track.value(at: 0.4) == 4)
    #expect(track.value(at: 0.5) == 10)
    #expect(track.value(at: 0.75) == 15)
  }

  /// Per-segment timing: [0, 10, 20] at [0, 0.5, 1] with [linear, easeIn]. u = 0.25 → 5;
  /// u = 0.75 → s = 0.5, s' = easeIn(0.5) → 10 + 10·s'. Keys stay exact.
  @Test func perSegmentTimingFunctions() throws {
    let track = try KeyframeTrack(
      values: [0.0, 10, 20], keyTimes: [0, 0.5, 1], timingFunctions: [.linear, .easeIn])
    #expect(track.value(at: 0.25) == 5)
    #expect(abs(track.value(at: 0.75) - (10 + 10 * Self.easeInAtHalf)) < 1e-9)
    #expect(track.value(at: 0.5) == 10)
    #expect(track.value(at: 1) == 20)
  }

  /// The animation's own timing function acts on u first: [0, 10, 20] evenly spaced is 20·u,
  /// so with easeIn at u = 0.5 the value is 20·easeIn(0.5); at u = 0.3, 20·easeIn(0.3).
  @Test func overallTimingFunctionActsFirst() throws {
    let track = try KeyframeTrack(values: [0.0, 10, 20], timingFunction: .easeIn)
    #expect(abs(track.value(at: 0.5) - 20 * Self.easeInAtHalf) < 1e-9)
    #expect(abs(track.value(at: 0.3) - 20 * Self.easeInAt03) < 1e-9)
    #expect(track.value(at: 1) == 20)
  }

  // MARK: discrete

  /// Apple's n + 1 form: [a, b, c] at [0, 0.2, 0.7, 1]: a on [0, 0.2), b on [0.2, 0.7), c from
  /// 0.7 through 1.
  @Test func discreteWithOneMoreKeyTime() throws {
    let track = try KeyframeTrack(
      values: [1.0, 2, 3], keyTimes: [0, 0.2, 0.7, 1], calculationMode: .discrete)
    #expect(track.value(at: 0) == 1)
    #expect(track.value(at: 0.19) == 1)
    #expect(track.value(at: 0.2) == 2)
    #expect(track.value(at: 0.69) == 2)
    #expect(track.value(at: 0.7) == 3)
    #expect(track.value(at: 1) == 3)
  }

  /// The n form: [0, 0.2, 0.7] are the starts; the same boundaries as above.
  @Test func discreteWithOneKeyTimePerValue() throws {
    let track = try KeyframeTrack(
      values: [1.0, 2, 3], keyTimes: [0, 0.2, 0.7], calculationMode: .discrete)
    #expect(track.value(at: 0.19) == 1)
    #expect(track.value(at: 0.2) == 2)
    #expect(track.value(at: 0.7) == 3)
    #expect(track.value(at: 1) == 3)
  }

  /// No key times: value i from i/3: 0.33 → first, 0.34 → second, 0.67 → third. One value is
  /// allowed in discrete mode and is constant.
  @Test func discreteEvenSpacingAndSingleValue() throws {
    let track = try KeyframeTrack(values: [1.0, 2, 3], calculationMode: .discrete)
    #expect(track.value(at: 0.33) == 1)
    #expect(track.value(at: 0.34) == 2)
    #expect(track.value(at: 0.67) == 3)
    let single = try KeyframeTrack(values: [4.0], calculationMode: .discrete)
    #expect(single.value(at: 0) == 4)
    #expect(single.value(at: 1) == 4)
  }

  // MARK: paced

  /// Points (0,0), (3,4), (3,10): lengths 5 and 6, key times [0, 5/11, 1]. At u = 5/11 the
  /// middle key; at u = 0.5, s = (0.5 − 5/11)/(6/11) = 1/12 → (3, 4 + 6/12) = (3, 4.5).
  /// keyTimes and timingFunctions are ignored.
  @Test func pacedByHand() throws {
    let values = [Point(x: 0, y: 0), Point(x: 3, y: 4), Point(x: 3, y: 10)]
    let track = try KeyframeTrack(
      values: values, keyTimes: [0, 0.9, 1], calculationMode: .paced,
      timingFunctions: [.easeIn, .easeIn])
    #expect(abs(track.compiled.keyTimes[1] - 5.0 / 11) < 1e-15)
    #expect(track.value(at: 5.0 / 11) == values[1])
    let mid = track.value(at: 0.5)
    #expect(abs(mid.x - 3) < 1e-12 && abs(mid.y - 4.5) < 1e-12)
    #expect(track.compiled.segmentTimingFunctionIndices.isEmpty)
  }

  /// All lengths zero: even spacing.
  @Test func pacedAllZeroFallsBackToEvenSpacing() throws {
    let track = try KeyframeTrack(values: [2.0, 2, 2], calculationMode: .paced)
    #expect(track.compiled.keyTimes == [0, 0.5, 1])
    #expect(track.value(at: 0.3) == 2)
  }

  /// Monotone scalar keys paced: the value moves at constant speed, v₀ + u·(vₙ − v₀).
  @Test func pacedMonotoneScalarsMoveAtConstantSpeed() async {
    await propertyCheck(
      count: 150, input: Gen.double(in: 0...5).array(of: 2...6), Gen.double(in: 0...1)
    ) { steps, u in
      var values = [0.0]
      for s in steps { values.append(values[values.count - 1] + s) }
      guard values[values.count - 1] > 0 else { return }
      let track = try KeyframeTrack(values: values, calculationMode: .paced)
      let expected = u * values[values.count - 1]
      #expect(abs(track.value(at: u) - expected) <= 1e-9 * max(1, expected))
    }
  }

  // MARK: cubic

  /// Catmull–Rom on [0, 1, 3, 2] at [0, 0.25, 0.5, 1] (index-based, no rescaling).
  /// Tangents with duplicated ends, mᵢ = (pᵢ₊₁ − pᵢ₋₁)/2: m₀ = (1 − 0)/2 = 0.5, m₁ = (3 − 0)/2 =
  /// 1.5, m₂ = (2 − 1)/2 = 0.5, m₃ = (2 − 3)/2 = −0.5. At s = 0.5: h00 = h01 = 0.5,
  /// h10 = 0.125, h11 = −0.125.
  /// Segment 0 (u = 0.125): 0.5·0 + 0.125·0.5 + 0.5·1 − 0.125·1.5 = 0.375.
  /// Segment 1 (u = 0.375): 0.5·1 + 0.125·1.5 + 0.5·3 − 0.125·0.5 = 2.125.
  /// Segment 2 (u = 0.75): 0.5·3 + 0.125·0.5 + 0.5·2 + 0.125·0.5 = 2.625.
  @Test func catmullRomByHand() throws {
    let track = try KeyframeTrack(
      values: [0.0, 1, 3, 2], keyTimes: [0, 0.25, 0.5, 1], calculationMode: .cubic)
    #expect(track.value(at: 0.125) == 0.375)
    #expect(track.value(at: 0.375) == 2.125)
    #expect(track.value(at: 0.75) == 2.625)
    for (u, v) in zip([0, 0.25, 0.5, 1], [0.0, 1, 3, 2]) { #expect(track.value(at: u) == v) }
    #expect(track.compiled.outgoingTangents == [0.5, 1.5, 0.5, -0.5])
    #expect(track.compiled.incomingTangents == [0.5, 1.5, 0.5, -0.5])
  }

  /// Kochanek–Bartels with non-zero parameters on [0, 1, 3, 2] at [0, 0.25, 0.5, 1]:
  /// tension [0, 1/2, −3/10, 0], continuity [0, −2/5, 1/5, 0], bias [0, 1/4, −1/2, 1/10].
  /// Exact rational evaluation of the Kochanek–Bartels formulas (python `fractions`, ends
  /// duplicated): DS = [1/2, 53/80, −13/20, −11/20], DD = [1/2, 57/80, 0, −11/20]; e.g. by hand
  /// for key 1 (t = 1/2, c = −2/5, b = 1/4, back = 1, ahead = 2):
  /// DS₁ = (1/2)(5/4)(7/5)/2·1 + (1/2)(3/4)(3/5)/2·2 = 7/16 + 9/40 = 53/80.
  /// Values: u = 1/8 → 307/640 = 0.4796875; u = 3/8 → 1389/640 = 2.1703125;
  /// u = 3/4 → 411/160 = 2.56875; u = 0.9 (s = 4/5) → 1359/625 = 2.1744.
  @Test func kochanekBartelsWithParameters() throws {
    let track = try KeyframeTrack(
      values: [0.0, 1, 3, 2], keyTimes: [0, 0.25, 0.5, 1], calculationMode: .cubic,
      tensionValues: [0, 0.5, -0.3, 0], continuityValues: [0, -0.4, 0.2, 0],
      biasValues: [0, 0.25, -0.5, 0.1])
    let ds = [0.5, 53.0 / 80, -13.0 / 20, -11.0 / 20]
    let dd = [0.5, 57.0 / 80, 0, -11.0 / 20]
    for i in 0..<4 {
      #expect(abs(track.compiled.incomingTangents[i] - ds[i]) < 1e-15)
      #expect(abs(track.compiled.outgoingTangents[i] - dd[i]) < 1e-15)
    }
    #expect(abs(track.value(at: 0.125) - 0.4796875) < 1e-14)
    #expect(abs(track.value(at: 0.375) - 2.1703125) < 1e-14)
    #expect(abs(track.value(at: 0.75) - 2.56875) < 1e-14)
    #expect(abs(track.value(at: 0.9) - 2.1744) < 1e-14)
  }

  /// The fade-slide opacity track [0, 1, 1] at [0, 0.5, 1] overshoots in the flat segment:
  /// m₁ = (1 − 0)/2 = 0.5, m₂ = (1 − 1)/2 = 0, so at u = 0.75 (s = 0.5):
  /// 0.5·1 + 0.125·0.5 + 0.5·1 − 0.125·0 = 1.0625.
  @Test func cubicOvershootsInAFlatSegment() throws {
    let track = try KeyframeTrack(
      values: [0.0, 1, 1], keyTimes: [0, 0.5, 1], calculationMode: .cubic)
    #expect(track.value(at: 0.75) == 1.0625)
  }

  /// Cubic is channel-wise: keys on the line y = 2x stay on it (each channel is the same spline
  /// scaled by 2), which a mixed-channel bug would break.
  @Test func cubicIsChannelWise() async throws {
    let track = try KeyframeTrack(
      values: [Point(x: 0, y: 0), Point(x: 1, y: 2), Point(x: 3, y: 6), Point(x: 2, y: 4)],
      calculationMode: .cubic)
    await propertyCheck(count: 100, input: Gen.double(in: 0...1)) { u in
      let p = track.value(at: u)
      #expect(abs(p.y - 2 * p.x) < 1e-12)
    }
  }

  /// Per-segment timing also applies in cubic mode: [0, 1] Catmull–Rom has tangents 0.5 at both
  /// ends, p(s) = h01 + 0.5·(h10 + h11) = −s³ + 1.5s² + 0.5s; with easeIn on the segment,
  /// u = 0.5 gives s' = easeIn(0.5) and p(s').
  @Test func cubicHonoursSegmentTiming() throws {
    let track = try KeyframeTrack(
      values: [0.0, 1], calculationMode: .cubic, timingFunctions: [.easeIn])
    let s = Self.easeInAtHalf
    #expect(abs(track.value(at: 0.5) - (-s * s * s + 1.5 * s * s + 0.5 * s)) < 1e-9)
  }

  /// A cubic colour track that overshoots is clamped to [0, 1] per component.
  @Test func cubicColorOvershootIsClamped() throws {
    let track = try KeyframeTrack(
      values: [RGBAColor.clear, .white, .white], keyTimes: [0, 0.5, 1], calculationMode: .cubic)
    #expect(track.value(at: 0.75) == .white)
    #expect(track.value(at: 0.5) == .white)
  }

  // MARK: cubicPaced

  /// [0, 1, 2, 4] Catmull–Rom is monotone (tangents 0.5, 1, 1.5, 1; each segment's derivative
  /// −1.5s² + 2s + 0.5, 1.5s² − s + 1 and −4.5s² + 4s + 1.5 stays positive on [0, 1]), so arc
  /// length is the value travelled and constant speed means value = 4u. Tolerance 1e-4 covers the
  /// linear inversion between the 128 samples per segment.
  @Test func cubicPacedMonotoneScalarIsLinearInU() async throws {
    let track = try KeyframeTrack(values: [0.0, 1, 2, 4], calculationMode: .cubicPaced)
    await propertyCheck(count: 100, input: Gen.double(in: 0...1)) { u in
      #expect(abs(track.value(at: u) - 4 * u) < 1e-4)
    }
    #expect(track.value(at: 0) == 0)
    #expect(track.value(at: 1) == 4)
  }

  /// Points (0,0), (1,2), (3,1), Catmull–Rom by index, arc-length parameterised. mpmath (40
  /// digits): segment lengths by quadrature of |p'(s)| are both 2.2818963936275992; the point at
  /// a quarter of the total length is in segment 0 at s = 0.50492159861853804, i.e.
  /// (0.37993370968501904, 1.0754128428113815); half the length is the middle key (1, 2).
  /// (Uniform parameterisation would give (0.375, 1.0625) at u = 0.25.)
  @Test func cubicPacedMatchesArcLength() throws {
    let track = try KeyframeTrack(
      values: [Point(x: 0, y: 0), Point(x: 1, y: 2), Point(x: 3, y: 1)],
      keyTimes: [0, 0.1, 1], calculationMode: .cubicPaced, timingFunctions: [.easeIn, .easeIn])
    let quarter = track.value(at: 0.25)
    #expect(abs(quarter.x - 0.37993370968501904) < 1e-4)
    #expect(abs(quarter.y - 1.0754128428113815) < 1e-4)
    let half = track.value(at: 0.5)
    #expect(abs(half.x - 1) < 1e-4 && abs(half.y - 2) < 1e-4)
    #expect(track.value(at: 1) == Point(x: 3, y: 1))
  }

  // MARK: compiled form

  /// The flat layout: values key-major, effective key times, one timing-function table entry per
  /// distinct non-linear function, −1 for linear segments.
  @Test func compiledLayout() throws {
    let track = try KeyframeTrack(
      values: [Point(x: 1, y: 2), Point(x: 3, y: 4), Point(x: 5, y: 6), Point(x: 7, y: 8)],
      keyTimes: [0, 0.5, 0.75, 1], timingFunctions: [.easeIn, .linear, .easeIn])
    let c = track.compiled
    #expect(c.calculationMode == .linear)
    #expect(c.channelCount == 2)
    #expect(c.keyCount == 4)
    #expect(c.values == [1, 2, 3, 4, 5, 6, 7, 8])
    #expect(c.keyTimes == [0, 0.5, 0.75, 1])
    #expect(c.timingFunctions == [.easeIn])
    #expect(c.segmentTimingFunctionIndices == [0, -1, 0])
    #expect(c.outgoingTangents.isEmpty && c.arcLengths.isEmpty)
    #expect(c.locate(0.625) == .init(segment: 1, fraction: 0.5))
    var out = [0.0, 0, 0]
    c.channels(at: 0.625, into: &out, offset: 1)
    #expect(out == [0, 4, 5])
  }

  // MARK: invariants

  /// Random tracks (2–6 keys, distinct random key times, random values) pass exactly through
  /// every value at its key time in linear and cubic modes, and start/end at the first/last value
  /// at u = 0 and u = 1.
  @Test func tracksPassThroughTheirKeys() async {
    await propertyCheck(
      count: 150, input: Gen.double(in: -100...100).array(of: 2...6),
      Gen.double(in: 0.05...1).array(of: 6), Gen.bool()
    ) { values, gaps, cubic in
      let n = values.count
      var times = [0.0]
      for i in 1..<n { times.append(times[i - 1] + gaps[i]) }
      let total = times[n - 1]
      times = times.map { $0 / total }
      times[n - 1] = 1
      let track = try KeyframeTrack(
        values: values, keyTimes: times, calculationMode: cubic ? .cubic : .linear)
      for i in 0..<n { #expect(track.value(at: times[i]) == values[i]) }
      #expect(track.value(at: 0) == values[0])
      #expect(track.value(at: 1) == values[n - 1])
    }
  }

  /// Linear tracks stay within the range of their keys.
  @Test func linearStaysWithinItsKeys() async {
    await propertyCheck(
      count: 150, input: Gen.double(in: -100...100).array(of: 2...6), Gen.double(in: 0...1)
    ) { values, u in
      let track = try KeyframeTrack(values: values)
      let v = track.value(at: u)
      #expect(v >= values.min()! - 1e-9 && v <= values.max()! + 1e-9)
    }
  }

  // MARK: accepted edge forms

  /// Discrete n form may end before 1; paced modes ignore the key-time count.
  /// By hand: the discrete track shows 1 before 0.4 and 2 from it; the paced tracks space
  /// their equally distant values evenly (2 at ½), whatever key times were given.
  @Test func acceptedKeyTimeForms() throws {
    let discrete = try KeyframeTrack(
      values: [1.0, 2], keyTimes: [0, 0.4], calculationMode: .discrete)
    #expect(discrete.value(at: 0.3) == 1 && discrete.value(at: 0.4) == 2)
    let paced = try KeyframeTrack(values: [1.0, 2, 3], keyTimes: [0, 1], calculationMode: .paced)
    #expect(abs(paced.value(at: 0.5) - 2) < 1e-12 && paced.value(at: 1) == 3)
    let cubicPaced = try KeyframeTrack(
      values: [1.0, 2, 3], keyTimes: [0.2], calculationMode: .cubicPaced)
    #expect(cubicPaced.value(at: 0) == 1 && cubicPaced.value(at: 1) == 3)
    #expect(abs(cubicPaced.value(at: 0.5) - 2) < 1e-9)
  }

  // MARK: rejected input, one condition each

  @Test func rejectsTooFewValues() {
    #expect(throws: ValidationError(field: "values", reason: .tooFew(minimum: 2, actual: 1))) {
      try KeyframeTrack(values: [1.0])
    }
  }

  @Test func rejectsNoValuesInDiscreteMode() {
    #expect(throws: ValidationError(field: "values", reason: .tooFew(minimum: 1, actual: 0))) {
      try KeyframeTrack<Double>(values: [], calculationMode: .discrete)
    }
  }

  @Test func rejectsNonFiniteValue() {
    #expect(throws: ValidationError(field: "values", index: 1, reason: .notFinite)) {
      try KeyframeTrack(values: [Point.zero, Point(x: 0, y: .nan)])
    }
  }

  @Test func rejectsKeyTimeCountMismatch() {
    #expect(
      throws: ValidationError(field: "keyTimes", reason: .countMismatch(expected: 3, actual: 2))
    ) {
      try KeyframeTrack(values: [1.0, 2, 3], keyTimes: [0, 1])
    }
  }

  @Test func rejectsDiscreteKeyTimeCountMismatch() {
    #expect(
      throws: ValidationError(field: "keyTimes", reason: .countMismatch(expected: 3, actual: 4))
    ) {
      try KeyframeTrack(
        values: [1.0, 2], keyTimes: [0, 0.2, 0.5, 1], calculationMode: .discrete)
    }
  }

  @Test func rejectsNaNKeyTime() {
    #expect(throws: ValidationError(field: "keyTimes", index: 1, reason: .notFinite)) {
      try KeyframeTrack(values: [1.0, 2, 3], keyTimes: [0, .nan, 1])
    }
  }

  @Test func rejectsKeyTimeAboveOne() {
    #expect(
      throws: ValidationError(
        field: "keyTimes", index: 1, reason: .outOfRange(lower: 0, upper: 1))
    ) {
      try KeyframeTrack(values: [1.0, 2, 3], keyTimes: [0, 1.5, 1])
    }
  }

  @Test func rejectsNegativeKeyTime() {
    #expect(
      throws: ValidationError(
        field: "keyTimes", index: 0, reason: .outOfRange(lower: 0, upper: 1))
    ) {
      try KeyframeTrack(values: [1.0, 2], keyTimes: [-0.1, 1])
    }
  }

  @Test func rejectsDecreasingKeyTimes() {
    #expect(throws: ValidationError(field: "keyTimes", index: 2, reason: .decreasing)) {
      try KeyframeTrack(values: [1.0, 2, 3, 4], keyTimes: [0, 0.6, 0.4, 1])
    }
  }

  @Test func rejectsFirstKeyTimeNotZero() {
    #expect(throws: ValidationError(field: "keyTimes", index: 0, reason: .mustEqual(0))) {
      try KeyframeTrack(values: [1.0, 2], keyTimes: [0.1, 1])
    }
  }

  @Test func rejectsLastKeyTimeNotOneInCubicMode() {
    #expect(throws: ValidationError(field: "keyTimes", index: 2, reason: .mustEqual(1))) {
      try KeyframeTrack(values: [1.0, 2, 3], keyTimes: [0, 0.5, 0.9], calculationMode: .cubic)
    }
  }

  @Test func rejectsDiscreteLongFormNotEndingAtOne() {
    #expect(throws: ValidationError(field: "keyTimes", index: 2, reason: .mustEqual(1))) {
      try KeyframeTrack(values: [1.0, 2], keyTimes: [0, 0.5, 0.9], calculationMode: .discrete)
    }
  }

  @Test func rejectsDiscreteFirstKeyTimeNotZero() {
    #expect(throws: ValidationError(field: "keyTimes", index: 0, reason: .mustEqual(0))) {
      try KeyframeTrack(values: [1.0, 2], keyTimes: [0.2, 0.5], calculationMode: .discrete)
    }
  }

  @Test func rejectsNaNKeyTimeEvenInPacedMode() {
    #expect(throws: ValidationError(field: "keyTimes", index: 0, reason: .notFinite)) {
      try KeyframeTrack(values: [1.0, 2], keyTimes: [.nan], calculationMode: .paced)
    }
  }

  @Test func rejectsTimingFunctionCountMismatch() {
    #expect(
      throws: ValidationError(
        field: "timingFunctions", reason: .countMismatch(expected: 2, actual: 1))
    ) {
      try KeyframeTrack(values: [1.0, 2, 3], timingFunctions: [.easeIn])
    }
  }

  @Test func rejectsTensionCountMismatch() {
    #expect(
      throws: ValidationError(
        field: "tensionValues", reason: .countMismatch(expected: 2, actual: 3))
    ) {
      try KeyframeTrack(values: [1.0, 2], calculationMode: .cubic, tensionValues: [0, 0, 0])
    }
  }

  @Test func rejectsTensionOutOfRange() {
    #expect(
      throws: ValidationError(
        field: "tensionValues", index: 1, reason: .outOfRange(lower: -1, upper: 1))
    ) {
      try KeyframeTrack(values: [1.0, 2], calculationMode: .cubic, tensionValues: [0, 1.5])
    }
  }

  @Test func rejectsNaNContinuity() {
    #expect(throws: ValidationError(field: "continuityValues", index: 0, reason: .notFinite)) {
      try KeyframeTrack(values: [1.0, 2], calculationMode: .cubic, continuityValues: [.nan, 0])
    }
  }

  @Test func rejectsBiasOutOfRange() {
    #expect(
      throws: ValidationError(
        field: "biasValues", index: 0, reason: .outOfRange(lower: -1, upper: 1))
    ) {
      try KeyframeTrack(values: [1.0, 2], calculationMode: .cubic, biasValues: [-1.01, 0])
    }
  }
}
