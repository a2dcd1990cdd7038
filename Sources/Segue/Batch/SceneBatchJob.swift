import SegueSIMDSupport
import Synchronization

/// The scratch memory of ``SceneEvaluationJob``: one slot per thread, each sized for the
/// largest template of the batch it was made for (a lane group's dynamic planes, matrices of
/// parents, masks). Allocated once by the caller, reused by every run, so a run allocates nothing
/// of its own. A context must not be used by two runs at once.
///
/// The size depends on the templates only, not on the number of instances: adding or removing
/// instances of templates the context already covers keeps it valid; a batch that gained a
/// larger template needs a new context (``SceneEvaluationJob/validate()`` says so).
///
/// A running chunk claims a free slot (an atomic flag per slot) and frees it when done, so no two
/// chunks running at the same time share scratch, whichever threads run them.
public final class SceneBatchContext: @unchecked Sendable {
  /// The number of slots: the most threads a run may use.
  public let slots: Int
  let capacity: SceneScratchSize
  let floatsPerSlot: Int
  let floats: UnsafeMutablePointer<Float>
  /// One flag per slot: 1 while a chunk uses the slot.
  let claims: UnsafeMutablePointer<Atomic<Int32>>

  /// Scratch for running `batch` on up to `threads` threads.
  ///
  /// - Throws: ``ValidationError`` `"threads"` ``ValidationError/Reason/notPositive`` when
  ///   `threads < 1`.
  public init(batch: SceneBatch, threads: Int = 1) throws(ValidationError) {
    guard threads >= 1 else { throw ValidationError(field: "threads", reason: .notPositive) }
    let c = batch.scratch
    slots = threads
    capacity = c
    // Whole cache lines per slot, plus one so consecutive slots do not share a line.
    floatsPerSlot = (SceneBatchSlot.floatCount(c) + 31) / 16 * 16
    let total = floatsPerSlot * threads
    floats = UnsafeMutableRawPointer.allocate(byteCount: 4 * total, alignment: 64)
      .bindMemory(to: Float.self, capacity: total)
    floats.initialize(repeating: 0, count: total)
    claims = .allocate(capacity: threads)
    for s in 0..<threads { (claims + s).initialize(to: Atomic(0)) }
  }

  /// The bytes this context holds.
  public var byteCount: Int { 4 * slots * floatsPerSlot }

  deinit {
    floats.deallocate()
    claims.deinitialize(count: slots)
    claims.deallocate()
  }

  /// Claims a free slot. At most ``slots`` chunks run at once (a run's `threads` is at most
  /// ``slots``), so a free slot exists; the scan repeats only if another chunk is just freeing one.
  func claimSlot() -> Int {
    while true {
      for s in 0..<slots
      where claims[s].compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
        return s
      }
    }
  }

  /// Frees a slot claimed by ``claimSlot()``.
  func releaseSlot(_ s: Int) { claims[s].store(0, ordering: .releasing) }

  func slot(_ s: Int) -> SceneBatchSlot {
    SceneBatchSlot(capacity: capacity, floats: floats + s * floatsPerSlot)
  }
}

/// Pointers into one slot of a ``SceneBatchContext`` (every region 64-byte aligned; a "vector"
/// is 16 floats).
struct SceneBatchSlot: @unchecked Sendable {
  /// Scene times `τ` of the 16 lanes (`Double`, seconds).
  let times: UnsafeMutablePointer<Double>
  /// `dτ/dt` of the 16 lanes (`Double`, scene seconds per wall second; written when the job's
  /// ``SceneEvaluationJob/computesTimeRates``): the clock stage's input to derivative kernels.
  let timeRates: UnsafeMutablePointer<Double>
  let dynamic: UnsafeMutablePointer<Float>
  let written: UnsafeMutablePointer<Float>
  let alpha: UnsafeMutablePointer<Float>
  let removals: UnsafeMutablePointer<Float>
  let worlds: UnsafeMutablePointer<Float>
  let sublayers: UnsafeMutablePointer<Float>
  /// Scalar keyframe values: lane `l`, channel `c` at `16·l + c`.
  let channels: UnsafeMutablePointer<Float>
  let lanes: UnsafeMutablePointer<Float>
  let keyframeScratch: UnsafeMutablePointer<Float>

