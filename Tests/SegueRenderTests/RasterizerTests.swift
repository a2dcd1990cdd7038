import PropertyBased
import RealModule
import Segue
import SegueRender
import Testing

private let red = try! RGBAColor(red: 1, green: 0, blue: 0)
private let blue = try! RGBAColor(red: 0, green: 0, blue: 1)

private func solid(_ rect: Rect, _ color: RGBAColor) -> LayerSnapshot {
  LayerSnapshot(bounds: rect, fill: .solid(color))
}

/// The two rasterisers, held to the same first-principles values.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case fast, reference

  var testDescription: String { rawValue }

  func draw(_ layer: RasterLayer, into buffer: inout PixelBufferRGBAFloat) throws {
    switch self {
    case .fast: try Rasterizer.draw(layer, into: &buffer)
    case .reference: try ReferenceRasterizer.draw(layer, into: &buffer)
    }
  }

  func render(_ items: [RenderItem], width: Int, height: Int, background: RGBAColor = .clear) throws
    -> PixelBufferRGBAFloat
  {
    switch self {
    case .fast:
      try Rasterizer.render(items, width: width, height: height, background: background)
    case .reference:
      try ReferenceRasterizer.render(items, width: width, height: height, background: background)
    }
  }
}

/// The software rasterisers (the fast ``Rasterizer`` and ``ReferenceRasterizer``): coverage,
/// perspective-correct mapping, blending, groups, filled paths.
@Suite("Rasterizer")
struct RasterizerTests {
  /// Identity matrix, opaque red bounds (0, 0, 10, 10) in a 16×16 image: pixels x, y < 10 are
  /// exactly red (all 16 samples inside), every other pixel stays transparent (the half-open
  /// bounds exclude x = 10).
  @Test(arguments: Engine.allCases) func identityLayerCoversExactlyItsPixels(engine: Engine) throws
  {
    var buffer = try PixelBufferRGBAFloat(width: 16, height: 16)
    try engine.draw(
      RasterLayer(snapshot: solid(Rect(x: 0, y: 0, width: 10, height: 10), red)), into: &buffer)
    for y in 0..<16 {
      for x in 0..<16 {
        let expected: SIMD4<Float> = x < 10 && y < 10 ? SIMD4(1, 0, 0, 1) : .zero
        #expect(buffer[x, y] == expected)
      }
    }
  }

  /// Translated by (2.5, 3.25): the layer covers [2.5, 12.5) × [3.25, 13.25). Sample columns in
  /// pixel 2 are at 2.125, 2.375, 2.625, 2.875 → 2 of 4 inside; in pixel 12 at 12.125, 12.375
  /// inside → 2 of 4. Sample rows in pixel 3 at 3.125 (out), 3.375, 3.625, 3.875 → 3 of 4; in
  /// pixel 13 only 13.125 → 1 of 4. So alpha is 2/4·3/4 = 0.375 at (2, 3), 0.5·1 = 0.5 at
  /// (2, 5), 0.75 at (5, 3), 0.5·0.25 = 0.125 at (12, 13), 1 at (7, 8), 0 at (1, 3), (13, 5),
  /// (5, 14); the total is the area, 10·10 = 100.
  @Test(arguments: Engine.allCases) func translatedLayerHasFractionalEdges(engine: Engine) throws {
    var buffer = try PixelBufferRGBAFloat(width: 16, height: 16)
    let layer = RasterLayer(
      snapshot: solid(Rect(x: 0, y: 0, width: 10, height: 10), red),
      matrix: .makeTranslation(x: 2.5, y: 3.25, z: 0))
    try engine.draw(layer, into: &buffer)
    let expected: [((Int, Int), Float)] = [
      ((2, 3), 0.375), ((2, 5), 0.5), ((5, 3), 0.75), ((12, 13), 0.125), ((7, 8), 1),
      ((1, 3), 0), ((13, 5), 0), ((5, 14), 0),
    ]
    for ((x, y), alpha) in expected {
      #expect(buffer[x, y] == SIMD4(alpha, 0, 0, alpha))
    }
    var total: Float = 0
    for y in 0..<16 { for x in 0..<16 { total += buffer[x, y][3] } }
    #expect(total == 100)
  }

