/// How a keyframe track computes the values between its keys (`CAAnimationCalculationMode`).
public enum CalculationMode: String, Hashable, Sendable, CaseIterable {
  /// Straight interpolation between neighbouring keys at their key times (the default).
  case linear
  /// No interpolation: each value holds from its key time until the next one.
  case discrete
  /// Linear interpolation with key times set so the pace (distance per unit time) is even;
  /// keyTimes and timingFunctions are ignored.
  case paced
  /// A Kochanek–Bartels (TCB) spline through the keys at their key times; all-zero parameters
  /// give Catmull–Rom.
  case cubic
  /// The cubic spline re-parameterised by arc length so the speed along it is constant;
  /// keyTimes and timingFunctions are ignored.
  case cubicPaced
}

/// A keyframe track reduced to flat numbers: what ``KeyframeTrack/value(at:beforeFlag:)`` evaluates, and what
/// a batch kernel can read without knowing the value type.
///
/// Layouts (with `K` = ``keyCount`` and `C` = ``channelCount``):
/// * ``values``: `K × C`, key-major (`values[i·C + c]` is channel `c` of key `i`).
/// * ``keyTimes``: the **effective** key times, `K` entries in `[0, 1]`, first 0: the given ones,
///   even spacing when none were given, the pace-derived ones in ``CalculationMode/paced``, the
///   start of each value in ``CalculationMode/discrete``, and the nominal `i / (K − 1)` in
///   ``CalculationMode/cubicPaced`` (where time is mapped through ``arcLengths`` instead).
/// * ``outgoingTangents`` / ``incomingTangents``: `K × C` Kochanek–Bartels tangents `DDᵢ` and `DSᵢ`
///   for the cubic modes (empty otherwise). Segment `i` is the Hermite curve
///   `h00(s)·pᵢ + h10(s)·DDᵢ + h01(s)·pᵢ₊₁ + h11(s)·DSᵢ₊₁`.
/// * ``segmentTimingFunctionIndices``: `K − 1` entries, an index into ``timingFunctions`` or −1
///   for linear (empty in the paced modes, which ignore per-segment timing).
/// * ``arcLengths``: for ``CalculationMode/cubicPaced``, the normalised cumulative arc length at
///   the spline parameters `j / samplesPerSegment`, `j = 0 … samplesPerSegment·(K − 1)`, from 0
///   to exactly 1; empty otherwise (and when the curve has zero length: then the spline
///   parameter is `u·(K − 1)`).
public struct CompiledKeyframeTrack: Hashable, Sendable {
  /// The calculation mode.
  public let calculationMode: CalculationMode
  /// Channels per key (`Value.channelCount`).
  public let channelCount: Int
  /// Number of keys `K` (the number of values).
  public let keyCount: Int
  /// Effective key times, `K` entries; see the type's description.
  public let keyTimes: [Double]
  /// Key values, `K × C`, key-major.
  public let values: [Double]
  /// Outgoing tangents `DDᵢ`, `K × C` (cubic modes), else empty.
  public let outgoingTangents: [Double]
  /// Incoming tangents `DSᵢ`, `K × C` (cubic modes), else empty.
  public let incomingTangents: [Double]
  /// The distinct per-segment timing functions, referenced by ``segmentTimingFunctionIndices``.
  public let timingFunctions: [TimingFunction]
  /// Per segment: index into ``timingFunctions``, or −1 for linear pacing.
  public let segmentTimingFunctionIndices: [Int]
  /// The animation's own timing function, applied to `u` before the keys are searched (`nil`
  /// means linear, <doc:TransitionCatalog#Default-timing-curves>).
  public let timingFunction: TimingFunction?
  /// Normalised cumulative arc-length table for ``CalculationMode/cubicPaced``, else empty.
  public let arcLengths: [Double]
  /// Samples per segment in ``arcLengths``.
  public let samplesPerSegment: Int

