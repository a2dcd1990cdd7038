import Segue
import SegueToolSupport

/// The `live` workload (segue-bench, `segue profile`): `N` animator-driven instances of the ten
/// presets (push and pop, slot `i` of scene `i mod 20`), driven frame by frame at 60 Hz by a
/// seeded mix of control calls, as a UI toolkit would: per frame, 1 % of the slots are started,
/// 1 % interrupted (reversed while running, or paused and continued with a spring carrying the
/// measured velocity), 5 % scrubbed (paused, `fractionComplete` set), 1 % finished (stopped,
/// finished at the end) and replaced; an instance that completes by itself is replaced too, so
/// `N` stays constant. With `retargets` (off by default), a quarter of the interruptions
/// (`u ≥ 0.75`) also retarget one animated property of the instance mid-flight
/// (``retarget(_:u:)``, over the rest of its scene). ``LiveBatchDriver`` runs it on a
/// ``/Segue/SceneBatch``,
/// ``LiveScalarDriver`` on one ``/Segue/PropertyAnimator`` per instance with
/// ``/Segue/TransitionScene/sample(at:animator:)`` (the scalar baseline: a
/// `ViewPropertyAnimator`'s timing and the scene it paces).
public enum LiveWorkload {
  /// What a frame asks of one slot.
  public enum Intent: Sendable {
    case start, scrub, interrupt, finish
  }

  /// One intent on one slot, with a uniform number `u ∈ [0, 1)` for its parameters.
  public struct Call: Sendable {
    public var intent: Intent
    public var slot: Int
    public var u: Double
  }

  /// Shares per frame, in percent of `N`: start, interrupt, scrub, finish.
  public static let shares: [(Intent, Double)] = [
    (.start, 0.01), (.interrupt, 0.01), (.scrub, 0.05), (.finish, 0.01),
  ]
  /// The frame period, seconds.
  public static let framePeriod = 1.0 / 60

  /// The seeded source of each frame's calls.
  public struct Script: Sendable {
    var state: UInt64
    public let slots: Int

    public init(slots: Int, seed: UInt64 = 0x11FE) {
      self.slots = slots
      state = seed
    }

