import Segue
import SegueSIMDSupport

/// Where a `stack` evaluation writes value `k` (`0…16`: `m11 … m44`, then the opacity) of layer `j`.
public enum StackOutputLayout: Hashable, Sendable {
  /// Array of 17-value records: value `k` of layer `j` at `output[17·j + k]`.
  case interleaved
  /// Seventeen planes (structure of arrays): value `k` of layer `j` at `output[k·stride + j]`, with
  /// `stride ≥ count`. The SIMD kernel's fastest layout: one block of 16 layers writes 17 whole
  /// 64-byte vectors. With `stride` a multiple of 16 and a 64-byte aligned buffer, every full
  /// block's store is aligned and may bypass the caches (``StackEvaluationJob/streamingStores``).
  case planar(stride: Int)

  /// The smallest `output.count` that holds layers `0..<upperBound` of a batch of `count` layers,
  /// or `nil` when that size overflows `Int`.
  public func requiredCount(upperBound: Int) -> Int? {
    switch self {
    case .interleaved:
      let (n, o) = StackBatch.valuesPerLayer.multipliedReportingOverflow(by: upperBound)
      return o ? nil : n
    case .planar(let stride):
      let (a, o1) = (StackBatch.valuesPerLayer - 1).multipliedReportingOverflow(by: stride)
      let (n, o2) = a.addingReportingOverflow(upperBound)
      return o1 || o2 ? nil : n
    }
  }

  /// The index of value `k` of layer `j` in the output buffer.
  @inlinable
  public func index(layer j: Int, value k: Int) -> Int {
    switch self {
    case .interleaved: return StackBatch.valuesPerLayer * j + k
    case .planar(let stride): return k * stride + j
    }
  }
}

/// How far the SIMD path runs, for measuring the pipeline stage by stage.
public enum StackStage: String, Hashable, Sendable, CaseIterable {
  /// Progress and the cubic-bezier solve only; writes `y` into the non-constant slots.
  case timing
  /// Timing plus segment search and Catmull–Rom of the six channels; writes the channel values
  /// (`tx, ty, tz, scale, rot, opacity`, unclamped) into the non-constant slots.
  case channels
  /// The whole evaluation (timing, channels, sin/cos and matrix composition, opacity clamp).
  case frame
}

/// Which `Float` implementation a ``StackEvaluationJob`` runs.
public enum StackKernelPath: String, Hashable, Sendable, CaseIterable {
  /// Sixteen layers per step in `SIMD16<Float>` lanes (the fast path).
  case simd
  /// The same algorithm, one layer at a time in scalar `Float`.
  case scalar
}

/// One evaluation of a range of `stack` layers at one time into a caller-owned buffer, in the
/// style of ozz-animation's runtime jobs: the job owns nothing, allocates nothing, and can be
/// split into disjoint ranges that run on different threads.
///
/// Per layer (as the workload defines it), in `Float`:
/// 1. `x = clamp((t − s_j)/d_j, 0, 1)`;
/// 2. timing curve (the shared `CubicBezierBatch.solveUnit`, Bernstein form): first guess `s`
///    from the curve's inverse table (``StackCurveTables``, linear interpolation), two Newton
///    steps on `X(s) − x` (a step is skipped where `|X'(s)| < 1e-7`; `s` is clamped to
///    `[0, 1]`), then — only for lanes whose residual is still `≥ max(1e-7, 6e-8·|X'(s)|)` — a
///    safeguarded Newton iteration on the table cell's bracket (at most 32 steps) that keeps the
///    best point seen; `y = Y(s)`.
///    Measured in `Double`, the residual `|X(s) − x|` stays below 3.5e-7 (what the tests
///    require; float32 cannot certify 1e-7: see fine point 1 of the workload);
/// 3. segment `i = [y ≥ 0.3] + [y ≥ 0.7]`, `v = (y − keyTimes[i]) · (1/span_i)`;
/// 4. Catmull–Rom by key index as four weights on the four keys (the Hermite basis folded with the
///    end-point duplication), shared by the six channels;
/// 5. `sin`/`cos` of the rotation by Cody–Waite reduction modulo π/2 and minimax polynomials
///    (Cephes `sinf`/`cosf`, about 1 ulp);
/// 6. the matrix from the workload's closed form, the opacity clamped to `[0, 1]`.
///
/// The SIMD path processes lanes independently (a layer's result does not depend on its
/// neighbours, its lane or the chunking), and handles a final partial block by padding a local
/// copy, so it never reads or writes outside `range`.
public struct StackEvaluationJob: @unchecked Sendable {
  /// The layers (read only).
  public var batch: StackBatch
  /// The global time `t` in seconds. Must be finite.
  public var time: Float
  /// The destination; see ``layout``. Must hold ``StackOutputLayout/requiredCount(upperBound:)``
  /// values. Only the entries of the layers in ``range`` are written.
  public var output: UnsafeMutableBufferPointer<Float>
  /// How values are placed in ``output``.
  public var layout: StackOutputLayout
  /// The layers to evaluate, a subrange of `0..<batch.count`.
  public var range: Range<Int>
  /// The implementation to run.
  public var path: StackKernelPath
  /// Whether the SIMD path may use non-temporal (cache-bypassing) stores for full, 64-byte aligned
  /// blocks. Worth it when the output is much larger than the caches; the results are identical.
  public var streamingStores: Bool
  /// How much of the pipeline the SIMD path runs (for per-stage benchmarks); ``StackStage/frame``
  /// (the default) is the real evaluation. Other stages write partial results (see
  /// ``StackStage``) into the same slots, so the store traffic is the same for every stage.
  public var stage: StackStage = .frame

