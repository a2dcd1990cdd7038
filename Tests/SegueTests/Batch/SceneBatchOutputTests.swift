import SegueSIMDSupport
import Testing

@testable import Segue

/// ``SceneBatchOutput`` against the scalar sampler (``TransitionScene/sample(at:)``), with the
/// tolerances of ``SceneBatchTests`` (matrix fields within `1e-5·(1 + max |mᵢⱼ|)`, plus `1e-6·S`
/// points on the translation row, `S` the larger container dimension; opacities within `1e-5`):
/// the present layers are exactly the sample's, in the same order, and removed layers are absent.
@Suite struct SceneBatchOutputTests {
  /// Checks every instance of `frame` (timed clocks) against the reference sample at its scene
  /// time.
  static func expectMatchesSamples(
    _ frame: SceneBatchOutput, _ instances: [SceneBatch.Instance], at t: Double
  ) throws {
    for (k, instance) in instances.enumerated() {
      guard case .timed(let start, let speed) = instance.clock else {
        Issue.record("timed clocks only")
        return
      }
      let sample = try instance.scene.sample(at: max((t - start) * speed, 0))
      let view = try #require(frame[instance: k])
      #expect(view.id == k)
      #expect(
        view.layers.map(\.id) == sample.layers.map(\.id), "instance \(k) at \(t): present layers")
      let extent = max(instance.scene.containerSize.width, instance.scene.containerSize.height)
      for layer in view.layers {
        let reference = try #require(sample[layer.id])
        let fields = reference.matrix.fields
        let scale = 1 + fields.map(abs).max()!
        for (j, (a, b)) in zip(layer.matrix.fields, fields).enumerated() {
          let allowance = j >= 12 ? SceneBatchTests.translationTolerance * extent : 0
          #expect(
            max(abs(a - b) - allowance, 0) / scale <= SceneBatchTests.matrixTolerance,
            "instance \(k) layer \(layer.id) field \(j): \(a) vs \(b)")
        }
        #expect(abs(layer.opacity - reference.opacity) <= SceneBatchTests.opacityTolerance)
        #expect(view[layer.id] == layer)
        let corners = try #require(layer.corners)
        #expect(corners.count == 4)
        // The bound of SceneBatchTests.compare: corners well in front of the eye.
        for (c, corner) in reference.corners.enumerated() where corner.w > 0.2 {
          let bound = (1e-4 * scale + 2e-6 * extent) / corner.w
          #expect(abs(corners[c].point.x - corner.point.x) <= bound)
          #expect(abs(corners[c].point.y - corner.point.y) <= bound)
          #expect(corners[c].isBehindEye == corner.isBehindEye)
        }
      }
      // A layer of the scene that the sample does not have is absent from the view too.
      for layer in instance.scene.model.layers where sample[layer.id] == nil {
        #expect(view[layer.id] == nil, "instance \(k) layer \(layer.id) should be absent")
      }
    }
  }

  /// Every preset, push and pop, at spread start times, over frames before, during and after the
  /// runs (so the completion has removed layers in the later frames); one output reused for every
  /// frame.
  @Test func everyPresetMatchesTheScalarSampler() throws {
    let scenes = try SceneBatchTests.allPresetScenes()
    let instances = scenes.enumerated().map { i, scene in
      SceneBatch.Instance(scene: scene, clock: .timed(start: Double(i % 5) * 0.1 - 0.2, speed: 1))
    }
    let batch = try SceneBatch(instances)
    let context = try SceneBatchContext(batch: batch)
    var frame = SceneBatchOutput(includesCorners: true)
    var sawAbsent = false
    for t in [0, 0.15, 0.3, 0.45, 3] {
      try batch.evaluate(at: t, context: context, into: &frame)
      #expect(frame.time == t)
      try Self.expectMatchesSamples(frame, instances, at: t)
      let present = batch.instanceIDs.reduce(0) { $0 + frame[instance: $1]!.layers.count }
      sawAbsent = sawAbsent || present < batch.layerCount
    }
    #expect(sawAbsent, "the finished frames should have removed layers")
  }

  /// The multithreaded fill gives the same frame as the single-threaded one.
  @Test func threadedFillIsIdentical() throws {
    let scenes = try SceneBatchTests.allPresetScenes()
    let batch = try SceneBatch(
      (0..<40).map { .init(scene: scenes[$0 % scenes.count], clock: .position(Double($0) / 40)) })
    let context = try SceneBatchContext(batch: batch, threads: 2)
    var one = SceneBatchOutput(for: batch, includesCorners: true)
    var two = SceneBatchOutput(for: batch, includesCorners: true)
    try batch.evaluate(at: 0, context: context, into: &one)
    try batch.evaluate(at: 0, context: context, into: &two, threads: 2)
    for id in batch.instanceIDs {
      #expect(Array(one[instance: id]!.layers) == Array(two[instance: id]!.layers))
    }
  }

  /// Without `includesCorners` the layers carry no corners; an unknown id, a negative id and an
  /// output never filled give `nil`.
  @Test func cornersAreOptionalAndUnknownInstancesAreNil() throws {
    let scene = try SceneBatchTests.presetScene(.system, .push)
    let batch = try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    var frame = SceneBatchOutput()
    #expect(frame[instance: 0] == nil)
    #expect(frame.time == nil)
    try batch.evaluate(at: 0.1, context: try SceneBatchContext(batch: batch), into: &frame)
    let view = try #require(frame[instance: 0])
    #expect(!view.layers.isEmpty)
    #expect(view.layers.allSatisfy { $0.corners == nil })
    #expect(frame[instance: 1] == nil)
    #expect(frame[instance: -1] == nil)
    #expect(view["no such layer"] == nil)
  }

  /// The output follows the batch as it changes: after an add it grows, after a remove the freed
  /// id is `nil` and the moved instance still reads its own layers.
  @Test func followsIncrementalChanges() throws {
    let push = try SceneBatchTests.presetScene(.system, .push)
    let pop = try SceneBatchTests.presetScene(.system, .pop)
    var batch = SceneBatch()
    let a = try batch.add(.init(scene: push, clock: .timed(start: 0, speed: 1)))
    var frame = SceneBatchOutput(includesCorners: true)
    try batch.evaluate(at: 0.2, context: try SceneBatchContext(batch: batch), into: &frame)
    let b = try batch.add(.init(scene: push, clock: .timed(start: 0.1, speed: 1)))
    let c = try batch.add(.init(scene: pop, clock: .timed(start: 0, speed: 2)))
    try batch.remove(a)
    try batch.evaluate(at: 0.2, context: try SceneBatchContext(batch: batch), into: &frame)
    #expect(frame[instance: a] == nil)
    #expect(frame.instanceIDs == [b, c])
    let instances = [batch.instance(b)!, batch.instance(c)!]
    for (id, instance) in zip([b, c], instances) {
      guard case .timed(let start, let speed) = instance.clock else { continue }
      let sample = try instance.scene.sample(at: max((0.2 - start) * speed, 0))
      #expect(frame[instance: id]!.layers.map(\.id) == sample.layers.map(\.id))
    }
  }

  /// A non-finite time is the job's typed error, naming `times`.
  @Test func rejectsNonFiniteTime() throws {
    let scene = try SceneBatchTests.presetScene(.system, .push)
    let batch = try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    var frame = SceneBatchOutput()
    #expect(throws: ValidationError(field: "times", index: 0, reason: .notFinite)) {
      try batch.evaluate(at: .nan, context: try SceneBatchContext(batch: batch), into: &frame)
    }
    #expect(frame.time == nil)
  }
}

