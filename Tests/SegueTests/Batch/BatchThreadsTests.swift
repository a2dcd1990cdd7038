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

  /// With workers that never sleep between frames (a long idle spin) and with workers that sleep
  /// at once (no spin: every frame wakes them), every item is still visited exactly once; more
  /// chunks than threads and fewer (the home shares of some threads are then empty).
  @Test(arguments: [0.0, 0.05])
  func everyItemOnceWithIdleSpin(seconds: Double) throws {
    let context = try BatchContext(threads: 3)
    try context.setIdleSpinSeconds(seconds)
    #expect(context.idleSpinSeconds == seconds)
    let count = 257
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: count)
    defer { counts.deallocate() }
    let shared = SharedCounts(pointer: counts)
    for chunkSize in [1, 100, 200] {
      for _ in 0..<20 {
        counts.initialize(repeating: 0, count: count)
        try context.forEachChunk(of: 0..<count, chunkSize: chunkSize) { chunk in
          for i in chunk { shared.pointer[i] += 1 }
        }
        #expect((0..<count).allSatisfy { counts[$0] == 1 }, "chunk \(chunkSize)")
      }
    }
  }

  /// The idle spin defaults to ``BatchContext/spinSeconds``; NaN, infinity and values outside
  /// `[0, 1]` seconds are rejected and leave it unchanged.
  @Test func idleSpinValidation() throws {
    let context = try BatchContext(threads: 2)
    #expect(context.idleSpinSeconds == BatchContext.spinSeconds)
    for bad in [Double.nan, .infinity] {
      #expect(throws: ValidationError(field: "idleSpinSeconds", reason: .notFinite)) {
        try context.setIdleSpinSeconds(bad)
      }
    }
    for bad in [-1e-9, 1.5] {
      #expect(
        throws: ValidationError(field: "idleSpinSeconds", reason: .outOfRange(lower: 0, upper: 1))
      ) {
        try context.setIdleSpinSeconds(bad)
      }
    }
    #expect(context.idleSpinSeconds == BatchContext.spinSeconds)
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
