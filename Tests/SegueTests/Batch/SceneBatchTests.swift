import PropertyBased
import Testing

@testable import Segue

/// The batch against the scalar `Double` sampler (``TransitionScene/sample(at:)`` and
/// ``TransitionScene/sample(at:interaction:)``), which is the independent reference: it shares only
/// the scene description with the batch, none of the `Float` stage kernels.
///
/// Tolerance (see ``SceneEvaluationJob``): each matrix field within
/// `1e-5·(1 + max |mᵢⱼ|)` of the reference matrix (relative to the matrix magnitude because the
/// translation row holds positions of hundreds of points whose `Float` spacing is about `3e-5`, while
/// the rotation/scale fields are of order 1: one `Float` rounding of the largest field is
/// `6e-8·max |mᵢⱼ|`, the stage kernels' progress errors of about `3e-7` multiplied by the animated
/// distance stay below `1e-6·max |mᵢⱼ|`, and the tree's products add a few ulps per level);
/// the translation row (fields 12–15) gets `1e-6·S` points more, `S` the larger container
/// dimension: positions and anchor offsets of up to `S` points, each rounded to `Float` (`6e-8·S`),
/// cancel there (a 0.9 scale about the centre leaves a translation of a few points from terms of
/// hundreds); opacities within `1e-5` (a `Float` product of at most four factors in `[0, 1]` plus the eased
/// progress error).
@Suite struct SceneBatchTests {
  static let matrixTolerance = 1e-5
  static let opacityTolerance = 1e-5
  static let translationTolerance = 1e-6

  static func presetScene(_ preset: TransitionPreset, _ operation: TransitionOperation) throws
    -> TransitionScene
  {
    let animator = PresetAnimator(preset)
    return try animator.animateTransition(
      using: animator.defaultContext(operation: operation, content: .bare))
  }

