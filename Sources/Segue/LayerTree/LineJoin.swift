/// How a stroke turns a corner (`CAShapeLayerLineJoin`, `CGLineJoin`).
public enum LineJoin: String, Hashable, Sendable, CaseIterable {
  /// `kCALineJoinMiter` (the default): the outer edges extended until they meet, unless the
  /// miter is longer than `miterLimit × lineWidth`, when the corner is bevelled.
  case miter
  /// `kCALineJoinRound`: a disc of diameter `lineWidth` at the corner.
  case round
  /// `kCALineJoinBevel`: the outer corners joined by a straight line.
  case bevel
}
