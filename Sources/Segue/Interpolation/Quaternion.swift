import RealModule

/// A rotation quaternion `(x, y, z, w)`: vector part `(x, y, z)`, scalar part `w`.
///
/// The unit quaternion `(sin(θ/2)·u, cos(θ/2))` is the rotation by `θ` radians about the unit axis
/// `u`, the same rotation as `Transform3D.makeRotation(by: θ, x: u.x, y: u.y, z: u.z)`. `q` and
/// `−q` are the same rotation. Matrices use Core Animation storage (row vectors, `p' = p · M`); the
/// quaternion-to-matrix step is the one fixed by <doc:TransitionCatalog#Transform-interpolation>
/// (see ``rotationMatrix``).
///
/// Equality (`==`) compares the four components exactly, so `q != −q` even though both describe the
/// same rotation.
public struct Quaternion: Hashable, Sendable, CustomStringConvertible {
  /// The x component of the vector part, `sin(θ/2)·u.x` for a unit quaternion.
  public var x: Double
  /// The y component of the vector part, `sin(θ/2)·u.y`.
  public var y: Double
  /// The z component of the vector part, `sin(θ/2)·u.z`.
  public var z: Double
  /// The scalar part, `cos(θ/2)`.
  public var w: Double

  /// Creates the quaternion `(x, y, z, w)` as given (not normalised).
  @inlinable
  public init(x: Double, y: Double, z: Double, w: Double) {
    self.x = x
    self.y = y
    self.z = z
    self.w = w
  }

  /// The identity rotation `(0, 0, 0, 1)`.
  public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

  /// The rotation by `angle` radians about the axis `(x, y, z)`: `(sin(θ/2)·u, cos(θ/2))` with
  /// `u` the normalised axis.
  ///
  /// Its ``rotationMatrix`` equals `Transform3D.makeRotation(by: angle, x: x, y: y, z: z)` to
  /// rounding. As that constructor, a zero-length or non-finite axis gives ``identity``. A non-finite angle gives
  /// ``identity`` too (there is no rotation to describe).
  public init(angle: Double, x: Double, y: Double, z: Double) {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite, angle.isFinite else {
      self = .identity
      return
    }
    let s = Double.sin(angle / 2) / length
    self.init(x: x * s, y: y * s, z: z * s, w: Double.cos(angle / 2))
  }

  /// The four-dimensional dot product `x·x' + y·y' + z·z' + w·w'`.
  ///
  /// For unit quaternions it is `cos(φ/2)` where `φ` is the angle of the rotation taking one to the
  /// other (up to the sign ambiguity `q ≡ −q`).
  @inlinable
  public func dot(_ other: Quaternion) -> Double {
    x * other.x + y * other.y + z * other.z + w * other.w
  }

  /// The Euclidean norm `√(x² + y² + z² + w²)`; 1 for a rotation.
  @inlinable
  public var length: Double { dot(self).squareRoot() }

  /// This quaternion divided by its ``length``, so the result has length 1.
  ///
  /// A zero or non-finite length has no direction; the result is then ``identity``, so the value is
  /// always a finite rotation.
  public func normalized() -> Quaternion {
    let n = length
    guard n > 0, n.isFinite else { return .identity }
    return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
  }

  /// `−q`, the same rotation with every component negated.
  @inlinable
  public static prefix func - (q: Quaternion) -> Quaternion {
    Quaternion(x: -q.x, y: -q.y, z: -q.z, w: -q.w)
  }

