// segue-bench: throughput of Segue's batch kernels on a standard workload.
//
// One pass evaluates all N layers at every requested time (one frame per time) into a
// preallocated buffer; after one untimed warm-up pass, `repeats` passes are timed (or passes are
// repeated until `--seconds` have elapsed). Reported: layer-evals/s (median and best), ns per
// layer, GB/s of output written, allocation calls per frame, the BLAS library loaded, the CPU
// features, and the workload checksum.

import ArgumentParser
import CBLAS
import Segue
import SegueBenchSupport

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
}

@main
struct SegueBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "segue-bench",
    abstract: "Measure Segue's batch evaluation throughput on a standard workload.",
    discussion: """
      Timed: evaluating all N layers at each time into a preallocated buffer (the workload's §5). \
      Not timed: generating the layers, allocating the output, computing the checksum.
      """)

  @Option(
    help:
      "The workload to run: stack; the stage kernels bezier and spring; the BLAS-shaped bake, children, dissolve; presets (scenes); or blend (compositing, see --blend)."
  )
  var workload: String = "stack"

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

  @Option(help: "Threads (≥ 1); the layers are split into chunks over Dispatch.")
  var threads: Int = 1

  @Option(help: "Evaluation path: \(BenchPath.allCases.map(\.rawValue).joined(separator: "|")).")
  var path: BenchPath = .simd

  @Option(
    help: "Output layout of the Float paths: interleaved (17 per layer) or planar (17 arrays).")
  var layout: BenchLayout = .planar

  @Option(help: "Non-temporal stores: auto (when the output exceeds 8 MB), on, off.")
  var streaming: BenchStreaming = .auto

  @Option(help: "Timed passes after one warm-up pass.")
  var repeats: Int = 5

  @Option(help: "Keep running timed passes until this many seconds have passed (for perf).")
  var seconds: Double?

  @Option(help: "Report format: text or json.")
  var format: BenchFormat = .text

  @OptionGroup(title: "Blend workload")
  var blendOptions: BlendOptions

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
        Double($0.trimmingCharacters()) ?? .nan
      }
    }
    return [time ?? 0.3]
  }

  mutating func validate() throws {
    guard
      workload == "stack" || workload == "presets" || workload == "blend"
        || Self.kernelWorkloads.contains(workload)
        || batchWorkload != nil
    else {
      throw ValidationError(
        "unknown workload '\(workload)'; available: stack, bezier, spring, presets, blend, "
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
    if batchWorkload != nil {
      try validateBatchWorkload()
    } else if workload == "blend" {
      try validateBlendWorkload()
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
  }

  /// Naive and reference default to interleaved output, which is what they naturally produce.
  var layoutWasDefaulted: Bool { !CommandLine.arguments.contains("--layout") }

  func run() throws {
    if let kind = batchWorkload { return try runBatchWorkload(kind) }
    if Self.kernelWorkloads.contains(workload) { return try runKernelWorkload() }
    if workload == "presets" { return try runPresetsWorkload() }
    if workload == "blend" { return try runBlendWorkload() }
    let n = layerCount
    let ts = frameTimes
    let batch: StackBatch
    do { batch = try StackBatch(count: n) } catch { throw ValidationError("\(error)") }

    // Output buffers, 64-byte aligned; planar stride rounded up to 16 layers.
    let stride = (n + 15) / 16 * 16
    let floatLayout: StackOutputLayout = layout == .planar ? .planar(stride: stride) : .interleaved
    let floatCount = floatLayout.requiredCount(upperBound: n)!
    let outputBytesPerFrame = Double(n * 17 * (path == .reference ? 8 : 4))
    let useStreaming: Bool
    switch streaming {
    case .on: useStreaming = true
    case .off: useStreaming = false
    case .auto: useStreaming = outputBytesPerFrame > 8 * 1024 * 1024
    }
    let floatOut = UnsafeMutableBufferPointer<Float>(
      start: UnsafeMutableRawPointer.allocate(byteCount: max(floatCount, 1) * 4, alignment: 64)
        .bindMemory(to: Float.self, capacity: max(floatCount, 1)),
      count: path == .reference ? 0 : floatCount)
    defer { floatOut.baseAddress.map { UnsafeMutableRawPointer($0).deallocate() } }
    let doubleCount = path == .reference ? 17 * n : 0
    let doubleOut = UnsafeMutableBufferPointer<Double>.allocate(capacity: max(doubleCount, 1))
    defer { doubleOut.deallocate() }
    floatOut.initialize(repeating: 0)
    doubleOut.initialize(repeating: 0)
    let scene = path == .naive ? SceneBox(StackNaiveScene(batch: batch)) : nil

    /// One frame at `t`.
    func frame(_ t: Double) throws {
      switch path {
      case .simd, .scalar:
        let job = StackEvaluationJob(
          batch: batch, time: Float(t), output: floatOut, layout: floatLayout,
          path: path == .simd ? .simd : .scalar, streamingStores: useStreaming)
        try job.run(threads: threads)
      case .naive:
        let box = scene!
        let out = Unchecked(floatOut)
        let layout = floatLayout
        try BatchThreads.forEachChunk(of: 0..<n, threads: threads) { chunk in
          try? box.scene.evaluate(time: t, range: chunk, into: out.value, layout: layout)
        }
      case .reference:
        let out = Unchecked(doubleOut)
        try BatchThreads.forEachChunk(of: 0..<n, threads: threads) { chunk in
          try? batch.evaluateReference(time: t, range: chunk, into: out.value)
        }
      case .blas:
        break
      }
    }

    // Warm-up, then timed passes.
    for t in ts { try frame(t) }
    let (passSeconds, maxAllocationsPerPass) = try timedPasses { for t in ts { try frame(t) } }
    let maxAllocationsPerFrame = maxAllocationsPerPass / UInt64(ts.count)

    // Checksums, one per time (the buffer holds the last time; recompute the others untimed).
    var checksums: [Double] = []
    for t in ts {
      try frame(t)
      if path == .reference {
        var sum = 0.0
        for i in 0..<(17 * n) { sum += doubleOut[i] }
        checksums.append(sum)
      } else {
        checksums.append(try batch.checksum(of: UnsafeBufferPointer(floatOut), layout: floatLayout))
      }
    }

    let sorted = passSeconds.sorted()
    let median =
      sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    let best = sorted[0]
    let evals = Double(n * ts.count)
    let report = Report(
      workload: workload, n: n, times: ts, threads: threads, path: path.rawValue,
      layout: path == .reference ? "interleaved-double" : layout.rawValue,
      streaming: useStreaming && (path == .simd),
      passes: passSeconds.count, medianSeconds: median, bestSeconds: best,
      layerEvalsPerSecond: evals / median, bestLayerEvalsPerSecond: evals / best,
      nsPerLayer: median / evals * 1e9,
      outputGBPerSecond: outputBytesPerFrame * Double(ts.count) / median / 1e9,
      allocationsPerFrame: segue_allocation_counting_available() != 0
        ? Int(maxAllocationsPerFrame) : nil,
      blasLibrary: loadedBLASLibrary(),
      cpuRuntime: CPUFeatures.runtime.description,
      swiftCompiledFor: CPUFeatures.compiled.description,
      checksums: checksums)
    print(format == .json ? report.json : report.text)
  }
}

/// Lets the (read-only) naive scene cross into Dispatch's workers.
final class SceneBox: @unchecked Sendable {
  let scene: StackNaiveScene
  init(_ scene: StackNaiveScene) { self.scene = scene }
}

/// A buffer pointer handed to Dispatch's workers, each of which writes only its own chunk.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Everything printed.
struct Report {
  var workload: String
  var n: Int
  var times: [Double]
  var threads: Int
  var path: String
  var layout: String
  var streaming: Bool
  var passes: Int
  var medianSeconds: Double
  var bestSeconds: Double
  var layerEvalsPerSecond: Double
  var bestLayerEvalsPerSecond: Double
  var nsPerLayer: Double
  var outputGBPerSecond: Double
  var allocationsPerFrame: Int?
  var blasLibrary: String
  var cpuRuntime: String
  var swiftCompiledFor: String
  var checksums: [Double]

  var text: String {
    let timesText = times.map { "\($0)" }.joined(separator: ",")
    return """
      workload \(workload)  n \(n)  t \(timesText)  threads \(threads)  path \(path)  \
      layout \(layout)  streaming \(streaming ? "on" : "off")
      layer-evals/s  median \(sci(layerEvalsPerSecond))  best \(sci(bestLayerEvalsPerSecond))  \
      (\(passes) timed passes)
      ns per layer   \(fixed(nsPerLayer, 3))
      output GB/s    \(fixed(outputGBPerSecond, 2))
      allocations    \(allocationsPerFrame.map { "\($0) per frame" } ?? "not counted on this platform")
      BLAS           \(blasLibrary)
      CPU (runtime)  \(cpuRuntime)
      Swift built for \(swiftCompiledFor)
      checksum       \(checksums.map { sci($0, digits: 12) }.joined(separator: " "))
      """
  }

  var json: String {
    func string(_ s: String) -> String {
      "\"" + s.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }
    func number(_ d: Double) -> String { d.isFinite ? "\(d)" : "null" }
    let fields: [(String, String)] = [
      ("workload", string(workload)),
      ("n", "\(n)"),
      ("t", number(times[0])),
      ("times", "[" + times.map(number).joined(separator: ",") + "]"),
      ("threads", "\(threads)"),
      ("path", string(path)),
      ("layout", string(layout)),
      ("streaming", "\(streaming)"),
      ("passes", "\(passes)"),
      ("medianSeconds", number(medianSeconds)),
      ("bestSeconds", number(bestSeconds)),
      ("layerEvalsPerSecond", number(layerEvalsPerSecond)),
      ("bestLayerEvalsPerSecond", number(bestLayerEvalsPerSecond)),
      ("nsPerLayer", number(nsPerLayer)),
      ("outputGBPerSecond", number(outputGBPerSecond)),
      ("allocationsPerFrame", allocationsPerFrame.map { "\($0)" } ?? "null"),
      ("blasLibrary", string(blasLibrary)),
      ("cpuRuntime", string(cpuRuntime)),
      ("swiftCompiledFor", string(swiftCompiledFor)),
      ("checksum", number(checksums[0])),
      ("checksums", "[" + checksums.map(number).joined(separator: ",") + "]"),
    ]
    return "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }
}

/// Seconds on the monotonic clock.
func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// `x` in scientific notation with `digits` significant digits (no Foundation).
func sci(_ x: Double, digits: Int = 4) -> String {
  withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
    _ = withVaList([Int32(digits - 1), x]) { vsnprintf(buffer.baseAddress!, 64, "%.*e", $0) }
    return String(cString: buffer.baseAddress!)
  }
}

/// `x` with `decimals` digits after the point.
func fixed(_ x: Double, _ decimals: Int) -> String {
  withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
    _ = withVaList([Int32(decimals), x]) { vsnprintf(buffer.baseAddress!, 64, "%.*f", $0) }
    return String(cString: buffer.baseAddress!)
  }
}

/// The shared object that provides `cblas_sdot` once it has been called: the mapped file whose name
/// contains "blas" in /proc/self/maps (Debian's alternatives pick reference BLAS or OpenBLAS).
func loadedBLASLibrary() -> String {
  let x: [Float] = [1, 2]
  let dot = cblas_sdot(2, x, 1, x, 1)
  guard dot == 5, let file = fopen("/proc/self/maps", "r") else { return "unknown" }
  defer { fclose(file) }
  var found: [String] = []
  var line: UnsafeMutablePointer<CChar>? = nil
  var capacity = 0
  defer { free(line) }
  while getline(&line, &capacity, file) > 0 {
    let text = String(cString: line!)
    guard let slash = text.firstIndex(of: "/") else { continue }
    let path = String(text[slash...].dropLast(text.hasSuffix("\n") ? 1 : 0))
    if path.lowercased().contains("blas") && !found.contains(path) { found.append(path) }
  }
  return found.isEmpty ? "none found in /proc/self/maps" : found.joined(separator: ", ")
}

extension Substring {
  /// Without leading and trailing spaces.
  func trimmingCharacters() -> Substring {
    var s = self
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return s
  }
}

extension String {
  /// Every occurrence of `target` replaced by `replacement`.
  func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for c in self { if c == target { result += replacement } else { result.append(c) } }
    return result
  }
}

