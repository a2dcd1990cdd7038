import SegueSIMDSupport

#if SEGUE_BLAS
  import CBLAS
#endif

#if canImport(Glibc)
  import Glibc
#endif

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
  /// library provides `libblas.so.3` at run time, e.g. OpenBLAS). Only in builds with the
  /// package's `BLAS` trait (``isBLASAvailable``); a job asked for it in a build without BLAS
  /// throws from `validate()`.
  case blas
  /// Chosen per shape by ``BatchProductShape/preferredPath``.
  case automatic

  /// `self`, with ``automatic`` replaced by the rule's choice for `shape` (always ``simd`` in a
  /// build without BLAS).
  public func resolved(for shape: BatchProductShape) -> BatchPath {
    self == .automatic ? shape.preferredPath : self
  }

  /// Whether this build of Segue links CBLAS: `true` with the package trait `BLAS` (the
  /// default), `false` when a consumer turned the trait off (`traits: []`). Without it
  /// ``automatic`` always resolves to ``simd`` and ``blas`` is rejected by the jobs' `validate()`.
  #if SEGUE_BLAS
    public static let isBLASAvailable = true
  #else
    public static let isBLASAvailable = false
  #endif

  /// Throws `"path"` ``ValidationError/Reason/invalidState(_:)`` when `self` is ``blas`` in a
  /// build without BLAS (``isBLASAvailable`` is `false`).
  func checkAvailable() throws(ValidationError) {
    guard self == .blas && !Self.isBLASAvailable else { return }
    throw ValidationError(
      field: "path",
      reason: .invalidState(
        "is blas, but this build of Segue has no BLAS (the package trait BLAS is off)"))
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

  /// Inner dimension from which ``preferredPath`` picks BLAS when an optimised BLAS is loaded: 32.
  public static let blasMinimumInner = 32

  /// The path ``BatchPath/automatic`` runs for this shape with the BLAS library loaded in this
  /// process: ``preferredPath(optimizedBLAS:)`` with ``BatchPath/optimizedBLASLoaded``.
  public var preferredPath: BatchPath {
    preferredPath(optimizedBLAS: BatchPath.optimizedBLASLoaded)
  }

  /// The rule: **``BatchPath/blas`` only when an optimised BLAS (OpenBLAS) is loaded and
  /// `inner ≥` ``blasMinimumInner`` (32); ``BatchPath/simd`` otherwise.**
  ///
  /// Measured with `segue-bench` (release, `-Xswiftc -target-cpu -Xswiftc native`, one thread,
  /// best of 5 timed passes; the 2-core AVX-512 Xeon was shared with other builds), e.g.
  ///
  ///     swift build -c release -Xswiftc -target-cpu -Xswiftc native
  ///     .build/release/segue-bench --workload bake --frames 60 --keys 32 --n 100000 --path blas
  ///
  /// with Debian's reference BLAS 3.11 and with OpenBLAS 0.3.21 (`LD_LIBRARY_PATH` at its
  /// `libblas.so.3`, `OPENBLAS_CORETYPE=SkylakeX`, `OPENBLAS_NUM_THREADS=1`). Best output GB/s,
  /// SIMD (streaming stores above 8 MB of output) / OpenBLAS / reference BLAS, F = 60:
  ///
  /// | shape (inner = K, 4, 2)            | N = 1e4          | N = 1e5          | N = 1e6          |
  /// |------------------------------------|------------------|------------------|------------------|
  /// | bake K = 4                         | 25.8 / 17.8 / 2.2 | 19.0 / 10.5 / 1.2 | 10.2 / 3.6 / 0.85 |
  /// | bake K = 8                         | 15.3 / 14.4 / 1.1 | 17.0 / 10.5 / 0.74 | 7.5 / 4.9 / 0.55 |
  /// | bake K = 16                        | 8.2 / 9.6 / 0.58 | 9.2 / 2.6 / 0.52 | 5.8 / 4.6 / 0.32 |
  /// | bake K = 32                        | 4.1 / 6.0 / 0.28 | 4.2 / 4.5 / 0.27 | 3.4 / 3.5 / 0.15 |
  /// | bake K = 64                        | 1.7 / 3.3 / 0.14 | 2.0 / 2.5 / 0.07 | 1.9 / 1.4 / 0.08 |
  /// | children, M = 1e4 / 1e5 / 1e6      | 14.3 / 11.6 / 0.68 | 11.5 / 4.2 / 0.76 | 5.3 / 2.7 / 0.78 |
  /// | dissolve 1080p, F = 8 / 30 / 60    | 13.8 / 5.0 / 1.7 | 14.2 / 5.2 / 1.8 | 18.6 / 5.5 / 1.4 |
  ///
  /// So with OpenBLAS the crossover is at inner ≈ 16…32: from 32 keys OpenBLAS is ahead by up to
  /// 1.9× while the output stays in the caches; once the output spills to memory the two are
  /// level (K = 32) or SIMD is ahead (1.4× at K = 64, N = 1e6). The rule ignores rows and
  /// columns (a simplification: it costs at most that 1.4× on the measured shapes). With the
  /// reference BLAS, a plain loop at 0.07–2.2 GB/s here, SIMD wins everywhere. The tall-skinny
  /// products (inner 2…8) are store-bound: the SIMD path tiles so that the inputs are read once,
  /// writes with streaming stores (the machine's single-core store bound, measured alongside:
  /// ≈ 6–9 GB/s plain, ≈ 16–17 GB/s streaming) and needs no packing pass.
  public func preferredPath(optimizedBLAS: Bool) -> BatchPath {
    optimizedBLAS && inner >= Self.blasMinimumInner ? .blas : .simd
  }
}