  /// Creates a job; nothing is checked until ``validate()`` or ``run()``.
  public init(
    batch: StackBatch, time: Float, output: UnsafeMutableBufferPointer<Float>,
    layout: StackOutputLayout = .interleaved, range: Range<Int>? = nil,
    path: StackKernelPath = .simd, streamingStores: Bool = false
  ) {
    self.batch = batch
    self.time = time
    self.output = output
    self.layout = layout
    self.range = range ?? 0..<batch.count
    self.path = path
    self.streamingStores = streamingStores
  }

  /// Checks the job without running it.
  ///
  /// - Throws: ``/Segue/ValidationError`` with `field`
  ///   * `"count"` ``/Segue/ValidationError/Reason/notPositive`` when the batch is empty;
  ///   * `"time"` ``/Segue/ValidationError/Reason/notFinite`` for NaN or infinity;
  ///   * `"range"` ``/Segue/ValidationError/Reason/outOfRange(lower:upper:)`` unless
  ///     `0 ≤ range.lowerBound` and `range.upperBound ≤ count`;
  ///   * `"layout.stride"` ``/Segue/ValidationError/Reason/outOfRange(lower:upper:)`` when a planar stride
  ///     is smaller than `count`;
  ///   * `"output"` ``/Segue/ValidationError/Reason/tooFew(minimum:actual:)`` when the buffer is too short
  ///     for the layers in `range`.
  public func validate() throws(ValidationError) {
    guard batch.count > 0 else { throw ValidationError(field: "count", reason: .notPositive) }
    guard time.isFinite else { throw ValidationError(field: "time", reason: .notFinite) }
    guard range.lowerBound >= 0, range.upperBound <= batch.count else {
      throw ValidationError(
        field: "range", reason: .outOfRange(lower: 0, upper: Double(batch.count)))
    }
    if case .planar(let stride) = layout, stride < batch.count {
      throw ValidationError(
        field: "layout.stride",
        reason: .outOfRange(lower: Double(batch.count), upper: Double(Int.max)))
    }
    guard let needed = layout.requiredCount(upperBound: range.upperBound) else {
      throw ValidationError(
        field: "output", reason: .tooFew(minimum: Int.max, actual: output.count))
    }
    if needed > output.count && !range.isEmpty {
      throw ValidationError(field: "output", reason: .tooFew(minimum: needed, actual: output.count))
    }
  }

  /// Validates the job (``validate()``), then evaluates every layer in ``range`` into ``output``.
  /// Allocates nothing.
  public func run() throws(ValidationError) {
    try validate()
    runUnchecked()
  }

