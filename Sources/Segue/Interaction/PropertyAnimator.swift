/// `UIViewAnimatingState`: the life cycle of a ``PropertyAnimator``.
public enum AnimatingState: String, Hashable, Sendable, CaseIterable {
  /// Not started, or over (after completion or a stop without finishing).
  case inactive
  /// Started: running, or paused.
  case active
  /// Stopped with `stopAnimation(false)`: waiting for `finishAnimation(at:)`.
  case stopped
}

/// `UIViewAnimatingPosition`: where the animations ended.
public enum AnimatingPosition: String, Hashable, Sendable, CaseIterable {
  /// At the end values (progress 1).
  case end
  /// At the start values (progress 0).
  case start
  /// Wherever they were when stopped.
  case current
}

/// One call made on a ``PropertyAnimator``, stamped with its wall-clock time (seconds since the
/// animator was created, finite, `≥ 0`, non-decreasing along a history).
public enum AnimatorEvent: Hashable, Sendable {
  /// `startAnimation()`.
  case start(time: Double)
  /// `startAnimation(afterDelay: delay)`: as ``start(time:)``, but the fraction stays where it is
  /// until `time + delay` (`delay` in seconds, finite, `≥ 0`).
  case startAfterDelay(time: Double, delay: Double)
  /// `pauseAnimation()`.
  case pause(time: Double)
  /// `stopAnimation(_ withoutFinishing:)`.
  case stop(time: Double, withoutFinishing: Bool)
  /// `finishAnimation(at:)`.
  case finish(time: Double, position: AnimatingPosition)
  /// `fractionComplete = fraction`.
  case setFractionComplete(time: Double, fraction: Double)
  /// `isReversed = reversed`.
  case setReversed(time: Double, reversed: Bool)
  /// `pausesOnCompletion = value`.
  case setPausesOnCompletion(time: Double, value: Bool)
  /// `scrubsLinearly = value`.
  case setScrubsLinearly(time: Double, value: Bool)
  /// `continueAnimation(withTimingParameters:durationFactor:)`; `timing == nil` keeps the
  /// current curve.
  case continueAnimation(time: Double, timing: TimingCurveProvider?, durationFactor: Double)

  /// The wall-clock time of the call, in seconds.
  public var time: Double {
    switch self {
    case .start(let time), .startAfterDelay(let time, _), .pause(let time), .stop(let time, _),
      .finish(let time, _),
      .setFractionComplete(let time, _), .setReversed(let time, _),
      .setPausesOnCompletion(let time, _), .setScrubsLinearly(let time, _),
      .continueAnimation(let time, _, _):
      return time
    }
  }
}

/// The state of a ``PropertyAnimator`` at one moment.
public struct AnimatorSample: Hashable, Sendable {
  /// `state`.
  public var state: AnimatingState
  /// `isRunning`: active and not paused.
  public var isRunning: Bool
  /// `isReversed`.
  public var isReversed: Bool
  /// `fractionComplete`: the **time** fraction `f ∈ [0, 1]` (unitless), linear in wall time
  /// while running.
  public var fractionComplete: Double
  /// The eased progress `q` the animated properties show (0 = start values, 1 = end values);
  /// finite, and outside `[0, 1]` only when the timing curve overshoots.
  public var progress: Double
  /// `dq/dt`, per second: how fast ``progress`` changes at this moment, analytic (the timing
  /// curve's slope times `±1/duration`); 0 unless running, and while a start delay holds.
  public var progressRate: Double
  /// The position the completion reported, once it has fired; `nil` before, and forever after a
  /// stop without finishing (which runs no completion).
  public var completion: AnimatingPosition?
  /// When the completion fired, in seconds; `nil` until then.
  public var completionTime: Double?
}

/// The completion of a ``PropertyAnimator``, delivered once by ``PropertyAnimator/advance(to:)``.
public struct AnimatorCompletionEvent: Hashable, Sendable {
  /// The final position handed to the completion handlers.
  public var position: AnimatingPosition
  /// When it fired, in seconds.
  public var time: Double