  /// Where a progress lands: between key ``segment`` and key `segment + 1`, a unitless
  /// ``fraction`` of the way (after the segment's timing function). In
  /// ``CalculationMode/discrete`` ``segment`` is the index of the key shown and ``fraction`` is 0.
  /// A ``fraction`` of exactly 0 means key ``segment`` and exactly 1 means key `segment + 1`.
  public struct Location: Hashable, Sendable {
    /// Segment (or, for discrete, key) index.
    public var segment: Int
    /// Position within the segment, in `[0, 1]`.
    public var fraction: Double

    /// Creates a location.
    public init(segment: Int, fraction: Double) {
      self.segment = segment
      self.fraction = fraction
    }
  }

  /// Finds where the animation progress `u` lands.
  ///
  /// 1. `u` (NaN counts as 0) goes through ``timingFunction`` with the before flag: `p`. It is
  ///    not clamped: an overshooting curve gives a `p` outside `[0, 1]` (a ±infinity, only
  ///    possible from a curve whose extrapolation slope overflows, holds the nearer end).
  /// 2. discrete: the last key `i` with `kᵢ ≤ p` (key 0 when none is).
  /// 3. linear, paced, cubic: the last segment `i ≤ K − 2` with `kᵢ ≤ p` (segment 0 when none
  ///    is); `s = (p − kᵢ) / (kᵢ₊₁ − kᵢ)` (1 for a zero-length segment: an instant jump to the
  ///    later value); then the segment's timing function (not in paced mode) with the before
  ///    flag, `s' = timingFunctions[i](s)`, unclamped, so a segment curve's overshoot shows.
  ///    `s` lies in `[0, 1]` for `p ∈ [0, 1]` and outside only when `p`
  ///    is (the first or last segment then extrapolates, as a basic animation does).
  /// 4. cubicPaced: invert ``arcLengths`` by binary search and linear interpolation between
  ///    samples, giving the spline parameter `g`; segment `⌊g⌋`, `s = g − ⌊g⌋`. `p ≤ 0` and
  ///    `p ≥ 1` hold the first and last keys: the arc-length parameterisation ends with the
  ///    curve, so an overshooting overall curve has no pace to continue with.
  ///
  /// - Parameters:
  ///   - u: the animation's progress after its own timing function, unitless.
  ///   - beforeFlag: `true` in the animation's before phase (CSS's before flag for `steps()`).
  public func locate(_ u: Double, beforeFlag: Bool = false) -> Location {
    var p = Self.finiteProgress(u)
    if let tf = timingFunction { p = Self.finiteProgress(tf.transform(p, beforeFlag: beforeFlag)) }
    let n = keyCount
    switch calculationMode {
    case .discrete:
      return Location(segment: Self.lastIndex(in: keyTimes, upTo: n - 1, notAbove: p), fraction: 0)
    case .linear, .paced, .cubic:
      let i = Self.lastIndex(in: keyTimes, upTo: n - 2, notAbove: p)
      let length = keyTimes[i + 1] - keyTimes[i]
      var s = length > 0 ? (p - keyTimes[i]) / length : 1
      if p >= 0, p <= 1 { s = Self.clamp01(s) }
      if calculationMode != .paced {
        let index = segmentTimingFunctionIndices[i]
        if index >= 0 {
          s = Self.finiteProgress(timingFunctions[index].transform(s, beforeFlag: beforeFlag))
        }
      }
      return Location(segment: i, fraction: s)
    case .cubicPaced:
      // The arc-length parameterisation ends with the curve: no pace beyond it, so the ends hold.
      if p <= 0 { return Location(segment: 0, fraction: 0) }
      if p >= 1 { return Location(segment: n - 2, fraction: 1) }
      let g: Double
      if arcLengths.isEmpty {
        g = p * Double(n - 1)
      } else {
        let j = Self.lastIndex(in: arcLengths, upTo: arcLengths.count - 2, notAbove: p)
        let span = arcLengths[j + 1] - arcLengths[j]
        let f = span > 0 ? Self.clamp01((p - arcLengths[j]) / span) : 0
        g = (Double(j) + f) / Double(samplesPerSegment)
      }
      let segment = Swift.min(Int(g.rounded(.down)), n - 2)
      return Location(segment: segment, fraction: Self.clamp01(g - Double(segment)))
    }
  }