  /// ``run()`` without the checks; the caller has validated this job or a job it was split from.
  func runUnchecked() {
    guard !range.isEmpty else { return }
    switch path {
    case .simd: runSIMD()
    case .scalar: runScalar()
    }
  }
}

// MARK: - Shared constants

/// The Float constants of the kernel, derived once from the workload's `Double` definitions.
@usableFromInline
enum StackConstants {
  static let anchorX = Float(StackBatch.width / 2)
  static let anchorY = Float(StackBatch.height / 2)
  static let q = Float(StackBatch.perspective)
  static let m31 = Float(StackBatch.perspective * StackBatch.width / 2)
  static let m32 = Float(StackBatch.perspective * StackBatch.height / 2)
  static let key1 = Float(StackBatch.keyTimes[1])
  static let key2 = Float(StackBatch.keyTimes[2])
  static let inverseSpan0 = Float(1 / (StackBatch.keyTimes[1] - StackBatch.keyTimes[0]))
  static let inverseSpan1 = Float(1 / (StackBatch.keyTimes[2] - StackBatch.keyTimes[1]))
  static let inverseSpan2 = Float(1 / (StackBatch.keyTimes[3] - StackBatch.keyTimes[2]))
  // The scalar path's solver constants: the shared SIMD solver's (CubicBezierBatch).
  static let toleranceSquared = CubicBezierBatch.toleranceSquared
  static let flatSquared = CubicBezierBatch.flatSquared
  static let newtonSteps = CubicBezierBatch.newtonSteps
}

/// The scaled control points of each curve in `Float`, the first four entries of
/// ``CubicBezierBatch/coefficients``: `[3x1, 3x2, 3y1, 3y2, 0, 0]` per curve (stride 6).
let stackCurveCoefficients: [Float] = StackBatch.curves.flatMap { c in
  [3 * c.x1, 3 * c.x2, 3 * c.y1, 3 * c.y2, 0, 0].map { Float($0) }
}

// MARK: - SIMD path

/// The kernel's lane vector: 16 layers per step (the shared batch lane type, `Lanes`).
typealias StackVector = Lanes
typealias StackMask = LaneMask

/// The 16-lane piece `index` of a lane vector (the vector itself while it is 16 lanes wide).
@inline(always)
func stackHalf(_ v: StackVector, _ index: Int) -> SIMD16<Float> {
  v
}

/// The seven non-constant outputs of a block of layers.
struct StackBlockResult {
  var scaleCos: StackVector
  var scaleSin: StackVector
  var m41: StackVector
  var m42: StackVector
  var tz: StackVector
  var w: StackVector
  var opacity: StackVector
}

