import RealModule

/// A path of straight lines and Bézier curves (`CGPath`, `UIBezierPath`), for
/// `CAKeyframeAnimation.path`. Points are in the animated property's space (the superlayer's for
/// `position`), y-down.
///
/// Build it as a `CGMutablePath`: ``move(to:)``, ``addLine(to:)``,
/// ``addQuadCurve(to:control:)``, ``addCurve(to:control1:control2:)``, ``closeSubpath()``. A
/// drawing element needs a current point (a ``move(to:)`` first, as Core Graphics requires); a
/// later ``move(to:)`` starts a new subpath.
public struct BezierPath: Hashable, Sendable {
  /// One element of a path (`CGPathElement`).
  public enum Element: Hashable, Sendable {
    /// `move(to:)`: starts a subpath at the point.
    case move(to: Point)
    /// `addLine(to:)`.
    case line(to: Point)
    /// `addQuadCurve(to:control:)`: a quadratic Bézier from the current point.
    case quadCurve(to: Point, control: Point)
    /// `addCurve(to:control1:control2:)`: a cubic Bézier from the current point.
    case curve(to: Point, control1: Point, control2: Point)
    /// `closeSubpath()`: a line back to the subpath's start.
    case closeSubpath
  }

  /// The elements in order.
  public private(set) var elements: [Element] = []
  /// The current point, once there is one.
  public private(set) var currentPoint: Point?
  private var subpathStart: Point?

  /// An empty path.
  public init() {}

  /// A path of `elements`, checked in order as the builder methods check them; the array is kept
  /// as given (no copy).
  ///
  /// - Throws: ``ValidationError`` on `"path"` with the element's index: as the builder methods.
  public init(elements: [Element]) throws(ValidationError) {
    for (index, element) in elements.enumerated() {
      try advance(past: element, index: index)
    }
    self.elements = elements
  }

  /// `move(to:)`: starts a new subpath at `point`.
  ///
  /// - Throws: ``ValidationError`` on `"path"` (with the element's index) when a coordinate is not
  ///   finite.
  public mutating func move(to point: Point) throws(ValidationError) {
    try append(.move(to: point))
  }

  /// `addLine(to:)`.
  ///
  /// - Throws: as ``move(to:)``; ``ValidationError/Reason/invalidState(_:)`` without a current
  ///   point.
  public mutating func addLine(to point: Point) throws(ValidationError) {
    try append(.line(to: point))
  }

  /// `addQuadCurve(to:control:)`.
  ///
  /// - Throws: as ``addLine(to:)``.
  public mutating func addQuadCurve(to point: Point, control: Point) throws(ValidationError) {
    try append(.quadCurve(to: point, control: control))
  }

  /// `addCurve(to:control1:control2:)`.
  ///
  /// - Throws: as ``addLine(to:)``.
  public mutating func addCurve(to point: Point, control1: Point, control2: Point)
    throws(ValidationError)
  {
    try append(.curve(to: point, control1: control1, control2: control2))
  }

  /// `closeSubpath()`: a straight line back to where the subpath started.
  ///
  /// - Throws: as ``addLine(to:)`` (without a current point).
  public mutating func closeSubpath() throws(ValidationError) {
    try append(.closeSubpath)
  }

  private mutating func append(_ element: Element) throws(ValidationError) {
    try advance(past: element, index: elements.count)
    elements.append(element)
  }

  /// Checks `element` (finite coordinates, a current point before a drawing element) and moves
  /// the current point and subpath start past it.
  private mutating func advance(past element: Element, index: Int) throws(ValidationError) {
    switch element {
    case .move(let p), .line(let p):
      try Self.checkFinite(p, index: index)
    case .quadCurve(let p, let c):
      try Self.checkFinite(c, index: index)
      try Self.checkFinite(p, index: index)
    case .curve(let p, let c1, let c2):
      try Self.checkFinite(c1, index: index)
      try Self.checkFinite(c2, index: index)
      try Self.checkFinite(p, index: index)
    case .closeSubpath:
      break
    }
    if case .move(let p) = element {
      subpathStart = p
      currentPoint = p
    } else {
      guard currentPoint != nil, let start = subpathStart else {
        throw ValidationError(
          field: "path", index: index,
          reason: .invalidState("needs a current point: start the path with move(to:)"))
      }
      currentPoint = element.endPoint ?? start
    }
  }

  private static func checkFinite(_ p: Point, index: Int) throws(ValidationError) {
    try Validate.finite(p.x, "path", index: index)
    try Validate.finite(p.y, "path", index: index)
  }