  /// Writes the channel-wise value at progress `u` into `out[offset ..< offset + C]`.
  ///
  /// This is the whole evaluation for values whose ``Interpolatable/interpolatesChannelWise`` is
  /// `true` (and for the discrete and cubic modes of every type): discrete copies key
  /// ``Location/segment``; linear and paced blend `pᵢ·(1 − s) + pᵢ₊₁·s`; the cubic modes evaluate
  /// the Hermite segment. Ends are exact: `s = 0` copies key `i`, `s = 1` key `i + 1`.
  ///
  /// - Precondition: `out.count ≥ offset + channelCount`.
  public func channels(
    at u: Double, into out: inout [Double], offset: Int = 0, beforeFlag: Bool = false
  ) {
    let loc = locate(u, beforeFlag: beforeFlag)
    let c = channelCount
    let i = loc.segment
    let s = loc.fraction
    if calculationMode == .discrete || s == 0 {
      for k in 0..<c { out[offset + k] = values[i * c + k] }
      return
    }
    if s == 1 {
      for k in 0..<c { out[offset + k] = values[(i + 1) * c + k] }
      return
    }
    switch calculationMode {
    case .cubic, .cubicPaced:
      let s2 = s * s
      let s3 = s2 * s
      let h00 = 2 * s3 - 3 * s2 + 1
      let h10 = s3 - 2 * s2 + s
      let h01 = -2 * s3 + 3 * s2
      let h11 = s3 - s2
      for k in 0..<c {
        out[offset + k] =
          h00 * values[i * c + k] + h10 * outgoingTangents[i * c + k] + h01
          * values[(i + 1) * c + k] + h11 * incomingTangents[(i + 1) * c + k]
      }
    default:
      for k in 0..<c {
        out[offset + k] = values[i * c + k] * (1 - s) + values[(i + 1) * c + k] * s
      }
    }
  }

  /// The value at progress `u` as `Value`: ``channels(at:into:offset:beforeFlag:)`` for the channel-wise
  /// cases, and `Value.interpolate(kᵢ, kᵢ₊₁, fraction: s)` in the linear and paced modes when the
  /// type interpolates otherwise (a transform by decomposition).
  ///
  /// - Precondition: `Value.channelCount == channelCount`.
  public func value<Value: Interpolatable>(
    at u: Double, as type: Value.Type = Value.self, beforeFlag: Bool = false
  ) -> Value {
    precondition(Value.channelCount == channelCount, "channel count mismatch")
    if !Value.interpolatesChannelWise, calculationMode == .linear || calculationMode == .paced {
      let loc = locate(u, beforeFlag: beforeFlag)
      return Value.interpolate(key(loc.segment), key(loc.segment + 1), fraction: loc.fraction)
    }
    var out = [Double](repeating: 0, count: channelCount)
    channels(at: u, into: &out, beforeFlag: beforeFlag)
    return Value(channels: out[...])
  }

  /// Key `i` decoded as `Value`.
  private func key<Value: Interpolatable>(_ i: Int) -> Value {
    Value(channels: values[i * channelCount..<(i + 1) * channelCount])
  }

  /// `min(max(x, 0), 1)`, with NaN mapped to 0.
  @usableFromInline static func clamp01(_ x: Double) -> Double {
    x.isNaN ? 0 : Swift.min(Swift.max(x, 0), 1)
  }

  /// `x` when finite; NaN → 0, −infinity → 0, +infinity → 1 (hold the nearer end).
  @usableFromInline static func finiteProgress(_ x: Double) -> Double {
    x.isFinite ? x : (x == .infinity ? 1 : 0)
  }

