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
///    from the curve's inverse table (``StackCurveTables``, 512 cells, linear interpolation),
///    one Newton step on `X(s) − x` (skipped where `|X'(s)| < 1e-7`; `s` is clamped to
///    `[0, 1]`), the acceptance test with a polishing Newton step for the lanes that pass, and —
///    only for lanes whose residual is still `≥ max(1e-7, 6e-8·|X'(s)|)` — a restart at a flat
///    curve end and a safeguarded Newton iteration on the table cell's bracket (at most 32 steps)
///    that keeps the best point seen; `y = Y(s)`. (The scalar path has the fallback but neither
///    the restart nor the polishing step.)
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
    try Validate.finite(Double(time), "time")
    try Validate.subrange(range, of: batch.count, "range")
    if case .planar(let stride) = layout {
      try Validate.stride(stride, atLeast: batch.count, "layout.stride")
    }
    // An empty range writes nothing, but a size that overflows is rejected whatever the range.
    let needed = layout.requiredCount(upperBound: range.upperBound)
    if needed == nil || !range.isEmpty {
      try Validate.count(output.count, atLeast: needed ?? Int.max, "output")
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

/// The Float constants of the kernel: the workload's `Double` definitions (``StackBatch/width``,
/// ``StackBatch/height``, ``StackBatch/perspective``, ``StackBatch/keyTimes``) written as literal
/// expressions, so that they fold into the kernel's instructions (a `static let` computed from an
/// array would be a lazily initialised global, checked on every use); `StackKernelTests` checks
/// them against the definitions.
@usableFromInline
enum StackConstants {
  static var anchorX: Float { Float(390.0 / 2) }
  static var anchorY: Float { Float(844.0 / 2) }
  static var q: Float { Float(-1.0 / 500.0) }
  static var m31: Float { Float(-1.0 / 500.0 * 390.0 / 2) }
  static var m32: Float { Float(-1.0 / 500.0 * 844.0 / 2) }
  static var key1: Float { Float(0.3) }
  static var key2: Float { Float(0.7) }
  /// Segment `i`'s local `v = y·inverseSpan_i + offset_i` with `offset_i = −keyTimes[i]/span_i`.
  static var inverseSpan0: Float { Float(1 / (0.3 - 0.0)) }
  static var inverseSpan1: Float { Float(1 / (0.7 - 0.3)) }
  static var inverseSpan2: Float { Float(1 / (1.0 - 0.7)) }
  static var offset1: Float { Float(-0.3 / (0.7 - 0.3)) }
  static var offset2: Float { Float(-0.7 / (1.0 - 0.7)) }
  // The scalar path's solver constants: the shared SIMD solver's (CubicBezierBatch).
  static var toleranceSquared: Float { CubicBezierBatch.toleranceSquared }
  static var flatSquared: Float { CubicBezierBatch.flatSquared }
  static var newtonSteps: Int { CubicBezierBatch.newtonSteps }
  /// The values of a layer's output record (``StackBatch/valuesPerLayer``).
  static var valuesPerLayer: Int { 17 }
  /// The floats of one curve in ``stackCurveCoefficients``.
  static var coefficientsPerCurve: Int { 6 }
}

/// The scaled control points of each curve in `Float`, the first four entries of
/// ``CubicBezierBatch/coefficients``: `[3x1, 3x2, 3y1, 3y2, 0, 0]` per curve
/// (``StackConstants/coefficientsPerCurve`` floats).
let stackCurveCoefficients: [Float] = StackBatch.curves.flatMap { c in
  [3 * c.x1, 3 * c.x2, 3 * c.y1, 3 * c.y2, 0, 0].map { Float($0) }
}

// MARK: - SIMD path

/// The kernel's 16-lane vector (the shared batch lane type, `Lanes`).
typealias StackVector = Lanes
typealias StackMask = LaneMask

/// The seven non-constant outputs of a vector of layers.
struct StackBlockResult<V: LaneVector> {
  var scaleCos: V
  var scaleSin: V
  var m41: V
  var m42: V
  var tz: V
  var w: V
  var opacity: V
}

/// Whether this build's Swift code targets AVX-512 (32 vector registers): the kernel then runs
/// 32 layers per step as a ``LanePair`` (two independent dependency chains in lock step); with
/// AVX2 a 16-lane vector is already two registers in lock step.
@inline(__always)
var stackRunsPairs: Bool {
  segue_compiled_features() & UInt32(SEGUE_FEATURE_AVX512F) != 0
}

extension StackEvaluationJob {
  /// The block kernel: one lane vector of layers whose 26 input values are at
  /// `inputs + p·stride` (plane `p`: start, duration, then key `k` of channel `c` at
  /// `2 + 4c + k`); `curves` holds the lanes' prepared timing curves
  /// (``CubicBezierBatch/lanes(curve:coefficients:stride:curveCount:)``). About 150 vector
  /// instructions per 16 lanes with FMA (fused multiply-adds through `LaneVector.fma`: Swift does
  /// not fuse `a * b + c` by itself).
  @inline(__always)
  static func evaluateBlock<V: LaneVector>(
    time: Float, inputs: UnsafePointer<Float>, stride: Int, curves: BezierLanes<V>,
    table: UnsafePointer<Float>, stage: StackStage = .frame
  ) -> StackBlockResult<V> {
    let y = solveBlock(
      time: time, inputs: inputs, stride: stride, curves: curves, table: table)
    return finishBlock(y: y, inputs: inputs, stride: stride, stage: stage)
  }

  /// Steps 1–2 of a block: the eased progress `y` (see ``evaluateBlock``).
  @inline(__always)
  static func solveBlock<V: LaneVector>(
    time: Float, inputs: UnsafePointer<Float>, stride: Int, curves: BezierLanes<V>,
    table: UnsafePointer<Float>
  ) -> V {
    @inline(__always) func load(_ plane: Int) -> V { V.load(inputs + plane &* stride) }
    let zero = V(repeating: 0)
    let one = V(repeating: 1)
    // 1. Progress (max maps NaN to 0).
    let x = V.minimum(
      V.maximum(V.div(V.sub(V(repeating: time), load(0)), load(1)), zero), one)
    // 2. Timing curve.
    return CubicBezierBatch.solveUnit(x: x, lanes: curves, table: table).y
  }

  /// Steps 3–6 of a block from its eased progress `y` (see ``evaluateBlock``).
  @inline(__always)
  static func finishBlock<V: LaneVector>(
    y: V, inputs: UnsafePointer<Float>, stride: Int, stage: StackStage = .frame
  ) -> StackBlockResult<V> {
    typealias K = StackConstants
    @inline(__always) func load(_ plane: Int) -> V { V.load(inputs + plane &* stride) }
    @inline(__always) func fma(_ a: V, _ b: V, _ c: V) -> V { V.fma(a, b, c) }
    @inline(__always) func splat(_ f: Float) -> V { V(repeating: f) }
    let zero = splat(0)
    let one = splat(1)
    if stage == .timing {
      return StackBlockResult(
        scaleCos: y, scaleSin: y, m41: y, m42: y, tz: y, w: y, opacity: y)
    }

    // 3. Segment and local v = y·(1/span) − keyStart/span.
    let ge1 = V.lessOrEqual(splat(K.key1), y)
    let ge2 = V.lessOrEqual(splat(K.key2), y)
    let span = V.select(
      ge2, splat(K.inverseSpan2), V.select(ge1, splat(K.inverseSpan1), splat(K.inverseSpan0)))
    let offset = V.select(ge2, splat(K.offset2), V.select(ge1, splat(K.offset1), zero))
    let v = fma(y, span, offset)

    // 4. Catmull–Rom weights on p[i−1], p[i], p[i+1], p[i+2] (Hermite basis and tangents
    // folded), then on keys 0…3 with the end points duplicated.
    let v2 = V.mul(v, v)
    let wa = V.mul(v, fma(fma(splat(-0.5), v, one), v, splat(-0.5)))
    let wb = fma(v2, fma(splat(1.5), v, splat(-2.5)), one)
    let wc = V.mul(v, fma(fma(splat(-1.5), v, splat(2)), v, splat(0.5)))
    let wd = V.mul(v2, fma(splat(0.5), v, splat(-0.5)))
    let w0 = V.select(ge2, zero, V.select(ge1, wa, V.add(wa, wb)))
    let w1 = V.select(ge2, wa, V.select(ge1, wb, wc))
    let w2 = V.select(ge2, wb, V.select(ge1, wc, wd))
    let w3 = V.select(ge2, V.add(wc, wd), V.select(ge1, wd, zero))
    @inline(__always) func channel(_ c: Int) -> V {
      let p = 2 + 4 * c
      let k0 = V.mul(w0, load(p))
      return fma(w3, load(p + 3), fma(w2, load(p + 2), fma(w1, load(p + 1), k0)))
    }
    let tx = channel(0)
    let ty = channel(1)
    let tz = channel(2)
    let scale = channel(3)
    let rot = channel(4)
    let opacity = channel(5)
    if stage == .channels {
      return StackBlockResult(
        scaleCos: scale, scaleSin: rot, m41: tx, m42: ty, tz: tz, w: tz, opacity: opacity)
    }

    // 5.–6. σ·cos and σ·sin of the rotation, the closed-form matrix, the opacity clamp.
    let (sn, sc) = SIMDMath.scaledSinCos(rot, scale: scale)
    let ax = splat(K.anchorX)
    let ay = splat(K.anchorY)
    let w = fma(splat(K.q), tz, one)
    let m41 = fma(ay, sn, fma(V.neg(ax), sc, fma(w, ax, tx)))
    let m42 = fma(V.neg(ay), sc, fma(V.neg(ax), sn, fma(w, ay, ty)))
    return StackBlockResult(
      scaleCos: sc, scaleSin: sn, m41: m41, m42: m42, tz: tz, w: w,
      opacity: V.minimum(V.maximum(opacity, zero), one))
  }

  /// The timing-curve solve for a lane vector (`scratch`: 3 vectors of scratch floats): `s` with
  /// `X(s) ≈ x` and `y = Y(s)` (see the type's documentation, step 2): the shared
  /// `CubicBezierBatch.solveUnit` over the workload's coefficients (`[3x1, 3x2, 3y1, 3y2, 0, 0]`
  /// per curve). Lanes are independent.
  @inline(__always)
  static func solveTiming(
    x: StackVector, curve: StackVector, coefficients: UnsafePointer<Float>, curveCount: Int,
    table: UnsafePointer<Float>, scratch: UnsafeMutablePointer<Float>
  ) -> (s: StackVector, y: StackVector) {
    CubicBezierBatch.solveUnit(
      x: x, curve: curve, coefficients: coefficients,
      stride: StackConstants.coefficientsPerCurve, curveCount: curveCount,
      table: table, scratch: scratch)
  }

  /// `(σ·sin r, σ·cos r)` for a lane vector: the shared `SIMDMath.scaledSinCos` (one reduction
  /// modulo π, minimax polynomials, the sign folded into σ).
  @inline(__always)
  static func scaledSinCos(_ rot: StackVector, scale: StackVector) -> (
    sin: StackVector, cos: StackVector
  ) {
    SIMDMath.scaledSinCos(rot, scale: scale)
  }

  /// The 17 output vectors of a block, in value order.
  @inline(__always)
  static func outputVector(_ r: StackBlockResult<Lanes>, _ k: Int) -> StackVector {
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
    let width = StackVector.scalarCount
    let out = output.baseAddress!
    switch layout {
    case .planar(let outStride):
      let aligned = CacheLine.isAligned(out + range.lowerBound) && outStride % width == 0
      if streamingStores && aligned {
        runBlocks(StackPlanarStores<SegueStreamingStore>(out: out, stride: outStride))
        segue_store_fence()
      } else {
        runBlocks(StackPlanarStores<SegueTemporalStore>(out: out, stride: outStride))
      }
    case .interleaved:
      let aligned = CacheLine.isAligned(out + StackConstants.valuesPerLayer * range.lowerBound)
      let streaming = streamingStores && aligned
      runBlocks(StackInterleavedStores(out: out, streaming: streaming))
      if streaming { segue_store_fence() }
    }
  }

  /// The block loop over ``range`` writing through `sink` (specialised per sink, so its stores
  /// are inlined): pairs of 16-layer blocks in lock step on AVX-512 builds, then single blocks,
  /// then a partial tail.
  @inline(__always)
  func runBlocks<Sink: StackBlockSink>(_ sink: Sink) {
    var j = range.lowerBound
    if stackRunsPairs { j = runVectors(LanePair<Lanes>.self, from: j, sink) }
    j = runVectors(Lanes.self, from: j, sink)
    guard j < range.upperBound else { return }
    // Tail: the inputs of layers past the range are read (inside the padded planes) but their
    // results are not stored; their curves are taken as curve 0.
    let upper = range.upperBound
    let stride = batch.planeStride
    batch.withFloatPlanes { planes in
      batch.curveTables.inverse.withUnsafeBufferPointer { table in
        stackCurveCoefficients.withUnsafeBufferPointer { coefficients in
          var curve = Lanes(repeating: 0)
          for l in 0..<(upper - j) { curve[l] = Float(batch.curveIndex[j + l]) }
          let lanes = CubicBezierBatch.lanes(
            curve: curve, coefficients: coefficients.baseAddress!,
            stride: StackConstants.coefficientsPerCurve,
            curveCount: StackBatch.curves.count)
          let r = Self.evaluateBlock(
            time: time, inputs: planes + j, stride: stride, curves: lanes,
            table: table.baseAddress!, stage: stage)
          sink.putPartial(r, at: j, lanes: upper - j)
        }
      }
    }
  }

  /// Vectors per chunk of the two-pass loop (16: 256 or 512 layers, their eased progress in 1 or 2
  /// KB of stack).
  static var stagedBlocks: Int { 16 }
  /// How far ahead of the current layer the streaming loop prefetches its inputs, in floats (256
  /// bytes: on the C kernel of this workload that the Performance article compares with, a
  /// prefetch 256 bytes ahead measured +15 % and one 1 024 bytes ahead −20 %).
  static var prefetchAhead: Int { 64 }

  /// Evaluates whole vectors of `V.laneCount` layers from layer `start` on and returns the first
  /// layer not done: one pass per vector when the output streams, else two passes per chunk.
  @inline(__always)
  func runVectors<V: LaneVector, Sink: StackBlockSink>(
    _: V.Type, from start: Int, _ sink: Sink
  ) -> Int {
    let upper = range.upperBound
    guard start + V.laneCount <= upper else { return start }
    return batch.withFloatPlanes { planes in
      batch.curveIndex.withUnsafeBufferPointer { curveBuffer in
        batch.curveTables.inverse.withUnsafeBufferPointer { tableBuffer in
          stackCurveCoefficients.withUnsafeBufferPointer { coefficientBuffer in
            let inputs = StackVectorInputs(
              planes: planes, stride: batch.planeStride, curves: curveBuffer.baseAddress!,
              table: tableBuffer.baseAddress!, coefficients: coefficientBuffer.baseAddress!,
              time: time, stage: stage)
            return streamingStores
              ? Self.streamVectors(V.self, inputs, from: start, to: upper, sink)
              : Self.stageVectors(V.self, inputs, from: start, to: upper, sink)
          }
        }
      }
    }
  }

  /// Output far larger than the caches: one pass per vector, the inputs 256 bytes ahead
  /// prefetched (the 43 streams are more than the hardware prefetchers keep ahead of on one
  /// core). The lanes' curves are prepared again only when the curve bytes change (the
  /// workload's j mod 4 pattern: once per run).
  @inline(__always)
  static func streamVectors<V: LaneVector, Sink: StackBlockSink>(
    _: V.Type, _ inputs: StackVectorInputs, from start: Int, to upper: Int, _ sink: Sink
  ) -> Int {
    let width = V.laneCount
    let (planes, stride) = (inputs.planes, inputs.stride)
    // The curve bytes the lanes were prepared for (all curve 0 at first). The lanes are
    // refreshed inline here and in `stageVectors`: a local function capturing `lanes` and `key`
    // measured 17 % slower in an A/B with the AVX2 build.
    var lanes = inputs.lanes(V(repeating: 0))
    var key = (SIMD16<UInt8>(), SIMD16<UInt8>())
    var j = start
    while j + width <= upper {
      if CubicBezierBatch.keyChanged(&key, inputs.curves + j, byteCount: width) {
        lanes = inputs.lanes(V.load(bytes: inputs.curves + j))
      }
      for plane in 0..<StackBatch.planeCount {
        for piece in Swift.stride(from: 0, to: width, by: StackVector.scalarCount) {
          segue_prefetch(planes + plane &* stride + j + piece + prefetchAhead)
        }
      }
      let r = evaluateBlock(
        time: inputs.time, inputs: planes + j, stride: stride, curves: lanes,
        table: inputs.table, stage: inputs.stage)
      sink.put(r, at: j)
      j += width
    }
    return j
  }

  /// Output in the caches: chunks of `stagedBlocks` vectors in two passes, the timing curves of
  /// the whole chunk first (into a small buffer), then the channels, matrices and stores. Each
  /// pass has a short dependency chain per vector, so the core overlaps several vectors; one pass
  /// per vector leaves the next vector's progress, gather and Newton step waiting behind the
  /// current one's (measured: 3–6 % faster with AVX2).
  @inline(__always)
  static func stageVectors<V: LaneVector, Sink: StackBlockSink>(
    _: V.Type, _ inputs: StackVectorInputs, from start: Int, to upper: Int, _ sink: Sink
  ) -> Int {
    let width = V.laneCount
    let (planes, stride) = (inputs.planes, inputs.stride)
    var lanes = inputs.lanes(V(repeating: 0))
    var key = (SIMD16<UInt8>(), SIMD16<UInt8>())
    var j = start
    let chunk = stagedBlocks
    return withUnsafeTemporaryAllocation(of: V.self, capacity: chunk) { buffer in
      let ys = buffer.baseAddress!
      while j + width <= upper {
        let blocks = Swift.min(chunk, (upper - j) / width)
        for b in 0..<blocks {
          let jb = j + b &* width
          if CubicBezierBatch.keyChanged(&key, inputs.curves + jb, byteCount: width) {
            lanes = inputs.lanes(V.load(bytes: inputs.curves + jb))
          }
          ys[b] = solveBlock(
            time: inputs.time, inputs: planes + jb, stride: stride, curves: lanes,
            table: inputs.table)
        }
        for b in 0..<blocks {
          let jb = j + b &* width
          let r = finishBlock(y: ys[b], inputs: planes + jb, stride: stride, stage: inputs.stage)
          sink.put(r, at: jb)
        }
        j += blocks &* width
      }
      return j
    }
  }
}

/// What a run over whole vectors reads: the batch's planes, curve bytes, inverse tables and
/// coefficients (pointers valid during the run), the time and the stage.
struct StackVectorInputs {
  let planes: UnsafePointer<Float>
  let stride: Int
  let curves: UnsafePointer<UInt8>
  let table: UnsafePointer<Float>
  let coefficients: UnsafePointer<Float>
  let time: Float
  let stage: StackStage

  /// The prepared timing curves of lanes whose curve indices are `curve`.
  @inline(__always)
  func lanes<V: LaneVector>(_ curve: V) -> BezierLanes<V> {
    CubicBezierBatch.lanes(
      curve: curve, coefficients: coefficients, stride: StackConstants.coefficientsPerCurve,
      curveCount: StackBatch.curves.count)
  }
}

/// Where the block loop writes the 17 output vectors of `V.laneCount` layers (specialised, so the
/// stores inline).
protocol StackBlockSink {
  /// All layers of the vector starting at layer `j`.
  func put<V: LaneVector>(_ r: StackBlockResult<V>, at j: Int)
  /// The first `lanes` layers of the 16-layer block starting at layer `j`.
  func putPartial(_ r: StackBlockResult<Lanes>, at j: Int, lanes: Int)
}

/// How a whole 64-byte vector is stored.
protocol SegueVectorStore {
  static func store(_ v: StackVector, _ p: UnsafeMutablePointer<Float>)
}

/// A plain store (any alignment).
enum SegueTemporalStore: SegueVectorStore {
  @inline(__always)
  static func store(_ v: StackVector, _ p: UnsafeMutablePointer<Float>) {
    segue_store_f32x16(p, v)
  }
}

/// A non-temporal store (64-byte aligned `p`; a `segue_store_fence()` after the run).
enum SegueStreamingStore: SegueVectorStore {
  @inline(__always)
  static func store(_ v: StackVector, _ p: UnsafeMutablePointer<Float>) {
    segue_stream_f32x16(p, v)
  }
}

/// Seventeen planes `stride` floats apart.
struct StackPlanarStores<Store: SegueVectorStore>: StackBlockSink {
  let out: UnsafeMutablePointer<Float>
  let stride: Int

  @inline(__always)
  func put<V: LaneVector>(_ r: StackBlockResult<V>, at j: Int) {
    // Written out so that each value is a constant or a register (a loop over k compiles to a
    // jump table per store); plane by plane, all 16-layer pieces of a plane back to back (whole
    // adjacent 64-byte lines).
    let pieces = V.laneCount / StackVector.scalarCount
    @inline(__always) func plane(_ k: Int, _ value: (Int) -> StackVector) {
      let p = out + k &* stride + j
      for piece in 0..<pieces { Store.store(value(piece), p + StackVector.scalarCount * piece) }
    }
    let zero = StackVector(repeating: 0)
    plane(0) { r.scaleCos.piece($0) }
    plane(1) { r.scaleSin.piece($0) }
    plane(2) { _ in zero }
    plane(3) { _ in zero }
    plane(4) { -r.scaleSin.piece($0) }
    plane(5) { r.scaleCos.piece($0) }
    plane(6) { _ in zero }
    plane(7) { _ in zero }
    plane(8) { _ in StackVector(repeating: StackConstants.m31) }
    plane(9) { _ in StackVector(repeating: StackConstants.m32) }
    plane(10) { _ in StackVector(repeating: 1) }
    plane(11) { _ in StackVector(repeating: StackConstants.q) }
    plane(12) { r.m41.piece($0) }
    plane(13) { r.m42.piece($0) }
    plane(14) { r.tz.piece($0) }
    plane(15) { r.w.piece($0) }
    plane(16) { r.opacity.piece($0) }
  }

  func putPartial(_ r: StackBlockResult<Lanes>, at j: Int, lanes: Int) {
    for k in 0..<StackConstants.valuesPerLayer {
      let v = StackEvaluationJob.outputVector(r, k)
      for l in 0..<lanes { out[k * stride + j + l] = v[l] }
    }
  }
}

/// Records of 17 values (`out[17·j + k]`); whole blocks of a 64-byte aligned buffer may stream.
struct StackInterleavedStores: StackBlockSink {
  let out: UnsafeMutablePointer<Float>
  let streaming: Bool

  func put<V: LaneVector>(_ r: StackBlockResult<V>, at j: Int) {
    for piece in 0..<(V.laneCount / StackVector.scalarCount) {
      let block = StackBlockResult(
        scaleCos: r.scaleCos.piece(piece), scaleSin: r.scaleSin.piece(piece),
        m41: r.m41.piece(piece), m42: r.m42.piece(piece), tz: r.tz.piece(piece),
        w: r.w.piece(piece), opacity: r.opacity.piece(piece))
      putBlock(block, at: j + StackVector.scalarCount * piece)
    }
  }

  /// One whole 16-layer block: 17 cache lines.
  func putBlock(_ r: StackBlockResult<Lanes>, at j: Int) {
    let width = StackVector.scalarCount
    let values = StackConstants.valuesPerLayer
    let dst = out + values * j
    guard streaming else {
      putPartial(r, at: j, lanes: width)
      return
    }
    // Transpose into 17 whole cache lines on the stack, then stream them out.
    var records = (
      StackVector(), StackVector(), StackVector(), StackVector(), StackVector(),
      StackVector(), StackVector(), StackVector(), StackVector(), StackVector(),
      StackVector(), StackVector(), StackVector(), StackVector(), StackVector(),
      StackVector(), StackVector()
    )
    withUnsafeMutableBytes(of: &records) { raw in
      let records = raw.baseAddress!.assumingMemoryBound(to: Float.self)
      for k in 0..<values {
        let v = StackEvaluationJob.outputVector(r, k)
        for l in 0..<width { records[values * l + k] = v[l] }
      }
      // The block's `values · width` floats are `values` whole lines of `width` floats.
      for m in 0..<values {
        segue_stream_f32x16(
          dst + width * m,
          raw.load(fromByteOffset: CacheLine.bytes * m, as: SIMD16<Float>.self))
      }
    }
  }

  func putPartial(_ r: StackBlockResult<Lanes>, at j: Int, lanes: Int) {
    let values = StackConstants.valuesPerLayer
    let dst = out + values * j
    for k in 0..<values {
      let v = StackEvaluationJob.outputVector(r, k)
      for l in 0..<lanes { dst[values * l + k] = v[l] }
    }
  }
}

// MARK: - Scalar path

extension StackEvaluationJob {
  /// One layer in scalar `Float`, the same steps as ``evaluateBlock`` (with exact divisions where
  /// the SIMD path multiplies by an approximate reciprocal); writes 17 values via `put`. `key(c,
  /// k)` is key `k` of channel `c`.
  @inline(always)
  static func evaluateLayer(
    time: Float, start: Float, duration: Float, curve: Int, coefficients: UnsafePointer<Float>,
    table: UnsafePointer<Float>, key: (Int, Int) -> Float, put: (Int, Float) -> Void
  ) {
    var x = (time - start) / duration
    if !(x >= 0) { x = 0 }
    if x > 1 { x = 1 }
    let y = StackScalarCurve(
      coefficients + StackConstants.coefficientsPerCurve * curve, x: x
    ).solve(curve: curve, table: table)
    finishLayer(y: y, key: key, put: put)
  }

  /// Steps 3–6 of a layer from its eased progress `y` (see ``evaluateLayer``).
  @inline(always)
  static func finishLayer(y: Float, key: (Int, Int) -> Float, put: (Int, Float) -> Void) {
    typealias K = StackConstants
    func fma(_ a: Float, _ b: Float, _ c: Float) -> Float { segue_fma_f32(a, b, c) }
    let segment = (y >= K.key1 ? 1 : 0) + (y >= K.key2 ? 1 : 0)
    let v: Float
    switch segment {
    case 0: v = y * K.inverseSpan0
    case 1: v = fma(y, K.inverseSpan1, K.offset1)
    default: v = fma(y, K.inverseSpan2, K.offset2)
    }
    let v2 = v * v
    let wa = v * fma(fma(-0.5, v, 1), v, -0.5)
    let wb = fma(v2, fma(1.5, v, -2.5), 1)
    let wc = v * fma(fma(-1.5, v, 2), v, 0.5)
    let wd = v2 * fma(0.5, v, -0.5)
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
      fma(w3, key(c, 3), fma(w2, key(c, 2), fma(w1, key(c, 1), w0 * key(c, 0))))
    }
    let tx = channel(0)
    let ty = channel(1)
    let tz = channel(2)
    let scale = channel(3)
    let rot = channel(4)
    var opacity = channel(5)
    let (sn, sc) = stackScaledSinCos(rot, scale: scale)
    let w = fma(K.q, tz, 1)
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
    put(12, fma(K.anchorY, sn, fma(-K.anchorX, sc, fma(w, K.anchorX, tx))))
    put(13, fma(-K.anchorY, sc, fma(-K.anchorX, sn, fma(w, K.anchorY, ty))))
    put(14, tz)
    put(15, w)
    put(16, opacity)
  }

  func runScalar() {
    let time = self.time
    let layout = self.layout
    let out = output.baseAddress!
    let stride = batch.planeStride
    batch.withFloatPlanes { planes in
      batch.curveTables.inverse.withUnsafeBufferPointer { tableBuffer in
        stackCurveCoefficients.withUnsafeBufferPointer { coefficientBuffer in
          for j in range {
            Self.evaluateLayer(
              time: time, start: planes[StackBatch.startPlane * stride + j],
              duration: planes[StackBatch.durationPlane * stride + j],
              curve: Int(batch.curveIndex[j]), coefficients: coefficientBuffer.baseAddress!,
              table: tableBuffer.baseAddress!,
              key: { planes[StackBatch.keyPlane(channel: $0, key: $1) * stride + j] },
              put: { k, value in out[layout.index(layer: j, value: k)] = value })
          }
        }
      }
    }
  }
}

