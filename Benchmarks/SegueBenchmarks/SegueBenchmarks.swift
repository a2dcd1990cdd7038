// Time, throughput and allocations of Segue's pipeline, stage by stage and per frame.
//
// Every benchmark times one call of a stage's job (validation included) on a fixed batch into
// preallocated, 64-byte aligned output that is never freed. One benchmark iteration = one batch
// of the size in the name, so the throughput metric is batches/s and the item rate is
// `items × throughput` (items: lanes, layers, matrices, pixels, as named). Where two sizes are
// given (16 384 and 262 144 lanes), the pair shows how the throughput scales once the working set
// leaves L2 (2 MB per core here). `mallocCountTotal` should be 0 for every job run (the jobs are
// documented to allocate nothing); the scene-batch evaluation and the blend kernels too. On Linux
// with package-benchmark 1.38 and Swift 6.3 the harness itself counts 16 mallocs per sample
// (`stack simd frame`, 0 allocations per frame by segue-bench's own counter, shows 16), so read
// `mallocCountTotal − 16`. Measured that way (only these were run so far): `stage bezier`,
// `stack simd frame` and `blend RGBA8 over` 0; `scene batch` 96 − 16 = 80 allocations per
// evaluation of 200 preset instances.
//
// Inputs come from splitmix64 with fixed seeds; they are built lazily (Swift globals) before the
// explicit `startMeasurement()`, so building them is never measured.
//
// * stack simd timing|channels|frame, stack scalar frame, stack threads=2: the `stack` workload
//   (N = 16 384, t = 0.3); composition cost = frame − channels.
// * bezier: CubicBezierEvaluationJob, the four named curves, lane j uses curve j mod 4.
// * spring: SpringEvaluationJob, random UI springs at random times up to their settling duration.
// * layer matrix: LayerMatrixEvaluationJob (inSuperlayer): T(−A)·transform·T(position) per layer.
// * concatenation: Transform3DConcatenationJob, planar 4×4 products.
// * decomposition: DecompositionInterpolationJob, interpolating decomposed 3D transforms.
// * layer tree: LayerTreeEvaluationJob on a 4-ary tree (local, global, opacity, corners).
// * keyframe bake: KeyframeBakeJob, 60 frames of a 4-key Catmull–Rom template (SIMD and BLAS).
// * children: ChildConcatenationJob, M child matrices under one perspective parent.
// * dissolve: FilmstripDissolveJob, 30 frames of a Float cross-dissolve of two P-pixel images.
// * scene batch: SceneEvaluationJob on 100 000 layers of instances of the ten presets (push
//   and pop, PresetsWorkload) on 1 and 2 threads; the batch's compile; 1 000 adds and removes.
// * blend: BlendKernels RGBA8 over (opaque and at opacity 0.8) and cross-dissolve at 1920×1080.
//
// MediaTiming has no batch kernel yet (no MediaTimingBatch.swift on main), so it has no stage
// benchmark here.

import Benchmark
import Segue
import SegueBenchSupport

let layerCount = 16_384
let time: Float = 0.3
let laneCounts = [16_384, 262_144]

/// A 64-byte aligned buffer of `count` zeros, never freed.
func alignedBuffer<T: Numeric>(_ count: Int, of type: T.Type = T.self)
  -> UnsafeMutableBufferPointer<T>
{
  let raw = UnsafeMutableRawPointer.allocate(
    byteCount: Swift.max(count, 1) * MemoryLayout<T>.stride, alignment: 64)
  let buffer = UnsafeMutableBufferPointer(
    start: raw.bindMemory(to: T.self, capacity: Swift.max(count, 1)), count: count)
  buffer.initialize(repeating: 0)
  return buffer
}

/// An aligned, never freed copy of `values`.
func pinned<T: Numeric>(_ values: [T]) -> UnsafeBufferPointer<T> {
  let buffer = alignedBuffer(values.count, of: T.self)
  _ = buffer.initialize(from: values)
  return UnsafeBufferPointer(buffer)
}

/// splitmix64 as uniform doubles in [0, 1).
struct Random {
  var state: UInt64
  mutating func unit() -> Double {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Double((z ^ (z >> 31)) >> 11) * 0x1.0p-53
  }
  mutating func float(_ lower: Double, _ upper: Double) -> Float {
    Float(lower + (upper - lower) * unit())
  }
}