  /// The perspective layer of the next tests: bounds (−10, −10, 20, 20), tilted 1 rad about x,
  /// P(40), then moved to (32, 32).
  static let tilted =
    Transform3D.makeRotation(by: 1, x: 1, y: 0, z: 0) * .makePerspective(distance: 40)
    * .makeTranslation(x: 32, y: 32, z: 0)
  static let tiltedBounds = Rect(x: -10, y: -10, width: 20, height: 20)

  /// Each corner lands where `Transform3D.project` says, within a pixel: the pixel containing the
  /// corner moved 0.75 px towards the quad's centre is covered, the one containing the corner
  /// moved 1.5 px away from the centre is not; and the summed alpha equals the projected
  /// quad's area (shoelace formula on the projected corners) within 2%.
  @Test(arguments: Engine.allCases) func perspectiveCornersLandWhereProjectSays(engine: Engine)
    throws
  {
    var buffer = try PixelBufferRGBAFloat(width: 64, height: 64)
    let layer = RasterLayer(
      snapshot: solid(Self.tiltedBounds, red), matrix: Self.tilted)
    try engine.draw(layer, into: &buffer)
    let corners = Quad(Self.tiltedBounds).points.map {
      Self.tilted.project(Vector3(x: $0.x, y: $0.y, z: 0)).point
    }
    let cx = corners.map(\.x).reduce(0, +) / 4
    let cy = corners.map(\.y).reduce(0, +) / 4
    for p in corners {
      let dx = p.x - cx
      let dy = p.y - cy
      let length = (dx * dx + dy * dy).squareRoot()
      let inside = (x: p.x - 0.75 * dx / length, y: p.y - 0.75 * dy / length)
      let outside = (x: p.x + 1.5 * dx / length, y: p.y + 1.5 * dy / length)
      #expect(buffer[Int(inside.x), Int(inside.y)][3] > 0)
      #expect(buffer[Int(outside.x), Int(outside.y)][3] == 0)
    }
    var area = 0.0
    for i in 0..<4 {
      let a = corners[i]
      let b = corners[(i + 1) % 4]
      area += a.x * b.y - b.x * a.y
    }
    area = abs(area) / 2
    var total = 0.0
    for y in 0..<64 { for x in 0..<64 { total += Double(buffer[x, y][3]) } }
    #expect(abs(total - area) <= 0.02 * area)
  }

