import SegueSIMDSupport

/// A keyframe track's shape — key times, calculation mode, timing functions, Kochanek–Bartels
/// parameters, but no values — sampled at `F` progresses and reduced to an `F × K` weight matrix.
///
/// In the linear, discrete and cubic calculation modes the channel value of a track at any
/// progress `u` is a fixed linear combination of its `K` key values: where `u` lands (the segment
/// and the eased fraction `s`) depends only on the key times and timing functions, linear blends
/// `vᵢ·(1 − s) + vᵢ₊₁·s`, discrete copies one key, and the Kochanek–Bartels tangents are linear
/// in the keys, so each Hermite segment is too. Hence
///
///     value_f = Σₖ W[f][k] · v_k,      W[f][k] = value of the track with keys e_k at u_f,
///
/// where `e_k` is the `k`-th unit vector. ``weights`` is built exactly that way, in `Double`,
/// from ``KeyframeTrack/value(at:beforeFlag:)`` of `K` one-channel tracks with the unit keys (so the bake
/// inherits every rule of the scalar evaluation: equal key times, exact keys, unclamped timing
/// functions, the overall timing function, extrapolation outside `[0, 1]`). Rows of `W` sum to 1 (linear and discrete rows are convex; cubic
/// rows may have negative entries, e.g. Catmull–Rom at the middle of an inner segment of even
/// key times is `[−1/16, 9/16, 9/16, −1/16]`).
///
/// The paced modes are rejected: their key times (paced) or arc-length table (cubicPaced) are
/// computed from the values, so the value is not linear in them.
public struct KeyframeBakeTemplate: Hashable, Sendable {
  /// Number of keys `K`.
  public let keyCount: Int
  /// The frame progresses `u_f` (unitless, as given; outside `[0, 1]` the first or last segment
  /// extrapolates, as in ``KeyframeTrack/value(at:beforeFlag:)``).
  public let progress: [Double]
  /// The calculation mode (linear, discrete or cubic).
  public let calculationMode: CalculationMode
  /// `W`, `F × K` row-major in `Double`: `weights[f·K + k]`.
  public let weights: [Double]
  /// ``weights`` rounded to `Float` (what both paths multiply with).
  public let floatWeights: [Float]

  /// Number of frames `F`.
  public var frameCount: Int { progress.count }

