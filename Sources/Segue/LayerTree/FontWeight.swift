/// The weight of a typeface on the OpenType scale `1…1000` (`usWeightClass`), with UIKit's names
/// (`UIFont.Weight`): 100 ultra-light … 400 regular … 700 bold … 900 black.
public struct FontWeight: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible
{
  /// The OpenType weight class, `1…1000`.
  public let rawValue: Int

  /// The weight `rawValue`, or `nil` outside `1…1000`.
  public init?(rawValue: Int) {
    guard Self.range.contains(rawValue) else { return nil }
    self.rawValue = rawValue
  }

  private init(checked rawValue: Int) { self.rawValue = rawValue }

  /// The weights OpenType allows.
  public static let range = 1...1000

  /// `ultraLight` (100).
  public static let ultraLight = FontWeight(checked: 100)
  /// `thin` (200).
  public static let thin = FontWeight(checked: 200)
  /// `light` (300).
  public static let light = FontWeight(checked: 300)
  /// `regular` (400).
  public static let regular = FontWeight(checked: 400)
  /// `medium` (500).
  public static let medium = FontWeight(checked: 500)
  /// `semibold` (600).
  public static let semibold = FontWeight(checked: 600)
  /// `bold` (700).
  public static let bold = FontWeight(checked: 700)
  /// `heavy` (800).
  public static let heavy = FontWeight(checked: 800)
  /// `black` (900).
  public static let black = FontWeight(checked: 900)

  /// Orders by ``rawValue``.
  public static func < (lhs: FontWeight, rhs: FontWeight) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The weight class, as `"700"`.
  public var description: String { String(rawValue) }
}
