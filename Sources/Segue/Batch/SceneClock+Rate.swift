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
  ///
  /// - Parameters:
  ///   - t: wall time, seconds (finite).
  ///   - duration: the scene's duration, seconds.
  /// - Throws: ``ValidationError`` on field `"time"` when `t` is not finite.
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
    }
  }
}
