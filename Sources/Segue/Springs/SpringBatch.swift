/// Springs prepared for batch evaluation in `Float`: each ``DampedSpring``'s closed form reduced to one
/// shape `e(t) = exp(−λ·t)·g(t)` with a few per-spring numbers, stored as planes (structure of
/// arrays) so that sixteen springs load as one lane vector.
///
/// With ``DampedSpring``'s remaining fraction `e = 1 − x` (see its description):
///
/// * underdamped: `λ = ζω0`, `g(t) = cos(ωd·t) + K·sin(ωd·t)`, `K = (ζω0 − v0)/ωd`;
/// * critically damped (also `ζ > 1` without overdamping,
///   <doc:TransitionCatalog#Spring-damping-and-settling>): `λ = ω0`, `g(t) = 1 + K·t`,
///   `K = ω0 − v0`;
/// * overdamped: `λ = −r₁`, `g(t) = 1 + K·expm1(−(r₁ − r₂)·t)`, `K = (r₁ + v0)/(r₁ − r₂)`. This
///   is `P·e^{r₁t} + Q·e^{r₂t}` rewritten with `P + Q = 1`; it does not cancel when
///   `r₁ ≈ r₂` (ζ just above 1), where `P` and `Q` are huge and of opposite signs.
///
/// Planes (index = spring): ``rate`` `λ`; ``frequency`` `ωd` (underdamped) or `r₁ − r₂`
/// (overdamped), with ``frequencyLow`` the rest of `ωd` below the 12 significant bits kept in
/// ``frequency`` (the kernel forms the phase `ωd·t` from the two parts without rounding error,
/// see ``SpringEvaluationJob``); ``coefficient`` `K`; ``kind`` 0 (underdamped), 1 (critical) or
/// 2 (overdamped), as `Float`.
public struct SpringBatch: Sendable {
  /// The springs, in lane order.
  public let springs: [DampedSpring]
  /// The envelope decay rate `λ` in 1/s per spring.
  public let rate: [Float]
  /// `ωd` in rad/s, its 12 leading significant bits only (underdamped); `r₁ − r₂` in 1/s
  /// (overdamped); 0 (critical).
  public let frequency: [Float]
  /// `ωd − frequency` in rad/s (underdamped), else 0.
  public let frequencyLow: [Float]
  /// `K`, the coefficient of the second term of `g` (unit 1/s for critical, unitless otherwise).
  public let coefficient: [Float]
  /// The shape per spring: 0 underdamped, 1 critically damped, 2 overdamped.
  public let kind: [Float]

  /// Reduces each spring's closed form (computed in `Double`) to the planes above, rounding
  /// once to `Float`.
  public init(springs: [DampedSpring]) {
    var rate = [Float]()
    var frequency = [Float]()
    var frequencyLow = [Float]()
    var coefficient = [Float]()
    var kind = [Float]()
    for spring in springs {
      switch spring.shape {
      case .oscillating(let alpha, let omega, _, let s):
        let high = Float(bitPattern: Float(omega).bitPattern & 0xFFFF_F000)
        rate.append(Float(alpha))
        frequency.append(high)
        frequencyLow.append(Float(omega - Double(high)))
        coefficient.append(Float(s))
        kind.append(0)
      case .critical(let omega, _, let q):
        rate.append(Float(omega))
        frequency.append(0)
        frequencyLow.append(0)
        coefficient.append(Float(q))
        kind.append(1)
      case .overdamped(let r1, let r2, _, let q):
        rate.append(Float(-r1))
        frequency.append(Float(r1 - r2))
        frequencyLow.append(0)
        coefficient.append(Float(q))
        kind.append(2)
      }
    }
    self.springs = springs
    self.rate = rate
    self.frequency = frequency
    self.frequencyLow = frequencyLow
    self.coefficient = coefficient
    self.kind = kind
  }

  /// Number of springs.
  public var count: Int { springs.count }
}

/// A batch evaluation of spring progress, in the style of ozz-animation's runtime jobs:
/// `output[j] = springs.springs[j].value(at: times[j])` (``DampedSpring/value(at:)``, `x = 1 − e`) in
/// `Float`, sixteen springs per step, with no allocation.
///
/// Per lane (see ``SpringBatch`` for the shape): `t = max(time, 0)`, `E = exp(−λ·t)` by
/// the library's vectorised `exp` (`SIMDMath`, internal); the underdamped term needs `sin` and `cos` of the phase
/// `ωd·t`, formed without rounding error as `ωhi·t_hi + ωhi·t_lo + ωlo·t` (Veltkamp split of `t`
/// into two 12-bit halves; `ωhi` has 12 bits, so the first two products are exact) and reduced
/// modulo π/2 term by term, so the phase error does not grow with `ωd·t`; the overdamped term
/// uses the vectorised `expm1`. Each block computes only the families present in it. Times
/// `≤ 0` give exactly 0.
///
/// Accuracy, measured against ``DampedSpring/value(at:)`` in `Double` at the same (`Float`) times
/// (`SpringBatchTests`): `|x − x_ref| ≤ 2.9e-7` (48 000 samples) for UI springs (response 0.1…2 s, damping ratio
/// 0.05…2 with and without overdamping, initial velocity −10…10 /s, `uiViewSpring` and
/// `bounce` forms) at times up to the settling duration. Undamped or extremely light springs
/// evaluated at phases beyond about 1e5 rad lose accuracy (the reduction's exact range).
public struct SpringEvaluationJob: @unchecked Sendable {
  /// The springs (read only); lane `j` is spring `j`.
  public var springs: SpringBatch
  /// The local time of each spring in seconds since its start, `times.count == springs.count`.
  /// Every entry must be finite (times `≤ 0` give progress 0).
  public var times: UnsafeBufferPointer<Float>
  /// The progress `x` per spring (unitless; overshoots 1 for underdamped springs); at least
  /// `springs.count` entries.
  public var output: UnsafeMutableBufferPointer<Float>