    mutating func unit() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) * 0x1.0p-53
    }

    /// The calls of the next frame, into `calls` (cleared; keeps its capacity).
    public mutating func nextFrame(into calls: inout [Call]) {
      calls.removeAll(keepingCapacity: true)
      for (intent, share) in LiveWorkload.shares {
        let count = Int((Double(slots) * share).rounded())
        for _ in 0..<count {
          let slot = min(Int(unit() * Double(slots)), slots - 1)
          calls.append(Call(intent: intent, slot: slot, u: unit()))
        }
      }
    }
  }

  /// What the driver knows of a slot (a toolkit's own view of its animators).
  public struct SlotState: Sendable {
    public var active = false
    public var running = false
    public var reversed = false
    /// Finished this frame: no more calls until replaced.
    public var over = false
  }

  /// Makes the animator calls an intent makes on a slot in `state` at time `t`, in order, through
  /// `apply`, updating `state`; stops at the first call `apply` refuses (returns `false`: the
  /// toolkit's view was stale, e.g. the animator completed during this frame's calls), which
  /// marks the slot over. `velocity` is the spring's initial velocity (fractions of the remaining
  /// distance per second) measured from the running animator, used when it is interrupted.
  @inline(__always)
  public static func makeCalls(
    for call: Call, state: inout SlotState, at t: Double, velocity: Double,
    apply: (AnimatorEvent) -> Bool
  ) {
    guard !state.over else { return }
    let accepted: Bool
    switch call.intent {
    case .start:
      accepted = apply(.start(time: t))
      state.active = true
      state.running = true
    case .scrub:
      accepted = apply(.pause(time: t)) && apply(.setFractionComplete(time: t, fraction: call.u))
      state.active = true
      state.running = false
    case .interrupt:
      accepted = interrupt(call, state: &state, at: t, velocity: velocity, apply: apply)
    case .finish:
      accepted =
        !state.active
        || (apply(.stop(time: t, withoutFinishing: false))
          && apply(.finish(time: t, position: .end)))
      state.over = true
    }
    if !accepted { state.over = true }
  }

  /// The calls of an interruption: start an idle slot; reverse a running one (`u < 0.5`);
  /// otherwise pause it if running and continue with a spring carrying `velocity`. `false` when
  /// `apply` refused one.
  @inline(__always)
  static func interrupt(
    _ call: Call, state: inout SlotState, at t: Double, velocity: Double,
    apply: (AnimatorEvent) -> Bool
  ) -> Bool {
    if !state.active {
      state.active = true
      state.running = true
      return apply(.start(time: t))
    }
    if state.running && call.u < 0.5 {
      state.reversed.toggle()
      return apply(.setReversed(time: t, reversed: state.reversed))
    }
    let v = state.running ? velocity : 0
    if state.running, !apply(.pause(time: t)) { return false }
    state.running = true
    let spring =
      (try? SpringTimingParameters(dampingRatio: 0.8, initialVelocity: Vector2(dx: v, dy: 0)))
    return apply(.continueAnimation(time: t, timing: spring.map { .spring($0) }, durationFactor: 1))
  }

  /// A spring's initial velocity from the eased progress `q` and its rate `dq/dt` (1/s), towards
  /// the end the animator heads for: fractions of the remaining distance per second, 0 when
  /// almost there, clamped to ±50.
  public static func springVelocity(progress q: Double, rate: Double, reversed: Bool) -> Double {
    let remaining = reversed ? -q : 1 - q
    guard abs(remaining) > 1e-3, rate.isFinite else { return 0 }
    return min(max(rate / remaining, -50), 50)
  }

  /// The clock of every instance.
  public static let clock = SceneClock.animator(timingParameters: .easeInEaseOut)

  /// The interruptions with `u` at least this also retarget.
  public static let retargetThreshold = 0.75

  /// What a scene's instances retarget: a layer and one of its animated geometry properties.
  public struct RetargetChoice: Sendable {
    public var layerID: String
    public var property: LayerProperty
    /// The property's model value (the target before any retarget).
    public var model: AnimationValue
  }

  /// The first animation of `scene` on `position`, `opacity` or `transform`, or `nil`.
  public static func retargetChoice(_ scene: TransitionScene) -> RetargetChoice? {
    for entry in scene.animations.entries {
      let p = entry.animation.property
      guard p == .position || p == .opacity || p == .transform,
        let layer = scene.model[id: entry.layerID]
      else { continue }
      return RetargetChoice(layerID: entry.layerID, property: p, model: p.value(in: layer))
    }
    return nil
  }

  /// The new target of an interruption with `u ∈ [retargetThreshold, 1)`: with `w` its position
  /// in that range, a position moved by `(80w − 40, 60w − 30)` points, an opacity `w`, a
  /// transform followed by a translation of `(40w − 20, 30w)` points.
  public static func retarget(_ choice: RetargetChoice, u: Double) -> AnimationValue {
    let w = (u - retargetThreshold) / (1 - retargetThreshold)
    switch choice.model {
    case .point(let p): return .point(Point(x: p.x + 80 * w - 40, y: p.y + 60 * w - 30))
    case .number: return .number(w)
    case .transform(let m): return .transform(m.translated(x: 40 * w - 20, y: 30 * w, z: 0))
    default: return choice.model
    }
  }
}

/// ``LiveWorkload`` on a ``/Segue/SceneBatch``: slot `i` is instance `ids[i]`.
public struct LiveBatchDriver {
  public private(set) var batch: SceneBatch
  public private(set) var ids: [Int]
  public private(set) var states: [LiveWorkload.SlotState]
  /// Per instance id: its slot.
  var slotOfID: [Int]
  /// Per slot: the template its instances use.
  let templates: [SceneTemplate]
  /// Slots marked over during this frame's calls, replaced at its end.
  var overSlots: [Int] = []
  /// The instances this frame's calls touch, prefetched before the calls.
  var touched: [Int] = []
  /// Where `advance` writes the completions it delivers (one per slot at most).
  var completions: [SceneCompletionEvent]
  /// Control calls made so far (animator calls, retargets, and a removal and an addition per
  /// replaced instance), and completions delivered.
  public private(set) var callCount = 0
  public private(set) var completionCount = 0
  /// Calls the batch rejected (the driver's view of the slot was stale; the slot is replaced).
  public private(set) var rejectedCount = 0
  /// Retargets made, and those the batch rejected (an instance already at its end).
  public private(set) var retargetCount = 0
  public private(set) var rejectedRetargetCount = 0
  /// Seconds spent in the retarget calls (accepted and rejected), read around each call.
  public private(set) var retargetSeconds = 0.0
  /// Per slot: what its scene retargets.
  let choices: [LiveWorkload.RetargetChoice?]
  /// Whether interruptions with `u ≥ retargetThreshold` also retarget.
  public let retargets: Bool
  /// The durations of one control call in ``callSampleStride`` (animator calls, removals and
  /// additions; not retargets), each read around the call with `CLOCK_MONOTONIC` (so each
  /// includes one clock read).
  public private(set) var callDurations = CallDurationHistogram()
  /// One call in this many is timed on its own.
  public static let callSampleStride = 16
  /// The frame's calls prefetch their instances in blocks of this many, one block ahead of the
  /// calls being made: the state a frame's calls touch (about 1 MB for 10 000 instances) is more
  /// than a core's L2 cache, so prefetching it all before the first call loses the first
  /// instances' lines again before their calls.
  public static let prefetchBlock = 16

