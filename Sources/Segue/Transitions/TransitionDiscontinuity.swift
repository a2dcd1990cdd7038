/// A place where a transition's presented values change abruptly by design: a value that may
/// jump (a discrete keyframe, a `steps()` timing function, a model change, the completion) or a
/// speed that may change at once (an animation starting or stopping, a key time).
///
/// Everything else a scene presents is continuous in time, with a continuous velocity: timing
/// curves, springs and interpolation are smooth. A continuity test
/// (`assertContinuous` in `SegueTesting`) reports every other jump, such as an animation whose
/// end value differs from the model value it leaves behind.
public struct TransitionDiscontinuity: Hashable, Sendable {
  /// What may change abruptly.
  public enum Kind: Hashable, Sendable {
    /// The value itself may jump (and so may its velocity).
    case value
    /// The value stays continuous; its velocity may jump.
    case velocity
  }

  /// Why it may.
  public enum Cause: Hashable, Sendable {
    /// A model change of ``TransitionScene/events`` (value).
    case modelChange
    /// The transition completed: ``TransitionScene/finishChanges`` or
    /// ``TransitionScene/cancelChanges`` (value), and every animation stops (velocity).
    case completion
    /// A keyframe animation in ``CalculationMode/discrete`` mode reached its next key (value).
    case discreteKeyframe
    /// A `steps()` timing function (or one of a keyframe track's) took a step (value).
    case steps
    /// A repeating animation without `autoreverses` started its next iteration (value).
    case repeatRestart
    /// A path animation crossed a gap of its path or a corner while turning the layer with the
    /// path (value).
    case pathVertex
    /// An animation started or stopped, or turned round (`autoreverses`) (velocity).
    case animationBoundary
    /// A keyframe animation passed a key time, or a `linear(…)` timing function a stop (velocity).
    case keyTime
    /// An animated value went past the end of its presented range and is held there: an
    /// overshooting spring on `opacity` (presented in `[0, 1]`), a radius or width below 0
    /// (velocity).
    case clamp
    /// A call on a percent-driven interactive transition: `update(_:)` moves the position at
    /// once (value); `pause()`, `finish()` and `cancel()` change its speed (velocity). Declared
    /// by the run's ``InteractionTimeline``, not by the scene.
    case interaction
  }

  /// The layer whose presented values may change abruptly; its sublayers' geometry and opacity
  /// follow it.
  public var layerID: String
  /// The property that may, or `nil` for every property of the layer (a removal, the end of
  /// the transition).
  public var property: LayerProperty?
  /// Whether the value or only its velocity may jump.
  public var kind: Kind
  /// Why.
  public var cause: Cause

  /// Creates a discontinuity.
  public init(layerID: String, property: LayerProperty?, kind: Kind, cause: Cause) {
    self.layerID = layerID
    self.property = property
    self.kind = kind
    self.cause = cause
  }
}

extension TransitionScene {
  /// The discontinuities the scene declares between animation times `start` (excluded) and
  /// `end` (included), in seconds; empty unless `start < end`.
  ///
  /// Found by comparing each animation's state at the two times (its phase, iteration,
  /// timing-function step and keyframe segment), so a narrow interval names what lies inside
  /// it; a wide one names everything crossed. Includes the model changes of ``events`` timed
  /// in the interval and, when it contains ``duration``, ``completionDiscontinuities(_:)`` of
  /// a finish. A keyframe track with a `steps()` timing function of its own, an animation with
  /// a `linear(…)` timing function, and a path animation whose path has gaps are reported
  /// wherever they change between the two times.
  public func discontinuities(after start: Double, through end: Double)
    -> [TransitionDiscontinuity]
  {
    guard start < end else { return [] }
    var found: [TransitionDiscontinuity] = []
    for event in events where event.time > start && event.time <= end {
      found.append(event.change.discontinuity(cause: .modelChange))
    }
    for entry in animations.entries {
      let animation = entry.animation
      guard
        let (kind, cause) = animation.discontinuity(after: start, through: end)
          ?? animation.clamp(after: start, through: end)
      else { continue }
      let property = cause == .pathVertex ? nil : animation.property
      found.append(
        TransitionDiscontinuity(
          layerID: entry.layerID, property: property, kind: kind, cause: cause))
    }
    if start < duration && end >= duration {
      found += completionDiscontinuities(.finished)
    }
    return found
  }

  /// The discontinuities of the completion: each change of ``finishChanges`` or
  /// ``cancelChanges`` (value), and every layer of the model stopping (velocity).
  public func completionDiscontinuities(_ completion: TransitionCompletion)
    -> [TransitionDiscontinuity]
  {
    let changes = completion == .finished ? finishChanges : cancelChanges
    var found = changes.map { $0.discontinuity(cause: .completion) }
    for layer in model.layers {
      found.append(
        TransitionDiscontinuity(
          layerID: layer.id, property: nil, kind: .velocity, cause: .completion))
    }
    return found
  }
}

