import Segue
import Testing

/// Depth order on hostile input: very deep trees, cuts that would multiply without bound, layers
/// behind the eye, degenerate and overflowing geometry. Nothing crashes, recurses or explodes;
/// no timing assertions (the walk is iterative and linear in the layer count).
@Suite("Depth order limits")
struct DepthOrderLimitsTests {
  typealias T = DepthOrderTests

  /// A chain `l0 ← l1 ← …` of `n` layers, each a 10 × 10 sublayer of the one before, under
  /// `parent` (the container when `nil`).
  static func addChain(_ tree: inout LayerTree, _ n: Int, under parent: String?) throws {
    var above = parent
    for k in 0..<n {
      try tree.add(box("l\(k)", 10, 10, at: 5, 5), parent: above)
      above = "l\(k)"
    }
  }

  /// 100 000 levels: one step per layer, in tree order (each layer before its sublayer).
  @Test func hundredThousandLevelChain() throws {
    var tree = LayerTree()
    try Self.addChain(&tree, 100_000, under: nil)
    let steps = tree.drawOrder()
    #expect(steps.count == 100_000)
    #expect(steps.indices.allSatisfy { steps[$0].layer == $0 && steps[$0].region.isWholePlane })
  }

  /// A cut layer (`b` of the crossing pair) with a 100 000-level chain inside: each chain layer
  /// is drawn once per piece of `b`, its two regions complementary (the cut carried down one
  /// level at a time).
  @Test func chainInsideACutLayer() throws {
    var tree = LayerTree()
    try tree.add(T.stage())
    try tree.add(T.turned("a", at: 400, 400, angle: 0.5), parent: "P")
    try tree.add(T.turned("b", at: 400, 400, angle: -0.5), parent: "P")
    try Self.addChain(&tree, 100_000, under: "b")
    let steps = tree.drawOrder()
    #expect(steps.count == 1 + 1 + 2 * 100_001)
    let last = tree.count - 1
    let regions = steps.filter { $0.layer == last }.map(\.region)
    #expect(regions.count == 2)
    let cut = regions.map { $0.halfPlanes.last! }
    #expect(cut[0] == cut[1].complement)
  }

  /// Cuts inside cuts: 24 levels, each a crossing pair whose second member holds the next level.
  /// Unbounded, every level would double the steps below it (2²⁴ steps); the draw order stays
  /// within ``DepthSortLimits/maximumSteps(layerCount:)`` and still draws every layer.
  @Test func nestedCutsStayWithinTheStepLimit() throws {
    var tree = LayerTree()
    try tree.add(T.stage())
    var host = "P"
    for level in 0..<24 {
      try tree.add(T.turned("a\(level)", at: 100, 100, angle: 0.5), parent: host)
      var b = T.turned("b\(level)", at: 100, 100, angle: -0.5)
      b.sublayerTransform = .makePerspective(distance: 500)
      try tree.add(b, parent: host)
      host = "b\(level)"
    }
    let steps = tree.drawOrder()
    #expect(steps.count <= DepthSortLimits.maximumSteps(layerCount: tree.count))
    #expect(Set(steps.map(\.layer)).count == tree.count)
    #expect(steps.count > tree.count)
  }

  /// Layers behind the eye (zPosition beyond the perspective distance), crossing the eye plane
  /// (turned 90° about y at the eye distance), collapsed (zero bounds, a zero scale) and with
  /// matrices that overflow `Double`: every layer gets a step, nothing crashes.
  @Test func hostileGeometryIsOrdered() throws {
    var tree = LayerTree()
    try tree.add(T.stage(distance: 300))
    try tree.add(box("behind", 200, 200, at: 400, 400, z: 600), parent: "P")
    try tree.add(T.turned("crossing", at: 400, 400, angle: Double.pi / 2, z: 0), parent: "P")
    var grazing = T.turned("grazing", at: 400, 400, angle: 1.2, z: 250)
    grazing.zPosition = 40
    try tree.add(grazing, parent: "P")
    try tree.add(box("empty", 0, 0, at: 400, 400), parent: "P")
    var flat = T.turned("flat", at: 400, 400, angle: 0.3)
    flat.transform = flat.transform.scaled(x: 0, y: 1, z: 1)
    try tree.add(flat, parent: "P")
    var huge = T.turned("huge", at: 400, 400, angle: 0.7)
    huge.transform = huge.transform.scaled(x: 1e200, y: 1e200, z: 1e200)
    try tree.add(huge, parent: "P")
    var huger = box("huger", 10, 10, at: 0, 0)
    huger.transform = .makeScale(x: 1e200, y: 1e200, z: 1e200)
    try tree.add(huger, parent: "huge")
    try tree.add(T.turned("plain", at: 380, 420, angle: -0.4), parent: "P")
    let steps = tree.drawOrder()
    #expect(Set(steps.map(\.layer)) == Set(0..<tree.count))
    #expect(
      steps.allSatisfy { step in
        step.region.halfPlanes.allSatisfy { !$0.a.isNaN && !$0.b.isNaN && !$0.c.isNaN }
      })
    _ = tree.evaluate()
  }

  /// Many mutually crossing members (60 thin sheets through one axis, like the pages of an open
  /// book): ordered with cuts, within the limits, every layer drawn.
  @Test func manyCrossingMembers() throws {
    var tree = LayerTree()
    try tree.add(T.stage())
    for k in 0..<60 {
      try tree.add(
        T.turned("s\(k)", at: 400, 400, angle: Double(k) * Double.pi / 60 + 0.01), parent: "P")
    }
    let steps = tree.drawOrder()
    #expect(Set(steps.map(\.layer)).count == tree.count)
    #expect(steps.count <= DepthSortLimits.maximumSteps(layerCount: tree.count))
    try T.expectPaintersOrder(tree, context: "P", steps: steps)
  }
}