// MARK: - The BLAS-shaped workloads `bake`, `children` and `dissolve` (issue 4)
//
// Each is run on the SIMD path or through `cblas_sgemm` (`--path simd|blas`). One pass is one
// `run()` of the job into a preallocated, 64-byte aligned buffer; after one untimed warm-up pass,
// `repeats` passes are timed (or passes are repeated until `--seconds`). Not timed: generating the
// inputs, building the template's weights, allocating the output, the checksum.
//
// * bake:     F frames (`--frames`) of a K-key (`--keys`) Catmull–Rom template (cubic mode,
//             even key times, easeInEaseOut) for N = `--n` layers × `--channels` C columns;
//             one eval = one layer at one frame (C values); output F·N·C floats.
// * children: M = `--n` child matrices times one parent; one eval = one child (16 floats).
// * dissolve: F = `--frames` cross-dissolve frames of two P-pixel images (P = `--n`); one eval
//             = one pixel of one frame (4 floats).

/// The BLAS-shaped workloads.
enum BatchWorkload: String, CaseIterable {
  case bake, children, dissolve
}

/// The inputs of one batch workload, generated once (not timed).
struct BatchWorkloadInputs {
  var workload: BatchWorkload
  var bake: (template: KeyframeBakeTemplate, values: BatchMatrix)?
  var children: (matrices: BatchMatrix, parent: Transform3D)?
  var dissolve: (images: BatchMatrix, fractions: [Double])?
  /// Floats written per pass.
  var outputCount: Int
  /// Evaluations per pass (layer-frames, children, pixel-frames).
  var evaluations: Int

