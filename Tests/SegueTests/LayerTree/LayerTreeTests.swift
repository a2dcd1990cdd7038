import PropertyBased
import Segue
import Testing

func near(_ p: Point, _ x: Double, _ y: Double, _ tolerance: Double = 1e-12) -> Bool {
  abs(p.x - x) <= tolerance && abs(p.y - y) <= tolerance
}

/// A layer with bounds (0, 0, w, h) at `position`.
func box(
  _ id: String, _ w: Double, _ h: Double, at x: Double, _ y: Double, z: Double = 0
) -> Layer {
  Layer(
    id: id, bounds: Rect(x: 0, y: 0, width: w, height: h), position: Point(x: x, y: y),
    zPosition: z)
}

/// The flat layer tree: editing, CALayer's container-space geometry and the sampling rules,
/// opacity, draw order and rejected input.
@Suite("LayerTree")
struct LayerTreeTests {
  // MARK: Geometry by hand

  /// A 100×100 layer at (50, 50): T(−50, −50, 0) · I · T(50, 50, 0) = identity, exactly.
  @Test func centredLayerHasIdentityMatrix() throws {
    var tree = LayerTree()
    try tree.add(box("a", 100, 100, at: 50, 50))
    #expect(try tree.matrixToContainer(at: 0).isIdentity)
    #expect(try tree.localMatrix(at: 0).isIdentity)
  }

