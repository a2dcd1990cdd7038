import Segue
import SegueRender
import Testing

private let red = try! RGBAColor(red: 1, green: 0, blue: 0)
private let blue = try! RGBAColor(red: 0, green: 0, blue: 1)

/// Layers cut by depth sorting, in pixels: both rasterisers draw each piece where its region
/// holds the pixel's centre, so the pieces of a layer share out its pixels exactly.
@Suite("Depth order in pixels")
struct DepthOrderRenderTests {
  /// A 400 × 400 stage with a perspective of 500: `a` (red, 200 × `aHeight`) turned +0.5 rad about
  /// y, centred at (200, 200), and `b` (blue, 200 × 200) turned −0.5 rad about a slanted axis,
  /// centred at (207.3, 200): they cross along a slanted line near x = 200 (not on pixel
  /// edges), `a`'s left part and `b`'s right part nearer the viewer.
  static func crossing(aHeight: Double = 200, only: String? = nil) throws -> TransitionScene {
    var tree = LayerTree()
    var stage = Layer(
      id: "P", bounds: Rect(x: 0, y: 0, width: 400, height: 400),
      position: Point(x: 200, y: 200))
    stage.sublayerTransform = .makePerspective(distance: 500)
    try tree.add(stage)
    let layers = [
      ("a", aHeight, 200.0, Transform3D.makeRotation(by: 0.5, x: 0, y: 1, z: 0), red),
      ("b", 200, 207.3, Transform3D.makeRotation(by: -0.5, x: 0.15, y: 1, z: 0), blue),
    ]
    for (id, height, x, transform, color) in layers where only == nil || only == id {
      try tree.add(
        Layer(
          id: id, bounds: Rect(x: 0, y: 0, width: 200, height: height),
          position: Point(x: x, y: 200), transform: transform, backgroundColor: color),
        parent: "P")
    }
    return try TransitionScene(
      duration: 1, containerSize: Size(width: 400, height: 400), model: tree,
      animations: AnimationSet())
  }

  static func pixel(_ image: PixelBufferRGBA8, _ x: Int, _ y: Int) -> [UInt8] {
    Array(image.components[(y * image.stride + 4 * x)..<(y * image.stride + 4 * x + 4)])
  }

  /// The X at 0.5 px/pt: red left of the crossing line, blue right of it, on the middle row,
  /// with both rasterisers (within 2/255 of each other everywhere).
  @Test func crossingLayersShowTheNearerHalves() throws {
    let scene = try Self.crossing()
    let sample = try scene.sample(at: 0)
    let tree = scene.presentation(at: 0)
    let renderer = SceneRenderer(scale: 0.5)
    let fast = try renderer.render(sample, presentation: tree, containerSize: scene.containerSize)
    let reference = try renderer.referenceRender(
      sample, presentation: tree, containerSize: scene.containerSize)
    #expect(maxChannelDifference(fast, reference) <= 2)
    for image in [fast, reference] {
      #expect(Self.pixel(image, 75, 100) == [255, 0, 0, 255])
      #expect(Self.pixel(image, 125, 100) == [0, 0, 255, 255])
    }
  }

  /// Where nothing lies between the pieces of `b` (rows above and below the shorter `a`), the
  /// cut leaves no seam: at 0.5 px/pt those rows are exactly `b` drawn alone.
  @Test func piecesLeaveNoSeam() throws {
    let renderer = SceneRenderer(scale: 0.5)
    let cut = try renderer.render(Self.crossing(aHeight: 60), at: 0)
    let alone = try renderer.render(Self.crossing(only: "b"), at: 0)
    let cutReference = try renderer.referenceRender(
      try Self.crossing(aHeight: 60).sample(at: 0),
      presentation: try Self.crossing(aHeight: 60).presentation(at: 0),
      containerSize: Size(width: 400, height: 400))
    // a spans y ≈ 170…230 points on screen (pixel rows 85…115); rows 55…80 and 120…145 show
    // only b.
    for y in Array(55..<80) + Array(120..<145) {
      for x in 50..<150 {
        #expect(Self.pixel(cut, x, y) == Self.pixel(alone, x, y), "(\(x), \(y))")
        #expect(Self.pixel(cutReference, x, y) == Self.pixel(alone, x, y), "(\(x), \(y))")
      }
    }
  }

