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
}
