import PropertyBased
import Segue
import SegueMallocCounter
import SegueRender
import Testing

/// A premultiplied RGBA8 image of `width × height` whose texel `(i, j)` is `color(i, j)`.
private func texture(
  _ width: Int, _ height: Int, _ color: (Int, Int) -> SIMD4<UInt8>
) throws -> ContentsTexture {
  var bytes: [UInt8] = []
  for j in 0..<height {
    for i in 0..<width {
      let c = color(i, j)
      bytes += [c[0], c[1], c[2], c[3]]
    }
  }
  let pixels = try PixelBufferRGBA8(width: width, height: height, components: bytes)
  return ContentsTexture(try BitmapImage(pixels: pixels))
}

/// Distinct opaque texels: red ramps with `i`, green with `j`.
private func ramp(_ i: Int, _ j: Int) -> SIMD4<UInt8> {
  SIMD4(UInt8(40 + 50 * i), UInt8(30 + 60 * j), UInt8(200 - 20 * i), 255)
}

private func layer(
  _ bounds: Rect, _ contents: LayerSnapshot.Contents, matrix: Transform3D = .identity,
  opacity: Double = 1, cornerRadius: Double = 0
) -> RasterLayer {
  RasterLayer(
    snapshot: LayerSnapshot(
      bounds: bounds, fill: .solid(.clear), cornerRadius: cornerRadius, contents: contents),
    matrix: matrix, opacity: opacity, parts: [.contents])
}

/// The pixel `(x, y)` as bytes.
private func pixel(_ image: PixelBufferRGBAFloat, _ x: Int, _ y: Int) -> SIMD4<UInt8> {
  let q = PixelBufferRGBA8(image)
  let at = y * q.stride + 4 * x
  return SIMD4(q.components[at], q.components[at + 1], q.components[at + 2], q.components[at + 3])
}

/// Layer `contents` drawn by both rasterisers: placement, filters, nine-part stretching,
/// clipping, opacity, and agreement under perspective.
@Suite("Layer contents")
struct LayerContentsRenderTests {
  /// A 4×4 image on a 4×4 layer at identity: every pixel centre is a texel centre, so both
  /// filters give the texel itself, and pixels outside the layer stay clear.
  @Test(arguments: Engine.allCases, [ContentsFilter.nearest, .linear, .trilinear])
  func oneTexelPerPixel(engine: Engine, filter: ContentsFilter) throws {
    let t = try texture(4, 4, ramp)
    let contents = LayerSnapshot.Contents(
      texture: t, minificationFilter: filter, magnificationFilter: filter)
    let image = try engine.render(
      [.layer(layer(Rect(x: 1, y: 2, width: 4, height: 4), contents))], width: 8, height: 8)
    for y in 0..<8 {
      for x in 0..<8 {
        let inside = x >= 1 && x < 5 && y >= 2 && y < 6
        #expect(pixel(image, x, y) == (inside ? ramp(x - 1, y - 2) : .zero), "\(x), \(y)")
      }
    }
  }

