/// Four points in 2D, in points: the corners of a (possibly transformed) rectangle, listed
/// top-left, top-right, bottom-right, bottom-left (y-down), as the transition samples list corners.
public struct Quad: Hashable, Sendable, CustomStringConvertible {
  /// The first corner (top-left of the source rectangle).
  public var p1: Point
  /// The second corner (top-right).
  public var p2: Point
  /// The third corner (bottom-right).
  public var p3: Point
  /// The fourth corner (bottom-left).
  public var p4: Point

  /// Creates a quad from its four corners in order.
  @inlinable
  public init(p1: Point, p2: Point, p3: Point, p4: Point) {
    self.p1 = p1
    self.p2 = p2
    self.p3 = p3
    self.p4 = p4
  }

  /// The corners of `rect` in y-down order: `(minX, minY)`, `(maxX, minY)`, `(maxX, maxY)`,
  /// `(minX, maxY)`. A rectangle with a negative size is standardised first.
  @inlinable
  public init(_ rect: Rect) {
    self.init(
      p1: Point(x: rect.minX, y: rect.minY), p2: Point(x: rect.maxX, y: rect.minY),
      p3: Point(x: rect.maxX, y: rect.maxY), p4: Point(x: rect.minX, y: rect.maxY))
  }

  /// `[p1, p2, p3, p4]`.
  @inlinable
  public var points: [Point] { [p1, p2, p3, p4] }

  /// The smallest rectangle containing the four corners.
  @inlinable
  public var boundingBox: Rect { Rect(boundingBoxOf: points) }

  /// `"[p1, p2, p3, p4]"`.
  public var description: String { "[\(p1), \(p2), \(p3), \(p4)]" }
}