extension ModelChange {
  /// The value discontinuity this change makes.
  fileprivate func discontinuity(cause: TransitionDiscontinuity.Cause) -> TransitionDiscontinuity {
    switch self {
    case .set(let id, let property, _):
      TransitionDiscontinuity(layerID: id, property: property, kind: .value, cause: cause)
    case .remove(let id):
      TransitionDiscontinuity(layerID: id, property: nil, kind: .value, cause: cause)
    }
  }
}

extension LayerAnimation {
  /// The strongest discontinuity between parent times `start` and `end` (`start < end`), or `nil`
  /// when the animation is smooth there.
  func discontinuity(after start: Double, through end: Double) -> (
    TransitionDiscontinuity.Kind, TransitionDiscontinuity.Cause
  )? {
    let a = timing.localTime(fromParent: start)
    let b = timing.localTime(fromParent: end)
    let total = timing.activeDuration
    func phase(_ t: Double) -> MediaTiming.Phase { t < 0 ? .before : t < total ? .active : .after }
    guard phase(a) == phase(b) else { return (.velocity, .animationBoundary) }
    guard phase(a) == .active, let pa = timing.iterationProgress(atLocal: a),
      let pb = timing.iterationProgress(atLocal: b)
    else { return nil }
    if pa.iteration != pb.iteration {
      return timing.autoreverses ? (.velocity, .animationBoundary) : (.value, .repeatRestart)
    }
    if let step = timingFunction?.discontinuity(between: pa.progress, and: pb.progress) {
      return step
    }
    let ea = timingFunction?.transform(pa.progress) ?? pa.progress
    let eb = timingFunction?.transform(pb.progress) ?? pb.progress
    return content.discontinuity(between: ea, and: eb)
  }
}

extension LayerAnimation {
  /// A ``TransitionDiscontinuity/Cause/clamp`` between parent times `start` and `end`: the
  /// animated number is inside its presented range at one time and outside it at the other
  /// (`opacity` and `shadowOpacity` in `[0, 1]`; `cornerRadius`, `borderWidth`, `shadowRadius`
  /// `≥ 0`).
  func clamp(after start: Double, through end: Double) -> (
    TransitionDiscontinuity.Kind, TransitionDiscontinuity.Cause
  )? {
    let range: ClosedRange<Double>
    switch property {
    case .opacity, .shadowOpacity: range = 0...1
    case .cornerRadius, .borderWidth, .shadowRadius: range = 0...Double.infinity
    default: return nil
    }
    let compiled = CompiledAnimation(self)
    func region(_ t: Double) -> Int? {
      guard case .number(let v)? = compiled.value(atParentTime: t) else { return nil }
      return v < range.lowerBound ? -1 : v > range.upperBound ? 1 : 0
    }
    return region(start) != region(end) ? (.velocity, .clamp) : nil
  }
}

extension TimingFunction {
  /// A step (value) or a `linear(…)` stop (velocity) between inputs `x` and `y`, else `nil`.
  fileprivate func discontinuity(between x: Double, and y: Double) -> (
    TransitionDiscontinuity.Kind, TransitionDiscontinuity.Cause
  )? {
    switch self {
    case .cubicBezier: return nil
    case .steps(let steps):
      return steps.value(at: x) != steps.value(at: y) ? (.value, .steps) : nil
    case .linearPoints(let linear):
      return linear.value(at: x) != linear.value(at: y) ? (.velocity, .keyTime) : nil
    }
  }

  /// Whether this is a `steps()` function.
  fileprivate var isSteps: Bool {
    if case .steps = self { return true }
    return false
  }
}

extension LayerAnimation.Content {
  /// A keyframe or path discontinuity between eased progresses `x` and `y`, else `nil`.
  fileprivate func discontinuity(between x: Double, and y: Double) -> (
    TransitionDiscontinuity.Kind, TransitionDiscontinuity.Cause
  )? {
    switch self {
    case .basic, .spring:
      return nil
    case .keyframes(let values):
      let track = values.compiled
      let stepped =
        track.timingFunction?.isSteps == true || track.timingFunctions.contains(where: \.isSteps)
      if stepped && track.locate(x) != track.locate(y) { return (.value, .steps) }
      guard track.locate(x).segment != track.locate(y).segment else { return nil }
      return track.calculationMode == .discrete
        ? (.value, .discreteKeyframe) : (.velocity, .keyTime)
    case .path(let path):
      let track = path.locator.compiled
      guard track.locate(x).segment != track.locate(y).segment else { return nil }
      let jumps = path.segments.contains(where: \.isJump)
      if path.calculationMode == .discrete { return (.value, .discreteKeyframe) }
      return jumps || path.rotationMode != nil ? (.value, .pathVertex) : (.velocity, .keyTime)
    }
  }
}

extension KeyframeValues {
  /// The track's flat form.
  fileprivate var compiled: CompiledKeyframeTrack {
    switch self {
    case .numbers(let track): track.compiled
    case .points(let track): track.compiled
    case .sizes(let track): track.compiled
    case .rects(let track): track.compiled
    case .transforms(let track): track.compiled
    case .colors(let track): track.compiled
    case .paths(let track): track.compiled
    case .colorLists(let track): track.compiled
    case .numberLists(let track): track.compiled
    }
  }
}
