import Synchronization

/// The scratch memory of ``SceneBatchEvaluationJob``: one slot per thread, each sized for the
/// largest block of the batch it was made for. Allocated once by the caller, reused by every run,
/// so a run allocates nothing of its own. A context must not be used by two runs at once.
///
/// A running chunk claims a free slot (an atomic flag per slot) and frees it when done, so no two
/// chunks running at the same time share scratch, whichever threads run them.
public final class SceneBatchContext: @unchecked Sendable {
  /// The number of slots: the most threads a run may use.
  public let slots: Int
  let capacity: SceneBatchCapacity
  let floatsPerSlot: Int
  let floats: UnsafeMutablePointer<Float>
  let doubles: UnsafeMutablePointer<Double>
  let bytesPerSlot: Int
  let bytes: UnsafeMutablePointer<UInt8>
  /// One flag per slot: 1 while a chunk uses the slot.
  let claims: UnsafeMutablePointer<Atomic<Int32>>

  /// Scratch for running `batch` on up to `threads` threads.
  ///
  /// - Throws: ``ValidationError`` `"threads"` ``ValidationError/Reason/notPositive`` when
  ///   `threads < 1`.
  public init(batch: SceneBatch, threads: Int = 1) throws(ValidationError) {
    guard threads >= 1 else { throw ValidationError(field: "threads", reason: .notPositive) }
    let c = batch.capacity
    slots = threads
    capacity = c
    floatsPerSlot = SceneBatchSlot.floatCount(c)
    bytesPerSlot = 2 * c.contributions + c.instances + c.written
    floats = .allocate(capacity: max(floatsPerSlot * threads, 1))
    floats.initialize(repeating: 0, count: max(floatsPerSlot * threads, 1))
    doubles = .allocate(capacity: max(c.instances * threads, 1))
    doubles.initialize(repeating: 0, count: max(c.instances * threads, 1))
    bytes = .allocate(capacity: max(bytesPerSlot * threads, 1))
    bytes.initialize(repeating: 0, count: max(bytesPerSlot * threads, 1))
    claims = .allocate(capacity: threads)
    for s in 0..<threads { (claims + s).initialize(to: Atomic(0)) }
  }

  /// The bytes this context holds.
  public var byteCount: Int { slots * (4 * floatsPerSlot + 8 * capacity.instances + bytesPerSlot) }

  deinit {
    floats.deallocate()
    doubles.deallocate()
    bytes.deallocate()
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
    SceneBatchSlot(
      capacity: capacity, floats: floats + s * floatsPerSlot,
      times: doubles + s * capacity.instances, bytes: bytes + s * bytesPerSlot)
  }
}

/// Pointers into one slot of a ``SceneBatchContext``.
struct SceneBatchSlot: @unchecked Sendable {
  let planes: UnsafeMutablePointer<Float>
  let local: UnsafeMutablePointer<Float>
  let matrix: UnsafeMutablePointer<Float>
  let corners: UnsafeMutablePointer<Float>
  let opacity: UnsafeMutablePointer<Float>
  let eased: UnsafeMutablePointer<Float>
  let fraction: UnsafeMutablePointer<Float>
  let bezierIn: UnsafeMutablePointer<Float>
  let bezierOut: UnsafeMutablePointer<Float>
  let springIn: UnsafeMutablePointer<Float>
  let springOut: UnsafeMutablePointer<Float>
  let transformIn: UnsafeMutablePointer<Float>
  let transformOut: UnsafeMutablePointer<Float>
  let values: UnsafeMutablePointer<Float>
  let parentTimes: UnsafeMutablePointer<Float>
  let progress: UnsafeMutablePointer<Float>
  let phase: UnsafeMutablePointer<Float>
  let keyframeIn: UnsafeMutablePointer<Float>
  let keyframeOut: UnsafeMutablePointer<Float>
  let times: UnsafeMutablePointer<Double>
  let state: UnsafeMutablePointer<UInt8>
  let active: UnsafeMutablePointer<UInt8>
  let before: UnsafeMutablePointer<UInt8>
  let written: UnsafeMutablePointer<UInt8>

  static func floatCount(_ c: SceneBatchCapacity) -> Int {
    (LayerPlanes.count + 16 * 3 + 1) * c.layers + 7 * c.contributions + 2 * c.beziers + 2
      * c.springs + 17 * c.transforms + c.values
  }

