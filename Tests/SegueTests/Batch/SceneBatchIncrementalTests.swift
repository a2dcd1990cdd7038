import PropertyBased
import Testing

@testable import Segue

/// The template/instance model of ``SceneBatch``: templates shared by equal scenes, incremental
/// `add` / `remove` with stable ids and correct output indices (checked against the scalar
/// sampler), and a layer tree 20 000 levels deep.
@Suite struct SceneBatchIncrementalTests {
  /// Evaluates `batch` at `t` and compares every instance with its scalar sample.
  static func check(_ batch: SceneBatch, at t: Double) throws {
    let ids = batch.instanceIDs
    let output = try SceneBatchTests.evaluate(batch, at: [t])
    var samples: [TransitionSample] = []
    var instances: [SceneBatch.Instance] = []
    for id in ids {
      let instance = try #require(batch.instance(id))
      guard case .timed(let start, let speed) = instance.clock else { continue }
      instances.append(instance)
      samples.append(try instance.scene.sample(at: max((t - start) * speed, 0)))
    }
    // `compare` walks instances 0 ..< samples.count by id: map ids to a dense batch first.
    for (k, id) in ids.enumerated() {
      let instance = instances[k]
      for layer in instance.scene.model.layers {
        let i = try #require(batch.layerIndex(instance: id, layerID: layer.id))
        #expect(batch.layers[i].instance == id && batch.layers[i].id == layer.id)
        let reference = samples[k][layer.id]
        #expect(output.presence[i] == (reference == nil ? 0 : 1))
        guard let reference else { continue }
        let fields = reference.matrix.fields
        let scale = 1 + fields.map(abs).max()!
        let extent = max(instance.scene.containerSize.width, instance.scene.containerSize.height)
        for (j, v) in fields.enumerated() {
          let allowance = j >= 12 ? SceneBatchTests.translationTolerance * extent : 0
          #expect(
            abs(Double(output.matrices[16 * i + j]) - v) <= SceneBatchTests.matrixTolerance * scale
              + allowance, "instance \(id) layer \(layer.id) field \(j)")
        }
        #expect(
          abs(Double(output.opacities[i]) - reference.opacity) <= SceneBatchTests.opacityTolerance)
      }
    }
  }

  @Test func equalScenesShareOneTemplate() throws {
    let scenes = try SceneBatchTests.allPresetScenes()
    // Each scene three times, rebuilt each time (equal values, separate storage).
    var instances: [SceneBatch.Instance] = []
    for round in 0..<3 {
      for (s, _) in scenes.enumerated() {
        let scene = round == 0 ? scenes[s] : try SceneBatchTests.allPresetScenes()[s]
        instances.append(.init(scene: scene, clock: .timed(start: Double(s) * 0.01, speed: 1)))
      }
    }
    let batch = try SceneBatch(instances)
    // The CATransition presets build the same scene for push and pop.
    let distinct = scenes.indices.filter { s in
      !scenes[..<s].contains { sameScene($0, scenes[s]) }
    }
    #expect(distinct.count < scenes.count)
    #expect(batch.templates.count == distinct.count)
    #expect(batch.instanceCount == instances.count)
    #expect(batch.instanceIDs == Array(0..<instances.count))
    try Self.check(batch, at: 0.2)
  }

  @Test func addAndRemoveKeepIdsAndIndicesCorrect() throws {
    let scenes = try SceneBatchTests.allPresetScenes()
    var batch = try SceneBatch(
      (0..<40).map {
        .init(scene: scenes[$0 % scenes.count], clock: .timed(start: Double($0) * 0.02, speed: 1))
      })
    try Self.check(batch, at: 0.3)
    // Remove every third instance: the others keep their ids and their results.
    for id in stride(from: 0, to: 40, by: 3) { try batch.remove(id) }
    #expect(batch.instanceCount == 40 - 14)
    #expect(batch.instance(3) == nil)
    #expect(batch.layerIndex(instance: 3, layerID: "to") == nil)
    try Self.check(batch, at: 0.3)
    // Add instances of a compiled template (no compile) and of a new scene (compiled once).
    let system = batch.templates[0]
    let templates = batch.templates.count
    let a = try batch.add(system, clock: .timed(start: 0.1, speed: 2))
    #expect(a == 39)  // the id freed last is handed out first
    let custom = try SceneBatchTests.customScene()
    let b = try batch.add(.init(scene: custom, clock: .timed(start: 0, speed: 1)))
    let c = try batch.add(.init(scene: custom, clock: .timed(start: 0.05, speed: 1)))
    #expect(b == 36 && c == 33)
    #expect(batch.templates.count == templates + 1)
    #expect(batch.instance(b)?.clock == .timed(start: 0, speed: 1))
    try Self.check(batch, at: 0.3)
    try Self.check(batch, at: 0.75)
    // Remove everything, then add again.
    for id in batch.instanceIDs { try batch.remove(id) }
    #expect(batch.instanceCount == 0 && batch.layerCount == 0 && batch.laneGroupCount == 0)
    let d = try batch.add(system, clock: .position(0.5))
    #expect(batch.instanceIDs == [d])
    let output = try SceneBatchTests.evaluate(batch, at: [0])
    #expect(output.matrices.count == 16 * system.layerCount)
  }

  @Test func aContextStaysValidWhileInstancesOfItsTemplatesChange() throws {
    let scenes = try SceneBatchTests.allPresetScenes()
    var batch = try SceneBatch(scenes.map { .init(scene: $0, clock: .timed(start: 0, speed: 1)) })
    let context = try SceneBatchContext(batch: batch)
    for k in 0..<50 {
      try batch.add(
        batch.templates[k % batch.templates.count], clock: .timed(start: 0.01 * Double(k), speed: 1)
      )
    }
    try SceneBatchTests.runJob(
      batch, context: context, times: [0.2], matrices: 16 * batch.layerCount,
      opacities: batch.layerCount)
    try batch.add(
      .init(scene: try SceneBatchTests.customScene(), clock: .timed(start: 0, speed: 1)))
    #expect(
      throws: ValidationError(
        field: "context", reason: .invalidState("was made for a batch with smaller templates"))
    ) {
      try SceneBatchTests.runJob(
        batch, context: context, times: [0.2], matrices: 16 * batch.layerCount,
        opacities: batch.layerCount)
    }
  }

  /// Streaming (non-temporal) row stores write the same bits as plain stores.
  @Test func streamingStoresWriteTheSameRows() throws {
    let scenes = try SceneBatchTests.allPresetScenes()
    let batch = try SceneBatch(
      (0..<70).map {
        .init(scene: scenes[$0 % scenes.count], clock: .timed(start: Double($0) * 0.01, speed: 1))
      })
    let n = batch.layerCount
    let context = try SceneBatchContext(batch: batch)
    func run(_ streaming: Bool) throws -> [UInt32] {
      let raw = UnsafeMutableRawPointer.allocate(byteCount: 4 * 17 * n, alignment: 64)
      defer { raw.deallocate() }
      let p = raw.bindMemory(to: Float.self, capacity: 17 * n)
      p.initialize(repeating: .nan, count: 17 * n)
      try [0.2].withUnsafeBufferPointer { t in
        var job = SceneEvaluationJob(
          batch: batch, context: context, times: t,
          matrices: UnsafeMutableBufferPointer(start: p, count: 16 * n),
          opacities: UnsafeMutableBufferPointer(start: p + 16 * n, count: n))
        job.streamingStores = streaming
        #expect(job.streams == streaming)
        try job.run()
      }
      return (0..<(17 * n)).map { p[$0].bitPattern }
    }
    #expect(try run(true) == run(false))
  }

  @Test func rejectsRemovingAnUnknownInstance() throws {
    var batch = try SceneBatch(try SceneBatchTests.oneInstance(.timed(start: 0, speed: 1)))
    #expect(throws: ValidationError(field: "instance", reason: .unknown("1"))) {
      try batch.remove(1)
    }
    try batch.remove(0)
    #expect(throws: ValidationError(field: "instance", reason: .unknown("0"))) {
      try batch.remove(0)
    }
    #expect(throws: ValidationError(field: "instance", reason: .unknown("-1"))) {
      try batch.remove(-1)
    }
  }

  @Test func addRejectsInvalidClocks() throws {
    var batch = SceneBatch()
    let template = try SceneTemplate(try SceneBatchTests.presetScene(.crossDissolve, .push))
    #expect(throws: ValidationError(field: "clock", reason: .notFinite)) {
      try batch.add(template, clock: .timed(start: .infinity, speed: 1))
    }
    #expect(throws: ValidationError(field: "clock", reason: .notPositive)) {
      try batch.add(template, clock: .timed(start: 0, speed: -1))
    }
    #expect(throws: ValidationError(field: "clock", reason: .outOfRange(lower: 0, upper: 1))) {
      try batch.add(template, clock: .position(-0.1))
    }
    let timeline = try InteractionTimeline(duration: 2)
    #expect(throws: ValidationError(field: "clock", reason: .mustEqual(0.35))) {
      try batch.add(template, clock: .interactive(timeline, start: 0))
    }
    // Nothing was added by the failed calls.
    #expect(batch.instanceCount == 0 && batch.templates.isEmpty)
  }

  @Test func templateRejectsUnsupportedScenes() throws {
    var b = SceneBuilder()
    try b.add(Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
    try b.animate(
      .transformComponent(.rotationZ), of: "a", to: .number(1), duration: 1, timingParameters: nil)
    let scene = try b.scene(duration: 1, containerSize: Size(width: 10, height: 10))
    #expect(
      throws: ValidationError(
        field: "scene",
        reason: .invalidState("a: animations of transform.rotation.z are not supported"))
    ) {
      try SceneTemplate(scene)
    }
  }

  /// A parent chain 20 000 levels deep (each level offset by (0.5, 0.25) points, the top layer's
  /// position animated linearly so every matrix to the container is evaluated per frame): the
  /// compile and the evaluation run without recursion and in linear time, reuse two scratch
  /// matrices whatever the depth, and agree with the scalar sampler at the top, the middle and
  /// the bottom. Dyadic offsets and times keep the `Float` sums exact, so the reference is exact
  /// too: the bottom layer at depth 19 999 sits at 19 999·(0.5, 0.25) plus the root's position.
  @Test func deepChainCompilesAndMatchesTheScalarSampler() throws {
    let depth = 20_000
    var b = SceneBuilder()
    try b.add(
      Layer(id: "l0", bounds: Rect(x: 0, y: 0, width: 2, height: 2), position: Point(x: 1, y: 1)))
    for k in 1..<depth {
      try b.add(
        Layer(
          id: "l\(k)", bounds: Rect(x: 0, y: 0, width: 2, height: 2),
          position: Point(x: 1.5, y: 1.25), opacity: k == depth / 2 ? 0.5 : 1),
        parent: "l\(k - 1)")
    }
    try b.animate(
      .position, of: "l0", to: .point(Point(x: 65, y: 33)), duration: 1, timingParameters: nil)
    let scene = try b.scene(duration: 1, containerSize: Size(width: 100, height: 100))
    let template = try SceneTemplate(scene)
    #expect(template.scratch.worlds <= 2 && template.scratch.alphas <= 2)
    let batch = try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    let times = [0.25, 0.5, 2]
    let output = try SceneBatchTests.evaluate(batch, at: times)
    for (f, t) in times.enumerated() {
      let sample = try scene.sample(at: t)
      for k in [0, 1, depth / 2, depth - 1] {
        let i = try #require(batch.layerIndex(instance: 0, layerID: "l\(k)"))
        let g = f * batch.layerCount + i
        let reference = try #require(sample["l\(k)"])
        for (j, v) in reference.matrix.fields.enumerated() {
          #expect(Double(output.matrices[16 * g + j]) == v, "t \(t) layer \(k) field \(j)")
        }
        #expect(Double(output.opacities[g]) == reference.opacity)
      }
      // The root moves by 64·t (to 65 at t ≥ 1, the model after the run).
      let bottom = try #require(batch.layerIndex(instance: 0, layerID: "l\(depth - 1)"))
      let x = 1 + 64 * min(t, 1) - 1 + Double(depth - 1) * 0.5
      #expect(Double(output.matrices[16 * (f * batch.layerCount + bottom) + 12]) == x)
    }
  }
}