  /// A custom scene: nested layers, a perspective sublayer transform, keyframes of numbers,
  /// points and transforms, springs on positions and transforms, a steps timing function,
  /// timeline events (set, remove) and completion changes.
  static func customScene() throws -> TransitionScene {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "root", bounds: Rect(x: 0, y: 0, width: 390, height: 844),
        position: Point(x: 195, y: 422)))
    var perspective = Transform3D.identity
    perspective.m34 = -1 / 500
    try b.set(.sublayerTransform, of: "root", to: .transform(perspective))
    try b.add(
      Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 200, height: 120),
        position: Point(x: 195, y: 300)),
      parent: "root")
    try b.add(
      Layer(
        id: "badge", bounds: Rect(x: 0, y: 0, width: 30, height: 30), position: Point(x: 20, y: 20)),
      parent: "card")
    try b.add(
      Layer(
        id: "shade", bounds: Rect(x: 0, y: 0, width: 390, height: 844),
        position: Point(x: 195, y: 422), opacity: 0.5),
      parent: "root")
    let spring = try DampedSpring.response(0.4, dampingRatio: 0.6)
    try b.animate(
      .transform, of: "card", to: .transform(.makeRotation(by: 0.7, x: 0, y: 1, z: 0)),
      duration: 0.6,
      timingParameters: .springAnimation(spring))
    try b.animate(
      .position, of: "card", to: .point(Point(x: 150, y: 420)), duration: 0.6,
      timingParameters: .springAnimation(
        try DampedSpring.response(0.3, dampingRatio: 1.4, allowsOverdamping: true)))
    try b.animate(
      .opacity, of: "badge",
      keyframes: .numbers(
        try KeyframeTrack(values: [1, 0.2, 0.9, 0.4], calculationMode: .cubic)),
      duration: 0.5)
    try b.animate(
      .position, of: "badge",
      keyframes: .points(
        try KeyframeTrack(values: [
          Point(x: 20, y: 20), Point(x: 180, y: 30), Point(x: 100, y: 100),
        ])),
      beginTime: 0.1, duration: 0.6, timingParameters: .easeOut)
    try b.animate(
      .transform, of: "shade",
      keyframes: .transforms(
        try KeyframeTrack(values: [
          .identity, .makeScale(x: 1.2, y: 0.8, z: 1), .makeRotation(by: 0.3, x: 0, y: 0, z: 1),
        ])
      ),
      duration: 0.8)
    try b.animate(
      .opacity, of: "shade", to: .number(0), beginTime: 0.2, duration: 0.5,
      timingParameters: .cubic(.steps(try StepsEasing(steps: 4, position: .jumpEnd))))
    try b.animate(
      .bounds, of: "card", to: .rect(Rect(x: 0, y: 0, width: 260, height: 160)), beginTime: 0.1,
      duration: 0.5, timingParameters: .easeInEaseOut)
    b.at(0.35, .set(layerID: "card", property: .anchorPoint, value: .point(Point(x: 0.2, y: 0.8))))
    b.at(0.7, .remove(layerID: "badge"))
    b.finishChanges = [.remove(layerID: "shade")]
    b.cancelChanges = [.set(layerID: "card", property: .opacity, value: .number(0.3))]
    return try b.scene(duration: 0.9, containerSize: Size(width: 390, height: 844))
  }

  /// Evaluates `batch` at `times` on `threads` threads.
  static func evaluate(
    _ batch: SceneBatch, at times: [Double], threads: Int = 1, chunkSize: Int? = nil
  ) throws -> (matrices: [Float], opacities: [Float], corners: [Float], presence: [Float]) {
    let n = batch.layerCount * times.count
    var matrices = [Float](repeating: .nan, count: 16 * n)
    var opacities = [Float](repeating: .nan, count: n)
    var corners = [Float](repeating: .nan, count: 16 * n)
    var presence = [Float](repeating: .nan, count: n)
    let context = try SceneBatchContext(batch: batch, threads: threads)
    try times.withUnsafeBufferPointer { t in
      try matrices.withUnsafeMutableBufferPointer { m in
        try opacities.withUnsafeMutableBufferPointer { o in
          try corners.withUnsafeMutableBufferPointer { c in
            try presence.withUnsafeMutableBufferPointer { p in
              let job = SceneEvaluationJob(
                batch: batch, context: context, times: t, matrices: m, opacities: o, corners: c,
                presence: p)
              if threads == 1 && chunkSize == nil {
                try job.run()
              } else {
                try job.run(threads: threads, chunkSize: chunkSize)
              }
            }
          }
        }
      }
    }
    return (matrices, opacities, corners, presence)
  }

  /// Compares frame `f` of the batch output with the reference sample of every instance; returns
  /// the largest relative matrix error seen.
  @discardableResult
  static func compare(
    _ batch: SceneBatch, frame f: Int,
    output: (matrices: [Float], opacities: [Float], corners: [Float], presence: [Float]),
    samples: [TransitionSample]
  ) -> Double {
    var worst = 0.0
    for (k, sample) in samples.enumerated() {
      for layer in batch.instance(k)!.scene.model.layers {
        let i = batch.layerIndex(instance: k, layerID: layer.id)!
        let g = f * batch.layerCount + i
        guard let reference = sample[layer.id] else {
          #expect(output.presence[g] == 0, "instance \(k) layer \(layer.id) should be absent")
          #expect(output.opacities[g] == 0)
          continue
        }
        #expect(output.presence[g] == 1, "instance \(k) layer \(layer.id) should be present")
        // Matrices are compared as projective maps, each divided by its m44: between the ends an
        // interpolated transform is the decomposition of `M / m44`, so a time that rounds to the end
        // in Float (the end matrix, m44 = 1.3 for a receding layer under perspective) and one just
        // before it in Double (≈ M / 1.3) present the same layer.
        let actual = Self.projective((0..<16).map { Double(output.matrices[16 * g + $0]) })
        let fields = Self.projective(reference.matrix.fields)
        let scale = 1 + fields.map(abs).max()!
        let extent = max(
          batch.instance(k)!.scene.containerSize.width,
          batch.instance(k)!.scene.containerSize.height)
        for (j, v) in fields.enumerated() {
          // Translation row: positions and anchor offsets of up to `extent` points cancel there.
          let allowance = j >= 12 ? translationTolerance * extent : 0
          let error = max(abs(actual[j] - v) - allowance, 0) / scale
          worst = max(worst, abs(actual[j] - v) / (scale + (j >= 12 ? extent : 0)))
          #expect(
            error <= matrixTolerance,
            "instance \(k) layer \(layer.id) field \(j): \(actual[j]) vs \(v)")
        }
        #expect(
          abs(Double(output.opacities[g]) - reference.opacity) <= opacityTolerance,
          "instance \(k) layer \(layer.id) opacity \(output.opacities[g]) vs \(reference.opacity)")
        // Corners well in front of the eye: x, y within the matrix tolerance scaled by 1/w, plus
        // 2e-6 of the container extent: a corner at (390, 844) through a near-identity Float matrix
        // carries the Float rounding of coordinates that large (ulp(844) = 6.1e-5, a few roundings
        // per product and sum; 3e-4 points seen on a preset's "from" layer).
        for (c, corner) in reference.corners.enumerated() where corner.w > 0.2 {
          let x = Double(output.corners[16 * g + 4 * c])
          let y = Double(output.corners[16 * g + 4 * c + 1])
          let bound = (1e-4 * scale + 2e-6 * extent) / corner.w
          #expect(
            abs(x - corner.point.x) <= bound && abs(y - corner.point.y) <= bound,
            "instance \(k) layer \(layer.id) corner \(c): (\(x), \(y)) vs \(corner.point), w \(corner.w), scale \(scale)"
          )
        }
      }
    }
    return worst
  }

  /// The sixteen fields divided by `m44` when `|m44|` is not tiny (the same projective map).
  static func projective(_ fields: [Double]) -> [Double] {
    let w = fields[15]
    return abs(w) > 1e-6 ? fields.map { $0 / w } : fields
  }

  static func allPresetScenes() throws -> [TransitionScene] {
    var scenes: [TransitionScene] = []
    for preset in TransitionPreset.allCases {
      for operation in [TransitionOperation.push, .pop] {
        scenes.append(try presetScene(preset, operation))
      }
    }
    return scenes
  }

  @Test func everyPresetPushAndPopMatchesTheScalarSampler() async throws {
    let scenes = try Self.allPresetScenes()
    await propertyCheck(
      count: 12, input: Gen.int(in: 0...1_000_000), Gen.double(in: 0...1)
    ) { seed, phase in
      var rng = Xoshiro(seed: UInt64(seed))
      var instances: [SceneBatch.Instance] = []
      // Every scene at least once, plus random extra instances, each with its own clock.
      for s in 0..<(scenes.count + 6) {
        let scene = scenes[s < scenes.count ? s : Int(rng.next() % UInt64(scenes.count))]
        let start = Double(rng.next() % 1000) / 1000 * 1.5 - 0.5
        let speed = 0.5 + Double(rng.next() % 1000) / 1000
        instances.append(.init(scene: scene, clock: .timed(start: start, speed: speed)))
      }
      guard let batch = try? SceneBatch(instances) else {
        #expect(Bool(false), "compile failed")
        return
      }
      let times = [phase * 2.5, phase * 0.7 + 0.1, 3.5]
      guard let output = try? Self.evaluate(batch, at: times) else {
        #expect(Bool(false), "run failed")
        return
      }
      for (f, t) in times.enumerated() {
        let samples = instances.map { instance -> TransitionSample in
          guard case .timed(let start, let speed) = instance.clock else { fatalError() }
          return try! instance.scene.sample(at: max((t - start) * speed, 0))
        }
        Self.compare(batch, frame: f, output: output, samples: samples)
      }
    }
  }

  /// Every preset at the last scene times before its end that round to the duration in `Float`
  /// (`τ = D·(1 − 2⁻²⁶)` and the `Double` just below `D`): still running, so each layer shows
  /// its animations' ends (the `cross-dissolve` push's "to" opacity ≈ 1, not the start of a pass
  /// after the last, 0, where `D = 0.35` rounds down to a `Float` duration below it).
  @Test func theLastFloatStepBeforeTheEndShowsTheEndOfEachAnimation() throws {
    let scenes = try Self.allPresetScenes()
    let instances = scenes.map { SceneBatch.Instance(scene: $0, clock: .timed(start: 0, speed: 1)) }
    let batch = try SceneBatch(instances)
    for fraction in [1 - 0x1p-26, 1 - 0x1p-52] {
      // A frame at each instance's τ (every instance starts at 0, so the frame time is τ).
      for scene in scenes {
        let tau = scene.duration * fraction
        #expect(tau < scene.duration && Float(tau) == Float(scene.duration))
        let output = try Self.evaluate(batch, at: [tau])
        let samples = try scenes.map { try $0.sample(at: tau) }
        Self.compare(batch, frame: 0, output: output, samples: samples)
      }
    }
  }

  @Test func customSceneWithKeyframesSpringsAndEventsMatches() async throws {
    let scene = try Self.customScene()
    let batch = try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    // Dense times over the run (events at 0.35 and 0.7, completion at 0.9) and after it.
    let times = (0...60).map { Double($0) * 0.016 } + [0.35, 0.7, 0.9, 5]
    let output = try Self.evaluate(batch, at: times)
    var worst = 0.0
    for (f, t) in times.enumerated() {
      worst = max(
        worst, Self.compare(batch, frame: f, output: output, samples: [try scene.sample(at: t)]))
    }
    #expect(worst > 0)  // the comparison really ran
  }

  @Test func interactiveAndPositionClocksMatch() async throws {
    let scene = try Self.customScene()
    let system = try Self.presetScene(.system, .push)
    var finishing = try InteractionTimeline(duration: scene.duration)
    try finishing.append(.update(time: 0.1, percent: 0.3))
    try finishing.append(.update(time: 0.3, percent: 0.55))
    try finishing.append(.finish(time: 0.4))
    var cancelling = try InteractionTimeline(duration: system.duration)
    try cancelling.append(.update(time: 0.2, percent: 0.6))
    try cancelling.append(.cancel(time: 0.5))
    let instances: [SceneBatch.Instance] = [
      .init(scene: scene, clock: .interactive(finishing, start: 0)),
      .init(scene: system, clock: .interactive(cancelling, start: 0.25)),
      .init(scene: scene, clock: .position(0.42)),
    ]
    let batch = try SceneBatch(instances)
    let times = (0...40).map { Double($0) * 0.05 }
    let output = try Self.evaluate(batch, at: times)
    for (f, t) in times.enumerated() {
      let samples = [
        try scene.sample(at: t, interaction: finishing),
        try system.sample(at: max(t - 0.25, 0), interaction: cancelling),
        try scene.sample(at: 0.42 * scene.duration),
      ]
      Self.compare(batch, frame: f, output: output, samples: samples)
    }
  }

  @Test func resultsAreBitwiseIdenticalForEveryThreadCountAndChunkSize() throws {
    var instances: [SceneBatch.Instance] = []
    let scenes = try Self.allPresetScenes() + [try Self.customScene()]
    for i in 0..<60 {
      instances.append(
        .init(scene: scenes[i % scenes.count], clock: .timed(start: Double(i) * 0.013, speed: 1)))
    }
    let batch = try SceneBatch(instances)
    let times = [0.05, 0.31, 0.77, 2.5]
    let reference = try Self.evaluate(batch, at: times)
    for (threads, chunk) in [(2, nil), (3, 1), (4, 5), (2, 1000), (1, 3)] as [(Int, Int?)] {
      let other = try Self.evaluate(batch, at: times, threads: threads, chunkSize: chunk)
      #expect(other.matrices.map(\.bitPattern) == reference.matrices.map(\.bitPattern))
      #expect(other.opacities.map(\.bitPattern) == reference.opacities.map(\.bitPattern))
      #expect(other.corners.map(\.bitPattern) == reference.corners.map(\.bitPattern))
      #expect(other.presence == reference.presence)
    }
  }

  @Test func layerIndicesCoverEveryLayerOnce() throws {
    let scenes = try Self.allPresetScenes()
    let batch = try SceneBatch(scenes.map { .init(scene: $0, clock: .timed(start: 0, speed: 1)) })
    var seen = Set<Int>()
    for (k, scene) in scenes.enumerated() {
      for layer in scene.model.layers {
        let i = try #require(batch.layerIndex(instance: k, layerID: layer.id))
        #expect(batch.layers[i].instance == k && batch.layers[i].id == layer.id)
        seen.insert(i)
      }
    }
    #expect(seen.count == batch.layerCount)
    #expect(batch.layerIndex(instance: 0, layerID: "nope") == nil)
    #expect(batch.layerIndex(instance: scenes.count, layerID: "to") == nil)
  }

  /// A scene of keyframe tracks in every calculation mode, `v ∈ [0, 1]` varying the values (so
  /// instances share layouts but not values; paced knots differ per instance). Per instance seven
  /// tracks the kernel takes and two that stay scalar: the linear transform track
  /// (decomposition) and the track with a steps segment function.
  static func keyframeScene(_ v: Double) throws -> TransitionScene {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "root", bounds: Rect(x: 0, y: 0, width: 390, height: 844),
        position: Point(x: 195, y: 422)))
    for id in ["a", "b", "c", "d"] {
      try b.add(
        Layer(
          id: id, bounds: Rect(x: 0, y: 0, width: 100, height: 80),
          position: Point(x: 120, y: 200)),
        parent: "root")
    }
    // Batched: discrete numbers, 3 keys.
    try b.animate(
      .opacity, of: "a",
      keyframes: .numbers(
        try KeyframeTrack(values: [1, 0.3 + 0.2 * v, 0.7], calculationMode: .discrete)),
      duration: 0.9)
    // Batched: linear points, key times and per-segment Bézier functions.
    try b.animate(
      .position, of: "a",
      keyframes: .points(
        try KeyframeTrack(
          values: [Point(x: 120, y: 200), Point(x: 300 * v, y: 50), Point(x: 200, y: 700)],
          keyTimes: [0, 0.2, 1], timingFunctions: [.easeIn, .easeOut])),
      beginTime: 0.05, duration: 0.8, timingParameters: .easeInEaseOut)
    // Batched: paced points (knots differ per instance).
    try b.animate(
      .position, of: "b",
      keyframes: .points(
        try KeyframeTrack(
          values: [Point(x: 0, y: 0), Point(x: 100 + 200 * v, y: 40), Point(x: 350, y: 600)],
          calculationMode: .paced)),
      duration: 1)
    // Batched: cubicPaced numbers.
    try b.animate(
      .opacity, of: "b",
      keyframes: .numbers(
        try KeyframeTrack(values: [0.2, 1, 0.5 + 0.1 * v], calculationMode: .cubicPaced)),
      beginTime: 0.1, duration: 0.7)
    // Batched: cubic transforms (channel-wise Hermite).
    try b.animate(
      .transform, of: "c",
      keyframes: .transforms(
        try KeyframeTrack(
          values: [
            .identity, .makeScale(x: 1 + 0.3 * v, y: 0.8, z: 1),
            .makeRotation(by: 0.4, x: 0, y: 0, z: 1),
          ],
          calculationMode: .cubic)),
      duration: 0.9)
    // Batched: linear rectangles with the track's own timing function.
    try b.animate(
      .bounds, of: "c",
      keyframes: .rects(
        try KeyframeTrack(
          values: [
            Rect(x: 0, y: 0, width: 100, height: 80),
            Rect(x: 10, y: 5, width: 160 + 40 * v, height: 90),
            Rect(x: 0, y: 0, width: 60, height: 120),
          ], timingFunction: .easeInEaseOut)),
      duration: 0.6)
    // Scalar: linear transforms interpolate by decomposition.
    try b.animate(
      .transform, of: "d",
      keyframes: .transforms(
        try KeyframeTrack(values: [
          .identity, .makeRotation(by: 0.5 + v, x: 0, y: 1, z: 0), .makeScale(x: 0.5, y: 0.5, z: 1),
        ])),
      duration: 0.8)
    // Scalar: a steps segment function.
    try b.animate(
      .opacity, of: "d",
      keyframes: .numbers(
        try KeyframeTrack(
          values: [1, 0.4, 0.8 * v],
          timingFunctions: [.steps(try StepsEasing(steps: 3, position: .jumpEnd)), .linear])),
      duration: 0.7)
    // Batched: cubic sizes.
    try b.animate(
      .boundsSize, of: "d",
      keyframes: .sizes(
        try KeyframeTrack(
          values: [
            Size(width: 100, height: 80), Size(width: 140, height: 60 + 30 * v),
            Size(width: 90, height: 90),
          ],
          calculationMode: .cubic)),
      beginTime: 0.2, duration: 0.5)
    return try b.scene(duration: 1, containerSize: Size(width: 390, height: 844))
  }

  @Test func keyframeTracksAreBatchedByLayoutOrCountedAsScalar() throws {
    // customScene: cubic numbers and linear points batched, linear transforms scalar.
    let custom = try SceneBatch([
      .init(scene: try Self.customScene(), clock: .timed(start: 0, speed: 1))
    ])
    #expect(custom.batchedKeyframeTrackCount == 2)
    #expect(custom.scalarKeyframeTrackCount == 1)
    // 20 instances of keyframeScene: 7 batched and 2 scalar tracks each.
    let instances = try (0..<20).map {
      SceneBatch.Instance(
        scene: try Self.keyframeScene(Double($0) / 19), clock: .timed(start: 0, speed: 1))
    }
    let batch = try SceneBatch(instances)
    #expect(batch.batchedKeyframeTrackCount == 140)
    #expect(batch.scalarKeyframeTrackCount == 40)
  }

  @Test func batchedKeyframeModesMatchTheScalarSampler() throws {
    // 20 instances (groups of 20 lanes: one full lane vector and a tail), each on its own clock.
    var instances: [SceneBatch.Instance] = []
    for i in 0..<20 {
      instances.append(
        .init(
          scene: try Self.keyframeScene(Double(i) / 19),
          clock: .timed(start: Double(i) * 0.011 - 0.05, speed: 0.8 + Double(i) * 0.02)))
    }
    let batch = try SceneBatch(instances)
    let times = (0...45).map { Double($0) * 0.027 }
    let output = try Self.evaluate(batch, at: times)
    var worst = 0.0
    for (f, t) in times.enumerated() {
      let samples = try instances.map { instance -> TransitionSample in
        guard case .timed(let start, let speed) = instance.clock else { fatalError() }
        return try instance.scene.sample(at: max((t - start) * speed, 0))
      }
      worst = max(worst, Self.compare(batch, frame: f, output: output, samples: samples))
    }
    #expect(worst > 0)
  }

  // MARK: Rejected input

  static func oneInstance(_ clock: SceneClock) throws -> [SceneBatch.Instance] {
    [.init(scene: try presetScene(.crossDissolve, .push), clock: clock)]
  }

  @Test func rejectsNonFiniteStart() throws {
    #expect(throws: ValidationError(field: "instances", index: 0, reason: .notFinite)) {
      try SceneBatch(try Self.oneInstance(.timed(start: .nan, speed: 1)))
    }
  }

  @Test func rejectsNonPositiveSpeed() throws {
    #expect(throws: ValidationError(field: "instances", index: 0, reason: .notPositive)) {
      try SceneBatch(try Self.oneInstance(.timed(start: 0, speed: 0)))
    }
  }

  @Test func rejectsPositionOutsideUnitInterval() throws {
    #expect(
      throws: ValidationError(field: "instances", index: 0, reason: .outOfRange(lower: 0, upper: 1))
    ) {
      try SceneBatch(try Self.oneInstance(.position(1.5)))
    }
  }

  @Test func rejectsNonFinitePosition() throws {
    #expect(throws: ValidationError(field: "instances", index: 0, reason: .notFinite)) {
      try SceneBatch(try Self.oneInstance(.position(.infinity)))
    }
  }

  @Test func rejectsNonFiniteInteractiveStart() throws {
    let timeline = try InteractionTimeline(duration: 0.35)
    #expect(throws: ValidationError(field: "instances", index: 0, reason: .notFinite)) {
      try SceneBatch(try Self.oneInstance(.interactive(timeline, start: .nan)))
    }
  }

  @Test func rejectsInteractionDurationMismatch() throws {
    let timeline = try InteractionTimeline(duration: 1)
    #expect(throws: ValidationError(field: "instances", index: 0, reason: .mustEqual(0.35))) {
      try SceneBatch(try Self.oneInstance(.interactive(timeline, start: 0)))
    }
  }

  @Test func rejectsTransformSubPathAnimationsNamingTheInstance() throws {
    var b = SceneBuilder()
    try b.add(Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
    try b.animate(
      .transformComponent(.rotationZ), of: "a", to: .number(1), duration: 1, timingParameters: nil)
    let scene = try b.scene(duration: 1, containerSize: Size(width: 10, height: 10))
    let good = try Self.oneInstance(.timed(start: 0, speed: 1))
    #expect(
      throws: ValidationError(
        field: "instances", index: 1,
        reason: .invalidState("a: animations of transform.rotation.z are not supported"))
    ) {
      try SceneBatch(good + [.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    }
  }

  @Test func rejectsTransformSubPathEvents() throws {
    var b = SceneBuilder()
    try b.add(Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
    b.at(0.5, .set(layerID: "a", property: .transformComponent(.rotationZ), value: .number(1)))
    let scene = try b.scene(duration: 1, containerSize: Size(width: 10, height: 10))
    #expect(
      throws: ValidationError(
        field: "instances", index: 0,
        reason: .invalidState("a: changes of transform.rotation.z are not supported"))
    ) {
      try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    }
  }

  @Test func rejectsValuesBeyondFloat() throws {
    var b = SceneBuilder()
    try b.add(Layer(id: "a", position: Point(x: 1e300, y: 0)))
    let scene = try b.scene(duration: 1, containerSize: Size(width: 10, height: 10))
    #expect(
      throws: ValidationError(
        field: "instances", index: 0,
        reason: .outOfRange(
          lower: -Double(Float.greatestFiniteMagnitude),
          upper: Double(Float.greatestFiniteMagnitude)))
    ) {
      try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    }
  }

  @Test func rejectsContextThreadsBelowOne() throws {
    let batch = try SceneBatch(try Self.oneInstance(.timed(start: 0, speed: 1)))
    #expect(throws: ValidationError(field: "threads", reason: .notPositive)) {
      try SceneBatchContext(batch: batch, threads: 0)
    }
  }

  /// Runs a job on `batch` with buffers of the given sizes.
  static func runJob(
    _ batch: SceneBatch, context: SceneBatchContext, times: [Double], matrices: Int, opacities: Int,
    corners: Int? = nil, presence: Int? = nil, threads: Int? = nil, chunkSize: Int? = nil
  ) throws {
    var m = [Float](repeating: 0, count: matrices)
    var o = [Float](repeating: 0, count: opacities)
    var c = [Float](repeating: 0, count: corners ?? 0)
    var p = [Float](repeating: 0, count: presence ?? 0)
    try times.withUnsafeBufferPointer { t in
      try m.withUnsafeMutableBufferPointer { m in
        try o.withUnsafeMutableBufferPointer { o in
          try c.withUnsafeMutableBufferPointer { c in
            try p.withUnsafeMutableBufferPointer { p in
              let job = SceneEvaluationJob(
                batch: batch, context: context, times: t, matrices: m, opacities: o,
                corners: corners == nil ? nil : c, presence: presence == nil ? nil : p)
              if let threads {
                try job.run(threads: threads, chunkSize: chunkSize)
              } else {
                try job.run()
              }
            }
          }
        }
      }
    }
  }

  @Test func jobRejectsEveryLayoutMismatch() throws {
    let batch = try SceneBatch(try Self.oneInstance(.timed(start: 0, speed: 1)))
    let n = batch.layerCount
    let context = try SceneBatchContext(batch: batch, threads: 2)
    // Valid: two frames.
    try Self.runJob(batch, context: context, times: [0, 0.1], matrices: 32 * n, opacities: 2 * n)
    #expect(throws: ValidationError(field: "times", index: 1, reason: .notFinite)) {
      try Self.runJob(
        batch, context: context, times: [0, .nan], matrices: 32 * n, opacities: 2 * n)
    }
    #expect(
      throws: ValidationError(
        field: "matrices", reason: .tooFew(minimum: 32 * n, actual: 32 * n - 1))
    ) {
      try Self.runJob(
        batch, context: context, times: [0, 0.1], matrices: 32 * n - 1, opacities: 2 * n)
    }
    #expect(throws: ValidationError(field: "opacities", reason: .tooFew(minimum: 2 * n, actual: n)))
    {
      try Self.runJob(batch, context: context, times: [0, 0.1], matrices: 32 * n, opacities: n)
    }
    #expect(
      throws: ValidationError(field: "corners", reason: .tooFew(minimum: 32 * n, actual: 16 * n))
    ) {
      try Self.runJob(
        batch, context: context, times: [0, 0.1], matrices: 32 * n, opacities: 2 * n,
        corners: 16 * n)
    }
    #expect(throws: ValidationError(field: "presence", reason: .tooFew(minimum: 2 * n, actual: 0)))
    {
      try Self.runJob(
        batch, context: context, times: [0, 0.1], matrices: 32 * n, opacities: 2 * n, presence: 0)
    }
    #expect(throws: ValidationError(field: "threads", reason: .notPositive)) {
      try Self.runJob(
        batch, context: context, times: [0], matrices: 16 * n, opacities: n, threads: 0)
    }
    #expect(throws: ValidationError(field: "threads", reason: .outOfRange(lower: 1, upper: 2))) {
      try Self.runJob(
        batch, context: context, times: [0], matrices: 16 * n, opacities: n, threads: 3)
    }
    #expect(throws: ValidationError(field: "chunkSize", reason: .notPositive)) {
      try Self.runJob(
        batch, context: context, times: [0], matrices: 16 * n, opacities: n, threads: 1,
        chunkSize: 0)
    }
    // A context made for a smaller batch.
    let bigger = try SceneBatch([
      .init(scene: try Self.customScene(), clock: .timed(start: 0, speed: 1))
    ])
    #expect(
      throws: ValidationError(
        field: "context", reason: .invalidState("was made for a batch with smaller templates"))
    ) {
      try Self.runJob(
        bigger, context: context, times: [0], matrices: 16 * bigger.layerCount,
        opacities: bigger.layerCount)
    }
  }
}

/// A small deterministic generator for the test's random choices (xoshiro256**).
struct Xoshiro {
  var s: (UInt64, UInt64, UInt64, UInt64)
  init(seed: UInt64) {
    var z = seed &+ 0x9E37_79B9_7F4A_7C15
    func mix() -> UInt64 {
      z = z &+ 0x9E37_79B9_7F4A_7C15
      var x = z
      x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
      x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
      return x ^ (x >> 31)
    }
    s = (mix(), mix(), mix(), mix())
  }
  mutating func next() -> UInt64 {
    let result = ((s.1 &* 5) << 7 | (s.1 &* 5) >> 57) &* 9
    let t = s.1 << 17
    s.2 ^= s.0
    s.3 ^= s.1
    s.1 ^= s.2
    s.0 ^= s.3
    s.2 ^= t
    s.3 = s.3 << 45 | s.3 >> 19
    return result
  }
}
