extension TransitionScene {
  /// The velocity of every layer of ``sample(at:)`` at `t` seconds from the start, in the same
  /// order as its ``TransitionSample/layers``: the time derivatives of each layer's matrix to the
  /// container (entries per second) and presented opacity (per second).
  ///
  /// Named after `UIPanGestureRecognizer.velocity(in:)`: a query beside the sample, so sampling
  /// costs nothing more when no velocity is wanted. Animation time runs at 1 s per second; once
  /// complete (`t ≥ duration`) nothing moves and every velocity is 0. Where a value is not
  /// differentiable (a keyframe time, the end of a fill, a repeat, a `steps()` jump, a model
  /// event) the derivative from the right is reported: the side time is moving to.
  ///
  /// - Throws: ``ValidationError``: `time` not finite or negative (`"time"`); a path animation
  ///   showing at `t`, a path's rotation mode, or a transform sub-path other than a translation
  ///   written over an animated transform (`"animations"`, with the animation's index), whose
  ///   velocities are not computed; on `"layers"` (with the layer's index) when a velocity
  ///   overflows `Double`.
  public func velocity(at t: Double) throws(ValidationError) -> [LayerVelocity] {
    try Validate.nonNegative(t, "time")
    return try velocity(atSceneTime: t, timeRate: 1, completion: t >= duration ? .finished : nil)
  }

  /// The velocity of every layer of ``sample(at:interaction:)`` at wall time `time`: the scene's
  /// velocity at animation time `p·duration` times `duration · dp/dt`
  /// (``InteractionTimeline/positionRate(at:)``): 0 while interacting and once complete.
  ///
  /// - Throws: as ``sample(at:interaction:)`` and ``velocity(at:)``.
  public func velocity(at time: Double, interaction: InteractionTimeline)
    throws(ValidationError) -> [LayerVelocity]
  {
    let (state, completion) = try interactionState(at: time, interaction: interaction)
    return try velocity(
      atSceneTime: state.position * duration,
      timeRate: try interaction.positionRate(at: time) * duration, completion: completion)
  }

  /// The velocities at scene time `tau` (seconds, clamped to `[0, duration]`) when scene time
  /// advances at `timeRate` (`dτ/dt`, seconds of scene time per second; 1 for a timed clock, 0
  /// for a held position): the rates of the animations at `tau` (``CompiledAnimation/rate(atParentTime:)``)
  /// through the layer tree (``LayerTree/velocities(rates:containerRates:)``), times `timeRate`. With a
  /// `completion` the presented state is fixed and every velocity is 0.
  ///
  /// - Throws: ``ValidationError``: `tau` not finite (`"time"`), `timeRate` not finite
  ///   (`"timeRate"`); on `"animations"` as ``velocity(at:)``; on `"layers"` (with the layer's
  ///   index) when a velocity overflows `Double`.
  public func velocity(
    atSceneTime tau: Double, timeRate: Double, completion: TransitionCompletion? = nil
  ) throws(ValidationError) -> [LayerVelocity] {
    try Validate.finite(tau, "time")
    try Validate.finite(timeRate, "timeRate")
    if let completion {
      return presentation(at: 0, completion: completion).layers.map {
        LayerVelocity(id: $0.id, matrix: .zero, opacity: 0)
      }
    }
    let time = min(max(tau, 0), duration)
    var tree = model
    for event in events where event.time <= time { event.change.apply(to: &tree) }
    presentContainer(in: &tree, at: time)
    var rates: PresentationRates? = PresentationRates(count: tree.count)
    let presented = animations.presentation(of: tree, at: time, rates: &rates)
    if let unsupported = rates?.unsupported { throw unsupported }
    let container = try containerRates(at: time)
    let velocities = presented.velocities(
      rates: rates?.layers ?? [], containerRates: container
    ).map {
      LayerVelocity(
        id: $0.id, matrix: $0.matrix.multiplied(by: timeRate), opacity: $0.opacity * timeRate)
    }
    for (i, v) in velocities.enumerated()
    where !(v.opacity.isFinite && v.matrix.fields.allSatisfy(\.isFinite)) {
      throw ValidationError(
        field: "layers", index: i,
        reason: .invalidState("layer '\(v.id)': its velocity overflows Double at t = \(tau) s"))
    }
    return velocities
  }
}
