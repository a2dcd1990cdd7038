import Segue

/// Flattening of a ``/Segue/BezierPath`` into ``Polyline``s.
///
/// A curve of degree `d` with control points `Pᵢ` is cut into `n` equal parameter steps with
/// Wang's bound `n = ⌈√(d(d − 1)/8 · M / τ)⌉`, `M = maxᵢ |Pᵢ − 2Pᵢ₊₁ + Pᵢ₊₂|`: every chord is
/// then within `τ` of its arc. `τ` is the tolerance in device pixels divided by the largest
/// stretch `scale` (device pixels per layer point) of the layer's matrix, so the polyline is
/// within `tolerance` pixels of the curve on screen.
///
/// A subpath that is only a `move(to:)` is dropped (it draws nothing); `closeSubpath` marks
/// the polyline closed. The work and the output are linear in the number of points made, which
/// `budget` bounds.
public enum PathFlattening {
  /// The default tolerance: a quarter of a device pixel.
  public static let defaultTolerance = 0.25
  /// The default budget of points (`2²²`).
  public static let defaultBudget = 1 << 22

  /// The polylines of `path`.
  ///
  /// - Parameters:
  ///   - path: the path, in layer points.
  ///   - tolerance: the largest distance from the curve in device pixels (`> 0`).
  ///   - scale: device pixels per layer point, the matrix's largest stretch (`> 0`).
  ///   - budget: the most points in the result.
  /// - Throws: ``ShapeError/invalid(_:)`` naming `tolerance` or `scale` (not finite, not
  ///   positive); ``ShapeError/tooComplex(limit:)`` over `budget`.
  public static func polylines(
    _ path: BezierPath, tolerance: Double = defaultTolerance, scale: Double,
    budget: Int = defaultBudget
  ) throws(ShapeError) -> [Polyline] {
    let layerTolerance = try layerTolerance(tolerance, scale: scale)
    var result: [Polyline] = []
    var current: [Point] = []
    var drawn = false
    var count = 0
    func finish(closed: Bool) {
      if drawn && !current.isEmpty { result.append(Polyline(points: current, isClosed: closed)) }
      current = []
      drawn = false
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        finish(closed: false)
        current = [p]
      case .line(let p):
        current.append(p)
        drawn = true
      case .quadCurve(let p, let c):
        let a = current.last ?? p
        try appendCurve([a, c, p], layerTolerance, &current, &count, budget)
        drawn = true
      case .curve(let p, let c1, let c2):
        let a = current.last ?? p
        try appendCurve([a, c1, c2, p], layerTolerance, &current, &count, budget)
        drawn = true
      case .closeSubpath:
        let start = current.first
        finish(closed: true)
        if let start { current = [start] }
      }
      count += 1
      guard count <= budget else { throw .tooComplex(limit: budget) }
    }
    finish(closed: false)
    return result
  }

  /// `tolerance / scale`, checked.
  static func layerTolerance(_ tolerance: Double, scale: Double) throws(ShapeError) -> Double {
    do {
      try Validate.positive(tolerance, "tolerance")
      try Validate.positive(scale, "scale")
    } catch { throw .invalid(error) }
    let result = tolerance / scale
    guard result > 0, result.isFinite else {
      throw .invalid(
        ValidationError(
          field: "scale", reason: .outOfRange(lower: 0, upper: .greatestFiniteMagnitude)))
    }
    return result
  }

  /// Appends the points of the Bézier `control` (degree 2 or 3, the first point already in
  /// `points`) at Wang's step count.
  static func appendCurve(
    _ control: [Point], _ tolerance: Double, _ points: inout [Point], _ count: inout Int,
    _ budget: Int
  ) throws(ShapeError) {
    let degree = control.count - 1
    var m = 0.0
    for i in 0..<(control.count - 2) {
      let x = control[i].x - 2 * control[i + 1].x + control[i + 2].x
      let y = control[i].y - 2 * control[i + 1].y + control[i + 2].y
      m = Swift.max(m, (x * x + y * y).squareRoot())
    }
    let steps = (Double(degree * (degree - 1)) / 8 * m / tolerance).squareRoot().rounded(.up)
    guard steps.isFinite, steps <= Double(budget - count) else { throw .tooComplex(limit: budget) }
    let n = Swift.max(Int(steps), 1)
    count += n
    for k in 1...n {
      points.append(k == n ? control[degree] : bezierPoint(control, Double(k) / Double(n)))
    }
  }

  /// The point at `t` of the Bézier curve `control` (degree 2 or 3), in Bernstein form.
  static func bezierPoint(_ c: [Point], _ t: Double) -> Point {
    let u = 1 - t
    if c.count == 3 {
      let (a, b, d) = (u * u, 2 * u * t, t * t)
      return Point(x: a * c[0].x + b * c[1].x + d * c[2].x, y: a * c[0].y + b * c[1].y + d * c[2].y)
    }
    let (a, b, d, e) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
    return Point(
      x: a * c[0].x + b * c[1].x + d * c[2].x + e * c[3].x,
      y: a * c[0].y + b * c[1].y + d * c[2].y + e * c[3].y)
  }
}
