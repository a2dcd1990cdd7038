import ArgumentParser
import Segue
import SegueBenchSupport
import SegueMallocCounter

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// MARK: - Scene batch workload (presets)

extension SegueBench {
  /// `presets`: N layers made of instances of the ten presets, push and pop mixed (instance `i`
  /// is scene `i mod 20`), instance `i` at its own offset so that at the frame time `t` it is at
  /// `u_i·duration` of its run (`u_i` uniform in [0, 1), fixed seed). Paths: `scalar` samples
  /// each instance with the library's `Double` sampler (`TransitionScene.sample(at:)`); `simd`
  /// runs `SceneBatchEvaluationJob` (`run(threads:)`) into preallocated matrix and opacity
  /// buffers. Timed: the evaluation of every layer at each frame time. Not timed: compiling the
  /// batch, allocating outputs. Reported: layer-evals/s, ns/layer, compile time and the bytes the
  /// batch's buffers need.
  func runPresetsWorkload() throws {
    let n = layerCount
    let ts = frameTimes
    var scenes: [TransitionScene] = []
    for preset in TransitionPreset.allCases {
      for operation in [TransitionOperation.push, .pop] {
        let animator = PresetAnimator(preset)
        scenes.append(
          try animator.animateTransition(using: animator.defaultContext(operation: operation)))
      }
    }
    var state: UInt64 = 0x5EED
    func unit() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) * 0x1.0p-53
    }
    let t = ts[0]
    var instances: [SceneBatch.Instance] = []
    var layers = 0
    while layers < n {
      let scene = scenes[instances.count % scenes.count]
      instances.append(
        .init(scene: scene, clock: .timed(start: t - unit() * scene.duration, speed: 1)))
      layers += scene.model.count
    }
    let frames = ts.count
    var compileSeconds = 0.0
    var bytes = 0
    var checksum = 0.0
    let pass: () throws -> Void
    switch path {
    case .scalar:
      pass = {
        var sum = 0.0
        for time in ts {
          for instance in instances {
            guard case .timed(let start, let speed) = instance.clock else { continue }
            let sample = try instance.scene.sample(at: max((time - start) * speed, 0))
            for layer in sample.layers { sum += layer.opacity + layer.matrix.m41 }
          }
        }
        checksum = sum
      }
    case .simd:
      let c0 = now()
      let batch = try SceneBatch(instances)
      let context = try SceneBatchContext(batch: batch, threads: threads)
      compileSeconds = now() - c0
      let total = batch.layerCount * frames
      var matrices = [Float](repeating: 0, count: 16 * total)
      var opacities = [Float](repeating: 0, count: total)
      bytes = 4 * 17 * total + context.byteCount
      pass = {
        try ts.withUnsafeBufferPointer { times in
          try matrices.withUnsafeMutableBufferPointer { m in
            try opacities.withUnsafeMutableBufferPointer { o in
              try SceneBatchEvaluationJob(
                batch: batch, context: context, times: times, matrices: m, opacities: o
              ).run(threads: threads)
            }
          }
        }
        checksum = 0
        for i in 0..<total { checksum += Double(opacities[i]) + Double(matrices[16 * i + 12]) }
      }
    default:
      throw ValidationError("workload presets supports --path scalar or simd")
    }
    try pass()
    let (passSeconds, maxAllocations) = try timedPasses { try pass() }
    let sorted = passSeconds.sorted()
    let median = sorted[sorted.count / 2]
    let evals = Double(layers * frames)
    if format == .json {
      let allocations =
        segue_allocation_counting_available() != 0 ? "\(maxAllocations / UInt64(frames))" : "null"
      let fields: [(String, String)] = [
        ("workload", "\"presets\""), ("n", "\(layers)"), ("instances", "\(instances.count)"),
        ("t", "\(ts[0])"), ("times", "[" + ts.map { "\($0)" }.joined(separator: ",") + "]"),
        ("threads", "\(threads)"), ("path", "\"\(path.rawValue)\""),
        ("passes", "\(sorted.count)"), ("medianSeconds", "\(median)"),
        ("bestSeconds", "\(sorted[0])"), ("layerEvalsPerSecond", "\(evals / median)"),
        ("bestLayerEvalsPerSecond", "\(evals / sorted[0])"),
        ("nsPerLayer", "\(median / evals * 1e9)"), ("compileSeconds", "\(compileSeconds)"),
        ("bytes", "\(bytes)"), ("allocationsPerFrame", allocations),
        ("cpuRuntime", "\"\(CPUFeatures.runtime.description)\""),
        ("swiftCompiledFor", "\"\(CPUFeatures.compiled.description)\""),
        ("checksum", checksum.isFinite ? "\(checksum)" : "null"),
      ]
      print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
      return
    }
    print(
      """
      workload presets  n \(layers) layers (\(instances.count) instances)  frames \(frames)  \
      threads \(threads)  path \(path.rawValue)  passes \(sorted.count)
      layer-evals/s median \(evals / median / 1e6) M  best \(evals / sorted[0] / 1e6) M  \
      ns/layer \(median / evals * 1e9)
      compile \(compileSeconds) s  output+context \(Double(bytes) / 1e6) MB  checksum \(checksum)
      allocations    \(segue_allocation_counting_available() != 0 ? "\(maxAllocations / UInt64(frames)) per frame (\(maxAllocations) per pass)" : "not counted on this platform")
      """)
  }
}
