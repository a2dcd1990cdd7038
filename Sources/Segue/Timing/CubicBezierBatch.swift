import SegueSIMDSupport

/// A set of cubic Bézier timing curves prepared for batch solving in `Float`: per curve, the
/// polynomial coefficients and extrapolation slopes of ``CubicBezier``, and a uniform inverse
/// table for the solver's first guess.
///
/// The table holds ``segments`` + 1 samples of the inverse `s(x)` at `x = i / segments`, computed
/// once in `Double` by ``CubicBezier/parameter(forX:)`` (so `X(s(x)) = x` to about 1e-12 before
/// rounding to `Float`). Linear interpolation in it is within about 1e-3 of the root on the smooth
/// parts of a curve (worse next to a flat end such as `easeIn` at `x = 1`, where `X'(1) = 0`); the
/// Newton steps of ``CubicBezierEvaluationJob`` do the rest. A uniform grid in `x` needs no search
/// (WebKit's `UnitBezier` samples `X(i/10)` instead and searches).
///
/// The kernels evaluate the curve in Bernstein form from the control points,
/// `X(s) = u·s·(3x1·u + 3x2·s) + s³` with `u = 1 − s` (and the same for `Y`): in `Float` its
/// rounding error is bounded by the size of the terms (at most a few times 1e-7 for `y1, y2` in
/// `[−1, 2]`), where the power form's rounded coefficients (`by` can reach 15) would cost about
/// ten times more.
///
/// Layouts (`c` is the curve index): ``coefficients``
/// `[3x1, 3x2, 3y1, 3y2, startGradient, endGradient, 0, 0]` at `8·c …`; ``inverse`` at
/// `c·(segments + 1) + i`.
public struct CubicBezierBatch: Sendable {
  /// Number of table intervals per curve (64); each curve has `segments + 1` entries.
  public static let segments = 64
  /// Floats per curve in ``coefficients`` (8).
  public static let coefficientsPerCurve = 8

  /// The curves, in index order.
  public let curves: [CubicBezier]
  /// Per curve, `[3x1, 3x2, 3y1, 3y2, startGradient, endGradient, 0, 0]` rounded to `Float`.
  public let coefficients: [Float]
  /// The inverse samples, curve after curve: `inverse[c·(segments + 1) + i] ≈ s(i / segments)`.
  public let inverse: [Float]

  /// Prepares `curves` (any number, including none: a job over an empty batch is rejected by
  /// ``CubicBezierEvaluationJob/validate()``).
  public init(curves: [CubicBezier]) {
    let n = Self.segments
    var table = [Float]()
    table.reserveCapacity(curves.count * (n + 1))
    var coefficients = [Float]()
    coefficients.reserveCapacity(curves.count * Self.coefficientsPerCurve)
    for curve in curves {
      for i in 0...n {
        table.append(Float(curve.parameter(forX: Double(i) / Double(n))))
      }
      coefficients += [
        3 * curve.x1, 3 * curve.x2, 3 * curve.y1, 3 * curve.y2, curve.startGradient,
        curve.endGradient, 0, 0,
      ].map { Float($0) }
    }
    self.curves = curves
    self.coefficients = coefficients
    self.inverse = table
  }
}

/// The scaled control points `3x1, 3x2, 3y1, 3y2` of a lane vector of curves.
@frozen @usableFromInline package struct BezierLaneCoefficients {
  @usableFromInline package var x1: Lanes
  @usableFromInline package var x2: Lanes
  @usableFromInline package var y1: Lanes
  @usableFromInline package var y2: Lanes

  @inlinable package init(x1: Lanes, x2: Lanes, y1: Lanes, y2: Lanes) {
    self.x1 = x1
    self.x2 = x2
    self.y1 = y1
    self.y2 = y2
  }
}

