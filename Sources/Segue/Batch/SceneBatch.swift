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
}

/// Many ``TransitionScene`` instances, each with its own ``SceneClock``, compiled once into a
/// structure of arrays that ``SceneBatchEvaluationJob`` evaluates in `Float` into caller-owned
/// buffers.
///
/// Layout. Instances are grouped into **blocks** of consecutive instances (about
/// `layersPerBlock` layers each; an instance is never split). Within a block the layers of all its
/// instances are in **level order** (``LayerTreeBatch``: every top-level layer, then depth 1, …);
/// the output index of a layer is its block's first index plus its level position, see
/// ``layerIndex(instance:layerID:)`` and ``layers``. Blocks are evaluated independently, so the
/// result does not depend on how blocks are spread over threads.
///
/// Per block the compile step bakes:
///
/// * the model property planes (``LayerPlanes`` order, bounds kept as signed origin and size until
///   the end of the frame) of every layer;
/// * the timeline events: `.set` as a step write before the animations (applied when `τ ≥ time`),
///   `.remove` as a per-layer removal time (the layer and its sublayers are absent from then on);
/// * the completion states, exactly: the finished state (model, every event, ``TransitionScene/finishChanges``)
///   and the cancelled state (the state at 0, then ``TransitionScene/cancelChanges``) as per-layer
///   overrides of the model (respectively the state at 0) and presence flags, computed in
///   `Double` by ``TransitionScene/presentation(at:completion:)``;
/// * the animations, in their order, grouped into buckets that are one stage-kernel call per frame:
///   Bézier timing functions (``CubicBezierBatch``), spring progress (``SpringBatch``), transforms by
///   decomposition (``DecompositionBatch``), channel-wise lerps for numbers, points, sizes and
///   rectangles; the media timing of every animation (``MediaTimingBatch``, one
///   ``MediaTimingEvaluationJob`` call per frame with each animation's instance time as its
///   lane's parent time); keyframe tracks grouped by shared layout (``KeyframeBatch`` per
///   channel, one ``KeyframeEvaluationJob`` call per group and channel). Keyframe tracks the
///   kernel cannot take (transforms in the linear and paced modes, which interpolate by
///   decomposition; steps or `linear(…)` timing functions inside the track) and steps / `linear(…)`
///   timing functions of animations are evaluated by the scalar `Double` code
///   (``KeyframeValues/value(at:beforeFlag:)``, ``TimingFunction/transform(_:beforeFlag:)``) and rounded to `Float`;
///   ``scalarKeyframeTrackCount`` counts those tracks.
///
/// Media timing: each animation's local time `t = (τ − beginTime)·speed + timeOffset` is formed
/// in `Double` and rounded to a `Float` on the same side of `0` and of the active duration as `t`
/// (a plain rounding would move, for example, `0.7 − 0.2 = 0.49999999999999994` onto the end
/// `0.5` of a 0.5 s animation, turning the reference's last step of a steps function into the
/// removed model value); the kernel then computes pass, progress and phase in `Float`. Only pass
/// boundaries of repeating animations keep the kernel's `Float` resolution there.
///
/// Not supported (compile throws ``ValidationError`` on field `"instances"` with the instance index
/// and ``ValidationError/Reason/invalidState(_:)`` naming the layer and key path): animations and
/// model changes of transform sub-paths (`transform.rotation.z`, …), which replace one component
/// of the current transform. `backgroundColor` animations are skipped (they change neither
/// matrices nor opacities).
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

  /// The instances, in input order.
  public let instances: [Instance]
  /// The total number of layers (output columns).
  public let layerCount: Int
  /// Per output index, the instance index and the layer id.
  public let layers: [(instance: Int, id: String)]
  /// The compiled blocks.
  let blocks: [SceneBatchBlock]
  /// Per instance, the output index of each of its layers (in ``LayerTree/layers`` order).
  let instanceLayerIndices: [[Int]]
  /// The largest block's sizes (scratch capacity of a context slot).
  let capacity: SceneBatchCapacity
  /// The number of keyframe animations evaluated in `Float` lanes by ``KeyframeEvaluationJob``
  /// (grouped by shared layout within each block).
  public let batchedKeyframeTrackCount: Int
  /// The number of keyframe animations that fell back to the scalar `Double` code
  /// (``KeyframeValues/value(at:beforeFlag:)``, rounded to `Float`): transforms in the linear and paced
  /// modes (decomposition), tracks with steps or `linear(…)` timing functions, and groups whose
  /// values do not fit in `Float`.
  public let scalarKeyframeTrackCount: Int

  /// Compiles `instances`.
  ///
  /// - Parameters:
  ///   - instances: the scenes and their clocks (any number, including none).
  ///   - layersPerBlock: the target number of layers per block (`≥ 1`); a block closes before an
  ///     instance that would take it beyond this, so an instance larger than it gets its own block.
  /// - Throws: ``ValidationError``: `"layersPerBlock"` ``ValidationError/Reason/notPositive``; on
  ///   field `"instances"` with the instance index: `.notFinite` for a non-finite clock start or
  ///   position, `.notPositive` for a speed that is not `> 0`, `.outOfRange(0, 1)` for a position
  ///   outside `[0, 1]`, `.mustEqual(duration)` when an interaction timeline's duration differs
  ///   from the scene's, `.outOfRange` when a value does not fit in `Float`, and `.invalidState`
  ///   for what is not supported (see the type's description).
  public init(_ instances: [Instance], layersPerBlock: Int = 1024) throws(ValidationError) {
    guard layersPerBlock >= 1 else {
      throw ValidationError(field: "layersPerBlock", reason: .notPositive)
    }
    for (i, instance) in instances.enumerated() {
      try Self.validate(instance.clock, duration: instance.scene.duration, index: i)
    }
    var blocks: [SceneBatchBlock] = []
    var layers: [(instance: Int, id: String)] = []
    var instanceLayerIndices: [[Int]] = []
    var start = 0
    var capacity = SceneBatchCapacity()
    while start < instances.count {
      var end = start + 1
      var count = instances[start].scene.model.count
      while end < instances.count, count + instances[end].scene.model.count <= layersPerBlock {
        count += instances[end].scene.model.count
        end += 1
      }
      let block = try SceneBatchBlock(
        instances: instances, range: start..<end, layerStart: layers.count)
      for k in start..<end {
        let positions = block.positions[k - start]
        instanceLayerIndices.append(positions.map { block.layerStart + $0 })
      }
      for q in 0..<block.count {
        let (k, i) = block.layerSource[q]
        layers.append((instance: start + k, id: instances[start + k].scene.model.layers[i].id))
      }
      capacity.formUnion(block.capacity)
      blocks.append(block)
      start = end
    }
    self.instances = instances
    self.layerCount = layers.count
    self.layers = layers
    self.blocks = blocks
    self.instanceLayerIndices = instanceLayerIndices
    self.capacity = capacity
    self.batchedKeyframeTrackCount = blocks.reduce(0) {
      $0 + $1.keyframeGroups.reduce(0) { $0 + $1.lanes.count }
    }
    self.scalarKeyframeTrackCount = blocks.reduce(0) { $0 + $1.scalarKeyframeCount }
  }

  /// The output index of the layer `layerID` of instance `instance`, or `nil` when there is no
  /// such instance or layer.
  public func layerIndex(instance: Int, layerID: String) -> Int? {
    guard instance >= 0, instance < instances.count,
      let i = instances[instance].scene.model.index(of: layerID)
    else { return nil }
    return instanceLayerIndices[instance][i]
  }

  private static func validate(_ clock: SceneClock, duration: Double, index: Int)
    throws(ValidationError)
  {
    func fail(_ reason: ValidationError.Reason) -> ValidationError {
      ValidationError(field: "instances", index: index, reason: reason)
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
    }
  }
}

