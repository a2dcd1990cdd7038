import PropertyBased
import Segue
import Testing

/// Depth order in 3D: siblings that leave their parent's plane drawn by depth, intersecting ones
/// cut, everything else by zPosition and insertion.
@Suite("Depth order")
struct DepthOrderTests {
  typealias D = DepthOrderSupport

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

  /// A 200×200 layer centred at (x, y), turned by `angle` about y after a z translation.
  static func turned(_ id: String, at x: Double, _ y: Double, angle: Double, z: Double = 0)
    -> Layer
  {
    var l = box(id, 200, 200, at: x, y)
    l.transform = Transform3D.makeRotation(by: angle, x: 0, y: 1, z: 0).translated(x: 0, y: 0, z: z)
    return l
  }

  // MARK: Order without cuts

  /// The reproducer: `front` (translated to z 60, then turned −0.3 rad about y, so all of it is
  /// nearer the viewer than z = 0) added before the flat `back` it overlaps: Core Animation draws
  /// it on top. Its corners are at z = 60·cos 0.3 ± 100·sin 0.3 ≈ 27.7…86.9 in P's space.
  @Test func tiltedLayerNearerTheViewerIsDrawnOnTop() throws {
    var tree = LayerTree()
    try tree.add(Self.stage())
    try tree.add(Self.turned("front", at: 300, 300, angle: -0.3, z: 60), parent: "P")
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

  /// Coplanar tilted layers (turned about y, anchors on one vertical line): `a` has zPosition 5
  /// and its transform moves it back by 5 after the turn, so it lies in `b`'s plane: zPosition
  /// decides (a on top), then insertion.
  @Test func coplanarLayersKeepZPositionThenInsertion() throws {
    for (za, expected) in [(5.0, ["P", "b", "a"]), (-5.0, ["P", "a", "b"])] {
      var tree = LayerTree()
      try tree.add(Self.stage())
      var a = Self.turned("a", at: 300, 300, angle: 0.4)
      a.zPosition = za
      a.transform = a.transform.concatenating(.makeTranslation(x: 0, y: 0, z: -za))
      try tree.add(a, parent: "P")
      try tree.add(Self.turned("b", at: 300, 350, angle: 0.4), parent: "P")
      #expect(Self.ids(tree) == expected)
    }
    var tree = LayerTree()
    try tree.add(Self.stage())
    try tree.add(Self.turned("a", at: 300, 300, angle: 0.4), parent: "P")
    try tree.add(Self.turned("b", at: 300, 350, angle: 0.4), parent: "P")
    #expect(Self.ids(tree) == ["P", "a", "b"])
  }

  /// Flat siblings at depths that disagree with their zPositions (a z translation in the
  /// transform): depth decides where they overlap (`under` before `near`); `far` overlaps
  /// nothing and goes as early as the input order allows.
  @Test func depthDecidesOnlyWhereLayersOverlap() throws {
    var tree = LayerTree()
    var near = box("near", 100, 100, at: 100, 100)
    near.transform = .makeTranslation(x: 0, y: 0, z: 50)
    try tree.add(near)
    try tree.add(box("far", 100, 100, at: 600, 600, z: 10))
    try tree.add(box("under", 100, 100, at: 150, 150, z: 20))
    // Input order by zPosition: near (0), far (10), under (20); depth: under (20) below near (50).
    #expect(Self.ids(tree) == ["far", "under", "near"])
  }

  /// Core Animation renders each layer's sublayers into it: W (a sublayer of Y, zPosition 1000)
  /// is never drawn over Z, Y's later sibling (cocoa-dev, 26 July 2011).
  @Test func sublayersStayInTheirLayersPlane() throws {
    var tree = LayerTree()
    try tree.add(Self.stage())
    try tree.add(box("Y", 200, 200, at: 300, 300), parent: "P")
    try tree.add(box("Z", 200, 200, at: 320, 320), parent: "P")
    try tree.add(box("W", 50, 50, at: 100, 100, z: 1000), parent: "Y")
    #expect(Self.ids(tree) == ["P", "Y", "W", "Z"])
  }

  /// A page turn (half-page snapshots under a perspective of 800): `turning` (added first, so
  /// below both halves in insertion order) turns about the spine, its anchor on the left edge.
  /// Turned by 0 < θ < 90° it rises over the right half, by 90° < θ < 180° over the left half:
  /// it is drawn after the half it covers, never cut (it only touches them at the spine).
  @Test func pageTurnIsDrawnOverThePageItCovers() throws {
    for degrees in [10.0, 45, 80, 100, 135, 170] {
      var tree = LayerTree()
      var stage = box("P", 400, 300, at: 200, 150)
      stage.sublayerTransform = .makePerspective(distance: 800)
      try tree.add(stage)
      var turning = box("turning", 200, 300, at: 200, 150)
      turning.anchorPoint = Point(x: 0, y: 0.5)
      turning.transform = .makeRotation(by: -degrees * Double.pi / 180, x: 0, y: 1, z: 0)
      try tree.add(turning, parent: "P")
      try tree.add(box("left", 200, 300, at: 100, 150), parent: "P")
      try tree.add(box("right", 200, 300, at: 300, 150), parent: "P")
      let ids = Self.ids(tree)
      let covered = degrees < 90 ? "right" : "left"
      #expect(ids.count == 4, "\(degrees)°")
      #expect(ids.firstIndex(of: covered)! < ids.firstIndex(of: "turning")!, "\(degrees)°")
      try Self.expectPaintersOrder(tree, context: "P")
    }
  }

  // MARK: Cuts

  /// Two 200×200 layers crossing like an X seen from above (turned ±0.5 rad about y, one centre):
  /// `b` is cut along the line where they cross; its half behind `a` is drawn first, then `a`,
  /// then its half in front (`a` is the partition's first plane and stays whole). Turning by
  /// +0.5 puts the right half of `a` behind (z = −x·sin 0.5), so `b`'s left half is the far one.
  @Test func crossingLayersAreCutAndInterleaved() throws {
    var tree = LayerTree()
    try tree.add(Self.stage())
    try tree.add(Self.turned("a", at: 400, 400, angle: 0.5), parent: "P")
    try tree.add(Self.turned("b", at: 400, 400, angle: -0.5), parent: "P")
    let steps = tree.drawOrder()
    #expect(Self.ids(tree) == ["P", "b", "a", "b"])
    let b = try #require(tree.index(of: "b"))
    let geometry = tree.evaluate()
    let pieces = geometry[b].pieces
    #expect(pieces.map(\.order) == [1, 3])
    #expect(steps[2].region.isWholePlane)
    // b's bounds are (0, 0, 200, 200); the cut is its vertical centre line u = 100.
    let first = pieces[0].polygon.map(\.x)
    let second = pieces[1].polygon.map(\.x)
    #expect(first.allSatisfy { $0 <= 100 + 1e-9 } && second.allSatisfy { $0 >= 100 - 1e-9 })
    #expect(pieces[0].region.contains(Point(x: 50, y: 50)))
    #expect(pieces[1].region.contains(Point(x: 150, y: 50)))
    try Self.expectPaintersOrder(tree, context: "P")
    Self.expectPiecesTile(tree)
  }

  /// Three bars overlapping in a cycle (0 over 1, 1 over 2, 2 over 0; each tilted along its
  /// length from z = +20 to −20): no order of the whole bars is right, so one is cut.
  @Test func cyclicOverlapIsResolvedByCutting() throws {
    var tree = LayerTree()
    for (i, bar) in Self.cyclicBars().enumerated() {
      try tree.add(D.sheet("bar\(i)", origin: bar.origin, a: bar.a, b: bar.b))
    }
    let geometry = tree.evaluate()
    #expect(geometry.contains { !$0.pieces.isEmpty })
    #expect(tree.drawOrder().count > 3)
    try Self.expectPaintersOrder(tree, context: nil)
    Self.expectPiecesTile(tree)
  }

  /// Three bars 240 × 30 whose centres sit 50 points from the origin, at 0°, 120° and 240°
  /// (checked numerically: each overlaps the next on screen and lies above it there).
  static func cyclicBars() -> [(origin: Vector3, a: Vector3, b: Vector3)] {
    (0..<3).map { i in
      let angle = Double(i) * 2 * Double.pi / 3
      let (dx, dy) = (Double.cos(angle), Double.sin(angle))
      let (nx, ny) = (-dy, dx)
      let (cx, cy) = (
        50 * Double.cos(angle + Double.pi / 2) + 400, 50 * Double.sin(angle + Double.pi / 2) + 400
      )
      return (
        Vector3(x: cx - dx * 120 - nx * 15, y: cy - dy * 120 - ny * 15, z: 20),
        Vector3(x: dx * 240, y: dy * 240, z: -40), Vector3(x: nx * 30, y: ny * 30, z: 0)
      )
    }
  }

  /// A transform layer passes its sublayers into its parent's context: the two sublayers of `t`
  /// cross (one turned 90° about y) and are cut, though they are P's grandchildren.
  @Test func transformLayerSublayersAreSortedInItsParentsContext() throws {
    var tree = LayerTree()
    try tree.add(Self.stage())
    var t = box("t", 0, 0, at: 400, 400)
    t.isTransformLayer = true
    t.transform = .makeRotation(by: 0.6, x: 0, y: 1, z: 0)
    try tree.add(t, parent: "P")
    try tree.add(box("flat", 200, 200, at: 0, 0), parent: "t")
    try tree.add(Self.turned("edge", at: 0, 0, angle: Double.pi / 2), parent: "t")
    let ids = Self.ids(tree)
    #expect(ids.first == "P" && ids[1] == "t")
    #expect(ids.filter { $0 == "flat" }.count + ids.filter { $0 == "edge" }.count == 3)
    try Self.expectPaintersOrder(tree, context: "P")
    Self.expectPiecesTile(tree)
  }

  /// A sublayer of a cut layer is drawn once per piece, right after it, each time clipped to
  /// that piece (its pieces tile it), and before the next member of the context.
  @Test func sublayersOfACutLayerFollowEachPiece() throws {
    var tree = LayerTree()
    try tree.add(Self.stage())
    try tree.add(Self.turned("a", at: 400, 400, angle: 0.5), parent: "P")
    try tree.add(Self.turned("b", at: 400, 400, angle: -0.5), parent: "P")
    try tree.add(box("d", 160, 40, at: 100, 100), parent: "b")
    try tree.add(box("e", 20, 20, at: 10, 10), parent: "d")
    #expect(Self.ids(tree) == ["P", "b", "d", "e", "a", "b", "d", "e"])
    let geometry = tree.evaluate()
    let d = try #require(tree.index(of: "d"))
    #expect(geometry[d].pieces.map(\.order) == [2, 6])
    // d spans b's u from 20 to 180: the cut at b's u = 100 is d's u = 80.
    #expect(geometry[d].pieces[0].polygon.allSatisfy { $0.x <= 80 + 1e-9 })
    #expect(geometry[d].pieces[1].polygon.allSatisfy { $0.x >= 80 - 1e-9 })
    // e lies wholly in the first piece: its second piece is empty.
    let e = try #require(tree.index(of: "e"))
    #expect(geometry[e].pieces.map(\.polygon.count) == [4, 0])
    Self.expectPiecesTile(tree)
  }

  // MARK: Properties

  /// Random parallelograms in 3D (2…6 top-level layers in the container, or sublayers of a
  /// perspective parent, all in front of the eye): no piece is drawn before a piece that
  /// overlaps it on screen and lies behind it there, and each layer's pieces tile its bounds.
  @Test func randomQuadsArePaintedBackToFront() async {
    await propertyCheck(
      count: 120, input: Gen.int(in: 0...1_000_000), Gen.int(in: 2...6), Gen.bool
    ) { seed, count, perspective in
      var r = SplitMix(seed: UInt64(seed))
      var tree = LayerTree()
      if perspective { try? tree.add(Self.stage(distance: r.uniform(600, 1200))) }
      for i in 0..<count {
        let origin = Vector3(x: r.uniform(200, 500), y: r.uniform(200, 500), z: r.uniform(-80, 80))
        let a = Vector3(x: r.uniform(-250, 250), y: r.uniform(-250, 250), z: r.uniform(-150, 150))
        let b = Vector3(x: r.uniform(-250, 250), y: r.uniform(-250, 250), z: r.uniform(-150, 150))
        let layer = D.sheet("q\(i)", origin: origin, a: a, b: b, z: r.uniform(-20, 20))
        try? tree.add(layer, parent: perspective ? "P" : nil)
      }
      #expect((try? Self.expectPaintersOrder(tree, context: perspective ? "P" : nil)) != nil)
      Self.expectPiecesTile(tree)
    }
  }

  /// The check has teeth: the reproducer's zPosition-and-insertion order (front first) fails it.
  @Test func paintersCheckRejectsTheFlatOrder() throws {
    var tree = LayerTree()
    try tree.add(Self.stage())
    try tree.add(Self.turned("front", at: 300, 300, angle: -0.3, z: 60), parent: "P")
    try tree.add(box("back", 200, 200, at: 320, 320), parent: "P")
    let flat = (0..<3).map { DrawStep(layer: $0) }
    withKnownIssue {
      try Self.expectPaintersOrder(tree, context: "P", steps: flat)
    }
  }

  // MARK: Checks

  /// Every pair of pieces of members of `context` (the container when `nil`) that overlap on
  /// screen (in the context's space after the divide) by more than a sliver: the one drawn later
  /// is not behind the one drawn earlier at the centre of their overlap.
  static func expectPaintersOrder(
    _ tree: LayerTree, context: String?, steps: [DrawStep]? = nil
  ) throws {
    let root = context.flatMap { tree.index(of: $0) }
    var drawn: [(layer: Int, points: [Vector3])] = []
    for step in steps ?? tree.drawOrder() {
      guard try isMember(tree, step.layer, of: root) else { continue }
      let layer = tree.layers[step.layer]
      let polygon = step.region.polygon(clipping: layer.bounds)
      guard polygon.count >= 3 else { continue }
      let matrix = try tree.matrix(from: step.layer, to: root)
      drawn.append((step.layer, D.project(polygon, matrix)))
    }
    for (j, later) in drawn.enumerated() {
      for earlier in drawn[..<j] where earlier.layer != later.layer {
        let flat = { (p: [Vector3]) in p.map { Point(x: $0.x, y: $0.y) } }
        let overlap = D.intersection(flat(earlier.points), flat(later.points))
        guard abs(ConvexRegion.signedArea(overlap)) > 1e-3 else { continue }
        let c = D.centroid(overlap)
        guard let zEarlier = D.depth(of: earlier.points, at: c),
          let zLater = D.depth(of: later.points, at: c)
        else { continue }
        #expect(
          zLater >= zEarlier - 1e-6,
          "\(tree.layers[later.layer].id) drawn over \(tree.layers[earlier.layer].id) at \(c)")
      }
    }
  }

