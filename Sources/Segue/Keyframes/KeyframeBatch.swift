/// One scalar channel of many compiled keyframe tracks that share a layout (calculation mode, key
/// count, timing functions and, outside the paced modes, key times), prepared for batch
/// evaluation in `Float` lanes: lane `j` is track `j`.
///
/// Every mode is reduced at compile time (in `Double`, rounded once to `Float`) to a list of
/// `S` **pieces**, each with a start knot `tₛ` (unitless progress), the inverse of its length, and
/// its end values (and, in the cubic modes, Hermite tangents), stored per lane:
///
/// * linear, paced: `S = K − 1`, piece `s` is segment `s`, `v(x) = pₛ·(1 − x) + pₛ₊₁·x`. Paced
///   knots are the track's pace-derived key times (``CompiledKeyframeTrack/keyTimes``), which
///   differ from lane to lane.
/// * cubic: `S = K − 1`, `v(x) = h00(x)·pₛ + h10(x)·DDₛ + h01(x)·pₛ₊₁ + h11(x)·DSₛ₊₁`
///   (Kochanek–Bartels tangents computed once by ``KeyframeTrack``).
/// * cubicPaced: `S = samplesPerSegment·(K − 1)` pieces, one per chord of the arc-length table:
///   knot `j` is ``CompiledKeyframeTrack/arcLengths```[j]` (or `j / S` when the curve has zero
///   length) and the piece is the Hermite segment restricted to spline parameters
///   `[m/N, (m + 1)/N]` (`N` = samplesPerSegment, `m = j mod N`) — again a cubic Hermite curve,
///   with end points `H(a)`, `H(b)` and tangents `H'(a)/N`, `H'(b)/N`. Linear interpolation of
///   the arc-length table followed by the spline is then exactly this piece at the local
///   fraction, so the kernel treats cubicPaced like cubic.
/// * discrete: `S = K` pieces, knot `kᵢ`, value `pᵢ`.
///
/// Planes are piece-major with ``laneStride`` (the track count rounded up to 16, padded lanes
/// zero): `plane[s·laneStride + j]`.
public struct KeyframeBatch: Sendable {
  /// The tracks, in lane order.
  public let tracks: [CompiledKeyframeTrack]
  /// The channel of each track this batch evaluates.
  public let channel: Int
  /// The shared calculation mode.
  public let calculationMode: CalculationMode
  /// Number of pieces `S` (see the type's description).
  public let pieceCount: Int
  /// Distance between pieces in the planes: `tracks.count` rounded up to a multiple of 16.
  public let laneStride: Int
  /// Start knot `tₛ` per piece and lane (unitless progress).
  public let knots: [Float]
  /// `1 / (tₛ₊₁ − tₛ)` per piece and lane, 0 for a zero-length piece (empty for discrete).
  public let inverseLengths: [Float]
  /// The value at the start of each piece, per lane.
  public let startValues: [Float]
  /// The value at the end of each piece, per lane (empty for discrete).
  public let endValues: [Float]
  /// The Hermite tangent at the start of each piece (cubic modes; else empty), value units per
  /// unit of the piece's fraction.
  public let startTangents: [Float]
  /// The Hermite tangent at the end of each piece (cubic modes; else empty).
  public let endTangents: [Float]
  /// The last key's value per lane (shown for progress `≥ 1`).
  public let lastValues: [Float]
  /// The timing curves: the distinct per-segment curves, then the animation's own curve if any.
  public let curves: CubicBezierBatch
  /// Per piece, the index in ``curves`` of its timing curve as a `Float`, or −1 for linear
  /// pacing (empty when no piece has a curve).
  public let pieceCurves: [Float]
  /// The index in ``curves`` of the animation's own timing function, or `nil` for linear.
  public let overallCurve: Int?

