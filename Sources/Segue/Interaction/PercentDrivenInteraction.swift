/// The completion of a transition, delivered once: `isFinished = !cancelled`, at `time` (seconds).
public struct TransitionCompletionEvent: Hashable, Sendable {
  /// `true` when the transition finished, `false` when it was cancelled (UIKit's `finished`).
  public var isFinished: Bool
  /// The wall-clock time at which the completion fired, in seconds.
  public var time: Double

  /// Creates a completion event.
  @inlinable public init(isFinished: Bool, time: Double) {
    self.isFinished = isFinished
    self.time = time
  }

}

/// `UIPercentDrivenInteractiveTransition` as a value: the calls a gesture handler makes, each at a
/// wall-clock time, and the completion delivered exactly once
/// (<doc:TransitionCatalog#Interactive-transitions>).
///
/// The object keeps a clock, ``currentTime`` (seconds since the transition began, starting at 0):
/// every call takes the time it is made at, which must be finite, `≥ 0` and not before the clock;
/// the call moves the clock there. The state at any moment is the pure function
/// ``InteractionTimeline/state(at:)`` of the recorded history (``timeline``); see there for the
/// formulas. ``advance(to:)`` moves the clock without a call and returns the completion the first
/// time the clock reaches it, so a display-link loop that advances and calls as the user drags
/// sees exactly one completion, with `finished = !cancelled`.
///
/// Errors (all ``ValidationError``, with `index == nil`): see ``update(_:at:)``.
public struct PercentDrivenInteraction: Hashable, Sendable {
  /// The recorded history and its settings.
  public private(set) var timeline: InteractionTimeline
  /// The clock: the time of the latest call or ``advance(to:)``, in seconds.
  public private(set) var currentTime: Double
  /// How many times the completion has been delivered by ``advance(to:)``: 0, then 1 forever.
  public private(set) var completionCount: Int

  /// Creates an interaction for an animator whose `transitionDuration` is `duration` seconds.
  ///
  /// - Parameters:
  ///   - duration: seconds, finite and `> 0`.
  ///   - completionSpeed: unitless, finite and `> 0` (default 1).
  ///   - completionCurve: the curve of the completion run (default ease-in-ease-out).
  ///   - wantsInteractiveStart: `true` (default) starts paused at position 0.
  /// - Throws: ``ValidationError`` on `"duration"` or `"completionSpeed"`.
  public init(
    duration: Double,
    completionSpeed: Double = 1,
    completionCurve: TimingFunction = .easeInEaseOut,
    wantsInteractiveStart: Bool = true
  ) throws(ValidationError) {
    timeline = try InteractionTimeline(
      duration: duration, completionSpeed: completionSpeed, completionCurve: completionCurve,
      wantsInteractiveStart: wantsInteractiveStart)
    currentTime = 0
    completionCount = 0
  }

  /// `duration`: the animator's transition duration, seconds.
  @inlinable public var duration: Double { timeline.duration }
  /// `completionSpeed`, unitless, `> 0`.
  @inlinable public var completionSpeed: Double { timeline.completionSpeed }
  /// `completionCurve` of the completion run.
  @inlinable public var completionCurve: TimingFunction { timeline.completionCurve }

  /// `percentComplete`: the timeline position at ``currentTime``, unitless in `[0, 1]`.
  public var percentComplete: Double {
    // currentTime is always finite and ≥ 0, so the query cannot fail.
    (try? timeline.state(at: currentTime))?.position ?? 0
  }

  /// The state at ``currentTime``.
  public var currentState: InteractionState {
    (try? timeline.state(at: currentTime))
      ?? InteractionState(position: 0, phase: .interacting, isFinished: nil, completionTime: nil)
  }

  /// The state at any wall-clock time (earlier or later than ``currentTime``), from the history
  /// recorded so far. See ``InteractionTimeline/state(at:)``.
  ///
  /// - Throws: ``ValidationError`` on `"time"` (not finite, negative).
  public func state(at time: Double) throws(ValidationError) -> InteractionState {
    try timeline.state(at: time)
  }