  /// The largest index `i` in `0 ... last` with `table[i] ≤ x` (0 when none is), by binary
  /// search; `table` is non-decreasing.
  static func lastIndex(in table: [Double], upTo last: Int, notAbove x: Double) -> Int {
    var lo = 0
    var hi = last
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if table[mid] <= x { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// Memberwise initializer for the compiler below.
  fileprivate init(
    calculationMode: CalculationMode, channelCount: Int, keyCount: Int, keyTimes: [Double],
    values: [Double], outgoingTangents: [Double], incomingTangents: [Double],
    timingFunctions: [TimingFunction], segmentTimingFunctionIndices: [Int],
    timingFunction: TimingFunction?, arcLengths: [Double], samplesPerSegment: Int
  ) {
    self.calculationMode = calculationMode
    self.channelCount = channelCount
    self.keyCount = keyCount
    self.keyTimes = keyTimes
    self.values = values
    self.outgoingTangents = outgoingTangents
    self.incomingTangents = incomingTangents
    self.timingFunctions = timingFunctions
    self.segmentTimingFunctionIndices = segmentTimingFunctionIndices
    self.timingFunction = timingFunction
    self.arcLengths = arcLengths
    self.samplesPerSegment = samplesPerSegment
  }
}

/// One animated property's keyframes, as a `CAKeyframeAnimation`: values, optional key times, a
/// calculation mode, optional per-segment timing functions, the animation's own timing function,
/// and optional Kochanek–Bartels parameters (tension, continuity, bias, each in `[−1, 1]`).
///
/// Evaluate with ``value(at:beforeFlag:)`` at the animation's unitless progress `u ∈ [0, 1]`
/// (local time divided by duration, from ``MediaTiming/iterationProgress(atLocal:)``): the
/// ``timingFunction`` acts on `u` first, then the segment `kᵢ ≤ u ≤ kᵢ₊₁` is interpolated at
/// `s = (u − kᵢ)/(kᵢ₊₁ − kᵢ)` after its segment's timing function. What each calculation mode
/// does, and the values at and between key times, are in <doc:KeyframeEvaluation>.
public struct KeyframeTrack<Value: Interpolatable>: Sendable, Equatable {
  /// The key values, `n` of them (`n ≥ 2`; `n ≥ 1` for discrete).
  public let values: [Value]
  /// The key times as given (`nil`: evenly spaced). See ``init(values:keyTimes:calculationMode:timingFunctions:timingFunction:tensionValues:continuityValues:biasValues:)``.
  public let keyTimes: [Double]?
  /// The calculation mode.
  public let calculationMode: CalculationMode
  /// Per-segment timing functions (`n − 1`), or `nil` for linear segments.
  public let timingFunctions: [TimingFunction]?
  /// The animation's own timing function, applied to `u` first; `nil` is linear.
  public let timingFunction: TimingFunction?
  /// Tension per key, in `[−1, 1]` (`nil`: all 0). Cubic modes only.
  public let tensionValues: [Double]?
  /// Continuity per key, in `[−1, 1]` (`nil`: all 0). Cubic modes only.
  public let continuityValues: [Double]?
  /// Bias per key, in `[−1, 1]` (`nil`: all 0). Cubic modes only.
  public let biasValues: [Double]?
  /// The flat form that ``value(at:beforeFlag:)`` evaluates and a batch kernel can read.
  public let compiled: CompiledKeyframeTrack

  /// Chords per segment in the cubicPaced arc-length table.
  public static var samplesPerSegment: Int { 128 }

  /// Validates and compiles a track.
  ///
  /// Key-time forms accepted (<doc:TransitionCatalog#Invalid-keyframes>: invalid input throws,
  /// there is no silent fallback):
  /// * linear and cubic: `n` key times, first exactly 0, last exactly 1.
  /// * discrete: `n + 1` key times (Apple's documented form: value `i` spans `[kᵢ, kᵢ₊₁)`,
  ///   first 0, last 1) **or** `n` key times (each the start of its value, first 0; the last value
  ///   holds to the end). `nil`: value `i` starts at `i / n`.
  /// * paced and cubicPaced: ignored (any count), but each entry is still checked as below.
  /// In every mode each key time must be finite, in `[0, 1]` and not smaller than the one before.
  ///
  /// - Parameters:
  ///   - values: the keys; every channel finite.
  ///   - keyTimes: unitless fractions of the duration, or `nil` for even spacing.
  ///   - calculationMode: default ``CalculationMode/linear``.
  ///   - timingFunctions: one per segment (`n − 1`) in every mode if given; the paced modes
  ///     ignore them.
  ///   - timingFunction: the animation's own curve, applied to `u` first; `nil` is linear.
  ///   - tensionValues: Kochanek–Bartels tension, one per key (`n`), each in `[−1, 1]`; used by
  ///     the cubic modes only, but always checked (so are the next two).
  ///   - continuityValues: continuity, one per key, each in `[−1, 1]`.
  ///   - biasValues: bias, one per key, each in `[−1, 1]`.
  /// - Throws: ``ValidationError``: `values` ``ValidationError/Reason/tooFew(minimum:actual:)`` or
  ///   ``ValidationError/Reason/notFinite`` (with the key index); `keyTimes`
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)``,
  ///   ``ValidationError/Reason/notFinite``, ``ValidationError/Reason/outOfRange(lower:upper:)``,
  ///   ``ValidationError/Reason/decreasing`` or ``ValidationError/Reason/mustEqual(_:)`` (first ≠
  ///   0, last ≠ 1) with the index; `timingFunctions`
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)``; `tensionValues`,
  ///   `continuityValues`, `biasValues` count mismatch, not finite or out of `[−1, 1]`.
  public init(
    values: [Value], keyTimes: [Double]? = nil, calculationMode: CalculationMode = .linear,
    timingFunctions: [TimingFunction]? = nil, timingFunction: TimingFunction? = nil,
    tensionValues: [Double]? = nil, continuityValues: [Double]? = nil, biasValues: [Double]? = nil
  ) throws(ValidationError) {
    let n = values.count
    let minimum = calculationMode == .discrete ? 1 : 2
    guard n >= minimum else {
      throw ValidationError(field: "values", reason: .tooFew(minimum: minimum, actual: n))
    }
    for (i, v) in values.enumerated() {
      for c in v.channels { try Validate.finite(c, "values", index: i) }
    }
    if let keyTimes {
      try Self.validateKeyTimes(keyTimes, valueCount: n, mode: calculationMode)
    }
    if let timingFunctions, timingFunctions.count != n - 1 {
      throw ValidationError(
        field: "timingFunctions",
        reason: .countMismatch(expected: n - 1, actual: timingFunctions.count))
    }
    for (list, field) in [
      (tensionValues, "tensionValues"), (continuityValues, "continuityValues"),
      (biasValues, "biasValues"),
    ] {
      guard let list else { continue }
      guard list.count == n else {
        throw ValidationError(field: field, reason: .countMismatch(expected: n, actual: list.count))
      }
      for (i, x) in list.enumerated() { try Validate.inRange(x, -1, 1, field, index: i) }
    }
    self.values = values
    self.keyTimes = keyTimes
    self.calculationMode = calculationMode
    self.timingFunctions = timingFunctions
    self.timingFunction = timingFunction
    self.tensionValues = tensionValues
    self.continuityValues = continuityValues
    self.biasValues = biasValues
    self.compiled = Self.compile(
      values: values, keyTimes: keyTimes, mode: calculationMode,
      timingFunctions: timingFunctions, timingFunction: timingFunction,
      tension: tensionValues, continuity: continuityValues, bias: biasValues)
  }

