/// The shape of a `CAGradientLayer`'s gradient (`CAGradientLayerType`). `startPoint` and
/// `endPoint` are in the unit space of the bounds (`(0, 0)` top-left, `(1, 1)` bottom-right).
public enum GradientType: String, Hashable, Sendable, CaseIterable {
  /// `kCAGradientLayerAxial` (the default): constant along lines perpendicular to
  /// `startPoint → endPoint`; `t` is the projection onto that axis.
  case axial
  /// `kCAGradientLayerRadial`: an ellipse centred at `startPoint` with half-axes
  /// `|endPoint.x − startPoint.x|` and `|endPoint.y − startPoint.y|` (in the bounds' points);
  /// `t` is the elliptical distance from the centre (1 on the ellipse).
  case radial
  /// `kCAGradientLayerConic`: around `startPoint`, `t = 0` in the direction of `endPoint`,
  /// increasing from the +x axis towards the +y axis (clockwise on a y-down screen) to 1 after a
  /// full turn.
  case conic
}