  /// Builds the weights of a track shape at the frame progresses.
  ///
  /// - Parameters:
  ///   - keyCount: `K`, `≥ 2` (`≥ 1` for discrete).
  ///   - keyTimes: unitless fractions of the duration, or `nil` for even spacing, as
  ///     ``KeyframeTrack`` takes them (and checked as it checks them; so are the next six).
  ///   - calculationMode: linear, discrete or cubic; the paced modes are rejected.
  ///   - timingFunctions: one per segment, or `nil`.
  ///   - timingFunction: the animation's own curve, or `nil` for linear.
  ///   - tensionValues: one per key, in `[−1, 1]`, or `nil` (cubic mode only).
  ///   - continuityValues: one per key, in `[−1, 1]`, or `nil` (cubic mode only).
  ///   - biasValues: one per key, in `[−1, 1]`, or `nil` (cubic mode only).
  ///   - progress: the `F ≥ 1` frame progresses `u_f`, unitless, finite (evaluated as
  ///     ``KeyframeTrack/value(at:beforeFlag:)`` does).
  /// - Throws: ``ValidationError``: `"calculationMode"` ``ValidationError/Reason/invalidState(_:)``
  ///   for paced and cubicPaced; `"keyCount"` ``ValidationError/Reason/tooFew(minimum:actual:)``;
  ///   `"progress"` ``ValidationError/Reason/tooFew(minimum:actual:)`` when empty or
  ///   ``ValidationError/Reason/notFinite`` with the frame index; and whatever
  ///   ``KeyframeTrack/init(values:keyTimes:calculationMode:timingFunctions:timingFunction:tensionValues:continuityValues:biasValues:)``
  ///   throws for the shape (`keyTimes`, `timingFunctions`, `tensionValues`, …).
  public init(
    keyCount: Int, keyTimes: [Double]? = nil, calculationMode: CalculationMode = .linear,
    timingFunctions: [TimingFunction]? = nil, timingFunction: TimingFunction? = nil,
    tensionValues: [Double]? = nil, continuityValues: [Double]? = nil,
    biasValues: [Double]? = nil, progress: [Double]
  ) throws(ValidationError) {
    if calculationMode == .paced || calculationMode == .cubicPaced {
      throw ValidationError(
        field: "calculationMode",
        reason: .invalidState(
          "\(calculationMode.rawValue) derives its timing from the key values, so it is not a "
            + "fixed linear combination of them and cannot be baked"))
    }
    let minimum = calculationMode == .discrete ? 1 : 2
    guard keyCount >= minimum else {
      throw ValidationError(field: "keyCount", reason: .tooFew(minimum: minimum, actual: keyCount))
    }
    guard !progress.isEmpty else {
      throw ValidationError(field: "progress", reason: .tooFew(minimum: 1, actual: 0))
    }
    for (f, u) in progress.enumerated() { try Validate.finite(u, "progress", index: f) }
    let frames = progress.count
    var w = [Double](repeating: 0, count: frames * keyCount)
    var unit = [Double](repeating: 0, count: keyCount)
    for k in 0..<keyCount {
      unit[k] = 1
      if k > 0 { unit[k - 1] = 0 }
      let track = try KeyframeTrack<Double>(
        values: unit, keyTimes: keyTimes, calculationMode: calculationMode,
        timingFunctions: timingFunctions, timingFunction: timingFunction,
        tensionValues: tensionValues, continuityValues: continuityValues, biasValues: biasValues)
      for f in 0..<frames { w[f * keyCount + k] = track.value(at: progress[f]) }
    }
    self.keyCount = keyCount
    self.progress = progress
    self.calculationMode = calculationMode
    self.weights = w
    self.floatWeights = w.map { Float($0) }
  }

  /// The shape of `track` (its values are ignored) at the frame progresses.
  ///
  /// - Throws: as ``init(keyCount:keyTimes:calculationMode:timingFunctions:timingFunction:tensionValues:continuityValues:biasValues:progress:)``,
  ///   and `"calculationMode"` ``ValidationError/Reason/invalidState(_:)`` for a linear track
  ///   whose `Value` does not interpolate channel-wise (a transform interpolated by
  ///   decomposition is not linear in its channels).
  public init<Value: Interpolatable>(track: KeyframeTrack<Value>, progress: [Double])
    throws(ValidationError)
  {
    if track.calculationMode == .linear && !Value.interpolatesChannelWise {
      throw ValidationError(
        field: "calculationMode",
        reason: .invalidState(
          "linear interpolation of \(Value.self) is not channel-wise, so it cannot be baked"))
    }
    try self.init(
      keyCount: track.values.count, keyTimes: track.keyTimes,
      calculationMode: track.calculationMode, timingFunctions: track.timingFunctions,
      timingFunction: track.timingFunction, tensionValues: track.tensionValues,
      continuityValues: track.continuityValues, biasValues: track.biasValues, progress: progress)
  }

  /// The key values of `layers` tracks (one array of `K` values per layer, `C` channels each) as
  /// the `K × (L·C)` matrix a ``KeyframeBakeJob`` reads: channel `c` of key `k` of layer `l` at
  /// row `k`, column `l·C + c`; rounded to `Float`.
  ///
  /// - Throws: ``ValidationError``: `"layers"` ``ValidationError/Reason/tooFew(minimum:actual:)``
  ///   when empty; `"layers"` ``ValidationError/Reason/countMismatch(expected:actual:)`` with the
  ///   layer index when a layer does not have as many keys as layer 0; `"elements"`
  ///   ``ValidationError/Reason/notFinite`` as ``BatchMatrix/init(rows:columns:elements:)``.
  public static func keyValues<Value: Interpolatable>(_ layers: [[Value]])
    throws(ValidationError) -> BatchMatrix
  {
    guard let first = layers.first else {
      throw ValidationError(field: "layers", reason: .tooFew(minimum: 1, actual: 0))
    }
    let k = first.count
    let c = Value.channelCount
    let n = layers.count * c
    var elements = [Float](repeating: 0, count: k * n)
    for (l, keys) in layers.enumerated() {
      guard keys.count == k else {
        throw ValidationError(
          field: "layers", index: l, reason: .countMismatch(expected: k, actual: keys.count))
      }
      for (i, value) in keys.enumerated() {
        for (ch, x) in value.channels.enumerated() { elements[i * n + l * c + ch] = Float(x) }
      }
    }
    return try BatchMatrix(rows: k, columns: n, elements: elements)
  }
}