/// Scratch sizes of one block.
struct SceneBatchCapacity: Sendable {
  var instances = 0
  var layers = 0
  var contributions = 0
  var beziers = 0
  var springs = 0
  var transforms = 0
  var values = 0
  var written = 0

  mutating func formUnion(_ o: SceneBatchCapacity) {
    instances = max(instances, o.instances)
    layers = max(layers, o.layers)
    contributions = max(contributions, o.contributions)
    beziers = max(beziers, o.beziers)
    springs = max(springs, o.springs)
    transforms = max(transforms, o.transforms)
    values = max(values, o.values)
    written = max(written, o.written)
  }
}

/// How an animation's content turns eased progress into values.
enum SceneContributionKind: UInt8, Sendable {
  /// `from·(1 − f) + to·f` channel by channel, `f` the eased progress.
  case basicLinear
  /// The same with `f` the spring's progress at `eased·duration`.
  case springLinear
  /// Decomposition with `f` the eased progress.
  case basicTransform
  /// Decomposition with `f` the spring's progress.
  case springTransform
  /// A keyframe track at the eased progress (scalar `Double`).
  case keyframes
}

/// One animation of one layer in a block.
struct SceneContribution: Sendable {
  var instance: Int32
  var position: Int32
  var firstPlane: Int32
  var channels: Int32
  var writtenSlot: Int32
  var kind: SceneContributionKind
  /// Index in the block's Bézier bucket, or −1.
  var bezierSlot: Int32
  /// Index in ``SceneBatchBlock/scalarTimings``, or −1 (no timing function or a Bézier).
  var scalarTimingSlot: Int32
  /// Index in the spring bucket, or −1.
  var springSlot: Int32
  /// Index in the decomposition bucket, or −1.
  var transformSlot: Int32
  /// Index in ``SceneBatchBlock/keyframes``, or −1.
  var keyframeSlot: Int32
  /// Offset of the channels in the value arrays (from/to for lerps, the scratch output).
  var valueOffset: Int32
  /// The animation's duration (spring clock scale), seconds.
  var duration: Float
}

