/// A point where the progress map was (re-)laid: the fraction `f₀`, the progress `q₀` the
/// animator showed there, the curve laid from it to each end and the fraction's rate then.
struct AnimatorKnot: Hashable, Sendable {
  var fraction: Double
  var progress: Double
  var curve: TimingCurveProvider
  /// Per second, `> 0`; sets the run lengths a spring curve needs.
  var rate: Double

  /// `dq/dφ` of ``value(_:phi0:q0:start:)`` at `phi` for animations starting at 0: on the side
  /// the fraction moves to at the knot itself (`forward`: increasing).
  ///
  /// `(1 − q₀)·e′(s)/(1 − φ₀)` after the knot, `q₀·e′(s)/φ₀` before it, with `e′` the curve's
  /// ``TimingCurveProvider/slope(atElapsed:runLength:)`` and `s` the elapsed fraction of the run.
  func slope(_ phi: Double, phi0: Double, q0: Double, forward: Bool) -> Double {
    if phi > phi0 || (phi == phi0 && forward) {
      guard phi0 < 1 else { return 0 }
      let length = (1 - Swift.max(fraction, 0)) / rate
      let e = curve.slope(atElapsed: (phi - phi0) / (1 - phi0), runLength: length)
      return (1 - q0) * e / (1 - phi0)
    }
    guard phi0 > 0 else { return 0 }
    let length = fraction / rate
    return q0 * curve.slope(atElapsed: (phi0 - phi) / phi0, runLength: length) / phi0
  }

  /// The map at local fraction `phi`, for animations starting at fraction `start`: the knot is
  /// at local `phi0` with progress `q0`.
  func value(_ phi: Double, phi0: Double, q0: Double, start: Double) -> Double {
    if phi >= phi0 {
      guard phi0 < 1 else { return q0 }
      let length = (1 - Swift.max(fraction, start)) / rate
      return q0 + (1 - q0) * curve.progress(atElapsed: (phi - phi0) / (1 - phi0), runLength: length)
    }
    let length = (fraction - start) / rate
    return q0 - q0 * curve.progress(atElapsed: (phi0 - phi) / phi0, runLength: length)
  }
}

/// The animator's state at its anchor time: the one implementation of the
/// `UIViewPropertyAnimator` timing rules, used by ``PropertyAnimator`` (which keeps one machine
/// per call, so it can sample any time) and by ``SceneBatch`` (which keeps only the current
/// machine per instance). Evaluating a copy at `t ≥ time` is `O(1)`; only
/// ``progress(blockStart:earlier:)`` with `start > 0` reads the earlier knots, which the caller
/// keeps (every call that re-lays the map returns the knot it replaced).
struct AnimatorMachine: Hashable, Sendable {
  enum Ending: Hashable, Sendable {
    case completed(AnimatingPosition, time: Double)
    case stoppedWithoutFinishing
  }

  /// What the views show once the progress no longer follows the map.
  enum Frozen: Hashable, Sendable {
    /// Stopped: the map's value at the stopped fraction (per animation start).
    case atFraction
    /// Finished or completed at one end: exactly this progress for every animation.
    case value(Double)
  }

  let duration: Double
  var time = 0.0
  var state = AnimatingState.inactive
  var isRunning = false
  var isReversed = false
  var pausesOnCompletion: Bool
  var scrubsLinearly: Bool
  /// Time fraction at `time`.
  var fraction = 0.0
  /// Speed of `fraction`, per second, always `> 0`.
  var rate: Double
  /// The knot the progress map was last laid at (the first at `(0, 0)` with the initial curve).
  var knot: AnimatorKnot
  /// `q = f` after a linear scrub, until the next resume.
  var scrubbedLinearly = false
  /// Set once stopped or over.
  var frozen: Frozen?
  var ending: Ending?
  /// The fraction does not move before this wall time (a pending `startAnimation(afterDelay:)`).
  var heldUntil: Double?
  /// The delay of the latest `startAnimation(afterDelay:)`.
  var delay = 0.0

