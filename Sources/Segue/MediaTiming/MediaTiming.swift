/// Core Animation's time model (`CAMediaTiming`): how a parent's time becomes an object's local
/// time, how long the object is active, and where in its iteration it is.
///
/// Times are in **seconds**; ``speed`` is a unitless rate. The mapping from the parent's time
/// `tₚ` to local time is
///
///     t = (tₚ − beginTime) · speed + timeOffset
///
/// (``timeOffset`` is added after the speed scaling, so it is *not* scaled). The active interval is
/// `[0, D)` in local time, with `D` = ``activeDuration``; ``iterationProgress(atLocal:)`` turns a
/// local time into the unitless progress `p ∈ [0, 1]` of the current iteration, honouring
/// ``autoreverses`` and ``fillMode``.
///
/// Values that mean "forever": ``repeatCount`` may be `.infinity`, `.greatestFiniteMagnitude`, or
/// any value `≥ Double(Float.greatestFiniteMagnitude)` (Core Animation's `HUGE_VALF`, the largest
/// `Float`, as Apple documents); ``repeatDuration`` may be `.infinity`. Every other property must
/// be finite (see ``validate()``). The evaluation functions never trap: for an unvalidated timing
/// they return finite results or `nil`, but the numbers are only meaningful after ``validate()``.
public struct MediaTiming: Hashable, Sendable {
  /// What an animation shows outside its active interval (`CAMediaTimingFillMode`).
  public enum FillMode: String, Hashable, Sendable, CaseIterable {
    /// No effect outside the active interval: the model value shows (the default).
    case removed
    /// After the end, keep showing the final state, the value at `t = D`.
    case forwards
    /// Before the start, show the value at `t = 0` ("clamps values before zero to zero").
    case backwards
    /// Both ``backwards`` and ``forwards``.
    case both

    /// `true` for ``backwards`` and ``both``.
    @inlinable public var fillsBackwards: Bool { self == .backwards || self == .both }
    /// `true` for ``forwards`` and ``both``.
    @inlinable public var fillsForwards: Bool { self == .forwards || self == .both }
  }

  /// Where a local time lies relative to the active interval `[0, D)`.
  public enum Phase: String, Hashable, Sendable, CaseIterable {
    /// `t < 0`.
    case before
    /// `0 ≤ t < D`.
    case active
    /// `t ≥ D`.
    case after
  }

  /// The result of ``iterationProgress(atLocal:)``: where an object is within its iterations.
  public struct IterationProgress: Hashable, Sendable {
    /// The phase the local time fell in (the progress of a filled phase is the fill value's).
    public var phase: Phase
    /// The pass index `k = ⌊t / d⌋` (0-based). With ``MediaTiming/autoreverses`` every pass of
    /// length `d` counts, so a forward-and-back cycle is passes `2j` and `2j + 1`. Saturates at
    /// `Int.max` for astronomically large times.
    public var iteration: Int
    /// `true` when this pass plays backwards (autoreverses and `k` odd).
    public var isReversed: Bool
    /// Unitless progress `p = τ / d ∈ [0, 1]` within the pass, already mirrored when
    /// ``isReversed`` (so it is what a timing function receives next).
    public var progress: Double

    /// Creates a progress record.
    public init(phase: Phase, iteration: Int, isReversed: Bool, progress: Double) {
      self.phase = phase
      self.iteration = iteration
      self.isReversed = isReversed
      self.progress = progress
    }
  }

  /// When the object starts, in the parent's time space, in seconds. Default 0.
  public var beginTime: Double
  /// Length of one iteration (one pass), in seconds, `≥ 0`. Default 0; see
  /// ``resolvedForAnimation(transactionDuration:)`` for what 0 means for an animation.
  public var duration: Double
  /// Rate of local time relative to the parent (unitless). Default 1; 0 freezes local time at
  /// ``timeOffset``; negative values run it backwards, as in Core Animation.
  public var speed: Double
  /// Added to local time after the speed scaling, in seconds. Default 0.
  public var timeOffset: Double
  /// Number of iterations, may be fractional, `≥ 0`. Default 0, which means "play once".
  /// `.infinity`, `.greatestFiniteMagnitude` or anything `≥ Float.greatestFiniteMagnitude` means
  /// forever. Setting both this and ``repeatDuration`` is undefined in Core Animation; here
  /// ``repeatDuration`` wins when it is positive.
  public var repeatCount: Double
  /// Total active time in seconds, in place of a count, `≥ 0` (`.infinity` means forever).
  /// Default 0 (unused).
  public var repeatDuration: Double
  /// After playing forwards, play backwards; one repeat is then a forward-and-back cycle of
  /// `2 · duration`. Default `false`.
  public var autoreverses: Bool
  /// What shows outside the active interval. Default ``FillMode/removed``.
  public var fillMode: FillMode

