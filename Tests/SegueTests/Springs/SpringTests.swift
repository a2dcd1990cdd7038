import PropertyBased
import Testing

@testable import Segue

/// Reference values come from mpmath, by this method: the state (e, e') of
/// `m·e'' + c·e' + k·e = 0`, `e(0) = 1`, `e'(0) = −v0`, propagated with the matrix exponential of
/// `[[0, 1], [−k/m, −c/m]]` in mpmath at 40 digits, cross-checked against scipy `solve_ivp`
/// (DOP853, rtol 1e-12, atol 1e-14) to 1e-9; value = 1 − e, velocity = −e'. The clamp of
/// The transition catalog's spring damping and settling rule is checked with the ODE at the
/// critical damping `c = 2√(km)`.
@Suite("Spring closed forms")
struct SpringClosedFormTests {
  typealias Sample = (t: Double, value: Double, velocity: Double)

  static func check(_ spring: DampedSpring, _ samples: [Sample], tolerance: Double = 1e-11) {
    for s in samples {
      #expect(abs(spring.value(at: s.t) - s.value) <= tolerance, "value at \(s.t)")
      #expect(abs(spring.velocity(at: s.t) - s.velocity) <= tolerance * 10, "velocity at \(s.t)")
    }
  }

  @Test func underdampedAtRest() throws {
    Self.check(
      try DampedSpring(mass: 1, stiffness: 100, damping: 5),
      [
        (0.05, 0.11286328055717527, 4.2421304767385631),
        (0.1, 0.39294515083296437, 6.6269158800808425),
        (0.3, 1.4305598377363429, 1.1447430652795352),
        (0.5, 1.0365507873893438, -2.9344832990349091),
        (1.0, 1.084775962264367, -0.21604426129453011),
      ])
  }