  /// Builds the inputs from splitmix64 seeded with 42 (as the `stack` workload's generator).
  init(workload: BatchWorkload, n: Int, frames: Int, keys: Int, channels: Int) throws {
    self.workload = workload
    var state: UInt64 = 42
    func unit() -> Float {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      return Float(Double(z >> 11) * 0x1.0p-53)
    }
    do {
      switch workload {
      case .bake:
        let progress = (0..<frames).map { frames > 1 ? Double($0) / Double(frames - 1) : 0 }
        let template = try KeyframeBakeTemplate(
          keyCount: keys, calculationMode: .cubic, timingFunction: .easeInEaseOut,
          progress: progress)
        let columns = n * channels
        var elements = [Float](repeating: 0, count: keys * columns)
        for i in 0..<elements.count { elements[i] = (unit() - 0.5) * 800 }
        bake = (template, try BatchMatrix(rows: keys, columns: columns, elements: elements))
        outputCount = frames * columns
        evaluations = frames * n
      case .children:
        var elements = [Float](repeating: 0, count: 16 * n)
        for i in 0..<elements.count { elements[i] = (unit() - 0.5) * 4 }
        var parent = Transform3D.identity
        parent.m11 = 0.8
        parent.m12 = 0.6
        parent.m21 = -0.6
        parent.m22 = 0.8
        parent.m34 = -1.0 / 500
        parent.m41 = 195
        parent.m42 = 422
        children = (try BatchMatrix(rows: n, columns: 16, elements: elements), parent)
        outputCount = 16 * n
        evaluations = n
      case .dissolve:
        var elements = [Float](repeating: 0, count: 8 * n)
        for i in 0..<elements.count { elements[i] = unit() }
        let fractions = (0..<frames).map { frames > 1 ? Double($0) / Double(frames - 1) : 0.5 }
        dissolve = (try BatchMatrix(rows: 2, columns: 4 * n, elements: elements), fractions)
        outputCount = frames * 4 * n
        evaluations = frames * n
      }
    } catch {
      throw ArgumentParser.ValidationError("\(error)")
    }
  }

