extension BezierPath {
  /// The path between `self` (at 0) and `other` (at 1) for a `path` animation, as Core
  /// Animation interpolates `CAShapeLayer.path`: each point of each element moves linearly,
  /// `p + (q − p)·fraction` (exactly `self` at 0 and `other` at 1). Both paths need the same
  /// elements in the same order (counts and
  /// kinds); `fraction` may leave `[0, 1]` (an overshooting timing curve extrapolates).
  ///
  /// - Throws: ``ValidationError`` naming `fraction` (`.notFinite`); `path` with
  ///   `.countMismatch` when the element counts differ, or with the first differing index and
  ///   `.invalidState` when the kinds differ there; `path` with `.notFinite` when extrapolation
  ///   overflows.
  public func interpolated(to other: BezierPath, fraction: Double) throws(ValidationError)
    -> BezierPath
  {
    try Validate.finite(fraction, "fraction")
    if let (index, reason) = layoutMismatch(with: other) {
      throw ValidationError(field: "path", index: index, reason: reason)
    }
    guard let mixed = channelwiseInterpolated(to: other, fraction: fraction) else {
      throw ValidationError(field: "path", reason: .notFinite)
    }
    return mixed
  }
}

/// A path's layout is its element kinds in order; its channels are each element's points in
/// order (`x, y` of a move or line; the control point, then the end point, of a quadratic curve;
/// the two control points, then the end point, of a cubic curve; none for a close).
extension BezierPath: InterpolatableList {
  /// Every point of every element, `x` then `y`, in element order.
  public var channels: [Double] {
    var out: [Double] = []
    out.reserveCapacity(2 * elements.count)
    for element in elements {
      switch element {
      case .move(let p), .line(let p): out += [p.x, p.y]
      case .quadCurve(let p, let c): out += [c.x, c.y, p.x, p.y]
      case .curve(let p, let c1, let c2): out += [c1.x, c1.y, c2.x, c2.y, p.x, p.y]
      case .closeSubpath: break
      }
    }
    return out
  }

  /// The path with these elements moved to `channels`; `nil` when the count is wrong or a
  /// coordinate is not finite.
  public func replacingChannels(_ channels: ArraySlice<Double>) -> BezierPath? {
    var i = channels.startIndex
    func point() -> Point? {
      guard i + 1 < channels.endIndex else { return nil }
      defer { i += 2 }
      return Point(x: channels[i], y: channels[i + 1])
    }
    var moved: [Element] = []
    moved.reserveCapacity(elements.count)
    for element in elements {
      switch element {
      case .move:
        guard let p = point() else { return nil }
        moved.append(.move(to: p))
      case .line:
        guard let p = point() else { return nil }
        moved.append(.line(to: p))
      case .quadCurve:
        guard let c = point(), let p = point() else { return nil }
        moved.append(.quadCurve(to: p, control: c))
      case .curve:
        guard let c1 = point(), let c2 = point(), let p = point() else { return nil }
        moved.append(.curve(to: p, control1: c1, control2: c2))
      case .closeSubpath: moved.append(.closeSubpath)
      }
    }
    guard i == channels.endIndex else { return nil }
    return try? BezierPath(elements: moved)
  }

  /// `.countMismatch` when the element counts differ; the first index whose kinds differ with
  /// `.invalidState("element kinds differ: line and curve")`.
  public func layoutMismatch(with other: BezierPath) -> (
    index: Int?, reason: ValidationError.Reason
  )? {
    guard elements.count == other.elements.count else {
      return (nil, .countMismatch(expected: elements.count, actual: other.elements.count))
    }
    for (index, (a, b)) in zip(elements, other.elements).enumerated()
    where a.kindName != b.kindName {
      return (index, .invalidState("element kinds differ: \(a.kindName) and \(b.kindName)"))
    }
    return nil
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
