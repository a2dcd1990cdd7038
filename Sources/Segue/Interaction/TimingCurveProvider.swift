/// UIKit's `UIView.AnimationCurve`: the four named curves of UIView animations and of
/// `UIViewPropertyAnimator(duration:curve:animations:)`.
public enum ViewAnimationCurve: String, Hashable, Sendable, CaseIterable {
  /// `.easeInOut`, the Bézier `(0.42, 0), (0.58, 1)` (UIView's default,
  /// <doc:TransitionCatalog#Default-timing-curves>).
  case easeInOut
  /// `.easeIn`, the Bézier `(0.42, 0), (1, 1)`.
  case easeIn
  /// `.easeOut`, the Bézier `(0, 0), (0.58, 1)`.
  case easeOut
  /// `.linear`, the identity.
  case linear

  /// The curve as a ``TimingFunction``.
  public var timingFunction: TimingFunction {
    switch self {
    case .easeInOut: .easeInEaseOut
    case .easeIn: .easeIn
    case .easeOut: .easeOut
    case .linear: .linear
    }
  }
}

/// A two-component vector (`CGVector`): `dx`, `dy`.
public struct Vector2: Hashable, Sendable, CustomStringConvertible {
  /// The x component.
  public var dx: Double
  /// The y component.
  public var dy: Double

  /// Creates a vector.
  @inlinable public init(dx: Double, dy: Double) {
    self.dx = dx
    self.dy = dy
  }

  /// `(0, 0)`.
  public static let zero = Vector2(dx: 0, dy: 0)

  /// `(dx, dy)`.
  public var description: String { "(\(dx), \(dy))" }
}

/// `UISpringTimingParameters`: a spring as a property animator's timing curve
/// (<doc:TransitionCatalog#Spring-damping-and-settling>,
/// <doc:TransitionCatalog#Duration-based-springs>).
///
/// Two families, as in UIKit:
///
/// * **Duration-based** (`init(dampingRatio:initialVelocity:)`): the spring is fitted to the
///   length `L` of the run it paces with ``DampedSpring/uiViewSpring(duration:dampingRatio:initialVelocity:)``
///   (mass 1, `ζ' = min(ζ, 1)`, `ω0` chosen so the envelope falls to 0.001 at `L`): the
///   animator's duration (or `durationFactor ×` it after `continueAnimation`) decides how long it
///   takes.
/// * **Physical** (`init(mass:stiffness:damping:initialVelocity:)` and `init()`): the spring runs
///   on its own clock and the animator's duration is **ignored** (UIKit's documented behaviour);
///   a run it paces lasts the spring's ``DampedSpring/settlingDuration`` (<doc:TransitionCatalog#Spring-damping-and-settling>).
///
/// Either way a run of length `L` seconds shows the progress `x(s·L)` at the elapsed fraction
/// `s ∈ [0, 1)` of the run and exactly 1 at its end (`x` may overshoot 1 before).
///
/// **Initial velocity.** UIKit's is a `CGVector` in fractions of the remaining distance per
/// second (a 100 pt/s gesture with 200 pt to go is 0.5). A property animator paces all its
/// properties with one progress, so only ``initialVelocity``'s `dx` is used (UIKit itself uses
/// `dx` for every property but `center`); `dy` is kept for reading.
public struct SpringTimingParameters: Hashable, Sendable {
  /// How the spring is specified.
  public enum Model: Hashable, Sendable {
    /// Fitted to the run's length: damping ratio ζ (unitless, `> 0`, clamped to 1).
    case dampingRatio(Double)
    /// A physical spring on its own clock: the ``DampedSpring``'s mass, stiffness and damping (its
    /// initial velocity is ``SpringTimingParameters/initialVelocity``'s `dx`).
    case physical(mass: Double, stiffness: Double, damping: Double)
  }

  /// How the spring is specified.
  public let model: Model
  /// `initialVelocity`, fractions of the remaining distance per second (1/s); only `dx` paces
  /// the animation.
  public let initialVelocity: Vector2

  /// `UISpringTimingParameters()`: the system spring, mass 3, stiffness 1000, damping 500
  /// (documented by Apple as "a damping ratio of 4.56"; ``DampedSpring/uiSpringTimingParametersDefault``),
  /// critically damped at `ω0 ≈ 18.257` rad/s, settling in 0.578 s; the animator's duration is
  /// ignored.
  public init() {
    model = .physical(mass: 3, stiffness: 1000, damping: 500)
    initialVelocity = .zero
  }

  /// `UISpringTimingParameters(dampingRatio:initialVelocity:)`.
  ///
  /// - Parameters:
  ///   - dampingRatio: ζ, unitless, `> 0`; values above 1 run critically damped
  ///     (<doc:TransitionCatalog#Duration-based-springs>).
  ///   - initialVelocity: fractions of the remaining distance per second; each component finite
  ///     and within `±1e100`.
  /// - Throws: ``ValidationError``: `"dampingRatio"` not finite or `≤ 0`;
  ///   `"initialVelocity.dx"`, `"initialVelocity.dy"` not finite or outside `±1e100`.
  public init(dampingRatio: Double, initialVelocity: Vector2 = .zero) throws(ValidationError) {
    try Validate.positive(dampingRatio, "dampingRatio")
    try Self.validate(initialVelocity)
    model = .dampingRatio(dampingRatio)
    self.initialVelocity = initialVelocity
  }

