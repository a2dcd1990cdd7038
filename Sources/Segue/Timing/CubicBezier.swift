/// A cubic Bézier timing curve, `CAMediaTimingFunction(controlPoints:)` and CSS `cubic-bezier()`.
///
/// The curve runs from `P0 = (0, 0)` through the inner control points `P1 = (x1, y1)` and
/// `P2 = (x2, y2)` to `P3 = (1, 1)`. In polynomial form (WebKit's `UnitBezier`):
///
///     cx = 3·x1    bx = 3·(x2 − x1) − cx    ax = 1 − cx − bx      (and the same for y)
///     X(s) = ((ax·s + bx)·s + cx)·s         Y(s) = ((ay·s + by)·s + cy)·s
///
/// for the curve parameter `s` in `[0, 1]`. The eased value at input `x` is `Y(s*)` where
/// `X(s*) = x` (see ``solve(_:)``). Because `x1` and `x2` lie in `[0, 1]`, `X` is continuous and
/// strictly increasing on `[0, 1]` (its derivative is a non-negative Bernstein quadratic that
/// vanishes at most at isolated points), so `s*` exists and is unique. The `y` values are
/// unrestricted, so the output may overshoot `[0, 1]`.
///
/// Equality and hashing compare the four control points; everything else is derived from them.
public struct CubicBezier: Hashable, Sendable {
  /// `P1.x`, unitless, in `[0, 1]`.
  public let x1: Double
  /// `P1.y`, unitless, in `[−1e100, 1e100]` (unrestricted in practice; bounded so that the
  /// coefficients cannot overflow).
  public let y1: Double
  /// `P2.x`, unitless, in `[0, 1]`.
  public let x2: Double
  /// `P2.y`, unitless, in `[−1e100, 1e100]`.
  public let y2: Double

  /// Cubic coefficient of `X(s)`: `1 − cx − bx`.
  public let ax: Double
  /// Quadratic coefficient of `X(s)`: `3·(x2 − x1) − cx`.
  public let bx: Double
  /// Linear coefficient of `X(s)`: `3·x1`.
  public let cx: Double
  /// Cubic coefficient of `Y(s)`: `1 − cy − by`.
  public let ay: Double
  /// Quadratic coefficient of `Y(s)`: `3·(y2 − y1) − cy`.
  public let by: Double
  /// Linear coefficient of `Y(s)`: `3·y1`.
  public let cy: Double

  /// The slope used for inputs `x < 0`: `y1/x1` if `x1 > 0`; else `y2/x2` if `y1 = 0` and
  /// `x2 > 0`; else 1 if `y1 = y2 = 0`; else 0 (WebKit/Chromium rule).
  public let startGradient: Double
  /// The slope used for inputs `x > 1`: `(y2 − 1)/(x2 − 1)` if `x2 < 1`; else
  /// `(y1 − 1)/(x1 − 1)` if `y2 = 1` and `x1 < 1`; else 1 if `y1 = y2 = 1`; else 0
  /// (WebKit/Chromium rule, mirroring ``startGradient`` about `P3`).
  public let endGradient: Double

  /// Creates the curve with `P1 = (x1, y1)` and `P2 = (x2, y2)`, as
  /// `CAMediaTimingFunction(controlPoints: x1, y1, x2, y2)`.
  ///
  /// - Parameters:
  ///   - x1: `P1.x`, unitless, in `[0, 1]`.
  ///   - y1: `P1.y`, unitless, in `[−1e100, 1e100]` (may lie outside `[0, 1]` for overshoot).
  ///   - x2: `P2.x`, unitless, in `[0, 1]`.
  ///   - y2: `P2.y`, unitless, in `[−1e100, 1e100]`.
  /// - Throws: ``ValidationError`` with field `"controlPoint1.x"`, `"controlPoint1.y"`,
  ///   `"controlPoint2.x"` or `"controlPoint2.y"`: ``ValidationError/Reason/notFinite`` for NaN or
  ///   infinity, ``ValidationError/Reason/outOfRange(lower:upper:)`` for an `x` outside `[0, 1]`
  ///   or a `y` beyond `±1e100` (a bound that only keeps the arithmetic finite).
  public init(x1: Double, y1: Double, x2: Double, y2: Double) throws(ValidationError) {
    try Validate.inRange(x1, 0, 1, "controlPoint1.x")
    try Validate.inRange(y1, -1e100, 1e100, "controlPoint1.y")
    try Validate.inRange(x2, 0, 1, "controlPoint2.x")
    try Validate.inRange(y2, -1e100, 1e100, "controlPoint2.y")
    self.init(unchecked: x1, y1, x2, y2)
  }