  /// Perspective-correct sampling: a black-to-white vertical gradient on the tilted layer. The
  /// pixel (32, 35) has sample rows Y = 35.125 … 35.875; each maps back to
  /// v = (Y − 32)/(cos 1 + (Y − 32)·sin 1/40) (inverting Y − 32 = v·cos 1/(1 − v·sin 1/40)),
  /// giving t = (v + 10)/20. mpmath (30 digits) gives v = 5.15641, 5.52101, 5.87939, 6.23171 and
  /// mean t = 0.784856408471579. (Interpolating linearly in screen space between the projected
  /// top and bottom edges would give 0.7044 instead.)
  @Test(arguments: Engine.allCases) func gradientIsPerspectiveCorrect(engine: Engine) throws {
    var buffer = try PixelBufferRGBAFloat(width: 64, height: 64)
    let snapshot = LayerSnapshot(
      bounds: Self.tiltedBounds, fill: .linearGradient(top: .black, bottom: .white))
    try engine.draw(RasterLayer(snapshot: snapshot, matrix: Self.tilted), into: &buffer)
    let p = buffer[32, 35]
    #expect(p[3] == 1)
    for c in 0..<3 { #expect(abs(Double(p[c]) - 0.784856408471579) < 1e-5) }
  }

  /// A gradient interpolates premultiplied colour: opaque red to clear down a 1×2 layer. Pixel 0
  /// has sample rows v = 0.125, 0.375, 0.625, 0.875 → t = v/2, mean 0.25, so it is
  /// red·(1 − 0.25) = (0.75, 0, 0, 0.75); pixel 1 (mean t = 0.75) is (0.25, 0, 0, 0.25). Straight
  /// interpolation towards clear's black would darken the colour below its alpha instead.
  @Test(arguments: Engine.allCases) func gradientInterpolatesPremultiplied(engine: Engine) throws {
    var buffer = try PixelBufferRGBAFloat(width: 1, height: 2)
    let snapshot = LayerSnapshot(
      bounds: Rect(x: 0, y: 0, width: 1, height: 2), fill: .linearGradient(top: red, bottom: .clear)
    )
    try engine.draw(RasterLayer(snapshot: snapshot), into: &buffer)
    #expect(buffer[0, 0] == SIMD4(0.75, 0, 0, 0.75))
    #expect(buffer[0, 1] == SIMD4(0.25, 0, 0, 0.25))
  }

  /// A layer pushed behind the eye, T(0, 0, 60)·P(50): w = 1 − 60/50 = −0.2 < 0 everywhere, so
  /// nothing is drawn (and nothing is NaN).
  @Test(arguments: Engine.allCases) func behindTheEyeIsSkipped(engine: Engine) throws {
    var buffer = try PixelBufferRGBAFloat(width: 8, height: 8)
    let layer = RasterLayer(
      snapshot: solid(Rect(x: -4, y: -4, width: 8, height: 8), red),
      matrix: .makeTranslation(x: 0, y: 0, z: 60) * .makePerspective(distance: 50))
    try engine.draw(layer, into: &buffer)
    #expect(buffer.components.allSatisfy { $0 == 0 })
  }

  /// A layer crossing the eye plane (tilted 80° about x, close perspective) draws only its part
  /// in front of the eye: finite, in-range output and some coverage.
  @Test(arguments: Engine.allCases) func crossingTheEyePlaneStaysFinite(engine: Engine) throws {
    var buffer = try PixelBufferRGBAFloat(width: 32, height: 32)
    let matrix =
      Transform3D.makeRotation(by: 80 * Double.pi / 180, x: 1, y: 0, z: 0)
      * .makePerspective(distance: 10)
      * .makeTranslation(x: 16, y: 16, z: 0)
    let layer = RasterLayer(
      snapshot: solid(Rect(x: -16, y: -16, width: 32, height: 32), red), matrix: matrix)
    try engine.draw(layer, into: &buffer)
    #expect(buffer.components.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
    #expect(buffer.components.contains { $0 > 0 })
  }

  /// Seen edge-on (90° about y, no perspective) the plane homography is singular: nothing drawn.
  @Test(arguments: Engine.allCases) func edgeOnLayerDrawsNothing(engine: Engine) throws {
    var buffer = try PixelBufferRGBAFloat(width: 8, height: 8)
    let layer = RasterLayer(
      snapshot: solid(Rect(x: 0, y: 0, width: 8, height: 8), red),
      matrix: .makeRotation(by: Double.pi / 2, x: 0, y: 1, z: 0))
    try engine.draw(layer, into: &buffer)
    #expect(buffer.components.allSatisfy { $0 == 0 })
  }

  /// Opacity with "over": red at 0.5 over an opaque blue background:
  /// (0.5, 0, 0, 0.5) + 0.5·(0, 0, 1, 1) = (0.5, 0, 0.5, 1).
  @Test(arguments: Engine.allCases) func opacityOver(engine: Engine) throws {
    let layer = RasterLayer(
      snapshot: solid(Rect(x: 0, y: 0, width: 2, height: 2), red), opacity: 0.5)
    let image = try engine.render([.layer(layer)], width: 2, height: 2, background: blue)
    #expect(image[1, 1] == SIMD4(0.5, 0, 0.5, 1))
  }

  /// CATransition fade at q = 0.5: old (red) and new (blue) as an "add" run over a white
  /// background sum to (0.5, 0, 0.5, 1), opaque, hiding the white; quantised that is
  /// (127.5 → 128, 0, 128, 255). Drawing them "over" instead would give
  /// blue·0.5 + 0.5·(red·0.5 + 0.5·white) = (0.5, 0.25, 0.75, 1) — not a cross-dissolve.
  @Test(arguments: Engine.allCases) func crossDissolveAddRun(engine: Engine) throws {
    let frame = Rect(x: 0, y: 0, width: 3, height: 3)
    let items: [RenderItem] = [
      .layer(RasterLayer(snapshot: solid(frame, red), opacity: 0.5, blendMode: .add)),
      .layer(RasterLayer(snapshot: solid(frame, blue), opacity: 0.5, blendMode: .add)),
    ]
    let image = try engine.render(items, width: 3, height: 3, background: .white)
    #expect(image[1, 1] == SIMD4(0.5, 0, 0.5, 1))
    #expect(PixelBufferRGBA8(image)[2, 2] == SIMD4(128, 0, 128, 255))
    let over = items.map { item -> RenderItem in
      guard case .layer(var l) = item else { return item }
      l.blendMode = .over
      return .layer(l)
    }
    let wrong = try engine.render(over, width: 3, height: 3, background: .white)
    #expect(wrong[1, 1] == SIMD4(0.5, 0.25, 0.75, 1))
  }

  /// Group opacity: two overlapping opaque red squares in a group at 0.5 over white: the
  /// overlap is red·0.5 + 0.5·white = (1, 0.5, 0.5, 1), the same as the non-overlapping parts.
  /// Without the group (each at 0.5): the overlap is red·0.5 + 0.5·(1, 0.5, 0.5, 1) =
  /// (1, 0.25, 0.25, 1).
  @Test(arguments: Engine.allCases) func groupOpacity(engine: Engine) throws {
    let a = RasterLayer(snapshot: solid(Rect(x: 0, y: 0, width: 2, height: 1), red))
    let b = RasterLayer(snapshot: solid(Rect(x: 1, y: 0, width: 2, height: 1), red))
    let grouped = try engine.render(
      [.group(opacity: 0.5, items: [.layer(a), .layer(b)])], width: 3, height: 1, background: .white
    )
    #expect(grouped[0, 0] == SIMD4(1, 0.5, 0.5, 1))
    #expect(grouped[1, 0] == SIMD4(1, 0.5, 0.5, 1))
    var a2 = a
    var b2 = b
    a2.opacity = 0.5
    b2.opacity = 0.5
    let separate = try engine.render(
      [.layer(a2), .layer(b2)], width: 3, height: 1, background: .white)
    #expect(separate[1, 0] == SIMD4(1, 0.25, 0.25, 1))
  }

  /// What a text layer draws, a filled path: the square (1, 1)–(3, 3) filled black over a white
  /// 8 × 5 layer covers pixels (1, 1)…(2, 2) wholly (all 16 samples) and leaves (0, 0), (3, 3)
  /// and (3, 1) white. The evenly spaced samples of a pixel crossed by the square's edge x = 2.5
  /// (a half-pixel-wide square, (2, 1)–(2.5, 3)) cover half of pixel (2, 1): 50 % grey.
  @Test(arguments: Engine.allCases) func pathFillCoversItsPixels(engine: Engine) throws {
    func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Polyline {
      Polyline(
        points: [
          Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1),
        ],
        isClosed: true)
    }
    let black = SIMD4<Float>(0, 0, 0, 1)
    let white = SIMD4<Float>(1, 1, 1, 1)
    let bounds = Rect(x: 0, y: 0, width: 8, height: 5)
    let whole = LayerSnapshot(
      bounds: bounds, fill: .solid(.white),
      paths: [LayerSnapshot.PathFill(polygons: [square(1, 1, 3, 3)], color: .black)])
    let image = try engine.render([.layer(RasterLayer(snapshot: whole))], width: 8, height: 5)
    #expect(image[1, 1] == black && image[2, 1] == black && image[1, 2] == black)
    #expect(image[2, 2] == black)
    #expect(image[0, 0] == white && image[3, 3] == white && image[3, 1] == white)
    let half = LayerSnapshot(
      bounds: bounds, fill: .solid(.white),
      paths: [LayerSnapshot.PathFill(polygons: [square(2, 1, 2.5, 3)], color: .black)])
    let halfImage = try engine.render([.layer(RasterLayer(snapshot: half))], width: 8, height: 5)
    #expect(halfImage[2, 1] == SIMD4<Float>(0.5, 0.5, 0.5, 1))
  }