  @Test func underdampedWithInitialVelocity() throws {
    Self.check(
      try DampedSpring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 2),
      [
        (0.05, 0.17987451415006077, 4.8099506808890959),
        (0.1, 0.44700128563123697, 5.5874578677009472),
        (0.3, 1.15100329621202, 0.81723161732750597),
        (0.5, 1.0570020824485307, -0.85272049905016943),
        (1.0, 1.0032472128625381, 0.038743611449824123),
      ])
  }

  /// ζ = 20/(2·√100) = 1 exactly; v0 = −3 moves away from the target first.
  @Test func criticallyDampedMovingAway() throws {
    Self.check(
      try DampedSpring(mass: 1, stiffness: 100, damping: 20, initialVelocity: -3),
      [
        (0.05, -0.00077558852584514305, 2.1228573089942171),
        (0.1, 0.15387728530568268, 3.6787944117144233),
        (0.3, 0.75604336499746666, 1.7923344612431021),
        (0.5, 0.949465397506859, 0.41775271394329896),
        (1.0, 0.99936440098332521, 0.0057657910798355761),
      ])
  }

  /// ζ = 50/20 = 2.5 with overdamping allowed: the true overdamped solution.
  @Test func overdampedWhenAllowed() throws {
    Self.check(
      try DampedSpring(
        mass: 1, stiffness: 100, damping: 50, initialVelocity: 1, allowsOverdamping: true),
      [
        (0.05, 0.079884942670803136, 1.8213399625233587),
        (0.1, 0.16931389558475987, 1.7247178282174799),
        (0.3, 0.45266299102608509, 1.1423582309821633),
        (0.5, 0.63944646902509009, 0.75251903544923136),
        (1.0, 0.87301364064854055, 0.26503596401185464),
      ])
  }

  /// The system spring (m 3, k 1000, c 500, ζ ≈ 4.564) runs critically damped (transition catalog:
  /// Spring damping and settling), matching the ODE with c = 2√3000; the closed form gives 0.9989
  /// at 0.5 s.
  @Test func systemSpringIsClampedToCritical() {
    let spring = DampedSpring.systemCurve7
    Self.check(
      spring,
      [
        (0.05, 0.23223049253430141, 6.6895043793041657),
        (0.1, 0.54477838992806744, 5.3699362608875531),
        (0.3, 0.97291928175930273, 0.41809132516557877),
        (0.5, 0.99890097889073991, 0.018084257292864278),
        (1.0, 0.9999997732736869, 3.9244843420141872e-6),
      ])
    #expect((spring.value(at: 0.5) * 10000).rounded() / 10000 == 0.9989)
    #expect(abs(spring.naturalFrequency - 18.257418583505537) < 1e-12)
    #expect(abs(spring.dampingRatio - 4.5643546458763843) < 1e-12)
    #expect(spring.effectiveDampingRatio == 1)
  }

  /// The same parameters with overdamping allowed reach only 0.632 at 0.5 s (the closed form).
  @Test func systemSpringTrulyOverdamped() throws {
    Self.check(
      try DampedSpring(mass: 3, stiffness: 1000, damping: 500, allowsOverdamping: true),
      [
        (0.05, 0.085026466352940308, 1.8519113248813288),
        (0.1, 0.17311215939108408, 1.6741119202434955),
        (0.3, 0.44844018672769032, 1.1166846236903131),
        (0.5, 0.63209251321325136, 0.74486324701193518),
        (1.0, 0.86630854493650586, 0.27067090204137488),
      ])
  }

  /// By hand: ζ = 50/20 = 2.5 clamped to 1 at ω0 = 10, v0 = 0: value(0.3) = 1 − e⁻³·(1 + 3),
  /// e⁻³ = 0.049787068367863944, so 0.80085172652854422.
  @Test func clampedSpringByHand() throws {
    let spring = try DampedSpring(mass: 1, stiffness: 100, damping: 50)
    #expect(abs(spring.value(at: 0.3) - 0.80085172652854422) < 1e-15)
  }

  @Test func startAndLimits() throws {
    let spring = try DampedSpring(initialVelocity: 1.5)
    #expect(spring.value(at: 0) == 0)
    #expect(spring.value(at: -1) == 0)
    #expect(spring.velocity(at: -1) == 0)
    #expect(spring.velocity(at: 0) == 1.5)
    #expect(spring.remainingFraction(at: 0) == 1)
    #expect(spring.value(at: .infinity) == 1)
    #expect(spring.velocity(at: .infinity) == 0)
    #expect(spring.value(at: .nan).isNaN)
    // Defaults: CASpringAnimation's 1, 100, 10, 0.
    let defaults = try DampedSpring()
    #expect(defaults.mass == 1 && defaults.stiffness == 100 && defaults.damping == 10)
    #expect(defaults.initialVelocity == 0 && !defaults.allowsOverdamping)
    #expect(defaults.naturalFrequency == 10 && defaults.dampingRatio == 0.5)
  }

  /// ζ within 1e-9 of 1 uses the critical form; just outside, the under/overdamped forms agree
  /// with it to about |ζ − 1| (continuity across the switch).
  @Test func nearCriticalIsContinuous() throws {
    let critical = try DampedSpring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 0.7)
    let below = try DampedSpring(
      mass: 1, stiffness: 100, damping: 20 * (1 - 1e-7), initialVelocity: 0.7)
    let above = try DampedSpring(
      mass: 1, stiffness: 100, damping: 20 * (1 + 1e-7), initialVelocity: 0.7,
      allowsOverdamping: true)
    for t in [0.01, 0.1, 0.3, 0.7, 1.5] {
      #expect(abs(below.value(at: t) - critical.value(at: t)) < 1e-6)
      #expect(abs(above.value(at: t) - critical.value(at: t)) < 1e-6)
      #expect(abs(below.velocity(at: t) - critical.velocity(at: t)) < 1e-5)
      #expect(abs(above.velocity(at: t) - critical.velocity(at: t)) < 1e-5)
    }
  }
}

