/// How one instance of a ``SceneBatch`` maps the batch time `t` (seconds) to its scene.
public enum SceneClock: Hashable, Sendable {
  /// Scene time `τ = (t − start)·speed`, sampled as ``TransitionScene/sample(at:)``; before its
  /// start (`τ < 0`) the instance shows its state at `τ = 0`, from `τ ≥ duration` on the finished
  /// state. `start` in seconds (finite), `speed` unitless (finite, `> 0`).
  case timed(start: Double, speed: Double)
  /// A percent-driven instance held at timeline position `p ∈ [0, 1]` (unitless): the scene at
  /// `p·duration`, never completed, whatever `t`.
  case position(Double)
  /// A percent-driven instance following `timeline` from wall time `start` (seconds): sampled as
  /// ``TransitionScene/sample(at:interaction:)`` at `max(t − start, 0)`, including its finished
  /// and cancelled completion states. The timeline's duration must equal the scene's.
  case interactive(InteractionTimeline, start: Double)
  /// A live percent-driven instance (`UIPercentDrivenInteractiveTransition`) that began at wall
  /// time `start` (seconds): driven by ``SceneBatch/apply(_:to:)-(InteractionEvent,_)`` calls as they
  /// happen, with the rules of ``InteractionTimeline`` (event times are batch times; the
  /// transition's time is `t − start`). `completionSpeed` finite and `> 0`.
  case percentDriven(
    start: Double, completionSpeed: Double = 1, completionCurve: TimingFunction = .easeInEaseOut,
    wantsInteractiveStart: Bool = true)
  /// A live animator-driven instance (`UIViewPropertyAnimator` with the scene's duration and
  /// `timingParameters`), inactive until started: driven by
  /// ``SceneBatch/apply(_:to:)-(AnimatorEvent,_)`` calls, with the rules of ``PropertyAnimator``
  /// on the batch clock (times `≥ 0`). The instance shows the scene at `τ = clamp(q, 0, 1)·duration`
  /// for the animator's eased progress `q`; completed at the end it shows the finished state, at
  /// the start the cancelled state, at `.current` the scene where it stopped.
  case animator(
    timingParameters: TimingCurveProvider = .linear, pausesOnCompletion: Bool = false,
    scrubsLinearly: Bool = true)
}

/// Many ``TransitionScene`` instances, each with its own ``SceneClock``, evaluated in `Float` by
/// ``SceneEvaluationJob`` into caller-owned buffers.
///
/// Each distinct scene is compiled once into a ``SceneTemplate`` shared by its instances; an
/// instance is only a template and a clock, so ``add(_:clock:)`` and ``remove(_:)`` cost about a
/// clock's bytes (plus one compile for a new scene). Instance ids stay valid until removed; output
/// rows move on every change, so read them through ``layerIndex(instance:layerID:)`` or a
/// ``SceneBatchOutput``. Sixteen instances of one template are evaluated per `SIMD16<Float>` step,
/// one per lane. Ids, row layout, media timing and what is not supported are in
/// <doc:SceneBatchInternals>.
public struct SceneBatch: Sendable {
  /// One instance: a scene and its clock.
  public struct Instance: Sendable {
    /// The scene.
    public var scene: TransitionScene
    /// Its clock.
    public var clock: SceneClock

    /// An instance of `scene` on `clock`.
    public init(scene: TransitionScene, clock: SceneClock) {
      self.scene = scene
      self.clock = clock
    }
  }

  /// The templates, one per group, in the order they were first used (a template stays when its
  /// last instance is removed, so a later instance of the same scene reuses it).
  public private(set) var templates: [SceneTemplate] = []
  /// Per group (template), the instances in row order.
  var groups: [SceneInstanceGroup] = []
  /// Per instance id: its group and position, or group −1 for a freed id.
  var records: [(group: Int, slot: Int)] = []
  /// Freed ids, reused last freed first.
  var freeIDs: [Int] = []
  /// Per group: its first output row; one more entry, the total (``layerCount``).
  var groupRows: [Int] = [0]
  /// Per group: its first lane group; one more entry, the total.
  var groupItems: [Int] = [0]
  /// Scenes already compiled, by a cheap key (then compared in full).
  var templateIndex: [SceneKey: [Int]] = [:]
  /// The instances' additive animations (``retarget(_:of:in:to:at:duration:timingParameters:)``).
  var additive = SceneAdditivePool(capacity: SceneBatch.defaultAdditiveCapacity)