/// A batch and a 64-byte aligned planar output shared by the stack benchmarks (never freed).
struct Fixture: @unchecked Sendable {
  let batch: StackBatch
  let output: UnsafeMutableBufferPointer<Float>
  let layout: StackOutputLayout

  init(count: Int) {
    batch = try! StackBatch(count: count)
    // Planes padded like the inputs (never a power of two bytes apart).
    layout = .planar(stride: StackBatch.paddedStride(count: count))
    output = alignedBuffer(layout.requiredCount(upperBound: count)!)
  }

  func job(path: StackKernelPath = .simd, stage: StackStage = .frame) -> StackEvaluationJob {
    var job = StackEvaluationJob(
      batch: batch, time: time, output: output, layout: layout, path: path)
    job.stage = stage
    return job
  }
}

// MARK: - Stage fixtures

/// Lane kernels over `count` lanes: bezier, spring, layer matrix, concatenation, decomposition.
struct LaneFixture: @unchecked Sendable {
  let count: Int
  let bezier: CubicBezierBatch
  let progress: UnsafeBufferPointer<Float>
  let curveIndices: UnsafeBufferPointer<UInt16>
  let springs: SpringBatch
  let springTimes: UnsafeBufferPointer<Float>
  /// ``LayerPlanes`` for `count` layers (stride `count`).
  let properties: UnsafeBufferPointer<Float>
  /// 16 planes each: two sets of factors for the concatenation.
  let a: UnsafeBufferPointer<Float>
  let b: UnsafeBufferPointer<Float>
  let decomposition: DecompositionBatch
  let output: UnsafeMutableBufferPointer<Float>

  init(count: Int, seed: UInt64 = 42) {
    self.count = count
    var random = Random(state: seed)
    bezier = CubicBezierBatch(curves: [.easeIn, .easeOut, .easeInEaseOut, .systemDefault])
    progress = pinned((0..<count).map { _ in random.float(0, 1) })
    curveIndices = pinned((0..<count).map { UInt16($0 % 4) })
    var springList: [DampedSpring] = []
    var times: [Float] = []
    for j in 0..<count {
      let spring = try! DampedSpring.response(
        0.1 + 1.9 * random.unit(), dampingRatio: 0.05 + 1.95 * random.unit(),
        initialVelocity: 20 * random.unit() - 10, allowsOverdamping: j % 2 == 0)
      springList.append(spring)
      times.append(Float(Swift.min(spring.settlingDuration, 30) * random.unit()))
    }
    springs = SpringBatch(springs: springList)
    springTimes = pinned(times)
    let (properties, transforms) = layerProperties(count: count, random: &random)
    self.properties = pinned(properties)
    a = pinned(planes(transforms))
    b = pinned(planes(transforms.reversed()))
    let targets = transforms.map {
      $0.rotated(by: 0.7, x: 1, y: 0, z: 0).translated(x: 10, y: -20, z: 5)
    }
    decomposition = try! DecompositionBatch(from: transforms, to: targets)
    output = alignedBuffer(16 * count)
  }
}

/// Random layer properties (``LayerPlanes``, stride `count`) and their 3D transforms: bounds
/// 100×60 at the origin, anchor point (0.5, 0.5), random positions, opacity 0.5…1, transform a
/// rotation about a random axis in the x–y plane with a scale and perspective `m34 = −1/500`,
/// identity sublayer transform.
func layerProperties(count: Int, random: inout Random) -> ([Float], [Transform3D]) {
  var planes = [Float](repeating: 0, count: LayerPlanes.count * count)
  var transforms: [Transform3D] = []
  transforms.reserveCapacity(count)
  for j in 0..<count {
    var m = Transform3D.makeRotation(
      by: Double(random.float(-1.5, 1.5)), x: random.unit(), y: random.unit(), z: 0.2
    ).scaled(x: Double(random.float(0.5, 1.5)), y: 1, z: 1)
    m.m34 = -1.0 / 500
    transforms.append(m)
    let values: [Float] =
      [
        0, 0, 100, 60, 0.5, 0.5, 0, random.float(0, 400), random.float(0, 800), 0,
        random.float(0.5, 1),
      ] + m.fields.map { Float($0) } + Transform3D.identity.fields.map { Float($0) }
    for (p, v) in values.enumerated() { planes[p * count + j] = v }
  }
  return (planes, transforms)
}

