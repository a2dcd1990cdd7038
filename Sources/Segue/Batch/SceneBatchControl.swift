import SegueSIMDSupport

/// An instance's scene time at one wall time: what the clock stage of ``SceneEvaluationJob``
/// computes per lane.
public struct SceneInstanceTime: Hashable, Sendable {
  /// The scene time `τ`, seconds, in `[0, duration]` for every clock but ``SceneClock/timed(start:speed:)``
  /// (which reaches the finished state at `τ ≥ duration`).
  public var time: Double
  /// `dτ/dt`, seconds of scene per second of wall time: the timed clock's speed while it runs,
  /// 0 held, paused or completed, `D·dp/dt` percent-driven, `D·dq/dt` animator-driven (negative
  /// while running backwards).
  public var rate: Double
  /// The completion state shown, `nil` while the scene is shown at ``time``.
  public var completion: TransitionCompletion?
}

/// A completion delivered by ``SceneBatch/advance(to:completions:)``: once per instance.
public struct SceneCompletionEvent: Hashable, Sendable {
  /// The instance id.
  public var instance: Int
  /// `.end` (finished), `.start` (cancelled, or an animator completed at its start) or `.current`
  /// (an animator finished where it stopped).
  public var position: AnimatingPosition
  /// When it fired, seconds on the batch clock.
  public var time: Double

  /// Creates an event.
  public init(instance: Int, position: AnimatingPosition, time: Double) {
    self.instance = instance
    self.position = position
    self.time = time
  }
}

extension SceneInstanceGroup {
  /// The scene time, rate and state of slot `k` at wall time `t` for a scene of `duration`.
  func time(_ k: Int, at t: Double, duration: Double) -> SceneInstanceTime {
    switch kinds[k] {
    case .timed:
      let tau = max((t - start[k]) * speed[k], 0)
      let done = tau >= duration
      let rate = t > start[k] && !done ? speed[k] : 0
      return SceneInstanceTime(time: tau, rate: rate, completion: done ? .finished : nil)
    case .position:
      return SceneInstanceTime(time: start[k], rate: 0, completion: nil)
    case .interactive:
      guard case .interactive(let timeline, let s) = clocks[k] else { break }
      let local = max(t - s, 0)
      let machine = timeline.replayed(upTo: local)
      return Self.time(machine, at: local, duration: duration)
    case .percentDriven:
      guard let machine = interactions[k] else { break }
      return Self.time(machine, at: max(t - start[k], machine.lastTime), duration: duration)
    case .animator:
      var machine = animators[k]
      machine.advance(to: t)
      let q = machine.progress(atFraction: machine.fraction)
      let tau = min(max(q, 0), 1) * duration
      let inside = q > 0 && q < 1
      let completion: TransitionCompletion? =
        switch machine.completionPosition {
        case .end: .finished
        case .start: .cancelled
        case .current, nil: nil
        }
      let rate = inside && completion == nil ? machine.progressRate * duration : 0
      return SceneInstanceTime(time: tau, rate: rate, completion: completion)
    }
    return SceneInstanceTime(time: 0, rate: 0, completion: nil)
  }

  /// ``time(_:at:duration:)`` of animator-driven slot `k` without its rate, read from its
  /// ``AnimatorClockHead`` and, where the fraction moves at `t`, its ``AnimatorClockPlan`` (the
  /// same bits, without copying the machine).
  @inline(__always)
  static func animatorTime(
    _ head: AnimatorClockHead, _ plan: UnsafePointer<AnimatorClockPlan>, at t: Double,
    duration: Double, machine: @autoclosure () -> SceneInstanceTime
  ) -> SceneInstanceTime {
    guard let (q, position) = head.progress(at: t) ?? plan.pointee.progress(at: t) else {
      return machine()
    }
    let completion: TransitionCompletion? =
      switch position {
      case .end: .finished
      case .start: .cancelled
      case .current, nil: nil
      }
    return SceneInstanceTime(time: min(max(q, 0), 1) * duration, rate: 0, completion: completion)
  }

