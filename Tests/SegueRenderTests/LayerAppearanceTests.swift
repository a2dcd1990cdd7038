import PropertyBased
import RealModule
import Segue
import SegueRender
import Testing

private let red = try! RGBAColor(red: 1, green: 0, blue: 0)
private let blue = try! RGBAColor(red: 0, green: 0, blue: 1)

/// The coverage of the shadow of a rounded rectangle by brute force: the 2D Gaussian of `σ`
/// around `(u, v)` integrated by the midpoint rule on a grid of step `σ/16` over ±6σ, counting
/// the cells whose centre is inside the rounded rectangle (an independent computation of the
/// definition in ``LayerSnapshot/Shadow``).
private func bruteShadow(
  _ u: Double, _ v: Double, rect: Rect, radius: Double, sigma: Double
) -> Double {
  let step = sigma / 16
  let n = Int(12 * sigma / step)
  let r = min(radius, rect.width / 2, rect.height / 2)
  func inside(_ x: Double, _ y: Double) -> Bool {
    guard x >= rect.minX && x < rect.maxX && y >= rect.minY && y < rect.maxY else { return false }
    let cx = min(max(x, rect.minX + r), rect.maxX - r)
    let cy = min(max(y, rect.minY + r), rect.maxY - r)
    return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r
  }
  var sum = 0.0
  for i in 0..<n {
    let dx = -6 * sigma + (Double(i) + 0.5) * step
    let gx = Double.exp(-dx * dx / (2 * sigma * sigma))
    for j in 0..<n {
      let dy = -6 * sigma + (Double(j) + 0.5) * step
      guard inside(u + dx, v + dy) else { continue }
      sum += gx * Double.exp(-dy * dy / (2 * sigma * sigma))
    }
  }
  return sum * step * step / (2 * Double.pi * sigma * sigma)
}

/// Corner radius, border, shadow and clips (``LayerSnapshot``, ``ClipShape``), by hand, against
/// an independent integration, through scenes, and the fast rasteriser against the reference.
@Suite("Layer appearance")
struct LayerAppearanceTests {
  /// A 10 × 10 layer with corner radius 5 is a disk of centre (5, 5): each pixel's alpha is the
  /// fraction of its 16 samples `(i + (a + ½)/4, j + (b + ½)/4)` with `(x − 5)² + (y − 5)² ≤ 25`
  /// (counted here directly), e.g. 0 at (0, 0) and 1 at (5, 5); the total is the disk's area
  /// π·25 ≈ 78.54 within the sampling error.
  @Test(arguments: Engine.allCases)
  func roundedCornersClipTheFill(engine: Engine) throws {
    let layer = RasterLayer(
      snapshot: LayerSnapshot(
        bounds: Rect(x: 0, y: 0, width: 10, height: 10), fill: .solid(red), cornerRadius: 7))
    var buffer = try PixelBufferRGBAFloat(width: 12, height: 12)
    try engine.draw(layer, into: &buffer)
    var total: Float = 0
    for j in 0..<12 {
      for i in 0..<12 {
        var hits = 0
        for b in 0..<4 {
          for a in 0..<4 {
            let x = Double(i) + (Double(a) + 0.5) / 4
            let y = Double(j) + (Double(b) + 0.5) / 4
            if x < 10 && y < 10 && (x - 5) * (x - 5) + (y - 5) * (y - 5) <= 25 { hits += 1 }
          }
        }
        let alpha = Float(hits) / 16
        #expect(buffer[i, j] == SIMD4(alpha, 0, 0, alpha), "pixel \(i), \(j)")
        total += buffer[i, j][3]
      }
    }
    #expect(buffer[0, 0][3] == 0 && buffer[5, 5][3] == 1)
    #expect(abs(Double(total) - 25 * Double.pi) < 2)
  }