/// 16 planes of `transforms` (field k of matrix j at `k·count + j`).
func planes<S: Collection>(_ transforms: S) -> [Float] where S.Element == Transform3D {
  let n = transforms.count
  var result = [Float](repeating: 0, count: 16 * n)
  for (j, m) in transforms.enumerated() {
    for (k, v) in m.fields.enumerated() { result[k * n + j] = Float(v) }
  }
  return result
}

let laneFixtures: [Int: LaneFixture] = Dictionary(
  uniqueKeysWithValues: laneCounts.map { ($0, LaneFixture(count: $0)) })

/// A 4-ary layer tree (parent of layer i > 0 is (i − 1)/4, so input order is level order).
struct TreeFixture: @unchecked Sendable {
  let count: Int
  let parents: UnsafeBufferPointer<Int32>
  let levelStarts: UnsafeBufferPointer<Int32>
  let keepsDepth: UnsafeBufferPointer<Float>
  let properties: UnsafeBufferPointer<Float>
  let local: UnsafeMutableBufferPointer<Float>
  let matrix: UnsafeMutableBufferPointer<Float>
  let opacity: UnsafeMutableBufferPointer<Float>
  let corners: UnsafeMutableBufferPointer<Float>

  init(count: Int) {
    self.count = count
    let tree = try! LayerTreeBatch(
      parents: (0..<count).map { $0 == 0 ? nil : ($0 - 1) / 4 },
      isTransformLayer: [Bool](repeating: false, count: count))
    precondition(tree.positions == Array(0..<count), "a heap-ordered tree is in level order")
    parents = pinned(tree.parents)
    levelStarts = pinned(tree.levelStarts)
    keepsDepth = pinned(tree.keepsDepth)
    var random = Random(state: 7)
    properties = pinned(layerProperties(count: count, random: &random).0)
    local = alignedBuffer(16 * count)
    matrix = alignedBuffer(16 * count)
    opacity = alignedBuffer(count)
    corners = alignedBuffer(16 * count)
  }

  var job: LayerTreeEvaluationJob {
    LayerTreeEvaluationJob(
      parents: parents, levelStarts: levelStarts, keepsDepth: keepsDepth, properties: properties,
      local: local, matrix: matrix, opacity: opacity, corners: corners)
  }
}

let treeFixture = TreeFixture(count: layerCount)

/// The BLAS-shaped jobs: keyframe bake (F = 60 frames, K = 4 keys, N columns), children (M
/// matrices), filmstrip dissolve (F = 30 frames of P pixels).
struct ProductFixture: @unchecked Sendable {
  static let bakeFrames = 60
  static let dissolveFrames = 30
  let count: Int
  let template: KeyframeBakeTemplate
  let keyValues: BatchMatrix
  let children: BatchMatrix
  let parent: Transform3D
  let images: BatchMatrix
  let fractions: [Double]
  let output: UnsafeMutableBufferPointer<Float>

  init(count: Int) {
    self.count = count
    var random = Random(state: 42)
    let progress = (0..<Self.bakeFrames).map { Double($0) / Double(Self.bakeFrames - 1) }
    template = try! KeyframeBakeTemplate(
      keyCount: 4, calculationMode: .cubic, timingFunction: .easeInEaseOut, progress: progress)
    keyValues = try! BatchMatrix(
      rows: 4, columns: count, elements: (0..<4 * count).map { _ in random.float(-400, 400) })
    children = try! BatchMatrix(
      rows: count, columns: 16, elements: (0..<16 * count).map { _ in random.float(-2, 2) })
    var parent = Transform3D.makeRotation(by: 0.6435, x: 0, y: 0, z: 1).translated(
      x: 195, y: 422, z: 0)
    parent.m34 = -1.0 / 500
    self.parent = parent
    images = try! BatchMatrix(
      rows: 2, columns: 4 * count, elements: (0..<8 * count).map { _ in random.float(0, 1) })
    fractions = (0..<Self.dissolveFrames).map { Double($0) / Double(Self.dissolveFrames - 1) }
    output = alignedBuffer(
      Swift.max(Self.bakeFrames * count, 16 * count, Self.dissolveFrames * 4 * count))
  }
}

let productFixture = ProductFixture(count: layerCount)

