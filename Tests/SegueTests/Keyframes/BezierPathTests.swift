import Foundation
import PropertyBased
import Testing

@testable import Segue

/// An independent arc length: the chord sum over `n` equal parameter steps, with compensated
/// (Kahan) summation, Richardson-extrapolated from `n` and `2n` steps (`(4·S₂ₙ − Sₙ)/3`, removing
/// the `h²` term of the chord error). With `n = 2¹⁶` the remaining error is far below 1e-12 of
/// the length for smooth curves.
func chordLength(_ point: (Double) -> Point, steps n: Int = 1 << 16) -> Double {
  func sum(_ n: Int) -> Double {
    var total = 0.0
    var compensation = 0.0
    var previous = point(0)
    for k in 1...n {
      let p = point(Double(k) / Double(n))
      let d = ((p.x - previous.x) * (p.x - previous.x) + (p.y - previous.y) * (p.y - previous.y))
        .squareRoot()
      let y = d - compensation
      let t = total + y
      compensation = (t - total) - y
      total = t
      previous = p
    }
    return total
  }
  return (4 * sum(2 * n) - sum(n)) / 3
}

/// The cubic `B(t)` written out, independently of `BezierSegment`.
func cubicPoint(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point, _ t: Double) -> Point {
  let u = 1 - t
  return Point(
    x: u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p3.x,
    y: u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p3.y)
}

/// Independent of the library: a quadratic Bézier `(p0, p1, p2)`, its arc length in closed form,
/// inverted by bisection, its points and tangent angles. With `A = p1 − p0`, `B = p0 − 2p1 + p2`,
/// `|B'(t)|² = a t² + b t + c` (`a = 4B·B`, `b = 8A·B`, `c = 4A·A`) and
/// `∫√(at² + bt + c) = (2at + b)/(4a)·√Q + (4ac − b²)/(8a^{3/2})·ln(2√a√Q + 2at + b)`.
struct QuadraticReference {
  let p0: Point
  let p1: Point
  let p2: Point

  func length(_ t: Double) -> Double {
    let ax = p1.x - p0.x
    let ay = p1.y - p0.y
    let bx = p0.x - 2 * p1.x + p2.x
    let by = p0.y - 2 * p1.y + p2.y
    let a = 4 * (bx * bx + by * by)
    let b = 8 * (ax * bx + ay * by)
    let c = 4 * (ax * ax + ay * ay)
    func f(_ t: Double) -> Double {
      let q = (a * t * t + b * t + c).squareRoot()
      return (2 * a * t + b) / (4 * a) * q
        + (4 * a * c - b * b) / (8 * pow(a, 1.5)) * log(2 * a.squareRoot() * q + 2 * a * t + b)
    }
    return f(t) - f(0)
  }