  init(
    duration: Double, curve: TimingCurveProvider, pausesOnCompletion: Bool, scrubsLinearly: Bool
  ) {
    self.duration = duration
    self.rate = 1 / duration
    self.knot = AnimatorKnot(fraction: 0, progress: 0, curve: curve, rate: 1 / duration)
    self.pausesOnCompletion = pausesOnCompletion
    self.scrubsLinearly = scrubsLinearly
  }

  /// What a batch stores for an instance that is not animator-driven: an inactive, linear
  /// animator of 1 s.
  static let notAnimated = AnimatorMachine(
    duration: 1, curve: .cubic(.linear), pausesOnCompletion: false, scrubsLinearly: false)

  var target: Double { isReversed ? 0 : 1 }
  var curve: TimingCurveProvider { knot.curve }

  /// `g(f)`, or `f` after a linear scrub.
  func progress(atFraction f: Double) -> Double {
    if case .value(let v) = frozen { return v }
    if scrubbedLinearly { return f }
    return Self.finite(knot.value(f, phi0: knot.fraction, q0: knot.progress, start: 0), f)
  }

  /// The progress of animations starting at fraction `start` (see
  /// ``PropertyAnimator/progress(at:startingAt:)``), with `earlier` the knots this machine's
  /// calls replaced, oldest first.
  func progress(blockStart start: Double, earlier: ArraySlice<AnimatorKnot>) -> Double {
    if start == 0 { return progress(atFraction: fraction) }
    if case .value(let v) = frozen { return v }
    let phi = Self.local(fraction, start)
    if scrubbedLinearly { return phi }
    var q = 0.0
    var phi0 = 0.0
    var q0 = 0.0
    var previous: AnimatorKnot?
    func lay(_ next: AnimatorKnot) {
      if let previous {
        let at = Self.local(next.fraction, start)
        q0 = Self.finite(previous.value(at, phi0: phi0, q0: q0, start: start), at)
        phi0 = at
      }
      q = Self.finite(next.value(phi, phi0: phi0, q0: q0, start: start), phi)
      previous = next
    }
    for k in earlier { lay(k) }
    lay(knot)
    return q
  }

  /// `φ = (f − start)/(1 − start)` clamped to `[0, 1]`; 1 at `f = 1` even for `start = 1`.
  static func local(_ f: Double, _ start: Double) -> Double {
    if f >= 1 { return 1 }
    if f <= start { return 0 }
    return Swift.min(Swift.max((f - start) / (1 - start), 0), 1)
  }

  static func finite(_ q: Double, _ f: Double) -> Double {
    q.isFinite ? q : (f >= 0.5 ? 1 : 0)
  }

  var sample: AnimatorSample {
    var completion: AnimatingPosition?
    var completionTime: Double?
    if case .completed(let position, let time) = ending {
      completion = position
      completionTime = time
    }
    return AnimatorSample(
      state: state, isRunning: isRunning, isReversed: isReversed, fractionComplete: fraction,
      progress: progress(atFraction: fraction), progressRate: progressRate,
      completion: completion, completionTime: completionTime)
  }

  /// Lets wall time run to `t` (`t ≥ time`), ending the run if it reaches its target.
  mutating func advance(to t: Double) {
    defer { time = Swift.max(time, t) }
    guard state == .active, isRunning else { return }
    if let hold = heldUntil {
      if t < hold { return }
      time = Swift.max(time, hold)
      heldUntil = nil
    }
    guard t > time || fraction == target else { return }
    let distance = abs(target - fraction)
    let end = time + distance / rate
    if t >= end {
      fraction = target
      isRunning = false
      if !pausesOnCompletion {
        state = .inactive
        frozen = .value(target)
        ending = .completed(isReversed ? .start : .end, time: end)
      }
    } else {
      let moved = fraction + (isReversed ? -1 : 1) * rate * (t - time)
      fraction = Swift.min(Swift.max(moved, 0), 1)
    }
  }

  /// Re-times the map at the current point with `newCurve`; returns the knot it replaced.
  mutating func reknot(with newCurve: TimingCurveProvider) -> AnimatorKnot {
    let q = progress(atFraction: fraction)
    scrubbedLinearly = false
    let replaced = knot
    knot = AnimatorKnot(fraction: fraction, progress: q, curve: newCurve, rate: rate)
    return replaced
  }

