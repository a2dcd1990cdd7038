extension CubicBezier {
  /// The slope `dy/dx` of the eased output at input progress `x` (unitless): the derivative of
  /// ``solve(_:)``.
  ///
  /// * `0 ≤ x ≤ 1`: `Y′(s*) / X′(s*)` at the curve parameter `s*` of `x` (``parameter(forX:)``),
  ///   with `X′(s) = (3·ax·s + 2·bx)·s + cx` and `Y′` likewise. `X′` vanishes only at an end of
  ///   the curve (`x1 = 0` at `s = 0`, `x2 = 1` at `s = 1`); there the slope is the limit along
  ///   the curve, which is ``startGradient`` or ``endGradient`` (a vertical tangent, `x1 = 0 < y1`,
  ///   has no finite slope and reports the gradient ``solve(_:)`` extrapolates with).
  /// * `x < 0`: ``startGradient``; `x > 1`: ``endGradient`` (the extrapolation's slopes).
  /// * A curve on the diagonal (``linear``): 1.
  public func slope(at x: Double) -> Double {
    if x.isNaN { return x }
    if x < 0 { return startGradient }
    if x > 1 { return endGradient }
    if x1 == y1 && x2 == y2 { return 1 }
    let s = parameter(forX: x)
    let dx = sampleDerivativeX(s)
    guard dx > 0 else { return s < 0.5 ? startGradient : endGradient }
    return sampleDerivativeY(s) / dx
  }

  /// `Y′(s) = (3·ay·s + 2·by)·s + cy`, the derivative of ``sampleY(_:)``.
  public func sampleDerivativeY(_ s: Double) -> Double { (3 * ay * s + 2 * by) * s + cy }
}

extension LinearEasing {
  /// The slope of ``value(at:)`` at `x`: `(B.output − A.output) / (B.input − A.input)` of the
  /// segment ``value(at:)`` picks (so at a point's input, the segment that starts there: the
  /// derivative from the right), 0 where two points share an input (a jump).
  public func slope(at x: Double) -> Double {
    if x.isNaN { return x }
    let (a, b) = segment(at: x)
    let run = inputs[b] - inputs[a]
    return run > 0 ? (outputs[b] - outputs[a]) / run : 0
  }
}

extension TimingFunction {
  /// The derivative `d transform(x) / dx` (unitless) at input progress `x`.
  ///
  /// Cubic Béziers: ``CubicBezier/slope(at:)``; `linear(…)`: ``LinearEasing/slope(at:)``;
  /// `steps()`: 0 (piecewise constant; at a jump the derivative from the right, 0, is reported).
  public func slope(at x: Double) -> Double {
    switch self {
    case .cubicBezier(let curve): curve.slope(at: x)
    case .steps: x.isNaN ? x : 0
    case .linearPoints(let linear): linear.slope(at: x)
    }
  }
}
