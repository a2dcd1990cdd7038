/// One ``TransitionScene`` compiled once for ``SceneBatch``: everything about the scene that does
/// not depend on an instance's clock, shared by reference by every instance of the scene.
///
/// Instances of one template are evaluated sixteen at a time, one instance per lane, so every
/// constant of the scene is a broadcast. The compile decides once which property planes are
/// dynamic, which matrices are constant, the program of animations (curves, springs, key values),
/// the events and completion states, and a parent-before-child order (linear in the tree's size,
/// no recursion); <doc:SceneBatchInternals> lists each decision. Compiling costs about as much as
/// sampling the scene a few times; adding an instance costs only its clock.
public final class SceneTemplate: @unchecked Sendable {
  /// The scene.
  public let scene: TransitionScene
  /// The number of layers of the scene (output rows per instance).
  public let layerCount: Int
  /// Keyframe animations evaluated in `Float` lanes by the keyframe kernel.
  public let batchedKeyframeTrackCount: Int
  /// Keyframe animations evaluated by the scalar `Double` code (``KeyframeValues/value(at:beforeFlag:)``,
  /// rounded to `Float`): transforms in the linear and paced modes (decomposition), tracks with
  /// steps or `linear(…)` timing functions, and tracks whose values do not fit in `Float`.
  public let scalarKeyframeTrackCount: Int

  let program: SceneProgram
  /// Steps and `linear(…)` timing functions of animations (scalar path).
  let scalarTimings: [TimingFunction]
  /// Keyframe tracks on the scalar path.
  let scalarKeyframes: [KeyframeValues]
  /// Owned memory behind the program's pointers.
  private let storage: SceneTemplateStorage
  /// The model with the scene's `.set` events (``TransitionScene/settledModel()``): the targets
  /// ``SceneBatch/retarget(_:of:in:to:at:duration:timingParameters:)`` retargets from.
  let settledModel: LayerTree

  /// Compiles `scene`.
  ///
  /// - Throws: ``ValidationError`` on field `"scene"`: ``ValidationError/Reason/outOfRange(lower:upper:)``
  ///   when a model value, an animation value or a timing parameter does not fit in `Float`;
  ///   what ``MediaTimingBatch/init(timings:)`` rejects in an animation's timing;
  ///   ``ValidationError/Reason/invalidState(_:)`` naming the layer and key path for animations
  ///   and model changes of transform sub-paths (`transform.rotation.z`, …), which the batch does
  ///   not support, and for a transform animation whose decomposition does not fit in `Float`;
  ///   for animations of the container's layer (``TransitionScene/containerAnimations``): the
  ///   batch applies the container's model `sublayerTransform` as a constant.
  ///   Animations and changes of `backgroundColor` and of the content properties (`contentsRect`,
  ///   `strokeEnd`, `colors`, …) are skipped: they change neither matrices nor opacities.
  ///   ``ValidationError/Reason/invalidState(_:)`` for an additive animation
  ///   (``LayerAnimation/isAdditive``): a batch adds those per instance
  ///   (``SceneBatch/retarget(_:of:in:to:at:duration:timingParameters:)``).
  public init(_ scene: TransitionScene) throws(ValidationError) {
    try Self.checkNoAdditive(scene)
    let compiled = try SceneTemplateCompiler(scene).compile()
    self.scene = scene
    self.layerCount = scene.model.count
    self.program = compiled.program
    self.storage = compiled.storage
    self.scalarTimings = compiled.scalarTimings
    self.scalarKeyframes = compiled.scalarKeyframes
    self.batchedKeyframeTrackCount = compiled.batchedKeyframes
    self.scalarKeyframeTrackCount = compiled.scalarKeyframes.count
    self.settledModel = scene.settledModel()
  }

  /// The scratch one lane group of this template needs.
  var scratch: SceneScratchSize { program.scratch }
}

/// Owned allocations, freed with the template.
final class SceneTemplateStorage: @unchecked Sendable {
  private var blocks: [UnsafeMutableRawPointer] = []

  /// A copy of `values` that lives as long as this storage (at least one element allocated).
  /// `T` holds no references (numbers, pointers, plain structs of them): the copy is never
  /// deinitialised.
  func own<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: max(values.count, 1) * MemoryLayout<T>.stride, alignment: CacheLine.bytes)
    blocks.append(raw)
    let p = raw.bindMemory(to: T.self, capacity: max(values.count, 1))
    values.withUnsafeBufferPointer { b in
      if let base = b.baseAddress { p.initialize(from: base, count: b.count) }
    }
    return p
  }

  deinit {
    for b in blocks { b.deallocate() }
  }
}

/// Scratch sizes of one lane group (lane vectors unless noted).
struct SceneScratchSize: Sendable {
  var dynamic = 0
  var written = 0
  var alphas = 0
  var removals = 0
  var worlds = 0
  var sublayers = 0
  var channels = 0
  /// Shared timings (``SceneOp/timingSlot``), ``SceneBatchSlot/timingVectors`` vectors each.
  var timings = 0

  mutating func formUnion(_ o: SceneScratchSize) {
    dynamic = max(dynamic, o.dynamic)
    written = max(written, o.written)
    alphas = max(alphas, o.alphas)
    removals = max(removals, o.removals)
    worlds = max(worlds, o.worlds)
    sublayers = max(sublayers, o.sublayers)
    channels = max(channels, o.channels)
    timings = max(timings, o.timings)
  }

