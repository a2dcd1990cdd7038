/// A value that keyframe tracks can animate, described as a fixed number of `Double` channels.
///
/// Every value of a conforming type is exactly ``channelCount`` numbers, so tracks (and a batch
/// kernel) can store `K` keys as one flat `K × C` array (``CompiledKeyframeTrack/values``). The
/// channel layout is the conforming type's choice and must round-trip exactly:
/// `Self(channels: v.channels[...]) == v`.
///
/// Defaults, which a type may replace:
/// * ``interpolate(_:_:fraction:)``: channel-wise linear interpolation
///   `aᵢ·(1 − f) + bᵢ·f`, exact at `f = 0` and `f = 1`. A type whose interpolation is not
///   channel-wise (a transform interpolated by decomposition) overrides it and returns `false`
///   from ``interpolatesChannelWise``.
/// * ``distance(_:_:)``: the Euclidean norm of the channel differences, `√Σ(aᵢ − bᵢ)²`, used by
///   the paced calculation modes.
///
/// The cubic calculation modes always evaluate their Hermite curves channel by channel.
public protocol Interpolatable: Sendable, Equatable {
  /// The number of `Double` channels of every value, `≥ 1`.
  static var channelCount: Int { get }
  /// The value's channels, exactly ``channelCount`` of them.
  var channels: [Double] { get }
  /// Rebuilds a value from ``channelCount`` channels in the layout of ``channels``.
  ///
  /// - Precondition: `channels.count == Self.channelCount`. A type may normalise the numbers
  ///   (``RGBAColor`` clamps them to `[0, 1]`) but must not reject them.
  init(channels: ArraySlice<Double>)
  /// The value a fraction `fraction` of the way from `a` to `b`; `fraction` is unitless, normally
  /// in `[0, 1]` (values outside extrapolate for the default). Returns `a` at 0 and `b` at 1.
  static func interpolate(_ a: Self, _ b: Self, fraction: Double) -> Self
  /// A non-negative distance between two values, used to pace keyframes.
  static func distance(_ a: Self, _ b: Self) -> Double
  /// `true` when ``interpolate(_:_:fraction:)`` is the channel-wise lerp, so a batch kernel may
  /// interpolate the flat channels directly. Default `true`.
  static var interpolatesChannelWise: Bool { get }
}

extension Interpolatable {
  /// Channel-wise linear interpolation `aᵢ·(1 − f) + bᵢ·f`; exactly `a` at `f = 0` and exactly
  /// `b` at `f = 1` (for finite channels).
  public static func interpolate(_ a: Self, _ b: Self, fraction: Double) -> Self {
    if fraction == 0 { return a }
    if fraction == 1 { return b }
    let ca = a.channels
    let cb = b.channels
    var out = [Double](repeating: 0, count: ca.count)
    for i in 0..<ca.count { out[i] = lerp(ca[i], cb[i], fraction) }
    return Self(channels: out[...])
  }

  /// One channel of the channel-wise interpolation: `a·(1 − f) + b·f`. The fixed-size types
  /// below interpolate their fields with it directly, with the same bits and no arrays.
  @inlinable
  static func lerp(_ a: Double, _ b: Double, _ f: Double) -> Double { a * (1 - f) + b * f }

  /// Euclidean distance over the channels: `√Σ(aᵢ − bᵢ)²`.
  public static func distance(_ a: Self, _ b: Self) -> Double {
    let ca = a.channels
    let cb = b.channels
    var sum = 0.0
    for i in 0..<ca.count {
      let d = ca[i] - cb[i]
      sum += d * d
    }
    return sum.squareRoot()
  }

  /// `true`: the default interpolation is channel-wise.
  public static var interpolatesChannelWise: Bool { true }
}

extension Double: Interpolatable {
  /// One channel: the number itself.
  public static var channelCount: Int { 1 }
  /// `[self]`.
  public var channels: [Double] { [self] }
  /// The single channel.
  public init(channels: ArraySlice<Double>) {
    precondition(channels.count == 1, "Double has 1 channel")
    self = channels[channels.startIndex]
  }
  /// `a·(1 − f) + b·f`, exactly `a` at 0 and `b` at 1.
  public static func interpolate(_ a: Double, _ b: Double, fraction: Double) -> Double {
    if fraction == 0 { return a }
    if fraction == 1 { return b }
    return a * (1 - fraction) + b * fraction
  }
  /// `|a − b|`.
  public static func distance(_ a: Double, _ b: Double) -> Double { abs(a - b) }
}

extension Point: Interpolatable {
  /// Two channels: `x, y` (points).
  public static var channelCount: Int { 2 }
  /// `[x, y]`.
  public var channels: [Double] { [x, y] }
  /// Reads `x, y`.
  public init(channels: ArraySlice<Double>) {
    precondition(channels.count == 2, "Point has 2 channels")
    let s = channels.startIndex
    self.init(x: channels[s], y: channels[s + 1])
  }
  /// Channel-wise, as the default: `x` and `y` each `a·(1 − f) + b·f`.
  public static func interpolate(_ a: Point, _ b: Point, fraction f: Double) -> Point {
    if f == 0 { return a }
    if f == 1 { return b }
    return Point(x: lerp(a.x, b.x, f), y: lerp(a.y, b.y, f))
  }
}

extension Size: Interpolatable {
  /// Two channels: `width, height` (points).
  public static var channelCount: Int { 2 }
  /// `[width, height]`.
  public var channels: [Double] { [width, height] }
  /// Reads `width, height`.
  public init(channels: ArraySlice<Double>) {
    precondition(channels.count == 2, "Size has 2 channels")
    let s = channels.startIndex
    self.init(width: channels[s], height: channels[s + 1])
  }
  /// Channel-wise, as the default: `width` and `height` each `a·(1 − f) + b·f`.
  public static func interpolate(_ a: Size, _ b: Size, fraction f: Double) -> Size {
    if f == 0 { return a }
    if f == 1 { return b }
    return Size(width: lerp(a.width, b.width, f), height: lerp(a.height, b.height, f))
  }
}

extension Rect: Interpolatable {
  /// Four channels: `origin.x, origin.y, size.width, size.height` (points), so a rectangle
  /// interpolates its origin and size linearly, as CGRect values do in Core Animation.
  public static var channelCount: Int { 4 }
  /// `[origin.x, origin.y, size.width, size.height]`.
  public var channels: [Double] { [origin.x, origin.y, size.width, size.height] }
  /// Reads `x, y, width, height`.
  public init(channels: ArraySlice<Double>) {
    precondition(channels.count == 4, "Rect has 4 channels")
    let s = channels.startIndex
    self.init(
      x: channels[s], y: channels[s + 1], width: channels[s + 2], height: channels[s + 3])
  }
  /// Channel-wise, as the default: origin and size each `a·(1 − f) + b·f`.
  public static func interpolate(_ a: Rect, _ b: Rect, fraction f: Double) -> Rect {
    if f == 0 { return a }
    if f == 1 { return b }
    return Rect(
      x: lerp(a.origin.x, b.origin.x, f), y: lerp(a.origin.y, b.origin.y, f),
      width: lerp(a.size.width, b.size.width, f), height: lerp(a.size.height, b.size.height, f))
  }
}
