import Segue

/// Geometry for checking depth orders from first principles: layers as parallelograms in 3D,
/// pieces on screen, convex polygon intersection and depth at a screen point.
enum DepthOrderSupport {
  /// The matrix of an affine map `(u, v) ↦ origin + u·a + v·b` of the unit square (rows a, b, their
  /// cross product, origin), for a layer with bounds `(0, 0, 1, 1)`, anchor point `(0, 0)` and
  /// position `(0, 0)`: its `transform` is then its matrix into its parent.
  static func parallelogram(origin o: Vector3, a: Vector3, b: Vector3) -> Transform3D {
    let n = a.cross(b)
    let length = Swift.max(n.length, 1e-300)
    return Transform3D(
      m11: a.x, m12: a.y, m13: a.z, m14: 0, m21: b.x, m22: b.y, m23: b.z, m24: 0,
      m31: n.x / length, m32: n.y / length, m33: n.z / length, m34: 0,
      m41: o.x, m42: o.y, m43: o.z, m44: 1)
  }

  /// A unit-square layer placed by ``parallelogram(origin:a:b:)``.
  static func sheet(_ id: String, origin: Vector3, a: Vector3, b: Vector3, z: Double = 0)
    -> Layer
  {
    Layer(
      id: id, bounds: Rect(x: 0, y: 0, width: 1, height: 1), anchorPoint: .zero, zPosition: z,
      transform: parallelogram(origin: origin, a: a, b: b))
  }

  /// The points of `polygon` (layer coordinates) through `matrix` with the divide (every point
  /// must be in front of the eye).
  static func project(_ polygon: [Point], _ matrix: Transform3D) -> [Vector3] {
    polygon.map { p in
      let v = matrix.project(Vector3(x: p.x, y: p.y, z: 0))
      return Vector3(x: v.point.x, y: v.point.y, z: v.z)
    }
  }

  /// The intersection of two convex polygons on screen (Sutherland–Hodgman, either winding).
  static func intersection(_ subject: [Point], _ clip: [Point]) -> [Point] {
    guard subject.count >= 3, clip.count >= 3 else { return [] }
    let sign: Double = ConvexRegion.signedArea(clip) >= 0 ? 1 : -1
    var out = subject
    var previous = clip[clip.count - 1]
    for p in clip {
      // Inside: to the same side of the edge previous → p as the clip polygon's interior.
      let edge = HalfPlane(
        a: -sign * (p.y - previous.y), b: sign * (p.x - previous.x),
        c: sign * ((p.y - previous.y) * previous.x - (p.x - previous.x) * previous.y),
        includesBoundary: true)
      out = ConvexRegion(halfPlanes: [edge]).polygon(clipping: out)
      previous = p
      if out.isEmpty { return [] }
    }
    return out
  }

  /// The mean of the vertices.
  static func centroid(_ polygon: [Point]) -> Point {
    let n = Double(polygon.count)
    return Point(
      x: polygon.reduce(0) { $0 + $1.x } / n, y: polygon.reduce(0) { $0 + $1.y } / n)
  }

  /// The depth at screen point `p` of the plane through the 3D polygon `points` (Newell's
  /// normal), or `nil` when the plane is seen edge-on.
  static func depth(of points: [Vector3], at p: Point) -> Double? {
    var n = Vector3.zero
    for (i, a) in points.enumerated() {
      let b = points[(i + 1) % points.count]
      n.x += (a.y - b.y) * (a.z + b.z)
      n.y += (a.z - b.z) * (a.x + b.x)
      n.z += (a.x - b.x) * (a.y + b.y)
    }
    guard abs(n.z) > 1e-12 * n.length else { return nil }
    let c = points[0]
    return c.z - (n.x * (p.x - c.x) + n.y * (p.y - c.y)) / n.z
  }
}