/// Everything the unit solve needs about a lane vector of curves, prepared once and reusable for
/// every block with the same curve per lane (a batch whose curves repeat with a period dividing
/// the block width, like the `stack` workload's `j mod 4`, prepares it once per run).
@frozen @usableFromInline package struct BezierLanes {
  /// `3x1, 3x2, 3y1, 3y2` per lane.
  @usableFromInline package var coefficients: BezierLaneCoefficients
  /// `2·(3x2 − 3x1)`, the middle term of `X'`.
  @usableFromInline package var p21: Lanes
  /// `3 − 3x2`, the last term of `X'`.
  @usableFromInline package var p3: Lanes
  /// The lane's first table entry, `curve·(segments + 1)`.
  @usableFromInline package var tableBase: Lanes

  @inlinable
  package init(coefficients: BezierLaneCoefficients, p21: Lanes, p3: Lanes, tableBase: Lanes) {
    self.coefficients = coefficients
    self.p21 = p21
    self.p3 = p3
    self.tableBase = tableBase
  }
}

extension CubicBezierBatch {
  /// The solver's tolerance on `|X(s) − x|`, compared as a square (`(1e-7)²`).
  @usableFromInline package static let toleranceSquared: Float = 1e-14
  /// The relative part of the tolerance, squared: a residual within `6e-8·|X'(s)|` (half an ulp
  /// of `s` near 1 carried through the slope) is as good as `Float` can represent, so it counts
  /// as converged too; without it steep stretches would send most blocks to the fallback.
  @usableFromInline package static let slopeToleranceSquared: Float = 3.6e-15
  /// `X'(s)²` below which a Newton step is skipped (`|X'| < 1e-7`).
  @usableFromInline package static let flatSquared: Float = 1e-14
  /// Newton steps after the table guess.
  @usableFromInline package static let newtonSteps = 2
  /// Most iterations of the safeguarded fallback (each one a Newton step or a halving of the
  /// bracket; after 24 halvings a bracket is below `Float` resolution).
  @usableFromInline package static let fallbackSteps = 32
  /// The table entries are `Float` roundings of the exact inverse: the fallback's bracket is the
  /// table cell widened by this much on each side.
  @usableFromInline package static let bracketMargin: Float = 2.5e-7
  /// A bracket this narrow (two `Float` steps of `s` near 1) counts as converged.
  @usableFromInline package static let bracketResolution: Float = 1.2e-7
  /// Curve counts up to this blend the coefficients by comparisons; more gather them.
  @usableFromInline package static let blendLimit = 4

  /// Loads coefficients `first` and `first + 1` of each lane's curve (`curve` holds curve
  /// indices as integer-valued floats): a broadcast for one curve, blends for a few, two inline
  /// gathers (`segue_gather_f32x16`) for more. `scratch` is unused (kept for callers).
  @inlinable @inline(__always)
  package static func lanePair(
    _ first: Int, curve: Lanes, coefficients: UnsafePointer<Float>, stride: Int, curveCount: Int,
    scratch: UnsafeMutablePointer<Float>? = nil
  ) -> (Lanes, Lanes) {
    if curveCount <= blendLimit {
      var a = Lanes(repeating: coefficients[first])
      var b = Lanes(repeating: coefficients[first + 1])
      if curveCount > 1 {
        for c in 1..<curveCount {
          let m = curve .== Float(c)
          a = SIMDMath.select(m, coefficients[stride * c + first], a)
          b = SIMDMath.select(m, coefficients[stride * c + first + 1], b)
        }
      }
      return (a, b)
    }
    let index = curve * Float(stride)
    return (
      segue_gather_f32x16(coefficients + first, index),
      segue_gather_f32x16(coefficients + first + 1, index)
    )
  }

  /// The scaled control points of each lane's curve (see ``lanePair``).
  @inlinable @inline(__always)
  package static func laneCoefficients(
    curve: Lanes, coefficients: UnsafePointer<Float>, stride: Int, curveCount: Int,
    scratch: UnsafeMutablePointer<Float>? = nil
  ) -> BezierLaneCoefficients {
    let (x1, x2) = lanePair(
      0, curve: curve, coefficients: coefficients, stride: stride, curveCount: curveCount)
    let (y1, y2) = lanePair(
      2, curve: curve, coefficients: coefficients, stride: stride, curveCount: curveCount)
    return BezierLaneCoefficients(x1: x1, x2: x2, y1: y1, y2: y2)
  }

