import SegueMallocCounter
import Testing

@testable import Segue

#if DEBUG
  let sceneBatchAllocationTestsEnabled = false
#else
  let sceneBatchAllocationTestsEnabled = true
#endif

/// ``SceneEvaluationJob/run()`` allocates nothing once warm: the allocation calls
/// the calling thread makes during a run are counted by the malloc interposer of
/// `SegueBenchSupport` (a thread-local counter, so tests running in parallel on other threads do
/// not disturb the count; `run()` evaluates on the calling thread). The outputs and the context are
/// allocated before counting; one warm-up run first (lazily initialised globals and metadata).
///
/// Optimised builds only (`swift test -c release -Xswiftc -enable-testing`): a debug build calls
/// unspecialised generic code (iterators, `Collection.first`, `SIMD16` subscripts, closure
/// contexts) that heap-allocates, about 140 calls per frame of 200 preset instances here.
@Suite(
  .enabled(
    if: segue_allocation_counting_available() != 0,
    "the malloc counter is off: a sanitizer (ASan, TSan) owns malloc, so allocations cannot be counted"
  ),
  .enabled(if: sceneBatchAllocationTestsEnabled, "allocation counts need an optimised build"))
struct SceneBatchAllocationTests {
  /// Allocation calls of one `run()` of `batch` at `times`, after a warm-up run.
  static func allocations(_ batch: SceneBatch, at times: [Double]) throws -> UInt64 {
    let n = batch.layerCount * times.count
    var matrices = [Float](repeating: 0, count: 16 * n)
    var opacities = [Float](repeating: 0, count: n)
    var corners = [Float](repeating: 0, count: 16 * n)
    var presence = [Float](repeating: 0, count: n)
    let context = try SceneBatchContext(batch: batch)
    var count = UInt64.max
    try times.withUnsafeBufferPointer { t in
      try matrices.withUnsafeMutableBufferPointer { m in
        try opacities.withUnsafeMutableBufferPointer { o in
          try corners.withUnsafeMutableBufferPointer { c in
            try presence.withUnsafeMutableBufferPointer { p in
              let job = SceneEvaluationJob(
                batch: batch, context: context, times: t, matrices: m, opacities: o, corners: c,
                presence: p)
              try job.run()
              let before = segue_thread_allocation_count()
              try job.run()
              count = segue_thread_allocation_count() &- before
            }
          }
        }
      }
    }
    return count
  }

  /// 200 preset instances (every preset, push and pop, ten times) at spread start times, over
  /// frames before, during and after their runs.
  @Test func presetBatchRunAllocatesNothing() throws {
    try #require(segue_allocation_counting_available() == 1)
    let scenes = try SceneBatchTests.allPresetScenes()
    var instances: [SceneBatch.Instance] = []
    for i in 0..<200 {
      let scene = scenes[i % scenes.count]
      instances.append(
        .init(scene: scene, clock: .timed(start: Double(i % 17) * 0.05 - 0.3, speed: 1)))
    }
    let batch = try SceneBatch(instances)
    let times = [0, 0.1, 0.25, 0.4, 0.55, 0.8, 2]
    let count = try Self.allocations(batch, at: times)
    #expect(count == 0)
  }

  /// The scalar fallbacks (keyframe transforms by decomposition, a steps timing function),
  /// springs, events, completion overrides and the position and interactive clocks.
  @Test func customBatchRunAllocatesNothing() throws {
    try #require(segue_allocation_counting_available() == 1)
    let scene = try SceneBatchTests.customScene()
    var timeline = try InteractionTimeline(duration: scene.duration)
    try timeline.append(.update(time: 0.1, percent: 0.3))
    try timeline.append(.update(time: 0.3, percent: 0.55))
    try timeline.append(.finish(time: 0.4))
    let batch = try SceneBatch([
      .init(scene: scene, clock: .timed(start: 0, speed: 1)),
      .init(scene: scene, clock: .position(0.4)),
      .init(scene: scene, clock: .interactive(timeline, start: 0.1)),
    ])
    let count = try Self.allocations(batch, at: [0, 0.2, 0.4, 0.6, 0.8, 1.5])
    #expect(count == 0)
  }

