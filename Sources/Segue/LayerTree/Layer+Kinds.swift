/// Layers of Core Animation's drawing classes, made as UIKit code makes them: a frame in the
/// superlayer, then the class's own properties. Each frame becomes `bounds = (0, 0, width,
/// height)` and `position` = the frame's centre (anchor point `(0.5, 0.5)`), so paths, text and
/// gradient points are in the frame's own coordinates.
extension Layer {
  /// A `CATextLayer` showing `string`; what is not given has `CATextLayer`'s default (36-point
  /// Helvetica in white, natural alignment, no wrapping, no truncation).
  public static func textLayer(
    id: String, frame: Rect, string: String, font: FontDescriptor = .helvetica,
    fontSize: Double = TextLayerProperties.defaultFontSize, foregroundColor: RGBAColor = .white,
    alignmentMode: TextAlignmentMode = .natural, isWrapped: Bool = false,
    truncationMode: TextTruncationMode = .none, contentsScale: Double = 1
  ) -> Layer {
    var layer = Layer(id: id, frame: frame)
    layer.contentsScale = contentsScale
    layer.kind = .text(
      TextLayerProperties(
        string: string, font: font, fontSize: fontSize, foregroundColor: foregroundColor,
        alignmentMode: alignmentMode, isWrapped: isWrapped, truncationMode: truncationMode))
    return layer
  }

  /// A `CAShapeLayer` drawing `path` (in the frame's coordinates); what is not given has
  /// `CAShapeLayer`'s default (an opaque black fill, no stroke, 1-point butt-capped mitred
  /// lines).
  public static func shapeLayer(
    id: String, frame: Rect, path: BezierPath?, fillColor: RGBAColor? = .black,
    fillRule: FillRule = .nonZero, strokeColor: RGBAColor? = nil, lineWidth: Double = 1,
    lineCap: LineCap = .butt, lineJoin: LineJoin = .miter,
    miterLimit: Double = ShapeLayerProperties.defaultMiterLimit, lineDashPattern: [Double] = [],
    lineDashPhase: Double = 0, strokeStart: Double = 0, strokeEnd: Double = 1
  ) -> Layer {
    var layer = Layer(id: id, frame: frame)
    layer.kind = .shape(
      ShapeLayerProperties(
        path: path, fillColor: fillColor, fillRule: fillRule, strokeColor: strokeColor,
        lineWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit,
        lineDashPattern: lineDashPattern, lineDashPhase: lineDashPhase,
        strokeStart: strokeStart, strokeEnd: strokeEnd))
    return layer
  }

  /// A `CAGradientLayer` of `colors`; what is not given has `CAGradientLayer`'s default (axial,
  /// evenly spaced stops, top centre to bottom centre).
  public static func gradientLayer(
    id: String, frame: Rect, colors: [RGBAColor], locations: [Double]? = nil,
    startPoint: Point = GradientLayerProperties.defaultStartPoint,
    endPoint: Point = GradientLayerProperties.defaultEndPoint, type: GradientType = .axial
  ) -> Layer {
    var layer = Layer(id: id, frame: frame)
    layer.kind = .gradient(
      GradientLayerProperties(
        type: type, colors: colors, locations: locations, startPoint: startPoint,
        endPoint: endPoint))
    return layer
  }

  /// A layer showing an image as its `contents`, as a `UIImageView`'s layer does; the gravity is
  /// `CALayer`'s default, `resize` (`UIView.ContentMode.scaleToFill`), unless given.
  public static func imageLayer(
    id: String, frame: Rect, contents: ContentsImage,
    contentsGravity: ContentsGravity = .resize, contentsScale: Double = 1
  ) -> Layer {
    var layer = Layer(id: id, frame: frame)
    layer.contents = contents
    layer.contentsGravity = contentsGravity
    layer.contentsScale = contentsScale
    return layer
  }

  /// A plain layer named `id` placed at `frame` (anchor point `(0.5, 0.5)`).
  init(id: String, frame: Rect) {
    self.init(
      id: id, bounds: Rect(x: 0, y: 0, width: frame.width, height: frame.height),
      position: Point(x: frame.midX, y: frame.midY))
  }
}