/// Bakes one keyframe template for many layers: `out (F × N) = W (F × K) · V (K × N)`, where `W`
/// is the template's weight matrix (``KeyframeBakeTemplate``) and `V` holds the `K` key values of
/// `N` = layers × channels columns. Row `f` of the output is frame `f`:
/// `output[f·N + j] = Σₖ W[f][k]·V[k][j]`, in `Float`.
///
/// Paths (``BatchPath``): BLAS is one `cblas_sgemm` (F × K)·(K × N) per column chunk; SIMD walks
/// column tiles of at most 1024 values whose `K` key rows fit 32 KB (so they stay in L1 while
/// all `F` frames of the tile are written), sixteen columns per `SIMD16<Float>` and four frames per pass over the keys, the sum taken in key order `k = 0, 1, …`
/// without fused multiply-adds.
///
/// **Accuracy.** Against the exact value `Σₖ W[f][k]·v_k` of the `Float` keys (which is what
/// ``KeyframeTrack/value(at:beforeFlag:)`` computes in `Double`, up to `Double` rounding):
/// `|out − exact| ≤ (K + 2)·2⁻²⁴·Σₖ |W[f][k]|·|v_k|` — one rounding of each weight to `Float`,
/// `K` roundings in the sum (either path; BLAS may fuse, which only removes roundings).
///
/// Like every batch job the job owns no output memory and allocates nothing while running.
public struct KeyframeBakeJob: @unchecked Sendable {
  /// The template (shape and frames).
  public var template: KeyframeBakeTemplate
  /// The key values `V`, `K × N` (``KeyframeBakeTemplate/keyValues(_:)`` builds it from tracks).
  public var values: BatchMatrix
  /// The destination, at least `F·N` values: `output[f·N + j]`.
  public var output: UnsafeMutableBufferPointer<Float>
  /// The path to run (default ``BatchPath/automatic``).
  public var path: BatchPath
  /// Whether the SIMD path may use non-temporal stores (when `N` is a multiple of 16 and the
  /// buffer is 64-byte aligned); worth it when the output is much larger than the caches. The
  /// results are identical.
  public var streamingStores: Bool

  /// Creates a job; nothing is checked until ``validate()`` or ``run(threads:)``.
  public init(
    template: KeyframeBakeTemplate, values: BatchMatrix,
    output: UnsafeMutableBufferPointer<Float>, path: BatchPath = .automatic,
    streamingStores: Bool = false
  ) {
    self.template = template
    self.values = values
    self.output = output
    self.path = path
    self.streamingStores = streamingStores
  }

  /// The matrix product's shape: `F × K × N`.
  public var shape: BatchProductShape {
    BatchProductShape(rows: template.frameCount, inner: template.keyCount, columns: values.columns)
  }

