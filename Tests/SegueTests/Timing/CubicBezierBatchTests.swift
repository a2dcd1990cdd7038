import PropertyBased
import SegueBenchSupport
import Testing

@testable import Segue

/// Runs a ``CubicBezierEvaluationJob`` over `xs` (curve indices optional) and returns the outputs.
func bezierBatchRun(
  _ batch: CubicBezierBatch, _ xs: [Float], indices: [UInt16]? = nil
) throws(ValidationError) -> [Float] {
  var out = [Float](repeating: .nan, count: xs.count)
  try xs.withUnsafeBufferPointer { input throws(ValidationError) in
    try out.withUnsafeMutableBufferPointer { output throws(ValidationError) in
      if let indices {
        try indices.withUnsafeBufferPointer { idx throws(ValidationError) in
          try CubicBezierEvaluationJob(
            curves: batch, input: input, curveIndices: idx, output: output
          ).run()
        }
      } else {
        try CubicBezierEvaluationJob(curves: batch, input: input, output: output).run()
      }
    }
  }
  return out
}

/// The solver's `s` for the 16 lanes `block ..< block + 16` of `xs` (curve `indices[j]` each), from
/// the shared `CubicBezierBatch.solveUnit` over `batch`'s tables: the residual checks need `s`,
/// which the job does not return. Returns the lanes' `x` with it.
func bezierSolverS(
  _ batch: CubicBezierBatch, _ xs: [Float], indices: [UInt16], block: Int
) -> (x: Lanes, s: Lanes) {
  var x = Lanes()
  var c = Lanes()
  for l in 0..<16 {
    x[l] = xs[block + l]
    c[l] = Float(indices[block + l])
  }
  var scratch = [Float](repeating: 0, count: 48)
  let s = batch.coefficients.withUnsafeBufferPointer { k in
    batch.inverse.withUnsafeBufferPointer { t in
      scratch.withUnsafeMutableBufferPointer { sc in
        CubicBezierBatch.solveUnit(
          x: x, curve: c, coefficients: k.baseAddress!, stride: 8, curveCount: batch.curves.count,
          table: t.baseAddress!, scratch: sc.baseAddress!
        ).s
      }
    }
  }
  return (x, s)
}

/// A random valid curve: x1, x2 in [0, 1], y1, y2 in [−1, 2] (overshooting curves included).
func randomBezier(_ rng: inout SplitMix64) -> CubicBezier {
  try! CubicBezier(
    x1: rng.nextUnit(), y1: rng.nextUnit() * 3 - 1, x2: rng.nextUnit(),
    y2: rng.nextUnit() * 3 - 1)
}

/// `|dy/dx|` of `curve` at input `x`, from the `Double` solve: `Y'(s)/X'(s)` at `s = s(x)`.
func bezierSlope(_ curve: CubicBezier, _ x: Double) -> Double {
  let s = curve.parameter(forX: x)
  let dy = (3 * curve.ay * s + 2 * curve.by) * s + curve.cy
  return abs(dy / curve.sampleDerivativeX(s))
}

/// The batch solve against the `Double` reference ``CubicBezier/solve(_:)`` evaluated at the
/// same `Float` inputs (the reference solves to |X(s) − x| ≤ 1e-12, so it is exact at `Float`
/// precision).
@Suite("CubicBezierBatch: Float SIMD solve vs the Double reference")
struct CubicBezierBatchTests {
  static let named: [CubicBezier] = [
    .linear, .easeIn, .easeOut, .easeInEaseOut, .systemDefault,
  ]

  /// The five named curves (five curves: the gather path), 20 000 random x in [0, 1] plus the
  /// ends: measured max |y − y_ref| = 1.8e-7 over 50 000 x (bound 4e-7).
  @Test func namedCurvesWithin4e7() throws {
    let batch = CubicBezierBatch(curves: Self.named)
    var rng = SplitMix64(state: 11)
    let n = 20_000
    let xs = (0..<n).map { $0 < 2 ? Float($0) : Float(rng.nextUnit()) }
    let indices = (0..<n).map { UInt16($0 % 5) }
    let ys = try bezierBatchRun(batch, xs, indices: indices)
    var worst = 0.0
    for j in 0..<n {
      let reference = Self.named[j % 5].solve(Double(xs[j]))
      worst = max(worst, abs(Double(ys[j]) - reference))
    }
    #expect(worst <= 4e-7, "worst \(worst)")
  }

  /// Each named curve alone (one shared curve, the broadcast path, `curveIndices` nil).
  @Test(arguments: 0..<5)
  func sharedCurveWithin4e7(curve: Int) throws {
    let batch = CubicBezierBatch(curves: [Self.named[curve]])
    let xs = (0...1000).map { Float($0) / 1000 }
    let ys = try bezierBatchRun(batch, xs)
    for (x, y) in zip(xs, ys) {
      #expect(abs(Double(y) - Self.named[curve].solve(Double(x))) <= 4e-7, "x = \(x)")
    }
  }