  /// Prepares the per-lane curve data of ``solveUnit(x:lanes:table:)`` (see ``lanePair``).
  @inlinable @inline(__always)
  package static func lanes(
    curve: Lanes, coefficients: UnsafePointer<Float>, stride: Int, curveCount: Int
  ) -> BezierLanes {
    let k = laneCoefficients(
      curve: curve, coefficients: coefficients, stride: stride, curveCount: curveCount)
    return BezierLanes(
      coefficients: k, p21: 2 * (k.x2 - k.x1), p3: 3 - k.x2,
      tableBase: curve * Float(segments + 1))
  }

  /// `B(s) = u·s·(p1·u + p2·s) + s³`, `u = 1 − s`: the Bernstein form of a unit cubic Bézier
  /// coordinate with scaled control values `p1 = 3·P1`, `p2 = 3·P2` (the inner sum and the
  /// final sum fused where the build targets FMA: `fma(u·s, fma(p2, s, p1·u), s²·s)`).
  @inlinable @inline(__always)
  package static func bernstein(_ s: Lanes, _ p1: Lanes, _ p2: Lanes) -> Lanes {
    let u = 1 - s
    let inner = segue_fma_f32x16(p2, s, p1 * u)
    return segue_fma_f32x16(u * s, inner, s * s * s)
  }

  /// `X'(s) = u·(u·p1 + p21·s) + p3·s²` with `u = 1 − s` (fused like ``bernstein(_:_:_:)``).
  @inlinable @inline(__always)
  package static func slope(_ s: Lanes, _ p1: Lanes, _ p21: Lanes, _ p3: Lanes) -> Lanes {
    let u = 1 - s
    let inner = segue_fma_f32x16(p21, s, u * p1)
    return segue_fma_f32x16(u, inner, p3 * (s * s))
  }

  /// The unit solve with the curve coefficients looked up per call (see
  /// ``solveUnit(x:lanes:table:)``). `scratch` is unused (kept for callers).
  @inlinable @inline(__always)
  package static func solveUnit(
    x: Lanes, curve: Lanes, coefficients: UnsafePointer<Float>, stride: Int, curveCount: Int,
    table: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>? = nil
  ) -> (s: Lanes, y: Lanes) {
    solveUnit(
      x: x,
      lanes: lanes(
        curve: curve, coefficients: coefficients, stride: stride, curveCount: curveCount),
      table: table)
  }

