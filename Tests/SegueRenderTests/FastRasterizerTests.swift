import Foundation
import PropertyBased
import Segue
import SegueMallocCounter
import SegueRender
import SegueSpec
import Testing

/// The largest difference of any channel of two RGBA8 images of the same size.
func maxChannelDifference(_ a: PixelBufferRGBA8, _ b: PixelBufferRGBA8) -> Int {
  precondition(a.width == b.width && a.height == b.height)
  var worst = 0
  for y in 0..<a.height {
    for i in 0..<(4 * a.width) {
      let d = abs(Int(a.components[y * a.stride + i]) - Int(b.components[y * b.stride + i]))
      worst = max(worst, d)
    }
  }
  return worst
}

/// The largest difference of any component of two Float images of the same size.
func maxComponentDifference(_ a: PixelBufferRGBAFloat, _ b: PixelBufferRGBAFloat) -> Float {
  precondition(a.width == b.width && a.height == b.height)
  var worst: Float = 0
  for y in 0..<a.height {
    for i in 0..<(4 * a.width) {
      worst = max(worst, abs(a.components[y * a.stride + i] - b.components[y * b.stride + i]))
    }
  }
  return worst
}

/// A preset's scene with its default views.
private func presetScene(_ preset: TransitionPreset, _ operation: TransitionOperation) throws
  -> TransitionScene
{
  let animator = PresetAnimator(preset)
  return try animator.animateTransition(using: animator.defaultContext(operation: operation))
}

/// `scene` at `t` with the reference rasteriser.
private func reference(_ renderer: SceneRenderer, _ scene: TransitionScene, _ t: Double) throws
  -> PixelBufferRGBA8
{
  let sample = try scene.sample(at: t)
  let tree = scene.presentation(at: t, completion: sample.isCompleted ? .finished : nil)
  return try renderer.referenceRender(
    sample, presentation: tree, containerSize: scene.containerSize)
}

/// The fast rasteriser (``Rasterizer``, ``SceneRenderer/render(_:at:into:context:)``) held to the
/// reference (``ReferenceRasterizer``, every pixel sampled 16 times in `Double`): every channel
/// within 2/255 on every preset (push and pop, the iOS-screen default views with their text,
/// shapes and images, with and without gradient fills), every spec example at its sample times,
/// and random layer lists (rotations, perspective, filled paths, groups, cross-dissolves).
@Suite("Fast rasteriser against the reference")
struct FastRasterizerTests {
  /// Every preset, push and pop, at two times inside the run with solid fills at 0.2 px/pt,
  /// and half-way with gradient fills at 0.2 px/pt. (Small images: the reference is slow in a debug build;
  /// `segue-bench --workload render --check` compares every preset at 2 px/pt.)
  @Test(arguments: TransitionPreset.allCases)
  func presetsMatchTheReference(preset: TransitionPreset) throws {
    let plain = SceneRenderer(scale: 0.2)
    let detailed = SceneRenderer(scale: 0.2, gradient: true)
    let context = try RenderContext()
    for operation in [TransitionOperation.push, .pop] {
      let scene = try presetScene(preset, operation)
      for (renderer, fractions) in [(plain, [0.3, 0.7]), (detailed, [0.5])] {
        for f in fractions {
          let t = f * scene.duration
          var fast = try PixelBufferRGBA8(width: 0, height: 0)
          try renderer.render(scene, at: t, into: &fast, context: context)
          let expected = try reference(renderer, scene, t)
          let difference = maxChannelDifference(fast, expected)
          #expect(difference <= 2, "\(preset) \(operation) t = \(t): \(difference)/255")
        }
      }
    }
  }

  /// The shipped spec examples at their own sample times, at 0.15 px/pt.
  @Test func specExamplesMatchTheReference() throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/SegueSpec/Examples")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".json") }.sorted()
    #expect(names.count == TransitionPreset.allCases.count)
    let renderer = SceneRenderer(scale: 0.15)
    let context = try RenderContext()
    for name in names {
      let text = try String(
        contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      let document = try loadSpec(text)
      for t in document.sampleTimes {
        var fast = try PixelBufferRGBA8(width: 0, height: 0)
        try renderer.render(document.scene, at: t, into: &fast, context: context)
        let expected = try reference(renderer, document.scene, t)
        let difference = maxChannelDifference(fast, expected)
        #expect(difference <= 2, "\(name) t = \(t): \(difference)/255")
      }
    }
  }