  /// Creates a completion event.
  @inlinable public init(position: AnimatingPosition, time: Double) {
    self.position = position
    self.time = time
  }
}

/// `UIViewPropertyAnimator` reduced to its timing: a time fraction `f ∈ [0, 1]` that moves
/// linearly in wall time while running (`1/D` per second for the duration `D` in seconds), and
/// the eased progress `q = g(f)` the views show, where `g` is the timing curve laid from the last
/// point the animator was re-timed at. ``ViewPropertyAnimator`` adds the animations it drives.
///
/// Every call takes the wall-clock time it is made at (seconds, finite, `≥ 0`, not before
/// ``currentTime``) and is recorded; ``sample(at:)`` evaluates the history at any time, earlier
/// ones included. The progress map, springs, reversal (of time, not value), scrubbing, completion
/// and delays are specified in <doc:PropertyAnimatorTiming>.
public struct PropertyAnimator: Hashable, Sendable {
  /// `duration` `D`, seconds, `> 0`: as given, or a physical spring's settling duration.
  public let duration: Double
  /// `timingParameters`: the timing curve the animator was created with.
  public let timingParameters: TimingCurveProvider
  /// The calls recorded so far, in order.
  public private(set) var events: [AnimatorEvent]
  /// The clock: the time of the latest call or ``advance(to:)``, in seconds.
  public private(set) var currentTime: Double
  /// How many times ``advance(to:)`` delivered the completion: 0, then at most 1.
  public private(set) var completionCount: Int
  /// `checkpoints[i]` is the machine just after `events[i − 1]`; `checkpoints[0]` the initial one.
  private var checkpoints: [AnimatorMachine]
  /// The knots the calls replaced, oldest first: `checkpoints[i]`'s earlier knots are the first
  /// `earlierKnotCounts[i]`.
  private var replacedKnots: [AnimatorKnot] = []
  private var earlierKnotCounts: [Int] = [0]

  /// Creates an inactive animator.
  ///
  /// - Parameters:
  ///   - duration: seconds, finite and `> 0`; with a physical spring, whose settling duration
  ///     becomes ``duration``, it is ignored and may be 0 (`init(duration: 0, timingParameters:)`
  ///     as UIKit code writes it), but not negative.
  ///   - timingParameters: the timing curve (default ease-in-ease-out, UIKit's `.easeInOut`).
  ///   - pausesOnCompletion: default `false`.
  ///   - scrubsLinearly: default `true`.
  /// - Throws: ``ValidationError`` on `"duration"` (not finite; not positive, or negative with a
  ///   physical spring).
  public init(
    duration: Double,
    timingParameters: TimingCurveProvider = .easeInEaseOut,
    pausesOnCompletion: Bool = false,
    scrubsLinearly: Bool = true
  ) throws(ValidationError) {
    if timingParameters.ignoresDuration {
      try Validate.nonNegative(duration, "duration")
    } else {
      try Validate.positive(duration, "duration")
    }
    let length = timingParameters.runLength(forDuration: duration)
    try Validate.positive(length, "duration")
    self.duration = length
    self.timingParameters = timingParameters
    events = []
    currentTime = 0
    completionCount = 0
    checkpoints = [
      AnimatorMachine(
        duration: length, curve: timingParameters, pausesOnCompletion: pausesOnCompletion,
        scrubsLinearly: scrubsLinearly)
    ]
  }

  /// Creates an animator and applies `events` in order.
  ///
  /// - Throws: as `init(duration:timingParameters:pausesOnCompletion:scrubsLinearly:)`, then the
  ///   first error of ``apply(_:)`` with `index` set to the event's position in `events`.
  public init(
    duration: Double,
    timingParameters: TimingCurveProvider = .easeInEaseOut,
    pausesOnCompletion: Bool = false,
    scrubsLinearly: Bool = true,
    events: [AnimatorEvent]
  ) throws(ValidationError) {
    try self.init(
      duration: duration, timingParameters: timingParameters,
      pausesOnCompletion: pausesOnCompletion, scrubsLinearly: scrubsLinearly)
    for (index, event) in events.enumerated() {
      do {
        try apply(event)
      } catch {
        var indexed = error
        indexed.index = index
        throw indexed
      }
    }
  }

