import Foundation
import Segue
import SegueRender
import Testing

/// The cube transition's faces in pixels (the ported cube animator's geometry at curve fraction
/// `e`): where the face turned deep behind the plane shows past the shared edge, both
/// rasterisers draw the nearer face over it, whatever the insertion order.
@Suite("Cube faces in pixels")
struct CubeDrawOrderRenderTests {
  static let size = Size(width: 390, height: 844)

  /// The white face being left hinged on its right edge and turned by `−π/2·e`, the black face
  /// being shown hinged on its left edge and turned by `π/2·(1 − e)`, the edge at
  /// `390·(1 − e)`, under the container's perspective 500; the face being shown added last.
  static func cube(_ e: Double) throws -> TransitionScene {
    var tree = LayerTree()
    let edge = Point(x: 390 * (1 - e), y: 422)
    for (id, anchor, angle, color) in [
      ("from", 1.0, -Double.pi / 2 * e, RGBAColor.white),
      ("to", 0.0, Double.pi / 2 * (1 - e), RGBAColor.black),
    ] {
      try tree.add(
        Layer(
          id: id, bounds: Rect(x: 0, y: 0, width: 390, height: 844), position: edge,
          anchorPoint: Point(x: anchor, y: 0.5),
          transform: .makeRotation(by: angle, x: 0, y: 1, z: 0), backgroundColor: color))
    }
    try tree.setContainer(ContainerLayer(sublayerTransform: .makePerspective(distance: 500)))
    return try TransitionScene(
      duration: 1, containerSize: size, model: tree, animations: AnimationSet())
  }

  /// Early (`e = 0.02`) the face being shown shows past the edge on the right behind the face
  /// being left (white there); late (`e = 0.98`) the face being left shows past it on the left
  /// behind the face being shown (black there). The probe is the middle of the overlap on the
  /// middle row, found from the sampled corners; the rasterisers agree within 2/255.
  @Test(arguments: [0.02, 0.98])
  func nearerFaceCoversTheOther(_ e: Double) throws {
    let scene = try Self.cube(e)
    let sample = try scene.sample(at: 0)
    let far = e < 0.5 ? "to" : "from"
    let corners = sample[far]!.corners.map(\.point)
    let (hinge, outer) = far == "from" ? (corners[1].x, corners[0].x) : (corners[0].x, corners[1].x)
    #expect(far == "from" ? outer > hinge + 8 : outer < hinge - 8, "the faces overlap")
    let scale = 0.25
    let x = Int(((hinge + outer) / 2 * scale).rounded(.down))
    let y = Int(422 * scale)
    let renderer = SceneRenderer(scale: scale)
    let tree = scene.presentation(at: 0)
    let fast = try renderer.render(sample, presentation: tree, containerSize: Self.size)
    let reference = try renderer.referenceRender(
      sample, presentation: tree, containerSize: Self.size)
    #expect(maxChannelDifference(fast, reference) <= 2)
    let nearer: [UInt8] = e < 0.5 ? [255, 255, 255, 255] : [0, 0, 0, 255]
    for image in [fast, reference] {
      #expect(DepthOrderRenderTests.pixel(image, x, y) == nearer)
    }
  }
}