  static func time(_ machine: InteractionMachine, at local: Double, duration: Double)
    -> SceneInstanceTime
  {
    let state = machine.state(at: local)
    if state.isCompleted {
      return SceneInstanceTime(
        time: 0, rate: 0, completion: state.isFinished == true ? .finished : .cancelled)
    }
    return SceneInstanceTime(
      time: state.position * duration, rate: machine.positionRate(at: local) * duration,
      completion: nil)
  }

  /// ``SceneBatch/apply(_:to:)-(AnimatorEvent,_)`` on animator-driven slot `k`, whose call
  /// time is checked: the machine is changed in place (unchanged on a throw), its plan and head
  /// made again.
  mutating func apply(_ event: AnimatorEvent, slot k: Int) throws(ValidationError) {
    let completion = try AnimatorClockPlan.apply(
      event, to: &animators[k], plan: &animatorPlans[k], head: &animatorHeads[k])
    lastCall[k] = event.time
    pendingCompletion[k] = completion ?? .infinity
  }

  /// The position a completion at `slot` reports.
  func completionPosition(_ k: Int, at time: Double) -> AnimatingPosition {
    switch kinds[k] {
    case .animator:
      // The head or the plan gives the machine's completion without copying the machine (or
      // the plan).
      let answer = animatorPlans.withUnsafeBufferPointer { plans in
        animatorHeads[k].progress(at: time) ?? plans[k].progress(at: time)
      }
      if let (_, position) = answer { return position ?? .end }
      var machine = animators[k]
      machine.advance(to: time)
      return machine.completionPosition ?? .end
    case .percentDriven:
      return interactions[k]?.request == false ? .start : .end
    case .interactive:
      if case .interactive(let timeline, _) = clocks[k],
        timeline.replayed(upTo: .infinity).request == false
      {
        return .start
      }
      return .end
    case .timed, .position:
      return .end
    }
  }
}

extension SceneBatch {
  /// The group and slot of instance `id`.
  func location(_ id: Int) throws(ValidationError) -> (group: Int, slot: Int) {
    guard id >= 0, id < records.count, records[id].group >= 0 else {
      throw ValidationError(field: "instance", reason: .unknown("\(id)"))
    }
    return records[id]
  }

  /// Checks a control call's wall time: finite, and not before the instance's latest call.
  func checkCallTime(_ time: Double, group g: Int, slot k: Int) throws(ValidationError) {
    try Validate.finite(time, "time")
    guard time >= groups[g].lastCall[k] else {
      throw ValidationError(field: "time", reason: .decreasing)
    }
  }

  /// Instance `id`'s scene time, its rate and its completion state at wall time `t` (what the
  /// job's clock stage computes for its lane; `O(1)` for every clock but
  /// ``SceneClock/interactive(_:start:)``, which replays its timeline).
  ///
  /// - Throws: ``ValidationError``: `"instance"` ``ValidationError/Reason/unknown(_:)``; `"time"`
  ///   ``ValidationError/Reason/notFinite``.
  public func time(of id: Int, at t: Double) throws(ValidationError) -> SceneInstanceTime {
    let (g, k) = try location(id)
    try Validate.finite(t, "time")
    return groups[g].time(k, at: t, duration: templates[g].scene.duration)
  }