  /// Reduces channel `channel` of `tracks` to the planes above.
  ///
  /// - Parameters:
  ///   - tracks: at least one compiled track (``KeyframeTrack/compiled``); all with the same
  ///     calculation mode, key count, timing functions (per segment and overall; cubic Bézier
  ///     only) and, except in the paced modes, the same key times.
  ///   - channel: which channel, `0 ..< channelCount` (for example 1 for `position.y`).
  /// - Throws: ``ValidationError``:
  ///   * `"tracks"` ``ValidationError/Reason/tooFew(minimum:actual:)`` when empty;
  ///   * `"channel"` ``ValidationError/Reason/outOfRange(lower:upper:)`` (checked on every
  ///     track, with its index);
  ///   * with the track index: `"tracks.calculationMode"`, `"tracks.keyTimes"`,
  ///     `"tracks.timingFunctions"`, `"tracks.timingFunction"`
  ///     ``ValidationError/Reason/invalidState(_:)`` when it differs from track 0;
  ///     `"tracks.keyCount"` ``ValidationError/Reason/countMismatch(expected:actual:)``;
  ///   * `"tracks.timingFunctions"` / `"tracks.timingFunction"`
  ///     ``ValidationError/Reason/invalidState(_:)`` for a steps or linear-points function (only
  ///     cubic Béziers are batched);
  ///   * `"tracks.values"` (track index) ``ValidationError/Reason/outOfRange(lower:upper:)`` for
  ///     a value or tangent beyond `Float`'s range.
  public init(tracks: [CompiledKeyframeTrack], channel: Int = 0) throws(ValidationError) {
    guard let first = tracks.first else {
      throw ValidationError(field: "tracks", reason: .tooFew(minimum: 1, actual: 0))
    }
    try Self.checkSharedLayout(tracks, channel: channel)
    let (curveList, overall) = try Self.timingCurves(of: first)
    let mode = first.calculationMode
    let stride = (tracks.count + Lanes.scalarCount - 1) / Lanes.scalarCount * Lanes.scalarCount
    var planes = KeyframePlanes(
      mode: mode, pieces: Self.pieceCount(first), laneStride: stride)
    for (j, track) in tracks.enumerated() {
      try planes.add(track, channel: channel, lane: j)
    }
    var pieceCurves = [Float]()
    let segmentIndices = first.segmentTimingFunctionIndices
    if mode != .discrete, mode != .cubicPaced, segmentIndices.contains(where: { $0 >= 0 }) {
      pieceCurves = segmentIndices.map { Float($0) }
    }
    self.tracks = tracks
    self.channel = channel
    self.calculationMode = mode
    self.pieceCount = planes.pieces
    self.laneStride = stride
    self.knots = planes.knots
    self.inverseLengths = planes.inverse
    self.startValues = planes.start
    self.endValues = planes.end
    self.startTangents = planes.startTangent
    self.endTangents = planes.endTangent
    self.lastValues = planes.last
    self.curves = CubicBezierBatch(curves: curveList)
    self.pieceCurves = pieceCurves
    self.overallCurve = overall
  }

  /// The checks of a shared layout: `channel` in range and every track's mode, key count, key
  /// times (outside the paced modes) and timing functions those of track 0.
  private static func checkSharedLayout(_ tracks: [CompiledKeyframeTrack], channel: Int)
    throws(ValidationError)
  {
    let first = tracks[0]
    let mode = first.calculationMode
    for (i, track) in tracks.enumerated() {
      guard channel >= 0, channel < track.channelCount else {
        throw ValidationError(
          field: "channel", index: i,
          reason: .outOfRange(lower: 0, upper: Double(track.channelCount - 1)))
      }
      guard track.calculationMode == mode else {
        throw ValidationError(
          field: "tracks.calculationMode", index: i,
          reason: .invalidState("must be \(mode.rawValue), as track 0"))
      }
      guard track.keyCount == first.keyCount else {
        throw ValidationError(
          field: "tracks.keyCount", index: i,
          reason: .countMismatch(expected: first.keyCount, actual: track.keyCount))
      }
      if mode != .paced, mode != .cubicPaced, track.keyTimes != first.keyTimes {
        throw ValidationError(
          field: "tracks.keyTimes", index: i, reason: .invalidState("must equal track 0's"))
      }
      guard Self.segmentCurves(track) == Self.segmentCurves(first) else {
        throw ValidationError(
          field: "tracks.timingFunctions", index: i, reason: .invalidState("must equal track 0's"))
      }
      guard track.timingFunction == first.timingFunction else {
        throw ValidationError(
          field: "tracks.timingFunction", index: i, reason: .invalidState("must equal track 0's"))
      }
    }
  }