  /// Random affine placements inside the image: no NaN, everything in [0, 1], and the summed
  /// alpha equals the transformed area |det|·w·h within the supersampling error (an edge pixel
  /// is off by at most 1/4 of its area per edge crossing; bound: 0.25·perimeter + 1). And
  /// bounded by the rectangle shrunk and grown by a sample cell: each 1/4 × 1/4 cell lying
  /// inside the shape has its sample inside, and the cells of the samples inside lie within the
  /// shape grown by the cell's half-diagonal √2/8, so the alpha sum (samples inside / 16) lies
  /// between (W − √2/4)(H − √2/4) and (W + √2/4)(H + √2/4) for the scaled sides W, H ≥ 1: an
  /// empty or doubled render fails.
  @Test(arguments: Engine.allCases) func affineCoverageMatchesArea(engine: Engine) async {
    await propertyCheck(
      count: 40, input: Gen.double(in: 2...8).array(of: 2), Gen.double(in: -3...3),
      Gen.double(in: 0.5...1.5)
    ) { size, angle, scale in
      var buffer = try PixelBufferRGBAFloat(width: 32, height: 32)
      let matrix =
        Transform3D.makeRotation(by: angle, x: 0, y: 0, z: 1) * .makeScale(x: scale, y: scale, z: 1)
        * .makeTranslation(x: 16, y: 16, z: 0)
      let bounds = Rect(x: -size[0] / 2, y: -size[1] / 2, width: size[0], height: size[1])
      try engine.draw(RasterLayer(snapshot: solid(bounds, red), matrix: matrix), into: &buffer)
      #expect(buffer.components.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
      var total = 0.0
      for y in 0..<32 { for x in 0..<32 { total += Double(buffer[x, y][3]) } }
      let area = size[0] * size[1] * scale * scale
      let perimeter = 2 * (size[0] + size[1]) * scale
      #expect(abs(total - area) <= 0.25 * perimeter + 1)
      let (w, h, grow) = (size[0] * scale, size[1] * scale, 2.0.squareRoot() / 4)
      #expect(total >= (w - grow) * (h - grow) && total <= (w + grow) * (h + grow), "\(total)")
    }
  }