  func covers(_ o: SceneScratchSize) -> Bool {
    dynamic >= o.dynamic && written >= o.written && alphas >= o.alphas
      && removals >= o.removals && worlds >= o.worlds && sublayers >= o.sublayers
      && channels >= o.channels && timings >= o.timings
  }
}

/// The compiled program of a template: plain pointers into ``SceneTemplateStorage`` and counts,
/// nothing reference-counted, so the evaluation loop reads it without retains.
struct SceneProgram: @unchecked Sendable {
  var duration: Double
  var layerCount: Int
  /// Layers in parent-before-child order.
  var nodes: UnsafePointer<SceneNode>
  /// Per layer (model index) and plane: the dynamic slot, or −1 (static).
  var planeSlots: UnsafePointer<Int32>
  /// Per layer and plane: the static value (bounds standardised as ``LayerPlanes`` reads them).
  var staticPlanes: UnsafePointer<Float>
  /// The model value of each dynamic slot (bounds as signed origin and size).
  var dynamicModel: UnsafePointer<Float>
  var dynamicCount: Int
  /// Per layer with dynamic bounds: the slots of origin x (then y, width, height follow).
  var boundsSlots: UnsafePointer<Int32>
  var boundsCount: Int
  var ops: UnsafePointer<SceneOp>
  var opCount: Int
  /// The timings two or more ops share (see ``SceneOp/timingSlot``).
  var timingCount: Int
  var writtenCount: Int
  var events: UnsafePointer<SceneWrite>
  var eventCount: Int
  var finished: UnsafePointer<SceneWrite>
  var finishedCount: Int
  var cancelled: UnsafePointer<SceneWrite>
  var cancelledCount: Int
  /// Distinct removal times (seconds of scene time).
  var removals: UnsafePointer<Double>
  var removalCount: Int
  /// Constants: lerp ends, decomposition planes, constant matrices, write values.
  var values: UnsafePointer<Float>
  var keyframeChannels: UnsafePointer<SceneKeyframeChannel>
  var worldCount: Int
  var sublayerCount: Int
  var alphaCount: Int
  /// The most channels an animation writes (scratch for the scalar keyframe path).
  var maximumChannels: Int
  /// The offset in ``values`` of the container's constant sublayer term (``ContainerLayer``),
  /// which follows every top-level layer's own matrix; −1 for the identity.
  var containerConstant: Int32 = -1

  var scratch: SceneScratchSize {
    SceneScratchSize(
      dynamic: dynamicCount, written: writtenCount, alphas: alphaCount, removals: removalCount,
      worlds: worldCount, sublayers: sublayerCount, channels: maximumChannels,
      timings: timingCount)
  }
}

/// One layer of the program.
struct SceneNode {
  /// The layer's model index.
  var layer: Int32
  /// The parent's node index, −1 for a top-level layer.
  var parent: Int32
  /// 1 when the parent does not flatten (no parent, or a transform layer), else 0.
  var keepsDepth: Float
  /// Offset in ``SceneProgram/values`` of the constant matrix in the superlayer, or −1.
  var ownConstant: Int32
  /// Offset of the constant matrix to the container, or −1.
  var worldConstant: Int32
  /// As a parent: how its sublayer term is known.
  var sublayerTerm: SceneSublayerTerm
  var sublayerConstant: Int32
  var sublayerStore: Int32
  /// Scratch index of the matrix to the container for the children, or −1 (no children, or
  /// constant).
  var worldStore: Int32
  /// Scratch index of the presented opacity for the children, or −1 (no children).
  var alphaStore: Int32
  /// Index of the removal time in ``SceneProgram/removals``, or −1.
  var removal: Int32
  var presentFinished: Float
  var presentCancelled: Float
}

/// How a parent's sublayer term `T(−A)·sublayerTransform·T(A)` is known.
enum SceneSublayerTerm: UInt8 {
  /// The identity: the children's matrices skip the product.
  case identity
  /// A constant matrix at ``SceneNode/sublayerConstant`` in ``SceneProgram/values``.
  case constant
  /// Computed per lane group into the scratch store ``SceneNode/sublayerStore``.
  case dynamic
}

/// A masked write of constant values: `channels` dynamic slots from `slot`, values from
/// `valueOffset`; `time` for events.
struct SceneWrite {
  var slot: Int32
  var channels: Int32
  var valueOffset: Int32
  var time: Double
}

/// How an animation's content becomes values.
enum SceneContent: Int32 {
  /// `from·(1 − f) + to·f` channel by channel (`from` at `valueOffset`, `to` after it).
  case lerp
  /// Decomposition: the ``DecompositionBatch`` planes of one pair at `valueOffset`.
  case transform
  /// A keyframe track on the kernel: channels `keyframeChannel ..< keyframeChannel + channels`.
  case keyframes
  /// A keyframe track on the scalar path: ``SceneTemplate/scalarKeyframes``[`scalarIndex`].
  case scalarKeyframes
}

/// How an animation's timing function is evaluated.
enum SceneEasing: UInt8 {
  /// No timing function: the eased progress is the progress.
  case none
  /// A cubic Bézier: the ``CubicBezierBatch`` solve on ``SceneOp/curveCoefficients`` and
  /// ``SceneOp/curveTable``.
  case bezier
  /// Steps or `linear(…)`: the scalar `Double` function
  /// ``SceneTemplate/scalarTimings``[``SceneOp/scalarTiming``], lane by lane.
  case scalar
}

