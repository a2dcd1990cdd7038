import PropertyBased
import Testing

@testable import Segue
@testable import SegueBenchSupport

/// Runs `path` for `batch` at `time` and returns the output (`layout`), through `run()`.
func stackRun(
  _ batch: StackBatch, time: Double, path: StackKernelPath,
  layout: StackOutputLayout = .interleaved,
  threads: Int = 1, chunkSize: Int? = nil, streaming: Bool = false
) throws -> [Float] {
  let size = layout.requiredCount(upperBound: batch.count)!
  var out = [Float](repeating: -7, count: size)
  try out.withUnsafeMutableBufferPointer { buffer throws(ValidationError) in
    let job = StackEvaluationJob(
      batch: batch, time: Float(time), output: buffer, layout: layout, path: path,
      streamingStores: streaming)
    try job.run(threads: threads, chunkSize: chunkSize)
  }
  return out
}

/// The `Float` paths (SIMD, scalar) and the naive baseline against the `Double` reference.
@Suite("Stack workload: SIMD, scalar and naive paths")
struct StackKernelTests {
  static let times: [Double] = [0.3, -0.1, 0.12, 0.45, 0.7, 2]

  /// Every value within the workload's float32 tolerance `|a − b| ≤ 1e-3·max(1, |b|)` of the
  /// `Double` reference, the checksum within 1e-6 relative (N = 1000, several t, both layouts).
  @Test(arguments: [StackKernelPath.simd, .scalar])
  func floatPathsMatchReference(path: StackKernelPath) throws {
    let batch = try StackBatch(count: 1000)
    for time in Self.times {
      let reference = (0..<batch.count).map { batch.referenceLayer($0, time: time).values }
      let referenceSum = try batch.referenceChecksum(time: time)
      for layout in [StackOutputLayout.interleaved, .planar(stride: 1003)] {
        let out = try stackRun(batch, time: time, path: path, layout: layout)
        var worst = 0.0
        for j in 0..<batch.count {
          for k in 0..<17 {
            let a = Double(out[layout.index(layer: j, value: k)])
            let b = reference[j][k]
            worst = max(worst, abs(a - b) / max(1, abs(b)))
          }
        }
        #expect(worst <= 1e-3, "t = \(time) \(layout): worst \(worst)")
        let sum = try out.withUnsafeBufferPointer { try batch.checksum(of: $0, layout: layout) }
        #expect(abs(sum - referenceSum) <= 1e-6 * abs(referenceSum), "t = \(time) \(layout)")
      }
    }
  }

