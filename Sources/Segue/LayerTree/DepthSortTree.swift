/// The plane of a member of a 3D rendering context, in the context's space after the
/// homogeneous divide: `x·X + y·Y + z·Z + w = 0`, with `(x, y, z)` a unit normal.
struct DepthPlane: Sendable {
  var x: Double
  var y: Double
  var z: Double
  var w: Double

  /// The plane of the layer plane of `m` (layer space → context space): the null vector of rows
  /// 1, 2 and 4 of `m` (the images of the layer's x and y directions and of its origin), their
  /// generalised cross product by cofactors, normalised. `nil` when the layer collapses to a line
  /// or a point, or a number is not finite.
  init?(layerMatrix m: Transform3D) {
    typealias Row = (Double, Double, Double)
    func det(_ a: Row, _ b: Row, _ c: Row) -> Double {
      a.0 * (b.1 * c.2 - b.2 * c.1) - a.1 * (b.0 * c.2 - b.2 * c.0) + a.2 * (b.0 * c.1 - b.1 * c.0)
    }
    let nx = det((m.m12, m.m13, m.m14), (m.m22, m.m23, m.m24), (m.m42, m.m43, m.m44))
    let ny = -det((m.m11, m.m13, m.m14), (m.m21, m.m23, m.m24), (m.m41, m.m43, m.m44))
    let nz = det((m.m11, m.m12, m.m14), (m.m21, m.m22, m.m24), (m.m41, m.m42, m.m44))
    let nw = -det((m.m11, m.m12, m.m13), (m.m21, m.m22, m.m23), (m.m41, m.m42, m.m43))
    let length = (nx * nx + ny * ny + nz * nz).squareRoot()
    guard length.isFinite, length > 0, nw.isFinite else { return nil }
    (x, y, z, w) = (nx / length, ny / length, nz / length, nw / length)
    guard x.isFinite && y.isFinite && z.isFinite && w.isFinite else { return nil }
  }

  /// The signed distance of `p` from the plane.
  @inline(__always)
  func distance(_ p: Vector3) -> Double { x * p.x + y * p.y + z * p.z + w }

  /// The front side (`distance > 0`) as a half-plane of the layer plane of `m` (layer space →
  /// context space): `[u v 0 1]·m·π > 0`, rows 1, 2 and 4 of `m` dotted with the plane. Exact
  /// where the layer point is in front of the eye (`W > 0`).
  func frontHalfPlane(ofLayer m: Transform3D) -> HalfPlane {
    HalfPlane(
      a: m.m11 * x + m.m12 * y + m.m13 * z + m.m14 * w,
      b: m.m21 * x + m.m22 * y + m.m23 * z + m.m24 * w,
      c: m.m41 * x + m.m42 * y + m.m43 * z + m.m44 * w, includesBoundary: false)
  }
}

/// A convex polygon of a 3D rendering context: a member's extent, or a fragment of it left by
/// cuts, in the context's space after the homogeneous divide.
struct DepthPolygon: Sendable {
  /// The member's position in the context's input order.
  var member: Int
  /// The vertices, in order.
  var points: [Vector3]
  /// The cuts made so far, as half-planes of the member's own plane.
  var cuts: [HalfPlane]

  /// The visible part of `rect` (in the plane `z = 0` of a layer) through `matrix`
  /// (``Transform3D/visibleImage(of:)``: clipped against `W ≥ minimumW`), divided. `nil` when
  /// fewer than three vertices remain or a number is not finite.
  init?(member: Int, rect: Rect, matrix: Transform3D) {
    var points: [Vector3] = []
    points.reserveCapacity(5)
    for v in matrix.visibleImage(of: Quad(rect).points) {
      let p = Vector3(x: v.x / v.w, y: v.y / v.w, z: v.z / v.w)
      if points.last != p { points.append(p) }
    }
    if points.count > 1, points[0] == points[points.count - 1] { points.removeLast() }
    guard points.count >= 3, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
    else { return nil }
    self.member = member
    self.points = points
    self.cuts = []
  }

  init(member: Int, points: [Vector3], cuts: [HalfPlane]) {
    self.member = member
    self.points = points
    self.cuts = cuts
  }

  /// The mean of the vertices' depths (the order of the fallback sort).
  var meanDepth: Double {
    points.reduce(0) { $0 + $1.z } / Double(points.count)
  }
}

/// Where a polygon lies with respect to a plane thickened by a tolerance.
enum DepthSide {
  case coplanar
  case front
  case back
  case crossing
}