/// One animation of the program.
struct SceneOp {
  // Media timing: the local time in `Double`, the phase and progress by the media-timing kernel.
  var beginTime: Double
  var speed: Double
  var timeOffset: Double
  var activeDuration: Double
  var duration: Float
  var activeEnd: Float
  var autoreverses: Float
  var fillsBackwards: Float
  var fillsForwards: Float
  var afterProgress: Float
  var lastPass: Float
  // Timing function (``SceneEasing``): the Bézier curve's planes, or the index of a scalar one.
  var easing: SceneEasing
  var curveCoefficients: UnsafePointer<Float>?
  var curveTable: UnsafePointer<Float>?
  var scalarTiming: Int32
  // Spring (``SpringBatch`` constants) at `eased·duration` seconds.
  var isSpring: Bool
  var springDuration: Float
  var rate: Float
  var frequency: Float
  var frequencyLow: Float
  var coefficient: Float
  var springKind: Float
  // Content and target.
  var content: SceneContent
  var channels: Int32
  var valueOffset: Int32
  var keyframeChannel: Int32
  var scalarIndex: Int32
  var slot: Int32
  var writtenSlot: Int32
  // Sharing: ops whose timing (everything above the content) is the same give the same phase,
  // eased progress and spring fraction, so the first of them computes them into the slot's
  // ``SceneBatchSlot/timings`` vectors `timingSlot` and the later ones read them back.
  /// The op's shared timing, or −1 when no other op has the same.
  var timingSlot: Int32 = -1
  /// Whether this op is the first of its shared timing: it computes and stores it.
  var storesTiming = false
}

/// One channel of a kernel keyframe track: sixteen identical lanes.
struct SceneKeyframeChannel {
  var shape: KeyframeEvaluationJob.Shape
  var planes: KeyframeEvaluationJob.Planes
}

/// What ``SceneTemplateCompiler`` produces.
struct SceneCompiled {
  var program: SceneProgram
  var storage: SceneTemplateStorage
  var scalarTimings: [TimingFunction]
  var scalarKeyframes: [KeyframeValues]
  var batchedKeyframes: Int
}

/// The compile step of ``SceneTemplate`` (see its description). Linear in the scene's size.
///
/// The steps, in order (the first rejection wins): the model planes; the timeline events; the
/// finished and cancelled states; the animations' targets (which planes are dynamic); the slots of
/// the dynamic planes; the masked writes; one ``SceneOp`` per animation; the layer tree.
struct SceneTemplateCompiler {
  let scene: TransitionScene
  let n: Int
  var parents: [Int]
  var children: [[Int]]

  init(_ scene: TransitionScene) {
    self.scene = scene
    n = scene.model.count
    parents = (0..<n).map { (try? scene.model.parentIndex(at: $0)).flatMap { $0 } ?? -1 }
    children = [[Int]](repeating: [], count: n)
    for i in 0..<n where parents[i] >= 0 { children[parents[i]].append(i) }
  }

  func fail(_ reason: ValidationError.Reason) -> ValidationError {
    ValidationError(field: "scene", reason: reason)
  }

  func float(_ v: Double) throws(ValidationError) -> Float {
    do { return try floatValue(v, "scene", index: nil) } catch { throw fail(error.reason) }
  }

  func planes(of layer: Layer) throws(ValidationError) -> [Float] {
    var values: [Float] = []
    values.reserveCapacity(LayerPlanes.count)
    for v in rawPlanes(of: layer) { values.append(try float(v)) }
    return values
  }

  /// The channels of `value` in `Float`.
  func floatChannels(_ value: AnimationValue) throws(ValidationError) -> [Float] {
    var values: [Float] = []
    for v in value.channels { values.append(try float(v)) }
    return values
  }

  /// Layer `i` and every layer below it (iterative).
  func subtree(of i: Int) -> [Int] {
    var result = [i]
    var k = 0
    while k < result.count {
      result.append(contentsOf: children[result[k]])
      k += 1
    }
    return result
  }

  func compile() throws(ValidationError) -> SceneCompiled {
    var map = ScenePlaneMap(layerCount: n)
    for (i, layer) in scene.model.layers.enumerated() { map.setModel(i, try planes(of: layer)) }
    let timeline = try timelineEvents(&map)
    let completion = try completionStates(&map)
    let targets = try animationTargets(&map)
    map.groupBounds()
    let slots = ScenePlaneSlots(map)
    var builder = SceneProgramBuilder()
    let events = builder.writes(timeline.events, slots)
    let finished = builder.writes(completion.finished, slots)
    let cancelled = builder.writes(completion.cancelled, slots)
    for target in targets { try builder.ops.append(op(target, slots, &builder)) }
    let timingCount = SceneTiming.share(
      &builder.ops, functions: targets.map { $0.entry.animation.timingFunction })
    let container = try containerTerm()
    let tree = layerTree(map, slots, timeline.removedAt, completion, container, &builder.values)
    let s = builder.storage
    let program = SceneProgram(
      duration: scene.duration, layerCount: n, nodes: s.constant(tree.nodes),
      planeSlots: s.constant(slots.planeSlots), staticPlanes: s.constant(slots.staticPlanes),
      dynamicModel: s.constant(slots.dynamicModel), dynamicCount: slots.dynamicModel.count,
      boundsSlots: s.constant(slots.boundsSlots), boundsCount: slots.boundsSlots.count,
      ops: s.constant(builder.ops), opCount: builder.ops.count, timingCount: timingCount,
      writtenCount: builder.writtenSlots.count, events: s.constant(events),
      eventCount: events.count, finished: s.constant(finished), finishedCount: finished.count,
      cancelled: s.constant(cancelled), cancelledCount: cancelled.count,
      removals: s.constant(tree.removalTimes), removalCount: tree.removalTimes.count,
      values: s.constant(builder.values), keyframeChannels: s.constant(builder.keyframeChannels),
      worldCount: tree.worlds, sublayerCount: tree.sublayers, alphaCount: tree.alphas,
      maximumChannels: builder.maximumChannels, containerConstant: tree.containerConstant)
    return SceneCompiled(
      program: program, storage: s, scalarTimings: builder.scalarTimings,
      scalarKeyframes: builder.scalarKeyframes, batchedKeyframes: builder.batchedKeyframes)
  }
}

