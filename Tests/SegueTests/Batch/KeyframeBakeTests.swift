import PropertyBased
import Testing

@testable import Segue

/// A small deterministic generator for test data (splitmix64).
struct BatchTestRandom {
  var state: UInt64
  /// A double in `[lower, upper)`.
  mutating func next(_ lower: Double, _ upper: Double) -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return lower + (upper - lower) * Double(z >> 11) * 0x1.0p-53
  }
  /// A double in `[lower, upper)` that is exactly a `Float`.
  mutating func float(_ lower: Double, _ upper: Double) -> Double {
    Double(Float(next(lower, upper)))
  }
}

/// Runs `job` (with its output pointed at a fresh buffer of `count` values) and returns the
/// buffer and the path that ran.
func runBake(
  _ template: KeyframeBakeTemplate, _ values: BatchMatrix, path: BatchPath, threads: Int = 1,
  streaming: Bool = false, outputCount: Int? = nil
) throws -> (out: [Float], ran: BatchPath) {
  var out = [Float](repeating: -7, count: outputCount ?? template.frameCount * values.columns)
  var ran = BatchPath.automatic
  try out.withUnsafeMutableBufferPointer { buffer throws(ValidationError) in
    let job = KeyframeBakeJob(
      template: template, values: values, output: buffer, path: path, streamingStores: streaming)
    ran = try job.run(threads: threads)
  }
  return (out, ran)
}

@Suite("Keyframe template bake (SIMD and BLAS)")
struct KeyframeBakeTests {
  // MARK: Weights worked by hand

  /// Linear, three keys at the default even key times [0, 0.5, 1]. By hand: u = 0 → key 0;
  /// u = 0.25 → halfway along segment 0 → [0.5, 0.5, 0]; u = 0.5 → key 1; u = 0.75 →
  /// [0, 0.5, 0.5]; u = 1 → key 2. All exact in binary.
  @Test func linearWeightsByHand() throws {
    let t = try KeyframeBakeTemplate(keyCount: 3, progress: [0, 0.25, 0.5, 0.75, 1])
    #expect(t.weights == [1, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0.5, 0.5, 0, 0, 1])
  }

