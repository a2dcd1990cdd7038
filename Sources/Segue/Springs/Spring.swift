import RealModule

/// A damped spring that carries progress from 0 to 1: `CASpringAnimation`,
/// `UISpringTimingParameters` and UIView's spring animations.
///
/// The spring obeys `m·x'' + c·x' + k·(x − 1) = 0` with `x(0) = 0` and `x'(0) = v0`. Writing the
/// remaining fraction `e = 1 − x`, with `ω0 = √(k/m)` and `ζ = c/(2√(km))`:
///
/// * underdamped, `ζ < 1`, `ωd = ω0·√(1 − ζ²)`:
///   `e(t) = exp(−ζω0·t)·[cos(ωd·t) + ((ζω0 − v0)/ωd)·sin(ωd·t)]`;
/// * critically damped, `ζ = 1`: `e(t) = exp(−ω0·t)·[1 + (ω0 − v0)·t]`;
/// * overdamped, `ζ > 1` and ``allowsOverdamping``, `r₁,₂ = −ω0·(ζ ∓ √(ζ² − 1))`:
///   `e(t) = A·exp(r₁t) + (1 − A)·exp(r₂t)` with `A = (−v0 − r₂)/(r₁ − r₂)`.
///
/// Without ``allowsOverdamping`` a spring with `ζ > 1` runs critically damped at the same `ω0`
/// (<doc:TransitionCatalog#Spring-damping-and-settling>), as Core Animation does. Damping ratios
/// within `1e-9` of 1 use the critical form (the solutions differ by about `|ζ − 1|`, and the other
/// forms lose precision there).
///
/// ``value(at:)`` is `x(t) = 1 − e(t)`; the animated property is `from + (to − from)·x(t)`.
public struct DampedSpring: Hashable, Sendable {
  /// The mass `m` (kg-like), `> 0`. `CASpringAnimation` default 1.
  public let mass: Double
  /// The stiffness `k` (N/m-like), `> 0`. `CASpringAnimation` default 100.
  public let stiffness: Double
  /// The damping coefficient `c` (N·s/m-like), `≥ 0`. `CASpringAnimation` default 10.
  public let damping: Double
  /// The initial velocity `v0` in fractions of the from → to distance per second (1/s); positive
  /// towards the target. UIKit's convention: 100 pt/s over a 200 pt move is 0.5. Default 0.
  public let initialVelocity: Double
  /// Whether `ζ > 1` uses the true overdamped solution (`CASpringAnimation.allowsOverdamping`,
  /// iOS 17); when false (the default) it runs critically damped at the same `ω0`.
  public let allowsOverdamping: Bool

  /// `CASpringAnimation` with the given parameters.
  ///
  /// - Parameters:
  ///   - mass: `m`, kg-like, `> 0` (default 1).
  ///   - stiffness: `k`, N/m-like, `> 0` (default 100).
  ///   - damping: `c`, N·s/m-like, `≥ 0` (default 10); 0 never settles.
  ///   - initialVelocity: `v0`, fractions of the distance per second (1/s), positive towards the
  ///     target (default 0).
  ///   - allowsOverdamping: see ``allowsOverdamping`` (default false).
  /// - Throws: ``ValidationError``: `"mass"` or `"stiffness"` not finite or `≤ 0`
  ///   (``ValidationError/Reason/notFinite``, ``ValidationError/Reason/notPositive``);
  ///   `"damping"` not finite or `< 0` (``ValidationError/Reason/negative``);
  ///   `"initialVelocity"` not finite or outside `[−1e100, 1e100]`. To keep every product finite,
  ///   `"stiffness"` also fails with ``ValidationError/Reason/invalidState(_:)`` when
  ///   `ω0 = √(k/m)` is outside `[1e-100, 1e100]` rad/s, and `"damping"` when `ζ > 1e100`.
  public init(
    mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
    initialVelocity: Double = 0, allowsOverdamping: Bool = false
  ) throws(ValidationError) {
    try Validate.positive(mass, "mass")
    try Validate.positive(stiffness, "stiffness")
    try Validate.nonNegative(damping, "damping")
    try Validate.inRange(initialVelocity, -1e100, 1e100, "initialVelocity")
    let omega0 = stiffness.squareRoot() / mass.squareRoot()
    guard omega0 >= 1e-100 && omega0 <= 1e100 else {
      throw ValidationError(
        field: "stiffness",
        reason: .invalidState(
          "natural frequency √(stiffness/mass) must lie in [1e-100, 1e100] rad/s"))
    }
    let zeta = damping / (2 * stiffness.squareRoot() * mass.squareRoot())
    guard zeta <= 1e100 else {
      throw ValidationError(
        field: "damping", reason: .invalidState("damping ratio c/(2√(km)) must not exceed 1e100"))
    }
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
    self.initialVelocity = initialVelocity
    self.allowsOverdamping = allowsOverdamping
  }