// MARK: - Dynamic planes

/// The planes of every layer while a scene compiles: the model values (bounds as signed origin
/// and size) and whether an animation, a `.set` event or a completion state writes them.
struct ScenePlaneMap {
  let layerCount: Int
  var model: [Float]
  var dynamic: [Bool]

  init(layerCount: Int) {
    self.layerCount = layerCount
    model = [Float](repeating: 0, count: LayerPlanes.count * layerCount)
    dynamic = [Bool](repeating: false, count: LayerPlanes.count * layerCount)
  }

  /// The index of plane `plane` of layer `layer`.
  func index(_ layer: Int, _ plane: Int) -> Int { layer * LayerPlanes.count + plane }

  mutating func setModel(_ layer: Int, _ planes: [Float]) {
    for (p, v) in planes.enumerated() { model[index(layer, p)] = v }
  }

  /// Marks `channels` planes of `layer` from `plane` on as written.
  mutating func mark(_ layer: Int, _ plane: Int, _ channels: Int = 1) {
    for p in plane..<(plane + channels) { dynamic[index(layer, p)] = true }
  }

  /// Whether every plane of `planes` of `layer` keeps its model value.
  func isStatic(_ layer: Int, _ planes: [Int]) -> Bool {
    planes.allSatisfy { !dynamic[index(layer, $0)] }
  }

  /// Bounds are dynamic as a group: all four planes once any is.
  mutating func groupBounds() {
    for i in 0..<layerCount where !isStatic(i, LayerPlanes.boundsPlanes) {
      mark(i, LayerPlanes.boundsMinX, LayerPlanes.boundsPlanes.count)
    }
  }
}

extension LayerPlanes {
  /// The four bounds planes: minX (origin x), minY, width, height.
  static let boundsPlanes = Array(boundsMinX...boundsHeight)
  /// The planes of a layer's matrix in its superlayer: bounds, anchor point, position,
  /// `zPosition` and the transform.
  static let superlayerMatrixPlanes =
    Array(boundsMinX...zPosition) + Array(transform..<(transform + LaneMatrix.fieldCount))
  /// The planes of a layer's sublayer term `T(−A)·sublayerTransform·T(A)`: bounds, anchor point
  /// and the sublayer transform.
  static let sublayerTermPlanes =
    Array(boundsMinX...anchorPointZ)
    + Array(sublayerTransform..<(sublayerTransform + LaneMatrix.fieldCount))
}

/// Where each plane lives during evaluation: a dynamic slot per lane group, or one static value.
struct ScenePlaneSlots {
  /// Per layer and plane: the dynamic slot, or −1 (static).
  var planeSlots: [Int32]
  /// Per layer and plane: the static value (bounds standardised as ``LayerPlanes`` reads them).
  var staticPlanes: [Float]
  /// The model value of each dynamic slot (bounds as signed origin and size).
  var dynamicModel: [Float] = []
  /// Per layer with dynamic bounds: the slot of origin x (then y, width, height follow).
  var boundsSlots: [Int32] = []

  init(_ map: ScenePlaneMap) {
    planeSlots = [Int32](repeating: -1, count: map.model.count)
    staticPlanes = map.model
    for i in 0..<map.layerCount {
      let b = map.index(i, 0)
      for p in 0..<LayerPlanes.count where map.dynamic[b + p] {
        planeSlots[b + p] = Int32(dynamicModel.count)
        dynamicModel.append(map.model[b + p])
      }
      if map.dynamic[b + LayerPlanes.boundsMinX] {
        boundsSlots.append(planeSlots[b + LayerPlanes.boundsMinX])
      } else {
        let (x, y) = (map.model[b + LayerPlanes.boundsMinX], map.model[b + LayerPlanes.boundsMinY])
        let (w, h) = (
          map.model[b + LayerPlanes.boundsWidth], map.model[b + LayerPlanes.boundsHeight]
        )
        staticPlanes[b + LayerPlanes.boundsMinX] = min(x, x + w)
        staticPlanes[b + LayerPlanes.boundsMinY] = min(y, y + h)
        staticPlanes[b + LayerPlanes.boundsWidth] = abs(w)
        staticPlanes[b + LayerPlanes.boundsHeight] = abs(h)
      }
    }
  }