  /// Catmull–Rom (cubic, zero TCB), four keys at the even key times [0, 1/3, 2/3, 1].
  /// Segment i is h00·pᵢ + h10·DDᵢ + h01·pᵢ₊₁ + h11·DSᵢ₊₁ with DDᵢ = DSᵢ = (pᵢ₊₁ − pᵢ₋₁)/2 and
  /// the end keys duplicated. At s = 1/2: h00 = h01 = 1/2, h10 = 1/8, h11 = −1/8.
  /// * u = 1/2 (segment 1): ½p₁ + ⅛·½(p₂ − p₀) + ½p₂ − ⅛·½(p₃ − p₁) = [−1/16, 9/16, 9/16, −1/16].
  /// * u = 1/6 (segment 0, DD₀ = ½(p₁ − p₀), DS₁ = ½(p₂ − p₀)):
  ///   ½p₀ + (1/16)(p₁ − p₀) + ½p₁ − (1/16)(p₂ − p₀) = [1/2, 9/16, −1/16, 0].
  @Test func catmullRomWeightsByHand() throws {
    let t = try KeyframeBakeTemplate(
      keyCount: 4, calculationMode: .cubic, progress: [0.5, 1.0 / 6])
    let expected: [Double] = [
      -1.0 / 16, 9.0 / 16, 9.0 / 16, -1.0 / 16, 0.5, 9.0 / 16, -1.0 / 16, 0,
    ]
    for (a, b) in zip(t.weights, expected) { #expect(abs(a - b) <= 1e-12) }
  }

  /// Discrete, three keys (value i from i/3): u = 0.5 shows key 1, u = 0.9 key 2, u = 0 key 0.
  @Test func discreteWeightsByHand() throws {
    let t = try KeyframeBakeTemplate(
      keyCount: 3, calculationMode: .discrete, progress: [0.5, 0.9, 0])
    #expect(t.weights == [0, 1, 0, 0, 0, 1, 1, 0, 0])
  }

  /// The bake itself on hand values: keys [10, 20, 40] (one channel, two layers: second layer's
  /// keys [0, −4, 4]), linear, u = [0.25, 0.75]. Layer 0: 15, 30; layer 1: −2, 0.
  @Test(arguments: availableBatchPaths)
  func linearBakeByHand(path: BatchPath) throws {
    let t = try KeyframeBakeTemplate(keyCount: 3, progress: [0.25, 0.75])
    let v = try KeyframeBakeTemplate.keyValues([[10.0, 20, 40], [0.0, -4, 4]])
    #expect(v.elements == [10, 0, 20, -4, 40, 4])
    let (out, ran) = try runBake(t, v, path: path)
    #expect(ran == path)
    #expect(out == [15, -2, 30, 0])
  }

  // MARK: Against the scalar keyframe evaluation

  /// Both paths against ``KeyframeTrack/value(at:)`` in `Double` (the library's scalar
  /// evaluation, not the bake): random linear / cubic / discrete shapes (random key times,
  /// per-segment timing functions, an overall timing function, TCB parameters), L layers of C = 2
  /// channels (`Point`-like: two Double tracks per layer), Float-representable keys in
  /// [−500, 500]. Tolerance: the documented bound `(K + 2)·2⁻²⁴·Σ|W||v|`, with
  /// `Σₖ |W[f][k]| ≤ 4` for these shapes, i.e. `4·(K + 2)·2⁻²⁴·max|v|` per column.
  @Test func bothPathsMatchScalarEvaluation() async throws {
    await propertyCheck(count: 60, input: Gen.int(in: 0...1_000_000)) { seed in
      var rng = BatchTestRandom(state: UInt64(seed))
      let k = 2 + Int(rng.next(0, 7))
      let modes: [CalculationMode] = [.linear, .cubic, .discrete]
      let mode = modes[Int(rng.next(0, 3))]
      var keyTimes: [Double]? = nil
      if rng.next(0, 1) < 0.6 {
        var times = (0..<k).map { _ in rng.next(0, 1) }.sorted()
        times[0] = 0
        if mode != .discrete { times[k - 1] = 1 }
        keyTimes = times
      }
      let curves: [TimingFunction] = [.linear, .easeIn, .easeOut, .easeInEaseOut]
      let segmentCurves: [TimingFunction]? =
        rng.next(0, 1) < 0.5 ? (0..<(k - 1)).map { _ in curves[Int(rng.next(0, 4))] } : nil
      let overall: TimingFunction? = rng.next(0, 1) < 0.5 ? curves[Int(rng.next(0, 4))] : nil
      let tension: [Double]? =
        mode == .cubic && rng.next(0, 1) < 0.5 ? (0..<k).map { _ in rng.next(-1, 1) } : nil
      let bias: [Double]? =
        mode == .cubic && rng.next(0, 1) < 0.5 ? (0..<k).map { _ in rng.next(-1, 1) } : nil
      let frames = 1 + Int(rng.next(0, 12))
      var progress = (0..<frames).map { _ in rng.next(-0.1, 1.1) }
      if let keyTimes { progress.append(contentsOf: keyTimes) }
      let layers = 1 + Int(rng.next(0, 20))
      let channels = 2
      let keys: [[Double]] = (0..<(layers * channels)).map { _ in
        (0..<k).map { _ in rng.float(-500, 500) }
      }
      do {
        let template = try KeyframeBakeTemplate(
          keyCount: k, keyTimes: keyTimes, calculationMode: mode, timingFunctions: segmentCurves,
          timingFunction: overall, tensionValues: tension, biasValues: bias, progress: progress)
        let values = try KeyframeBakeTemplate.keyValues(keys.map { $0 })
        let n = values.columns
        for path in availableBatchPaths {
          let (out, _) = try runBake(template, values, path: path)
          for column in 0..<n {
            let track = try KeyframeTrack<Double>(
              values: keys[column], keyTimes: keyTimes, calculationMode: mode,
              timingFunctions: segmentCurves, timingFunction: overall, tensionValues: tension,
              biasValues: bias)
            let scale = keys[column].map(abs).max()!
            for f in 0..<progress.count {
              // Outside [0, 1] the end segments extrapolate, so a row's weights can exceed 1 in
              // magnitude (s = −0.1/gap on a short first segment): the Float products' rounding
              // grows with Σₖ |W[f][k]|.
              let row = (0..<k).reduce(0.0) { $0 + abs(template.weights[f * k + $1]) }
              let tolerance = 4 * Double(k + 2) * 0x1p-24 * scale * max(1, row) + 1e-12
              let exact = track.value(at: progress[f])
              let got = Double(out[f * n + column])
              #expect(abs(got - exact) <= tolerance, "\(path) f \(f) column \(column)")
            }
          }
        }
      } catch {
        Issue.record("unexpected \(error)")
      }
    }
  }

  /// Threads, chunking, streaming stores and the tail (N not a multiple of 16) leave the SIMD
  /// output bitwise unchanged; BLAS with two threads equals BLAS with one.
  @Test func threadsAndStreamingDoNotChangeResults() throws {
    var rng = BatchTestRandom(state: 7)
    let t = try KeyframeBakeTemplate(
      keyCount: 5, calculationMode: .cubic, progress: (0..<9).map { Double($0) / 8 })
    for n in [16 * 70, 16 * 70 + 5] {
      let v = try BatchMatrix(
        rows: 5, columns: n, elements: (0..<(5 * n)).map { _ in Float(rng.next(-1, 1)) })
      let one = try runBake(t, v, path: .simd).out
      #expect(try runBake(t, v, path: .simd, threads: 2).out == one)
      #expect(try runBake(t, v, path: .simd, streaming: true).out == one)
      let blas = try runBake(t, v, path: blasWhereAvailable).out
      #expect(try runBake(t, v, path: blasWhereAvailable, threads: 2).out == blas)
    }
  }

  /// A track of `Point` values feeds the template (its values ignored) and its channels feed the
  /// key matrix; the result matches the track's own `value(at:)` channel by channel.
  @Test func templateFromTrack() throws {
    let track = try KeyframeTrack<Point>(
      values: [Point(x: 0, y: 8), Point(x: 4, y: 0), Point(x: 16, y: 2)],
      keyTimes: [0, 0.25, 1], calculationMode: .linear)
    let t = try KeyframeBakeTemplate(track: track, progress: [0.125, 0.625])
    let v = try KeyframeBakeTemplate.keyValues([track.values])
    let (out, _) = try runBake(t, v, path: .simd)
    // By hand: u = 0.125 is halfway along segment 0 → (2, 4); u = 0.625 is halfway along
    // segment 1 → (10, 1).
    #expect(out == [2, 4, 10, 1])
  }

  // MARK: Path choice

  /// The rule picks SIMD for the bake's small key counts and reports it.
  @Test func automaticPathReportsSIMDForFewKeys() throws {
    let t = try KeyframeBakeTemplate(keyCount: 4, progress: [0, 0.5, 1])
    let v = try BatchMatrix(rows: 4, columns: 3, elements: [Float](repeating: 1, count: 12))
    let (out, ran) = try runBake(t, v, path: .automatic)
    #expect(ran == .simd)
    #expect(out == [Float](repeating: 1, count: 9))
  }

  // MARK: Rejected input (one test each)

  @Test(arguments: [CalculationMode.paced, .cubicPaced])
  func pacedModesAreRejected(mode: CalculationMode) {
    #expect {
      try KeyframeBakeTemplate(keyCount: 3, calculationMode: mode, progress: [0])
    } throws: { ($0 as? ValidationError)?.field == "calculationMode" }
  }