extension StackEvaluationJob {
  /// The block kernel: one lane vector of layers whose inputs are given as vectors (`key(p)`
  /// returns key plane `p` = `channel·4 + key`); `curves` holds the lanes' prepared timing curves
  /// (``CubicBezierBatch/lanes(curve:coefficients:stride:curveCount:)``).
  @inline(always)
  static func evaluateBlock(
    time: Float, start: StackVector, duration: StackVector, curves: BezierLanes,
    table: UnsafePointer<Float>, stage: StackStage = .frame, key: (Int) -> StackVector
  ) -> StackBlockResult {
    typealias V = StackVector
    typealias K = StackConstants
    // 1. Progress.
    var x = (V(repeating: time) - start) / duration
    x = SIMDMath.select(.!(x .>= 0), 0, x)  // also maps NaN to 0
    x = SIMDMath.select(x .> 1, 1, x)

    // 2. Timing curve.
    let y = CubicBezierBatch.solveUnit(x: x, lanes: curves, table: table).y
    if stage == .timing {
      return StackBlockResult(
        scaleCos: y, scaleSin: y, m41: y, m42: y, tz: y, w: y, opacity: y)
    }

    // 3. Segment and local v.
    let ge1 = y .>= K.key1
    let ge2 = y .>= K.key2
    var keyStart = V(repeating: 0)
    keyStart = SIMDMath.select(ge1, K.key1, keyStart)
    keyStart = SIMDMath.select(ge2, K.key2, keyStart)
    var inverseSpan = V(repeating: K.inverseSpan0)
    inverseSpan = SIMDMath.select(ge1, K.inverseSpan1, inverseSpan)
    inverseSpan = SIMDMath.select(ge2, K.inverseSpan2, inverseSpan)
    let v = (y - keyStart) * inverseSpan

    // 4. Catmull–Rom weights on the four keys.
    let v2 = v * v
    let v3 = v2 * v
    let h00 = 2 * v3 - 3 * v2 + 1
    let h10 = v3 - 2 * v2 + v
    let h01 = 3 * v2 - 2 * v3
    let h11 = v3 - v2
    let wa = -0.5 * h10
    let wb = h00 - 0.5 * h11
    let wc = h01 + 0.5 * h10
    let wd = 0.5 * h11
    let w0 = SIMDMath.select(ge2, 0, SIMDMath.select(ge1, wa, wa + wb))
    let w1 = SIMDMath.select(ge2, wa, SIMDMath.select(ge1, wb, wc))
    let w2 = SIMDMath.select(ge2, wb, SIMDMath.select(ge1, wc, wd))
    let w3 = SIMDMath.select(ge2, wc + wd, SIMDMath.select(ge1, wd, V(repeating: 0)))
    @inline(always) func channel(_ c: Int) -> V {
      let a = segue_fma_f32x16(w1, key(4 * c + 1), w0 * key(4 * c))
      let b = segue_fma_f32x16(w3, key(4 * c + 3), w2 * key(4 * c + 2))
      return a + b
    }
    let tx = channel(0)
    let ty = channel(1)
    let tz = channel(2)
    let scale = channel(3)
    let rot = channel(4)
    var opacity = channel(5)
    if stage == .channels {
      return StackBlockResult(
        scaleCos: scale, scaleSin: rot, m41: tx, m42: ty, tz: tz, w: tz, opacity: opacity)
    }

    // 5. sin and cos of rot.
    let (sine, cosine) = sinCos(rot)

    // 6. Closed-form matrix and opacity.
    let sc = scale * cosine
    let sn = scale * sine
    let w = 1 + K.q * tz
    let m41 = tx - K.anchorX * sc + K.anchorY * sn + w * K.anchorX
    let m42 = ty - K.anchorX * sn - K.anchorY * sc + w * K.anchorY
    opacity = SIMDMath.select(.!(opacity .>= 0), 0, opacity)
    opacity = SIMDMath.select(opacity .> 1, 1, opacity)
    return StackBlockResult(
      scaleCos: sc, scaleSin: sn, m41: m41, m42: m42, tz: tz, w: w, opacity: opacity)
  }

  /// The timing-curve solve for a lane vector (`scratch`: 3 vectors of scratch floats): `s` with
  /// `X(s) ≈ x` and `y = Y(s)` (see the type's documentation, step 2): the shared
  /// `CubicBezierBatch.solveUnit` over the workload's coefficients (`[3x1, 3x2, 3y1, 3y2, 0, 0]`
  /// per curve). Lanes are independent.
  @inline(always)
  static func solveTiming(
    x: StackVector, curve: StackVector, coefficients: UnsafePointer<Float>, curveCount: Int,
    table: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>
  ) -> (s: StackVector, y: StackVector) {
    CubicBezierBatch.solveUnit(
      x: x, curve: curve, coefficients: coefficients, stride: 6, curveCount: curveCount,
      table: table, scratch: scratch)
  }

  /// `(sin r, cos r)` for a lane vector: the shared `SIMDMath.sinCos` (Cody–Waite
  /// reduction, Cephes polynomials, about 1 ulp for `|r| < 2¹⁴`).
  @inline(always)
  static func sinCos(_ rot: StackVector) -> (sin: StackVector, cos: StackVector) {
    SIMDMath.sinCos(rot)
  }

  /// The 17 output vectors of a block, in value order.
  @inline(always)
  static func outputVector(_ r: StackBlockResult, _ k: Int) -> StackVector {
    typealias V = StackVector
    switch k {
    case 0, 5: return r.scaleCos
    case 1: return r.scaleSin
    case 4: return -r.scaleSin
    case 8: return V(repeating: StackConstants.m31)
    case 9: return V(repeating: StackConstants.m32)
    case 10: return V(repeating: 1)
    case 11: return V(repeating: StackConstants.q)
    case 12: return r.m41
    case 13: return r.m42
    case 14: return r.tz
    case 15: return r.w
    case 16: return r.opacity
    default: return V(repeating: 0)
    }
  }