  /// The value at animation progress `u` (unitless, normally in `[0, 1]`; NaN counts as 0),
  /// evaluated from ``compiled``. See the type's description for the rules.
  ///
  /// - Parameters:
  ///   - u: the animation's progress after its own timing function.
  ///   - beforeFlag: `true` in the animation's before phase: CSS's before flag for the track's
  ///     `steps()` timing functions (overall and per segment), so a backwards fill shows the
  ///     lower value at a jump.
  public func value(at u: Double, beforeFlag: Bool = false) -> Value {
    compiled.value(at: u, as: Value.self, beforeFlag: beforeFlag)
  }

  // MARK: Validation

  private static func validateKeyTimes(_ k: [Double], valueCount n: Int, mode: CalculationMode)
    throws(ValidationError)
  {
    switch mode {
    case .linear, .cubic:
      guard k.count == n else {
        throw ValidationError(
          field: "keyTimes", reason: .countMismatch(expected: n, actual: k.count))
      }
    case .discrete:
      guard k.count == n || k.count == n + 1 else {
        throw ValidationError(
          field: "keyTimes", reason: .countMismatch(expected: n + 1, actual: k.count))
      }
    case .paced, .cubicPaced:
      break
    }
    for (i, t) in k.enumerated() {
      try Validate.inRange(t, 0, 1, "keyTimes", index: i)
      if i > 0, t < k[i - 1] {
        throw ValidationError(field: "keyTimes", index: i, reason: .decreasing)
      }
    }
    guard mode != .paced, mode != .cubicPaced, !k.isEmpty else { return }
    if k[0] != 0 { throw ValidationError(field: "keyTimes", index: 0, reason: .mustEqual(0)) }
    let lastMustBeOne = mode != .discrete || k.count == n + 1
    if lastMustBeOne, k[k.count - 1] != 1 {
      throw ValidationError(field: "keyTimes", index: k.count - 1, reason: .mustEqual(1))
    }
  }