  // MARK: Current state

  /// The state at ``currentTime``.
  public var current: AnimatorSample { machine(at: currentTime).sample }
  /// `state` at ``currentTime``.
  public var state: AnimatingState { current.state }
  /// `isRunning` at ``currentTime``.
  public var isRunning: Bool { current.isRunning }
  /// `isReversed` at ``currentTime``.
  public var isReversed: Bool { current.isReversed }
  /// `fractionComplete` (time fraction) at ``currentTime``.
  public var fractionComplete: Double { current.fractionComplete }
  /// The eased progress at ``currentTime``.
  public var progress: Double { current.progress }
  /// `pausesOnCompletion` as last set.
  public var pausesOnCompletion: Bool { checkpoints[checkpoints.count - 1].pausesOnCompletion }
  /// `scrubsLinearly` as last set.
  public var scrubsLinearly: Bool { checkpoints[checkpoints.count - 1].scrubsLinearly }
  /// `delay`: the delay of the latest ``startAnimation(afterDelay:at:)``, seconds (0 before).
  public var delay: Double { checkpoints[checkpoints.count - 1].delay }

  /// The state at wall-clock time `time`, from the calls at `τ ≤ time`.
  ///
  /// - Throws: ``ValidationError`` on `"time"`: not finite or negative.
  public func sample(at time: Double) throws(ValidationError) -> AnimatorSample {
    try Validate.nonNegative(time, "time")
    return machine(at: time).sample
  }

  /// The eased progress at wall-clock time `time` of animations that start when the fraction
  /// reaches `start` and end with the animator (`addAnimations(_:delayFactor:)` added at a
  /// fraction `f` with a delay gives `start = f + delayFactor·(1 − f)`).
  ///
  /// Such animations see the local fraction `φ = (f − start)/(1 − start)`, clamped to `[0, 1]`
  /// (`φ = 1` once `f` reaches the end, even when `start = 1`), and the animator's map with
  /// every knot moved into that local fraction: a knot laid at `(f₀, ·)` becomes
  /// `(φ(f₀), q_b(φ(f₀)))` with the run lengths `(1 − max(f₀, start))/r` forwards and
  /// `(f₀ − start)/r` backwards. With `start = 0` this is ``AnimatorSample/progress``. A linear
  /// scrub shows `φ`; a stopped animator shows the progress where it stopped; a finished or
  /// completed one exactly 0 or 1.
  ///
  /// - Parameters:
  ///   - time: seconds, finite, `≥ 0`.
  ///   - start: unitless fraction in `[0, 1]`.
  /// - Throws: ``ValidationError``: `"time"` (not finite or negative); `"start"` (not finite or
  ///   outside `[0, 1]`).
  public func progress(at time: Double, startingAt start: Double) throws(ValidationError)
    -> Double
  {
    try Validate.nonNegative(time, "time")
    try Validate.inRange(start, 0, 1, "start")
    let index = checkpointIndex(at: time)
    var machine = checkpoints[index]
    machine.advance(to: time)
    return machine.progress(
      blockStart: start, earlier: replacedKnots[..<earlierKnotCounts[index]])
  }

  // MARK: Calls

  /// `startAnimation()` at `time`: an inactive animator becomes active and runs from `f = 0`
  /// (`f = 1` if reversed); a paused one resumes (re-timing after a linear scrub); a running one
  /// is unchanged.
  ///
  /// - Throws: ``ValidationError``: `"time"` (not finite, negative, ``ValidationError/Reason/decreasing``),
  ///   `"animator"` ``ValidationError/Reason/invalidState(_:)`` when stopped or over.
  public mutating func startAnimation(at time: Double) throws(ValidationError) {
    try apply(.start(time: time))
  }