  /// Creates the curve without validation; the caller guarantees finite values and `x` in `[0, 1]`.
  init(unchecked x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    self.x1 = x1
    self.y1 = y1
    self.x2 = x2
    self.y2 = y2
    let cx = 3 * x1
    let bx = 3 * (x2 - x1) - cx
    let ax = 1 - cx - bx
    let cy = 3 * y1
    let by = 3 * (y2 - y1) - cy
    let ay = 1 - cy - by
    self.ax = ax
    self.bx = bx
    self.cx = cx
    self.ay = ay
    self.by = by
    self.cy = cy
    if x1 > 0 {
      startGradient = y1 / x1
    } else if y1 == 0 && x2 > 0 {
      startGradient = y2 / x2
    } else if y1 == 0 && y2 == 0 {
      startGradient = 1
    } else {
      startGradient = 0
    }
    if x2 < 1 {
      endGradient = (y2 - 1) / (x2 - 1)
    } else if y2 == 1 && x1 < 1 {
      endGradient = (y1 - 1) / (x1 - 1)
    } else if y1 == 1 && y2 == 1 {
      endGradient = 1
    } else {
      endGradient = 0
    }
  }

  /// Two curves are equal when their four control points are equal.
  public static func == (a: CubicBezier, b: CubicBezier) -> Bool {
    a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2
  }

