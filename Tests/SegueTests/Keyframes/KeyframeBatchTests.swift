import PropertyBased
import SegueBenchSupport
import Testing

@testable import Segue

/// Runs a ``KeyframeEvaluationJob`` and returns the outputs.
func keyframeBatchRun(_ batch: KeyframeBatch, _ input: [Float]) throws(ValidationError) -> [Float] {
  var out = [Float](repeating: .nan, count: batch.count)
  try input.withUnsafeBufferPointer { u throws(ValidationError) in
    try out.withUnsafeMutableBufferPointer { o throws(ValidationError) in
      try KeyframeEvaluationJob(keyframes: batch, input: u, output: o).run()
    }
  }
  return out
}

/// A `Double` that is exactly a `Float`.
private func exactFloat(_ x: Double) -> Double { Double(Float(x)) }

/// The shared layout of one random batch: mode, `K` keys, key times (Float-exact, gaps ≥ 0.04),
/// per-segment and overall timing functions.
struct KeyframeLayout {
  var mode: CalculationMode
  var keyCount: Int
  var keyTimes: [Double]?
  var timingFunctions: [TimingFunction]?
  var timingFunction: TimingFunction?

  static let curves: [TimingFunction] = [
    .easeIn, .linear, .easeInEaseOut,
    .cubicBezier(try! CubicBezier(x1: 0.3, y1: -0.5, x2: 0.6, y2: 1.4)),
  ]

  static func random(_ mode: CalculationMode, _ rng: inout SplitMix64, eased: Bool) -> Self {
    let k = 2 + Int(rng.next() % 5)
    var times: [Double]? = nil
    if mode != .paced, mode != .cubicPaced, rng.next() % 4 != 0 {
      // Gaps: 0.04 + random weights, normalised, rounded to Float, first 0 and last 1.
      let count = mode == .discrete ? k + 1 : k
      let weights = (1..<count).map { _ in 0.2 + rng.nextUnit() }
      let total = weights.reduce(0, +)
      var t = [0.0]
      for w in weights.dropLast() { t.append(exactFloat(t.last! + w / total)) }
      t.append(1)
      // Discrete: Apple's n + 1 form, or each value's start only (n entries).
      times = mode == .discrete && rng.next() % 2 == 0 ? Array(t.prefix(k)) : t
    }
    var functions: [TimingFunction]? = nil
    if eased, mode != .discrete {
      functions = (0..<(k - 1)).map { _ in curves[Int(rng.next() % 4)] }
    }
    return KeyframeLayout(
      mode: mode, keyCount: k, keyTimes: times, timingFunctions: functions,
      timingFunction: eased ? .easeOut : nil)
  }

  /// A track of this layout with random values in [−10, 10] (and random TCB parameters for the
  /// cubic modes).
  func track(_ rng: inout SplitMix64) throws -> KeyframeTrack<Double> {
    let values = (0..<keyCount).map { _ in 20 * rng.nextUnit() - 10 }
    let cubic = mode == .cubic || mode == .cubicPaced
    func tcb() -> [Double]? {
      cubic ? (0..<keyCount).map { _ in 1.6 * rng.nextUnit() - 0.8 } : nil
    }
    return try KeyframeTrack(
      values: values, keyTimes: keyTimes, calculationMode: mode,
      timingFunctions: timingFunctions, timingFunction: timingFunction, tensionValues: tcb(),
      continuityValues: tcb(), biasValues: tcb())
  }
}

/// The batch keyframe kernel against ``KeyframeTrack/value(at:)`` in `Double` at the same
/// `Float` progress.
@Suite("KeyframeBatch: Float SIMD keyframe channels vs the Double reference")
struct KeyframeBatchTests {
  /// Worst error over `batches` random layouts of `mode` (50 tracks each, not a multiple of 16),
  /// 30 random progress values per track in [−0.1, 1.1] (outside [0, 1] relative to
  /// `1 + |reference|`). Discrete samples within 1e-6 of a key
  /// time are skipped (the Float and Double comparisons may pick different keys).
  static func worstError(_ mode: CalculationMode, eased: Bool, seed: UInt64) throws -> Double {
    var rng = SplitMix64(state: seed)
    var worst = 0.0
    for _ in 0..<6 {
      let layout = KeyframeLayout.random(mode, &rng, eased: eased)
      let tracks = try (0..<50).map { _ in try layout.track(&rng) }
      let batch = try KeyframeBatch(tracks: tracks.map(\.compiled))
      for _ in 0..<30 {
        let u = tracks.map { _ in Float(1.2 * rng.nextUnit() - 0.1) }
        let y = try keyframeBatchRun(batch, u)
        for (j, track) in tracks.enumerated() {
          let p = Double(u[j])
          if mode == .discrete,
            track.compiled.keyTimes.contains(where: { abs($0 - p) < 1e-6 })
          {
            continue
          }
          let reference = track.value(at: p)
          // Discrete values are copied: exactly the Float rounding of the reference. Outside
          // [0, 1] the end segments extrapolate (values grow with the distance, cubically in the
          // cubic mode), so the error there is measured relative to 1 + |reference|.
          let error =
            mode == .discrete ? Double(abs(y[j] - Float(reference))) : abs(Double(y[j]) - reference)
          worst = max(worst, p >= 0 && p <= 1 ? error : error / (1 + abs(reference)))
        }
      }
    }
    return worst
  }