  /// The pieces of the path between consecutive vertices (the end points of the elements, the
  /// first move's point first): every drawing element as a cubic Bézier (a line with its
  /// controls at thirds, a quadratic curve degree-elevated, both exactly the same curve), and a
  /// move after the first as a jump.
  var segments: [BezierSegment] {
    var result: [BezierSegment] = []
    var current = Point.zero
    var start = Point.zero
    for (index, element) in elements.enumerated() {
      switch element {
      case .move(let p):
        if index > 0 { result.append(.jump(from: current, to: p)) }
        current = p
        start = p
      case .line(let p):
        result.append(.line(from: current, to: p))
        current = p
      case .quadCurve(let p, let c):
        result.append(.quadratic(from: current, control: c, to: p))
        current = p
      case .curve(let p, let c1, let c2):
        result.append(BezierSegment(p0: current, c1: c1, c2: c2, p3: p, isJump: false))
        current = p
      case .closeSubpath:
        result.append(.line(from: current, to: start))
        current = start
      }
    }
    return result
  }
}

extension BezierPath.Element {
  /// The element's end point, `nil` for `closeSubpath` (it ends at its subpath's start).
  var endPoint: Point? {
    switch self {
    case .move(let p), .line(let p), .quadCurve(let p, _), .curve(let p, _, _): p
    case .closeSubpath: nil
    }
  }
}

/// A cubic Bézier `B(t) = (1−t)³·p0 + 3(1−t)²t·c1 + 3(1−t)t²·c2 + t³·p3`, `t ∈ [0, 1]`, with its
/// arc length; or a jump (a move to a new subpath: no length, no tangent).
///
/// **Arc length.** `L(t) = ∫₀ᵗ |B'(τ)| dτ` by adaptive Gauss–Legendre quadrature (8 nodes per
/// panel): a panel is accepted when one 8-node estimate and the sum of its two halves agree to
/// within its share of the tolerance `τ = 1e-13 · (|c1 − p0| + |c2 − c1| + |p3 − c2|)` (the
/// control polygon bounds the length from above), which halves with each split, to a depth of
/// 30. The integrand `|B'|` is smooth except where `B'` vanishes (a cusp), where it has a kink;
/// the adaptive splits concentrate there. The result is within about `τ` of the true length
/// (relative `1e-13` of the control polygon, so `≲ 1e-12` relative to the length for any curve
/// whose control polygon is not much longer than the curve); the tests check lines, a quadratic
/// against its closed form, and cubics (a quarter circle's approximation, a cusp) against an
/// independent Richardson-extrapolated chord sum.
///
/// ``lengthTable`` holds `L` at `t = k/16`, so a length query integrates only within one
/// sixteenth; ``parameter(atLength:)`` inverts `L` by Newton's method with bisection safeguards.
struct BezierSegment: Hashable, Sendable {
  var p0: Point
  var c1: Point
  var c2: Point
  var p3: Point
  var isJump: Bool
  /// `L(k/16)` for `k = 0 … 16` (empty for a jump).
  var lengthTable: [Double] = []

  static let tableSteps = 16

  init(p0: Point, c1: Point, c2: Point, p3: Point, isJump: Bool) {
    self.p0 = p0
    self.c1 = c1
    self.c2 = c2
    self.p3 = p3
    self.isJump = isJump
    if !isJump {
      var table = [0.0]
      var total = 0.0
      for k in 0..<Self.tableSteps {
        let a = Double(k) / Double(Self.tableSteps)
        let b = Double(k + 1) / Double(Self.tableSteps)
        total += integral(from: a, to: b)
        table.append(total)
      }
      lengthTable = table
    }
  }

  static func line(from a: Point, to b: Point) -> BezierSegment {
    BezierSegment(
      p0: a, c1: Point(x: a.x + (b.x - a.x) / 3, y: a.y + (b.y - a.y) / 3),
      c2: Point(x: b.x - (b.x - a.x) / 3, y: b.y - (b.y - a.y) / 3), p3: b, isJump: false)
  }

  /// The quadratic `(a, q, b)` elevated to a cubic: controls `a + ⅔(q − a)` and `b + ⅔(q − b)`.
  static func quadratic(from a: Point, control q: Point, to b: Point) -> BezierSegment {
    BezierSegment(
      p0: a, c1: Point(x: a.x + 2 * (q.x - a.x) / 3, y: a.y + 2 * (q.y - a.y) / 3),
      c2: Point(x: b.x + 2 * (q.x - b.x) / 3, y: b.y + 2 * (q.y - b.y) / 3), p3: b, isJump: false)
  }

