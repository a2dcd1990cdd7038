import Foundation
import Segue
import Testing

/// Reference springs written out from the spring's closed forms, independently
/// of the library: UIKit's duration-based spring with ratio ζ fitted to a run of `L` seconds has
/// mass 1 and `ω0 = X/L` (critical, `(1 + X)·e^−X = 0.001`, X found here by bisection) or
/// `ω0 = ln(1/(0.001·√(1 − ζ²)))/(ζ·L)` (underdamped).
enum SpringReference {
  /// The root of `(1 + x)·e^−x = 0.001` by 200 bisection steps on [1, 30].
  static let criticalRoot: Double = {
    var lo = 1.0
    var hi = 30.0
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if (1 + mid) * exp(-mid) > 0.001 { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
  }()

  /// `x(t) = 1 − e^(−ω0·t)·(1 + (ω0 − v0)·t)`.
  static func critical(omega0: Double, v0: Double, t: Double) -> Double {
    1 - exp(-omega0 * t) * (1 + (omega0 - v0) * t)
  }

  /// `x(t) = 1 − e^(−ζω0·t)·[cos(ωd·t) + ((ζω0 − v0)/ωd)·sin(ωd·t)]`.
  static func underdamped(zeta: Double, omega0: Double, v0: Double, t: Double) -> Double {
    let wd = omega0 * (1 - zeta * zeta).squareRoot()
    return 1 - exp(-zeta * omega0 * t)
      * (cos(wd * t) + (zeta * omega0 - v0) / wd * sin(wd * t))
  }

  /// ω0 of the duration-based underdamped spring.
  static func underdampedOmega(zeta: Double, length: Double) -> Double {
    log(1 / (0.001 * (1 - zeta * zeta).squareRoot())) / (zeta * length)
  }
}

@Suite("TimingCurveProvider")
struct TimingCurveProviderTests {
  @Test func animationCurves() {
    #expect(ViewAnimationCurve.easeInOut.timingFunction == .easeInEaseOut)
    #expect(ViewAnimationCurve.easeIn.timingFunction == .easeIn)
    #expect(ViewAnimationCurve.easeOut.timingFunction == .easeOut)
    #expect(ViewAnimationCurve.linear.timingFunction == .linear)
    #expect(TimingCurveProvider.cubic(animationCurve: .easeOut) == .easeOut)
    #expect(TimingCurveProvider.easeInEaseOut == .cubic(.easeInEaseOut))
  }

  @Test func controlPoints() throws {
    let p = try TimingCurveProvider.cubic(
      controlPoint1: Point(x: 0.42, y: 0), controlPoint2: Point(x: 0.58, y: 1))
    #expect(p == .easeInEaseOut)
    #expect(throws: ValidationError.self) {
      try TimingCurveProvider.cubic(
        controlPoint1: Point(x: 1.5, y: 0), controlPoint2: Point(x: 0.5, y: 1))
    }
  }

  /// A cubic curve ignores the run length; `runLength` is the duration.
  @Test func cubicProgress() {
    let c = TimingCurveProvider.easeInEaseOut
    #expect(c.progress(atElapsed: 0.5, runLength: 3) == 0.5)
    #expect(c.runLength(forDuration: 0.7) == 0.7)
  }

  /// ζ = 1 fitted to L = 0.5 s with v0 = 2: `x(s·L)` by the closed form; 0 and 1 at the ends.
  @Test func dampingRatioSpringCritical() throws {
    let p = try SpringTimingParameters(dampingRatio: 1, initialVelocity: Vector2(dx: 2, dy: 7))
    let omega0 = SpringReference.criticalRoot / 0.5
    for s in [0.1, 0.3, 0.6, 0.9] {
      let expected = SpringReference.critical(omega0: omega0, v0: 2, t: s * 0.5)
      #expect(abs(p.progress(atElapsed: s, runLength: 0.5) - expected) <= 1e-12)
    }
    #expect(p.progress(atElapsed: 0, runLength: 0.5) == 0)
    #expect(p.progress(atElapsed: 1, runLength: 0.5) == 1)
    #expect(p.progress(atElapsed: .nan, runLength: 0.5) == 0)
    #expect(!p.ignoresDuration)
    #expect(p.runLength(forDuration: 0.8) == 0.8)
  }

  /// ζ = 0.5 fitted to L = 1 s: the underdamped closed form (it overshoots 1).
  @Test func dampingRatioSpringUnderdamped() throws {
    let p = TimingCurveProvider.spring(try SpringTimingParameters(dampingRatio: 0.5))
    let omega0 = SpringReference.underdampedOmega(zeta: 0.5, length: 1)
    var overshoots = false
    for s in stride(from: 0.05, to: 1, by: 0.05) {
      let expected = SpringReference.underdamped(zeta: 0.5, omega0: omega0, v0: 0, t: s)
      let value = p.progress(atElapsed: s, runLength: 1)
      #expect(abs(value - expected) <= 1e-12)
      if value > 1 { overshoots = true }
    }
    #expect(overshoots)
  }

  /// `UISpringTimingParameters()` is the physical system spring: its run lasts its settling
  /// duration (0.578 s, transition catalog: Spring damping and settling) whatever the duration
  /// asked, and it is critically damped at ω0 = √(1000/3).
  @Test func defaultSpringIsTheSystemSpring() {
    let p = SpringTimingParameters()
    #expect(p.model == .physical(mass: 3, stiffness: 1000, damping: 500))
    #expect(p.ignoresDuration)
    let length = p.runLength(forDuration: 5)
    #expect(length == DampedSpring.systemCurve7.settlingDuration)
    #expect(abs(length - 0.578) < 5e-4)
    let omega0 = (1000.0 / 3).squareRoot()
    let expected = SpringReference.critical(omega0: omega0, v0: 0, t: 0.1)
    #expect(abs(p.progress(atElapsed: 0.1 / length, runLength: length) - expected) <= 1e-12)
  }

