import PropertyBased
import Testing

@testable import Segue

/// `|a − b| ≤ tolerance` for every field.
func fieldsClose(_ a: Transform3D, _ b: [Double], tolerance: Double = 1e-12) -> Bool {
  zip(a.fields, b).allSatisfy { abs($0 - $1) <= tolerance } && b.count == 16
}

/// The CATransform3D functions of `Transform3D.swift`: constructors, Concat and the op-then-t
/// helpers, determinant, inverse and the relative singularity test (transition catalog: Singular
/// matrices).
@Suite("Transform3D")
struct Transform3DTests {
  // MARK: Constructors

  /// The identity has ones on the diagonal and zeros elsewhere.
  @Test func identityFields() {
    #expect(Transform3D.identity.fields == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
  }

  /// MakeTranslation(3, −4, 5): identity with m41 = 3, m42 = −4, m43 = 5.
  @Test func makeTranslationFields() {
    #expect(
      Transform3D.makeTranslation(x: 3, y: -4, z: 5).fields
        == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, -4, 5, 1])
  }

  /// MakeScale(2, 3, 4) = diag(2, 3, 4, 1).
  @Test func makeScaleFields() {
    #expect(
      Transform3D.makeScale(x: 2, y: 3, z: 4).fields == [
        2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1,
      ])
  }

  /// Rotation about z by 90°: m11 = cos = 0, m12 = sin = 1, m21 = −1, m22 = 0 (GNUstep's test,
  /// "checked against Apple"). cos(π/2) is 6.1e-17 in double, hence the tolerance.
  @Test func rotationAboutZBy90Degrees() {
    let r = Transform3D.makeRotation(by: Double.pi / 2, x: 0, y: 0, z: 1)
    #expect(fieldsClose(r, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], tolerance: 1e-15))
  }

  /// Rotation about x by 90° from CATransform3DMakeRotation's formula with axis (1, 0, 0):
  /// m22 = c = 0, m23 = s·x = 1, m32 = −s·x = −1, m33 = c = 0. A non-unit axis (5, 0, 0) is
  /// normalised first.
  @Test func rotationAboutXBy90DegreesWithUnnormalisedAxis() {
    let r = Transform3D.makeRotation(by: Double.pi / 2, x: 5, y: 0, z: 0)
    #expect(fieldsClose(r, [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1], tolerance: 1e-15))
  }

  /// Rotation about (1, 1, 1) by 120° permutes the axes: with c = −1/2, s = √3/2 and
  /// x = y = z = 1/√3, m11 = c + (1−c)/3 = 0, m12 = (1−c)/3 + s/√3 = 1/2 + 1/2 = 1,
  /// m13 = (1−c)/3 − s/√3 = 0, and cyclically: x → y, y → z, z → x.
  @Test func rotationAboutDiagonalPermutesAxes() {
    let r = Transform3D.makeRotation(by: 2 * Double.pi / 3, x: 1, y: 1, z: 1)
    #expect(fieldsClose(r, [0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1], tolerance: 1e-15))
  }

  /// Apple: a zero-length axis gives the identity (exactly); a non-finite axis too.
  @Test func rotationWithZeroAxisIsIdentity() {
    #expect(Transform3D.makeRotation(by: 1.2, x: 0, y: 0, z: 0) == .identity)
    #expect(Transform3D.makeRotation(by: 1.2, x: .nan, y: 0, z: 1) == .identity)
  }

  /// P(500): m34 = −1/500, everything else the identity; P(0.5) clamps d to 1 (CSS), P(∞) is the
  /// identity.
  @Test func perspectiveFields() {
    var expected = Transform3D.identity
    expected.m34 = -0.002
    #expect(Transform3D.makePerspective(distance: 500) == expected)
    #expect(Transform3D.makePerspective(distance: 0.5).m34 == -1)
    #expect(Transform3D.makePerspective(distance: .infinity) == .identity)
  }

  /// By hand: with P(500) a point at z = 100 has w = 1 − 100/500 = 0.8, so (100, 50) is scaled by
  /// d/(d − z) = 500/400 = 1.25 to (125, 62.5), and z to 125; a point at z = −500 has
  /// w = 2 and is halved.
  @Test func perspectiveScalesByDOverDMinusZ() {
    let p = Transform3D.makePerspective(distance: 500)
    let near = p.project(Vector3(x: 100, y: 50, z: 100))
    #expect(abs(near.point.x - 125) < 1e-12 && abs(near.point.y - 62.5) < 1e-12)
    #expect(abs(near.z - 125) < 1e-12 && abs(near.w - 0.8) < 1e-15 && !near.isBehindEye)
    let far = p.project(Vector3(x: 100, y: 50, z: -500))
    #expect(far.point == Point(x: 50, y: 25) && far.w == 2)
  }

  // MARK: Composition (GNUstep tests "checked against Apple")

  /// Concat(T(10,0,0), S(2,2,2)).m41 == 20: the scale comes after the translation.
  @Test func concatScalesTheTranslation() {
    let m = Transform3D.makeTranslation(x: 10, y: 0, z: 0).concatenating(
      .makeScale(x: 2, y: 2, z: 2))
    #expect(m.m41 == 20)
    #expect(Transform3D.makeTranslation(x: 10, y: 0, z: 0) * .makeScale(x: 2, y: 2, z: 2) == m)
  }

  /// Translate(S(2), 10, 0, 0).m41 == 20.
  @Test func translateOfScale() {
    #expect(Transform3D.makeScale(x: 2, y: 2, z: 2).translated(x: 10, y: 0, z: 0).m41 == 20)
  }

  /// Scale(T(10), 2, 2, 2).m41 == 10: the scale is applied first, in local space; m11 = 2.
  @Test func scaleOfTranslation() {
    let m = Transform3D.makeTranslation(x: 10, y: 0, z: 0).scaled(x: 2, y: 2, z: 2)
    #expect(m.m41 == 10 && m.m11 == 2 && m.m22 == 2 && m.m33 == 2)
  }

  /// Rotate(T(10, 0, 0), 90° about z) = Rz(90°) · T: the point (1, 0) rotates to (0, 1) first,
  /// then moves to (10, 1).
  @Test func rotateAppliesTheRotationFirst() {
    let m = Transform3D.makeTranslation(x: 10, y: 0, z: 0).rotated(
      by: Double.pi / 2, x: 0, y: 0, z: 1)
    let p = m.mapPoint(Point(x: 1, y: 0))!
    #expect(abs(p.x - 10) < 1e-15 && abs(p.y - 1) < 1e-15)
  }

  /// A non-commuting product by hand: A = [[1,2,0,0],[0,1,0,0],[0,0,1,0],[3,0,0,1]] (shear + move),
  /// B = diag(2, 3, 1, 1) with m42 = 5. A·B rows: [2, 6, 0, 0], [0, 3, 0, 0], [0, 0, 1, 0],
  /// [6, 5, 0, 1]; B·A rows: [2, 4, 0, 0], [0, 3, 0, 0], [0, 0, 1, 0], [3, 5, 0, 1].
  @Test func productByHand() throws {
    let a = try Transform3D(fields: [1, 2, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 0, 0, 1])
    let b = try Transform3D(fields: [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 0, 5, 0, 1])
    #expect((a * b).fields == [2, 6, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 6, 5, 0, 1])
    #expect((b * a).fields == [2, 4, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 3, 5, 0, 1])
  }

  /// (A·B)·C ≈ A·(B·C) for random matrices with entries in [−2, 2]. Rounding in each entry is at
  /// most about 4·4·ε·(4·2·2·2) ≈ 1e-13, so 1e-12 of tolerance is generous but far below any
  /// wrong-order error (entries of order 1).
  @Test func concatenationIsAssociative() async {
    let entries = Gen.double(in: -2...2).array(of: 16)
    await propertyCheck(count: 200, input: entries, entries, entries) { a, b, c in
      let ma = try Transform3D(fields: a)
      let mb = try Transform3D(fields: b)
      let mc = try Transform3D(fields: c)
      #expect(((ma * mb) * mc).isApproximatelyEqual(to: ma * (mb * mc), absoluteTolerance: 1e-12))
    }
  }

  /// Identity is neutral on both sides, exactly.
  @Test func identityIsNeutral() async {
    await propertyCheck(count: 100, input: Gen.double(in: -100...100).array(of: 16)) { f in
      let m = try Transform3D(fields: f)
      #expect(m * .identity == m && Transform3D.identity * m == m)
    }
  }

  // MARK: Fields, subscript

  /// `fields`, `init(fields:)` and the (row, column) subscript agree: m<r+1><c+1> is entry
  /// 4r + c of the list (values 1…16 make each position distinct).
  @Test func fieldsAndSubscript() throws {
    var m = try Transform3D(fields: (1...16).map(Double.init))
    #expect(m.m11 == 1 && m.m14 == 4 && m.m21 == 5 && m.m34 == 12 && m.m41 == 13 && m.m44 == 16)
    for r in 0..<4 { for c in 0..<4 { #expect(m[r, c] == Double(4 * r + c + 1)) } }
    m[2, 3] = -7
    #expect(m.m34 == -7)
  }

  /// init(fields:) rejects a count other than 16.
  @Test func initFieldsRejectsWrongCount() {
    #expect(
      throws: ValidationError(field: "transform", reason: .countMismatch(expected: 16, actual: 15))
    ) {
      try Transform3D(fields: Array(repeating: 0, count: 15))
    }
  }

  /// init(fields:) rejects a non-finite entry and names its index (NaN, +∞, −∞ at a random index).
  @Test func initFieldsRejectsNonFiniteAtIndex() async {
    let bad = [Double.nan, .infinity, -.infinity]
    await propertyCheck(count: 100, input: Gen.int(in: 0...15), Gen.int(in: 0...2)) { index, k in
      var f = [Double](repeating: 1, count: 16)
      f[index] = bad[k]
      #expect(throws: ValidationError(field: "transform", index: index, reason: .notFinite)) {
        try Transform3D(fields: f)
      }
    }
  }

  // MARK: Determinant and inverse

  /// det(diag(2, 3, 4, 5)) = 120; a translation does not change it; the 90° z-rotation has det 1.
  @Test func determinantByHand() throws {
    let d = try Transform3D(fields: [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 7, 8, 9, 5])
    #expect(d.determinant == 120)
    #expect(
      abs(Transform3D.makeRotation(by: Double.pi / 2, x: 0, y: 0, z: 1).determinant - 1) < 1e-15)
    #expect(d.maxMagnitude == 9)
  }

  /// `maxMagnitude` is `max |mᵢⱼ|` folded over ``Transform3D/fields`` in order, each field in
  /// turn the largest (negative, infinite), with a NaN field skipped as `Swift.max` skips it.
  @Test func maxMagnitudeFoldsTheFieldsInOrder() throws {
    for index in 0..<16 {
      for value in [-7.5, 1e300, -Double.infinity, Double.nan] {
        var fields = (0..<16).map { Double($0 % 5) - 2 }
        fields[index] = value
        let m = Transform3D(unchecked: fields)
        var expected = 0.0
        for v in fields { expected = Swift.max(expected, abs(v)) }
        #expect(m.maxMagnitude.bitPattern == expected.bitPattern, "field \(index) = \(value)")
      }
    }
  }

  /// (S(2,4,8) · T(1,2,3))⁻¹ = T(−1,−2,−3) · S(1/2, 1/4, 1/8): diag(0.5, 0.25, 0.125, 1) with
  /// m41 = −1/2, m42 = −2/4, m43 = −3/8 (all exact in binary).
  @Test func inverseOfScaleThenTranslate() throws {
    let m = Transform3D.makeScale(x: 2, y: 4, z: 8) * .makeTranslation(x: 1, y: 2, z: 3)
    let inverse = try #require(m.inverted())
    #expect(
      fieldsClose(
        inverse, [0.5, 0, 0, 0, 0, 0.25, 0, 0, 0, 0, 0.125, 0, -0.5, -0.5, -0.375, 1],
        tolerance: 1e-15))
  }

  /// P(d)⁻¹ is P(−d): (I + N)(I − N) = I − N² = I for N with only m34 set (N² = 0).
  @Test func inverseOfPerspective() throws {
    let inverse = try #require(Transform3D.makePerspective(distance: 500).inverted())
    var expected = Transform3D.identity
    expected.m34 = 0.002
    #expect(inverse.isApproximatelyEqual(to: expected, absoluteTolerance: 1e-17))
  }

  /// A general matrix with perspective. Reference by exact rational arithmetic (python3 sympy,
  /// `Matrix([[2,1,0,0],[1,3,1,0],[0,1,4,Rational(-1,100)],[5,-2,3,1]]).inv()`), det = 456/25:
  /// [1111/1824, −403/1824, 25/456, 1/1824, −199/912, 403/912, −25/228, −1/912, 83/1824,
  ///  −191/1824, 125/456, 5/1824, −275/76, 175/76, −25/19, 75/76].
  @Test func inverseOfGeneralMatrix() throws {
    let m = try Transform3D(fields: [2, 1, 0, 0, 1, 3, 1, 0, 0, 1, 4, -0.01, 5, -2, 3, 1])
    #expect(abs(m.determinant - 456.0 / 25) < 1e-13)
    let expected: [Double] = [
      1111.0 / 1824, -403.0 / 1824, 25.0 / 456, 1.0 / 1824, -199.0 / 912, 403.0 / 912,
      -25.0 / 228, -1.0 / 912, 83.0 / 1824, -191.0 / 1824, 125.0 / 456, 5.0 / 1824, -275.0 / 76,
      175.0 / 76, -25.0 / 19, 75.0 / 76,
    ]
    #expect(fieldsClose(try #require(m.inverted()), expected, tolerance: 1e-14))
  }

  /// M⁻¹·M ≈ I and M·M⁻¹ ≈ I for M = I + E, |Eᵢⱼ| ≤ 0.2: every row of E sums to at most 0.8 in
  /// absolute value, so ‖E‖∞ < 1 and M is invertible with condition number ≤ 1.8/0.2 = 9.
  @Test func inverseTimesMatrixIsIdentity() async {
    await propertyCheck(count: 200, input: Gen.double(in: -0.2...0.2).array(of: 16)) { e in
      let m = try Transform3D(fields: zip(e, Transform3D.identity.fields).map { $0 + $1 })
      let inverse = try #require(m.inverted())
      #expect((inverse * m).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-13))
      #expect((m * inverse).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-13))
    }
  }

  /// A singular matrix (S(1, 1, 0): det = 0) has no inverse; invertedOrSelf returns it unchanged
  /// (CATransform3DInvert).
  @Test func singularMatrixHasNoInverse() {
    let flat = Transform3D.makeScale(x: 1, y: 1, z: 0)
    #expect(flat.isSingular)
    #expect(flat.inverted() == nil)
    #expect(flat.invertedOrSelf() == flat)
    #expect(Transform3D.makeScale(x: 2, y: 2, z: 2).invertedOrSelf().m11 == 0.5)
  }

  /// The zero matrix and a matrix with NaN are singular.
  @Test func zeroAndNonFiniteMatricesAreSingular() {
    let zero = Transform3D(
      m11: 0, m12: 0, m13: 0, m14: 0, m21: 0, m22: 0, m23: 0, m24: 0,
      m31: 0, m32: 0, m33: 0, m34: 0, m41: 0, m42: 0, m43: 0, m44: 0)
    #expect(zero.isSingular && zero.inverted() == nil)
    var nan = Transform3D.identity
    nan.m42 = .nan
    #expect(nan.isSingular && nan.inverted() == nil)
  }

  /// The singular matrix rule is relative: S(0.05) has det = 1.25e-4, barely above GNUstep's
  /// absolute 1e-4, and S(0.01) has det 1e-6 (singular for GNUstep, and WebKit's 1e-8 is close);
  /// both are invertible here, with inverses S(20) and S(100). diag(1e-3 ×4) has det 1e-12 but is a
  /// uniform scale, also invertible (inverse diag(1000 ×4)).
  @Test func smallUniformScalesAreInvertible() throws {
    let s = Transform3D.makeScale(x: 0.05, y: 0.05, z: 0.05)
    #expect(!s.isSingular)
    let inverse = try #require(s.inverted())
    #expect(
      fieldsClose(inverse, Transform3D.makeScale(x: 20, y: 20, z: 20).fields, tolerance: 1e-12))
    let s100 = try #require(Transform3D.makeScale(x: 0.01, y: 0.01, z: 0.01).inverted())
    #expect(
      fieldsClose(s100, Transform3D.makeScale(x: 100, y: 100, z: 100).fields, tolerance: 1e-10))
    let tiny = Transform3D(
      m11: 1e-3, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1e-3, m23: 0, m24: 0,
      m31: 0, m32: 0, m33: 1e-3, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1e-3)
    #expect(abs(try #require(tiny.inverted()).m11 - 1000) < 1e-9)
  }

  /// A relatively near-singular matrix stays singular however it is scaled: diag(1, 1, 1e-13, 1)
  /// has |det| = 1e-13 ≤ 1e-12·1⁴; times 1e3 (det 1e-1 ≤ 1e-12·1e12 = 1) and times 1e-3
  /// (det 1e-25 ≤ 1e-12·1e-12) it is still singular.
  @Test func scaledNearSingularMatrixStaysSingular() {
    for k in [1.0, 1e3, 1e-3] {
      let m = Transform3D(
        m11: k, m12: 0, m13: 0, m14: 0, m21: 0, m22: k, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1e-13 * k, m34: 0, m41: 0, m42: 0, m43: 0, m44: k)
      #expect(m.isSingular, "k = \(k)")
      #expect(m.inverted() == nil)
    }
  }

  /// The static test itself: 2×2 with max 2 has threshold 1e-12·4 = 4e-12.
  @Test func staticSingularityThreshold() {
    #expect(Transform3D.isSingular(determinant: 4e-12, maxMagnitude: 2, order: 2))
    #expect(!Transform3D.isSingular(determinant: 5e-12, maxMagnitude: 2, order: 2))
    #expect(Transform3D.isSingular(determinant: .infinity, maxMagnitude: 2, order: 2))
    #expect(Transform3D.isSingular(determinant: 1, maxMagnitude: .nan, order: 2))
  }
}