  func runSIMD() {
    let n = batch.count
    let lanes = StackVector.scalarCount
    let lower = range.lowerBound
    let upper = range.upperBound
    let fullEnd = lower + (upper - lower) / lanes * lanes
    let time = self.time
    let layout = self.layout
    let stage = self.stage
    let out = output.baseAddress!
    let curveCount = StackBatch.curves.count
    let streaming: Bool
    switch layout {
    case .interleaved:
      streaming =
        streamingStores && Int(bitPattern: out + 17 * lower) % 64 == 0
    case .planar(let stride):
      streaming =
        streamingStores && Int(bitPattern: out + lower) % 64 == 0 && stride % lanes == 0
    }
    batch.start.withUnsafeBufferPointer { startBuffer in
      batch.duration.withUnsafeBufferPointer { durationBuffer in
        batch.keys.withUnsafeBufferPointer { keyBuffer in
          batch.curveIndex.withUnsafeBufferPointer { curveBuffer in
            batch.curveTables.inverse.withUnsafeBufferPointer { tableBuffer in
              stackCurveCoefficients.withUnsafeBufferPointer { coefficientBuffer in
                let starts = startBuffer.baseAddress!
                let durations = durationBuffer.baseAddress!
                let keys = keyBuffer.baseAddress!
                let curves = curveBuffer.baseAddress!
                let table = tableBuffer.baseAddress!
                let coefficients = coefficientBuffer.baseAddress!
                @inline(always) func load(_ p: UnsafePointer<Float>) -> StackVector {
                  UnsafeRawPointer(p).loadUnaligned(as: StackVector.self)
                }
                @inline(always) func prepare(_ curve: StackVector) -> BezierLanes {
                  CubicBezierBatch.lanes(
                    curve: curve, coefficients: coefficients, stride: 6, curveCount: curveCount)
                }
                // The lanes' curves are prepared once and reused while consecutive blocks have
                // the same curve in every lane (the workload's j mod 4 pattern: always).
                var j = lower
                var lastCurves = (UInt64.max, UInt64.max)
                var prepared = prepare(StackVector(repeating: 0))
                while j < fullEnd {
                  let curveWords = UnsafeRawPointer(curves + j).loadUnaligned(
                    as: (UInt64, UInt64).self)
                  if curveWords != lastCurves {
                    lastCurves = curveWords
                    prepared = prepare(
                      SIMDMath.lanes(
                        UnsafeRawPointer(curves + j).loadUnaligned(as: SIMD16<UInt8>.self)))
                  }
                  let result = Self.evaluateBlock(
                    time: time, start: load(starts + j), duration: load(durations + j),
                    curves: prepared, table: table, stage: stage,
                    key: { load(keys + ($0 &* n &+ j)) })
                  Self.storeBlock(
                    result, layout: layout, out: out, first: j, lanes: lanes,
                    streaming: streaming)
                  j += lanes
                }
                if j < upper {
                  // Tail: pad a local copy of the inputs (s = 0, d = 1, keys 0, curve 0).
                  let valid = upper - j
                  var s = StackVector(repeating: 0)
                  var d = StackVector(repeating: 1)
                  var c = StackVector(repeating: 0)
                  for l in 0..<valid {
                    s[l] = starts[j + l]
                    d[l] = durations[j + l]
                    c[l] = Float(curves[j + l])
                  }
                  let first = j
                  let result = Self.evaluateBlock(
                    time: time, start: s, duration: d, curves: prepare(c), table: table,
                    stage: stage,
                    key: { plane in
                      var v = StackVector(repeating: 0)
                      for l in 0..<valid { v[l] = keys[plane * n + first + l] }
                      return v
                    })
                  Self.storeBlock(
                    result, layout: layout, out: out, first: j, lanes: valid,
                    streaming: false)
                }
              }
            }
          }
        }
      }
    }
    if streaming { segue_store_fence() }
  }