  static func jump(from a: Point, to b: Point) -> BezierSegment {
    BezierSegment(p0: a, c1: a, c2: b, p3: b, isJump: true)
  }

  /// The segment's arc length (0 for a jump).
  var length: Double { lengthTable.last ?? 0 }

  /// `B(t)`; exactly `p0` at 0 and `p3` at 1. A jump is at `p0` before `t = 1`.
  func point(at t: Double) -> Point {
    if isJump { return t >= 1 ? p3 : p0 }
    let u = 1 - t
    let a = u * u * u
    let b = 3 * u * u * t
    let c = 3 * u * t * t
    let d = t * t * t
    return Point(
      x: a * p0.x + b * c1.x + c * c2.x + d * p3.x, y: a * p0.y + b * c1.y + c * c2.y + d * p3.y)
  }

  /// `B'(t) = 3[(1−t)²(c1 − p0) + 2(1−t)t(c2 − c1) + t²(p3 − c2)]`.
  func derivative(at t: Double) -> Point {
    let u = 1 - t
    let a = 3 * u * u
    let b = 6 * u * t
    let c = 3 * t * t
    return Point(
      x: a * (c1.x - p0.x) + b * (c2.x - c1.x) + c * (p3.x - c2.x),
      y: a * (c1.y - p0.y) + b * (c2.y - c1.y) + c * (p3.y - c2.y))
  }

  /// `B''(t) = 6[(1−t)(c2 − 2c1 + p0) + t(p3 − 2c2 + c1)]`.
  func secondDerivative(at t: Double) -> Point {
    let u = 1 - t
    return Point(
      x: 6 * (u * (c2.x - 2 * c1.x + p0.x) + t * (p3.x - 2 * c2.x + c1.x)),
      y: 6 * (u * (c2.y - 2 * c1.y + p0.y) + t * (p3.y - 2 * c2.y + c1.y)))
  }

  /// The direction of motion at `t` as an angle `atan2(dy, dx)` in radians (y-down, so positive
  /// angles turn clockwise on screen), or `nil` when the segment does not move at all. Where
  /// `B'(t)` vanishes (a control point on an end point, or a cusp) the direction is that of
  /// `B''(t)` — of `−B''(1)` at the end, the direction the curve arrives from — and failing that
  /// the chord `p3 − p0`.
  func tangentAngle(at t: Double) -> Double? {
    if isJump { return nil }
    let scale =
      Self.norm(c1.x - p0.x, c1.y - p0.y) + Self.norm(c2.x - c1.x, c2.y - c1.y)
      + Self.norm(p3.x - c2.x, p3.y - c2.y)
    guard scale > 0 else { return nil }
    let d = derivative(at: t)
    if Self.norm(d.x, d.y) > 1e-12 * scale { return Double.atan2(y: d.y, x: d.x) }
    var s = secondDerivative(at: t)
    if t >= 1 { s = Point(x: -s.x, y: -s.y) }
    if Self.norm(s.x, s.y) > 1e-12 * scale { return Double.atan2(y: s.y, x: s.x) }
    let chord = Point(x: p3.x - p0.x, y: p3.y - p0.y)
    if Self.norm(chord.x, chord.y) > 0 { return Double.atan2(y: chord.y, x: chord.x) }
    return nil
  }

  static func norm(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }

  /// `|B'(t)|`.
  func speed(at t: Double) -> Double {
    let d = derivative(at: t)
    return Self.norm(d.x, d.y)
  }

  /// The control polygon's length (an upper bound of the arc length).
  var controlPolygonLength: Double {
    Self.norm(c1.x - p0.x, c1.y - p0.y) + Self.norm(c2.x - c1.x, c2.y - c1.y)
      + Self.norm(p3.x - c2.x, p3.y - c2.y)
  }

  /// `∫ₐᵇ |B'|` by adaptive Gauss–Legendre (see the type's notes).
  func integral(from a: Double, to b: Double) -> Double {
    guard b > a else { return 0 }
    let whole = gauss(a, b)
    let tolerance = 1e-13 * controlPolygonLength * (b - a)
    return adaptive(a, b, whole: whole, tolerance: tolerance, depth: 30)
  }