/// A binary space partitioning of the polygons of one 3D rendering context, built and walked
/// without recursion (a context can hold very many members).
///
/// Each node's splitter is the first polygon of its list (the context's input order: `zPosition`,
/// then insertion); the others are coplanar with it, wholly in front, wholly behind, or cut in
/// two by its plane (Chromium's `BspTree` and WebKit's `TextureMapperLayer3DRenderingContext`
/// build theirs the same way). The walk draws, at each node, the side away from the viewer, then
/// the node's polygon and its coplanar ones in input order, then the side towards the viewer.
struct DepthSortTree {
  struct Node {
    var polygon: DepthPolygon
    var coplanar: [DepthPolygon] = []
    var front = -1
    var back = -1
  }

  /// The plane of each member, by input position (members without one have no polygon).
  let planes: [DepthPlane?]
  /// Each member's matrix into the context (to express cuts in the member's plane).
  let matrices: [Transform3D]
  /// The thickness of a plane: points closer than this are on it.
  let tolerance: Double
  private(set) var nodes: [Node] = []
  /// Vertex classifications made so far (the build stops when it exceeds its budget).
  private(set) var work = 0

  init(planes: [DepthPlane?], matrices: [Transform3D], tolerance: Double) {
    self.planes = planes
    self.matrices = matrices
    self.tolerance = tolerance
  }

  /// Builds the tree of `polygons` (in input order); `false` when more than `budget` vertex
  /// classifications would be needed (the tree is then incomplete and must not be walked).
  mutating func build(_ polygons: [DepthPolygon], budget: Int) -> Bool {
    guard let first = polygons.first else { return true }
    nodes = [Node(polygon: first)]
    var pending: [(node: Int, list: ArraySlice<DepthPolygon>)] = [(0, polygons.dropFirst())]
    while let (n, list) = pending.popLast() {
      guard let plane = planes[nodes[n].polygon.member] else { continue }
      var front: [DepthPolygon] = []
      var back: [DepthPolygon] = []
      for polygon in list {
        work += polygon.points.count
        guard work <= budget else { return false }
        switch side(of: polygon, plane) {
        case .coplanar: nodes[n].coplanar.append(polygon)
        case .front: front.append(polygon)
        case .back: back.append(polygon)
        case .crossing:
          let (f, b) = split(polygon, plane)
          if let f { front.append(f) }
          if let b { back.append(b) }
        }
      }
      if let head = back.first {
        nodes.append(Node(polygon: head))
        nodes[n].back = nodes.count - 1
        pending.append((nodes.count - 1, back.dropFirst()))
      }
      if let head = front.first {
        nodes.append(Node(polygon: head))
        nodes[n].front = nodes.count - 1
        pending.append((nodes.count - 1, front.dropFirst()))
      }
    }
    return true
  }

  /// The polygons back to front for a viewer at `z = +∞` (an orthographic view along −z after
  /// the divide): at each node, the subtree on the far side of its plane, the node's polygons,
  /// then the near side. A plane seen edge-on (normal `z = 0`) walks back then front.
  func backToFront() -> [DepthPolygon] {
    guard !nodes.isEmpty else { return [] }
    var out: [DepthPolygon] = []
    var stack: [(node: Int, visited: Bool)] = [(0, false)]
    while let (n, visited) = stack.popLast() {
      let node = nodes[n]
      let viewerInFront = (planes[node.polygon.member]?.z ?? 0) >= 0
      let far = viewerInFront ? node.back : node.front
      let near = viewerInFront ? node.front : node.back
      if !visited {
        if near >= 0 { stack.append((near, false)) }
        stack.append((n, true))
        if far >= 0 { stack.append((far, false)) }
      } else {
        out.append(node.polygon)
        out.append(contentsOf: node.coplanar)
      }
    }
    return out
  }

  /// Where `polygon` lies with respect to `plane` (vertices within ``tolerance`` are on it).
  func side(of polygon: DepthPolygon, _ plane: DepthPlane) -> DepthSide {
    var front = false
    var back = false
    for p in polygon.points {
      let d = plane.distance(p)
      if d > tolerance { front = true } else if d < -tolerance { back = true }
    }
    switch (front, back) {
    case (true, true): return .crossing
    case (true, false): return .front
    case (false, true): return .back
    case (false, false): return .coplanar
    }
  }

