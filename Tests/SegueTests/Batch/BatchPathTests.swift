import Testing

@testable import Segue

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