  // MARK: Compilation

  private static func compile(
    values: [Value], keyTimes: [Double]?, mode: CalculationMode,
    timingFunctions: [TimingFunction]?, timingFunction: TimingFunction?,
    tension: [Double]?, continuity: [Double]?, bias: [Double]?
  ) -> CompiledKeyframeTrack {
    let n = values.count
    let c = Value.channelCount
    var flat = [Double]()
    flat.reserveCapacity(n * c)
    for v in values { flat.append(contentsOf: v.channels) }
    let even = (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }

    var times: [Double]
    switch mode {
    case .linear, .cubic:
      times = keyTimes ?? even
    case .discrete:
      times = keyTimes.map { Array($0.prefix(n)) } ?? (0..<n).map { Double($0) / Double(n) }
    case .paced:
      times = pacedKeyTimes(values) ?? even
    case .cubicPaced:
      times = even
    }
    if n > 1, mode != .discrete { times[n - 1] = 1 }

    var table = [TimingFunction]()
    var indices = [Int]()
    if let timingFunctions, mode != .paced, mode != .cubicPaced {
      for f in timingFunctions {
        if f == .linear {
          indices.append(-1)
        } else if let j = table.firstIndex(of: f) {
          indices.append(j)
        } else {
          table.append(f)
          indices.append(table.count - 1)
        }
      }
    } else if mode != .paced, mode != .cubicPaced {
      indices = [Int](repeating: -1, count: Swift.max(n - 1, 0))
    }

    var outgoing = [Double]()
    var incoming = [Double]()
    if mode == .cubic || mode == .cubicPaced {
      (outgoing, incoming) = kochanekBartelsTangents(
        flat, keys: n, channels: c, tension: tension, continuity: continuity, bias: bias)
    }

    var draft = CompiledKeyframeTrack(
      calculationMode: mode, channelCount: c, keyCount: n, keyTimes: times, values: flat,
      outgoingTangents: outgoing, incomingTangents: incoming, timingFunctions: table,
      segmentTimingFunctionIndices: indices, timingFunction: timingFunction, arcLengths: [],
      samplesPerSegment: samplesPerSegment)
    if mode == .cubicPaced {
      let arc = arcLengthTable(of: draft)
      draft = CompiledKeyframeTrack(
        calculationMode: mode, channelCount: c, keyCount: n, keyTimes: times, values: flat,
        outgoingTangents: outgoing, incomingTangents: incoming, timingFunctions: table,
        segmentTimingFunctionIndices: indices, timingFunction: timingFunction, arcLengths: arc,
        samplesPerSegment: samplesPerSegment)
    }
    return draft
  }

