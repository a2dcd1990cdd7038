/// A half-plane of a 2D coordinate space: the points `(x, y)` with `a·x + b·y + c > 0`, or
/// `≥ 0` when ``includesBoundary`` is set.
///
/// ``complement`` negates the coefficients and flips ``includesBoundary``; since IEEE arithmetic
/// rounds symmetrically, `f = a·x + b·y + c` of the complement is exactly `−f`, so every point is
/// in exactly one of a half-plane and its complement, the points on the line included.
public struct HalfPlane: Hashable, Sendable {
  /// The coefficient of x.
  public var a: Double
  /// The coefficient of y.
  public var b: Double
  /// The constant term.
  public var c: Double
  /// Whether the points on the line `a·x + b·y + c = 0` are inside.
  public var includesBoundary: Bool

  /// Creates the half-plane `a·x + b·y + c > 0` (`≥ 0` when `includesBoundary`).
  @inlinable
  public init(a: Double, b: Double, c: Double, includesBoundary: Bool) {
    self.a = a
    self.b = b
    self.c = c
    self.includesBoundary = includesBoundary
  }

  /// The other side: `−a·x − b·y − c`, with the line on the other side too.
  @inlinable
  public var complement: HalfPlane {
    HalfPlane(a: -a, b: -b, c: -c, includesBoundary: !includesBoundary)
  }

  /// `a·x + b·y + c` at `(x, y)`.
  @inlinable
  public func value(x: Double, y: Double) -> Double { a * x + b * y + c }

  /// Whether `(x, y)` is inside (`false` for a NaN value).
  @inlinable
  public func contains(x: Double, y: Double) -> Bool {
    let f = value(x: x, y: y)
    return includesBoundary ? f >= 0 : f > 0
  }

  /// The same half-plane seen from another layer's plane, given `matrix` from that layer's space
  /// to this space (row vectors), this space's plane being `z = 0` with z dropped: a point
  /// `(u, v)` there is `[X Y Z W] = [u v 0 1]·matrix` here, at `(X/W, Y/W)`, and the result is
  /// `a·X + b·Y + c·W > 0`:
  ///
  ///     a' = a·m11 + b·m12 + c·m14,  b' = a·m21 + b·m22 + c·m24,  c' = a·m41 + b·m42 + c·m44
  ///
  /// Exact where `W > 0`; where `W < 0` the sides swap, which keeps a half-plane and its
  /// complement complementary.
  @inlinable
  public func pulledBack(through matrix: Transform3D) -> HalfPlane {
    let m = matrix
    return HalfPlane(
      a: a * m.m11 + b * m.m12 + c * m.m14, b: a * m.m21 + b * m.m22 + c * m.m24,
      c: a * m.m41 + b * m.m42 + c * m.m44, includesBoundary: includesBoundary)
  }
}

/// A convex region of a 2D coordinate space: the points inside every one of its half-planes (the
/// whole plane when there are none). Depth sorting cuts a layer into pieces, each drawn where
/// its region contains the layer point (<doc:DepthOrder>).
public struct ConvexRegion: Hashable, Sendable {
  /// The half-planes, in the order the cuts were made.
  public var halfPlanes: [HalfPlane]

  /// The whole plane.
  public static let wholePlane = ConvexRegion(halfPlanes: [])

  /// Creates the intersection of `halfPlanes`.
  @inlinable
  public init(halfPlanes: [HalfPlane]) {
    self.halfPlanes = halfPlanes
  }

  /// Whether the region is the whole plane (no half-planes).
  @inlinable
  public var isWholePlane: Bool { halfPlanes.isEmpty }

  /// Whether `p` is inside every half-plane.
  @inlinable
  public func contains(_ p: Point) -> Bool {
    for h in halfPlanes where !h.contains(x: p.x, y: p.y) { return false }
    return true
  }

  /// The part of `rect` inside the region: ``polygon(clipping:)-([Point])`` of the rectangle's
  /// corners top-left, top-right, bottom-right, bottom-left.
  public func polygon(clipping rect: Rect) -> [Point] {
    polygon(clipping: Quad(rect).points)
  }

  /// The part of the convex `polygon` inside the region, clipped by each half-plane in turn
  /// (Sutherland–Hodgman, the points on a line kept), in the same vertex order; empty when fewer
  /// than three vertices are left. Repeated consecutive vertices are dropped.
  public func polygon(clipping polygon: [Point]) -> [Point] {
    var points = polygon.count >= 3 ? polygon : []
    for h in halfPlanes {
      points = Self.clip(points, h)
      if points.isEmpty { break }
    }
    return points
  }

  /// `polygon` cut by the line of `h`, keeping the points with `a·x + b·y + c ≥ 0`.
  static func clip(_ polygon: [Point], _ h: HalfPlane) -> [Point] {
    guard !polygon.isEmpty else { return [] }
    var out: [Point] = []
    out.reserveCapacity(polygon.count + 1)
    func keep(_ p: Point) {
      if out.last != p { out.append(p) }
    }
    var previous = polygon[polygon.count - 1]
    var fPrevious = h.value(x: previous.x, y: previous.y)
    for p in polygon {
      let f = h.value(x: p.x, y: p.y)
      if (fPrevious >= 0) != (f >= 0) && fPrevious != f {
        let t = fPrevious / (fPrevious - f)
        keep(Point(x: previous.x + t * (p.x - previous.x), y: previous.y + t * (p.y - previous.y)))
      }
      if f >= 0 { keep(p) }
      previous = p
      fPrevious = f
    }
    if out.count > 1, out[0] == out[out.count - 1] { out.removeLast() }
    return out.count >= 3 ? out : []
  }

  /// The signed area of a polygon (shoelace formula): positive when its vertices run clockwise on
  /// screen in y-down coordinates (counter-clockwise in y-up).
  public static func signedArea(_ polygon: [Point]) -> Double {
    guard polygon.count >= 3 else { return 0 }
    var sum = 0.0
    var previous = polygon[polygon.count - 1]
    for p in polygon {
      sum += previous.x * p.y - p.x * previous.y
      previous = p
    }
    return sum / 2
  }
}
