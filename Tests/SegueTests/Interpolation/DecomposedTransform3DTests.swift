import PropertyBased
import Segue
import Testing

@Suite("DecomposedTransform3D")
struct DecomposedTransform3DTests {
  typealias Support = InterpolationTestSupport

  /// M = S · K_xy · K_xz · K_yz · R · T · P built from Transform3D constructors with random parts
  /// (positive scales, so no reflection) decomposes to those parts, and recomposes to M.
  @Test func decomposeRecoversPartsAndRecomposes() async {
    await propertyCheck(count: 200, input: Gen.double(in: 0...1).array(of: 16)) { u in
      let parts = Support.Parts(u)
      let m = parts.matrix
      #expect(abs(m.m44 - 1) < 1e-12)
      guard let d = DecomposedTransform3D(m) else {
        Issue.record("not decomposable: \(m)")
        return
      }
      #expect(abs(d.scale.x - parts.scale.x) < 1e-9)
      #expect(abs(d.scale.y - parts.scale.y) < 1e-9)
      #expect(abs(d.scale.z - parts.scale.z) < 1e-9)
      #expect(abs(d.skewXY - parts.skew.xy) < 1e-9)
      #expect(abs(d.skewXZ - parts.skew.xz) < 1e-9)
      #expect(abs(d.skewYZ - parts.skew.yz) < 1e-9)
      #expect(abs(d.translation.x - parts.translation.x) < 1e-9)
      #expect(abs(d.translation.y - parts.translation.y) < 1e-9)
      #expect(abs(d.translation.z - parts.translation.z) < 1e-9)
      let p = parts.perspectiveVector
      #expect(abs(d.perspective.x - p.x) < 1e-12 && abs(d.perspective.y - p.y) < 1e-12)
      #expect(abs(d.perspective.z - p.z) < 1e-12 && abs(d.perspective.w - p.w) < 1e-9)
      let q = parts.quaternion
      #expect(abs(d.rotation.dot(q) - 1) < 1e-9)
      let r = d.recomposed()
      #expect(Support.maxDifference(r, m) < 1e-9 * max(1, m.maxMagnitude))
    }
  }

  /// The decomposition works on M / m44: scaling every field by a non-zero factor (here −2.5)
  /// gives the same decomposition to rounding, and recomposition gives M / m44.
  @Test func homogeneousFactorIsRemoved() async {
    await propertyCheck(count: 100, input: Gen.double(in: 0...1).array(of: 16)) { u in
      let m = Support.Parts(u).matrix
      let scaled = Support.matrix(m.fields.map { $0 * -2.5 })
      guard let a = DecomposedTransform3D(m), let b = DecomposedTransform3D(scaled) else {
        Issue.record("not decomposable")
        return
      }
      #expect(zip(a.channels, b.channels).allSatisfy { abs($0 - $1) < 1e-9 })
      #expect(Support.maxDifference(b.recomposed(), Support.normalised(scaled)) < 1e-8)
    }
  }

  /// A reflection S(−1, 1, 1): by hand the rows (−1, 0, 0), (0, 1, 0), (0, 0, 1) normalise to a
  /// left-handed frame, so CSS step 6 negates all scales to (−1, −1, −1) and the rows to
  /// (1, 0, 0), (0, −1, 0), (0, 0, −1) = Rx(π), quaternion (1, 0, 0, 0). Recomposition gives the
  /// reflection back.
  @Test func reflectionNegatesAllScales() throws {
    let m = Transform3D.makeScale(x: -1, y: 1, z: 1)
    let d = try #require(DecomposedTransform3D(m))
    #expect(d.scale == Vector3(x: -1, y: -1, z: -1))
    #expect(abs(abs(d.rotation.x) - 1) < 1e-15)
    #expect(Support.close(d.recomposed(), m, 1e-15))
  }

