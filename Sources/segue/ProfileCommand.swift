import ArgumentParser
import Foundation
import Segue
import SegueBenchSupport
import SegueToolSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The workloads `segue profile` runs.
enum ProfileWorkload: String, ExpressibleByArgument, CaseIterable {
  /// The batch `stack` workload (Sources/Segue/Batch): N layers per pass.
  case stack
  /// A catalog preset: build its scene, then sample it at N times per pass.
  case preset
  /// The `presets` workload (SceneBatch over instances of the ten presets, push and pop): N
  /// layers per pass, stage by stage.
  case presets
  /// The `live` workload (``LiveBatchDriver``): N animator-driven preset instances, each frame
  /// its control calls, then the scene batch stage by stage.
  case live
}

/// The time spent in one stage.
struct StageTiming: Encodable {
  /// The stage's name.
  var name: String
  /// What it covers.
  var covers: String
  /// How many times it ran.
  var passes: Int
  /// Total seconds spent in it.
  var totalSeconds: Double
  /// Mean seconds per pass.
  var secondsPerPass: Double
  /// Mean nanoseconds per item (layer or sample) within a pass.
  var nsPerItem: Double
}

/// What `segue profile` prints.
struct ProfileReport: Encodable {
  var workload: String
  var preset: String?
  var n: Int
  var threads: Int
  var seconds: Double
  /// The stages as measured.
  var stages: [StageTiming]
  /// For `stack`: the cost of each pipeline step in a frame (differences of the cumulative
  /// stages `timing` ⊂ `channels` ⊂ `frame`).
  var breakdown: [StageTiming]
  /// A checksum of the last result, so the work cannot be optimised away.
  var checksum: Double

