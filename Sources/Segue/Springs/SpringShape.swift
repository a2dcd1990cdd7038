import RealModule

/// One of the three closed-form families that solve `m·e'' + c·e' + k·e = 0`, closed under
/// differentiation, so the remaining fraction, its velocity and its acceleration share one type:
///
/// * `oscillating`: `f(t) = exp(−α·t)·(C·cos ωt + S·sin ωt)` (underdamped, `α ≥ 0`, `ω > 0`);
/// * `critical`: `f(t) = (p + q·t)·exp(−ω·t)` (`ω > 0`);
/// * `overdamped`: `f(t) = P·exp(r₁·t) + Q·exp(r₂·t)` (`r₂ < r₁ < 0`).
///
/// Each family has closed forms for its derivative, its critical points and a decreasing envelope,
/// which ``lastTime(atLeast:)`` uses to find the last time `|f| ≥ ε` exactly (to rounding).
enum SpringShape: Hashable, Sendable {
  case oscillating(alpha: Double, omega: Double, c: Double, s: Double)
  case critical(omega: Double, p: Double, q: Double)
  case overdamped(r1: Double, r2: Double, p: Double, q: Double)

  /// `f(t)`.
  func callAsFunction(_ t: Double) -> Double {
    switch self {
    case .oscillating(let alpha, let omega, let c, let s):
      let phase = omega * t
      return Double.exp(-alpha * t) * (c * Double.cos(phase) + s * Double.sin(phase))
    case .critical(let omega, let p, let q):
      return (p + q * t) * Double.exp(-omega * t)
    case .overdamped(let r1, let r2, let p, let q):
      return p * Double.exp(r1 * t) + q * Double.exp(r2 * t)
    }
  }

  /// `f'`, in the same family:
  /// `C' = −αC + ωS`, `S' = −αS − ωC`; `p' = q − ωp`, `q' = −ωq`; `P' = r₁P`, `Q' = r₂Q`.
  var derivative: SpringShape {
    switch self {
    case .oscillating(let alpha, let omega, let c, let s):
      return .oscillating(
        alpha: alpha, omega: omega, c: -alpha * c + omega * s, s: -alpha * s - omega * c)
    case .critical(let omega, let p, let q):
      return .critical(omega: omega, p: q - omega * p, q: -omega * q)
    case .overdamped(let r1, let r2, let p, let q):
      return .overdamped(r1: r1, r2: r2, p: r1 * p, q: r2 * q)
    }
  }

  /// The time from which `|f| < ε` is guaranteed by a decreasing envelope, or `nil` if `f` does
  /// not decay (undamped oscillation with amplitude ≥ ε).
  ///
  /// * oscillating: `|f| ≤ R·exp(−αt)` with `R = √(C² + S²)`, so `t = (ln(R/ε) + 1e-9)/α`;
  /// * critical: `|f| ≤ (|p| + |q|t)·exp(−ωt)`, decreasing for `t ≥ 1/ω`;
  /// * overdamped: `|f| ≤ |P|·exp(r₁t) + |Q|·exp(r₂t)`, decreasing everywhere;
  ///
  /// for the last two the time is found by doubling from `1/ω` (`1/|r₁|`).
  func envelopeTime(below epsilon: Double) -> Double? {
    switch self {
    case .oscillating(let alpha, _, let c, let s):
      let amplitude = Double.hypot(c, s)
      if amplitude < epsilon { return 0 }
      guard alpha > 0 else { return nil }
      return (Double.log(amplitude / epsilon) + 1e-9) / alpha
    case .critical(let omega, let p, let q):
      let bound = { (t: Double) in (abs(p) + abs(q) * t) * Double.exp(-omega * t) }
      return Self.doubling(from: 1 / omega, bound: bound, epsilon: epsilon)
    case .overdamped(let r1, let r2, let p, let q):
      let bound = { (t: Double) in abs(p) * Double.exp(r1 * t) + abs(q) * Double.exp(r2 * t) }
      return Self.doubling(from: 1 / abs(r1), bound: bound, epsilon: epsilon)
    }
  }

