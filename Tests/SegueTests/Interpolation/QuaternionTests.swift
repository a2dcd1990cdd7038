import PropertyBased
import RealModule
import Segue
import Testing

@Suite("Quaternion")
struct QuaternionTests {
  typealias Support = InterpolationTestSupport

  /// Transform interpolation (transition catalog): the quaternion (0, 0, sin θ/2, cos θ/2) has the
  /// matrix Rz(θ). By hand, for θ = π/3: sin θ/2 = 1/2, cos θ/2 = √3/2, so m11 = 1 − 2·(1/4) = 1/2,
  /// m12 = 2·(1/2)(√3/2) = √3/2, m21 = −√3/2, m22 = 1/2, m33 = 1 — which is Rz(π/3) = (cos, sin,
  /// −sin, cos).
  @Test func rotationMatrixOfZQuaternionIsRz() {
    let q = Quaternion(x: 0, y: 0, z: 0.5, w: 3.0.squareRoot() / 2)
    let expected = Support.matrix([
      0.5, 3.0.squareRoot() / 2, 0, 0,
      -3.0.squareRoot() / 2, 0.5, 0, 0,
      0, 0, 1, 0,
      0, 0, 0, 1,
    ])
    #expect(Support.close(q.rotationMatrix, expected, 1e-15))
  }

  /// The other direction: Rz(θ) → (0, 0, sin θ/2, cos θ/2) for θ in (−π, π).
  @Test func quaternionOfRzIsHalfAngle() async {
    await propertyCheck(count: 200, input: Gen.double(in: -3.14...3.14)) { theta in
      let q = Quaternion(rotationMatrix: Transform3D.makeRotation(by: theta, x: 0, y: 0, z: 1))
      #expect(abs(q.x) < 1e-15 && abs(q.y) < 1e-15)
      #expect(abs(q.z - Double.sin(theta / 2)) < 1e-14)
      #expect(abs(q.w - Double.cos(theta / 2)) < 1e-14)
    }
  }

