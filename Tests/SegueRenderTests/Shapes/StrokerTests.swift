import PropertyBased
import RealModule
import Segue
import SegueRender
import Testing

private func stroke(_ path: BezierPath, _ style: StrokeStyle, tolerance: Double = 0.01) throws
  -> [Polyline]
{
  try Stroker(style: style, tolerance: tolerance).outline(of: path)
}

@Suite("Stroker: lineWidth, caps, joins, miter limit")
struct StrokerTests {
  @Test("a straight segment: area = length × width, plus the caps", arguments: LineCap.allCases)
  func segment(cap: LineCap) throws {
    let path = try polylinePath([(0, 0), (10, 0)])
    let outline = try stroke(path, StrokeStyle(lineWidth: 2, lineCap: cap))
    #expect(outline.count == 1)
    let expected: Double =
      switch cap {
      case .butt: 20
      case .square: 24
      case .round: 20 + Double.pi
      }
    // Arcs are inscribed polygons within the tolerance (0.01) of the circle of perimeter 2π.
    #expect(abs(totalArea(outline) - expected) < 2 * Double.pi * 0.01)
  }

  @Test("the region is every point within lineWidth/2 of the path (round caps and joins)")
  func roundRegion() async throws {
    let points = [(0.0, 0.0), (20, 3), (5, 12), (25, 25), (24, 24.5), (40, 0)]
    let path = try polylinePath(points)
    let h = 3.0
    let outline = try stroke(path, StrokeStyle(lineWidth: 2 * h, lineCap: .round, lineJoin: .round))
    let vertices = points.map { Point(x: $0.0, y: $0.1) }
    await propertyCheck(count: 400, input: Gen.double(in: -5...45).array(of: 2)) { q in
      let point = Point(x: q[0], y: q[1])
      let d = (1..<vertices.count).map { segmentDistance(point, vertices[$0 - 1], vertices[$0]) }
        .min()!
      guard abs(d - h) > 0.05 else { return }
      #expect((winding(point, outline) != 0) == (d < h), "at \(point), distance \(d)")
    }
  }

  @Test("miter, bevel and round joins at a right angle")
  func joins() throws {
    let path = try polylinePath([(0, 0), (10, 0), (10, 10)])
    let miter = try stroke(path, StrokeStyle(lineWidth: 2, lineJoin: .miter))
    let bevel = try stroke(path, StrokeStyle(lineWidth: 2, lineJoin: .bevel))
    let round = try stroke(path, StrokeStyle(lineWidth: 2, lineJoin: .round))
    let corner = Point(x: 10.9, y: -0.9)
    let nearBevel = Point(x: 10.4, y: -0.4)
    #expect(winding(corner, miter) != 0)
    #expect(winding(corner, bevel) == 0 && winding(nearBevel, bevel) != 0)
    #expect(winding(corner, round) == 0 && winding(Point(x: 10.6, y: -0.6), round) != 0)
    // Areas: two 10 × 2 butt segments overlap in a 1 × 1 square, plus the outer corner.
    #expect(abs(areaByWinding(miter) - (20 + 20 - 1 + 1)) < 0.05)
    #expect(abs(areaByWinding(bevel) - (20 + 20 - 1 + 0.5)) < 0.05)
    #expect(abs(areaByWinding(round) - (20 + 20 - 1 + Double.pi / 4)) < 0.05)
  }

  @Test("the miter limit: Core Graphics' rule 1/sin(φ/2) ≤ miterLimit")
  func miterLimit() throws {
    let path = try polylinePath([(0, 0), (100, 0), (0, 20)])
    // The segments meet at φ = atan(0.2): 1/sin(φ/2) ≈ 10.15; the miter tip is at (110.1, −1).
    let tip = Point(x: 109, y: -0.9)
    #expect(winding(tip, try stroke(path, StrokeStyle(lineWidth: 2, miterLimit: 10.2))) != 0)
    #expect(winding(tip, try stroke(path, StrokeStyle(lineWidth: 2, miterLimit: 10.1))) == 0)
    #expect(winding(tip, try stroke(path, StrokeStyle(lineWidth: 2, miterLimit: 0.5))) == 0)
  }

  @Test("a closed square drawn whole: a ring, no caps")
  func closedSquare() throws {
    let path = try polylinePath([(0, 0), (10, 0), (10, 10), (0, 10)], closed: true)
    let outline = try stroke(path, StrokeStyle(lineWidth: 2, lineCap: .round))
    #expect(outline.count == 2)
    #expect(abs(abs(outline.reduce(0) { $0 + $1.signedArea }) - (144 - 64)) < 1e-9)
    #expect(winding(Point(x: 5, y: 5), outline) == 0)
    #expect(winding(Point(x: -0.9, y: -0.9), outline) != 0)
  }

