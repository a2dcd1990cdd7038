import Segue
import Testing

/// One layer's model values: anchor, frame get/set (CALayer's `frame`) and validation.
@Suite("Layer")
struct LayerTests {
  /// Defaults are CALayer's: zero bounds and position, anchor (0.5, 0.5), identity transforms,
  /// opacity 1, not a transform layer.
  @Test func defaults() {
    let l = Layer(id: "a")
    #expect(l.bounds == .zero && l.position == .zero && l.anchorPoint == Point(x: 0.5, y: 0.5))
    #expect(l.anchorPointZ == 0 && l.zPosition == 0 && l.opacity == 1 && !l.isTransformLayer)
    #expect(l.transform == .identity && l.sublayerTransform == .identity)
  }

  /// A = (origin.x + ax·w, origin.y + ay·h, anchorPointZ): bounds (10, 20, 100, 50), anchor
  /// (0.25, 0.5), anchorPointZ 3 → (35, 45, 3). A negative width is standardised:
  /// bounds (0, 0, −100, 50) spans x ∈ [−100, 0], so anchor 0.25 is at −75.
  @Test func anchorInLayerSpace() {
    var l = Layer(
      id: "a", bounds: Rect(x: 10, y: 20, width: 100, height: 50),
      anchorPoint: Point(x: 0.25, y: 0.5), anchorPointZ: 3)
    #expect(l.anchor == Vector3(x: 35, y: 45, z: 3))
    l.bounds = Rect(x: 0, y: 0, width: -100, height: 50)
    #expect(l.anchor.x == -75)
  }

