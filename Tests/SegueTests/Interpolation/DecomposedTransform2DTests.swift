import PropertyBased
import RealModule
import Segue
import Testing

@Suite("DecomposedTransform2D")
struct DecomposedTransform2DTests {
  typealias Support = InterpolationTestSupport

  /// An affine matrix with the given a, b, c, d, tx, ty.
  static func affine(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ tx: Double, _ ty: Double)
    -> Transform3D
  {
    Support.matrix([a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, tx, ty, 0, 1])
  }

  /// recompose(decompose(M)) = M for random invertible affine matrices (|det| ≥ 0.05, entries in
  /// [−3, 3], including reflections).
  @Test func roundTrip() async {
    await propertyCheck(count: 300, input: Gen.double(in: -3...3).array(of: 6)) { v in
      let m = Self.affine(v[0], v[1], v[2], v[3], 100 * v[4], 100 * v[5])
      guard abs(v[0] * v[3] - v[1] * v[2]) >= 0.05 else { return }
      guard let d = DecomposedTransform2D(m) else {
        Issue.record("not decomposable: \(m)")
        return
      }
      #expect(d.angle > -Double.pi && d.angle <= Double.pi)
      #expect(Support.close(d.recomposed(), m, 1e-12))
    }
  }

  /// S(sx, sy) · Rz(θ) with positive scales decomposes to exactly those, with residual identity.
  @Test func scaleRotationDecomposes() async {
    await propertyCheck(
      count: 200, input: Gen.double(in: 0.1...4), Gen.double(in: 0.1...4),
      Gen.double(in: -3.1...3.1)
    ) { sx, sy, theta in
      let m =
        Transform3D.makeScale(x: sx, y: sy, z: 1)
        * Transform3D.makeRotation(by: theta, x: 0, y: 0, z: 1)
      guard let d = DecomposedTransform2D(m) else {
        Issue.record("not decomposable")
        return
      }
      #expect(abs(d.scaleX - sx) < 1e-12 && abs(d.scaleY - sy) < 1e-12)
      #expect(abs(d.angle - theta) < 1e-12)
      #expect(abs(d.residual11 - 1) < 1e-12 && abs(d.residual12) < 1e-12)
      #expect(abs(d.residual21) < 1e-12 && abs(d.residual22 - 1) < 1e-12)
    }
  }

  /// Reflections, by hand (CSS: det < 0 negates scale.x when a < d, else scale.y):
  /// S(−1, 1): a = −1 < d = 1 → scale (−1, 1), row0 = (1, 0), angle 0.
  /// S(1, −1): a = 1 ≥ d = −1 → scale (1, −1), angle 0.
  @Test func reflectionSigns() throws {
    let x = try #require(DecomposedTransform2D(.makeScale(x: -1, y: 1, z: 1)))
    #expect(x.scaleX == -1 && x.scaleY == 1 && x.angle == 0)
    let y = try #require(DecomposedTransform2D(.makeScale(x: 1, y: -1, z: 1)))
    #expect(y.scaleX == 1 && y.scaleY == -1 && y.angle == 0)
  }

  /// A general pair against an independent reference: an mpmath (40 digits) transcription of the
  /// CSS Transforms 1 pseudo code (unmatrix, interpolation in degrees with the flip and 0 → 360
  /// rules, recomposition L = S · R · residual) printed, for
  /// A = (a, b, c, d, tx, ty) = (2, 0.5, −0.3, 1.5, 10, 20) and B = (−0.8, 0.6, 0.6, 0.8, −4, 7):
  ///   0.3 → 1.1330377322756765, −0.026849032945070469, 0.072528429568526045, 1.3801376758612242,
  ///         5.8, 16.1
  ///   0.5 → 0.51497954086038033, −0.10625519563897664, 0.2768790596620093, 1.2457860196436901,
  ///         3.0, 13.5
  @Test func generalPairMatchesReference() throws {
    let a = try #require(DecomposedTransform2D(Self.affine(2, 0.5, -0.3, 1.5, 10, 20)))
    let b = try #require(DecomposedTransform2D(Self.affine(-0.8, 0.6, 0.6, 0.8, -4, 7)))
    let at03 = a.interpolated(to: b, fraction: 0.3).recomposed()
    let ref03 = Self.affine(
      1.1330377322756765, -0.026849032945070469, 0.072528429568526045, 1.3801376758612242, 5.8,
      16.1)
    #expect(Support.close(at03, ref03, 1e-13))
    let at05 = a.interpolated(to: b, fraction: 0.5).recomposed()
    let ref05 = Self.affine(
      0.51497954086038033, -0.10625519563897664, 0.2768790596620093, 1.2457860196436901, 3.0,
      13.5)
    #expect(Support.close(at05, ref05, 1e-13))
  }

