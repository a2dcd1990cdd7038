import SegueSIMDSupport

/// A cross-dissolve filmstrip: `F` frames of CATransition `fade` between two premultiplied `Float`
/// images of `P` pixels, frame `f` being `(1 − q_f)·A + q_f·B`
/// (``Blend/crossDissolve(_:_:fraction:)`` at the eased progress `q_f`).
///
/// Layout: ``images`` is `2 × 4P` (row 0 = `A`, the old content; row 1 = `B`, the new content;
/// `R, G, B, A` per pixel), the output `F × 4P` with frame `f`, component `i` at
/// `output[f·4P + i]`. As a matrix product it is `(F × 2) · (2 × 4P)`, the weight rows being
/// `[1 − q_f, q_f]` with `q = Float(q_f)` and `1 − q` computed in `Float`.
///
/// Paths (``BatchPath``):
/// * SIMD: per component `clamp((1 − q)·a + q·b, 0, 1)` in `Float` — the rule of
///   ``BlendKernels/crossDissolveFloat(_:_:fraction:into:)``, bit for bit — over pixel tiles of
///   1024 components, so each tile of `A` and `B` is read from memory once for all frames;
/// * BLAS: one `cblas_sgemm` per chunk. It does not clamp, and needs not: for `a, b ∈ [0, 1]`
///   rounding is monotone and `fl(1 − q) + q` rounds to exactly 1, so each result stays in
///   `[0, 1]`; it may differ from the SIMD result by one rounding (`≤ 2⁻²⁴`) when the library
///   fuses the multiply-add.
public struct FilmstripDissolveJob: @unchecked Sendable {
  /// The two images stacked, `2 × 4P` (``stacking(from:to:)`` builds it from pixel buffers).
  public var images: BatchMatrix
  /// The eased progress `q_f` of each frame, unitless, in `[0, 1]`; `F ≥ 1` entries.
  public var fractions: [Double]
  /// The destination, at least `F·4P` values.
  public var output: UnsafeMutableBufferPointer<Float>
  /// The path to run (default ``BatchPath/automatic``).
  public var path: BatchPath
  /// Whether the SIMD path may use non-temporal stores (when `4P` is a multiple of 16 and the
  /// buffer is 64-byte aligned). The results are identical.
  public var streamingStores: Bool

  /// Creates a job; nothing is checked until ``validate()`` or ``run(threads:)``.
  public init(
    images: BatchMatrix, fractions: [Double], output: UnsafeMutableBufferPointer<Float>,
    path: BatchPath = .automatic, streamingStores: Bool = false
  ) {
    self.images = images
    self.fractions = fractions
    self.output = output
    self.path = path
    self.streamingStores = streamingStores
  }

