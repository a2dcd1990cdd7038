/// One call made on a percent-driven interactive transition, stamped with the wall-clock time at
/// which it was made (seconds since the transition began, finite and `≥ 0`).
///
/// The calls mirror `UIPercentDrivenInteractiveTransition`: `update(_:)`, `pause()`, `finish()` and
/// `cancel()`. A history of events is turned into a timeline position by
/// ``InteractionTimeline/state(at:)``.
public enum InteractionEvent: Hashable, Sendable {
  /// `update(_ percentComplete:)` at `time`: the timeline position becomes `percent` clamped to
  /// `[0, 1]` (unitless). Pacing is linear while interacting.
  case update(time: Double, percent: Double)
  /// `pause()` at `time`: freezes the position. While interacting the position is already frozen,
  /// so this only matters for a transition that started running non-interactively
  /// (``InteractionTimeline/wantsInteractiveStart`` `== false`), which it turns interactive.
  case pause(time: Double)
  /// `finish()` at `time`: the completion run to position 1.
  case finish(time: Double)
  /// `cancel()` at `time`: the completion run back to position 0.
  case cancel(time: Double)

  /// The wall-clock time of the event, in seconds.
  @inlinable public var time: Double {
    switch self {
    case .update(let time, _), .pause(let time), .finish(let time), .cancel(let time): return time
    }
  }
}

/// The state of a percent-driven interactive transition at one moment: its timeline position and
/// whether (and how) it has completed.
///
/// The layers at that moment are the preset evaluated at animation time
/// ``position`` `· duration` (<doc:TransitionCatalog#Interactive-transitions>).
public struct InteractionState: Hashable, Sendable {
  /// What the transition is doing at the sampled moment.
  public enum Phase: String, Hashable, Sendable, CaseIterable {
    /// Running by itself at linear pacing, before any call (only when
    /// ``InteractionTimeline/wantsInteractiveStart`` is `false`).
    case running
    /// Driven by `update(_:)`: the position stays where the last update put it.
    case interacting
    /// In the completion run after `finish()`, towards position 1.
    case finishing
    /// In the completion run after `cancel()`, towards position 0.
    case cancelling
    /// The completion has fired; ``InteractionState/isFinished`` says with which flag.
    case completed
  }

  /// The timeline position `p`, unitless in `[0, 1]`; always finite.
  public var position: Double
  /// What the transition is doing.
  public var phase: Phase
  /// The flag the completion fired with (UIKit's `finished` = `!transitionWasCancelled`); `nil`
  /// until it has fired.
  public var isFinished: Bool?
  /// When the completion fires (seconds), once that is decided: from the moment a `finish()` or
  /// `cancel()` has been applied, or when a non-interactive run has reached its end. `nil` before.
  public var completionTime: Double?

  /// `true` once the completion has fired (``phase`` is ``Phase/completed``).
  @inlinable public var isCompleted: Bool { phase == .completed }

  /// Creates a state from its parts.
  @inlinable
  public init(position: Double, phase: Phase, isFinished: Bool?, completionTime: Double?) {
    self.position = position
    self.phase = phase
    self.isFinished = isFinished
    self.completionTime = completionTime
  }

}

/// The event history of a percent-driven interactive transition and the pure function from that
/// history to its state at any moment (<doc:TransitionCatalog#Interactive-transitions>).
///
/// Rules, with `D` = ``duration``, `k` = ``completionSpeed`` and `c` = ``completionCurve``:
/// - Before the first event the position is 0 (with ``wantsInteractiveStart``, the default), or
///   `min(t / D, 1)` when the transition was started non-interactively; such a run completes by
///   itself, `finished = true`, at `t = D` unless an event arrives first. Its first event freezes
///   it at `p = t / D` (an update then moves it).
/// - `update(q)` sets `p = clamp(q, 0, 1)`; the position is constant between updates (linear
///   pacing: no curve is applied while interacting).
/// - `finish()` at time `t_f` and position `p₀` starts a run of length `L = (1 − p₀) · D / k`
///   seconds: `p(t) = p₀ + (1 − p₀) · c(s)` with `s = (t − t_f) / L ∈ [0, 1)`; at `t ≥ t_f + L` the
///   completion has fired with `finished = true` and `p = 1` exactly.
/// - `cancel()` at `t_c`, `p₀`: `L = p₀ · D / k`, `p(t) = p₀ − p₀ · c(s)`; at `t ≥ t_c + L` the
///   completion has fired with `finished = false` and `p = 0` exactly.
/// - A finish at `p₀ = 1` or a cancel at `p₀ = 0` has `L = 0`: it completes at once, at the event's
///   time. So does a run whose length underflows to 0.
/// - The position is clamped to `[0, 1]` (a completion curve whose Bézier overshoots cannot push it
///   outside), so it is always finite.
///
/// Every event at `τ ≤ t` is applied by ``state(at:)``; events at the same time apply in order.
/// The history is validated as it is built: see ``append(_:)``.
public struct InteractionTimeline: Hashable, Sendable {
  /// The transition's duration `D` (the animator's `transitionDuration`), seconds, `> 0`.
  public let duration: Double
  /// `completionSpeed` `k`, unitless, `> 0` (default 1): the completion run lasts the remaining
  /// fraction of ``duration`` divided by `k`.
  public private(set) var completionSpeed: Double
  /// `completionCurve` `c` of the completion run (default ease-in-ease-out, as UIKit's
  /// `.easeInOut`). It maps the elapsed fraction `s` of the run to the fraction of the remaining
  /// distance covered.
  public private(set) var completionCurve: TimingFunction
  /// `wantsInteractiveStart` (default `true`): the transition starts paused at position 0. When
  /// `false` it starts running by itself at linear pacing (the preset's own curves still apply
  /// at `p · D`) until the first event.
  public let wantsInteractiveStart: Bool
  /// The events applied so far, in order; times are non-decreasing.
  public private(set) var events: [InteractionEvent]

