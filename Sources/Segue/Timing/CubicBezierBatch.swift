import SegueSIMDSupport

/// A set of cubic Bézier timing curves prepared for batch solving in `Float`: per curve, the
/// polynomial coefficients and extrapolation slopes of ``CubicBezier``, and a uniform inverse
/// table for the solver's first guess.
///
/// The table holds ``segments`` + 1 samples of the inverse `s(x)` at `x = i / segments`, computed
/// once in `Double` by ``CubicBezier/parameter(forX:)`` (so `X(s(x)) = x` to about 1e-12 before
/// rounding to `Float`). Linear interpolation in it is within `h²/8·|s''(x)|` of the root, with
/// `h = 1/512`: about 1e-6 to 1e-5 on the smooth parts of a curve (worse next to a flat end such as
/// `easeIn` at `x = 1`, where `X'(1) = 0`); one Newton step of ``CubicBezierEvaluationJob`` squares
/// that. The table costs 2 052 bytes per curve (four curves fit in an eighth of a 32 KB L1 cache). A uniform grid in `x` needs no search
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
  /// Number of table intervals per curve (512); each curve has `segments + 1` entries (2 052
  /// bytes). Measured on the `bezier` workload: 512 intervals and one Newton step are 1.4× faster
  /// than 64 intervals and two steps, with fewer lanes left for the fallback (3 % of 16-lane blocks
  /// of the `stack` workload instead of 7 %).
  public static let segments = 512
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

/// Everything the unit solve needs about a lane vector of curves (``Lanes``, or a ``LanePair`` of
/// two blocks' worth), prepared once and reusable for every block with the same curve per lane (a
/// batch whose curves repeat with a period dividing the block width, like the `stack` workload's
/// `j mod 4`, prepares it once per run).
@frozen @usableFromInline package struct BezierLanes<V: LaneVector> {
  /// `3x1`, the first scaled control value of `X` (also `X'(0)`).
  @usableFromInline package var p1: V
  /// `3x2`.
  @usableFromInline package var p2: V
  /// `3y1`.
  @usableFromInline package var q1: V
  /// `3y2`.
  @usableFromInline package var q2: V
  /// `3·ax = 3·(1 + 3x1 − 3x2)`, the `s²` coefficient of `X'(s)` in power form.
  @usableFromInline package var slope2: V
  /// `2·bx = 2·(3x2 − 2·3x1)`, the `s` coefficient of `X'(s)` in power form.
  @usableFromInline package var slope1: V
  /// The lane's first table entry, `curve·(segments + 1)`.
  @usableFromInline package var tableBase: V

  @inlinable @inline(__always)
  package init(p1: V, p2: V, q1: V, q2: V, slope2: V, slope1: V, tableBase: V) {
    self.p1 = p1
    self.p2 = p2
    self.q1 = q1
    self.q2 = q2
    self.slope2 = slope2
    self.slope1 = slope1
    self.tableBase = tableBase
  }
}

