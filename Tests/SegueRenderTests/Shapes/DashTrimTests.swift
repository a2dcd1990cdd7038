import PropertyBased
import Segue
import SegueRender
import Testing

private func stroke(_ path: BezierPath, _ style: StrokeStyle) throws -> [Polyline] {
  try Stroker(style: style, tolerance: 0.01).outline(of: path)
}

/// The drawn length of a dash pattern over `[0, length]` from phase `phase`, counted directly.
private func dashedLength(_ pattern: [Double], phase: Double, length: Double) -> Double {
  let lengths = pattern.count % 2 == 1 ? pattern + pattern : pattern
  let period = lengths.reduce(0, +)
  var s = -(phase.truncatingRemainder(dividingBy: period) + period).truncatingRemainder(
    dividingBy: period)
  var drawn = 0.0
  var index = 0
  while s < length {
    let e = s + lengths[index % lengths.count]
    if index % 2 == 0 { drawn += Swift.max(0, Swift.min(e, length) - Swift.max(s, 0)) }
    s = e
    index += 1
  }
  return drawn
}

@Suite("Stroker: lineDashPattern, lineDashPhase, strokeStart and strokeEnd")
struct DashTrimTests {
  @Test("straight dashes: area = drawn length × width (property)")
  func dashArea() async throws {
    let path = try polylinePath([(0, 0), (37, 0)])
    await propertyCheck(
      count: 60, input: Gen.double(in: 0.1...6).array(of: 1...5), Gen.double(in: -20...20)
    ) { pattern, phase in
      let outline = try stroke(
        path, StrokeStyle(lineWidth: 2, lineDashPattern: pattern, lineDashPhase: phase))
      let expected = 2 * dashedLength(pattern, phase: phase, length: 37)
      #expect(abs(totalArea(outline) - expected) < 1e-9)
    }
  }

  @Test("an odd pattern repeats twice; all zeros is solid; zero dashes with round caps are dots")
  func patterns() throws {
    let path = try polylinePath([(0, 0), (10, 0)])
    #expect(try stroke(path, StrokeStyle(lineDashPattern: [2])).count == 3)  // [0,2] [4,6] [8,10]
    #expect(try stroke(path, StrokeStyle(lineDashPattern: [0, 0])).count == 1)
    let dots = try stroke(
      path, StrokeStyle(lineWidth: 1, lineCap: .round, lineDashPattern: [0, 2.5]))
    #expect(dots.count == 5)  // at 0, 2.5, 5, 7.5, 10
    let area = totalArea(dots)
    #expect(area < 5 * Double.pi / 4 && area > 5 * (Double.pi / 4 - Double.pi * 0.01))
  }

  @Test("the pattern restarts at each subpath")
  func perSubpath() throws {
    var path = try polylinePath([(0, 0), (5, 0)])
    try path.move(to: Point(x: 0, y: 10))
    try path.addLine(to: Point(x: 5, y: 10))
    let outline = try stroke(path, StrokeStyle(lineWidth: 1, lineDashPattern: [3, 1]))
    #expect(outline.count == 4)
    #expect(abs(totalArea(outline) - 2 * (3 + 1)) < 1e-9)
  }

  @Test("trimming [0, 1] is the identity")
  func identity() throws {
    let path = try polylinePath([(0, 0), (10, 0), (10, 10), (3, 4)], closed: true)
    let whole = try stroke(path, StrokeStyle(lineWidth: 2, lineJoin: .round))
    let trimmed = try stroke(
      path, StrokeStyle(lineWidth: 2, lineJoin: .round, strokeStart: -0.5, strokeEnd: 1.5))
    #expect(whole == trimmed)
  }

  @Test("strokeStart/strokeEnd trim the whole path's length, across subpaths")
  func trimAcrossSubpaths() throws {
    var path = try polylinePath([(0, 0), (10, 0)])
    try path.move(to: Point(x: 0, y: 10))
    try path.addLine(to: Point(x: 30, y: 10))
    // Total 40: [0.125, 0.5] is [5, 20]: 5 of the first, 10 of the second.
    let outline = try stroke(path, StrokeStyle(lineWidth: 2, strokeStart: 0.125, strokeEnd: 0.5))
    #expect(outline.count == 2)
    #expect(abs(totalArea(outline) - 2 * 15) < 1e-9)
    #expect(winding(Point(x: 7, y: 0), outline) != 0 && winding(Point(x: 3, y: 0), outline) == 0)
    #expect(winding(Point(x: 9, y: 10), outline) != 0 && winding(Point(x: 11, y: 10), outline) == 0)
  }

  @Test("a trimmed closed subpath becomes open, with caps")
  func trimClosed() throws {
    let square = try polylinePath([(0, 0), (10, 0), (10, 10), (0, 10)], closed: true)
    let outline = try stroke(square, StrokeStyle(lineWidth: 2, strokeEnd: 0.5))
    #expect(outline.count == 1)
    #expect(winding(Point(x: 10, y: 9), outline) != 0)  // on the second side
    #expect(winding(Point(x: 5, y: 10), outline) == 0)  // the third side is trimmed
  }

  @Test("dashes stay in place while strokeEnd grows (no sliding)")
  func noSliding() throws {
    let path = try polylinePath([(0, 0), (20, 0)])
    let full = try stroke(
      path, StrokeStyle(lineWidth: 2, lineDashPattern: [3, 2], lineDashPhase: 1))
    let part = try stroke(
      path, StrokeStyle(lineWidth: 2, lineDashPattern: [3, 2], lineDashPhase: 1, strokeEnd: 0.5))
    for x in stride(from: 0.25, to: 10, by: 0.5) {
      let p = Point(x: x, y: 0)
      #expect((winding(p, full) != 0) == (winding(p, part) != 0))
    }
    #expect(winding(Point(x: 11, y: 0), part) == 0)
  }
}