  /// Writes `lanes` layers of a block starting at layer `first`.
  @inline(always)
  static func storeBlock(
    _ result: StackBlockResult, layout: StackOutputLayout, out: UnsafeMutablePointer<Float>,
    first: Int, lanes: Int, streaming: Bool
  ) {
    let width = StackVector.scalarCount
    switch layout {
    case .planar(let stride):
      if lanes == width {
        // Seventeen whole-vector stores, written out so that each value is a constant or a
        // register (a loop over k compiles to a jump table per store).
        @inline(always) func put(_ k: Int) {
          let p = out + k * stride + first
          let v = outputVector(result, k)
          if streaming {
            var half = 0
            while half < width {
              segue_stream_f32x16(p + half, stackHalf(v, half / 16))
              half += 16
            }
          } else {
            segue_store_f32x16(p, v)
          }
        }
        put(0)
        put(1)
        put(2)
        put(3)
        put(4)
        put(5)
        put(6)
        put(7)
        put(8)
        put(9)
        put(10)
        put(11)
        put(12)
        put(13)
        put(14)
        put(15)
        put(16)
      } else {
        for k in 0..<17 {
          let v = outputVector(result, k)
          for l in 0..<lanes { out[k * stride + first + l] = v[l] }
        }
      }
    case .interleaved:
      let dst = out + 17 * first
      if streaming && lanes == width {
        // Transpose into 17 whole cache lines on the stack, then stream them out.
        var records = (
          StackVector(), StackVector(), StackVector(), StackVector(), StackVector(),
          StackVector(), StackVector(), StackVector(), StackVector(), StackVector(),
          StackVector(), StackVector(), StackVector(), StackVector(), StackVector(),
          StackVector(), StackVector()
        )
        withUnsafeMutableBytes(of: &records) { raw in
          let r = raw.baseAddress!.assumingMemoryBound(to: Float.self)
          for k in 0..<17 {
            let v = outputVector(result, k)
            for l in 0..<width { r[17 * l + k] = v[l] }
          }
          for m in 0..<17 {
            segue_stream_f32x16(
              dst + 16 * m, raw.load(fromByteOffset: 64 * m, as: SIMD16<Float>.self))
          }
        }
      } else {
        for k in 0..<17 {
          let v = outputVector(result, k)
          for l in 0..<lanes { dst[17 * l + k] = v[l] }
        }
      }
    }
  }
}

// MARK: - Scalar path

