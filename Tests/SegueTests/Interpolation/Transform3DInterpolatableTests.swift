import PropertyBased
import RealModule
import Segue
import Testing

/// `Transform3D: Interpolatable`: the sixteen channels (order, round trip), and interpolation by
/// decomposition (transition catalog: Transform interpolation): midpoints by hand on the 2D and 3D
/// paths, exact ends, decomposition of the ends divided by their m44, the discrete switch at ½ for
/// singular ends (transition catalog: Singular matrices), the discrete rule for overflowing
/// extrapolation.
@Suite("Transform3D Interpolatable")
struct Transform3DInterpolatableTests {
  static let r2 = 0.5.squareRoot()
  /// cos π/8 and sin π/8 (mpmath, 20 digits).
  static let c8 = 0.92387953251128675613
  static let s8 = 0.38268343236508977173

  static func fields(_ f: [Double]) -> Transform3D {
    Transform3D(
      m11: f[0], m12: f[1], m13: f[2], m14: f[3], m21: f[4], m22: f[5], m23: f[6], m24: f[7],
      m31: f[8], m32: f[9], m33: f[10], m34: f[11], m41: f[12], m42: f[13], m43: f[14],
      m44: f[15])
  }

  static func close(_ a: Transform3D, _ b: [Double], _ tol: Double = 1e-14) -> Bool {
    zip(a.fields, b).allSatisfy { abs($0 - $1) <= tol }
  }

  static func lerp(_ a: Transform3D, _ b: Transform3D, _ f: Double) -> Transform3D {
    Transform3D.interpolate(a, b, fraction: f)
  }

  // MARK: Channels

  /// Sixteen channels in CATransform3D field order; not channel-wise interpolated.
  @Test func channelLayout() {
    #expect(Transform3D.channelCount == 16)
    #expect(!Transform3D.interpolatesChannelWise)
    let m = Transform3D(
      m11: 1, m12: 2, m13: 3, m14: 4, m21: 5, m22: 6, m23: 7, m24: 8, m31: 9, m32: 10, m33: 11,
      m34: 12, m41: 13, m42: 14, m43: 15, m44: 16)
    #expect(m.channels == (1...16).map(Double.init))
  }

  /// `init(channels:)` reads a slice that does not start at index 0.
  @Test func channelsFromOffsetSlice() {
    let storage: [Double] = [-1] + (1...16).map(Double.init) + [-2]
    let m = Transform3D(channels: storage[1...16])
    #expect(m.m11 == 1)
    #expect(m.m34 == 12)
    #expect(m.m44 == 16)
    #expect(m.fields == (1...16).map(Double.init))
  }

  /// Round trip `Self(channels: v.channels[...]) == v` for any finite fields.
  @Test func channelsRoundTrip() async {
    await propertyCheck(
      count: 200, input: Gen.double(in: -1e6...1e6), Gen.double(in: -1...1),
      Gen.double(in: -1e-3...1e-3)
    ) { a, b, c in
      let m = Self.fields([a, b, c, c, b, a, c, b, -a, c, 1, b, a * b, c, -b, 1 + c])
      #expect(Transform3D(channels: m.channels[...]) == m)
    }
  }

  /// The paced distance is the default: Euclidean over the sixteen fields. I → T(3, 4, 0): 5.
  @Test func distance() {
    #expect(Transform3D.distance(.identity, .makeTranslation(x: 3, y: 4, z: 0)) == 5)
  }

  // MARK: Interpolation

