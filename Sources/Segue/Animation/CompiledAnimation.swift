/// An ``LayerAnimation`` prepared for evaluation every frame: transform end points are decomposed
/// once, value pairs are unpacked once. Evaluation allocates nothing for scalar and point values.
public struct CompiledAnimation: Sendable {
  /// The description this was compiled from.
  public let animation: LayerAnimation
  let pair: Pair?

  /// How a from/to pair interpolates.
  enum Pair: Sendable {
    case values(AnimationValue, AnimationValue)
    case transforms(TransformInterpolator)
  }

  /// Compiles `animation` (already validated by its initialiser).
  public init(_ animation: LayerAnimation) {
    self.animation = animation
    switch animation.content {
    case .basic(let from, let to), .spring(_, let from, let to):
      if case .transform(let a) = from, case .transform(let b) = to {
        pair = .transforms(TransformInterpolator(from: a, to: b))
      } else {
        pair = .values(from, to)
      }
    case .keyframes, .path:
      pair = nil
    }
  }

  /// The presented value at parent time `t` (seconds, in the time space of the animation's
  /// `beginTime`), or `nil` where the animation has no effect (before or after its active
  /// interval with fill mode `removed`, or the matching side without `backwards`/`forwards`).
  public func value(atParentTime t: Double) -> AnimationValue? {
    presented(atParentTime: t)?.value
  }

  /// The presented value at parent time `t` and the phase it comes from (a backwards fill shows
  /// the start value in the `before` phase), or `nil` where the animation has no effect.
  ///
  /// The iteration progress `p` goes through the animation's timing function with CSS's before
  /// flag set in the before phase (CSS Easing Level 2's `steps()`: a `steps(n, jump-start)`
  /// animation filling backwards shows its lower value, 0, until it begins), and the eased
  /// progress, unclamped, through the content (``value(atEased:beforeFlag:)``).
  public func presented(atParentTime t: Double) -> (
    value: AnimationValue, phase: MediaTiming.Phase
  )? {
    guard let (eased, phase) = eased(atParentTime: t) else { return nil }
    return (value(atEased: eased, beforeFlag: phase == .before), phase)
  }

  /// The eased progress at parent time `t` and its phase, or `nil` where the animation has no
  /// effect.
  func eased(atParentTime t: Double) -> (Double, MediaTiming.Phase)? {
    guard let state = animation.timing.iterationProgress(atParent: t) else { return nil }
    let before = state.phase == .before
    let eased =
      animation.timingFunction?.transform(state.progress, beforeFlag: before) ?? state.progress
    return (eased, state.phase)
  }

  /// The path rotation about z (radians) at eased progress `e` for a path animation with a
  /// rotation mode, else `nil` (``KeyframePathTrack/rotation(at:beforeFlag:)``).
  public func rotation(atEased e: Double, beforeFlag: Bool = false) -> Double? {
    guard case .path(let track) = animation.content else { return nil }
    return track.rotation(at: e, beforeFlag: beforeFlag)
  }

  /// The value at eased progress `e` (the output of the timing function; 0 at the start, 1 at the
  /// end of an iteration; values outside `[0, 1]` extrapolate, as an overshooting curve asks).
  ///
  /// - Parameters:
  ///   - e: eased progress, unitless.
  ///   - beforeFlag: `true` in the before phase; passed to a keyframe track's own and
  ///     per-segment timing functions (``KeyframeValues/value(at:beforeFlag:)``).
  public func value(atEased e: Double, beforeFlag: Bool = false) -> AnimationValue {
    switch animation.content {
    case .basic:
      return interpolated(e)
    case .keyframes(let values):
      return values.value(at: e, beforeFlag: beforeFlag)
    case .spring(let spring, _, _):
      return interpolated(spring.value(at: e * animation.timing.duration))
    case .path(let track):
      return .point(track.position(at: e, beforeFlag: beforeFlag))
    }
  }

  private func interpolated(_ f: Double) -> AnimationValue {
    switch pair {
    case .transforms(let interpolator):
      return .transform(
        (try? interpolator.value(at: f)) ?? (f < 0.5 ? interpolator.from : interpolator.to))
    case .values(let a, let b):
      return AnimationValue.interpolate(a, b, fraction: f)
    case nil:
      return animation.content.firstValue
    }
  }
}

extension LayerAnimation.Content {
  /// The first value of the content (`fromValue`, or the first keyframe value).
  var firstValue: AnimationValue {
    switch self {
    case .basic(let from, _), .spring(_, let from, _): from
    case .keyframes(let values): values.value(at: 0)
    case .path(let track): .point(track.position(at: 0))
    }
  }
}

extension AnimationValue {
  /// `a + (b − a)·f` channel by channel for two values of the same kind (transforms by
  /// decomposition; paths point by point, lists entry by entry); `f` may lie outside [0, 1]
  /// (spring overshoot extrapolates). Values of different kinds or layouts, and a path or list
  /// whose extrapolation overflows, return `b` from `f ≥ 0.5` on, `a` before (a validated
  /// ``LayerAnimation`` never pairs different kinds or layouts). The kinds that do not animate
  /// (``Kind/boolean``, ``Kind/cornerMask``) are `b` at every `f`: the change takes effect at
  /// once, as a UIView animation block applies it.
  public static func interpolate(_ a: AnimationValue, _ b: AnimationValue, fraction f: Double)
    -> AnimationValue
  {
    switch (a, b) {
    case (.number(let x), .number(let y)): .number(Double.interpolate(x, y, fraction: f))
    case (.point(let x), .point(let y)): .point(Point.interpolate(x, y, fraction: f))
    case (.size(let x), .size(let y)): .size(Size.interpolate(x, y, fraction: f))
    case (.rect(let x), .rect(let y)): .rect(Rect.interpolate(x, y, fraction: f))
    case (.color(let x), .color(let y)): .color(RGBAColor.interpolate(x, y, fraction: f))
    case (.transform(let x), .transform(let y)):
      .transform(Transform3D.interpolate(x, y, fraction: f))
    case (.boolean, .boolean), (.cornerMask, .cornerMask): b
    case (.path(let x), .path(let y)):
      (try? x.interpolated(to: y, fraction: f)).map { .path($0) } ?? (f >= 0.5 ? b : a)
    case (.colorList(let x), .colorList(let y)):
      x.channelwiseInterpolated(to: y, fraction: f).map { .colorList($0) } ?? (f >= 0.5 ? b : a)
    case (.numberList(let x), .numberList(let y)):
      x.channelwiseInterpolated(to: y, fraction: f).map { .numberList($0) }
        ?? (f >= 0.5 ? b : a)
    default: f >= 0.5 ? b : a
    }
  }
}