  /// The duration Core Animation uses when an animation with `duration ≤ 0` is added to a layer
  /// and the transaction sets none: 0.25 s (`CATransaction`'s default duration).
  public static let defaultAnimationDuration: Double = 0.25

  /// Creates a timing; every argument defaults to `CAMediaTiming`'s default.
  public init(
    beginTime: Double = 0, duration: Double = 0, speed: Double = 1, timeOffset: Double = 0,
    repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
    fillMode: FillMode = .removed
  ) {
    self.beginTime = beginTime
    self.duration = duration
    self.speed = speed
    self.timeOffset = timeOffset
    self.repeatCount = repeatCount
    self.repeatDuration = repeatDuration
    self.autoreverses = autoreverses
    self.fillMode = fillMode
  }

  /// Checks every property.
  ///
  /// - Throws: ``ValidationError`` naming the property: `beginTime`, `speed`, `timeOffset` and
  ///   `duration` must be finite (``ValidationError/Reason/notFinite``); `duration` must be `≥ 0`
  ///   (``ValidationError/Reason/negative``); `repeatCount` and `repeatDuration` must not be NaN
  ///   (``ValidationError/Reason/notFinite``) nor negative (``ValidationError/Reason/negative``),
  ///   but may be `+infinity` (forever). `speed` may be 0 or negative.
  public func validate() throws(ValidationError) {
    try Validate.finite(beginTime, "beginTime")
    try Validate.nonNegative(duration, "duration")
    try Validate.finite(speed, "speed")
    try Validate.finite(timeOffset, "timeOffset")
    for (value, field) in [(repeatCount, "repeatCount"), (repeatDuration, "repeatDuration")] {
      guard !value.isNaN else { throw ValidationError(field: field, reason: .notFinite) }
      guard value >= 0 else { throw ValidationError(field: field, reason: .negative) }
    }
  }

  /// This timing as Core Animation resolves it when the animation is added to a layer
  /// (`CALayer.add(_:forKey:)`): a ``duration`` `≤ 0` becomes `transactionDuration` if given,
  /// else ``defaultAnimationDuration`` (0.25 s). Every other property is unchanged.
  ///
  /// Layers' own timings are not resolved this way (their duration does not matter: only
  /// `beginTime`, `speed` and `timeOffset` act in the hierarchy).
  ///
  /// - Parameter transactionDuration: the enclosing `CATransaction`'s `animationDuration`, in
  ///   seconds, or `nil` when unset.
  public func resolvedForAnimation(transactionDuration: Double? = nil) -> MediaTiming {
    var copy = self
    if !(duration > 0) {
      if let d = transactionDuration, d > 0, d.isFinite {
        copy.duration = d
      } else {
        copy.duration = Self.defaultAnimationDuration
      }
    }
    return copy
  }

  /// `true` when ``repeatCount`` means "forever" (`≥ Float.greatestFiniteMagnitude`, which
  /// includes `.greatestFiniteMagnitude` and `.infinity`).
  @inlinable public var repeatsForever: Bool {
    repeatCount >= Double(Float.greatestFiniteMagnitude)
  }

  /// Local time for the parent time `t`: `(t − beginTime) · speed + timeOffset`, in seconds.
  @inlinable public func localTime(fromParent t: Double) -> Double {
    (t - beginTime) * speed + timeOffset
  }

  /// Parent time for the local time `t`, the inverse of ``localTime(fromParent:)``:
  /// `(t − timeOffset) / speed + beginTime`. Returns `nil` when ``speed`` is 0 (local time is
  /// frozen, so no single parent time maps to `t`) or not finite.
  @inlinable public func parentTime(fromLocal t: Double) -> Double? {
    guard speed != 0, speed.isFinite else { return nil }
    return (t - timeOffset) / speed + beginTime
  }

