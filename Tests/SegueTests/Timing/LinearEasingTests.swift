import Testing

@testable import Segue

/// CSS `linear()` against the examples of CSS Easing 2 and MDN, worked by hand.
@Suite("LinearEasing")
struct LinearEasingTests {
  /// linear(0, 0.25, 1): points (0, 0), (0.5, 0.25), (1, 1) (the spec's serialisation
  /// "linear(0 0%, 0.25 50%, 1 100%)"). x = 0.25 → 0.125; 0.75 → 0.25 + 0.5·0.75 = 0.625;
  /// 1.5 → last segment slope 1.5: 1.75; −0.5 → first segment slope 0.5: −0.25.
  @Test func evenlySpacedOutputs() throws {
    let e = try LinearEasing(outputs: [0, 0.25, 1])
    #expect(e.inputs == [0, 0.5, 1])
    #expect(e.outputs == [0, 0.25, 1])
    #expect(e.value(at: 0.25) == 0.125)
    #expect(e.value(at: 0.75) == 0.625)
    #expect(e.value(at: 1.5) == 1.75)
    #expect(e.value(at: -0.5) == -0.25)
    #expect(e.value(at: 0.5) == 0.25)
  }

  /// linear(0, 0.25 75%, 1): (0, 0), (0.75, 0.25), (1, 1). x = 0.5 → 0.25·0.5/0.75 = 1/6;
  /// 0.875 → 0.25 + 0.5·0.75 = 0.625.
  @Test func stopWithOneInput() throws {
    let e = try LinearEasing([.init(0), .init(0.25, at: 0.75), .init(1)])
    #expect(e.inputs == [0, 0.75, 1])
    #expect(abs(e.value(at: 0.5) - 1.0 / 6.0) < 1e-15)
    #expect(e.value(at: 0.875) == 0.625)
  }

  /// linear(0, 0.25 25% 75%, 1) = linear(0, 0.25 25%, 0.25 75%, 1). x = 0.5 → 0.25 (flat);
  /// 0.9 → 0.25 + (0.15/0.25)·0.75 = 0.7.
  @Test func stopWithTwoInputs() throws {
    let e = try LinearEasing([.init(0), .init(0.25, from: 0.25, to: 0.75), .init(1)])
    #expect(e.inputs == [0, 0.25, 0.75, 1])
    #expect(e.outputs == [0, 0.25, 0.25, 1])
    #expect(e.value(at: 0.5) == 0.25)
    #expect(abs(e.value(at: 0.9) - 0.7) < 1e-15)
  }

  /// linear(0 20%, 0.5 10%, 1) serialises as linear(0 20%, 0.5 20%, 1 100%): the 10% is raised
  /// to 20%. At x = 0.2 the last point with that input wins → 0.5. Before the first point,
  /// points 0 and 1 share an input, so the output is point 1's: 0.5. x = 0.6 → 0.5 + 0.5·0.5.
  @Test func decreasingInputsAreRaised() throws {
    let e = try LinearEasing([.init(0, at: 0.2), .init(0.5, at: 0.1), .init(1)])
    #expect(e.inputs == [0.2, 0.2, 1])
    #expect(e.value(at: 0.2) == 0.5)
    #expect(e.value(at: 0.1) == 0.5)
    #expect(e.value(at: 0.6) == 0.75)
  }

  /// linear(0, 0.1, 0.2, 1 80%, 1): the run of two missing inputs is spaced evenly between 0
  /// and 0.8 (0.8/3, 1.6/3); the last gets max(1, 0.8) = 1.
  @Test func runsOfMissingInputsAreSpacedEvenly() throws {
    let e = try LinearEasing([.init(0), .init(0.1), .init(0.2), .init(1, at: 0.8), .init(1)])
    #expect(e.inputs.count == 5)
    #expect(e.inputs[0] == 0)
    #expect(abs(e.inputs[1] - 0.8 / 3) < 1e-15)
    #expect(abs(e.inputs[2] - 1.6 / 3) < 1e-15)
    #expect(e.inputs[3] == 0.8 && e.inputs[4] == 1)
    #expect(e.value(at: 0.9) == 1)
  }

  /// linear(0, 1 150%, 2): the last input is max(1, 1.5) = 1.5, so the last two points share an
  /// input; x = 0.75 → 0.5; x = 1.5 and 2 → the last point's output, 2.
  @Test func lastInputNotBelowLargest() throws {
    let e = try LinearEasing([.init(0), .init(1, at: 1.5), .init(2)])
    #expect(e.inputs == [0, 1.5, 1.5])
    #expect(e.value(at: 0.75) == 0.5)
    #expect(e.value(at: 1.5) == 2)
    #expect(e.value(at: 2) == 2)
  }

  /// The MDN bounce-like example's first segment, linear(0, 0.063, 0.25, 0.563, 1 36.4%, …):
  /// the first five points sit at 0, 0.091, 0.182, 0.273, 0.364; x = 0.091 → 0.063.
  @Test func mdnBounceStart() throws {
    let e = try LinearEasing([
      .init(0), .init(0.063), .init(0.25), .init(0.563), .init(1, at: 0.364), .init(0.812),
      .init(1),
    ])
    #expect(abs(e.inputs[1] - 0.091) < 1e-15)
    #expect(abs(e.value(at: 0.091) - 0.063) < 1e-15)
    #expect(abs(e.value(at: 0.364) - 1) < 1e-15)
  }

  @Test func nanPropagates() throws {
    #expect(try LinearEasing(outputs: [0, 1]).value(at: .nan).isNaN)
  }

  @Test func rejectsFewerThanTwoStops() {
    #expect(throws: ValidationError(field: "stops", reason: .tooFew(minimum: 2, actual: 1))) {
      try LinearEasing([.init(0.5)])
    }
  }

  @Test func rejectsNoStops() {
    #expect(throws: ValidationError(field: "stops", reason: .tooFew(minimum: 2, actual: 0))) {
      try LinearEasing(outputs: [])
    }
  }

  @Test func rejectsNonFiniteOutput() {
    #expect(throws: ValidationError(field: "stops.output", index: 1, reason: .notFinite)) {
      try LinearEasing(outputs: [0, .nan, 1])
    }
  }

  @Test func rejectsNonFiniteInput() {
    #expect(throws: ValidationError(field: "stops.input", index: 2, reason: .notFinite)) {
      try LinearEasing([.init(0), .init(0.5), .init(1, from: 0.9, to: .infinity)])
    }
  }

  @Test func rejectsHugeOutput() {
    #expect(
      throws: ValidationError(
        field: "stops.output", index: 0, reason: .outOfRange(lower: -1e100, upper: 1e100))
    ) { try LinearEasing(outputs: [1e308, 1]) }
  }

  @Test func rejectsHugeInput() {
    #expect(
      throws: ValidationError(
        field: "stops.input", index: 1, reason: .outOfRange(lower: -1e100, upper: 1e100))
    ) { try LinearEasing([.init(0), .init(1, at: -1e200)]) }
  }
}
