import Foundation
import Segue
import SegueRender
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

private let red = try! RGBAColor(red: 1, green: 0, blue: 0)
private let blue = try! RGBAColor(red: 0, green: 0, blue: 1)
private let green = try! RGBAColor(red: 0, green: 1, blue: 0)
private let size = Size(width: 80, height: 60)

/// A 4 × 3 opaque image: texel `(i, j)` is `(40 + 50i, 30 + 60j, 200 − 20i)`.
private func photo() throws -> BitmapImage {
  var bytes: [UInt8] = []
  for j in 0..<3 {
    for i in 0..<4 { bytes += [UInt8(40 + 50 * i), UInt8(30 + 60 * j), UInt8(200 - 20 * i), 255] }
  }
  return try BitmapImage(pixels: PixelBufferRGBA8(width: 4, height: 3, components: bytes))
}

/// A push whose **from** view holds an image layer, three gradient layers, a shape and a text
/// layer, each 16 × 12 points in a row; `transform` is given to the image layer.
private func scene(photoTransform: Transform3D = .identity) throws -> TransitionScene {
  var image = Layer.imageLayer(
    id: "photo", frame: Rect(x: 4, y: 4, width: 16, height: 12), contents: .named("photo"))
  image.transform = photoTransform
  var square = BezierPath()
  try square.move(to: Point(x: 0, y: 0))
  try square.addLine(to: Point(x: 10, y: 0))
  try square.addLine(to: Point(x: 10, y: 10))
  try square.closeSubpath()
  let layers = [
    image,
    Layer.gradientLayer(
      id: "axial", frame: Rect(x: 24, y: 4, width: 16, height: 12), colors: [red, blue]),
    Layer.gradientLayer(
      id: "radial", frame: Rect(x: 44, y: 4, width: 16, height: 12), colors: [red, green, blue],
      locations: [-0.5, 0.5, 1.5], startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 1, y: 1),
      type: .radial),
    Layer.gradientLayer(
      id: "conic", frame: Rect(x: 4, y: 24, width: 16, height: 12), colors: [red, blue],
      startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 1, y: 0.5), type: .conic),
    Layer.shapeLayer(
      id: "shape", frame: Rect(x: 24, y: 24, width: 16, height: 12), path: square,
      fillColor: green, strokeColor: blue, lineWidth: 2),
    Layer.textLayer(
      id: "title", frame: Rect(x: 44, y: 24, width: 30, height: 20), string: "Hi",
      fontSize: 12, foregroundColor: .black),
  ]
  return try push(from: layers)
}

/// The system push of a white **from** view holding `layers` (masking them with
/// `masksToBounds`) onto a blue **to** view.
private func push(from layers: [Layer], masksToBounds: Bool = false) throws -> TransitionScene {
  var from = LayerTree()
  var view = TransitionContext.viewLayer("from", containerSize: size, color: .white)
  view.masksToBounds = masksToBounds
  try from.add(view)
  for layer in layers { try from.add(layer, parent: "from") }
  var to = LayerTree()
  try to.add(TransitionContext.viewLayer("to", containerSize: size, color: blue))
  let context = try TransitionContext(
    operation: .push, containerSize: size, fromView: from, toView: to)
  return try PresetAnimator(.system).animateTransition(using: context)
}

private func filmstrip() throws -> Filmstrip {
  var images = ContentsImages()
  images.insert(try photo(), for: .named("photo"))
  return Filmstrip(renderer: SceneRenderer(images: images), captions: false)
}

/// Every element name of a well-formed document, with its attributes, in document order.
private final class ElementList: NSObject, XMLParserDelegate {
  var elements: [(name: String, attributes: [String: String])] = []

  static func parse(_ text: String) throws -> ElementList {
    let list = ElementList()
    let parser = XMLParser(data: Data(text.utf8))
    parser.delegate = list
    #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
    return list
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    elements.append((name, attributes))
  }

  func named(_ name: String) -> [[String: String]] {
    elements.filter { $0.name == name }.map(\.attributes)
  }
}