  /// ``SceneBatch/evaluate(at:context:into:threads:)`` and reading every present layer of every
  /// instance allocate nothing per frame once the output has been filled once (its first fill
  /// sizes it).
  @Test func outputFillAndReadAllocateNothing() throws {
    try #require(segue_allocation_counting_available() == 1)
    let scenes = try SceneBatchTests.allPresetScenes()
    let batch = try SceneBatch(
      (0..<200).map {
        .init(
          scene: scenes[$0 % scenes.count], clock: .timed(start: Double($0 % 17) * 0.05, speed: 1))
      })
    let context = try SceneBatchContext(batch: batch)
    var frame = SceneBatchOutput(includesCorners: true)
    let ids = batch.instanceIDs
    var checksum = 0.0
    func frameAt(_ t: Double) throws {
      try batch.evaluate(at: t, context: context, into: &frame)
      for id in ids {
        guard let instance = frame[instance: id] else { continue }
        for layer in instance.layers {
          checksum += layer.matrix.m41 + layer.opacity + (layer.corners?[2].point.x ?? 0)
        }
      }
    }
    try frameAt(0)
    let before = segue_thread_allocation_count()
    for t in [0.1, 0.25, 0.4, 0.55, 0.8, 2] { try frameAt(t) }
    let count = segue_thread_allocation_count() &- before
    #expect(count == 0)
    #expect(checksum.isFinite)
  }

  /// Live frames allocate nothing once warm: every control call (animator: start, pause,
  /// fractionComplete, reverse, continue with a spring, stop and finish; percent-driven: update,
  /// finish; a clock replaced), the prefetches of blocks of instances, the completions
  /// delivered, finished instances removed and new ones added, and the evaluation with its output
  /// read.
  @Test func liveFramesAllocateNothing() throws {
    try #require(segue_allocation_counting_available() == 1)
    let scenes = try SceneBatchTests.allPresetScenes()
    var batch = SceneBatch()
    for i in 0..<64 {
      let clock: SceneClock =
        i % 4 == 3 ? .percentDriven(start: 0) : .animator(timingParameters: .easeInEaseOut)
      try batch.add(.init(scene: scenes[i % scenes.count], clock: clock))
    }
    let templates = batch.instanceIDs.map { batch.template(of: $0)! }
    var ids = batch.instanceIDs
    let context = try SceneBatchContext(batch: batch)
    var frame = SceneBatchOutput(includesCorners: false)
    var completions = [SceneCompletionEvent](
      repeating: SceneCompletionEvent(instance: 0, position: .end, time: 0), count: 64)
    let spring = try SpringTimingParameters(
      dampingRatio: 0.8, initialVelocity: Vector2(dx: 1.5, dy: 0))
    var checksum = 0.0
    func liveFrame(_ f: Int) throws {
      let t = Double(f) / 60
      // The frame's instances prefetched in blocks (slices of the id array).
      for start in stride(from: 0, to: ids.count, by: 16) {
        batch.prefetch(ids.dropFirst(start).prefix(16))
      }
      for slot in ids.indices where (slot + f) % 8 == 0 {
        let id = ids[slot]
        if slot % 4 == 3 {
          try? batch.apply(InteractionEvent.update(time: t, percent: Double(f % 10) / 10), to: id)
          if f % 16 == 15 { try? batch.apply(InteractionEvent.finish(time: t), to: id) }
          continue
        }
        switch (f / 8 + slot) % 6 {
        case 0: try? batch.apply(AnimatorEvent.start(time: t), to: id)
        case 1:
          try? batch.apply(AnimatorEvent.pause(time: t), to: id)
          try? batch.apply(AnimatorEvent.setFractionComplete(time: t, fraction: 0.3), to: id)
        case 2: try? batch.apply(AnimatorEvent.setReversed(time: t, reversed: f % 2 == 0), to: id)
        case 3:
          try? batch.apply(AnimatorEvent.pause(time: t), to: id)
          try? batch.apply(
            AnimatorEvent.continueAnimation(time: t, timing: .spring(spring), durationFactor: 1),
            to: id)
        case 4:
          try? batch.apply(AnimatorEvent.stop(time: t, withoutFinishing: false), to: id)
          try? batch.apply(AnimatorEvent.finish(time: t, position: .end), to: id)
        default: try? batch.apply(AnimatorEvent.start(time: t), to: id)
        }
      }
      let n = try completions.withUnsafeMutableBufferPointer {
        try batch.advance(to: t, completions: $0)
      }
      batch.prefetch(removing: ids.prefix(4))
      for event in completions[..<n] {
        guard let slot = ids.firstIndex(of: event.instance) else { continue }
        try batch.remove(event.instance)
        let clock: SceneClock =
          slot % 4 == 3 ? .percentDriven(start: t) : .animator(timingParameters: .easeInEaseOut)
        ids[slot] = try batch.add(templates[slot], clock: clock)
      }
      try batch.evaluate(at: t, context: context, into: &frame)
      for id in ids { checksum += frame[instance: id]?.layers.first?.opacity ?? 0 }
    }
    for f in 0..<60 { try liveFrame(f) }
    let before = segue_thread_allocation_count()
    for f in 60..<240 { try liveFrame(f) }
    let count = segue_thread_allocation_count() &- before
    #expect(count == 0)
    #expect(checksum.isFinite)
  }

