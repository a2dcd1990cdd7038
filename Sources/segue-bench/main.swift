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
    help: "The workload to run: stack, the stage kernels bezier and spring, or presets (scenes).")
  var workload: String = "stack"

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
    guard workload == "stack" || workload == "presets" || Self.kernelWorkloads.contains(workload)
    else {
      throw ValidationError(
        "unknown workload '\(workload)'; available: stack, bezier, spring, presets")
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
    if path == .blas {
      throw ValidationError(
        "--path blas is reserved for the BLAS composition path and not implemented yet")
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
    if Self.kernelWorkloads.contains(workload) { return try runKernelWorkload() }
    if workload == "presets" { return try runPresetsWorkload() }
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
    var passSeconds: [Double] = []
    var maxAllocationsPerFrame: UInt64 = 0
    let start = now()
    while true {
      let before = segue_allocation_count()
      let t0 = now()
      for t in ts { try frame(t) }
      let t1 = now()
      let after = segue_allocation_count()
      passSeconds.append(t1 - t0)
      maxAllocationsPerFrame = max(maxAllocationsPerFrame, (after &- before) / UInt64(ts.count))
      if let seconds {
        if t1 - start >= seconds && passSeconds.count >= repeats { break }
      } else if passSeconds.count >= repeats {
        break
      }
    }

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
    var passSeconds: [Double] = []
    let start = now()
    while true {
      let t0 = now()
      try pass()
      let t1 = now()
      passSeconds.append(t1 - t0)
      if let seconds {
        if t1 - start >= seconds && passSeconds.count >= repeats { break }
      } else if passSeconds.count >= repeats {
        break
      }
    }
    var maxError = 0.0
    for j in 0..<n { maxError = max(maxError, abs(Double(output[j]) - reference[j])) }
    let sorted = passSeconds.sorted()
    let median = sorted[sorted.count / 2]
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
    var passSeconds: [Double] = []
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
    let start = now()
    while true {
      let t0 = now()
      try pass()
      let t1 = now()
      passSeconds.append(t1 - t0)
      if let seconds {
        if t1 - start >= seconds && passSeconds.count >= repeats { break }
      } else if passSeconds.count >= repeats {
        break
      }
    }
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
      """)
  }
}