  /// The timing curves of the shared layout: the distinct per-segment curves (in table order),
  /// then the overall one unless it is linear (its index, or `nil`).
  private static func timingCurves(of first: CompiledKeyframeTrack) throws(ValidationError)
    -> (curves: [CubicBezier], overall: Int?)
  {
    var curveList = [CubicBezier]()
    for function in first.timingFunctions {
      guard case .cubicBezier(let curve) = function else {
        throw ValidationError(
          field: "tracks.timingFunctions", index: 0,
          reason: .invalidState("only cubic Bézier timing functions can be batched"))
      }
      curveList.append(curve)
    }
    guard let function = first.timingFunction else { return (curveList, nil) }
    guard case .cubicBezier(let curve) = function else {
      throw ValidationError(
        field: "tracks.timingFunction", index: 0,
        reason: .invalidState("only cubic Bézier timing functions can be batched"))
    }
    guard curve != .linear else { return (curveList, nil) }
    return (curveList + [curve], curveList.count)
  }

  /// The number of pieces `S` of the layout (see the type's description).
  private static func pieceCount(_ first: CompiledKeyframeTrack) -> Int {
    let keys = first.keyCount
    switch first.calculationMode {
    case .discrete: return keys
    case .linear, .paced, .cubic: return keys - 1
    case .cubicPaced: return first.samplesPerSegment * (keys - 1)
    }
  }

  /// Number of tracks (lanes).
  public var count: Int { tracks.count }

  /// The per-segment timing functions of `track` resolved to the functions themselves (`nil`
  /// for linear), for the shared-layout check.
  private static func segmentCurves(_ track: CompiledKeyframeTrack) -> [TimingFunction?] {
    track.segmentTimingFunctionIndices.map { $0 >= 0 ? track.timingFunctions[$0] : nil }
  }

  /// The cubic Hermite curve `h00·p0 + h10·m0 + h01·p1 + h11·m1` at `s`, with
  /// `ends = (p0, m0, p1, m1)`.
  static func hermite(_ ends: (Double, Double, Double, Double), _ s: Double) -> Double {
    let s2 = s * s
    let s3 = s2 * s
    return (2 * s3 - 3 * s2 + 1) * ends.0 + (s3 - 2 * s2 + s) * ends.1 + (-2 * s3 + 3 * s2)
      * ends.2 + (s3 - s2) * ends.3
  }

  /// The derivative of ``hermite(_:_:)`` with respect to `s`.
  static func hermiteSlope(_ ends: (Double, Double, Double, Double), _ s: Double)
    -> Double
  {
    let s2 = s * s
    return (6 * s2 - 6 * s) * ends.0 + (3 * s2 - 4 * s + 1) * ends.1 + (-6 * s2 + 6 * s)
      * ends.2 + (3 * s2 - 2 * s) * ends.3
  }
}

/// The planes of a ``KeyframeBatch`` while it is built, lane by lane (piece-major, `laneStride`
/// apart).
struct KeyframePlanes {
  let mode: CalculationMode
  let pieces: Int
  let laneStride: Int
  var knots: [Float]
  var inverse: [Float]
  var start: [Float]
  var end: [Float]
  var startTangent: [Float]
  var endTangent: [Float]
  var last: [Float]

  /// A piece in `Double`: its knots and `(start, end, start tangent, end tangent)`.
  typealias Piece = (t0: Double, t1: Double, values: (Double, Double, Double, Double))

  var cubic: Bool { mode == .cubic || mode == .cubicPaced }
  var interpolates: Bool { mode != .discrete }

  init(mode: CalculationMode, pieces: Int, laneStride: Int) {
    self.mode = mode
    self.pieces = pieces
    self.laneStride = laneStride
    let size = pieces * laneStride
    let cubic = mode == .cubic || mode == .cubicPaced
    knots = [Float](repeating: 0, count: size)
    inverse = [Float](repeating: 0, count: mode != .discrete ? size : 0)
    start = [Float](repeating: 0, count: size)
    end = [Float](repeating: 0, count: mode != .discrete ? size : 0)
    startTangent = [Float](repeating: 0, count: cubic ? size : 0)
    endTangent = [Float](repeating: 0, count: cubic ? size : 0)
    last = [Float](repeating: 0, count: laneStride)
  }