@Suite("Spring settling")
struct SpringSettlingTests {
  /// References from mpmath and scipy: the state stepped with scipy's expm on a 1e-4 s grid
  /// to find the last sample with |e| ≥ 1e-3/√2 or |v| ≥ 5e-3, then 60 bisections with the
  /// mpmath matrix exponential.
  @Test func applesPublishedExamples() throws {
    let five = try DampedSpring(mass: 1, stiffness: 100, damping: 5).settlingDuration
    let fifteen = try DampedSpring(mass: 1, stiffness: 100, damping: 15).settlingDuration
    #expect(abs(five - 2.853) <= 0.001)
    #expect(abs(fifteen - 1.007) <= 0.001)
    #expect(abs(five - 2.85292255864) < 1e-9)
    #expect(abs(fifteen - 1.0070256156) < 1e-9)
  }

  @Test func moreReferenceSettlingTimes() throws {
    let cases: [(DampedSpring, Double)] = [
      (try DampedSpring(mass: 1, stiffness: 100, damping: 10), 1.39533617265),
      (DampedSpring.systemCurve7, 0.578392730134),
      (try DampedSpring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 3), 1.45074884951),
      (try DampedSpring(mass: 1, stiffness: 100, damping: 20, initialVelocity: -3), 1.01586097033),
      (
        try DampedSpring(
          mass: 1, stiffness: 100, damping: 50, initialVelocity: 1, allowsOverdamping: true),
        3.48699139057
      ),
    ]
    for (spring, expected) in cases {
      #expect(abs(spring.settlingDuration - expected) < 1e-9, "\(spring)")
    }
  }

  /// Extreme but valid damping terminates quickly with a finite, tight answer. ζ = 1e-6 at
  /// ω0 = 10: the envelope exp(−1e-5·t) with amplitude ≈ 10 (the velocity's ω0·1) reaches 5e-3 at
  /// t ≈ ln(2000)/1e-5 ≈ 7.6e5 s, so the answer lies within one period (0.63 s) of that.
  @Test func extremeDampingTerminates() throws {
    let light = try DampedSpring(mass: 1, stiffness: 100, damping: 2e-5)
    let lightTime = light.settlingDuration
    #expect(lightTime > 760_089 && lightTime <= 760_090.25)
    // ζ = 1e6 overdamped: e ≈ exp(r₁t) with r₁ = −10/(ζ + √(ζ² − 1)) ≈ −5e-6 and A ≈ 1, so
    // t = ln(√2·1000)/5e-6 = 1_450_865.8 (python: math.log(1000*math.sqrt(2))/5e-6).
    let heavy = try DampedSpring(mass: 1, stiffness: 100, damping: 2e7, allowsOverdamping: true)
    #expect(abs(heavy.settlingDuration - 1_450_865.8) < 1)
    let nearCritical = try DampedSpring(mass: 1, stiffness: 100, damping: 20 * (1 - 1e-6))
    let critical = try DampedSpring(mass: 1, stiffness: 100, damping: 20)
    #expect(abs(nearCritical.settlingDuration - critical.settlingDuration) < 1e-4)
  }

  @Test func undampedNeverSettles() throws {
    #expect(try DampedSpring(damping: 0).settlingDuration == .infinity)
    #expect(try DampedSpring.perceptual(duration: 0.5, bounce: 1).settlingDuration == .infinity)
  }

  /// For random springs the settling time is tight and final: at T one of the two quantities sits
  /// on its threshold, and at every later sample (a dense grid over T…T + 6/(decay rate), plus
  /// 2T and 10T) both are below. This checks the library against its own definition.
  @Test func settlingIsTightAndFinal() async {
    await propertyCheck(
      count: 150,
      input: Gen.double(in: 0.1...10), Gen.double(in: 1...2000), Gen.double(in: 0.05...300),
      Gen.double(in: -20...20), Gen.bool
    ) { m, k, c, v0, over in
      guard
        let spring = try? DampedSpring(
          mass: m, stiffness: k, damping: c, initialVelocity: v0, allowsOverdamping: over)
      else {
        Issue.record("valid spring rejected")
        return
      }
      let t = spring.settlingDuration
      let ee = DampedSpring.settlingPositionThreshold
      let ev = DampedSpring.settlingVelocityThreshold
      #expect(t.isFinite && t > 0)
      let ratio = max(
        abs(spring.remainingFraction(at: t)) / ee, abs(spring.velocity(at: t)) / ev)
      #expect(abs(ratio - 1) < 1e-6, "\(spring): ratio \(ratio) at \(t)")
      let zeta = spring.effectiveDampingRatio
      let w0 = spring.naturalFrequency
      let rate = zeta < 1 ? zeta * w0 : w0 * (zeta - ((zeta - 1) * (zeta + 1)).squareRoot())
      let span = 6 / rate
      for i in 1...2000 {
        let s = t + span * Double(i) / 2000
        #expect(abs(spring.remainingFraction(at: s)) < ee, "\(spring) e at \(s)")
        #expect(abs(spring.velocity(at: s)) < ev, "\(spring) v at \(s)")
      }
      for s in [2 * t, 10 * t] {
        #expect(abs(1 - spring.value(at: s)) < ee)
      }
    }
  }
}

