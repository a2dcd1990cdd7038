/// What a `CAShapeLayer` adds to a layer: a path, its fill and its stroke, with Core Animation's
/// defaults. The path is in the layer's own coordinates (points, y-down) and is not clipped to
/// the bounds; the stroke is drawn over the fill.
public struct ShapeLayerProperties: Hashable, Sendable {
  /// `path`; default `nil` (nothing drawn). Animatable between paths with the same elements
  /// (``BezierPath/interpolated(to:fraction:)``).
  public var path: BezierPath?
  /// `fillColor`, straight RGBA, or `nil` for no fill; default opaque black. Animatable (a `nil`
  /// end animates as ``RGBAColor/clear``).
  public var fillColor: RGBAColor?
  /// `fillRule`; default ``FillRule/nonZero``.
  public var fillRule: FillRule
  /// `strokeColor`, or `nil` for no stroke; default `nil`. Animatable (as ``fillColor``).
  public var strokeColor: RGBAColor?
  /// `lineWidth`, points; default 1. Animatable. Any finite value is stored; it is presented at
  /// `max(0, lineWidth)`.
  public var lineWidth: Double
  /// `lineCap`; default ``LineCap/butt``.
  public var lineCap: LineCap
  /// `lineJoin`; default ``LineJoin/miter``.
  public var lineJoin: LineJoin
  /// `miterLimit`, a multiple of the line width; default 10. Animatable.
  public var miterLimit: Double
  /// `lineDashPattern`: lengths in points, alternately drawn and skipped (an odd count repeats
  /// twice); each `≥ 0`. Default empty (Core Animation's `nil`): a solid line.
  public var lineDashPattern: [Double]
  /// `lineDashPhase`, points into the pattern where each subpath starts; default 0. Animatable.
  public var lineDashPhase: Double
  /// `strokeStart`, a fraction of the path's length; default 0. Animatable. Any finite value is
  /// stored; it is presented clamped to `[0, 1]`.
  public var strokeStart: Double
  /// `strokeEnd`; default 1. Animatable; presented clamped to `[0, 1]`.
  public var strokeEnd: Double

  /// `CAShapeLayer`'s default `miterLimit`, 10.
  public static let defaultMiterLimit = 10.0

  /// Shape layer properties; what is not given has `CAShapeLayer`'s default.
  public init(
    path: BezierPath? = nil, fillColor: RGBAColor? = .black, fillRule: FillRule = .nonZero,
    strokeColor: RGBAColor? = nil, lineWidth: Double = 1, lineCap: LineCap = .butt,
    lineJoin: LineJoin = .miter, miterLimit: Double = defaultMiterLimit,
    lineDashPattern: [Double] = [], lineDashPhase: Double = 0, strokeStart: Double = 0,
    strokeEnd: Double = 1
  ) {
    self.path = path
    self.fillColor = fillColor
    self.fillRule = fillRule
    self.strokeColor = strokeColor
    self.lineWidth = lineWidth
    self.lineCap = lineCap
    self.lineJoin = lineJoin
    self.miterLimit = miterLimit
    self.lineDashPattern = lineDashPattern
    self.lineDashPhase = lineDashPhase
    self.strokeStart = strokeStart
    self.strokeEnd = strokeEnd
  }

  /// Throws the first unusable value: `lineWidth`, `miterLimit`, `lineDashPhase`, `strokeStart`,
  /// `strokeEnd` (``ValidationError/Reason/notFinite``); `lineDashPattern` with the index
  /// (``ValidationError/Reason/notFinite``, ``ValidationError/Reason/negative``). A path is
  /// always finite (``BezierPath`` checks its points).
  public func validate() throws(ValidationError) {
    try Validate.finite(lineWidth, "lineWidth")
    try Validate.finite(miterLimit, "miterLimit")
    for (index, length) in lineDashPattern.enumerated() {
      try Validate.nonNegative(length, "lineDashPattern", index: index)
    }
    try Validate.finite(lineDashPhase, "lineDashPhase")
    try Validate.finite(strokeStart, "strokeStart")
    try Validate.finite(strokeEnd, "strokeEnd")
  }

  /// The presented form: `lineWidth` at least 0, `strokeStart` and `strokeEnd` in `[0, 1]`.
  var presented: ShapeLayerProperties {
    var p = self
    p.lineWidth = Swift.max(lineWidth, 0)
    p.strokeStart = Swift.min(Swift.max(strokeStart, 0), 1)
    p.strokeEnd = Swift.min(Swift.max(strokeEnd, 0), 1)
    return p
  }
}