  /// Random render lists on a 40 × 32 image: three layers, each with a random size, rotation
  /// about z, tilt about x and y, perspective, translation, opacity, solid or gradient fill,
  /// optional filled path (a triangle, as a text layer's glyphs are filled) and blend mode, the last two inside an opacity group half of the time. The
  /// Float images agree within 2/255 per component, and quantised within 2.
  @Test func randomLayersMatchTheReference() async {
    await propertyCheck(count: 60, input: Gen.double(in: 0...1).array(of: 48)) { r in
      let items = try Self.randomItems(r)
      let fast = try Rasterizer.render(items, width: 40, height: 32, background: .white)
      let expected = try ReferenceRasterizer.render(
        items, width: 40, height: 32, background: .white)
      #expect(maxComponentDifference(fast, expected) <= 2 / 255)
      #expect(maxChannelDifference(PixelBufferRGBA8(fast), PixelBufferRGBA8(expected)) <= 2)
    }
  }

  /// The layers of ``randomLayersMatchTheReference()`` from 48 uniform numbers.
  static func randomItems(_ r: [Double]) throws -> [RenderItem] {
    var layers: [RenderItem] = []
    for k in 0..<3 {
      let p = Array(r[(16 * k)..<(16 * k + 16)])
      let bounds = Rect(
        x: -1 - 12 * p[0], y: -1 - 10 * p[1], width: 2 + 24 * p[2], height: 2 + 20 * p[3])
      let tilt = p[4] < 0.5 ? 0 : (p[5] - 0.5) * 1.6
      let matrix =
        Transform3D.makeRotation(by: (p[6] - 0.5) * 6.3, x: 0, y: 0, z: 1)
        * .makeRotation(by: tilt, x: p[7] < 0.5 ? 1 : 0, y: p[7] < 0.5 ? 0 : 1, z: 0)
        * .makePerspective(distance: 30 + 200 * p[8])
        * .makeScale(x: 0.5 + p[9], y: 0.5 + p[9], z: 1)
        * .makeTranslation(x: 40 * p[10], y: 32 * p[11], z: 0)
      let top = try RGBAColor(red: p[12], green: p[13], blue: 1 - p[12], alpha: 0.3 + 0.7 * p[14])
      let fill: LayerSnapshot.Fill =
        p[15] < 0.5 ? .solid(top) : .linearGradient(top: top, bottom: .black)
      let (x0, y0) = (bounds.minX + 1, bounds.minY + 1)
      let triangle = Polyline(
        points: [
          Point(x: x0, y: y0), Point(x: x0 + 4 + 8 * p[1], y: y0 + 1),
          Point(x: x0 + 2, y: y0 + 3 + 6 * p[1]),
        ], isClosed: true)
      let paths =
        p[0] < 0.5 ? [LayerSnapshot.PathFill(polygons: [triangle], color: .white)] : []
      let snapshot = LayerSnapshot(bounds: bounds, fill: fill, paths: paths)
      layers.append(
        .layer(
          RasterLayer(
            snapshot: snapshot, matrix: matrix, opacity: 0.4 + 0.6 * p[2],
            blendMode: p[3] < 0.3 ? .add : .over)))
    }
    if r[47] < 0.5 {
      return [layers[0], .group(opacity: 0.3 + 0.7 * r[46], items: Array(layers[1...]))]
    }
    return layers
  }