  /// A 10 × 10 white layer with a red border 2 wide: columns and rows 0 and 1 are red, 2…7
  /// white inside, and a border of 2.5 puts half of the samples of pixel 2 in the border:
  /// (0.5 + 0.5·1) → (1, 0.5, 0.5).
  @Test(arguments: Engine.allCases)
  func borderIsARingInsideTheBounds(engine: Engine) throws {
    for (width, expected) in [(2.0, SIMD4<Float>(1, 1, 1, 1)), (2.5, SIMD4<Float>(1, 0.5, 0.5, 1))]
    {
      let layer = RasterLayer(
        snapshot: LayerSnapshot(
          bounds: Rect(x: 0, y: 0, width: 10, height: 10), fill: .solid(.white),
          border: .init(width: width, color: red)))
      var buffer = try PixelBufferRGBAFloat(width: 10, height: 10)
      try engine.draw(layer, into: &buffer)
      #expect(buffer[0, 5] == SIMD4(1, 0, 0, 1))
      #expect(buffer[1, 5] == SIMD4(1, 0, 0, 1))
      #expect(buffer[9, 9] == SIMD4(1, 0, 0, 1))
      #expect(buffer[5, 5] == SIMD4(1, 1, 1, 1))
      #expect(buffer[2, 5] == expected, "width \(width)")
    }
  }

  /// The shadow's coverage against the brute-force integral at points around a rectangle and a
  /// rounded rectangle (inside, on edges, at and beyond corners): within 2·10⁻³ (the midpoint
  /// rule's own error is about 10⁻³ at step σ/16).
  @Test func shadowCoverageMatchesTheIntegral() throws {
    let rect = Rect(x: 0, y: 0, width: 20, height: 12)
    for radius in [0.0, 4] {
      let sigma = 2.0
      let shadow = LayerSnapshot(
        bounds: rect, fill: .solid(.clear),
        cornerRadius: radius,
        shadow: .init(color: .black, opacity: 1, radius: 2 * sigma, offset: .zero))
      let layer = RasterLayer(snapshot: shadow, parts: .shadow)
      for (u, v) in [
        (10.0, 6.0), (0.0, 6.0), (-2, 6), (1, 1), (0, 0), (-1.5, -1.5), (3, 12.5), (21, 13),
      ] {
        // One pixel at (u, v): a 1 × 1 image whose pixel is centred there has the mean of the
        // 16 samples, so compare at the sample level through a scaled-down layer instead:
        // coverage of the point itself via a layer drawn at 64× so that the pixel is tiny.
        let scale = 64.0
        var buffer = try PixelBufferRGBAFloat(width: 1, height: 1)
        var tiny = layer
        tiny.matrix =
          .makeTranslation(x: -u, y: -v, z: 0) * .makeScale(x: scale, y: scale, z: 1)
          * .makeTranslation(x: 0.5, y: 0.5, z: 0)
        try Rasterizer.draw(tiny, into: &buffer)
        let brute = bruteShadow(u, v, rect: rect, radius: radius, sigma: sigma)
        #expect(abs(Double(buffer[0, 0][3]) - brute) < 2e-3, "r \(radius) at (\(u), \(v))")
      }
    }
  }

  /// A shadow below an opaque layer: inside the layer only the fill shows; just outside, the
  /// shadow's coverage times its colour over white. Both engines agree within 1/255.
  @Test func shadowIsDrawnBelowTheLayer() throws {
    let snapshot = LayerSnapshot(
      bounds: Rect(x: 4, y: 4, width: 16, height: 16), fill: .solid(blue), cornerRadius: 3,
      shadow: .init(color: .black, opacity: 0.5, radius: 4, offset: Size(width: 2, height: 2)))
    let items = [RenderItem.layer(RasterLayer(snapshot: snapshot))]
    let fast = try Rasterizer.render(items, width: 28, height: 28, background: .white)
    let reference = try ReferenceRasterizer.render(items, width: 28, height: 28, background: .white)
    #expect(maxComponentDifference(fast, reference) <= 1 / 255)
    #expect(fast[12, 12] == SIMD4(0, 0, 1, 1))
    // Right of the layer: darker than white, lighter than half black.
    let side = fast[21, 12]
    #expect(side[0] < 1 && side[0] > 0.5 && side[3] == 1)
    // (0, 0) is 2.75σ left of and above the shadow's shape (6…22 on both axes, σ = 2): its
    // coverage is below Φ(−2.75)² ≈ 8.9·10⁻⁶ (the rounded corner removes more), so it is
    // darker than white by less than half of that, and white in 8 bits.
    #expect(fast[0, 0][0] < 1 && fast[0, 0][0] > 1 - 4.5e-6 && fast[0, 0][3] == 1)
    #expect(PixelBufferRGBA8(fast)[0, 0] == SIMD4(255, 255, 255, 255))
  }