@Suite("Spring parameterisations")
struct SpringParameterisationTests {
  /// mpmath: (1 + x)·e⁻ˣ = 0.001 → x = 9.23341347645158573.
  @Test func criticalEnvelopeRoot() {
    #expect(abs(DampedSpring.criticalEnvelopeRoot - 9.2334134764515857) < 1e-13)
  }

  /// Duration-based spring (transition catalog) of the hero preset: ζ 0.75, D 0.5 → ω0 = ln(1/(0.001·√(1 − 0.5625)))/0.375
  /// = 19.522918841531656 (mpmath).
  @Test func heroSpring() throws {
    let hero = try DampedSpring.uiViewSpring(duration: 0.5, dampingRatio: 0.75, initialVelocity: 1)
    #expect(abs(hero.naturalFrequency - 19.522918841531656) < 1e-12)
    #expect(abs(hero.dampingRatio - 0.75) < 1e-14)
    #expect(hero.mass == 1 && hero.initialVelocity == 1)
    let same = try DampedSpring.uiSpringTimingParameters(
      dampingRatio: 0.75, initialVelocity: 1, duration: 0.5)
    #expect(same == hero)
  }

  /// ζ > 1 is clamped to 1: ω0 = 9.2334134764515857/0.5 = 18.466826952903171 (mpmath), ζ = 1;
  /// the envelope criterion then gives |e(D)| = (1 + x)e⁻ˣ = 0.001 with v0 = 0.
  @Test func uiViewSpringClampsRatio() throws {
    let spring = try DampedSpring.uiViewSpring(duration: 0.5, dampingRatio: 3)
    #expect(abs(spring.naturalFrequency - 18.466826952903171) < 1e-12)
    #expect(abs(spring.dampingRatio - 1) < 1e-14)
    #expect(abs(spring.remainingFraction(at: 0.5) - 0.001) < 1e-12)
  }

  /// response T 0.4, ζ 0.6 → k = (2π/0.4)² = 246.74011002723397, c = 4π·0.6/0.4 =
  /// 18.849555921538759 (mpmath).
  @Test func responseMapping() throws {
    let spring = try DampedSpring.response(0.4, dampingRatio: 0.6)
    #expect(abs(spring.stiffness - 246.74011002723397) < 1e-11)
    #expect(abs(spring.damping - 18.849555921538759) < 1e-12)
    #expect(spring.mass == 1)
    #expect(abs(spring.dampingRatio - 0.6) < 1e-14)
  }

  /// bounce 0.3 → ζ 0.7; bounce −0.5 → ζ = 1/0.5 = 2 (overdamped, allowed); ω0 = 2π/0.5 =
  /// 12.566370614359173. The inverse mapping returns the inputs.
  @Test func perceptualMapping() throws {
    let bouncy = try DampedSpring.perceptual(duration: 0.5, bounce: 0.3)
    #expect(abs(bouncy.naturalFrequency - 12.566370614359173) < 1e-12)
    #expect(abs(bouncy.dampingRatio - 0.7) < 1e-14)
    #expect(abs(bouncy.bounce - 0.3) < 1e-14)
    #expect(abs(bouncy.perceptualDuration - 0.5) < 1e-14)
    let heavy = try DampedSpring.perceptual(duration: 0.5, bounce: -0.5)
    #expect(abs(heavy.dampingRatio - 2) < 1e-14)
    #expect(heavy.allowsOverdamping && heavy.effectiveDampingRatio > 1.99)
    #expect(abs(heavy.bounce + 0.5) < 1e-14)
    let critical = try DampedSpring.perceptual()
    #expect(abs(critical.dampingRatio - 1) < 1e-14)
  }

