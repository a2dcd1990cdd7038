import Segue
import Testing

/// The layer model's contents and kinds: `CALayer.contents` and its placement, `CATextLayer`,
/// `CAShapeLayer` and `CAGradientLayer` properties, their defaults, validation (every rejected
/// value), the presented clamps, and which key paths apply to which class.
@Suite("Layer contents and kinds")
struct LayerContentTests {
  static let frame = Rect(x: 10, y: 20, width: 100, height: 50)

  static func square(_ side: Double, at origin: Double = 0) throws -> BezierPath {
    var p = BezierPath()
    try p.move(to: Point(x: origin, y: origin))
    try p.addLine(to: Point(x: origin + side, y: origin))
    try p.addLine(to: Point(x: origin + side, y: origin + side))
    try p.addLine(to: Point(x: origin, y: origin + side))
    try p.closeSubpath()
    return p
  }

  /// The defaults are Core Animation's: resize gravity, unit rectangles, scale 1, linear filters;
  /// 36-point white text; an opaque black fill and no stroke; an axial gradient from the top
  /// centre to the bottom centre.
  @Test func defaultsAreCoreAnimations() {
    let layer = Layer(id: "a")
    #expect(layer.contents == nil && layer.contentsGravity == .resize)
    #expect(layer.contentsRect == Rect(x: 0, y: 0, width: 1, height: 1))
    #expect(layer.contentsCenter == .unit && layer.contentsScale == 1)
    #expect(layer.minificationFilter == .linear && layer.magnificationFilter == .linear)
    #expect(layer.kind == .plain && layer.kind.className == "CALayer")
    let text = TextLayerProperties()
    #expect(text.fontSize == 36 && text.foregroundColor == .white && text.string.isEmpty)
    #expect(text.alignmentMode == .natural && !text.isWrapped && text.truncationMode == .none)
    let shape = ShapeLayerProperties()
    #expect(shape.fillColor == .black && shape.strokeColor == nil && shape.lineWidth == 1)
    #expect(shape.miterLimit == 10 && shape.strokeStart == 0 && shape.strokeEnd == 1)
    #expect(shape.lineCap == .butt && shape.lineJoin == .miter && shape.fillRule == .nonZero)
    let gradient = GradientLayerProperties()
    #expect(gradient.type == .axial && gradient.colors.isEmpty && gradient.locations == nil)
    #expect(gradient.startPoint == Point(x: 0.5, y: 0) && gradient.endPoint == Point(x: 0.5, y: 1))
  }