  /// Retargets allocate nothing once the pool exists (the first retarget allocates it), and
  /// neither do frames that evaluate additive animations (numbers, points and transforms, in
  /// running and finished lanes); replacing a clock frees an instance's entries for reuse.
  @Test func retargetsAndTheirFramesAllocateNothing() throws {
    try #require(segue_allocation_counting_available() == 1)
    let scenes = try SceneBatchTests.allPresetScenes()
    var batch = SceneBatch()
    var choices: [(String, LayerProperty, AnimationValue)] = []
    for i in 0..<40 {
      let scene = scenes[i % scenes.count]
      try batch.add(.init(scene: scene, clock: .animator(timingParameters: .easeInEaseOut)))
      let (layer, property) = try #require(SceneBatchRetargetTests.retargetable(scene).first)
      choices.append((layer, property, property.value(in: scene.settledModel()[id: layer]!)))
    }
    let ids = batch.instanceIDs
    for id in ids { try batch.apply(AnimatorEvent.start(time: 0), to: id) }
    let context = try SceneBatchContext(batch: batch)
    var frame = SceneBatchOutput(includesCorners: false)
    var checksum = 0.0
    func liveFrame(_ f: Int) throws {
      let t = Double(f) / 60
      for id in ids where (id + f) % 10 == 0 {
        let (layer, property, value) = choices[id]
        if f % 30 == 29 {
          try batch.setClock(.animator(timingParameters: .easeInEaseOut), of: id, at: t)
          try batch.apply(AnimatorEvent.start(time: t), to: id)
        } else if try batch.time(of: id, at: t).completion == nil,
          try batch.time(of: id, at: t).time < 0.9 * batch.template(of: id)!.scene.duration
        {
          try batch.retarget(property, of: layer, in: id, to: value, at: t, duration: nil)
        }
      }
      try batch.evaluate(at: t, context: context, into: &frame)
      for id in ids { checksum += frame[instance: id]?.layers.first?.opacity ?? 0 }
    }
    for f in 0..<40 { try liveFrame(f) }
    #expect(batch.additiveAnimationCount > 0)
    let before = segue_thread_allocation_count()
    for f in 40..<160 { try liveFrame(f) }
    let count = segue_thread_allocation_count() &- before
    #expect(count == 0)
    #expect(checksum.isFinite)
  }
}
