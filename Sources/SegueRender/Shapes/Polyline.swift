import Segue

/// A subpath flattened to straight segments: `points[0] → points[1] → …`, and back to
/// `points[0]` when `isClosed`.
public struct Polyline: Hashable, Sendable {
  /// The vertices, in layer points.
  public var points: [Point]
  /// Whether a segment joins the last point back to the first (`closeSubpath`).
  public var isClosed: Bool

  /// Creates a polyline.
  public init(points: [Point], isClosed: Bool) {
    self.points = points
    self.isClosed = isClosed
  }

  /// The total length, the closing segment included.
  public var length: Double {
    guard points.count > 1 else { return 0 }
    var total = 0.0
    for i in 1..<points.count { total += distance(points[i - 1], points[i]) }
    if isClosed, let first = points.first, let last = points.last { total += distance(last, first) }
    return total
  }

  /// The signed area by the shoelace formula (positive when the vertices turn from +x towards
  /// +y), the closing segment always included.
  public var signedArea: Double {
    guard points.count > 2 else { return 0 }
    var sum = 0.0
    var previous = points[points.count - 1]
    for p in points {
      sum += previous.x * p.y - p.x * previous.y
      previous = p
    }
    return sum / 2
  }
}

@inline(__always)
func distance(_ a: Point, _ b: Point) -> Double {
  let dx = b.x - a.x
  let dy = b.y - a.y
  return (dx * dx + dy * dy).squareRoot()
}
