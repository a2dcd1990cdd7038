import Testing

@testable import Segue

/// The paths the matrix-product jobs can run in this build: both with the `BLAS` trait (the
/// package default), only SIMD without it.
let availableBatchPaths: [BatchPath] = BatchPath.isBLASAvailable ? [.simd, .blas] : [.simd]

/// ``BatchPath/blas`` in a build with BLAS, ``BatchPath/simd`` without (for the tests that compare
/// the two paths or check validation order on the BLAS path).
let blasWhereAvailable: BatchPath = BatchPath.isBLASAvailable ? .blas : .simd

@Suite("BatchPath rule and BatchMatrix")
struct BatchPathTests {
  /// The documented rule: BLAS only with an optimised BLAS and inner ≥ 32.
  @Test func ruleByShape() {
    let bake8 = BatchProductShape(rows: 60, inner: 8, columns: 1_000_000)
    let children = BatchProductShape(rows: 4_000_000, inner: 4, columns: 4)
    let dissolve = BatchProductShape(rows: 60, inner: 2, columns: 8_294_400)
    let bake31 = BatchProductShape(rows: 60, inner: 31, columns: 1000)
    let bake32 = BatchProductShape(rows: 60, inner: 32, columns: 1000)
    for shape in [bake8, children, dissolve, bake31, bake32] {
      #expect(shape.preferredPath(optimizedBLAS: false) == .simd)
    }
    for shape in [bake8, children, dissolve, bake31] {
      #expect(shape.preferredPath(optimizedBLAS: true) == .simd)
    }
    #expect(bake32.preferredPath(optimizedBLAS: true) == .blas)
  }

  /// Explicit paths are kept; automatic resolves to the rule's choice for the loaded library.
  @Test func resolution() {
    let big = BatchProductShape(rows: 100, inner: 100, columns: 100)
    let small = BatchProductShape(rows: 100, inner: 4, columns: 100)
    let optimized = BatchPath.optimizedBLASLoaded
    #expect(BatchPath.automatic.resolved(for: big) == (optimized ? .blas : .simd))
    #expect(BatchPath.automatic.resolved(for: small) == .simd)
    #expect(BatchPath.simd.resolved(for: big) == .simd)
    #expect(BatchPath.blas.resolved(for: small) == .blas)
  }

  /// Without the `BLAS` trait an explicit `.blas` is a typed error naming the path, and
  /// `.automatic` runs SIMD; with it, `.blas` runs BLAS.
  @Test func blasPathFollowsTheTrait() throws {
    let template = try KeyframeBakeTemplate(keyCount: 2, progress: [0.5])
    let values = try BatchMatrix(rows: 2, columns: 1, elements: [0, 2])
    var out = [Float](repeating: 0, count: 1)
    try out.withUnsafeMutableBufferPointer { buffer throws in
      let job = KeyframeBakeJob(template: template, values: values, output: buffer, path: .blas)
      if BatchPath.isBLASAvailable {
        #expect(try job.run() == .blas)
      } else {
        #expect(BatchPath.loadedBLASLibraries.isEmpty)
        #expect(
          throws: ValidationError(
            field: "path",
            reason: .invalidState(
              "is blas, but this build of Segue has no BLAS (the package trait BLAS is off)"))
        ) { try job.run() }
        var automatic = job
        automatic.path = .automatic
        #expect(try automatic.run() == .simd)
      }
    }
    #expect(out == [1])
  }

  @Test func zeroRowsAreRejected() {
    #expect(throws: ValidationError(field: "rows", reason: .notPositive)) {
      try BatchMatrix(rows: 0, columns: 1, elements: [])
    }
  }

  @Test func negativeColumnsAreRejected() {
    #expect(throws: ValidationError(field: "columns", reason: .notPositive)) {
      try BatchMatrix(rows: 1, columns: -1, elements: [])
    }
  }

  @Test func elementCountMismatchIsRejected() {
    #expect(
      throws: ValidationError(field: "elements", reason: .countMismatch(expected: 6, actual: 5))
    ) { try BatchMatrix(rows: 2, columns: 3, elements: [1, 2, 3, 4, 5]) }
  }

  @Test func overflowingSizeIsRejected() {
    #expect(
      throws: ValidationError(
        field: "elements", reason: .countMismatch(expected: Int.max, actual: 0))
    ) { try BatchMatrix(rows: Int.max / 2, columns: 3, elements: []) }
  }

  /// A NaN past the first sixteen (found by the vector scan, then located exactly).
  @Test func nanElementIsRejectedWithIndex() {
    var e = [Float](repeating: 1, count: 40)
    e[37] = .nan
    #expect(throws: ValidationError(field: "elements", index: 37, reason: .notFinite)) {
      try BatchMatrix(rows: 4, columns: 10, elements: e)
    }
  }

  @Test func infiniteElementIsRejectedWithIndex() {
    var e = [Float](repeating: 1, count: 6)
    e[2] = -.infinity
    #expect(throws: ValidationError(field: "elements", index: 2, reason: .notFinite)) {
      try BatchMatrix(rows: 2, columns: 3, elements: e)
    }
  }

  /// 1e39 is finite as a Double but rounds to infinity as a Float.
  @Test func doubleOverflowingFloatIsRejected() {
    #expect(throws: ValidationError(field: "elements", index: 1, reason: .notFinite)) {
      try BatchMatrix(rows: 1, columns: 2, doubles: [0, 1e39])
    }
  }
}
