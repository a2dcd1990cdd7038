import RealModule

/// A 4×4 homogeneous transform with Core Animation's `CATransform3D` layout and semantics.
///
/// Fields are `m<row><column>`. Points are **row vectors**: `[x y z 1] · M`, so
///
///     x' = x·m11 + y·m21 + z·m31 + m41        w' = x·m14 + y·m24 + z·m34 + m44
///
/// and the translation sits in `m41, m42, m43`; `m34 = −1/d` adds perspective with eye distance `d`.
/// With row vectors "apply A, then B" is the product `A · B`, spelled ``concatenating(_:)``.
///
/// Equality (`==`) compares the sixteen fields exactly, as `CATransform3DEqualToTransform`;
/// ``isApproximatelyEqual(to:absoluteTolerance:relativeTolerance:)`` compares with a tolerance.
public struct Transform3D: Hashable, Sendable {
  /// Row 1 (the image of the x axis): `m11, m12, m13` and the perspective term `m14`.
  public var m11: Double, m12: Double, m13: Double, m14: Double
  /// Row 2 (the image of the y axis): `m21, m22, m23` and the perspective term `m24`.
  public var m21: Double, m22: Double, m23: Double, m24: Double
  /// Row 3 (the image of the z axis): `m31, m32, m33` and `m34 = −1/d` for perspective.
  public var m31: Double, m32: Double, m33: Double, m34: Double
  /// Row 4: the translation `m41, m42, m43` (points) and the homogeneous `m44`.
  public var m41: Double, m42: Double, m43: Double, m44: Double

  /// Creates a transform from its sixteen fields in row-major order (`m11, m12, …, m44`).
  @inlinable
  public init(
    m11: Double, m12: Double, m13: Double, m14: Double,
    m21: Double, m22: Double, m23: Double, m24: Double,
    m31: Double, m32: Double, m33: Double, m34: Double,
    m41: Double, m42: Double, m43: Double, m44: Double
  ) {
    self.m11 = m11
    self.m12 = m12
    self.m13 = m13
    self.m14 = m14
    self.m21 = m21
    self.m22 = m22
    self.m23 = m23
    self.m24 = m24
    self.m31 = m31
    self.m32 = m32
    self.m33 = m33
    self.m34 = m34
    self.m41 = m41
    self.m42 = m42
    self.m43 = m43
    self.m44 = m44
  }

  /// The identity, `CATransform3DIdentity`: ones on the diagonal, zeros elsewhere.
  public static let identity = Transform3D(
    m11: 1, m12: 0, m13: 0, m14: 0,
    m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)

  /// Creates a transform from 16 values in `CATransform3D` field order (`m11, m12, …, m44`).
  ///
  /// - Throws: ``ValidationError`` with `field` `"transform"` when the count is not 16
  ///   (``ValidationError/Reason/countMismatch(expected:actual:)``) or an entry is not finite
  ///   (with its index).
  public init(fields: [Double]) throws(ValidationError) {
    guard fields.count == 16 else {
      throw ValidationError(
        field: "transform", reason: .countMismatch(expected: 16, actual: fields.count))
    }
    for (i, v) in fields.enumerated() { try Validate.finite(v, "transform", index: i) }
    self.init(unchecked: fields)
  }

  /// Creates a transform from 16 values in field order without validation (`fields.count == 16`).
  @usableFromInline
  init(unchecked f: [Double]) {
    self.init(
      m11: f[0], m12: f[1], m13: f[2], m14: f[3],
      m21: f[4], m22: f[5], m23: f[6], m24: f[7],
      m31: f[8], m32: f[9], m33: f[10], m34: f[11],
      m41: f[12], m42: f[13], m43: f[14], m44: f[15])
  }

  /// Whether all sixteen fields are finite (no allocation, unlike testing ``fields``).
  @inlinable
  package var hasFiniteFields: Bool {
    m11.isFinite && m12.isFinite && m13.isFinite && m14.isFinite && m21.isFinite
      && m22.isFinite && m23.isFinite && m24.isFinite && m31.isFinite && m32.isFinite
      && m33.isFinite && m34.isFinite && m41.isFinite && m42.isFinite && m43.isFinite
      && m44.isFinite
  }

