// segue-bench: throughput of Segue's batch kernels on a standard workload.
//
// One pass evaluates all N layers at every requested time (one frame per time) into a
// preallocated buffer; after one untimed warm-up pass, `repeats` passes are timed (or passes are
// repeated until `--seconds` have elapsed). Reported: layer-evals/s (median and best), ns per
// layer, GB/s of output written, allocation calls per frame, the BLAS library loaded, the CPU
// features, and the workload checksum.

import ArgumentParser
import Segue
import SegueBenchSupport
import SegueMallocCounter
import SegueSIMDSupport
import SegueToolSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Execution paths the command line accepts.
enum BenchPath: String, ExpressibleByArgument, CaseIterable {
  case naive, scalar, simd, reference, blas
}

/// Output formats.
enum BenchFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}

/// Output layouts.
enum BenchLayout: String, ExpressibleByArgument, CaseIterable {
  case interleaved, planar
}

/// When to use non-temporal stores.
enum BenchStreaming: String, ExpressibleByArgument, CaseIterable {
  case auto, on, off

  /// ``SceneEvaluationJob/streamingStores`` for this choice: `nil` (the job decides) for `auto`.
  var sceneJobChoice: Bool? {
    switch self {
    case .auto: nil
    case .on: true
    case .off: false
    }
  }
}

/// A choice of the live workload's evaluation that `--alternate` switches between blocks of
/// frames, so that both settings meet the same moments of a shared machine.
enum LiveAlternation: String, ExpressibleByArgument, CaseIterable {
  /// The look-ahead of the animator plans and rows (`SceneEvaluationJob.prefetchesAhead`): on, off.
  case prefetch
  /// The matrix row stores: through the caches, streaming.
  case streaming

  /// The names of the first and the second setting.
  var settings: [String] {
    switch self {
    case .prefetch: ["on", "off"]
    case .streaming: ["cached", "streaming"]
    }
  }
}