extension BezierLanes {
  /// The curves of two blocks side by side, for a kernel that runs blocks in pairs.
  @inlinable @inline(__always)
  package init<H>(_ a: BezierLanes<H>, _ b: BezierLanes<H>) where V == LanePair<H> {
    self.init(
      p1: V(a.p1, b.p1), p2: V(a.p2, b.p2), q1: V(a.q1, b.q1), q2: V(a.q2, b.q2),
      slope2: V(a.slope2, b.slope2), slope1: V(a.slope1, b.slope1),
      tableBase: V(a.tableBase, b.tableBase))
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
  /// Newton steps after the table guess (one: the guess is within about 1e-5 on the smooth
  /// parts of a curve, and a Newton step squares that), before the acceptance test and its
  /// polishing step (``solveUnit(x:lanes:table:)``).
  @usableFromInline package static let newtonSteps = 1
  /// Newton steps after the second-order restart at a flat end (``restartAtFlatEnds``), where
  /// Newton converges only linearly.
  @usableFromInline package static let restartNewtonSteps = 2
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
  package static func lanePair<V: LaneVector>(
    _ first: Int, curve: V, coefficients: UnsafePointer<Float>, stride: Int, curveCount: Int,
    scratch: UnsafeMutablePointer<Float>? = nil
  ) -> (V, V) {
    if curveCount <= blendLimit {
      var a = V(repeating: coefficients[first])
      var b = V(repeating: coefficients[first + 1])
      if curveCount > 1 {
        for c in 1..<curveCount {
          let m = V.equal(curve, V(repeating: Float(c)))
          a = V.select(m, V(repeating: coefficients[stride * c + first]), a)
          b = V.select(m, V(repeating: coefficients[stride * c + first + 1]), b)
        }
      }
      return (a, b)
    }
    let index = V.mul(curve, V(repeating: Float(stride)))
    return (V.gather(coefficients + first, index), V.gather(coefficients + first + 1, index))
  }

  /// Prepares the per-lane curve data of ``solveUnit(x:lanes:table:)`` from each lane's curve
  /// index (an integer-valued float; see ``lanePair``).
  @inlinable @inline(__always)
  package static func lanes<V: LaneVector>(
    curve: V, coefficients: UnsafePointer<Float>, stride: Int, curveCount: Int
  ) -> BezierLanes<V> {
    let (p1, p2) = lanePair(
      0, curve: curve, coefficients: coefficients, stride: stride, curveCount: curveCount)
    let (q1, q2) = lanePair(
      2, curve: curve, coefficients: coefficients, stride: stride, curveCount: curveCount)
    // X'(s) = 3·ax·s² + 2·bx·s + cx with cx = p1, bx = p2 − 2·p1, ax = 1 + p1 − p2.
    let slope2 = V.mul(V(repeating: 3), V.sub(V.add(V(repeating: 1), p1), p2))
    let slope1 = V.mul(V(repeating: 2), V.sub(p2, V.add(p1, p1)))
    return BezierLanes(
      p1: p1, p2: p2, q1: q1, q2: q2, slope2: slope2, slope1: slope1,
      tableBase: V.mul(curve, V(repeating: Float(segments + 1))))
  }

  /// `B(s) = u·s·(p1·u + p2·s) + s³`, `u = 1 − s`: the Bernstein form of a unit cubic Bézier
  /// coordinate with scaled control values `p1 = 3·P1`, `p2 = 3·P2`, fused where the build
  /// targets FMA: `fma(u·s, fma(p2, s, p1·u), s²·s)`.
  @inlinable @inline(__always)
  package static func bernstein<V: LaneVector>(_ s: V, _ p1: V, _ p2: V) -> V {
    let u = V.sub(V(repeating: 1), s)
    return V.fma(V.mul(u, s), V.fma(p2, s, V.mul(p1, u)), V.mul(V.mul(s, s), s))
  }

  /// The residual `X(s) − x` in Bernstein form, `fma(u·s, fma(p2, s, p1·u), fma(s², s, −x))`:
  /// the subtraction of `x` fused into the last term (7 instructions with FMA). For `x1, x2` in
  /// `[0, 1]` every term is non-negative, so the rounding error is a few ulps of `x`.
  @inlinable @inline(__always)
  package static func residual<V: LaneVector>(_ s: V, _ x: V, _ lanes: BezierLanes<V>) -> V {
    let u = V.sub(V(repeating: 1), s)
    let inner = V.fma(lanes.p2, s, V.mul(lanes.p1, u))
    return V.fma(V.mul(u, s), inner, V.fma(V.mul(s, s), s, V.neg(x)))
  }

  /// `X'(s) = (3ax·s + 2bx)·s + cx` in power form (two FMAs; its rounding only changes the size
  /// of a Newton step, which the next residual corrects).
  @inlinable @inline(__always)
  package static func slope<V: LaneVector>(_ s: V, _ lanes: BezierLanes<V>) -> V {
    V.fma(V.fma(lanes.slope2, s, lanes.slope1), s, lanes.p1)
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
  /// 1. First guess from the curve's inverse table: cell `⌊x·segments⌋` (truncation, `x ≥ 0`),
  ///    both ends fetched as one pair per lane (``SIMDMath/gatherPair(_:_:)``), linear
  ///    interpolation.
  /// 2. ``newtonSteps`` Newton step `s ← s − (X(s) − x)/X'(s)`, skipped in lanes where
  ///    `|X'(s)| < 1e-7`, `s` clamped to `[0, 1]`; it multiplies by an approximate reciprocal of
  ///    `X'` (``SIMDMath/approximateReciprocal(_:)``, 2⁻¹⁴ or 2⁻¹² relative) instead of
  ///    dividing: a step `δ` computed to relative error ε leaves an error `ε·|δ|`, below 1e-9
  ///    for the `|δ| ≲ 1e-5` of a table guess.
  /// 3. The acceptance test: the residual `e` at `s` must be below `max(1e-7, 6e-8·|X'(s)|)`
  ///    (the second bound is the resolution of `s` in `Float` carried through the slope). The
  ///    same `e` and `X'(s)` give one more Newton step for the price of a reciprocal, taken in
  ///    every lane that passes (it halves the worst output error of the `bezier` workload's
  ///    accepted lanes, from 2.2e-7 to 1.9e-7).
  /// 4. Only if some lane fails (about 3 % of 16-lane blocks of the `stack` workload), out of line
  ///    (``repair(x:s:lanes:table:)``): failing lanes in an end cell of a curve that is flat there
  ///    restart from a second-order guess (``restartAtFlatEnds``); lanes still failing then go
  ///    through a safeguarded Newton iteration; the best point seen is used in the failing lanes
  ///    only.
  ///
  /// `X` and `Y` are evaluated in Bernstein form (see the type's description), `X'` in power form
  /// (``slope(_:_:)``), with fused multiply-adds where the build targets FMA. `table` is
  /// ``inverse``.
  @inlinable @inline(__always)
  package static func solveUnit<V: LaneVector>(
    x: V, lanes: BezierLanes<V>, table: UnsafePointer<Float>
  ) -> (s: V, y: V) {
    let zero = V(repeating: 0)
    // First guess from the inverse table (max maps NaN to 0, so no index leaves the table).
    let f = V.maximum(V.mul(x, V(repeating: Float(segments))), zero)
    let cell = V.minimum(V.truncate(f), V(repeating: Float(segments - 1)))
    let (lo, hi) = V.gatherPair(table, V.add(lanes.tableBase, cell))
    var s = V.fma(V.sub(hi, lo), V.sub(f, cell), lo)
    for _ in 0..<newtonSteps {
      s = newtonStep(s, residual: residual(s, x, lanes), slope: slope(s, lanes))
    }
    // Acceptance test on the residual at s, which also gives a last Newton step for free (its
    // residual and slope are computed here anyway); the step goes through the approximate
    // reciprocal: its relative error (≤ 2⁻¹²) on a step below 1e-7/|X'| costs nothing visible.
    let e = residual(s, x, lanes)
    let d = slope(s, lanes)
    let fail = failing(e2: V.mul(e, e), slope: d)
    var polished = newtonStep(s, residual: e, slope: d)
    if V.any(fail) {
      // The curves go by address (stored here, on the cold path): passed by value, the large
      // struct would be written to memory on every call of the hot loop.
      var curves = lanes
      polished = V.select(fail, repair(x: x, s: s, lanes: &curves, table: table), polished)
    }
    return (polished, bernstein(polished, lanes.q1, lanes.q2))
  }

  /// One Newton step `s − e/X'(s)` from the residual `e` and slope `d` at `s`, through the
  /// approximate reciprocal of `d` (``SIMDMath/approximateReciprocal(_:)``), skipped in lanes
  /// where `|d| < 1e-7`, clamped to `[0, 1]`.
  @inlinable @inline(__always)
  package static func newtonStep<V: LaneVector>(_ s: V, residual e: V, slope d: V) -> V {
    let flat = V.less(V.mul(d, d), V(repeating: flatSquared))
    let step = V.mul(e, V.approximateReciprocal(d))
    let stepped = V.sub(s, V.select(flat, V(repeating: 0), step))
    return V.minimum(V.maximum(stepped, V(repeating: 0)), V(repeating: 1))
  }

  /// The lanes whose residual `e` (squared: `e2`) is not accepted: `|e| ≥ 1e-7` and
  /// `|e| ≥ 6e-8·|X'(s)|`.
  @inlinable @inline(__always)
  package static func failing<V: LaneVector>(e2: V, slope d: V) -> V.Mask {
    V.and(
      V.lessOrEqual(V(repeating: toleranceSquared), e2),
      V.lessOrEqual(V.mul(V(repeating: slopeToleranceSquared), V.mul(d, d)), e2))
  }

  /// The lanes whose residual at `s` is not accepted (``failing(e2:slope:)``).
  @inlinable @inline(__always)
  package static func failing<V: LaneVector>(_ s: V, x: V, lanes: BezierLanes<V>) -> V.Mask {
    let e = residual(s, x, lanes)
    return failing(e2: V.mul(e, e), slope: slope(s, lanes))
  }

  /// The first remedy for lanes that the Newton step did not bring within the tolerance (part of
  /// ``repair(x:s:lanes:table:)``, out of line).
  ///
  /// Most such lanes sit in the first or last table cell of a curve that is flat there
  /// (`X'(0) = 0` when `x1 = 0`, `X'(1) = 0` when `x2 = 1`, as `easeOut` and `easeIn`): the
  /// inverse behaves like a square root there, linear interpolation is off by up to 0.02, and
  /// Newton converges only linearly. Those lanes restart from the inverse of the curve's
  /// second-order expansion at the end, `X(t) ≈ X'(0)·t + X''(0)/2·t²` (or the same about
  /// `s = 1`), solved in the stable form `t = 2δ/(D + √(D² + 4Cδ))` and clamped to the cell, and
  /// take two Newton steps (measured in `Float`: then every lane of those cells passes the test
  /// for `easeIn`, `easeOut` and curves with `x1 = 0.02` or `x2 = 0.98`). Other lanes keep `s`.
  @inlinable @inline(__always)
  package static func restartAtFlatEnds<V: LaneVector>(
    x: V, s: V, fail: V.Mask, cell: V, lo: V, hi: V, lanes: BezierLanes<V>
  ) -> V {
    let zero = V(repeating: 0)
    let one = V(repeating: 1)
    let atStart = V.and(fail, V.less(cell, V(repeating: 0.5)))
    let atEnd = V.and(fail, V.lessOrEqual(V(repeating: Float(segments - 1)), cell))
    let ends = V.or(atStart, atEnd)
    guard V.any(ends) else { return s }
    // About s = 0: D = X'(0) = p1, C = X''(0)/2 = slope1/2, δ = x.
    // About s = 1: D = X'(1), C = −X''(1)/2 = −(2·slope2 + slope1)/2, δ = 1 − x, s = 1 − t.
    let d1 = V.add(V.add(lanes.slope2, lanes.slope1), lanes.p1)
    let c1 = V.neg(V.add(lanes.slope2, V.mul(V(repeating: 0.5), lanes.slope1)))
    let c0 = V.mul(V(repeating: 0.5), lanes.slope1)
    let d = V.select(atEnd, d1, lanes.p1)
    let c = V.select(atEnd, c1, c0)
    let delta = V.select(atEnd, V.sub(one, x), x)
    let root = V.squareRoot(V.maximum(V.fma(V.mul(V(repeating: 4), c), delta, V.mul(d, d)), zero))
    let t = V.div(V.add(delta, delta), V.add(d, root))
    var guess = V.select(atEnd, V.sub(one, t), t)
    guess = V.minimum(V.maximum(guess, lo), hi)  // also maps NaN (0/0) to lo
    for _ in 0..<restartNewtonSteps {
      let e = residual(guess, x, lanes)
      let slopeAt = slope(guess, lanes)
      let flat = V.less(V.mul(slopeAt, slopeAt), V(repeating: flatSquared))
      guess = V.sub(guess, V.select(flat, zero, V.div(e, slopeAt)))
      guess = V.minimum(V.maximum(guess, zero), one)
    }
    return V.select(ends, guess, s)
  }

  /// The rarely taken remedies for the lanes of a block that the Newton step left above the
  /// tolerance, out of line so that the hot loop keeps neither the table cell nor its ends alive
  /// (with AVX2's sixteen registers they would be spilled on every block): the cell again, then
  /// ``restartAtFlatEnds``, then, for lanes still failing (a fraction of a per cent: mostly lanes
  /// where `Float` rounding of the residual alone reaches 1e-7), a safeguarded Newton iteration on
  /// the table cell's bracket (widened by the table's rounding): a Newton step when it stays
  /// inside the bracket, else the midpoint; the bracket shrinks by the sign of the residual; the
  /// best point seen wins; it stops as soon as every failing lane has converged (or its bracket
  /// is down to `Float` resolution), after at most ``fallbackSteps`` iterations. Returns `s` in
  /// the lanes that passed.
  @inline(never)
  @inlinable
  package static func repair<V: LaneVector>(
    x: V, s: V, lanes: inout BezierLanes<V>, table: UnsafePointer<Float>
  ) -> V {
    let f = V.maximum(V.mul(x, V(repeating: Float(segments))), V(repeating: 0))
    let cell = V.minimum(V.truncate(f), V(repeating: Float(segments - 1)))
    let (lo, hi) = V.gatherPair(table, V.add(lanes.tableBase, cell))
    let fail = failing(s, x: x, lanes: lanes)
    let restarted = restartAtFlatEnds(
      x: x, s: s, fail: fail, cell: cell, lo: lo, hi: hi, lanes: lanes)
    let e = residual(restarted, x, lanes)
    let e2 = V.mul(e, e)
    let still = failing(e2: e2, slope: slope(restarted, lanes))
    guard V.any(still) else { return restarted }
    return fallback(x: x, s: restarted, e2: e2, fail: still, lo: lo, hi: hi, lanes: lanes)
  }

  /// The safeguarded iteration of ``repair(x:s:lanes:table:)`` for the lanes in `fail`.
  @inlinable @inline(__always)
  package static func fallback<V: LaneVector>(
    x: V, s: V, e2: V, fail: V.Mask, lo: V, hi: V, lanes: BezierLanes<V>
  ) -> V {
    let zero = V(repeating: 0)
    let one = V(repeating: 1)
    let half = V(repeating: 0.5)
    // NaN-free clamps: the table entries are finite.
    var a = V.minimum(V.maximum(V.sub(lo, V(repeating: bracketMargin)), zero), one)
    var b = V.minimum(V.maximum(V.add(hi, V(repeating: bracketMargin)), zero), one)
    var best = s
    var bestE2 = e2
    var active = fail
    let inside = V.and(V.less(a, s), V.less(s, b))
    var t = V.select(inside, s, V.mul(V.add(a, b), half))
    for _ in 0..<fallbackSteps {
      let et = residual(t, x, lanes)
      let et2 = V.mul(et, et)
      let better = V.less(et2, bestE2)
      best = V.select(better, t, best)
      bestE2 = V.select(better, et2, bestE2)
      let below = V.less(et, zero)
      a = V.select(below, t, a)
      b = V.select(below, b, t)
      let dt = slope(t, lanes)
      let newton = V.sub(t, V.div(et, dt))
      let within = V.and(V.less(a, newton), V.less(newton, b))
      t = V.select(within, newton, V.mul(V.add(a, b), half))
      let narrow = V.lessOrEqual(V.sub(b, a), V(repeating: bracketResolution))
      active = V.and(active, V.and(failing(e2: et2, slope: dt), V.not(narrow)))
      if !V.any(active) { break }
    }
    return V.select(fail, best, s)
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
    let y = solveUnit(
      x: SIMDMath.clamp(x, 0, 1), curve: curve, coefficients: coefficients, stride: stride,
      curveCount: curveCount, table: table, scratch: scratch
    ).y
    return extrapolate(y, x: x) {
      lanePair(
        4, curve: curve, coefficients: coefficients, stride: stride, curveCount: curveCount)
    }
  }

  /// `y` with the lanes outside `(0, 1)` replaced by ``CubicBezier/solve(_:)``'s extrapolation:
  /// `startGradient·x` for `x ≤ 0`, `1 + endGradient·(x − 1)` for `x ≥ 1` (exactly 0 and 1 at the
  /// ends). `gradients()` gives `(startGradient, endGradient)` per lane; it runs only when some
  /// lane is outside.
  @inlinable @inline(__always)
  package static func extrapolate<V: LaneVector>(
    _ y: V, x: V, gradients: () -> (start: V, end: V)
  ) -> V {
    let one = V(repeating: 1)
    let below = V.lessOrEqual(x, V(repeating: 0))
    let above = V.lessOrEqual(one, x)
    guard V.any(V.or(below, above)) else { return y }
    let (g0, g1) = gradients()
    let result = V.select(below, V.mul(g0, x), y)
    return V.select(above, V.fma(g1, V.sub(x, one), one), result)
  }
}

/// A batch evaluation of cubic Bézier timing curves, in the style of ozz-animation's runtime
/// jobs: `output[j] = curves.curves[curveIndices[j]].solve(input[j])` in `Float`, sixteen lanes
/// at a time, with no allocation.
///
/// Per lane: the branch-free solve of ``CubicBezierBatch`` (table guess, a Newton step, the
/// acceptance test with a polishing step, a safeguarded Newton fallback only when a lane of the
/// block has not converged), then the
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
    try validateShape()
    let curveCount = curves.curves.count
    try Validate.allFinite(input, "input")
    if let curveIndices {
      for (i, c) in curveIndices.enumerated() where Int(c) >= curveCount {
        throw ValidationError(
          field: "curveIndices", index: i,
          reason: .outOfRange(lower: 0, upper: Double(curveCount - 1)))
      }
    }
  }