  /// `startAnimation(afterDelay:)` at `time`: as ``startAnimation(at:)``, with `f` held until
  /// `time + delay`.
  ///
  /// - Throws: as ``startAnimation(at:)``; `"delay"` not finite or negative.
  public mutating func startAnimation(afterDelay delay: Double, at time: Double)
    throws(ValidationError)
  {
    try apply(.startAfterDelay(time: time, delay: delay))
  }

  /// `pauseAnimation()` at `time`: freezes `f`; an inactive animator becomes active and paused.
  ///
  /// - Throws: as ``startAnimation(at:)``.
  public mutating func pauseAnimation(at time: Double) throws(ValidationError) {
    try apply(.pause(time: time))
  }

  /// `stopAnimation(_:)` at `time`: the views keep their current values; with
  /// `withoutFinishing` the animator becomes inactive and no completion ever runs, otherwise it
  /// becomes ``AnimatingState/stopped`` and waits for ``finishAnimation(at:time:)``.
  ///
  /// - Throws: as ``startAnimation(at:)``; `"animator"` ``ValidationError/Reason/invalidState(_:)``
  ///   unless active.
  public mutating func stopAnimation(withoutFinishing: Bool, at time: Double)
    throws(ValidationError)
  {
    try apply(.stop(time: time, withoutFinishing: withoutFinishing))
  }

  /// `finishAnimation(at:)` at `time`: a stopped animator completes with `position` (`.end` shows
  /// `q = f = 1`, `.start` `q = f = 0`, `.current` keeps the stopped values).
  ///
  /// - Throws: as ``startAnimation(at:)``; `"animator"` ``ValidationError/Reason/invalidState(_:)``
  ///   unless stopped.
  public mutating func finishAnimation(at position: AnimatingPosition, time: Double)
    throws(ValidationError)
  {
    try apply(.finish(time: time, position: position))
  }

