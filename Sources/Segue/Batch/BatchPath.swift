import CBLAS
import SegueSIMDSupport

/// Which implementation a BLAS-shaped batch job runs: ``KeyframeBakeJob``,
/// ``ChildConcatenationJob`` and ``FilmstripDissolveJob`` are each one matrix product
/// `C (m × n) = A (m × k) · B (k × n)` in `Float`, which either a Swift SIMD loop or one
/// `cblas_sgemm` call computes.
///
/// A job's `run` returns the path that actually ran (``simd`` or ``blas``, never ``automatic``),
/// so the caller can see which one it got.
public enum BatchPath: String, Hashable, Sendable, CaseIterable {
  /// Swift `SIMD16<Float>` loops, tiled so the inputs are read from memory once.
  case simd
  /// One `cblas_sgemm` per chunk through the `CBLAS` system library (reference BLAS or whatever
  /// library provides `libblas.so.3` at run time, e.g. OpenBLAS).
  case blas
  /// Chosen per shape by ``BatchProductShape/preferredPath``.
  case automatic

  /// `self`, with ``automatic`` replaced by the rule's choice for `shape`.
  public func resolved(for shape: BatchProductShape) -> BatchPath {
    self == .automatic ? shape.preferredPath : self
  }
}

/// The shape of a batch job's matrix product `C (rows × columns) = A (rows × inner) · B (inner ×
/// columns)`, which is what the path rule looks at.
///
/// * keyframe bake: `rows` = frames `F`, `inner` = keys `K`, `columns` = layers × channels;
/// * children under a parent: `rows` = `4·M` (each child's four matrix rows), `inner` = 4,
///   `columns` = 4;
/// * cross-dissolve filmstrip: `rows` = frames `F`, `inner` = 2, `columns` = `4·P`.
public struct BatchProductShape: Hashable, Sendable {
  /// `m`, the number of output rows, `≥ 1`.
  public var rows: Int
  /// `k`, the inner dimension, `≥ 1`.
  public var inner: Int
  /// `n`, the number of output columns, `≥ 1`.
  public var columns: Int

  /// Creates a shape.
  public init(rows: Int, inner: Int, columns: Int) {
    self.rows = rows
    self.inner = inner
    self.columns = columns
  }

  /// Inner dimension from which ``preferredPath`` picks BLAS: 32.
  ///
  /// The rule: **BLAS only when `inner ≥ 32` and `rows ≥ 8`, SIMD otherwise**; every shape this
  /// library's three jobs produce in practice (keys `K ≤ 16`, inner 4 for children, 2 for a
  /// dissolve) therefore runs SIMD.
  ///
  /// Why (measured on this project's 2-core AVX-512 Xeon, release build with
  /// `-Xswiftc -target-cpu -Xswiftc native`, one thread, best of 5 on a busy machine, e.g.
  /// `swift run -c release -Xswiftc -target-cpu -Xswiftc native segue-bench --workload bake
  /// --frames 60 --keys 8 --n 100000 --path blas` with reference BLAS and with OpenBLAS 0.3.21
  /// (`OPENBLAS_CORETYPE=SkylakeX`, `OPENBLAS_NUM_THREADS=1`) through `LD_LIBRARY_PATH`): all
  /// three products are tall-skinny with an inner dimension of 2…8, so each output element costs
  /// 2…8 multiply-adds and one 4-byte store; both paths are bound by writing the output, and the
  /// SIMD path (tiled, optionally with streaming stores) wrote it 1.3–8× faster than either
  /// BLAS at every measured shape (bake F = 60, 120 × K = 4, 8 × L·C = 1e4…1e6; children
  /// M = 1e3…1e6; dissolve 1080p × F = 8…60). Reference BLAS is a plain Fortran triple loop;
  /// OpenBLAS's sgemm packs A and B into panels first, which costs an extra pass over B that
  /// only pays back once `inner` is large enough for the arithmetic to dominate the stores.
  /// The threshold 32 is where a product stops being store-bound on this machine (32 FMAs per
  /// 4-byte store ≈ 16 Gflop/s at 2 GB/s of output); it is an extrapolation beyond the measured
  /// shapes, not a measured crossover.
  public static let blasMinimumInner = 32

  /// The path ``BatchPath/automatic`` runs for this shape: ``BatchPath/blas`` when
  /// `inner ≥` ``blasMinimumInner`` and `rows ≥ 8`, else ``BatchPath/simd``.
  public var preferredPath: BatchPath {
    inner >= Self.blasMinimumInner && rows >= 8 ? .blas : .simd
  }
}

/// A dense row-major `Float` matrix whose every element is finite: the validated input of the
/// BLAS-shaped batch jobs (key values, child transforms, stacked images).
///
/// Element `(r, c)` is `elements[r·columns + c]`. Checked once at creation, so a job that reads
/// it need not scan it again: a job never produces NaN from it.
public struct BatchMatrix: Hashable, Sendable {
  /// Number of rows, `≥ 1`.
  public let rows: Int
  /// Number of columns, `≥ 1`.
  public let columns: Int
  /// The `rows·columns` elements, row after row, all finite.
  public let elements: [Float]