  /// The factories place the layer as UIKit's `frame` does: bounds at the origin with the frame's
  /// size, position at the frame's centre; and they set the class's properties.
  @Test func factoriesPlaceTheFrame() throws {
    let path = try Self.square(10)
    let layers = [
      Layer.textLayer(id: "t", frame: Self.frame, string: "Title", fontSize: 17),
      Layer.shapeLayer(id: "s", frame: Self.frame, path: path, strokeColor: .black),
      Layer.gradientLayer(id: "g", frame: Self.frame, colors: [.black, .white]),
      Layer.imageLayer(
        id: "i", frame: Self.frame, contents: .file("a.png"), contentsGravity: .resizeAspect,
        contentsScale: 2),
    ]
    for layer in layers {
      #expect(layer.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
      #expect(layer.position == Point(x: 60, y: 45))
      try layer.validate()
    }
    #expect(
      layers.map(\.kind.className) == ["CATextLayer", "CAShapeLayer", "CAGradientLayer", "CALayer"])
    guard case .text(let text) = layers[0].kind, case .shape(let shape) = layers[1].kind else {
      Issue.record("kinds")
      return
    }
    #expect(text.string == "Title" && text.fontSize == 17)
    #expect(shape.path == path && shape.strokeColor == .black)
    #expect(layers[3].contents == .file("a.png") && layers[3].contentsScale == 2)
  }

  /// Every unusable value is a typed error naming its field (and index).
  @Test func everyRejectedValueIsNamed() throws {
    func error(_ change: (inout Layer) -> Void) -> ValidationError? {
      var layer = Layer(id: "a")
      change(&layer)
      do {
        try layer.validate()
        return nil
      } catch { return error }
    }
    #expect(error { $0.contents = .file("") }?.field == "contents")
    #expect(error { $0.contents = .named("") }?.field == "contents")
    #expect(error { $0.contents = .file("a\0b") }?.field == "contents")
    #expect(
      error { $0.contentsRect = Rect(x: 0, y: .nan, width: 1, height: 1) }
        == ValidationError(field: "contentsRect", index: 1, reason: .notFinite))
    #expect(
      error { $0.contentsCenter = Rect(x: 0, y: 0, width: .infinity, height: 1) }
        == ValidationError(field: "contentsCenter", index: 2, reason: .notFinite))
    #expect(error { $0.contentsScale = 0 }?.field == "contentsScale")
    #expect(error { $0.contentsScale = -1 }?.field == "contentsScale")
    #expect(error { $0.contentsScale = .nan }?.field == "contentsScale")
    #expect(
      error { $0.kind = .text(TextLayerProperties(fontSize: .nan)) }
        == ValidationError(field: "fontSize", reason: .notFinite))
    #expect(error { $0.kind = .text(TextLayerProperties(font: .name(""))) }?.field == "font")
    #expect(
      error {
        $0.kind = .text(TextLayerProperties(font: .family("", weight: .bold, isItalic: false)))
      }?
      .field == "font")
    #expect(
      error { $0.kind = .text(TextLayerProperties(font: .file(path: "f.ttf", faceIndex: -1))) }
        == ValidationError(field: "font", reason: .negative))
    for (field, shape) in [
      ("lineWidth", ShapeLayerProperties(lineWidth: .infinity)),
      ("miterLimit", ShapeLayerProperties(miterLimit: .nan)),
      ("lineDashPhase", ShapeLayerProperties(lineDashPhase: .nan)),
      ("strokeStart", ShapeLayerProperties(strokeStart: .nan)),
      ("strokeEnd", ShapeLayerProperties(strokeEnd: -.infinity)),
    ] {
      #expect(
        error { $0.kind = .shape(shape) } == ValidationError(field: field, reason: .notFinite))
    }
    #expect(
      error { $0.kind = .shape(ShapeLayerProperties(lineDashPattern: [4, -1])) }
        == ValidationError(field: "lineDashPattern", index: 1, reason: .negative))
    #expect(
      error { $0.kind = .gradient(GradientLayerProperties(colors: [.black], locations: [0, 1])) }
        == ValidationError(field: "locations", reason: .countMismatch(expected: 1, actual: 2)))
    #expect(
      error {
        $0.kind = .gradient(
          GradientLayerProperties(colors: [.black, .white], locations: [0, .nan]))
      } == ValidationError(field: "locations", index: 1, reason: .notFinite))
    #expect(
      error { $0.kind = .gradient(GradientLayerProperties(endPoint: Point(x: 0, y: .nan))) }
        == ValidationError(field: "endPoint", index: 1, reason: .notFinite))
  }

  /// Out-of-range but finite values are stored, and presented clamped: a negative font size or
  /// line width as 0, stroke ends in `[0, 1]`, locations of another length than the colours as
  /// evenly spaced stops.
  @Test func presentedValuesAreClamped() throws {
    var b = SceneBuilder()
    try b.add(Layer.textLayer(id: "t", frame: Self.frame, string: "x", fontSize: -3))
    try b.add(
      Layer.shapeLayer(
        id: "s", frame: Self.frame, path: try Self.square(1), lineWidth: -2, strokeStart: -0.5,
        strokeEnd: 1.5))
    try b.add(
      Layer.gradientLayer(
        id: "g", frame: Self.frame, colors: [.black, .white, .black], locations: [0, 0.2, 1]))
    // An animation of two colours over a layer with three locations: the locations no longer
    // fit, and are presented evenly spaced.
    var animations = b.animations
    animations.add(
      try LayerAnimation(
        property: .colors,
        content: .basic(from: .colorList([.black, .white]), to: .colorList([.white, .black])),
        timing: MediaTiming(duration: 1)),
      to: "g")
    let scene = try TransitionScene(
      duration: 1, containerSize: Size(width: 200, height: 200), model: b.model,
      animations: animations)
    let sample = try scene.sample(at: 0.5)
    guard case .text(let text)? = sample["t"]?.kind, case .shape(let shape)? = sample["s"]?.kind,
      case .gradient(let gradient)? = sample["g"]?.kind
    else {
      Issue.record("kinds")
      return
    }
    #expect(text.fontSize == 0)
    #expect(shape.lineWidth == 0 && shape.strokeStart == 0 && shape.strokeEnd == 1)
    #expect(gradient.colors.count == 2 && gradient.locations == nil)
    #expect(gradient.effectiveLocations == [0, 1])
  }

  /// `effectiveLocations`: the given list when it has one entry per colour, else `i / (n − 1)`.
  @Test func effectiveLocations() {
    #expect(GradientLayerProperties().effectiveLocations == [])
    #expect(GradientLayerProperties(colors: [.black]).effectiveLocations == [0])
    #expect(
      GradientLayerProperties(colors: [.black, .white, .black, .white]).effectiveLocations
        == [0, 1.0 / 3, 2.0 / 3, 1])
    #expect(
      GradientLayerProperties(colors: [.black, .white], locations: [0.2, 0.7]).effectiveLocations
        == [0.2, 0.7])
  }

  /// A text, shape or gradient property applies only to a layer of that class: setting it on
  /// another is an error naming both classes; `CALayer` properties apply to every kind.
  @Test func propertiesApplyToTheirClass() throws {
    var plain = Layer(id: "p")
    #expect {
      try LayerProperty.strokeEnd.set(.number(0.5), in: &plain)
    } throws: { error in
      guard let error = error as? ValidationError, case .invalidState(let why) = error.reason
      else { return false }
      return error.field == "keyPath" && why.contains("CAShapeLayer") && why.contains("CALayer")
    }
    var text = Layer.textLayer(id: "t", frame: Self.frame, string: "x")
    #expect(throws: ValidationError.self) {
      try LayerProperty.colors.set(.colorList([]), in: &text)
    }
    #expect(throws: ValidationError.self) {
      try LayerProperty.fontSize.set(.color(.black), in: &text)
    }
    try LayerProperty.fontSize.set(.number(20), in: &text)
    try LayerProperty.contentsScale.set(.number(3), in: &text)
    try LayerProperty.opacity.set(.number(0.5), in: &text)
    guard case .text(let properties) = text.kind else {
      Issue.record("kind")
      return
    }
    #expect(properties.fontSize == 20 && text.contentsScale == 3 && text.opacity == 0.5)
    // Read on another class, a property reads as that class's default.
    #expect(LayerProperty.strokeEnd.value(in: plain) == .number(1))
    #expect(LayerProperty.fillColor.value(in: plain) == .color(.black))
    #expect(LayerProperty.locations.value(in: plain) == .numberList([]))
  }

  /// Writing then reading every content property gives the value back, on a layer of its class.
  @Test func contentPropertiesRoundTrip() throws {
    let red = try RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    let cases: [(Layer, LayerProperty, AnimationValue)] = [
      (Layer(id: "a"), .contentsRect, .rect(Rect(x: 0.5, y: 0, width: 0.5, height: 1))),
      (Layer(id: "a"), .contentsCenter, .rect(Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))),
      (Layer(id: "a"), .contentsScale, .number(3)),
      (Layer.textLayer(id: "t", frame: Self.frame, string: "x"), .fontSize, .number(12)),
      (Layer.textLayer(id: "t", frame: Self.frame, string: "x"), .foregroundColor, .color(red)),
      (Layer.shapeLayer(id: "s", frame: Self.frame, path: nil), .path, .path(try Self.square(3))),
      (Layer.shapeLayer(id: "s", frame: Self.frame, path: nil), .fillColor, .color(red)),
      (Layer.shapeLayer(id: "s", frame: Self.frame, path: nil), .strokeColor, .color(red)),
      (Layer.shapeLayer(id: "s", frame: Self.frame, path: nil), .lineWidth, .number(4)),
      (Layer.shapeLayer(id: "s", frame: Self.frame, path: nil), .miterLimit, .number(2)),
      (Layer.shapeLayer(id: "s", frame: Self.frame, path: nil), .lineDashPhase, .number(5)),
      (Layer.shapeLayer(id: "s", frame: Self.frame, path: nil), .strokeStart, .number(0.1)),
      (Layer.shapeLayer(id: "s", frame: Self.frame, path: nil), .strokeEnd, .number(0.9)),
      (Layer.gradientLayer(id: "g", frame: Self.frame, colors: []), .colors, .colorList([red])),
      (
        Layer.gradientLayer(id: "g", frame: Self.frame, colors: [red]), .locations,
        .numberList([0.3])
      ),
      (
        Layer.gradientLayer(id: "g", frame: Self.frame, colors: []), .startPoint,
        .point(Point(x: 0, y: 0))
      ),
      (
        Layer.gradientLayer(id: "g", frame: Self.frame, colors: []), .endPoint,
        .point(Point(x: 1, y: 1))
      ),
    ]
    for (layer, property, value) in cases {
      var written = layer
      try property.set(value, in: &written)
      #expect(property.value(in: written) == value, "\(property)")
      try written.validate()
    }
  }
}