  func parameter(atLength s: Double) -> Double {
    var lo = 0.0
    var hi = 1.0
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if length(mid) < s { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
  }

  func point(_ t: Double) -> Point {
    let u = 1 - t
    return Point(
      x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
      y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
  }

  func angle(_ t: Double) -> Double {
    let dx = 2 * (1 - t) * (p1.x - p0.x) + 2 * t * (p2.x - p1.x)
    let dy = 2 * (1 - t) * (p1.y - p0.y) + 2 * t * (p2.y - p1.y)
    return atan2(dy, dx)
  }
}

@Suite("BezierPath")
struct BezierPathTests {
  @Test func builderRecordsElements() throws {
    var path = BezierPath()
    #expect(path.currentPoint == nil)
    try path.move(to: Point(x: 1, y: 2))
    try path.addLine(to: Point(x: 3, y: 4))
    try path.addQuadCurve(to: Point(x: 5, y: 6), control: Point(x: 7, y: 8))
    try path.addCurve(
      to: Point(x: 9, y: 10), control1: Point(x: 11, y: 12), control2: Point(x: 13, y: 14))
    try path.closeSubpath()
    #expect(path.currentPoint == Point(x: 1, y: 2))
    #expect(
      path.elements == [
        .move(to: Point(x: 1, y: 2)), .line(to: Point(x: 3, y: 4)),
        .quadCurve(to: Point(x: 5, y: 6), control: Point(x: 7, y: 8)),
        .curve(
          to: Point(x: 9, y: 10), control1: Point(x: 11, y: 12), control2: Point(x: 13, y: 14)),
        .closeSubpath,
      ])
    #expect(try BezierPath(elements: path.elements) == path)
  }

  @Test func rejectsDrawingWithoutACurrentPoint() {
    var path = BezierPath()
    let noPoint = ValidationError(
      field: "path", index: 0,
      reason: .invalidState("needs a current point: start the path with move(to:)"))
    #expect(throws: noPoint) { try path.addLine(to: .zero) }
    #expect(throws: noPoint) { try path.addQuadCurve(to: .zero, control: .zero) }
    #expect(throws: noPoint) { try path.addCurve(to: .zero, control1: .zero, control2: .zero) }
    #expect(throws: noPoint) { try path.closeSubpath() }
    #expect(path.elements.isEmpty)
  }

  @Test func rejectsNonFinitePointsWithTheElementIndex() throws {
    #expect(throws: ValidationError(field: "path", index: 2, reason: .notFinite)) {
      try BezierPath(elements: [
        .move(to: .zero), .line(to: Point(x: 1, y: 1)),
        .curve(to: .zero, control1: Point(x: .nan, y: 0), control2: .zero),
      ])
    }
    var path = BezierPath()
    #expect(throws: ValidationError(field: "path", index: 0, reason: .notFinite)) {
      try path.move(to: Point(x: 0, y: .infinity))
    }
  }

  /// A line is the cubic with controls at thirds; a quadratic is degree-elevated: the same
  /// points as the quadratic's own formula.
  @Test func segmentsAreExactCubics() throws {
    let path = try BezierPath(elements: [
      .move(to: Point(x: 0, y: 0)), .line(to: Point(x: 30, y: 60)),
      .quadCurve(to: Point(x: 90, y: 0), control: Point(x: 60, y: 120)),
    ])
    let segments = path.segments
    #expect(segments.count == 2)
    for t in stride(from: 0.0, through: 1, by: 0.125) {
      let line = segments[0].point(at: t)
      #expect(abs(line.x - 30 * t) <= 1e-12 && abs(line.y - 60 * t) <= 1e-12)
      let u = 1 - t
      let qx = u * u * 30 + 2 * u * t * 60 + t * t * 90
      let qy = u * u * 60 + 2 * u * t * 120 + t * t * 0
      let q = segments[1].point(at: t)
      #expect(abs(q.x - qx) <= 1e-12 && abs(q.y - qy) <= 1e-12)
    }
    #expect(segments[1].point(at: 0) == Point(x: 30, y: 60))
    #expect(segments[1].point(at: 1) == Point(x: 90, y: 0))
  }

  /// A straight line's length is its chord: 3-4-5 scaled, 10.
  @Test func lineLength() {
    let s = BezierSegment.line(from: Point(x: 3, y: 4), to: Point(x: 9, y: 12))
    #expect(abs(s.length - 10) <= 1e-12)
    #expect(abs(s.length(to: 0.25) - 2.5) <= 1e-12)
  }

  /// A quadratic against its closed form (``QuadraticReference``).
  @Test func quadraticLengthMatchesTheClosedForm() {
    let reference = QuadraticReference(
      p0: Point(x: 0, y: 0), p1: Point(x: 100, y: 200), p2: Point(x: 300, y: 50))
    let exact = reference.length(1)
    let s = BezierSegment.quadratic(from: reference.p0, control: reference.p1, to: reference.p2)
    #expect(abs(s.length - exact) <= 1e-12 * exact, "\(s.length) vs \(exact)")
    #expect(abs(s.length(to: 0.3) - reference.length(0.3)) <= 1e-12 * exact)
  }

  /// The usual cubic approximation of a quarter circle of radius 100 (controls at
  /// `k = 4/3·(√2 − 1)`): its length is within 3e-4 of π·50 (the approximation's own error; its
  /// radius strays by up to 2.7e-4), and equals the cubic's length from the independent chord
  /// sum to 1e-12.
  @Test func quarterCircleCubic() {
    let k = 4.0 / 3 * (2.0.squareRoot() - 1)
    let p0 = Point(x: 100, y: 0)
    let c1 = Point(x: 100, y: 100 * k)
    let c2 = Point(x: 100 * k, y: 100)
    let p3 = Point(x: 0, y: 100)
    let s = BezierSegment(p0: p0, c1: c1, c2: c2, p3: p3, isJump: false)
    let reference = chordLength { cubicPoint(p0, c1, c2, p3, $0) }
    #expect(abs(s.length - reference) <= 1e-12 * reference, "\(s.length) vs \(reference)")
    #expect(abs(s.length - Double.pi * 50) <= 3e-4 * Double.pi * 50)
    // Halves by symmetry.
    #expect(abs(s.length(to: 0.5) - reference / 2) <= 1e-12 * reference)
  }

  /// A cubic with a cusp at t = 1/2 (B'(½) = 0): the kink in |B'| is refined adaptively.
  @Test func cuspCubic() {
    let p0 = Point(x: 0, y: 0)
    let c1 = Point(x: 100, y: 100)
    let c2 = Point(x: 0, y: 100)
    let p3 = Point(x: 100, y: 0)
    let s = BezierSegment(p0: p0, c1: c1, c2: c2, p3: p3, isJump: false)
    #expect(s.speed(at: 0.5) == 0)
    let reference = chordLength { cubicPoint(p0, c1, c2, p3, $0) }
    #expect(abs(s.length - reference) <= 1e-10 * reference, "\(s.length) vs \(reference)")
  }

  /// `parameter(atLength:)` inverts `length(to:)`, for random lengths on a wavy cubic.
  @Test func parameterInvertsLength() async {
    let s = BezierSegment(
      p0: Point(x: 0, y: 0), c1: Point(x: 300, y: -200), c2: Point(x: -100, y: 400),
      p3: Point(x: 250, y: 120), isJump: false)
    await propertyCheck(count: 200, input: Gen.double(in: 0...1)) { fraction in
      let target = fraction * s.length
      let t = s.parameter(atLength: target)
      #expect((0...1).contains(t))
      #expect(abs(s.length(to: t) - target) <= 1e-11 * s.length)
    }
    #expect(s.parameter(atLength: -1) == 0 && s.parameter(atLength: s.length * 2) == 1)
  }

  /// Gauss–Legendre nodes integrate polynomials of degree ≤ 15 exactly: ∫₋₁¹ x¹⁴ = 2/15.
  @Test func gaussLegendreRule() {
    var sum = 0.0
    for (x, w) in GaussLegendre.rule8 { sum += 2 * w * pow(x, 14) }
    #expect(abs(sum - 2.0 / 15) <= 1e-15)
    #expect(abs(GaussLegendre.rule8.reduce(0) { $0 + 2 * $1.1 } - 2) <= 1e-15)
  }

  /// Tangent angles (y-down): right 0, down π/2; a control point on the start point takes the
  /// direction of B''; at the end with c2 = p3, the direction it arrives from (p3 − c1: here
  /// along +x); a point, none.
  @Test func tangentAngles() {
    let right = BezierSegment.line(from: .zero, to: Point(x: 5, y: 0))
    #expect(right.tangentAngle(at: 0.3) == 0)
    let down = BezierSegment.line(from: .zero, to: Point(x: 0, y: 5))
    #expect(abs(down.tangentAngle(at: 1)! - Double.pi / 2) <= 1e-15)
    let s = BezierSegment(
      p0: .zero, c1: .zero, c2: Point(x: 10, y: 10), p3: Point(x: 20, y: 10), isJump: false)
    #expect(abs(s.tangentAngle(at: 0)! - Double.pi / 4) <= 1e-12)
    let e = BezierSegment(
      p0: .zero, c1: Point(x: 0, y: 10), c2: Point(x: 10, y: 10), p3: Point(x: 10, y: 10),
      isJump: false)
    #expect(e.tangentAngle(at: 1) == 0)
    let dot = BezierSegment.line(from: Point(x: 1, y: 1), to: Point(x: 1, y: 1))
    #expect(dot.tangentAngle(at: 0.5) == nil && dot.length == 0)
    #expect(BezierSegment.jump(from: .zero, to: Point(x: 1, y: 1)).tangentAngle(at: 0) == nil)
  }
}
