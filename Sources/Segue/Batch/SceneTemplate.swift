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
  ///   not support, and for a transform animation whose decomposition does not fit in `Float`.
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
      byteCount: max(values.count, 1) * MemoryLayout<T>.stride, alignment: 64)
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

  mutating func formUnion(_ o: SceneScratchSize) {
    dynamic = max(dynamic, o.dynamic)
    written = max(written, o.written)
    alphas = max(alphas, o.alphas)
    removals = max(removals, o.removals)
    worlds = max(worlds, o.worlds)
    sublayers = max(sublayers, o.sublayers)
    channels = max(channels, o.channels)
  }

  func covers(_ o: SceneScratchSize) -> Bool {
    dynamic >= o.dynamic && written >= o.written && alphas >= o.alphas
      && removals >= o.removals && worlds >= o.worlds && sublayers >= o.sublayers
      && channels >= o.channels
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

  var scratch: SceneScratchSize {
    SceneScratchSize(
      dynamic: dynamicCount, written: writtenCount, alphas: alphaCount, removals: removalCount,
      worlds: worldCount, sublayers: sublayerCount, channels: maximumChannels)
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
  /// As a parent: 0 the sublayer term is the identity, 1 constant (``sublayerConstant``),
  /// 2 dynamic (computed per lane group into scratch ``sublayerStore``).
  var sublayerKind: Int32
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
  // Timing function: 0 none, 1 Bézier, 2 scalar (``SceneTemplate/scalarTimings``[scalarIndex]).
  var easing: Int32
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

  // swift-format-ignore: NeverForceUnwrap
  func compile() throws(ValidationError) -> SceneCompiled {
    let planeCount = LayerPlanes.count
    let model = scene.model.layers
    // Model planes (raw bounds).
    var raw = [Float](repeating: 0, count: planeCount * n)
    for (i, layer) in model.enumerated() {
      for (p, v) in try planes(of: layer).enumerated() { raw[i * planeCount + p] = v }
    }
    var dynamic = [Bool](repeating: false, count: planeCount * n)
    func mark(_ i: Int, _ plane: Int, _ channels: Int) {
      for p in plane..<(plane + channels) { dynamic[i * planeCount + p] = true }
    }
    // Events.
    var removedAt = [Double](repeating: .infinity, count: n)
    var pendingEvents: [(layer: Int, plane: Int, values: [Float], time: Double)] = []
    for event in scene.events {
      switch event.change {
      case .remove(let id):
        guard let i = scene.model.index(of: id) else { continue }
        for d in subtree(of: i) { removedAt[d] = min(removedAt[d], event.time) }
      case .set(let id, let property, let value):
        guard let i = scene.model.index(of: id) else { continue }
        guard let target = planeTarget(property) else {
          if isSkippedByBatch(property) { continue }
          throw fail(.invalidState("\(id): changes of \(property.keyPath) are not supported"))
        }
        var values: [Float] = []
        for v in value.channels { values.append(try float(v)) }
        mark(i, target.plane, target.channels)
        pendingEvents.append((i, target.plane, values, event.time))
      }
    }
    // Completion states.
    let atZero = scene.presentation(at: 0)
    let finishedTree = scene.presentation(at: 0, completion: .finished)
    let cancelledTree = scene.presentation(at: 0, completion: .cancelled)
    var presentFinished = [Float](repeating: 0, count: n)
    var presentCancelled = [Float](repeating: 0, count: n)
    var pendingFinished: [(layer: Int, plane: Int, value: Float)] = []
    var pendingCancelled: [(layer: Int, plane: Int, value: Float)] = []
    for (i, layer) in model.enumerated() {
      if let f = finishedTree[id: layer.id] {
        presentFinished[i] = 1
        let values = try planes(of: f)
        for p in 0..<planeCount where values[p] != raw[i * planeCount + p] {
          mark(i, p, 1)
          pendingFinished.append((i, p, values[p]))
        }
      }
      if let c = cancelledTree[id: layer.id], let z = atZero[id: layer.id] {
        presentCancelled[i] = 1
        let values = try planes(of: c)
        let base = try planes(of: z)
        for p in 0..<planeCount where values[p] != base[p] {
          mark(i, p, 1)
          pendingCancelled.append((i, p, values[p]))
        }
      }
    }
    // Animations: targets first (they make planes dynamic).
    var targets: [(entry: AnimationSet.Entry, layer: Int, plane: Int, channels: Int)] = []
    for entry in scene.animations.entries {
      guard let i = scene.model.index(of: entry.layerID) else { continue }
      guard let target = planeTarget(entry.animation.property) else {
        if isSkippedByBatch(entry.animation.property) { continue }
        throw fail(
          .invalidState(
            "\(entry.layerID): animations of \(entry.animation.property.keyPath) are not supported"
          ))
      }
      mark(i, target.plane, target.channels)
      targets.append((entry, i, target.plane, target.channels))
    }
    // Bounds are dynamic as a group.
    for i in 0..<n {
      let b = i * planeCount
      if dynamic[b] || dynamic[b + 1] || dynamic[b + 2] || dynamic[b + 3] {
        for p in 0..<4 { dynamic[b + p] = true }
      }
    }
    // Slots, static planes.
    var planeSlots = [Int32](repeating: -1, count: planeCount * n)
    var staticPlanes = raw
    var dynamicModel: [Float] = []
    var boundsSlots: [Int32] = []
    for i in 0..<n {
      let b = i * planeCount
      for p in 0..<planeCount where dynamic[b + p] {
        planeSlots[b + p] = Int32(dynamicModel.count)
        dynamicModel.append(raw[b + p])
      }
      if dynamic[b] {
        boundsSlots.append(planeSlots[b])
      } else {
        let (x, y, w, h) = (raw[b], raw[b + 1], raw[b + 2], raw[b + 3])
        staticPlanes[b] = min(x, x + w)
        staticPlanes[b + 1] = min(y, y + h)
        staticPlanes[b + 2] = abs(w)
        staticPlanes[b + 3] = abs(h)
      }
    }
    var values: [Float] = []
    func writes(_ list: [(layer: Int, plane: Int, value: Float)]) -> [SceneWrite] {
      list.map { w in
        let write = SceneWrite(
          slot: planeSlots[w.layer * planeCount + w.plane], channels: 1,
          valueOffset: Int32(values.count), time: 0)
        values.append(w.value)
        return write
      }
    }
    let events = pendingEvents.map { e in
      let write = SceneWrite(
        slot: planeSlots[e.layer * planeCount + e.plane], channels: Int32(e.values.count),
        valueOffset: Int32(values.count), time: e.time)
      values.append(contentsOf: e.values)
      return write
    }
    let finished = writes(pendingFinished)
    let cancelled = writes(pendingCancelled)

    // The program.
    let storage = SceneTemplateStorage()
    var ops: [SceneOp] = []
    var scalarTimings: [TimingFunction] = []
    var scalarKeyframes: [KeyframeValues] = []
    var keyframeChannels: [SceneKeyframeChannel] = []
    var writtenSlots: [String: Int] = [:]
    var batchedKeyframes = 0
    var maximumChannels = 1
    for (entry, i, plane, channelCount) in targets {
      let animation = entry.animation
      let timing: MediaTimingBatch
      do {
        var local = animation.timing
        local.beginTime = 0
        local.speed = 1
        local.timeOffset = 0
        timing = try MediaTimingBatch(timings: [local])
        _ = try MediaTimingBatch(timings: [animation.timing])
      } catch {
        throw fail(error.reason)
      }
      let key = "\(i)/\(animation.property.keyPath)"
      let written = writtenSlots[key] ?? writtenSlots.count
      writtenSlots[key] = written
      maximumChannels = max(maximumChannels, channelCount)
      var op = SceneOp(
        beginTime: animation.timing.beginTime, speed: animation.timing.speed,
        timeOffset: animation.timing.timeOffset,
        activeDuration: animation.timing.activeDuration, duration: timing.duration[0],
        activeEnd: timing.activeEnd[0], autoreverses: timing.autoreverses[0],
        fillsBackwards: timing.fillsBackwards[0], fillsForwards: timing.fillsForwards[0],
        afterProgress: timing.afterProgress[0], easing: 0, curveCoefficients: nil,
        curveTable: nil, scalarTiming: -1, isSpring: false,
        springDuration: try float(animation.timing.duration), rate: 0, frequency: 0,
        frequencyLow: 0, coefficient: 0, springKind: 0, content: .lerp,
        channels: Int32(channelCount), valueOffset: -1, keyframeChannel: -1, scalarIndex: -1,
        slot: planeSlots[i * planeCount + plane], writtenSlot: Int32(written))
      switch animation.timingFunction {
      case nil: break
      case .cubicBezier(let curve)?:
        let batch = CubicBezierBatch(curves: [curve])
        op.easing = 1
        op.curveCoefficients = UnsafePointer(storage.own(batch.coefficients))
        op.curveTable = UnsafePointer(storage.own(batch.inverse))
      case let function?:
        op.easing = 2
        op.scalarTiming = Int32(scalarTimings.count)
        scalarTimings.append(function)
      }
      func pair(_ from: AnimationValue, _ to: AnimationValue, spring: DampedSpring?)
        throws(ValidationError)
      {
        op.valueOffset = Int32(values.count)
        if case .transform(let a) = from, case .transform(let b) = to {
          op.content = .transform
          do {
            values.append(contentsOf: try DecompositionBatch(from: [a], to: [b]).planes)
          } catch {
            throw fail(.invalidState("a transform animation does not fit in Float: \(error)"))
          }
        } else {
          op.content = .lerp
          var ends: [Float] = []
          for v in from.channels { ends.append(try float(v)) }
          for v in to.channels { ends.append(try float(v)) }
          values.append(contentsOf: ends)
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
      switch animation.content {
      case .basic(let from, let to): try pair(from, to, spring: nil)
      case .spring(let spring, let from, let to): try pair(from, to, spring: spring)
      case .path:
        throw fail(
          .invalidState(
            "\(entry.layerID): path animations (CAKeyframeAnimation.path) are not supported"))
      case .keyframes(let keyframes):
        var batched: [SceneKeyframeChannel] = []
        if let track = batchableTrack(keyframes) {
          let lanes = [CompiledKeyframeTrack](repeating: track, count: Lanes.scalarCount)
          for ch in 0..<track.channelCount {
            guard let batch = try? KeyframeBatch(tracks: lanes, channel: ch) else { break }
            batched.append(Self.channel(batch, storage))
          }
          if batched.count != track.channelCount { batched = [] }
        }
        if batched.isEmpty {
          op.content = .scalarKeyframes
          op.scalarIndex = Int32(scalarKeyframes.count)
          scalarKeyframes.append(keyframes)
        } else {
          op.content = .keyframes
          op.keyframeChannel = Int32(keyframeChannels.count)
          keyframeChannels.append(contentsOf: batched)
          batchedKeyframes += 1
        }
      }
      ops.append(op)
    }

    // Tree: parent-before-child order (breadth first from the top-level layers).
    var order: [Int] = (0..<n).filter { parents[$0] < 0 }
    order.reserveCapacity(n)
    var k = 0
    while k < order.count {
      order.append(contentsOf: children[order[k]])
      k += 1
    }
    var nodeOf = [Int](repeating: -1, count: n)
    for (q, i) in order.enumerated() { nodeOf[i] = q }
    var removalTimes: [Double] = []
    var removalIndex: [Double: Int] = [:]
    var nodes: [SceneNode] = []
    nodes.reserveCapacity(n)
    // Scratch stores of parents' values, reused once a parent's last child is done (so a chain
    // needs two of each, whatever its depth).
    var worlds = SceneStorePool()
    var sublayers = SceneStorePool()
    var alphas = SceneStorePool()
    let matrixPlanes = Array(0..<10) + Array(LayerPlanes.transform..<(LayerPlanes.transform + 16))
    let sublayerPlanes =
      Array(0..<7) + Array(LayerPlanes.sublayerTransform..<(LayerPlanes.sublayerTransform + 16))
    func broadcast(_ i: Int) -> (Int) -> Lanes {
      { p in Lanes(repeating: staticPlanes[i * planeCount + p]) }
    }
    func constant(_ m: LaneMatrix) -> Int32 {
      let offset = Int32(values.count)
      for f in 0..<16 { values.append(m.field(f)[0]) }
      return offset
    }
    func load(_ offset: Int32) -> LaneMatrix {
      LaneMatrix { Lanes(repeating: values[Int(offset) + $0]) }
    }
    for i in order {
      let b = i * planeCount
      let p = parents[i]
      var node = SceneNode(
        layer: Int32(i), parent: p >= 0 ? Int32(nodeOf[p]) : -1,
        keepsDepth: p < 0 || model[p].isTransformLayer ? 1 : 0, ownConstant: -1,
        worldConstant: -1, sublayerKind: 0, sublayerConstant: -1, sublayerStore: -1,
        worldStore: -1, alphaStore: -1, removal: -1, presentFinished: presentFinished[i],
        presentCancelled: presentCancelled[i])
      if p >= 0, children[p].last == i {
        // The parent's last child: its stores are free once this layer has read them.
        let parent = nodes[Int(node.parent)]
        worlds.give(parent.worldStore)
        sublayers.give(parent.sublayerStore)
        alphas.give(parent.alphaStore)
      }
      if matrixPlanes.allSatisfy({ !dynamic[b + $0] }) {
        node.ownConstant = constant(laneLayerMatrix(.inSuperlayer, broadcast(i)))
      }
      if !children[i].isEmpty {
        if sublayerPlanes.allSatisfy({ !dynamic[b + $0] }) {
          let s = laneLayerMatrix(.sublayer, broadcast(i))
          let identity = (0..<16).allSatisfy { s.field($0)[0] == ($0 % 5 == 0 ? 1 : 0) }
          node.sublayerKind = identity ? 0 : 1
          if !identity { node.sublayerConstant = constant(s) }
        } else {
          node.sublayerKind = 2
          node.sublayerStore = sublayers.take()
        }
      }
      // The matrix to the container is constant when the own matrix, the parent's sublayer
      // term and the parent's matrix to the container are (computed by the evaluation's rule).
      if node.ownConstant >= 0 {
        if p < 0 {
          node.worldConstant = node.ownConstant
        } else {
          let parent = nodes[Int(node.parent)]
          if parent.worldConstant >= 0, parent.sublayerKind != 2 {
            let own = load(node.ownConstant)
            let local =
              parent.sublayerKind == 0 ? own : own.concatenating(load(parent.sublayerConstant))
            node.worldConstant = constant(
              local.flatteningDepth(keepsDepth: Lanes(repeating: node.keepsDepth))
                .concatenating(load(parent.worldConstant)))
          }
        }
      }
      if !children[i].isEmpty {
        if node.worldConstant < 0 { node.worldStore = worlds.take() }
        node.alphaStore = alphas.take()
      }
      if removedAt[i].isFinite {
        let r = removalIndex[removedAt[i]] ?? removalTimes.count
        if r == removalTimes.count {
          removalIndex[removedAt[i]] = r
          removalTimes.append(removedAt[i])
        }
        node.removal = Int32(r)
      }
      nodes.append(node)
    }
    let program = SceneProgram(
      duration: scene.duration, layerCount: n, nodes: UnsafePointer(storage.own(nodes)),
      planeSlots: UnsafePointer(storage.own(planeSlots)),
      staticPlanes: UnsafePointer(storage.own(staticPlanes)),
      dynamicModel: UnsafePointer(storage.own(dynamicModel)), dynamicCount: dynamicModel.count,
      boundsSlots: UnsafePointer(storage.own(boundsSlots)), boundsCount: boundsSlots.count,
      ops: UnsafePointer(storage.own(ops)), opCount: ops.count, writtenCount: writtenSlots.count,
      events: UnsafePointer(storage.own(events)), eventCount: events.count,
      finished: UnsafePointer(storage.own(finished)), finishedCount: finished.count,
      cancelled: UnsafePointer(storage.own(cancelled)), cancelledCount: cancelled.count,
      removals: UnsafePointer(storage.own(removalTimes)), removalCount: removalTimes.count,
      values: UnsafePointer(storage.own(values)),
      keyframeChannels: UnsafePointer(storage.own(keyframeChannels)), worldCount: worlds.peak,
      sublayerCount: sublayers.peak, alphaCount: alphas.peak, maximumChannels: maximumChannels)
    return SceneCompiled(
      program: program, storage: storage, scalarTimings: scalarTimings,
      scalarKeyframes: scalarKeyframes, batchedKeyframes: batchedKeyframes)
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
      scratch: storage.own([Float](repeating: 0, count: 3 * Lanes.scalarCount)))
    return SceneKeyframeChannel(shape: KeyframeEvaluationJob.Shape(b), planes: planes)
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
