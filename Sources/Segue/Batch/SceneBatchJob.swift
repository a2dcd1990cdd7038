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
    let line = CacheLine.floats
    floatsPerSlot = (SceneBatchSlot.floatCount(c) + 2 * line - 1) / line * line
    let total = floatsPerSlot * threads
    floats = UnsafeMutableRawPointer.allocate(
      byteCount: MemoryLayout<Float>.stride * total, alignment: CacheLine.bytes
    ).bindMemory(to: Float.self, capacity: total)
    floats.initialize(repeating: 0, count: total)
    claims = .allocate(capacity: threads)
    for s in 0..<threads { (claims + s).initialize(to: Atomic(0)) }
  }

  /// The bytes this context holds.
  public var byteCount: Int { MemoryLayout<Float>.stride * slots * floatsPerSlot }

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
/// is one float per lane, ``SceneLaneGroup/laneCount`` floats).
struct SceneBatchSlot: @unchecked Sendable {
  /// Scene times `τ` of the lanes (`Double`, seconds).
  let times: UnsafeMutablePointer<Double>
  /// `dτ/dt` of the lanes (`Double`, scene seconds per wall second; written when the job's
  /// ``SceneEvaluationJob/computesTimeRates``): the clock stage's input to derivative kernels.
  let timeRates: UnsafeMutablePointer<Double>
  let dynamic: UnsafeMutablePointer<Float>
  let written: UnsafeMutablePointer<Float>
  let alpha: UnsafeMutablePointer<Float>
  let removals: UnsafeMutablePointer<Float>
  let worlds: UnsafeMutablePointer<Float>
  let sublayers: UnsafeMutablePointer<Float>
  /// Scalar keyframe values: lane `l`, channel `c` at `channelStride·l + c`.
  let channels: UnsafeMutablePointer<Float>
  let lanes: UnsafeMutablePointer<Float>
  let keyframeScratch: UnsafeMutablePointer<Float>
  /// Per shared timing (``SceneOp/timingSlot``): its phase codes, eased progress and spring
  /// fraction, ``timingVectors`` vectors.
  let timings: UnsafeMutablePointer<Float>

  /// The vectors of one shared timing: phase, eased progress, fraction.
  static var timingVectors: Int { 3 }

  /// The vectors of the lanes' scene times, and of their rates (one `Double` per lane).
  static var timeVectors: Int { MemoryLayout<Double>.stride / MemoryLayout<Float>.stride }
  /// The floats of one lane matrix in ``worlds`` or ``sublayers``: a vector per field.
  static var matrixFloats: Int { LaneMatrix.fieldCount * SceneLaneGroup.laneCount }
  /// The most channels of an animated value (a transform's fields): the floats per lane of
  /// ``channels``.
  static var channelStride: Int { LaneMatrix.fieldCount }

  /// The lane vectors of a slot for templates of sizes up to `c`.
  static func vectorCount(_ c: SceneScratchSize) -> Int {
    let matrices = LaneMatrix.fieldCount * (c.worlds + c.sublayers)
    let clock = 2 * timeVectors  // times and time rates
    return clock + c.dynamic + c.written + c.alphas + c.removals + matrices + channelStride
      + 1 + KeyframeEvaluationJob.scratchVectors + timingVectors * c.timings
  }

  static func floatCount(_ c: SceneScratchSize) -> Int {
    SceneLaneGroup.laneCount * vectorCount(c)
  }

  init(capacity c: SceneScratchSize, floats: UnsafeMutablePointer<Float>) {
    var p = floats
    func take(_ vectors: Int) -> UnsafeMutablePointer<Float> {
      defer { p += SceneLaneGroup.laneCount * vectors }
      return p
    }
    times = UnsafeMutableRawPointer(take(Self.timeVectors)).assumingMemoryBound(to: Double.self)
    timeRates = UnsafeMutableRawPointer(take(Self.timeVectors)).assumingMemoryBound(to: Double.self)
    dynamic = take(c.dynamic)
    written = take(c.written)
    alpha = take(c.alphas)
    removals = take(c.removals)
    worlds = take(LaneMatrix.fieldCount * c.worlds)
    sublayers = take(LaneMatrix.fieldCount * c.sublayers)
    channels = take(Self.channelStride)
    lanes = take(1)
    keyframeScratch = take(KeyframeEvaluationJob.scratchVectors)
    timings = take(Self.timingVectors * c.timings)
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
  /// Whether the evaluation loads the next lane group's animator plans and rows ahead (default
  /// `true`; `segue-bench --workload live --alternate prefetch` measures it against `false`).
  package var prefetchesAhead = true
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
    try Validate.allFinite(times, "times")
    let n = batch.layerCount * times.count
    try Validate.count(matrices.count, atLeast: LaneMatrix.fieldCount * n, "matrices")
    try Validate.count(opacities.count, atLeast: n, "opacities")
    if let corners {
      try Validate.count(corners.count, atLeast: LaneCorners.floatCount * n, "corners")
    }
    if let presence { try Validate.count(presence.count, atLeast: n, "presence") }
  }