  /// Hashes the four control points.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(x1)
    hasher.combine(y1)
    hasher.combine(x2)
    hasher.combine(y2)
  }

  // MARK: Named curves (CAMediaTimingFunctionName)

  /// `kCAMediaTimingFunctionLinear`, CSS `linear`: `P1 = (0, 0)`, `P2 = (1, 1)`. The curve is the
  /// diagonal, so ``solve(_:)`` returns its input unchanged.
  public static let linear = CubicBezier(unchecked: 0, 0, 1, 1)
  /// `kCAMediaTimingFunctionEaseIn`, CSS `ease-in`: `P1 = (0.42, 0)`, `P2 = (1, 1)`.
  public static let easeIn = CubicBezier(unchecked: 0.42, 0, 1, 1)
  /// `kCAMediaTimingFunctionEaseOut`, CSS `ease-out`: `P1 = (0, 0)`, `P2 = (0.58, 1)`.
  public static let easeOut = CubicBezier(unchecked: 0, 0, 0.58, 1)
  /// `kCAMediaTimingFunctionEaseInEaseOut`, CSS `ease-in-out`: `P1 = (0.42, 0)`, `P2 = (0.58, 1)`.
  /// UIKit's default animation curve (<doc:TransitionCatalog#Default-timing-curves>).
  public static let easeInEaseOut = CubicBezier(unchecked: 0.42, 0, 0.58, 1)
  /// `kCAMediaTimingFunctionDefault`, CSS `ease`: `P1 = (0.25, 0.1)`, `P2 = (0.25, 1)`.
  public static let systemDefault = CubicBezier(unchecked: 0.25, 0.1, 0.25, 1)

  // MARK: Evaluation

  /// `X(s) = ((ax·s + bx)·s + cx)·s`, the input coordinate at curve parameter `s`.
  @inlinable
  public func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }

  /// `Y(s) = ((ay·s + by)·s + cy)·s`, the output coordinate at curve parameter `s`.
  @inlinable
  public func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }

  /// `X'(s) = (3·ax·s + 2·bx)·s + cx`, the derivative of ``sampleX(_:)``; non-negative on `[0, 1]`.
  @inlinable
  public func sampleDerivativeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

  /// The number of sample intervals of `[0, 1]` that ``parameter(forX:)`` brackets its root in.
  public static let sampleIntervals = 10

  /// The sample `X(i/10)`, `i = 0…10` (WebKit `UnitBezier` style), with the ends exactly
  /// `X(0) = 0` and `X(1) = 1`: the first guess of ``parameter(forX:)``. Since `X` is increasing,
  /// the sample interval holding `x` also brackets the root. Computed, not stored, so a curve
  /// holds no table.
  @inlinable
  public func sample(_ i: Int) -> Double {
    if i <= 0 { return 0 }
    if i >= Self.sampleIntervals { return 1 }
    return sampleX(Double(i) / Double(Self.sampleIntervals))
  }

  /// The target accuracy of ``parameter(forX:)``: it stops once `|X(s) − x| ≤ 1e-12`.
  static let solveTolerance = 1e-12
  /// The most Newton steps ``parameter(forX:)`` takes before it bisects.
  static let newtonSteps = 8
  /// The slope `|X'(s)|` below which a Newton step is not taken.
  static let flatSlope = 1e-7

  /// The curve parameter `s*` in `[0, 1]` with `X(s*) = x`.
  ///
  /// Inputs `x ≤ 0` give 0 and `x ≥ 1` give 1; NaN gives NaN (the caller's bug, see
  /// ``solve(_:)``). Otherwise:
  /// 1. the sample interval `[i/10, (i+1)/10]` of ``sample(_:)`` holding `x` brackets the root, and
  ///    linear interpolation inside it gives the first guess;
  /// 2. at most 8 Newton steps `s ← s − (X(s) − x)/X'(s)`, each narrowing the bracket by the sign
  ///    of `X(s) − x`, stopping when `|X'(s)| < 1e-7` or a step would leave the bracket;
  /// 3. bisection of the bracket (at most 64 halvings, until it cannot be split).
  ///
  /// It returns as soon as `|X(s) − x| ≤ 1e-12`, else the best point evaluated. Because `X` is
  /// increasing and the bracket shrinks to adjacent doubles, the result always satisfies
  /// `|X(s) − x| ≤ 1e-7` (in practice ≤ 1e-12) for every valid curve, including steep, flat and
  /// degenerate ones (`x1 = x2 = 0`, `x1 = x2 = 1`), after at most 75 evaluations of `X`.
  public func parameter(forX x: Double) -> Double {
    if x.isNaN { return x }
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }

    var i = 0
    var xHi = sample(1)
    while i < Self.sampleIntervals - 1 && xHi <= x {
      i += 1
      xHi = sample(i + 1)
    }
    var lo = Double(i) / 10
    var hi = Double(i + 1) / 10
    let xLo = sample(i)
    let span = xHi - xLo
    var s = span > 0 ? lo + (x - xLo) / span * 0.1 : 0.5 * (lo + hi)
    if !(s >= lo && s <= hi) { s = 0.5 * (lo + hi) }

    var best = s
    var bestError = Double.infinity
    // Newton, safeguarded by the bracket [lo, hi] with X(lo) ≤ x ≤ X(hi).
    for _ in 0..<Self.newtonSteps {
      let e = sampleX(s) - x
      let size = abs(e)
      if size < bestError {
        best = s
        bestError = size
      }
      if size <= Self.solveTolerance { return s }
      if e < 0 { lo = s } else { hi = s }
      let d = sampleDerivativeX(s)
      if !(abs(d) >= Self.flatSlope) { break }
      let next = s - e / d
      if !(next > lo && next < hi) { break }
      s = next
    }
    // Bisection of the remaining bracket.
    for _ in 0..<64 {
      let mid = 0.5 * (lo + hi)
      if !(mid > lo && mid < hi) { break }
      let e = sampleX(mid) - x
      let size = abs(e)
      if size < bestError {
        best = mid
        bestError = size
      }
      if size <= Self.solveTolerance { return mid }
      if e < 0 { lo = mid } else { hi = mid }
    }
    // The bracket is two adjacent doubles: its ends are candidates too.
    if abs(sampleX(lo) - x) < bestError {
      best = lo
      bestError = abs(sampleX(lo) - x)
    }
    if abs(sampleX(hi) - x) < bestError { best = hi }
    return best
  }

  /// The eased output `y` for input progress `x` (unitless).
  ///
  /// * `0 ≤ x ≤ 1`: `Y(s*)` with `X(s*) = x` (``parameter(forX:)``); `x = 0` gives exactly 0 and
  ///   `x = 1` exactly 1. A curve with `P1` and `P2` on the diagonal (`x1 = y1`, `x2 = y2`, such as
  ///   ``linear``) returns `x` exactly.
  /// * `x < 0`: `startGradient·x`; `x > 1`: `1 + endGradient·(x − 1)` (WebKit's and
  ///   Chromium's extrapolation). Infinite `x` with a zero gradient gives 0 or 1.
  ///
  /// Any finite `x` is accepted. This is a per-frame function and validates nothing: NaN input is
  /// the caller's bug and yields NaN; the evaluators reject non-finite times before calling it.
  public func solve(_ x: Double) -> Double {
    if x.isNaN { return x }
    if x < 0 { return startGradient == 0 ? 0 : startGradient * x }
    if x > 1 { return endGradient == 0 ? 1 : 1 + endGradient * (x - 1) }
    if x == 0 { return 0 }
    if x == 1 { return 1 }
    if x1 == y1 && x2 == y2 { return x }
    return sampleY(parameter(forX: x))
  }
}
