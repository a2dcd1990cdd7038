import PropertyBased
import Segue
import Testing

/// Depth order in 3D: siblings that leave their parent's plane drawn by depth, intersecting ones
/// cut, everything else by zPosition and insertion.
@Suite("Depth order")
struct DepthOrderTests {
  /// The ids of the draw steps.
  static func ids(_ tree: LayerTree) -> [String] {
    tree.drawOrder().map { tree.layers[$0.layer].id }
  }

  /// A container-sized parent with a perspective of `distance` as its sublayerTransform.
  static func stage(distance: Double = 500) -> Layer {
    var p = box("P", 800, 800, at: 400, 400)
    p.sublayerTransform = .makePerspective(distance: distance)
    return p
  }

  /// The reproducer: `front` (translated to z 60, then turned −0.3 rad about y, so all of it is
  /// nearer the viewer than z = 0) added before the flat `back` it overlaps: Core Animation draws
  /// it on top. Its corners are at z = 60·cos 0.3 ± 100·sin 0.3 ≈ 27.7…86.9 in P's space.
  @Test func tiltedLayerNearerTheViewerIsDrawnOnTop() throws {
    var tree = LayerTree()
    try tree.add(Self.stage())
    var front = box("front", 200, 200, at: 300, 300)
    front.transform = Transform3D.makeRotation(by: -0.3, x: 0, y: 1, z: 0)
      .translated(x: 0, y: 0, z: 60)
    try tree.add(front, parent: "P")
    try tree.add(box("back", 200, 200, at: 320, 320), parent: "P")
    #expect(Self.ids(tree) == ["P", "back", "front"])
    #expect(tree.drawOrder().allSatisfy { $0.region.isWholePlane })
    let geometry = tree.evaluate()
    #expect(geometry.map(\.drawIndex) == [0, 2, 1])
    #expect(geometry.allSatisfy { $0.pieces.isEmpty })
  }

  /// The same two layers flat (no transform): zPosition and insertion, `front` below.
  @Test func flatSiblingsKeepInsertionOrder() throws {
    var tree = LayerTree()
    try tree.add(Self.stage())
    try tree.add(box("front", 200, 200, at: 300, 300), parent: "P")
    try tree.add(box("back", 200, 200, at: 320, 320), parent: "P")
    #expect(Self.ids(tree) == ["P", "front", "back"])
  }
}
