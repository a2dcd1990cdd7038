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
    locate(u, beforeFlag: beforeFlag, wantsRate: false).location
  }

  /// ``locate(_:beforeFlag:)`` and, when `wantsRate`, the rate `d fraction / du` of the
  /// location's fraction (else 0): the chain rule through the overall timing function's slope,
  /// `1 / (kᵢ₊₁ − kᵢ)` and the segment's timing function's slope (cubicPaced: through the
  /// piecewise-linear inverse of ``arcLengths``). Held values (discrete mode, a clamped or
  /// non-finite progress, a zero-length segment, the held ends of cubicPaced) have rate 0.
  func locate(_ u: Double, beforeFlag: Bool, wantsRate: Bool) -> (
    location: Location, rate: Double
  ) {
    var p = Self.finiteProgress(u)
    var rate = u.isFinite ? 1.0 : 0
    if let tf = timingFunction {
      let eased = tf.transform(p, beforeFlag: beforeFlag)
      if wantsRate { rate = eased.isFinite ? rate * tf.slope(at: p) : 0 }
      p = Self.finiteProgress(eased)
    }
    let n = keyCount
    switch calculationMode {
    case .discrete:
      let key = Self.lastIndex(in: keyTimes, upTo: n - 1, notAbove: p)
      return (Location(segment: key, fraction: 0), 0)
    case .linear, .paced, .cubic:
      let i = Self.lastIndex(in: keyTimes, upTo: n - 2, notAbove: p)
      let length = keyTimes[i + 1] - keyTimes[i]
      var s = length > 0 ? (p - keyTimes[i]) / length : 1
      rate = length > 0 ? rate / length : 0
      if p >= 0, p <= 1, s != Self.clamp01(s) {
        s = Self.clamp01(s)
        rate = 0
      }
      if calculationMode != .paced {
        let index = segmentTimingFunctionIndices[i]
        if index >= 0 {
          let eased = timingFunctions[index].transform(s, beforeFlag: beforeFlag)
          if wantsRate { rate = eased.isFinite ? rate * timingFunctions[index].slope(at: s) : 0 }
          s = Self.finiteProgress(eased)
        }
      }
      return (Location(segment: i, fraction: s), wantsRate ? rate : 0)
    case .cubicPaced:
      return locatePaced(p, rate: rate, wantsRate: wantsRate)
    }
  }

  /// The cubicPaced case of ``locate(_:beforeFlag:wantsRate:)`` for the eased progress `p`
  /// moving at `rate`.
  private func locatePaced(_ p: Double, rate: Double, wantsRate: Bool) -> (
    location: Location, rate: Double
  ) {
    let n = keyCount
    // The arc-length parameterisation ends with the curve: no pace beyond it, so the ends hold.
    if p <= 0 { return (Location(segment: 0, fraction: 0), 0) }
    if p >= 1 { return (Location(segment: n - 2, fraction: 1), 0) }
    let g: Double
    var gRate: Double
    if arcLengths.isEmpty {
      g = p * Double(n - 1)
      gRate = rate * Double(n - 1)
    } else {
      let j = Self.lastIndex(in: arcLengths, upTo: arcLengths.count - 2, notAbove: p)
      let span = arcLengths[j + 1] - arcLengths[j]
      let raw = span > 0 ? (p - arcLengths[j]) / span : 0
      let f = Self.clamp01(raw)
      g = (Double(j) + f) / Double(samplesPerSegment)
      gRate = span > 0 && f == raw ? rate / span / Double(samplesPerSegment) : 0
    }
    let segment = Swift.min(Int(g.rounded(.down)), n - 2)
    let raw = g - Double(segment)
    if raw != Self.clamp01(raw) { gRate = 0 }
    return (Location(segment: segment, fraction: Self.clamp01(raw)), wantsRate ? gRate : 0)
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
      hermite(segment: i, s: s, into: &out, offset: offset)
    default:
      for k in 0..<c {
        out[offset + k] = values[i * c + k] * (1 - s) + values[(i + 1) * c + k] * s
      }
    }
  }

  /// Writes the Hermite curve of segment `i` at `s`,
  /// `h00(s)·pᵢ + h10(s)·DDᵢ + h01(s)·pᵢ₊₁ + h11(s)·DSᵢ₊₁`, into `out[offset ..< offset + C]`
  /// (cubic modes).
  func hermite(segment i: Int, s: Double, into out: inout [Double], offset: Int = 0) {
    let c = channelCount
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
    try KeyframeParameters.validateCount(values.count, calculationMode: calculationMode)
    for (i, v) in values.enumerated() {
      for c in v.channels { try Validate.finite(c, "values", index: i) }
    }
    try KeyframeParameters.validate(
      valueCount: values.count, keyTimes: keyTimes, calculationMode: calculationMode,
      timingFunctions: timingFunctions, tensionValues: tensionValues,
      continuityValues: continuityValues, biasValues: biasValues)
    self.values = values
    self.keyTimes = keyTimes
    self.calculationMode = calculationMode
    self.timingFunctions = timingFunctions
    self.timingFunction = timingFunction
    self.tensionValues = tensionValues
    self.continuityValues = continuityValues
    self.biasValues = biasValues
    var flat = [Double]()
    flat.reserveCapacity(values.count * Value.channelCount)
    for v in values { flat.append(contentsOf: v.channels) }
    self.compiled = CompiledKeyframeTrack.compile(
      flat: flat, channelCount: Value.channelCount, keyCount: values.count, keyTimes: keyTimes,
      mode: calculationMode,
      timingFunctions: timingFunctions, timingFunction: timingFunction,
      tension: tensionValues, continuity: continuityValues, bias: biasValues
    ) { a, b in Value.distance(Value(channels: a), Value(channels: b)) }
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
}