  /// Bounds per mode (values in [−10, 10], key gaps ≥ about 0.04): the value rounding
  /// (`2⁻²⁴·10 ≈ 6e-7`) plus slope × the local fraction's error (`≈ 2⁻²⁴/gap`, slopes up to
  /// about 20/gap), and for eased tracks the Bézier solves' errors times the slope. Measured
  /// worst errors (seeds 12 / 11): linear 2.6e-6 / 1.4e-5, paced 2.1e-6 / 5.3e-6, cubic
  /// 4.1e-6 / 2.2e-5, cubicPaced 2.1e-6 / 6.6e-6; discrete exactly the `Float` of the value.
  @Test(arguments: [
    (CalculationMode.linear, false, 1e-5), (.linear, true, 5e-5), (.discrete, false, 0),
    (.discrete, true, 0), (.paced, false, 1e-5), (.paced, true, 5e-5), (.cubic, false, 1e-5),
    (.cubic, true, 5e-5), (.cubicPaced, false, 1e-5), (.cubicPaced, true, 5e-5),
  ])
  func randomTracksMatchReference(mode: CalculationMode, eased: Bool, bound: Double) throws {
    let worst = try Self.worstError(mode, eased: eased, seed: eased ? 11 : 12)
    #expect(worst <= bound, "\(mode) eased \(eased): worst \(worst)")
  }

  /// Keys are exact: with dyadic key times [0, 0.25, 0.5, 1] and Float-exact values, progress at
  /// a key time gives exactly that key (linear, cubic, discrete), whatever the segment timing
  /// functions; beyond the ends discrete holds the last and first keys, the others extrapolate
  /// the end segments as the reference does.
  @Test(arguments: [CalculationMode.linear, .cubic, .discrete])
  func keysAndEndsAreExact(mode: CalculationMode) throws {
    let values: [Double] = [1.5, -2.25, 4, 0.125]
    let track = try KeyframeTrack(
      values: values, keyTimes: [0, 0.25, 0.5, 1], calculationMode: mode,
      timingFunctions: mode == .discrete ? nil : [.easeIn, .easeOut, .easeInEaseOut])
    let batch = try KeyframeBatch(tracks: Array(repeating: track.compiled, count: 6))
    let y = try keyframeBatchRun(batch, [0, 0.25, 0.5, 1, 7, -3])
    #expect(Array(y[0..<4]) == [1.5, -2.25, 4, 0.125])
    if mode == .discrete {
      #expect(Array(y[4...]) == [0.125, 1.5])
    } else {
      // Outside [0, 1] the end segments extrapolate, as the reference does.
      for (j, u) in [(4, 7.0), (5, -3.0)] {
        let reference = track.value(at: u)
        #expect(abs(Double(y[j]) - reference) <= 1e-5 * (1 + abs(reference)), "u \(u)")
      }
    }
  }

  /// Channel selection: channel 1 of point tracks is the y coordinate (checked against the
  /// reference's `y`); tracks with different values share the layout.
  @Test func pointTrackChannelOne() throws {
    var rng = SplitMix64(state: 9)
    let tracks = try (0..<21).map { _ in
      try KeyframeTrack(
        values: (0..<4).map { _ in Point(x: rng.nextUnit(), y: 10 * rng.nextUnit()) },
        calculationMode: .cubic)
    }
    let batch = try KeyframeBatch(tracks: tracks.map(\.compiled), channel: 1)
    let u = (0..<21).map { Float($0) / 20 }
    let y = try keyframeBatchRun(batch, u)
    for j in 0..<21 {
      #expect(abs(Double(y[j]) - tracks[j].value(at: Double(u[j])).y) <= 1e-5)
    }
  }

  /// Counts 1, 15, 16, 17 and 33: every lane equals the single-track batch's lane (the tail's
  /// padding does not leak) and the reference within 1e-5.
  @Test(arguments: [1, 15, 16, 17, 33])
  func tailsMatchSingleLanes(count: Int) throws {
    var rng = SplitMix64(state: UInt64(count))
    let layout = KeyframeLayout.random(.cubic, &rng, eased: true)
    let tracks = try (0..<count).map { _ in try layout.track(&rng) }
    let u = (0..<count).map { _ in Float(rng.nextUnit()) }
    let y = try keyframeBatchRun(try KeyframeBatch(tracks: tracks.map(\.compiled)), u)
    for j in 0..<count {
      let single = try keyframeBatchRun(try KeyframeBatch(tracks: [tracks[j].compiled]), [u[j]])
      #expect(y[j] == single[0])
      #expect(abs(Double(y[j]) - tracks[j].value(at: Double(u[j]))) <= 5e-5)
    }
  }