  /// Counts a control call; returns the clock reading (`monotonicNanoseconds()`) to time
  /// it with when it is a sampled one, else 0 (``recordCall(since:)`` once it returns).
  @inline(__always)
  mutating func countCall() -> UInt64 {
    callCount += 1
    return callCount % Self.callSampleStride == 0 ? monotonicNanoseconds() : 0
  }

  /// Records the duration of a sampled call started at `start` (nothing for 0).
  @inline(__always)
  mutating func recordCall(since start: UInt64) {
    if start != 0 { callDurations.record(nanoseconds: monotonicNanoseconds() &- start) }
  }

  public init(slots: Int, retargets: Bool = false) throws {
    self.retargets = retargets
    let scenes = try PresetsWorkload.scenes()
    var batch = SceneBatch()
    var ids: [Int] = []
    var templates: [SceneTemplate] = []
    for i in 0..<slots {
      let id = try batch.add(.init(scene: scenes[i % scenes.count], clock: LiveWorkload.clock))
      ids.append(id)
      guard let template = batch.template(of: id) else { throw LiveWorkloadError.lostInstance(id) }
      templates.append(template)
    }
    try batch.setAdditiveCapacity(max(SceneBatch.defaultAdditiveCapacity, slots))
    self.batch = batch
    self.ids = ids
    self.templates = templates
    choices = templates.map { LiveWorkload.retargetChoice($0.scene) }
    states = Array(repeating: LiveWorkload.SlotState(), count: slots)
    slotOfID = Array(repeating: -1, count: slots)
    for (slot, id) in ids.enumerated() { slotOfID[id] = slot }
    overSlots.reserveCapacity(slots)
    touched.reserveCapacity(slots)
    completions = Array(
      repeating: SceneCompletionEvent(instance: 0, position: .end, time: 0), count: slots)
  }

  /// The control phase of a frame at `t`: completions so far replaced, the frame's calls, the
  /// completions they caused replaced. Allocates nothing once warm.
  public mutating func control(_ calls: [LiveWorkload.Call], at t: Double) throws {
    try replaceCompleted(at: t)
    touched.removeAll(keepingCapacity: true)
    for call in calls { touched.append(ids[call.slot]) }
    let block = Self.prefetchBlock
    batch.prefetch(touched.prefix(block))
    for (i, call) in calls.enumerated() {
      if i % block == 0 { batch.prefetch(touched.dropFirst(i + block).prefix(block)) }
      let id = ids[call.slot]
      var velocity = 0.0
      if call.intent == .interrupt, states[call.slot].running {
        // The measured velocity: the clock's dτ/dt (the animator's analytic progress rate), as
        // fractions of the remaining distance per second.
        let now = try batch.time(of: id, at: t)
        let d = templates[call.slot].scene.duration
        velocity = LiveWorkload.springVelocity(
          progress: now.time / d, rate: now.rate / d, reversed: states[call.slot].reversed)
      }
      var state = states[call.slot]
      let wasOver = state.over
      LiveWorkload.makeCalls(for: call, state: &state, at: t, velocity: velocity) { event in
        let start = countCall()
        do {
          try batch.apply(event, to: id)
          recordCall(since: start)
          return true
        } catch {
          // A stale view (see `makeCalls`): the instance is replaced.
          rejectedCount += 1
          return false
        }
      }
      states[call.slot] = state
      if !wasOver, state.over { overSlots.append(call.slot) }
      if retargets, call.intent == .interrupt, call.u >= LiveWorkload.retargetThreshold,
        !states[call.slot].over, let choice = choices[call.slot]
      {
        callCount += 1
        retargetCount += 1
        let start = monotonicNanoseconds()
        do {
          try batch.retarget(
            choice.property, of: choice.layerID, in: id,
            to: LiveWorkload.retarget(choice, u: call.u), at: t)
        } catch {
          rejectedRetargetCount += 1
        }
        retargetSeconds += Double(monotonicNanoseconds() - start) * 1e-9
      }
    }
    try replaceCompleted(at: t)
  }

  mutating func replaceCompleted(at t: Double) throws {
    while true {
      let n = try completions.withUnsafeMutableBufferPointer {
        try batch.advance(to: t, completions: $0)
      }
      touched.removeAll(keepingCapacity: true)
      for c in completions[..<n] { touched.append(c.instance) }
      batch.prefetch(removing: touched)
      for c in completions[..<n] {
        try replace(slot: slotOfID[c.instance])
        completionCount += 1
      }
      if n < completions.count { break }
    }
    touched.removeAll(keepingCapacity: true)
    for slot in overSlots where states[slot].over { touched.append(ids[slot]) }
    batch.prefetch(removing: touched)
    for slot in overSlots where states[slot].over { try replace(slot: slot) }
    overSlots.removeAll(keepingCapacity: true)
  }