  /// `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`.
  ///
  /// - Parameters:
  ///   - mass: kg-like, `> 0`.
  ///   - stiffness: N/m-like, `> 0`.
  ///   - damping: N·s/m-like, `> 0` (an undamped spring never settles, so it cannot pace a run).
  ///   - initialVelocity: as ``init(dampingRatio:initialVelocity:)``.
  /// - Throws: ``ValidationError``: `"mass"`, `"stiffness"`, `"damping"` as
  ///   ``DampedSpring/init(mass:stiffness:damping:initialVelocity:allowsOverdamping:)``, and `"damping"`
  ///   ``ValidationError/Reason/notPositive`` for 0; the velocity errors above.
  public init(
    mass: Double, stiffness: Double, damping: Double, initialVelocity: Vector2 = .zero
  ) throws(ValidationError) {
    try Self.validate(initialVelocity)
    let spring = try DampedSpring(
      mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity.dx)
    guard damping > 0 else { throw ValidationError(field: "damping", reason: .notPositive) }
    guard spring.settlingDuration.isFinite else {
      throw ValidationError(field: "damping", reason: .invalidState("the spring never settles"))
    }
    model = .physical(mass: mass, stiffness: stiffness, damping: damping)
    self.initialVelocity = initialVelocity
  }

  private static func validate(_ v: Vector2) throws(ValidationError) {
    try Validate.inRange(v.dx, -1e100, 1e100, "initialVelocity.dx")
    try Validate.inRange(v.dy, -1e100, 1e100, "initialVelocity.dy")
  }

  /// `true` for the physical family, whose run length is its own settling duration.
  public var ignoresDuration: Bool {
    if case .physical = model { return true }
    return false
  }

  /// The spring that paces a run of `length` seconds (the physical spring whatever the length);
  /// `nil` when the length is too extreme to fit a spring to (see
  /// ``DampedSpring/uiViewSpring(duration:dampingRatio:initialVelocity:)``).
  public func spring(forRunLength length: Double) -> DampedSpring? {
    switch model {
    case .dampingRatio(let zeta):
      return try? DampedSpring.uiViewSpring(
        duration: length, dampingRatio: zeta, initialVelocity: initialVelocity.dx)
    case .physical(let m, let k, let c):
      return try? DampedSpring(
        mass: m, stiffness: k, damping: c, initialVelocity: initialVelocity.dx)
    }
  }

  /// The length in seconds of a run paced by this spring when the animator asks for `duration`
  /// seconds: `duration` for the duration-based family, the spring's settling duration for the
  /// physical one.
  public func runLength(forDuration duration: Double) -> Double {
    switch model {
    case .dampingRatio: return duration
    case .physical:
      return spring(forRunLength: duration)?.settlingDuration ?? duration
    }
  }

  /// The progress at the elapsed fraction `s` of a run lasting `length` seconds: 0 for `s ≤ 0`,
  /// `x(s·length)` for `0 < s < 1`, exactly 1 for `s ≥ 1` (NaN counts as 0). Always finite.
  public func progress(atElapsed s: Double, runLength length: Double) -> Double {
    guard s > 0, s < 1 else { return s > 0 ? 1 : 0 }
    return DampedSpring.progress(spring(forRunLength: length), atElapsed: s, runLength: length)
  }
}

extension DampedSpring {
  /// The progress `x(s·length)` of `spring` at the elapsed fraction `s` of a run of `length`
  /// seconds: 0 for `s ≤ 0` (NaN included), 1 for `s ≥ 1`, where no spring fits (`nil`) or where
  /// the value is not finite. The one rule of every spring-paced run.
  static func progress(_ spring: DampedSpring?, atElapsed s: Double, runLength length: Double)
    -> Double
  {
    progress(spring.map(SpringMotion.init), atElapsed: s, runLength: length)
  }

  /// ``progress(_:atElapsed:runLength:)-(DampedSpring?,_,_)`` of a spring's motion worked out
  /// beforehand.
  static func progress(_ motion: SpringMotion?, atElapsed s: Double, runLength length: Double)
    -> Double
  {
    guard s > 0 else { return 0 }
    guard s < 1, let motion else { return 1 }
    let x = motion.value(at: s * length)
    return x.isFinite ? x : 1
  }
}

