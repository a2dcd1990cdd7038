import ArgumentParser
import Segue
import SegueBenchSupport
import SegueMallocCounter
import SegueToolSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// MARK: - Scene batch workload (presets)

extension SegueBench {
  /// `presets`: N layers made of instances of the ten presets, push and pop mixed
  /// (``PresetsWorkload``: instance `i` is scene `i mod 20`, at `u_i·duration` of its run at the
  /// frame time, fixed seed). Paths: `scalar` samples each instance with the library's `Double`
  /// sampler (`TransitionScene.sample(at:)`); `simd` runs `SceneEvaluationJob`
  /// (`run(threads:)`) into preallocated matrix and opacity buffers. Timed: the evaluation of every
  /// layer at each frame time. Not timed in the passes: compiling the batch, allocating outputs,
  /// the checksum of the simd path.
  /// Reported: layer-evals/s, ns/layer; for `simd` also the compile (µs per instance, the
  /// templates of the twenty distinct scenes included), and the incremental path: µs per
  /// `add(_:clock:)` of an instance of a compiled template, per `add(_:)` of a scene equal to one
  /// in the batch (found, not recompiled), and per `remove(_:)`, each over 1 000 instances (all
  /// of them when there are fewer).
  func runPresetsWorkload() throws {
    let n = layerCount
    let ts = frameTimes
    let instances = try PresetsWorkload.instances(layers: n, time: ts[0])
    let layers = instances.reduce(0) { $0 + $1.scene.model.count }
    let frames = ts.count
    var compileSeconds = 0.0
    var incremental = ""
    var bytes = 0
    var checksum = 0.0
    let pass: () throws -> Void
    // The checksum of the simd path, computed once after the timed passes.
    var summarise: () -> Void = {}
    switch path {
    case .scalar:
      pass = {
        var sum = 0.0
        for time in ts {
          for instance in instances {
            guard case .timed(let start, let speed) = instance.clock else { continue }
            let sample = try instance.scene.sample(at: max((time - start) * speed, 0))
            for layer in sample.layers {
              sum += layer.matrix.fields.reduce(layer.opacity, +)
            }
          }
        }
        checksum = sum
      }
    case .simd:
      // Compile: the best of three (the first pays page faults of fresh memory).
      var compiled: SceneBatch?
      compileSeconds = .infinity
      for _ in 0..<3 {
        let c0 = monotonicSeconds()
        let b = try SceneBatch(instances)
        compileSeconds = min(compileSeconds, monotonicSeconds() - c0)
        compiled = b
      }
      guard var batch = compiled else { return }
      let context = try SceneBatchContext(batch: batch, threads: threads)
      // Incremental: add 1000 instances of compiled templates (fewer when the workload has
      // fewer instances: each add reuses one instance's clock), then remove them.
      let k = min(1000, instances.count)
      let templates = batch.templates
      var ids: [Int] = []
      ids.reserveCapacity(k)
      let a0 = monotonicSeconds()
      for i in 0..<k {
        ids.append(try batch.add(templates[i % templates.count], clock: instances[i].clock))
      }
      let a1 = monotonicSeconds()
      for id in ids { try batch.remove(id) }
      let a2 = monotonicSeconds()
      ids.removeAll(keepingCapacity: true)
      for i in 0..<k { ids.append(try batch.add(instances[i])) }
      let a3 = monotonicSeconds()
      for id in ids { try batch.remove(id) }
      let us = 1e6 / Double(k)
      incremental = """
        add(template) \(fixed((a1 - a0) * us, 3)) µs  add(scene, found) \(fixed((a3 - a2) * us, 3)) µs  \
        remove \(fixed((a2 - a1) * us, 3)) µs per instance (\(k) each)
        """
      let total = batch.layerCount * frames
      // 64-byte aligned outputs (never freed: the process ends after the report), so the job
      // may write whole rows with streaming stores.
      func aligned(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
        let p = UnsafeMutableRawPointer.allocate(byteCount: 4 * max(count, 1), alignment: 64)
          .bindMemory(to: Float.self, capacity: max(count, 1))
        p.initialize(repeating: 0, count: max(count, 1))
        return UnsafeMutableBufferPointer(start: p, count: count)
      }
      let matrices = aligned(16 * total)
      let opacities = aligned(total)
      bytes = 4 * 17 * total + context.byteCount
      let frozen = batch
      // --streaming on|off forces the choice; auto leaves it to the job (aligned and ≥ 4 MiB).
      let choice: Bool? = streaming == .on ? true : (streaming == .off ? false : nil)
      pass = {
        try ts.withUnsafeBufferPointer { times in
          var job = SceneEvaluationJob(
            batch: frozen, context: context, times: times, matrices: matrices,
            opacities: opacities)
          job.streamingStores = choice
          try job.run(threads: threads, chunkSize: chunkSize)
        }
      }
      summarise = {
        // Every output: the 16 matrix entries and the opacity of each layer and frame.
        checksum = 0
        for i in 0..<total {
          var layer = Double(opacities[i])
          for k in 0..<16 { layer += Double(matrices[16 * i + k]) }
          checksum += layer
        }
      }
    default:
      throw ValidationError("workload presets supports --path scalar or simd")  // see validate()
    }
    try pass()
    let (passSeconds, maxAllocations) = try timedPasses { try pass() }
    summarise()
    let sorted = passSeconds.sorted()
    let median = sorted[sorted.count / 2]
    let evals = Double(layers * frames)
    if format == .json {
      // One job call evaluates every frame of a pass: allocations are counted per pass.
      let allocations =
        segue_allocation_counting_available() != 0 ? "\(maxAllocations)" : "null"
      let fields: [(String, String)] = [
        ("workload", "\"presets\""), ("n", "\(layers)"), ("instances", "\(instances.count)"),
        ("t", "\(ts[0])"), ("times", "[" + ts.map { "\($0)" }.joined(separator: ",") + "]"),
        ("threads", "\(threads)"), ("path", "\"\(path.rawValue)\""),
        ("passes", "\(sorted.count)"), ("medianSeconds", "\(median)"),
        ("bestSeconds", "\(sorted[0])"), ("layerEvalsPerSecond", "\(evals / median)"),
        ("bestLayerEvalsPerSecond", "\(evals / sorted[0])"),
        ("nsPerLayer", "\(median / evals * 1e9)"), ("compileSeconds", "\(compileSeconds)"),
        ("bytes", "\(bytes)"), ("allocationsPerPass", allocations),
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
      ns/layer \(median / evals * 1e9)  best \(sorted[0] / evals * 1e9)
      compile \(compileSeconds) s  \(fixed(compileSeconds / Double(instances.count) * 1e6, 3)) µs/instance  \
      output+context \(Double(bytes) / 1e6) MB  checksum \(checksum)
      """ + (path == .simd ? "  streaming \(streaming.rawValue)" : "")
        + (incremental.isEmpty ? "" : "\nincremental    " + incremental) + """

          allocations    \(segue_allocation_counting_available() != 0 ? "\(maxAllocations) per pass of \(frames) frame\(frames == 1 ? "" : "s")" : "not counted on this platform")
          """)
  }
}