  /// Lane `j`: channel `channel` of `track`, every piece rounded once to `Float`.
  ///
  /// - Throws: `"tracks.values"` (index `j`) when a value or tangent is beyond `Float`'s range.
  mutating func add(_ track: CompiledKeyframeTrack, channel: Int, lane j: Int)
    throws(ValidationError)
  {
    let keys = track.keyCount
    let c = track.channelCount
    let p = (0..<keys).map { track.values[$0 * c + channel] }
    let dd = cubic ? (0..<keys).map { track.outgoingTangents[$0 * c + channel] } : []
    let ds = cubic ? (0..<keys).map { track.incomingTangents[$0 * c + channel] } : []
    let big = Double(Float.greatestFiniteMagnitude)
    guard (p + dd + ds).allSatisfy({ abs($0) <= big }) else {
      throw ValidationError(
        field: "tracks.values", index: j, reason: .outOfRange(lower: -big, upper: big))
    }
    last[j] = Float(p[keys - 1])
    for s in 0..<pieces {
      let piece = self.piece(s, of: track, p, dd, ds)
      let k = s * laneStride + j
      knots[k] = Float(piece.t0)
      start[k] = Float(piece.values.0)
      if interpolates {
        inverse[k] = piece.t1 > piece.t0 ? Float(1 / (piece.t1 - piece.t0)) : 0
        end[k] = Float(piece.values.1)
      }
      if cubic {
        startTangent[k] = Float(piece.values.2)
        endTangent[k] = Float(piece.values.3)
      }
    }
  }

  /// Piece `s` of a track with key values `p` and tangents `dd` (outgoing), `ds` (incoming).
  func piece(
    _ s: Int, of track: CompiledKeyframeTrack, _ p: [Double], _ dd: [Double], _ ds: [Double]
  ) -> Piece {
    switch mode {
    case .discrete:
      return (track.keyTimes[s], track.keyTimes[s], (p[s], 0, 0, 0))
    case .linear, .paced, .cubic:
      return (
        track.keyTimes[s], track.keyTimes[s + 1],
        (p[s], p[s + 1], cubic ? dd[s] : 0, cubic ? ds[s + 1] : 0)
      )
    case .cubicPaced:
      let t0: Double
      let t1: Double
      if track.arcLengths.isEmpty {
        t0 = Double(s) / Double(pieces)
        t1 = Double(s + 1) / Double(pieces)
      } else {
        t0 = track.arcLengths[s]
        t1 = track.arcLengths[s + 1]
      }
      let samples = track.samplesPerSegment
      let segment = s / samples
      let a = Double(s - segment * samples) / Double(samples)
      let b = Double(s - segment * samples + 1) / Double(samples)
      let h = 1 / Double(samples)
      let ends = (p[segment], dd[segment], p[segment + 1], ds[segment + 1])
      return (
        t0, t1,
        (
          KeyframeBatch.hermite(ends, a), KeyframeBatch.hermite(ends, b),
          h * KeyframeBatch.hermiteSlope(ends, a), h * KeyframeBatch.hermiteSlope(ends, b)
        )
      )
    }
  }
}

/// A batch evaluation of one keyframe channel: `output[j]` ≈
/// `tracks[j].channels(at: input[j])[channel]` (``CompiledKeyframeTrack/channels(at:into:offset:beforeFlag:)``)
/// in `Float`, sixteen tracks per step, with no allocation.
///
/// Per lane, branch-free (see ``KeyframeBatch`` for the pieces):
/// 1. `p = u`, through the animation's own timing curve (``CubicBezierBatch``'s solve, which
///    extrapolates outside `[0, 1]`), unclamped.
/// 2. Piece search: walk the pieces in order and keep, by selects, the data of the last piece
///    whose knot is `≤ p` — the count of knots `≤ p` without a branch or a gather (knots are
///    non-decreasing, so this is the reference's "last index with `kᵢ ≤ p`").
/// 3. `x = (p − tₛ)·(1/Lₛ)` (clamped to `[0, 1]` only when `p` is, against rounding; 1 for a
///    zero-length piece), then the piece's timing curve, unclamped (an overshooting segment
///    curve overshoots, as in ``KeyframeTrack``).
/// 4. The piece's value at `x`: discrete the start value, linear and paced
///    `p₀·(1 − x) + p₁·x`, cubic modes the Hermite form (exactly `p₀` at `x = 0` and `p₁` at 1);
///    outside `[0, 1]` the first or last piece extrapolates, as the reference does.
/// 5. `p = 1` shows the last key's value exactly; discrete and cubicPaced hold the last key for
///    `p ≥ 1` (cubicPaced the first for `p ≤ 0`), as the reference does.
///
/// Cost grows with the number of pieces (`K − 1`; `128·(K − 1)` for cubicPaced).
///
/// Accuracy against ``KeyframeTrack/value(at:beforeFlag:)`` in `Double` at the same `Float` progress
/// (`KeyframeBatchTests`: values in `[−10, 10]`, key gaps ≥ about 0.04, 9 000 samples per mode):
/// worst error 2.6e-6 linear, 2.1e-6 paced, 4.1e-6 cubic, 2.1e-6 cubicPaced; with per-segment
/// and overall Bézier timing functions 1.4e-5, 5.3e-6, 2.2e-5, 6.6e-6 (the solves' error times
/// the slope); discrete returns exactly the `Float` of the key's value. The error is about the
/// values' rounding (`2⁻²⁴·max|v|`) plus the slope `dv/du` times the progress's resolution
/// (`2⁻²⁴`). Keys are exact (a progress at a `Float`-exact key time gives exactly the key's
/// `Float` value; `u ≥ 1` the last key). Where a key time is not a `Float`, a progress within
/// an ulp of it can pick the neighbouring piece (discrete: the neighbouring value).
public struct KeyframeEvaluationJob: @unchecked Sendable {
  /// The tracks (read only); lane `j` is track `j`.
  public var keyframes: KeyframeBatch
  /// The animation progress `u` per track (unitless, normally in `[0, 1]`; outside, the end
  /// pieces extrapolate); every entry finite;
  /// `input.count == keyframes.count`.
  public var input: UnsafeBufferPointer<Float>
  /// The channel value per track (the value's units); at least `keyframes.count` entries.
  public var output: UnsafeMutableBufferPointer<Float>