  /// Spherical linear interpolation along the **shortest path**
  /// (<doc:TransitionCatalog#Transform-interpolation>).
  ///
  /// With `d = a · b` clamped to `[−1, 1]`:
  /// - if `|d| == 1` exactly, the result is `a` (both ends are the same rotation). In double
  ///   precision `cos(h)` rounds to 1 for half-angles `h` below about 1e-8 rad, so rotations that
  ///   close are treated as equal;
  /// - if `d < 0`, `b` and `d` are negated first, so the arc is at most a half turn (`b` and `−b`
  ///   are the same rotation), as WebKit and Chromium do; plain CSS does not flip;
  /// - with `θ = acos(d)` the result is `a·(cos(tθ) − d·w) + b·w`, `w = sin(tθ)/√(1 − d²)`, which
  ///   is the CSS Transforms 2 form of `(sin((1−t)θ)·a + sin(tθ)·b) / sin θ`;
  /// - when `sin θ < 1e-6` the ends are so close that the division loses precision, and the result is
  ///   the normalised lerp `((1−t)·a + t·b) / |…|`, which differs from slerp by `O(θ³)` there.
  ///
  /// Properties: the value at `t = 0` is `a`; at `t = 1` it is `b` or `−b` (the same rotation); for
  /// unit inputs the result is a unit quaternion. `t` outside `[0, 1]` continues along the same great
  /// circle (a rotation beyond the ends, for spring overshoot) and stays finite for any finite `t`.
  ///
  /// - Parameters:
  ///   - a: The start rotation, a unit quaternion.
  ///   - b: The end rotation, a unit quaternion.
  ///   - t: The unitless fraction; 0 gives `a`, 1 gives `b` (up to sign).
  public static func slerp(_ a: Quaternion, _ b: Quaternion, fraction t: Double) -> Quaternion {
    guard let (b, d) = shortestArc(a, b) else { return a }
    let sinTheta = (1 - d * d).squareRoot()
    if sinTheta < 1e-6 {
      let u = 1 - t
      return Quaternion(
        x: u * a.x + t * b.x, y: u * a.y + t * b.y, z: u * a.z + t * b.z, w: u * a.w + t * b.w
      ).normalized()
    }
    let theta = Double.acos(d)
    let wb = Double.sin(t * theta) / sinTheta
    let wa = Double.cos(t * theta) - d * wb
    return Quaternion(
      x: wa * a.x + wb * b.x, y: wa * a.y + wb * b.y, z: wa * a.z + wb * b.z,
      w: wa * a.w + wb * b.w)
  }

  /// `b` on the same side as `a` (negated when `a·b < 0`) and their clamped dot product
  /// `d ≥ 0`, or `nil` when the ends are equal or opposite (`|a·b| = 1`): slerp's first steps.
  static func shortestArc(_ a: Quaternion, _ b: Quaternion) -> (Quaternion, Double)? {
    let d = Swift.min(Swift.max(a.dot(b), -1), 1)
    if abs(d) == 1 { return nil }
    return d < 0 ? (-b, -d) : (b, d)
  }