  static func floatCount(_ c: SceneScratchSize) -> Int {
    16 * (4 + c.dynamic + c.written + c.alphas + c.removals + 16 * c.worlds + 16 * c.sublayers)
      + 256 + 16 + 48
  }

  init(capacity c: SceneScratchSize, floats: UnsafeMutablePointer<Float>) {
    var p = floats
    func take(_ vectors: Int) -> UnsafeMutablePointer<Float> {
      defer { p += 16 * vectors }
      return p
    }
    times = UnsafeMutableRawPointer(take(2)).assumingMemoryBound(to: Double.self)
    timeRates = UnsafeMutableRawPointer(take(2)).assumingMemoryBound(to: Double.self)
    dynamic = take(c.dynamic)
    written = take(c.written)
    alpha = take(c.alphas)
    removals = take(c.removals)
    worlds = take(16 * c.worlds)
    sublayers = take(16 * c.sublayers)
    channels = take(16)
    lanes = take(1)
    keyframeScratch = take(3)
  }
}

/// Evaluates a ``SceneBatch`` at one or more frame times into caller-owned buffers, in the style
/// of ozz-animation's runtime jobs: the job owns nothing, ``run()`` allocates nothing (the
/// ``context`` holds the scratch; keyframe tracks and timing functions the kernels cannot take are
/// evaluated by the scalar library code, see ``SceneTemplate/scalarKeyframeTrackCount``).
///
/// For frame `f` and layer output index `i` (``SceneBatch/layerIndex(instance:layerID:)``), with
/// `N = batch.layerCount`: `matrices[16·(f·N + i) + k]` is field `k` of the layer's matrix to
/// container space in `CATransform3D` order, `opacities[f·N + i]` its presented opacity (0 when
/// not in the container), and the optional `corners[16·(f·N + i) + 4c + v]` and
/// `presence[f·N + i]` its projected corners and presence. Every matrix field is within
/// `1e-5·(1 + max |mᵢⱼ|)` of ``TransitionScene/sample(at:)`` and every opacity within `1e-5`. The
/// steps of an evaluation and the error budget are in <doc:SceneBatchInternals>.
public struct SceneEvaluationJob: @unchecked Sendable {
  /// The compiled batch (read only).
  public var batch: SceneBatch
  /// The scratch.
  public var context: SceneBatchContext
  /// The frame times on the batch clock, seconds; every entry finite.
  public var times: UnsafeBufferPointer<Double>
  /// Output: `16·N` values per frame.
  public var matrices: UnsafeMutableBufferPointer<Float>
  /// Output: `N` values per frame.
  public var opacities: UnsafeMutableBufferPointer<Float>
  /// Optional output: `16·N` values per frame.
  public var corners: UnsafeMutableBufferPointer<Float>?
  /// Optional output: `N` values per frame.
  public var presence: UnsafeMutableBufferPointer<Float>?
  /// Whether full rows of matrices (and corners) are written with non-temporal stores, which
  /// bypass the caches: `nil` (the default) chooses them when the output is 64-byte aligned and
  /// at least ``streamingThreshold`` bytes (larger than a core's L2, so the rows would leave the
  /// cache before anyone reads them); `true` asks for them wherever the output is aligned.
  public var streamingStores: Bool?
  /// The matrix output size (bytes) from which ``streamingStores`` `nil` streams: 4 MiB.
  public static let streamingThreshold = 4 << 20
  /// How far to evaluate (profiling; ``SceneBatchStage/output``, the default, is the whole job).
  package var stage: SceneBatchStage = .output
  /// Whether the clock stage also writes each lane's `dτ/dt` (``SceneInstanceTime/rate``) to the
  /// slot's `timeRates`, for the derivative kernels (default `false`: replay needs none).
  package var computesTimeRates = false

  /// Creates a job; nothing is checked until ``validate()`` or ``run()``.
  public init(
    batch: SceneBatch, context: SceneBatchContext, times: UnsafeBufferPointer<Double>,
    matrices: UnsafeMutableBufferPointer<Float>, opacities: UnsafeMutableBufferPointer<Float>,
    corners: UnsafeMutableBufferPointer<Float>? = nil,
    presence: UnsafeMutableBufferPointer<Float>? = nil
  ) {
    self.batch = batch
    self.context = context
    self.times = times
    self.matrices = matrices
    self.opacities = opacities
    self.corners = corners
    self.presence = presence
  }