  /// The depth preset's start T(0, 0, −150) · P(500). Independent reference: an mpmath (40 digits)
  /// implementation of CSS Transforms 2 steps 1–7 as the specification writes them (4×4 inverse
  /// for the perspective, Gram–Schmidt, CSS step 7 quaternion) printed:
  ///   t = (0, 0, −115.384615384615384615…), s = (0.769230769230769230…) × 3, skews 0,
  ///   p = (0, 0, −0.002, 0.769230769230769230…), q = (0, 0, 0, 1).
  /// (By hand: m44 = 1 + 150/500 = 1.3, and every value is the plain one divided by 1.3.)
  @Test func depthPresetStartDecomposes() throws {
    let m =
      Transform3D.makeTranslation(x: 0, y: 0, z: -150) * Transform3D.makePerspective(distance: 500)
    let d = try #require(DecomposedTransform3D(m))
    #expect(abs(d.translation.z - -115.38461538461538) < 1e-12)
    #expect(d.translation.x == 0 && d.translation.y == 0)
    for s in [d.scale.x, d.scale.y, d.scale.z] { #expect(abs(s - 0.7692307692307692) < 1e-15) }
    #expect(d.skewXY == 0 && d.skewXZ == 0 && d.skewYZ == 0)
    #expect(abs(d.perspective.z - -0.002) < 1e-17)
    #expect(abs(d.perspective.w - 0.7692307692307692) < 1e-15)
    #expect(d.rotation == .identity)
  }

  /// m44 == 0 cannot be normalised.
  @Test func rejectsZeroM44() {
    var m = Transform3D.identity
    m.m44 = 0
    #expect(DecomposedTransform3D(m) == nil)
  }

  /// A singular linear part (S(1, 1, 0), a flattening) is rejected, as is a nearly singular one
  /// below the relative threshold of the catalog's singular matrix rule, but a small uniform scale
  /// is not.
  @Test func rejectsSingularLinearPart() {
    #expect(DecomposedTransform3D(.makeScale(x: 1, y: 1, z: 0)) == nil)
    #expect(DecomposedTransform3D(.makeScale(x: 1, y: 1, z: 1e-13)) == nil)
    #expect(DecomposedTransform3D(.makeScale(x: 0.001, y: 0.001, z: 0.001)) != nil)
  }

  /// The singular test looks at the 3×3 linear part only: a large translation does not make a small
  /// scale "singular" (with the 4×4 P and n = 4, 1e-12 · 1000⁴ = 1 would exceed det = 0.001).
  @Test func translationDoesNotAffectSingularity() {
    let m =
      Transform3D.makeScale(x: 0.1, y: 0.1, z: 0.1)
      * Transform3D.makeTranslation(x: 1000, y: 0, z: 0)
    #expect(DecomposedTransform3D(m) != nil)
  }

  /// Non-finite fields are rejected (one test per kind of field: linear, translation, perspective).
  @Test func rejectsNonFiniteFields() {
    for index in [0, 13, 11] {
      var m = Transform3D.identity
      m[index / 4, index % 4] = .infinity
      #expect(DecomposedTransform3D(m) == nil)
    }
  }

  /// `decompose` is the same as the initialiser.
  @Test func staticDecomposeMatchesInit() {
    let m =
      Transform3D.makeRotation(by: 0.4, x: 1, y: 1, z: 0)
      * Transform3D.makeTranslation(x: 1, y: 2, z: 3)
    #expect(DecomposedTransform3D.decompose(m) == DecomposedTransform3D(m))
  }

  /// Channels round-trip in the documented order: translation, scale, skews, perspective, rotation.
  @Test func channelsRoundTrip() throws {
    let d = DecomposedTransform3D(
      translation: Vector3(x: 1, y: 2, z: 3), scale: Vector3(x: 4, y: 5, z: 6), skewXY: 7,
      skewXZ: 8, skewYZ: 9, perspective: Vector4(x: 10, y: 11, z: 12, w: 13),
      rotation: Quaternion(x: 14, y: 15, z: 16, w: 17))
    #expect(d.channels == (1...17).map(Double.init))
    #expect(DecomposedTransform3D.channelCount == 17)
    #expect(try DecomposedTransform3D(channels: d.channels) == d)
  }

  /// Wrong channel count.
  @Test func channelsRejectWrongCount() {
    #expect(
      throws: ValidationError(field: "channels", reason: .countMismatch(expected: 17, actual: 16))
    ) {
      try DecomposedTransform3D(channels: Array(repeating: 0, count: 16))
    }
  }

  /// A NaN channel names its index.
  @Test func channelsRejectNaN() {
    var c = DecomposedTransform3D.identity.channels
    c[14] = .nan
    #expect(throws: ValidationError(field: "channels", index: 14, reason: .notFinite)) {
      try DecomposedTransform3D(channels: c)
    }
  }

  /// The identity decomposes to `identity`, and `identity` recomposes to the identity matrix.
  @Test func identity() {
    #expect(DecomposedTransform3D(.identity) == .identity)
    #expect(DecomposedTransform3D.identity.recomposed() == .identity)
  }
}