  @Test func systemDefaults() throws {
    #expect(DampedSpring.uiSpringTimingParametersDefault == DampedSpring.systemCurve7)
    #expect(abs(DampedSpring.uiSpringTimingParametersDefault.dampingRatio - 4.56) < 0.005)
    #expect(
      try DampedSpring.uiSpringTimingParameters(
        mass: 3, stiffness: 1000, damping: 500, initialVelocity: 0)
        == DampedSpring.systemCurve7)
  }

  /// A random valid spring of any parameterisation converges to 1.
  @Test func springsConverge() async {
    await propertyCheck(
      count: 150,
      input: Gen.double(in: 0.05...3), Gen.double(in: 0.05...1.5), Gen.double(in: -5...5)
    ) { d, zeta, v0 in
      let springs = [
        try? DampedSpring.uiViewSpring(duration: d, dampingRatio: zeta, initialVelocity: v0),
        try? DampedSpring.response(d, dampingRatio: zeta, initialVelocity: v0),
        try? DampedSpring.perceptual(duration: d, bounce: min(1 - zeta, 0.95), initialVelocity: v0),
      ]
      for case let spring? in springs {
        let t = spring.settlingDuration
        #expect(t.isFinite)
        #expect(abs(spring.value(at: t * 3) - 1) < 1e-3, "\(spring)")
        #expect(abs(spring.value(at: t * 1.0000001) - 1) < 7.1e-4, "\(spring)")
      }
      #expect(springs.allSatisfy { $0 != nil })
    }
  }
}