  /// The total number of layers (output rows).
  public var layerCount: Int { groupRows[groupRows.count - 1] }
  /// The number of instances.
  public var instanceCount: Int { records.count - freeIDs.count }
  /// The number of lane groups (sixteen instances of one template at most) a frame evaluates.
  public var laneGroupCount: Int { groupItems[groupItems.count - 1] }
  /// Keyframe animations (summed over instances) evaluated in `Float` lanes by the keyframe
  /// kernel.
  public var batchedKeyframeTrackCount: Int {
    zip(templates, groups).reduce(0) { $0 + $1.0.batchedKeyframeTrackCount * $1.1.count }
  }
  /// Keyframe animations (summed over instances) evaluated by the scalar `Double` code
  /// (``SceneTemplate/scalarKeyframeTrackCount``).
  public var scalarKeyframeTrackCount: Int {
    zip(templates, groups).reduce(0) { $0 + $1.0.scalarKeyframeTrackCount * $1.1.count }
  }

  /// An empty batch.
  public init() {}

  /// Compiles `instances`: instance `k` gets id `k`; instances with equal scenes share one
  /// ``SceneTemplate``.
  ///
  /// - Throws: ``ValidationError`` on field `"instances"` with the instance index: what
  ///   ``add(_:clock:)`` rejects in its clock, and what ``SceneTemplate/init(_:)`` rejects in its
  ///   scene (the first instance of that scene).
  public init(_ instances: [Instance]) throws(ValidationError) {
    records.reserveCapacity(instances.count)
    for (k, instance) in instances.enumerated() {
      do {
        _ = try add(instance)
      } catch {
        throw ValidationError(field: "instances", index: k, reason: error.reason)
      }
    }
  }

  /// Adds an instance of `scene` on `clock`, compiling the scene's template unless an equal scene
  /// is already in the batch.
  ///
  /// - Returns: the new instance's id.
  /// - Throws: what ``add(_:clock:)`` and ``SceneTemplate/init(_:)`` throw.
  @discardableResult
  public mutating func add(_ instance: Instance) throws(ValidationError) -> Int {
    let key = SceneKey(instance.scene)
    if let candidates = templateIndex[key] {
      for g in candidates where sameScene(templates[g].scene, instance.scene) {
        return try add(templates[g], clock: instance.clock, group: g)
      }
    }
    let template = try SceneTemplate(instance.scene)
    return try add(template, clock: instance.clock)
  }

  /// Adds an instance of `template` on `clock`: no compile, only the clock is stored.
  ///
  /// - Returns: the new instance's id (see the type's description).
  /// - Throws: ``ValidationError`` on field `"clock"`: ``ValidationError/Reason/notFinite`` for a
  ///   non-finite start or position, ``ValidationError/Reason/notPositive`` for a speed that is
  ///   not `> 0`, ``ValidationError/Reason/outOfRange(lower:upper:)`` `(0, 1)` for a position
  ///   outside `[0, 1]`, ``ValidationError/Reason/mustEqual(_:)`` when an interaction timeline's
  ///   duration differs from the scene's.
  @discardableResult
  public mutating func add(_ template: SceneTemplate, clock: SceneClock) throws(ValidationError)
    -> Int
  {
    let g: Int
    if let existing = templates.firstIndex(where: { $0 === template }) {
      g = existing
    } else {
      try Self.validate(clock, duration: template.scene.duration)
      g = templates.count
      templates.append(template)
      groups.append(SceneInstanceGroup())
      templateIndex[SceneKey(template.scene), default: []].append(g)
      groupRows.append(groupRows[g])
      groupItems.append(groupItems[g])
    }
    return try add(template, clock: clock, group: g)
  }

  private mutating func add(_ template: SceneTemplate, clock: SceneClock, group g: Int)
    throws(ValidationError) -> Int
  {
    try Self.validate(clock, duration: template.scene.duration)
    let id: Int
    if let free = freeIDs.popLast() {
      id = free
    } else {
      id = records.count
      records.append((-1, -1))
    }
    let slot = groups[g].count
    groups[g].append(id: id, clock: clock, duration: template.scene.duration)
    records[id] = (g, slot)
    updateLayout(from: g)
    return id
  }

