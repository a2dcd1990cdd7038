import PropertyBased
import Segue
import SegueRender
import Testing

private func gradientLayer(
  _ bounds: Rect, _ paint: GradientPaint, matrix: Transform3D = .identity, opacity: Double = 1,
  cornerRadius: Double = 0
) throws -> RasterLayer {
  RasterLayer(
    snapshot: LayerSnapshot(
      bounds: bounds, fill: .solid(.clear), cornerRadius: cornerRadius,
      gradient: try LayerSnapshot.Gradient(paint)),
    matrix: matrix, opacity: opacity, parts: [.gradient])
}

private func bytes(_ image: PixelBufferRGBAFloat, _ x: Int, _ y: Int) -> SIMD4<Int> {
  let q = PixelBufferRGBA8(image)
  let at = y * q.stride + 4 * x
  return SIMD4(
    Int(q.components[at]), Int(q.components[at + 1]), Int(q.components[at + 2]),
    Int(q.components[at + 3]))
}

private func isNear(_ a: SIMD4<Int>, _ b: SIMD4<Int>, _ tolerance: Int = 1) -> Bool {
  let d = a &- b
  return (0..<4).allSatisfy { abs(d[$0]) <= tolerance }
}

/// `CAGradientLayer` gradients drawn by both rasterisers: axial, radial and conic parameters at
/// pixel centres, the rounded bounds, opacity, agreement under perspective, and animated
/// colours in a scene.
@Suite("Layer gradients")
struct LayerGradientRenderTests {
  /// Black to white from the top to the bottom of a 4×16 layer: row `y`'s centre has
  /// `t = (y + ½)/16`, so its grey is `255·t` (to within one step).
  @Test(arguments: Engine.allCases)
  func axialAtPixelCentres(engine: Engine) throws {
    let paint = GradientPaint(
      colors: [.black, .white], bounds: Rect(x: 0, y: 0, width: 4, height: 16))
    let image = try engine.render(
      [.layer(try gradientLayer(paint.bounds, paint))], width: 4, height: 16)
    for y in 0..<16 {
      let g = Int((255 * (Double(y) + 0.5) / 16).rounded())
      #expect(isNear(bytes(image, 1, y), SIMD4(g, g, g, 255)), "row \(y)")
    }
  }

  /// Radial from the centre to the right edge: the centre pixel is the first colour, the pixels
  /// beyond the ellipse the last. Conic: straight right of the centre `t = 0`, below it `¼`
  /// (y-down angles), left `½`.
  @Test(arguments: Engine.allCases)
  func radialAndConic(engine: Engine) throws {
    let bounds = Rect(x: 0, y: 0, width: 17, height: 17)
    let red = try RGBAColor(red: 1, green: 0, blue: 0)
    let blue = try RGBAColor(red: 0, green: 0, blue: 1)
    let radial = GradientPaint(
      type: .radial, colors: [red, blue], startPoint: Point(x: 0.5, y: 0.5),
      endPoint: Point(x: 1, y: 1), bounds: bounds)
    let image = try engine.render(
      [.layer(try gradientLayer(bounds, radial))], width: 17, height: 17)
    #expect(isNear(bytes(image, 8, 8), SIMD4(255, 0, 0, 255), 2))
    #expect(isNear(bytes(image, 0, 0), SIMD4(0, 0, 255, 255)))
    let conic = GradientPaint(
      type: .conic, colors: [.black, .white], startPoint: Point(x: 0.5, y: 0.5),
      endPoint: Point(x: 1, y: 0.5), bounds: bounds)
    let turns = try engine.render(
      [.layer(try gradientLayer(bounds, conic))], width: 17, height: 17)
    // Pixel (8, 14)'s centre is (8.5, 14.5): straight below the centre, a quarter turn.
    #expect(isNear(bytes(turns, 8, 14), SIMD4(64, 64, 64, 255)))
    #expect(isNear(bytes(turns, 2, 8), SIMD4(128, 128, 128, 255)))
  }

  /// The gradient fills the rounded bounds at the layer's opacity.
  @Test(arguments: Engine.allCases)
  func roundedBoundsAndOpacity(engine: Engine) throws {
    let bounds = Rect(x: 0, y: 0, width: 8, height: 8)
    let paint = GradientPaint(colors: [.white, .white], bounds: bounds)
    let image = try engine.render(
      [.layer(try gradientLayer(bounds, paint, opacity: 0.5, cornerRadius: 4))], width: 8,
      height: 8)
    #expect(bytes(image, 4, 4) == SIMD4(128, 128, 128, 128))
    #expect(bytes(image, 0, 0) == .zero)
  }