  /// One call of ``AnimatorEvent``, with `UIViewPropertyAnimator`'s rules; a call the animator's
  /// state refuses is a ``ValidationError`` and changes nothing. Returns the knot the call
  /// replaced when it re-laid the progress map, `nil` when the map is as it was.
  @discardableResult
  mutating func apply(_ event: AnimatorEvent) throws(ValidationError) -> AnimatorKnot? {
    try requireNotEnded()
    switch event {
    case .start:
      try requireNotStopped()
      return start()
    case .startAfterDelay(let time, let delay):
      try Validate.nonNegative(delay, "delay")
      try requireNotStopped()
      let wasRunning = isRunning
      let replaced = start()
      self.delay = delay
      if delay > 0 && !wasRunning { heldUntil = time + delay }
      return replaced
    case .pause:
      try requireNotStopped()
      pause()
    case .stop(_, let withoutFinishing): try stop(withoutFinishing: withoutFinishing)
    case .finish(let time, let position): try finish(at: position, time: time)
    case .setFractionComplete(_, let value): try setFractionComplete(value)
    case .setReversed(_, let reversed):
      try requireNotStopped()
      isReversed = reversed
    case .setPausesOnCompletion(_, let value):
      pausesOnCompletion = value
    case .setScrubsLinearly(_, let value):
      scrubsLinearly = value
    case .continueAnimation(_, let timing, let factor):
      return try continueAnimation(timing, durationFactor: factor)
    }
    return nil
  }

  /// ``advance(to:)`` the event's time, then ``apply(_:)`` it, in place: on a throw the machine
  /// is exactly as it was (the fields the advance wrote are put back). Returns what
  /// ``apply(_:)`` returns.
  @discardableResult
  mutating func advanceAndApply(_ event: AnimatorEvent) throws(ValidationError) -> AnimatorKnot? {
    let before = Motion(self)
    advance(to: event.time)
    do {
      return try apply(event)
    } catch {
      before.restore(&self)
      throw error
    }
  }

  /// The fields ``advance(to:)`` writes (``apply(_:)`` writes nothing when it throws).
  struct Motion {
    var time: Double
    var state: AnimatingState
    var isRunning: Bool
    var fraction: Double
    var frozen: Frozen?
    var ending: Ending?
    var heldUntil: Double?

    init(_ machine: AnimatorMachine) {
      time = machine.time
      state = machine.state
      isRunning = machine.isRunning
      fraction = machine.fraction
      frozen = machine.frozen
      ending = machine.ending
      heldUntil = machine.heldUntil
    }

    func restore(_ machine: inout AnimatorMachine) {
      machine.time = time
      machine.state = state
      machine.isRunning = isRunning
      machine.fraction = fraction
      machine.frozen = frozen
      machine.ending = ending
      machine.heldUntil = heldUntil
    }
  }

  /// Throws once the animator has completed or was stopped without finishing.
  func requireNotEnded() throws(ValidationError) {
    switch ending {
    case .some(.completed):
      throw ValidationError(field: "animator", reason: .invalidState("the animator has completed"))
    case .some(.stoppedWithoutFinishing):
      throw ValidationError(field: "animator", reason: .invalidState("the animator was stopped"))
    case .none:
      break
    }
  }

  /// `pauseAnimation()`: an inactive animator becomes active at its start end, paused.
  mutating func pause() {
    if state == .inactive {
      state = .active
      fraction = target == 1 ? 0 : 1
    }
    isRunning = false
    heldUntil = nil
  }

  /// `stopAnimation(_:)`: an active animator freezes where it is, stopped (or inactive and
  /// ended when `withoutFinishing`).
  mutating func stop(withoutFinishing: Bool) throws(ValidationError) {
    guard state == .active else {
      throw ValidationError(
        field: "animator", reason: .invalidState("stopAnimation needs an active animator"))
    }
    frozen = .atFraction
    isRunning = false
    heldUntil = nil
    if withoutFinishing {
      state = .inactive
      ending = .stoppedWithoutFinishing
    } else {
      state = .stopped
    }
  }