  /// Whether `layer` is a member of the context of `root`: its parent, or the parent of a chain
  /// of transform layers above it, is `root`.
  static func isMember(_ tree: LayerTree, _ layer: Int, of root: Int?) throws -> Bool {
    var parent = try tree.parentIndex(at: layer)
    while let p = parent, p != root, tree.layers[p].isTransformLayer {
      parent = try tree.parentIndex(at: p)
    }
    return parent == root
  }

  /// The pieces of every cut layer tile its bounds: their polygons' areas sum to the bounds'
  /// area, and sample points of the bounds lie in exactly one region.
  static func expectPiecesTile(_ tree: LayerTree) {
    for (i, g) in tree.evaluate().enumerated() where !g.pieces.isEmpty {
      let bounds = tree.layers[i].bounds
      let area = g.pieces.reduce(0) { $0 + abs(ConvexRegion.signedArea($1.polygon)) }
      #expect(abs(area - bounds.width * bounds.height) <= 1e-9 * bounds.width * bounds.height)
      for k in 0..<49 {
        let p = Point(
          x: bounds.minX + bounds.width * (Double(k % 7) + 0.5) / 7,
          y: bounds.minY + bounds.height * (Double(k / 7) + 0.5) / 7)
        #expect(g.pieces.filter { $0.region.contains(p) }.count == 1, "\(g.id) at \(p)")
      }
    }
  }
}

/// A small deterministic generator (SplitMix64) for geometry from a seed.
struct SplitMix {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform value in `[lo, hi)`.
  mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
    lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53)
  }
}