  /// Checks the job without running it.
  ///
  /// - Throws: ``ValidationError``: `"path"` ``ValidationError/Reason/invalidState(_:)`` for
  ///   ``BatchPath/blas`` in a build without BLAS; `"values.rows"`
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` unless `V` has `K` rows;
  ///   `"values.columns"` / `"progress"` ``ValidationError/Reason/outOfRange(lower:upper:)`` when
  ///   `N` or `F` exceeds CBLAS's 32-bit `int`; `"output"`
  ///   ``ValidationError/Reason/tooFew(minimum:actual:)`` when the buffer is shorter than `F·N`.
  public func validate() throws(ValidationError) {
    try path.checkAvailable()
    try Validate.count(values.rows, equals: template.keyCount, "values.rows")
    try BatchBLAS.checkDimension(values.columns, "values.columns")
    try BatchBLAS.checkDimension(template.frameCount, "progress")
    try Validate.matrix(
      output.count, rows: template.frameCount, columns: values.columns, "output")
  }

  /// Validates, then computes the whole output on the path ``path`` resolves to, with the
  /// columns split into chunks (multiples of 16) over `threads` threads.
  ///
  /// - Returns: the path that ran, ``BatchPath/simd`` or ``BatchPath/blas``.
  /// - Throws: what ``validate()`` throws, and `"threads"` ``ValidationError/Reason/notPositive``.
  @discardableResult
  public func run(threads: Int = 1) throws(ValidationError) -> BatchPath {
    try validate()
    let ran = path.resolved(for: shape)
    let job = self
    try BatchThreads.forEachChunk(of: 0..<values.columns, threads: threads) { chunk in
      job.runUnchecked(columns: chunk, path: ran)
    }
    return ran
  }

  /// Columns `columns` of every frame, on `path` (`.simd` or `.blas`); validated by the caller.
  func runUnchecked(columns: Range<Int>, path: BatchPath) {
    guard !columns.isEmpty else { return }
    let n = values.columns
    let frames = template.frameCount
    let keys = template.keyCount
    let out = output.baseAddress!
    template.floatWeights.withUnsafeBufferPointer { w in
      values.elements.withUnsafeBufferPointer { v in
        if path == .blas {
          BatchBLAS.sgemm(
            m: frames, n: columns.count, k: keys, a: w.baseAddress!, lda: keys,
            b: v.baseAddress! + columns.lowerBound, ldb: n, c: out + columns.lowerBound, ldc: n)
        } else {
          let streaming =
            streamingStores && n % BatchOutput.vectorWidth == 0
            && columns.lowerBound % BatchOutput.vectorWidth == 0
            && CacheLine.isAligned(out)
          Self.weightedSumSIMD(
            weights: w.baseAddress!, frames: frames, keys: keys, values: v.baseAddress!,
            valueStride: n, columns: columns, output: out, outputStride: n,
            streaming: streaming)
        }
      }
    }
  }

  /// Columns per tile of the SIMD path for `keys` key rows: the tile's `K` rows fill at most
  /// 32 KB (so they stay in L1 while every frame is written), between 128 and 1024 columns, a
  /// multiple of 16.
  static func tileColumns(keys: Int) -> Int {
    Swift.min(Swift.max(8192 / Swift.max(keys, 1), 128), 1024) / KeyframeBakeSum.width
      * KeyframeBakeSum.width
  }

  /// `output[f·outputStride + j] = Σₖ weights[f·keys + k]·values[k·valueStride + j]` for `j` in
  /// `columns`, tile by tile; sixteen columns per vector, a scalar tail in the same order.
  static func weightedSumSIMD(
    weights: UnsafePointer<Float>, frames: Int, keys: Int, values: UnsafePointer<Float>,
    valueStride: Int, columns: Range<Int>, output: UnsafeMutablePointer<Float>,
    outputStride: Int, streaming: Bool
  ) {
    let sum = KeyframeBakeSum(
      weights: weights, keys: keys, values: values, valueStride: valueStride, output: output,
      outputStride: outputStride, streaming: streaming)
    let tile = tileColumns(keys: keys)
    var tileStart = columns.lowerBound
    while tileStart < columns.upperBound {
      let tileEnd = Swift.min(tileStart + tile, columns.upperBound)
      var f = 0
      while f + KeyframeBakeSum.framesPerPass <= frames {
        sum.fourFrames(from: f, columns: tileStart..<tileEnd)
        f += KeyframeBakeSum.framesPerPass
      }
      while f < frames {
        sum.oneFrame(f, columns: tileStart..<tileEnd)
        f += 1
      }
      tileStart = tileEnd
    }
    if streaming { segue_store_fence() }
  }

  /// The scalar columns after the last whole vector, summed in the same order as the vectors.
  @inline(__always)
  static func scalarTail(
    row: UnsafePointer<Float>, keys: Int, values: UnsafePointer<Float>, valueStride: Int,
    columns: Range<Int>, output: UnsafeMutablePointer<Float>
  ) {
    for j in columns {
      var acc = row[0] * values[j]
      var k = 1
      while k < keys {
        acc += row[k] * values[k * valueStride + j]
        k += 1
      }
      output[j] = acc
    }
  }
}

/// Sixteen floats from `p` (any alignment).
@inline(__always)
func load16(_ p: UnsafePointer<Float>) -> SIMD16<Float> {
  UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self)
}

/// The operands of ``KeyframeBakeJob/weightedSumSIMD(weights:frames:keys:values:valueStride:columns:output:outputStride:streaming:)``
/// and its passes over one tile of columns: sixteen columns per vector, then a scalar tail summed
/// in the same order.
struct KeyframeBakeSum {
  let weights: UnsafePointer<Float>
  let keys: Int
  let values: UnsafePointer<Float>
  let valueStride: Int
  let output: UnsafeMutablePointer<Float>
  let outputStride: Int
  let streaming: Bool

  /// Frames per pass of ``fourFrames(from:columns:)``: they share each load of a key row's
  /// values.
  static var framesPerPass: Int { 4 }
  /// Columns per vector.
  static var width: Int { BatchOutput.vectorWidth }

  /// Frames `f ..< f + 4` of `columns`.
  @inline(__always)
  func fourFrames(from f: Int, columns: Range<Int>) {
    let r0 = weights + f * keys
    let r1 = r0 + keys
    let r2 = r1 + keys
    let r3 = r2 + keys
    let d0 = output + f * outputStride
    let d1 = d0 + outputStride
    let d2 = d1 + outputStride
    let d3 = d2 + outputStride
    let vectorEnd = columns.lowerBound + columns.count / Self.width * Self.width
    var j = columns.lowerBound
    while j < vectorEnd {
      let v0 = load16(values + j)
      var a0 = SIMD16<Float>(repeating: r0[0]) * v0
      var a1 = SIMD16<Float>(repeating: r1[0]) * v0
      var a2 = SIMD16<Float>(repeating: r2[0]) * v0
      var a3 = SIMD16<Float>(repeating: r3[0]) * v0
      var k = 1
      while k < keys {
        let v = load16(values + k * valueStride + j)
        a0 += SIMD16<Float>(repeating: r0[k]) * v
        a1 += SIMD16<Float>(repeating: r1[k]) * v
        a2 += SIMD16<Float>(repeating: r2[k]) * v
        a3 += SIMD16<Float>(repeating: r3[k]) * v
        k += 1
      }
      BatchOutput.store(a0, at: d0 + j, streaming: streaming)
      BatchOutput.store(a1, at: d1 + j, streaming: streaming)
      BatchOutput.store(a2, at: d2 + j, streaming: streaming)
      BatchOutput.store(a3, at: d3 + j, streaming: streaming)
      j += Self.width
    }
    for i in 0..<Self.framesPerPass {
      KeyframeBakeJob.scalarTail(
        row: weights + (f + i) * keys, keys: keys, values: values, valueStride: valueStride,
        columns: j..<columns.upperBound, output: output + (f + i) * outputStride)
    }
  }

  /// Frame `f` of `columns`.
  @inline(__always)
  func oneFrame(_ f: Int, columns: Range<Int>) {
    let row = weights + f * keys
    let dst = output + f * outputStride
    let vectorEnd = columns.lowerBound + columns.count / Self.width * Self.width
    var j = columns.lowerBound
    while j < vectorEnd {
      var acc = SIMD16<Float>(repeating: row[0]) * load16(values + j)
      var k = 1
      while k < keys {
        acc += SIMD16<Float>(repeating: row[k]) * load16(values + k * valueStride + j)
        k += 1
      }
      BatchOutput.store(acc, at: dst + j, streaming: streaming)
      j += Self.width
    }
    KeyframeBakeJob.scalarTail(
      row: row, keys: keys, values: values, valueStride: valueStride,
      columns: j..<columns.upperBound, output: dst)
  }
}