  /// The checks of ``validate()`` that do not read the values: a curve, matching counts, room in
  /// the output.
  func validateShape() throws(ValidationError) {
    try Validate.count(curves.curves.count, atLeast: 1, "curves")
    if let curveIndices {
      try Validate.count(curveIndices.count, equals: input.count, "curveIndices")
    }
    try Validate.count(output.count, atLeast: input.count, "output")
  }

  /// Checks the job and writes `output[0 ..< input.count]`; throws what ``validate()`` throws.
  /// Allocates nothing.
  ///
  /// The checks that read every value (finite inputs, curve indices in range) run during the
  /// evaluation instead of in a pass of their own: a group's indices are checked when its curves
  /// are prepared (before any table lookup), and non-finite inputs are caught by the test for
  /// inputs outside `(0, 1)` that the extrapolation makes anyway; on a failure the evaluation
  /// stops and ``validate()`` reports the first offending index. So when `run()` throws for a
  /// value, `output` may have been partly written (never outside `0 ..< input.count`).
  public func run() throws(ValidationError) {
    try validateShape()
    if !evaluate() { try validate() }
  }

  /// ``run()`` without the checks (the caller has validated the job).
  func runUnchecked() { _ = evaluate() }

  /// Evaluates all lanes; returns `false` (possibly part way) when an input is not finite or a
  /// curve index is out of range (see ``run()``). The lanes go in groups of 64 (AVX-512 builds)
  /// or 32 (others), processed as a ``LanePair`` of pairs or a pair of 16-lane vectors in lock
  /// step (independent dependency chains for the out-of-order core), then 16 at a time and a
  /// padded tail. A group's curve data (``BezierLanes`` and the extrapolation gradients) is
  /// prepared again only when its curve indices differ from the previous group's (a batch whose
  /// curves repeat with a period dividing the group, like `j mod 4`, prepares them once).
  func evaluate() -> Bool {
    let n = input.count
    guard n > 0 else { return true }
    var j = 0
    var valid = true
    if segue_compiled_features() & UInt32(SEGUE_FEATURE_AVX512F) != 0 {
      j = runGroups(LanePair<LanePair<Lanes>>.self, from: j, valid: &valid)
    } else {
      j = runGroups(LanePair<Lanes>.self, from: j, valid: &valid)
    }
    if valid { j = runGroups(Lanes.self, from: j, valid: &valid) }
    guard valid else { return false }
    if j < n {
      // Tail: a padded local copy (x = 0, curve 0); only the valid lanes are written.
      var x = Lanes(repeating: 0)
      var curve = Lanes(repeating: 0)
      for l in 0..<(n - j) {
        x[l] = input[j + l]
        if let curveIndices { curve[l] = Float(curveIndices[j + l]) }
        if !x[l].isFinite || Int(curve[l]) >= curves.curves.count { return false }
      }
      let y = solveBlock(x, curve: curve)
      for l in 0..<(n - j) { output[j + l] = y[l] }
    }
    return true
  }