  /// One pass into `output`; returns the path that ran.
  func run(
    output: UnsafeMutableBufferPointer<Float>, path: BatchPath, threads: Int, streaming: Bool
  ) throws -> BatchPath {
    switch workload {
    case .bake:
      let (template, values) = bake!
      return try KeyframeBakeJob(
        template: template, values: values, output: output, path: path,
        streamingStores: streaming
      ).run(threads: threads)
    case .children:
      let (matrices, parent) = children!
      return try ChildConcatenationJob(
        children: matrices, parent: parent, output: output, path: path,
        streamingStores: streaming
      ).run(threads: threads)
    case .dissolve:
      let (images, fractions) = dissolve!
      return try FilmstripDissolveJob(
        images: images, fractions: fractions, output: output, path: path,
        streamingStores: streaming
      ).run(threads: threads)
    }
  }
}

extension SegueBench {
  /// The batch workload named by `--workload`, if it is one of this file's.
  var batchWorkload: BatchWorkload? { BatchWorkload(rawValue: workload) }

  /// Checks the options of a batch workload (called from `validate()`).
  func validateBatchWorkload() throws {
    guard frames >= 1 && frames <= 100_000 else {
      throw ValidationError("--frames must be in 1…100000 (got \(frames))")
    }
    guard keys >= 2 && keys <= 64 else {
      throw ValidationError("--keys must be in 2…64 (got \(keys))")
    }
    guard channels >= 1 && channels <= 64 else {
      throw ValidationError("--channels must be in 1…64 (got \(channels))")
    }
    switch path {
    case .simd, .blas: break
    default:
      throw ValidationError(
        "--path \(path.rawValue) does not apply to '\(workload)': use simd or blas")
    }
    if time != nil || times != nil {
      throw ValidationError("--t/--times do not apply to '\(workload)' (use --frames)")
    }
  }

  /// Runs a batch workload and prints the report.
  func runBatchWorkload(_ kind: BatchWorkload) throws {
    let inputs = try BatchWorkloadInputs(
      workload: kind, n: layerCount, frames: frames, keys: keys, channels: channels)
    let count = inputs.outputCount
    let outputBytes = Double(count * 4)
    let useStreaming: Bool
    switch streaming {
    case .on: useStreaming = true
    case .off: useStreaming = false
    case .auto: useStreaming = outputBytes > 8 * 1024 * 1024
    }
    let output = UnsafeMutableBufferPointer<Float>(
      start: UnsafeMutableRawPointer.allocate(byteCount: count * 4, alignment: 64)
        .bindMemory(to: Float.self, capacity: count),
      count: count)
    defer { UnsafeMutableRawPointer(output.baseAddress!).deallocate() }
    output.initialize(repeating: 0)
    let requested: BatchPath = path == .blas ? .blas : .simd

    func pass() throws -> BatchPath {
      do {
        return try inputs.run(
          output: output, path: requested, threads: threads, streaming: useStreaming)
      } catch {
        throw ValidationError("\(error)")
      }
    }

    var ran = try pass()  // warm-up
    let (passSeconds, maxAllocations) = try timedPasses { ran = try pass() }
    var checksum = 0.0
    for x in output { checksum += Double(x) }

    let sorted = passSeconds.sorted()
    let median =
      sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    let best = sorted[0]
    let evals = Double(inputs.evaluations)
    let report = Report(
      workload: workload, n: layerCount, times: [.nan], threads: threads, path: path.rawValue,
      layout: kind == .children ? "aos16" : "frame-major",
      streaming: useStreaming && ran == .simd,
      passes: passSeconds.count, medianSeconds: median, bestSeconds: best,
      layerEvalsPerSecond: evals / median, bestLayerEvalsPerSecond: evals / best,
      nsPerLayer: median / evals * 1e9,
      outputGBPerSecond: outputBytes / median / 1e9,
      allocationsPerFrame: segue_allocation_counting_available() != 0 ? Int(maxAllocations) : nil,
      blasLibrary: loadedBLASLibrary(),
      cpuRuntime: CPUFeatures.runtime.description,
      swiftCompiledFor: CPUFeatures.compiled.description,
      checksums: [checksum])
    let bestGB = outputBytes / best / 1e9
    let extra: [(String, String)] = [
      ("frames", kind == .children ? "1" : "\(frames)"),
      ("keys", kind == .bake ? "\(keys)" : kind == .children ? "4" : "2"),
      ("channels", kind == .bake ? "\(channels)" : kind == .children ? "16" : "4"),
      ("pathRan", "\"\(ran.rawValue)\""),
      ("bestOutputGBPerSecond", "\(bestGB)"),
      ("openblasCoretype", "\"\(environment("OPENBLAS_CORETYPE") ?? "")\""),
      ("openblasCore", openBLASCoreName().map { "\"\($0)\"" } ?? "null"),
    ]
    if format == .json {
      var json = report.json
      json.removeLast()
      print(json + "," + extra.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    } else {
      print(
        report.text.replacingOccurrences(of: "  t nan  ", with: "  ")
          + "\npath ran       \(ran.rawValue)"
          + "\nshape          frames \(extra[0].1)  keys \(extra[1].1)  channels \(extra[2].1)"
          + "\nbest GB/s      \(fixed(bestGB, 2))"
          + "\nOPENBLAS_CORETYPE \(environment("OPENBLAS_CORETYPE") ?? "(unset)")"
          + "\nOpenBLAS core \(openBLASCoreName() ?? "(not OpenBLAS)")")
    }
  }
}

/// The kernel set OpenBLAS picked (`openblas_get_corename()`, e.g. "SkylakeX" or the "Prescott"
/// that OpenBLAS 0.3.21 misdetects on this CPU), or `nil` when the loaded BLAS is not OpenBLAS.
func openBLASCoreName() -> String? {
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "openblas_get_corename") else {
    return nil
  }
  typealias CoreName = @convention(c) () -> UnsafePointer<CChar>?
  return unsafeBitCast(symbol, to: CoreName.self)().map { String(cString: $0) }
}