extension StackEvaluationJob {
  /// One layer in scalar `Float`, the same steps as ``evaluateBlock``; writes 17 values via `put`.
  @inline(always)
  static func evaluateLayer(
    time: Float, start: Float, duration: Float, curve: Int, coefficients: UnsafePointer<Float>,
    table: UnsafePointer<Float>, key: (Int) -> Float, put: (Int, Float) -> Void
  ) {
    typealias K = StackConstants
    var x = (time - start) / duration
    if !(x >= 0) { x = 0 }
    if x > 1 { x = 1 }
    let p = coefficients + 6 * curve
    let (p1, p2, q1, q2) = (p[0], p[1], p[2], p[3])
    let p21 = 2 * (p2 - p1)
    let p3 = 3 - p2
    // The Bernstein form of CubicBezierBatch.bernstein, operation for operation.
    func bernstein(_ s: Float, _ a: Float, _ b: Float) -> Float {
      let u = 1 - s
      return segue_fma_f32(u * s, segue_fma_f32(b, s, a * u), s * s * s)
    }
    func slope(_ s: Float) -> Float {
      let u = 1 - s
      return segue_fma_f32(u, segue_fma_f32(p21, s, u * p1), p3 * (s * s))
    }
    let segments = StackCurveTables.segments
    let f = x * Float(segments)
    let rounded = f + SIMDMath.roundingMagic
    var cellFloat = rounded - SIMDMath.roundingMagic
    if cellFloat > f { cellFloat -= 1 }
    if cellFloat >= Float(segments) { cellFloat = Float(segments - 1) }
    let cell = Int(cellFloat)
    let frac = f - cellFloat
    let b = curve * (segments + 1) + cell
    let lo = table[b]
    let hi = table[b + 1]
    var s = segue_fma_f32(hi - lo, frac, lo)
    for _ in 0..<K.newtonSteps {
      let e = bernstein(s, p1, p2) - x
      let d = slope(s)
      if !(d * d < K.flatSquared) { s = s - e / d }
      if !(s >= 0) { s = 0 }
      if s > 1 { s = 1 }
    }
    let e = bernstein(s, p1, p2) - x
    let d = slope(s)
    if e * e >= K.toleranceSquared && e * e >= CubicBezierBatch.slopeToleranceSquared * (d * d) {
      // The SIMD kernel's safeguarded Newton fallback, lane for lane.
      var a = min(max(lo - CubicBezierBatch.bracketMargin, 0), 1)
      var c = min(max(hi + CubicBezierBatch.bracketMargin, 0), 1)
      var best = s
      var bestE2 = e * e
      var t = s > a && s < c ? s : (a + c) * 0.5
      for _ in 0..<CubicBezierBatch.fallbackSteps {
        let et = bernstein(t, p1, p2) - x
        let et2 = et * et
        if et2 < bestE2 {
          best = t
          bestE2 = et2
        }
        if et < 0 { a = t } else { c = t }
        let dt = slope(t)
        let newton = t - et / dt
        t = newton > a && newton < c ? newton : (a + c) * 0.5
        if et2 < K.toleranceSquared || et2 < CubicBezierBatch.slopeToleranceSquared * (dt * dt)
          || c - a <= CubicBezierBatch.bracketResolution
        {
          break
        }
      }
      s = best
    }
    let y = bernstein(s, q1, q2)
    let segment = (y >= K.key1 ? 1 : 0) + (y >= K.key2 ? 1 : 0)
    let v: Float
    switch segment {
    case 0: v = y * K.inverseSpan0
    case 1: v = (y - K.key1) * K.inverseSpan1
    default: v = (y - K.key2) * K.inverseSpan2
    }
    let v2 = v * v
    let v3 = v2 * v
    let h00 = 2 * v3 - 3 * v2 + 1
    let h10 = v3 - 2 * v2 + v
    let h01 = 3 * v2 - 2 * v3
    let h11 = v3 - v2
    let wa = -0.5 * h10
    let wb = h00 - 0.5 * h11
    let wc = h01 + 0.5 * h10
    let wd = 0.5 * h11
    let w0: Float
    let w1: Float
    let w2: Float
    let w3: Float
    switch segment {
    case 0: (w0, w1, w2, w3) = (wa + wb, wc, wd, 0)
    case 1: (w0, w1, w2, w3) = (wa, wb, wc, wd)
    default: (w0, w1, w2, w3) = (0, wa, wb, wc + wd)
    }
    func channel(_ c: Int) -> Float {
      segue_fma_f32(w1, key(4 * c + 1), w0 * key(4 * c))
        + segue_fma_f32(w3, key(4 * c + 3), w2 * key(4 * c + 2))
    }
    let tx = channel(0)
    let ty = channel(1)
    let tz = channel(2)
    let scale = channel(3)
    let rot = channel(4)
    var opacity = channel(5)
    let (sine, cosine) = stackSinCos(rot)
    let sc = scale * cosine
    let sn = scale * sine
    let w = 1 + K.q * tz
    if !(opacity >= 0) { opacity = 0 }
    if opacity > 1 { opacity = 1 }
    put(0, sc)
    put(1, sn)
    put(2, 0)
    put(3, 0)
    put(4, -sn)
    put(5, sc)
    put(6, 0)
    put(7, 0)
    put(8, K.m31)
    put(9, K.m32)
    put(10, 1)
    put(11, K.q)
    put(12, tx - K.anchorX * sc + K.anchorY * sn + w * K.anchorX)
    put(13, ty - K.anchorX * sn - K.anchorY * sc + w * K.anchorY)
    put(14, tz)
    put(15, w)
    put(16, opacity)
  }

  func runScalar() {
    let n = batch.count
    let time = self.time
    let layout = self.layout
    let out = output.baseAddress!
    batch.keys.withUnsafeBufferPointer { keyBuffer in
      batch.curveTables.inverse.withUnsafeBufferPointer { tableBuffer in
        stackCurveCoefficients.withUnsafeBufferPointer { coefficientBuffer in
          let keys = keyBuffer.baseAddress!
          for j in range {
            Self.evaluateLayer(
              time: time, start: batch.start[j], duration: batch.duration[j],
              curve: Int(batch.curveIndex[j]), coefficients: coefficientBuffer.baseAddress!,
              table: tableBuffer.baseAddress!, key: { keys[$0 * n + j] },
              put: { k, value in out[layout.index(layer: j, value: k)] = value })
          }
        }
      }
    }
  }
}

