/// A value made of a number of `Double` channels that belongs to the value, not to its type: a
/// path's coordinates, a list of colours, a list of numbers (`CAShapeLayer.path`,
/// `CAGradientLayer.colors` and `locations`). Two values interpolate channel by channel when
/// their layouts match (the same element kinds in the same order, the same count), as Core
/// Animation blends two paths point by point; ``KeyframeListTrack`` animates them.
///
/// Compare ``Interpolatable``, whose channel count is fixed by the type.
public protocol InterpolatableList: Sendable, Equatable {
  /// The value's channels, in the order of its layout.
  var channels: [Double] { get }
  /// The value with this value's layout and `channels` (exactly as many as ``channels`` has), or
  /// `nil` when they make no valid value (a path coordinate that is not finite).
  func replacingChannels(_ channels: ArraySlice<Double>) -> Self?
  /// Why `other` cannot be interpolated with this value (the element index, when one element
  /// differs, and the reason), or `nil` when the layouts match.
  func layoutMismatch(with other: Self) -> (index: Int?, reason: ValidationError.Reason)?
}

extension InterpolatableList {
  /// `a + (b − a)·f` channel by channel (`f` may leave `[0, 1]`: extrapolation), exactly `self`
  /// at 0 and `other` at 1; `nil` when the layouts differ or the result is not a valid value
  /// (it overflows).
  public func channelwiseInterpolated(to other: Self, fraction f: Double) -> Self? {
    if f == 0 { return self }
    if f == 1 { return other }
    guard layoutMismatch(with: other) == nil else { return nil }
    let a = channels
    let b = other.channels
    var out = [Double](repeating: 0, count: a.count)
    for i in 0..<a.count { out[i] = a[i] + (b[i] - a[i]) * f }
    return replacingChannels(out[...])
  }
}

/// A list of ``Interpolatable`` values (`[RGBAColor]` for gradient colours, `[Double]` for
/// gradient locations): its layout is its count; its channels are its elements' channels in
/// order.
extension Array: InterpolatableList where Element: Interpolatable {
  /// The elements' channels, one element after another.
  public var channels: [Double] {
    var out: [Double] = []
    out.reserveCapacity(count * Element.channelCount)
    for element in self { out.append(contentsOf: element.channels) }
    return out
  }

  /// `count` elements rebuilt from consecutive runs of `Element.channelCount` channels; `nil`
  /// when a channel is not finite.
  public func replacingChannels(_ channels: ArraySlice<Double>) -> [Element]? {
    let c = Element.channelCount
    guard channels.count == count * c, channels.allSatisfy(\.isFinite) else { return nil }
    var out: [Element] = []
    out.reserveCapacity(count)
    var start = channels.startIndex
    for _ in 0..<count {
      out.append(Element(channels: channels[start..<(start + c)]))
      start += c
    }
    return out
  }

  /// `.countMismatch(expected: count, actual: other.count)` when the counts differ.
  public func layoutMismatch(with other: [Element]) -> (
    index: Int?, reason: ValidationError.Reason
  )? {
    count == other.count ? nil : (nil, .countMismatch(expected: count, actual: other.count))
  }
}