  /// The length `d · (autoreverses ? 2 : 1)` of one repeat, in seconds.
  @inlinable public var cycleDuration: Double { duration * (autoreverses ? 2 : 1) }

  /// The active duration `D`, in seconds:
  /// ``repeatDuration`` when it is positive; otherwise `cycle · (repeatCount > 0 ? repeatCount :
  /// 1)` with `cycle` = ``cycleDuration``. It is `.infinity` when the timing repeats forever
  /// (and `duration > 0`), and 0 whenever ``duration`` is 0 (nothing plays; resolve an
  /// animation's duration first with ``resolvedForAnimation(transactionDuration:)``).
  ///
  /// Example (Lockwood): repeatCount 3.5 with duration 2 s gives D = 7 s.
  public var activeDuration: Double {
    guard duration > 0 else { return 0 }
    if repeatDuration > 0 { return repeatDuration }
    if repeatsForever { return .infinity }
    return cycleDuration * (repeatCount > 0 ? repeatCount : 1)
  }

  /// Where the local time `t` (seconds) lies within the iterations, or `nil` when the object has
  /// no effect there.
  ///
  /// * Active (`0 ≤ t < D`): `k = ⌊t / d⌋`, `τ = t − k·d`; with autoreverses and `k` odd,
  ///   `τ = d − τ`; progress `p = τ / d`.
  /// * After (`t ≥ D`): `nil` unless the fill mode fills forwards; then the final state, the
  ///   value at `t = D` with the end-of-active rule: when `D` is a whole number of passes the
  ///   last pass is reported finished (`τ = d`, not `τ = 0` of a new pass). With autoreverses
  ///   and a whole repeat count this is progress 0 (the start value).
  /// * Before (`t < 0`): `nil` unless the fill mode fills backwards; then pass 0, progress 0.
  ///
  /// With ``duration`` 0 the active interval is empty: a forwards fill reports progress 1
  /// (pass 0, not reversed). A NaN time returns `nil` (no effect); `±infinity` falls in the
  /// before or after phase.
  public func iterationProgress(atLocal t: Double) -> IterationProgress? {
    guard !t.isNaN else { return nil }
    let total = activeDuration
    if t < 0 {
      guard fillMode.fillsBackwards else { return nil }
      return IterationProgress(phase: .before, iteration: 0, isReversed: false, progress: 0)
    }
    if t < total {
      return pass(at: t, phase: .active, endOfActive: false)
    }
    guard fillMode.fillsForwards else { return nil }
    guard duration > 0, total.isFinite else {
      return IterationProgress(phase: .after, iteration: 0, isReversed: false, progress: 1)
    }
    return pass(at: total, phase: .after, endOfActive: true)
  }

  /// `iterationProgress(atLocal: localTime(fromParent: t))`: the progress at parent time `t`.
  @inlinable public func iterationProgress(atParent t: Double) -> IterationProgress? {
    iterationProgress(atLocal: localTime(fromParent: t))
  }

  /// Pass index and mirrored progress at local time `t ≥ 0` (requires `duration > 0`).
  private func pass(at t: Double, phase: Phase, endOfActive: Bool) -> IterationProgress {
    let d = duration
    var k = (t / d).rounded(.down)
    var tau = t - k * d
    // Guard against rounding in t − k·d (it can come out slightly negative or ≥ d).
    if tau < 0 {
      k -= 1
      tau += d
    }
    if tau >= d {
      k += 1
      tau -= d
    }
    if endOfActive && tau <= 0 && k > 0 {
      k -= 1
      tau = d
    }
    let reversed = autoreverses && k.truncatingRemainder(dividingBy: 2) != 0
    if reversed { tau = d - tau }
    let progress = Swift.min(Swift.max(tau / d, 0), 1)
    let iteration = k < 9.2e18 ? Int(k) : Int.max
    return IterationProgress(
      phase: phase, iteration: iteration, isReversed: reversed, progress: progress)
  }

  // MARK: Hierarchy

  /// The local time of the last element of `chain` for the root time `t`: apply
  /// ``localTime(fromParent:)`` for every element from the root (first) down to the leaf (last),
  /// as Core Animation does for a layer tree and then the animation. An empty chain
  /// returns `t`.
  public static func localTime(_ t: Double, through chain: [MediaTiming]) -> Double {
    var time = t
    for timing in chain { time = timing.localTime(fromParent: time) }
    return time
  }