  /// Under rotation and perspective, every type and a translucent stop, the fast rasteriser is
  /// within 2/255 of the reference (except on a conic gradient's seam, where the colour jumps
  /// from the last stop to the first: pixels whose centre lies within 10⁻³ turn of it are left
  /// out).
  @Test func fastMatchesTheReference() async {
    await propertyCheck(count: 24, input: Gen.double(in: 0...1).array(of: 6)) { r in
      let types: [GradientType] = [.axial, .radial, .conic]
      let bounds = Rect(x: 0, y: 0, width: 40, height: 30)
      let paint = GradientPaint(
        type: types[Int(r[0] * 2.99)],
        colors: [
          try RGBAColor(red: 1, green: 0.2, blue: 0),
          try RGBAColor(red: 0, green: 0.8, blue: 1, alpha: 0.4),
          .black,
        ], locations: [0, r[1], 1], startPoint: Point(x: r[2], y: 0.3),
        endPoint: Point(x: 0.9, y: r[3]), bounds: bounds)
      var perspective = Transform3D.identity
      perspective.m34 = -1.0 / 200
      let matrix = Transform3D.makeTranslation(x: -20, y: -15, z: 0)
        .concatenating(.makeRotation(by: r[4] * 1.2 - 0.6, x: 0.3, y: 1, z: 0.2))
        .concatenating(perspective)
        .concatenating(.makeScale(x: 1 + r[5] * 2, y: 1 + r[5] * 2, z: 1))
        .concatenating(.makeTranslation(x: 48, y: 40, z: 0))
      let item = RenderItem.layer(
        try gradientLayer(bounds, paint, matrix: matrix, opacity: 0.9, cornerRadius: 5))
      let fast = try Rasterizer.render([item], width: 96, height: 80, background: .white)
      let reference = try ReferenceRasterizer.render(
        [item], width: 96, height: 80, background: .white)
      var worst: Float = 0
      for y in 0..<80 {
        for x in 0..<96 where !(paint.type == .conic && Self.nearSeam(paint, matrix, x, y)) {
          for c in 0..<4 {
            let i = y * fast.stride + 4 * x + c
            worst = max(worst, abs(fast.components[i] - reference.components[i]))
          }
        }
      }
      #expect(worst <= 2.0 / 255)
    }
  }

  /// Whether pixel `(x, y)`'s centre lies within 10⁻³ turn of a conic gradient's seam.
  static func nearSeam(_ paint: GradientPaint, _ matrix: Transform3D, _ x: Int, _ y: Int)
    -> Bool
  {
    let px = Double(x) + 0.5
    let py = Double(y) + 0.5
    // The layer point on z = 0 under the pixel, through the plane homography H (rows and
    // columns 1, 2, 4 of the matrix): [u v 1]·H = w·[px py 1].
    let forward = matrix
    let a = forward.m11
    let b = forward.m21
    let c = forward.m41
    let d = forward.m12
    let e = forward.m22
    let f = forward.m42
    let g = forward.m14
    let k = forward.m24
    let l = forward.m44
    // [u v 1]·H = w·[px py 1]: (a − g·px)u + (b − k·px)v = l·px − c, likewise for py.
    let a11 = a - g * px
    let a12 = b - k * px
    let a21 = d - g * py
    let a22 = e - k * py
    let det = a11 * a22 - a12 * a21
    guard det != 0 else { return true }
    let r1 = l * px - c
    let r2 = l * py - f
    let u = (r1 * a22 - a12 * r2) / det
    let v = (a11 * r2 - a21 * r1) / det
    let t = paint.parameter(at: Point(x: u, y: v))
    return t < 1e-3 || t > 1 - 1e-3
  }

  /// A gradient layer in a scene draws its animated colours: red to blue over 1 s, linear, is
  /// half way at 0.5 s (straight components interpolated: `(0.5, 0, 0.5)`).
  @Test func sceneDrawsAnimatedColors() throws {
    let red = try RGBAColor(red: 1, green: 0, blue: 0)
    let blue = try RGBAColor(red: 0, green: 0, blue: 1)
    var tree = LayerTree()
    try tree.add(
      Layer.gradientLayer(
        id: "g", frame: Rect(x: 0, y: 0, width: 4, height: 4), colors: [red, red]))
    var animations = AnimationSet()
    animations.add(
      try .basic(
        .colors, from: .colorList([red, red]), to: .colorList([blue, blue]), duration: 1,
        timingFunction: .linear), to: "g")
    let scene = try TransitionScene(
      duration: 1, containerSize: Size(width: 4, height: 4), model: tree, animations: animations)
    let image = try SceneRenderer(background: .clear).render(scene, at: 0.5)
    let at = 2 * image.stride + 8
    #expect(Array(image.components[at..<(at + 4)]) == [128, 0, 128, 255])
  }
}
