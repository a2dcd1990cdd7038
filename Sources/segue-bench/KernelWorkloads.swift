import ArgumentParser
import Segue
import SegueBenchSupport
import SegueMallocCounter

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
      var springs: [DampedSpring] = []
      springs.reserveCapacity(n)
      for j in 0..<n {
        let spring = try DampedSpring.response(
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