  /// Replaces instance `id`'s clock at wall time `time`: the instance keeps its id and rows and
  /// starts over on `clock` (a live clock from its initial state); a completion not yet reported
  /// is dropped, and so are its additive animations (retargets). `O(1)` plus those.
  ///
  /// - Throws: ``ValidationError``: `"instance"` ``ValidationError/Reason/unknown(_:)``; `"time"`
  ///   ``ValidationError/Reason/notFinite`` or ``ValidationError/Reason/decreasing`` (before the
  ///   instance's latest call); what ``add(_:clock:)`` rejects in `clock`. The batch is unchanged
  ///   on error.
  public mutating func setClock(_ clock: SceneClock, of id: Int, at time: Double)
    throws(ValidationError)
  {
    let (g, k) = try location(id)
    try checkCallTime(time, group: g, slot: k)
    let duration = templates[g].scene.duration
    try Self.validate(clock, duration: duration)
    releaseAdditive(group: g, slot: k)
    groups[g].set(k, clock: clock, duration: duration)
    groups[g].lastCall[k] = time
  }

  /// Applies an animator call to animator-driven instance `id` (event times on the batch clock,
  /// `≥ 0`), with ``PropertyAnimator``'s rules. `O(1)`, no allocation.
  ///
  /// - Throws: ``ValidationError``: `"instance"` ``ValidationError/Reason/unknown(_:)``, or
  ///   ``ValidationError/Reason/invalidState(_:)`` when the instance is not animator-driven;
  ///   `"time"` not finite, negative, or ``ValidationError/Reason/decreasing``; what
  ///   ``PropertyAnimator/apply(_:)`` throws for the call (`"fractionComplete"` outside `[0, 1]`,
  ///   `"animator"` in the wrong state, …). The batch is unchanged on error.
  public mutating func apply(_ event: AnimatorEvent, to id: Int) throws(ValidationError) {
    let (g, k) = try location(id)
    try checkCallTime(event.time, group: g, slot: k)
    try Validate.nonNegative(event.time, "time")
    guard groups[g].kinds[k] == .animator else {
      throw ValidationError(
        field: "instance", reason: .invalidState("instance \(id) is not animator-driven"))
    }
    try groups[g].apply(event, slot: k)
  }

  /// Applies a percent-driven call to instance `id` (event times on the batch clock, at or after
  /// the clock's start), with ``InteractionTimeline``'s rules. `O(1)`, no allocation.
  ///
  /// - Throws: ``ValidationError``: `"instance"` ``ValidationError/Reason/unknown(_:)``, or
  ///   ``ValidationError/Reason/invalidState(_:)`` when the instance is not percent-driven;
  ///   `"time"` not finite, before the clock's start, or ``ValidationError/Reason/decreasing``;
  ///   what ``InteractionTimeline/append(_:)`` throws. The batch is unchanged on error.
  public mutating func apply(_ event: InteractionEvent, to id: Int) throws(ValidationError) {
    let (g, k) = try location(id)
    try checkCallTime(event.time, group: g, slot: k)
    guard var machine = groups[g].interactions[k] else {
      throw ValidationError(
        field: "instance", reason: .invalidState("instance \(id) is not percent-driven"))
    }
    let s = groups[g].start[k]
    try machine.apply(event.shifted(by: -s))
    groups[g].interactions[k] = machine
    groups[g].lastCall[k] = event.time
    groups[g].pendingCompletion[k] = machine.completionTime.map { $0 + s } ?? .infinity
  }

  /// Sets `completionSpeed` (and `completionCurve` when non-`nil`) of percent-driven instance
  /// `id` at `time`, before its finish or cancel.
  ///
  /// - Throws: as ``apply(_:to:)-(InteractionEvent,_)``; `"completionSpeed"` not finite or `≤ 0`;
  ///   `"interaction"` after a finish or cancel. The batch is unchanged on error.
  public mutating func setCompletion(
    speed: Double, curve: TimingFunction? = nil, of id: Int, at time: Double
  ) throws(ValidationError) {
    let (g, k) = try location(id)
    try checkCallTime(time, group: g, slot: k)
    guard var machine = groups[g].interactions[k] else {
      throw ValidationError(
        field: "instance", reason: .invalidState("instance \(id) is not percent-driven"))
    }
    try machine.setCompletionSpeed(speed)
    if let curve { try machine.setCompletionCurve(curve) }
    groups[g].interactions[k] = machine
    groups[g].lastCall[k] = time
  }

