import RealModule
import Segue

/// Builds the stroke polygons of pieces (see ``Stroker`` for the construction and why non-zero
/// fills their union): a piece's left side is `p + h·n`, its right side `p − h·n`, with
/// `h = lineWidth / 2` and `n = (−d.y, d.x)` the normal of the direction `d`.
struct OutlineBuilder {
  let halfWidth: Double
  let cap: LineCap
  let join: LineJoin
  /// A miter is drawn when `(1 + cos θ)/2 · miterLimit² ≥ 1` (its length over the width,
  /// `1/cos(θ/2)`, within the limit), `θ` the turn angle.
  let miterLimitSquared: Double
  /// The largest angle step of a flattened arc of radius `halfWidth`.
  let arcStep: Double
  let budget: Int
  private(set) var polygons: [Polyline] = []
  private var count = 0

  /// The most segments of one flattened arc (a half turn).
  static let maximumArcSegments = 1024

  init(style: StrokeStyle, tolerance: Double, budget: Int) {
    halfWidth = style.lineWidth / 2
    cap = style.lineCap
    join = style.lineJoin
    miterLimitSquared = style.miterLimit < 1 ? 0 : style.miterLimit * style.miterLimit
    let ratio = 1 - tolerance / halfWidth
    arcStep = ratio > -1 ? 2 * Double.acos(Swift.max(ratio, -1)) : Double.pi
    self.budget = budget
  }

  /// Strokes an open piece (`points` without coincident neighbours; one point is a
  /// zero-length piece whose caps face `direction`).
  mutating func open(_ points: [Point], direction: Point) throws(ShapeError) {
    guard points.count > 1 else {
      guard cap != .butt, let p = points.first else { return }
      let n = Point(x: -direction.y, y: direction.x)
      var polygon = [offset(p, n, 1)]
      polygon += capPoints(p, direction, end: true)
      polygon.append(offset(p, n, -1))
      polygon += capPoints(p, direction, end: false)
      try emit(polygon)
      return
    }
    let k = points.count - 1
    let first = unit(points[0], points[1])
    let last = unit(points[k - 1], points[k])
    var left = [offset(points[0], normal(first), 1)]
    var right = [offset(points[0], normal(first), -1)]
    var incoming = first
    for i in 1..<k {
      let outgoing = unit(points[i], points[i + 1])
      let room =
        0.5 * Swift.min(distance(points[i - 1], points[i]), distance(points[i], points[i + 1]))
      left += joinPoints(points[i], incoming, outgoing, 1, room: room)
      right += joinPoints(points[i], incoming, outgoing, -1, room: room)
      incoming = outgoing
    }
    left.append(offset(points[k], normal(last), 1))
    right.append(offset(points[k], normal(last), -1))
    var polygon = left
    polygon += capPoints(points[k], last, end: true)
    polygon += right.reversed()
    polygon += capPoints(points[0], first, end: false)
    try emit(polygon)
  }

  /// Strokes a closed subpath drawn whole: two loops, joins at every vertex.
  mutating func closed(_ points: [Point]) throws(ShapeError) {
    let n = points.count
    var directions: [Point] = []
    directions.reserveCapacity(n)
    for i in 0..<n { directions.append(unit(points[i], points[(i + 1) % n])) }
    var left: [Point] = []
    var right: [Point] = []
    for i in 0..<n {
      let incoming = directions[(i + n - 1) % n]
      let before = points[(i + n - 1) % n]
      let after = points[(i + 1) % n]
      let room = 0.5 * Swift.min(distance(before, points[i]), distance(points[i], after))
      left += joinPoints(points[i], incoming, directions[i], 1, room: room)
      right += joinPoints(points[i], incoming, directions[i], -1, room: room)
    }
    try emit(left)
    try emit(right.reversed())
  }

  private mutating func emit(_ polygon: [Point]) throws(ShapeError) {
    count += polygon.count
    guard count <= budget else { throw .tooComplex(limit: budget) }
    polygons.append(Polyline(points: polygon, isClosed: true))
  }