  /// Scaled by 2 with `nearest` magnification: pixel `(x, y)` shows texel `(⌊x/2⌋, ⌊y/2⌋)`.
  @Test(arguments: Engine.allCases)
  func nearestMagnification(engine: Engine) throws {
    let t = try texture(3, 3, ramp)
    let contents = LayerSnapshot.Contents(texture: t, magnificationFilter: .nearest)
    let image = try engine.render(
      [
        .layer(
          layer(
            Rect(x: 0, y: 0, width: 3, height: 3), contents,
            matrix: Transform3D.makeScale(x: 2, y: 2, z: 1)))
      ], width: 6, height: 6)
    for y in 0..<6 {
      for x in 0..<6 { #expect(pixel(image, x, y) == ramp(x / 2, y / 2), "\(x), \(y)") }
    }
  }

  /// A positional gravity places the image at its natural size (pixels / contentsScale): a 2×2
  /// image at scale 1 in the bottom-right of a 4×4 layer; the rest of the layer is clear.
  @Test(arguments: Engine.allCases)
  func gravityPlacesTheNaturalSize(engine: Engine) throws {
    let t = try texture(2, 2, ramp)
    let contents = LayerSnapshot.Contents(texture: t, gravity: .bottomRight)
    let image = try engine.render(
      [.layer(layer(Rect(x: 0, y: 0, width: 4, height: 4), contents))], width: 4, height: 4)
    for y in 0..<4 {
      for x in 0..<4 {
        let inside = x >= 2 && y >= 2
        #expect(pixel(image, x, y) == (inside ? ramp(x - 2, y - 2) : .zero), "\(x), \(y)")
      }
    }
  }

  /// `contentsCenter` at the middle texel of a 3×3 image on a 7×5 layer: the corners keep their
  /// one texel, the edges and centre stretch (nearest, so each pixel is one texel).
  @Test(arguments: Engine.allCases)
  func ninePartStretching(engine: Engine) throws {
    let t = try texture(3, 3, ramp)
    let third = 1.0 / 3
    let contents = LayerSnapshot.Contents(
      texture: t, contentsCenter: Rect(x: third, y: third, width: third, height: third),
      minificationFilter: .nearest, magnificationFilter: .nearest)
    let image = try engine.render(
      [.layer(layer(Rect(x: 0, y: 0, width: 7, height: 5), contents))], width: 7, height: 5)
    for y in 0..<5 {
      for x in 0..<7 {
        let i = x == 0 ? 0 : (x == 6 ? 2 : 1)
        let j = y == 0 ? 0 : (y == 4 ? 2 : 1)
        #expect(pixel(image, x, y) == ramp(i, j), "\(x), \(y)")
      }
    }
  }

  /// Opacity scales the premultiplied texel; `masksToBounds` clips the image to the rounded
  /// corners (the corner pixel is clear), without it the corner pixel is drawn.
  @Test(arguments: Engine.allCases)
  func opacityAndRoundedClip(engine: Engine) throws {
    let t = try texture(8, 8) { _, _ in SIMD4(255, 255, 255, 255) }
    let bounds = Rect(x: 0, y: 0, width: 8, height: 8)
    for clips in [false, true] {
      let contents = LayerSnapshot.Contents(texture: t, clipsToBounds: clips)
      let image = try engine.render(
        [.layer(layer(bounds, contents, opacity: 0.5, cornerRadius: 4))], width: 8, height: 8)
      #expect(pixel(image, 4, 4) == SIMD4(128, 128, 128, 128))
      #expect(pixel(image, 0, 0) == (clips ? .zero : SIMD4(128, 128, 128, 128)))
    }
  }

  /// Under rotation and perspective, with every pair of the nearest, linear and trilinear
  /// filters, nine-part stretching, a clip and the contents over a translucent image, the fast
  /// rasteriser is within 2/255 of the reference.
  @Test func fastMatchesTheReference() async {
    await propertyCheck(count: 24, input: Gen.double(in: 0...1).array(of: 6)) { r in
      let difference = try Self.difference(r, filters: [.nearest, .linear, .trilinear])
      #expect(difference <= 2.0 / 255)
    }
  }

  /// The nearest filter at a texel boundary: a pixel whose texel coordinate lies on the line
  /// between two texels picks the same texel in both rasterisers (both decide it on the same
  /// `Double` values), where a `Float` decision picked the neighbour, 12/255 apart (an input
  /// the property above found with all three filters, shrunk).
  @Test func nearestFilterAtATexelBoundary() throws {
    let r = [0.5, 0.6838881038685787, 0.0, 0.0, 0.5, 0.6562134498047987]
    let difference = try Self.difference(r, filters: [.nearest, .linear, .trilinear])
    #expect(difference <= 2.0 / 255)
  }

  /// A single-piece layer that filters only with `nearest`, turned about y under perspective
  /// and shrunk so that pixel centres fall on texel boundaries: the fast rasteriser's vectors
  /// of `Double` pick the reference's texel at every pixel.
  @Test(arguments: [0.0, 0.35, -0.6])
  func nearestVectorsPickTheReferenceTexels(turn: Double) throws {
    let t = try texture(32, 24) { i, j in
      let a = UInt8(clamping: 90 + 11 * ((i * 7 + j * 3) % 15))
      return SIMD4(UInt8(Int(a) * (i * 41 % 256) / 255), UInt8(Int(a) * (j * 53 % 256) / 255), a, a)
    }
    let contents = LayerSnapshot.Contents(
      texture: t, minificationFilter: .nearest, magnificationFilter: .nearest)
    var m = Transform3D.identity
    m.m34 = -1.0 / 300
    let matrix = Transform3D.makeTranslation(x: -16, y: -12, z: 0)
      .concatenating(.makeRotation(by: turn, x: 0, y: 1, z: 0))
      .concatenating(m)
      .concatenating(.makeScale(x: 0.5, y: 0.5, z: 1))
      .concatenating(.makeTranslation(x: 20, y: 16, z: 0))
    let item = RenderItem.layer(
      layer(Rect(x: 0, y: 0, width: 32, height: 24), contents, matrix: matrix))
    let fast = try Rasterizer.render([item], width: 40, height: 32)
    let reference = try ReferenceRasterizer.render([item], width: 40, height: 32)
    #expect(maxComponentDifference(fast, reference) <= 2.0 / 255)
  }

  /// The largest component difference between the two rasterisers for the layer `r` describes
  /// (six numbers in [0, 1]: gravity, centre and scale, minification and magnification filter
  /// from `filters`, clip, rotation).
  static func difference(_ r: [Double], filters: [ContentsFilter]) throws -> Float {
    let t = try texture(13, 9) { i, j in
      let a = UInt8(clamping: 60 + 15 * ((i + j) % 13))
      return SIMD4(
        UInt8(Int(a) * (i * 19 % 256) / 255), UInt8(Int(a) * (j * 28 % 256) / 255), a / 2, a)
    }
    let last = Double(filters.count) - 0.01
    let contents = LayerSnapshot.Contents(
      texture: t, gravity: r[0] < 0.5 ? .resize : .resizeAspect,
      contentsRect: Rect(x: 0.1, y: 0, width: 0.8, height: 1),
      contentsCenter: Rect(x: 0.3, y: 0.3, width: 0.2 * r[1], height: 0.4),
      minificationFilter: filters[Int(r[2] * last)],
      magnificationFilter: filters[Int(r[3] * last)], clipsToBounds: r[4] < 0.5)
    var m = Transform3D.identity
    m.m34 = -1.0 / 200
    let matrix = Transform3D.makeTranslation(x: -20, y: -15, z: 0)
      .concatenating(.makeRotation(by: r[5] * 1.2 - 0.6, x: 0.3, y: 1, z: 0.2))
      .concatenating(m)
      .concatenating(.makeScale(x: 0.5 + r[1] * 3, y: 0.5 + r[1] * 3, z: 1))
      .concatenating(.makeTranslation(x: 48, y: 40, z: 0))
    let item = RenderItem.layer(
      layer(
        Rect(x: 0, y: 0, width: 40, height: 30), contents, matrix: matrix, opacity: 0.8,
        cornerRadius: 6))
    let background = try RGBAColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.5)
    let fast = try Rasterizer.render([item], width: 96, height: 80, background: background)
    let reference = try ReferenceRasterizer.render(
      [item], width: 96, height: 80, background: background)
    return maxComponentDifference(fast, reference)
  }

