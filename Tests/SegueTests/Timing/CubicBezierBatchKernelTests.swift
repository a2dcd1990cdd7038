import PropertyBased
import SegueBenchSupport
import Testing

@testable import Segue

/// The batch job's grouped kernel: value checks made during the evaluation (inside whole groups,
/// not only in the tail), and the flat-end cells that the solver restarts from a second-order
/// guess.
@Suite("CubicBezierEvaluationJob: grouped kernel, value checks, flat ends")
struct CubicBezierBatchKernelTests {
  /// A non-finite input deep inside a group-sized batch (300 lanes: whole groups of 64 or 32,
  /// then blocks of 16) is reported at its index, like `validate()` does, for NaN, +∞ and −∞.
  @Test(arguments: [Float.nan, .infinity, -.infinity])
  func nonFiniteInsideAGroupIsRejected(bad: Float) {
    var xs = (0..<300).map { Float($0) / 300 }
    xs[77] = bad
    xs[200] = bad
    #expect(throws: ValidationError(field: "input", index: 77, reason: .notFinite)) {
      try bezierBatchRun(CubicBezierBatch(curves: [.easeIn, .easeOut]), xs, indices: nil)
    }
  }

  /// A curve index out of range inside a group (where the kernel checks it before using it for
  /// a table lookup) is reported at its index; with more curves than the blend limit the lookups
  /// are gathers, so the check also keeps them inside the table.
  @Test(arguments: [2, 6])
  func curveIndexOutOfRangeInsideAGroupIsRejected(curveCount: Int) {
    let curves = Array(repeating: CubicBezier.easeInEaseOut, count: curveCount)
    let xs = (0..<300).map { Float($0) / 300 }
    var indices = (0..<300).map { UInt16($0 % curveCount) }
    indices[131] = UInt16(curveCount + 40)
    #expect(
      throws: ValidationError(
        field: "curveIndices", index: 131,
        reason: .outOfRange(lower: 0, upper: Double(curveCount - 1)))
    ) {
      try bezierBatchRun(CubicBezierBatch(curves: curves), xs, indices: indices)
    }
  }

  /// The end cells of flat-ended curves (`easeIn` is flat at x = 1, `easeOut` at x = 0, and two
  /// nearly flat ones), where linear interpolation in the table is off by up to 0.02 and Newton
  /// converges only linearly: every lane's residual |X(s) − x|, measured in Double, stays below
  /// 3.5e-7 and y is within 2.5e-7 + 3.5e-7·|dy/dx| of the Double solve.
  @Test func flatEndCellsConverge() throws {
    let curves: [CubicBezier] = [
      .easeIn, .easeOut, try CubicBezier(x1: 0.42, y1: 0, x2: 0.98, y2: 1),
      try CubicBezier(x1: 0.02, y1: 0, x2: 0.58, y2: 1),
    ]
    let batch = CubicBezierBatch(curves: curves)
    let segments = Float(CubicBezierBatch.segments)
    var xs: [Float] = []
    var indices: [UInt16] = []
    for c in 0..<4 {
      for i in 1..<400 {
        let t = Float(i) / 400
        xs += [t / segments, 1 - t / segments]
        indices += [UInt16(c), UInt16(c)]
      }
    }
    let ys = try bezierBatchRun(batch, xs, indices: indices)
    for j in 0..<xs.count {
      let curve = curves[Int(indices[j])]
      let x = Double(xs[j])
      let error = abs(Double(ys[j]) - curve.solve(x))
      #expect(error <= 2.5e-7 + 3.5e-7 * bezierSlope(curve, x), "\(curve) x = \(x)")
    }
    // The solver's s for the residual, 16 lanes at a time.
    for block in stride(from: 0, to: xs.count - 15, by: 16) {
      let (x, s) = bezierSolverS(batch, xs, indices: indices, block: block)
      for l in 0..<16 {
        let curve = curves[Int(indices[block + l])]
        let residual = abs(curve.sampleX(Double(s[l])) - Double(x[l]))
        #expect(residual <= 3.5e-7, "\(curve) x = \(x[l])")
      }
    }
  }

  /// Groups and blocks agree: the same lanes evaluated in a long batch (groups of 64 or 32) and
  /// one at a time (the padded tail) give bitwise the same outputs.
  @Test func groupsMatchSingleLanes() throws {
    let batch = CubicBezierBatch(curves: [.easeIn, .easeOut, .easeInEaseOut, .systemDefault])
    var rng = SplitMix64(state: 3)
    let xs = (0..<200).map { _ in Float(rng.nextUnit() * 1.4 - 0.2) }
    let indices = (0..<200).map { UInt16($0 % 4) }
    let all = try bezierBatchRun(batch, xs, indices: indices)
    for j in stride(from: 0, to: 200, by: 13) {
      let one = try bezierBatchRun(batch, [xs[j]], indices: [indices[j]])
      #expect(one[0].bitPattern == all[j].bitPattern, "lane \(j)")
    }
  }
}
