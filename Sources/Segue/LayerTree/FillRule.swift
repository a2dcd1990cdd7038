/// How a closed path decides which points are inside (`CAShapeLayerFillRule`).
///
/// Count the signed crossings of a ray from the point with the path (+1 where the path crosses
/// it going one way, −1 the other): the winding number `w`.
public enum FillRule: String, Hashable, Sendable, CaseIterable {
  /// `kCAFillRuleNonZero` (the default): inside where `w ≠ 0`.
  case nonZero
  /// `kCAFillRuleEvenOdd`: inside where `w` is odd.
  case evenOdd

  /// Whether a point with winding number `winding` is inside.
  @inlinable
  public func contains(winding: Int) -> Bool {
    switch self {
    case .nonZero: winding != 0
    case .evenOdd: winding & 1 != 0
    }
  }
}