  /// The sixteen fields in `CATransform3D` order: `m11, m12, m13, m14, m21, …, m44`.
  @inlinable
  public var fields: [Double] {
    [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
  }

  /// Field `m<row+1><column+1>` for zero-based `row` and `column` in `0..<4`.
  @inlinable
  public subscript(row: Int, column: Int) -> Double {
    get {
      switch row &* 4 &+ column {
      case 0: m11
      case 1: m12
      case 2: m13
      case 3: m14
      case 4: m21
      case 5: m22
      case 6: m23
      case 7: m24
      case 8: m31
      case 9: m32
      case 10: m33
      case 11: m34
      case 12: m41
      case 13: m42
      case 14: m43
      default: m44
      }
    }
    set {
      switch row &* 4 &+ column {
      case 0: m11 = newValue
      case 1: m12 = newValue
      case 2: m13 = newValue
      case 3: m14 = newValue
      case 4: m21 = newValue
      case 5: m22 = newValue
      case 6: m23 = newValue
      case 7: m24 = newValue
      case 8: m31 = newValue
      case 9: m32 = newValue
      case 10: m33 = newValue
      case 11: m34 = newValue
      case 12: m41 = newValue
      case 13: m42 = newValue
      case 14: m43 = newValue
      default: m44 = newValue
      }
    }
  }

  // MARK: - Constructors (CATransform3DMake…)

  /// A translation by `(x, y, z)` points: the identity with `m41 = x`, `m42 = y`, `m43 = z`.
  ///
  /// Core Animation: `CATransform3DMakeTranslation(tx, ty, tz)`.
  @inlinable
  public static func makeTranslation(x: Double, y: Double, z: Double) -> Transform3D {
    var t = identity
    t.m41 = x
    t.m42 = y
    t.m43 = z
    return t
  }

  /// A scale by the unitless factors `(x, y, z)`: `diag(x, y, z, 1)`.
  ///
  /// Core Animation: `CATransform3DMakeScale(sx, sy, sz)`.
  @inlinable
  public static func makeScale(x: Double, y: Double, z: Double) -> Transform3D {
    var t = identity
    t.m11 = x
    t.m22 = y
    t.m33 = z
    return t
  }

  /// A rotation of `angle` radians about the axis `(x, y, z)`.
  ///
  /// Core Animation: `CATransform3DMakeRotation(angle, x, y, z)`.
  ///
  /// The axis is normalised first; a zero-length (or non-finite) axis gives the identity, as Apple
  /// documents. With `c = cos θ`, `s = sin θ` and the unit axis `(x, y, z)`:
  ///
  ///     m11 = c + (1−c)x²     m12 = (1−c)xy + s·z   m13 = (1−c)xz − s·y
  ///     m21 = (1−c)xy − s·z   m22 = c + (1−c)y²     m23 = (1−c)yz + s·x
  ///     m31 = (1−c)xz + s·y   m32 = (1−c)yz − s·x   m33 = c + (1−c)z²
  ///
  /// About z this is `m11 = c, m12 = s, m21 = −s, m22 = c`: `x' = x·c − y·s`, `y' = x·s + y·c`,
  /// which turns clockwise on a y-down (UIKit) screen for positive angles.
  @inlinable
  public static func makeRotation(by angle: Double, x: Double, y: Double, z: Double)
    -> Transform3D
  {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite else { return identity }
    let (ux, uy, uz) = (x / length, y / length, z / length)
    let c = Double.cos(angle)
    let s = Double.sin(angle)
    let k = 1 - c
    return Transform3D(
      m11: c + k * ux * ux, m12: k * ux * uy + s * uz, m13: k * ux * uz - s * uy, m14: 0,
      m21: k * ux * uy - s * uz, m22: c + k * uy * uy, m23: k * uy * uz + s * ux, m24: 0,
      m31: k * ux * uz + s * uy, m32: k * uy * uz - s * ux, m33: c + k * uz * uz, m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
  }

  /// The perspective matrix `P(d)`: the identity with `m34 = −1/d`, eye distance `d` in points.
  ///
  /// A point at depth `z` is scaled by `d/(d − z)` after the homogeneous divide. As CSS
  /// `perspective()`, `d` is clamped to at least 1 point; a non-finite `d` gives the identity.
  @inlinable
  public static func makePerspective(distance d: Double) -> Transform3D {
    var t = identity
    guard d.isFinite else { return t }
    t.m34 = -1 / Swift.max(d, 1)
    return t
  }

  // MARK: - Composition

  /// `CATransform3DConcat(self, other)`: the product `self · other`, "apply self, then other".
  @inlinable
  public func concatenating(_ b: Transform3D) -> Transform3D {
    let a = self
    return Transform3D(
      m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
      m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
      m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
      m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
      m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
      m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
      m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
      m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
      m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
      m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
      m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
      m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
      m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
      m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
      m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
      m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
  }

  /// `a · b` (apply `a`, then `b`); the same as `a.concatenating(b)`.
  @inlinable
  public static func * (a: Transform3D, b: Transform3D) -> Transform3D { a.concatenating(b) }

  /// `T(x, y, z) · self`: the translation by `(x, y, z)` points applied first, in this transform's
  /// local space.
  ///
  /// Core Animation: `CATransform3DTranslate(t, tx, ty, tz)`.
  @inlinable
  public func translated(x: Double, y: Double, z: Double) -> Transform3D {
    Transform3D.makeTranslation(x: x, y: y, z: z).concatenating(self)
  }

  /// `S(x, y, z) · self`: the scale by the unitless factors `(x, y, z)` applied first.
  ///
  /// Core Animation: `CATransform3DScale(t, sx, sy, sz)`.
  @inlinable
  public func scaled(x: Double, y: Double, z: Double) -> Transform3D {
    Transform3D.makeScale(x: x, y: y, z: z).concatenating(self)
  }

  /// `R(angle, axis) · self`: the rotation of `angle` radians about the axis `(x, y, z)` applied
  /// first. Apple leaves a zero axis undefined; here it leaves `self` unchanged.
  ///
  /// Core Animation: `CATransform3DRotate(t, angle, x, y, z)`.
  @inlinable
  public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
    Transform3D.makeRotation(by: angle, x: x, y: y, z: z).concatenating(self)
  }

  // MARK: - Determinant and inverse

  /// The 2×2 minors of the first two rows (`s`) and of the last two rows (`c`), the shared
  /// ingredients of the determinant and the adjugate (Laplace expansion by complementary minors).
  @usableFromInline
  struct Minors {
    @usableFromInline let s0, s1, s2, s3, s4, s5: Double
    @usableFromInline let c0, c1, c2, c3, c4, c5: Double

    @inlinable
    init(_ m: Transform3D) {
      s0 = m.m11 * m.m22 - m.m21 * m.m12
      s1 = m.m11 * m.m23 - m.m21 * m.m13
      s2 = m.m11 * m.m24 - m.m21 * m.m14
      s3 = m.m12 * m.m23 - m.m22 * m.m13
      s4 = m.m12 * m.m24 - m.m22 * m.m14
      s5 = m.m13 * m.m24 - m.m23 * m.m14
      c5 = m.m33 * m.m44 - m.m43 * m.m34
      c4 = m.m32 * m.m44 - m.m42 * m.m34
      c3 = m.m32 * m.m43 - m.m42 * m.m33
      c2 = m.m31 * m.m44 - m.m41 * m.m34
      c1 = m.m31 * m.m43 - m.m41 * m.m33
      c0 = m.m31 * m.m42 - m.m41 * m.m32
    }

    /// `det = s0·c5 − s1·c4 + s2·c3 + s3·c2 − s4·c1 + s5·c0`.
    @inlinable
    var determinant: Double { s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0 }
  }

  /// The determinant, by Laplace expansion along the 2×2 minors of the first two rows.
  @inlinable
  public var determinant: Double { Minors(self).determinant }

  /// The largest absolute field, `max |mᵢⱼ|`.
  @inlinable
  public var maxMagnitude: Double {
    // Folded field by field in `fields` order (NaN fields are skipped, as by `Swift.max`),
    // without building the `fields` array.
    @inline(__always)
    func fold(_ m: Double, _ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
      Swift.max(Swift.max(Swift.max(Swift.max(m, abs(a)), abs(b)), abs(c)), abs(d))
    }
    let row1 = fold(0, m11, m12, m13, m14)
    let row2 = fold(row1, m21, m22, m23, m24)
    let row3 = fold(row2, m31, m32, m33, m34)
    return fold(row3, m41, m42, m43, m44)
  }

  /// Whether this matrix counts as singular: its determinant is not finite, or
  /// `|det| ≤ 1e-12 · (max |mᵢⱼ|)⁴` (<doc:TransitionCatalog#Singular-matrices>). The test is
  /// relative, so uniformly scaling a matrix by any non-zero factor does not change the verdict (a
  /// `S(0.05)` scale is invertible, unlike under GNUstep's absolute 1e-4).
  @inlinable
  public var isSingular: Bool {
    Transform3D.isSingular(determinant: determinant, maxMagnitude: maxMagnitude, order: 4)
  }

  /// The singular test of <doc:TransitionCatalog#Singular-matrices> for an n×n matrix with
  /// determinant `det` and largest absolute entry `max`: singular when `det` is not finite or
  /// `|det| ≤ 1e-12 · maxⁿ` (a zero matrix is singular).
  @inlinable
  public static func isSingular(determinant det: Double, maxMagnitude max: Double, order n: Int)
    -> Bool
  {
    guard det.isFinite, max.isFinite else { return true }
    var scale = 1.0
    for _ in 0..<n { scale *= max }
    return abs(det) <= 1e-12 * scale
  }

  /// The inverse, or `nil` when the matrix is singular (``isSingular``) or has non-finite fields.
  ///
  /// Computed with the adjugate (cofactor) formula, `M⁻¹ = adj(M) / det(M)`;
  /// `inverted()! · M ≈ I` to rounding for well-conditioned matrices.
  public func inverted() -> Transform3D? {
    let minors = Minors(self)
    let (s0, s1, s2, s3, s4, s5) = (
      minors.s0, minors.s1, minors.s2, minors.s3, minors.s4, minors.s5
    )
    let (c0, c1, c2, c3, c4, c5) = (
      minors.c0, minors.c1, minors.c2, minors.c3, minors.c4, minors.c5
    )
    let det = minors.determinant
    guard !Transform3D.isSingular(determinant: det, maxMagnitude: maxMagnitude, order: 4) else {
      return nil
    }
    let r = 1 / det
    let inverse = Transform3D(
      m11: (m22 * c5 - m23 * c4 + m24 * c3) * r,
      m12: (-m12 * c5 + m13 * c4 - m14 * c3) * r,
      m13: (m42 * s5 - m43 * s4 + m44 * s3) * r,
      m14: (-m32 * s5 + m33 * s4 - m34 * s3) * r,
      m21: (-m21 * c5 + m23 * c2 - m24 * c1) * r,
      m22: (m11 * c5 - m13 * c2 + m14 * c1) * r,
      m23: (-m41 * s5 + m43 * s2 - m44 * s1) * r,
      m24: (m31 * s5 - m33 * s2 + m34 * s1) * r,
      m31: (m21 * c4 - m22 * c2 + m24 * c0) * r,
      m32: (-m11 * c4 + m12 * c2 - m14 * c0) * r,
      m33: (m41 * s4 - m42 * s2 + m44 * s0) * r,
      m34: (-m31 * s4 + m32 * s2 - m34 * s0) * r,
      m41: (-m21 * c3 + m22 * c1 - m23 * c0) * r,
      m42: (m11 * c3 - m12 * c1 + m13 * c0) * r,
      m43: (-m41 * s3 + m42 * s1 - m43 * s0) * r,
      m44: (m31 * s3 - m32 * s1 + m33 * s0) * r)
    guard inverse.hasFiniteFields else { return nil }
    return inverse
  }

  /// `CATransform3DInvert`: the inverse, or `self` unchanged when the matrix is singular.
  public func invertedOrSelf() -> Transform3D { inverted() ?? self }
}