  var text: String {
    func pad(_ s: String, _ width: Int) -> String {
      s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
    var out = "workload \(workload)"
    if let preset { out += " \(preset)" }
    out += "  n \(n)  threads \(threads)  seconds \(decimal(seconds))\n"
    /// Columns as wide as their longest cell plus two spaces, whatever the stage names.
    func table(_ rows: [StageTiming]) -> String {
      let header = ["stage", "passes", "total s", "ms/pass", "ns/item", "covers"]
      let cells = rows.map { r in
        [
          r.name, "\(r.passes)", fixed(r.totalSeconds, 4), fixed(r.secondsPerPass * 1e3, 4),
          fixed(r.nsPerItem, 2), r.covers,
        ]
      }
      let widths = (0..<header.count - 1).map { c in
        ([header] + cells).map { $0[c].count }.max()! + 2
      }
      return ([header] + cells).map { row in
        (0..<widths.count).map { pad(row[$0], widths[$0]) }.joined() + row[widths.count] + "\n"
      }.joined()
    }
    out += table(stages)
    if !breakdown.isEmpty {
      out += "per-step breakdown of a frame:\n" + table(breakdown)
    }
    out += "checksum \(decimal(checksum))\n"
    return out
  }
}

/// `segue profile`.
struct ProfileCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "profile",
    abstract: "Run a workload for a given time and print the per-stage breakdown.",
    discussion: """
      Meant to run under perf or valgrind on a release build, e.g. 'perf record -g segue \
      profile --workload stack --n 1000000 --seconds 5' or 'valgrind --tool=callgrind segue \
      profile … --seconds 0.5'.

      stack: generates N layers (stage generate), then loops until --seconds have passed, each \
      round running one pass per cumulative stage of the batch kernel: timing (progress and \
      Bézier solve), channels (+ keyframe segment and Catmull–Rom), frame (+ sin/cos, matrix \
      and opacity: the full evaluation). The breakdown subtracts consecutive stages.
      presets: compiles a SceneBatch of instances of the ten presets (push and pop) holding at \
      least N layers (stage compile), then loops, each round running one SceneEvaluationJob \
      pass per cumulative stage: clocks, media timing (+ local times, progress, phase), curves \
      (+ Bézier and scalar timing functions), springs, keyframes, decomposition, values (+ lerps, \
      masked writes, events, completion overrides, bounds), layers (+ matrices and opacities), \
      output (+ presence and the transposed row stores: the full evaluation). The breakdown \
      subtracts the best passes of consecutive stages (total s: the stage's best pass).
      live: N animator-driven instances of the ten presets at 60 Hz (as segue-bench --workload \
      live); each round is a frame: its control calls (stage control: completions replaced, \
      start, interrupt, scrub, finish; ns/item per call), then one pass per cumulative stage of \
      the scene batch as for presets, at the frame's time.
      preset: each round builds the preset's scene (stage build: default views, context, \
      animateTransition) and samples it at N evenly spaced times from 0 to the duration: \
      present (the presentation layer tree at each time: animations and events) and project \
      (matrices to the container, opacities and the projected corners).
      """ + "\n\n" + exitCodesHelp)

  @Option(help: "The workload: stack, preset, presets or live.")
  var workload: ProfileWorkload = .stack

  @OptionGroup var presetOptions: PresetOptions

  @Option(
    name: .customLong("n"),
    help: ArgumentHelp(
      "stack, presets: layers, 1…10000000 (default 100000); preset: samples per round, "
        + "1…100000 (default 60); live: instances, 1…1000000 (default 10000).", valueName: "N"))
  var count: Int?

  @Option(help: ArgumentHelp("How long to loop, in seconds, (0, 3600].", valueName: "seconds"))
  var seconds: Double = 1

  @Option(help: ArgumentHelp("stack, presets, live: worker threads, 1…256.", valueName: "count"))
  var threads: Int = 1

  @Option(help: "Report format: text or json.")
  var format: ReportFormat = .text

  func run() throws {
    try reportingErrors("profile") {
      try requirePositive(seconds, "--seconds")
      guard seconds <= 3600 else {
        throw CLIError(.dataError, "--seconds", "must be at most 3600 (got \(decimal(seconds)))")
      }
      let report: ProfileReport
      switch workload {
      case .stack:
        if presetOptions.preset != nil {
          throw CLIError(.usage, "--preset", "applies only to --workload preset")
        }
        report = try profileStack()
      case .preset:
        if threads != 1 {
          throw CLIError(
            .usage, "--threads", "applies only to --workload stack, presets or live")
        }
        report = try profilePreset()
      case .presets, .live:
        if presetOptions.preset != nil {
          throw CLIError(.usage, "--preset", "applies only to --workload preset")
        }
        report = workload == .live ? try profileLive() : try profilePresets()
      }
      if format == .json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(report)
        data.append(UInt8(ascii: "\n"))
        try OutputTarget.standardOutput.write(Array(data))
      } else {
        try OutputTarget.standardOutput.write(report.text)
      }
    }
  }

  /// The stack workload: the batch kernel stage by stage.
  func profileStack() throws -> ProfileReport {
    let n = count ?? 100_000
    guard (1...10_000_000).contains(n) else {
      throw CLIError(.dataError, "--n", "must be in 1…10000000 for stack (got \(n))")
    }
    guard (1...256).contains(threads) else {
      throw CLIError(.dataError, "--threads", "must be in 1…256 (got \(threads))")
    }
    let t0 = monotonicSeconds()
    let batch: StackBatch
    do { batch = try StackBatch(count: n) } catch { throw CLIError.data("--n", error) }
    let generate = monotonicSeconds() - t0

    // Planar output, stride a multiple of 16, 64-byte aligned (the kernel's fast layout).
    let stride = (n + 15) / 16 * 16
    let layout = StackOutputLayout.planar(stride: stride)
    guard let valueCount = layout.requiredCount(upperBound: n) else {
      throw CLIError(.dataError, "--n", "the output buffer size overflows")
    }
    let output = alignedFloats(valueCount)
    defer { output.deallocate() }

    let stages: [StackStage] = [.timing, .channels, .frame]
    var totals = [Double](repeating: 0, count: stages.count)
    var passes = 0
    let start = monotonicSeconds()
    repeat {
      for (i, stage) in stages.enumerated() {
        var job = StackEvaluationJob(
          batch: batch, time: 0.3, output: output, layout: layout, path: .simd,
          streamingStores: valueCount * 4 > 8 << 20)
        job.stage = stage
        let s = monotonicSeconds()
        do { try job.run(threads: threads) } catch { throw CLIError.data("--threads", error) }
        totals[i] += monotonicSeconds() - s
      }
      passes += 1
    } while monotonicSeconds() - start < seconds
    let checksum: Double
    do {
      checksum = try batch.checksum(of: UnsafeBufferPointer(output), layout: layout)
    } catch {
      throw CLIError(.internalError, "--n", error.description)
    }

    func timing(_ name: String, _ covers: String, _ total: Double, passes: Int) -> StageTiming {
      StageTiming(
        name: name, covers: covers, passes: passes, totalSeconds: total,
        secondsPerPass: total / Double(passes), nsPerItem: total / Double(passes * n) * 1e9)
    }
    let covers = [
      "progress, Bézier solve", "timing + keyframe segment, Catmull–Rom",
      "channels + sin/cos, matrix, opacity (full evaluation)",
    ]
    var measured = [timing("generate", "building the N layers (once)", generate, passes: 1)]
    for (i, stage) in stages.enumerated() {
      measured.append(timing(stage.rawValue, covers[i], totals[i], passes: passes))
    }
    let steps = [
      ("curve", "progress and Bézier solve", totals[0]),
      ("keyframes", "segment search and Catmull–Rom of 6 channels", totals[1] - totals[0]),
      ("compose", "sin/cos, matrix composition, opacity clamp", totals[2] - totals[1]),
    ]
    return ProfileReport(
      workload: "stack", preset: nil, n: n, threads: threads, seconds: seconds, stages: measured,
      breakdown: steps.map { timing($0.0, $0.1, $0.2, passes: passes) }, checksum: checksum)
  }

  /// The presets workload: the scene batch stage by stage.
  func profilePresets() throws -> ProfileReport {
    let n = count ?? 100_000
    guard (1...10_000_000).contains(n) else {
      throw CLIError(.dataError, "--n", "must be in 1…10000000 for presets (got \(n))")
    }
    try checkThreads()
    let time = 0.3
    let t0 = monotonicSeconds()
    let batch: SceneBatch
    let context: SceneBatchContext
    do {
      batch = try SceneBatch(PresetsWorkload.instances(layers: n, time: time))
      context = try SceneBatchContext(batch: batch, threads: threads)
    } catch { throw CLIError(.internalError, "--n", "\(error)") }
    let compile = monotonicSeconds() - t0
    var stages = SceneStageTimes(layers: batch.layerCount)
    defer { stages.deallocate() }
    let start = monotonicSeconds()
    repeat {
      try stages.measure(batch: batch, context: context, threads: threads, time: time)
    } while monotonicSeconds() - start < seconds
    let measured = [
      StageTiming(
        "compile", "SceneBatch(instances) and its context (once)", compile, passes: 1,
        items: batch.layerCount)
    ]
    return ProfileReport(
      workload: "presets", preset: nil, n: batch.layerCount, threads: threads,
      seconds: seconds, stages: measured + stages.means, breakdown: stages.breakdown,
      checksum: stages.checksum)
  }

  /// Throws unless `--threads` is in 1…256.
  func checkThreads() throws {
    guard (1...256).contains(threads) else {
      throw CLIError(.dataError, "--threads", "must be in 1…256 (got \(threads))")
    }
  }

  /// The preset workload: scene building, presentation and projection.
  func profilePreset() throws -> ProfileReport {
    let n = count ?? 60
    guard (1...100_000).contains(n) else {
      throw CLIError(.dataError, "--n", "must be in 1…100000 for preset (got \(n))")
    }
    let setup = try presetOptions.setup(fallbackPreset: .system)
    var build = 0.0
    var present = 0.0
    var project = 0.0
    var rounds = 0
    var checksum = 0.0
    let start = monotonicSeconds()
    repeat {
      let s0 = monotonicSeconds()
      let scene = try setup.scene()
      build += monotonicSeconds() - s0
      for k in 0..<n {
        let t = n == 1 ? 0 : scene.duration * Double(k) / Double(n - 1)
        let s1 = monotonicSeconds()
        let tree = scene.presentation(at: t)
        let s2 = monotonicSeconds()
        let geometry = tree.evaluate()
        let s3 = monotonicSeconds()
        present += s2 - s1
        project += s3 - s2
        if k == n - 1 {
          checksum = geometry.reduce(0) { $0 + $1.opacity + $1.matrix.fields.reduce(0, +) }
        }
      }
      rounds += 1
    } while monotonicSeconds() - start < seconds

    func timing(_ name: String, _ covers: String, _ total: Double, items: Int) -> StageTiming {
      StageTiming(
        name: name, covers: covers, passes: rounds, totalSeconds: total,
        secondsPerPass: total / Double(rounds), nsPerItem: total / Double(rounds * items) * 1e9)
    }
    return ProfileReport(
      workload: "preset", preset: setup.animator.preset.rawValue, n: n, threads: 1,
      seconds: seconds,
      stages: [
        timing("build", "default views, context, animateTransition (per round)", build, items: 1),
        timing("present", "presentation tree at each sample time", present, items: n),
        timing("project", "matrices, opacities and corners at each time", project, items: n),
      ], breakdown: [], checksum: checksum)
  }
}
