/// The state of a percent-driven transition after its latest call: the one implementation of the
/// rules of ``InteractionTimeline`` (which replays its history through it, so it can sample any
/// time) and of ``SceneBatch``'s percent-driven instances (which keep only this state, so
/// sampling at `t ≥` the latest call is `O(1)`). Times are seconds since the transition began.
struct InteractionMachine: Hashable, Sendable {
  /// `D`, seconds, `> 0`.
  let duration: Double
  /// `k`, unitless, `> 0`.
  private(set) var completionSpeed: Double
  /// `c`.
  private(set) var completionCurve: TimingFunction
  /// Whether the transition starts paused at 0 (else it runs by itself until the first call).
  let wantsInteractiveStart: Bool
  /// Whether any call has been applied.
  private(set) var hasEvents = false
  /// The time of the latest call (0 before any).
  private(set) var lastTime = 0.0
  /// The position after the latest call (before a completion run: where it starts).
  private(set) var position = 0.0
  /// `true` after `finish()`, `false` after `cancel()`.
  private(set) var request: Bool?
  /// When the completion run started.
  private(set) var runStart = 0.0

  init(
    duration: Double, completionSpeed: Double, completionCurve: TimingFunction,
    wantsInteractiveStart: Bool
  ) {
    self.duration = duration
    self.completionSpeed = completionSpeed
    self.completionCurve = completionCurve
    self.wantsInteractiveStart = wantsInteractiveStart
  }

  /// Validates `event` against the state (see ``InteractionTimeline/append(_:)``), then applies
  /// it; on error nothing changes.
  mutating func apply(_ event: InteractionEvent) throws(ValidationError) {
    let time = event.time
    try Validate.nonNegative(time, "time")
    guard time >= lastTime else { throw ValidationError(field: "time", reason: .decreasing) }
    if case .update(_, let percent) = event { try Validate.finite(percent, "percentComplete") }
    try requireNoCompletionRequest()
    if !wantsInteractiveStart && !hasEvents && time >= duration {
      throw ValidationError(
        field: "interaction", reason: .invalidState("the transition already completed"))
    }
    switch event {
    case .finish, .cancel:
      var next = self
      next.step(event)
      let end = time + next.runLength
      guard end.isFinite else {
        throw ValidationError(
          field: "completionSpeed",
          reason: .invalidState(
            "the completion run would end at infinity (\(completionSpeed) is too slow for "
              + "its start at \(time) s)"))
      }
    case .update, .pause:
      break
    }
    step(event)
  }

  /// Applies a validated `event`.
  mutating func step(_ event: InteractionEvent) {
    if !wantsInteractiveStart && !hasEvents { position = Swift.min(event.time / duration, 1) }
    hasEvents = true
    lastTime = event.time
    switch event {
    case .update(_, let percent): position = Swift.min(Swift.max(percent, 0), 1)
    case .pause: break
    case .finish(let time):
      request = true
      runStart = time
    case .cancel(let time):
      request = false
      runStart = time
    }
  }

  /// Sets `k` (before a finish or cancel only).
  mutating func setCompletionSpeed(_ speed: Double) throws(ValidationError) {
    try Validate.positive(speed, "completionSpeed")
    try requireNoCompletionRequest()
    completionSpeed = speed
  }

  /// Sets `c` (before a finish or cancel only).
  mutating func setCompletionCurve(_ curve: TimingFunction) throws(ValidationError) {
    try requireNoCompletionRequest()
    completionCurve = curve
  }

  /// The completion run's length `L`: `(1 − p₀)·D/k` finishing, `p₀·D/k` cancelling.
  var runLength: Double {
    let distance = request == true ? 1 - position : position
    return distance * duration / completionSpeed
  }

  /// The wall time the completion fires, once decided: the end of the completion run, or `D`
  /// for a non-interactive start with no call yet.
  var completionTime: Double? {
    if request != nil { return runStart + runLength }
    return !wantsInteractiveStart && !hasEvents ? duration : nil
  }

  /// The state at `time ≥` ``lastTime``.
  func state(at time: Double) -> InteractionState {
    if let finishing = request {
      let length = runLength
      let end = runStart + length
      if time >= end || !(length > 0) {
        return InteractionState(
          position: finishing ? 1 : 0, phase: .completed, isFinished: finishing,
          completionTime: end)
      }
      let eased = completionCurve.transform((time - runStart) / length)
      let p0 = position
      let raw = finishing ? p0 + (1 - p0) * eased : p0 - p0 * eased
      return InteractionState(
        position: raw.isFinite ? Swift.min(Swift.max(raw, 0), 1) : (finishing ? 1 : 0),
        phase: finishing ? .finishing : .cancelling, isFinished: nil, completionTime: end)
    }
    if !wantsInteractiveStart && !hasEvents {
      if time >= duration {
        return InteractionState(
          position: 1, phase: .completed, isFinished: true, completionTime: duration)
      }
      return InteractionState(
        position: time / duration, phase: .running, isFinished: nil, completionTime: nil)
    }
    return InteractionState(
      position: position, phase: .interacting, isFinished: nil, completionTime: nil)
  }

  /// `dp/dt` at `time` (per second): `1/D` running by itself, 0 interacting or completed, and in a
  /// completion run `±(distance)·c′(s)/L` with `c′` a central difference over `s ± 10⁻⁶`.
  func positionRate(at time: Double) -> Double {
    if let finishing = request {
      let length = runLength
      guard length > 0, time < runStart + length else { return 0 }
      let s = (time - runStart) / length
      let h = 1e-6
      let slope =
        (completionCurve.transform(Swift.min(s + h, 1))
          - completionCurve.transform(Swift.max(s - h, 0)))
        / (Swift.min(s + h, 1) - Swift.max(s - h, 0))
      return finishing ? (1 - position) * slope / length : -position * slope / length
    }
    if !wantsInteractiveStart && !hasEvents { return time < duration ? 1 / duration : 0 }
    return 0
  }

  private func requireNoCompletionRequest() throws(ValidationError) {
    switch request {
    case .some(true):
      throw ValidationError(
        field: "interaction", reason: .invalidState("the transition was already finished"))
    case .some(false):
      throw ValidationError(
        field: "interaction", reason: .invalidState("the transition was already cancelled"))
    case .none:
      return
    }
  }
}
