import PropertyBased
import Segue
import SegueRender
import Testing

private func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, clockwise: Bool = true)
  -> Polyline
{
  let points = [
    Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1),
  ]
  return Polyline(points: clockwise ? points : points.reversed(), isClosed: true)
}

private func pathLayer(
  _ fills: [LayerSnapshot.PathFill], matrix: Transform3D = .identity, opacity: Double = 1,
  clips: [ClipShape] = []
) -> RasterLayer {
  RasterLayer(
    snapshot: LayerSnapshot(
      bounds: Rect(x: 0, y: 0, width: 8, height: 8), fill: .solid(.clear), paths: fills),
    matrix: matrix, opacity: opacity, parts: [.paths], clips: clips)
}

private func alpha(_ image: PixelBufferRGBAFloat, _ x: Int, _ y: Int) -> Float {
  image.components[y * image.stride + 4 * x + 3]
}

/// Filled paths (shape fills and strokes, text) drawn by both rasterisers: sample coverage,
/// fill rules, opacity, exact agreement under perspective and clips, shape and text layers in
/// scenes.
@Suite("Layer paths")
struct LayerPathRenderTests {
  /// A square from 1 to 5 covers exactly its pixels; one from 0.5 to 3.5 half covers its edge
  /// pixels (8 of 16 samples) and a quarter its corners.
  @Test(arguments: Engine.allCases)
  func coverageBySamples(engine: Engine) throws {
    let whole = try engine.render(
      [.layer(pathLayer([.init(polygons: [square(1, 1, 5, 5)], color: .black)]))], width: 8,
      height: 8)
    for y in 0..<8 {
      for x in 0..<8 {
        let inside = x >= 1 && x < 5 && y >= 1 && y < 5
        #expect(alpha(whole, x, y) == (inside ? 1 : 0), "\(x), \(y)")
      }
    }
    let half = try engine.render(
      [.layer(pathLayer([.init(polygons: [square(0.5, 0.5, 3.5, 3.5)], color: .black)]))],
      width: 8, height: 8)
    #expect(alpha(half, 1, 1) == 1)
    #expect(alpha(half, 0, 1) == 0.5)
    #expect(alpha(half, 0, 0) == 0.25)
    #expect(alpha(half, 3, 3) == 0.25)
  }

  /// Two nested squares wound the same way: non-zero fills the inner one, even-odd leaves it a
  /// hole; wound opposite ways, non-zero leaves the hole too.
  @Test(arguments: Engine.allCases)
  func fillRules(engine: Engine) throws {
    let outer = square(0, 0, 8, 8)
    for (inner, rule, filled) in [
      (square(2, 2, 6, 6), FillRule.nonZero, true), (square(2, 2, 6, 6), .evenOdd, false),
      (square(2, 2, 6, 6, clockwise: false), .nonZero, false),
    ] {
      let image = try engine.render(
        [.layer(pathLayer([.init(polygons: [outer, inner], fillRule: rule, color: .black)]))],
        width: 8, height: 8)
      #expect(alpha(image, 4, 4) == (filled ? 1 : 0), "\(rule)")
      #expect(alpha(image, 1, 1) == 1)
    }
  }