  /// The matrix of `init(angle:x:y:z:)` equals GNUstep's `CATransform3DMakeRotation` formula
  /// (Transform3D.makeRotation), for random angles and axes.
  @Test func angleAxisMatchesMakeRotation() async {
    await propertyCheck(
      count: 200, input: Gen.double(in: -7...7), Gen.double(in: -1...1).array(of: 3)
    ) { angle, axis in
      guard (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]) > 1e-4 else { return }
      let q = Quaternion(angle: angle, x: axis[0], y: axis[1], z: axis[2])
      let m = Transform3D.makeRotation(by: angle, x: axis[0], y: axis[1], z: axis[2])
      #expect(Support.close(q.rotationMatrix, m, 1e-14))
      #expect(abs(q.length - 1) < 1e-15)
    }
  }

  /// A zero axis gives the identity, as `CATransform3DMakeRotation` does.
  @Test func zeroAxisIsIdentity() {
    #expect(Quaternion(angle: 1, x: 0, y: 0, z: 0) == .identity)
    #expect(Quaternion(angle: .nan, x: 0, y: 0, z: 1) == .identity)
  }

  /// matrix → quaternion → matrix round trip for random unit quaternions (including near half turns,
  /// where CSS's max-form loses signs); the result is the same quaternion up to sign, with w ≥ 0.
  @Test func matrixRoundTrip() async {
    await propertyCheck(count: 300, input: Gen.double(in: -1...1).array(of: 4)) { c in
      let q = Quaternion(x: c[0], y: c[1], z: c[2], w: c[3])
      guard q.length > 1e-3 else { return }
      let unit = q.normalized()
      let back = Quaternion(rotationMatrix: unit.rotationMatrix)
      #expect(back.w >= 0)
      #expect(abs(abs(back.dot(unit)) - 1) < 1e-12)
      #expect(Support.close(back.rotationMatrix, unit.rotationMatrix, 1e-14))
    }
  }

  /// A half turn about (1, −1, 0)/√2: w = 0 and x, y have opposite signs. By hand the quaternion is
  /// ±(1/√2, −1/√2, 0, 0). (CSS step 7's sign comparisons all tie here and would give x, y > 0.)
  @Test func halfTurnKeepsRelativeSigns() {
    let m = Transform3D.makeRotation(by: Double.pi, x: 1, y: -1, z: 0)
    let q = Quaternion(rotationMatrix: m)
    let h = 1 / 2.0.squareRoot()
    #expect(abs(abs(q.x) - h) < 1e-15 && abs(abs(q.y) - h) < 1e-15)
    #expect(q.x * q.y < 0)
    #expect(abs(q.z) < 1e-15 && abs(q.w) < 1e-15)
  }

  /// Non-finite rows give the identity instead of NaN.
  @Test func nonFiniteRowsGiveIdentity() {
    var m = Transform3D.identity
    m.m11 = .nan
    #expect(Quaternion(rotationMatrix: m) == .identity)
  }

  /// Zero-length normalisation gives the identity.
  @Test func normalisingZeroGivesIdentity() {
    #expect(Quaternion(x: 0, y: 0, z: 0, w: 0).normalized() == .identity)
    let q = Quaternion(x: 0, y: 3, z: 0, w: 4).normalized()
    #expect(q == Quaternion(x: 0, y: 0.6, z: 0, w: 0.8))
  }

  /// Shortest path: Rz(170°) → Rz(−170°) goes through 180°, not through 0. By hand, the arc between
  /// them is 20°, so at t = 0.5 the rotation is Rz(180°) = ±(0, 0, 1, 0) and at t = 0.25 it is
  /// Rz(175°), i.e. ±(0, 0, sin 87.5°, cos 87.5°).
  @Test func slerpTakesTheShortestPath() {
    let deg = Double.pi / 180
    let a = Quaternion(angle: 170 * deg, x: 0, y: 0, z: 1)
    let b = Quaternion(angle: -170 * deg, x: 0, y: 0, z: 1)
    #expect(a.dot(b) < 0)
    let half = Quaternion.slerp(a, b, fraction: 0.5)
    #expect(abs(abs(half.z) - 1) < 1e-14 && abs(half.w) < 1e-14)
    let quarter = Quaternion.slerp(a, b, fraction: 0.25)
    let expected = Quaternion(x: 0, y: 0, z: Double.sin(87.5 * deg), w: Double.cos(87.5 * deg))
    #expect(abs(abs(quarter.dot(expected)) - 1) < 1e-14)
  }

  /// Slerp moves at constant angular speed on the short arc: for unit a, b the angle from a to
  /// slerp(t) is t times the angle from a to b (|dot| = cos of half the rotation angle), and the
  /// result is a unit quaternion.
  @Test func slerpHasConstantSpeed() async {
    await propertyCheck(
      count: 200, input: Gen.double(in: -1...1).array(of: 8), Gen.double(in: 0...1)
    ) { c, t in
      let a = Quaternion(x: c[0], y: c[1], z: c[2], w: c[3])
      let b = Quaternion(x: c[4], y: c[5], z: c[6], w: c[7])
      guard a.length > 1e-2, b.length > 1e-2 else { return }
      let (ua, ub) = (a.normalized(), b.normalized())
      let theta = Double.acos(min(abs(ua.dot(ub)), 1))
      let r = Quaternion.slerp(ua, ub, fraction: t)
      #expect(abs(r.length - 1) < 1e-12)
      #expect(abs(abs(ua.dot(r)) - Double.cos(t * theta)) < 1e-9)
      #expect(abs(abs(ub.dot(r)) - Double.cos((1 - t) * theta)) < 1e-9)
    }
  }

  /// The ends: t = 0 gives a, t = 1 gives b up to sign.
  @Test func slerpEnds() {
    let a = Quaternion(angle: 0.3, x: 1, y: 2, z: 3)
    let b = Quaternion(angle: -2.9, x: 0, y: 1, z: 0)
    #expect(Quaternion.slerp(a, b, fraction: 0) == a)
    let one = Quaternion.slerp(a, b, fraction: 1)
    #expect(abs(abs(one.dot(b)) - 1) < 1e-14)
  }

  /// Transform interpolation (transition catalog): |dot| exactly 1 returns the first quaternion, also for q and −q.
  @Test func parallelReturnsFirst() {
    let a = Quaternion(x: 0, y: 0, z: 0, w: 1)
    #expect(Quaternion.slerp(a, -a, fraction: 0.7) == a)
    #expect(Quaternion.slerp(a, a, fraction: 0.3) == a)
  }

  /// Nearly parallel ends (half-angle h = 1e-7, so dot = cos h ≠ 1 but sin θ < 1e-6) take the
  /// nlerp fallback: finite, unit, and within O(h³) of the exact slerp `z = sin(t·h)`.
  @Test func nearlyParallelStaysFinite() {
    let h = 1e-7
    let a = Quaternion.identity
    let b = Quaternion(x: 0, y: 0, z: Double.sin(h), w: Double.cos(h))
    #expect(abs(a.dot(b)) != 1)
    for t in [0.25, 0.5, 2.0, -1.0] {
      let r = Quaternion.slerp(a, b, fraction: t)
      #expect(r.x.isFinite && r.y.isFinite && r.z.isFinite && r.w.isFinite)
      #expect(abs(r.length - 1) < 1e-15)
      #expect(abs(r.z - Double.sin(t * h)) < 1e-19)
    }
  }

  /// The catalog's exact slerp rule has a resolution limit: a half-angle of 1e-9 rad gives
  /// dot = cos(1e-9), which rounds to exactly 1, so the first quaternion is returned.
  @Test func dotRoundingToOneReturnsFirst() {
    let a = Quaternion.identity
    let b = Quaternion(x: 0, y: 0, z: Double.sin(1e-9), w: Double.cos(1e-9))
    #expect(a.dot(b) == 1)
    #expect(Quaternion.slerp(a, b, fraction: 0.5) == a)
  }

  /// Extrapolating beyond [0, 1] continues along the arc: Rz(0) → Rz(1 rad) at t = 1.5 is Rz(1.5)
  /// (by hand: the angle grows linearly with t), and at t = −0.5 it is Rz(−0.5).
  @Test func slerpExtrapolates() {
    let a = Quaternion.identity
    let b = Quaternion(angle: 1, x: 0, y: 0, z: 1)
    let r = Quaternion.slerp(a, b, fraction: 1.5)
    #expect(abs(r.z - Double.sin(0.75)) < 1e-15 && abs(r.w - Double.cos(0.75)) < 1e-15)
    let s = Quaternion.slerp(a, b, fraction: -0.5)
    #expect(abs(s.z - Double.sin(-0.25)) < 1e-15 && abs(s.w - Double.cos(-0.25)) < 1e-15)
  }
}
