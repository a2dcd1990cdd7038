/// A ``DampedSpring``'s motion with its closed form worked out once: what
/// ``DampedSpring/remainingFraction(at:)`` evaluates, for runs that read it every frame (the
/// batch's animator clock plans), with the same operations and so the same bits.
struct SpringMotion: Hashable, Sendable {
  /// The remaining fraction `e(t)` as one of the closed-form families.
  let shape: SpringShape
  /// Whether the spring is damped (`c > 0`): it then tends to its target.
  let isDamped: Bool

  init(_ spring: DampedSpring) {
    shape = spring.shape
    isDamped = spring.damping > 0
  }

  /// ``DampedSpring/remainingFraction(at:)``: 1 for `t ≤ 0`, `e(t)` after, the limit 0 (damped)
  /// or NaN (undamped) at `t = +∞`, NaN for NaN.
  func remainingFraction(at t: Double) -> Double {
    if t.isNaN { return t }
    if t <= 0 { return 1 }
    if t == .infinity { return isDamped ? 0 : .nan }
    return shape(t)
  }

  /// ``DampedSpring/value(at:)``: `1 − e(t)`.
  func value(at t: Double) -> Double { 1 - remainingFraction(at: t) }
}