/// The transposed row store of ``SceneLaneGroup/storeRows(_:world:opacity:present:out:_:)``
/// (`segue_store_transposed_f32x16`): field `k` of lane `l` lands at `l·stride + k`, for the
/// lanes asked for and nowhere else, whichever path stores it (four 8×8 blocks for plain stores
/// of all 16 lanes without AVX-512, whole transposed rows otherwise).
@Suite struct TransposedRowStoreTests {
  static let sentinel: Float = -7

  /// Stores sixteen distinct lane vectors (`100·k + l`) with `stride` and `lanes` into a
  /// 64-byte aligned buffer of sentinels and returns it.
  static func store(stride: Int, lanes: Int32, streaming: Bool) -> [Float] {
    let count = 16 * stride
    let memory = UnsafeMutableRawPointer.allocate(
      byteCount: count * MemoryLayout<Float>.stride, alignment: 64)
    defer { memory.deallocate() }
    let buffer = memory.bindMemory(to: Float.self, capacity: count)
    buffer.initialize(repeating: sentinel, count: count)
    let r = (0..<16).map { k in SIMD16<Float>((0..<16).map { Float(100 * k + $0) }) }
    segue_store_transposed_f32x16(
      buffer, stride, lanes, streaming ? 1 : 0, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
      r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15])
    if streaming { segue_store_fence() }
    return Array(UnsafeBufferPointer(start: buffer, count: count))
  }

  @Test(arguments: [
    (16, 16, false), (17, 16, false), (48, 16, false), (100, 16, false), (48, 1, false),
    (48, 7, false), (21, 15, false), (16, 16, true), (48, 16, true),
  ])
  func everyFieldLandsInItsLanesRow(stride: Int, lanes: Int, streaming: Bool) {
    let stored = Self.store(stride: stride, lanes: Int32(lanes), streaming: streaming)
    for l in 0..<16 {
      for j in 0..<stride {
        let expected = l < lanes && j < 16 ? Float(100 * j + l) : Self.sentinel
        #expect(stored[l * stride + j] == expected, "lane \(l), float \(j)")
      }
    }
  }
}