  /// Removes instance `id`; the last instance of its group takes its rows (see the type's
  /// description). The id may be handed out again by a later add.
  ///
  /// - Throws: ``ValidationError`` `"instance"` ``ValidationError/Reason/unknown(_:)`` when no
  ///   instance has this id (never added, or already removed).
  public mutating func remove(_ id: Int) throws(ValidationError) {
    guard id >= 0, id < records.count, records[id].group >= 0 else {
      throw ValidationError(field: "instance", reason: .unknown("\(id)"))
    }
    let (g, slot) = records[id]
    releaseAdditive(group: g, slot: slot)
    if let moved = groups[g].swapRemove(slot) { records[moved].slot = slot }
    records[id] = (-1, -1)
    freeIDs.append(id)
    updateLayout(from: g)
  }

  /// Brings the row and lane-group prefixes up to date after group `g` changed size: its own
  /// extent is computed again and the difference added to every later prefix (`O(groups)`
  /// additions).
  private mutating func updateLayout(from g: Int) {
    let lanes = SceneLaneGroup.laneCount
    let count = groups[g].count
    let rowChange = groupRows[g] + count * templates[g].layerCount - groupRows[g + 1]
    let itemChange = groupItems[g] + (count + lanes - 1) / lanes - groupItems[g + 1]
    for h in (g + 1)..<groupRows.count {
      groupRows[h] += rowChange
      groupItems[h] += itemChange
    }
  }

  /// Instance `id`, or `nil` when there is no such instance.
  public func instance(_ id: Int) -> Instance? {
    guard id >= 0, id < records.count, records[id].group >= 0 else { return nil }
    let (g, slot) = records[id]
    return Instance(scene: templates[g].scene, clock: groups[g].clocks[slot])
  }

  /// The ids of the instances, ascending.
  public var instanceIDs: [Int] {
    records.indices.filter { records[$0].group >= 0 }
  }

  /// The output index of the layer `layerID` of instance `instance`, or `nil` when there is no
  /// such instance or layer. Valid until the next ``add(_:clock:)`` or ``remove(_:)``.
  public func layerIndex(instance: Int, layerID: String) -> Int? {
    guard instance >= 0, instance < records.count, records[instance].group >= 0 else {
      return nil
    }
    let (g, slot) = records[instance]
    guard let i = templates[g].scene.model.index(of: layerID) else { return nil }
    return groupRows[g] + slot * templates[g].layerCount + i
  }

  /// Per output index, the instance id and the layer id (computed; `O(layerCount)`).
  public var layers: [(instance: Int, id: String)] {
    var result: [(instance: Int, id: String)] = []
    result.reserveCapacity(layerCount)
    for (g, group) in groups.enumerated() {
      let ids = templates[g].scene.model.layers.map(\.id)
      for slot in 0..<group.count {
        for id in ids { result.append((Int(group.ids[slot]), id)) }
      }
    }
    return result
  }

  /// The largest lane group's scratch (a context slot's capacity).
  var scratch: SceneScratchSize {
    var s = SceneScratchSize()
    for t in templates { s.formUnion(t.scratch) }
    return s
  }

  static func validate(_ clock: SceneClock, duration: Double) throws(ValidationError) {
    func fail(_ reason: ValidationError.Reason) -> ValidationError {
      ValidationError(field: "clock", reason: reason)
    }
    switch clock {
    case .timed(let start, let speed):
      guard start.isFinite, speed.isFinite else { throw fail(.notFinite) }
      guard speed > 0 else { throw fail(.notPositive) }
    case .position(let p):
      guard p.isFinite else { throw fail(.notFinite) }
      guard p >= 0, p <= 1 else { throw fail(.outOfRange(lower: 0, upper: 1)) }
    case .interactive(let timeline, let start):
      guard start.isFinite else { throw fail(.notFinite) }
      guard timeline.duration == duration else { throw fail(.mustEqual(duration)) }
    case .percentDriven(let start, let speed, _, _):
      guard start.isFinite, speed.isFinite else { throw fail(.notFinite) }
      guard speed > 0 else { throw fail(.notPositive) }
    case .animator(let timing, _, _):
      let length = timing.runLength(forDuration: duration)
      guard length.isFinite, length > 0 else {
        throw fail(.invalidState("the timing parameters give a run length that is not > 0"))
      }
    }
  }
}