  /// `polygon` cut by `plane`: the part in front and the part behind (vertices within the
  /// tolerance go to both; an edge from beyond the tolerance on one side to beyond it on the
  /// other is cut where the distance is 0). Each part records the cut as a half-plane of its
  /// member's plane, the front one strict and the back one with the line, so the two regions are
  /// exact complements. When a part would have fewer than three vertices the polygon is not cut
  /// and goes whole to the other side.
  func split(_ polygon: DepthPolygon, _ plane: DepthPlane) -> (DepthPolygon?, DepthPolygon?) {
    var front: [Vector3] = []
    var back: [Vector3] = []
    let points = polygon.points
    var previous = points[points.count - 1]
    var dPrevious = plane.distance(previous)
    for p in points {
      let d = plane.distance(p)
      if (dPrevious > tolerance && d < -tolerance) || (dPrevious < -tolerance && d > tolerance) {
        let t = dPrevious / (dPrevious - d)
        let cut = Vector3(
          x: previous.x + t * (p.x - previous.x), y: previous.y + t * (p.y - previous.y),
          z: previous.z + t * (p.z - previous.z))
        front.append(cut)
        back.append(cut)
      }
      if d >= -tolerance { front.append(p) }
      if d <= tolerance { back.append(p) }
      previous = p
      dPrevious = d
    }
    // A sliver thinner than the tolerance is not cut off: the polygon stays whole on the side
    // of its bulk, so the regions of a member's pieces always tile its plane.
    guard front.count >= 3 else { return (nil, polygon) }
    guard back.count >= 3 else { return (polygon, nil) }
    let half = plane.frontHalfPlane(ofLayer: matrices[polygon.member])
    return (
      DepthPolygon(member: polygon.member, points: front, cuts: polygon.cuts + [half]),
      DepthPolygon(member: polygon.member, points: back, cuts: polygon.cuts + [half.complement])
    )
  }
}

/// The partition's back-to-front order changed as little as possible: only where one piece
/// overlaps another on screen must it keep its place relative to that piece.
enum DepthOrderRefinement {
  /// `pieces` (back to front, members that show nothing with no points) reordered: the
  /// topological order of "drawn before" between pieces of different members that overlap on
  /// screen (by more than `tolerance`), taking at each step the available piece of the earliest
  /// member in input order (then the earliest in `pieces`). Pieces that overlap nothing keep the
  /// input order of their members; the result is still a valid back-to-front order, since every
  /// pair that overlaps keeps its relative order. Quadratic: for small contexts only.
  static func keepingInputOrder(_ pieces: [DepthPolygon], tolerance: Double) -> [DepthPolygon] {
    let k = pieces.count
    let shapes = pieces.map { ScreenShape($0, tolerance: tolerance) }
    var successors = [[Int]](repeating: [], count: k)
    var waiting = [Int](repeating: 0, count: k)
    for j in 0..<k {
      for i in 0..<j where pieces[i].member != pieces[j].member {
        guard let a = shapes[i], let b = shapes[j], a.overlaps(b, tolerance: tolerance) else {
          continue
        }
        successors[i].append(j)
        waiting[j] += 1
      }
    }
    var done = [Bool](repeating: false, count: k)
    var out: [DepthPolygon] = []
    out.reserveCapacity(k)
    for _ in 0..<k {
      var best = -1
      for i in 0..<k where !done[i] && waiting[i] == 0 {
        if best < 0 || pieces[i].member < pieces[best].member { best = i }
      }
      guard best >= 0 else { break }  // unreachable: the partition's order has no cycle
      done[best] = true
      out.append(pieces[best])
      for j in successors[best] { waiting[j] -= 1 }
    }
    return out
  }

  /// A piece's outline on screen (the context's x and y), for the separating-axis test.
  struct ScreenShape {
    var points: [Point]
    var minX: Double
    var maxX: Double
    var minY: Double
    var maxY: Double

    /// `nil` for a piece with no area on screen (none, or seen edge-on).
    init?(_ polygon: DepthPolygon, tolerance: Double) {
      points = polygon.points.map { Point(x: $0.x, y: $0.y) }
      guard abs(ConvexRegion.signedArea(points)) > tolerance * tolerance else { return nil }
      minX = points.map(\.x).min()!
      maxX = points.map(\.x).max()!
      minY = points.map(\.y).min()!
      maxY = points.map(\.y).max()!
    }

    /// Whether the two convex outlines share more than a boundary: no edge normal of either
    /// separates them by more than `−tolerance` (touching shapes do not overlap).
    func overlaps(_ other: ScreenShape, tolerance: Double) -> Bool {
      guard minX < other.maxX - tolerance, other.minX < maxX - tolerance,
        minY < other.maxY - tolerance, other.minY < maxY - tolerance
      else { return false }
      return !separates(other, tolerance) && !other.separates(self, tolerance)
    }

    /// Whether an edge normal of this outline separates `other` from it.
    private func separates(_ other: ScreenShape, _ tolerance: Double) -> Bool {
      var previous = points[points.count - 1]
      for p in points {
        let (nx, ny) = (p.y - previous.y, previous.x - p.x)
        let length = (nx * nx + ny * ny).squareRoot()
        defer { previous = p }
        guard length > 0 else { continue }
        let project = { (q: Point) in (q.x * nx + q.y * ny) / length }
        let mine = points.map(project)
        let theirs = other.points.map(project)
        if mine.max()! <= theirs.min()! + tolerance || theirs.max()! <= mine.min()! + tolerance {
          return true
        }
      }
      return false
    }
  }
}