/// The timing curve of one layer for the scalar path: `X(s) − x` and `X'(s)` in power form over
/// the scaled control points (as ``/Segue/CubicBezierBatch``'s solver), and the solve.
struct StackScalarCurve {
  typealias K = StackConstants
  let p1: Float
  let p2: Float
  let q1: Float
  let q2: Float
  let x: Float
  /// `X'(s) = (slope2·s + slope1)·s + p1`.
  let slope2: Float
  let slope1: Float

  /// The curve whose `[3x1, 3x2, 3y1, 3y2]` are at `p`, solved for `X(s) = x`.
  @inline(always)
  init(_ p: UnsafePointer<Float>, x: Float) {
    (p1, p2, q1, q2) = (p[0], p[1], p[2], p[3])
    self.x = x
    slope2 = 3 * (1 + p1 - p2)
    slope1 = 2 * (p2 - 2 * p1)
  }

  @inline(always)
  func fma(_ a: Float, _ b: Float, _ c: Float) -> Float { segue_fma_f32(a, b, c) }

  /// `X(s) − x`.
  @inline(always)
  func residual(_ s: Float) -> Float {
    let u = 1 - s
    return fma(u * s, fma(p2, s, p1 * u), fma(s * s, s, -x))
  }

  /// `X'(s)`.
  @inline(always)
  func slope(_ s: Float) -> Float { fma(fma(slope2, s, slope1), s, p1) }