/// A `.set` event or a completion override: write `channels` values at `firstPlane`.
struct SceneWrite: Sendable {
  var instance: Int32
  var position: Int32
  var firstPlane: Int32
  var channels: Int32
  var valueOffset: Int32
  /// Event time (seconds) for events; unused for overrides.
  var time: Double
}

/// One block of a ``SceneBatch``.
struct SceneBatchBlock: Sendable {
  var instanceRange: Range<Int>
  var layerStart: Int
  var count: Int
  var tree: LayerTreeBatch
  /// Per level position: (block-local instance, layer index in its model).
  var layerSource: [(Int, Int)]
  /// Per block-local instance: level position of each model layer.
  var positions: [[Int]]
  var layerInstance: [Int32]
  /// Model planes, ``LayerPlanes`` order but bounds as origin x, origin y, width, height (signed).
  var modelPlanes: [Float]
  var removedAt: [Double]
  var presentFinished: [Float]
  var presentCancelled: [Float]
  var events: [SceneWrite]
  var finished: [SceneWrite]
  var cancelled: [SceneWrite]
  var writeValues: [Float]
  var contributions: [SceneContribution]
  /// The media timing of every contribution, in contribution order (lane `c` is contribution
  /// `c`), with `beginTime = 0`, `speed = 1`, `timeOffset = 0`: the lanes get local times.
  var timings: MediaTimingBatch
  /// Per contribution, the `Double` `beginTime`, `speed`, `timeOffset` and active duration `D`
  /// (the local time and its phase are decided in `Double`).
  var localBegin: [Double]
  var localSpeed: [Double]
  var localOffset: [Double]
  var activeDurations: [Double]
  var scalarTimings: [TimingFunction]
  var curves: CubicBezierBatch
  var curveIndices: [UInt16]
  var springs: SpringBatch
  var transforms: DecompositionBatch
  var keyframes: [KeyframeValues]
  /// Keyframe tracks evaluated by ``KeyframeEvaluationJob``, one group per shared layout.
  var keyframeGroups: [SceneKeyframeGroup]
  /// Keyframe contributions left to the scalar `Double` code (``keyframes``).
  var scalarKeyframeCount: Int
  var fromValues: [Float]
  var toValues: [Float]
  var writtenCount: Int