  /// Creates a timeline and appends `events` one by one (see ``append(_:)``).
  ///
  /// - Parameters:
  ///   - duration: seconds, finite and `> 0`.
  ///   - completionSpeed: unitless, finite and `> 0`.
  ///   - completionCurve: any timing function.
  ///   - wantsInteractiveStart: see ``wantsInteractiveStart``.
  ///   - events: the history; an error from ``append(_:)`` carries the event's index.
  /// - Throws: ``ValidationError`` on `"duration"` or `"completionSpeed"` (not finite, not
  ///   positive), or the first error of ``append(_:)``, with `index` set to the event's position.
  public init(
    duration: Double,
    completionSpeed: Double = 1,
    completionCurve: TimingFunction = .easeInEaseOut,
    wantsInteractiveStart: Bool = true,
    events: [InteractionEvent] = []
  ) throws(ValidationError) {
    try Validate.positive(duration, "duration")
    try Validate.positive(completionSpeed, "completionSpeed")
    self.duration = duration
    self.completionSpeed = completionSpeed
    self.completionCurve = completionCurve
    self.wantsInteractiveStart = wantsInteractiveStart
    self.events = []
    self.events.reserveCapacity(events.count)
    for event in events { try append(event) }
  }

  /// The finish or cancel in the history, if any: `true` for finish.
  public var completionRequest: Bool? {
    for event in events {
      switch event {
      case .finish: return true
      case .cancel: return false
      default: continue
      }
    }
    return nil
  }

  /// Sets ``completionSpeed`` (UIKit allows it any time before the completion run starts).
  ///
  /// - Throws: ``ValidationError`` on `"completionSpeed"`: ``ValidationError/Reason/notFinite``,
  ///   ``ValidationError/Reason/notPositive`` (`≤ 0`); on `"interaction"` with
  ///   ``ValidationError/Reason/invalidState(_:)`` after a finish or cancel (the run is already
  ///   timed).
  public mutating func setCompletionSpeed(_ speed: Double) throws(ValidationError) {
    var machine = replayed(upTo: .infinity)
    try machine.setCompletionSpeed(speed)
    completionSpeed = speed
  }

  /// Sets ``completionCurve``.
  ///
  /// - Throws: ``ValidationError`` on `"interaction"` with
  ///   ``ValidationError/Reason/invalidState(_:)`` after a finish or cancel.
  public mutating func setCompletionCurve(_ curve: TimingFunction) throws(ValidationError) {
    var machine = replayed(upTo: .infinity)
    try machine.setCompletionCurve(curve)
    completionCurve = curve
  }

  /// Appends `event` to the history after validating it.
  ///
  /// - Throws: ``ValidationError`` (with `index` = the position the event would take):
  ///   - `"time"`: ``ValidationError/Reason/notFinite``, ``ValidationError/Reason/negative``, or
  ///     ``ValidationError/Reason/decreasing`` when before the previous event;
  ///   - `"percentComplete"`: ``ValidationError/Reason/notFinite`` for an update with NaN or ±∞;
  ///   - `"interaction"`: ``ValidationError/Reason/invalidState(_:)`` with
  ///     `"the transition was already finished"` or `"the transition was already cancelled"` for
  ///     any event after a finish or cancel (so a second finish or cancel, or a finish after a
  ///     cancel, or an update after completion), and `"the transition already completed"` for an
  ///     event at or after the end `t = D` of a non-interactive run;
  ///   - `"completionSpeed"`: ``ValidationError/Reason/invalidState(_:)`` for a finish or cancel
  ///     whose completion run would end at an infinite time (its length `(1 − p₀)·D/k` or
  ///     `p₀·D/k` added to the event's time overflows `Double`).
  public mutating func append(_ event: InteractionEvent) throws(ValidationError) {
    var machine = replayed(upTo: .infinity)
    do {
      try machine.apply(event)
    } catch {
      var indexed = error
      indexed.index = events.count
      throw indexed
    }
    events.append(event)
  }

  /// The state at wall-clock time `time` (seconds), applying every event at `τ ≤ time`.
  ///
  /// A pure function of the history: sampling an earlier time ignores later events, so scrubbing
  /// back undoes them.
  ///
  /// - Throws: ``ValidationError`` on `"time"`: ``ValidationError/Reason/notFinite`` or
  ///   ``ValidationError/Reason/negative``.
  public func state(at time: Double) throws(ValidationError) -> InteractionState {
    try Validate.nonNegative(time, "time")
    return replayed(upTo: time).state(at: time)
  }

  /// The machine after every event at `τ ≤ time`.
  func replayed(upTo time: Double) -> InteractionMachine {
    var machine = InteractionMachine(
      duration: duration, completionSpeed: completionSpeed, completionCurve: completionCurve,
      wantsInteractiveStart: wantsInteractiveStart)
    for event in events where event.time <= time { machine.step(event) }
    return machine
  }

  /// The length in seconds of the completion run that a finish (`finishing`) or cancel at
  /// position `p₀` starts: `(1 − p₀)·D/k` or `p₀·D/k`.
  public func completionRunDuration(from position: Double, finishing: Bool) -> Double {
    let distance = finishing ? 1 - position : position
    return distance * duration / completionSpeed
  }
}
