/// An edge of a rectangle (`CGRectEdge`), named in the rectangle's coordinates: in UIKit's y-down
/// space `minYEdge` is the top.
public enum RectEdge: String, Hashable, Sendable, CaseIterable {
  /// The edge at `minX` (the left edge).
  case minXEdge
  /// The edge at `minY` (the top edge in y-down space).
  case minYEdge
  /// The edge at `maxX` (the right edge).
  case maxXEdge
  /// The edge at `maxY` (the bottom edge in y-down space).
  case maxYEdge
}

/// Core Graphics' rectangle operations, with its exact rules: operations read the rectangle
/// standardised (a negative size flips the origin to the other side), return standardised
/// rectangles, and pass the null rectangle through.
///
/// Equality stays field by field (`==` does not standardise, unlike `CGRect`'s): compare
/// ``standardized`` values to compare rectangles as Core Graphics does.
extension Rect {
  /// `CGRect.null`: the rectangle with origin `(+∞, +∞)` and size zero, the result of an
  /// operation that leaves no rectangle (``insetBy(dx:dy:)`` past the middle). Every call that
  /// stores a rectangle in a layer rejects it as not finite.
  public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

  /// `isNull`: the origin has an infinite coordinate `+∞`.
  @inlinable public var isNull: Bool { origin.x == .infinity || origin.y == .infinity }

  /// `isEmpty`: null, or a zero width or height.
  @inlinable public var isEmpty: Bool { isNull || size.width == 0 || size.height == 0 }

  /// `standardized`: `(minX, minY, width, height)` with a non-negative size; null stays null.
  @inlinable public var standardized: Rect {
    isNull ? .null : Rect(x: minX, y: minY, width: width, height: height)
  }

  /// `offsetBy(dx:dy:)`: the standardised rectangle moved by `(dx, dy)` points; null stays null.
  public func offsetBy(dx: Double, dy: Double) -> Rect {
    if isNull { return self }
    var r = standardized
    r.origin.x += dx
    r.origin.y += dy
    return r
  }

  /// `insetBy(dx:dy:)`: the standardised rectangle with `dx` points taken from the left and right
  /// and `dy` from the top and bottom (negative values grow it). When the width or height would
  /// become negative the result is ``null``; null stays null.
  public func insetBy(dx: Double, dy: Double) -> Rect {
    if isNull { return self }
    var r = standardized
    r.origin.x += dx
    r.origin.y += dy
    r.size.width -= 2 * dx
    r.size.height -= 2 * dy
    return r.size.width < 0 || r.size.height < 0 ? .null : r
  }

  /// `inset(by:)` (`UIEdgeInsetsInsetRect`): the origin moves by `(left, top)`, the width shrinks
  /// by `left + right` and the height by `top + bottom`, on the rectangle as stored. As in
  /// UIKit, nothing is standardised and an inset larger than the rectangle leaves a negative
  /// size, not the null rectangle.
  public func inset(by insets: EdgeInsets) -> Rect {
    Rect(
      x: origin.x + insets.left, y: origin.y + insets.top,
      width: size.width - (insets.left + insets.right),
      height: size.height - (insets.top + insets.bottom))
  }

  /// `divided(atDistance:from:)` (`CGRectDivide`): cuts the standardised rectangle by a line
  /// parallel to `edge`, `distance` points from it. `slice` is the part touching `edge`,
  /// `remainder` the rest; the distance is clamped to `[0, width]` (or `[0, height]`), so a
  /// negative distance gives an empty slice and a distance past the far side an empty remainder.
  /// A null rectangle divides into two null rectangles.
  public func divided(atDistance distance: Double, from edge: RectEdge) -> (
    slice: Rect, remainder: Rect
  ) {
    if isNull { return (.null, .null) }
    let r = standardized
    let horizontal = edge == .minXEdge || edge == .maxXEdge
    let extent = horizontal ? r.width : r.height
    let fromMin = edge == .minXEdge || edge == .minYEdge
    // The length of the part at the min side.
    let split = Swift.min(Swift.max(fromMin ? distance : extent - distance, 0), extent)
    var low = r
    var high = r
    if horizontal {
      low.size.width = split
      high.origin.x = r.origin.x + split
      high.size.width = extent - split
    } else {
      low.size.height = split
      high.origin.y = r.origin.y + split
      high.size.height = extent - split
    }
    return fromMin ? (low, high) : (high, low)
  }
}

/// `UIEdgeInsets`: distances in points inward from each edge of a rectangle (negative values
/// outward), used by ``Rect/inset(by:)`` and snapshots' cap insets.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
  /// From the top edge (`minY` in y-down space), points.
  public var top: Double
  /// From the left edge (`minX`), points.
  public var left: Double
  /// From the bottom edge (`maxY`), points.
  public var bottom: Double
  /// From the right edge (`maxX`), points.
  public var right: Double

  /// `UIEdgeInsets.zero`.
  public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

  /// `UIEdgeInsets(top:left:bottom:right:)`.
  @inlinable public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }

  /// `"{top, left, bottom, right}"`, as `NSStringFromUIEdgeInsets`.
  public var description: String { "{\(top), \(left), \(bottom), \(right)}" }
}