/// The `presets` workload (``PresetsWorkload``): instances of the ten presets (push and pop),
/// each at its own offset into its run at t = 0.3 s, holding at least `layers` layers.
struct SceneFixture: @unchecked Sendable {
  static let layers = 100_000
  let instances: [SceneBatch.Instance]
  let batch: SceneBatch
  let context: SceneBatchContext
  let times: UnsafeBufferPointer<Double>
  let matrices: UnsafeMutableBufferPointer<Float>
  let opacities: UnsafeMutableBufferPointer<Float>

  init() {
    let t = 0.3
    instances = try! PresetsWorkload.instances(layers: Self.layers, time: t)
    batch = try! SceneBatch(instances)
    context = try! SceneBatchContext(batch: batch, threads: 2)
    times = pinned([t])
    matrices = alignedBuffer(16 * batch.layerCount)
    opacities = alignedBuffer(batch.layerCount)
  }

  var job: SceneEvaluationJob {
    SceneEvaluationJob(
      batch: batch, context: context, times: times, matrices: matrices, opacities: opacities)
  }
}

let sceneFixture = SceneFixture()

/// Two 1920×1080 premultiplied RGBA8 frames: a source with random alpha (components ≤ alpha)
/// and an opaque destination.
struct BlendFixture: @unchecked Sendable {
  static let width = 1920
  static let height = 1080
  let source: PixelBufferRGBA8
  let destination: PixelBufferRGBA8

  init() {
    var random = Random(state: 42)
    func image(opaque: Bool) -> PixelBufferRGBA8 {
      var data = [UInt8](repeating: 0, count: 4 * Self.width * Self.height)
      for p in 0..<(Self.width * Self.height) {
        let a = opaque ? 255 : UInt16(random.unit() * 256)
        for c in 0..<3 { data[4 * p + c] = UInt8(UInt16(random.unit() * 256) * a / 255) }
        data[4 * p + 3] = UInt8(a)
      }
      return try! PixelBufferRGBA8(width: Self.width, height: Self.height, components: data)
    }
    source = image(opaque: false)
    destination = image(opaque: true)
  }
}

let blendFixture = BlendFixture()

// MARK: - Benchmarks

