/// How an open stroke ends (`CAShapeLayerLineCap`, `CGLineCap`).
public enum LineCap: String, Hashable, Sendable, CaseIterable {
  /// `kCALineCapButt` (the default): the stroke stops square at the end point.
  case butt
  /// `kCALineCapRound`: a half disc of diameter `lineWidth` centred on the end point.
  case round
  /// `kCALineCapSquare`: the stroke continues `lineWidth / 2` past the end point, square.
  case square
}