  /// Clips by hand: a red 10 × 10 layer clipped by a 4 × 4 square at (2, 2) covers exactly those
  /// 16 pixels; clipped by a disk (radius 5 at (5, 5)) it has the disk's samples.
  @Test(arguments: Engine.allCases)
  func clipsKeepOnlyWhatIsInside(engine: Engine) throws {
    let snapshot = LayerSnapshot(bounds: Rect(x: 0, y: 0, width: 10, height: 10), fill: .solid(red))
    let square = ClipShape(
      bounds: Rect(x: 0, y: 0, width: 4, height: 4), matrix: .makeTranslation(x: 2, y: 2, z: 0))
    var buffer = try PixelBufferRGBAFloat(width: 10, height: 10)
    try engine.draw(RasterLayer(snapshot: snapshot, clips: [square]), into: &buffer)
    for j in 0..<10 {
      for i in 0..<10 {
        let inside = (2..<6).contains(i) && (2..<6).contains(j)
        #expect(buffer[i, j][3] == (inside ? 1 : 0))
      }
    }
    let disk = ClipShape(
      bounds: Rect(x: 0, y: 0, width: 10, height: 10), cornerRadius: 5, matrix: .identity)
    var round = try PixelBufferRGBAFloat(width: 10, height: 10)
    try engine.draw(RasterLayer(snapshot: snapshot, clips: [disk]), into: &round)
    var rounded = try PixelBufferRGBAFloat(width: 10, height: 10)
    var own = snapshot
    own.cornerRadius = 5
    try engine.draw(RasterLayer(snapshot: own), into: &rounded)
    #expect(round == rounded)
  }