  var capacity: SceneBatchCapacity {
    SceneBatchCapacity(
      instances: instanceRange.count, layers: count, contributions: contributions.count,
      beziers: curveIndices.count, springs: springs.count, transforms: transforms.count,
      values: fromValues.count, written: writtenCount)
  }

  init(instances: [SceneBatch.Instance], range: Range<Int>, layerStart: Int)
    throws(ValidationError)
  {
    var parents: [Int?] = []
    var isTransform: [Bool] = []
    var offsets: [Int] = []
    for k in range {
      let tree = instances[k].scene.model
      let offset = parents.count
      offsets.append(offset)
      for i in 0..<tree.count {
        parents.append(((try? tree.parentIndex(at: i)) ?? nil).map { $0 + offset })
        isTransform.append(tree.layers[i].isTransformLayer)
      }
    }
    let tree = try LayerTreeBatch(parents: parents, isTransformLayer: isTransform)
    let n = parents.count
    self.instanceRange = range
    self.layerStart = layerStart
    self.count = n
    self.tree = tree
    var source = [(Int, Int)](repeating: (0, 0), count: n)
    var positions: [[Int]] = []
    var layerInstance = [Int32](repeating: 0, count: n)
    for (k, offset) in offsets.enumerated() {
      let m = instances[range.lowerBound + k].scene.model.count
      positions.append((0..<m).map { tree.positions[offset + $0] })
      for i in 0..<m {
        let q = tree.positions[offset + i]
        source[q] = (k, i)
        layerInstance[q] = Int32(k)
      }
    }
    self.layerSource = source
    self.positions = positions
    self.layerInstance = layerInstance

    var model = [Float](repeating: 0, count: LayerPlanes.count * n)
    var removedAt = [Double](repeating: .infinity, count: n)
    var presentFinished = [Float](repeating: 0, count: n)
    var presentCancelled = [Float](repeating: 0, count: n)
    var events: [SceneWrite] = []
    var finished: [SceneWrite] = []
    var cancelled: [SceneWrite] = []
    var writeValues: [Float] = []
    var contributions: [SceneContribution] = []
    var timings: [MediaTiming] = []
    var scalarTimings: [TimingFunction] = []
    var curves: [CubicBezier] = []
    var curveIndex: [CubicBezier: UInt16] = [:]
    var curveIndices: [UInt16] = []
    var springs: [Spring] = []
    var transformFrom: [Transform3D] = []
    var transformTo: [Transform3D] = []
    var keyframes: [KeyframeValues] = []
    var groupIndex: [SceneKeyframeLayout: Int] = [:]
    var candidates: [[(contribution: Int, track: CompiledKeyframeTrack)]] = []
    var fromValues: [Float] = []
    var toValues: [Float] = []
    var writtenCount = 0

    for k in 0..<range.count {
      let index = range.lowerBound + k
      let scene = instances[index].scene
      let layersOfK = scene.model.layers
      let pos = positions[k]
      func fail(_ reason: ValidationError.Reason) -> ValidationError {
        ValidationError(field: "instances", index: index, reason: reason)
      }
      func float(_ v: Double) throws(ValidationError) -> Float {
        do { return try floatValue(v, "instances", index: index) } catch {
          throw fail(error.reason)
        }
      }
      func planes(of layer: Layer) throws(ValidationError) -> [Float] {
        var values: [Float] = []
        for v in rawPlanes(of: layer) { values.append(try float(v)) }
        return values
      }
      // Model planes.
      var modelOf: [[Float]] = []
      for (i, layer) in layersOfK.enumerated() {
        let values = try planes(of: layer)
        modelOf.append(values)
        for (p, v) in values.enumerated() { model[p * n + pos[i]] = v }
      }
      // Events.
      for event in scene.events {
        switch event.change {
        case .remove(let id):
          guard let i = scene.model.index(of: id) else { continue }
          for d in subtree(of: i, in: scene.model) {
            removedAt[pos[d]] = min(removedAt[pos[d]], event.time)
          }
        case .set(let id, let property, let value):
          guard let i = scene.model.index(of: id) else { continue }
          guard let target = planeTarget(property) else {
            if case .backgroundColor = property { continue }
            throw fail(.invalidState("\(id): changes of \(property.keyPath) are not supported"))
          }
          let offset = writeValues.count
          for v in channels(value) { writeValues.append(try float(v)) }
          events.append(
            SceneWrite(
              instance: Int32(k), position: Int32(pos[i]), firstPlane: Int32(target.plane),
              channels: Int32(target.channels), valueOffset: Int32(offset), time: event.time))
        }
      }
      // Completion states, as overrides of the model (finished) or of the state at 0 (cancelled).
      let atZero = scene.presentation(at: 0)
      let finishedTree = scene.presentation(at: 0, completion: .finished)
      let cancelledTree = scene.presentation(at: 0, completion: .cancelled)
      for (i, layer) in layersOfK.enumerated() {
        if let f = finishedTree[id: layer.id] {
          presentFinished[pos[i]] = 1
          let values = try planes(of: f)
          for p in 0..<LayerPlanes.count where values[p] != modelOf[i][p] {
            finished.append(
              SceneWrite(
                instance: Int32(k), position: Int32(pos[i]), firstPlane: Int32(p), channels: 1,
                valueOffset: Int32(writeValues.count), time: 0))
            writeValues.append(values[p])
          }
        }
        if let c = cancelledTree[id: layer.id], let z = atZero[id: layer.id] {
          presentCancelled[pos[i]] = 1
          let values = try planes(of: c)
          let base = try planes(of: z)
          for p in 0..<LayerPlanes.count where values[p] != base[p] {
            cancelled.append(
              SceneWrite(
                instance: Int32(k), position: Int32(pos[i]), firstPlane: Int32(p), channels: 1,
                valueOffset: Int32(writeValues.count), time: 0))
            writeValues.append(values[p])
          }
        }
      }
      // Animations, in order.
      var slots: [String: Int] = [:]
      for entry in scene.animations.entries {
        guard let i = scene.model.index(of: entry.layerID) else { continue }
        let animation = entry.animation
        guard let target = planeTarget(animation.property) else {
          if case .backgroundColor = animation.property { continue }
          throw fail(
            .invalidState(
              "\(entry.layerID): animations of \(animation.property.keyPath) are not supported"))
        }
        let key = "\(i)/\(animation.property.keyPath)"
        let slot: Int
        if let s = slots[key] {
          slot = s
        } else {
          slot = writtenCount
          slots[key] = slot
          writtenCount += 1
        }
        var c = SceneContribution(
          instance: Int32(k), position: Int32(pos[i]), firstPlane: Int32(target.plane),
          channels: Int32(target.channels), writtenSlot: Int32(slot), kind: .basicLinear,
          bezierSlot: -1, scalarTimingSlot: -1, springSlot: -1, transformSlot: -1,
          keyframeSlot: -1, valueOffset: -1, duration: try float(animation.timing.duration))
        switch animation.timingFunction {
        case nil: break
        case .cubicBezier(let curve)?:
          let ci: UInt16
          if let existing = curveIndex[curve] {
            ci = existing
          } else {
            guard curves.count < Int(UInt16.max) else {
              throw fail(.invalidState("more than 65535 distinct timing curves in one block"))
            }
            ci = UInt16(curves.count)
            curveIndex[curve] = ci
            curves.append(curve)
          }
          c.bezierSlot = Int32(curveIndices.count)
          curveIndices.append(ci)
        case let function?:
          c.scalarTimingSlot = Int32(scalarTimings.count)
          scalarTimings.append(function)
        }
        c.valueOffset = Int32(fromValues.count)
        func pair(_ from: AnimationValue, _ to: AnimationValue, spring: Spring?)
          throws(ValidationError)
        {
          if case .transform(let a) = from, case .transform(let b) = to {
            c.kind = spring == nil ? .basicTransform : .springTransform
            c.transformSlot = Int32(transformFrom.count)
            transformFrom.append(a)
            transformTo.append(b)
          } else {
            c.kind = spring == nil ? .basicLinear : .springLinear
            for v in channels(from) { fromValues.append(try float(v)) }
            for v in channels(to) { toValues.append(try float(v)) }
          }
          if let spring {
            c.springSlot = Int32(springs.count)
            springs.append(spring)
          }
        }
        switch animation.content {
        case .basic(let from, let to): try pair(from, to, spring: nil)
        case .spring(let spring, let from, let to): try pair(from, to, spring: spring)
        case .path:
          throw fail(
            .invalidState(
              "\(entry.layerID): path animations (CAKeyframeAnimation.path) are not supported"))
        case .keyframes(let values):
          c.kind = .keyframes
          c.keyframeSlot = Int32(keyframes.count)
          keyframes.append(values)
          if let (layout, track) = batchableLayout(values) {
            let g: Int
            if let existing = groupIndex[layout] {
              g = existing
            } else {
              g = candidates.count
              groupIndex[layout] = g
              candidates.append([])
            }
            candidates[g].append((contributions.count, track))
          }
          // Reserve the channels in the value arrays (the scratch output uses the same offsets).
          for _ in 0..<target.channels {
            fromValues.append(0)
            toValues.append(0)
          }
        }
        contributions.append(c)
        timings.append(animation.timing)
      }
    }
    // Keyframe groups: one KeyframeBatch per channel; a group the kernel rejects (a value or
    // tangent beyond Float) stays on the scalar path.
    var groups: [SceneKeyframeGroup] = []
    for members in candidates {
      let tracks = members.map(\.track)
      var batches: [KeyframeBatch] = []
      for ch in 0..<tracks[0].channelCount {
        guard let batch = try? KeyframeBatch(tracks: tracks, channel: ch) else { break }
        batches.append(batch)
      }
      guard batches.count == tracks[0].channelCount else { continue }
      groups.append(
        SceneKeyframeGroup(
          lanes: members.map { Int32($0.contribution) },
          offsets: members.map { contributions[$0.contribution].valueOffset }, channels: batches))
      for member in members { contributions[member.contribution].keyframeSlot = -1 }
    }
    self.keyframeGroups = groups
    self.scalarKeyframeCount = contributions.count(where: {
      $0.kind == .keyframes && $0.keyframeSlot >= 0
    })
    self.modelPlanes = model
    self.removedAt = removedAt
    self.presentFinished = presentFinished
    self.presentCancelled = presentCancelled
    self.events = events
    self.finished = finished
    self.cancelled = cancelled
    self.writeValues = writeValues
    self.contributions = contributions
    self.localBegin = timings.map(\.beginTime)
    self.localSpeed = timings.map(\.speed)
    self.localOffset = timings.map(\.timeOffset)
    self.activeDurations = timings.map(\.activeDuration)
    do {
      self.timings = try MediaTimingBatch(
        timings: timings.map {
          var local = $0
          local.beginTime = 0
          local.speed = 1
          local.timeOffset = 0
          return local
        })
    } catch {
      // The lane index is the contribution's: report its instance.
      let k = error.index.map { Int(contributions[$0].instance) } ?? 0
      throw ValidationError(field: "instances", index: range.lowerBound + k, reason: error.reason)
    }
    self.scalarTimings = scalarTimings
    self.curves = CubicBezierBatch(curves: curves)
    self.curveIndices = curveIndices
    self.springs = SpringBatch(springs: springs)
    do {
      self.transforms = try DecompositionBatch(from: transformFrom, to: transformTo)
    } catch {
      throw ValidationError(
        field: "instances", index: range.lowerBound,
        reason: .invalidState("a transform animation does not fit in Float: \(error)"))
    }
    self.keyframes = keyframes
    self.fromValues = fromValues
    self.toValues = toValues
    self.writtenCount = writtenCount
  }
}

