import Segue
import SegueRender
import Testing

private let red = try! RGBAColor(red: 1, green: 0, blue: 0)

/// `CALayer.maskedCorners` in pixels: `cornerRadius` rounds only the corners in the mask, for the
/// fill, the border and the `masksToBounds` clip, in both rasterisers.
@Suite("Masked corners in pixels")
struct MaskedCornersRenderTests {
  /// A 100 × 100 red layer at (50, 50) on a 200 × 200 white container with corner radius 40 and
  /// `mask`; with `clipped`, a clear parent of that shape that masks to its bounds holds a red
  /// child filling it instead.
  static func scene(_ mask: CornerMask, clipped: Bool = false) throws -> TransitionScene {
    var tree = LayerTree()
    let shape = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 100),
      position: Point(x: 100, y: 100), backgroundColor: clipped ? .clear : red,
      cornerRadius: 40, masksToBounds: clipped, maskedCorners: mask)
    try tree.add(shape)
    if clipped {
      try tree.add(
        Layer(
          id: "fill", bounds: Rect(x: 0, y: 0, width: 100, height: 100),
          position: Point(x: 50, y: 50), backgroundColor: red),
        parent: "card")
    }
    return try TransitionScene(
      duration: 1, containerSize: Size(width: 200, height: 200), model: tree,
      animations: AnimationSet())
  }

  /// Pixels 3 points in from each corner of the card (top-left, top-right, bottom-left,
  /// bottom-right: `CACornerMask`'s bit order). A rounded corner of radius 40 leaves them out:
  /// the point (3, 3) is 52.3 points from the corner's centre (40, 40), more than 40.
  static let probes = [(53, 53), (146, 53), (53, 146), (146, 146)]

  static func render(_ scene: TransitionScene) throws -> [PixelBufferRGBA8] {
    let renderer = SceneRenderer(scale: 1)
    let sample = try scene.sample(at: 0)
    let tree = scene.presentation(at: 0)
    return [
      try renderer.render(sample, presentation: tree, containerSize: scene.containerSize),
      try renderer.referenceRender(sample, presentation: tree, containerSize: scene.containerSize),
    ]
  }

  /// Every one of the 16 corner sets, as a fill and as a clip: each probe is white where its
  /// corner is rounded and red where it is square; the middle of each edge is red either way;
  /// the rasterisers agree within 2/255.
  @Test(arguments: 0..<16, [false, true])
  func onlyTheMaskedCornersAreRounded(_ bits: Int, clipped: Bool) throws {
    let mask = CornerMask(rawValue: UInt(bits))
    let images = try Self.render(Self.scene(mask, clipped: clipped))
    #expect(maxChannelDifference(images[0], images[1]) <= 2)
    for image in images {
      for (k, (x, y)) in Self.probes.enumerated() {
        let rounded = bits & (1 << k) != 0
        let expected: [UInt8] = rounded ? [255, 255, 255, 255] : [255, 0, 0, 255]
        #expect(DepthOrderRenderTests.pixel(image, x, y) == expected, "mask \(mask), corner \(k)")
      }
      #expect(DepthOrderRenderTests.pixel(image, 100, 51) == [255, 0, 0, 255])
      #expect(DepthOrderRenderTests.pixel(image, 51, 100) == [255, 0, 0, 255])
    }
  }

  /// All four corners masked draws exactly the plain rounded rectangle (the default).
  @Test func allCornersIsTheDefault() throws {
    var tree = try Self.scene(.all).model
    var card = tree[id: "card"]!
    #expect(card.maskedCorners == .all)
    card.cornerRadius = 40
    try tree.update(card)
    let a = try Self.render(Self.scene(.all))
    let b = try Self.render(
      TransitionScene(
        duration: 1, containerSize: Size(width: 200, height: 200), model: tree,
        animations: AnimationSet()))
    #expect(a[0].components == b[0].components)
  }
}
