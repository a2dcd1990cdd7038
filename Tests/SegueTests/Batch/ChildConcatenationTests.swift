import PropertyBased
import Testing

@testable import Segue

/// Runs a children job into a fresh buffer.
func runChildren(
  _ children: BatchMatrix, parent: Transform3D, path: BatchPath, threads: Int = 1,
  streaming: Bool = false, outputCount: Int? = nil
) throws -> (out: [Float], ran: BatchPath) {
  var out = [Float](repeating: -7, count: outputCount ?? 16 * children.rows)
  var ran = BatchPath.automatic
  try out.withUnsafeMutableBufferPointer { buffer throws(ValidationError) in
    let job = ChildConcatenationJob(
      children: children, parent: parent, output: buffer, path: path, streamingStores: streaming)
    ran = try job.run(threads: threads)
  }
  return (out, ran)
}

@Suite("Children under one parent (SIMD and BLAS)")
struct ChildConcatenationTests {
  /// Worked by hand, in CA's row-vector order `child · parent` (apply the child, then the parent):
  /// child 0 = scale 3, parent = translation (10, 0, 0) → diagonal (3, 3, 3, 1) and m41 = 10 (the
  /// other order would give m41 = 30); child 1 = translation (1, 2, 3) → row 4 = [1, 2, 3, 1]·P =
  /// [11, 2, 3, 1], the rest identity.
  @Test(arguments: availableBatchPaths)
  func childTimesParentByHand(path: BatchPath) throws {
    let scale: [Float] = [3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1]
    let move: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]
    var parent = Transform3D.identity
    parent.m41 = 10
    let children = try BatchMatrix(rows: 2, columns: 16, elements: scale + move)
    let (out, ran) = try runChildren(children, parent: parent, path: path)
    #expect(ran == path)
    #expect(Array(out[0..<16]) == [3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 3, 0, 10, 0, 0, 1])
    #expect(Array(out[16..<32]) == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 11, 2, 3, 1])
  }

  /// Both paths against ``Transform3D/concatenating(_:)`` in `Double` on the same (Float-exact)
  /// entries in [−2, 2], parent entries in [−2, 2]: within the documented bound
  /// `6·2⁻²⁴·Σₖ |C[r][k]||P[k][c]|` (≤ 6·2⁻²⁴·16 for these ranges).
  @Test func bothPathsMatchTransformConcatenation() async throws {
    await propertyCheck(count: 100, input: Gen.int(in: 0...1_000_000), Gen.int(in: 1...40)) {
      seed, m in
      var rng = BatchTestRandom(state: UInt64(seed))
      let entries = (0..<(16 * m)).map { _ in rng.float(-2, 2) }
      let parent = try! Transform3D(fields: (0..<16).map { _ in rng.float(-2, 2) })
      let children = try! BatchMatrix(rows: m, columns: 16, doubles: entries)
      for path in availableBatchPaths {
        let out = try! runChildren(children, parent: parent, path: path).out
        for i in 0..<m {
          let child = try! Transform3D(fields: Array(entries[(16 * i)..<(16 * i + 16)]))
          let exact = child.concatenating(parent).fields
          for e in 0..<16 {
            #expect(
              abs(Double(out[16 * i + e]) - exact[e]) <= 6 * 0x1p-24 * 16, "\(path) \(i) \(e)")
          }
        }
      }
    }
  }

  /// Threads and streaming stores leave the SIMD output bitwise unchanged.
  @Test func threadsAndStreamingDoNotChangeResults() throws {
    var rng = BatchTestRandom(state: 3)
    let m = 203
    let children = try BatchMatrix(
      rows: m, columns: 16, elements: (0..<(16 * m)).map { _ in Float(rng.next(-5, 5)) })
    let parent = try Transform3D(fields: (0..<16).map { _ in rng.next(-1, 1) })
    let one = try runChildren(children, parent: parent, path: .simd).out
    #expect(try runChildren(children, parent: parent, path: .simd, threads: 2).out == one)
    #expect(try runChildren(children, parent: parent, path: .simd, streaming: true).out == one)
    let blas = try runChildren(children, parent: parent, path: blasWhereAvailable).out
    #expect(
      try runChildren(children, parent: parent, path: blasWhereAvailable, threads: 2).out == blas)
  }

  /// Inner dimension 4: the rule picks SIMD.
  @Test func automaticPicksSIMD() throws {
    let children = try BatchMatrix(
      rows: 1, columns: 16, elements: Transform3D.identity.fields.map { Float($0) })
    #expect(try runChildren(children, parent: .identity, path: .automatic).ran == .simd)
  }

  // MARK: Rejected input

  @Test func wrongColumnCountIsRejected() throws {
    let children = try BatchMatrix(rows: 2, columns: 8, elements: [Float](repeating: 0, count: 16))
    #expect(
      throws: ValidationError(
        field: "children.columns", reason: .countMismatch(expected: 16, actual: 8))
    ) { try runChildren(children, parent: .identity, path: .simd, outputCount: 32) }
  }

  @Test func nanParentIsRejected() throws {
    let children = try BatchMatrix(rows: 1, columns: 16, elements: [Float](repeating: 0, count: 16))
    var parent = Transform3D.identity
    parent.m23 = .nan
    #expect(throws: ValidationError(field: "parent", index: 6, reason: .notFinite)) {
      try runChildren(children, parent: parent, path: blasWhereAvailable)
    }
  }

  /// A parent entry finite in Double but beyond Float's range is not finite once rounded.
  @Test func parentOverflowingFloatIsRejected() throws {
    let children = try BatchMatrix(rows: 1, columns: 16, elements: [Float](repeating: 0, count: 16))
    var parent = Transform3D.identity
    parent.m44 = 1e300
    #expect(throws: ValidationError(field: "parent", index: 15, reason: .notFinite)) {
      try runChildren(children, parent: parent, path: .simd)
    }
  }

  @Test func shortOutputIsRejected() throws {
    let children = try BatchMatrix(rows: 2, columns: 16, elements: [Float](repeating: 0, count: 32))
    #expect(throws: ValidationError(field: "output", reason: .tooFew(minimum: 32, actual: 31))) {
      try runChildren(children, parent: .identity, path: .simd, outputCount: 31)
    }
  }
}