  /// The two images' pixels (row padding dropped) stacked into the `2 × 4P` matrix ``images``
  /// expects, `P = width·height`.
  ///
  /// - Throws: ``ValidationError``: `"path"` ``ValidationError/Reason/invalidState(_:)`` for
  ///   ``BatchPath/blas`` in a build without BLAS; `"to.width"` / `"to.height"`
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` when the sizes differ;
  ///   `"from.width"` ``ValidationError/Reason/notPositive`` for an empty image.
  public static func stacking(from: PixelBufferRGBAFloat, to: PixelBufferRGBAFloat)
    throws(ValidationError) -> BatchMatrix
  {
    try from.checkSameSize(as: to, "to")
    guard from.width > 0 && from.height > 0 else {
      throw ValidationError(field: "from.width", reason: .notPositive)
    }
    let row = 4 * from.width
    let n = row * from.height
    var elements = [Float](repeating: 0, count: 2 * n)
    for (r, image) in [from, to].enumerated() {
      for y in 0..<image.height {
        for i in 0..<row { elements[r * n + y * row + i] = image.components[y * image.stride + i] }
      }
    }
    return try BatchMatrix(rows: 2, columns: n, elements: elements)
  }

  /// Number of frames `F`.
  public var frameCount: Int { fractions.count }

  /// The matrix product's shape: `F × 2 × 4P`.
  public var shape: BatchProductShape {
    BatchProductShape(rows: fractions.count, inner: 2, columns: images.columns)
  }

  /// The `F × 2` weight rows `[1 − q, q]`, `q = Float(q_f)`, row-major.
  public var weights: [Float] {
    var w = [Float](repeating: 0, count: 2 * fractions.count)
    w.withUnsafeMutableBufferPointer { fillWeights($0) }
    return w
  }

  /// Writes ``weights`` into `w` (`2F` entries).
  func fillWeights(_ w: UnsafeMutableBufferPointer<Float>) {
    for (f, fraction) in fractions.enumerated() {
      let q = Float(fraction)
      w[2 * f] = 1 - q
      w[2 * f + 1] = q
    }
  }

  /// Checks the job without running it.
  ///
  /// - Throws: ``ValidationError``: `"images.rows"`
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` unless 2; `"images.columns"`
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` when `4P` exceeds CBLAS's 32-bit
  ///   `int`; `"fractions"` ``ValidationError/Reason/tooFew(minimum:actual:)`` when empty, or
  ///   ``ValidationError/Reason/notFinite`` / ``ValidationError/Reason/outOfRange(lower:upper:)``
  ///   with the frame index; `"output"` ``ValidationError/Reason/tooFew(minimum:actual:)``.
  public func validate() throws(ValidationError) {
    try path.checkAvailable()
    try Validate.count(images.rows, equals: 2, "images.rows")
    try BatchBLAS.checkDimension(images.columns, "images.columns")
    try Validate.count(fractions.count, atLeast: 1, "fractions")
    try BatchBLAS.checkDimension(fractions.count, "fractions")
    for (f, q) in fractions.enumerated() { try Validate.inRange(q, 0, 1, "fractions", index: f) }
    try Validate.matrix(output.count, rows: fractions.count, columns: images.columns, "output")
  }

  /// Validates, then computes every frame on the path ``path`` resolves to, the components split
  /// into chunks (multiples of 16) over `threads` threads.
  ///
  /// - Returns: the path that ran, ``BatchPath/simd`` or ``BatchPath/blas``.
  /// - Throws: what ``validate()`` throws, and `"threads"` ``ValidationError/Reason/notPositive``.
  @discardableResult
  public func run(threads: Int = 1) throws(ValidationError) -> BatchPath {
    try validate()
    let ran = path.resolved(for: shape)
    let job = self
    // The weights on the stack (no allocation for a few thousand frames).
    try withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * fractions.count) {
      buffer throws(ValidationError) in
      job.fillWeights(buffer)
      let w = ReadOnlyFloats(buffer: UnsafeBufferPointer(buffer))
      try BatchThreads.forEachChunk(of: 0..<images.columns, threads: threads) { chunk in
        job.runUnchecked(columns: chunk, weights: w.buffer, path: ran)
      }
    }
    return ran
  }

  /// Components per tile of the SIMD path.
  static let tileColumns = 1024

  /// Components `columns` of every frame on `path`; validated by the caller.
  func runUnchecked(columns: Range<Int>, weights wb: UnsafeBufferPointer<Float>, path: BatchPath) {
    guard !columns.isEmpty else { return }
    let n = images.columns
    let frames = fractions.count
    let out = output.baseAddress!
    do {
      images.elements.withUnsafeBufferPointer { ib in
        let w = wb.baseAddress!
        let a = ib.baseAddress!
        let b = a + n
        if path == .blas {
          BatchBLAS.sgemm(
            m: frames, n: columns.count, k: 2, a: w, lda: 2, b: a + columns.lowerBound, ldb: n,
            c: out + columns.lowerBound, ldc: n)
          return
        }
        let width = BatchOutput.vectorWidth
        let streaming =
          streamingStores && n % width == 0 && columns.lowerBound % width == 0
          && CacheLine.isAligned(out)
        let zero = SIMD16<Float>(repeating: 0)
        let one = SIMD16<Float>(repeating: 1)
        var tileStart = columns.lowerBound
        while tileStart < columns.upperBound {
          let tileEnd = Swift.min(tileStart + Self.tileColumns, columns.upperBound)
          let vectorEnd = tileStart + (tileEnd - tileStart) / width * width
          for f in 0..<frames {
            let p = w[2 * f]
            let q = w[2 * f + 1]
            let dst = out + f * n
            var j = tileStart
            while j < vectorEnd {
              var v = p * load16(a + j) + q * load16(b + j)
              // clamp to [0, 1] through the C shim's blend (`clamped` is a per-lane loop here).
              v = SIMDMath.select(v .< zero, zero, v)
              v = SIMDMath.select(v .> one, one, v)
              BatchOutput.store(v, at: dst + j, streaming: streaming)
              j += width
            }
            while j < tileEnd {
              dst[j] = Swift.min(Swift.max(p * a[j] + q * b[j], 0), 1)
              j += 1
            }
          }
          tileStart = tileEnd
        }
        if streaming { segue_store_fence() }
      }
    }
  }
}

/// Read-only floats shared with the worker threads (which only read them).
private struct ReadOnlyFloats: @unchecked Sendable {
  let buffer: UnsafeBufferPointer<Float>
}