extension BatchPath {
  /// The kernel set of the OpenBLAS that provides `cblas_sgemm` in this process
  /// (`openblas_get_corename()`, e.g. `"SkylakeX"`, or `"Prescott"` when OpenBLAS 0.3.21
  /// misdetects this machine's CPU and `OPENBLAS_CORETYPE` is not set), or `nil` when the loaded
  /// BLAS is not OpenBLAS (Debian's reference BLAS). Looked up once.
  public static let openBLASCore: String? = {
    #if canImport(Glibc)
      guard let symbol = dlsym(nil, "openblas_get_corename") else { return nil }
      typealias CoreName = @convention(c) () -> UnsafePointer<CChar>?
      return unsafeBitCast(symbol, to: CoreName.self)().map { String(cString: $0) }
    #else
      return nil
    #endif
  }()

  /// The shared objects whose file name contains "blas" mapped into this process once
  /// `cblas_sdot` has been called (Debian's alternatives pick the reference BLAS or OpenBLAS for
  /// `libblas.so.3`; `LD_LIBRARY_PATH` can override it), e.g.
  /// `["/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0"]`; empty without BLAS or where
  /// `/proc/self/maps` cannot be read. Looked up once.
  public static let loadedBLASLibraries: [String] = {
    #if SEGUE_BLAS && canImport(Glibc)
      let x: [Float] = [1, 2]
      guard cblas_sdot(2, x, 1, x, 1) == 5, let file = fopen("/proc/self/maps", "r") else {
        return []
      }
      defer { fclose(file) }
      var found: [String] = []
      var line: UnsafeMutablePointer<CChar>? = nil
      var capacity = 0
      defer { free(line) }
      while getline(&line, &capacity, file) > 0, let line {
        let text = String(cString: line)
        guard let slash = text.firstIndex(of: "/") else { continue }
        let path = String(text[slash...].dropLast(text.hasSuffix("\n") ? 1 : 0))
        if path.lowercased().contains("blas") && !found.contains(path) { found.append(path) }
      }
      return found
    #else
      return []
    #endif
  }()

  /// Whether the loaded BLAS counts as optimised for ``BatchProductShape/preferredPath``: OpenBLAS
  /// with any kernel set but `"Prescott"` (the SSE3 kernels OpenBLAS 0.3.21 falls back to on this
  /// machine's CPU without `OPENBLAS_CORETYPE`, measured 4–6× slower than SkylakeX on the bake:
  /// 0.72 against 3.3 GB/s at F = 60, K = 32, N = 1e5). `false` for the reference BLAS.
  public static let optimizedBLASLoaded: Bool = openBLASCore.map { $0 != "Prescott" } ?? false
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
        let width = BatchOutput.vectorWidth
        while i + width <= n {
          let v = raw.loadUnaligned(
            fromByteOffset: MemoryLayout<Float>.stride * i, as: SIMD16<Float>.self)
          if any((v - v) .!= 0) { break }
          i += width
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
    #if SEGUE_BLAS
      cblas_sgemm(
        CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k), 1, a,
        Int32(lda), b, Int32(ldb), 0, c, Int32(ldc))
    #else
      preconditionFailure("BatchPath.blas ran in a build without BLAS (validate() rejects it)")
    #endif
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

/// Shared helpers of the jobs' caller-owned output buffers.
enum BatchOutput {
  /// Floats per vector of the SIMD paths (`SIMD16<Float>`): the columns of one store.
  static var vectorWidth: Int { SIMD16<Float>.scalarCount }

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