  @Test func physicalSpring() throws {
    let p = try SpringTimingParameters(mass: 1, stiffness: 100, damping: 15)
    // Apple's example: "just over 1 second" (1.007 s; transition catalog, Spring damping and
    // settling).
    #expect(abs(p.runLength(forDuration: 0.1) - 1.007) < 1e-3)
  }

  /// A spring animation (`CASpringAnimation`) runs on its own clock for exactly the run's length,
  /// with no fitting and no settling duration. m 1, k 100, c 20 is critical at ω0 = 10; over a
  /// 0.3 s run it shows x(0.15) = 1 − e^(−1.5)·2.5 half way and exactly 1 at the end, although
  /// x(0.3) = 1 − e^(−3)·4 ≈ 0.80.
  @Test func springAnimationRunsForTheLengthGiven() throws {
    let curve = TimingCurveProvider.springAnimation(
      try DampedSpring(mass: 1, stiffness: 100, damping: 20))
    #expect(curve.runLength(forDuration: 0.3) == 0.3)
    let half = SpringReference.critical(omega0: 10, v0: 0, t: 0.15)
    #expect(abs(curve.progress(atElapsed: 0.5, runLength: 0.3) - half) <= 1e-12)
    #expect(curve.progress(atElapsed: 0, runLength: 0.3) == 0)
    #expect(curve.progress(atElapsed: .nan, runLength: 0.3) == 0)
    #expect(curve.progress(atElapsed: 1, runLength: 0.3) == 1)
  }

  /// The two spring cases differ for a physical spring: as a spring animation the system spring
  /// keeps the 0.5 s asked (UIKit's default push), as `UISpringTimingParameters()` it takes its
  /// settling duration, 0.578 s, in a property animator too.
  @Test func springCasesDifferInRunLength() throws {
    let animation = TimingCurveProvider.springAnimation(.systemCurve7)
    let parameters = TimingCurveProvider.spring(SpringTimingParameters())
    #expect(animation.runLength(forDuration: 0.5) == 0.5)
    #expect(parameters.runLength(forDuration: 0.5) == DampedSpring.systemCurve7.settlingDuration)
    #expect(try PropertyAnimator(duration: 0.5, timingParameters: animation).duration == 0.5)
    #expect(
      try PropertyAnimator(duration: 0.5, timingParameters: parameters).duration
        == DampedSpring.systemCurve7.settlingDuration)
  }

  /// A duration-based spring over D and the spring animation of the spring fitted to D (UIView's
  /// spring, ζ 0.75, v0 1, D 0.5: the hero preset's) give the same progress at every point.
  @Test func durationBasedSpringIsItsFittedSpringAnimation() throws {
    let parameters = TimingCurveProvider.spring(
      try SpringTimingParameters(dampingRatio: 0.75, initialVelocity: Vector2(dx: 1, dy: 0)))
    let animation = TimingCurveProvider.springAnimation(
      try DampedSpring.uiViewSpring(duration: 0.5, dampingRatio: 0.75, initialVelocity: 1))
    for k in 0...20 {
      let s = Double(k) / 20
      #expect(
        parameters.progress(atElapsed: s, runLength: 0.5)
          == animation.progress(atElapsed: s, runLength: 0.5))
    }
  }

  @Test func rejections() {
    #expect(throws: ValidationError(field: "dampingRatio", reason: .notPositive)) {
      try SpringTimingParameters(dampingRatio: 0)
    }
    #expect(throws: ValidationError(field: "dampingRatio", reason: .notFinite)) {
      try SpringTimingParameters(dampingRatio: .infinity)
    }
    #expect(throws: ValidationError(field: "initialVelocity.dx", reason: .notFinite)) {
      try SpringTimingParameters(dampingRatio: 1, initialVelocity: Vector2(dx: .nan, dy: 0))
    }
    #expect(
      throws: ValidationError(
        field: "initialVelocity.dy", reason: .outOfRange(lower: -1e100, upper: 1e100))
    ) {
      try SpringTimingParameters(dampingRatio: 1, initialVelocity: Vector2(dx: 0, dy: 1e101))
    }
    #expect(throws: ValidationError(field: "mass", reason: .notPositive)) {
      try SpringTimingParameters(mass: 0, stiffness: 1, damping: 1)
    }
    #expect(throws: ValidationError(field: "stiffness", reason: .notFinite)) {
      try SpringTimingParameters(mass: 1, stiffness: .nan, damping: 1)
    }
    #expect(throws: ValidationError(field: "damping", reason: .negative)) {
      try SpringTimingParameters(mass: 1, stiffness: 1, damping: -1)
    }
    #expect(throws: ValidationError(field: "damping", reason: .notPositive)) {
      try SpringTimingParameters(mass: 1, stiffness: 1, damping: 0)
    }
    // ζω0 ≈ 1.6e-301·3.2e-100 underflows to 0: the envelope never decays in Double arithmetic.
    #expect(
      throws: ValidationError(field: "damping", reason: .invalidState("the spring never settles"))
    ) { try SpringTimingParameters(mass: 1e100, stiffness: 1e-99, damping: 1e-300) }
  }

  @Test func vector() {
    #expect(Vector2.zero == Vector2(dx: 0, dy: 0))
    #expect(Vector2(dx: 1, dy: -2).description == "(1.0, -2.0)")
  }
}