  /// Validates, then evaluates every frame on the calling thread (context slot 0).
  public func run() throws(ValidationError) {
    try validate()
    evaluate(items: 0..<(times.count * batch.laneGroupCount), slot: context.slot(0))
  }

  /// Validates, then evaluates the (frame, lane group) items split into chunks over `threads`
  /// threads (the shared ``BatchContext`` for `threads`, entered without a closure; `chunkSize` counts lane
  /// groups, by default as ``BatchThreads/chunkSize(for:threads:chunkSize:alignment:)`` cuts
  /// them with alignment 1: one chunk on one thread, else about a quarter of an even share). Each running chunk claims a free context
  /// slot, so no two running chunks share scratch whichever threads run them. Every lane group is
  /// evaluated by the same code whatever the split, so the outputs are bitwise the same for every
  /// `threads` and `chunkSize`.
  ///
  /// - Throws: what ``validate()`` throws; `"threads"` ``ValidationError/Reason/notPositive`` or
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` beyond the context's ``SceneBatchContext/slots``;
  ///   `"chunkSize"` ``ValidationError/Reason/notPositive``.
  public func run(threads: Int, chunkSize: Int? = nil) throws(ValidationError) {
    try validate()
    guard threads <= context.slots else {
      throw ValidationError(
        field: "threads", reason: .outOfRange(lower: 1, upper: Double(context.slots)))
    }
    let items = 0..<(times.count * batch.laneGroupCount)
    let size = try BatchThreads.chunkSize(
      for: items, threads: threads, chunkSize: chunkSize, alignment: 1)
    // The closure-free entry of the shared worker set: the job passes itself by address, so a
    // run allocates nothing.
    let invoke: BatchChunkFunction = { job, lower, upper in
      let job = job.assumingMemoryBound(to: SceneEvaluationJob.self)
      let context = job.pointee.context
      let s = context.claimSlot()
      job.pointee.evaluate(items: lower..<upper, slot: context.slot(s))
      context.releaseSlot(s)
    }
    withUnsafePointer(to: self) { job in
      if threads == 1 {
        BatchThreads.runSerially(
          range: items, chunkSize: size, invoke: invoke, context: UnsafeRawPointer(job))
      } else {
        BatchContext.shared(threads: threads).run(
          range: items, chunkSize: size, invoke: invoke, context: UnsafeRawPointer(job))
      }
    }
  }

  /// Whether this run streams its rows (see ``streamingStores``).
  // swift-format-ignore: NeverForceUnwrap
  var streams: Bool {
    guard let base = matrices.baseAddress, CacheLine.isAligned(base) else { return false }
    if let corners, let c = corners.baseAddress, !CacheLine.isAligned(c) { return false }
    return streamingStores
      ?? (MemoryLayout<Float>.stride * matrices.count >= Self.streamingThreshold)
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
      matrices: matrices.baseAddress! + LaneMatrix.fieldCount * rows,
      opacities: opacities.baseAddress! + rows,
      corners: corners.map { $0.baseAddress! + LaneCorners.floatCount * rows },
      presence: presence.map { $0.baseAddress! + rows })
    let t = times[frame]
    SceneLaneClocks.with(group, additive: batch.additive) { clocks in
      let lanes = SceneLaneGroup.laneCount
      let rowsPerInstance = template.program.layerCount
      for j in laneGroups {
        let first = lanes * j
        // Animator-driven instances: the heads two lane groups ahead, the next one's moving
        // plans and rows, while this one computes. (Timed ones read no plan, and their lane
        // groups are quick enough for the hardware prefetcher to keep up with the rows.)
        if prefetchesAhead && j + 1 < laneGroups.upperBound {
          let next = (first + lanes)..<min(first + 2 * lanes, group.count)
          let afterNext = next.upperBound..<min(next.upperBound + lanes, group.count)
          if clocks.prefetchClocks(next: next, afterNext: afterNext, at: t) {
            out.prefetch(
              rows: (rowsPerInstance * next.lowerBound)..<(rowsPerInstance * next.upperBound))
          }
        }
        SceneLaneGroup(
          program: template.program, template: template, slot: slot, first: first,
          valid: min(lanes, group.count - first), stage: stage, rates: computesTimeRates
        ).evaluate(at: t, clocks: clocks, out: out)
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

extension SceneOutputs {
  /// Starts loading `rows` (relative to the group's first row) of every output for writing, so
  /// that their stores do not wait for the lines one at a time; nothing when the rows stream
  /// past the caches. A hint: results never depend on it.
  @inline(__always)
  func prefetch(rows: Range<Int>) {
    guard streaming == 0 else { return }
    let floats = MemoryLayout<Float>.stride
    @inline(__always) func lines(_ p: UnsafeMutablePointer<Float>?, _ floatsPerRow: Int) {
      guard let p else { return }
      CacheLine.prefetch(
        p + floatsPerRow * rows.lowerBound, byteCount: floats * floatsPerRow * rows.count,
        for: .write)
    }
    lines(matrices, LaneMatrix.fieldCount)
    lines(opacities, 1)
    lines(corners, LaneCorners.floatCount)
    lines(presence, 1)
  }
}

/// A group's clocks, structure of arrays.
struct SceneLaneClocks {
  var kinds: UnsafePointer<SceneClockKind>
  var start: UnsafePointer<Double>
  var speed: UnsafePointer<Double>
  /// The animator-driven clocks: what a held one shows, and the whole plan for moving ones.
  var heads: UnsafePointer<AnimatorClockHead>
  var plans: UnsafePointer<AnimatorClockPlan>
  /// For the interactive clocks (rare; read per lane).
  var group: SceneInstanceGroup
  /// The batch's additive animations (read when the group has any).
  var additive: SceneAdditivePool
}

extension SceneLaneClocks {
  /// Calls `body` with the clocks of `group`, whose pointers are valid only inside `body`.
  @inline(__always)
  static func with<R>(
    _ group: SceneInstanceGroup, additive: SceneAdditivePool, _ body: (SceneLaneClocks) -> R
  ) -> R {
    group.kinds.withUnsafeBufferPointer { kinds in
      group.start.withUnsafeBufferPointer { start in
        group.speed.withUnsafeBufferPointer { speed in
          group.animatorPlans.withUnsafeBufferPointer { plans in
            group.animatorHeads.withUnsafeBufferPointer { heads in
              body(
                SceneLaneClocks(
                  kinds: kinds.baseAddress!, start: start.baseAddress!, speed: speed.baseAddress!,
                  heads: heads.baseAddress!, plans: plans.baseAddress!, group: group,
                  additive: additive))
            }
          }
        }
      }
    }
  }

  /// Starts loading the clocks the lane groups after the current one read at `t`: the heads of
  /// the animator-driven instances among `afterNext` (two lane groups ahead), and the plans of
  /// those among `next` whose fraction moves at `t` (their heads, loaded one lane group
  /// earlier, say which; several cache lines each). Returns whether `next` holds any
  /// animator-driven instance. A hint: results never depend on it.
  @inline(__always)
  func prefetchClocks(next: Range<Int>, afterNext: Range<Int>, at t: Double) -> Bool {
    if afterNext.contains(where: { kinds[$0] == .animator }) {
      CacheLine.prefetch(
        heads + afterNext.lowerBound,
        byteCount: MemoryLayout<AnimatorClockHead>.stride * afterNext.count)
    }
    var any = false
    for k in next where kinds[k] == .animator {
      any = true
      if heads[k].progress(at: t) == nil {
        CacheLine.prefetch(plans + k, byteCount: MemoryLayout<AnimatorClockPlan>.stride)
      }
    }
    return any
  }
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

  /// Instances per lane group: one per lane.
  static var laneCount: Int { Lanes.scalarCount }

  static let running: Float = 0
  static let finished: Float = 1
  static let cancelled: Float = 2

  /// Vector `i` at `p`.
  @inline(__always)
  func vector(_ p: UnsafeMutablePointer<Float>, _ i: Int) -> Lanes {
    UnsafeRawPointer(p + Self.laneCount * i).load(as: Lanes.self)
  }

  @inline(__always)
  func setVector(_ p: UnsafeMutablePointer<Float>, _ i: Int, _ v: Lanes) {
    UnsafeMutableRawPointer(p + Self.laneCount * i).storeBytes(of: v, as: Lanes.self)
  }

  /// A constant matrix of the program, broadcast.
  @inline(__always)
  func constant(_ offset: Int32) -> LaneMatrix {
    let p = program.values + Int(offset)
    return LaneMatrix { Lanes(repeating: p[$0]) }
  }

  /// A matrix of the scratch `stores` (``SceneBatchSlot/worlds`` or
  /// ``SceneBatchSlot/sublayers``): one vector per field.
  @inline(__always)
  func matrix(_ stores: UnsafeMutablePointer<Float>, _ index: Int32) -> LaneMatrix {
    LaneMatrix(
      load: stores + SceneBatchSlot.matrixFloats * Int(index), stride: Self.laneCount)
  }

  @inline(__always)
  func setMatrix(_ stores: UnsafeMutablePointer<Float>, _ index: Int32, _ m: LaneMatrix) {
    m.store(to: stores + SceneBatchSlot.matrixFloats * Int(index), stride: Self.laneCount)
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

  /// The whole lane group at batch time `t`, up to ``stage``.
  @inline(__always)
  func evaluate(at t: Double, clocks: SceneLaneClocks, out: SceneOutputs) {
    let state = laneClocks(at: t, clocks)
    if stage == .clocks { return }
    let finished = state .== Self.finished
    let cancelled = state .== Self.cancelled
    let notFinished = .!finished
    resetPlanes()
    if stage >= .values { applyEvents(notFinished: notFinished) }
    for o in 0..<program.opCount {
      evaluate(program.ops[o], notFinished: notFinished)
    }
    if stage < .values { return }
    override(program.finished, program.finishedCount, finished)
    override(program.cancelled, program.cancelledCount, cancelled)
    // The instances' additive animations (retargets), over everything above.
    if clocks.group.additiveCount > 0 { addAdditive(clocks: clocks, state: state) }
    standardiseBounds()
    if stage < .layers { return }
    evaluateTree(state: state, out: out)
  }

  /// Writes every lane's scene time `τ` to ``SceneBatchSlot/times`` and returns the lanes' states
  /// (``running``, ``finished`` or ``cancelled``); padding lanes run at `τ = 0`.
  @inline(__always)
  func laneClocks(at t: Double, _ clocks: SceneLaneClocks) -> Lanes {
    var state = Lanes(repeating: Self.running)
    for l in 0..<Self.laneCount {
      var time = 0.0
      var rate = 0.0
      if l < valid {
        let k = first + l
        switch clocks.kinds[k] {
        case .timed where !rates:
          time = max((t - clocks.start[k]) * clocks.speed[k], 0)
          if time >= program.duration { state[l] = Self.finished }
        case .position:
          time = clocks.start[k]
        case .animator where !rates:
          let lane = SceneInstanceGroup.animatorTime(
            clocks.heads[k], clocks.plans + k, at: t, duration: program.duration,
            machine: clocks.group.time(k, at: t, duration: program.duration))
          if lane.completion == .finished { state[l] = Self.finished }
          if lane.completion == .cancelled { state[l] = Self.cancelled }
          time = lane.completion == nil ? lane.time : 0
        default:
          let lane = clocks.group.time(k, at: t, duration: program.duration)
          switch lane.completion {
          case .finished: state[l] = Self.finished
          case .cancelled: state[l] = Self.cancelled
          case nil: break
          }
          time = lane.completion == nil || clocks.kinds[k] == .timed ? lane.time : 0
          rate = lane.rate
        }
      }
      slot.times[l] = time
      if rates { slot.timeRates[l] = rate }
    }
    return state
  }

  /// The dynamic planes at the model, nothing written yet; the removal masks (1 in the lanes
  /// whose scene time is before the removal).
  @inline(__always)
  func resetPlanes() {
    let prog = program
    let s = slot
    for d in 0..<prog.dynamicCount {
      setVector(s.dynamic, d, Lanes(repeating: prog.dynamicModel[d]))
    }
    for w in 0..<prog.writtenCount { setVector(s.written, w, Lanes()) }
    for r in 0..<prog.removalCount {
      var present = Lanes()
      for l in 0..<Self.laneCount where s.times[l] < prog.removals[r] { present[l] = 1 }
      setVector(s.removals, r, present)
    }
  }

  /// The `.set` events at `τ ≥ time`, not in finished lanes.
  @inline(__always)
  func applyEvents(notFinished: LaneMask) {
    let prog = program
    let s = slot
    for e in 0..<prog.eventCount {
      let event = prog.events[e]
      var hit = Lanes()
      for l in 0..<Self.laneCount where s.times[l] >= event.time { hit[l] = 1 }
      let mask = notFinished .& (hit .== 1)
      for c in 0..<Int(event.channels) {
        let d = Int(event.slot) + c
        let v = Lanes(repeating: prog.values[Int(event.valueOffset) + c])
        setVector(s.dynamic, d, SIMDMath.select(mask, v, vector(s.dynamic, d)))
      }
    }
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

  /// Dynamic bounds from signed origin and size to minX, minY, |width|, |height|.
  @inline(__always)
  func standardiseBounds() {
    let s = slot
    for b in 0..<program.boundsCount {
      let d = Int(program.boundsSlots[b])
      for axis in 0..<2 {
        let origin = vector(s.dynamic, d + axis)
        let size = vector(s.dynamic, d + 2 + axis)
        let end = origin + size
        setVector(s.dynamic, d + axis, SIMDMath.select(end .< origin, end, origin))
        setVector(s.dynamic, d + 2 + axis, SIMDMath.select(size .< 0, -size, size))
      }
    }
  }

  /// One animation: timing, easing, spring, values, masked writes. A function of its own (not
  /// inlined into the lane group's loop over the ops), so that its steps inline into it.
  ///
  /// An op sharing its timing (``SceneOp/timingSlot``) reads the phase, eased progress and
  /// fraction that the first op of that timing stored in ``SceneBatchSlot/timings`` earlier in
  /// this lane group; the first computes and stores them.
  @inline(never)
  func evaluate(_ op: SceneOp, notFinished: LaneMask) {
    let shared = op.timingSlot >= 0
    let reads = shared && !op.storesTiming
    let stored =
      slot.timings + Self.laneCount * SceneBatchSlot.timingVectors * Int(max(op.timingSlot, 0))
    var progress = Lanes()
    let phase: Lanes
    if reads {
      phase = vector(stored, 0)
    } else {
      (progress, phase) = mediaTiming(op)
      if shared { setVector(stored, 0, phase) }
    }
    let active = notFinished .& (phase .!= MediaTimingBatch.removedCode)
    guard SIMDMath.any(active), stage > .mediaTiming else { return }
    let before = phase .== MediaTimingBatch.beforeCode
    let eased: Lanes
    let fraction: Lanes
    if reads {
      guard stage > .curves else { return }
      eased = vector(stored, 1)
      fraction = vector(stored, 2)
    } else {
      eased = ease(op, progress, before: before)
      if stage == .curves { return }
      fraction = op.isSpring ? springFraction(op, eased: eased) : eased
      if shared {
        setVector(stored, 1, eased)
        setVector(stored, 2, fraction)
      }
    }
    switch (stage, op.content) {
    case (.springs, _), (.keyframes, .lerp), (.keyframes, .transform),
      (.keyframes, .scalarKeyframes), (.decomposition, .lerp), (.decomposition, .scalarKeyframes):
      return
    default: break
    }
    let w = Int(op.writtenSlot)
    let written = vector(slot.written, w)
    let write = active .& .!(before .& (written .== 1))
    setVector(slot.written, w, SIMDMath.select(write, 1, written))
    writeContent(op, eased: eased, fraction: fraction, active: active, before: before, write: write)
  }

  /// The progress and phase codes of `op`'s media timing at the lanes' scene times.
  @inline(__always)
  func mediaTiming(_ op: SceneOp) -> (progress: Lanes, phase: Lanes) {
    MediaTimingEvaluationJob.evaluate(
      parent: Self.localTimes(slot.times, op), begin: Lanes(), speed: Lanes(repeating: 1),
      offset: Lanes(), duration: Lanes(repeating: op.duration), end: Lanes(repeating: op.activeEnd),
      reverses: Lanes(repeating: op.autoreverses), backwards: Lanes(repeating: op.fillsBackwards),
      forwards: Lanes(repeating: op.fillsForwards), after: Lanes(repeating: op.afterProgress),
      lastPass: Lanes(repeating: op.lastPass))
  }

  /// The spring's fraction at `eased·springDuration` seconds.
  @inline(__always)
  func springFraction(_ op: SceneOp, eased: Lanes) -> Lanes {
    SpringEvaluationJob.evaluate(
      time: eased * op.springDuration, rate: Lanes(repeating: op.rate),
      frequency: Lanes(repeating: op.frequency), frequencyLow: Lanes(repeating: op.frequencyLow),
      coefficient: Lanes(repeating: op.coefficient), kind: Lanes(repeating: op.springKind))
  }

  /// The eased progress of `op`: its timing function applied to `progress` (transparent, as
  /// ``writeContent(_:eased:fraction:active:before:write:)`` is).
  // swift-format-ignore: NeverForceUnwrap
  @_transparent
  func ease(_ op: SceneOp, _ progress: Lanes, before: LaneMask) -> Lanes {
    switch op.easing {
    case .none:
      return progress
    case .bezier:
      return CubicBezierBatch.solve(
        x: progress, curve: Lanes(), coefficients: op.curveCoefficients!, curveCount: 1,
        table: op.curveTable!, scratch: slot.keyframeScratch)
    case .scalar:
      let function = template.scalarTimings[Int(op.scalarTiming)]
      // Steps read CSS's before flag in the before phase (a backwards fill).
      var eased = progress
      for l in 0..<Self.laneCount {
        eased[l] = Float(function.transform(Double(progress[l]), beforeFlag: before[l]))
      }
      return eased
    }
  }

  /// The values of `op`'s content written to its planes in the lanes of `write`. Transparent:
  /// always inlined into ``evaluate(_:notFinished:)``, whatever its size (a call per op passes
  /// its lane vectors through memory).
  @_transparent
  func writeContent(
    _ op: SceneOp, eased: Lanes, fraction f: Lanes, active: LaneMask, before: LaneMask,
    write: LaneMask
  ) {
    let s = slot
    let slot0 = Int(op.slot)
    let channels = Int(op.channels)
    @inline(__always) func put(_ c: Int, _ v: Lanes) {
      setVector(s.dynamic, slot0 + c, SIMDMath.select(write, v, vector(s.dynamic, slot0 + c)))
    }
    let values = program.values + Int(op.valueOffset)
    switch op.content {
    case .lerp:
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
      let clamped = SIMDMath.clamp(SIMDMath.select(active, f, Lanes()), -limit, limit)
      let m = DecompositionInterpolationJob.evaluateBlock(t: clamped) {
        Lanes(repeating: values[$0])
      }
      for c in 0..<LaneMatrix.fieldCount { put(c, m.field(c)) }
    case .keyframes:
      for c in 0..<channels {
        var channel = program.keyframeChannels[Int(op.keyframeChannel) + c]
        channel.planes.scratch = s.keyframeScratch
        put(c, KeyframeEvaluationJob.evaluate(eased, at: 0, shape: channel.shape, channel.planes))
      }
    case .scalarKeyframes:
      let keyframes = template.scalarKeyframes[Int(op.scalarIndex)]
      let stride = SceneBatchSlot.channelStride
      for l in 0..<Self.laneCount where active[l] {
        sceneStore(
          keyframes.value(at: Double(eased[l]), beforeFlag: before[l]), to: s.channels + stride * l)
      }
      for c in 0..<channels {
        var v = Lanes()
        for l in 0..<Self.laneCount { v[l] = s.channels[stride * l + c] }
        put(c, v)
      }
    }
  }

  /// Matrices, opacities, presence and corners of every layer, written as rows.
  @inline(__always)
  func evaluateTree(state: Lanes, out: SceneOutputs) {
    let prog = program
    let s = slot
    let finished = state .== Self.finished
    let cancelled = state .== Self.cancelled
    for q in 0..<prog.layerCount {
      let node = prog.nodes[q]
      let base = Int(node.layer) * LayerPlanes.count
      @inline(__always) func load(_ p: Int) -> Lanes {
        let d = prog.planeSlots[base + p]
        return d >= 0 ? vector(s.dynamic, Int(d)) : Lanes(repeating: prog.staticPlanes[base + p])
      }
      var alpha = SIMDMath.clamp(load(LayerPlanes.opacity), 0, 1)
      if node.parent >= 0 { alpha *= vector(s.alpha, Int(prog.nodes[Int(node.parent)].alphaStore)) }
      if node.alphaStore >= 0 { setVector(s.alpha, Int(node.alphaStore), alpha) }
      // The rows go out as soon as the world matrix is made, before the sublayer term: one
      // matrix held at a time (two do not fit the registers without AVX-512).
      let world = worldMatrix(node, load)
      if node.worldStore >= 0 { setMatrix(s.worlds, node.worldStore, world) }
      if stage > .layers {
        var present =
          node.removal >= 0 ? vector(s.removals, Int(node.removal)) : Lanes(repeating: 1)
        present = SIMDMath.select(finished, node.presentFinished, present)
        present = SIMDMath.select(cancelled, node.presentCancelled, present)
        storeRows(node, world: world, opacity: alpha * present, present: present, out: out, load)
      }
      if node.sublayerTerm == .dynamic {
        setMatrix(s.sublayers, node.sublayerStore, laneLayerMatrix(.sublayer, load))
      }
    }
  }

  /// The layer's matrix to the container: a constant, or its matrix in the superlayer times the
  /// parent's sublayer term, flattened unless the parent keeps depth, times the parent's.
  @inline(__always)
  func worldMatrix(_ node: SceneNode, _ load: (Int) -> Lanes) -> LaneMatrix {
    if node.worldConstant >= 0 { return constant(node.worldConstant) }
    let own =
      node.ownConstant >= 0 ? constant(node.ownConstant) : laneLayerMatrix(.inSuperlayer, load)
    if node.parent < 0 {
      return program.containerConstant < 0
        ? own : own.concatenating(constant(program.containerConstant))
    }
    let parent = program.nodes[Int(node.parent)]
    let local: LaneMatrix
    switch parent.sublayerTerm {
    case .identity: local = own
    case .constant: local = own.concatenating(constant(parent.sublayerConstant))
    case .dynamic: local = own.concatenating(matrix(slot.sublayers, parent.sublayerStore))
    }
    let above =
      parent.worldConstant >= 0
      ? constant(parent.worldConstant) : matrix(slot.worlds, parent.worldStore)
    return local.flatteningDepth(keepsDepth: Lanes(repeating: node.keepsDepth))
      .concatenating(above)
  }

  /// The layer's output rows of the `valid` lanes: the matrix and the corners as transposed
  /// 64-byte rows, the opacity and the presence.
  @inline(__always)
  func storeRows(
    _ node: SceneNode, world: LaneMatrix, opacity: Lanes, present: Lanes, out: SceneOutputs,
    _ load: (Int) -> Lanes
  ) {
    let rowStride = program.layerCount
    let row = first * rowStride + Int(node.layer)
    let fields = LaneMatrix.fieldCount
    segue_store_transposed_f32x16(
      out.matrices + fields * row, fields * rowStride, Int32(valid), out.streaming, world.m11,
      world.m12, world.m13, world.m14, world.m21, world.m22, world.m23, world.m24, world.m31,
      world.m32, world.m33, world.m34, world.m41, world.m42, world.m43, world.m44)
    segue_store_strided_f32x16(out.opacities + row, rowStride, Int32(valid), opacity)
    if let presence = out.presence {
      segue_store_strided_f32x16(presence + row, rowStride, Int32(valid), present)
    }
    if let corners = out.corners {
      let c = LaneCorners(
        world: world, minX: load(LayerPlanes.boundsMinX), minY: load(LayerPlanes.boundsMinY),
        width: load(LayerPlanes.boundsWidth), height: load(LayerPlanes.boundsHeight))
      let floats = LaneCorners.floatCount
      segue_store_transposed_f32x16(
        corners + floats * row, floats * rowStride, Int32(valid), out.streaming, c.values.0,
        c.values.1, c.values.2, c.values.3, c.values.4, c.values.5, c.values.6, c.values.7,
        c.values.8, c.values.9, c.values.10, c.values.11, c.values.12, c.values.13, c.values.14,
        c.values.15)
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
