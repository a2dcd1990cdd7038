import Segue
import Testing

@Suite("BezierPath.interpolated: path animations")
struct BezierPathInterpolationTests {
  func path(_ s: Double) throws -> BezierPath {
    var p = BezierPath()
    try p.move(to: Point(x: 0, y: s))
    try p.addLine(to: Point(x: 10 * s, y: 0))
    try p.addQuadCurve(to: Point(x: 1, y: 1), control: Point(x: s, y: s))
    try p.addCurve(to: Point(x: 2, y: s), control1: Point(x: s, y: 0), control2: Point(x: 0, y: s))
    try p.closeSubpath()
    return p
  }

  @Test("each point moves linearly; 0 and 1 give the ends; extrapolation is allowed")
  func linear() throws {
    let a = try path(0)
    let b = try path(2)
    #expect(try a.interpolated(to: b, fraction: 0) == a)
    #expect(try a.interpolated(to: b, fraction: 1) == b)
    #expect(try a.interpolated(to: b, fraction: 0.5) == (try path(1)))
    #expect(try a.interpolated(to: b, fraction: 1.5) == (try path(3)))
  }

  @Test("different counts or kinds, or a non-finite fraction, are rejected")
  func rejected() throws {
    let a = try path(0)
    var shorter = try polylinePath([(0, 0), (1, 1)])
    #expect(throws: ValidationError(field: "path", reason: .countMismatch(expected: 5, actual: 2)))
    {
      try a.interpolated(to: shorter, fraction: 0.5)
    }
    shorter = try polylinePath([(0, 0), (1, 1), (2, 2), (3, 3)], closed: true)
    #expect {
      try a.interpolated(to: shorter, fraction: 0.5)
    } throws: { error in
      (error as? ValidationError)?.index == 2
    }
    #expect(throws: ValidationError(field: "fraction", reason: .notFinite)) {
      try a.interpolated(to: a, fraction: .nan)
    }
    let huge = try polylinePath([(0, 0), (1e308, 0)])
    #expect(throws: ValidationError.self) {
      try huge.interpolated(to: try polylinePath([(0, 0), (-1e308, 0)]), fraction: 10)
    }
  }
}

/// A path from `points`: a move to the first, lines to the rest, closed if asked.
private func polylinePath(_ points: [(Double, Double)], closed: Bool = false) throws -> BezierPath {
  var path = BezierPath()
  try path.move(to: Point(x: points[0].0, y: points[0].1))
  for p in points.dropFirst() { try path.addLine(to: Point(x: p.0, y: p.1)) }
  if closed { try path.closeSubpath() }
  return path
}