  // MARK: Rejected input

  @Test(arguments: Engine.allCases) func rejectsNonFiniteMatrix(engine: Engine) throws {
    var buffer = try PixelBufferRGBAFloat(width: 1, height: 1)
    var m = Transform3D.identity
    m.m34 = .nan
    let layer = RasterLayer(snapshot: solid(Rect(x: 0, y: 0, width: 1, height: 1), red), matrix: m)
    #expect(throws: ValidationError(field: "matrix", index: 11, reason: .notFinite)) {
      try engine.draw(layer, into: &buffer)
    }
  }

  @Test(arguments: Engine.allCases) func rejectsNonFiniteBounds(engine: Engine) throws {
    var buffer = try PixelBufferRGBAFloat(width: 1, height: 1)
    let layer = RasterLayer(snapshot: solid(Rect(x: 0, y: 0, width: .infinity, height: 1), red))
    #expect(throws: ValidationError(field: "bounds", index: 2, reason: .notFinite)) {
      try engine.draw(layer, into: &buffer)
    }
  }

  @Test(arguments: Engine.allCases) func rejectsOpacityOutOfRange(engine: Engine) throws {
    var buffer = try PixelBufferRGBAFloat(width: 1, height: 1)
    let layer = RasterLayer(
      snapshot: solid(Rect(x: 0, y: 0, width: 1, height: 1), red), opacity: 1.2)
    #expect(throws: ValidationError(field: "opacity", reason: .outOfRange(lower: 0, upper: 1))) {
      try engine.draw(layer, into: &buffer)
    }
  }

  @Test(arguments: Engine.allCases) func rejectsGroupOpacityOutOfRange(engine: Engine) {
    #expect(
      throws: ValidationError(field: "group.opacity", reason: .outOfRange(lower: 0, upper: 1))
    ) {
      try engine.render([.group(opacity: 2, items: [])], width: 1, height: 1)
    }
  }

  @Test(arguments: Engine.allCases) func renderRejectsNegativeSize(engine: Engine) {
    let error = ValidationError(field: "width", reason: .outOfRange(lower: 0, upper: 16_777_216))
    #expect(throws: error) { try engine.render([], width: -2, height: 1) }
  }
}