/// The lane local time (`segue_local_time_f32x16`) against its scalar reference
/// (``SceneLaneGroup/localTime(_:_:)``), bitwise, on random and boundary scene times.
@Suite struct SceneLocalTimeTests {
  @Test func laneLocalTimeEqualsTheScalarReference() async throws {
    await propertyCheck(
      count: 200, input: Gen.double(in: -2...2), Gen.double(in: 0.01...3), Gen.double(in: 0.1...4),
      Gen.double(in: -1...1)
    ) { begin, duration, speed, offset in
      var timing = MediaTiming(duration: duration)
      timing.beginTime = begin
      timing.speed = speed
      timing.timeOffset = offset
      let batch = try MediaTimingBatch(timings: [timing])
      let op = SceneOp(
        beginTime: begin, speed: speed, timeOffset: offset, activeDuration: timing.activeDuration,
        duration: batch.duration[0], activeEnd: batch.activeEnd[0], autoreverses: 0,
        fillsBackwards: 0, fillsForwards: 0, afterProgress: 0, lastPass: batch.lastPass[0],
        easing: .none,
        curveCoefficients: nil,
        curveTable: nil, scalarTiming: -1, isSpring: false, springDuration: 0, rate: 0,
        frequency: 0, frequencyLow: 0, coefficient: 0, springKind: 0, content: .lerp, channels: 1,
        valueOffset: 0, keyframeChannel: -1, scalarIndex: -1, slot: 0, writtenSlot: 0)
      // Scene times at the boundaries (local time 0 and D, and their neighbours), random ones,
      // and huge ones (beyond Float).
      let zero = begin - offset / speed
      let end = begin + (timing.activeDuration - offset) / speed
      var taus = [
        zero, zero.nextUp, zero.nextDown, end, end.nextUp, end.nextDown, 0, 1e300, -1e300,
      ]
      var rng = Xoshiro(seed: UInt64(bitPattern: Int64(begin * 1e6)))
      while taus.count < 16 { taus.append(Double(rng.next() % 10_000) / 2_000 - 1) }
      let lanes = taus.withUnsafeBufferPointer { SceneLaneGroup.localTimes($0.baseAddress!, op) }
      for l in 0..<16 {
        #expect(
          lanes[l].bitPattern == SceneLaneGroup.localTime(taus[l], op).bitPattern,
          "tau \(taus[l]): \(lanes[l]) vs \(SceneLaneGroup.localTime(taus[l], op))")
      }
    }
  }
}
