/// An RGBA colour with straight (not premultiplied) components, as a `CGColor` in a device RGB
/// space: `red`, `green`, `blue` and `alpha` are unitless fractions in `[0, 1]`.
///
/// Components are **clamped** to `[0, 1]` whenever a colour is made, by
/// ``init(red:green:blue:alpha:)`` and by ``init(channels:)``; so a cubic keyframe track that
/// overshoots between keys yields the nearest valid colour, as a device RGB colour space would.
/// Interpolation is channel-wise on the straight components (``Interpolatable``'s default) and the
/// paced distance is the Euclidean norm over the four channels.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
  /// Red, in `[0, 1]`.
  public let red: Double
  /// Green, in `[0, 1]`.
  public let green: Double
  /// Blue, in `[0, 1]`.
  public let blue: Double
  /// Opacity, in `[0, 1]` (not premultiplied into the colour components).
  public let alpha: Double

  /// Opaque black `(0, 0, 0, 1)`.
  public static let black = RGBAColor(clamping: 0, 0, 0, 1)
  /// Opaque white `(1, 1, 1, 1)`.
  public static let white = RGBAColor(clamping: 1, 1, 1, 1)
  /// Transparent black `(0, 0, 0, 0)`, UIColor's `clear`.
  public static let clear = RGBAColor(clamping: 0, 0, 0, 0)

  /// Creates a colour; each component is clamped to `[0, 1]`.
  ///
  /// - Throws: ``ValidationError`` ``ValidationError/Reason/notFinite`` naming the component
  ///   (`red`, `green`, `blue` or `alpha`) when it is NaN or infinite.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) throws(ValidationError) {
    try Validate.finite(red, "red")
    try Validate.finite(green, "green")
    try Validate.finite(blue, "blue")
    try Validate.finite(alpha, "alpha")
    self.init(clamping: red, green, blue, alpha)
  }

  /// Clamps each finite component into `[0, 1]` (NaN becomes 0).
  package init(clamping r: Double, _ g: Double, _ b: Double, _ a: Double) {
    func clamp(_ v: Double) -> Double { v.isNaN ? 0 : Swift.min(Swift.max(v, 0), 1) }
    red = clamp(r)
    green = clamp(g)
    blue = clamp(b)
    alpha = clamp(a)
  }

  /// `"rgba(r, g, b, a)"`.
  public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
}

extension RGBAColor: Interpolatable {
  /// Four channels: `red, green, blue, alpha`.
  public static var channelCount: Int { 4 }
  /// `[red, green, blue, alpha]`.
  public var channels: [Double] { [red, green, blue, alpha] }
  /// Reads `red, green, blue, alpha`, clamping each to `[0, 1]` (a NaN channel becomes 0).
  public init(channels: ArraySlice<Double>) {
    precondition(channels.count == 4, "Color has 4 channels")
    let s = channels.startIndex
    self.init(clamping: channels[s], channels[s + 1], channels[s + 2], channels[s + 3])
  }
  /// Channel-wise, as the default, each channel `a·(1 − f) + b·f` clamped to `[0, 1]`.
  public static func interpolate(_ a: RGBAColor, _ b: RGBAColor, fraction f: Double) -> RGBAColor {
    if f == 0 { return a }
    if f == 1 { return b }
    return RGBAColor(
      clamping: lerp(a.red, b.red, f), lerp(a.green, b.green, f), lerp(a.blue, b.blue, f),
      lerp(a.alpha, b.alpha, f))
  }
}