  /// The root time for the local time `t` of the last element of `chain`, the inverse of
  /// ``localTime(_:through:)``: apply ``parentTime(fromLocal:)`` from the leaf up to the root
  /// (`convertTime(_:to:)` towards the root). Returns `nil` when any element has speed 0.
  public static func parentTime(_ t: Double, through chain: [MediaTiming]) -> Double? {
    var time = t
    for timing in chain.reversed() {
      guard let up = timing.parentTime(fromLocal: time) else { return nil }
      time = up
    }
    return time
  }

  // MARK: Pausing, resuming and scrubbing (QA1673)

  /// Pauses local time at its value for parent time `parentTime` (Apple's QA1673):
  /// `timeOffset = localTime(fromParent: parentTime)`, then `speed = 0`. Local time (and so every
  /// child's and animation's time) is frozen at the value it had at `parentTime`. Pausing an
  /// already paused timing keeps it where it is.
  ///
  /// - Parameter parentTime: the current time in the parent's space (for a layer,
  ///   `CACurrentMediaTime()` converted to its superlayer), in seconds.
  /// - Throws: ``ValidationError`` `parentTime` ``ValidationError/Reason/notFinite``.
  public mutating func pause(atParentTime parentTime: Double) throws(ValidationError) {
    try Validate.finite(parentTime, "parentTime")
    let paused = localTime(fromParent: parentTime)
    speed = 0
    timeOffset = paused
  }

  /// Resumes a paused timing at parent time `parentTime` so that local time continues from where
  /// it was frozen (QA1673): with `paused = timeOffset`, set `speed`, `timeOffset = 0` and
  /// `beginTime = parentTime − paused / speed`. For the default `speed` 1 this is QA1673's
  /// `beginTime = convertTime(now) − pausedTime`; local time at `parentTime` equals `paused`
  /// and then advances at `speed`.
  ///
  /// - Parameters:
  ///   - parentTime: the current time in the parent's space, in seconds.
  ///   - newSpeed: `speed`, the rate to resume at (QA1673 uses 1); finite and non-zero.
  /// - Throws: ``ValidationError``: `parentTime` or `speed` not finite; `speed` 0
  ///   (``ValidationError/Reason/notPositive``, since it would stay paused);
  ///   ``ValidationError/Reason/invalidState(_:)`` on `speed` (the property) when the timing is
  ///   not paused (its speed is not 0), because its `timeOffset` is then not a paused time.
  public mutating func resume(atParentTime parentTime: Double, speed newSpeed: Double = 1)
    throws(ValidationError)
  {
    try Validate.finite(parentTime, "parentTime")
    try Validate.finite(newSpeed, "speed")
    guard newSpeed != 0 else { throw ValidationError(field: "speed", reason: .notPositive) }
    guard speed == 0 else {
      throw ValidationError(
        field: "speed", reason: .invalidState("resume requires a paused timing"))
    }
    let paused = timeOffset
    speed = newSpeed
    timeOffset = 0
    beginTime = parentTime - paused / newSpeed
  }

  /// Scrubs (what percent-driven transitions do, as in Apple's technical Q&A QA1673):
  /// `speed = 0` and `timeOffset = animationsBeginTime + fraction · duration`, so local time shows
  /// that point of the animations, whatever the parent time.
  ///
  /// - Parameters:
  ///   - fraction: unitless position in `[0, 1]`.
  ///   - duration: the animations' duration in seconds, `≥ 0`.
  ///   - animationsBeginTime: the animations' begin time in this timing's local space, seconds.
  /// - Throws: ``ValidationError`` for `fraction` outside `[0, 1]` or not finite, `duration`
  ///   negative or not finite, `animationsBeginTime` not finite.
  public mutating func scrub(
    toFraction fraction: Double, ofDuration duration: Double, animationsBeginTime: Double = 0
  ) throws(ValidationError) {
    try Validate.inRange(fraction, 0, 1, "fraction")
    try Validate.nonNegative(duration, "duration")
    try Validate.finite(animationsBeginTime, "animationsBeginTime")
    speed = 0
    timeOffset = animationsBeginTime + fraction * duration
  }
}