/// The bytes of a `data:image/png;base64,` URI.
private func pngBytes(_ uri: String?) throws -> [UInt8] {
  let prefix = "data:image/png;base64,"
  let text = try #require(uri)
  try #require(text.hasPrefix(prefix))
  return [UInt8](try #require(Data(base64Encoded: String(text.dropFirst(prefix.count)))))
}

@Suite("Filmstrip SVG layers")
struct FilmstripSVGLayersTests {
  /// The push at 0 s (the **from** view at rest, matrices the identity): the image embedded
  /// once for two frames and shown by a nested viewport per frame under `matrix(1 0 0 1 4 4)`;
  /// its PNG decodes to the image's pixels.
  @Test func imageIsEmbeddedOnceAndPlacedByItsMatrix() throws {
    let text = try filmstrip().svg(scene(), times: [0, 0]).text
    let list = try ElementList.parse(text)
    let images = list.named("image").filter { $0["id"] != nil }
    try #require(images.count == 1)
    #expect(images[0]["id"] == "image-0")
    #expect(images[0]["width"] == "4" && images[0]["height"] == "3")
    let decoded = try BitmapImage(decoding: pngBytes(images[0]["xlink:href"]))
    #expect(decoded.pixels == (try photo()).pixels)
    #expect(list.named("use").map { $0["xlink:href"] } == ["#image-0", "#image-0"])
    #expect(
      text.contains(
        "<g transform=\"matrix(1 0 0 1 4 4)\"><svg x=\"0\" y=\"0\" width=\"16\" height=\"12\" "
          + "viewBox=\"0 0 4 3\" preserveAspectRatio=\"none\"><use xlink:href=\"#image-0\"/>"
          + "</svg></g>"))
  }

  /// Axial: `x1 y1 x2 y2` are `S = (8, 0)`, `E = (8, 12)` in the layer's 16 × 12 bounds; stops
  /// red at 0 (twice: the colour at 0, then the stop) and blue at 1. Radial: the unit circle
  /// mapped to the ellipse `rx = 8, ry = 6` at `S = (8, 6)`; the colour at 0 is halfway between
  /// red (−0.5) and green (0.5), at 1 halfway between green and blue (1.5).
  @Test func gradientsAreUserSpacePaintServers() throws {
    let list = try ElementList.parse(try filmstrip().svg(scene(), times: [0]).text)
    let linear = try #require(list.named("linearGradient").first)
    #expect(linear["gradientUnits"] == "userSpaceOnUse")
    #expect(
      [linear["x1"], linear["y1"], linear["x2"], linear["y2"]] == ["8", "0", "8", "12"])
    let radial = try #require(list.named("radialGradient").first)
    #expect(radial["gradientTransform"] == "matrix(8 0 0 6 8 6)")
    let stops = list.named("stop").map { "\($0["offset"]!) \($0["stop-color"]!)" }
    #expect(
      stops == [
        "0 #ff0000", "0 #ff0000", "1 #0000ff", "1 #0000ff",
        "0 #808000", "0.5 #00ff00", "1 #008080",
      ])
    #expect(list.named("path").contains { $0["fill"] == "url(#gradient-0-1)" })
  }

  /// The conic gradient has no SVG form: it is the renderer's pixels, one cropped `<image>` at
  /// its pixel position (the layer at (4, 24), 16 × 12).
  @Test func conicGradientIsDrawnByTheRenderer() throws {
    let list = try ElementList.parse(try filmstrip().svg(scene(), times: [0]).text)
    let placed = list.named("image").filter { $0["id"] == nil }
    try #require(placed.count == 1)
    #expect([placed[0]["x"], placed[0]["y"]] == ["4", "24"])
    #expect([placed[0]["width"], placed[0]["height"]] == ["16", "12"])
    let decoded = try BitmapImage(decoding: pngBytes(placed[0]["xlink:href"]))
    #expect(decoded.width == 16 && decoded.height == 12)
  }

  /// Under perspective (a y rotation with `m34`) the image layer is not affine: its contents
  /// are an `<image>` from the renderer and no `<use>` shows the embedded image.
  @Test func perspectiveContentsAreDrawnByTheRenderer() throws {
    var m = Transform3D.identity
    m.m34 = -1 / 100
    let tilted = Transform3D.makeRotation(by: 0.6, x: 0, y: 1, z: 0).concatenating(m)
    let list = try ElementList.parse(
      try filmstrip().svg(scene(photoTransform: tilted), times: [0]).text)
    #expect(list.named("use").isEmpty)
    #expect(list.named("image").filter { $0["id"] == nil }.count == 2)
  }

  /// Text is glyph outlines, not `<text>` (no fonts needed to view it), and the shape's fill
  /// and stroke are paths: no `<text>` element without captions, and the text layer's
  /// foreground colour fills a path.
  @Test func textIsOutlines() throws {
    let list = try ElementList.parse(try filmstrip().svg(scene(), times: [0]).text)
    #expect(list.named("text").isEmpty)
    #expect(list.named("path").contains { $0["fill"] == "#000000" })
    #expect(list.named("path").contains { $0["fill"] == "#00ff00" })
    #expect(list.named("path").contains { $0["fill"] == "#0000ff" && $0["d"] != nil })
  }

  /// A 20 × 10 layer at (4, 4) with a 2-point red border: an even-odd path of its bounds and
  /// its bounds inset by 2.
  @Test func borderIsTheBoundsMinusTheInset() throws {
    var framed = Layer.gradientLayer(
      id: "framed", frame: Rect(x: 4, y: 4, width: 20, height: 10), colors: [])
    framed.borderWidth = 2
    framed.borderColor = red
    let text = try filmstrip().svg(push(from: [framed]), times: [0]).text
    #expect(
      text.contains(
        "<path d=\"M4,4 L24,4 L24,14 L4,14 Z M6,6 L22,6 L22,12 L6,12 Z\" fill-rule=\"evenodd\" "
          + "fill=\"#ff0000\"/>"))
  }

  /// A sublayer of a layer with `masksToBounds` is drawn inside a `<g clip-path>` whose clip
  /// is the ancestor's projected bounds.
  @Test func masksToBoundsClipsSublayers() throws {
    let g = Layer.gradientLayer(
      id: "g", frame: Rect(x: 60, y: 40, width: 40, height: 40), colors: [red, blue])
    let text = try filmstrip().svg(push(from: [g], masksToBounds: true), times: [0]).text
    #expect(
      text.contains(
        "<clipPath id=\"clip-0-1\"><path d=\"M0,0 L80,0 L80,60 L0,60 Z\"/></clipPath>"))
    #expect(text.contains("<g clip-path=\"url(#clip-0-1)\">"))
    _ = try ElementList.parse(text)
  }

  /// A 20 × 10 layer at (4, 4) casting a shadow (opacity 0.5, radius 4, offset (1, 2)): under
  /// the layer's matrix, before its fill, a path of its bounds moved by the offset in black at
  /// alpha 0.5, blurred by an `<feGaussianBlur>` of `σ = 2` over the shape grown by `5σ = 10`.
  @Test func shadowIsABlurredPathUnderTheFill() throws {
    let text = try filmstrip().svg(push(from: [shadowed()]), times: [0]).text
    let list = try ElementList.parse(text)
    let filter = try #require(list.named("filter").first)
    #expect(filter["id"] == "shadow-0-1" && filter["filterUnits"] == "userSpaceOnUse")
    #expect(
      [filter["x"], filter["y"], filter["width"], filter["height"]] == ["-9", "-8", "40", "30"])
    #expect(filter["color-interpolation-filters"] == "sRGB")
    #expect(list.named("feGaussianBlur").map { $0["stdDeviation"] } == ["2"])
    let shadow =
      "<g transform=\"matrix(1 0 0 1 4 4)\"><path d=\"M1,2 L21,2 L21,12 L1,12 Z\" "
      + "fill=\"#000000\" fill-opacity=\"0.5\" filter=\"url(#shadow-0-1)\"/></g>"
    let fill = "<polygon points=\"4,4 24,4 24,14 4,14\""
    let shadowAt = try #require(text.range(of: shadow))
    let fillAt = try #require(text.range(of: fill))
    #expect(shadowAt.upperBound <= fillAt.lowerBound)
  }

  /// Radius 0 is the shape itself (no filter); a layer with `masksToBounds` casts none (it
  /// clips its shadow away, as in Core Animation); under perspective the shadow is the
  /// renderer's image.
  @Test func sharpMaskedAndPerspectiveShadows() throws {
    var sharp = shadowed()
    sharp.shadowRadius = 0
    var list = try ElementList.parse(try filmstrip().svg(push(from: [sharp]), times: [0]).text)
    #expect(list.named("filter").isEmpty)
    #expect(list.named("path").contains { $0["d"] == "M1,2 L21,2 L21,12 L1,12 Z" })
    var masked = shadowed()
    masked.masksToBounds = true
    list = try ElementList.parse(try filmstrip().svg(push(from: [masked]), times: [0]).text)
    #expect(list.named("filter").isEmpty && list.named("path").isEmpty)
    var tilted = shadowed()
    var m = Transform3D.identity
    m.m34 = -1 / 100
    tilted.transform = Transform3D.makeRotation(by: 0.6, x: 0, y: 1, z: 0).concatenating(m)
    list = try ElementList.parse(try filmstrip().svg(push(from: [tilted]), times: [0]).text)
    #expect(list.named("filter").isEmpty)
    #expect(list.named("image").filter { $0["id"] == nil }.count == 1)
  }
}

/// A 20 × 10 red layer at (4, 4) casting a black shadow: opacity 0.5, radius 4, offset (1, 2).
private func shadowed() -> Layer {
  var layer = Layer.gradientLayer(
    id: "shadowed", frame: Rect(x: 4, y: 4, width: 20, height: 10), colors: [])
  layer.backgroundColor = red
  layer.shadowOpacity = 0.5
  layer.shadowRadius = 4
  layer.shadowOffset = Size(width: 1, height: 2)
  return layer
}
