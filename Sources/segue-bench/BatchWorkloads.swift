import ArgumentParser
import Segue
import SegueBenchSupport
import SegueMallocCounter

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// MARK: - The BLAS-shaped workloads `bake`, `children` and `dissolve`
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
    let output = alignedFloats(count)
    defer { output.deallocate() }
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
      allocationsPerFrame: nil,
      allocationsPerPass: segue_allocation_counting_available() != 0 ? Int(maxAllocations) : nil,
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