  /// Delivers, once per instance, every completion that has fired by wall time `time` into
  /// `completions` (caller-owned; nothing is allocated) and returns how many it wrote. When the
  /// buffer is full the rest stay pending for the next call. `O(instances)`: one comparison per
  /// instance. A delivered completion counts as the instance's latest call: a later call on it
  /// must not come before the completion's time (it would change what was reported).
  ///
  /// - Throws: ``ValidationError`` on `"time"`: ``ValidationError/Reason/notFinite``.
  public mutating func advance(
    to time: Double, completions: UnsafeMutableBufferPointer<SceneCompletionEvent>
  ) throws(ValidationError) -> Int {
    try Validate.finite(time, "time")
    var written = 0
    for g in groups.indices where written < completions.count {
      written = groups[g].deliverCompletions(by: time, into: completions, from: written)
    }
    return written
  }
}

extension SceneInstanceGroup {
  /// Writes the completions of this group that have fired by `time` into `completions` from
  /// position `written` on, while there is room, marking each delivered; returns the new count.
  /// In place on the group, so nothing is copied.
  mutating func deliverCompletions(
    by time: Double, into completions: UnsafeMutableBufferPointer<SceneCompletionEvent>,
    from written: Int
  ) -> Int {
    var written = written
    var k = 0
    while written < completions.count {
      guard let due = Self.firstCompletion(pendingCompletion.span, from: k, by: time) else { break }
      let when = pendingCompletion[due]
      completions[written] = SceneCompletionEvent(
        instance: Int(ids[due]), position: completionPosition(due, at: when), time: when)
      written += 1
      pendingCompletion[due] = .infinity
      // A delivered completion happened: later calls may not come before it.
      lastCall[due] = max(lastCall[due], when)
      k = due + 1
    }
    return written
  }

  /// The first slot at or after `k` whose completion time in `pendingCompletion` is at most
  /// `time`: one comparison per slot over contiguous storage.
  static func firstCompletion(_ pendingCompletion: Span<Double>, from k: Int, by time: Double)
    -> Int?
  {
    pendingCompletion.withUnsafeBufferPointer { pending in
      var i = k
      // Eight slots per comparison while none is due.
      let due = SIMD8<Double>(repeating: time)
      while i + 8 <= pending.count {
        let times = UnsafeRawPointer(pending.baseAddress! + i).loadUnaligned(as: SIMD8<Double>.self)
        if any(times .<= due) { break }
        i += 8
      }
      while i < pending.count {
        if pending[i] <= time { return i }
        i += 1
      }
      return nil
    }
  }
}

extension InteractionEvent {
  /// The same call `offset` seconds later.
  func shifted(by offset: Double) -> InteractionEvent {
    switch self {
    case .update(let time, let percent): .update(time: time + offset, percent: percent)
    case .pause(let time): .pause(time: time + offset)
    case .finish(let time): .finish(time: time + offset)
    case .cancel(let time): .cancel(time: time + offset)
    }
  }
}

extension SceneBatch {
  /// The template instance `id` uses, or `nil` when there is no such instance.
  public func template(of id: Int) -> SceneTemplate? {
    guard id >= 0, id < records.count, records[id].group >= 0 else { return nil }
    return templates[records[id].group]
  }
}

extension SceneBatch {
  /// Starts loading the control state of instances `ids` (the ones the next calls are about to
  /// touch) into the processor's caches, so that the calls' memory reads overlap instead of
  /// waiting one after another. A hint: every result is the same with or without it. Ids that
  /// name no instance are skipped. `O(ids.count)`, no allocation when `ids` has contiguous
  /// storage (an array, a slice of one).
  ///
  /// A frame of many calls prefetches them in blocks, one block ahead of the calls being made
  /// (see <doc:DrivingAUserInterface>): what a block loads must still be in the caches when its
  /// calls come.
  @inlinable
  public func prefetch<IDs: Collection<Int>>(_ ids: IDs) {
    if ids.withContiguousStorageIfAvailable({ prefetch(contiguous: $0) }) == nil {
      Array(ids).withUnsafeBufferPointer { prefetch(contiguous: $0) }
    }
  }