  /// A layer rotated by 10⁻¹⁶ rad (what interpolation leaves of a rotation) whose left edge lies
  /// exactly on a sample column (x = 2.125): the separable path must not round that sample
  /// differently from the reference. Every component equal to the reference's within 10⁻⁶.
  @Test func nearlyAxisAlignedEdgeOnASample() throws {
    for angle in [0, 1e-16, -1e-16, 3e-13] {
      let layer = RasterLayer(
        snapshot: LayerSnapshot(
          bounds: Rect(x: 0, y: 0, width: 10.25, height: 7.375),
          fill: .linearGradient(top: .black, bottom: .white)),
        matrix: .makeRotation(by: angle, x: 0, y: 0, z: 1)
          * .makeTranslation(x: 2.125, y: 3.375, z: 0))
      var fast = try PixelBufferRGBAFloat(width: 16, height: 16)
      try Rasterizer.draw(layer, into: &fast)
      var expected = try PixelBufferRGBAFloat(width: 16, height: 16)
      try ReferenceRasterizer.draw(layer, into: &expected)
      #expect(maxComponentDifference(fast, expected) <= 1e-6, "angle \(angle)")
    }
  }

  /// Solid rounded rectangles under rotation and perspective, with every combination of
  /// masked corners: edge pixels take the reference's 16 samples bit for bit (one vector per
  /// pixel), so every component equals the reference's within the Float rounding of the
  /// interior (10⁻⁶).
  @Test(arguments: 0..<16)
  func roundedEdgesMatchTheReferenceExactly(corners: Int) throws {
    let layer = RasterLayer(
      snapshot: LayerSnapshot(
        bounds: Rect(x: 0, y: 0, width: 17.5, height: 13.25),
        fill: .solid(try RGBAColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.8)),
        cornerRadius: 4.5, maskedCorners: CornerMask(rawValue: UInt(corners))),
      matrix: .makeRotation(by: 0.3, x: 0, y: 0, z: 1) * .makeRotation(by: 0.6, x: 0, y: 1, z: 0)
        * .makePerspective(distance: 40) * .makeTranslation(x: 7.25, y: 3.5, z: 0),
      opacity: 0.7)
    var fast = try PixelBufferRGBAFloat(width: 28, height: 24)
    try Rasterizer.draw(layer, into: &fast)
    var expected = try PixelBufferRGBAFloat(width: 28, height: 24)
    try ReferenceRasterizer.draw(layer, into: &expected)
    #expect(maxComponentDifference(fast, expected) <= 1e-6)
  }

  /// The RGBA8 path, whose band rows are runs of one colour over Float rows, gives the Float
  /// path's image quantised (within the 1/255 of the two quantisers) for random layers and for
  /// 60 opaque stripes under translucent layers (more runs than a row keeps).
  @Test func runsEqualTheFloatImageQuantised() async throws {
    await propertyCheck(count: 30, input: Gen.double(in: 0...1).array(of: 48)) { r in
      try Self.expectRunsEqualFloat(try Self.randomItems(r), width: 40, height: 32)
    }
    var stripes: [RenderItem] = []
    for k in 0..<60 {
      let colour = try RGBAColor(red: Double(k % 3) / 2, green: Double(k % 5) / 4, blue: 0.5)
      stripes.append(
        .layer(
          RasterLayer(
            snapshot: LayerSnapshot(
              bounds: Rect(x: Double(3 * k), y: 0, width: 3, height: 20), fill: .solid(colour)),
            matrix: .makeTranslation(x: 0, y: 2, z: 0))))
    }
    let veil = RasterLayer(
      snapshot: LayerSnapshot(
        bounds: Rect(x: 10.5, y: 5, width: 150, height: 10),
        fill: .solid(try RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.4))))
    try Self.expectRunsEqualFloat(stripes + [.layer(veil)], width: 190, height: 24)
  }

  private static func expectRunsEqualFloat(_ items: [RenderItem], width: Int, height: Int)
    throws
  {
    let float = try Rasterizer.render(items, width: width, height: height, background: .white)
    var bytes = try PixelBufferRGBA8(width: width, height: height)
    try Rasterizer.render(items, into: &bytes, background: .white, context: try RenderContext())
    #expect(maxChannelDifference(bytes, PixelBufferRGBA8(float)) <= 1)
  }

  /// Two threads, bands of 3 rows, and an image whose width is not a multiple of 4: the same
  /// bytes as one thread with the default bands (each band is independent).
  @Test func threadsAndBandsGiveTheSameBytes() throws {
    let scene = try presetScene(.caFade, .push)
    let renderer = SceneRenderer(scale: 0.33)
    let one = try RenderContext()
    let two = try RenderContext(threads: 2, bandHeight: 3)
    for t in [0.05, 0.125, 0.2] {
      var a = try PixelBufferRGBA8(width: 0, height: 0)
      var b = try PixelBufferRGBA8(width: 0, height: 0)
      try renderer.render(scene, at: t, into: &a, context: one)
      try renderer.render(scene, at: t, into: &b, context: two)
      #expect(a.width % 4 != 0)
      #expect(a == b)
    }
  }

  /// The RGBA8 path (bands quantised in place) equals the Float path quantised.
  @Test func bandsEqualTheFloatImageQuantised() throws {
    let scene = try presetScene(.hero, .pop)
    let renderer = SceneRenderer(scale: 0.5, gradient: true)
    let t = 0.4 * scene.duration
    let sample = try scene.sample(at: t)
    let tree = scene.presentation(at: t)
    let items = try renderer.renderItems(for: sample, presentation: tree)
    let size = try renderer.outputSize(for: scene.containerSize)
    let float = try renderer.render(items, width: size.width, height: size.height)
    var bytes = try PixelBufferRGBA8(width: size.width, height: size.height)
    try renderer.render(items, into: &bytes, context: try RenderContext())
    #expect(maxChannelDifference(bytes, PixelBufferRGBA8(float)) <= 1)
  }

  @Test func rejectsBadContexts() {
    let threads = ValidationError(field: "threads", reason: .outOfRange(lower: 1, upper: 64))
    #expect(throws: threads) { try RenderContext(threads: 0) }
    #expect(throws: threads) { try RenderContext(threads: 65) }
    let band = ValidationError(field: "bandHeight", reason: .outOfRange(lower: 1, upper: 1024))
    #expect(throws: band) { try RenderContext(bandHeight: 0) }
    #expect(throws: band) { try RenderContext(bandHeight: 1025) }
  }

  /// A bad layer is rejected before any pixel is written: the image keeps its bytes.
  @Test func badLayerLeavesTheImageUntouched() throws {
    var image = try PixelBufferRGBA8(width: 4, height: 4, fill: SIMD4(1, 2, 3, 4))
    let before = image
    let bad = RasterLayer(
      snapshot: LayerSnapshot(bounds: Rect(x: 0, y: 0, width: 2, height: 2), fill: .solid(.black)),
      opacity: 2)
    #expect(throws: ValidationError(field: "opacity", reason: .outOfRange(lower: 0, upper: 1))) {
      try Rasterizer.render(
        [.layer(bad)], into: &image, background: .white, context: try RenderContext())
    }
    #expect(image == before)
  }
}