  /// Random valid curves (x1, x2 ∈ [0, 1], y1, y2 ∈ [−1, 2]), random x: the Float root's
  /// residual |X(s) − x| measured in Double stays below 3.5e-7, and the output error is within
  /// 2.5e-7 + 3.5e-7·|dy/dx| (the residual carried through the slope; measured over 32 000
  /// lanes: max of error − 3.5e-7·slope = 1.7e-7), and within 4e-7 where |dy/dx| ≤ 1
  /// (measured 2.7e-7).
  @Test func randomCurvesResidualAndConditionedError() throws {
    var rng = SplitMix64(state: 5)
    for _ in 0..<40 {
      let curves = (0..<3).map { _ in randomBezier(&rng) }
      let batch = CubicBezierBatch(curves: curves)
      let n = 160
      let xs = (0..<n).map { _ in Float(rng.nextUnit()) }
      let indices = (0..<n).map { UInt16($0 % 3) }
      let ys = try bezierBatchRun(batch, xs, indices: indices)
      // The solver's s, lane by lane, for the residual.
      for block in stride(from: 0, to: n, by: 16) {
        let (x, s) = bezierSolverS(batch, xs, indices: indices, block: block)
        for l in 0..<16 {
          let curve = curves[Int(indices[block + l])]
          let xd = Double(x[l])
          let residual = abs(curve.sampleX(Double(s[l])) - xd)
          #expect(residual <= 3.5e-7, "\(curve) x = \(xd)")
          let error = abs(Double(ys[block + l]) - curve.solve(xd))
          let slope = bezierSlope(curve, xd)
          #expect(error <= 2.5e-7 + 3.5e-7 * slope, "\(curve) x = \(xd)")
          if slope <= 1 { #expect(error <= 4e-7, "\(curve) x = \(xd)") }
        }
      }
    }
  }

  /// Outside [0, 1] the batch extrapolates like ``CubicBezier/solve(_:)`` (start and end
  /// gradients), and x = 0, x = 1 give exactly 0 and 1.
  @Test func extrapolationAndExactEnds() async throws {
    let curves = Self.named + [try CubicBezier(x1: 0.3, y1: -0.6, x2: 0.7, y2: 1.8)]
    let batch = CubicBezierBatch(curves: curves)
    await propertyCheck(count: 100, input: Gen.float(in: -3...(-0.001)), Gen.float(in: 1.001...4)) {
      below, above in
      let xs: [Float] = Array(repeating: [below, above, 0, 1], count: 6).flatMap { $0 }
      let indices = (0..<24).map { UInt16($0 / 4) }
      let ys = try bezierBatchRun(batch, xs, indices: indices)
      for j in 0..<24 {
        let reference = curves[j / 4].solve(Double(xs[j]))
        #expect(abs(Double(ys[j]) - reference) <= 4e-7 * max(1, abs(reference)))
      }
      for c in 0..<6 {
        #expect(ys[4 * c + 2] == 0 && ys[4 * c + 3] == 1)
      }
    }
  }

  /// Counts that are not multiples of 16: every valid lane correct, nothing written past the
  /// end of the (larger) output buffer.
  @Test(arguments: [1, 15, 16, 17, 33])
  func tailsAreHandled(count: Int) throws {
    let batch = CubicBezierBatch(curves: [.easeInEaseOut])
    let xs = (0..<count).map { Float($0 + 1) / Float(count + 1) }
    var out = [Float](repeating: -9, count: count + 20)
    try xs.withUnsafeBufferPointer { input throws(ValidationError) in
      try out.withUnsafeMutableBufferPointer { output throws(ValidationError) in
        try CubicBezierEvaluationJob(curves: batch, input: input, output: output).run()
      }
    }
    for j in 0..<count {
      #expect(abs(Double(out[j]) - CubicBezier.easeInEaseOut.solve(Double(xs[j]))) <= 4e-7)
    }
    #expect(out[count...].allSatisfy { $0 == -9 })
  }

  /// An empty input is valid and writes nothing.
  @Test func emptyInputIsANoOp() throws {
    #expect(try bezierBatchRun(CubicBezierBatch(curves: [.linear]), []).isEmpty)
  }

  // MARK: Rejected inputs

  @Test func rejectsEmptyCurves() {
    #expect(throws: ValidationError(field: "curves", reason: .tooFew(minimum: 1, actual: 0))) {
      try bezierBatchRun(CubicBezierBatch(curves: []), [0.5])
    }
  }

  @Test func rejectsCurveIndexCountMismatch() {
    #expect(
      throws: ValidationError(field: "curveIndices", reason: .countMismatch(expected: 2, actual: 1))
    ) {
      try bezierBatchRun(CubicBezierBatch(curves: [.linear]), [0.5, 0.6], indices: [0])
    }
  }

  @Test func rejectsShortOutput() {
    let batch = CubicBezierBatch(curves: [.linear])
    let xs: [Float] = [0.1, 0.2, 0.3]
    var out = [Float](repeating: 0, count: 2)
    #expect(throws: ValidationError(field: "output", reason: .tooFew(minimum: 3, actual: 2))) {
      try xs.withUnsafeBufferPointer { input throws(ValidationError) in
        try out.withUnsafeMutableBufferPointer { output throws(ValidationError) in
          try CubicBezierEvaluationJob(curves: batch, input: input, output: output).run()
        }
      }
    }
  }

  @Test func rejectsNaNInput() {
    #expect(throws: ValidationError(field: "input", index: 2, reason: .notFinite)) {
      try bezierBatchRun(CubicBezierBatch(curves: [.easeIn]), [0, 0.5, .nan])
    }
  }

  @Test func rejectsInfiniteInput() {
    #expect(throws: ValidationError(field: "input", index: 0, reason: .notFinite)) {
      try bezierBatchRun(CubicBezierBatch(curves: [.easeIn]), [-.infinity])
    }
  }

  @Test func rejectsCurveIndexOutOfRange() {
    #expect(
      throws: ValidationError(
        field: "curveIndices", index: 1, reason: .outOfRange(lower: 0, upper: 1))
    ) {
      try bezierBatchRun(
        CubicBezierBatch(curves: [.easeIn, .easeOut]), [0.2, 0.4], indices: [1, 2])
    }
  }
}