  /// Creates a job; nothing is checked until ``validate()`` or ``run()``.
  public init(
    springs: SpringBatch, times: UnsafeBufferPointer<Float>,
    output: UnsafeMutableBufferPointer<Float>
  ) {
    self.springs = springs
    self.times = times
    self.output = output
  }

  /// Checks the job without running it (one pass over the times).
  ///
  /// - Throws: ``ValidationError`` with `field`
  ///   * `"times"` ``ValidationError/Reason/countMismatch(expected:actual:)`` unless
  ///     `times.count == springs.count`;
  ///   * `"output"` ``ValidationError/Reason/tooFew(minimum:actual:)`` when shorter;
  ///   * `"times"` with the index ``ValidationError/Reason/notFinite`` for NaN or infinity.
  public func validate() throws(ValidationError) {
    try Validate.count(times.count, equals: springs.count, "times")
    try Validate.count(output.count, atLeast: springs.count, "output")
    try Validate.allFinite(times, "times")
  }

  /// Validates the job (``validate()``), then writes `output[0 ..< springs.count]`. Allocates
  /// nothing.
  public func run() throws(ValidationError) {
    try validate()
    runUnchecked()
  }

  /// Veltkamp's splitter for `Float`: `2¹² + 1`.
  static let splitter: Float = 4097

  /// The progress of one lane vector of springs.
  @inline(__always)
  static func evaluate(
    time: Lanes, rate: Lanes, frequency: Lanes, frequencyLow: Lanes, coefficient: Lanes,
    kind: Lanes
  ) -> Lanes {
    let t = SIMDMath.select(time .> 0, time, Lanes(repeating: 0))
    let envelope = SIMDMath.exp(-(rate * t))
    // Critically damped: 1 + K·t.
    var g = 1 + coefficient * t
    let over = kind .== 2
    if any(over) {
      let m = SIMDMath.expm1(-(frequency * t))
      g = SIMDMath.select(over, 1 + coefficient * m, g)
    }
    let under = kind .== 0
    if any(under) {
      // The phase ωd·t = ωhi·tHi + ωhi·tLo + ωlo·t, reduced modulo π/2 term by term.
      let c = t * splitter
      let tHi = c - (c - t)
      let tLo = t - tHi
      let p0 = frequency * tHi
      let p1 = frequency * tLo
      let p2 = frequencyLow * t
      let k =
        ((p0 + p1 + p2) * SIMDMath.twoOverPi + SIMDMath.roundingMagic)
        - SIMDMath.roundingMagic
      let r =
        ((((p0 - k * SIMDMath.halfPi1) + p1) - k * SIMDMath.halfPi2) + p2)
        - k * SIMDMath.halfPi3
      let (sine, cosine) = SIMDMath.sinCos(reduced: r, quadrant: k)
      g = SIMDMath.select(under, cosine + coefficient * sine, g)
    }
    return 1 - envelope * g
  }

  /// ``run()`` without the checks.
  func runUnchecked() {
    let n = springs.count
    guard n > 0 else { return }
    let width = Lanes.scalarCount
    let fullEnd = n / width * width
    let ts = times.baseAddress!
    let out = output.baseAddress!
    springs.rate.withUnsafeBufferPointer { rateBuffer in
      springs.frequency.withUnsafeBufferPointer { frequencyBuffer in
        springs.frequencyLow.withUnsafeBufferPointer { lowBuffer in
          springs.coefficient.withUnsafeBufferPointer { coefficientBuffer in
            springs.kind.withUnsafeBufferPointer { kindBuffer in
              let planes = (
                rateBuffer.baseAddress!, frequencyBuffer.baseAddress!, lowBuffer.baseAddress!,
                coefficientBuffer.baseAddress!, kindBuffer.baseAddress!
              )
              @inline(__always) func load(_ p: UnsafePointer<Float>, _ j: Int) -> Lanes {
                UnsafeRawPointer(p + j).loadUnaligned(as: Lanes.self)
              }
              var j = 0
              while j < fullEnd {
                let x = Self.evaluate(
                  time: load(ts, j), rate: load(planes.0, j), frequency: load(planes.1, j),
                  frequencyLow: load(planes.2, j), coefficient: load(planes.3, j),
                  kind: load(planes.4, j))
                UnsafeMutableRawPointer(out + j).storeBytes(of: x, as: Lanes.self)
                j += width
              }
              if j < n {
                // Tail: a padded local copy (a critical spring with λ = 0 at t = 0).
                var v = (Lanes(), Lanes(), Lanes(), Lanes(), Lanes(), Lanes(repeating: 1))
                for l in 0..<(n - j) {
                  v.0[l] = ts[j + l]
                  v.1[l] = planes.0[j + l]
                  v.2[l] = planes.1[j + l]
                  v.3[l] = planes.2[j + l]
                  v.4[l] = planes.3[j + l]
                  v.5[l] = planes.4[j + l]
                }
                let x = Self.evaluate(
                  time: v.0, rate: v.1, frequency: v.2, frequencyLow: v.3, coefficient: v.4,
                  kind: v.5)
                for l in 0..<(n - j) { out[j + l] = x[l] }
              }
            }
          }
        }
      }
    }
  }
}