  /// Checks the job without running it.
  ///
  /// - Throws: ``ValidationError``: `"context"` ``ValidationError/Reason/invalidState(_:)`` when
  ///   the context was made for a batch with smaller templates; `"times"` with the index
  ///   ``ValidationError/Reason/notFinite``; ``ValidationError/Reason/tooFew(minimum:actual:)`` on
  ///   `"matrices"` (`16·N·frames`), `"opacities"` (`N·frames`), `"corners"` (`16·N·frames`) and
  ///   `"presence"` (`N·frames`).
  public func validate() throws(ValidationError) {
    guard context.capacity.covers(batch.scratch) else {
      throw ValidationError(
        field: "context", reason: .invalidState("was made for a batch with smaller templates"))
    }
    for (i, t) in times.enumerated() where !t.isFinite {
      throw ValidationError(field: "times", index: i, reason: .notFinite)
    }
    let n = batch.layerCount * times.count
    func check(_ count: Int, _ minimum: Int, _ field: String) throws(ValidationError) {
      guard count >= minimum else {
        throw ValidationError(field: field, reason: .tooFew(minimum: minimum, actual: count))
      }
    }
    try check(matrices.count, 16 * n, "matrices")
    try check(opacities.count, n, "opacities")
    if let corners { try check(corners.count, 16 * n, "corners") }
    if let presence { try check(presence.count, n, "presence") }
  }

  /// Validates, then evaluates every frame on the calling thread (context slot 0).
  public func run() throws(ValidationError) {
    try validate()
    evaluate(items: 0..<(times.count * batch.laneGroupCount), slot: context.slot(0))
  }

