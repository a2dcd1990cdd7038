import Segue
import SegueBenchSupport
import Testing

/// The stack kernel's threaded runs on ``BatchContext``.
@Suite("Stack kernel on a BatchContext")
struct StackThreadsTests {
  /// The stack job on a caller-owned context gives bitwise the output of the single-threaded
  /// `run()`, for 1–3 threads, several chunk sizes, both layouts and both paths, frame after frame.
  @Test func stackJobOnContextIsBitwiseIdentical() throws {
    let batch = try StackBatch(count: 333)
    for threads in 1...3 {
      let context = try BatchContext(threads: threads)
      for path in StackKernelPath.allCases {
        for layout in [StackOutputLayout.interleaved, .planar(stride: 336)] {
          let base = try stackRun(batch, time: 0.3, path: path, layout: layout).map(\.bitPattern)
          for chunk in [nil, 1, 16, 100] as [Int?] {
            var out = [Float](repeating: -7, count: layout.requiredCount(upperBound: 333)!)
            for _ in 0..<2 {
              try out.withUnsafeMutableBufferPointer { buffer throws(ValidationError) in
                try StackEvaluationJob(
                  batch: batch, time: 0.3, output: buffer, layout: layout, path: path
                ).run(context: context, chunkSize: chunk)
              }
            }
            #expect(out.map(\.bitPattern) == base, "\(threads) \(path) \(layout) \(chunk ?? 0)")
          }
        }
      }
    }
  }

  /// `run(context:)` validates like `run()`: a non-finite time is rejected before any work.
  @Test func stackJobOnContextValidates() throws {
    let batch = try StackBatch(count: 20)
    let context = try BatchContext(threads: 2)
    var out = [Float](repeating: 0, count: 17 * 20)
    #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
      try out.withUnsafeMutableBufferPointer { buffer throws(ValidationError) in
        try StackEvaluationJob(batch: batch, time: .nan, output: buffer).run(context: context)
      }
    }
  }
}