  /// The solve and extrapolation of one vector of lanes with curve indices `curve` (all in
  /// range), preparing the curves on the spot.
  @inline(__always)
  func solveBlock(_ x: Lanes, curve: Lanes) -> Lanes {
    let curveCount = curves.curves.count
    let stride = CubicBezierBatch.coefficientsPerCurve
    return curves.coefficients.withUnsafeBufferPointer { k in
      curves.inverse.withUnsafeBufferPointer { t in
        let lanes = CubicBezierBatch.lanes(
          curve: curve, coefficients: k.baseAddress!, stride: stride, curveCount: curveCount)
        let y = CubicBezierBatch.solveUnit(
          x: Lanes.minimum(Lanes.maximum(x, Lanes(repeating: 0)), Lanes(repeating: 1)),
          lanes: lanes, table: t.baseAddress!
        ).y
        return CubicBezierBatch.extrapolate(y, x: x) {
          CubicBezierBatch.lanePair(
            4, curve: curve, coefficients: k.baseAddress!, stride: stride, curveCount: curveCount)
        }
      }
    }
  }

  /// Runs whole groups of `V.laneCount` lanes from lane `start` on; returns the first lane not
  /// done. Clears `valid` and stops at a group with a curve index out of range (before using it)
  /// or, after writing it, at a group with a non-finite input.
  @inline(__always)
  func runGroups<V: LaneVector>(_: V.Type, from start: Int, valid: inout Bool) -> Int {
    let n = input.count
    let width = V.laneCount
    guard start + width <= n else { return start }
    let xs = input.baseAddress!
    let indices = curveIndices?.baseAddress
    let out = output.baseAddress!
    let curveCount = curves.curves.count
    let stride = CubicBezierBatch.coefficientsPerCurve
    return curves.coefficients.withUnsafeBufferPointer { coefficientBuffer in
      curves.inverse.withUnsafeBufferPointer { tableBuffer in
        let coefficients = coefficientBuffer.baseAddress!
        let table = tableBuffer.baseAddress!
        let zero = V(repeating: 0)
        let one = V(repeating: 1)
        var lanes = CubicBezierBatch.lanes(
          curve: zero, coefficients: coefficients, stride: stride, curveCount: curveCount)
        var gradients = CubicBezierBatch.lanePair(
          4, curve: zero, coefficients: coefficients, stride: stride, curveCount: curveCount)
        // The curve indices the lanes were prepared for (all curve 0 at first), up to 64 lanes.
        var key = (SIMD64<UInt8>(), SIMD64<UInt8>())
        let keyBytes = 2 * width
        var j = start
        while j + width <= n {
          if let indices {
            if CubicBezierBatch.keyChanged(&key, indices + j, byteCount: keyBytes) {
              let curve = V.load(halfwords: indices + j)
              if V.any(V.lessOrEqual(V(repeating: Float(curveCount)), curve)) {
                valid = false
                return j
              }
              lanes = CubicBezierBatch.lanes(
                curve: curve, coefficients: coefficients, stride: stride, curveCount: curveCount)
              gradients = CubicBezierBatch.lanePair(
                4, curve: curve, coefficients: coefficients, stride: stride,
                curveCount: curveCount)
            }
          }
          let x = V.load(xs + j)
          var y = CubicBezierBatch.solveUnit(
            x: V.minimum(V.maximum(x, zero), one), lanes: lanes, table: table
          ).y
          // Lanes outside (0, 1): extrapolation, and the check for non-finite inputs (NaN is
          // neither inside nor at an end; ±∞ − ±∞ is NaN).
          if V.any(V.not(V.and(V.less(zero, x), V.less(x, one)))) {
            if V.any(V.not(V.equal(V.sub(x, x), zero))) { valid = false }
            y = CubicBezierBatch.extrapolate(y, x: x) { gradients }
          }
          for p in 0..<(width / 16) {
            UnsafeMutableRawPointer(out + j + 16 * p).storeBytes(of: y.piece(p), as: Lanes.self)
          }
          j += width
          if !valid { return j }
        }
        return j
      }
    }
  }
}

extension CubicBezierBatch {
  /// Whether the `byteCount` bytes at `source` differ from the first `byteCount` bytes of `key`
  /// (the curve indices a kernel last prepared its lanes for); when they do, they are copied into
  /// `key`. One wide compare (`segue_equal_bytes`) per vector of lanes.
  @inlinable @inline(__always)
  package static func keyChanged<Key>(
    _ key: inout Key, _ source: UnsafeRawPointer, byteCount: Int
  ) -> Bool {
    withUnsafeMutableBytes(of: &key) { saved in
      if segue_equal_bytes(saved.baseAddress!, source, UInt(byteCount)) != 0 { return false }
      saved.baseAddress!.copyMemory(from: source, byteCount: byteCount)
      return true
    }
  }
}