/// The value of an environment variable, or `nil`.
func environment(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}

extension String {
  /// Every occurrence of `target` replaced by `replacement` (no Foundation).
  func replacingOccurrences(of target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = Substring(self)
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}

// MARK: - Stage kernel workloads (bezier, spring)

extension SegueBench {
  /// Workloads that time one stage kernel on N independent lanes (single thread).
  static let kernelWorkloads: Set<String> = ["bezier", "spring"]

  /// `bezier`: N cubic-bezier solves (the four `stack` curves, lane j uses curve j mod 4, x
  /// uniform in [0, 1]); `spring`: N spring evaluations (random UI springs: response 0.1…2 s,
  /// damping ratio 0.05…2, v0 −10…10 /s; each at a random time in [0, settling duration]).
  /// Timed: the job's `run()` (validation included). Reported: evals/s (median and best of the
  /// passes) and the max |error| against the Double reference over all N lanes, same run.
  func runKernelWorkload() throws {
    let n = layerCount
    var state: UInt64 = 0x5EED
    func unit() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) * 0x1.0p-53
    }
    var input = [Float](repeating: 0, count: n)
    var output = [Float](repeating: 0, count: n)
    var reference = [Double](repeating: 0, count: n)
    let pass: () throws -> Void
    if workload == "bezier" {
      let curves: [CubicBezier] = [.easeIn, .easeOut, .easeInEaseOut, .systemDefault]
      let batch = CubicBezierBatch(curves: curves)
      let indices = (0..<n).map { UInt16($0 % 4) }
      for j in 0..<n {
        input[j] = Float(unit())
        reference[j] = curves[j % 4].solve(Double(input[j]))
      }
      pass = {
        try input.withUnsafeBufferPointer { x in
          try indices.withUnsafeBufferPointer { c in
            try output.withUnsafeMutableBufferPointer { y in
              try CubicBezierEvaluationJob(curves: batch, input: x, curveIndices: c, output: y)
                .run()
            }
          }
        }
      }
    } else {
      var springs: [Spring] = []
      springs.reserveCapacity(n)
      for j in 0..<n {
        let spring = try Spring.response(
          0.1 + 1.9 * unit(), dampingRatio: 0.05 + 1.95 * unit(),
          initialVelocity: 20 * unit() - 10, allowsOverdamping: j % 2 == 0)
        springs.append(spring)
      }
      let batch = SpringBatch(springs: springs)
      for j in 0..<n {
        input[j] = Float(min(springs[j].settlingDuration, 30) * unit())
        reference[j] = springs[j].value(at: Double(input[j]))
      }
      pass = {
        try input.withUnsafeBufferPointer { t in
          try output.withUnsafeMutableBufferPointer { x in
            try SpringEvaluationJob(springs: batch, times: t, output: x).run()
          }
        }
      }
    }
    try pass()
    let (passSeconds, _) = try timedPasses { try pass() }
    var maxError = 0.0
    for j in 0..<n { maxError = max(maxError, abs(Double(output[j]) - reference[j])) }
    let sorted = passSeconds.sorted()
    let median = sorted[sorted.count / 2]
    if format == .json {
      // The keys every workload prints (one "layer evaluation" is one kernel evaluation here),
      // then the kernel's own.
      let fields: [(String, String)] = [
        ("workload", "\"\(workload)\""), ("n", "\(n)"), ("t", "null"), ("threads", "1"),
        ("path", "\"simd\""), ("layerEvalsPerSecond", "\(Double(n) / median)"),
        ("bestLayerEvalsPerSecond", "\(Double(n) / sorted[0])"),
        ("nsPerLayer", "\(median / Double(n) * 1e9)"), ("passes", "\(sorted.count)"),
        ("maxError", "\(maxError)"),
        ("checksum", "\(output.reduce(0.0) { $0 + Double($1) })"),
        ("cpuFeatures", "\"\(CPUFeatures.runtime.description)\""),
      ]
      print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
      return
    }
    print(
      """
      workload \(workload)  n \(n)  threads 1  passes \(sorted.count)
      evals/s median \(Double(n) / median / 1e6) M  best \(Double(n) / sorted[0] / 1e6) M  \
      ns/eval \(median / Double(n) * 1e9)
      max |error| vs Double reference \(maxError)
      cpu \(CPUFeatures.runtime.description)  compiled for \(CPUFeatures.compiled.description)
      """)
  }
}

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