  @inline(__always)
  private func normal(_ d: Point) -> Point { Point(x: -d.y, y: d.x) }

  @inline(__always)
  private func offset(_ p: Point, _ n: Point, _ side: Double) -> Point {
    Point(x: p.x + side * halfWidth * n.x, y: p.y + side * halfWidth * n.y)
  }

  /// The points on `side` (+1 left, −1 right) at vertex `p` from the incoming to the outgoing
  /// segment: the two offset corners with the join between them on the outer side; on the inner
  /// side the offsets' intersection when it lies within `room` (half the shorter segment) of the
  /// vertex along both segments, so the outline does not overlap itself, else the vertex between
  /// the two corners; one point when the path goes straight on.
  private func joinPoints(_ p: Point, _ d0: Point, _ d1: Point, _ side: Double, room: Double)
    -> [Point]
  {
    let n0 = normal(d0)
    let n1 = normal(d1)
    let a0 = offset(p, n0, side)
    let a1 = offset(p, n1, side)
    let cross = d0.x * d1.y - d0.y * d1.x
    let dot = d0.x * d1.x + d0.y * d1.y
    let straightTolerance = 1e-12
    if abs(cross) <= straightTolerance && dot > 0 { return [a0] }
    let reversal = abs(cross) <= straightTolerance
    guard reversal || side * cross < 0 else {
      // The inner offsets meet h·tan(θ/2) = h·|cross|/(1 + dot) before and after the vertex.
      guard halfWidth * abs(cross) <= room * (1 + dot) else { return [a0, p, a1] }
      let f = side * halfWidth / (1 + dot)
      return [Point(x: p.x + f * (n0.x + n1.x), y: p.y + f * (n0.y + n1.y))]
    }
    switch join {
    case .bevel:
      return [a0, a1]
    case .miter:
      guard !reversal, (1 + dot) / 2 * miterLimitSquared >= 1 else { return [a0, a1] }
      let f = side * halfWidth / (1 + dot)
      return [a0, Point(x: p.x + f * (n0.x + n1.x), y: p.y + f * (n0.y + n1.y)), a1]
    case .round:
      let angle = reversal ? Double.pi : abs(Double.atan2(y: cross, x: dot))
      var result = [a0]
      result += arc(p, Point(x: side * n0.x, y: side * n0.y), by: -side * angle)
      result.append(a1)
      return result
    }
  }

  /// The cap's points strictly between the two sides: at the end from left to right around
  /// `+d`, at the start from right to left around `−d`.
  private func capPoints(_ p: Point, _ d: Point, end: Bool) -> [Point] {
    let s = end ? 1.0 : -1.0
    let n = normal(d)
    switch cap {
    case .butt:
      return []
    case .square:
      let ahead = Point(x: s * halfWidth * d.x, y: s * halfWidth * d.y)
      let first = offset(p, n, s)
      let second = offset(p, n, -s)
      return [
        Point(x: first.x + ahead.x, y: first.y + ahead.y),
        Point(x: second.x + ahead.x, y: second.y + ahead.y),
      ]
    case .round:
      return arc(p, Point(x: s * n.x, y: s * n.y), by: -Double.pi)
    }
  }

  /// The interior points of the arc around `center` of radius `halfWidth` starting in unit
  /// direction `from` and turning by `angle` radians (positive from +x towards +y).
  private func arc(_ center: Point, _ from: Point, by angle: Double) -> [Point] {
    let needed = (abs(angle) / arcStep).rounded(.up)
    let segments =
      needed.isFinite
      ? Swift.min(Swift.max(Int(needed), 1), Self.maximumArcSegments)
      : Self.maximumArcSegments
    guard segments > 1 else { return [] }
    var result: [Point] = []
    result.reserveCapacity(segments - 1)
    for k in 1..<segments {
      let phi = angle * Double(k) / Double(segments)
      let c = Double.cos(phi)
      let s = Double.sin(phi)
      let v = Point(x: from.x * c - from.y * s, y: from.x * s + from.y * c)
      result.append(Point(x: center.x + halfWidth * v.x, y: center.y + halfWidth * v.y))
    }
    return result
  }
}