  /// `finishAnimation(at:)`: a stopped animator completes at `position`, at batch time `time`.
  mutating func finish(at position: AnimatingPosition, time: Double) throws(ValidationError) {
    guard state == .stopped else {
      throw ValidationError(
        field: "animator", reason: .invalidState("finishAnimation needs a stopped animator"))
    }
    switch position {
    case .end:
      fraction = 1
      frozen = .value(1)
    case .start:
      fraction = 0
      frozen = .value(0)
    case .current:
      break
    }
    state = .inactive
    ending = .completed(position, time: time)
  }

  /// `fractionComplete = value` (in `[0, 1]`), only while paused.
  mutating func setFractionComplete(_ value: Double) throws(ValidationError) {
    try Validate.inRange(value, 0, 1, "fractionComplete")
    guard state == .active && !isRunning else {
      throw ValidationError(
        field: "fractionComplete",
        reason: .invalidState("fractionComplete can be set only while paused"))
    }
    fraction = value
    scrubbedLinearly = scrubsLinearly
  }

  /// `continueAnimation(withTimingParameters:durationFactor:)`: a paused animator runs on over
  /// the rest of `durationFactor · duration`, re-timed with `timing` when given; returns the
  /// knot it replaced.
  mutating func continueAnimation(_ timing: TimingCurveProvider?, durationFactor factor: Double)
    throws(ValidationError) -> AnimatorKnot?
  {
    try Validate.positive(factor, "durationFactor")
    guard state == .active && !isRunning else {
      throw ValidationError(
        field: "animator", reason: .invalidState("continueAnimation needs a paused animator"))
    }
    let distance = abs(target - fraction)
    if distance > 0 {
      let length = (timing ?? curve).runLength(forDuration: factor * duration)
      let newRate = distance / length
      if newRate.isFinite && newRate > 0 { rate = newRate }
    }
    var replaced: AnimatorKnot?
    if let timing {
      replaced = reknot(with: timing)
    } else if scrubbedLinearly {
      replaced = reknot(with: curve)
    }
    isRunning = true
    return replaced
  }

  /// `startAnimation()`: an inactive animator becomes active and runs from its start end; a
  /// paused one resumes (re-timing after a linear scrub; returns the knot it replaced).
  mutating func start() -> AnimatorKnot? {
    var replaced: AnimatorKnot?
    if state == .inactive {
      state = .active
      fraction = target == 1 ? 0 : 1
      isRunning = true
    } else if !isRunning {
      if scrubbedLinearly { replaced = reknot(with: curve) }
      isRunning = true
    }
    return replaced
  }

  func requireNotStopped() throws(ValidationError) {
    guard state != .stopped else {
      throw ValidationError(field: "animator", reason: .invalidState("the animator is stopped"))
    }
  }
}

extension AnimatorMachine {
  /// The wall time at which the completion fires, once that is decided from the state at
  /// ``time``: the time it fired, or the end of the current run when running without
  /// ``pausesOnCompletion`` (after a pending delay). `nil` otherwise (paused, stopped, inactive).
  @inline(__always) var completionTime: Double? {
    if case .completed(_, let when) = ending { return when }
    guard ending == nil, state == .active, isRunning, !pausesOnCompletion else { return nil }
    let from = Swift.max(time, heldUntil ?? time)
    return from + abs(target - fraction) / rate
  }

  /// The position the completion reports, when it has fired by ``time``.
  var completionPosition: AnimatingPosition? {
    if case .completed(let position, _) = ending { return position }
    return nil
  }

  /// `dq/dt` at ``time`` (per second) of the eased progress ``progress(atFraction:)``: 0 unless
  /// running; otherwise `dq/df · df/dt`, with `df/dt = ±rate` and `dq/df` the knot's analytic
  /// slope (``AnimatorKnot/slope(_:phi0:q0:forward:)``), 1 after a linear scrub.
  var progressRate: Double {
    guard state == .active, isRunning, ending == nil else { return 0 }
    if let hold = heldUntil, time < hold { return 0 }
    if case .value = frozen { return 0 }
    let velocity = (isReversed ? -1 : 1) * rate
    let slope =
      scrubbedLinearly
      ? 1 : knot.slope(fraction, phi0: knot.fraction, q0: knot.progress, forward: velocity > 0)
    let r = slope * velocity
    return r.isFinite ? r : 0
  }
}