  @Test("zero-length pieces: a disc for round caps, a square for square caps, nothing for butt")
  func dots() throws {
    let path = try polylinePath([(5, 5), (5, 5)])
    // An inscribed polygon within the tolerance 0.01 of the circle (radius 2).
    let disc = totalArea(try stroke(path, StrokeStyle(lineWidth: 4, lineCap: .round)))
    #expect(disc < 4 * Double.pi && disc > 4 * Double.pi - 4 * Double.pi * 0.01)
    #expect(
      abs(totalArea(try stroke(path, StrokeStyle(lineWidth: 4, lineCap: .square))) - 16) < 1e-9)
    #expect(try stroke(path, StrokeStyle(lineWidth: 4)).isEmpty)
  }

  @Test("reversing the path strokes the same region")
  func symmetry() async throws {
    let points = [(0.0, 0.0), (12, 2), (3, 9), (15, 14)]
    let forward = try stroke(
      try polylinePath(points), StrokeStyle(lineWidth: 3, lineCap: .square, lineJoin: .miter))
    let backward = try stroke(
      try polylinePath(points.reversed()),
      StrokeStyle(lineWidth: 3, lineCap: .square, lineJoin: .miter))
    await propertyCheck(count: 300, input: Gen.double(in: -4...20).array(of: 2)) { q in
      let p = Point(x: q[0], y: q[1])
      #expect((winding(p, forward) != 0) == (winding(p, backward) != 0))
    }
  }

  @Test("curves are flattened within the tolerance: a stroked circle's ring area")
  func circle() throws {
    // Four cubics approximating a circle of radius 10 (κ = 0.5523).
    let k = 10 * 0.552_284_749_8
    var path = BezierPath()
    try path.move(to: Point(x: 10, y: 0))
    try path.addCurve(
      to: Point(x: 0, y: 10), control1: Point(x: 10, y: k), control2: Point(x: k, y: 10))
    try path.addCurve(
      to: Point(x: -10, y: 0), control1: Point(x: -k, y: 10), control2: Point(x: -10, y: k))
    try path.addCurve(
      to: Point(x: 0, y: -10), control1: Point(x: -10, y: -k), control2: Point(x: -k, y: -10))
    try path.addCurve(
      to: Point(x: 10, y: 0), control1: Point(x: k, y: -10), control2: Point(x: 10, y: -k))
    try path.closeSubpath()
    let outline = try stroke(path, StrokeStyle(lineWidth: 2), tolerance: 0.001)
    let ring = Double.pi * (11 * 11 - 9 * 9)
    #expect(abs(abs(outline.reduce(0) { $0 + $1.signedArea }) - ring) < 0.1)
  }

  @Test("rejected and degenerate inputs: typed errors, no crash, bounded work")
  func rejected() throws {
    let path = try polylinePath([(0, 0), (10, 0)])
    for style in [
      StrokeStyle(lineWidth: .nan), StrokeStyle(lineWidth: -1), StrokeStyle(lineWidth: 1e13),
      StrokeStyle(miterLimit: .infinity), StrokeStyle(lineDashPattern: [1, -1]),
      StrokeStyle(lineDashPattern: [.infinity]), StrokeStyle(lineDashPhase: .nan),
      StrokeStyle(strokeStart: .nan), StrokeStyle(strokeEnd: -.infinity),
      StrokeStyle(lineDashPattern: [1e308, 1e308]),
    ] {
      #expect(throws: ShapeError.self) { try stroke(path, style) }
    }
    #expect(throws: ShapeError.self) {
      try Stroker(style: StrokeStyle(), scale: 0).outline(of: path)
    }
    #expect(throws: ShapeError.self) {
      try Stroker(style: StrokeStyle(), tolerance: .nan).outline(of: path)
    }
    let far = try polylinePath([(0, 0), (1e13, 0)])
    #expect(
      throws: ShapeError.invalid(
        ValidationError(field: "path", index: 1, reason: .outOfRange(lower: -1e12, upper: 1e12)))
    ) {
      try stroke(far, StrokeStyle())
    }
    let long = try polylinePath([(0, 0), (1e9, 0)])
    #expect(throws: ShapeError.tooComplex(limit: PathFlattening.defaultBudget)) {
      try stroke(long, StrokeStyle(lineDashPattern: [1e-3, 1e-3]))
    }
    #expect(throws: ShapeError.tooComplex(limit: 5)) {
      try Stroker(style: StrokeStyle(lineCap: .round), budget: 5).outline(of: path)
    }
    #expect(try stroke(path, StrokeStyle(lineWidth: 0)).isEmpty)
    #expect(try stroke(path, StrokeStyle(strokeStart: 0.6, strokeEnd: 0.6)).isEmpty)
    #expect(try stroke(path, StrokeStyle(strokeStart: 0.8, strokeEnd: 0.2)).isEmpty)
    #expect(try stroke(BezierPath(), StrokeStyle()).isEmpty)
    // A tiny coordinate difference (squares underflow) counts as one point.
    let tiny = try polylinePath([(0, 0), (1e-170, 0), (1, 0)])
    #expect(abs(totalArea(try stroke(tiny, StrokeStyle())) - 1) < 1e-12)
  }
}

/// The filled area under non-zero by sampling a fine grid (for overlapping outlines).
func areaByWinding(_ polygons: [Polyline], step: Double = 0.02) -> Double {
  let points = polygons.flatMap(\.points)
  let box = Rect(boundingBoxOf: points)
  var count = 0
  var y = box.minY + step / 2
  while y < box.maxY {
    var x = box.minX + step / 2
    while x < box.maxX {
      if winding(Point(x: x, y: y), polygons) != 0 { count += 1 }
      x += step
    }
    y += step
  }
  return Double(count) * step * step
}