// MARK: - Compositing workload (blend, issue 5)
//
// `blend`: one of the `BlendKernels` over a W×H frame (W = `--width`, H = N / W, N = `--n`
// pixels, default 1920×1080 = 2 073 600), single thread, into a preallocated destination:
//
// * over8:         `overRGBA8(source, opacity:, onto: &destination)`, in place;
// * overFloat:     `overFloat(source, opacity:, onto: &destination)`, in place;
// * dissolve8:     `crossDissolveRGBA8(from, to, fraction:, into: &destination)`;
// * dissolveFloat: `crossDissolveFloat(from, to, fraction:, into: &destination)`.
//
// Inputs (not timed): splitmix64 seeded with 42; the source has a random alpha per pixel and
// colour components ≤ alpha (valid premultiplied), the destination and the dissolve images are
// random and opaque. One pass = one call (validation included); after one untimed warm-up pass,
// `repeats` passes are timed (or until `--seconds`). "over" runs in place, so later passes
// composite onto earlier results; the kernels have no data-dependent branches, so the timing does
// not depend on it. The checksum is taken after restoring the destination and running one more
// pass (so it does not depend on the number of passes), and for the RGBA8 kernels every 97th pixel
// is compared with the `Blend` reference rule (`mismatches`).
//
// Bytes moved per pixel: over reads source and destination and writes the destination (RGBA8
// 8 + 4, Float 32 + 16); dissolve reads two images and writes one (RGBA8 8 + 4, Float 32 + 16).
// The memory bound printed with it is a simple model from the single-core bandwidths measured on
// the development machine (README: ≈ 15 GB/s read, ≈ 8.5 GB/s plain store): a pass cannot take
// less than `read/15 GB/s + written/8.5 GB/s` if reads and writes do not overlap, nor less than
// `max(read/15, written/8.5)` if they overlap perfectly. On a machine with a large last-level
// cache (300 MB here) a 1080p frame fits in it, so the kernel can beat the DRAM model.

/// The compositing kernels of the `blend` workload.
enum BlendKernel: String, ExpressibleByArgument, CaseIterable {
  case over8, overFloat, dissolve8, dissolveFloat

  /// Bytes read and written per pixel.
  var bytesPerPixel: (read: Int, written: Int) {
    switch self {
    case .over8, .dissolve8: (8, 4)
    case .overFloat, .dissolveFloat: (32, 16)
    }
  }

  var isOver: Bool { self == .over8 || self == .overFloat }
}

/// The single-core bandwidths (bytes/s) of the development machine that the blend report compares
/// with (README, "Benchmarks"): reads, plain stores, streaming stores.
let blendMemoryBandwidth = (read: 15e9, store: 8.5e9, streamingStore: 20e9)

/// The options of the `blend` workload (parsed with the others, used only by it).
struct BlendOptions: ParsableArguments {
  @Option(
    help:
      "Kernel of the blend workload: \(BlendKernel.allCases.map(\.rawValue).joined(separator: "|"))."
  )
  var blend: BlendKernel = .over8

  @Option(help: "Layer opacity of the blend over kernels, in [0, 1].")
  var opacity: Double = 0.8

  @Option(help: "Eased progress q of the blend dissolve kernels, in [0, 1].")
  var fraction: Double = 0.5

  @Option(help: "Frame width W of the blend workload (N must be a multiple of W).")
  var width: Int = 1920
}

extension SegueBench {
  /// The default pixel count of `blend` when `--n` is not given (1920×1080).
  static let blendDefaultPixels = 1920 * 1080

