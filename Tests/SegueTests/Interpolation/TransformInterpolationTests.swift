import PropertyBased
import Segue
import Testing

@Suite("TransformInterpolation")
struct TransformInterpolationTests {
  typealias Support = InterpolationTestSupport

  static let depthStart =
    Transform3D.makeTranslation(x: 0, y: 0, z: -150) * Transform3D.makePerspective(distance: 500)

  /// The depth preset's **to** layer: T(0, 0, −150) · P(500) → identity, 3D path. Independent
  /// reference: an mpmath (40 digits) program implementing the listings of CSS Transforms 2
  /// as written — decomposition with a 4×4 inverse for the perspective and the max-form
  /// quaternion, lerp and shortest-path slerp, recomposition with the perspective in the fourth
  /// column, the translation added to row 4 (m44 included), then rotation, skews and scale — and
  /// no division by m44. By hand: the start divided by its m44 = 1.3 has translation
  /// `tz = −150/1.3`, perspective `(0, 0, −0.002, 1/1.3)`, so at fraction f
  /// `m44 = (1 − f)²·0.3/1.3 + (1 − f)/1.3 + f` (0.95673… at ¼). Printed (zeros omitted):
  ///   0.25: m11 = m22 = m33 = 0.82692307692307692, m34 = −0.0012403846153846156,
  ///         m43 = −86.53846153846155, m44 = 0.95673076923076923
  ///   0.5:  m11 = m22 = m33 = 0.88461538461538462, m34 = −0.0008846153846153848,
  ///         m43 = −57.69230769230769, m44 = 0.94230769230769231
  @Test func depthPresetToLayer() throws {
    let quarter = try TransformInterpolation.interpolate(
      from: Self.depthStart, to: .identity, fraction: 0.25)
    #expect(quarter.path == .decomposed3D)
    var expected = Transform3D.makeScale(
      x: 0.82692307692307692, y: 0.82692307692307692, z: 0.82692307692307692)
    expected.m34 = -0.0012403846153846154
    expected.m43 = -86.538461538461538
    expected.m44 = 0.95673076923076923
    #expect(Support.close(quarter.value, expected, 1e-13))
    let half = try TransformInterpolation.interpolate(
      from: Self.depthStart, to: .identity, fraction: 0.5)
    expected = Transform3D.makeScale(
      x: 0.88461538461538462, y: 0.88461538461538462, z: 0.88461538461538462)
    expected.m34 = -0.00088461538461538462
    expected.m43 = -57.692307692307692
    expected.m44 = 0.94230769230769231
    #expect(Support.close(half.value, expected, 1e-13))
  }

  /// The depth preset's **from** layer on push: identity → T(0, 0, 150) · P(500), same program,
  /// at 0.5: m11 = m22 = m33 = 1.2142857142857143, m34 = −0.0012142857142857142,
  /// m43 = 107.14285714285714, m44 = 1.1071428571428571.
  @Test func depthPresetFromLayer() throws {
    let end =
      Transform3D.makeTranslation(x: 0, y: 0, z: 150) * Transform3D.makePerspective(distance: 500)
    let half = try TransformInterpolation.interpolate(from: .identity, to: end, fraction: 0.5)
    var expected = Transform3D.makeScale(
      x: 1.2142857142857143, y: 1.2142857142857143, z: 1.2142857142857143)
    expected.m34 = -0.0012142857142857143
    expected.m43 = 107.14285714285714
    expected.m44 = 1.1071428571428571
    #expect(Support.close(half.value, expected, 1e-13))
  }

  /// A general 3D pair with rotation, skew and perspective, same mpmath program:
  /// A = S(1.5, 0.8, 1.2) · K_xy(0.3) · R(0.7, axis (1, 2, 3)) · T(10, −20, 30) · P(800),
  /// B = R(−1.1, axis (0, 1, 0)) · T(−5, 4, 0); printed at 0.3, and extrapolated at 1.4 and −0.2.
  @Test func generalPairMatchesReference() throws {
    let k = Support.shear(row: 2, column: 1, 0.3)
    let a =
      Transform3D.makeScale(x: 1.5, y: 0.8, z: 1.2) * k
      * Transform3D.makeRotation(by: 0.7, x: 1, y: 2, z: 3)
      * Transform3D.makeTranslation(x: 10, y: -20, z: 30)
      * Transform3D.makePerspective(distance: 800)
    let b =
      Transform3D.makeRotation(by: -1.1, x: 0, y: 1, z: 0)
      * Transform3D.makeTranslation(x: -5, y: 4, z: 0)
    let references: [(Double, [Double])] = [
      (
        0.3,
        [
          1.2721564815001958, 0.5448323755259505, 0.13929705068430287, -0.00012188491934876501,
          -0.18493334826029011, 0.87341389985361176, 0.12183360707945585, -0.00010660440619452386,
          -0.052860008115852485, -0.17282339844360002, 1.1587178900365454, -0.0010138781537819773,
          5.7727272727272727, -13.345454545454545, 21.818181818181818, 1.0081818181818182,
        ]
      ),
      (
        1.4,
        [
          -0.092311065792952461, -0.077774124917332958, 0.7671855849423967, 0.00038359279247119835,
          0.24846802182630262, 1.04606911476007, 0.0062631228444013662, 3.1315614222006831e-6,
          -0.87297444468368134, 0.20785637848590918, -0.083968409623299642,
          -4.1984204811649821e-5, -11.155844155844156, 13.911688311688312, -12.467532467532468,
          0.97818181818181818,
        ]
      ),
      (
        -0.2,
        [
          0.98630930417860757, 1.0440498149749168, -0.85234249186672008, 0.0012785137378000801,
          -0.22018577557442209, 0.80165815176410354, 0.16468033043777873, -0.00024702049565666809,
          0.83232066376084372, 0.024571861391005817, 0.99323906779797423, -0.0014898586016969613,
          13.467532467532468, -25.735064935064935, 37.402597402597403, 0.99064935064935065,
        ]
      ),
    ]
    for (f, fields) in references {
      let r = try TransformInterpolation.interpolate(from: a, to: b, fraction: f)
      #expect(r.path == .decomposed3D)
      #expect(Support.maxDifference(r.value, Support.matrix(fields)) < 1e-11, "fraction \(f)")
    }
  }

