import Segue
import SegueRender
import Testing

/// A resizable snapshot with cap insets in pixels: its caps show exactly the source's pixels
/// and its middle stretches, in both rasterisers.
@Suite("Resizable snapshots in pixels")
struct ResizableSnapshotRenderTests {
  static let blue = try! RGBAColor(red: 0, green: 0, blue: 1)
  static let red = try! RGBAColor(red: 1, green: 0, blue: 0)
  static let green = try! RGBAColor(red: 0, green: 1, blue: 0)
  static let yellow = try! RGBAColor(red: 1, green: 1, blue: 0)

  /// A blue 100 × 100 tile at frame (0, 0, 100, 100): a red 8 × 8 square at (4, 4) in its
  /// top-left cap, a green one at (88, 88) in its bottom-right cap, a yellow 20 × 20 at
  /// (40, 40) in the middle.
  static func builder() throws -> SceneBuilder {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "tile", bounds: Rect(x: 0, y: 0, width: 100, height: 100),
        position: Point(x: 50, y: 50), backgroundColor: blue))
    for (id, x, size, color) in [
      ("a", 8.0, 8.0, red), ("g", 92.0, 8.0, green), ("m", 50.0, 20.0, yellow),
    ] {
      try b.add(
        Layer(
          id: id, bounds: Rect(x: 0, y: 0, width: size, height: size),
          position: Point(x: x, y: x), backgroundColor: color), parent: "tile")
    }
    return b
  }

  static func render(_ b: SceneBuilder) throws -> [PixelBufferRGBA8] {
    let scene = try b.scene(duration: 1, containerSize: Size(width: 200, height: 200))
    let renderer = SceneRenderer(scale: 1)
    let sample = try scene.sample(at: 0)
    let tree = scene.presentation(at: 0)
    return [
      try renderer.render(sample, presentation: tree, containerSize: scene.containerSize),
      try renderer.referenceRender(sample, presentation: tree, containerSize: scene.containerSize),
    ]
  }

  /// Insets of 20 on every side, the snapshot set to frame (0, 0, 180, 140) and the tile moved
  /// away: the 20 × 20 top-left cap equals the tile's pixels at (0, 0), the bottom-right cap the
  /// tile's (80, 80) at (160, 120); the middle point (50, 50) of the tile lands at
  /// (20 + 30·140/60, 20 + 30·100/60) = (90, 70).
  @Test func capsKeepTheSourcePixels() throws {
    let source = try Self.render(Self.builder())
    var b = try Self.builder()
    let snap = try b.resizableSnapshotView(
      of: "tile", from: Rect(x: 0, y: 0, width: 100, height: 100), afterScreenUpdates: true,
      withCapInsets: EdgeInsets(top: 20, left: 20, bottom: 20, right: 20), named: "snap")
    try b.addSubview(snap)
    try b.setFrame(Rect(x: 0, y: 0, width: 180, height: 140), of: "snap")
    try b.set(.position, of: "tile", to: .point(Point(x: 1000, y: 1000)))
    let stretched = try Self.render(b)
    for (a, s) in zip(source, stretched) {
      for j in 0..<20 {
        for i in 0..<20 {
          #expect(DepthOrderRenderTests.pixel(a, i, j) == DepthOrderRenderTests.pixel(s, i, j))
          #expect(
            DepthOrderRenderTests.pixel(a, 80 + i, 80 + j)
              == DepthOrderRenderTests.pixel(s, 160 + i, 120 + j))
        }
      }
      #expect(DepthOrderRenderTests.pixel(s, 6, 6) == [255, 0, 0, 255])
      #expect(DepthOrderRenderTests.pixel(s, 173, 133) == [0, 255, 0, 255])
      #expect(DepthOrderRenderTests.pixel(s, 90, 70) == [255, 255, 0, 255])
      // The yellow square stretched to 20·7/3 × 20·5/3: from x = 20 + 20·7/3 ≈ 66.7 to 113.3.
      #expect(DepthOrderRenderTests.pixel(s, 68, 70) == [255, 255, 0, 255])
      #expect(DepthOrderRenderTests.pixel(s, 64, 70) == [0, 0, 255, 255])
      #expect(DepthOrderRenderTests.pixel(s, 185, 70) == [255, 255, 255, 255])
    }
  }
}