/// How the evaluation reads an instance's clock (one byte per instance).
enum SceneClockKind: UInt8 {
  /// ``SceneClock/timed(start:speed:)``: ``SceneInstanceGroup/start`` and
  /// ``SceneInstanceGroup/speed``.
  case timed
  /// ``SceneClock/position(_:)``: the scene time in ``SceneInstanceGroup/start``.
  case position
  /// ``SceneClock/interactive(_:start:)``: read from ``SceneInstanceGroup/clocks``.
  case interactive
  /// ``SceneClock/percentDriven(start:completionSpeed:completionCurve:wantsInteractiveStart:)``:
  /// read from ``SceneInstanceGroup/interactions``.
  case percentDriven
  /// ``SceneClock/animator(timingParameters:pausesOnCompletion:scrubsLinearly:)``: read from
  /// ``SceneInstanceGroup/animators``.
  case animator
}

/// The instances of one template, structure of arrays in row order.
struct SceneInstanceGroup: Sendable {
  /// Instance ids.
  var ids: [Int32] = []
  /// How each clock is read.
  var kinds: [SceneClockKind] = []
  /// Timed, percent-driven, interactive: the start (seconds); position: the scene time
  /// `p·duration`.
  var start: [Double] = []
  /// Timed: the speed.
  var speed: [Double] = []
  /// The clocks as last given (at add or ``SceneBatch/setClock(_:of:at:)``).
  var clocks: [SceneClock] = []
  /// Percent-driven instances: the machine after the latest call (`nil` for the others).
  var interactions: [InteractionMachine?] = []
  /// Animator-driven instances: the machine after the latest call
  /// (``AnimatorMachine/notAnimated`` for the others). Its own array, so a call copies and
  /// stores a plain machine rather than an enum of machines.
  var animators: [AnimatorMachine] = []
  /// Animator-driven instances: the clock after the latest call, as plain values
  /// (``AnimatorClockPlan/notAnimated`` for the others).
  var animatorPlans: [AnimatorClockPlan] = []
  /// Animator-driven instances: what a frame reads of the plan while the fraction does not move
  /// (``AnimatorClockHead/notAnimated`` for the others).
  var animatorHeads: [AnimatorClockHead] = []
  /// The wall time of the latest control call (`−∞` before any).
  var lastCall: [Double] = []
  /// The wall time the completion fires, while it is decided and not yet reported; `+∞` otherwise.
  var pendingCompletion: [Double] = []
  /// The first of the instance's additive animations in the batch's pool, −1 for none.
  var additiveHeads: [Int32] = []
  /// The number of additive animations of the group's instances (0: the stage is skipped).
  var additiveCount = 0
  /// The initial state of the clock appended or set last: ``append(id:clock:duration:)`` and
  /// ``set(_:clock:duration:)`` read their values from here, and reuse it for the next equal
  /// animator clock (a toolkit adds the instances of a template on one clock).
  var initial = InitialState(.position(0), duration: 1)

  var count: Int { ids.count }

  mutating func append(id: Int, clock: SceneClock, duration: Double) {
    loadInitialState(clock, duration: duration)
    ids.append(Int32(id))
    clocks.append(clock)
    kinds.append(initial.kind)
    start.append(initial.start)
    speed.append(initial.speed)
    interactions.append(initial.interaction)
    animators.append(initial.animator)
    animatorPlans.append(initial.plan)
    animatorHeads.append(initial.head)
    lastCall.append(-.infinity)
    pendingCompletion.append(initial.completion)
    additiveHeads.append(-1)
  }

  /// Replaces the clock at `slot` (validated) and its live state, from its initial state.
  mutating func set(_ slot: Int, clock: SceneClock, duration: Double) {
    loadInitialState(clock, duration: duration)
    clocks[slot] = clock
    kinds[slot] = initial.kind
    start[slot] = initial.start
    speed[slot] = initial.speed
    interactions[slot] = initial.interaction
    animators[slot] = initial.animator
    animatorPlans[slot] = initial.plan
    animatorHeads[slot] = initial.head
    pendingCompletion[slot] = initial.completion
  }