  /// The slot of plane `plane` of layer `layer`.
  func slot(_ layer: Int, _ plane: Int) -> Int32 { planeSlots[layer * LayerPlanes.count + plane] }
}

/// Constant values written to `values.count` planes of `layer` from `plane` on at `time` (a
/// `.set` event; completion states write one plane at time 0).
struct ScenePendingWrite {
  var layer: Int
  var plane: Int
  var values: [Float]
  var time: Double = 0
}

/// The timeline events of a scene: removal times per layer and the `.set` writes.
struct SceneTimeline {
  /// Per layer, the earliest time a `.remove` takes it (or an ancestor) out; `.infinity` if never.
  var removedAt: [Double]
  var events: [ScenePendingWrite] = []
}

/// The finished and cancelled states: presence per layer and the planes that differ.
struct SceneCompletion {
  /// Per layer: 1 when present in the finished (cancelled) state, else 0.
  var presentFinished: [Float]
  var presentCancelled: [Float]
  /// The planes whose finished value differs from the model.
  var finished: [ScenePendingWrite] = []
  /// The planes whose cancelled value differs from the state at time 0.
  var cancelled: [ScenePendingWrite] = []
}

/// An animation and the planes it writes.
struct SceneAnimationTarget {
  var entry: AnimationSet.Entry
  var layer: Int
  var plane: Int
  var channels: Int
}

extension SceneTemplateCompiler {
  /// `.remove` events as removal times of the layer and its subtree, `.set` events as pending
  /// writes (marking their planes dynamic).
  func timelineEvents(_ map: inout ScenePlaneMap) throws(ValidationError) -> SceneTimeline {
    var timeline = SceneTimeline(removedAt: [Double](repeating: .infinity, count: n))
    for event in scene.events {
      switch event.change {
      case .remove(let id):
        guard let i = scene.model.index(of: id) else { continue }
        for d in subtree(of: i) { timeline.removedAt[d] = min(timeline.removedAt[d], event.time) }
      case .set(let id, let property, let value):
        guard let i = scene.model.index(of: id) else { continue }
        guard let target = planeTarget(property) else {
          if isSkippedByBatch(property) { continue }
          throw fail(.invalidState("\(id): changes of \(property.keyPath) are not supported"))
        }
        let values = try floatChannels(value)
        map.mark(i, target.plane, target.channels)
        timeline.events.append(
          ScenePendingWrite(layer: i, plane: target.plane, values: values, time: event.time))
      }
    }
    return timeline
  }

  /// The presence and plane values of every layer in the finished and cancelled states
  /// (``TransitionScene/presentation(at:completion:)``), marking the planes that change dynamic.
  func completionStates(_ map: inout ScenePlaneMap) throws(ValidationError) -> SceneCompletion {
    let atZero = scene.presentation(at: 0)
    let finishedTree = scene.presentation(at: 0, completion: .finished)
    let cancelledTree = scene.presentation(at: 0, completion: .cancelled)
    var completion = SceneCompletion(
      presentFinished: [Float](repeating: 0, count: n),
      presentCancelled: [Float](repeating: 0, count: n))
    for (i, layer) in scene.model.layers.enumerated() {
      if let f = finishedTree[id: layer.id] {
        completion.presentFinished[i] = 1
        let values = try planes(of: f)
        for p in 0..<LayerPlanes.count where values[p] != map.model[map.index(i, p)] {
          map.mark(i, p)
          completion.finished.append(ScenePendingWrite(layer: i, plane: p, values: [values[p]]))
        }
      }
      if let c = cancelledTree[id: layer.id], let z = atZero[id: layer.id] {
        completion.presentCancelled[i] = 1
        let values = try planes(of: c)
        let base = try planes(of: z)
        for p in 0..<LayerPlanes.count where values[p] != base[p] {
          map.mark(i, p)
          completion.cancelled.append(ScenePendingWrite(layer: i, plane: p, values: [values[p]]))
        }
      }
    }
    return completion
  }

  /// The planes each animation writes (marking them dynamic); animations the batch skips
  /// (``isSkippedByBatch(_:)``) are left out.
  func animationTargets(_ map: inout ScenePlaneMap) throws(ValidationError)
    -> [SceneAnimationTarget]
  {
    var targets: [SceneAnimationTarget] = []
    for entry in scene.animations.entries {
      guard let i = scene.model.index(of: entry.layerID) else { continue }
      let property = entry.animation.property
      guard let target = planeTarget(property) else {
        if isSkippedByBatch(property) { continue }
        throw fail(
          .invalidState("\(entry.layerID): animations of \(property.keyPath) are not supported"))
      }
      map.mark(i, target.plane, target.channels)
      targets.append(
        SceneAnimationTarget(
          entry: entry, layer: i, plane: target.plane, channels: target.channels))
    }
    return targets
  }
}

// MARK: - The program

/// The program while it is compiled: the constants, the ops and what they refer to.
struct SceneProgramBuilder {
  let storage = SceneTemplateStorage()
  /// Constants: write values, lerp ends, decomposition planes, constant matrices.
  var values: [Float] = []
  var ops: [SceneOp] = []
  var scalarTimings: [TimingFunction] = []
  var scalarKeyframes: [KeyframeValues] = []
  var keyframeChannels: [SceneKeyframeChannel] = []
  /// The written-mask slot of each animated property (`"layer/keyPath"`).
  var writtenSlots: [String: Int] = [:]
  var batchedKeyframes = 0
  var maximumChannels = 1