  /// `kᵢ = Σⱼ<ᵢ Lⱼ / Σ Lⱼ`, or `nil` when the total is 0 or not finite.
  private static func pacedKeyTimes(_ values: [Value]) -> [Double]? {
    var cumulative = [0.0]
    for i in 1..<values.count {
      cumulative.append(cumulative[i - 1] + Value.distance(values[i - 1], values[i]))
    }
    let total = cumulative[cumulative.count - 1]
    guard total > 0, total.isFinite else { return nil }
    return cumulative.map { Swift.min($0 / total, 1) }
  }

  /// Kochanek–Bartels tangents `(DD, DS)` per key and channel, end keys duplicated.
  private static func kochanekBartelsTangents(
    _ p: [Double], keys n: Int, channels c: Int, tension: [Double]?, continuity: [Double]?,
    bias: [Double]?
  ) -> (outgoing: [Double], incoming: [Double]) {
    var dd = [Double](repeating: 0, count: n * c)
    var ds = [Double](repeating: 0, count: n * c)
    for i in 0..<n {
      let t = tension?[i] ?? 0
      let cont = continuity?[i] ?? 0
      let b = bias?[i] ?? 0
      let inA = (1 - t) * (1 + b) * (1 - cont) / 2
      let inB = (1 - t) * (1 - b) * (1 + cont) / 2
      let outA = (1 - t) * (1 + b) * (1 + cont) / 2
      let outB = (1 - t) * (1 - b) * (1 - cont) / 2
      let prev = Swift.max(i - 1, 0)
      let next = Swift.min(i + 1, n - 1)
      for k in 0..<c {
        let back = p[i * c + k] - p[prev * c + k]
        let ahead = p[next * c + k] - p[i * c + k]
        ds[i * c + k] = inA * back + inB * ahead
        dd[i * c + k] = outA * back + outB * ahead
      }
    }
    return (dd, ds)
  }

  /// Normalised cumulative chord lengths at the spline parameters `j / S`, or empty when the
  /// curve has zero (or non-finite) length.
  private static func arcLengthTable(of track: CompiledKeyframeTrack) -> [Double] {
    let n = track.keyCount
    let samples = track.samplesPerSegment
    let count = samples * (n - 1)
    var cumulative = [Double](repeating: 0, count: count + 1)
    var previous = hermite(track, segment: 0, s: 0)
    for j in 1...count {
      let segment = Swift.min((j - 1) / samples, n - 2)
      let s = Double(j - segment * samples) / Double(samples)
      let point = hermite(track, segment: segment, s: s)
      cumulative[j] = cumulative[j - 1] + Value.distance(previous, point)
      previous = point
    }
    let total = cumulative[count]
    guard total > 0, total.isFinite else { return [] }
    for j in 0...count { cumulative[j] = Swift.min(cumulative[j] / total, 1) }
    cumulative[count] = 1
    return cumulative
  }

  /// The Hermite point of `segment` at spline parameter `s`, as `Value`.
  private static func hermite(_ track: CompiledKeyframeTrack, segment i: Int, s: Double) -> Value {
    let c = track.channelCount
    let s2 = s * s
    let s3 = s2 * s
    let h00 = 2 * s3 - 3 * s2 + 1
    let h10 = s3 - 2 * s2 + s
    let h01 = -2 * s3 + 3 * s2
    let h11 = s3 - s2
    var out = [Double](repeating: 0, count: c)
    for k in 0..<c {
      out[k] =
        h00 * track.values[i * c + k] + h10 * track.outgoingTangents[i * c + k] + h01
        * track.values[(i + 1) * c + k] + h11 * track.incomingTangents[(i + 1) * c + k]
    }
    return Value(channels: out[...])
  }
}