  init(
    capacity c: SceneBatchCapacity, floats: UnsafeMutablePointer<Float>,
    times: UnsafeMutablePointer<Double>, bytes: UnsafeMutablePointer<UInt8>
  ) {
    var p = floats
    func take(_ n: Int) -> UnsafeMutablePointer<Float> {
      defer { p += n }
      return p
    }
    planes = take(LayerPlanes.count * c.layers)
    local = take(16 * c.layers)
    matrix = take(16 * c.layers)
    corners = take(16 * c.layers)
    opacity = take(c.layers)
    eased = take(c.contributions)
    fraction = take(c.contributions)
    bezierIn = take(c.beziers)
    bezierOut = take(c.beziers)
    springIn = take(c.springs)
    springOut = take(c.springs)
    transformIn = take(c.transforms)
    transformOut = take(16 * c.transforms)
    values = take(c.values)
    parentTimes = take(c.contributions)
    progress = take(c.contributions)
    phase = take(c.contributions)
    keyframeIn = take(c.contributions)
    keyframeOut = take(c.contributions)
    self.times = times
    state = bytes
    active = bytes + c.instances
    before = bytes + c.instances + c.contributions
    written = bytes + c.instances + 2 * c.contributions
  }
}

/// Evaluates a ``SceneBatch`` at one or more frame times into caller-owned buffers, in the style
/// of ozz-animation's runtime jobs: the job owns nothing, ``run()`` allocates nothing (the
/// ``context`` holds the scratch; keyframe tracks the kernel cannot take are evaluated by the
/// scalar library code, see ``SceneBatch/scalarKeyframeTrackCount``).
///
/// Outputs for frame `f` (time `times[f]`, seconds on the batch clock) and layer output index `i`
/// (``SceneBatch/layerIndex(instance:layerID:)``), with `N = batch.layerCount`:
///
/// * `matrices[16·(f·N + i) + k]`: field `k` of the layer's matrix to container space in
///   `CATransform3D` order (`m11, m12, m13, m14, m21, …, m44`), as ``LayerSample/matrix``;
/// * `opacities[f·N + i]`: the presented opacity (``LayerSample/opacity``), 0 for a layer that is
///   not in the container at that moment (removed by an event or the completion);
/// * `corners[16·(f·N + i) + 4c + v]` (optional): corner `c` (TL, TR, BR, BL), value `v` (x, y, z
///   after the divide, unclamped w), as ``LayerSample/corners``;
/// * `presence[f·N + i]` (optional): 1 when the layer is in the container (present in
///   ``TransitionSample/layers``), else 0.
///
/// Accuracy against ``TransitionScene/sample(at:)`` (`SceneBatchTests`, random instances of every
/// preset, push and pop, custom keyframe and spring scenes, interactive instances): every matrix
/// field within `1e-5·(1 + max |mᵢⱼ|)` of the `Double` matrix and every opacity within `1e-5`.
/// The budget: instance times and the media-timing phases are exact (`Double`), the progress
/// within a pass comes from the `Float` kernel (about
/// `2⁻²²·(1 + |t|/d)` of progress, ``MediaTimingEvaluationJob``); eased and spring progress carry about
/// `3e-7` (the stage kernels' bounds, up to `1.1e-6` on steep Bézier stretches), which a lerp
/// multiplies by `|to − from|` (at most the matrix magnitude for translations); decomposition adds
/// `2e-6·(1 + max |mᵢⱼ|)`, the tree products `2e-6·(1 + max |mᵢⱼ|)` per level.
public struct SceneBatchEvaluationJob: @unchecked Sendable {
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
  ///   the context was made for a batch with smaller blocks; `"times"` with the index
  ///   ``ValidationError/Reason/notFinite``; ``ValidationError/Reason/tooFew(minimum:actual:)`` on
  ///   `"matrices"` (`16·N·frames`), `"opacities"` (`N·frames`), `"corners"` (`16·N·frames`) and
  ///   `"presence"` (`N·frames`).
  public func validate() throws(ValidationError) {
    let need = batch.capacity
    let have = context.capacity
    guard need.instances <= have.instances, need.layers <= have.layers,
      need.contributions <= have.contributions, need.beziers <= have.beziers,
      need.springs <= have.springs, need.transforms <= have.transforms,
      need.values <= have.values, need.written <= have.written
    else {
      throw ValidationError(
        field: "context", reason: .invalidState("was made for a batch with smaller blocks"))
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
    let blocks = batch.blocks.count
    for item in 0..<(times.count * blocks) { evaluate(item: item, slot: context.slot(0)) }
  }

  /// Validates, then evaluates the (frame, block) items split into chunks over `threads` threads
  /// (``BatchThreads/forEachChunk(of:threads:chunkSize:_:)``; `chunkSize` counts blocks, default
  /// about a quarter of an even share). Each running chunk claims a free context slot, so no two
  /// running chunks share scratch whichever threads run them. Every block is evaluated by
  /// the same code whatever the split, so the outputs are bitwise the same for every `threads` and
  /// `chunkSize`.
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
    let items = times.count * batch.blocks.count
    let size: Int
    if let chunkSize {
      guard chunkSize >= 1 else {
        throw ValidationError(field: "chunkSize", reason: .notPositive)
      }
      size = chunkSize
    } else {
      size = max(1, (items + 4 * threads - 1) / (4 * threads))
    }
    let job = self
    try BatchThreads.forEachChunk(of: 0..<items, threads: threads, chunkSize: size) { chunk in
      let s = job.context.claimSlot()
      let slot = job.context.slot(s)
      for item in chunk { job.evaluate(item: item, slot: slot) }
      job.context.releaseSlot(s)
    }
  }