  /// ``prefetch(_:)`` for instances about to be removed: also loads what ``remove(_:)`` reads
  /// and a control call does not (each instance's clock, its pending completion and its id). A
  /// hint, like ``prefetch(_:)``; the same cost.
  @inlinable
  public func prefetch<IDs: Collection<Int>>(removing ids: IDs) {
    if ids.withContiguousStorageIfAvailable({ prefetch(removingContiguous: $0) }) == nil {
      Array(ids).withUnsafeBufferPointer { prefetch(removingContiguous: $0) }
    }
  }

  @usableFromInline
  func prefetch(contiguous ids: UnsafeBufferPointer<Int>) {
    records.withUnsafeBufferPointer { records in
      for id in ids where id >= 0 && id < records.count {
        segue_prefetch(records.baseAddress! + id)
      }
    }
    groups.withUnsafeBufferPointer { groups in
      for id in ids where id >= 0 && id < records.count {
        let (g, k) = records[id]
        guard g >= 0 else { continue }
        SceneInstanceGroup.prefetch(k, of: groups.baseAddress! + g)
      }
    }
  }

  @usableFromInline
  func prefetch(removingContiguous ids: UnsafeBufferPointer<Int>) {
    prefetch(contiguous: ids)
    groups.withUnsafeBufferPointer { groups in
      for id in ids where id >= 0 && id < records.count {
        let (g, k) = records[id]
        guard g >= 0 else { continue }
        SceneInstanceGroup.prefetchRemoval(k, of: groups.baseAddress! + g)
      }
    }
  }
}

extension SceneInstanceGroup {
  /// Prefetches what a control call or a completion of slot `k` in `group` reads and writes (a
  /// removal reads more, see ``prefetchRemoval(_:of:)``): the machine and plan of an
  /// animator-driven slot, the machine of a percent-driven one (several cache lines each), and
  /// the latest call's time. Through pointers to the group's arrays and spans of them: reading
  /// the group or an array by value retains and releases the arrays.
  @inline(__always)
  static func prefetch(_ k: Int, of group: UnsafePointer<SceneInstanceGroup>) {
    switch group.pointer(to: \.kinds)!.pointee.span[k] {
    case .animator:
      prefetch(group.pointer(to: \.animators)!, k)
      prefetch(group.pointer(to: \.animatorPlans)!, k)
      prefetch(group.pointer(to: \.animatorHeads)!, k)
    case .percentDriven:
      prefetch(group.pointer(to: \.interactions)!, k)
    case .timed, .position, .interactive:
      break
    }
    prefetch(group.pointer(to: \.lastCall)!, k)
  }

  /// Prefetches what a removal of slot `k` in `group` reads beyond ``prefetch(_:of:)``: the
  /// clock, the pending completion and the id.
  @inline(__always)
  static func prefetchRemoval(_ k: Int, of group: UnsafePointer<SceneInstanceGroup>) {
    prefetch(group.pointer(to: \.clocks)!, k)
    prefetch(group.pointer(to: \.pendingCompletion)!, k)
    prefetch(group.pointer(to: \.ids)!, k)
  }

  /// Prefetches every cache line of `array[k]`.
  @inline(__always)
  static func prefetch<Element>(_ array: UnsafePointer<[Element]>, _ k: Int) {
    array.pointee.span.withUnsafeBufferPointer { buffer in
      CacheLine.prefetch(buffer.baseAddress! + k, byteCount: MemoryLayout<Element>.stride)
    }
  }
}
