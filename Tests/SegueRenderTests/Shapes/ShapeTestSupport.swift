import Segue
import SegueRender

/// A path from `points`: a move to the first, lines to the rest, closed if asked.
func polylinePath(_ points: [(Double, Double)], closed: Bool = false) throws -> BezierPath {
  var path = BezierPath()
  try path.move(to: Point(x: points[0].0, y: points[0].1))
  for p in points.dropFirst() { try path.addLine(to: Point(x: p.0, y: p.1)) }
  if closed { try path.closeSubpath() }
  return path
}

/// The sum of the winding numbers of `point` around every polygon (non-zero: inside).
func winding(_ point: Point, _ polygons: [Polyline]) -> Int {
  var total = 0
  for polygon in polygons {
    let p = polygon.points
    for i in p.indices {
      let a = p[i]
      let b = p[(i + 1) % p.count]
      let side = (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y)
      if a.y <= point.y {
        if b.y > point.y && side > 0 { total += 1 }
      } else if b.y <= point.y && side < 0 {
        total -= 1
      }
    }
  }
  return total
}

/// The distance from `q` to the segment `a b`.
func segmentDistance(_ q: Point, _ a: Point, _ b: Point) -> Double {
  let dx = b.x - a.x
  let dy = b.y - a.y
  let length2 = dx * dx + dy * dy
  let t =
    length2 > 0 ? Swift.min(Swift.max(((q.x - a.x) * dx + (q.y - a.y) * dy) / length2, 0), 1) : 0
  let x = a.x + t * dx - q.x
  let y = a.y + t * dy - q.y
  return (x * x + y * y).squareRoot()
}

/// The sum of the polygons' absolute areas (the filled area when they do not overlap).
func totalArea(_ polygons: [Polyline]) -> Double {
  polygons.reduce(0) { $0 + abs($1.signedArea) }
}