  @Test func tooFewKeysAreRejected() {
    #expect(throws: ValidationError(field: "keyCount", reason: .tooFew(minimum: 2, actual: 1))) {
      try KeyframeBakeTemplate(keyCount: 1, progress: [0])
    }
  }

  @Test func emptyProgressIsRejected() {
    #expect(throws: ValidationError(field: "progress", reason: .tooFew(minimum: 1, actual: 0))) {
      try KeyframeBakeTemplate(keyCount: 2, progress: [])
    }
  }

  @Test func nanProgressIsRejected() {
    #expect(throws: ValidationError(field: "progress", index: 2, reason: .notFinite)) {
      try KeyframeBakeTemplate(keyCount: 2, progress: [0, 0.5, .nan])
    }
  }

  /// The track's own checks run for the shape (here: key times that do not end at 1).
  @Test func badKeyTimesAreRejected() {
    #expect(throws: ValidationError(field: "keyTimes", index: 1, reason: .mustEqual(1))) {
      try KeyframeBakeTemplate(keyCount: 2, keyTimes: [0, 0.5], progress: [0])
    }
  }

  /// A linear transform track interpolates by decomposition, not channel-wise.
  @Test func nonChannelWiseLinearTrackIsRejected() throws {
    let track = try KeyframeTrack<Transform3D>(values: [.identity, .identity])
    #expect {
      try KeyframeBakeTemplate(track: track, progress: [0])
    } throws: { ($0 as? ValidationError)?.field == "calculationMode" }
  }

  @Test func keyRowMismatchIsRejected() throws {
    let t = try KeyframeBakeTemplate(keyCount: 3, progress: [0])
    let v = try BatchMatrix(rows: 2, columns: 4, elements: [Float](repeating: 0, count: 8))
    #expect(
      throws: ValidationError(field: "values.rows", reason: .countMismatch(expected: 3, actual: 2))
    ) { try runBake(t, v, path: .simd) }
  }

  @Test func shortOutputIsRejected() throws {
    let t = try KeyframeBakeTemplate(keyCount: 2, progress: [0, 1])
    let v = try BatchMatrix(rows: 2, columns: 4, elements: [Float](repeating: 0, count: 8))
    #expect(throws: ValidationError(field: "output", reason: .tooFew(minimum: 8, actual: 7))) {
      try runBake(t, v, path: blasWhereAvailable, outputCount: 7)
    }
  }

  @Test func zeroThreadsAreRejected() throws {
    let t = try KeyframeBakeTemplate(keyCount: 2, progress: [0])
    let v = try BatchMatrix(rows: 2, columns: 1, elements: [1, 2])
    #expect(throws: ValidationError(field: "threads", reason: .notPositive)) {
      try runBake(t, v, path: .simd, threads: 0)
    }
  }

  @Test func emptyLayerListIsRejected() {
    #expect(throws: ValidationError(field: "layers", reason: .tooFew(minimum: 1, actual: 0))) {
      try KeyframeBakeTemplate.keyValues([[Double]]())
    }
  }

  @Test func raggedLayersAreRejected() {
    #expect(
      throws: ValidationError(
        field: "layers", index: 1, reason: .countMismatch(expected: 2, actual: 3))
    ) { try KeyframeBakeTemplate.keyValues([[1.0, 2], [1.0, 2, 3]]) }
  }
}