  /// Rotation 0° → 90° at 0.5 is 45°. By hand: angle A = 0 becomes 2π (the 0 → 360 rule),
  /// |2π − π/2| > π so A becomes 0 again, and the lerp gives π/4: m11 = m22 = √2/2,
  /// m12 = √2/2, m21 = −√2/2.
  @Test func quarterTurnHalfway() throws {
    let a = try #require(DecomposedTransform2D(.identity))
    let b = try #require(DecomposedTransform2D(.makeRotation(by: Double.pi / 2, x: 0, y: 0, z: 1)))
    let mid = a.interpolated(to: b, fraction: 0.5)
    #expect(abs(mid.angle - Double.pi / 4) < 1e-15)
    let h = 2.0.squareRoot() / 2
    #expect(Support.close(mid.recomposed(), Self.affine(h, h, -h, h, 0, 0), 1e-15))
  }

  /// The flip rule, by hand. A = S(−1, 1) decomposes to scale (−1, 1), angle 0; B = S(1, −1) to
  /// scale (1, −1), angle 0. A's x is flipped and B's y, so A becomes scale (1, −1), angle −π
  /// (the same matrix). Then B's angle 0 → 2π; |−π − 2π| > π so B's angle −= 2π → 0. Halfway:
  /// scale (1, −1), angle −π/2, so L = S(1, −1) · R(−π/2) with R(−π/2) rows (0, −1), (1, 0):
  /// rows (0, −1), (−1, 0) — a reflection, never passing through the singular scale (0, 0) that a
  /// plain lerp of the scales would hit.
  @Test func flipRule() throws {
    let a = try #require(DecomposedTransform2D(.makeScale(x: -1, y: 1, z: 1)))
    let b = try #require(DecomposedTransform2D(.makeScale(x: 1, y: -1, z: 1)))
    let (fa, fb) = DecomposedTransform2D.aligned(from: a, to: b)
    #expect(fa.scaleX == 1 && fa.scaleY == -1 && fa.angle == -Double.pi)
    #expect(fb.angle == 0)
    #expect(Support.close(fa.recomposed(), .makeScale(x: -1, y: 1, z: 1), 1e-15))
    let mid = a.interpolated(to: b, fraction: 0.5).recomposed()
    #expect(Support.close(mid, Self.affine(0, -1, -1, 0, 0, 0), 1e-15))
  }

  /// ±170° ends meet at 180°, not at 0. By hand: A = 170°, B = −170°; |340°| > 180° so A −= 360°,
  /// giving −190°; halfway is −180°: m11 = m22 = −1, m12 = m21 = 0.
  @Test func avoidsTheLongWayRound() throws {
    let deg = Double.pi / 180
    let a = try #require(DecomposedTransform2D(.makeRotation(by: 170 * deg, x: 0, y: 0, z: 1)))
    let b = try #require(DecomposedTransform2D(.makeRotation(by: -170 * deg, x: 0, y: 0, z: 1)))
    let mid = a.interpolated(to: b, fraction: 0.5)
    #expect(abs(mid.angle - -Double.pi) < 1e-14)
    #expect(Support.close(mid.recomposed(), Self.affine(-1, 0, 0, -1, 0, 0), 1e-14))
  }

  /// Aligned ends recompose to the original matrices (the rules only change representation).
  @Test func alignedEndsKeepTheirMatrices() async {
    await propertyCheck(count: 200, input: Gen.double(in: -3...3).array(of: 8)) { v in
      let ma = Self.affine(v[0], v[1], v[2], v[3], 0, 0)
      let mb = Self.affine(v[4], v[5], v[6], v[7], 0, 0)
      guard let a = DecomposedTransform2D(ma), let b = DecomposedTransform2D(mb) else { return }
      let (fa, fb) = DecomposedTransform2D.aligned(from: a, to: b)
      #expect(abs(fa.angle - fb.angle) <= Double.pi + 1e-12)
      #expect(Support.close(fa.recomposed(), ma, 1e-12))
      #expect(Support.close(fb.recomposed(), mb, 1e-12))
    }
  }

  /// A singular 2×2 (S(0, 0, 1), or a rank-one matrix) has no decomposition; nor do non-finite fields.
  @Test func rejectsSingularAndNonFinite() {
    #expect(DecomposedTransform2D(.makeScale(x: 0, y: 0, z: 1)) == nil)
    #expect(DecomposedTransform2D(Self.affine(1, 2, 2, 4, 0, 0)) == nil)
    #expect(DecomposedTransform2D(Self.affine(1, 0, 0, 1, .nan, 0)) == nil)
    #expect(DecomposedTransform2D.decompose(.makeScale(x: 2, y: 3, z: 1)) != nil)
  }
}
