import Segue
import Testing

/// `LayerProperty`: key-path parsing, value kinds, reading and writing every property of a layer,
/// scalar transform components (a `transform.rotation.z` spin), and kind mismatches.
@Suite("LayerProperty")
struct LayerPropertyTests {
  /// Every key path this library animates, with its case and kind.
  static let table: [(String, LayerProperty, AnimationValue.Kind)] = [
    ("opacity", .opacity, .number),
    ("position", .position, .point),
    ("position.x", .positionX, .number),
    ("position.y", .positionY, .number),
    ("zPosition", .zPosition, .number),
    ("bounds", .bounds, .rect),
    ("bounds.size", .boundsSize, .size),
    ("anchorPoint", .anchorPoint, .point),
    ("transform", .transform, .transform),
    ("sublayerTransform", .sublayerTransform, .transform),
    ("backgroundColor", .backgroundColor, .color),
    ("cornerRadius", .cornerRadius, .number),
    ("borderWidth", .borderWidth, .number),
    ("borderColor", .borderColor, .color),
    ("shadowOpacity", .shadowOpacity, .number),
    ("shadowRadius", .shadowRadius, .number),
    ("shadowOffset", .shadowOffset, .size),
    ("shadowColor", .shadowColor, .color),
    ("contentsRect", .contentsRect, .rect),
    ("contentsCenter", .contentsCenter, .rect),
    ("contentsScale", .contentsScale, .number),
    ("fontSize", .fontSize, .number),
    ("foregroundColor", .foregroundColor, .color),
    ("path", .path, .path),
    ("fillColor", .fillColor, .color),
    ("strokeColor", .strokeColor, .color),
    ("lineWidth", .lineWidth, .number),
    ("miterLimit", .miterLimit, .number),
    ("lineDashPhase", .lineDashPhase, .number),
    ("strokeStart", .strokeStart, .number),
    ("strokeEnd", .strokeEnd, .number),
    ("colors", .colors, .colorList),
    ("locations", .locations, .numberList),
    ("startPoint", .startPoint, .point),
    ("endPoint", .endPoint, .point),
    ("transform.rotation.x", .transformComponent(.rotationX), .number),
    ("transform.rotation.y", .transformComponent(.rotationY), .number),
    ("transform.rotation.z", .transformComponent(.rotationZ), .number),
    ("transform.rotation", .transformComponent(.rotation), .number),
    ("transform.scale.x", .transformComponent(.scaleX), .number),
    ("transform.scale.y", .transformComponent(.scaleY), .number),
    ("transform.scale.z", .transformComponent(.scaleZ), .number),
    ("transform.scale", .transformComponent(.scale), .number),
    ("transform.translation.x", .transformComponent(.translationX), .number),
    ("transform.translation.y", .transformComponent(.translationY), .number),
    ("transform.translation.z", .transformComponent(.translationZ), .number),
  ]

  static let r2 = 0.5.squareRoot()

