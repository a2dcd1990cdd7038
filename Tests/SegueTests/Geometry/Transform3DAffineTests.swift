import PropertyBased
import Segue
import Testing

/// CATransform3DIsAffine / MakeAffineTransform / GetAffineTransform / IsIdentity and approximate
/// equality.
@Suite("Transform3D+Affine")
struct Transform3DAffineTests {
  /// GNUstep's tests: a rotation about z is affine, as are 2D scales and translations and
  /// the identity.
  @Test func affineCases() {
    #expect(Transform3D.identity.isAffine)
    #expect(Transform3D.makeRotation(by: 0.7, x: 0, y: 0, z: 1).isAffine)
    #expect(Transform3D.makeScale(x: 2, y: 3, z: 1).isAffine)
    #expect(Transform3D.makeTranslation(x: 3, y: 4, z: 0).isAffine)
  }

  /// …and a rotation about x, any z scale, any z translation and any non-zero m34 are not; nor is
  /// m44 ≠ 1 or a non-zero m14/m24 (GNUstep's exact test).
  @Test func nonAffineCases() {
    #expect(!Transform3D.makeRotation(by: Double.pi / 2, x: 1, y: 0, z: 0).isAffine)
    #expect(!Transform3D.makeScale(x: 2, y: 3, z: 4).isAffine)
    #expect(!Transform3D.makeTranslation(x: 0, y: 0, z: 5).isAffine)
    #expect(!Transform3D.makePerspective(distance: 500).isAffine)
    var m = Transform3D.identity
    m.m44 = 2
    #expect(!m.isAffine)
    m = .identity
    m.m24 = 1e-300
    #expect(!m.isAffine)
  }

  /// GNUstep's layer test: Make(2, 3, 4, 5, 6, 7) sits in m11 = 2, m12 = 3, m21 = 4, m22 = 5,
  /// m41 = 6, m42 = 7 with m33 = m44 = 1, and reads back the same.
  @Test func makeAffineTransformFields() {
    let affine = AffineTransform(a: 2, b: 3, c: 4, d: 5, tx: 6, ty: 7)
    let m = Transform3D(affine)
    #expect(m.fields == [2, 3, 0, 0, 4, 5, 0, 0, 0, 0, 1, 0, 6, 7, 0, 1])
    #expect(m.isAffine)
    #expect(m.affineTransform == affine)
  }

  /// A non-affine matrix has no checked affine transform; the unchecked accessor reads the six
  /// fields regardless (CATransform3DGetAffineTransform).
  @Test func uncheckedAccessorReadsFields() throws {
    let m = try Transform3D(fields: (1...16).map(Double.init))
    #expect(m.affineTransform == nil)
    #expect(m.uncheckedAffineTransform == AffineTransform(a: 1, b: 2, c: 5, d: 6, tx: 13, ty: 14))
  }

  /// Round trip AffineTransform → Transform3D → AffineTransform is exact for any finite values.
  @Test func affineRoundTrip() async {
    await propertyCheck(count: 200, input: Gen.double(in: -1000...1000).array(of: 6)) { v in
      let affine = AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
      #expect(Transform3D(affine).affineTransform == affine)
    }
  }

  /// The 3D product of embedded transforms is the embedding of the 2D product, and mapping a point
  /// agrees; relative tolerance 1e-12 of the entries' scale.
  @Test func affineAnd3DProductsAgree() async {
    let gen = Gen.double(in: -3...3).array(of: 6).map {
      AffineTransform(a: $0[0], b: $0[1], c: $0[2], d: $0[3], tx: 10 * $0[4], ty: 10 * $0[5])
    }
    await propertyCheck(count: 200, input: gen, gen, Gen.double(in: -50...50)) { a, b, x in
      let product3D = Transform3D(a) * Transform3D(b)
      #expect(product3D.isAffine)
      #expect(
        product3D.isApproximatelyEqual(to: Transform3D(a * b), absoluteTolerance: 1e-12))
      let p = Point(x: x, y: -x / 2)
      let mapped = try #require(Transform3D(a).mapPoint(p))
      let expected = a.apply(to: p)
      #expect(abs(mapped.x - expected.x) < 1e-12 && abs(mapped.y - expected.y) < 1e-12)
    }
  }

  /// Equal transforms of the two kinds also agree on rects (mapRect = CGRectApplyAffineTransform).
  @Test func mapRectMatchesAffineRect() {
    let affine = AffineTransform.makeRotation(by: 0.3).scaled(x: 2, y: 0.5).translated(x: 7, y: -3)
    let rect = Rect(x: -10, y: 5, width: 40, height: 20)
    let expected = affine.apply(to: rect)
    let mapped = Transform3D(affine).mapRect(rect)!
    #expect(abs(mapped.origin.x - expected.origin.x) < 1e-12)
    #expect(abs(mapped.origin.y - expected.origin.y) < 1e-12)
    #expect(abs(mapped.size.width - expected.size.width) < 1e-12)
    #expect(abs(mapped.size.height - expected.size.height) < 1e-12)
  }

  /// isIdentity is exact (CATransform3DIsIdentity): the identity yes, a 1e-300 offset no, and
  /// R(2π) about z — cos 2π = 1 but sin 2π ≈ −2.4e-16 — no.
  @Test func isIdentityIsExact() {
    #expect(Transform3D.identity.isIdentity)
    #expect(!Transform3D.makeTranslation(x: 1e-300, y: 0, z: 0).isIdentity)
    #expect(!Transform3D.makeRotation(by: 2 * Double.pi, x: 0, y: 0, z: 1).isIdentity)
  }

  /// Approximate equality: relative to the larger max |field|; absolute floor; NaN never equal;
  /// bad tolerances are 0.
  @Test func approximateEquality() {
    let r = Transform3D.makeRotation(by: 2 * Double.pi, x: 0, y: 0, z: 1)
    #expect(r.isApproximatelyEqual(to: .identity))
    let big = Transform3D.makeScale(x: 1e6, y: 1, z: 1)
    var bigger = big
    bigger.m22 = 1.001  // difference 1e-3 ≤ 1e-8·1e6 = 1e-2
    #expect(big.isApproximatelyEqual(to: bigger))
    #expect(!Transform3D.identity.isApproximatelyEqual(to: .makeTranslation(x: 1e-3, y: 0, z: 0)))
    #expect(
      Transform3D.identity.isApproximatelyEqual(
        to: .makeTranslation(x: 1e-3, y: 0, z: 0), absoluteTolerance: 1e-3))
    var nan = Transform3D.identity
    nan.m11 = .nan
    #expect(!nan.isApproximatelyEqual(to: nan))
    #expect(
      !Transform3D.identity.isApproximatelyEqual(
        to: .makeTranslation(x: 1e-12, y: 0, z: 0), absoluteTolerance: -1, relativeTolerance: .nan))
    #expect(
      Transform3D.identity.isApproximatelyEqual(
        to: .identity, absoluteTolerance: -1, relativeTolerance: .nan))
  }
}