/// Keyframe tracks of one block that share a layout, evaluated channel by channel by
/// ``KeyframeEvaluationJob``: lane `l` is contribution `lanes[l]`, whose channel `ch` goes to
/// `values[offsets[l] + ch]`.
struct SceneKeyframeGroup: Sendable {
  var lanes: [Int32]
  var offsets: [Int32]
  /// One batch per channel.
  var channels: [KeyframeBatch]
}

/// What tracks must share to be one ``KeyframeBatch``: calculation mode, key and channel counts,
/// key times (outside the paced modes), the resolved per-segment timing functions and the
/// track's own timing function.
struct SceneKeyframeLayout: Hashable {
  var mode: CalculationMode
  var keyCount: Int
  var channelCount: Int
  var keyTimes: [Double]
  var segmentFunctions: [TimingFunction?]
  var timingFunction: TimingFunction?
  var samplesPerSegment: Int
}

/// The batch layout of `values` and its compiled track, or `nil` when the track stays on the
/// scalar path: transforms in the linear and paced modes (interpolated by decomposition, not
/// channel-wise), colours, and tracks with a steps or `linear(…)` timing function (only cubic
/// Béziers are batched).
func batchableLayout(_ values: KeyframeValues) -> (SceneKeyframeLayout, CompiledKeyframeTrack)? {
  let track: CompiledKeyframeTrack
  switch values {
  case .numbers(let t): track = t.compiled
  case .points(let t): track = t.compiled
  case .sizes(let t): track = t.compiled
  case .rects(let t): track = t.compiled
  case .transforms(let t):
    guard t.calculationMode != .linear, t.calculationMode != .paced else { return nil }
    track = t.compiled
  case .colors: return nil
  }
  for function in track.timingFunctions + (track.timingFunction.map { [$0] } ?? []) {
    guard case .cubicBezier = function else { return nil }
  }
  let paced = track.calculationMode == .paced || track.calculationMode == .cubicPaced
  let layout = SceneKeyframeLayout(
    mode: track.calculationMode, keyCount: track.keyCount, channelCount: track.channelCount,
    keyTimes: paced ? [] : track.keyTimes,
    segmentFunctions: track.segmentTimingFunctionIndices.map {
      $0 >= 0 ? track.timingFunctions[$0] : nil
    },
    timingFunction: track.timingFunction,
    samplesPerSegment: track.calculationMode == .cubicPaced ? track.samplesPerSegment : 0)
  return (layout, track)
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

/// The planes a property writes: first plane and channel count; `nil` for properties the batch
/// does not write (`backgroundColor`, transform sub-paths).
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
  case .transform: (LayerPlanes.transform, 16)
  case .sublayerTransform: (LayerPlanes.sublayerTransform, 16)
  case .transformComponent, .backgroundColor, .cornerRadius, .borderWidth, .borderColor,
    .shadowOpacity, .shadowRadius, .shadowOffset, .shadowColor:
    nil
  }
}

/// The channels of `value` in plane order (rectangles as origin x, y, width, height).
func channels(_ value: AnimationValue) -> [Double] {
  switch value {
  case .number(let v): [v]
  case .point(let p): [p.x, p.y]
  case .size(let s): [s.width, s.height]
  case .rect(let r): [r.origin.x, r.origin.y, r.size.width, r.size.height]
  case .transform(let t): t.fields
  case .color(let c): c.channels
  }
}

/// Layer `i` and every layer below it.
private func subtree(of i: Int, in tree: LayerTree) -> [Int] {
  var result = [i]
  var k = 0
  while k < result.count {
    let p = result[k]
    for j in 0..<tree.count where ((try? tree.parentIndex(at: j)) ?? nil) == p {
      result.append(j)
    }
    k += 1
  }
  return result
}