  /// 2D path. Rz(0) → Rz(π/2): the angle is lerped, so ½ gives Rz(π/4) (m11 = m22 = √½,
  /// m12 = √½, m21 = −√½) and ¼ gives Rz(π/8) (cos, sin π/8 from mpmath).
  @Test func rotationMidpoints() {
    let a = Transform3D.identity
    let b = Transform3D.makeRotation(by: .pi / 2, x: 0, y: 0, z: 1)
    let half: [Double] = [Self.r2, Self.r2, 0, 0, -Self.r2, Self.r2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    #expect(Self.close(Self.lerp(a, b, 0.5), half))
    let quarter: [Double] = [
      Self.c8, Self.s8, 0, 0, -Self.s8, Self.c8, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
    ]
    #expect(Self.close(Self.lerp(a, b, 0.25), quarter))
  }

  /// 2D path, scale and translation lerped separately: I → S(3, 3, 1)·T(100, 40, 0) at ½ is
  /// S(2, 2, 1)·T(50, 20, 0) (m11 = m22 = 2, m41 = 50, m42 = 20) — field-wise lerp would agree
  /// here, so also check ¼: S(1.5, 1.5, 1)·T(25, 10, 0).
  @Test func scaleAndTranslationMidpoint() {
    let b = Transform3D.makeScale(x: 3, y: 3, z: 1) * .makeTranslation(x: 100, y: 40, z: 0)
    #expect(
      Self.close(
        Self.lerp(.identity, b, 0.5), [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 50, 20, 0, 1], 1e-12))
    #expect(
      Self.close(
        Self.lerp(.identity, b, 0.25), [1.5, 0, 0, 0, 0, 1.5, 0, 0, 0, 0, 1, 0, 25, 10, 0, 1],
        1e-12))
  }

  /// 3D path (Ry is not affine: m13 ≠ 0). I → Ry(π/2) at ½ is Ry(π/4): m11 = m33 = √½,
  /// m13 = −√½, m31 = √½ (CA's Ry: m13 = −sin θ, m31 = sin θ).
  @Test func rotationAboutYMidpoint() {
    let b = Transform3D.makeRotation(by: .pi / 2, x: 0, y: 1, z: 0)
    let expected: [Double] = [
      Self.r2, 0, -Self.r2, 0, 0, 1, 0, 0, Self.r2, 0, Self.r2, 0, 0, 0, 0, 1,
    ]
    #expect(Self.close(Self.lerp(.identity, b, 0.5), expected))
  }

  /// 3D path, perspective lerped: P(500) → P(250) at ½ has m34 = (−1/500 − 1/250)/2 = −0.003.
  @Test func perspectiveMidpoint() {
    var expected = Transform3D.identity.fields
    expected[11] = -0.003
    let m = Self.lerp(.makePerspective(distance: 500), .makePerspective(distance: 250), 0.5)
    #expect(Self.close(m, expected, 1e-15))
  }

  /// In between, the ends are decomposed after division by their m44: 2·I (every field doubled,
  /// m44 = 2; the same projective map as I) → T(10, 0, 0) at ½ is T(5, 0, 0), whose m44 is 1
  /// because neither end has perspective. The ends are returned unchanged, field for field,
  /// including the unnormalised 2·I.
  @Test func interiorDecomposesTheNormalisedEndsExactEnds() throws {
    let a = try Transform3D(fields: Transform3D.identity.fields.map { 2 * $0 })
    let b = Transform3D.makeTranslation(x: 10, y: 0, z: 0)
    #expect(Self.close(Self.lerp(a, b, 0.5), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1]))
    #expect(Self.lerp(a, b, 0) == a)
    #expect(Self.lerp(a, b, 1) == b)
  }

  /// A singular end (S(0, 0, 1): zero linear part) cannot be decomposed: the value is the start
  /// below ½ and the end from ½ on; the ends stay exact.
  @Test func singularStartIsDiscrete() {
    let a = Transform3D.makeScale(x: 0, y: 0, z: 1)
    let b = Transform3D.makeRotation(by: .pi / 2, x: 0, y: 0, z: 1)
    #expect(Self.lerp(a, b, 0) == a)
    #expect(Self.lerp(a, b, 0.25) == a)
    #expect(Self.lerp(a, b, 0.4999) == a)
    #expect(Self.lerp(a, b, 0.5) == b)
    #expect(Self.lerp(a, b, 0.75) == b)
    #expect(Self.lerp(a, b, 1) == b)
  }

  /// The singular matrix rule's relative threshold `|det| ≤ 1e-12 · (max |mᵢⱼ|)ⁿ` on the linear
  /// part.
  /// 2D path (both ends affine, n = 2): [[1, 1], [1, 1 + 1e-13]] has det 1e-13 ≤ 1e-12·(1 + 1e-13)²,
  /// so I → it is discrete; S(1e-7, 1e-7, 1) has det 1e-14 but max |mᵢⱼ| = 1e-7, and
  /// 1e-14 > 1e-12·1e-14, so it decomposes: at ¼ the scale is 0.75 + 0.25e-7.
  /// 3D path (n = 3, the end has a perspective): S(1e-7, 1e-7, 1)·P(500) has a 3×3 linear part
  /// diag(1e-7, 1e-7, 1), det 1e-14 ≤ 1e-12·1³: discrete.
  @Test func singularThreshold() {
    var nearlyRankOne = Transform3D.identity
    nearlyRankOne.m12 = 1
    nearlyRankOne.m21 = 1
    nearlyRankOne.m22 = 1 + 1e-13
    #expect(Self.lerp(.identity, nearlyRankOne, 0.25) == .identity)
    #expect(Self.lerp(.identity, nearlyRankOne, 0.75) == nearlyRankOne)

    let tiny = Transform3D.makeScale(x: 1e-7, y: 1e-7, z: 1)
    let s = 0.75 + 0.25e-7
    #expect(
      Self.close(
        Self.lerp(.identity, tiny, 0.25), [s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 1e-15))

    let tinyPerspective = tiny * .makePerspective(distance: 500)
    #expect(Self.lerp(.identity, tinyPerspective, 0.25) == .identity)
    #expect(Self.lerp(.identity, tinyPerspective, 0.75) == tinyPerspective)
  }

  /// An extrapolation that overflows takes the discrete rule (never a non-finite field):
  /// T(0) → T(1e300, 0, 0) at f = 1e10 gives the end, at −1e10 the start. A NaN fraction gives
  /// one of the ends.
  @Test func overflowingExtrapolationIsDiscrete() {
    let a = Transform3D.identity
    let b = Transform3D.makeTranslation(x: 1e300, y: 0, z: 0)
    #expect(Self.lerp(a, b, 1e10) == b)
    #expect(Self.lerp(a, b, -1e10) == a)
    let nan = Self.lerp(a, b, .nan)
    #expect(nan == a || nan == b)
  }

  /// Modest extrapolation continues the components: T(0) → T(100, 0, 0) at 1.25 is T(125, 0, 0).
  @Test func extrapolates() {
    let m = Self.lerp(.identity, .makeTranslation(x: 100, y: 0, z: 0), 1.25)
    #expect(Self.close(m, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 125, 0, 0, 1], 1e-12))
  }

  /// Property (2D path): Rz(α) → Rz(β) with |β − α| < π is Rz(α + (β − α)·f): m11 = cos,
  /// m12 = sin of that angle.
  @Test func rotationAngleIsLerped() async {
    await propertyCheck(
      count: 200, input: Gen.double(in: -1.5...1.5), Gen.double(in: -1.5...1.5),
      Gen.double(in: 0...1)
    ) { alpha, beta, f in
      let m = Self.lerp(
        .makeRotation(by: alpha, x: 0, y: 0, z: 1), .makeRotation(by: beta, x: 0, y: 0, z: 1), f)
      let angle = alpha + (beta - alpha) * f
      #expect(abs(m.m11 - Double.cos(angle)) < 1e-12)
      #expect(abs(m.m12 - Double.sin(angle)) < 1e-12)
      #expect(abs(m.m21 + Double.sin(angle)) < 1e-12)
      #expect(abs(m.m22 - Double.cos(angle)) < 1e-12)
    }
  }

  /// Property (3D path): random scale · rotation · translation · perspective pairs give exact
  /// ends and finite interiors with `m44 > 0`: with `a` free of perspective the recomposed
  /// `m44 = 1 + f(1 − f)·(tₐ − t_b)·p_b` (normalised translations `t`, `b`'s perspective vector
  /// `p_b`), at least `1 − ¼·600√2·(√1.25/300) > 0` over these ranges.
  @Test func randomPairsAreFinite() async {
    await propertyCheck(
      count: 150, input: Gen.double(in: 0.2...3), Gen.double(in: -3...3), Gen.double(in: -1...1),
      Gen.double(in: -300...300), Gen.double(in: 300...2000), Gen.double(in: 0.001...0.999)
    ) { s, angle, axis, shift, distance, f in
      let a =
        Transform3D.makeScale(x: s, y: 1 / s, z: 1)
        * .makeRotation(by: angle, x: axis, y: 1, z: 0.5)
        * .makeTranslation(x: shift, y: 0, z: -shift / 3)
      let b =
        Transform3D.makeRotation(by: -angle, x: 1, y: axis, z: 0)
        * .makeTranslation(x: 0, y: shift, z: shift / 2)
        * .makePerspective(distance: distance)
      #expect(Self.lerp(a, b, 0) == a)
      #expect(Self.lerp(a, b, 1) == b)
      let m = Self.lerp(a, b, f)
      #expect(m.fields.allSatisfy { $0.isFinite })
      #expect(m.m44 > 0)
    }
  }
}