  /// The branch-free solve for `x ∈ [0, 1]` per lane (lanes independent): `s` with `X(s) ≈ x` and
  /// `y = Y(s)`.
  ///
  /// 1. First guess from the curve's inverse table: cell `⌊x·segments⌋` (by the rounding trick,
  ///    in `Float` lanes), both ends fetched by inline gathers, linear interpolation.
  /// 2. ``newtonSteps`` Newton steps `s ← s − (X(s) − x)/X'(s)`, skipped in lanes where
  ///    `|X'(s)| < 1e-7`, `s` clamped to `[0, 1]`.
  /// 3. Only if some lane's residual is still `≥ max(1e-7, 6e-8·|X'(s)|)` (the second bound is
  ///    the resolution of `s` in `Float` carried through the slope): a safeguarded Newton
  ///    iteration (Newton steps inside the table cell's bracket, halvings otherwise, the bracket
  ///    shrunk by the residual's sign) until every failing lane converges, at most
  ///    ``fallbackSteps`` iterations; the best point seen is used in the failing lanes only.
  ///
  /// `X`, `X'` and `Y` are evaluated in Bernstein form (see the type's description) with fused
  /// multiply-adds where the build targets FMA (`segue_fma_f32x16`);
  /// `X'(s) = u·(u·p1 + 2s·(p2 − p1)) + s²·(3 − p2)`. `table` is ``inverse``.
  @inlinable @inline(__always)
  package static func solveUnit(x: Lanes, lanes: BezierLanes, table: UnsafePointer<Float>) -> (
    s: Lanes, y: Lanes
  ) {
    let p1 = lanes.coefficients.x1
    let p2 = lanes.coefficients.x2
    let p21 = lanes.p21
    let p3 = lanes.p3
    // First guess from the inverse table; floor(x·n) by the rounding trick (x ≥ 0 here).
    let f = x * Float(segments)
    var cell = (f + SIMDMath.roundingMagic) - SIMDMath.roundingMagic
    cell = SIMDMath.select(cell .> f, cell - 1, cell)
    cell = SIMDMath.select(cell .> Float(segments - 1), Float(segments - 1), cell)
    let frac = f - cell
    let base = lanes.tableBase + cell
    let lo = segue_gather_f32x16(table, base)
    let hi = segue_gather_f32x16(table + 1, base)
    var s = segue_fma_f32x16(hi - lo, frac, lo)
    for _ in 0..<newtonSteps {
      let e = bernstein(s, p1, p2) - x
      var d = slope(s, p1, p21, p3)
      let flat = d * d .< flatSquared
      d = SIMDMath.select(flat, 1, d)
      var step = e / d
      step = SIMDMath.select(flat, 0, step)
      s = s - step
      s = SIMDMath.select(.!(s .>= 0), 0, s)
      s = SIMDMath.select(s .> 1, 1, s)
    }
    let e = bernstein(s, p1, p2) - x
    let e2 = e * e
    let d = slope(s, p1, p21, p3)
    let fail = (e2 .>= toleranceSquared) .& (e2 .>= slopeToleranceSquared * (d * d))
    if SIMDMath.any(fail) {
      s = fallback(x: x, s: s, e2: e2, fail: fail, lo: lo, hi: hi, lanes: lanes)
    }
    return (s, bernstein(s, lanes.coefficients.y1, lanes.coefficients.y2))
  }

  /// Safeguarded Newton on the table cell's bracket (widened by the table's rounding): a Newton
  /// step when it stays inside the bracket, else the midpoint; the bracket shrinks by the sign of
  /// the residual; the best point seen wins. Leaves as soon as every failing lane has converged
  /// (or its bracket is down to `Float` resolution). Rare (a few per cent of blocks), so kept out
  /// of line to leave the hot loop's registers alone.
  @inline(never)
  @inlinable
  package static func fallback(
    x: Lanes, s: Lanes, e2: Lanes, fail: LaneMask, lo: Lanes, hi: Lanes, lanes: BezierLanes
  ) -> Lanes {
    let p1 = lanes.coefficients.x1
    let p2 = lanes.coefficients.x2
    let p21 = lanes.p21
    let p3 = lanes.p3
    var a = SIMDMath.clamp(lo - bracketMargin, 0, 1)
    var b = SIMDMath.clamp(hi + bracketMargin, 0, 1)
    var best = s
    var bestE2 = e2
    var active = fail
    var t = SIMDMath.select((s .> a) .& (s .< b), s, (a + b) * 0.5)
    for _ in 0..<fallbackSteps {
      let et = bernstein(t, p1, p2) - x
      let et2 = et * et
      let better = et2 .< bestE2
      best = SIMDMath.select(better, t, best)
      bestE2 = SIMDMath.select(better, et2, bestE2)
      let below = et .< 0
      a = SIMDMath.select(below, t, a)
      b = SIMDMath.select(below, b, t)
      let dt = slope(t, p1, p21, p3)
      let newton = t - et / dt
      let inside = (newton .> a) .& (newton .< b)
      t = SIMDMath.select(inside, newton, (a + b) * 0.5)
      let converged = (et2 .< toleranceSquared) .| (et2 .< slopeToleranceSquared * (dt * dt))
      let narrow = b - a .<= bracketResolution
      let pending = .!(converged .| narrow)
      active .&= pending
      if !SIMDMath.any(active) { break }
    }
    return SIMDMath.select(fail, best, s)
  }

