/// A step easing, CSS `steps(n, position)` (CSS Easing Level 2).
///
/// The output jumps between `jumps + 1` levels `0, 1/jumps, …, 1`, where `jumps` is `n` for
/// ``JumpPosition/jumpStart`` and ``JumpPosition/jumpEnd``, `n + 1` for ``JumpPosition/jumpBoth``
/// and `n − 1` for ``JumpPosition/jumpNone``. See ``value(at:beforeFlag:)`` for the exact rule.
public struct StepsEasing: Hashable, Sendable {
  /// Where the jumps sit inside the `n` equal intervals of `[0, 1]`.
  public enum JumpPosition: Hashable, Sendable, CaseIterable {
    /// The first jump happens at input 0 (CSS `jump-start`, alias `start`).
    case jumpStart
    /// The last jump happens at input 1 (CSS `jump-end`, alias `end`; the default).
    case jumpEnd
    /// No jump at either end: the output holds 0 on the first interval and 1 on the last
    /// (CSS `jump-none`; needs `n ≥ 2`).
    case jumpNone
    /// Jumps at both 0 and 1 (CSS `jump-both`).
    case jumpBoth

    /// CSS `start`, an alias for ``jumpStart``.
    public static var start: JumpPosition { .jumpStart }
    /// CSS `end`, an alias for ``jumpEnd``.
    public static var end: JumpPosition { .jumpEnd }
  }

  /// The number of intervals `n` (CSS's `<integer>`), at least 1 (at least 2 for `jumpNone`).
  public let steps: Int
  /// Where the jumps sit.
  public let position: JumpPosition

  /// Creates CSS `steps(steps, position)`.
  ///
  /// - Parameters:
  ///   - steps: the number of intervals `n`; `n ≥ 1`, and `n ≥ 2` for ``JumpPosition/jumpNone``.
  ///   - position: where the jumps sit; defaults to ``JumpPosition/jumpEnd`` as in CSS.
  /// - Throws: ``ValidationError`` with field `"steps"` and
  ///   ``ValidationError/Reason/tooFew(minimum:actual:)`` (minimum 1, or 2 for `jumpNone`).
  public init(steps: Int, position: JumpPosition = .jumpEnd) throws(ValidationError) {
    let minimum = position == .jumpNone ? 2 : 1
    guard steps >= minimum else {
      throw ValidationError(field: "steps", reason: .tooFew(minimum: minimum, actual: steps))
    }
    self.steps = steps
    self.position = position
  }

  /// CSS `step-start`, `steps(1, jump-start)`: 1 for every input `x > 0` (and at `x = 0` unless
  /// in the before phase).
  public static let stepStart = StepsEasing(uncheckedSteps: 1, position: .jumpStart)
  /// CSS `step-end`, `steps(1, jump-end)`: 0 for every input `x < 1`, 1 at `x = 1`.
  public static let stepEnd = StepsEasing(uncheckedSteps: 1, position: .jumpEnd)

  private init(uncheckedSteps: Int, position: JumpPosition) {
    self.steps = uncheckedSteps
    self.position = position
  }

  /// The number of jumps: `n` for jump-start and jump-end, `n + 1` for jump-both, `n − 1` for
  /// jump-none. A `Double` so that `n + 1` cannot overflow for `n = Int.max`.
  public var jumps: Double {
    switch position {
    case .jumpStart, .jumpEnd: return Double(steps)
    case .jumpBoth: return Double(steps) + 1
    case .jumpNone: return Double(steps) - 1
    }
  }

  /// The output for input progress `x` (unitless), exactly as CSS Easing's step algorithm:
  ///
  /// 1. `step = ⌊x·n⌋`;
  /// 2. `step += 1` for jump-start and jump-both;
  /// 3. if `beforeFlag` and `x·n` is an integer, `step −= 1`;
  /// 4. if `x ≥ 0` and `step < 0`, `step = 0`;
  /// 5. if `x ≤ 1` and `step > jumps`, `step = jumps`;
  /// 6. the output is `step / jumps`.
  ///
  /// Inputs outside `[0, 1]` are allowed and may give outputs outside `[0, 1]`. The arithmetic is
  /// done in `Double`, so any input is safe; NaN in gives NaN out (per-frame function, no
  /// validation).
  ///
  /// - Parameters:
  ///   - x: input progress, unitless.
  ///   - beforeFlag: true while the animation is in its before phase (CSS's "before flag").
  public func value(at x: Double, beforeFlag: Bool = false) -> Double {
    let n = Double(steps)
    let scaled = x * n
    var step = scaled.rounded(.down)
    if position == .jumpStart || position == .jumpBoth { step += 1 }
    if beforeFlag && scaled == scaled.rounded(.down) { step -= 1 }
    if x >= 0 && step < 0 { step = 0 }
    let jumps = self.jumps
    if x <= 1 && step > jumps { step = jumps }
    return step / jumps
  }
}
