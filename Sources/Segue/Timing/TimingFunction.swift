/// A timing (easing) function: maps input progress `x` (unitless, normally in `[0, 1]`) to eased
/// progress, as `CAMediaTimingFunction` and CSS `<easing-function>`.
///
/// A `CAAnimation` without a timing function paces linearly (``linear``); UIView animations
/// default to ``easeInEaseOut`` (<doc:TransitionCatalog#Default-timing-curves>).
public enum TimingFunction: Hashable, Sendable {
  /// A cubic Bézier curve, `CAMediaTimingFunction(controlPoints:)` or CSS `cubic-bezier()`.
  case cubicBezier(CubicBezier)
  /// CSS `steps(n, position)`.
  case steps(StepsEasing)
  /// CSS `linear(…)` with control points.
  case linearPoints(LinearEasing)

  /// `CAMediaTimingFunctionName.linear`: the Bézier `(0, 0), (1, 1)`; the identity.
  public static let linear = TimingFunction.cubicBezier(.linear)
  /// `CAMediaTimingFunctionName.easeIn`: the Bézier `(0.42, 0), (1, 1)`.
  public static let easeIn = TimingFunction.cubicBezier(.easeIn)
  /// `CAMediaTimingFunctionName.easeOut`: the Bézier `(0, 0), (0.58, 1)`.
  public static let easeOut = TimingFunction.cubicBezier(.easeOut)
  /// `CAMediaTimingFunctionName.easeInEaseOut`: the Bézier `(0.42, 0), (0.58, 1)`.
  public static let easeInEaseOut = TimingFunction.cubicBezier(.easeInEaseOut)
  /// `CAMediaTimingFunctionName.default`: the Bézier `(0.25, 0.1), (0.25, 1)` (CSS `ease`).
  public static let systemDefault = TimingFunction.cubicBezier(.systemDefault)

  /// `CAMediaTimingFunction(controlPoints: x1, y1, x2, y2)`.
  ///
  /// - Parameters: `x1`, `x2` unitless in `[0, 1]`; `y1`, `y2` unitless, finite.
  /// - Throws: ``ValidationError`` as ``CubicBezier/init(x1:y1:x2:y2:)``.
  public static func cubicBezier(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double
  ) throws(ValidationError) -> TimingFunction {
    .cubicBezier(try CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2))
  }

  /// The eased progress for input progress `x` (unitless), with the before flag unset:
  /// `transform(x, beforeFlag: false)`.
  public func transform(_ x: Double) -> Double { transform(x, beforeFlag: false) }

  /// The eased progress for input progress `x` (unitless).
  ///
  /// Bézier curves use ``CubicBezier/solve(_:)`` (extrapolating outside `[0, 1]`), steps use
  /// ``StepsEasing/value(at:beforeFlag:)``, `linear(…)` uses ``LinearEasing/value(at:)``. Every
  /// input is eased, `0` and `1` included (a `steps(n, jump-start)` gives `1/n` at 0, a
  /// `linear(0.2, 1)` gives 0.2 there); outputs are not clamped, so a curve's overshoot passes
  /// through. Per-frame: validates nothing, so NaN input yields NaN; the evaluators reject
  /// non-finite times first.
  ///
  /// - Parameters:
  ///   - x: input progress, unitless.
  ///   - beforeFlag: CSS Easing's before flag, `true` while the animation is in its before phase
  ///     (``MediaTiming/Phase/before``, shown by a backwards fill): a `steps()` function then
  ///     takes the lower value at a jump (`steps(4, jump-start)` gives 0 at input 0, not 0.25).
  ///     Only steps read it.
  public func transform(_ x: Double, beforeFlag: Bool) -> Double {
    switch self {
    case .cubicBezier(let curve): return curve.solve(x)
    case .steps(let steps): return steps.value(at: x, beforeFlag: beforeFlag)
    case .linearPoints(let linear): return linear.value(at: x)
    }
  }

  /// The named Core Animation function: `"linear"`, `"easeIn"`, `"easeOut"`, `"easeInEaseOut"`
  /// or `"default"` (the raw values of `CAMediaTimingFunctionName`; case-sensitive).
  ///
  /// - Throws: ``ValidationError`` with field `"timingFunction"` and
  ///   ``ValidationError/Reason/unknown(_:)`` for any other name.
  public static func named(_ name: String) throws(ValidationError) -> TimingFunction {
    switch name {
    case "linear": return .linear
    case "easeIn": return .easeIn
    case "easeOut": return .easeOut
    case "easeInEaseOut": return .easeInEaseOut
    case "default": return .systemDefault
    default: throw ValidationError(field: "timingFunction", reason: .unknown(name))
    }
  }
}