  /// Sets `completionSpeed`; allowed until `finish()` or `cancel()`.
  ///
  /// - Throws: ``ValidationError`` on `"completionSpeed"` (not finite, `≤ 0`) or on
  ///   `"interaction"` (``ValidationError/Reason/invalidState(_:)``) after a finish or cancel.
  public mutating func setCompletionSpeed(_ speed: Double) throws(ValidationError) {
    try timeline.setCompletionSpeed(speed)
  }

  /// Sets `completionCurve`; allowed until `finish()` or `cancel()`.
  ///
  /// - Throws: ``ValidationError`` on `"interaction"` after a finish or cancel.
  public mutating func setCompletionCurve(_ curve: TimingFunction) throws(ValidationError) {
    try timeline.setCompletionCurve(curve)
  }

  /// `update(_ percentComplete:)` at `time`: the position becomes `percent` clamped to `[0, 1]`.
  ///
  /// - Throws: ``ValidationError`` with `index == nil`:
  ///   - `"time"`: ``ValidationError/Reason/notFinite``, ``ValidationError/Reason/negative``, or
  ///     ``ValidationError/Reason/decreasing`` when before ``currentTime``;
  ///   - `"percentComplete"`: ``ValidationError/Reason/notFinite``;
  ///   - `"interaction"`: ``ValidationError/Reason/invalidState(_:)`` after a finish or cancel,
  ///     or after a non-interactive start has completed by itself.
  public mutating func update(_ percent: Double, at time: Double) throws(ValidationError) {
    try record(.update(time: time, percent: percent))
  }

  /// `pause()` at `time`: freezes the position (turns a non-interactive start interactive).
  ///
  /// - Throws: as ``update(_:at:)`` (except the percent check).
  public mutating func pause(at time: Double) throws(ValidationError) {
    try record(.pause(time: time))
  }

  /// `finish()` at `time`: runs to position 1 over `(1 − p₀)·duration/completionSpeed` seconds
  /// along `completionCurve`; at `p₀ = 1` completes at once.
  ///
  /// - Throws: as ``update(_:at:)``; a second finish, or a finish after a cancel, is
  ///   ``ValidationError/Reason/invalidState(_:)`` on `"interaction"`.
  public mutating func finish(at time: Double) throws(ValidationError) {
    try record(.finish(time: time))
  }

  /// `cancel()` at `time`: runs back to position 0 over `p₀·duration/completionSpeed` seconds
  /// along `completionCurve`; at `p₀ = 0` completes at once.
  ///
  /// - Throws: as ``finish(at:)``.
  public mutating func cancel(at time: Double) throws(ValidationError) {
    try record(.cancel(time: time))
  }

  /// Moves the clock to `time` and returns the completion if it has fired by then and was not
  /// delivered before; otherwise `nil`. Over the life of the value it returns non-`nil` at most
  /// once (``completionCount`` counts it), with `finished = !cancelled` and the exact time the
  /// completion fired (which may be earlier than `time`).
  ///
  /// - Throws: ``ValidationError`` on `"time"`: not finite, negative, or
  ///   ``ValidationError/Reason/decreasing`` when before ``currentTime``.
  public mutating func advance(to time: Double) throws(ValidationError)
    -> TransitionCompletionEvent?
  {
    try checkClock(time)
    currentTime = time
    guard completionCount == 0 else { return nil }
    let state = try timeline.state(at: time)
    guard state.isCompleted, let finished = state.isFinished, let when = state.completionTime else {
      return nil
    }
    completionCount += 1
    return TransitionCompletionEvent(isFinished: finished, time: when)
  }

  private func checkClock(_ time: Double) throws(ValidationError) {
    try Validate.nonNegative(time, "time")
    guard time >= currentTime else {
      throw ValidationError(field: "time", reason: .decreasing)
    }
  }

  private mutating func record(_ event: InteractionEvent) throws(ValidationError) {
    try checkClock(event.time)
    do {
      try timeline.append(event)
    } catch {
      var plain = error
      plain.index = nil
      throw plain
    }
    currentTime = event.time
  }
}