  /// Linear tracks stay within their keys' range (a convex combination) for progress in
  /// [0, 1] (outside it the end segments extrapolate).
  @Test func linearStaysWithinKeyRange() async throws {
    var rng = SplitMix64(state: 4)
    let layout = KeyframeLayout.random(.linear, &rng, eased: false)
    let tracks = try (0..<17).map { _ in try layout.track(&rng) }
    let batch = try KeyframeBatch(tracks: tracks.map(\.compiled))
    await propertyCheck(count: 150, input: Gen.float(in: 0...1)) { u in
      let y = try keyframeBatchRun(batch, Array(repeating: u, count: 17))
      for (j, track) in tracks.enumerated() {
        let lo = Float(track.values.min()!)
        let hi = Float(track.values.max()!)
        #expect(y[j] >= lo && y[j] <= hi)
      }
    }
  }

  // MARK: Rejected input

  static func linear(_ values: [Double], _ times: [Double]? = nil) -> CompiledKeyframeTrack {
    try! KeyframeTrack(values: values, keyTimes: times).compiled
  }

  @Test func rejectsNoTracks() {
    #expect(throws: ValidationError(field: "tracks", reason: .tooFew(minimum: 1, actual: 0))) {
      _ = try KeyframeBatch(tracks: [])
    }
  }

  @Test func rejectsChannelOutOfRange() {
    #expect(
      throws: ValidationError(field: "channel", index: 0, reason: .outOfRange(lower: 0, upper: 0))
    ) { _ = try KeyframeBatch(tracks: [Self.linear([0, 1])], channel: 1) }
  }

  @Test func rejectsModeMismatch() throws {
    let cubic = try KeyframeTrack(values: [0.0, 1], calculationMode: .cubic).compiled
    #expect {
      _ = try KeyframeBatch(tracks: [Self.linear([0, 1]), cubic])
    } throws: { ($0 as? ValidationError)?.field == "tracks.calculationMode" }
  }

  @Test func rejectsKeyCountMismatch() {
    #expect(
      throws: ValidationError(
        field: "tracks.keyCount", index: 1, reason: .countMismatch(expected: 2, actual: 3))
    ) { _ = try KeyframeBatch(tracks: [Self.linear([0, 1]), Self.linear([0, 1, 2])]) }
  }

  @Test func rejectsKeyTimesMismatch() {
    #expect {
      _ = try KeyframeBatch(tracks: [
        Self.linear([0, 1, 2], [0, 0.5, 1]), Self.linear([0, 1, 2], [0, 0.25, 1]),
      ])
    } throws: { ($0 as? ValidationError)?.field == "tracks.keyTimes" }
  }

  @Test func rejectsSegmentTimingMismatch() throws {
    let eased = try KeyframeTrack(values: [0.0, 1], timingFunctions: [.easeIn]).compiled
    #expect {
      _ = try KeyframeBatch(tracks: [Self.linear([0, 1]), eased])
    } throws: { ($0 as? ValidationError)?.field == "tracks.timingFunctions" }
  }

  @Test func rejectsOverallTimingMismatch() throws {
    let eased = try KeyframeTrack(values: [0.0, 1], timingFunction: .easeIn).compiled
    #expect {
      _ = try KeyframeBatch(tracks: [Self.linear([0, 1]), eased])
    } throws: { ($0 as? ValidationError)?.field == "tracks.timingFunction" }
  }

  @Test func rejectsStepsTimingFunction() throws {
    let steps = try KeyframeTrack(
      values: [0.0, 1], timingFunctions: [.steps(try StepsEasing(steps: 3))]
    ).compiled
    #expect {
      _ = try KeyframeBatch(tracks: [steps])
    } throws: { ($0 as? ValidationError)?.field == "tracks.timingFunctions" }
  }

  @Test func rejectsValuesBeyondFloat() {
    #expect {
      _ = try KeyframeBatch(tracks: [Self.linear([0, 1]), Self.linear([0, 1e300])])
    } throws: { e in
      let e = e as? ValidationError
      return e?.field == "tracks.values" && e?.index == 1
    }
  }

  @Test func rejectsInputCountMismatch() throws {
    let batch = try KeyframeBatch(tracks: [Self.linear([0, 1]), Self.linear([2, 3])])
    #expect(
      throws: ValidationError(field: "input", reason: .countMismatch(expected: 2, actual: 1))
    ) { _ = try keyframeBatchRun(batch, [0.5]) }
  }

  @Test func rejectsNonFiniteInput() throws {
    let batch = try KeyframeBatch(tracks: [Self.linear([0, 1]), Self.linear([2, 3])])
    #expect(throws: ValidationError(field: "input", index: 1, reason: .notFinite)) {
      _ = try keyframeBatchRun(batch, [0.5, .nan])
    }
  }

  @Test func rejectsShortOutput() throws {
    let batch = try KeyframeBatch(tracks: [Self.linear([0, 1]), Self.linear([2, 3])])
    let input: [Float] = [0, 1]
    var out = [Float](repeating: 0, count: 1)
    #expect(throws: ValidationError(field: "output", reason: .tooFew(minimum: 2, actual: 1))) {
      try input.withUnsafeBufferPointer { u in
        try out.withUnsafeMutableBufferPointer { o in
          try KeyframeEvaluationJob(keyframes: batch, input: u, output: o).run()
        }
      }
    }
  }
}