  /// The naive baseline (Double, WebKit solver) gives the same numbers.
  @Test func naiveMatchesReference() throws {
    let batch = try StackBatch(count: 300)
    let scene = StackNaiveScene(batch: batch)
    for time in Self.times {
      var out = [Float](repeating: 0, count: 17 * 300)
      try out.withUnsafeMutableBufferPointer { buffer throws(ValidationError) in
        try scene.evaluate(time: time, range: 0..<300, into: buffer, layout: .interleaved)
      }
      for j in 0..<300 {
        let b = batch.referenceLayer(j, time: time).values
        for k in 0..<17 { #expect(stackClose(Double(out[17 * j + k]), b[k], 1e-3)) }
      }
    }
  }

  /// The N = 1000 checksum of the SIMD path against the workload's printed 5.785360807820e+05
  /// (an independent float64 computation), within 1e-6 relative.
  @Test func simdChecksumMatchesWorkload() throws {
    let batch = try StackBatch(count: 1000)
    let out = try stackRun(batch, time: 0.3, path: .simd)
    let sum = try out.withUnsafeBufferPointer { try batch.checksum(of: $0, layout: .interleaved) }
    #expect(abs(sum - 5.785360807820e+05) <= 1e-6 * 5.785360807820e+05)
  }

  /// Layer 0's 17 values from the SIMD path against the workload's printed float64 values: the
  /// constant entries exactly (as Float), the others within 1e-3·max(1, |b|). Catches a transposed
  /// matrix, which the checksum cannot see (fine point 8).
  @Test func simdLayerZeroIsNotTransposed() throws {
    let batch = try StackBatch(count: 20)
    let out = try stackRun(batch, time: 0.3, path: .simd)
    let expected: [Double] = [
      1.0196053649324162, -0.028844950485715969, 0, 0, 0.028844950485715969, 1.0196053649324162,
      0, 0, -0.39, -0.844, 1, -0.002, -295.12791058646337, 588.92063535240823,
      35.544619906840438, 0.92891076018631913, 0.073053769103464838,
    ]
    for k in 0..<17 { #expect(stackClose(Double(out[k]), expected[k], 1e-3), "value \(k)") }
    for k in [2, 3, 6, 7, 8, 9, 10, 11] { #expect(out[k] == Float(expected[k])) }
    #expect(out[1] < 0 && out[4] > 0)
  }

  /// Bitwise-identical outputs for every thread count, chunk size, path split and store kind.
  @Test func threadAndChunkInvariance() throws {
    let batch = try StackBatch(count: 333)
    for path in StackKernelPath.allCases {
      for layout in [StackOutputLayout.interleaved, .planar(stride: 336)] {
        let base = try stackRun(batch, time: 0.3, path: path, layout: layout).map(\.bitPattern)
        for (threads, chunk) in [(1, 1), (1, 7), (2, nil), (2, 5), (3, 16), (2, 100), (4, 333)] {
          for streaming in [false, true] {
            let out = try stackRun(
              batch, time: 0.3, path: path, layout: layout, threads: threads, chunkSize: chunk,
              streaming: streaming)
            #expect(out.map(\.bitPattern) == base, "\(path) \(layout) \(threads) \(chunk ?? 0)")
          }
        }
      }
    }
  }

  /// The SIMD lanes are independent: layer j's values do not depend on which lane or block it
  /// lands in (a batch evaluated from offset 0 and from offset 5 agree bitwise).
  @Test func laneIndependence() throws {
    let batch = try StackBatch(count: 64)
    let whole = try stackRun(batch, time: 0.41, path: .simd)
    var shifted = [Float](repeating: 0, count: 17 * 64)
    try shifted.withUnsafeMutableBufferPointer { buffer throws(ValidationError) in
      try StackEvaluationJob(batch: batch, time: 0.41, output: buffer, range: 0..<5).run()
      try StackEvaluationJob(batch: batch, time: 0.41, output: buffer, range: 5..<64).run()
    }
    #expect(shifted.map(\.bitPattern) == whole.map(\.bitPattern))
  }

  /// Tails: N = 1, 7, 17, 33 (and a range starting mid-block) never write outside the range. The
  /// output has a guard region before and after, filled with a sentinel that must survive.
  @Test(arguments: [1, 7, 17, 33])
  func tailsStayInBounds(count: Int) throws {
    let batch = try StackBatch(count: count)
    let sentinel: Float = -12345.5
    let guardSize = 64
    for path in StackKernelPath.allCases {
      for layout in [StackOutputLayout.interleaved, .planar(stride: count)] {
        let size = layout.requiredCount(upperBound: count)!
        var storage = [Float](repeating: sentinel, count: size + 2 * guardSize)
        let lower = count > 3 ? 2 : 0
        try storage.withUnsafeMutableBufferPointer { all throws(ValidationError) in
          let inner = UnsafeMutableBufferPointer(rebasing: all[guardSize..<guardSize + size])
          try StackEvaluationJob(
            batch: batch, time: 0.3, output: inner, layout: layout, range: lower..<count,
            path: path, streamingStores: true
          ).run()
        }
        #expect(storage[..<guardSize].allSatisfy { $0 == sentinel })
        #expect(storage[(guardSize + size)...].allSatisfy { $0 == sentinel })
        for j in 0..<count {
          let written = storage[guardSize + layout.index(layer: j, value: 12)] != sentinel
          #expect(written == (j >= lower), "\(path) \(layout) layer \(j)")
        }
      }
    }
  }

  /// The float32 solver, measured in Double: over x in [0, 1] and the four curves, the residual
  /// |X(s) − x| (X evaluated in Double at the Float s, against the Float x) stays below 3.5e-7 — the
  /// range fine point 1 of the workload reports for float32 solvers; 1e-7 cannot be certified.
  @Test func simdSolverResidualMeasuredInDouble() async throws {
    let batch = try StackBatch(count: 1)
    await propertyCheck(count: 150, input: Gen.float(in: 0...1), Gen.int(in: 0...3)) { x, c in
      var scratch = [Float](repeating: 0, count: 3 * StackVector.scalarCount)
      let s = stackCurveCoefficients.withUnsafeBufferPointer { coefficients in
        batch.curveTables.inverse.withUnsafeBufferPointer { table in
          scratch.withUnsafeMutableBufferPointer { scratch in
            StackEvaluationJob.solveTiming(
              x: StackVector(repeating: x), curve: StackVector(repeating: Float(c)),
              coefficients: coefficients.baseAddress!, curveCount: 4, table: table.baseAddress!,
              scratch: scratch.baseAddress!
            ).s[0]
          }
        }
      }
      let residual = abs(StackBatch.curves[c].sampleX(Double(s)) - Double(x))
      #expect(residual < 3.5e-7, "x = \(x), curve \(c)")
    }
  }

  /// The vectorised σ·sin/σ·cos against Double sin/cos over the rotation range with overshoot
  /// ([−5, 5] rad) and the workload's scales ([0.5, 1.5] with overshoot: up to 2): absolute error
  /// ≤ 2.5e-7·σ (≈ 2 ulp at 1), scalar and SIMD agree bitwise.
  @Test func scaledSinCosAccuracy() async {
    await propertyCheck(count: 300, input: Gen.float(in: -5...5), Gen.float(in: 0.25...2)) {
      r, sigma in
      let v = StackEvaluationJob.scaledSinCos(
        StackVector(repeating: r), scale: StackVector(repeating: sigma))
      let scalar = stackScaledSinCos(r, scale: sigma)
      let s = Double(sigma)
      #expect(abs(Double(v.sin[3]) - s * Double.sin(Double(r))) <= 2.5e-7 * s)
      #expect(abs(Double(v.cos[3]) - s * Double.cos(Double(r))) <= 2.5e-7 * s)
      #expect(v.sin[3].bitPattern == scalar.sin.bitPattern)
      #expect(v.cos[3].bitPattern == scalar.cos.bitPattern)
    }
  }

  /// The kernel's literal constants are the workload's definitions rounded to `Float`.
  @Test func constantsMatchTheWorkload() {
    typealias K = StackConstants
    let kt = StackBatch.keyTimes
    #expect(K.anchorX == Float(StackBatch.width / 2) && K.anchorY == Float(StackBatch.height / 2))
    #expect(K.q == Float(StackBatch.perspective))
    #expect(K.m31 == Float(StackBatch.perspective * StackBatch.width / 2))
    #expect(K.m32 == Float(StackBatch.perspective * StackBatch.height / 2))
    #expect(K.key1 == Float(kt[1]) && K.key2 == Float(kt[2]))
    #expect(K.inverseSpan0 == Float(1 / (kt[1] - kt[0])))
    #expect(K.inverseSpan1 == Float(1 / (kt[2] - kt[1])))
    #expect(K.inverseSpan2 == Float(1 / (kt[3] - kt[2])))
    #expect(K.offset1 == Float(-kt[1] / (kt[2] - kt[1])))
    #expect(K.offset2 == Float(-kt[2] / (kt[3] - kt[2])))
    #expect(K.valuesPerLayer == StackBatch.valuesPerLayer)
    #expect(K.coefficientsPerCurve * StackBatch.curves.count == stackCurveCoefficients.count)
  }

  /// Invariants on random times: opacity in [0, 1], constant entries exact, m44 = 1 − tz/500.
  @Test func outputInvariants() async throws {
    let batch = try StackBatch(count: 37)
    await propertyCheck(count: 100, input: Gen.double(in: -1...2)) { t in
      let out = try stackRun(batch, time: t, path: .simd)
      for j in 0..<37 {
        let r = out[(17 * j)..<(17 * j + 17)].map { $0 }
        #expect(r[16] >= 0 && r[16] <= 1)
        #expect(r[2] == 0 && r[3] == 0 && r[6] == 0 && r[7] == 0 && r[10] == 1)
        #expect(r[11] == Float(-0.002) && r[8] == Float(-0.39) && r[9] == Float(-0.844))
        #expect(r[0] == r[5] && r[1] == -r[4])
        #expect(abs(r[15] - (1 - r[14] / 500)) <= 1e-6)
      }
    }
  }
}

/// `validate()` rejections, one per condition.
@Suite("Stack workload: job validation")
struct StackJobValidationTests {
  func withJob(
    count: Int = 10, outputCount: Int? = nil, _ body: (inout StackEvaluationJob) throws -> Void
  ) throws {
    let batch = try StackBatch(count: count)
    var out = [Float](repeating: 0, count: outputCount ?? 17 * count)
    try out.withUnsafeMutableBufferPointer { buffer in
      var job = StackEvaluationJob(batch: batch, time: 0.3, output: buffer)
      try body(&job)
    }
  }

  /// A valid job passes and runs to the workload's numbers (its checksum within Float noise of
  /// the Double reference); one output value fewer is rejected.
  @Test func acceptsAValidJob() throws {
    let batch = try StackBatch(count: 10)
    var out = [Float](repeating: .nan, count: 17 * 10)
    try out.withUnsafeMutableBufferPointer { buffer in
      let job = StackEvaluationJob(batch: batch, time: 0.3, output: buffer)
      try job.validate()
      try job.run()
    }
    let checksum = out.reduce(0.0) { $0 + Double($1) }
    let reference = try batch.referenceChecksum(time: 0.3)
    #expect(abs(checksum - reference) <= 1e-6 * abs(reference), "\(checksum) vs \(reference)")
    #expect(throws: ValidationError.self) {
      try self.withJob(outputCount: 17 * 10 - 1) { job in try job.validate() }
    }
  }

  @Test func rejectsNaNTime() throws {
    try withJob { job in
      job.time = .nan
      #expect(throws: ValidationError(field: "time", reason: .notFinite)) { try job.run() }
    }
  }

  @Test func rejectsInfiniteTime() throws {
    try withJob { job in
      job.time = -.infinity
      #expect(throws: ValidationError(field: "time", reason: .notFinite)) { try job.validate() }
    }
  }

  @Test func rejectsRangePastEnd() throws {
    try withJob { job in
      job.range = 0..<11
      #expect(throws: ValidationError(field: "range", reason: .outOfRange(lower: 0, upper: 10))) {
        try job.validate()
      }
    }
  }

  @Test func rejectsNegativeRangeStart() throws {
    try withJob { job in
      job.range = -1..<5
      #expect(throws: ValidationError(field: "range", reason: .outOfRange(lower: 0, upper: 10))) {
        try job.validate()
      }
    }
  }