  /// Random polygons (self-intersecting, both rules) under rotation and perspective, with a
  /// rounded clip and translucent colours: the fast rasteriser decides every sample as the
  /// reference does.
  @Test func fastMatchesTheReference() async {
    await propertyCheck(count: 20, input: Gen.double(in: 0...1).array(of: 24)) { r in
      let points = (0..<10).map { Point(x: r[$0] * 60 - 10, y: r[$0 + 10] * 50 - 10) }
      let fill = LayerSnapshot.PathFill(
        polygons: [Polyline(points: points, isClosed: true), square(5, 5, 30, 20)],
        fillRule: r[20] < 0.5 ? .nonZero : .evenOdd,
        color: try RGBAColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.7))
      var perspective = Transform3D.identity
      perspective.m34 = -1.0 / 150
      let matrix = Transform3D.makeTranslation(x: -20, y: -15, z: 0)
        .concatenating(.makeRotation(by: r[21] * 1.4 - 0.7, x: 0.2, y: 1, z: 0.4))
        .concatenating(perspective)
        .concatenating(.makeTranslation(x: 40, y: 32, z: 0))
      let clip = ClipShape(
        bounds: Rect(x: 8, y: 6, width: 60, height: 48), cornerRadius: 10, matrix: .identity)
      let item = RenderItem.layer(
        pathLayer([fill], matrix: matrix, opacity: 0.8, clips: r[22] < 0.5 ? [clip] : []))
      let fast = try Rasterizer.render([item], width: 80, height: 64, background: .white)
      let reference = try ReferenceRasterizer.render(
        [item], width: 80, height: 64, background: .white)
      #expect(maxComponentDifference(fast, reference) == 0)
    }
  }

  /// Rows with fewer and with more crossings per sample line than the fast rasteriser keeps
  /// sorted (``PathRowCrossings``' 256: the rest take the chunked scan): overlapping bars given
  /// right to left, slightly rotated, under both fill rules, a clip on half of the cases. Every
  /// sample is decided as the reference decides it.
  @Test(arguments: [60, 300], [FillRule.nonZero, .evenOdd])
  func manyCrossingsPerRowMatchTheReference(bars: Int, rule: FillRule) throws {
    let pitch = 396.0 / Double(bars)
    let polygons = (0..<bars).reversed().map { i in
      let x = 2 + Double(i) * pitch
      return square(x, 1 + Double(i % 7) * 0.3, x + 1.5 * pitch, 14)
    }
    let fill = LayerSnapshot.PathFill(polygons: polygons, fillRule: rule, color: .black)
    let matrix = Transform3D.makeRotation(by: 0.01, x: 0, y: 0, z: 1)
    let clip = ClipShape(
      bounds: Rect(x: 20, y: 2, width: 300, height: 12), cornerRadius: 5, matrix: .identity)
    let item = RenderItem.layer(
      pathLayer([fill], matrix: matrix, clips: bars == 60 ? [clip] : []))
    let fast = try Rasterizer.render([item], width: 404, height: 20, background: .white)
    let reference = try ReferenceRasterizer.render(
      [item], width: 404, height: 20, background: .white)
    #expect(maxComponentDifference(fast, reference) == 0)
    let dark = stride(from: 0, to: fast.components.count, by: 4).count { fast.components[$0] < 0.5 }
    #expect(dark > 2 * bars, "the bars are drawn")
  }

  /// A shape layer drawn on to half its length (`strokeEnd` 0.5): a horizontal line from x = 0
  /// to 20 stroked 4 wide covers x < 10 only.
  @Test func shapeLayerStrokesToStrokeEnd() throws {
    var line = BezierPath()
    try line.move(to: Point(x: 0, y: 10))
    try line.addLine(to: Point(x: 20, y: 10))
    var tree = LayerTree()
    try tree.add(
      Layer.shapeLayer(
        id: "s", frame: Rect(x: 0, y: 0, width: 20, height: 20), path: line, fillColor: nil,
        strokeColor: .black, lineWidth: 4, strokeEnd: 0.5))
    let scene = try TransitionScene(
      duration: 1, containerSize: Size(width: 20, height: 20), model: tree,
      animations: AnimationSet())
    let renderer = SceneRenderer(background: .white)
    let image = try renderer.render(scene, at: 0)
    func grey(_ x: Int, _ y: Int) -> UInt8 { image.components[y * image.stride + 4 * x] }
    #expect(grey(5, 10) == 0)
    #expect(grey(15, 10) == 255)
    #expect(grey(5, 4) == 255)
    let reference = try renderer.referenceRender(
      scene.sample(at: 0), presentation: scene.presentation(at: 0),
      containerSize: scene.containerSize)
    #expect(maxChannelDifference(image, reference) == 0)
  }

  /// The SVG filmstrip draws a shape layer's fill as a path with its fill rule and colour,
  /// projected to the cell's pixels.
  @Test func svgFilmstripDrawsPaths() throws {
    var square = BezierPath()
    try square.move(to: Point(x: 0, y: 0))
    try square.addLine(to: Point(x: 10, y: 0))
    try square.addLine(to: Point(x: 10, y: 10))
    try square.closeSubpath()
    var tree = LayerTree()
    try tree.add(
      Layer.shapeLayer(
        id: "s", frame: Rect(x: 5, y: 5, width: 10, height: 10), path: square,
        fillColor: .black, fillRule: .evenOdd))
    let scene = try TransitionScene(
      duration: 1, containerSize: Size(width: 20, height: 20), model: tree,
      animations: AnimationSet())
    let svg = try Filmstrip(renderer: SceneRenderer(scale: 2), columns: 1).svg(scene, times: [0])
      .text
    #expect(
      svg.contains("<path d=\"M10,10 L30,10 L30,30 Z\" fill-rule=\"evenodd\" fill=\"#000000\""))
  }

  /// A text layer draws its glyph outlines in its foreground colour, inside its bounds, and
  /// both rasterisers agree.
  @Test func textLayerDrawsGlyphs() throws {
    var tree = LayerTree()
    try tree.add(
      Layer.textLayer(
        id: "t", frame: Rect(x: 4, y: 4, width: 120, height: 40), string: "Segue",
        fontSize: 24, foregroundColor: .black))
    let scene = try TransitionScene(
      duration: 1, containerSize: Size(width: 128, height: 48), model: tree,
      animations: AnimationSet())
    let renderer = SceneRenderer(background: .white)
    let image = try renderer.render(scene, at: 0)
    var dark = 0
    for y in 0..<48 {
      for x in 0..<128 where image.components[y * image.stride + 4 * x] < 128 {
        dark += 1
        #expect(x >= 4 && x < 124 && y >= 4 && y < 44)
      }
    }
    #expect(dark > 100)
    let reference = try renderer.referenceRender(
      scene.sample(at: 0), presentation: scene.presentation(at: 0),
      containerSize: scene.containerSize)
    #expect(maxChannelDifference(image, reference) == 0)
  }
}