let benchmarks: @Sendable () -> Void = {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
    scalingFactor: .one,
    maxDuration: .seconds(2)
  )

  // The whole frame: the `stack` workload, stage by stage.
  let fixture = Fixture(count: layerCount)
  for stage in StackStage.allCases {
    Benchmark("stack simd \(stage.rawValue) N=\(layerCount)", configuration: configuration) {
      benchmark in
      let job = fixture.job(stage: stage)
      for _ in benchmark.scaledIterations {
        try job.run()
        blackHole(fixture.output[0])
      }
    }
  }
  Benchmark("stack scalar frame N=\(layerCount)", configuration: configuration) { benchmark in
    let job = fixture.job(path: .scalar)
    for _ in benchmark.scaledIterations {
      try job.run()
      blackHole(fixture.output[0])
    }
  }
  Benchmark("stack simd frame N=\(layerCount) threads=2", configuration: configuration) {
    benchmark in
    let job = fixture.job()
    for _ in benchmark.scaledIterations {
      try job.run(threads: 2)
      blackHole(fixture.output[0])
    }
  }

  // Lane kernels at two sizes.
  for n in laneCounts {
    Benchmark("stage bezier lanes=\(n)", configuration: configuration) { benchmark in
      let f = laneFixtures[n]!
      let job = CubicBezierEvaluationJob(
        curves: f.bezier, input: f.progress, curveIndices: f.curveIndices, output: f.output)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        try job.run()
        blackHole(f.output[0])
      }
    }
    Benchmark("stage spring lanes=\(n)", configuration: configuration) { benchmark in
      let f = laneFixtures[n]!
      let job = SpringEvaluationJob(springs: f.springs, times: f.springTimes, output: f.output)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        try job.run()
        blackHole(f.output[0])
      }
    }
    Benchmark("stage layer matrix layers=\(n)", configuration: configuration) { benchmark in
      let f = laneFixtures[n]!
      let job = LayerMatrixEvaluationJob(properties: f.properties, output: f.output, count: n)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        try job.run()
        blackHole(f.output[0])
      }
    }
    Benchmark("stage concatenation matrices=\(n)", configuration: configuration) { benchmark in
      let f = laneFixtures[n]!
      let job = Transform3DConcatenationJob(a: f.a, b: f.b, output: f.output, count: n)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        try job.run()
        blackHole(f.output[0])
      }
    }
    Benchmark("stage decomposition interpolation layers=\(n)", configuration: configuration) {
      benchmark in
      let f = laneFixtures[n]!
      let job = DecompositionInterpolationJob(
        batch: f.decomposition, fractions: f.progress, output: f.output)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        try job.run()
        blackHole(f.output[0])
      }
    }
  }

  Benchmark("stage layer tree layers=\(layerCount)", configuration: configuration) { benchmark in
    let job = treeFixture.job
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      try job.run()
      blackHole(treeFixture.matrix[0])
    }
  }

  // BLAS-shaped jobs, SIMD path (and the sgemm path for the bake).
  for path in [BatchPath.simd, .blas] {
    Benchmark(
      "stage keyframe bake \(path.rawValue) frames=\(ProductFixture.bakeFrames) keys=4 "
        + "layers=\(layerCount)", configuration: configuration
    ) { benchmark in
      let f = productFixture
      let job = KeyframeBakeJob(
        template: f.template, values: f.keyValues, output: f.output, path: path)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        blackHole(try job.run())
        blackHole(f.output[0])
      }
    }
  }
  Benchmark("stage children simd children=\(layerCount)", configuration: configuration) {
    benchmark in
    let f = productFixture
    let job = ChildConcatenationJob(
      children: f.children, parent: f.parent, output: f.output, path: .simd)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      blackHole(try job.run())
      blackHole(f.output[0])
    }
  }
  Benchmark(
    "stage dissolve simd frames=\(ProductFixture.dissolveFrames) pixels=\(layerCount)",
    configuration: configuration
  ) { benchmark in
    let f = productFixture
    let job = FilmstripDissolveJob(
      images: f.images, fractions: f.fractions, output: f.output, path: .simd)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      blackHole(try job.run())
      blackHole(f.output[0])
    }
  }

  // The presets workload: one evaluation of 100 000 layers per iteration (layer-evals/s =
  // layers × throughput), on one and two threads; the compile of the whole batch (µs per
  // instance = wall clock / instances); the incremental path (1 000 adds of instances of
  // compiled templates, then 1 000 removes, per iteration).
  for threads in [1, 2] {
    Benchmark(
      "scene batch presets layers=\(SceneFixture.layers) threads=\(threads)",
      configuration: configuration
    ) { benchmark in
      let job = sceneFixture.job
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        try job.run(threads: threads)
        blackHole(sceneFixture.opacities[0])
      }
    }
  }

  Benchmark(
    "scene batch compile instances=\(sceneFixture.instances.count)", configuration: configuration
  ) { benchmark in
    let instances = sceneFixture.instances
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      blackHole(try SceneBatch(instances).layerCount)
    }
  }

  Benchmark("scene batch add+remove 1000", configuration: configuration) { benchmark in
    var batch = sceneFixture.batch
    let templates = batch.templates
    var ids = [Int](repeating: 0, count: 1000)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      for k in 0..<1000 {
        ids[k] = try batch.add(templates[k % templates.count], clock: .timed(start: 0, speed: 1))
      }
      for id in ids { try batch.remove(id) }
    }
    blackHole(batch.layerCount)
  }

  // Compositing, one 1080p frame per iteration (pixels/s = 2 073 600 × throughput).
  for opacity in [1.0, 0.8] {
    Benchmark("blend RGBA8 over 1080p opacity=\(opacity)", configuration: configuration) {
      benchmark in
      let source = blendFixture.source
      var destination = blendFixture.destination
      try BlendKernels.overRGBA8(source, opacity: opacity, onto: &destination)  // unique copy
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        try BlendKernels.overRGBA8(source, opacity: opacity, onto: &destination)
        blackHole(destination.components[0])
      }
      benchmark.stopMeasurement()
    }
  }
  Benchmark("blend RGBA8 dissolve 1080p fraction=0.5", configuration: configuration) {
    benchmark in
    let from = blendFixture.source
    let to = blendFixture.destination
    var destination = try PixelBufferRGBA8(width: BlendFixture.width, height: BlendFixture.height)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      try BlendKernels.crossDissolveRGBA8(from, to, fraction: 0.5, into: &destination)
      blackHole(destination.components[0])
    }
    benchmark.stopMeasurement()
  }
}