  /// N for the blend workload: `--n`, or 1920×1080 when it was not given.
  var blendPixelCount: Int {
    CommandLine.arguments.contains(where: { $0 == "--n" || $0.hasPrefix("--n=") })
      ? layerCount : Self.blendDefaultPixels
  }

  /// Checks the options of `blend` (called from `validate()`).
  func validateBlendWorkload() throws {
    let o = blendOptions
    guard o.opacity.isFinite && o.opacity >= 0 && o.opacity <= 1 else {
      throw ValidationError("--opacity must be in [0, 1] (got \(o.opacity))")
    }
    guard o.fraction.isFinite && o.fraction >= 0 && o.fraction <= 1 else {
      throw ValidationError("--fraction must be in [0, 1] (got \(o.fraction))")
    }
    let n = blendPixelCount
    guard o.width >= 1 && o.width <= 1 << 24 else {
      throw ValidationError("--width must be in 1…16777216 (got \(o.width))")
    }
    guard n % o.width == 0 else {
      throw ValidationError(
        "--n (\(n) pixels) must be a multiple of --width (\(o.width)); e.g. --n 2073600 for "
          + "1920×1080")
    }
    guard threads == 1 else {
      throw ValidationError("--threads does not apply to 'blend' (the kernels run on one core)")
    }
    guard path == .simd else {
      throw ValidationError("--path \(path.rawValue) does not apply to 'blend' (simd only)")
    }
    if time != nil || times != nil {
      throw ValidationError("--t/--times do not apply to 'blend'")
    }
  }

  /// Runs the blend workload and prints the report.
  func runBlendWorkload() throws {
    let options = blendOptions
    let kernel = options.blend
    let n = blendPixelCount
    let width = options.width
    let height = n / width
    var state: UInt64 = 42
    func byte() -> UInt8 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return UInt8(truncatingIfNeeded: (z ^ (z >> 31)) >> 56)
    }
    /// Premultiplied pixels: a random alpha and components ≤ alpha, or opaque.
    func image(opaque: Bool) -> [UInt8] {
      var data = [UInt8](repeating: 0, count: 4 * n)
      for p in 0..<n {
        let a = opaque ? 255 : byte()
        for c in 0..<3 { data[4 * p + c] = UInt8(UInt16(byte()) * UInt16(a) / 255) }
        data[4 * p + 3] = a
      }
      return data
    }
    let first = image(opaque: !kernel.isOver)
    let second = image(opaque: true)
    let pass: () throws -> Void
    let restore: () -> Void
    let checksum: () -> Double
    var mismatches: Int? = nil
    do {
      switch kernel {
      case .over8, .dissolve8:
        let a = try PixelBufferRGBA8(width: width, height: height, components: first)
        let b = try PixelBufferRGBA8(width: width, height: height, components: second)
        var destination = kernel.isOver ? b : try PixelBufferRGBA8(width: width, height: height)
        let opacity = options.opacity
        let fraction = options.fraction
        pass =
          kernel == .over8
          ? { try BlendKernels.overRGBA8(a, opacity: opacity, onto: &destination) }
          : { try BlendKernels.crossDissolveRGBA8(a, b, fraction: fraction, into: &destination) }
        restore = { if kernel.isOver { destination = b } }
        checksum = { destination.components.reduce(0.0) { $0 + Double($1) } }
        let check: () throws -> Int = {
          let o = try Blend.opacityByte(opacity)
          let k = try Blend.dissolveWeight(fraction)
          var count = 0
          for p in Swift.stride(from: 0, to: n, by: 97) {
            func pixel(_ data: [UInt8]) -> SIMD4<UInt8> {
              SIMD4(data[4 * p], data[4 * p + 1], data[4 * p + 2], data[4 * p + 3])
            }
            let expected =
              kernel == .over8
              ? Blend.overRGBA8(pixel(first), onto: pixel(second), opacity: o)
              : Blend.crossDissolveRGBA8(pixel(first), pixel(second), weight: k)
            if pixel(destination.components) != expected { count += 1 }
          }
          return count
        }
        try pass()
        restore()
        try pass()
        mismatches = try check()
      case .overFloat, .dissolveFloat:
        let a = try PixelBufferRGBAFloat(
          width: width, height: height, components: first.map { Float($0) / 255 })
        let b = try PixelBufferRGBAFloat(
          width: width, height: height, components: second.map { Float($0) / 255 })
        var destination =
          kernel.isOver ? b : try PixelBufferRGBAFloat(width: width, height: height)
        let opacity = options.opacity
        let fraction = options.fraction
        pass =
          kernel == .overFloat
          ? { try BlendKernels.overFloat(a, opacity: opacity, onto: &destination) }
          : { try BlendKernels.crossDissolveFloat(a, b, fraction: fraction, into: &destination) }
        restore = { if kernel.isOver { destination = b } }
        checksum = { destination.components.reduce(0.0) { $0 + Double($1) } }
      }
    } catch {
      throw ValidationError("\(error)")
    }

    // Make the destination unique before timing (the first write copies it away from `b`).
    try pass()
    let (passSeconds, maxAllocations) = try timedPasses { try pass() }
    restore()
    try pass()
    let sum = checksum()

