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
    let ts = frameTimes
    let instances = try PresetsWorkload.instances(layers: layerCount, time: ts[0])
    let run: PresetsRun
    switch path {
    case .scalar: run = presetsScalarRun(instances, frameTimes: ts)
    case .simd: run = try presetsSIMDRun(instances, frameTimes: ts)
    default:
      throw ValidationError("workload presets supports --path scalar or simd")  // see validate()
    }
    try run.pass()
    let (passSeconds, maxAllocations) = try timedPasses { try run.pass() }
    let checksum = run.checksum()
    let result = PresetsResult(
      run: run, instances: instances.count,
      layers: instances.reduce(0) { $0 + $1.scene.model.count }, frameTimes: ts,
      passSeconds: passSeconds.sorted(), maxAllocations: maxAllocations, checksum: checksum)
    if format == .json {
      print(presetsJSON(result))
    } else {
      print(presetsText(result))
    }
  }

  /// The scalar path: each instance sampled with the library's `Double` sampler at every frame
  /// time; the checksum is the last pass's.
  func presetsScalarRun(_ instances: [SceneBatch.Instance], frameTimes ts: [Double]) -> PresetsRun {
    var checksum = 0.0
    let pass = {
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
    return PresetsRun(pass: pass, checksum: { checksum })
  }

  /// The simd path: the batch compiled (best of three), the incremental calls measured, then a
  /// pass of ``SceneEvaluationJob`` into 64-byte aligned outputs; the checksum sums every output.
  func presetsSIMDRun(_ instances: [SceneBatch.Instance], frameTimes ts: [Double]) throws
    -> PresetsRun
  {
    var (batch, compileSeconds) = try Self.compileBestOfThree(instances)
    let context = try SceneBatchContext(batch: batch, threads: threads)
    let incremental = try Self.measureIncrementalCalls(&batch, instances)
    let total = batch.layerCount * ts.count
    // Aligned outputs (never freed: the process ends after the report), so the job may write
    // whole rows with streaming stores.
    let fields = 16  // matrix fields per layer (4 × 4)
    let matrices = alignedFloats(fields * total)
    let opacities = alignedFloats(total)
    let frozen = batch
    let choice = streaming.sceneJobChoice
    let (threads, chunkSize) = (threads, chunkSize)
    let pass = {
      try ts.withUnsafeBufferPointer { times in
        var job = SceneEvaluationJob(
          batch: frozen, context: context, times: times, matrices: matrices,
          opacities: opacities)
        job.streamingStores = choice
        try job.run(threads: threads, chunkSize: chunkSize)
      }
    }
    let checksum = {
      // Every output: the matrix entries and the opacity of each layer and frame.
      var checksum = 0.0
      for i in 0..<total {
        var layer = Double(opacities[i])
        for k in 0..<fields { layer += Double(matrices[fields * i + k]) }
        checksum += layer
      }
      return checksum
    }
    return PresetsRun(
      pass: pass, checksum: checksum, compileSeconds: compileSeconds, incremental: incremental,
      bytes: 4 * (fields + 1) * total + context.byteCount)
  }

  /// The batch of `instances` and the best of three compile times (the first pays page faults
  /// of fresh memory).
  static func compileBestOfThree(_ instances: [SceneBatch.Instance]) throws -> (SceneBatch, Double)
  {
    var batch = SceneBatch()
    var seconds = Double.infinity
    for _ in 0..<3 {
      let c0 = monotonicSeconds()
      let b = try SceneBatch(instances)
      seconds = min(seconds, monotonicSeconds() - c0)
      batch = b
    }
    return (batch, seconds)
  }

  /// The incremental path, as a report line: adds 1000 instances of compiled templates (fewer
  /// when the workload has fewer instances: each add reuses one instance's clock), removes them,
  /// adds as many scenes equal to ones in the batch (found, not recompiled), removes them.
  static func measureIncrementalCalls(_ batch: inout SceneBatch, _ instances: [SceneBatch.Instance])
    throws -> String
  {
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
    return """
      add(template) \(fixed((a1 - a0) * us, 3)) µs  add(scene, found) \(fixed((a3 - a2) * us, 3)) µs  \
      remove \(fixed((a2 - a1) * us, 3)) µs per instance (\(k) each)
      """
  }

  /// The JSON report of the presets workload.
  func presetsJSON(_ r: PresetsResult) -> String {
    let sorted = r.passSeconds
    // One job call evaluates every frame of a pass: allocations are counted per pass.
    let allocations =
      segue_allocation_counting_available() != 0 ? "\(r.maxAllocations)" : "null"
    let fields: [(String, String)] = [
      ("workload", "\"presets\""), ("n", "\(r.layers)"), ("instances", "\(r.instances)"),
      ("t", "\(r.frameTimes[0])"),
      ("times", "[" + r.frameTimes.map { "\($0)" }.joined(separator: ",") + "]"),
      ("threads", "\(threads)"), ("path", "\"\(path.rawValue)\""),
      ("passes", "\(sorted.count)"), ("medianSeconds", "\(r.median)"),
      ("bestSeconds", "\(sorted[0])"), ("layerEvalsPerSecond", "\(r.evals / r.median)"),
      ("bestLayerEvalsPerSecond", "\(r.evals / sorted[0])"),
      ("nsPerLayer", "\(r.median / r.evals * 1e9)"),
      ("compileSeconds", "\(r.run.compileSeconds)"),
      ("bytes", "\(r.run.bytes)"), ("allocationsPerPass", allocations),
      ("cpuRuntime", "\"\(CPUFeatures.runtime.description)\""),
      ("swiftCompiledFor", "\"\(CPUFeatures.compiled.description)\""),
      ("checksum", jsonNumber(r.checksum)),
    ]
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  /// The text report of the presets workload.
  func presetsText(_ r: PresetsResult) -> String {
    let (sorted, median, evals, frames) = (r.passSeconds, r.median, r.evals, r.frameTimes.count)
    let compileSeconds = r.run.compileSeconds
    let incremental = r.run.incremental
    let allocations =
      segue_allocation_counting_available() != 0
      ? "\(r.maxAllocations) per pass of \(frames) frame\(frames == 1 ? "" : "s")"
      : "not counted on this platform"
    return """
      workload presets  n \(r.layers) layers (\(r.instances) instances)  frames \(frames)  \
      threads \(threads)  path \(path.rawValue)  passes \(sorted.count)
      layer-evals/s median \(evals / median / 1e6) M  best \(evals / sorted[0] / 1e6) M  \
      ns/layer \(median / evals * 1e9)  best \(sorted[0] / evals * 1e9)
      compile \(compileSeconds) s  \(fixed(compileSeconds / Double(r.instances) * 1e6, 3)) µs/instance  \
      output+context \(Double(r.run.bytes) / 1e6) MB  checksum \(r.checksum)
      """ + (path == .simd ? "  streaming \(streaming.rawValue)" : "")
        + (incremental.isEmpty ? "" : "\nincremental    " + incremental) + """

          allocations    \(allocations)
          """
  }
}

/// One path of the presets workload, set up: the timed pass and what the report needs besides
/// the timings.
struct PresetsRun {
  let pass: () throws -> Void
  /// The checksum, computed once after the timed passes.
  let checksum: () -> Double
  var compileSeconds = 0.0
  /// The incremental path's report line (simd).
  var incremental = ""
  /// Output and context bytes (simd).
  var bytes = 0
}

/// The measurements of the presets workload.
struct PresetsResult {
  let run: PresetsRun
  let instances: Int
  let layers: Int
  let frameTimes: [Double]
  /// Seconds of each timed pass, ascending.
  let passSeconds: [Double]
  let maxAllocations: UInt64
  let checksum: Double

  var median: Double { passSeconds[passSeconds.count / 2] }
  /// Layer evaluations per pass.
  var evals: Double { Double(layers * frameTimes.count) }
}