  /// A turned layer drawn as two pieces with complementary regions gives the image of the whole
  /// layer: exactly with the reference rasteriser, within 1/255 with the fast one.
  @Test func complementaryPiecesTileTheLayer() throws {
    let snapshot = LayerSnapshot(
      bounds: Rect(x: 0, y: 0, width: 60, height: 40), fill: .solid(blue), cornerRadius: 6,
      border: .init(width: 3, color: red))
    let matrix = Transform3D.makeRotation(by: 0.4, x: 0, y: 0, z: 1)
      .concatenating(.makeRotation(by: 0.5, x: 1, y: 0.3, z: 0))
      .concatenating(.makeTranslation(x: 50, y: 45, z: 0))
    let cut = HalfPlane(a: 0.7, b: -0.4, c: -9.3, includesBoundary: false)
    let whole = RasterLayer(snapshot: snapshot, matrix: matrix)
    var front = whole
    front.region = ConvexRegion(halfPlanes: [cut])
    var back = whole
    back.region = ConvexRegion(halfPlanes: [cut.complement])
    let size = (width: 100, height: 90)
    let expected = try ReferenceRasterizer.render(
      [.layer(whole)], width: size.width, height: size.height, background: .white)
    let pieces = try ReferenceRasterizer.render(
      [.layer(front), .layer(back)], width: size.width, height: size.height, background: .white)
    #expect(maxComponentDifference(expected, pieces) == 0)
    let fast = try Rasterizer.render(
      [.layer(front), .layer(back)], width: size.width, height: size.height, background: .white)
    #expect(maxComponentDifference(expected, fast) <= 1 / 255)
    let frontOnly = try ReferenceRasterizer.render(
      [.layer(front)], width: size.width, height: size.height, background: .white)
    #expect(maxComponentDifference(expected, frontOnly) > 0.5)
  }

  /// A region with a NaN coefficient is rejected by both rasterisers, naming `region`.
  @Test func nonFiniteRegionIsRejected() throws {
    var layer = RasterLayer(
      snapshot: LayerSnapshot(bounds: Rect(x: 0, y: 0, width: 10, height: 10), fill: .solid(red)))
    layer.region = ConvexRegion(halfPlanes: [
      HalfPlane(a: 1, b: 0, c: 0, includesBoundary: true),
      HalfPlane(a: .nan, b: 0, c: 0, includesBoundary: true),
    ])
    let expected = ValidationError(field: "region", index: 1, reason: .notFinite)
    var buffer = try PixelBufferRGBAFloat(width: 10, height: 10)
    #expect(throws: expected) { try ReferenceRasterizer.draw(layer, into: &buffer) }
    #expect(throws: expected) { try Rasterizer.draw(layer, into: &buffer) }
  }
}

extension DepthOrderRenderTests {
  /// The SVG filmstrip draws each piece of a cut layer as its own polygon, in draw order: `b`'s
  /// far piece, `a`, `b`'s near piece (blue, red, blue), the pieces' vertices the library's
  /// polygons through `b`'s matrix.
  @Test func svgFilmstripDrawsThePieces() throws {
    let scene = try Self.crossing()
    let text = try Filmstrip(renderer: SceneRenderer(), captions: false).svg(scene, times: [0]).text
    let fills = text.split(separator: "\n").filter { $0.hasPrefix("<polygon") }.map { line in
      line.contains("#0000ff") ? "b" : (line.contains("#ff0000") ? "a" : "?")
    }
    #expect(fills == ["b", "a", "b"])
    let sample = try scene.sample(at: 0)
    let b = try #require(sample["b"])
    let first = b.matrix.mapPolygon(b.pieces[0].polygon)
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("<polygon") })
    let listed = "\(SVGDocumentNumbers.text(first[0].x)),\(SVGDocumentNumbers.text(first[0].y))"
    #expect(line.contains("points=\"" + listed))
  }
}

/// Numbers as the SVG writer prints them (shortest round-trip, no trailing `.0`).
enum SVGDocumentNumbers {
  static func text(_ v: Double) -> String {
    var s = v.description
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
  }
}
