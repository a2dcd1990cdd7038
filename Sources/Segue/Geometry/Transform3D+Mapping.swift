/// A 3D point after a ``Transform3D`` and the homogeneous divide.
///
/// `point = (X/w, Y/w)` and `z = Z/w` where `(X, Y, Z, w) = [x y z 1] · M`, except for points at or
/// behind the eye (`isBehindEye`), which are divided by ``Transform3D/minimumW`` instead of `w`
/// so that every coordinate stays finite.
public struct ProjectedPoint: Hashable, Sendable, CustomStringConvertible {
  /// The screen position after the divide, in points.
  public var point: Point
  /// The depth after the divide, `Z / w` (points; towards the viewer is positive).
  public var z: Double
  /// The homogeneous `w` before the divide (unitless), unclamped: `≤ minimumW` when behind the eye.
  public var w: Double
  /// Whether `w ≤ Transform3D.minimumW` (or `w` is NaN): the point is at or behind the eye plane and
  /// its coordinates are clamped, not a true projection.
  public var isBehindEye: Bool

  /// Creates a projected point from its parts.
  @inlinable
  public init(point: Point, z: Double, w: Double, isBehindEye: Bool) {
    self.point = point
    self.z = z
    self.w = w
    self.isBehindEye = isBehindEye
  }

  /// `"(x, y, z) w=… [behind]"`.
  public var description: String {
    "(\(point.x), \(point.y), \(z)) w=\(w)\(isBehindEye ? " behind" : "")"
  }
}

extension Transform3D {
  /// The smallest homogeneous `w` treated as in front of the eye, `1e-6` (unitless, absolute).
  ///
  /// For Core Animation matrices (`m44 = 1`, perspective `m34 = −1/d` with `d` in points)
  /// `w = 1 − z/d`, so points within `1e-6·d` of the eye plane or behind it count as behind the eye;
  /// a point in front is magnified by at most `1/minimumW = 1e6`. The sign of `w` is meaningful:
  /// a transform interpolated by decomposition keeps its recomposed `m44`, which can differ from 1
  /// and be negative (``TransformInterpolation``), and the points it sends to `w ≤ minimumW` are
  /// behind the eye, as in browsers. The threshold is absolute: for a matrix scaled as a whole by
  /// `k > 0` it is `minimumW / k` in the unscaled `w`.
  public static let minimumW: Double = 1e-6

  /// The row vector `v · M`:
  /// `x' = x·m11 + y·m21 + z·m31 + w·m41`, …, `w' = x·m14 + y·m24 + z·m34 + w·m44`. No divide.
  @inlinable
  public func apply(to v: Vector4) -> Vector4 {
    Vector4(
      x: v.x * m11 + v.y * m21 + v.z * m31 + v.w * m41,
      y: v.x * m12 + v.y * m22 + v.z * m32 + v.w * m42,
      z: v.x * m13 + v.y * m23 + v.z * m33 + v.w * m43,
      w: v.x * m14 + v.y * m24 + v.z * m34 + v.w * m44)
  }

  /// Maps the 3D point `p` (points) through the matrix with the homogeneous divide.
  ///
  /// `(X, Y, Z, w) = [x y z 1] · M`. When `w > minimumW` the result is `(X/w, Y/w)` with depth
  /// `Z/w`. Otherwise the point is at or behind the eye: `isBehindEye` is true and the coordinates
  /// are divided by ``minimumW`` instead (WebKit's `projectPoint` clamps the same way), so they keep
  /// the sign of `X, Y, Z` and are finite for finite input (below about 1e300) — never NaN or
  /// infinity. A perspective `P(d)` scales a point at depth `z < d` by `d/(d − z)`.
  @inlinable
  public func project(_ p: Vector3) -> ProjectedPoint {
    let v = apply(to: Vector4(x: p.x, y: p.y, z: p.z, w: 1))
    let behind = !(v.w > Transform3D.minimumW)
    let divisor = behind ? Transform3D.minimumW : v.w
    return ProjectedPoint(
      point: Point(x: v.x / divisor, y: v.y / divisor), z: v.z / divisor, w: v.w,
      isBehindEye: behind)
  }

  /// Maps the 2D point `(x, y, 0)` with the homogeneous divide and drops z; `nil` when the point is
  /// at or behind the eye (``project(_:)`` reports `isBehindEye`). For an affine matrix this is
  /// `CGPointApplyAffineTransform` of ``uncheckedAffineTransform``.
  @inlinable
  public func mapPoint(_ p: Point) -> Point? {
    let projected = project(Vector3(x: p.x, y: p.y, z: 0))
    return projected.isBehindEye ? nil : projected.point
  }

