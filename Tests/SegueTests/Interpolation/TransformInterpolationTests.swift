import PropertyBased
import Segue
import Testing

@Suite("TransformInterpolation")
struct TransformInterpolationTests {
  typealias Support = InterpolationTestSupport

  static let depthStart =
    Transform3D.makeTranslation(x: 0, y: 0, z: -150) * Transform3D.makePerspective(distance: 500)

  /// The depth preset's **to** layer: T(0, 0, −150) · P(500) → identity, 3D path. Independent
  /// reference: an mpmath (40 digits) program implementing CSS Transforms 2 as written in CSS
  /// Transforms 2 — steps 1–7 with a 4×4 inverse for the perspective and CSS step 7's max-form
  /// quaternion, lerp and shortest-path slerp, recomposition as the explicit product S · K_xy ·
  /// K_xz · K_yz · R(q) · T · P with the catalog's quaternion matrix (Transform interpolation),
  /// then division by m44 — printed (fields m11 … m44, zeros omitted here):
  ///   0.25: m11 = m22 = m33 = 0.86432160804020101, m34 = −0.0012964824120603015,
  ///         m43 = −90.452261306532663, m44 = 1
  ///   0.5:  m11 = m22 = m33 = 0.93877551020408163, m34 = −0.00093877551020408163,
  ///         m43 = −61.224489795918367, m44 = 1
  @Test func depthPresetToLayer() throws {
    let quarter = try TransformInterpolation.interpolate(
      from: Self.depthStart, to: .identity, fraction: 0.25)
    #expect(quarter.path == .decomposed3D)
    var expected = Transform3D.makeScale(
      x: 0.86432160804020101, y: 0.86432160804020101, z: 0.86432160804020101)
    expected.m34 = -0.0012964824120603015
    expected.m43 = -90.452261306532663
    #expect(Support.close(quarter.value, expected, 1e-13))
    let half = try TransformInterpolation.interpolate(
      from: Self.depthStart, to: .identity, fraction: 0.5)
    expected = Transform3D.makeScale(
      x: 0.93877551020408163, y: 0.93877551020408163, z: 0.93877551020408163)
    expected.m34 = -0.00093877551020408163
    expected.m43 = -61.224489795918367
    #expect(Support.close(half.value, expected, 1e-13))
    #expect(half.value.m44 == 1)
  }

  /// The depth preset's **from** layer on push: identity → T(0, 0, 150) · P(500), same mpmath
  /// program, at 0.5: m11 = m22 = m33 = 1.0967741935483871, m34 = −0.0010967741935483871,
  /// m43 = 96.774193548387097, m44 = 1.
  @Test func depthPresetFromLayer() throws {
    let end =
      Transform3D.makeTranslation(x: 0, y: 0, z: 150) * Transform3D.makePerspective(distance: 500)
    let half = try TransformInterpolation.interpolate(from: .identity, to: end, fraction: 0.5)
    var expected = Transform3D.makeScale(
      x: 1.0967741935483871, y: 1.0967741935483871, z: 1.0967741935483871)
    expected.m34 = -0.0010967741935483871
    expected.m43 = 96.774193548387097
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
          1.2618323982418534, 0.5404108323521601, 0.13816659671121114, -0.00012089577212230975,
          -0.18343253659722193, 0.8663257798367655, 0.12084487627358109, -0.00010573926673938345,
          -0.052431026985967298, -0.17142086410095584, 1.1493144085123534, -0.0010056501074483093,
          5.7258791704238052, -13.237150586113616, 21.641118124436429, 1.0,
        ]
      ),
      (
        1.4,
        [
          -0.094370048673092665, -0.079508863763072727, 0.78429753107494086,
          0.00039214876553747043, 0.25401005948785584, 1.0694015113718188, 0.0064028207517114339,
          3.2014103758557169e-6, -0.89244599363573372, 0.21249258023652425, -0.085841310953187367,
          -4.2920655476593683e-5, -11.404673393520977, 14.221986192246415, -12.745618693574084,
          1.0,
        ]
      ),
      (
        -0.2,
        [
          0.99561898822434168, 1.0539045064639302, -0.86038767532429793, 0.0012905815129864469,
          -0.2222640891351665, 0.80922493033345533, 0.16623473313724386, -0.00024935209970586579,
          0.84017686299927853, 0.024803792961555426, 1.0026141612538544, -0.0015039212418807816,
          13.59465128474043, -25.977975878342947, 37.755637126376508, 1.0,
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

  /// Between the ends the value is normalised to m44 = 1 and equals the ends up to the homogeneous
  /// factor near 0 and 1 (continuity), for random 3D pairs.
  @Test func continuousAtTheEnds() async throws {
    await propertyCheck(count: 100, input: Gen.double(in: 0...1).array(of: 16)) { u in
      let a = Support.Parts(u).matrix
      let b = Support.Parts(u.map { 1 - $0 }).matrix
      let i = TransformInterpolator(from: a, to: b)
      let near0 = try i.value(at: 1e-9)
      let near1 = try i.value(at: 1 - 1e-9)
      #expect(near0.m44 == 1 && near1.m44 == 1)
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