  private func adaptive(_ a: Double, _ b: Double, whole: Double, tolerance: Double, depth: Int)
    -> Double
  {
    let m = 0.5 * (a + b)
    let left = gauss(a, m)
    let right = gauss(m, b)
    let sum = left + right
    if depth == 0 || abs(sum - whole) <= tolerance || !(m > a && m < b) { return sum }
    return adaptive(a, m, whole: left, tolerance: tolerance / 2, depth: depth - 1)
      + adaptive(m, b, whole: right, tolerance: tolerance / 2, depth: depth - 1)
  }

  /// 8-node Gauss–Legendre on `[a, b]`.
  private func gauss(_ a: Double, _ b: Double) -> Double {
    let half = 0.5 * (b - a)
    let mid = 0.5 * (a + b)
    var sum = 0.0
    for (x, w) in GaussLegendre.rule8 {
      sum += w * (speed(at: mid - half * x) + speed(at: mid + half * x))
    }
    return sum * half
  }

  /// `L(t)`, the arc length from 0 to `t ∈ [0, 1]`.
  func length(to t: Double) -> Double {
    if isJump { return 0 }
    if t <= 0 { return 0 }
    if t >= 1 { return length }
    let scaled = t * Double(Self.tableSteps)
    let k = Swift.min(Int(scaled), Self.tableSteps - 1)
    let a = Double(k) / Double(Self.tableSteps)
    return lengthTable[k] + integral(from: a, to: t)
  }

  /// The parameter `t` with `L(t) = s` (`s` clamped to `[0, length]`): exact at the ends,
  /// otherwise Newton's method on `L(t) − s` (slope `|B'(t)|`) inside the sixteenth that holds `s`,
  /// falling back to bisection when a step leaves the bracket or the slope vanishes; it stops
  /// when the bracket is below `1e-15` or the residual below `1e-13` of the length.
  func parameter(atLength s: Double) -> Double {
    let total = length
    guard !isJump, total > 0 else { return s >= total ? 1 : 0 }
    if s <= 0 { return 0 }
    if s >= total { return 1 }
    var k = 0
    while k < Self.tableSteps - 1 && lengthTable[k + 1] < s { k += 1 }
    let start = Double(k) / Double(Self.tableSteps)
    var lo = start
    var hi = Double(k + 1) / Double(Self.tableSteps)
    let base = lengthTable[k]
    let span = lengthTable[k + 1] - base
    var t = span > 0 ? lo + (hi - lo) * (s - base) / span : lo
    for _ in 0..<100 {
      let residual = base + integral(from: start, to: t) - s
      if abs(residual) <= 1e-13 * total { return t }
      if residual > 0 { hi = t } else { lo = t }
      if hi - lo <= 1e-15 { return t }
      let slope = speed(at: t)
      var next = slope > 0 ? t - residual / slope : .nan
      if !(next > lo && next < hi) { next = 0.5 * (lo + hi) }
      t = next
    }
    return t
  }
}

/// Gauss–Legendre nodes and weights, computed once by Newton's method on the Legendre
/// polynomial (accurate to a few ulps).
///
/// The `n`-point rule integrates polynomials of degree `≤ 2n − 1` exactly on `[−1, 1]`:
/// `∫₋₁¹ f ≈ Σᵢ wᵢ·(f(xᵢ) + f(−xᵢ))` over the positive nodes of ``nodes(_:)``.
public enum GaussLegendre {
  /// The 4 positive nodes `xᵢ` of the 8-point rule and their weights `wᵢ` (each node is used as
  /// `±xᵢ`).
  static let rule8: [(Double, Double)] = nodes(8)

  /// The `n/2` positive nodes `xᵢ` of the `n`-point rule (`n` even, `≥ 2`) with their weights
  /// `wᵢ = 2/((1 − xᵢ²)·P′ₙ(xᵢ)²)`, from the largest node down; each node is used as `±xᵢ`.
  public static func nodes(_ n: Int) -> [(Double, Double)] {
    var result: [(Double, Double)] = []
    for i in 1...(n / 2) {
      var x = Double.cos(Double.pi * (Double(i) - 0.25) / (Double(n) + 0.5))
      var derivative = 1.0
      for _ in 0..<100 {
        var p0 = 1.0
        var p1 = x
        for k in 2...n {
          let p2 = ((2 * Double(k) - 1) * x * p1 - (Double(k) - 1) * p0) / Double(k)
          p0 = p1
          p1 = p2
        }
        derivative = Double(n) * (x * p1 - p0) / (x * x - 1)
        let step = p1 / derivative
        x -= step
        if abs(step) <= 1e-17 { break }
      }
      result.append((x, 2 / ((1 - x * x) * derivative * derivative)))
    }
    return result
  }
}