@Suite("Spring validation")
struct SpringValidationTests {
  @Test func rejectsZeroMass() {
    #expect(throws: ValidationError(field: "mass", reason: .notPositive)) {
      try DampedSpring(mass: 0)
    }
  }
  @Test func rejectsNegativeMass() {
    #expect(throws: ValidationError(field: "mass", reason: .notPositive)) {
      try DampedSpring(mass: -1)
    }
  }
  @Test func rejectsNaNMass() {
    #expect(throws: ValidationError(field: "mass", reason: .notFinite)) {
      try DampedSpring(mass: .nan)
    }
  }
  @Test func rejectsZeroStiffness() {
    #expect(throws: ValidationError(field: "stiffness", reason: .notPositive)) {
      try DampedSpring(stiffness: 0)
    }
  }
  @Test func rejectsInfiniteStiffness() {
    #expect(throws: ValidationError(field: "stiffness", reason: .notFinite)) {
      try DampedSpring(stiffness: .infinity)
    }
  }
  @Test func rejectsNegativeDamping() {
    #expect(throws: ValidationError(field: "damping", reason: .negative)) {
      try DampedSpring(damping: -0.1)
    }
  }
  @Test func rejectsNaNDamping() {
    #expect(throws: ValidationError(field: "damping", reason: .notFinite)) {
      try DampedSpring(damping: .nan)
    }
  }
  @Test func rejectsNaNInitialVelocity() {
    #expect(throws: ValidationError(field: "initialVelocity", reason: .notFinite)) {
      try DampedSpring(initialVelocity: .nan)
    }
  }
  @Test func rejectsHugeInitialVelocity() {
    #expect(
      throws: ValidationError(
        field: "initialVelocity", reason: .outOfRange(lower: -1e100, upper: 1e100))
    ) { try DampedSpring(initialVelocity: 1e101) }
  }
  @Test func rejectsExtremeNaturalFrequency() {
    #expect {
      try DampedSpring(mass: 1e-300, stiffness: 1e300)
    } throws: { error in
      (error as? ValidationError)?.field == "stiffness"
    }
  }
  @Test func rejectsExtremeDampingRatio() {
    #expect {
      try DampedSpring(mass: 1, stiffness: 1e-200, damping: 1e10)
    } throws: { error in
      (error as? ValidationError)?.field == "damping"
    }
  }
  @Test func uiViewRejectsZeroDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try DampedSpring.uiViewSpring(duration: 0, dampingRatio: 0.5)
    }
  }
  @Test func uiViewRejectsNegativeDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try DampedSpring.uiViewSpring(duration: -1, dampingRatio: 0.5)
    }
  }
  @Test func uiViewRejectsNaNDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notFinite)) {
      try DampedSpring.uiViewSpring(duration: .nan, dampingRatio: 0.5)
    }
  }
  @Test func uiViewRejectsZeroDampingRatio() {
    #expect(throws: ValidationError(field: "dampingRatio", reason: .notPositive)) {
      try DampedSpring.uiViewSpring(duration: 0.5, dampingRatio: 0)
    }
  }
  @Test func uiViewRejectsNegativeDampingRatio() {
    #expect(throws: ValidationError(field: "dampingRatio", reason: .notPositive)) {
      try DampedSpring.uiViewSpring(duration: 0.5, dampingRatio: -0.5)
    }
  }
  @Test func uiViewRejectsNaNDampingRatio() {
    #expect(throws: ValidationError(field: "dampingRatio", reason: .notFinite)) {
      try DampedSpring.uiViewSpring(duration: 0.5, dampingRatio: .nan)
    }
  }
  @Test func uiViewRejectsNaNInitialVelocity() {
    #expect(throws: ValidationError(field: "initialVelocity", reason: .notFinite)) {
      try DampedSpring.uiViewSpring(duration: 0.5, dampingRatio: 0.5, initialVelocity: .nan)
    }
  }
  @Test func uiViewRejectsExtremeDuration() {
    #expect {
      try DampedSpring.uiViewSpring(duration: 1e-300, dampingRatio: 0.5)
    } throws: { error in
      (error as? ValidationError)?.field == "duration"
    }
  }
  @Test func uiSpringTimingParametersRejectsZeroDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try DampedSpring.uiSpringTimingParameters(dampingRatio: 0.5, initialVelocity: 0, duration: 0)
    }
  }
  @Test func uiSpringTimingParametersRejectsZeroMass() {
    #expect(throws: ValidationError(field: "mass", reason: .notPositive)) {
      try DampedSpring.uiSpringTimingParameters(
        mass: 0, stiffness: 1, damping: 1, initialVelocity: 0)
    }
  }
  @Test func responseRejectsZeroResponse() {
    #expect(throws: ValidationError(field: "response", reason: .notPositive)) {
      try DampedSpring.response(0, dampingRatio: 0.5)
    }
  }
  @Test func responseRejectsNegativeDampingRatio() {
    #expect(throws: ValidationError(field: "dampingRatio", reason: .negative)) {
      try DampedSpring.response(0.5, dampingRatio: -0.1)
    }
  }
  @Test func responseRejectsNaNDampingRatio() {
    #expect(throws: ValidationError(field: "dampingRatio", reason: .notFinite)) {
      try DampedSpring.response(0.5, dampingRatio: .nan)
    }
  }
  @Test func perceptualRejectsZeroDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try DampedSpring.perceptual(duration: 0)
    }
  }
  @Test func perceptualRejectsBounceMinusOne() {
    #expect(
      throws: ValidationError(field: "bounce", reason: .outOfRange(lower: (-1.0).nextUp, upper: 1))
    ) { try DampedSpring.perceptual(bounce: -1) }
  }
  @Test func perceptualRejectsBounceAboveOne() {
    #expect(
      throws: ValidationError(field: "bounce", reason: .outOfRange(lower: (-1.0).nextUp, upper: 1))
    ) { try DampedSpring.perceptual(bounce: 1.5) }
  }
  @Test func perceptualRejectsNaNBounce() {
    #expect(throws: ValidationError(field: "bounce", reason: .notFinite)) {
      try DampedSpring.perceptual(bounce: .nan)
    }
  }
}
