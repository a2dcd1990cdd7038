import PropertyBased
import Segue
import Testing

/// `|a − b| ≤ tolerance` field by field.
func affineClose(_ t: AffineTransform, _ f: [Double], tolerance: Double = 1e-12) -> Bool {
  let mine = [t.a, t.b, t.c, t.d, t.tx, t.ty]
  return f.count == 6 && zip(mine, f).allSatisfy { abs($0 - $1) <= tolerance }
}

/// CGAffineTransform semantics: row vector `[x y 1]`, `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
@Suite("AffineTransform")
struct AffineTransformTests {
  /// Generator of well-conditioned transforms: R(θ) · S(sx, sy) · T(tx, ty) with
  /// |sx|, |sy| in [0.5, 2] (det = sx·sy, far from singular).
  static let wellConditioned = Gen.double(in: -4...4).array(of: 5).map { v -> AffineTransform in
    let sx = (v[1] >= 0 ? 1.0 : -1.0) * (0.5 + abs(v[1]) * 0.375)
    let sy = (v[2] >= 0 ? 1.0 : -1.0) * (0.5 + abs(v[2]) * 0.375)
    return AffineTransform.makeRotation(by: v[0]) * .makeScale(x: sx, y: sy)
      * .makeTranslation(x: v[3] * 25, y: v[4] * 25)
  }

  @Test func identityFields() {
    #expect(affineClose(.identity, [1, 0, 0, 1, 0, 0], tolerance: 0))
    #expect(AffineTransform.identity.isIdentity)
    #expect(!AffineTransform.makeTranslation(x: 0, y: 1e-300).isIdentity)
  }

  /// The point (2, 3) under a = 1, b = 2, c = 3, d = 4, tx = 5, ty = 6:
  /// x' = 1·2 + 3·3 + 5 = 16, y' = 2·2 + 4·3 + 6 = 22.
  @Test func applyToPointByHand() {
    let t = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
    #expect(t.apply(to: Point(x: 2, y: 3)) == Point(x: 16, y: 22))
  }

  /// A size ignores the translation: (2, 3) → (1·2 + 3·3, 2·2 + 4·3) = (11, 16).
  @Test func applyToSizeIgnoresTranslation() {
    let t = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
    #expect(t.apply(to: Size(width: 2, height: 3)) == Size(width: 11, height: 16))
  }

  /// A rect maps to the bounding box of its corners: (0, 0, 100, 100) rotated by 45° about the
  /// origin has corners (0, 0), (50√2, 50√2), (0, 100√2), (−50√2, 50√2), so the box is
  /// (−50√2, 0, 100√2, 100√2). (In y-down terms R(45°) sends (100, 0) to (70.7, 70.7).)
  @Test func applyToRectIsBoundingBox() {
    let r = AffineTransform.makeRotation(by: Double.pi / 4).apply(
      to: Rect(x: 0, y: 0, width: 100, height: 100))
    let h = 50 * 2.0.squareRoot()
    #expect(abs(r.origin.x + h) < 1e-12 && abs(r.origin.y) < 1e-12)
    #expect(abs(r.size.width - 2 * h) < 1e-12 && abs(r.size.height - 2 * h) < 1e-12)
  }

  /// Makers: translation (3, 4); scale (2, −1); rotation by 90°: a = 0, b = 1, c = −1, d = 0,
  /// so (1, 0) → (0, 1) as Transform3D.makeRotation about z.
  @Test func makers() {
    #expect(affineClose(.makeTranslation(x: 3, y: 4), [1, 0, 0, 1, 3, 4], tolerance: 0))
    #expect(affineClose(.makeScale(x: 2, y: -1), [2, 0, 0, -1, 0, 0], tolerance: 0))
    #expect(affineClose(.makeRotation(by: Double.pi / 2), [0, 1, -1, 0, 0, 0], tolerance: 1e-15))
    let p = AffineTransform.makeRotation(by: Double.pi / 2).apply(to: Point(x: 1, y: 0))
    #expect(abs(p.x) < 1e-15 && abs(p.y - 1) < 1e-15)
  }