  /// A scene layer with `contents` draws its image when the renderer holds it, and nothing
  /// for its contents when it does not.
  @Test func sceneRendererDrawsRegisteredImages() throws {
    let t = try texture(2, 2, ramp)
    var images = ContentsImages()
    images.insert(t.image, for: .file("shot.png"))
    #expect(images.count == 1)
    var tree = LayerTree()
    try tree.add(
      Layer(
        id: "image", bounds: Rect(x: 0, y: 0, width: 2, height: 2), position: Point(x: 1, y: 1),
        contents: .file("shot.png"), magnificationFilter: .nearest))
    let scene = try TransitionScene(
      duration: 1, containerSize: Size(width: 2, height: 2), model: tree,
      animations: AnimationSet())
    let drawn = try SceneRenderer(background: .clear, images: images).render(scene, at: 0)
    let bare = try SceneRenderer(background: .clear).render(scene, at: 0)
    for (k, c) in [ramp(0, 0), ramp(1, 0), ramp(0, 1), ramp(1, 1)].enumerated() {
      let at = (k / 2) * drawn.stride + 4 * (k % 2)
      #expect(Array(drawn.components[at..<(at + 4)]) == [c[0], c[1], c[2], c[3]])
    }
    #expect(bare.components.allSatisfy { $0 == 0 })
  }