  /// The rotation matrix of this unit quaternion in Core Animation storage
  /// (<doc:TransitionCatalog#Transform-interpolation>):
  ///
  ///     m11 = 1 − 2(y² + z²)   m12 = 2(xy + zw)       m13 = 2(xz − yw)
  ///     m21 = 2(xy − zw)       m22 = 1 − 2(x² + z²)   m23 = 2(yz + xw)
  ///     m31 = 2(xz + yw)       m32 = 2(yz − xw)       m33 = 1 − 2(x² + y²)
  ///
  /// with `m44 = 1` and every other field 0. For `(0, 0, sin θ/2, cos θ/2)` this is `Rz(θ)`:
  /// `m11 = cos θ`, `m12 = sin θ`, `m21 = −sin θ`. (The CSS Transforms 2 listing copied into CA
  /// storage is the transpose, the inverse rotation.) The quaternion should have length 1; the
  /// formula does not normalise.
  public var rotationMatrix: Transform3D {
    let xx = x * x
    let yy = y * y
    let zz = z * z
    let xy = x * y
    let xz = x * z
    let yz = y * z
    let xw = x * w
    let yw = y * w
    let zw = z * w
    return Transform3D(
      m11: 1 - 2 * (yy + zz), m12: 2 * (xy + zw), m13: 2 * (xz - yw), m14: 0,
      m21: 2 * (xy - zw), m22: 1 - 2 * (xx + zz), m23: 2 * (yz + xw), m24: 0,
      m31: 2 * (xz + yw), m32: 2 * (yz - xw), m33: 1 - 2 * (xx + yy), m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
  }

  /// The quaternion of a rotation matrix given by its three rows (CA storage: `row0 = (m11, m12,
  /// m13)` and so on), the inverse of ``rotationMatrix``.
  ///
  /// CSS Transforms 2 step 7 takes `½√max(1 ± r00 ± r11 ± r22, 0)` for all four components and fixes
  /// the signs by comparing off-diagonal pairs; that loses the relative signs of x, y, z for half
  /// turns (where w = 0 and the comparisons tie). This uses the equivalent, robust largest-diagonal
  /// branch (Shepperd's method, as WebKit does when the trace is small), with `rᵢⱼ` component j of
  /// row i:
  ///
  /// - trace `r00 + r11 + r22 > 0`: `w = ½√(1 + trace)`, `x = (r12 − r21)/4w`, `y = (r20 − r02)/4w`,
  ///   `z = (r01 − r10)/4w`;
  /// - else the largest diagonal entry picks the component computed by the square root, e.g. for
  ///   `r00`: `x = ½√(1 + r00 − r11 − r22)`, `w = (r12 − r21)/4x`, `y = (r01 + r10)/4x`,
  ///   `z = (r02 + r20)/4x`.
  ///
  /// The result is normalised and its sign chosen so that `w ≥ 0` (as CSS's `qw ≥ 0`). For a proper
  /// rotation (orthonormal rows, determinant +1) ``rotationMatrix`` of the result gives the rows back
  /// to rounding; `Rz(θ)` gives `(0, 0, sin θ/2, cos θ/2)` for `θ` in `(−π, π]`. Rows that are not a
  /// rotation give some finite unit quaternion; non-finite rows give ``identity``.
  public init(rotationRows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
    let (r00, r01, r02) = (r0.x, r0.y, r0.z)
    let (r10, r11, r12) = (r1.x, r1.y, r1.z)
    let (r20, r21, r22) = (r2.x, r2.y, r2.z)
    let trace = r00 + r11 + r22
    var q: Quaternion
    if trace > 0 {
      let w = 0.5 * (1 + trace).squareRoot()
      let k = 0.25 / w
      q = Quaternion(x: (r12 - r21) * k, y: (r20 - r02) * k, z: (r01 - r10) * k, w: w)
    } else if r00 >= r11 && r00 >= r22 {
      let x = 0.5 * Swift.max(1 + r00 - r11 - r22, 0).squareRoot()
      let k = x > 0 ? 0.25 / x : 0
      q = Quaternion(x: x, y: (r01 + r10) * k, z: (r02 + r20) * k, w: (r12 - r21) * k)
    } else if r11 >= r22 {
      let y = 0.5 * Swift.max(1 - r00 + r11 - r22, 0).squareRoot()
      let k = y > 0 ? 0.25 / y : 0
      q = Quaternion(x: (r01 + r10) * k, y: y, z: (r12 + r21) * k, w: (r20 - r02) * k)
    } else {
      let z = 0.5 * Swift.max(1 - r00 - r11 + r22, 0).squareRoot()
      let k = z > 0 ? 0.25 / z : 0
      q = Quaternion(x: (r02 + r20) * k, y: (r12 + r21) * k, z: z, w: (r01 - r10) * k)
    }
    q = q.normalized()
    self = q.w < 0 ? -q : q
  }

  /// The quaternion of the rotation in the upper-left 3×3 of `m` (rows `(m11, m12, m13)`,
  /// `(m21, m22, m23)`, `(m31, m32, m33)`); see ``init(rotationRows:_:_:)``. The other fields are
  /// ignored.
  public init(rotationMatrix m: Transform3D) {
    self.init(
      rotationRows: Vector3(x: m.m11, y: m.m12, z: m.m13),
      Vector3(x: m.m21, y: m.m22, z: m.m23),
      Vector3(x: m.m31, y: m.m32, z: m.m33))
  }

  /// `"(x, y, z, w)"`.
  public var description: String { "(\(x), \(y), \(z), \(w))" }
}