    let sorted = passSeconds.sorted()
    let median =
      sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    let best = sorted[0]
    let (readPerPixel, writtenPerPixel) = kernel.bytesPerPixel
    let read = Double(n * readPerPixel)
    let written = Double(n * writtenPerPixel)
    let bw = blendMemoryBandwidth
    // Pixel rates of the memory model: reads and writes serialised, or fully overlapped.
    let boundSerial = Double(n) / (read / bw.read + written / bw.store)
    let boundOverlap = Double(n) / max(read / bw.read, written / bw.store)
    let allocations =
      segue_allocation_counting_available() != 0 ? Int(maxAllocations) : nil
    let setting = kernel.isOver ? options.opacity : options.fraction
    let fields: [(String, String)] = [
      ("workload", "\"blend\""),
      ("blend", "\"\(kernel.rawValue)\""),
      ("n", "\(n)"),
      ("width", "\(width)"),
      ("height", "\(height)"),
      (kernel.isOver ? "opacity" : "fraction", "\(setting)"),
      ("threads", "1"),
      ("path", "\"simd\""),
      ("passes", "\(passSeconds.count)"),
      ("medianSeconds", "\(median)"),
      ("bestSeconds", "\(best)"),
      ("pixelsPerSecond", "\(Double(n) / median)"),
      ("bestPixelsPerSecond", "\(Double(n) / best)"),
      ("nsPerPixel", "\(median / Double(n) * 1e9)"),
      ("bytesReadPerPixel", "\(readPerPixel)"),
      ("bytesWrittenPerPixel", "\(writtenPerPixel)"),
      ("GBPerSecond", "\((read + written) / median / 1e9)"),
      ("bestGBPerSecond", "\((read + written) / best / 1e9)"),
      ("memoryReadGBPerSecond", "\(bw.read / 1e9)"),
      ("memoryStoreGBPerSecond", "\(bw.store / 1e9)"),
      ("memoryStreamingStoreGBPerSecond", "\(bw.streamingStore / 1e9)"),
      ("memoryBoundPixelsPerSecondSerial", "\(boundSerial)"),
      ("memoryBoundPixelsPerSecondOverlapped", "\(boundOverlap)"),
      ("allocationsPerPass", allocations.map { "\($0)" } ?? "null"),
      ("allocationsPerFrame", allocations.map { "\($0)" } ?? "null"),
      ("referenceMismatches", mismatches.map { "\($0)" } ?? "null"),
      ("cpuRuntime", "\"\(CPUFeatures.runtime.description)\""),
      ("swiftCompiledFor", "\"\(CPUFeatures.compiled.description)\""),
      ("checksum", "\(sum)"),
    ]
    if format == .json {
      print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
      return
    }
    print(
      """
      workload blend  kernel \(kernel.rawValue)  \(width)×\(height) = \(n) pixels  \
      \(kernel.isOver ? "opacity" : "fraction") \(setting)  threads 1
      pixels/s       median \(sci(Double(n) / median))  best \(sci(Double(n) / best))  \
      (\(passSeconds.count) timed passes)
      ns per pixel   \(fixed(median / Double(n) * 1e9, 3))
      GB/s moved     median \(fixed((read + written) / median / 1e9, 2))  best \
      \(fixed((read + written) / best / 1e9, 2))  (read \(readPerPixel) + written \
      \(writtenPerPixel) B/pixel)
      memory bound   \(sci(boundSerial)) pixels/s (reads then stores) … \(sci(boundOverlap)) \
      (overlapped), from ≈ \(fixed(bw.read / 1e9, 1)) GB/s read, \(fixed(bw.store / 1e9, 1)) \
      GB/s store (\(fixed(bw.streamingStore / 1e9, 0)) streaming)
      allocations    \(allocations.map { "\($0) per pass" } ?? "not counted on this platform")
      reference      \(mismatches.map { "\($0) mismatches in every 97th pixel" } ?? "not checked (Float)")
      CPU (runtime)  \(CPUFeatures.runtime.description)
      Swift built for \(CPUFeatures.compiled.description)
      checksum       \(sci(sum, digits: 12))
      """)
  }
}

extension SegueBench {
  /// Times `pass` (already warmed up by the caller) `repeats` times, or until `--seconds` have
  /// elapsed and at least `repeats` passes ran; returns each pass's seconds and the most
  /// allocation calls one pass made.
  func timedPasses(_ pass: () throws -> Void) rethrows -> (
    seconds: [Double], maxAllocations: UInt64
  ) {
    var passSeconds: [Double] = []
    var maxAllocations: UInt64 = 0
    let start = now()
    while true {
      let before = segue_allocation_count()
      let t0 = now()
      try pass()
      let t1 = now()
      maxAllocations = max(maxAllocations, segue_allocation_count() &- before)
      passSeconds.append(t1 - t0)
      if let seconds {
        if t1 - start >= seconds && passSeconds.count >= repeats { break }
      } else if passSeconds.count >= repeats {
        break
      }
    }
    return (passSeconds, maxAllocations)
  }
}