  /// `ω0 = √(k/m)`, the undamped angular frequency in rad/s.
  public var naturalFrequency: Double { stiffness.squareRoot() / mass.squareRoot() }

  /// `ζ = c/(2√(k·m))`, unitless: `< 1` underdamped, `1` critical, `> 1` overdamped.
  public var dampingRatio: Double { damping / (2 * stiffness.squareRoot() * mass.squareRoot()) }

  /// The damping ratio the motion uses: ``dampingRatio``, or `min(ζ, 1)` when overdamping is not
  /// allowed (<doc:TransitionCatalog#Spring-damping-and-settling>).
  public var effectiveDampingRatio: Double {
    allowsOverdamping ? dampingRatio : min(dampingRatio, 1)
  }

  /// The remaining fraction `e(t)` as one of the closed-form families.
  var shape: SpringShape {
    let omega0 = naturalFrequency
    let zeta = effectiveDampingRatio
    let v0 = initialVelocity
    if abs(zeta - 1) <= 1e-9 {
      return .critical(omega: omega0, p: 1, q: omega0 - v0)
    }
    if zeta < 1 {
      let omegaD = omega0 * ((1 - zeta) * (1 + zeta)).squareRoot()
      return .oscillating(
        alpha: zeta * omega0, omega: omegaD, c: 1, s: (zeta * omega0 - v0) / omegaD)
    }
    let root = (zeta - 1).squareRoot() * (zeta + 1).squareRoot()
    let r2 = -omega0 * (zeta + root)
    let r1 = -omega0 / (zeta + root)  // = −ω0·(ζ − √(ζ² − 1)) without cancellation
    let gap = r1 - r2
    return .overdamped(r1: r1, r2: r2, p: (-v0 - r2) / gap, q: (r1 + v0) / gap)
  }

  /// The remaining fraction `e(t) = 1 − value(at: t)` (unitless) at time `t` seconds after the
  /// start: 1 for `t ≤ 0`, tending to 0.
  ///
  /// Per-frame: NaN in gives NaN out; `t = +∞` gives the limit 0 for a damped spring and NaN for
  /// an undamped one (which has no limit).
  public func remainingFraction(at t: Double) -> Double {
    SpringMotion(self).remainingFraction(at: t)
  }

  /// The progress `x(t) = 1 − e(t)` (unitless) at time `t` seconds: 0 for `t ≤ 0` (the spring
  /// has not started), `x(0) = 0`, tending to 1; underdamped springs overshoot 1.
  ///
  /// Per-frame: NaN in gives NaN out; `t = +∞` gives 1 for a damped spring and NaN for an
  /// undamped one.
  public func value(at t: Double) -> Double {
    1 - remainingFraction(at: t)
  }

  /// The velocity `dx/dt = −e'(t)` in fractions of the distance per second (1/s): 0 for `t < 0`,
  /// ``initialVelocity`` at `t = 0` (the right derivative), tending to 0.
  ///
  /// Per-frame: NaN in gives NaN out; `t = +∞` gives 0 for a damped spring and NaN otherwise.
  public func velocity(at t: Double) -> Double {
    if t.isNaN { return t }
    if t < 0 { return 0 }
    if t == 0 { return initialVelocity }
    if t == .infinity { return damping > 0 ? 0 : .nan }
    return -shape.derivative(t)
  }