  /// Wraps `elements` as a `rows × columns` matrix.
  ///
  /// - Throws: ``ValidationError``: `"rows"` / `"columns"` ``ValidationError/Reason/notPositive``
  ///   when `< 1`; `"elements"` ``ValidationError/Reason/countMismatch(expected:actual:)`` unless
  ///   `elements.count == rows·columns` (`expected` is `Int.max` when the product overflows);
  ///   `"elements"` ``ValidationError/Reason/notFinite`` with the index of the first NaN or
  ///   infinity.
  public init(rows: Int, columns: Int, elements: [Float]) throws(ValidationError) {
    guard rows >= 1 else { throw ValidationError(field: "rows", reason: .notPositive) }
    guard columns >= 1 else { throw ValidationError(field: "columns", reason: .notPositive) }
    let (count, overflow) = rows.multipliedReportingOverflow(by: columns)
    guard !overflow, count == elements.count else {
      throw ValidationError(
        field: "elements",
        reason: .countMismatch(expected: overflow ? Int.max : count, actual: elements.count))
    }
    if let bad = BatchMatrix.firstNonFinite(elements) {
      throw ValidationError(field: "elements", index: bad, reason: .notFinite)
    }
    self.rows = rows
    self.columns = columns
    self.elements = elements
  }

  /// Rounds `Double` elements to `Float` (round to nearest) and wraps them.
  ///
  /// - Throws: as ``init(rows:columns:elements:)``; an element that is finite in `Double` but
  ///   overflows `Float` (`|x| > 3.4028235e38`) is ``ValidationError/Reason/notFinite``.
  public init(rows: Int, columns: Int, doubles: [Double]) throws(ValidationError) {
    try self.init(rows: rows, columns: columns, elements: doubles.map { Float($0) })
  }

  /// The index of the first element that is NaN or infinite, or `nil`.
  static func firstNonFinite(_ elements: [Float]) -> Int? {
    elements.withUnsafeBufferPointer { buffer -> Int? in
      // Sixteen at a time: `x − x` is 0 for finite x and NaN otherwise.
      let n = buffer.count
      var i = 0
      if let base = buffer.baseAddress {
        let raw = UnsafeRawPointer(base)
        while i + 16 <= n {
          let v = raw.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<Float>.self)
          if any((v - v) .!= 0) { break }
          i += 16
        }
      }
      while i < n {
        if !buffer[i].isFinite { return i }
        i += 1
      }
      return nil
    }
  }
}

/// The `cblas_sgemm` call the jobs share, with the dimension checks it needs.
enum BatchBLAS {
  /// Largest dimension or leading dimension CBLAS's 32-bit `int` arguments hold.
  static let maximumDimension = Int(Int32.max)

  /// `C = A · B` in row-major order (`alpha = 1`, `beta = 0`): `A` is `m × k` with leading
  /// dimension `lda`, `B` is `k × n` with `ldb`, `C` is `m × n` with `ldc`. Every argument must be
  /// `≤` ``maximumDimension`` (the jobs' `validate()` checks).
  @inline(__always)
  static func sgemm(
    m: Int, n: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
    c: UnsafeMutablePointer<Float>, ldc: Int
  ) {
    cblas_sgemm(
      CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k), 1, a, Int32(lda),
      b, Int32(ldb), 0, c, Int32(ldc))
  }

  /// Throws `"<field>"` ``ValidationError/Reason/outOfRange(lower:upper:)`` when `value` exceeds
  /// what a CBLAS `int` holds.
  static func checkDimension(_ value: Int, _ field: String) throws(ValidationError) {
    guard value <= maximumDimension else {
      throw ValidationError(
        field: field, reason: .outOfRange(lower: 1, upper: Double(maximumDimension)))
    }
  }
}

/// Shared checks of the jobs' caller-owned output buffers.
enum BatchOutput {
  /// Throws `"output"` ``ValidationError/Reason/tooFew(minimum:actual:)`` unless the buffer holds
  /// `rows·columns` values (`minimum` is `Int.max` when the product overflows).
  static func check(_ output: UnsafeMutableBufferPointer<Float>, rows: Int, columns: Int)
    throws(ValidationError)
  {
    let (needed, overflow) = rows.multipliedReportingOverflow(by: columns)
    guard !overflow, output.count >= needed else {
      throw ValidationError(
        field: "output",
        reason: .tooFew(minimum: overflow ? Int.max : needed, actual: output.count))
    }
  }

  /// Whether `pointer` is 64-byte aligned (the condition for a streaming store).
  @inline(__always)
  static func isAligned(_ pointer: UnsafeMutablePointer<Float>) -> Bool {
    Int(bitPattern: pointer) % 64 == 0
  }

  /// Stores sixteen floats at `p`, bypassing the caches when `streaming` (then `p` must be 64-byte
  /// aligned).
  @inline(__always)
  static func store(_ v: SIMD16<Float>, at p: UnsafeMutablePointer<Float>, streaming: Bool) {
    if streaming {
      segue_stream_f32x16(p, v)
    } else {
      UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD16<Float>.self)
    }
  }
}