  /// The masked writes of `pending`, their values appended to ``values``.
  mutating func writes(_ pending: [ScenePendingWrite], _ slots: ScenePlaneSlots) -> [SceneWrite] {
    pending.map { w in
      let write = SceneWrite(
        slot: slots.slot(w.layer, w.plane), channels: Int32(w.values.count),
        valueOffset: Int32(values.count), time: w.time)
      values.append(contentsOf: w.values)
      return write
    }
  }

  /// The written-mask slot of `property` of `layer` (one per animated property).
  mutating func writtenSlot(_ layer: Int, _ property: LayerProperty) -> Int {
    let key = "\(layer)/\(property.keyPath)"
    let slot = writtenSlots[key] ?? writtenSlots.count
    writtenSlots[key] = slot
    return slot
  }
}

extension SceneTemplateStorage {
  /// A copy of `values` that lives as long as this storage, read only.
  func constant<T>(_ values: [T]) -> UnsafePointer<T> { UnsafePointer(own(values)) }
}

extension SceneTemplateCompiler {
  /// The op of one animation: media timing, timing function, content (spring constants with it).
  func op(
    _ target: SceneAnimationTarget, _ slots: ScenePlaneSlots, _ builder: inout SceneProgramBuilder
  ) throws(ValidationError) -> SceneOp {
    let animation = target.entry.animation
    let timing = try localTiming(animation.timing)
    let written = builder.writtenSlot(target.layer, animation.property)
    builder.maximumChannels = max(builder.maximumChannels, target.channels)
    var op = SceneOp(
      beginTime: animation.timing.beginTime, speed: animation.timing.speed,
      timeOffset: animation.timing.timeOffset,
      activeDuration: animation.timing.activeDuration, duration: timing.duration[0],
      activeEnd: timing.activeEnd[0], autoreverses: timing.autoreverses[0],
      fillsBackwards: timing.fillsBackwards[0], fillsForwards: timing.fillsForwards[0],
      afterProgress: timing.afterProgress[0], lastPass: timing.lastPass[0], easing: .none,
      curveCoefficients: nil,
      curveTable: nil, scalarTiming: -1, isSpring: false,
      springDuration: try float(animation.timing.duration), rate: 0, frequency: 0,
      frequencyLow: 0, coefficient: 0, springKind: 0, content: .lerp,
      channels: Int32(target.channels), valueOffset: -1, keyframeChannel: -1, scalarIndex: -1,
      slot: slots.slot(target.layer, target.plane), writtenSlot: Int32(written))
    setEasing(animation.timingFunction, of: &op, &builder)
    switch animation.content {
    case .basic(let from, let to): try setPair(from, to, spring: nil, of: &op, &builder)
    case .spring(let spring, let from, let to):
      try setPair(from, to, spring: spring, of: &op, &builder)
    case .path:
      throw fail(
        .invalidState(
          "\(target.entry.layerID): path animations (CAKeyframeAnimation.path) are not supported"))
    case .keyframes(let keyframes): setKeyframes(keyframes, of: &op, &builder)
    }
    return op
  }

  /// The media timing of an animation on its own local clock (begin time, speed and offset are
  /// applied in `Double` per lane), checked as given as well.
  func localTiming(_ given: MediaTiming) throws(ValidationError) -> MediaTimingBatch {
    do {
      var local = given
      local.beginTime = 0
      local.speed = 1
      local.timeOffset = 0
      let timing = try MediaTimingBatch(timings: [local])
      _ = try MediaTimingBatch(timings: [given])
      return timing
    } catch {
      throw fail(error.reason)
    }
  }

  /// A Bézier timing function as one ``CubicBezierBatch`` curve; steps and `linear(…)` on the
  /// scalar path.
  func setEasing(
    _ function: TimingFunction?, of op: inout SceneOp, _ builder: inout SceneProgramBuilder
  ) {
    switch function {
    case nil: op.easing = .none
    case .cubicBezier(let curve)?:
      let batch = CubicBezierBatch(curves: [curve])
      op.easing = .bezier
      op.curveCoefficients = builder.storage.constant(batch.coefficients)
      op.curveTable = builder.storage.constant(batch.inverse)
    case let function?:
      op.easing = .scalar
      op.scalarTiming = Int32(builder.scalarTimings.count)
      builder.scalarTimings.append(function)
    }
  }

  /// A `from`–`to` pair: a decomposition for transforms, a channel-wise lerp otherwise; with the
  /// spring's constants when it has one.
  func setPair(
    _ from: AnimationValue, _ to: AnimationValue, spring: DampedSpring?, of op: inout SceneOp,
    _ builder: inout SceneProgramBuilder
  ) throws(ValidationError) {
    op.valueOffset = Int32(builder.values.count)
    if case .transform(let a) = from, case .transform(let b) = to {
      op.content = .transform
      do {
        builder.values.append(contentsOf: try DecompositionBatch(from: [a], to: [b]).planes)
      } catch {
        throw fail(.invalidState("a transform animation does not fit in Float: \(error)"))
      }
    } else {
      op.content = .lerp
      let ends = try floatChannels(from) + floatChannels(to)
      builder.values.append(contentsOf: ends)
    }
    if let spring {
      let s = SpringBatch(springs: [spring])
      op.isSpring = true
      op.rate = s.rate[0]
      op.frequency = s.frequency[0]
      op.frequencyLow = s.frequencyLow[0]
      op.coefficient = s.coefficient[0]
      op.springKind = s.kind[0]
    }
  }