/// The timing curve of an animation or an animator, UIKit's `UITimingCurveProvider`: a cubic
/// curve (`UICubicTimingParameters`, Core Animation's `CAMediaTimingFunction`) or a spring.
///
/// ``SceneBuilder``'s `animate`, ``PropertyAnimator`` and ``ViewPropertyAnimator`` all take it as
/// `timingParameters`. A run it paces lasts ``runLength(forDuration:)`` seconds and shows
/// ``progress(atElapsed:runLength:)``.
///
/// The two spring cases differ in how long a run lasts, and are kept apart for that reason:
///
/// * ``spring(_:)`` follows `UISpringTimingParameters`: a duration-based spring is fitted to the
///   duration it is given, while a physical spring ignores that duration and runs for its own
///   settling duration (UIKit's documented behaviour for property animators).
/// * ``springAnimation(_:)`` follows `CASpringAnimation`: any ``DampedSpring`` (undamped or truly
///   overdamped ones included) runs on its own clock and is shown for exactly the duration it is
///   given, then the end value, settled or not. UIKit's default push is such an animation: the
///   system spring shown for 0.5 s although it settles in 0.578 s.
///
/// A duration-based `spring(_:)` over `D` seconds and a `springAnimation(_:)` of the spring it is
/// fitted to (``DampedSpring/uiViewSpring(duration:dampingRatio:initialVelocity:)`` with the same
/// `D`) show the same values.
public enum TimingCurveProvider: Hashable, Sendable {
  /// `UICubicTimingParameters`: any ``TimingFunction`` (UIKit's are cubic Béziers; steps and
  /// `linear(…)` functions work the same way here).
  case cubic(TimingFunction)
  /// `UISpringTimingParameters`: fitted to the run (damping ratio), or on its own clock for its
  /// settling duration (mass, stiffness, damping).
  case spring(SpringTimingParameters)
  /// `CASpringAnimation`: the spring's progress `x(t)` on its own clock for exactly the duration
  /// given, then 1.
  case springAnimation(DampedSpring)

  /// `UICubicTimingParameters(animationCurve:)`.
  public static func cubic(animationCurve curve: ViewAnimationCurve) -> TimingCurveProvider {
    .cubic(curve.timingFunction)
  }

  /// `UICubicTimingParameters(controlPoint1:controlPoint2:)`.
  ///
  /// - Throws: ``ValidationError`` as ``CubicBezier/init(x1:y1:x2:y2:)``.
  public static func cubic(controlPoint1 p1: Point, controlPoint2 p2: Point)
    throws(ValidationError) -> TimingCurveProvider
  {
    .cubic(try TimingFunction.cubicBezier(p1.x, p1.y, p2.x, p2.y))
  }

  /// `.cubic(.linear)`.
  public static let linear = TimingCurveProvider.cubic(.linear)
  /// `.cubic(.easeIn)`.
  public static let easeIn = TimingCurveProvider.cubic(.easeIn)
  /// `.cubic(.easeOut)`.
  public static let easeOut = TimingCurveProvider.cubic(.easeOut)
  /// `.cubic(.easeInEaseOut)`, UIKit's default.
  public static let easeInEaseOut = TimingCurveProvider.cubic(.easeInEaseOut)
  /// `.cubic(.systemDefault)`.
  public static let systemDefault = TimingCurveProvider.cubic(.systemDefault)

  /// The progress at the elapsed fraction `s` of a run of `length` seconds: the timing
  /// function's `transform(s)`; the spring's
  /// ``SpringTimingParameters/progress(atElapsed:runLength:)``; for a spring animation 0 for
  /// `s ≤ 0`, `x(s·length)` for `0 < s < 1` and exactly 1 for `s ≥ 1` (NaN counts as 0, a value
  /// that is not finite as 1).
  public func progress(atElapsed s: Double, runLength length: Double) -> Double {
    switch self {
    case .cubic(let function): return function.transform(s)
    case .spring(let spring): return spring.progress(atElapsed: s, runLength: length)
    case .springAnimation(let spring):
      return DampedSpring.progress(spring, atElapsed: s, runLength: length)
    }
  }

  /// The slope `d progress / ds` of ``progress(atElapsed:runLength:)`` at elapsed fraction `s`
  /// (unitless): ``TimingFunction/slope(at:)`` for a cubic curve; for a spring
  /// `length · x′(s·length)` (``DampedSpring/velocity(at:)``) inside the run, 0 outside it, where
  /// no spring fits, or where the value is not finite.
  public func slope(atElapsed s: Double, runLength length: Double) -> Double {
    let spring: DampedSpring?
    switch self {
    case .cubic(let function): return function.slope(at: s)
    case .spring(let parameters): spring = parameters.spring(forRunLength: length)
    case .springAnimation(let fixed): spring = fixed
    }
    guard s > 0, s < 1, let spring else { return 0 }
    let v = length * spring.velocity(at: s * length)
    return v.isFinite ? v : 0
  }

  /// `true` for a physical ``spring(_:)``, which ignores the duration it is given.
  public var ignoresDuration: Bool {
    if case .spring(let spring) = self { return spring.ignoresDuration }
    return false
  }

  /// How long a run lasts when it is asked to take `duration` seconds: `duration`, except for a
  /// physical ``spring(_:)``, which takes its own settling duration.
  public func runLength(forDuration duration: Double) -> Double {
    switch self {
    case .cubic, .springAnimation: duration
    case .spring(let spring): spring.runLength(forDuration: duration)
    }
  }
}