  /// The threshold on `|e|` used by ``settlingDuration``: `1e-3/√2 ≈ 7.0711e-4`
  /// (<doc:TransitionCatalog#Spring-damping-and-settling>).
  public static let settlingPositionThreshold = 1e-3 / 2.0.squareRoot()
  /// The threshold on `|velocity|` used by ``settlingDuration``: `5e-3` per second
  /// (<doc:TransitionCatalog#Spring-damping-and-settling>).
  public static let settlingVelocityThreshold = 5e-3

  /// `CASpringAnimation.settlingDuration` in seconds
  /// (<doc:TransitionCatalog#Spring-damping-and-settling>): the earliest time after which
  /// `|e(t)| < 1e-3/√2` and `|velocity(t)| < 5e-3 /s` hold forever.
  ///
  /// This reproduces Apple's published examples with mass 1 and stiffness 100: damping 5 gives
  /// 2.853 s ("approximately 2.85"), damping 15 gives 1.007 s ("just over 1 second"); the
  /// system spring (``systemCurve7``) gives 0.578 s. Computed exactly (to rounding): for each of
  /// `e` and the velocity, the closed-form critical points split time into monotone pieces; the
  /// last piece that reaches the threshold is found from an envelope bound, and bisection locates
  /// its exit. An undamped spring (`damping = 0`) never settles: `+∞`. For extremely light
  /// damping (more than a million oscillations before settling) the envelope bound, accurate to
  /// about one period, is returned.
  public var settlingDuration: Double {
    let e = shape
    let position = e.lastTime(atLeast: Self.settlingPositionThreshold)
    let speed = e.derivative.lastTime(atLeast: Self.settlingVelocityThreshold)
    return max(position, speed)
  }

  /// The iOS 17 `perceptualDuration`: `2π/ω0` seconds, the period of the undamped spring.
  public var perceptualDuration: Double { 2 * Double.pi / naturalFrequency }

  /// The iOS 17 `bounce` (unitless, in `[−1, 1]`) from ``dampingRatio`` (the inverse of the
  /// mapping below):
  /// `1 − ζ` for `ζ ≤ 1`, `1/ζ − 1` for `ζ > 1`.
  public var bounce: Double {
    let zeta = dampingRatio
    return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
  }
}

// MARK: - UIKit and SwiftUI parameterisations

