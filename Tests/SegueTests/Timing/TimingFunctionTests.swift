import Testing

@testable import Segue

@Suite("TimingFunction")
struct TimingFunctionTests {
  /// Named look-up returns Core Animation's control points.
  @Test func namedFunctions() throws {
    #expect(try TimingFunction.named("linear") == .cubicBezier(CubicBezier.linear))
    #expect(try TimingFunction.named("easeIn") == .easeIn)
    #expect(try TimingFunction.named("easeOut") == .easeOut)
    #expect(try TimingFunction.named("easeInEaseOut") == .easeInEaseOut)
    #expect(try TimingFunction.named("default") == .systemDefault)
    guard case .cubicBezier(let c) = try TimingFunction.named("default") else {
      Issue.record("not a Bézier")
      return
    }
    #expect(c.x1 == 0.25 && c.y1 == 0.1 && c.x2 == 0.25 && c.y2 == 1)
  }

  @Test func rejectsUnknownName() {
    #expect(throws: ValidationError(field: "timingFunction", reason: .unknown("easeInOut"))) {
      try TimingFunction.named("easeInOut")
    }
  }

  /// transform dispatches: Bézier (mpmath reference for easeInEaseOut at 0.25, see
  /// CubicBezierTests), steps(4, end) at 0.3 → 0.25, linear(0, 0.25, 1) at 0.75 → 0.625.
  @Test func transformDispatches() throws {
    #expect(abs(TimingFunction.easeInEaseOut.transform(0.25) - 0.12916193104731982) < 1e-10)
    #expect(TimingFunction.linear.transform(0.3) == 0.3)
    #expect(TimingFunction.steps(try StepsEasing(steps: 4)).transform(0.3) == 0.25)
    #expect(TimingFunction.steps(.stepStart).transform(0) == 1)  // before flag unset
    let lin = TimingFunction.linearPoints(try LinearEasing(outputs: [0, 0.25, 1]))
    #expect(lin.transform(0.75) == 0.625)
  }

  @Test func cubicBezierFactory() throws {
    #expect(try TimingFunction.cubicBezier(0.42, 0, 0.58, 1) == .easeInEaseOut)
  }

  @Test func cubicBezierFactoryRejectsBadControlPoint() {
    #expect(
      throws: ValidationError(field: "controlPoint2.x", reason: .outOfRange(lower: 0, upper: 1))
    ) { try TimingFunction.cubicBezier(0.42, 0, 1.5, 1) }
  }
}