  private static func doubling(
    from start: Double, bound: (Double) -> Double, epsilon: Double
  ) -> Double? {
    var t = start
    for _ in 0..<2100 {
      if bound(t) < epsilon * (1 - 1e-9) { return t }
      t *= 2
      if !t.isFinite { return nil }
    }
    return nil
  }

  /// The critical points of `f` (zeros of `f'`) in `(0, ∞)`, ascending, as a count within
  /// `(0, limit]` and an accessor. Oscillating: `ω·t_k = θ₀ + kπ` with
  /// `θ₀ = atan2(S', C') + π/2` reduced to `[0, π)`; the other families have at most one:
  /// `t = −p'/q'` (critical) or `t = ln(−Q'/P')/(r₁ − r₂)` (overdamped).
  private func criticalPoints(upTo limit: Double) -> (count: Double, time: (Double) -> Double) {
    let d = derivative
    switch d {
    case .oscillating(_, let omega, let c, let s):
      if c == 0 && s == 0 { return (0, { _ in 0 }) }
      var theta0 = Double.atan2(y: s, x: c) + Double.pi / 2
      while theta0 < 0 { theta0 += Double.pi }
      while theta0 >= Double.pi { theta0 -= Double.pi }
      let span = omega * limit - theta0
      let count = span < 0 ? 0 : (span / Double.pi).rounded(.down) + 1
      return (count, { k in (theta0 + k * Double.pi) / omega })
    case .critical(_, let p, let q):
      guard q != 0 else { return (0, { _ in 0 }) }
      let t = -p / q
      return (t > 0 && t <= limit ? 1 : 0, { _ in t })
    case .overdamped(let r1, let r2, let p, let q):
      guard p != 0 else { return (0, { _ in 0 }) }
      let ratio = -q / p
      guard ratio > 1 else { return (0, { _ in 0 }) }
      let t = Double.log(ratio) / (r1 - r2)
      return (t > 0 && t <= limit ? 1 : 0, { _ in t })
    }
  }

  /// The supremum of `{t ≥ 0 : |f(t)| ≥ ε}` (0 if that set is empty, `+∞` if `f` never decays).
  ///
  /// Between consecutive critical points `f` is monotone, so the last failing point among
  /// `{0} ∪ critical points ≤ T` (T from ``envelopeTime(below:)``) starts the last failing
  /// interval, and the failing set inside `[that point, next critical point or T]` is a prefix;
  /// bisection finds its end to the resolution of `Double`. When the critical points are too
  /// dense to enumerate reliably (more than a million before the last failure, or a phase beyond
  /// `1e12` radians) the envelope time is returned, an upper bound.
  func lastTime(atLeast epsilon: Double) -> Double {
    guard let limit = envelopeTime(below: epsilon) else { return .infinity }
    let fails = { (t: Double) -> Bool in !(abs(self(t)) < epsilon) }
    let (count, time) = criticalPoints(upTo: limit)
    if count > 1e12 { return limit }
    var start: Double? = nil
    var end = limit
    var k = count - 1
    var steps = 0
    while k >= 0 {
      let t = time(k)
      if fails(t) {
        start = t
        end = k + 1 < count ? time(k + 1) : limit
        break
      }
      k -= 1
      steps += 1
      if steps > 1_000_000 { return limit }
    }
    if start == nil {
      guard fails(0) else { return 0 }
      start = 0
      end = count > 0 ? time(0) : limit
    }
    var lo = start ?? 0
    var hi = end
    for _ in 0..<200 {
      let mid = 0.5 * (lo + hi)
      if !(mid > lo && mid < hi) { break }
      if fails(mid) { lo = mid } else { hi = mid }
    }
    return hi
  }
}