extension DampedSpring {
  /// `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`: the same spring as
  /// `CASpringAnimation` with these values (the animator's duration is ignored; ζ > 1 runs
  /// critically damped, <doc:TransitionCatalog#Spring-damping-and-settling>).
  ///
  /// - Parameters: `mass` kg-like `> 0`; `stiffness` N/m-like `> 0`; `damping` N·s/m-like `≥ 0`;
  ///   `initialVelocity` in fractions of the distance per second (UIKit passes a `CGVector`; this
  ///   is its component along the animated property, `dx` for one-dimensional properties).
  /// - Throws: ``ValidationError`` as ``init(mass:stiffness:damping:initialVelocity:allowsOverdamping:)``.
  public static func uiSpringTimingParameters(
    mass: Double, stiffness: Double, damping: Double, initialVelocity: Double
  ) throws(ValidationError) -> DampedSpring {
    try DampedSpring(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
  }

  /// `UISpringTimingParameters(dampingRatio:initialVelocity:)` used by an animator of `duration`
  /// seconds; the same mapping as ``uiViewSpring(duration:dampingRatio:initialVelocity:)``
  /// (<doc:TransitionCatalog#Duration-based-springs>).
  ///
  /// - Parameters:
  ///   - dampingRatio: ζ, unitless, `> 0`; values above 1 are clamped to 1.
  ///   - initialVelocity: fractions of the distance per second (1/s).
  ///   - duration: the animator's duration `D` in seconds, `> 0`.
  /// - Throws: ``ValidationError`` as ``uiViewSpring(duration:dampingRatio:initialVelocity:)``.
  public static func uiSpringTimingParameters(
    dampingRatio: Double, initialVelocity: Double, duration: Double
  ) throws(ValidationError) -> DampedSpring {
    try uiViewSpring(
      duration: duration, dampingRatio: dampingRatio, initialVelocity: initialVelocity)
  }

  /// The root `x ≈ 9.2335` of `(1 + x)·e⁻ˣ = 0.001`, by Newton's method on
  /// `g(x) = ln(1 + x) − x − ln 0.001` from `x = 10` (g is concave and decreasing there).
  static let criticalEnvelopeRoot: Double = {
    let target = Double.log(0.001)
    var x = 10.0
    for _ in 0..<50 {
      let g = Double.log(1 + x) - x - target
      let slope = 1 / (1 + x) - 1
      let next = x - g / slope
      if abs(next - x) <= 1e-15 * x { return next }
      x = next
    }
    return x
  }()

  /// UIView's duration-based spring,
  /// `animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:…)`
  /// (<doc:TransitionCatalog#Duration-based-springs>): mass 1, `ζ' = min(ζ, 1)`, and `ω0` chosen so
  /// that the oscillation envelope falls to `ε = 0.001` at `D`:
  ///
  ///     ω0 = ln(1 / (ε·√(1 − ζ'²))) / (ζ'·D)     for ζ' < 1
  ///     ω0 = x / D,  (1 + x)·e⁻ˣ = ε, x ≈ 9.2335  for ζ' = 1
  ///
  /// then `k = ω0²` and `c = 2ζ'ω0`. The hero preset's ζ = 0.75, D = 0.5 gives ω0 ≈ 19.523 rad/s.
  /// The animation shows the spring on `[0, D)` and the target from `D` on.
  ///
  /// - Parameters:
  ///   - duration: `D` in seconds, `> 0`.
  ///   - dampingRatio: ζ, unitless, `> 0`; values above 1 are clamped to 1.
  ///   - initialVelocity: `v0` in fractions of the distance per second (1/s), positive towards
  ///     the target.
  /// - Throws: ``ValidationError``: `"duration"` or `"dampingRatio"` not finite or `≤ 0`;
  ///   `"initialVelocity"` as ``init(mass:stiffness:damping:initialVelocity:allowsOverdamping:)``;
  ///   `"duration"` with ``ValidationError/Reason/invalidState(_:)`` when the resulting `ω0`
  ///   leaves `[1e-100, 1e100]` rad/s (an extreme duration or ratio).
  public static func uiViewSpring(
    duration: Double, dampingRatio: Double, initialVelocity: Double = 0
  ) throws(ValidationError) -> DampedSpring {
    try Validate.positive(duration, "duration")
    try Validate.positive(dampingRatio, "dampingRatio")
    try Validate.inRange(initialVelocity, -1e100, 1e100, "initialVelocity")
    let zeta = min(dampingRatio, 1)
    let omega0: Double
    if zeta < 1 {
      let root = ((1 - zeta) * (1 + zeta)).squareRoot()
      omega0 = Double.log(1 / (0.001 * root)) / (zeta * duration)
    } else {
      omega0 = criticalEnvelopeRoot / duration
    }
    guard omega0 >= 1e-100 && omega0 <= 1e100 else {
      throw ValidationError(
        field: "duration",
        reason: .invalidState("gives a natural frequency outside [1e-100, 1e100] rad/s"))
    }
    return try DampedSpring(
      mass: 1, stiffness: omega0 * omega0, damping: 2 * zeta * omega0,
      initialVelocity: initialVelocity)
  }

  /// SwiftUI's `spring(response:dampingFraction:)` and WWDC 2018's "Designing Fluid Interfaces":
  /// mass 1, `k = (2π/T)²`, `c = 4πζ/T`, so that `T` is the period of the undamped spring
  /// (`ω0 = 2π/T`) and `ζ` the damping ratio.
  ///
  /// - Parameters:
  ///   - response: `T` in seconds, `> 0`.
  ///   - dampingRatio: ζ, unitless, `≥ 0` (0 never settles).
  ///   - initialVelocity: fractions of the distance per second (1/s); default 0.
  ///   - allowsOverdamping: whether ζ > 1 is truly overdamped (default false,
  ///     <doc:TransitionCatalog#Spring-damping-and-settling>).
  /// - Throws: ``ValidationError``: `"response"` not finite or `≤ 0`; `"dampingRatio"` not finite
  ///   or `< 0`; otherwise as ``init(mass:stiffness:damping:initialVelocity:allowsOverdamping:)``
  ///   (reported on `"stiffness"` / `"damping"` for extreme values).
  public static func response(
    _ response: Double, dampingRatio: Double, initialVelocity: Double = 0,
    allowsOverdamping: Bool = false
  ) throws(ValidationError) -> DampedSpring {
    try Validate.positive(response, "response")
    try Validate.nonNegative(dampingRatio, "dampingRatio")
    let omega0 = 2 * Double.pi / response
    return try DampedSpring(
      mass: 1, stiffness: omega0 * omega0, damping: 4 * Double.pi * dampingRatio / response,
      initialVelocity: initialVelocity, allowsOverdamping: allowsOverdamping)
  }

  /// iOS 17's duration/bounce spring: `CASpringAnimation(perceptualDuration:bounce:)`, SwiftUI
  /// `spring(duration:bounce:)` (OpenSwiftUI's mapping): mass 1, `ω0 = 2π/d`,
  /// `ζ = 1 − b` for `b ≥ 0` and `ζ = 1/(1 + b)` for `b < 0`, so `k = (2π/d)²`, `c = 4πζ/d`.
  ///
  /// Bounce 0 is critically damped, 1 undamped (never settles), negative values overdamped; the
  /// result therefore has ``allowsOverdamping`` set (without it every negative bounce would behave
  /// as 0). `b = −1` would need infinite damping and is rejected.
  ///
  /// - Parameters:
  ///   - duration: the perceptual duration `d` in seconds, `> 0` (SwiftUI default 0.5).
  ///   - bounce: `b`, unitless, in `(−1, 1]` (default 0).
  ///   - initialVelocity: fractions of the distance per second (1/s); default 0.
  /// - Throws: ``ValidationError``: `"duration"` not finite or `≤ 0`; `"bounce"` not finite or
  ///   outside `[(−1).nextUp, 1]` (``ValidationError/Reason/outOfRange(lower:upper:)``); otherwise
  ///   as ``init(mass:stiffness:damping:initialVelocity:allowsOverdamping:)``.
  public static func perceptual(
    duration: Double = 0.5, bounce: Double = 0, initialVelocity: Double = 0
  ) throws(ValidationError) -> DampedSpring {
    try Validate.positive(duration, "duration")
    try Validate.inRange(bounce, (-1.0).nextUp, 1, "bounce")
    let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    let omega0 = 2 * Double.pi / duration
    return try DampedSpring(
      mass: 1, stiffness: omega0 * omega0, damping: 4 * Double.pi * zeta / duration,
      initialVelocity: initialVelocity, allowsOverdamping: true)
  }

  /// UIKit's private animation curve 7 (`UIViewAnimationOptions(rawValue: 7 << 16)`, keyboard and
  /// navigation push/pop): a `CASpringAnimation` with mass 3, stiffness 1000, damping 500, run for
  /// 0.5 s. ζ = 500/(2√3000) ≈ 4.564 > 1, so it runs critically damped at
  /// `ω0 = √(1000/3) ≈ 18.257` rad/s (<doc:TransitionCatalog#Spring-damping-and-settling>), reaching 0.9989 at 0.5 s.
  public static let systemCurve7 = DampedSpring(
    unchecked: 3, stiffness: 1000, damping: 500, initialVelocity: 0)

  /// `UISpringTimingParameters()`: Apple documents only "a damping ratio of 4.56". This is taken
  /// to be the system spring, mass 3, stiffness 1000, damping 500 (ζ = 4.564, which rounds to the
  /// documented 4.56), identical to ``systemCurve7``: critically damped at ω0 ≈ 18.257 rad/s.
  /// A ratio alone cannot fix the stiffness, and the system spring is the one UIKit uses.
  public static let uiSpringTimingParametersDefault = systemCurve7

  /// A spring from known-valid constants, without validation.
  private init(unchecked mass: Double, stiffness: Double, damping: Double, initialVelocity: Double)
  {
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
    self.initialVelocity = initialVelocity
    self.allowsOverdamping = false
  }
}