  /// Creates a job; nothing is checked until ``validate()`` or ``run()``.
  public init(
    keyframes: KeyframeBatch, input: UnsafeBufferPointer<Float>,
    output: UnsafeMutableBufferPointer<Float>
  ) {
    self.keyframes = keyframes
    self.input = input
    self.output = output
  }

  /// Checks the job without running it (one pass over the input).
  ///
  /// - Throws: ``ValidationError`` with `field`
  ///   * `"input"` ``ValidationError/Reason/countMismatch(expected:actual:)`` unless
  ///     `input.count == keyframes.count`;
  ///   * `"output"` ``ValidationError/Reason/tooFew(minimum:actual:)`` when shorter;
  ///   * `"input"` with the index ``ValidationError/Reason/notFinite``.
  public func validate() throws(ValidationError) {
    try Validate.count(input.count, equals: keyframes.count, "input")
    try Validate.count(output.count, atLeast: keyframes.count, "output")
    try Validate.allFinite(input, "input")
  }

  /// Validates the job (``validate()``), then writes `output[0 ..< keyframes.count]`. Allocates
  /// nothing (the Bézier solver's scratch lives on the stack).
  public func run() throws(ValidationError) {
    try validate()
    runUnchecked()
  }

  /// ``run()`` without the checks.
  func runUnchecked() {
    let n = keyframes.count
    guard n > 0 else { return }
    let k = keyframes
    k.knots.withUnsafeBufferPointer { knots in
      k.inverseLengths.withUnsafeBufferPointer { inverse in
        k.startValues.withUnsafeBufferPointer { start in
          k.endValues.withUnsafeBufferPointer { end in
            k.startTangents.withUnsafeBufferPointer { m0 in
              k.endTangents.withUnsafeBufferPointer { m1 in
                k.lastValues.withUnsafeBufferPointer { last in
                  k.pieceCurves.withUnsafeBufferPointer { pieceCurves in
                    k.curves.coefficients.withUnsafeBufferPointer { coefficients in
                      k.curves.inverse.withUnsafeBufferPointer { table in
                        withUnsafeTemporaryAllocation(
                          of: Float.self, capacity: Self.scratchVectors * Lanes.scalarCount
                        ) { scratch in
                          let planes = Planes(
                            knots: knots.baseAddress!, inverse: inverse.baseAddress,
                            start: start.baseAddress!, end: end.baseAddress,
                            m0: m0.baseAddress, m1: m1.baseAddress, last: last.baseAddress!,
                            pieceCurves: pieceCurves.baseAddress,
                            coefficients: coefficients.baseAddress, table: table.baseAddress,
                            scratch: scratch.baseAddress!)
                          blocks(planes)
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// The batch's plane pointers for one run.
  struct Planes {
    var knots: UnsafePointer<Float>
    var inverse: UnsafePointer<Float>?
    var start: UnsafePointer<Float>
    var end: UnsafePointer<Float>?
    var m0: UnsafePointer<Float>?
    var m1: UnsafePointer<Float>?
    var last: UnsafePointer<Float>
    var pieceCurves: UnsafePointer<Float>?
    var coefficients: UnsafePointer<Float>?
    var table: UnsafePointer<Float>?
    /// ``scratchVectors`` lane vectors for the Bézier solve of the timing functions.
    var scratch: UnsafeMutablePointer<Float>
  }

  /// The lane vectors of scratch a run hands to the Bézier solve (``Planes/scratch``).
  static var scratchVectors: Int { 3 }

  /// The block loop: every lane vector of `input` (the last one padded with `u = 0`; padded
  /// lanes of the planes are zeros and are not written back).
  @inline(__always)
  func blocks(_ planes: Planes) {
    let n = keyframes.count
    let width = Lanes.scalarCount
    let u = input.baseAddress!
    let out = output.baseAddress!
    var j = 0
    while j < n {
      let valid = min(width, n - j)
      var progress = Lanes(repeating: 0)
      if valid == width {
        progress = UnsafeRawPointer(u + j).loadUnaligned(as: Lanes.self)
      } else {
        for l in 0..<valid { progress[l] = u[j + l] }
      }
      let y = evaluate(progress, at: j, planes)
      if valid == width {
        UnsafeMutableRawPointer(out + j).storeBytes(of: y, as: Lanes.self)
      } else {
        for l in 0..<valid { out[j + l] = y[l] }
      }
      j += width
    }
  }

  /// Lanes `j ..< j + 16` at progress `u` (see the type's description).
  @inline(__always)
  func evaluate(_ u: Lanes, at j: Int, _ planes: Planes) -> Lanes {
    Self.evaluate(u, at: j, shape: Shape(keyframes), planes)
  }

  /// The scalar layout of a ``KeyframeBatch`` the lane evaluation reads (no references, so a
  /// caller can keep it beside the plane pointers and evaluate without touching the batch).
  struct Shape {
    var laneStride: Int
    var curveCount: Int
    var overallCurve: Int?
    var calculationMode: CalculationMode
    var pieceCount: Int
    var hasPieceCurves: Bool

    init(_ b: KeyframeBatch) {
      laneStride = b.laneStride
      curveCount = b.curves.curves.count
      overallCurve = b.overallCurve
      calculationMode = b.calculationMode
      pieceCount = b.pieceCount
      hasPieceCurves = !b.pieceCurves.isEmpty
    }
  }

  /// Lanes `j ..< j + 16` at progress `u` of the batch described by `b` and `planes`.
  @inline(__always)
  static func evaluate(_ u: Lanes, at j: Int, shape b: Shape, _ planes: Planes) -> Lanes {
    var p = u
    if let overall = b.overallCurve {
      p = ease(p, curve: Lanes(repeating: Float(overall)), where: p .== p, shape: b, planes)
    }
    let lanes = KeyframeLanes(planes: planes, first: j, stride: b.laneStride)
    switch b.calculationMode {
    case .discrete:
      // Piece search by selects: the last piece whose knot is ≤ p wins.
      var value = lanes.load(planes.start, 0)
      for s in 1..<max(b.pieceCount, 1) {
        value = SIMDMath.select(
          lanes.load(planes.knots, s) .<= p, lanes.load(planes.start, s), value)
      }
      return SIMDMath.select(p .>= 1, lanes.load(planes.last, 0), value)
    case .linear, .paced, .cubic, .cubicPaced:
      return interpolate(p, lanes, shape: b, planes)
    }
  }

  /// `x` through the timing curves `curve` (indices in ``Planes/coefficients``) in the lanes of
  /// `mask`.
  // swift-format-ignore: NeverForceUnwrap
  @inline(__always)
  static func ease(_ x: Lanes, curve: Lanes, where mask: LaneMask, shape b: Shape, _ planes: Planes)
    -> Lanes
  {
    let y = CubicBezierBatch.solve(
      x: x, curve: curve, coefficients: planes.coefficients!, curveCount: b.curveCount,
      table: planes.table!, scratch: planes.scratch)
    return SIMDMath.select(mask, y, x)
  }

  /// The interpolating modes at (eased) progress `p`: the piece whose knot is the last `≤ p`, its
  /// local fraction through its timing curve, then its line or Hermite curve.
  @inline(__always)
  static func interpolate(_ p: Lanes, _ lanes: KeyframeLanes, shape b: Shape, _ planes: Planes)
    -> Lanes
  {
    let cubic = b.calculationMode == .cubic || b.calculationMode == .cubicPaced
    let piece = KeyframeLanePiece(at: p, lanes, cubic: cubic, shape: b)
    // In [0, 1] the clamp only absorbs rounding; outside, the end piece extrapolates. A
    // zero-length piece (inverse 0; only ever the last, at knot 1) is an instant jump: x = 1.
    var x = (p - piece.t0) * piece.inverse
    x = SIMDMath.select((p .>= 0) .& (p .<= 1), SIMDMath.clamp(x, 0, 1), x)
    x = SIMDMath.select(piece.inverse .== 0, 1, x)
    if planes.pieceCurves != nil && b.hasPieceCurves {
      let eased = piece.curve .>= 0
      if any(eased) {
        let curve = SIMDMath.select(piece.curve .>= 0, piece.curve, Lanes(repeating: 0))
        x = ease(x, curve: curve, where: eased, shape: b, planes)
      }
    }
    var y: Lanes
    if cubic {
      let x2 = x * x
      let x3 = x2 * x
      let h00 = 2 * x3 - 3 * x2 + 1
      let h10 = x3 - 2 * x2 + x
      let h01 = -2 * x3 + 3 * x2
      let h11 = x3 - x2
      y = h00 * piece.start + h10 * piece.m0 + h01 * piece.end + h11 * piece.m1
    } else {
      y = piece.start * (1 - x) + piece.end * x
    }
    let last = lanes.load(planes.last, 0)
    if b.calculationMode == .cubicPaced {
      // The reference holds the ends outside [0, 1] in cubicPaced (no pace beyond the curve).
      y = SIMDMath.select(p .<= 0, lanes.load(planes.start, 0), y)
      return SIMDMath.select(p .>= 1, last, y)
    }
    return SIMDMath.select(p .== 1, last, y)
  }
}

/// Sixteen lanes `first ..< first + 16` of a keyframe batch's piece-major planes.
struct KeyframeLanes {
  let planes: KeyframeEvaluationJob.Planes
  let first: Int
  let stride: Int

  /// Piece `s` of `plane`.
  @inline(__always)
  func load(_ plane: UnsafePointer<Float>, _ s: Int) -> Lanes {
    UnsafeRawPointer(plane + s * stride + first).loadUnaligned(as: Lanes.self)
  }
}

/// The piece of each lane at progress `p`, found by selects over the pieces in order (the last
/// whose knot is `≤ p`): its knot, inverse length, end values, tangents and timing curve.
struct KeyframeLanePiece {
  var t0: Lanes
  var inverse: Lanes
  var start: Lanes
  var end: Lanes
  var m0 = Lanes()
  var m1 = Lanes()
  /// The piece's timing curve index, −1 for linear pacing.
  var curve: Lanes

  // swift-format-ignore: NeverForceUnwrap
  @inline(__always)
  init(
    at p: Lanes, _ lanes: KeyframeLanes, cubic: Bool, shape b: KeyframeEvaluationJob.Shape
  ) {
    let planes = lanes.planes
    let hasCurves = planes.pieceCurves != nil && b.hasPieceCurves
    t0 = lanes.load(planes.knots, 0)
    inverse = lanes.load(planes.inverse!, 0)
    start = lanes.load(planes.start, 0)
    end = lanes.load(planes.end!, 0)
    if cubic {
      m0 = lanes.load(planes.m0!, 0)
      m1 = lanes.load(planes.m1!, 0)
    }
    curve = Lanes(repeating: hasCurves ? planes.pieceCurves![0] : -1)
    for s in 1..<b.pieceCount {
      let m = lanes.load(planes.knots, s) .<= p
      t0 = SIMDMath.select(m, lanes.load(planes.knots, s), t0)
      inverse = SIMDMath.select(m, lanes.load(planes.inverse!, s), inverse)
      start = SIMDMath.select(m, lanes.load(planes.start, s), start)
      end = SIMDMath.select(m, lanes.load(planes.end!, s), end)
      if cubic {
        m0 = SIMDMath.select(m, lanes.load(planes.m0!, s), m0)
        m1 = SIMDMath.select(m, lanes.load(planes.m1!, s), m1)
      }
      if hasCurves { curve = SIMDMath.select(m, planes.pieceCurves![s], curve) }
    }
  }
}