  /// Validates, then evaluates the (frame, lane group) items split into chunks over `threads`
  /// threads (the shared ``BatchContext`` for `threads`, entered without a closure; `chunkSize` counts lane
  /// groups, default about a quarter of an even share). Each running chunk claims a free context
  /// slot, so no two running chunks share scratch whichever threads run them. Every lane group is
  /// evaluated by the same code whatever the split, so the outputs are bitwise the same for every
  /// `threads` and `chunkSize`.
  ///
  /// - Throws: what ``validate()`` throws; `"threads"` ``ValidationError/Reason/notPositive`` or
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` beyond the context's ``SceneBatchContext/slots``;
  ///   `"chunkSize"` ``ValidationError/Reason/notPositive``.
  public func run(threads: Int, chunkSize: Int? = nil) throws(ValidationError) {
    try validate()
    guard threads >= 1 else { throw ValidationError(field: "threads", reason: .notPositive) }
    guard threads <= context.slots else {
      throw ValidationError(
        field: "threads", reason: .outOfRange(lower: 1, upper: Double(context.slots)))
    }
    let items = times.count * batch.laneGroupCount
    let size: Int
    if let chunkSize {
      guard chunkSize >= 1 else {
        throw ValidationError(field: "chunkSize", reason: .notPositive)
      }
      size = chunkSize
    } else {
      size = max(1, (items + 4 * threads - 1) / (4 * threads))
    }
    if threads == 1 {
      var lower = 0
      while lower < items {
        evaluate(items: lower..<min(lower + size, items), slot: context.slot(0))
        lower += size
      }
      return
    }
    // The closure-free entry of the shared worker set: the job passes itself by address, so a
    // run allocates nothing.
    withUnsafePointer(to: self) { job in
      BatchContext.shared(threads: threads).run(
        range: 0..<items, chunkSize: size,
        invoke: { job, lower, upper in
          let job = job.assumingMemoryBound(to: SceneEvaluationJob.self)
          let context = job.pointee.context
          let s = context.claimSlot()
          job.pointee.evaluate(items: lower..<upper, slot: context.slot(s))
          context.releaseSlot(s)
        }, context: UnsafeRawPointer(job))
    }
  }

  /// Whether this run streams its rows (see ``streamingStores``).
  // swift-format-ignore: NeverForceUnwrap
  var streams: Bool {
    guard let base = matrices.baseAddress, Int(bitPattern: base) % 64 == 0 else { return false }
    if let corners, let c = corners.baseAddress, Int(bitPattern: c) % 64 != 0 { return false }
    return streamingStores ?? (4 * matrices.count >= Self.streamingThreshold)
  }

  /// Items `frame·laneGroups + u`, in runs of one frame and one group (then a store fence when
  /// streaming).
  func evaluate(items: Range<Int>, slot: SceneBatchSlot) {
    evaluateRuns(items: items, slot: slot)
    if streams { segue_store_fence() }
  }

  func evaluateRuns(items: Range<Int>, slot: SceneBatchSlot) {
    let perFrame = batch.laneGroupCount
    guard perFrame > 0 else { return }
    var item = items.lowerBound
    while item < items.upperBound {
      let frame = item / perFrame
      let u = item - frame * perFrame
      // The group holding lane group u (binary search over the prefix).
      var lo = 0
      var hi = batch.groups.count - 1
      while lo < hi {
        let mid = (lo + hi + 1) / 2
        if batch.groupItems[mid] <= u { lo = mid } else { hi = mid - 1 }
      }
      let g = lo
      let end = min(items.upperBound - frame * perFrame, batch.groupItems[g + 1])
      evaluate(
        group: g, laneGroups: (u - batch.groupItems[g])..<(end - batch.groupItems[g]),
        frame: frame, slot: slot)
      item = frame * perFrame + end
    }
  }

  // swift-format-ignore: NeverForceUnwrap
  func evaluate(group g: Int, laneGroups: Range<Int>, frame: Int, slot: SceneBatchSlot) {
    let template = batch.templates[g]
    let group = batch.groups[g]
    let rows = frame * batch.layerCount + batch.groupRows[g]
    let out = SceneOutputs(
      streaming: streams ? 1 : 0,
      matrices: matrices.baseAddress! + 16 * rows, opacities: opacities.baseAddress! + rows,
      corners: corners.map { $0.baseAddress! + 16 * rows },
      presence: presence.map { $0.baseAddress! + rows })
    let t = times[frame]
    group.kinds.withUnsafeBufferPointer { kinds in
      group.start.withUnsafeBufferPointer { start in
        group.speed.withUnsafeBufferPointer { speed in
          let clocks = SceneLaneClocks(
            kinds: kinds.baseAddress!, start: start.baseAddress!, speed: speed.baseAddress!,
            group: group, additive: batch.additive)
          for j in laneGroups {
            let first = 16 * j
            SceneLaneGroup(
              program: template.program, template: template, slot: slot, first: first,
              valid: min(16, group.count - first), stage: stage, rates: computesTimeRates
            ).evaluate(at: t, clocks: clocks, out: out)
          }
        }
      }
    }
  }
}

/// The output pointers at a group's first row.
struct SceneOutputs {
  /// 1 for non-temporal full-row stores.
  var streaming: Int32
  var matrices: UnsafeMutablePointer<Float>
  var opacities: UnsafeMutablePointer<Float>
  var corners: UnsafeMutablePointer<Float>?
  var presence: UnsafeMutablePointer<Float>?
}

/// A group's clocks, structure of arrays.
struct SceneLaneClocks {
  var kinds: UnsafePointer<UInt8>
  var start: UnsafePointer<Double>
  var speed: UnsafePointer<Double>
  /// For the interactive clocks (rare; read per lane).
  var group: SceneInstanceGroup
  /// The batch's additive animations (read when the group has any).
  var additive: SceneAdditivePool
}

/// One lane group: instances `first ..< first + valid` of one template's group, one per lane.
struct SceneLaneGroup {
  let program: SceneProgram
  let template: SceneTemplate
  let slot: SceneBatchSlot
  let first: Int
  let valid: Int
  let stage: SceneBatchStage
  /// Whether the clock stage writes ``SceneBatchSlot/timeRates``.
  let rates: Bool

  static let running: Float = 0
  static let finished: Float = 1
  static let cancelled: Float = 2

  /// The vector at `p` (16 floats).
  @inline(__always)
  func vector(_ p: UnsafeMutablePointer<Float>, _ i: Int) -> Lanes {
    UnsafeRawPointer(p + 16 * i).load(as: Lanes.self)
  }

  @inline(__always)
  func setVector(_ p: UnsafeMutablePointer<Float>, _ i: Int, _ v: Lanes) {
    UnsafeMutableRawPointer(p + 16 * i).storeBytes(of: v, as: Lanes.self)
  }

  /// A constant matrix of the program, broadcast.
  @inline(__always)
  func constant(_ offset: Int32) -> LaneMatrix {
    let p = program.values + Int(offset)
    return LaneMatrix { Lanes(repeating: p[$0]) }
  }

  /// The local time of `op` at scene time `tau`, rounded to a `Float` on the same side of 0 and
  /// of the active duration as the `Double` value (see ``SceneBatch``): the scalar reference of
  /// the lane version `segue_local_time_f32x16` (the C shim), which the kernel uses.
  @inline(__always)
  static func localTime(_ tau: Double, _ op: SceneOp) -> Float {
    let big = Float.greatestFiniteMagnitude
    let t = (tau - op.beginTime) * op.speed + op.timeOffset
    let f = min(max(Float(t), -big), big)
    if t < 0 { return min(f, -Float.leastNonzeroMagnitude) }
    if t < op.activeDuration { return min(max(f, 0), op.activeEnd.nextDown) }
    return max(f, op.activeEnd)
  }

  /// ``localTime(_:_:)`` of sixteen scene times at `tau`, in lanes (the C shim
  /// `segue_local_time_f32x16`, bitwise equal to the scalar reference).
  @inline(__always)
  static func localTimes(_ tau: UnsafePointer<Double>, _ op: SceneOp) -> Lanes {
    segue_local_time_f32x16(
      tau, op.beginTime, op.speed, op.timeOffset, op.activeDuration, op.activeEnd,
      op.activeEnd.nextDown)
  }

  // swift-format-ignore: NeverForceUnwrap
  @inline(__always)
  func evaluate(at t: Double, clocks: SceneLaneClocks, out: SceneOutputs) {
    let prog = program
    let s = slot
    let tau = s.times
    // 1. Clocks.
    var state = Lanes(repeating: Self.running)
    for l in 0..<16 {
      var time = 0.0
      var rate = 0.0
      if l < valid {
        let k = first + l
        switch clocks.kinds[k] {
        case SceneClockKind.timed where !rates:
          time = max((t - clocks.start[k]) * clocks.speed[k], 0)
          if time >= prog.duration { state[l] = Self.finished }
        case SceneClockKind.position:
          time = clocks.start[k]
        default:
          let lane = clocks.group.time(k, at: t, duration: prog.duration)
          switch lane.completion {
          case .finished: state[l] = Self.finished
          case .cancelled: state[l] = Self.cancelled
          case nil: break
          }
          time = lane.completion == nil || clocks.kinds[k] == SceneClockKind.timed ? lane.time : 0
          rate = lane.rate
        }
      }
      tau[l] = time
      if rates { s.timeRates[l] = rate }
    }
    if stage == .clocks { return }
    let finished = state .== Self.finished
    let cancelled = state .== Self.cancelled
    let notFinished = .!finished
    // 2. Dynamic planes at the model, nothing written yet; removal masks (running lanes).
    for d in 0..<prog.dynamicCount {
      setVector(s.dynamic, d, Lanes(repeating: prog.dynamicModel[d]))
    }
    for w in 0..<prog.writtenCount { setVector(s.written, w, Lanes()) }
    for r in 0..<prog.removalCount {
      var present = Lanes()
      for l in 0..<16 where tau[l] < prog.removals[r] { present[l] = 1 }
      setVector(s.removals, r, present)
    }
    // 3. `.set` events at τ ≥ time (not in finished lanes).
    for e in 0..<(stage >= .values ? prog.eventCount : 0) {
      let event = prog.events[e]
      var hit = Lanes()
      for l in 0..<16 where tau[l] >= event.time { hit[l] = 1 }
      let mask = notFinished .& (hit .== 1)
      for c in 0..<Int(event.channels) {
        let d = Int(event.slot) + c
        let v = Lanes(repeating: prog.values[Int(event.valueOffset) + c])
        setVector(s.dynamic, d, SIMDMath.select(mask, v, vector(s.dynamic, d)))
      }
    }
    // 4. Animations in order.
    for o in 0..<prog.opCount {
      evaluate(prog.ops[o], notFinished: notFinished)
    }
    if stage < .values { return }
    // 5. Completion overrides.
    override(prog.finished, prog.finishedCount, finished)
    override(prog.cancelled, prog.cancelledCount, cancelled)
    // 5b. The instances' additive animations (retargets), over everything above.
    if clocks.group.additiveCount > 0 { addAdditive(clocks: clocks, state: state) }
    // 6. Bounds: signed origin and size → minX, minY, |width|, |height|.
    for b in 0..<prog.boundsCount {
      let d = Int(prog.boundsSlots[b])
      for axis in 0..<2 {
        let origin = vector(s.dynamic, d + axis)
        let size = vector(s.dynamic, d + 2 + axis)
        let end = origin + size
        setVector(s.dynamic, d + axis, SIMDMath.select(end .< origin, end, origin))
        setVector(s.dynamic, d + 2 + axis, SIMDMath.select(size .< 0, -size, size))
      }
    }
    // 7. The layers, parent before child.
    if stage < .layers { return }
    evaluateTree(state: state, out: out)
  }

  /// Writes `count` completion overrides in the lanes of `mask`.
  @inline(__always)
  func override(_ list: UnsafePointer<SceneWrite>, _ count: Int, _ mask: LaneMask) {
    guard count > 0, SIMDMath.any(mask) else { return }
    for w in 0..<count {
      let d = Int(list[w].slot)
      let v = Lanes(repeating: program.values[Int(list[w].valueOffset)])
      setVector(slot.dynamic, d, SIMDMath.select(mask, v, vector(slot.dynamic, d)))
    }
  }

  /// One animation: timing, easing, spring, values, masked writes.
  // swift-format-ignore: NeverForceUnwrap
  @inline(__always)
  func evaluate(_ op: SceneOp, notFinished: LaneMask) {
    let s = slot
    let tau = s.times
    let local = Self.localTimes(tau, op)
    let (progress, phase) = MediaTimingEvaluationJob.evaluate(
      parent: local, begin: Lanes(), speed: Lanes(repeating: 1), offset: Lanes(),
      duration: Lanes(repeating: op.duration), end: Lanes(repeating: op.activeEnd),
      reverses: Lanes(repeating: op.autoreverses), backwards: Lanes(repeating: op.fillsBackwards),
      forwards: Lanes(repeating: op.fillsForwards), after: Lanes(repeating: op.afterProgress))
    let active = notFinished .& (phase .!= MediaTimingBatch.removedCode)
    guard SIMDMath.any(active), stage > .mediaTiming else { return }
    let before = phase .== MediaTimingBatch.beforeCode
    var eased = progress
    switch op.easing {
    case 1:
      eased = CubicBezierBatch.solve(
        x: progress, curve: Lanes(), coefficients: op.curveCoefficients!, curveCount: 1,
        table: op.curveTable!, scratch: s.keyframeScratch)
    case 2:
      let function = template.scalarTimings[Int(op.scalarTiming)]
      // Steps read CSS's before flag in the before phase (a backwards fill).
      for l in 0..<16 {
        eased[l] = Float(function.transform(Double(progress[l]), beforeFlag: before[l]))
      }
    default:
      break
    }
    if stage == .curves { return }
    var fraction = eased
    if op.isSpring {
      fraction = SpringEvaluationJob.evaluate(
        time: eased * op.springDuration, rate: Lanes(repeating: op.rate),
        frequency: Lanes(repeating: op.frequency),
        frequencyLow: Lanes(repeating: op.frequencyLow),
        coefficient: Lanes(repeating: op.coefficient), kind: Lanes(repeating: op.springKind))
    }
    switch (stage, op.content) {
    case (.springs, _), (.keyframes, .lerp), (.keyframes, .transform),
      (.keyframes, .scalarKeyframes), (.decomposition, .lerp), (.decomposition, .scalarKeyframes):
      return
    default: break
    }
    let w = Int(op.writtenSlot)
    let written = vector(s.written, w)
    let write = active .& .!(before .& (written .== 1))
    setVector(s.written, w, SIMDMath.select(write, 1, written))
    let slot0 = Int(op.slot)
    let channels = Int(op.channels)
    @inline(__always) func put(_ c: Int, _ v: Lanes) {
      setVector(s.dynamic, slot0 + c, SIMDMath.select(write, v, vector(s.dynamic, slot0 + c)))
    }
    let values = program.values + Int(op.valueOffset)
    switch op.content {
    case .lerp:
      let f = fraction
      for c in 0..<channels {
        let a = Lanes(repeating: values[c])
        let b = Lanes(repeating: values[channels + c])
        var v = a * (1 - f) + b * f
        v = SIMDMath.select(f .== 1, b, v)
        v = SIMDMath.select(f .== 0, a, v)
        put(c, v)
      }
    case .transform:
      let limit = DecompositionInterpolationJob.maximumFraction
      let f = SIMDMath.clamp(SIMDMath.select(active, fraction, Lanes()), -limit, limit)
      let m = DecompositionInterpolationJob.evaluateBlock(t: f) { Lanes(repeating: values[$0]) }
      for c in 0..<16 { put(c, m.field(c)) }
    case .keyframes:
      for c in 0..<channels {
        var channel = program.keyframeChannels[Int(op.keyframeChannel) + c]
        channel.planes.scratch = s.keyframeScratch
        put(c, KeyframeEvaluationJob.evaluate(eased, at: 0, shape: channel.shape, channel.planes))
      }
    case .scalarKeyframes:
      let keyframes = template.scalarKeyframes[Int(op.scalarIndex)]
      for l in 0..<16 where active[l] {
        sceneStore(
          keyframes.value(at: Double(eased[l]), beforeFlag: before[l]), to: s.channels + 16 * l)
      }
      for c in 0..<channels {
        var v = Lanes()
        for l in 0..<16 { v[l] = s.channels[16 * l + c] }
        put(c, v)
      }
    }
  }

  /// Matrices, opacities, presence and corners of every layer, written as rows.
  // swift-format-ignore: NeverForceUnwrap
  @inline(__always)
  func evaluateTree(state: Lanes, out: SceneOutputs) {
    let prog = program
    let s = slot
    let layerTotal = prog.layerCount
    let finished = state .== Self.finished
    let cancelled = state .== Self.cancelled
    let rowStride = layerTotal
    for q in 0..<layerTotal {
      let node = prog.nodes[q]
      let i = Int(node.layer)
      let base = i * LayerPlanes.count
      @inline(__always) func load(_ p: Int) -> Lanes {
        let d = prog.planeSlots[base + p]
        return d >= 0 ? vector(s.dynamic, Int(d)) : Lanes(repeating: prog.staticPlanes[base + p])
      }
      let world: LaneMatrix
      if node.worldConstant >= 0 {
        world = constant(node.worldConstant)
      } else {
        let own =
          node.ownConstant >= 0
          ? constant(node.ownConstant) : laneLayerMatrix(.inSuperlayer, load)
        if node.parent < 0 {
          world = own
        } else {
          let parent = prog.nodes[Int(node.parent)]
          var local = own
          if parent.sublayerKind == 1 {
            local = own.concatenating(constant(parent.sublayerConstant))
          } else if parent.sublayerKind == 2 {
            local = own.concatenating(
              LaneMatrix(load: s.sublayers + 256 * Int(parent.sublayerStore), stride: 16))
          }
          let above =
            parent.worldConstant >= 0
            ? constant(parent.worldConstant)
            : LaneMatrix(load: s.worlds + 256 * Int(parent.worldStore), stride: 16)
          world = local.flatteningDepth(keepsDepth: Lanes(repeating: node.keepsDepth))
            .concatenating(above)
        }
      }
      if node.worldStore >= 0 { world.store(to: s.worlds + 256 * Int(node.worldStore), stride: 16) }
      if node.sublayerKind == 2 {
        laneLayerMatrix(.sublayer, load).store(
          to: s.sublayers + 256 * Int(node.sublayerStore), stride: 16)
      }
      var alpha = SIMDMath.clamp(load(LayerPlanes.opacity), 0, 1)
      if node.parent >= 0 { alpha *= vector(s.alpha, Int(prog.nodes[Int(node.parent)].alphaStore)) }
      if node.alphaStore >= 0 { setVector(s.alpha, Int(node.alphaStore), alpha) }
      if stage == .layers { continue }
      var present =
        node.removal >= 0 ? vector(s.removals, Int(node.removal)) : Lanes(repeating: 1)
      present = SIMDMath.select(finished, node.presentFinished, present)
      present = SIMDMath.select(cancelled, node.presentCancelled, present)
      // Rows.
      let row = first * rowStride + i
      segue_store_transposed_f32x16(
        out.matrices + 16 * row, 16 * rowStride, Int32(valid), out.streaming, world.m11, world.m12,
        world.m13,
        world.m14, world.m21, world.m22, world.m23, world.m24, world.m31, world.m32, world.m33,
        world.m34, world.m41, world.m42, world.m43, world.m44)
      let opacity = alpha * present
      for l in 0..<valid { out.opacities[row + l * rowStride] = opacity[l] }
      if let presence = out.presence {
        for l in 0..<valid { presence[row + l * rowStride] = present[l] }
      }
      if let corners = out.corners {
        let c = LaneCorners(
          world: world, minX: load(LayerPlanes.boundsMinX), minY: load(LayerPlanes.boundsMinY),
          width: load(LayerPlanes.boundsWidth), height: load(LayerPlanes.boundsHeight))
        segue_store_transposed_f32x16(
          corners + 16 * row, 16 * rowStride, Int32(valid), out.streaming, c.values.0, c.values.1,
          c.values.2,
          c.values.3, c.values.4, c.values.5, c.values.6, c.values.7, c.values.8, c.values.9,
          c.values.10, c.values.11, c.values.12, c.values.13, c.values.14, c.values.15)
      }
    }
  }
}

/// Writes the channels of `value` (plane order, rectangles as origin and size) to `p`, without
/// allocating.
func sceneStore(_ value: AnimationValue, to p: UnsafeMutablePointer<Float>) {
  switch value {
  case .number(let v): p[0] = Float(v)
  case .point(let v):
    p[0] = Float(v.x)
    p[1] = Float(v.y)
  case .size(let v):
    p[0] = Float(v.width)
    p[1] = Float(v.height)
  case .rect(let r):
    p[0] = Float(r.origin.x)
    p[1] = Float(r.origin.y)
    p[2] = Float(r.size.width)
    p[3] = Float(r.size.height)
  case .transform(let m):
    p[0] = Float(m.m11)
    p[1] = Float(m.m12)
    p[2] = Float(m.m13)
    p[3] = Float(m.m14)
    p[4] = Float(m.m21)
    p[5] = Float(m.m22)
    p[6] = Float(m.m23)
    p[7] = Float(m.m24)
    p[8] = Float(m.m31)
    p[9] = Float(m.m32)
    p[10] = Float(m.m33)
    p[11] = Float(m.m34)
    p[12] = Float(m.m41)
    p[13] = Float(m.m42)
    p[14] = Float(m.m43)
    p[15] = Float(m.m44)
  case .color, .boolean, .cornerMask, .path, .colorList, .numberList:
    break
  }
}

/// How far ``SceneEvaluationJob`` evaluates each lane group, for profiling (`segue profile
/// --workload presets` times every prefix; the differences are the stages' costs). Each stage
/// includes the ones before it.
package enum SceneBatchStage: Int, Comparable, CaseIterable, Sendable {
  /// Scene times and states of the instances.
  case clocks
  /// + every animation's local time (`Double`) and media timing (progress, phase).
  case mediaTiming
  /// + timing functions (Bézier solve, scalar steps / `linear(…)`).
  case curves
  /// + spring progress.
  case springs
  /// + keyframe tracks (kernel and scalar paths are both "values": kernel tracks here).
  case keyframes
  /// + decomposition of transform animations.
  case decomposition
  /// + lerps, scalar keyframe tracks, the masked plane writes, events, completion overrides,
  /// bounds.
  case values
  /// + every layer's matrix (in the superlayer, sublayer terms, to the container) and opacity.
  case layers
  /// + presence and the rows (transposed stores of matrices, opacities, corners): the whole job.
  case output

  package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}
