import Segue
import SegueBenchSupport
import SegueToolSupport

extension StageTiming {
  /// A stage that took `total` seconds over `passes` passes of `items` items each.
  init(_ name: String, _ covers: String, _ total: Double, passes: Int, items: Int) {
    self.init(
      name: name, covers: covers, passes: passes, totalSeconds: total,
      secondsPerPass: total / Double(passes),
      nsPerItem: total / Double(passes * max(items, 1)) * 1e9)
  }
}

/// The cumulative stages of a scene batch evaluation (``SceneBatchStage``), one pass each per
/// ``measure(batch:context:threads:time:)``: their total and best seconds, and a checksum of
/// the last full pass.
struct SceneStageTimes {
  static let stages = SceneBatchStage.allCases
  /// The fields of a layer's `CATransform3D` in the output rows (4 × 4).
  static let matrixFields = 16
  /// What each stage adds to the one before.
  static let covers: [SceneBatchStage: String] = [
    .clocks: "scene time and state of every instance",
    .mediaTiming: "local times (Double) and media timing (progress, phase)",
    .curves: "timing functions: Bézier solve, scalar steps / linear(…)",
    .springs: "spring progress",
    .keyframes: "keyframe tracks on the kernel",
    .decomposition: "decomposed transform interpolation",
    .values: "lerps, scalar keyframes, masked writes, events, overrides, bounds",
    .layers: "layer matrices (own, sublayer terms, to the container), opacity",
    .output: "presence, transposed row stores of matrices and opacities",
  ]

  let layers: Int
  /// The job's outputs, 64-byte aligned as a renderer's buffers would be (``deallocate()``).
  let matrices: UnsafeMutableBufferPointer<Float>
  let opacities: UnsafeMutableBufferPointer<Float>
  var totals = [Double](repeating: 0, count: stages.count)
  var best = [Double](repeating: .infinity, count: stages.count)
  var passes = 0

  init(layers: Int) {
    self.layers = layers
    matrices = alignedFloats(Self.matrixFields * layers)
    opacities = alignedFloats(layers)
  }

  /// Frees the outputs.
  func deallocate() {
    matrices.deallocate()
    opacities.deallocate()
  }

  /// Runs one evaluation of `batch` at `time` per cumulative stage, timing each.
  mutating func measure(batch: SceneBatch, context: SceneBatchContext, threads: Int, time: Double)
    throws
  {
    let times = [time]
    for (i, stage) in Self.stages.enumerated() {
      let elapsed = try times.withUnsafeBufferPointer { t in
        var job = SceneEvaluationJob(
          batch: batch, context: context, times: t, matrices: matrices, opacities: opacities)
        job.stage = stage
        let s = monotonicSeconds()
        do throws(Segue.ValidationError) {
          try job.run(threads: threads)
        } catch {
          throw CLIError.data("--threads", error)
        }
        return monotonicSeconds() - s
      }
      totals[i] += elapsed
      best[i] = min(best[i], elapsed)
    }
    passes += 1
  }

  /// Each stage's mean pass ("up to" the stage).
  var means: [StageTiming] {
    Self.stages.enumerated().map { i, stage in
      StageTiming("\(stage)", "up to \(stage) (mean)", totals[i], passes: passes, items: layers)
    }
  }

  /// The cost of each step: differences of the stages' best passes (on a shared machine the
  /// mean carries other processes' time, the best pass is the stage's own cost).
  var breakdown: [StageTiming] {
    Self.stages.enumerated().map { i, stage in
      var step = StageTiming(
        "\(stage)", Self.covers[stage] ?? "", best[i] - (i > 0 ? best[i - 1] : 0), passes: 1,
        items: layers)
      step.passes = passes
      step.totalSeconds = best[i]
      return step
    }
  }

  /// The last full pass's opacities and matrix translations, summed.
  var checksum: Double {
    zip(opacities, stride(from: 12, to: Self.matrixFields * layers, by: Self.matrixFields)).reduce(
      0.0
    ) {
      $0 + Double($1.0) + Double(matrices[$1.1])
    }
  }
}

extension ProfileCommand {
  /// The live workload: each round a frame of control calls, then the scene batch stage by
  /// stage at the frame's time.
  func profileLive() throws -> ProfileReport {
    let n = count ?? 10_000
    guard (1...1_000_000).contains(n) else {
      throw CLIError(.dataError, "--n", "must be in 1…1000000 for live (got \(n))")
    }
    try checkThreads()
    var driver: LiveBatchDriver
    let context: SceneBatchContext
    do {
      driver = try LiveBatchDriver(slots: n)
      context = try SceneBatchContext(batch: driver.batch, threads: threads)
    } catch { throw CLIError(.internalError, "--n", "\(error)") }
    var script = LiveWorkload.Script(slots: n)
    var calls: [LiveWorkload.Call] = []
    calls.reserveCapacity(n)
    var stages = SceneStageTimes(layers: driver.batch.layerCount)
    defer { stages.deallocate() }
    var control = (total: 0.0, best: Double.infinity)
    let start = monotonicSeconds()
    repeat {
      let t = Double(stages.passes) * LiveWorkload.framePeriod
      script.nextFrame(into: &calls)
      let s = monotonicSeconds()
      do { try driver.control(calls, at: t) } catch {
        throw CLIError(.internalError, "--workload", "\(error)")
      }
      let elapsed = monotonicSeconds() - s
      control = (control.total + elapsed, min(control.best, elapsed))
      try stages.measure(batch: driver.batch, context: context, threads: threads, time: t)
    } while monotonicSeconds() - start < seconds
    let callsPerFrame = Double(driver.callCount) / Double(stages.passes)
    let callsPerPass = max(Int(callsPerFrame.rounded()), 1)
    let covers = "completions replaced, start, interrupt, scrub, finish (ns/item: per call)"
    var step = StageTiming("control", covers, control.best, passes: 1, items: callsPerPass)
    step.passes = stages.passes
    return ProfileReport(
      workload: "live", preset: nil, n: driver.batch.layerCount, threads: threads,
      seconds: seconds,
      stages: [
        StageTiming(
          "control", "control calls (mean)", control.total, passes: stages.passes,
          items: callsPerPass)
      ] + stages.means,
      breakdown: [step] + stages.breakdown, checksum: stages.checksum)
  }
}
