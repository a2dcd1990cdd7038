import PropertyBased
import Segue
import Testing

/// The slopes of the timing functions against central differences of their values.
///
/// Step `h = 1e-6` in progress: the central difference's truncation error is `h²·|y‴|/6`
/// (≤ 1e-9 for these curves, `|y‴| ≲ 10³`), its rounding error `ε_solve/h` with the Bézier
/// solver's tolerance `ε_solve = 1e-12` in x, i.e. ≤ 1e-6 times the slope; tolerance 1e-5.
@Suite("Timing function slopes")
struct TimingFunctionSlopeTests {
  static let h = 1e-6

  static func centralDifference(_ f: TimingFunction, _ x: Double) -> Double {
    (f.transform(x + h) - f.transform(x - h)) / (2 * h)
  }

  @Test func namedCurvesMatchCentralDifferences() async throws {
    let curves: [TimingFunction] = [
      .linear, .easeIn, .easeOut, .easeInEaseOut, .systemDefault,
      try .cubicBezier(0.3, -0.5, 0.7, 1.5), try .cubicBezier(0.1, 0.9, 0.2, 1),
    ]
    await propertyCheck(count: 300, input: Gen.int(in: 0...6), Gen.double(in: -0.5...1.5)) {
      index, x in
      // Off the ends 0 and 1, where the extrapolation joins the curve.
      guard abs(x) > 1e-3, abs(x - 1) > 1e-3 else { return }
      let f = curves[index]
      let slope = f.slope(at: x)
      let numeric = Self.centralDifference(f, x)
      #expect(abs(slope - numeric) <= 1e-5 * Swift.max(1, abs(slope)), "\(f) at \(x)")
    }
  }

  @Test func extrapolationUsesTheEndGradients() throws {
    let curve = try CubicBezier(x1: 0.3, y1: -0.5, x2: 0.7, y2: 1.5)
    #expect(curve.slope(at: -1) == curve.startGradient)
    #expect(curve.slope(at: 2) == curve.endGradient)
    // At the ends the limit along the curve equals the extrapolation's gradient.
    #expect(abs(curve.slope(at: 0) - curve.startGradient) < 1e-12)
    #expect(abs(curve.slope(at: 1) - curve.endGradient) < 1e-9)
    // easeOut has X′(0) = 0: the limit y2/x2 is its start gradient.
    #expect(abs(CubicBezier.easeOut.slope(at: 0) - 1 / 0.58) < 1e-9)
  }

  @Test func stepsHaveSlopeZeroAndLinearPointsTheirSegmentSlope() throws {
    let steps = TimingFunction.steps(try StepsEasing(steps: 4))
    #expect(steps.slope(at: 0.3) == 0)
    #expect(steps.slope(at: 0.25) == 0)
    let linear = TimingFunction.linearPoints(
      try LinearEasing([.init(0), .init(0.8, at: 0.2), .init(1)]))
    #expect(abs(linear.slope(at: 0.1) - 4) < 1e-12)
    #expect(abs(linear.slope(at: 0.6) - 0.25) < 1e-12)
    // At the knot, the segment that starts there (the derivative from the right).
    #expect(abs(linear.slope(at: 0.2) - 0.25) < 1e-12)
  }
}