  /// ``CubicBezier/solve(_:)`` for a lane vector of finite `x`: the unit solve on `x` clamped to
  /// `[0, 1]`, then the extrapolation `startGradient·x` for `x ≤ 0` and
  /// `1 + endGradient·(x − 1)` for `x ≥ 1` (so `x = 0` gives exactly 0 and `x = 1` exactly 1).
  @inlinable @inline(__always)
  package static func solve(
    x: Lanes, curve: Lanes, coefficients: UnsafePointer<Float>, curveCount: Int,
    table: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>
  ) -> Lanes {
    let stride = coefficientsPerCurve
    let unit = SIMDMath.clamp(x, 0, 1)
    var y = solveUnit(
      x: unit, curve: curve, coefficients: coefficients, stride: stride, curveCount: curveCount,
      table: table, scratch: scratch
    ).y
    let below = x .<= 0
    let above = x .>= 1
    if SIMDMath.any(below .| above) {
      let (g0, g1) = lanePair(
        4, curve: curve, coefficients: coefficients, stride: stride, curveCount: curveCount)
      y = SIMDMath.select(below, g0 * x, y)
      y = SIMDMath.select(above, 1 + g1 * (x - 1), y)
    }
    return y
  }
}

/// A batch evaluation of cubic Bézier timing curves, in the style of ozz-animation's runtime
/// jobs: `output[j] = curves.curves[curveIndices[j]].solve(input[j])` in `Float`, sixteen lanes
/// at a time, with no allocation.
///
/// Per lane: the branch-free solve of ``CubicBezierBatch`` (table guess, two Newton steps,
/// a safeguarded Newton fallback only when a lane of the block has not converged), then the
/// extrapolation of ``CubicBezier/solve(_:)`` outside `[0, 1]`.
///
/// Accuracy, measured against ``CubicBezier/solve(_:)`` in `Double` at the same (`Float`) `x`
/// (`CubicBezierBatchTests`): for the five named curves `|y − y_ref| ≤ 1.8e-7` (50 000 random
/// `x ∈ [0, 1]`). For random valid curves (`y1, y2 ∈ [−1, 2]`) the residual `|X(s) − x|` of the
/// `Float` root, measured in `Double`, stays below 3.5e-7, so the output error is bounded by the
/// curve's slope: `|y − y_ref| ≤ 1.7e-7 + 3.5e-7·|dy/dx|` measured, which is ≤ 2.7e-7 wherever
/// `|dy/dx| ≤ 1` and reaches about 1.1e-6 on steep stretches — there `x` itself is only known to
/// 6e-8 in `Float`, so no `Float` solve can do better than the slope allows.
public struct CubicBezierEvaluationJob: @unchecked Sendable {
  /// The curves and their tables (read only).
  public var curves: CubicBezierBatch
  /// The input progress `x` per lane (unitless). Every entry must be finite.
  public var input: UnsafeBufferPointer<Float>
  /// Per lane, the index of its curve in `curves`; `nil` means curve 0 for every lane (one shared
  /// curve). When given, `curveIndices.count == input.count`.
  public var curveIndices: UnsafeBufferPointer<UInt16>?
  /// The eased outputs `y`, `output[j]` for `input[j]`; at least `input.count` entries.
  public var output: UnsafeMutableBufferPointer<Float>

  /// Creates a job; nothing is checked until ``validate()`` or ``run()``.
  public init(
    curves: CubicBezierBatch, input: UnsafeBufferPointer<Float>,
    curveIndices: UnsafeBufferPointer<UInt16>? = nil, output: UnsafeMutableBufferPointer<Float>
  ) {
    self.curves = curves
    self.input = input
    self.curveIndices = curveIndices
    self.output = output
  }