  /// Maps the quad `q` (in the plane z = 0) and returns the visible polygon on screen, in points.
  ///
  /// The four corners are transformed to homogeneous `(X, Y, Z, w)` and the polygon is clipped
  /// against the plane `w = minimumW` (Sutherland–Hodgman, keeping `w ≥ minimumW`): an edge that
  /// crosses the plane is cut at `t = (minimumW − w₀)/(w₁ − w₀)`, interpolating all four
  /// coordinates linearly, which is exact for the projective image of a straight edge. The kept
  /// vertices are then divided by `w`. The result keeps the corner order (p1…p4), has at most
  /// 5 vertices (one plane cuts off at most one run of corners), has consecutive duplicates
  /// removed, and is empty when the whole quad is behind the eye. With nothing clipped it is the
  /// four projected corners.
  public func mapQuad(_ q: Quad) -> [Point] {
    var points: [Point] = []
    points.reserveCapacity(5)
    forEachMappedQuadVertex(q) { points.append($0) }
    return points
  }

  /// Calls `body` with each vertex of ``mapQuad(_:)`` in order, without allocating (for
  /// renderers that map quads every frame).
  package func forEachMappedQuadVertex(_ q: Quad, _ body: (Point) -> Void) {
    let minimumW = Transform3D.minimumW
    func lift(_ p: Point) -> Vector4 { apply(to: Vector4(x: p.x, y: p.y, z: 0, w: 1)) }
    let input = (lift(q.p1), lift(q.p2), lift(q.p3), lift(q.p4))
    func corner(_ i: Int) -> Vector4 {
      switch i & 3 {
      case 0: input.0
      case 1: input.1
      case 2: input.2
      default: input.3
      }
    }
    // At most 5 vertices: one plane cuts off at most one run of corners.
    var kept = (Point.zero, Point.zero, Point.zero, Point.zero, Point.zero)
    var count = 0
    func vertex(_ k: Int) -> Point {
      switch k {
      case 0: kept.0
      case 1: kept.1
      case 2: kept.2
      case 3: kept.3
      default: kept.4
      }
    }
    func keep(_ v: Vector4) {
      let w = Swift.max(v.w, minimumW)
      let p = Point(x: v.x / w, y: v.y / w)
      guard count == 0 || vertex(count - 1) != p, count < 5 else { return }
      switch count {
      case 0: kept.0 = p
      case 1: kept.1 = p
      case 2: kept.2 = p
      case 3: kept.3 = p
      default: kept.4 = p
      }
      count += 1
    }
    for i in 0..<4 {
      let start = corner(i)
      let end = corner(i + 1)
      let startInside = start.w >= minimumW
      let endInside = end.w >= minimumW
      if startInside { keep(start) }
      if startInside != endInside {
        let t = (minimumW - start.w) / (end.w - start.w)
        keep(
          Vector4(
            x: start.x + t * (end.x - start.x), y: start.y + t * (end.y - start.y),
            z: start.z + t * (end.z - start.z), w: minimumW))
      }
    }
    if count > 1, vertex(0) == vertex(count - 1) { count -= 1 }
    for k in 0..<count { body(vertex(k)) }
  }

  /// Maps the convex polygon `polygon` (in the plane z = 0, vertices in order) and returns the
  /// visible polygon on screen, as ``mapQuad(_:)`` does for four corners: the vertices'
  /// homogeneous images clipped against `w = minimumW`, then divided; at most one more vertex
  /// than `polygon` has, consecutive duplicates removed, empty when all of it is behind the eye.
  public func mapPolygon(_ polygon: [Point]) -> [Point] {
    var out: [Point] = []
    out.reserveCapacity(polygon.count + 1)
    for v in visibleImage(of: polygon) {
      let p = Point(x: v.x / v.w, y: v.y / v.w)
      if out.last != p { out.append(p) }
    }
    if out.count > 1, out[0] == out[out.count - 1] { out.removeLast() }
    return out
  }

  /// The homogeneous images `[x y 0 1]·M` of the vertices of the convex `polygon`, clipped
  /// against the plane `w = minimumW` (Sutherland–Hodgman, all four coordinates interpolated,
  /// which is exact for the projective image of an edge), not divided: every `w ≥ minimumW`.
  package func visibleImage(of polygon: [Point]) -> [Vector4] {
    let minimumW = Transform3D.minimumW
    let lifted = polygon.map { apply(to: Vector4(x: $0.x, y: $0.y, z: 0, w: 1)) }
    var out: [Vector4] = []
    out.reserveCapacity(polygon.count + 1)
    for (i, start) in lifted.enumerated() {
      let end = lifted[(i + 1) % lifted.count]
      if start.w >= minimumW { out.append(start) }
      if (start.w >= minimumW) != (end.w >= minimumW) {
        let t = (minimumW - start.w) / (end.w - start.w)
        out.append(
          Vector4(
            x: start.x + t * (end.x - start.x), y: start.y + t * (end.y - start.y),
            z: start.z + t * (end.z - start.z), w: minimumW))
      }
    }
    return out
  }

  /// The bounding box of ``mapQuad(_:)`` of `rect`'s four corners (points), or `nil` when the whole
  /// rectangle is behind the eye. For an affine matrix this equals `CGRectApplyAffineTransform`.
  public func mapRect(_ rect: Rect) -> Rect? {
    let polygon = mapQuad(Quad(rect))
    return polygon.isEmpty ? nil : Rect(boundingBoxOf: polygon)
  }
}
