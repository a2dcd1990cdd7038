// What segue-bench prints, and the helpers every workload shares.

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
  /// The most allocation calls of one frame, counted frame by frame (nil: not counted, or the
  /// workload's pass is one call covering every frame).
  var allocationsPerFrame: Int?
  /// The most allocation calls of one timed pass (nil when not counted).
  var allocationsPerPass: Int?
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
      allocations    \(allocationsText)
      BLAS           \(blasLibrary)
      CPU (runtime)  \(cpuRuntime)
      Swift built for \(swiftCompiledFor)
      checksum       \(checksums.map { sci($0, digits: 12) }.joined(separator: " "))
      """
  }

  /// The allocation line: per frame when counted frame by frame, else per pass.
  var allocationsText: String {
    if let allocationsPerFrame {
      return "\(allocationsPerFrame) per frame (most in one frame)"
        + (allocationsPerPass.map { ", \($0) per pass" } ?? "")
    }
    return allocationsPerPass.map { "\($0) per pass (one call covers every frame)" }
      ?? "not counted on this platform"
  }

  var json: String {
    func string(_ s: String) -> String {
      "\"" + s.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }
    let fields: [(String, String)] = [
      ("workload", string(workload)),
      ("n", "\(n)"),
      ("t", jsonNumber(times[0])),
      ("times", "[" + times.map(jsonNumber).joined(separator: ",") + "]"),
      ("threads", "\(threads)"),
      ("path", string(path)),
      ("layout", string(layout)),
      ("streaming", "\(streaming)"),
      ("passes", "\(passes)"),
      ("medianSeconds", jsonNumber(medianSeconds)),
      ("bestSeconds", jsonNumber(bestSeconds)),
      ("layerEvalsPerSecond", jsonNumber(layerEvalsPerSecond)),
      ("bestLayerEvalsPerSecond", jsonNumber(bestLayerEvalsPerSecond)),
      ("nsPerLayer", jsonNumber(nsPerLayer)),
      ("outputGBPerSecond", jsonNumber(outputGBPerSecond)),
      ("allocationsPerFrame", allocationsPerFrame.map { "\($0)" } ?? "null"),
      ("allocationsPerPass", allocationsPerPass.map { "\($0)" } ?? "null"),
      ("blasLibrary", string(blasLibrary)),
      ("cpuRuntime", string(cpuRuntime)),
      ("swiftCompiledFor", string(swiftCompiledFor)),
      ("checksum", jsonNumber(checksums[0])),
      ("checksums", "[" + checksums.map(jsonNumber).joined(separator: ",") + "]"),
    ]
    return "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }
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

/// The BLAS shared objects loaded in this process (``BatchPath/loadedBLASLibraries``), for the
/// report.
func loadedBLASLibrary() -> String {
  guard BatchPath.isBLASAvailable else { return "none (built without the BLAS trait)" }
  let found = BatchPath.loadedBLASLibraries
  return found.isEmpty ? "none found in /proc/self/maps" : found.joined(separator: ", ")
}

extension String {
  /// Every occurrence of `target` replaced by `replacement`.
  func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for c in self { if c == target { result += replacement } else { result.append(c) } }
    return result
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
    let start = monotonicSeconds()
    while true {
      let before = segue_allocation_count()
      let t0 = monotonicSeconds()
      try pass()
      let t1 = monotonicSeconds()
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

/// `d` as a JSON number, `null` when it is not finite (JSON has no NaN or infinity).
func jsonNumber(_ d: Double) -> String { d.isFinite ? "\(d)" : "null" }
