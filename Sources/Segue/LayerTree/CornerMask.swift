/// `CACornerMask`: which corners of a layer `cornerRadius` rounds (`CALayer.maskedCorners`).
///
/// Corners are named in the layer's own coordinates; in UIKit's y-down space `minY` is the top, so
/// ``layerMinXMinYCorner`` is the top-left corner. The raw values are Core Animation's (1, 2, 4,
/// 8). The default of a layer is ``all``.
public struct CornerMask: OptionSet, Hashable, Sendable, CustomStringConvertible {
  /// The bits: 1 top-left, 2 top-right, 4 bottom-left, 8 bottom-right (y-down).
  public let rawValue: UInt

  /// A mask from Core Animation's raw value; bits above the four corners are dropped.
  @inlinable public init(rawValue: UInt) { self.rawValue = rawValue & 0xF }

  /// `layerMinXMinYCorner`: top-left in y-down space.
  public static let layerMinXMinYCorner = CornerMask(rawValue: 1)
  /// `layerMaxXMinYCorner`: top-right.
  public static let layerMaxXMinYCorner = CornerMask(rawValue: 2)
  /// `layerMinXMaxYCorner`: bottom-left.
  public static let layerMinXMaxYCorner = CornerMask(rawValue: 4)
  /// `layerMaxXMaxYCorner`: bottom-right.
  public static let layerMaxXMaxYCorner = CornerMask(rawValue: 8)
  /// All four corners, `CALayer`'s default.
  public static let all: CornerMask = [
    .layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner,
  ]

  /// The corners with their Core Animation names, in raw-value order.
  public static let named: [(name: String, corner: CornerMask)] = [
    ("layerMinXMinYCorner", .layerMinXMinYCorner), ("layerMaxXMinYCorner", .layerMaxXMinYCorner),
    ("layerMinXMaxYCorner", .layerMinXMaxYCorner), ("layerMaxXMaxYCorner", .layerMaxXMaxYCorner),
  ]

  /// The names of the corners in the mask, in raw-value order.
  public var names: [String] { Self.named.filter { contains($0.corner) }.map(\.name) }

  /// The corner with Core Animation name `name` (`"layerMinXMinYCorner"`, …), or `nil`.
  public init?(name: String) {
    guard let entry = Self.named.first(where: { $0.name == name }) else { return nil }
    self = entry.corner
  }

  /// `"[layerMinXMinYCorner, …]"`.
  public var description: String { "[\(names.joined(separator: ", "))]" }
}
