import PropertyBased
import Segue
import Testing

/// `AnimationValue`: kinds, validation (field and channel index), text, and the interpolation the
/// evaluators use (channel-wise lerp, transforms by decomposition, mismatched kinds switch at 0.5).
@Suite("AnimationValue")
struct AnimationValueTests {
  static let r2 = 0.5.squareRoot()

  /// Every case reports its kind; the eleven kinds are listed in declaration order.
  @Test func kinds() throws {
    let values: [AnimationValue] = [
      .number(1), .point(Point(x: 1, y: 2)), .size(Size(width: 3, height: 4)),
      .rect(Rect(x: 1, y: 2, width: 3, height: 4)), .transform(.identity), .color(.black),
      .path(BezierPath()), .colorList([.black]), .numberList([0]),
      .boolean(true), .cornerMask(.all),
    ]
    #expect(values.map(\.kind) == AnimationValue.Kind.allCases)
    #expect(
      AnimationValue.Kind.allCases.map(\.rawValue) == [
        "number", "point", "size", "rect", "transform", "color", "path", "colorList", "numberList",
        "boolean", "cornerMask",
      ])
  }

  /// The kinds that do not animate take the new value at every fraction (a UIView block applies
  /// them at once) and have no channels to check.
  @Test func modelOnlyKindsTakeTheNewValueAtOnce() throws {
    for f in [-0.5, 0, 0.25, 1, 2] {
      #expect(
        AnimationValue.interpolate(.boolean(false), .boolean(true), fraction: f) == .boolean(true))
      #expect(
        AnimationValue.interpolate(.cornerMask(.all), .cornerMask([]), fraction: f)
          == .cornerMask([]))
    }
    try AnimationValue.boolean(false).validate(field: "masksToBounds")
    #expect(CornerMask(rawValue: 0xFF) == .all)
    #expect(CornerMask(name: "layerMaxXMaxYCorner") == .layerMaxXMaxYCorner)
    #expect(CornerMask(name: "bottomRight") == nil)
    #expect(CornerMask.all.description.hasPrefix("[layerMinXMinYCorner, layerMaxXMinYCorner"))
  }

  /// Finite values of every kind pass.
  @Test func finiteValuesPass() throws {
    let values: [AnimationValue] = [
      .number(-1e300), .point(Point(x: 1, y: 2)), .size(Size(width: -3, height: 4)),
      .rect(Rect(x: 1, y: 2, width: 3, height: 4)),
      .transform(.makeRotation(by: 1, x: 0, y: 1, z: 0)),
      .color(try RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)),
    ]
    for value in values { try value.validate(field: "toValue") }
    // The check reads the numbers: each kind with a NaN in it is rejected.
    let nan = Double.nan
    var transform = Transform3D.identity
    transform.m43 = nan
    let bad: [AnimationValue] = [
      .number(nan), .point(Point(x: 1, y: nan)), .size(Size(width: nan, height: 4)),
      .rect(Rect(x: 1, y: 2, width: 3, height: nan)), .transform(transform),
    ]
    for value in bad {
      #expect(throws: ValidationError.self, "\(value)") { try value.validate(field: "toValue") }
    }
  }

  /// A NaN number is rejected on the given field, channel 0.
  @Test func rejectsNaNNumber() {
    #expect(throws: ValidationError(field: "fromValue", index: 0, reason: .notFinite)) {
      try AnimationValue.number(.nan).validate(field: "fromValue")
    }
  }

  /// A point's y is channel 1.
  @Test func rejectsInfinitePointY() {
    #expect(throws: ValidationError(field: "toValue", index: 1, reason: .notFinite)) {
      try AnimationValue.point(Point(x: 0, y: .infinity)).validate(field: "toValue")
    }
  }

  /// A size's width is channel 0.
  @Test func rejectsNaNSizeWidth() {
    #expect(throws: ValidationError(field: "v", index: 0, reason: .notFinite)) {
      try AnimationValue.size(Size(width: .nan, height: 1)).validate(field: "v")
    }
  }

  /// A rectangle's channels are x, y, width, height: the height is channel 3.
  @Test func rejectsNaNRectHeight() {
    #expect(throws: ValidationError(field: "v", index: 3, reason: .notFinite)) {
      try AnimationValue.rect(Rect(x: 0, y: 0, width: 1, height: .nan)).validate(field: "v")
    }
  }

  /// A transform's channels are its fields m11…m44: m43 is channel 14.
  @Test func rejectsInfiniteTransformField() {
    var t = Transform3D.identity
    t.m43 = -.infinity
    #expect(throws: ValidationError(field: "v", index: 14, reason: .notFinite)) {
      try AnimationValue.transform(t).validate(field: "v")
    }
  }

  /// Text for messages.
  @Test func descriptions() throws {
    #expect(AnimationValue.number(1.5).description == "1.5")
    #expect(AnimationValue.point(Point(x: 1, y: 2)).description == "(1.0, 2.0)")
    #expect(AnimationValue.size(Size(width: 3, height: 4)).description == "3.0×4.0")
    #expect(
      AnimationValue.rect(Rect(x: 1, y: 2, width: 3, height: 4)).description
        == "(1.0, 2.0, 3.0, 4.0)")
    #expect(AnimationValue.color(.white).description == "rgba(1.0, 1.0, 1.0, 1.0)")
    #expect(
      AnimationValue.transform(.identity).description
        == "[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]")
  }

  /// Channel-wise lerp `a·(1 − f) + b·f`, by hand at f = 0.25:
  /// number 0 → 8: 2; point (0, 10) → (8, 30): (2, 15); size (4, 4) → (8, 0): (5, 3);
  /// rect (0, 0, 100, 100) → (40, 20, 0, 200): (10, 5, 75, 125);
  /// colour (0, 0, 0, 1) → (1, 0.5, 0, 0): (0.25, 0.125, 0, 0.75).
  @Test func interpolatesChannelWise() throws {
    let f = 0.25
    #expect(AnimationValue.interpolate(.number(0), .number(8), fraction: f) == .number(2))
    #expect(
      AnimationValue.interpolate(
        .point(Point(x: 0, y: 10)), .point(Point(x: 8, y: 30)), fraction: f)
        == .point(Point(x: 2, y: 15)))
    #expect(
      AnimationValue.interpolate(
        .size(Size(width: 4, height: 4)), .size(Size(width: 8, height: 0)), fraction: f)
        == .size(Size(width: 5, height: 3)))
    #expect(
      AnimationValue.interpolate(
        .rect(Rect(x: 0, y: 0, width: 100, height: 100)),
        .rect(Rect(x: 40, y: 20, width: 0, height: 200)), fraction: f)
        == .rect(Rect(x: 10, y: 5, width: 75, height: 125)))
    let orange = try RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0)
    #expect(
      AnimationValue.interpolate(.color(.black), .color(orange), fraction: f)
        == .color(try RGBAColor(red: 0.25, green: 0.125, blue: 0, alpha: 0.75)))
  }

  /// Extrapolation (spring overshoot): 0 → 10 at f = 1.5 is 15 and at −0.5 is −5; a colour
  /// extrapolated past white clamps to 1.
  @Test func extrapolates() throws {
    #expect(AnimationValue.interpolate(.number(0), .number(10), fraction: 1.5) == .number(15))
    #expect(AnimationValue.interpolate(.number(0), .number(10), fraction: -0.5) == .number(-5))
    let grey = try RGBAColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
    #expect(
      AnimationValue.interpolate(.color(grey), .color(.white), fraction: 2) == .color(.white))
  }

  /// Transforms interpolate by decomposition: Rz(0) → Rz(π/2) at 0.5 is Rz(π/4), i.e.
  /// m11 = m22 = cos 45° = √½, m12 = √½, m21 = −√½ (CA's Rz: m12 = sin θ, m21 = −sin θ). A
  /// field-by-field lerp would give m11 = m22 = 0.5, m12 = 0.5, m21 = −0.5 (not a rotation).
  @Test func interpolatesTransformsByDecomposition() throws {
    let v = AnimationValue.interpolate(
      .transform(.identity), .transform(.makeRotation(by: .pi / 2, x: 0, y: 0, z: 1)), fraction: 0.5
    )
    guard case .transform(let m) = v else {
      Issue.record("expected a transform, got \(v)")
      return
    }
    let expected: [Double] = [
      Self.r2, Self.r2, 0, 0, -Self.r2, Self.r2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
    ]
    for (a, b) in zip(m.fields, expected) { #expect(abs(a - b) < 1e-14) }
  }

  /// Values of different kinds: `a` below 0.5, `b` from 0.5 on.
  @Test func mismatchedKindsSwitchAtHalf() {
    let a = AnimationValue.number(1)
    let b = AnimationValue.point(Point(x: 2, y: 3))
    #expect(AnimationValue.interpolate(a, b, fraction: 0.49) == a)
    #expect(AnimationValue.interpolate(a, b, fraction: 0.5) == b)
    #expect(AnimationValue.interpolate(a, b, fraction: 1) == b)
  }

  /// Exact ends for every kind and any finite values: f = 0 gives `a`, f = 1 gives `b`.
  @Test func exactEnds() async {
    await propertyCheck(
      count: 200, input: Gen.double(in: -1e6...1e6), Gen.double(in: -1e6...1e6),
      Gen.double(in: -1e6...1e6)
    ) { x, y, z in
      let pairs: [(AnimationValue, AnimationValue)] = [
        (.number(x), .number(y)),
        (.point(Point(x: x, y: z)), .point(Point(x: y, y: x))),
        (
          .rect(Rect(x: x, y: y, width: z, height: x)), .rect(Rect(x: z, y: x, width: y, height: 1))
        ),
        (
          .transform(.makeTranslation(x: x, y: y, z: 0)),
          .transform(.makeTranslation(x: z, y: x, z: 0))
        ),
      ]
      for (a, b) in pairs {
        #expect(AnimationValue.interpolate(a, b, fraction: 0) == a)
        #expect(AnimationValue.interpolate(a, b, fraction: 1) == b)
      }
    }
  }
}