#if DEBUG
  private let rasterAllocationTestsEnabled = false
#else
  private let rasterAllocationTestsEnabled = true
#endif

/// Rendering a frame from its render list allocates nothing once the context and image are warm
/// (optimised builds only: `swift test -c release -Xswiftc -enable-testing`; a debug build calls
/// unspecialised generic code that allocates). Counted on the calling thread by
/// SegueMallocCounter, with one thread so that every band runs there.
@Suite(.enabled(if: rasterAllocationTestsEnabled))
struct RasterAllocationTests {
  @Test func warmFramesAllocateNothing() throws {
    try #require(segue_allocation_counting_available() == 1)
    let renderer = SceneRenderer(scale: 1, gradient: true)
    let context = try RenderContext()
    for preset in TransitionPreset.allCases {
      let scene = try presetScene(preset, .push)
      let size = try renderer.outputSize(for: scene.containerSize)
      var image = try PixelBufferRGBA8(width: size.width, height: size.height)
      for f in [0.2, 0.5, 0.8] {
        let t = f * scene.duration
        let sample = try scene.sample(at: t)
        let items = try renderer.renderItems(
          for: sample, presentation: scene.presentation(at: t))
        try renderer.render(items, into: &image, context: context)
        let before = segue_thread_allocation_count()
        try renderer.render(items, into: &image, context: context)
        #expect(segue_thread_allocation_count() &- before == 0, "\(preset) at \(t)")
      }
    }
  }
}
