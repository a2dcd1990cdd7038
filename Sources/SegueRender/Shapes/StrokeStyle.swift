import Segue

/// The stroke properties of a `CAShapeLayer`, with Core Animation's defaults.
public struct StrokeStyle: Hashable, Sendable {
  /// `lineWidth` in points (`0…10¹²`; 0 draws nothing). Default 1.
  public var lineWidth: Double
  /// `lineCap`. Default `butt`.
  public var lineCap: LineCap
  /// `lineJoin`. Default `miter`.
  public var lineJoin: LineJoin
  /// `miterLimit`: a miter join longer than `miterLimit × lineWidth` (measured from the inner
  /// to the outer corner) is bevelled, as Core Graphics does; below 1 every join is bevelled.
  /// Default 10.
  public var miterLimit: Double
  /// `lineDashPattern`: lengths in points, alternately drawn and skipped, from each subpath's
  /// start; an odd count repeats twice (`[a]` is `[a, a]`); empty, or all zeros, is a solid
  /// line. Each `≥ 0`. Default empty.
  public var lineDashPattern: [Double]
  /// `lineDashPhase`: how far into the pattern each subpath starts, in points (taken modulo
  /// the pattern's length, so negative values count back). Default 0.
  public var lineDashPhase: Double
  /// `strokeStart`, a fraction of the whole path's length (clamped to `[0, 1]`). Default 0.
  public var strokeStart: Double
  /// `strokeEnd`, likewise (default 1); nothing is drawn unless `strokeStart < strokeEnd`.
  public var strokeEnd: Double

  /// The largest accepted `lineWidth`, in points.
  public static let maximumLineWidth = 1e12

  /// A style; what is not given has Core Animation's default.
  public init(
    lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter,
    miterLimit: Double = 10, lineDashPattern: [Double] = [], lineDashPhase: Double = 0,
    strokeStart: Double = 0, strokeEnd: Double = 1
  ) {
    self.lineWidth = lineWidth
    self.lineCap = lineCap
    self.lineJoin = lineJoin
    self.miterLimit = miterLimit
    self.lineDashPattern = lineDashPattern
    self.lineDashPhase = lineDashPhase
    self.strokeStart = strokeStart
    self.strokeEnd = strokeEnd
  }

  /// Throws unless every value is usable.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `lineWidth` (`.notFinite`, `.negative`,
  ///   `.outOfRange` above ``maximumLineWidth``), `miterLimit`, `lineDashPhase`, `strokeStart`,
  ///   `strokeEnd` (`.notFinite`), `lineDashPattern` with the index (`.notFinite`, `.negative`).
  public func validate() throws(ValidationError) {
    try Validate.nonNegative(lineWidth, "lineWidth")
    try Validate.inRange(lineWidth, 0, Self.maximumLineWidth, "lineWidth")
    try Validate.finite(miterLimit, "miterLimit")
    for (index, length) in lineDashPattern.enumerated() {
      try Validate.nonNegative(length, "lineDashPattern", index: index)
    }
    try Validate.finite(lineDashPhase, "lineDashPhase")
    try Validate.finite(strokeStart, "strokeStart")
    try Validate.finite(strokeEnd, "strokeEnd")
  }

  /// The dash pattern as drawn: doubled when its count is odd, empty when it draws a solid
  /// line.
  var effectiveDashes: [Double] {
    guard lineDashPattern.contains(where: { $0 > 0 }) else { return [] }
    return lineDashPattern.count % 2 == 1 ? lineDashPattern + lineDashPattern : lineDashPattern
  }
}

extension StrokeStyle {
  /// The stroke of a shape layer: its eight stroke properties as they are (the layer's
  /// `strokeColor` and fill are drawn by the caller).
  public init(_ shape: ShapeLayerProperties) {
    self.init(
      lineWidth: shape.lineWidth, lineCap: shape.lineCap, lineJoin: shape.lineJoin,
      miterLimit: shape.miterLimit, lineDashPattern: shape.lineDashPattern,
      lineDashPhase: shape.lineDashPhase, strokeStart: shape.strokeStart,
      strokeEnd: shape.strokeEnd)
  }
}