  /// A keyframe track on the kernel (every lane the same track, one ``KeyframeBatch`` per
  /// channel) when it takes the track, else on the scalar path.
  func setKeyframes(
    _ keyframes: KeyframeValues, of op: inout SceneOp, _ builder: inout SceneProgramBuilder
  ) {
    var batched: [SceneKeyframeChannel] = []
    if let track = batchableTrack(keyframes) {
      let lanes = [CompiledKeyframeTrack](repeating: track, count: Lanes.scalarCount)
      for ch in 0..<track.channelCount {
        guard let batch = try? KeyframeBatch(tracks: lanes, channel: ch) else { break }
        batched.append(Self.channel(batch, builder.storage))
      }
      if batched.count != track.channelCount { batched = [] }
    }
    if batched.isEmpty {
      op.content = .scalarKeyframes
      op.scalarIndex = Int32(builder.scalarKeyframes.count)
      builder.scalarKeyframes.append(keyframes)
    } else {
      op.content = .keyframes
      op.keyframeChannel = Int32(builder.keyframeChannels.count)
      builder.keyframeChannels.append(contentsOf: batched)
      builder.batchedKeyframes += 1
    }
  }

  /// One channel of sixteen identical lanes with its planes copied into `storage`.
  static func channel(_ b: KeyframeBatch, _ storage: SceneTemplateStorage) -> SceneKeyframeChannel {
    func own(_ a: [Float]) -> UnsafePointer<Float>? {
      a.isEmpty ? nil : UnsafePointer(storage.own(a))
    }
    // swift-format-ignore: NeverForceUnwrap
    let planes = KeyframeEvaluationJob.Planes(
      knots: own(b.knots)!, inverse: own(b.inverseLengths), start: own(b.startValues)!,
      end: own(b.endValues), m0: own(b.startTangents), m1: own(b.endTangents),
      last: own(b.lastValues)!, pieceCurves: own(b.pieceCurves),
      coefficients: own(b.curves.coefficients), table: own(b.curves.inverse),
      scratch: storage.own(
        [Float](repeating: 0, count: KeyframeEvaluationJob.scratchVectors * Lanes.scalarCount)))
    return SceneKeyframeChannel(shape: KeyframeEvaluationJob.Shape(b), planes: planes)
  }
}

// MARK: - The layer tree

/// The layer tree of the program while it is compiled.
struct SceneTreeBuilder {
  var nodes: [SceneNode] = []
  /// Node index by layer (model index).
  var nodeOf: [Int]
  /// Distinct removal times (seconds of scene time) and their indices.
  var removalTimes: [Double] = []
  var removalIndex: [Double: Int] = [:]
  // Scratch stores of parents' values, reused once a parent's last child is done (so a chain
  // needs two of each, whatever its depth).
  var worlds = SceneStorePool()
  var sublayers = SceneStorePool()
  var alphas = SceneStorePool()
  /// The offset of the container's sublayer term in the constants, or −1 for the identity.
  var containerConstant: Int32 = -1

  /// The index of `time` among the removal times (added when new).
  mutating func removal(at time: Double) -> Int32 {
    let r = removalIndex[time] ?? removalTimes.count
    if r == removalTimes.count {
      removalIndex[time] = r
      removalTimes.append(time)
    }
    return Int32(r)
  }
}

/// The compiled layer tree: nodes parent before child, removal times, scratch store counts.
struct SceneCompiledTree {
  var nodes: [SceneNode]
  var removalTimes: [Double]
  var worlds: Int
  var sublayers: Int
  var alphas: Int
  /// The offset of the container's sublayer term in the values, or −1 for the identity.
  var containerConstant: Int32
}

/// The constant matrices of the program: each stored once in its values, broadcast on load.
struct SceneConstantMatrices {
  var values: [Float]

  /// Appends the matrix (lane 0 of `m`) and returns its offset.
  mutating func store(_ m: LaneMatrix) -> Int32 {
    let offset = Int32(values.count)
    for f in 0..<LaneMatrix.fieldCount { values.append(m.field(f)[0]) }
    return offset
  }

  func load(_ offset: Int32) -> LaneMatrix {
    LaneMatrix { Lanes(repeating: values[Int(offset) + $0]) }
  }
}