  /// The op-then-t examples in 2D: Concat(T(10, 0), S(2, 2)).tx = 20;
  /// Translate(S(2), 10, 0).tx = 20; Scale(T(10), 2, 2).tx = 10.
  @Test func concatAndOpThenTHelpers() {
    #expect(
      AffineTransform.makeTranslation(x: 10, y: 0).concatenating(.makeScale(x: 2, y: 2)).tx == 20)
    #expect(AffineTransform.makeScale(x: 2, y: 2).translated(x: 10, y: 0).tx == 20)
    let s = AffineTransform.makeTranslation(x: 10, y: 0).scaled(x: 2, y: 2)
    #expect(s.tx == 10 && s.a == 2 && s.d == 2)
  }

  /// rotated(by:) applies the rotation first: T(10, 0) rotated by 90° sends (1, 0) to
  /// (0, 1) + (10, 0) = (10, 1).
  @Test func rotatedByAppliesRotationFirst() {
    let p = AffineTransform.makeTranslation(x: 10, y: 0).rotated(by: Double.pi / 2).apply(
      to: Point(x: 1, y: 0))
    #expect(abs(p.x - 10) < 1e-15 && abs(p.y - 1) < 1e-15)
  }

  /// Inverse by hand: [a b c d tx ty] = [2, 0, 0, 4, 6, 8] (scale then move) has inverse
  /// [1/2, 0, 0, 1/4, −3, −2]: x = (x' − 6)/2, y = (y' − 8)/4.
  @Test func inverseByHand() throws {
    let t = AffineTransform(a: 2, b: 0, c: 0, d: 4, tx: 6, ty: 8)
    #expect(affineClose(try #require(t.inverted()), [0.5, 0, 0, 0.25, -3, -2], tolerance: 0))
  }

  /// A shear with translation: [1, 0, 2, 1, 3, 4] (x' = x + 2y + 3, y' = y + 4), det = 1.
  /// Inverse: y = y' − 4, x = x' − 3 − 2(y' − 4) = x' − 2y' + 5, i.e. [1, 0, −2, 1, 5, −4].
  @Test func inverseOfShearByHand() throws {
    let t = AffineTransform(a: 1, b: 0, c: 2, d: 1, tx: 3, ty: 4)
    #expect(affineClose(try #require(t.inverted()), [1, 0, -2, 1, 5, -4], tolerance: 0))
  }

  /// A singular linear part (scale 0 in y) has no inverse; invertedOrSelf returns the input, as
  /// CGAffineTransformInvert does.
  @Test func singularHasNoInverse() {
    let t = AffineTransform(a: 2, b: 0, c: 0, d: 0, tx: 1, ty: 1)
    #expect(t.inverted() == nil)
    #expect(t.invertedOrSelf() == t)
  }

  /// The singular matrix rule with n = 2 is relative: scale (1e-4, 1e-4) has det 1e-8 ≥
  /// 1e-12·(1e-4)² and is invertible (inverse scale 1e4); (1, 1e-13) has det 1e-13 ≤ 1e-12·1² and
  /// is singular.
  @Test func relativeSingularity() throws {
    let small = try #require(AffineTransform.makeScale(x: 1e-4, y: 1e-4).inverted())
    #expect(abs(small.a - 1e4) < 1e-8 && abs(small.d - 1e4) < 1e-8)
    #expect(AffineTransform.makeScale(x: 1, y: 1e-13).inverted() == nil)
  }

  /// A non-finite field means no inverse (never NaN out).
  @Test func nonFiniteHasNoInverse() {
    #expect(AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: .nan, ty: 0).inverted() == nil)
    #expect(AffineTransform(a: .infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0).inverted() == nil)
  }

  /// t · t⁻¹ ≈ t⁻¹ · t ≈ identity for well-conditioned t (entries ≤ ~2, translations ≤ 100:
  /// rounding ≲ 1e-13).
  @Test func inverseRoundTrip() async {
    await propertyCheck(count: 200, input: Self.wellConditioned) { t in
      let inverse = try #require(t.inverted())
      #expect(affineClose(t * inverse, [1, 0, 0, 1, 0, 0], tolerance: 1e-12))
      #expect(affineClose(inverse * t, [1, 0, 0, 1, 0, 0], tolerance: 1e-12))
    }
  }

  /// Applying `a · b` equals applying `a`, then `b`.
  @Test func concatenationAppliesLeftFirst() async {
    await propertyCheck(
      count: 200, input: Self.wellConditioned, Self.wellConditioned, Gen.double(in: -50...50),
      Gen.double(in: -50...50)
    ) { a, b, x, y in
      let p = Point(x: x, y: y)
      let direct = (a * b).apply(to: p)
      let stepwise = b.apply(to: a.apply(to: p))
      #expect(abs(direct.x - stepwise.x) < 1e-10 && abs(direct.y - stepwise.y) < 1e-10)
    }
  }
}