  /// Frame `item / blocks`, block `item % blocks`.
  func evaluate(item: Int, slot: SceneBatchSlot) {
    let blockCount = batch.blocks.count
    let frame = item / blockCount
    batch.blocks[item % blockCount].evaluate(
      at: times[frame], slot: slot, instances: batch.instances, frame: frame,
      layerCount: batch.layerCount, job: self)
  }
}

extension SceneBatchBlock {
  /// Instance states.
  static let running: UInt8 = 0
  static let finished: UInt8 = 1
  static let cancelled: UInt8 = 2

  // swift-format-ignore: NeverForceUnwrap
  func evaluate(
    at t: Double, slot s: SceneBatchSlot, instances: [SceneBatch.Instance], frame: Int,
    layerCount: Int, job: SceneBatchEvaluationJob
  ) {
    let n = count
    // 1. Clocks.
    for k in 0..<instanceRange.count {
      let instance = instances[instanceRange.lowerBound + k]
      let duration = instance.scene.duration
      switch instance.clock {
      case .timed(let start, let speed):
        let tau = max((t - start) * speed, 0)
        s.state[k] = tau >= duration ? Self.finished : Self.running
        s.times[k] = tau
      case .position(let p):
        s.state[k] = Self.running
        s.times[k] = p * duration
      case .interactive(let timeline, let start):
        let state = try? timeline.state(at: max(t - start, 0))
        let position = state?.position ?? 0
        if state?.completed == true {
          s.state[k] = state?.finished == true ? Self.finished : Self.cancelled
          s.times[k] = 0
        } else {
          s.state[k] = Self.running
          s.times[k] = position * duration
        }
      }
    }
    // 2. Media timing: the local time `t = (τ − beginTime)·speed + timeOffset` in `Double` and
    // rounded to a `Float` on the same side of `0` and of the active duration `D` as `t` (so the
    // phase is the reference's even where `t` is within a `Float` ulp of a boundary), then one
    // MediaTimingEvaluationJob call (its timings have beginTime 0, speed 1, timeOffset 0) for
    // the progress and phase codes; the phase code drives activity (removed lanes show the
    // model) and the backwards-fill rule. Then the scalar timing functions.
    let cs = contributions.count
    let big = Float.greatestFiniteMagnitude
    timings.activeEnd.withUnsafeBufferPointer { ends in
      for c in 0..<cs {
        let t =
          (s.times[Int(contributions[c].instance)] - localBegin[c]) * localSpeed[c]
          + localOffset[c]
        var f = min(max(Float(t), -big), big)
        if t < 0 {
          f = min(f, -Float.leastNonzeroMagnitude)
        } else if t < activeDurations[c] {
          f = min(max(f, 0), ends[c].nextDown)
        } else {
          f = max(f, ends[c])
        }
        s.parentTimes[c] = f
      }
    }
    if cs > 0 {
      MediaTimingEvaluationJob(
        timings: timings, parentTimes: UnsafeBufferPointer(start: s.parentTimes, count: cs),
        progress: UnsafeMutableBufferPointer(start: s.progress, count: cs),
        phase: UnsafeMutableBufferPointer(start: s.phase, count: cs)
      ).runUnchecked()
    }
    for c in 0..<cs {
      let contribution = contributions[c]
      let k = Int(contribution.instance)
      s.eased[c] = 0
      s.active[c] = 0
      s.before[c] = 0
      if contribution.bezierSlot >= 0 { s.bezierIn[Int(contribution.bezierSlot)] = 0 }
      let phase = s.phase[c]
      guard s.state[k] != Self.finished, phase != MediaTimingBatch.removedCode else { continue }
      s.active[c] = 1
      s.before[c] = phase == MediaTimingBatch.beforeCode ? 1 : 0
      let progress = s.progress[c]
      if contribution.bezierSlot >= 0 {
        s.bezierIn[Int(contribution.bezierSlot)] = progress
      } else if contribution.scalarTimingSlot >= 0 {
        // Steps read CSS's before flag in the before phase (a backwards fill).
        s.eased[c] = Float(
          scalarTimings[Int(contribution.scalarTimingSlot)].transform(
            Double(progress), beforeFlag: s.before[c] == 1))
      } else {
        s.eased[c] = progress
      }
    }
    // 3. Bézier bucket.
    if !curveIndices.isEmpty {
      curveIndices.withUnsafeBufferPointer { indices in
        CubicBezierEvaluationJob(
          curves: curves, input: UnsafeBufferPointer(start: s.bezierIn, count: indices.count),
          curveIndices: curves.curves.count > 1 ? indices : nil,
          output: UnsafeMutableBufferPointer(start: s.bezierOut, count: indices.count)
        ).runUnchecked()
      }
      for c in 0..<cs where contributions[c].bezierSlot >= 0 {
        s.eased[c] = s.bezierOut[Int(contributions[c].bezierSlot)]
      }
    }
    // 4. Spring bucket: progress at eased·duration on the spring's clock.
    for c in 0..<cs {
      let contribution = contributions[c]
      if contribution.springSlot >= 0 {
        s.springIn[Int(contribution.springSlot)] = s.eased[c] * contribution.duration
      } else {
        s.fraction[c] = s.eased[c]
      }
    }
    if springs.count > 0 {
      SpringEvaluationJob(
        springs: springs, times: UnsafeBufferPointer(start: s.springIn, count: springs.count),
        output: UnsafeMutableBufferPointer(start: s.springOut, count: springs.count)
      ).runUnchecked()
      for c in 0..<cs where contributions[c].springSlot >= 0 {
        s.fraction[c] = s.springOut[Int(contributions[c].springSlot)]
      }
    }
    // 5. Transform bucket (decomposition); inactive lanes at fraction 0.
    if transforms.count > 0 {
      let limit = DecompositionBatchJob.maximumFraction
      for c in 0..<cs where contributions[c].transformSlot >= 0 {
        let f = s.active[c] == 1 ? s.fraction[c] : 0
        s.transformIn[Int(contributions[c].transformSlot)] = min(max(f, -limit), limit)
      }
      // The fractions are finite and within the limit and the buffers are sized by the compile
      // step, so the job's checks pass.
      try? DecompositionBatchJob(
        batch: transforms,
        fractions: UnsafeBufferPointer(start: s.transformIn, count: transforms.count),
        output: UnsafeMutableBufferPointer(start: s.transformOut, count: 16 * transforms.count)
      ).run()
    }
    // 6. Channel values: keyframe groups (gather the eased progress, one KeyframeEvaluationJob
    // per channel, scatter), then lerps and the scalar keyframe tracks.
    for group in keyframeGroups {
      let lanes = group.lanes.count
      for l in 0..<lanes { s.keyframeIn[l] = s.eased[Int(group.lanes[l])] }
      for (ch, channel) in group.channels.enumerated() {
        KeyframeEvaluationJob(
          keyframes: channel, input: UnsafeBufferPointer(start: s.keyframeIn, count: lanes),
          output: UnsafeMutableBufferPointer(start: s.keyframeOut, count: lanes)
        ).runUnchecked()
        for l in 0..<lanes { s.values[Int(group.offsets[l]) + ch] = s.keyframeOut[l] }
      }
    }
    fromValues.withUnsafeBufferPointer { from in
      toValues.withUnsafeBufferPointer { to in
        for c in 0..<cs where s.active[c] == 1 {
          let contribution = contributions[c]
          let offset = Int(contribution.valueOffset)
          let channels = Int(contribution.channels)
          switch contribution.kind {
          case .basicLinear, .springLinear:
            let f = s.fraction[c]
            for ch in offset..<(offset + channels) {
              let a = from[ch]
              let b = to[ch]
              s.values[ch] = f == 0 ? a : (f == 1 ? b : a * (1 - f) + b * f)
            }
          case .keyframes:
            guard contribution.keyframeSlot >= 0 else { break }
            let value = keyframes[Int(contribution.keyframeSlot)].value(
              at: Double(s.eased[c]), beforeFlag: s.before[c] == 1)
            store(value, to: s.values + offset)
          case .basicTransform, .springTransform:
            break
          }
        }
      }
    }
    // 7. Planes: model, events, animations in order, completion overrides.
    guard n > 0 else { return }
    modelPlanes.withUnsafeBufferPointer { model in
      s.planes.update(from: model.baseAddress!, count: model.count)
    }
    for w in 0..<writtenCount { s.written[w] = 0 }
    writeValues.withUnsafeBufferPointer { values in
      for event in events {
        let k = Int(event.instance)
        guard s.state[k] != Self.finished, s.times[k] >= event.time else { continue }
        write(event, values.baseAddress!, s.planes)
      }
      for c in 0..<cs where s.active[c] == 1 {
        let contribution = contributions[c]
        let w = Int(contribution.writtenSlot)
        if s.before[c] == 1 && s.written[w] == 1 { continue }
        s.written[w] = 1
        let q = Int(contribution.position)
        let first = Int(contribution.firstPlane)
        if contribution.transformSlot >= 0 {
          let stride = transforms.count
          let j = Int(contribution.transformSlot)
          for k in 0..<16 { s.planes[(first + k) * n + q] = s.transformOut[k * stride + j] }
        } else {
          let offset = Int(contribution.valueOffset)
          for k in 0..<Int(contribution.channels) {
            s.planes[(first + k) * n + q] = s.values[offset + k]
          }
        }
      }
      for override in finished where s.state[Int(override.instance)] == Self.finished {
        write(override, values.baseAddress!, s.planes)
      }
      for override in cancelled where s.state[Int(override.instance)] == Self.cancelled {
        write(override, values.baseAddress!, s.planes)
      }
    }
    // 8. Bounds: signed origin and size → minX, minY, |width|, |height|.
    let x = s.planes + LayerPlanes.boundsMinX * n
    let y = s.planes + LayerPlanes.boundsMinY * n
    let w = s.planes + LayerPlanes.boundsWidth * n
    let h = s.planes + LayerPlanes.boundsHeight * n
    for q in 0..<n {
      x[q] = min(x[q], x[q] + w[q])
      y[q] = min(y[q], y[q] + h[q])
      w[q] = abs(w[q])
      h[q] = abs(h[q])
    }
    // 9. The tree: local, matrix, opacity, corners (LayerTreeEvaluationJob). The buffers are
    // sized by the compile step, so its checks pass.
    tree.parents.withUnsafeBufferPointer { parents in
      tree.levelStarts.withUnsafeBufferPointer { starts in
        tree.keepsDepth.withUnsafeBufferPointer { keeps in
          try? LayerTreeEvaluationJob(
            parents: parents, levelStarts: starts, keepsDepth: keeps,
            properties: UnsafeBufferPointer(start: s.planes, count: LayerPlanes.count * n),
            local: UnsafeMutableBufferPointer(start: s.local, count: 16 * n),
            matrix: UnsafeMutableBufferPointer(start: s.matrix, count: 16 * n),
            opacity: UnsafeMutableBufferPointer(start: s.opacity, count: n),
            corners: UnsafeMutableBufferPointer(start: s.corners, count: 16 * n)
          ).run()
        }
      }
    }
    // 10. Outputs, interleaved per layer.
    let base = frame * layerCount + layerStart
    let matrices = job.matrices.baseAddress! + 16 * base
    let opacities = job.opacities.baseAddress! + base
    let corners = job.corners?.baseAddress.map { $0 + 16 * base }
    let presence = job.presence?.baseAddress.map { $0 + base }
    for q in 0..<n {
      let k = Int(layerInstance[q])
      let present: Float
      switch s.state[k] {
      case Self.finished: present = presentFinished[q]
      case Self.cancelled: present = presentCancelled[q]
      default: present = s.times[k] < removedAt[q] ? 1 : 0
      }
      for f in 0..<16 { matrices[16 * q + f] = s.matrix[f * n + q] }
      opacities[q] = s.opacity[q] * present
      if let corners { for f in 0..<16 { corners[16 * q + f] = s.corners[f * n + q] } }
      presence?[q] = present
    }
  }

  private func write(
    _ w: SceneWrite, _ values: UnsafePointer<Float>, _ planes: UnsafeMutablePointer<Float>
  ) {
    let q = Int(w.position)
    let first = Int(w.firstPlane)
    let offset = Int(w.valueOffset)
    for k in 0..<Int(w.channels) { planes[(first + k) * count + q] = values[offset + k] }
  }
}

/// Writes the channels of `value` (plane order, rectangles as origin and size) to `p`, without
/// allocating.
private func store(_ value: AnimationValue, to p: UnsafeMutablePointer<Float>) {
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
  case .color:
    break
  }
}
