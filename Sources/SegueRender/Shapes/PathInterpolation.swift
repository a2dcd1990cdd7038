import Segue

extension BezierPath {
  /// The path between `self` (at 0) and `other` (at 1) for a `path` animation, as Core
  /// Animation interpolates `CAShapeLayer.path`: each point of each element moves linearly,
  /// `p + (q − p)·fraction`. Both paths need the same elements in the same order (counts and
  /// kinds); `fraction` may leave `[0, 1]` (an overshooting timing curve extrapolates).
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `fraction` (`.notFinite`); `path` with
  ///   `.countMismatch` when the element counts differ, or with the first differing index and
  ///   `.invalidState` when the kinds differ there; `path` with `.notFinite` when extrapolation
  ///   overflows.
  public func interpolated(to other: BezierPath, fraction: Double) throws(ValidationError)
    -> BezierPath
  {
    try Validate.finite(fraction, "fraction")
    guard elements.count == other.elements.count else {
      throw ValidationError(
        field: "path",
        reason: .countMismatch(expected: elements.count, actual: other.elements.count))
    }
    func mix(_ p: Point, _ q: Point) -> Point {
      Point(x: p.x + (q.x - p.x) * fraction, y: p.y + (q.y - p.y) * fraction)
    }
    var mixed: [Element] = []
    mixed.reserveCapacity(elements.count)
    for (index, (a, b)) in zip(elements, other.elements).enumerated() {
      switch (a, b) {
      case (.move(let p), .move(let q)): mixed.append(.move(to: mix(p, q)))
      case (.line(let p), .line(let q)): mixed.append(.line(to: mix(p, q)))
      case (.quadCurve(let p, let c), .quadCurve(let q, let d)):
        mixed.append(.quadCurve(to: mix(p, q), control: mix(c, d)))
      case (.curve(let p, let c1, let c2), .curve(let q, let d1, let d2)):
        mixed.append(.curve(to: mix(p, q), control1: mix(c1, d1), control2: mix(c2, d2)))
      case (.closeSubpath, .closeSubpath): mixed.append(.closeSubpath)
      default:
        throw ValidationError(
          field: "path", index: index,
          reason: .invalidState("element kinds differ: \(a.kindName) and \(b.kindName)"))
      }
    }
    return try BezierPath(elements: mixed)
  }
}

extension BezierPath.Element {
  /// The Core Graphics name of the element's kind.
  var kindName: String {
    switch self {
    case .move: "move"
    case .line: "line"
    case .quadCurve: "quadCurve"
    case .curve: "curve"
    case .closeSubpath: "closeSubpath"
    }
  }
}
