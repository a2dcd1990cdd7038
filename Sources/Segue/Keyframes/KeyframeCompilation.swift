/// The checks every keyframe track makes of its parameters, whatever its value type
/// (``KeyframeTrack``, ``KeyframeListTrack``).
enum KeyframeParameters {
  /// Throws ``ValidationError/Reason/tooFew(minimum:actual:)`` on `values` unless there are two
  /// keys (one for `discrete`).
  static func validateCount(_ n: Int, calculationMode: CalculationMode) throws(ValidationError) {
    let minimum = calculationMode == .discrete ? 1 : 2
    guard n >= minimum else {
      throw ValidationError(field: "values", reason: .tooFew(minimum: minimum, actual: n))
    }
  }

  /// Throws for bad key times, a wrong number of timing functions, or
  /// Kochanek–Bartels parameters of the wrong count or outside `[−1, 1]` (the rules of
  /// ``KeyframeTrack/init(values:keyTimes:calculationMode:timingFunctions:timingFunction:tensionValues:continuityValues:biasValues:)``).
  static func validate(
    valueCount n: Int, keyTimes: [Double]?, calculationMode: CalculationMode,
    timingFunctions: [TimingFunction]?, tensionValues: [Double]?, continuityValues: [Double]?,
    biasValues: [Double]?
  ) throws(ValidationError) {
    if let keyTimes {
      try validateKeyTimes(keyTimes, valueCount: n, mode: calculationMode)
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
  }

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
}

extension CompiledKeyframeTrack {
  /// The distance between two keys given as runs of their channels (paced modes).
  typealias KeyDistance = (ArraySlice<Double>, ArraySlice<Double>) -> Double

  /// Compiles `keyCount` validated keys, `flat` holding `channelCount` channels per key one key
  /// after another (keys may have no channels: an empty list); `distance` measures two keys for
  /// the paced modes.
  static func compile(
    flat: [Double], channelCount c: Int, keyCount n: Int, keyTimes: [Double]?,
    mode: CalculationMode, timingFunctions: [TimingFunction]?, timingFunction: TimingFunction?,
    tension: [Double]?, continuity: [Double]?, bias: [Double]?, distance: KeyDistance
  ) -> CompiledKeyframeTrack {
    let even = (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
    var times: [Double]
    switch mode {
    case .linear, .cubic:
      times = keyTimes ?? even
    case .discrete:
      times = keyTimes.map { Array($0.prefix(n)) } ?? (0..<n).map { Double($0) / Double(n) }
    case .paced:
      times = pacedKeyTimes(flat, keys: n, channels: c, distance: distance) ?? even
    case .cubicPaced:
      times = even
    }
    if n > 1, mode != .discrete { times[n - 1] = 1 }
    let (table, indices) = segmentTimingFunctions(timingFunctions, keys: n, mode: mode)
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
      samplesPerSegment: KeyframeTrack<Double>.samplesPerSegment)
    if mode == .cubicPaced {
      let arc = arcLengthTable(of: draft, distance: distance)
      draft = CompiledKeyframeTrack(
        calculationMode: mode, channelCount: c, keyCount: n, keyTimes: times, values: flat,
        outgoingTangents: outgoing, incomingTangents: incoming, timingFunctions: table,
        segmentTimingFunctionIndices: indices, timingFunction: timingFunction, arcLengths: arc,
        samplesPerSegment: draft.samplesPerSegment)
    }
    return draft
  }

  /// The distinct per-segment timing functions and each segment's index into them (−1 for
  /// linear); both empty in the paced modes.
  private static func segmentTimingFunctions(
    _ timingFunctions: [TimingFunction]?, keys n: Int, mode: CalculationMode
  ) -> (table: [TimingFunction], indices: [Int]) {
    guard mode != .paced, mode != .cubicPaced else { return ([], []) }
    guard let timingFunctions else {
      return ([], [Int](repeating: -1, count: Swift.max(n - 1, 0)))
    }
    var table = [TimingFunction]()
    var indices = [Int]()
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
    return (table, indices)
  }

  /// `kᵢ = Σⱼ<ᵢ Lⱼ / Σ Lⱼ`, or `nil` when the total is 0 or not finite.
  private static func pacedKeyTimes(
    _ flat: [Double], keys n: Int, channels c: Int, distance: KeyDistance
  ) -> [Double]? {
    var cumulative = [0.0]
    for i in 1..<n {
      let step = distance(flat[(i - 1) * c..<i * c], flat[i * c..<(i + 1) * c])
      cumulative.append(cumulative[i - 1] + step)
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
  private static func arcLengthTable(
    of track: CompiledKeyframeTrack, distance: KeyDistance
  ) -> [Double] {
    let n = track.keyCount
    let samples = track.samplesPerSegment
    let count = samples * (n - 1)
    var cumulative = [Double](repeating: 0, count: count + 1)
    var previous = hermite(track, segment: 0, s: 0)
    for j in 1...count {
      let segment = Swift.min((j - 1) / samples, n - 2)
      let s = Double(j - segment * samples) / Double(samples)
      let point = hermite(track, segment: segment, s: s)
      cumulative[j] = cumulative[j - 1] + distance(previous[...], point[...])
      previous = point
    }
    let total = cumulative[count]
    guard total > 0, total.isFinite else { return [] }
    for j in 0...count { cumulative[j] = Swift.min(cumulative[j] / total, 1) }
    cumulative[count] = 1
    return cumulative
  }

  /// The channels of the Hermite point of `segment` at spline parameter `s`.
  private static func hermite(_ track: CompiledKeyframeTrack, segment i: Int, s: Double)
    -> [Double]
  {
    let c = track.channelCount
    var out = [Double](repeating: 0, count: c)
    track.hermite(segment: i, s: s, into: &out)
    return out
  }
}
