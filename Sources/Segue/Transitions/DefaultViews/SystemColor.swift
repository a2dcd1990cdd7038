/// UIKit's system colours in the light appearance, as sRGB values (`UIColor.systemBackground`,
/// `.label`, `.systemBlue`, …), for the default views.
enum SystemColor {
  /// `systemBackground`: white.
  static let systemBackground = RGBAColor.white
  /// `systemGroupedBackground` (and `secondarySystemBackground`): `#F2F2F7`.
  static let systemGroupedBackground = rgb(242, 242, 247)
  /// `label`: black.
  static let label = RGBAColor.black
  /// `secondaryLabel`: `#3C3C43` at 60 %.
  static let secondaryLabel = rgb(60, 60, 67, alpha: 0.6)
  /// `tertiaryLabel`: `#3C3C43` at 30 %.
  static let tertiaryLabel = rgb(60, 60, 67, alpha: 0.3)
  /// `separator`: `#3C3C43` at 29 %.
  static let separator = rgb(60, 60, 67, alpha: 0.29)
  /// `systemBlue`: `#007AFF`.
  static let systemBlue = rgb(0, 122, 255)
  /// `systemGreen`: `#34C759`.
  static let systemGreen = rgb(52, 199, 89)
  /// `systemOrange`: `#FF9500`.
  static let systemOrange = rgb(255, 149, 0)
  /// `systemRed`: `#FF3B30`.
  static let systemRed = rgb(255, 59, 48)
  /// `systemPink`: `#FF2D55`.
  static let systemPink = rgb(255, 45, 85)
  /// `systemIndigo`: `#5856D6`.
  static let systemIndigo = rgb(88, 86, 214)
  /// `systemGray`: `#8E8E93`.
  static let systemGray = rgb(142, 142, 147)

  /// The colour of 8-bit sRGB components.
  static func rgb(_ r: Double, _ g: Double, _ b: Double, alpha: Double = 1) -> RGBAColor {
    RGBAColor(clamping: r / 255, g / 255, b / 255, alpha)
  }
}