  /// Identity → Rz(2π) does not move (an observation of Core Animation): both ends decompose
  /// to the same rotation. Checked on the 2D path (Rz is affine) and on the 3D path (Rx(2π) has
  /// m23 = sin 2π ≈ −2.4e-16 ≠ 0, so it is not affine).
  @Test func fullTurnDoesNotMove() throws {
    for (end, path) in [
      (
        Transform3D.makeRotation(by: 2 * Double.pi, x: 0, y: 0, z: 1),
        TransformInterpolation.Path.affine2D
      ),
      (Transform3D.makeRotation(by: 2 * Double.pi, x: 1, y: 0, z: 0), .decomposed3D),
    ] {
      for f in [0.1, 0.25, 0.5, 0.75, 0.9] {
        let r = try TransformInterpolation.interpolate(from: .identity, to: end, fraction: f)
        #expect(r.path == path)
        #expect(Support.close(r.value, .identity, 1e-14))
      }
    }
  }

  /// Rotation 0° → 90° at 0.5 is Rz(45°) (by hand: m11 = m12 = m22 = √2/2, m21 = −√2/2).
  @Test func quarterTurnHalfway() throws {
    let r = try TransformInterpolation.interpolate(
      from: .identity, to: .makeRotation(by: Double.pi / 2, x: 0, y: 0, z: 1), fraction: 0.5)
    #expect(r.path == .affine2D)
    let h = 2.0.squareRoot() / 2
    #expect(
      Support.close(
        r.value, Support.matrix([h, h, 0, 0, -h, h, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]), 1e-15))
  }

  /// ±170° ends on the 3D path (a z translation makes them non-affine) take the short way through
  /// 180°. By hand: at 0.25 the rotation is 170° + 5° = 175°, so m11 = cos 175°, m12 = sin 175°;
  /// the long way would give 85°.
  @Test func shortestPathIn3D() throws {
    let deg = Double.pi / 180
    let a =
      Transform3D.makeRotation(by: 170 * deg, x: 0, y: 0, z: 1)
      * Transform3D.makeTranslation(x: 0, y: 0, z: 10)
    let b =
      Transform3D.makeRotation(by: -170 * deg, x: 0, y: 0, z: 1)
      * Transform3D.makeTranslation(x: 0, y: 0, z: 10)
    let r = try TransformInterpolation.interpolate(from: a, to: b, fraction: 0.25)
    #expect(r.path == .decomposed3D)
    let expected =
      Transform3D.makeRotation(by: 175 * deg, x: 0, y: 0, z: 1)
      * Transform3D.makeTranslation(x: 0, y: 0, z: 10)
    #expect(Support.close(r.value, expected, 1e-14))
  }

  /// A singular end S(0, 0, 1) (affine, singular 2×2) switches discretely at 0.5, and says so.
  @Test func singularAffineEndIsDiscrete() throws {
    let end = Transform3D.makeScale(x: 0, y: 0, z: 1)
    let before = try TransformInterpolation.interpolate(from: .identity, to: end, fraction: 0.4999)
    #expect(before.path == .discrete && before.value == .identity)
    let at = try TransformInterpolation.interpolate(from: .identity, to: end, fraction: 0.5)
    #expect(at.path == .discrete && at.value == end)
  }

  /// A singular non-affine end (S(1, 1, 0) has m33 = 0) also switches at 0.5; so does a start
  /// with m44 = 0.
  @Test func singular3DEndIsDiscrete() throws {
    let end = Transform3D.makeScale(x: 1, y: 1, z: 0)
    let interpolator = TransformInterpolator(from: .identity, to: end)
    #expect(interpolator.path == .discrete)
    #expect(try interpolator.value(at: 0.3) == .identity)
    #expect(try interpolator.value(at: 0.5) == end)
    #expect(try interpolator.value(at: 1.7) == end)
    var start = Transform3D.identity
    start.m44 = 0
    #expect(TransformInterpolator(from: start, to: .identity).path == .discrete)
  }

  /// Fractions exactly 0 and 1 return the ends field for field, even when m44 ≠ 1 (which the
  /// recomposed value would normalise), on every path.
  @Test func exactEnds() async throws {
    await propertyCheck(count: 100, input: Gen.double(in: 0...1).array(of: 16)) { u in
      let a = Support.matrix(Support.Parts(u).matrix.fields.map { $0 * 2 })
      let b = Support.matrix(Support.Parts(u.reversed()).matrix.fields.map { $0 * -3 })
      for (x, y) in [
        (a, b),
        (
          Transform3D.makeRotation(by: 1, x: 0, y: 0, z: 1), Transform3D.makeScale(x: 2, y: 3, z: 1)
        ),
      ] {
        let start = try TransformInterpolation.interpolate(from: x, to: y, fraction: 0)
        let end = try TransformInterpolation.interpolate(from: x, to: y, fraction: 1)
        #expect(start.value == x && end.value == y)
      }
    }
    let singular = Transform3D.makeScale(x: 0, y: 1, z: 1)
    #expect(
      try TransformInterpolation.interpolate(from: singular, to: .identity, fraction: 1).value
        == .identity)
  }

  /// Near 0 and 1 the value equals the ends divided by their m44 (continuity of the
  /// decomposition, which works on `M / m44`), for random 3D pairs.
  @Test func continuousAtTheEnds() async throws {
    await propertyCheck(count: 100, input: Gen.double(in: 0...1).array(of: 16)) { u in
      let a = Support.Parts(u).matrix
      let b = Support.Parts(u.map { 1 - $0 }).matrix
      let i = TransformInterpolator(from: a, to: b)
      let near0 = try i.value(at: 1e-9)
      let near1 = try i.value(at: 1 - 1e-9)
      #expect(Support.maxDifference(near0, Support.normalised(a)) < 1e-5)
      #expect(Support.maxDifference(near1, Support.normalised(b)) < 1e-5)
    }
  }

  /// The precomputed interpolator gives exactly the one-shot results.
  @Test func interpolatorMatchesOneShot() throws {
    let b =
      Transform3D.makeRotation(by: 0.8, x: 1, y: 1, z: 0)
      * Transform3D.makeTranslation(x: 3, y: 4, z: 5)
    let i = TransformInterpolator(from: Self.depthStart, to: b)
    for f in [-0.3, 0.2, 0.5, 0.9, 1.3] {
      let one = try TransformInterpolation.interpolate(from: Self.depthStart, to: b, fraction: f)
      #expect(try i.interpolation(at: f) == one)
      #expect(try i.value(at: f) == one.value)
    }
    #expect(i.from == Self.depthStart && i.to == b && i.path == .decomposed3D)
  }

  /// Spring overshoot on the 2D path: T(0) → T(100, 0) at 1.2 extrapolates to T(120, 0) (by hand:
  /// the translation lerp continues), and S(1) → S(2) at −0.5 gives S(0.5).
  @Test func extrapolates2D() throws {
    let r = try TransformInterpolation.interpolate(
      from: .identity, to: .makeTranslation(x: 100, y: 0, z: 0), fraction: 1.2)
    #expect(Support.close(r.value, .makeTranslation(x: 120, y: 0, z: 0), 1e-12))
    let s = try TransformInterpolation.interpolate(
      from: .identity, to: .makeScale(x: 2, y: 2, z: 1), fraction: -0.5)
    #expect(Support.close(s.value, .makeScale(x: 0.5, y: 0.5, z: 1), 1e-15))
  }

  /// A NaN fraction is rejected.
  @Test func rejectsNaNFraction() {
    #expect(throws: ValidationError(field: "fraction", reason: .notFinite)) {
      try TransformInterpolation.interpolate(from: .identity, to: Self.depthStart, fraction: .nan)
    }
  }

  /// An infinite fraction is rejected.
  @Test func rejectsInfiniteFraction() {
    #expect(throws: ValidationError(field: "fraction", reason: .notFinite)) {
      try TransformInterpolator(from: .identity, to: .makeScale(x: 2, y: 2, z: 1)).value(
        at: -.infinity)
    }
  }

  /// Extrapolating so far that the result overflows is rejected instead of returning infinity.
  @Test func rejectsOverflowingExtrapolation() {
    let i = TransformInterpolator(
      from: .makeTranslation(x: 1e308, y: 0, z: 0), to: .makeTranslation(x: -1e308, y: 0, z: 0))
    #expect {
      try i.value(at: 2)
    } throws: { error in
      guard let e = error as? ValidationError, case .invalidState = e.reason else { return false }
      return e.field == "fraction"
    }
  }
}
