import Segue
import SegueRender
import Testing

@Suite("PathFlattening: polylines within a device tolerance")
struct PathFlatteningTests {
  @Test("lines stay as given; a lone move is dropped; close marks the polyline")
  func lines() throws {
    var path = try polylinePath([(0, 0), (3, 4), (6, 0)], closed: true)
    try path.move(to: Point(x: 9, y: 9))
    try path.move(to: Point(x: 1, y: 1))
    try path.addLine(to: Point(x: 2, y: 2))
    let lines = try PathFlattening.polylines(path, scale: 1)
    #expect(lines.count == 2)
    #expect(
      lines[0]
        == Polyline(
          points: [Point(x: 0, y: 0), Point(x: 3, y: 4), Point(x: 6, y: 0)], isClosed: true))
    #expect(lines[0].length == 16)
    #expect(lines[1].points.count == 2 && !lines[1].isClosed)
  }

  @Test(
    "a cubic's chords are within tolerance/scale of the curve",
    arguments: [(0.25, 1.0), (0.25, 4), (0.01, 1)])
  func cubic(tolerance: Double, scale: Double) throws {
    let c = [Point(x: 0, y: 0), Point(x: 30, y: 80), Point(x: 90, y: -40), Point(x: 100, y: 20)]
    var path = BezierPath()
    try path.move(to: c[0])
    try path.addCurve(to: c[3], control1: c[1], control2: c[2])
    let points = try PathFlattening.polylines(path, tolerance: tolerance, scale: scale)[0].points
    #expect(points.first == c[0] && points.last == c[3])
    // Every point of the curve is within the tolerance (in layer points) of the polyline.
    for k in 0...2000 {
      let t = Double(k) / 2000
      let u = 1 - t
      let q = Point(
        x: u * u * u * c[0].x + 3 * u * u * t * c[1].x + 3 * u * t * t * c[2].x + t * t * t
          * c[3].x,
        y: u * u * u * c[0].y + 3 * u * u * t * c[1].y + 3 * u * t * t * c[2].y + t * t * t * c[3].y
      )
      let d = (1..<points.count).map { segmentDistance(q, points[$0 - 1], points[$0]) }.min()!
      #expect(d <= tolerance / scale)
    }
  }

  @Test("a quadratic is flattened too; a finer tolerance gives more points")
  func quadratic() throws {
    var path = BezierPath()
    try path.move(to: .zero)
    try path.addQuadCurve(to: Point(x: 100, y: 0), control: Point(x: 50, y: 100))
    let coarse = try PathFlattening.polylines(path, tolerance: 1, scale: 1)[0].points.count
    let fine = try PathFlattening.polylines(path, tolerance: 0.01, scale: 1)[0].points.count
    // Wang: n = ⌈√(¼·200/τ)⌉: 8 steps at τ = 1, 71 at τ = 0.01.
    #expect(coarse == 9 && fine == 72)
  }

  @Test("rejected inputs and the budget")
  func rejected() throws {
    var path = BezierPath()
    try path.move(to: .zero)
    try path.addCurve(
      to: Point(x: 1e12, y: 0), control1: Point(x: -1e12, y: 1e12),
      control2: Point(x: 1e12, y: -1e12))
    #expect(throws: ShapeError.tooComplex(limit: PathFlattening.defaultBudget)) {
      try PathFlattening.polylines(path, tolerance: 1e-6, scale: 1)
    }
    #expect(throws: ShapeError.invalid(ValidationError(field: "tolerance", reason: .notPositive))) {
      try PathFlattening.polylines(path, tolerance: 0, scale: 1)
    }
    #expect(throws: ShapeError.invalid(ValidationError(field: "scale", reason: .notFinite))) {
      try PathFlattening.polylines(path, scale: .nan)
    }
    #expect(throws: ShapeError.self) {
      try PathFlattening.polylines(path, tolerance: 1e-300, scale: 1e300)
    }
  }
}
