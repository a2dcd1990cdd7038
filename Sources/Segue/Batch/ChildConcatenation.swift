import SegueSIMDSupport

/// Many children under one parent: every child's local matrix concatenated with the parent's,
/// `Cᵢ′ = Cᵢ · P` — Core Animation's row-vector order (``Transform3D/concatenating(_:)``: apply
/// the child's transform, then the parent's), in `Float`.
///
/// Layout (array of structures): child `i`'s sixteen entries `m11 … m44` (row-major, as
/// `CATransform3D` lists them) are row `i` of ``children`` (`M × 16`), and of the output:
/// `output[16·i + 4·r + c] = Σₖ children[16·i + 4·r + k] · P[k][c]`.
///
/// Viewed as a matrix the children are `4M × 4` (each child's four rows stacked), so the whole
/// batch is one product `(4M × 4) · (4 × 4)`. Paths (``BatchPath``): BLAS is one `cblas_sgemm`
/// with `m = 4M`, `n = k = 4` per chunk; SIMD computes each output row as
/// `c₀·P₀ + c₁·P₁ + c₂·P₂ + c₃·P₃` in `SIMD4<Float>` (`Pₖ` the parent's rows), summed in that
/// order without fused multiply-adds.
///
/// **Accuracy.** Against the exact product of the `Float` inputs:
/// `|out − exact| ≤ 6·2⁻²⁴·Σₖ |Cᵢ[r][k]|·|P[k][c]|` (one rounding of the parent to `Float`,
/// four in the sum and product).
public struct ChildConcatenationJob: @unchecked Sendable {
  /// The children's local matrices, `M × 16` (row `i` = `m11 … m44` of child `i`).
  public var children: BatchMatrix
  /// The parent matrix `P` (rounded to `Float` when the job runs; entries must be finite).
  public var parent: Transform3D
  /// The destination, at least `16·M` values: `output[16·i + 4·r + c]`.
  public var output: UnsafeMutableBufferPointer<Float>
  /// The path to run (default ``BatchPath/automatic``).
  public var path: BatchPath
  /// Whether the SIMD path may write whole 64-byte children with non-temporal stores (when the
  /// buffer is 64-byte aligned). The results are identical.
  public var streamingStores: Bool

  /// Creates a job; nothing is checked until ``validate()`` or ``run(threads:)``.
  public init(
    children: BatchMatrix, parent: Transform3D, output: UnsafeMutableBufferPointer<Float>,
    path: BatchPath = .automatic, streamingStores: Bool = false
  ) {
    self.children = children
    self.parent = parent
    self.output = output
    self.path = path
    self.streamingStores = streamingStores
  }

  /// Number of children `M`.
  public var childCount: Int { children.rows }

  /// The matrix product's shape: `4M × 4 × 4`.
  public var shape: BatchProductShape {
    BatchProductShape(rows: 4 * children.rows, inner: 4, columns: 4)
  }

  /// The parent's sixteen entries `m11 … m44` rounded to `Float`, in lanes 0…15.
  public var parentEntries: SIMD16<Float> {
    let p = parent
    return SIMD16<Float>(
      SIMD16<Double>(
        p.m11, p.m12, p.m13, p.m14, p.m21, p.m22, p.m23, p.m24,
        p.m31, p.m32, p.m33, p.m34, p.m41, p.m42, p.m43, p.m44))
  }

  /// Checks the job without running it.
  ///
  /// - Throws: ``ValidationError``: `"path"` ``ValidationError/Reason/invalidState(_:)`` for
  ///   ``BatchPath/blas`` in a build without BLAS; `"children.columns"`
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` unless 16; `"children.rows"`
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` when `4M` exceeds CBLAS's 32-bit
  ///   `int`; `"parent"` ``ValidationError/Reason/notFinite`` with the entry index (`0` = `m11`
  ///   … `15` = `m44`) when an entry is not finite in `Float`; `"output"`
  ///   ``ValidationError/Reason/tooFew(minimum:actual:)`` when shorter than `16·M`.
  public func validate() throws(ValidationError) {
    try path.checkAvailable()
    try Validate.count(children.columns, equals: LaneMatrix.fieldCount, "children.columns")
    guard children.rows <= BatchBLAS.maximumDimension / 4 else {
      throw ValidationError(
        field: "children.rows",
        reason: .outOfRange(lower: 1, upper: Double(BatchBLAS.maximumDimension / 4)))
    }
    let p = parentEntries
    try Validate.allFinite(p.indices.lazy.map { p[$0] }, "parent")
    try Validate.matrix(output.count, rows: children.rows, columns: LaneMatrix.fieldCount, "output")
  }

  /// Validates, then computes every child on the path ``path`` resolves to, the children split
  /// into chunks over `threads` threads.
  ///
  /// - Returns: the path that ran, ``BatchPath/simd`` or ``BatchPath/blas``.
  /// - Throws: what ``validate()`` throws, and `"threads"` ``ValidationError/Reason/notPositive``.
  @discardableResult
  public func run(threads: Int = 1) throws(ValidationError) -> BatchPath {
    try validate()
    let ran = path.resolved(for: shape)
    let job = self
    let p = parentEntries
    try BatchThreads.forEachChunk(of: 0..<children.rows, threads: threads) { chunk in
      job.runUnchecked(children: chunk, parent: p, path: ran)
    }
    return ran
  }

  /// Children `range` on `path`; validated by the caller.
  func runUnchecked(children range: Range<Int>, parent: SIMD16<Float>, path: BatchPath) {
    guard !range.isEmpty else { return }
    let fields = LaneMatrix.fieldCount
    let out = output.baseAddress! + fields * range.lowerBound
    var p = parent
    children.elements.withUnsafeBufferPointer { c in
      withUnsafeBytes(of: &p) { raw in
        let src = c.baseAddress! + fields * range.lowerBound
        if path == .blas {
          BatchBLAS.sgemm(
            m: 4 * range.count, n: 4, k: 4, a: src, lda: 4,
            b: raw.baseAddress!.assumingMemoryBound(to: Float.self), ldb: 4, c: out, ldc: 4)
          return
        }
        let p0 = parent.lowHalf.lowHalf
        let p1 = parent.lowHalf.highHalf
        let p2 = parent.highHalf.lowHalf
        let p3 = parent.highHalf.highHalf
        let streaming = streamingStores && CacheLine.isAligned(out)
        @inline(__always) func row(_ x: SIMD4<Float>) -> SIMD4<Float> {
          var r = x[0] * p0
          r += x[1] * p1
          r += x[2] * p2
          r += x[3] * p3
          return r
        }
        for i in 0..<range.count {
          let v = load16(src + fields * i)
          let result = SIMD16<Float>(
            lowHalf: SIMD8(lowHalf: row(v.lowHalf.lowHalf), highHalf: row(v.lowHalf.highHalf)),
            highHalf: SIMD8(lowHalf: row(v.highHalf.lowHalf), highHalf: row(v.highHalf.highHalf)))
          BatchOutput.store(result, at: out + fields * i, streaming: streaming)
        }
        if streaming { segue_store_fence() }
      }
    }
  }
}