  mutating func replace(slot: Int) throws {
    let old = ids[slot]
    var start = countCall()
    try batch.remove(old)
    recordCall(since: start)
    slotOfID[old] = -1
    start = countCall()
    let id = try batch.add(templates[slot], clock: LiveWorkload.clock)
    recordCall(since: start)
    slotOfID[id] = slot
    ids[slot] = id
    states[slot] = LiveWorkload.SlotState()
  }
}

/// ``LiveWorkload`` on one ``/Segue/PropertyAnimator`` per slot, sampled with
/// ``/Segue/TransitionScene/sample(at:animator:)``: the scalar baseline.
public struct LiveScalarDriver: Sendable {
  public private(set) var animators: [PropertyAnimator]
  public private(set) var states: [LiveWorkload.SlotState]
  /// Per slot: its scene with the retargets made since the slot was last replaced.
  public private(set) var scenes: [TransitionScene]
  let originals: [TransitionScene]
  let choices: [LiveWorkload.RetargetChoice?]
  /// Control calls made so far, counted as ``LiveBatchDriver/callCount`` (a replaced animator
  /// counts as a removal and an addition).
  public private(set) var callCount = 0
  public private(set) var rejectedCount = 0
  /// Whether interruptions with `u ≥ retargetThreshold` also retarget.
  public let retargets: Bool

  public init(slots: Int, retargets: Bool = false) throws {
    self.retargets = retargets
    let all = try PresetsWorkload.scenes()
    scenes = (0..<slots).map { all[$0 % all.count] }
    originals = scenes
    choices = scenes.map { LiveWorkload.retargetChoice($0) }
    animators = try scenes.map { try Self.animator($0) }
    states = Array(repeating: LiveWorkload.SlotState(), count: slots)
  }

  static func animator(_ scene: TransitionScene) throws -> PropertyAnimator {
    try PropertyAnimator(duration: scene.duration, timingParameters: .easeInEaseOut)
  }

  /// The control phase of a frame at `t` (as ``LiveBatchDriver/control(_:at:)``).
  public mutating func control(_ calls: [LiveWorkload.Call], at t: Double) throws {
    try replaceCompleted(at: t)
    for call in calls {
      let s = call.slot
      var velocity = 0.0
      if call.intent == .interrupt, states[s].running {
        // What the batch driver measures: the progress clamped to the scene, no rate outside it.
        let now = try animators[s].sample(at: t)
        let inside = now.progress > 0 && now.progress < 1
        velocity = LiveWorkload.springVelocity(
          progress: min(max(now.progress, 0), 1), rate: inside ? now.progressRate : 0,
          reversed: states[s].reversed)
      }
      var state = states[s]
      LiveWorkload.makeCalls(for: call, state: &state, at: t, velocity: velocity) { event in
        callCount += 1
        do {
          try animators[s].apply(event)
          return true
        } catch {
          rejectedCount += 1
          return false
        }
      }
      states[s] = state
      if retargets, call.intent == .interrupt, call.u >= LiveWorkload.retargetThreshold,
        !states[s].over,
        let choice = choices[s]
      {
        callCount += 1
        // The scene time the batch retargets at: the eased progress, clamped, times D.
        let q = min(max(try animators[s].sample(at: t).progress, 0), 1)
        try? scenes[s].retarget(
          choice.property, of: choice.layerID, to: LiveWorkload.retarget(choice, u: call.u),
          at: q * scenes[s].duration)
      }
    }
    try replaceCompleted(at: t)
  }

  mutating func replaceCompleted(at t: Double) throws {
    for s in animators.indices {
      if try animators[s].advance(to: t) != nil || states[s].over {
        animators[s] = try Self.animator(originals[s])
        callCount += 2
        scenes[s] = originals[s]
        states[s] = LiveWorkload.SlotState()
      }
    }
  }

  /// Samples every slot at `t`; returns the sum of every matrix field and opacity.
  public func evaluate(at t: Double) throws -> Double {
    var sum = 0.0
    for s in animators.indices {
      for layer in try scenes[s].sample(at: t, animator: animators[s]).layers {
        sum += layer.matrix.fields.reduce(layer.opacity, +)
      }
    }
    return sum
  }
}

/// Errors of the live drivers.
public enum LiveWorkloadError: Error {
  case lostInstance(Int)
}