/// `(sin r, cos r)` in `Float`: the scalar twin of the SIMD kernel's, bitwise equal to it
/// (`SIMDMath.sinCos`).
@inline(always)
func stackSinCos(_ rot: Float) -> (sin: Float, cos: Float) {
  SIMDMath.sinCos(rot)
}

extension StackBatch {
  /// The workload checksum of a `Float` output: for each layer the 16 matrix entries plus the
  /// opacity, each widened to `Double`, summed in layer order in `Double`.
  ///
  /// - Throws: ``/Segue/ValidationError`` `"output"` ``/Segue/ValidationError/Reason/tooFew(minimum:actual:)``
  ///   when `output` cannot hold `count` layers in `layout`.
  public func checksum(of output: UnsafeBufferPointer<Float>, layout: StackOutputLayout)
    throws(ValidationError) -> Double
  {
    guard let needed = layout.requiredCount(upperBound: count), output.count >= needed else {
      let needed = layout.requiredCount(upperBound: count) ?? Int.max
      throw ValidationError(field: "output", reason: .tooFew(minimum: needed, actual: output.count))
    }
    var sum = 0.0
    for j in 0..<count {
      for k in 0..<Self.valuesPerLayer { sum += Double(output[layout.index(layer: j, value: k)]) }
    }
    return sum
  }
}

// MARK: - Threads

extension StackEvaluationJob {
  /// Validates, then runs the job split into chunks over `threads` threads on the shared
  /// ``/Segue/BatchContext`` for that count (created at the first call, so later calls allocate nothing).
  /// The output is bitwise the same for every `threads` and `chunkSize`: each layer is computed
  /// independently of the others.
  ///
  /// - Throws: what ``validate()`` throws, and `"threads"` / `"chunkSize"`
  ///   ``/Segue/ValidationError/Reason/notPositive``.
  public func run(threads: Int, chunkSize: Int? = nil) throws(ValidationError) {
    try validate()
    let size = try BatchThreads.chunkSize(for: range, threads: threads, chunkSize: chunkSize)
    if threads == 1 || range.count <= size {
      runChunks(size: size)
      return
    }
    runChunks(on: BatchContext.shared(threads: threads), size: size)
  }

  /// Validates, then runs the job split into chunks on a caller-owned `context` (chunks as
  /// ``/Segue/BatchThreads/chunkSize(for:threads:chunkSize:alignment:)`` cuts them for the context's
  /// thread count): allocates nothing. The output is bitwise the same as ``run()``'s for every
  /// thread count and `chunkSize`.
  ///
  /// - Throws: what ``validate()`` throws, and `"chunkSize"` ``/Segue/ValidationError/Reason/notPositive``.
  public func run(context: BatchContext, chunkSize: Int? = nil) throws(ValidationError) {
    try validate()
    let size = try BatchThreads.chunkSize(
      for: range, threads: context.threads, chunkSize: chunkSize)
    runChunks(on: context, size: size)
  }

  /// Runs the validated job in chunks of `size` layers on the calling thread, in order.
  func runChunks(size: Int) {
    var lower = range.lowerBound
    while lower < range.upperBound {
      var part = self
      part.range = lower..<min(lower + size, range.upperBound)
      part.runUnchecked()
      lower += size
    }
  }

  /// Runs the validated job in chunks of `size` layers on `context`, passing the job by address
  /// to a closure-free chunk function.
  func runChunks(on context: BatchContext, size: Int) {
    withUnsafePointer(to: self) { job in
      context.run(
        range: range, chunkSize: size,
        invoke: { job, lower, upper in
          var part = job.assumingMemoryBound(to: StackEvaluationJob.self).pointee
          part.range = lower..<upper
          part.runUnchecked()
        }, context: UnsafeRawPointer(job))
    }
  }
}
