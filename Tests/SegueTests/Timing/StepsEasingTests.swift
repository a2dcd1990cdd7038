import Testing

@testable import Segue

/// CSS `steps()` against values worked by hand from the CSS Easing step algorithm
/// (CSS Easing Level 2): step = ⌊x·n⌋, +1 for jump-start/jump-both, −1 if before-flag and
/// x·n integral, clamp to ≥ 0 when x ≥ 0, clamp to ≤ jumps when x ≤ 1, output step/jumps.
@Suite("StepsEasing")
struct StepsEasingTests {
  /// steps(4, jump-end): jumps 4. x = 0.24 → ⌊0.96⌋ = 0 → 0; 0.25 → 1 → 0.25; 0.99 → 3 → 0.75;
  /// 1 → 4 → 1.
  @Test func jumpEnd() throws {
    let e = try StepsEasing(steps: 4, position: .jumpEnd)
    #expect(e.value(at: 0) == 0)
    #expect(e.value(at: 0.24) == 0)
    #expect(e.value(at: 0.25) == 0.25)
    #expect(e.value(at: 0.99) == 0.75)
    #expect(e.value(at: 1) == 1)
    #expect(try StepsEasing(steps: 4) == e)  // jump-end is the default
    #expect(StepsEasing.JumpPosition.end == .jumpEnd)
  }

  /// steps(4, jump-start): x = 0 → 0 + 1 → 0.25; 0.25 → 2 → 0.5; 0.99 → 3 + 1 → 1;
  /// 1 → 4 + 1 = 5, clamped to 4 → 1.
  @Test func jumpStart() throws {
    let e = try StepsEasing(steps: 4, position: .start)
    #expect(e.position == .jumpStart)
    #expect(e.value(at: 0) == 0.25)
    #expect(e.value(at: 0.25) == 0.5)
    #expect(e.value(at: 0.99) == 1)
    #expect(e.value(at: 1) == 1)
  }

  /// steps(2, jump-none): jumps 1. x = 0 → 0; 0.49 → 0; 0.5 → 1 → 1; 1 → 2 clamped to 1 → 1.
  @Test func jumpNone() throws {
    let e = try StepsEasing(steps: 2, position: .jumpNone)
    #expect(e.jumps == 1)
    #expect(e.value(at: 0) == 0)
    #expect(e.value(at: 0.49) == 0)
    #expect(e.value(at: 0.5) == 1)
    #expect(e.value(at: 1) == 1)
  }

  /// steps(3, jump-both): jumps 4. x = 0 → 1 → 0.25; 0.34 → ⌊1.02⌋ + 1 = 2 → 0.5;
  /// 0.99 → 2 + 1 = 3 → 0.75; 1 → 3 + 1 = 4 → 1.
  @Test func jumpBoth() throws {
    let e = try StepsEasing(steps: 3, position: .jumpBoth)
    #expect(e.jumps == 4)
    #expect(e.value(at: 0) == 0.25)
    #expect(e.value(at: 0.34) == 0.5)
    #expect(e.value(at: 0.99) == 0.75)
    #expect(e.value(at: 1) == 1)
  }

  /// The before flag only matters where x·n is an integer. step-start at 0: 1, with the flag
  /// 1 − 1 = 0. step-end at 1: 1, with the flag 0. steps(4, end) at 0.3 (x·n = 1.2): unaffected.
  @Test func beforeFlag() {
    #expect(StepsEasing.stepStart.value(at: 0) == 1)
    #expect(StepsEasing.stepStart.value(at: 0, beforeFlag: true) == 0)
    #expect(StepsEasing.stepEnd.value(at: 1) == 1)
    #expect(StepsEasing.stepEnd.value(at: 1, beforeFlag: true) == 0)
    #expect(StepsEasing.stepEnd.value(at: 0.5) == 0)
    let e = try! StepsEasing(steps: 4)
    #expect(e.value(at: 0.3, beforeFlag: true) == 0.25)
  }

  /// Outside [0, 1] the clamps are skipped: steps(4, end) at −0.1 → ⌊−0.4⌋ = −1 → −0.25;
  /// at 1.3 → ⌊5.2⌋ = 5 → 1.25. steps(4, start) at −0.1 → −1 + 1 = 0 → 0; at −0.25 with the
  /// before flag → −1 + 1 − 1 = −1 → −0.25.
  @Test func outsideUnitInterval() throws {
    let end = try StepsEasing(steps: 4, position: .jumpEnd)
    #expect(end.value(at: -0.1) == -0.25)
    #expect(end.value(at: 1.3) == 1.25)
    let start = try StepsEasing(steps: 4, position: .jumpStart)
    #expect(start.value(at: -0.1) == 0)
    #expect(start.value(at: -0.25, beforeFlag: true) == -0.25)
  }

  /// Extreme inputs do not crash: huge n with jump-both, infinite and NaN x.
  @Test func extremeInputsDoNotCrash() throws {
    let e = try StepsEasing(steps: Int.max, position: .jumpBoth)
    #expect(e.value(at: 0.5).isFinite)
    #expect(StepsEasing.stepEnd.value(at: .nan).isNaN)
    #expect(StepsEasing.stepEnd.value(at: .infinity) == .infinity)
  }

  @Test func rejectsZeroSteps() {
    #expect(throws: ValidationError(field: "steps", reason: .tooFew(minimum: 1, actual: 0))) {
      try StepsEasing(steps: 0)
    }
  }

  @Test func rejectsNegativeSteps() {
    #expect(throws: ValidationError(field: "steps", reason: .tooFew(minimum: 1, actual: -3))) {
      try StepsEasing(steps: -3, position: .jumpBoth)
    }
  }

  @Test func rejectsOneStepWithJumpNone() {
    #expect(throws: ValidationError(field: "steps", reason: .tooFew(minimum: 2, actual: 1))) {
      try StepsEasing(steps: 1, position: .jumpNone)
    }
  }
}
