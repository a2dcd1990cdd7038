import Testing

@testable import Segue

/// A buffer that chunks running on several threads write disjoint parts of.
private struct SharedCounts: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<Int>
}

/// The caller-owned worker context: coverage of the chunks, nesting, validation, and the stack
/// job run on it.
@Suite("BatchContext: persistent workers")
struct BatchThreadsTests {
  /// Every item of the range is visited exactly once, for several thread counts and chunk sizes
  /// (including a range that does not start at 0 and a last chunk that is shorter), and repeated
  /// calls on the same context keep working.
  @Test(arguments: [1, 2, 3, 4])
  func everyItemOnce(threads: Int) throws {
    let context = try BatchContext(threads: threads)
    let count = 1000
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: count)
    defer { counts.deallocate() }
    let shared = SharedCounts(pointer: counts)
    for chunkSize in [nil, 1, 7, 64, 999, 5000] as [Int?] {
      for _ in 0..<3 {
        counts.initialize(repeating: 0, count: count)
        try context.forEachChunk(of: 3..<count, chunkSize: chunkSize) { chunk in
          for i in chunk { shared.pointer[i] += 1 }
        }
        #expect(counts[0] == 0 && counts[1] == 0 && counts[2] == 0)
        #expect((3..<count).allSatisfy { counts[$0] == 1 }, "chunk \(chunkSize ?? 0)")
      }
    }
  }

  /// A call made from inside a chunk of the same context (the context is busy) still runs every
  /// chunk (through the fallback) instead of deadlocking.
  @Test func nestedCallCompletes() throws {
    let context = try BatchContext(threads: 2)
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: 64 * 64)
    defer { counts.deallocate() }
    counts.initialize(repeating: 0, count: 64 * 64)
    let shared = SharedCounts(pointer: counts)
    try context.forEachChunk(of: 0..<64, chunkSize: 1) { outer in
      try? context.forEachChunk(of: 0..<64, chunkSize: 8) { inner in
        for i in inner { shared.pointer[64 * outer.lowerBound + i] += 1 }
      }
    }
    #expect((0..<(64 * 64)).allSatisfy { counts[$0] == 1 })
  }

  @Test func rejectsZeroThreads() {
    #expect(throws: ValidationError(field: "threads", reason: .notPositive)) {
      _ = try BatchContext(threads: 0)
    }
  }

  @Test func rejectsTooManyThreads() {
    #expect(throws: ValidationError(field: "threads", reason: .outOfRange(lower: 1, upper: 1024))) {
      _ = try BatchContext(threads: 1025)
    }
  }

  @Test func rejectsZeroChunkSize() throws {
    let context = try BatchContext(threads: 2)
    #expect(throws: ValidationError(field: "chunkSize", reason: .notPositive)) {
      try context.forEachChunk(of: 0..<10, chunkSize: 0) { _ in }
    }
  }

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