  /// Makes ``initial`` the initial state of `clock`, unless it already is that of an equal
  /// animator clock. Each value is then copied once, from ``initial`` into its array.
  mutating func loadInitialState(_ clock: SceneClock, duration: Double) {
    if initial.kind == .animator, initial.clock == clock { return }
    initial = InitialState(clock, duration: duration)
  }

  /// An instance's live state on a clock (validated) before any call, made once and stored by
  /// ``append(id:clock:duration:)`` and ``set(_:clock:duration:)``.
  struct InitialState {
    var kind = SceneClockKind.timed
    var start = 0.0
    var speed = 0.0
    var interaction: InteractionMachine? = nil
    var animator = AnimatorMachine.notAnimated
    var plan = AnimatorClockPlan.notAnimated
    var head = AnimatorClockHead.notAnimated
    /// When the completion fires (`+∞` for none).
    var completion = Double.infinity
    /// The clock it is the state of.
    var clock: SceneClock

    init(_ clock: SceneClock, duration: Double) {
      self.clock = clock
      switch clock {
      case .timed(let s, let v):
        start = s
        speed = v
        completion = s + duration / v
      case .position(let p):
        kind = .position
        start = p * duration
      case .interactive(let timeline, let s):
        kind = .interactive
        start = s
        completion = timeline.replayed(upTo: .infinity).completionTime.map { $0 + s } ?? .infinity
      case .percentDriven(let s, let k, let c, let interactiveStart):
        kind = .percentDriven
        start = s
        let machine = InteractionMachine(
          duration: duration, completionSpeed: k, completionCurve: c,
          wantsInteractiveStart: interactiveStart)
        interaction = machine
        completion = machine.completionTime.map { $0 + s } ?? .infinity
      case .animator(let timing, let pauses, let scrubs):
        kind = .animator
        animator = AnimatorMachine(
          duration: timing.runLength(forDuration: duration), curve: timing,
          pausesOnCompletion: pauses, scrubsLinearly: scrubs)
        plan = AnimatorClockPlan(animator)
        head = AnimatorClockHead(plan)
      }
      if completion.isNaN { completion = .infinity }
    }
  }

  /// Removes position `slot` by moving the last instance into it; returns the moved id.
  mutating func swapRemove(_ slot: Int) -> Int? {
    let moved: Int? = slot == count - 1 ? nil : Int(ids[count - 1])
    Self.moveLast(&ids, into: slot)
    Self.moveLast(&start, into: slot)
    Self.moveLast(&speed, into: slot)
    Self.moveLast(&clocks, into: slot)
    // Only percent-driven instances hold a machine; when neither is one, both are `nil` and the
    // one at `slot` need not be read.
    if kinds[slot] == .percentDriven || kinds[kinds.count - 1] == .percentDriven {
      Self.moveLast(&interactions, into: slot)
    } else {
      interactions.removeLast()
    }
    Self.moveLast(&kinds, into: slot)
    Self.moveLast(&animators, into: slot)
    Self.moveLast(&animatorPlans, into: slot)
    Self.moveLast(&animatorHeads, into: slot)
    Self.moveLast(&lastCall, into: slot)
    Self.moveLast(&pendingCompletion, into: slot)
    Self.moveLast(&additiveHeads, into: slot)
    return moved
  }

  /// Removes `array`'s last element and puts it at `slot` (nothing more when `slot` was last).
  @inline(__always)
  static func moveLast<Element>(_ array: inout [Element], into slot: Int) {
    let last = array.removeLast()
    if slot < array.count { array[slot] = last }
  }
}

/// A cheap key for finding equal scenes.
struct SceneKey: Hashable {
  var duration: UInt64
  var layers: Int
  var animations: Int
  var events: Int
  var firstLayer: String

  init(_ scene: TransitionScene) {
    duration = scene.duration.bitPattern
    layers = scene.model.count
    animations = scene.animations.entries.count
    events = scene.events.count
    firstLayer = scene.model.layers.first?.id ?? ""
  }
}