  /// In a scene: a parent that masks to its bounds (rounded 8) clips its child, which pokes out;
  /// the parent's border (drawn after its sublayers) covers the child where they overlap; a
  /// shadowed sibling without a mask shows its shadow. Fast and reference agree within 2/255,
  /// and the child's pixels outside the parent are the background.
  @Test func sceneMasksBordersAndShadows() throws {
    var tree = LayerTree()
    try tree.add(
      Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 60, height: 40),
        position: Point(x: 40, y: 30), backgroundColor: .white, cornerRadius: 8,
        masksToBounds: true, borderWidth: 3, borderColor: blue))
    try tree.add(
      Layer(
        id: "child", bounds: Rect(x: 0, y: 0, width: 40, height: 40),
        position: Point(x: 60, y: 40), backgroundColor: red), parent: "card")
    try tree.add(
      Layer(
        id: "badge", bounds: Rect(x: 0, y: 0, width: 16, height: 16),
        position: Point(x: 20, y: 62), backgroundColor: red, cornerRadius: 8,
        shadowOpacity: 0.6, shadowRadius: 4, shadowOffset: Size(width: 0, height: 3)))
    let scene = try TransitionScene(
      duration: 1, containerSize: Size(width: 80, height: 80), model: tree,
      animations: AnimationSet())
    let renderer = SceneRenderer(scale: 1, background: .white)
    let fast = try renderer.render(scene, at: 0)
    let sample = try scene.sample(at: 0)
    let reference = try renderer.referenceRender(
      sample, presentation: scene.presentation(at: 0), containerSize: scene.containerSize)
    #expect(maxChannelDifference(fast, reference) <= 2)
    // The child pokes out of the card at the bottom right (card spans x 10…70, y 10…50).
    #expect(fast[75, 55] == SIMD4(255, 255, 255, 255))
    // Inside the card, away from the border: the child's red.
    #expect(fast[60, 40] == SIMD4(255, 0, 0, 255))
    // The card's right border (x 67…70) covers the child.
    #expect(fast[68, 30] == SIMD4(0, 0, 255, 255))
    // Below the badge (y 54…70, centre x 20), its shadow darkens the white.
    let below = fast[20, 72]
    #expect(below[0] < 250 && below[0] == below[1] && below[3] == 255)
  }

  /// Random rounded, bordered, shadowed and clipped layers: the fast rasteriser within 2/255 of
  /// the reference.
  @Test func randomAppearanceMatchesTheReference() async {
    await propertyCheck(count: 30, input: Gen.double(in: 0...1).array(of: 48)) { r in
      var items = try FastRasterizerTests.randomItems(r)
      for k in items.indices {
        guard case .layer(var layer) = items[k] else { continue }
        let p = Array(r[(16 * k)..<(16 * k + 16)])
        layer.snapshot.cornerRadius = 8 * p[13]
        if p[14] < 0.6 { layer.snapshot.border = .init(width: 0.5 + 3 * p[5], color: .white) }
        if p[15] < 0.5 {
          layer.snapshot.shadow = .init(
            color: .black, opacity: 0.3 + 0.7 * p[4], radius: 6 * p[8],
            offset: Size(width: 4 * p[9] - 2, height: 4 * p[10] - 2))
        }
        if p[11] < 0.4 {
          layer.clips = [
            ClipShape(
              bounds: Rect(x: 0, y: 0, width: 20, height: 16), cornerRadius: 10 * p[12],
              matrix: .makeRotation(by: p[6] - 0.5, x: 0, y: 0, z: 1)
                * .makeTranslation(x: 10, y: 8, z: 0))
          ]
        }
        items[k] = .layer(layer)
      }
      let fast = try Rasterizer.render(items, width: 40, height: 32, background: .white)
      let expected = try ReferenceRasterizer.render(
        items, width: 40, height: 32, background: .white)
      #expect(maxComponentDifference(fast, expected) <= 2 / 255)
    }
  }

  @Test func rejectsBadAppearance() {
    let bounds = Rect(x: 0, y: 0, width: 2, height: 2)
    func draw(_ snapshot: LayerSnapshot, clips: [ClipShape] = []) throws {
      var buffer = try PixelBufferRGBAFloat(width: 2, height: 2)
      try Rasterizer.draw(RasterLayer(snapshot: snapshot, clips: clips), into: &buffer)
    }
    #expect(throws: ValidationError(field: "cornerRadius", reason: .notFinite)) {
      try draw(LayerSnapshot(bounds: bounds, fill: .solid(red), cornerRadius: .nan))
    }
    #expect(throws: ValidationError(field: "border.width", reason: .notFinite)) {
      try draw(
        LayerSnapshot(bounds: bounds, fill: .solid(red), border: .init(width: .infinity)))
    }
    #expect(
      throws: ValidationError(field: "shadow.opacity", reason: .outOfRange(lower: 0, upper: 1))
    ) {
      try draw(LayerSnapshot(bounds: bounds, fill: .solid(red), shadow: .init(opacity: 2)))
    }
    #expect(throws: ValidationError(field: "shadow.radius", reason: .negative)) {
      try draw(
        LayerSnapshot(bounds: bounds, fill: .solid(red), shadow: .init(opacity: 1, radius: -1)))
    }
    #expect(throws: ValidationError(field: "shadow.offset", index: 1, reason: .notFinite)) {
      try draw(
        LayerSnapshot(
          bounds: bounds, fill: .solid(red),
          shadow: .init(opacity: 1, offset: Size(width: 0, height: .nan))))
    }
    var m = Transform3D.identity
    m.m41 = .infinity
    #expect(throws: ValidationError(field: "clip.matrix", index: 12, reason: .notFinite)) {
      try draw(
        LayerSnapshot(bounds: bounds, fill: .solid(red)),
        clips: [ClipShape(bounds: bounds, matrix: m)])
    }
  }
}