  @Test func rejectsShortInterleavedOutput() throws {
    try withJob(outputCount: 169) { job in
      #expect(
        throws: ValidationError(field: "output", reason: .tooFew(minimum: 170, actual: 169))
      ) { try job.run() }
    }
  }

  @Test func rejectsShortPlanarOutput() throws {
    try withJob(outputCount: 200) { job in
      job.layout = .planar(stride: 12)
      // 16 planes of stride 12 plus 10 layers of the last plane: 202 values.
      #expect(
        throws: ValidationError(field: "output", reason: .tooFew(minimum: 202, actual: 200))
      ) { try job.validate() }
    }
  }

  @Test func rejectsPlanarStrideBelowCount() throws {
    try withJob(outputCount: 500) { job in
      job.layout = .planar(stride: 9)
      #expect(
        throws: ValidationError(
          field: "layout.stride", reason: .outOfRange(lower: 10, upper: Double(Int.max)))
      ) { try job.validate() }
    }
  }

  @Test func rejectsOverflowingStride() throws {
    try withJob(outputCount: 500) { job in
      job.layout = .planar(stride: Int.max / 4)
      #expect(
        throws: ValidationError(field: "output", reason: .tooFew(minimum: Int.max, actual: 500))
      ) { try job.validate() }
    }
  }

  @Test func rejectsZeroThreads() throws {
    try withJob { job in
      #expect(throws: ValidationError(field: "threads", reason: .notPositive)) {
        try job.run(threads: 0)
      }
    }
  }

  @Test func rejectsZeroChunkSize() throws {
    try withJob { job in
      #expect(throws: ValidationError(field: "chunkSize", reason: .notPositive)) {
        try job.run(threads: 2, chunkSize: 0)
      }
    }
  }

  @Test func naiveRejectsNaNTime() throws {
    let batch = try StackBatch(count: 2)
    let scene = StackNaiveScene(batch: batch)
    var out = [Float](repeating: 0, count: 34)
    _ = out.withUnsafeMutableBufferPointer { buffer in
      #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
        try scene.evaluate(time: .nan, range: 0..<2, into: buffer, layout: .interleaved)
      }
    }
  }

  @Test func naiveRejectsShortOutput() throws {
    let batch = try StackBatch(count: 2)
    let scene = StackNaiveScene(batch: batch)
    var out = [Float](repeating: 0, count: 33)
    _ = out.withUnsafeMutableBufferPointer { buffer in
      #expect(throws: ValidationError(field: "output", reason: .tooFew(minimum: 34, actual: 33))) {
        try scene.evaluate(time: 0.3, range: 0..<2, into: buffer, layout: .interleaved)
      }
    }
  }

  @Test func checksumRejectsShortOutput() throws {
    let batch = try StackBatch(count: 2)
    let out = [Float](repeating: 0, count: 20)
    _ = out.withUnsafeBufferPointer { buffer in
      #expect(throws: ValidationError(field: "output", reason: .tooFew(minimum: 34, actual: 20))) {
        try batch.checksum(of: buffer, layout: .interleaved)
      }
    }
  }
}