/// Whether two scenes are the same (every property the batch reads, and the blend modes).
func sameScene(_ a: TransitionScene, _ b: TransitionScene) -> Bool {
  a.duration == b.duration && a.containerSize == b.containerSize && a.model == b.model
    && a.animations.entries == b.animations.entries && a.events == b.events
    && a.finishChanges == b.finishChanges && a.cancelChanges == b.cancelChanges
    && a.blendModes == b.blendModes
}

/// The compiled track of `values` when the keyframe kernel takes it, or `nil` when it stays on
/// the scalar path: transforms in the linear and paced modes (interpolated by decomposition, not
/// channel-wise), colours, paths and lists, and tracks with a steps or `linear(…)` timing function
/// (only cubic Béziers are batched).
func batchableTrack(_ values: KeyframeValues) -> CompiledKeyframeTrack? {
  let track: CompiledKeyframeTrack
  switch values {
  case .numbers(let t): track = t.compiled
  case .points(let t): track = t.compiled
  case .sizes(let t): track = t.compiled
  case .rects(let t): track = t.compiled
  case .transforms(let t):
    guard t.calculationMode != .linear, t.calculationMode != .paced else { return nil }
    track = t.compiled
  case .colors, .paths, .colorLists, .numberLists: return nil
  }
  for function in track.timingFunctions + (track.timingFunction.map { [$0] } ?? []) {
    guard case .cubicBezier = function else { return nil }
  }
  return track
}

/// The 43 property values of `layer` in ``LayerPlanes`` order, except bounds as the signed
/// `origin.x, origin.y, size.width, size.height` (turned into `minX, minY, |w|, |h|` at the end of
/// each frame, after animations may have changed origin and size separately).
func rawPlanes(of layer: Layer) -> [Double] {
  let b = layer.bounds
  return [
    b.origin.x, b.origin.y, b.size.width, b.size.height, layer.anchorPoint.x,
    layer.anchorPoint.y, layer.anchorPointZ, layer.position.x, layer.position.y, layer.zPosition,
    layer.opacity,
  ] + layer.transform.fields + layer.sublayerTransform.fields
}

/// Whether the batch skips animations and changes of `property`: it changes only what is drawn
/// (`backgroundColor`, `contentsRect`, `contentsCenter`, `contentsScale` and the properties of text,
/// shape and gradient layers), never a matrix or an opacity.
func isSkippedByBatch(_ property: LayerProperty) -> Bool {
  switch property {
  case .backgroundColor, .contentsRect, .contentsCenter, .contentsScale, .fontSize,
    .foregroundColor, .path, .fillColor, .strokeColor, .lineWidth, .miterLimit, .lineDashPhase,
    .strokeStart, .strokeEnd, .colors, .locations, .startPoint, .endPoint:
    true
  default: false
  }
}

/// The planes a property writes: first plane and channel count; `nil` for properties the batch
/// does not write (``isSkippedByBatch(_:)``, transform sub-paths, the appearance properties).
func planeTarget(_ property: LayerProperty) -> (plane: Int, channels: Int)? {
  switch property {
  case .opacity: (LayerPlanes.opacity, 1)
  case .position: (LayerPlanes.positionX, 2)
  case .positionX: (LayerPlanes.positionX, 1)
  case .positionY: (LayerPlanes.positionY, 1)
  case .zPosition: (LayerPlanes.zPosition, 1)
  case .bounds: (LayerPlanes.boundsMinX, 4)
  case .boundsSize: (LayerPlanes.boundsWidth, 2)
  case .anchorPoint: (LayerPlanes.anchorPointX, 2)
  case .transform: (LayerPlanes.transform, LaneMatrix.fieldCount)
  case .sublayerTransform: (LayerPlanes.sublayerTransform, LaneMatrix.fieldCount)
  case .transformComponent, .backgroundColor, .cornerRadius, .borderWidth, .borderColor,
    .shadowOpacity, .shadowRadius, .shadowOffset, .shadowColor, .contentsRect, .contentsCenter,
    .contentsScale, .fontSize, .foregroundColor, .path, .fillColor, .strokeColor, .lineWidth,
    .miterLimit, .lineDashPhase, .strokeStart, .strokeEnd, .colors, .locations, .startPoint,
    .endPoint, .masksToBounds, .maskedCorners:
    nil
  }
}