  /// Checks the job without running it (one pass over the inputs).
  ///
  /// - Throws: ``ValidationError`` with `field`
  ///   * `"curves"` ``ValidationError/Reason/tooFew(minimum:actual:)`` when the batch has no
  ///     curve;
  ///   * `"curveIndices"` ``ValidationError/Reason/countMismatch(expected:actual:)`` when its
  ///     count differs from `input.count`;
  ///   * `"output"` ``ValidationError/Reason/tooFew(minimum:actual:)`` when shorter than `input`;
  ///   * `"input"` with the index ``ValidationError/Reason/notFinite`` for NaN or infinity;
  ///   * `"curveIndices"` with the index ``ValidationError/Reason/outOfRange(lower:upper:)`` for
  ///     an index `≥ curves.curves.count`.
  public func validate() throws(ValidationError) {
    let curveCount = curves.curves.count
    guard curveCount > 0 else {
      throw ValidationError(field: "curves", reason: .tooFew(minimum: 1, actual: 0))
    }
    if let curveIndices, curveIndices.count != input.count {
      throw ValidationError(
        field: "curveIndices",
        reason: .countMismatch(expected: input.count, actual: curveIndices.count))
    }
    guard output.count >= input.count else {
      throw ValidationError(
        field: "output", reason: .tooFew(minimum: input.count, actual: output.count))
    }
    for (i, x) in input.enumerated() where !x.isFinite {
      throw ValidationError(field: "input", index: i, reason: .notFinite)
    }
    if let curveIndices {
      for (i, c) in curveIndices.enumerated() where Int(c) >= curveCount {
        throw ValidationError(
          field: "curveIndices", index: i,
          reason: .outOfRange(lower: 0, upper: Double(curveCount - 1)))
      }
    }
  }

  /// Validates the job (``validate()``), then writes `output[0 ..< input.count]`. Allocates
  /// nothing (16-lane scratch lives on the stack).
  public func run() throws(ValidationError) {
    try validate()
    runUnchecked()
  }

  /// ``run()`` without the checks.
  func runUnchecked() {
    let n = input.count
    guard n > 0 else { return }
    let width = Lanes.scalarCount
    let fullEnd = n / width * width
    let xs = input.baseAddress!
    let indices = curveIndices?.baseAddress
    let out = output.baseAddress!
    let curveCount = curves.curves.count
    curves.coefficients.withUnsafeBufferPointer { coefficientBuffer in
      curves.inverse.withUnsafeBufferPointer { tableBuffer in
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * width) { scratchBuffer in
          let coefficients = coefficientBuffer.baseAddress!
          let table = tableBuffer.baseAddress!
          let scratch = scratchBuffer.baseAddress!
          var j = 0
          while j < fullEnd {
            let x = UnsafeRawPointer(xs + j).loadUnaligned(as: Lanes.self)
            var curve = Lanes(repeating: 0)
            if let indices {
              curve = Lanes(UnsafeRawPointer(indices + j).loadUnaligned(as: SIMD16<UInt16>.self))
            }
            let y = CubicBezierBatch.solve(
              x: x, curve: curve, coefficients: coefficients, curveCount: curveCount,
              table: table, scratch: scratch)
            UnsafeMutableRawPointer(out + j).storeBytes(of: y, as: Lanes.self)
            j += width
          }
          if j < n {
            // Tail: a padded local copy (x = 0, curve 0); only the valid lanes are written.
            var x = Lanes(repeating: 0)
            var curve = Lanes(repeating: 0)
            for l in 0..<(n - j) {
              x[l] = xs[j + l]
              if let indices { curve[l] = Float(indices[j + l]) }
            }
            let y = CubicBezierBatch.solve(
              x: x, curve: curve, coefficients: coefficients, curveCount: curveCount,
              table: table, scratch: scratch)
            for l in 0..<(n - j) { out[j + l] = y[l] }
          }
        }
      }
    }
  }
}