extension SceneTemplateCompiler {
  /// The container's sublayer term (``ContainerLayer/sublayerMatrix`` over the scene's
  /// container bounds), or `nil` for the identity.
  ///
  /// - Throws: `"scene"` ``ValidationError/Reason/invalidState(_:)`` when the scene animates the
  ///   container's layer (the batch takes its model value as a constant);
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` when a field does not fit in `Float`.
  func containerTerm() throws(ValidationError) -> LaneMatrix? {
    guard scene.containerAnimations.isEmpty else {
      throw fail(.invalidState("the batch does not animate the container's sublayerTransform"))
    }
    var container = scene.model.container
    container.bounds = scene.containerBounds
    let c = container.sublayerMatrix
    guard !c.isIdentity else { return nil }
    let fields = c.fields
    let largest = Double(Float.greatestFiniteMagnitude)
    for v in fields where !(abs(v) <= largest) {
      throw fail(.outOfRange(lower: -largest, upper: largest))
    }
    return LaneMatrix { Lanes(repeating: Float(fields[$0])) }
  }

  /// The layers in parent-before-child order (breadth first from the top-level layers).
  func parentFirstOrder() -> [Int] {
    var order: [Int] = (0..<n).filter { parents[$0] < 0 }
    order.reserveCapacity(n)
    var k = 0
    while k < order.count {
      order.append(contentsOf: children[order[k]])
      k += 1
    }
    return order
  }

  /// Every layer's node, parent before child, with its constant matrices appended to `values`.
  func layerTree(
    _ map: ScenePlaneMap, _ slots: ScenePlaneSlots, _ removedAt: [Double],
    _ completion: SceneCompletion, _ container: LaneMatrix?, _ values: inout [Float]
  ) -> SceneCompiledTree {
    let order = parentFirstOrder()
    var tree = SceneTreeBuilder(nodeOf: [Int](repeating: -1, count: n))
    for (q, i) in order.enumerated() { tree.nodeOf[i] = q }
    var constants = SceneConstantMatrices(values: values)
    if let container { tree.containerConstant = constants.store(container) }
    tree.nodes.reserveCapacity(n)
    for i in order {
      let p = parents[i]
      var node = SceneNode(
        layer: Int32(i), parent: p >= 0 ? Int32(tree.nodeOf[p]) : -1,
        keepsDepth: p < 0 || scene.model.layers[p].isTransformLayer ? 1 : 0, ownConstant: -1,
        worldConstant: -1, sublayerTerm: .identity, sublayerConstant: -1, sublayerStore: -1,
        worldStore: -1, alphaStore: -1, removal: -1,
        presentFinished: completion.presentFinished[i],
        presentCancelled: completion.presentCancelled[i])
      if p >= 0, children[p].last == i {
        // The parent's last child: its stores are free once this layer has read them.
        let parent = tree.nodes[Int(node.parent)]
        tree.worlds.give(parent.worldStore)
        tree.sublayers.give(parent.sublayerStore)
        tree.alphas.give(parent.alphaStore)
      }
      setMatrices(of: &node, i, map, slots, &tree, &constants)
      if !children[i].isEmpty {
        if node.worldConstant < 0 { node.worldStore = tree.worlds.take() }
        node.alphaStore = tree.alphas.take()
      }
      if removedAt[i].isFinite { node.removal = tree.removal(at: removedAt[i]) }
      tree.nodes.append(node)
    }
    values = constants.values
    return SceneCompiledTree(
      nodes: tree.nodes, removalTimes: tree.removalTimes, worlds: tree.worlds.peak,
      sublayers: tree.sublayers.peak, alphas: tree.alphas.peak,
      containerConstant: tree.containerConstant)
  }

  /// The constant matrices of layer `i` (in its superlayer, its sublayer term, to the container)
  /// where their planes are static, computed once by the evaluation's lane code.
  func setMatrices(
    of node: inout SceneNode, _ i: Int, _ map: ScenePlaneMap, _ slots: ScenePlaneSlots,
    _ tree: inout SceneTreeBuilder, _ constants: inout SceneConstantMatrices
  ) {
    let broadcast = { (p: Int) in Lanes(repeating: slots.staticPlanes[map.index(i, p)]) }
    if map.isStatic(i, LayerPlanes.superlayerMatrixPlanes) {
      node.ownConstant = constants.store(laneLayerMatrix(.inSuperlayer, broadcast))
    }
    if !children[i].isEmpty {
      if map.isStatic(i, LayerPlanes.sublayerTermPlanes) {
        let s = laneLayerMatrix(.sublayer, broadcast)
        let identityFields = Transform3D.identity.fields
        let identity = identityFields.indices.allSatisfy {
          Double(s.field($0)[0]) == identityFields[$0]
        }
        node.sublayerTerm = identity ? .identity : .constant
        if !identity { node.sublayerConstant = constants.store(s) }
      } else {
        node.sublayerTerm = .dynamic
        node.sublayerStore = tree.sublayers.take()
      }
    }
    // The matrix to the container is constant when the own matrix, the parent's sublayer term
    // and the parent's matrix to the container are (computed by the evaluation's rule).
    guard node.ownConstant >= 0 else { return }
    guard node.parent >= 0 else {
      node.worldConstant =
        tree.containerConstant < 0
        ? node.ownConstant
        : constants.store(
          constants.load(node.ownConstant).concatenating(constants.load(tree.containerConstant)))
      return
    }
    let parent = tree.nodes[Int(node.parent)]
    guard parent.worldConstant >= 0, parent.sublayerTerm != .dynamic else { return }
    let own = constants.load(node.ownConstant)
    let local =
      parent.sublayerTerm == .identity
      ? own : own.concatenating(constants.load(parent.sublayerConstant))
    node.worldConstant = constants.store(
      local.flatteningDepth(keepsDepth: Lanes(repeating: node.keepsDepth))
        .concatenating(constants.load(parent.worldConstant)))
  }
}

/// Scratch store indices handed out at compile time, reused after release.
struct SceneStorePool {
  private var free: [Int32] = []
  /// The number of stores ever needed at once.
  private(set) var peak = 0

  mutating func take() -> Int32 {
    if let index = free.popLast() { return index }
    peak += 1
    return Int32(peak - 1)
  }

  /// Returns `index` (ignored when −1).
  mutating func give(_ index: Int32) {
    if index >= 0 { free.append(index) }
  }
}
