extension InteractionTimeline {
  /// The rate of the timeline position at wall time `time`: `dp/dt` per second
  /// (``InteractionState/position``), the `dτ/dt` of an interactive transition divided by its
  /// duration.
  ///
  /// * ``InteractionState/Phase/running``: `1 / duration`.
  /// * ``InteractionState/Phase/interacting``: 0 (updates move the position in jumps; between
  ///   them it holds).
  /// * ``InteractionState/Phase/finishing`` / ``InteractionState/Phase/cancelling``: the
  ///   completion run `p = p₀ ± (1 − p₀ | p₀)·E(s)`, `s = (t − start)/L`, moves at
  ///   `±(1 − p₀ | p₀)·E′(s)/L` (``TimingFunction/slope(at:)`` of ``completionCurve``); 0 where
  ///   an overshooting curve's position is clamped to `[0, 1]`.
  /// * ``InteractionState/Phase/completed``: 0.
  ///
  /// At an event's time the state after the event applies (the derivative from the right).
  ///
  /// - Throws: ``ValidationError`` on field `"time"` when `time` is not finite or negative.
  public func positionRate(at time: Double) throws(ValidationError) -> Double {
    let state = try state(at: time)
    switch state.phase {
    case .running: return 1 / duration
    case .interacting, .completed: return 0
    case .finishing, .cancelling:
      guard let last = events.last else { return 0 }
      let finishing = state.phase == .finishing
      let start = last.time
      let earlier = try InteractionTimeline(
        duration: duration, completionSpeed: completionSpeed, completionCurve: completionCurve,
        wantsInteractiveStart: wantsInteractiveStart, events: Array(events.dropLast()))
      let p0 = try earlier.state(at: start).position
      let length = completionRunDuration(from: p0, finishing: finishing)
      guard length > 0 else { return 0 }
      let s = (time - start) / length
      let distance = finishing ? 1 - p0 : -p0
      let raw = (finishing ? p0 : p0) + distance * completionCurve.transform(s)
      guard raw >= 0, raw <= 1 else { return 0 }
      return distance * completionCurve.slope(at: s) / length
    }
  }
}
