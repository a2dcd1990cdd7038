import Segue

/// A dash pattern ready to cut subpaths: the drawn-and-skipped lengths and the phase.
struct DashPattern {
  /// Lengths, alternately drawn and skipped (even count).
  let lengths: [Double]
  /// Their sum, finite and `> 0`.
  let period: Double
  /// The phase in `[0, period)`.
  let phase: Double

  /// The style's pattern, or `nil` for a solid line.
  ///
  /// - Throws: ``ShapeError/invalid(_:)`` naming `lineDashPattern` when the lengths add up to
  ///   more than a finite number.
  init?(style: StrokeStyle) throws(ShapeError) {
    let lengths = style.effectiveDashes
    guard !lengths.isEmpty else { return nil }
    let period = lengths.reduce(0, +)
    guard period.isFinite else {
      throw .invalid(
        ValidationError(
          field: "lineDashPattern", reason: .outOfRange(lower: 0, upper: .greatestFiniteMagnitude)))
    }
    self.lengths = lengths
    self.period = period
    let phase = style.lineDashPhase.truncatingRemainder(dividingBy: period)
    self.phase = phase < 0 ? phase + period : phase
  }

  /// The drawn intervals of a subpath within `[lo, hi]` (arc length from the subpath's start),
  /// in order. A drawn length of zero gives a zero-length interval (a dot, with round or square
  /// caps); clipping never makes one.
  ///
  /// - Throws: ``ShapeError/tooComplex(limit:)`` when there would be more than `budget`.
  func intervals(_ lo: Double, _ hi: Double, budget: Int) throws(ShapeError) -> [(Double, Double)] {
    let periods = ((hi - lo) / period).rounded(.up) + 1
    guard periods * Double(lengths.count) <= Double(budget) else {
      throw .tooComplex(limit: budget)
    }
    var result: [(Double, Double)] = []
    var base = ((lo + phase) / period).rounded(.down) * period - phase
    while base <= hi {
      var s = base
      for (index, length) in lengths.enumerated() {
        let e = s + length
        if index % 2 == 0 {
          if length == 0 {
            if s >= lo && s <= hi { result.append((s, s)) }
          } else if Swift.max(s, lo) < Swift.min(e, hi) {
            result.append((Swift.max(s, lo), Swift.min(e, hi)))
          }
        }
        s = e
      }
      let next = base + period
      guard next > base else { break }
      base = next
    }
    return result
  }
}

/// Points of a polyline by arc length, walked forwards.
struct PolylineWalker {
  /// The vertices, the first repeated at the end when closed.
  let points: [Point]
  /// Arc length at each vertex.
  let lengths: [Double]

  init(_ line: Polyline) {
    var points = line.points
    if line.isClosed, let first = points.first, points.count > 1 { points.append(first) }
    var lengths = [0.0]
    lengths.reserveCapacity(points.count)
    for i in points.indices.dropFirst() {
      lengths.append(lengths[i - 1] + distance(points[i - 1], points[i]))
    }
    self.points = points
    self.lengths = lengths
  }

  /// The part between arc lengths `a ≤ b`, and the direction of the path at `a` (for the caps
  /// of a zero-length part; `(1, 0)` where the path has none). `cursor` is a vertex index at or
  /// before `a`, advanced; successive calls must not go back.
  func piece(from a: Double, to b: Double, cursor: inout Int) -> (points: [Point], direction: Point)
  {
    let last = points.count - 1
    guard last > 0 else { return ([points[0]], Point(x: 1, y: 0)) }
    while cursor < last - 1 && lengths[cursor + 1] <= a { cursor += 1 }
    var result = [point(at: a, segment: cursor)]
    let direction = unit(points[cursor], points[cursor + 1])
    var i = cursor + 1
    while i <= last && lengths[i] < b {
      if distance(result[result.count - 1], points[i]) > 0 { result.append(points[i]) }
      i += 1
    }
    let endSegment = Swift.min(Swift.max(i - 1, cursor), last - 1)
    let end = point(at: b, segment: endSegment)
    if distance(result[result.count - 1], end) > 0 { result.append(end) }
    return (result, direction)
  }

  private func point(at s: Double, segment i: Int) -> Point {
    let span = lengths[i + 1] - lengths[i]
    let f = span > 0 ? Swift.min(Swift.max((s - lengths[i]) / span, 0), 1) : 0
    let a = points[i]
    let b = points[i + 1]
    return Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
  }
}

/// The unit vector from `a` to `b`, or `(1, 0)` when they coincide.
@inline(__always)
func unit(_ a: Point, _ b: Point) -> Point {
  let d = distance(a, b)
  guard d > 0 else { return Point(x: 1, y: 0) }
  return Point(x: (b.x - a.x) / d, y: (b.y - a.y) / d)
}
