/// A `CAKeyframeAnimation` of a list value (``InterpolatableList``): `CAShapeLayer.path` through
/// several shapes, `CAGradientLayer.colors` or `locations` through several lists. Every value
/// has the layout of the first (the same path elements, the same count), and the track
/// interpolates their channels exactly as ``KeyframeTrack`` does a fixed-size value: the same key
/// times, calculation modes, timing functions and Kochanek–Bartels parameters, with the
/// Euclidean distance over all channels for the paced modes.
public struct KeyframeListTrack<Value: InterpolatableList>: Sendable, Equatable {
  /// The key values, `n` of them (`n ≥ 2`; `n ≥ 1` for discrete), all of one layout.
  public let values: [Value]
  /// The key times as given (`nil`: evenly spaced).
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
  /// The flat form ``value(at:beforeFlag:)`` evaluates: every key's channels.
  public let compiled: CompiledKeyframeTrack

  /// Validates and compiles a track; the parameters are those of
  /// ``KeyframeTrack/init(values:keyTimes:calculationMode:timingFunctions:timingFunction:tensionValues:continuityValues:biasValues:)``.
  ///
  /// - Throws: the errors of ``KeyframeTrack``'s initialiser, and on `values` with the key's
  ///   index: ``ValidationError/Reason/notFinite`` for a channel that is not finite,
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` for a list of another length
  ///   or a path of another element count, ``ValidationError/Reason/invalidState(_:)`` for a
  ///   path whose element kinds differ from the first's.
  public init(
    values: [Value], keyTimes: [Double]? = nil, calculationMode: CalculationMode = .linear,
    timingFunctions: [TimingFunction]? = nil, timingFunction: TimingFunction? = nil,
    tensionValues: [Double]? = nil, continuityValues: [Double]? = nil, biasValues: [Double]? = nil
  ) throws(ValidationError) {
    try KeyframeParameters.validateCount(values.count, calculationMode: calculationMode)
    var flat: [Double] = []
    let channelCount = values.first?.channels.count ?? 0
    flat.reserveCapacity(values.count * channelCount)
    for (i, v) in values.enumerated() {
      if let (_, reason) = values[0].layoutMismatch(with: v) {
        throw ValidationError(field: "values", index: i, reason: reason)
      }
      let channels = v.channels
      for c in channels { try Validate.finite(c, "values", index: i) }
      flat += channels
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
    self.compiled = CompiledKeyframeTrack.compile(
      flat: flat, channelCount: channelCount, keyCount: values.count, keyTimes: keyTimes,
      mode: calculationMode, timingFunctions: timingFunctions, timingFunction: timingFunction,
      tension: tensionValues, continuity: continuityValues, bias: biasValues,
      distance: Self.euclidean)
  }

  /// The value at animation progress `u` (unitless; NaN counts as 0), as
  /// ``KeyframeTrack/value(at:beforeFlag:)`` computes it channel by channel. Where the channels
  /// make no valid value (a cubic curve overflowing `Double`), the nearer key of the segment is
  /// shown.
  ///
  /// - Parameters:
  ///   - u: the animation's progress after its own timing function.
  ///   - beforeFlag: `true` in the animation's before phase (CSS's before flag for `steps()`).
  public func value(at u: Double, beforeFlag: Bool = false) -> Value {
    var out = [Double](repeating: 0, count: compiled.channelCount)
    compiled.channels(at: u, into: &out, beforeFlag: beforeFlag)
    if let value = values[0].replacingChannels(out[...]) { return value }
    let location = compiled.locate(u, beforeFlag: beforeFlag)
    let nearer = location.segment + (location.fraction >= 0.5 ? 1 : 0)
    return values[Swift.min(nearer, values.count - 1)]
  }

  /// `√Σ(aᵢ − bᵢ)²` over two keys' channels.
  private static func euclidean(_ a: ArraySlice<Double>, _ b: ArraySlice<Double>) -> Double {
    var sum = 0.0
    for (x, y) in zip(a, b) { sum += (x - y) * (x - y) }
    return sum.squareRoot()
  }
}