  /// A layer whose every property differs from the defaults.
  static func sample() throws -> Layer {
    Layer(
      id: "a", bounds: Rect(x: 1, y: 2, width: 30, height: 40), position: Point(x: 5, y: 6),
      anchorPoint: Point(x: 0.25, y: 0.75), zPosition: 7,
      transform: .makeTranslation(x: 8, y: 9, z: 10),
      sublayerTransform: .makePerspective(distance: 500), opacity: 0.5,
      backgroundColor: try RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4), cornerRadius: 11,
      borderWidth: 12, borderColor: try RGBAColor(red: 0.5, green: 0.6, blue: 0.7, alpha: 0.8),
      shadowOpacity: 0.9, shadowRadius: 13, shadowOffset: Size(width: 14, height: 15),
      shadowColor: try RGBAColor(red: 0.9, green: 0.8, blue: 0.7, alpha: 0.6))
  }

  /// Each name parses to its case, prints back the same name and holds the listed kind.
  @Test func parsesEveryKeyPath() throws {
    for (name, property, kind) in Self.table {
      #expect(try LayerProperty(keyPath: name) == property)
      #expect(property.keyPath == name)
      #expect(property.description == name)
      #expect(property.valueKind == kind, "\(name)")
    }
  }

  /// An unknown key path is rejected on field "keyPath"; properties Core Animation does not
  /// animate and Segue does not model (``modelOnlyProperties()`` has the two it does) are
  /// rejected as such, and `contents` with the advice to cross-fade two layers.
  @Test func rejectsUnknownKeyPath() {
    #expect(throws: ValidationError(field: "keyPath", reason: .unknown("contentsSize"))) {
      try LayerProperty(keyPath: "contentsSize")
    }
    for name in [
      "contentsGravity", "minificationFilter", "magnificationFilter", "string", "font",
      "alignmentMode", "isWrapped", "truncationMode", "fillRule", "lineCap", "lineJoin",
      "lineDashPattern", "type",
    ] {
      #expect(
        throws: ValidationError(
          field: "keyPath", reason: .invalidState("\(name) is not animatable"))
      ) { try LayerProperty(keyPath: name) }
    }
    #expect {
      try LayerProperty(keyPath: "contents")
    } throws: { error in
      guard let error = error as? ValidationError, case .invalidState(let why) = error.reason
      else { return false }
      return error.field == "keyPath" && why.contains("cross-fade")
    }
  }

  /// `masksToBounds` and `maskedCorners` are known key paths that do not animate: they parse,
  /// hold a boolean and a corner mask, and an animation of them is refused.
  @Test func modelOnlyProperties() throws {
    #expect(try LayerProperty(keyPath: "masksToBounds") == .masksToBounds)
    #expect(try LayerProperty(keyPath: "maskedCorners") == .maskedCorners)
    #expect(LayerProperty.masksToBounds.valueKind == .boolean)
    #expect(LayerProperty.maskedCorners.valueKind == .cornerMask)
    #expect(!LayerProperty.masksToBounds.isAnimatable && !LayerProperty.maskedCorners.isAnimatable)
    #expect(LayerProperty.opacity.isAnimatable)
    var layer = Layer(id: "v")
    try LayerProperty.masksToBounds.set(.boolean(true), in: &layer)
    try LayerProperty.maskedCorners.set(.cornerMask([.layerMinXMinYCorner]), in: &layer)
    #expect(layer.masksToBounds && layer.maskedCorners == .layerMinXMinYCorner)
    #expect(LayerProperty.maskedCorners.value(in: layer) == .cornerMask(.layerMinXMinYCorner))
    for (property, value) in [
      (LayerProperty.masksToBounds, AnimationValue.boolean(true)),
      (.maskedCorners, .cornerMask(.all)),
    ] {
      #expect(
        throws: ValidationError(
          field: "keyPath", reason: .invalidState("\(property.keyPath) is not animatable"))
      ) {
        try LayerAnimation(
          property: property, content: .basic(from: value, to: value),
          timing: MediaTiming(duration: 1))
      }
    }
  }

  /// Key paths are case-sensitive, as in Core Animation.
  @Test func rejectsWrongCase() {
    #expect(throws: ValidationError(field: "keyPath", reason: .unknown("Opacity"))) {
      try LayerProperty(keyPath: "Opacity")
    }
  }

  /// The empty string is not a key path.
  @Test func rejectsEmptyKeyPath() {
    #expect(throws: ValidationError(field: "keyPath", reason: .unknown(""))) {
      try LayerProperty(keyPath: "")
    }
  }

  /// The size-valued `transform.translation` is not a scalar property here.
  @Test func rejectsSizeValuedTranslation() {
    #expect(throws: ValidationError(field: "keyPath", reason: .unknown("transform.translation"))) {
      try LayerProperty(keyPath: "transform.translation")
    }
  }

  /// Reading every property of ``sample()``, by hand from its fields. The transform component
  /// reads of T(8, 9, 10): translations m41…m43, unit scales, zero rotations.
  @Test func readsEveryProperty() throws {
    let layer = try Self.sample()
    let expected: [(LayerProperty, AnimationValue)] = [
      (.opacity, .number(0.5)),
      (.position, .point(Point(x: 5, y: 6))),
      (.positionX, .number(5)),
      (.positionY, .number(6)),
      (.zPosition, .number(7)),
      (.bounds, .rect(Rect(x: 1, y: 2, width: 30, height: 40))),
      (.boundsSize, .size(Size(width: 30, height: 40))),
      (.anchorPoint, .point(Point(x: 0.25, y: 0.75))),
      (.transform, .transform(.makeTranslation(x: 8, y: 9, z: 10))),
      (.sublayerTransform, .transform(.makePerspective(distance: 500))),
      (.backgroundColor, .color(try RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))),
      (.cornerRadius, .number(11)),
      (.borderWidth, .number(12)),
      (.borderColor, .color(try RGBAColor(red: 0.5, green: 0.6, blue: 0.7, alpha: 0.8))),
      (.shadowOpacity, .number(0.9)),
      (.shadowRadius, .number(13)),
      (.shadowOffset, .size(Size(width: 14, height: 15))),
      (.shadowColor, .color(try RGBAColor(red: 0.9, green: 0.8, blue: 0.7, alpha: 0.6))),
      (.transformComponent(.translationX), .number(8)),
      (.transformComponent(.translationY), .number(9)),
      (.transformComponent(.translationZ), .number(10)),
      (.transformComponent(.scale), .number(1)),
      (.transformComponent(.scaleX), .number(1)),
      (.transformComponent(.rotationZ), .number(0)),
    ]
    for (property, value) in expected {
      #expect(property.value(in: layer) == value, "\(property)")
    }
  }

  /// Writing every whole property replaces exactly that field; sub-paths change one component.
  @Test func writesEveryProperty() throws {
    let base = try Self.sample()
    func written(_ property: LayerProperty, _ value: AnimationValue) throws -> Layer {
      var layer = base
      try property.set(value, in: &layer)
      return layer
    }
    var expected = base
    expected.opacity = 0.25
    #expect(try written(.opacity, .number(0.25)) == expected)

    expected = base
    expected.position = Point(x: -1, y: -2)
    #expect(try written(.position, .point(Point(x: -1, y: -2))) == expected)

    expected = base
    expected.position = Point(x: 50, y: 6)
    #expect(try written(.positionX, .number(50)) == expected)

    expected = base
    expected.position = Point(x: 5, y: 60)
    #expect(try written(.positionY, .number(60)) == expected)

    expected = base
    expected.zPosition = -3
    #expect(try written(.zPosition, .number(-3)) == expected)

    expected = base
    expected.bounds = Rect(x: 0, y: 0, width: 10, height: 20)
    #expect(try written(.bounds, .rect(Rect(x: 0, y: 0, width: 10, height: 20))) == expected)

    expected = base
    expected.bounds = Rect(x: 1, y: 2, width: 11, height: 22)
    #expect(try written(.boundsSize, .size(Size(width: 11, height: 22))) == expected)

    expected = base
    expected.anchorPoint = Point(x: 0, y: 1)
    #expect(try written(.anchorPoint, .point(Point(x: 0, y: 1))) == expected)

    expected = base
    expected.transform = .makeScale(x: 2, y: 3, z: 4)
    #expect(try written(.transform, .transform(.makeScale(x: 2, y: 3, z: 4))) == expected)

    expected = base
    expected.sublayerTransform = .makeScale(x: 2, y: 3, z: 4)
    #expect(try written(.sublayerTransform, .transform(.makeScale(x: 2, y: 3, z: 4))) == expected)

    expected = base
    expected.backgroundColor = .black
    #expect(try written(.backgroundColor, .color(.black)) == expected)

    // T(8, 9, 10) with m41 replaced: T(-4, 9, 10).
    expected = base
    expected.transform = .makeTranslation(x: -4, y: 9, z: 10)
    #expect(try written(.transformComponent(.translationX), .number(-4)) == expected)

    // T(8, 9, 10) with uniform scale 2: S(2, 2, 2) then the same translation, so
    // m11 = m22 = m33 = 2 and m41…m43 = 8, 9, 10.
    let scaled = try written(.transformComponent(.scale), .number(2)).transform
    let scaledExpected: [Double] = [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 8, 9, 10, 1]
    for (a, b) in zip(scaled.fields, scaledExpected) { #expect(abs(a - b) < 1e-12) }
  }

  /// `transform.rotation.z` = π/2 written into the identity gives Rz(π/2):
  /// m11 = cos = 0, m12 = sin = 1, m21 = −1, m22 = 0.
  @Test func writesRotationZ() throws {
    var layer = Layer(id: "a")
    try LayerProperty.transformComponent(.rotationZ).set(.number(.pi / 2), in: &layer)
    let expected: [Double] = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    for (a, b) in zip(layer.transform.fields, expected) { #expect(abs(a - b) < 1e-15) }
    let read = LayerProperty.transformComponent(.rotationZ).value(in: layer)
    guard case .number(let angle) = read else {
      Issue.record("expected a number, got \(read)")
      return
    }
    #expect(abs(angle - .pi / 2) < 1e-15)
  }

  /// A scalar animation of `transform.rotation.z` from 0 to 2π spins: at a quarter of the way
  /// (linear pacing) the angle is π/2 and the presented transform is Rz(π/2) — unlike a
  /// `transform` animation identity → Rz(2π), whose ends decompose to the same rotation and which
  /// therefore never moves. At 3/8 the angle 3π/4 gives m11 = −√½, m12 = √½.
  @Test func rotationZSpins() throws {
    let spin = try LayerAnimation.basic(
      .transformComponent(.rotationZ), from: .number(0), to: .number(2 * .pi), duration: 1)
    var tree = LayerTree()
    try tree.add(Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
    let set = AnimationSet([.init(layerID: "a", animation: spin)])

    let quarter = set.presentation(of: tree, at: 0.25)[id: "a"]!.transform
    let rz90: [Double] = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    for (a, b) in zip(quarter.fields, rz90) { #expect(abs(a - b) < 1e-15) }

    let threeEighths = set.presentation(of: tree, at: 0.375)[id: "a"]!.transform
    let rz135: [Double] = [
      -Self.r2, Self.r2, 0, 0, -Self.r2, -Self.r2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
    ]
    for (a, b) in zip(threeEighths.fields, rz135) { #expect(abs(a - b) < 1e-15) }

    // The whole-matrix animation identity → Rz(2π) does not move at all in between.
    let whole = try LayerAnimation.basic(
      .transform, from: .transform(.identity),
      to: .transform(.makeRotation(by: 2 * .pi, x: 0, y: 0, z: 1)),
      duration: 1)
    let still = AnimationSet([.init(layerID: "a", animation: whole)])
      .presentation(of: tree, at: 0.25)[id: "a"]!.transform
    for (a, b) in zip(still.fields, Transform3D.identity.fields) { #expect(abs(a - b) < 1e-12) }
  }

  /// A value of the wrong kind is rejected on field "keyPath" and the layer is unchanged.
  @Test func rejectsKindMismatch() throws {
    var layer = try Self.sample()
    let before = layer
    #expect(
      throws: ValidationError(
        field: "keyPath", reason: .invalidState("opacity holds a number, not a point"))
    ) {
      try LayerProperty.opacity.set(.point(Point(x: 1, y: 1)), in: &layer)
    }
    #expect(layer == before)
  }

  /// Every property rejects a value of every other kind.
  @Test func rejectsEveryOtherKind() throws {
    let byKind: [AnimationValue.Kind: AnimationValue] = [
      .number: .number(1), .point: .point(.zero), .size: .size(.zero), .rect: .rect(.zero),
      .transform: .transform(.identity), .color: .color(.black),
    ]
    for (_, property, kind) in Self.table {
      for (other, value) in byKind where other != kind {
        var layer = try Self.sample()
        #expect(throws: ValidationError.self, "\(property) ← \(other)") {
          try property.set(value, in: &layer)
        }
      }
    }
  }

  /// A non-finite scalar written into a transform component is rejected on that key path.
  @Test func rejectsNaNTransformComponent() throws {
    var layer = try Self.sample()
    #expect(throws: ValidationError(field: "transform.rotation.z", reason: .notFinite)) {
      try LayerProperty.transformComponent(.rotationZ).set(.number(.nan), in: &layer)
    }
  }

  /// Writing each appearance property replaces exactly that field.
  @Test func writesTheAppearanceProperties() throws {
    let base = try Self.sample()
    let red = try RGBAColor(red: 1, green: 0, blue: 0)
    let cases: [(LayerProperty, AnimationValue, (inout Layer) -> Void)] = [
      (.cornerRadius, .number(2), { $0.cornerRadius = 2 }),
      (.borderWidth, .number(3), { $0.borderWidth = 3 }),
      (.borderColor, .color(red), { $0.borderColor = red }),
      (.shadowOpacity, .number(0.1), { $0.shadowOpacity = 0.1 }),
      (.shadowRadius, .number(4), { $0.shadowRadius = 4 }),
      (
        .shadowOffset, .size(Size(width: 5, height: 6)),
        { $0.shadowOffset = Size(width: 5, height: 6) }
      ),
      (.shadowColor, .color(red), { $0.shadowColor = red }),
    ]
    for (property, value, edit) in cases {
      var written = base
      try property.set(value, in: &written)
      var expected = base
      edit(&expected)
      #expect(written == expected, "\(property)")
      #expect(throws: ValidationError.self) { try property.set(.point(.zero), in: &written) }
    }
  }
}
