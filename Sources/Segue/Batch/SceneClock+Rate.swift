extension SceneClock {
  /// The rate `dτ/dt` of this clock's scene time at wall time `t` (seconds of scene time per
  /// second), for ``TransitionScene/velocity(atSceneTime:timeRate:completion:)``:
  ///
  /// * ``timed(start:speed:)``: `speed` while the scene runs (`0 ≤ τ < duration`); 0 before the
  ///   start (the state at `τ = 0` holds) and once finished. At `t = start` the derivative from
  ///   the right, `speed`.
  /// * ``position(_:)``: 0 (a held position).
  /// * ``interactive(_:start:)``: `duration ·` ``InteractionTimeline/positionRate(at:)`` at
  ///   `t − start`, 0 before the start.
  /// * ``percentDriven(start:completionSpeed:completionCurve:wantsInteractiveStart:)`` and
  ///   ``animator(timingParameters:pausesOnCompletion:scrubsLinearly:)``: their rate depends on
  ///   the calls made on the batch instance, which the clock value does not hold; read it from
  ///   ``SceneBatch/time(of:at:)`` (``SceneInstanceTime``).
  ///
  /// - Parameters:
  ///   - t: wall time, seconds (finite).
  ///   - duration: the scene's duration, seconds.
  /// - Throws: ``ValidationError`` on field `"time"` when `t` is not finite; on `"clock"` with
  ///   ``ValidationError/Reason/invalidState(_:)`` for a live clock.
  public func timeRate(at t: Double, duration: Double) throws(ValidationError) -> Double {
    try Validate.finite(t, "time")
    switch self {
    case .timed(let start, let speed):
      let tau = (t - start) * speed
      return tau >= 0 && tau < duration ? speed : 0
    case .position:
      return 0
    case .interactive(let timeline, let start):
      guard t >= start else { return 0 }
      return try timeline.positionRate(at: t - start) * duration
    case .percentDriven, .animator:
      throw ValidationError(
        field: "clock",
        reason: .invalidState(
          "a live clock's rate depends on the calls made on its instance: use SceneBatch.time(of:at:)"
        ))
    }
  }
}