  /// A file that is not an image is rejected with the decoder's error; a name decoded once is
  /// not decoded again.
  @Test func decodingRejectsBadBytes() throws {
    var images = ContentsImages()
    #expect(throws: ImageDecodingError.unsupportedFormat) {
      try images.decode([1, 2, 3], for: .file("bad.png"))
    }
    images.insert(try texture(1, 1, ramp).image, for: .file("a.png"))
    try images.decode([1, 2, 3], for: .file("a.png"))  // already there: not decoded
    #expect(images.count == 1)
  }

  /// Contents numbers that are not finite are rejected by both rasterisers.
  @Test(arguments: Engine.allCases)
  func rejectsNonFiniteContentsNumbers(engine: Engine) throws {
    let t = try texture(1, 1, ramp)
    var contents = LayerSnapshot.Contents(texture: t)
    contents.contentsScale = .nan
    var buffer = try PixelBufferRGBAFloat(width: 2, height: 2)
    #expect(throws: ValidationError(field: "contents.contentsScale", reason: .notFinite)) {
      try engine.draw(layer(Rect(x: 0, y: 0, width: 1, height: 1), contents), into: &buffer)
    }
    contents.contentsScale = 1
    contents.contentsCenter = Rect(x: 0, y: .infinity, width: 1, height: 1)
    #expect(
      throws: ValidationError(field: "contents.contentsCenter", index: 1, reason: .notFinite)
    ) {
      try engine.draw(layer(Rect(x: 0, y: 0, width: 1, height: 1), contents), into: &buffer)
    }
  }
}

#if DEBUG
  private let contentsAllocationTestsEnabled = false
#else
  private let contentsAllocationTestsEnabled = true
#endif

/// A warm frame with an image layer (perspective, nine-part, trilinear), a gradient layer and a
/// clipped path allocates nothing in the fast rasteriser (optimised builds only, as ``RasterAllocationTests``).
@Suite(.enabled(if: contentsAllocationTestsEnabled))
struct ContentsAllocationTests {
  @Test func warmFramesWithImagesGradientsAndPathsAllocateNothing() throws {
    try #require(segue_allocation_counting_available() == 1)
    let t = try texture(64, 48, ramp8)
    var m = Transform3D.makeRotation(by: 0.4, x: 0, y: 1, z: 0)
    m.m34 = -1.0 / 300
    let items: [RenderItem] = [
      .layer(
        layer(
          Rect(x: 0, y: 0, width: 120, height: 90),
          LayerSnapshot.Contents(
            texture: t, contentsCenter: Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5),
            minificationFilter: .trilinear, clipsToBounds: true),
          matrix: m.concatenating(.makeTranslation(x: 70, y: 50, z: 0)), cornerRadius: 10)),
      .layer(
        RasterLayer(
          snapshot: LayerSnapshot(
            bounds: Rect(x: 0, y: 0, width: 100, height: 60), fill: .solid(.clear),
            cornerRadius: 8,
            gradient: try LayerSnapshot.Gradient(
              GradientPaint(
                type: .conic, colors: [.black, .white, .black],
                bounds: Rect(x: 0, y: 0, width: 100, height: 60)))),
          matrix: m.concatenating(.makeTranslation(x: 30, y: 40, z: 0)), parts: [.gradient])),
      .layer(
        RasterLayer(
          snapshot: LayerSnapshot(
            bounds: Rect(x: 0, y: 0, width: 50, height: 50), fill: .solid(.clear),
            paths: [
              LayerSnapshot.PathFill(
                polygons: [
                  Polyline(
                    points: [
                      Point(x: 0, y: 0), Point(x: 50, y: 10), Point(x: 20, y: 50),
                      Point(x: 40, y: -5),
                    ], isClosed: true)
                ], fillRule: .evenOdd, color: .black)
            ]),
          matrix: m.concatenating(.makeTranslation(x: 90, y: 30, z: 0)), parts: [.paths],
          clips: [ClipShape(bounds: Rect(x: 10, y: 10, width: 140, height: 100), matrix: .identity)]
        )),
    ]
    let context = try RenderContext()
    var image = try PixelBufferRGBA8(width: 160, height: 120)
    try Rasterizer.render(items, into: &image, context: context)
    let before = segue_thread_allocation_count()
    try Rasterizer.render(items, into: &image, context: context)
    #expect(segue_thread_allocation_count() &- before == 0)
  }
}

private func ramp8(_ i: Int, _ j: Int) -> SIMD4<UInt8> {
  SIMD4(UInt8(i * 4 % 256), UInt8(j * 5 % 256), 128, 255)
}