  /// Identity transform: frame = (position − anchorPoint·size, size). Bounds (0, 0, 100, 50) at
  /// (200, 100): (150, 75, 100, 50); with anchor (0, 0): (200, 100, 100, 50). The bounds origin
  /// does not move the frame.
  @Test func frameWithIdentityTransform() {
    var l = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 200, y: 100))
    #expect(l.frame == Rect(x: 150, y: 75, width: 100, height: 50))
    l.bounds.origin = Point(x: 5, y: 7)
    #expect(l.frame == Rect(x: 150, y: 75, width: 100, height: 50))
    l.anchorPoint = .zero
    #expect(l.frame == Rect(x: 200, y: 100, width: 100, height: 50))
  }

  /// With a transform the frame is the bounding box of the transformed bounds about the anchor:
  /// S(2, 2, 1) doubles 100×50 about (200, 100) → (100, 50, 200, 100); a 90° rotation swaps the
  /// extents → (175, 50, 50, 100).
  @Test func frameWithTransformIsBoundingBox() {
    var l = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 200, y: 100),
      transform: .makeScale(x: 2, y: 2, z: 1))
    #expect(l.frame == Rect(x: 100, y: 50, width: 200, height: 100))
    l.transform = .makeRotation(by: Double.pi / 2, x: 0, y: 0, z: 1)
    let f = l.frame
    #expect(abs(f.origin.x - 175) < 1e-12 && abs(f.origin.y - 50) < 1e-12)
    #expect(abs(f.size.width - 50) < 1e-12 && abs(f.size.height - 100) < 1e-12)
  }

  /// A layer entirely behind the eye (m44 = −1 puts every w below 0) reports the empty frame at
  /// its position.
  @Test func frameBehindEyeIsEmptyAtPosition() {
    var t = Transform3D.identity
    t.m44 = -1
    let l = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 3, y: 4),
      transform: t)
    #expect(l.frame == Rect(x: 3, y: 4, width: 0, height: 0))
  }

  /// Setting (10, 20, 30, 40) with anchor (0.25, 0.5): bounds.size = 30×40, bounds.origin kept,
  /// position = (10 + 0.25·30, 20 + 0.5·40) = (17.5, 40); reading back gives the same frame.
  /// A negative size is standardised: (40, 60, −30, −40) is the same rectangle.
  @Test func frameSetChangesPositionAndSize() {
    var l = Layer(
      id: "a", bounds: Rect(x: 5, y: 6, width: 1, height: 1), anchorPoint: Point(x: 0.25, y: 0.5))
    l.frame = Rect(x: 10, y: 20, width: 30, height: 40)
    #expect(l.bounds == Rect(x: 5, y: 6, width: 30, height: 40))
    #expect(l.position == Point(x: 17.5, y: 40))
    #expect(l.frame == Rect(x: 10, y: 20, width: 30, height: 40))
    l.frame = Rect(x: 40, y: 60, width: -30, height: -40)
    #expect(l.position == Point(x: 17.5, y: 40) && l.bounds.size == Size(width: 30, height: 40))
  }

  /// With a non-identity transform the setter still only sets position and bounds.size from the
  /// untransformed rectangle (documented choice): S(2, 2, 1), set (0, 0, 100, 50) with the
  /// centred anchor → position (50, 25), size 100×50, and the frame then reads the doubled box
  /// about (50, 25): (50 − 100, 25 − 50, 200, 100) = (−50, −25, 200, 100).
  @Test func frameSetIgnoresTransform() {
    var l = Layer(id: "a", transform: .makeScale(x: 2, y: 2, z: 1))
    l.frame = Rect(x: 0, y: 0, width: 100, height: 50)
    #expect(l.position == Point(x: 50, y: 25) && l.bounds.size == Size(width: 100, height: 50))
    #expect(l.transform == .makeScale(x: 2, y: 2, z: 1))
    #expect(l.frame == Rect(x: -50, y: -25, width: 200, height: 100))
  }

  /// Opacity outside [0, 1] is stored and valid (it is clamped when presented).
  @Test func opacityOutOfRangeIsValid() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a", opacity: 2))
    try tree.add(Layer(id: "b", opacity: -1))
    #expect(tree[id: "a"]?.opacity == 2 && tree[id: "b"]?.opacity == -1)
    #expect(try tree.effectiveOpacity(at: 0) == 1 && tree.effectiveOpacity(at: 1) == 0)
    #expect(throws: ValidationError.self) { try Layer(id: "c", opacity: .nan).validate() }
  }

  static let scalarFields = [
    "bounds.origin.x", "bounds.origin.y", "bounds.size.width", "bounds.size.height",
    "position.x", "position.y", "anchorPoint.x", "anchorPoint.y", "anchorPointZ", "zPosition",
    "opacity", "cornerRadius", "borderWidth", "shadowOpacity", "shadowRadius",
    "shadowOffset.width", "shadowOffset.height",
  ]

  /// Each scalar field that is NaN is rejected with its name (one case per field).
  @Test(arguments: scalarFields)
  func nonFiniteScalarIsRejected(field: String) {
    var l = Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10))
    let bad = Double.nan
    switch field {
    case "bounds.origin.x": l.bounds.origin.x = bad
    case "bounds.origin.y": l.bounds.origin.y = bad
    case "bounds.size.width": l.bounds.size.width = bad
    case "bounds.size.height": l.bounds.size.height = bad
    case "position.x": l.position.x = bad
    case "position.y": l.position.y = bad
    case "anchorPoint.x": l.anchorPoint.x = bad
    case "anchorPoint.y": l.anchorPoint.y = bad
    case "anchorPointZ": l.anchorPointZ = bad
    case "zPosition": l.zPosition = bad
    case "cornerRadius": l.cornerRadius = bad
    case "borderWidth": l.borderWidth = bad
    case "shadowOpacity": l.shadowOpacity = bad
    case "shadowRadius": l.shadowRadius = bad
    case "shadowOffset.width": l.shadowOffset.width = bad
    case "shadowOffset.height": l.shadowOffset.height = .infinity
    default: l.opacity = bad
    }
    #expect(throws: ValidationError(field: field, reason: .notFinite)) { try l.validate() }
  }

  /// An infinite position is rejected too.
  @Test func infinitePositionIsRejected() {
    let l = Layer(id: "a", position: Point(x: 0, y: -.infinity))
    #expect(throws: ValidationError(field: "position.y", reason: .notFinite)) { try l.validate() }
  }

  /// A non-finite transform field is rejected with the field index (m11 = 0, m34 = 11, m44 = 15).
  @Test(arguments: [0, 11, 15])
  func nonFiniteTransformIsRejected(index: Int) {
    var l = Layer(id: "a")
    l.transform[index / 4, index % 4] = .infinity
    #expect(throws: ValidationError(field: "transform", index: index, reason: .notFinite)) {
      try l.validate()
    }
  }

  /// The same for sublayerTransform.
  @Test(arguments: [2, 13])
  func nonFiniteSublayerTransformIsRejected(index: Int) {
    var l = Layer(id: "a")
    l.sublayerTransform[index / 4, index % 4] = .nan
    #expect(
      throws: ValidationError(field: "sublayerTransform", index: index, reason: .notFinite)
    ) { try l.validate() }
  }

  /// The appearance properties default to `CALayer`'s values; out-of-range finite values are
  /// stored (and clamped only when presented).
  @Test func appearanceDefaults() throws {
    let l = Layer(id: "a")
    #expect(l.cornerRadius == 0 && !l.masksToBounds && l.borderWidth == 0)
    #expect(l.borderColor == .black && l.shadowColor == .black)
    #expect(l.shadowOpacity == 0 && l.shadowRadius == 3)
    #expect(l.shadowOffset == Size(width: 0, height: -3))
    try Layer(id: "b", cornerRadius: -1, borderWidth: -2, shadowOpacity: 7, shadowRadius: -3)
      .validate()
  }
}