  /// Anchor (0, 0): the matrix is T(50, 50, 0) and the corners are (50, 50), (150, 50),
  /// (150, 150), (50, 150).
  @Test func anchorAtOrigin() throws {
    var tree = LayerTree()
    var l = box("a", 100, 100, at: 50, 50)
    l.anchorPoint = .zero
    try tree.add(l)
    #expect(try tree.matrixToContainer(at: 0) == .makeTranslation(x: 50, y: 50, z: 0))
    let corners = try tree.corners(at: 0).map(\.point)
    #expect(
      corners == [
        Point(x: 50, y: 50), Point(x: 150, y: 50), Point(x: 150, y: 150), Point(x: 50, y: 150),
      ])
  }

  /// Parent 200×100 at (130, 90) → parent-to-container T(30, 40, 0). Child 40×20 at (100, 50)
  /// rotated by 90° about z (x' = −y, y' = x). Child TL (0, 0) → −A = (−20, −10) → rotated
  /// (10, −20) → + (100, 50) = (110, 30) → + (30, 40) = (140, 70). Likewise TR (40, 0) →
  /// (20, −10) → (10, 20) → (140, 110); BR (40, 20) → (20, 10) → (−10, 20) → (120, 110);
  /// BL (0, 20) → (−20, 10) → (−10, −20) → (120, 70).
  @Test func rotatedChildUnderTranslatedParent() throws {
    var tree = LayerTree()
    try tree.add(box("parent", 200, 100, at: 130, 90))
    var child = box("child", 40, 20, at: 100, 50)
    child.transform = .makeRotation(by: Double.pi / 2, x: 0, y: 0, z: 1)
    try tree.add(child, parent: "parent")
    let c = try tree.corners(at: 1).map(\.point)
    #expect(near(c[0], 140, 70) && near(c[1], 140, 110) && near(c[2], 120, 110))
    #expect(near(c[3], 120, 70))
  }

  /// Parent 200×200 at (100, 100) (identity to the container) with sublayerTransform P(500);
  /// child 100×100 at (100, 100) with zPosition 100. In parent space a point of the child is at
  /// (x, y, 100); about the parent's anchor (100, 100) the perspective gives w = 1 − 100/500 = 0.8,
  /// so offsets from (100, 100) grow by 1/0.8 = 1.25: the centre stays at (100, 100) and the
  /// corners (50, 50) … go to (100 ± 62.5, 100 ± 62.5). A second child, 20×20 at (150, 100), same
  /// z, has its centre pushed from (150, 100) to (100 + 62.5, 100) = (162.5, 100): one vanishing
  /// point, the parent's anchor.
  @Test func sublayerPerspectiveSharesVanishingPoint() throws {
    var tree = LayerTree()
    var parent = box("parent", 200, 200, at: 100, 100)
    parent.sublayerTransform = .makePerspective(distance: 500)
    try tree.add(parent)
    try tree.add(box("a", 100, 100, at: 100, 100, z: 100), parent: "parent")
    try tree.add(box("b", 20, 20, at: 150, 100, z: 100), parent: "parent")
    let a = try tree.corners(at: 1)
    #expect(near(a[0].point, 37.5, 37.5) && near(a[2].point, 162.5, 162.5))
    #expect(near(a[1].point, 162.5, 37.5) && near(a[3].point, 37.5, 162.5))
    let bCentre = try #require(try tree.matrixToContainer(at: 2).mapPoint(Point(x: 10, y: 10)))
    #expect(near(bCentre, 162.5, 100))
    // The parent is an ordinary layer: the child is flattened into it, so z is 0 in the container.
    #expect(a.allSatisfy { $0.z == 0 && abs($0.w - 0.8) < 1e-15 })
  }

  /// Flattening (F = diag(1, 1, 0, 1)) against a transform layer: parent 100×100 at (50, 50)
  /// turned 90° about y (x' = z, z' = −x); child 10×10 at (50, 50) with zPosition 40, its centre at
  /// (50, 50, 40) in parent space. Ordinary parent: z is dropped first → (50, 50, 0) → about the
  /// anchor (0, 0, 0) → unchanged → (50, 50). Transform layer: (0, 0, 40) about the anchor →
  /// rotated (40, 0, 0) → (90, 50), z = 0.
  @Test func flatteningVersusTransformLayer() throws {
    for isTransformLayer in [false, true] {
      var tree = LayerTree()
      var parent = box("parent", 100, 100, at: 50, 50)
      parent.transform = .makeRotation(by: Double.pi / 2, x: 0, y: 1, z: 0)
      parent.isTransformLayer = isTransformLayer
      try tree.add(parent)
      try tree.add(box("child", 10, 10, at: 50, 50, z: 40), parent: "parent")
      let centre = try tree.matrixToContainer(at: 1).project(Vector3(x: 5, y: 5, z: 0))
      if isTransformLayer {
        #expect(near(centre.point, 90, 50, 1e-12) && abs(centre.z) < 1e-12)
      } else {
        #expect(near(centre.point, 50, 50, 1e-12))
      }
    }
  }

  /// A top-level layer keeps z (the container applies no F): zPosition 30 gives z = 30.
  @Test func containerKeepsZ() throws {
    var tree = LayerTree()
    try tree.add(box("a", 10, 10, at: 5, 5, z: 30))
    #expect(try tree.corners(at: 0).allSatisfy { $0.z == 30 })
  }

  // MARK: GNUstep's conversion tests ("checked against Apple")

  /// Parent (0, 0, 200, 200) at (100, 100); child (0, 0, 50, 50) at (100, 50). In the parent the
  /// child's (0, 0) is at (75, 25) and (50, 50) at (125, 75); a parent bounds origin (10, 20)
  /// leaves this alone.
  @Test func gnustepConversionPlain() throws {
    for origin in [Point.zero, Point(x: 10, y: 20)] {
      var tree = LayerTree()
      var parent = box("parent", 200, 200, at: 100, 100)
      parent.bounds.origin = origin
      try tree.add(parent)
      try tree.add(box("child", 50, 50, at: 100, 50), parent: "parent")
      let m = try tree.matrix(from: 1, to: 0)
      #expect(near(try #require(m.mapPoint(.zero)), 75, 25))
      #expect(near(try #require(m.mapPoint(Point(x: 50, y: 50))), 125, 75))
    }
  }

  /// The child scaled by S(2, 2, 1): (0, 0) → (50, 0), (50, 50) → (150, 100); the rect
  /// (0, 0, 10, 20) → (50, 0, 20, 40).
  @Test func gnustepConversionScaledChild() throws {
    var tree = LayerTree()
    try tree.add(box("parent", 200, 200, at: 100, 100))
    var child = box("child", 50, 50, at: 100, 50)
    child.transform = .makeScale(x: 2, y: 2, z: 1)
    try tree.add(child, parent: "parent")
    let m = try tree.matrix(from: 1, to: 0)
    #expect(near(try #require(m.mapPoint(.zero)), 50, 0))
    #expect(near(try #require(m.mapPoint(Point(x: 50, y: 50))), 150, 100))
    #expect(
      m.mapRect(Rect(x: 0, y: 0, width: 10, height: 20)) == Rect(x: 50, y: 0, width: 20, height: 40)
    )
  }

  /// Parent sublayerTransform T(10, 20, 0): the child's (0, 0) → (85, 45).
  @Test func gnustepConversionSublayerTranslation() throws {
    var tree = LayerTree()
    var parent = box("parent", 200, 200, at: 100, 100)
    parent.sublayerTransform = .makeTranslation(x: 10, y: 20, z: 0)
    try tree.add(parent)
    try tree.add(box("child", 50, 50, at: 100, 50), parent: "parent")
    #expect(near(try #require(try tree.matrix(from: 1, to: 0).mapPoint(.zero)), 85, 45))
  }

  /// A sublayerTransform example: parent sublayerTransform S(2, 2, 1), child transform T(5, 6, 0).
  /// (0, 0) → −A (−25, −25) → T (−20, −19) → + position (80, 31) → about the parent anchor
  /// (100, 100): (−20, −69)·2 = (−40, −138) → (60, −38).
  @Test func gnustepConversionSublayerScaleAndChildTranslation() throws {
    var tree = LayerTree()
    var parent = box("parent", 200, 200, at: 100, 100)
    parent.sublayerTransform = .makeScale(x: 2, y: 2, z: 1)
    try tree.add(parent)
    var child = box("child", 50, 50, at: 100, 50)
    child.transform = .makeTranslation(x: 5, y: 6, z: 0)
    try tree.add(child, parent: "parent")
    #expect(near(try #require(try tree.matrix(from: 1, to: 0).mapPoint(.zero)), 60, -38))
  }

  /// Documented choice: the sublayerTransform pivot P includes the parent's bounds origin. Parent
  /// bounds (10, 20, 200, 200) at (100, 100), sublayerTransform S(2, 2, 1), so P = (110, 120);
  /// child (0, 0, 50, 50) at (100, 50): its (0, 0) is at (75, 25) before C, then
  /// ((75, 25) − (110, 120))·2 + (110, 120) = (40, −70). (GNUstep's pivot (100, 100) would give
  /// (50, −50).)
  @Test func sublayerPivotIncludesParentBoundsOrigin() throws {
    var tree = LayerTree()
    var parent = box("parent", 200, 200, at: 100, 100)
    parent.bounds.origin = Point(x: 10, y: 20)
    parent.sublayerTransform = .makeScale(x: 2, y: 2, z: 1)
    try tree.add(parent)
    try tree.add(box("child", 50, 50, at: 100, 50), parent: "parent")
    #expect(near(try #require(try tree.matrix(from: 1, to: 0).mapPoint(.zero)), 40, -70))
  }

  /// A 100×100 child at (100, 100) rotated by 45°: its bounds map to the box
  /// (100 − 50√2, 100 − 50√2, 100√2, 100√2) and its centre stays at (100, 100).
  @Test func gnustepConversionRotatedRect() throws {
    var tree = LayerTree()
    try tree.add(box("parent", 200, 200, at: 100, 100))
    var child = box("child", 100, 100, at: 100, 100)
    child.transform = .makeRotation(by: Double.pi / 4, x: 0, y: 0, z: 1)
    try tree.add(child, parent: "parent")
    let m = try tree.matrix(from: 1, to: 0)
    let r = try #require(m.mapRect(Rect(x: 0, y: 0, width: 100, height: 100)))
    let h = 50 * 2.0.squareRoot()
    #expect(near(r.origin, 100 - h, 100 - h) && abs(r.size.width - 2 * h) < 1e-12)
    #expect(near(try #require(m.mapPoint(Point(x: 50, y: 50))), 100, 100))
  }

  /// A grandchild converts through both parents: g0 (400², at 200, 200) ⊃ g1 (200², at 100, 100)
  /// ⊃ g2 (50², at 25, 25): g2's (0, 0) lands at (0, 0) in g0.
  @Test func gnustepConversionGrandchild() throws {
    var tree = LayerTree()
    try tree.add(box("g0", 400, 400, at: 200, 200))
    try tree.add(box("g1", 200, 200, at: 100, 100), parent: "g0")
    try tree.add(box("g2", 50, 50, at: 25, 25), parent: "g1")
    #expect(near(try #require(try tree.matrix(from: 2, to: 0).mapPoint(.zero)), 0, 0))
    #expect(try tree.matrix(from: 2, to: 2) == .identity)
  }

  /// matrix(from:to:) composes: from → parent, then F_parent, then parent → ancestor; and the
  /// container matrix is matrix(from:to: nil).
  @Test func matrixFromToComposes() throws {
    var tree = LayerTree()
    var a = box("a", 100, 100, at: 60, 70)
    a.transform = .makeRotation(by: 0.3, x: 1, y: 0, z: 0)
    a.sublayerTransform = .makePerspective(distance: 300)
    try tree.add(a)
    var b = box("b", 50, 50, at: 10, 20, z: 5)
    b.transform = .makeRotation(by: 0.4, x: 0, y: 1, z: 0)
    try tree.add(b, parent: "a")
    try tree.add(box("c", 10, 10, at: 3, 4, z: 7), parent: "b")
    var flatten = Transform3D.identity
    flatten.m33 = 0
    let expected =
      try tree.matrix(from: 2, to: 1) * flatten * tree.localMatrix(at: 1) * flatten
      * tree.localMatrix(at: 0)
    #expect(try tree.matrixToContainer(at: 2).isApproximatelyEqual(to: expected))
    #expect(try tree.matrix(from: 2, to: nil) == tree.matrixToContainer(at: 2))
    #expect(try tree.localMatrix(at: 2) == tree.matrix(from: 2, to: 1))
  }

  /// matrix(from:to:) with a non-ancestor is rejected.
  @Test func matrixToNonAncestorIsRejected() throws {
    var tree = LayerTree()
    try tree.add(box("a", 1, 1, at: 0, 0))
    try tree.add(box("b", 1, 1, at: 0, 0))
    #expect(throws: ValidationError.self) { try tree.matrix(from: 0, to: 1) }
  }

  // MARK: Opacity and draw order

  /// Clamped, then multiplied: parent 0.5, child 2 → 0.5·1 = 0.5; child −1 → 0; grandchild 0.5
  /// under children 0.8 → 0.5·0.8·0.5 = 0.2.
  @Test func opacityClampedAndMultiplied() throws {
    var tree = LayerTree()
    var p = Layer(id: "p", opacity: 0.5)
    try tree.add(p)
    p = Layer(id: "over", opacity: 2)
    try tree.add(p, parent: "p")
    try tree.add(Layer(id: "under", opacity: -1), parent: "p")
    try tree.add(Layer(id: "mid", opacity: 0.8), parent: "p")
    try tree.add(Layer(id: "leaf", opacity: 0.5), parent: "mid")
    #expect(try tree.effectiveOpacity(at: 1) == 0.5)
    #expect(try tree.effectiveOpacity(at: 2) == 0)
    #expect(abs(try tree.effectiveOpacity(at: 4) - 0.2) < 1e-16)
  }

  /// Depth-first, a layer before its sublayers, siblings by zPosition then insertion order:
  /// roots r0 (z 1), r1 (z 0), r2 (z 0) → r1, r2, r0; r1's children c0 (z 5), c1 (z −1), c2 (z 5)
  /// → c1, c0, c2, with c0's child g right after c0.
  @Test func drawOrderWithTies() throws {
    var tree = LayerTree()
    try tree.add(box("r0", 1, 1, at: 0, 0, z: 1))  // 0
    try tree.add(box("r1", 1, 1, at: 0, 0, z: 0))  // 1
    try tree.add(box("c0", 1, 1, at: 0, 0, z: 5), parent: "r1")  // 2
    try tree.add(box("r2", 1, 1, at: 0, 0, z: 0))  // 3
    try tree.add(box("c1", 1, 1, at: 0, 0, z: -1), parent: "r1")  // 4
    try tree.add(box("c2", 1, 1, at: 0, 0, z: 5), parent: "r1")  // 5
    try tree.add(box("g", 1, 1, at: 0, 0, z: -9), parent: "c0")  // 6
    let ids = tree.drawOrder().map { tree.layers[$0.layer].id }
    #expect(ids == ["r1", "c1", "c0", "g", "c2", "r2", "r0"])
  }

  /// evaluate() gives the same numbers as the per-layer methods, in one pass, with draw positions.
  @Test func evaluateMatchesPerLayerMethods() throws {
    var tree = LayerTree()
    var a = box("a", 100, 80, at: 60, 70, z: 2)
    a.transform = .makeRotation(by: 0.3, x: 1, y: 1, z: 0)
    a.sublayerTransform = .makePerspective(distance: 300)
    a.opacity = 0.7
    try tree.add(a)
    var b = box("b", 50, 50, at: 10, 20, z: 5)
    b.transform = .makeRotation(by: 0.4, x: 0, y: 1, z: 0)
    b.isTransformLayer = true
    b.opacity = 1.5
    try tree.add(b, parent: "a")
    try tree.add(box("c", 10, 10, at: 3, 4, z: 7), parent: "b")
    try tree.add(box("d", 10, 10, at: 3, 4, z: -7))
    let all = tree.evaluate()
    let order = tree.drawOrder()
    #expect(all.count == 4)
    for i in 0..<4 {
      #expect(all[i].id == tree.layers[i].id)
      #expect(all[i].parent == (try tree.parentIndex(at: i)))
      #expect(all[i].localMatrix == (try tree.localMatrix(at: i)))
      #expect(all[i].matrix.isApproximatelyEqual(to: try tree.matrixToContainer(at: i)))
      #expect(all[i].opacity == (try tree.effectiveOpacity(at: i)))
      #expect(order[all[i].drawIndex].layer == i)
      let corners = try tree.corners(at: i)
      for k in 0..<4 {
        #expect(near(all[i].corners[k].point, corners[k].point.x, corners[k].point.y, 1e-9))
      }
    }
  }

  // MARK: Editing

  /// Lookup by id and index, children in insertion order, parent nil = container.
  @Test func lookupAndChildren() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a"))
    try tree.add(Layer(id: "b"), parent: "a")
    try tree.add(Layer(id: "c"))
    try tree.add(Layer(id: "d"), parent: "a")
    #expect(tree.count == 4 && tree.index(of: "c") == 2 && tree.index(of: "zz") == nil)
    #expect(tree[id: "d"]?.id == "d" && tree[id: "zz"] == nil)
    #expect(try tree.children(of: "a") == [1, 3])
    #expect(try tree.children(of: nil) == [0, 2])
    #expect(try tree.parentIndex(at: 3) == 0)
  }

  /// remove(id:) removes the subtree and keeps the others in order; indices and parents follow.
  @Test func removeSubtree() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a"))
    try tree.add(Layer(id: "b"), parent: "a")
    try tree.add(Layer(id: "c"))
    try tree.add(Layer(id: "d"), parent: "b")
    try tree.add(Layer(id: "e"), parent: "c")
    let removed = try tree.remove(id: "b")
    #expect(removed.map(\.id) == ["b", "d"])
    #expect(tree.layers.map(\.id) == ["a", "c", "e"])
    #expect(
      try tree.parentIndex(at: 2) == 1 && tree.index(of: "e") == 2 && tree.index(of: "d") == nil)
  }

  /// move re-parents a subtree as the last sublayer of the new parent.
  @Test func moveSubtree() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a"))
    try tree.add(Layer(id: "b"), parent: "a")
    try tree.add(Layer(id: "x"), parent: "b")
    try tree.add(Layer(id: "c"))
    try tree.add(Layer(id: "d"), parent: "c")
    try tree.move("b", toParent: "c")
    #expect(tree.layers.map(\.id) == ["a", "c", "d", "b", "x"])
    #expect(try tree.children(of: "c").map { tree.layers[$0].id } == ["d", "b"])
    #expect(try tree.parentIndex(at: 4) == 3)
    try tree.move("b", toParent: nil)
    #expect(try tree.children(of: nil).map { tree.layers[$0].id } == ["a", "c", "b"])
  }

  /// update replaces the stored values of a layer by id.
  @Test func updateReplacesValues() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a"))
    try tree.update(Layer(id: "a", opacity: 0.25))
    #expect(tree[id: "a"]?.opacity == 0.25)
  }

  // MARK: Rejected input (one test per condition)

  @Test func duplicateIDIsRejected() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a"))
    #expect(throws: ValidationError(field: "id", reason: .duplicate("a"))) {
      try tree.add(Layer(id: "a"))
    }
  }

  @Test func unknownParentIsRejected() {
    var tree = LayerTree()
    #expect(throws: ValidationError(field: "parent", reason: .unknown("nope"))) {
      try tree.add(Layer(id: "a"), parent: "nope")
    }
    #expect(tree.count == 0)
  }

  @Test func invalidLayerIsRejectedByAdd() {
    var tree = LayerTree()
    #expect(throws: ValidationError(field: "zPosition", reason: .notFinite)) {
      try tree.add(Layer(id: "a", zPosition: .nan))
    }
    #expect(tree.count == 0)
  }

  @Test func invalidLayerIsRejectedByUpdate() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a"))
    #expect(throws: ValidationError(field: "opacity", reason: .notFinite)) {
      try tree.update(Layer(id: "a", opacity: .nan))
    }
    #expect(tree[id: "a"]?.opacity == 1)
  }

  @Test func updateOfUnknownIDIsRejected() {
    var tree = LayerTree()
    #expect(throws: ValidationError(field: "id", reason: .unknown("a"))) {
      try tree.update(Layer(id: "a"))
    }
  }

  @Test func removeOfUnknownIDIsRejected() {
    var tree = LayerTree()
    #expect(throws: ValidationError(field: "id", reason: .unknown("a"))) {
      try tree.remove(id: "a")
    }
  }

  @Test func moveUnderItselfIsCyclic() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a"))
    #expect(throws: ValidationError(field: "parent", reason: .cyclic)) {
      try tree.move("a", toParent: "a")
    }
  }

  @Test func moveUnderDescendantIsCyclic() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a"))
    try tree.add(Layer(id: "b"), parent: "a")
    try tree.add(Layer(id: "c"), parent: "b")
    #expect(throws: ValidationError(field: "parent", reason: .cyclic)) {
      try tree.move("a", toParent: "c")
    }
    #expect(tree.layers.map(\.id) == ["a", "b", "c"])
    #expect(try tree.parentIndex(at: 0) == nil)
  }

  @Test func moveOfUnknownIDIsRejected() {
    var tree = LayerTree()
    #expect(throws: ValidationError(field: "id", reason: .unknown("a"))) {
      try tree.move("a", toParent: nil)
    }
  }

  @Test func indexOutOfRangeIsRejected() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a"))
    #expect(throws: ValidationError(field: "index", reason: .outOfRange(lower: 0, upper: 0))) {
      try tree.matrixToContainer(at: 1)
    }
    #expect(throws: ValidationError(field: "index", reason: .outOfRange(lower: 0, upper: 0))) {
      try tree.corners(at: -1)
    }
  }

  // MARK: Properties

  /// For random chains of layers, evaluate() agrees with matrix(from:to: nil) and every corner is
  /// finite (never NaN), whatever the perspective.
  @Test func randomChainsAreFiniteAndConsistent() async {
    await propertyCheck(
      count: 100, input: Gen.double(in: -3...3).array(of: 12), Gen.bool, Gen.double(in: 50...800)
    ) { v, transformLayer, d in
      var tree = LayerTree()
      var parent: String? = nil
      for k in 0..<3 {
        var l = box(
          "l\(k)", 100 + 10 * v[4 * k], 60, at: 50 * v[4 * k + 1], 40, z: 30 * v[4 * k + 2])
        l.transform = .makeRotation(by: v[4 * k + 3], x: 1, y: 1, z: 0)
        l.sublayerTransform = .makePerspective(distance: d)
        l.isTransformLayer = transformLayer && k == 1
        try tree.add(l, parent: parent)
        parent = l.id
      }
      let all = tree.evaluate()
      for i in 0..<3 {
        #expect(all[i].matrix.isApproximatelyEqual(to: try tree.matrix(from: i, to: nil)))
        for c in all[i].corners {
          #expect(c.point.x.isFinite && c.point.y.isFinite && c.z.isFinite && c.w.isFinite)
        }
      }
    }
  }
}