@main
struct SegueBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "segue-bench",
    abstract: "Measure Segue's batch evaluation throughput on a standard workload.",
    discussion: """
      Timed: evaluating all N layers at each time into a preallocated buffer. \
      Not timed: generating the layers, allocating the output, computing the checksum. \
      Options whose combined allocations would exceed 3/4 of the physical memory are rejected \
      as a usage error (exit 64) before anything is allocated.
      """)

  @Option(
    help:
      "The workload to run: stack; the stage kernels bezier and spring; the BLAS-shaped bake, children, dissolve; presets (scenes); live (animator-driven preset instances controlled every frame; --n instances, default 10000; --frames, default 600); blend (compositing, see --blend); render (frames of presets, see --preset); paint (image sampling and gradient kernels, see --paint); image (a full-screen image layer under perspective: the sampling kernel and the whole frame, filter from --paint); text (text layer layouts); or snapshot (verifying frame snapshots, see --snapshot-transitions)."
  )
  var workload: String = "stack"

  @Flag(
    help: "live: a quarter of the interruptions also retarget a property (SceneBatch.retarget).")
  var retargets = false

  @Option(
    help: """
      live: switch one choice every \(Self.alternationBlockFrames) frames (prefetch: the \
      evaluation's look-ahead on, then off; streaming: the row stores through the caches, then \
      streaming) and report the evaluation's median under each setting.
      """)
  var alternate: LiveAlternation?

  @Option(help: "Frames F of the bake and dissolve workloads.")
  var frames: Int = 60

  @Option(help: "Keys K of the bake workload's template.")
  var keys: Int = 4

  @Option(help: "Channels C per layer of the bake workload (columns = n·C).")
  var channels: Int = 1

  @Option(name: .customLong("n"), help: "Number of layers N, 1000…10000000 (1e6 is accepted).")
  var count: String = "1000000"

  @Option(name: .customLong("t"), help: "The global time t in seconds.")
  var time: Double?

  @Option(help: "A comma-separated list of times (seconds): one frame per time in each pass.")
  var times: String?

  @Option(
    help: """
      Threads (≥ 1); the layers are split into chunks over a BatchContext (the calling thread \
      pinned to the first CPU of the affinity mask, the workers to the following ones).
      """)
  var threads: Int = 1

  @Option(
    help: """
      Chunk size of a multi-threaded run (stack: layers; presets: lane groups of 16 layers);       default: the job's (about a quarter of an even share).
      """)
  var chunkSize: Int?

  @Option(help: "Evaluation path: \(BenchPath.allCases.map(\.rawValue).joined(separator: "|")).")
  var path: BenchPath = .simd

  @Option(
    help: "Output layout of the Float paths: interleaved (17 per layer) or planar (17 arrays).")
  var layout: BenchLayout = .planar

  @Option(
    help: """
      Non-temporal (streaming) stores: on, off, or auto (presets and live: the scene job's \
      choice, an aligned output of 4 MiB or more; the other workloads: output over 8 MB).
      """)
  var streaming: BenchStreaming = .auto

  @Option(help: "Timed passes after one warm-up pass.")
  var repeats: Int = 5

  @Option(help: "Keep running timed passes until this many seconds have passed (for perf).")
  var seconds: Double?

  @Option(help: "Report format: text or json.")
  var format: BenchFormat = .text

  @OptionGroup(title: "Blend workload")
  var blendOptions: BlendOptions

  @OptionGroup(title: "Render workload")
  var renderOptions: RenderOptions

  @OptionGroup(title: "Paint workload")
  var paintOptions: PaintOptions

  @OptionGroup(title: "Snapshot workload")
  var snapshotOptions: SnapshotWorkloadOptions

  /// N parsed from `--n`.
  var layerCount: Int {
    if let n = Int(count) { return n }
    if let d = Double(count), d.isFinite, d == d.rounded(), abs(d) < 1e12 { return Int(d) }
    return -1
  }

  /// The frame times.
  var frameTimes: [Double] {
    if let times {
      return times.split(separator: ",").map {
        Double($0.trimmingSpaces()) ?? .nan
      }
    }
    return [time ?? 0.3]
  }

  mutating func validate() throws {
    guard
      workload == "stack" || workload == "presets" || workload == "live" || workload == "blend"
        || workload == "render" || workload == "paint" || workload == "image" || workload == "text"
        || workload == "snapshot"
        || Self.kernelWorkloads.contains(workload)
        || batchWorkload != nil
    else {
      throw ValidationError(
        "unknown workload '\(workload)'; available: stack, bezier, spring, presets, live, blend, render, paint, image, text, "
          + "snapshot, "
          + BatchWorkload.allCases.map(\.rawValue).joined(separator: ", "))
    }
    let n = layerCount
    guard n >= 1000 && n <= 10_000_000 else {
      throw ValidationError("--n must be an integer in 1000…10000000 (got '\(count)')")
    }
    if time != nil && times != nil {
      throw ValidationError("give either --t or --times, not both")
    }
    let ts = frameTimes
    guard !ts.isEmpty, ts.allSatisfy(\.isFinite) else {
      throw ValidationError(
        "times must be finite numbers (got '\(times ?? time.map { "\($0)" } ?? "")')")
    }
    guard threads >= 1 && threads <= 1024 else {
      throw ValidationError("--threads must be in 1…1024 (got \(threads))")
    }
    if let chunkSize, chunkSize < 1 {
      throw ValidationError("--chunk-size must be at least 1 (got \(chunkSize))")
    }
    if Self.kernelWorkloads.contains(workload) {
      // bezier and spring time one single-threaded stage kernel.
      guard path == .simd && threads == 1 && chunkSize == nil else {
        throw ValidationError(
          "'\(workload)' runs its SIMD kernel on one thread: --path simd, --threads 1, no "
            + "--chunk-size (got --path \(path.rawValue), --threads \(threads))")
      }
    }
    if workload == "live" {
      guard path == .simd, frames >= 1 else {
        throw ValidationError(
          "'live' runs the batch (--path simd) and its scalar baseline in one run; --frames ≥ 1")
      }
      if alternate == .streaming && streaming != .auto {
        throw ValidationError("--alternate streaming sets the row stores itself: drop --streaming")
      }
    } else if alternate != nil {
      throw ValidationError("--alternate applies to --workload live only")
    }
    if workload == "presets" {
      guard path == .simd || path == .scalar else {
        throw ValidationError(
          "--path \(path.rawValue) does not apply to 'presets' (simd or scalar)")
      }
      guard path == .simd || (threads == 1 && chunkSize == nil) else {
        throw ValidationError(
          "--path scalar samples on one thread: --threads and --chunk-size apply to --path simd")
      }
    }
    if batchWorkload != nil {
      try validateBatchWorkload()
    } else if workload == "blend" {
      try validateBlendWorkload()
    } else if workload == "render" {
      try validateRenderWorkload()
    } else if workload == "paint" {
      try validatePaintWorkload()
    } else if workload == "image" {
      try validateImageWorkload()
    } else if workload == "snapshot" {
      try validateSnapshotWorkload()
    } else if path == .blas {
      // Every stack layer has its own start, duration, curve and keys, so neither its keyframe
      // weights nor its matrices are shared across layers: there is no large matrix product to
      // hand to sgemm, only N independent 4×4 closed forms.
      throw ValidationError(
        "--path blas does not apply to 'stack': each layer has its own timing, keys and "
          + "matrices, so no stage is one large shared-operand matrix product (only N "
          + "independent 4×4 closed forms); use bake, children or dissolve for BLAS")
    }
    guard repeats >= 1 && repeats <= 100_000 else {
      throw ValidationError("--repeats must be in 1…100000 (got \(repeats))")
    }
    if let seconds {
      guard seconds.isFinite && seconds > 0 && seconds <= 3600 else {
        throw ValidationError("--seconds must be in (0, 3600] (got \(seconds))")
      }
    }
    if path == .naive || path == .reference, layout == .planar, layoutWasDefaulted {
      layout = .interleaved
    }
    try validateMemoryBudget()
  }

  /// Starts the shared ``BatchContext`` for `--threads`, then pins the calling thread to the first
  /// CPU of the process's affinity mask (Linux; elsewhere nothing): the context's workers take
  /// the following CPUs, so with `taskset -c 0,1` the two threads never share a core. The context
  /// is started first: its workers read the whole mask (a thread started after the pin would
  /// inherit the single CPU).
  ///
  /// Frames run back to back here, so the workers spin for up to 50 ms between them instead of
  /// sleeping after 200 µs: on a loaded machine the calling thread is often preempted for a few
  /// milliseconds, and a worker that fell asleep meanwhile misses the next frames while it wakes.
  func prepareThreads() {
    try? BatchContext.shared(threads: threads).setIdleSpinSeconds(0.05)
    var allowed = [Int32](repeating: 0, count: 1024)
    if segue_affinity_cpus(&allowed, 1024) > 1 { _ = segue_pin_current_thread(allowed[0]) }
  }

  /// Naive and reference default to interleaved output, which is what they naturally produce.
  var layoutWasDefaulted: Bool { !CommandLine.arguments.contains("--layout") }

  func run() throws {
    if threads > 1 { prepareThreads() }
    if let kind = batchWorkload { return try runBatchWorkload(kind) }
    if Self.kernelWorkloads.contains(workload) { return try runKernelWorkload() }
    if workload == "presets" { return try runPresetsWorkload() }
    if workload == "live" { return try runLiveWorkload() }
    if workload == "blend" { return try runBlendWorkload() }
    if workload == "render" { return try runRenderWorkload() }
    if workload == "paint" { return try runPaintWorkload() }
    if workload == "image" { return try runImageWorkload() }
    if workload == "text" { return try runTextWorkload() }
    if workload == "snapshot" { return try runSnapshotWorkload() }
    return try runStackWorkload()
  }
}
