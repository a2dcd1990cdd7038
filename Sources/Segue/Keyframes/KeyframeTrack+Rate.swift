extension CompiledKeyframeTrack {
  /// The derivative of ``value(at:as:beforeFlag:)`` with respect to the progress `u`, as a
  /// `Value` whose channels are rates (units of the value per unit of `u`).
  ///
  /// With `s` the location's fraction and `s′ = ds/du` (from the location of `u` among the keys):
  /// linear and paced channels `(pᵢ₊₁ − pᵢ)·s′`; the cubic modes the Hermite derivative
  /// `(h00′·pᵢ + h10′·DDᵢ + h01′·pᵢ₊₁ + h11′·DSᵢ₊₁)·s′` with `h00′ = 6s² − 6s`,
  /// `h10′ = 3s² − 4s + 1`, `h01′ = −6s² + 6s`, `h11′ = 3s² − 2s`; transforms in the linear
  /// and paced modes ``TransformInterpolator/derivative(at:)`` of the segment's two keys times
  /// `s′`. Discrete: 0. At a key time the segment that starts there is used (the derivative from
  /// the right, the side time moves to while progress increases).
  public func rate<Value: Interpolatable>(
    at u: Double, as type: Value.Type = Value.self, beforeFlag: Bool = false
  ) -> Value {
    precondition(Value.channelCount == channelCount, "channel count mismatch")
    let (loc, rate) = locate(u, beforeFlag: beforeFlag, wantsRate: true)
    let c = channelCount
    var out = [Double](repeating: 0, count: c)
    let i = loc.segment
    guard calculationMode != .discrete, rate != 0 else { return Value(channels: out[...]) }
    if !Value.interpolatesChannelWise, calculationMode == .linear || calculationMode == .paced {
      let a = Transform3D(channels: values[i * c..<(i + 1) * c])
      let b = Transform3D(channels: values[(i + 1) * c..<(i + 2) * c])
      let d = TransformInterpolator(from: a, to: b).derivative(at: loc.fraction)
      return Value(channels: d.multiplied(by: rate).fields[...])
    }
    switch calculationMode {
    case .cubic, .cubicPaced:
      let s = loc.fraction
      let h00 = (6 * s - 6) * s
      let h10 = (3 * s - 4) * s + 1
      let h01 = (6 - 6 * s) * s
      let h11 = (3 * s - 2) * s
      for k in 0..<c {
        let d =
          h00 * values[i * c + k] + h10 * outgoingTangents[i * c + k] + h01
          * values[(i + 1) * c + k] + h11 * incomingTangents[(i + 1) * c + k]
        out[k] = d * rate
      }
    default:
      for k in 0..<c { out[k] = (values[(i + 1) * c + k] - values[i * c + k]) * rate }
    }
    return Value(channels: out[...])
  }
}

extension KeyframeValues {
  /// The derivative of ``value(at:beforeFlag:)`` with respect to the progress `u`: a value of
  /// the same kind whose channels are rates per unit of `u`
  /// (``CompiledKeyframeTrack/rate(at:as:beforeFlag:)``). For paths and colour or number lists
  /// the rate is not computed (they move no geometry): a value of the same layout with every
  /// channel 0.
  public func rate(at u: Double, beforeFlag: Bool = false) -> AnimationValue {
    switch self {
    case .paths, .colorLists, .numberLists:
      let v = value(at: u, beforeFlag: beforeFlag)
      return v.withChannels([Double](repeating: 0, count: v.channels.count))
    case .numbers(let track): return .number(track.compiled.rate(at: u, beforeFlag: beforeFlag))
    case .points(let track): return .point(track.compiled.rate(at: u, beforeFlag: beforeFlag))
    case .sizes(let track): return .size(track.compiled.rate(at: u, beforeFlag: beforeFlag))
    case .rects(let track): return .rect(track.compiled.rate(at: u, beforeFlag: beforeFlag))
    case .transforms(let track):
      return .transform(track.compiled.rate(at: u, beforeFlag: beforeFlag))
    case .colors(let track): return .color(track.compiled.rate(at: u, beforeFlag: beforeFlag))
    }
  }
}