  /// Sets `fractionComplete` at `time`; `fraction` must be in `[0, 1]` (UIKit clamps; Segue
  /// rejects, in the scalar types and the batch alike, so a gesture's overshoot is caught where it
  /// happens).
  ///
  /// - Throws: ``ValidationError``: `"fractionComplete"` ``ValidationError/Reason/notFinite`` or
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` `(0, 1)`;
  ///   `"fractionComplete"` ``ValidationError/Reason/invalidState(_:)`` unless active and paused;
  ///   the time errors of ``startAnimation(at:)``.
  public mutating func setFractionComplete(_ fraction: Double, at time: Double)
    throws(ValidationError)
  {
    try apply(.setFractionComplete(time: time, fraction: fraction))
  }

  /// Sets `isReversed` at `time`; while running the direction changes at once, from the current
  /// fraction (time reversal).
  ///
  /// - Throws: the time errors; `"animator"` ``ValidationError/Reason/invalidState(_:)`` when
  ///   stopped or over.
  public mutating func setReversed(_ reversed: Bool, at time: Double) throws(ValidationError) {
    try apply(.setReversed(time: time, reversed: reversed))
  }

  /// Sets `pausesOnCompletion` at `time`.
  ///
  /// - Throws: the time errors; `"animator"` ``ValidationError/Reason/invalidState(_:)`` when over.
  public mutating func setPausesOnCompletion(_ value: Bool, at time: Double)
    throws(ValidationError)
  {
    try apply(.setPausesOnCompletion(time: time, value: value))
  }

  /// Sets `scrubsLinearly` at `time`.
  ///
  /// - Throws: the time errors; `"animator"` ``ValidationError/Reason/invalidState(_:)`` when over.
  public mutating func setScrubsLinearly(_ value: Bool, at time: Double) throws(ValidationError) {
    try apply(.setScrubsLinearly(time: time, value: value))
  }

  /// `continueAnimation(withTimingParameters:durationFactor:)` at `time`, on a paused animator:
  /// resumes it towards the end it currently heads for (`.end`, or `.start` when reversed).
  ///
  /// **What the factor scales (this project's choice; Apple says only that it "is multiplied by
  /// the original duration to obtain the new duration").** The *remaining* run lasts
  /// `L = durationFactor · D` seconds, whatever fraction is left: `f` moves at
  /// `|target − f₀| / L` per second from now on (also after later reversals, until the next
  /// `continueAnimation`). So `durationFactor = 1` on an animator paused half way takes a full
  /// `D` for the second half. A physical spring (``SpringTimingParameters/ignoresDuration``)
  /// ignores the factor as it ignores durations: `L` is its settling duration. If nothing is
  /// left (`f₀` is already at the target) the rate is kept and the run ends at once.
  ///
  /// With `timing` non-`nil` the animator is re-timed at `(f₀, g(f₀))` with that curve (the
  /// progress map of <doc:PropertyAnimatorTiming>); with `nil` the current map is kept (re-timed
  /// with the current curve only after a linear scrub).
  ///
  /// - Parameters:
  ///   - timing: the new curve, or `nil`.
  ///   - durationFactor: unitless, finite and `> 0`.
  ///   - time: the wall-clock time of the call, seconds.
  /// - Throws: ``ValidationError``: `"durationFactor"` (not finite, not positive); `"animator"`
  ///   ``ValidationError/Reason/invalidState(_:)`` unless active and paused; the time errors.
  public mutating func continueAnimation(
    withTimingParameters timing: TimingCurveProvider?, durationFactor: Double, at time: Double
  ) throws(ValidationError) {
    try apply(.continueAnimation(time: time, timing: timing, durationFactor: durationFactor))
  }

  /// Validates `event` against the state at its time, records it and moves the clock there.
  ///
  /// - Throws: the errors of the matching method above (with `index == nil`); `"time"`
  ///   ``ValidationError/Reason/decreasing`` when before ``currentTime``.
  public mutating func apply(_ event: AnimatorEvent) throws(ValidationError) {
    try checkClock(event.time)
    var next = machine(at: event.time)
    if let replaced = try next.apply(event) { replacedKnots.append(replaced) }
    events.append(event)
    checkpoints.append(next)
    earlierKnotCounts.append(replacedKnots.count)
    currentTime = event.time
  }

  /// Checks `event` as ``apply(_:)`` would, without recording it.
  func check(_ event: AnimatorEvent) throws(ValidationError) {
    try checkClock(event.time)
    var next = machine(at: event.time)
    try next.apply(event)
  }

  /// Throws unless the animator at `time` is still open to new animations: not stopped and not
  /// over (completed, or stopped without finishing).
  func requireOpen(at time: Double, for call: String) throws(ValidationError) {
    try checkClock(time)
    let m = machine(at: time)
    guard m.ending == nil else {
      throw ValidationError(
        field: "animator", reason: .invalidState("\(call): the animator is over"))
    }
    guard m.state != .stopped else {
      throw ValidationError(
        field: "animator", reason: .invalidState("\(call): the animator is stopped"))
    }
  }

  /// Moves the clock to `time`; returns the completion the first time the clock has passed it
  /// (with the exact time it fired), else `nil`. Never returns non-`nil` twice.
  ///
  /// - Throws: ``ValidationError`` on `"time"` (not finite, negative, before ``currentTime``).
  public mutating func advance(to time: Double) throws(ValidationError) -> AnimatorCompletionEvent?
  {
    try checkClock(time)
    currentTime = time
    guard completionCount == 0 else { return nil }
    let sample = machine(at: time).sample
    guard let position = sample.completion, let when = sample.completionTime else { return nil }
    completionCount += 1
    return AnimatorCompletionEvent(position: position, time: when)
  }

  private func checkClock(_ time: Double) throws(ValidationError) {
    try Validate.nonNegative(time, "time")
    guard time >= currentTime else { throw ValidationError(field: "time", reason: .decreasing) }
  }

  /// The machine after every event at `τ ≤ time`, advanced to `time`.
  private func machine(at time: Double) -> AnimatorMachine {
    var machine = checkpoints[checkpointIndex(at: time)]
    machine.advance(to: time)
    return machine
  }

  /// The index of the checkpoint after every event at `τ ≤ time`.
  private func checkpointIndex(at time: Double) -> Int {
    var index = events.count
    while index > 0 && events[index - 1].time > time { index -= 1 }
    return index
  }
}