  /// `y = Y(s)` with `X(s) ≈ x`: the first guess from the inverse table of curve `curve`, Newton
  /// steps, and the bracketed fallback where the residual stays too large.
  @inline(always)
  func solve(curve: Int, table: UnsafePointer<Float>) -> Float {
    let segments = StackCurveTables.segments
    let f = x * Float(segments)
    let cell = min(f.rounded(.towardZero), Float(segments - 1))
    let b = curve * (segments + 1) + Int(cell)
    let lo = table[b]
    let hi = table[b + 1]
    var s = fma(hi - lo, f - cell, lo)
    for _ in 0..<K.newtonSteps {
      let e = residual(s)
      let d = slope(s)
      if !(d * d < K.flatSquared) { s = s - e / d }
      if !(s >= 0) { s = 0 }
      if s > 1 { s = 1 }
    }
    let e = residual(s)
    let d = slope(s)
    if e * e >= K.toleranceSquared && e * e >= CubicBezierBatch.slopeToleranceSquared * (d * d) {
      s = bracketed(s, residual: e, lo: lo, hi: hi)
    }
    let u = 1 - s
    return fma(u * s, fma(q2, s, q1 * u), s * s * s)
  }

  /// The SIMD kernel's safeguarded Newton fallback, lane for lane: Newton steps kept inside the
  /// table cell's bracket (widened by the margin), bisecting when a step leaves it; the best point
  /// seen.
  @inline(always)
  func bracketed(_ s: Float, residual e: Float, lo: Float, hi: Float) -> Float {
    var a = min(max(lo - CubicBezierBatch.bracketMargin, 0), 1)
    var c = min(max(hi + CubicBezierBatch.bracketMargin, 0), 1)
    var best = s
    var bestE2 = e * e
    var t = s > a && s < c ? s : (a + c) * 0.5
    for _ in 0..<CubicBezierBatch.fallbackSteps {
      let et = residual(t)
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
    return best
  }
}

/// `(σ·sin r, σ·cos r)` in `Float`: the scalar twin of the SIMD kernel's, bitwise equal to it
/// (`SIMDMath.scaledSinCos`).
@inline(always)
func stackScaledSinCos(_ rot: Float, scale: Float) -> (sin: Float, cos: Float) {
  SIMDMath.scaledSinCos(rot, scale: scale)
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
