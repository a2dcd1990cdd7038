import RealModule

/// A 3D transform split into translation, scale, skew, perspective and rotation, as CSS Transforms
/// Level 2 decomposes matrices for animation, adapted to Core Animation
/// storage (row vectors, translation in `m41…m43`).
///
/// The components rebuild the matrix as
///
///     M = S(scale) · K_xy · K_xz · K_yz · R(rotation) · T(translation) · P(perspective)
///
/// in row-vector form: applied to a point, scale first, then the skews xy, xz, yz, then the rotation,
/// the translation and finally the perspective. `K_xy` is the identity with `m21 = skewXY`, `K_xz`
/// with `m31 = skewXZ`, `K_yz` with `m32 = skewYZ`; `R` is the quaternion's
/// ``Quaternion/rotationMatrix``; `T` is `Transform3D.makeTranslation`; `P` is the
/// identity with its fourth column `(m14, m24, m34, m44)` set to ``perspective``.
///
/// ``init(_:)`` inverts ``recomposed()`` for matrices with `m44 ≠ 0` and an invertible linear part,
/// up to the homogeneous factor `m44` (the decomposition works on `M / m44`).
public struct DecomposedTransform3D: Hashable, Sendable {
  /// The translation `(m41, m42, m43)` of the normalised matrix, in points.
  public var translation: Vector3
  /// The scale factors along x, y and z (unitless). After a reflection all three are negative.
  public var scale: Vector3
  /// The xy shear factor (unitless): how much of the x axis is added to the y axis.
  public var skewXY: Double
  /// The xz shear factor (unitless).
  public var skewXZ: Double
  /// The yz shear factor (unitless).
  public var skewYZ: Double
  /// The fourth column of the perspective matrix, `(m14, m24, m34, m44)`; `(0, 0, 0, 1)` for none.
  /// For `P(d)` it is `(0, 0, −1/d, 1)` with `d` the eye distance in points.
  public var perspective: Vector4
  /// The rotation, a unit quaternion with `w ≥ 0` when it comes from a decomposition.
  public var rotation: Quaternion

  /// Creates a decomposition from its components (not validated; see ``init(channels:)``).
  ///
  /// The defaults are the identity's decomposition.
  public init(
    translation: Vector3 = .zero,
    scale: Vector3 = Vector3(x: 1, y: 1, z: 1),
    skewXY: Double = 0,
    skewXZ: Double = 0,
    skewYZ: Double = 0,
    perspective: Vector4 = Vector4(x: 0, y: 0, z: 0, w: 1),
    rotation: Quaternion = .identity
  ) {
    self.translation = translation
    self.scale = scale
    self.skewXY = skewXY
    self.skewXZ = skewXZ
    self.skewYZ = skewYZ
    self.perspective = perspective
    self.rotation = rotation
  }

  /// The decomposition of the identity: no translation, unit scale, no skew or perspective.
  public static let identity = DecomposedTransform3D()

  /// Decomposes `m` with the CSS Transforms 2 algorithm, or returns `nil`
  /// when it cannot be decomposed.
  ///
  /// 1. Fails when a field is not finite or `m44 == 0`; otherwise works on `M = m / m44`.
  /// 2. Fails when the linear part (the upper-left 3×3 of `M`, whose determinant is that of CSS's
  ///    `P`) is singular with n = 3 (<doc:TransitionCatalog#Singular-matrices>):
  ///    `|det| ≤ 1e-12 · (max |aᵢⱼ|)³`.
  /// 3. `perspective = P⁻¹ · (m14, m24, m34, m44)ᵀ` when any of `m14, m24, m34` is non-zero, with `P`
  ///    the matrix with its fourth column set to `(0, 0, 0, 1)` (the spec's `r · (P⁻¹)ᵀ`).
  /// 4. `translation = (m41, m42, m43)`.
  /// 5. Gram–Schmidt on the rows of the 3×3 gives `scale` and `skewXY, skewXZ, skewYZ`.
  /// 6. If the orthonormal rows form a reflection, the scales and rows are negated.
  /// 7. The rotation from the orthonormal rows (``Quaternion/init(rotationRows:_:_:)``).
  ///
  /// The singular test uses the 3×3 linear part (n = 3), as
  /// <doc:TransitionCatalog#Transform-interpolation> says (an end "cannot be decomposed" when its
  /// linear part is singular), rather than the 4×4 `P` with n = 4: `P` contains the translation,
  /// which would make a large translation turn a small, invertible scale into "singular".
  public init?(_ m: Transform3D) {
    for v in m.fields where !v.isFinite { return nil }
    guard m.m44 != 0 else { return nil }
    let k = 1 / m.m44
    var row0 = Vector3(x: m.m11 * k, y: m.m12 * k, z: m.m13 * k)
    var row1 = Vector3(x: m.m21 * k, y: m.m22 * k, z: m.m23 * k)
    var row2 = Vector3(x: m.m31 * k, y: m.m32 * k, z: m.m33 * k)
    let translation = Vector3(x: m.m41 * k, y: m.m42 * k, z: m.m43 * k)
    let cofactors = Cofactors3(row0, row1, row2)
    let det = cofactors.determinant
    let largest = Swift.max(
      abs(row0.x), abs(row0.y), abs(row0.z), abs(row1.x), abs(row1.y), abs(row1.z),
      abs(row2.x), abs(row2.y), abs(row2.z))
    guard !Transform3D.isSingular(determinant: det, maxMagnitude: largest, order: 3) else {
      return nil
    }

    // Step 3: perspective = P⁻¹ · r with P = [[A, 0], [t, 1]], so P⁻¹ = [[A⁻¹, 0], [−t·A⁻¹, 1]].
    var perspective = Vector4(x: 0, y: 0, z: 0, w: 1)
    let (r1, r2, r3) = (m.m14 * k, m.m24 * k, m.m34 * k)
    if r1 != 0 || r2 != 0 || r3 != 0 {
      let p = cofactors.solve(Vector3(x: r1, y: r2, z: r3), determinant: det)  // A⁻¹ · r
      perspective = Vector4(x: p.x, y: p.y, z: p.z, w: 1 - translation.dot(p))
    }

    // Step 5: Gram–Schmidt.
    var scale = Vector3(x: row0.length, y: 0, z: 0)
    row0 = scaled(row0, 1 / scale.x)
    var skewXY = row0.dot(row1)
    row1 = adding(row1, row0, times: -skewXY)
    scale.y = row1.length
    row1 = scaled(row1, 1 / scale.y)
    skewXY /= scale.y
    var skewXZ = row0.dot(row2)
    row2 = adding(row2, row0, times: -skewXZ)
    var skewYZ = row1.dot(row2)
    row2 = adding(row2, row1, times: -skewYZ)
    scale.z = row2.length
    row2 = scaled(row2, 1 / scale.z)
    skewXZ /= scale.z
    skewYZ /= scale.z

    // Step 6: reflection.
    if row0.dot(row1.cross(row2)) < 0 {
      scale = scaled(scale, -1)
      row0 = scaled(row0, -1)
      row1 = scaled(row1, -1)
      row2 = scaled(row2, -1)
    }

    let decomposed = DecomposedTransform3D(
      translation: translation, scale: scale, skewXY: skewXY, skewXZ: skewXZ, skewYZ: skewYZ,
      perspective: perspective, rotation: Quaternion(rotationRows: row0, row1, row2))
    for v in decomposed.channels where !v.isFinite { return nil }
    self = decomposed
  }

  /// `DecomposedTransform3D(m)`: the decomposition of `m`, or `nil` (see ``init(_:)``).
  public static func decompose(_ m: Transform3D) -> DecomposedTransform3D? {
    DecomposedTransform3D(m)
  }

  /// Rebuilds the matrix, CSS Transforms 2 steps 9.1–9.5:
  /// `M = S · K_xy · K_xz · K_yz · R(q) · T · P` in row-vector form.
  ///
  /// Computed directly: the 3×3 `A = S · K · R` has rows `sx·r0`, `sy·(r1 + xy·r0)`,
  /// `sz·(r2 + xz·r0 + yz·r1)` with `r0, r1, r2` the rows of `R(q)`; rows 1–3 of `M` are `A` with
  /// fourth column `A · (px, py, pz)`, and row 4 is `(translation, translation · (px, py, pz) + pw)`.
  /// Rotation quaternions that are not unit length are used as given. `m44` is not normalised
  /// (it is 1 when `perspective` is `(0, 0, 0, 1)`).
  public func recomposed() -> Transform3D {
    let r = rotation.rotationMatrix
    let r0 = Vector3(x: r.m11, y: r.m12, z: r.m13)
    let r1 = Vector3(x: r.m21, y: r.m22, z: r.m23)
    let r2 = Vector3(x: r.m31, y: r.m32, z: r.m33)
    let a0 = scaled(r0, scale.x)
    let a1 = scaled(adding(r1, r0, times: skewXY), scale.y)
    let a2 = scaled(adding(adding(r2, r0, times: skewXZ), r1, times: skewYZ), scale.z)
    let p = Vector3(x: perspective.x, y: perspective.y, z: perspective.z)
    let t = translation
    return Transform3D(
      m11: a0.x, m12: a0.y, m13: a0.z, m14: a0.dot(p),
      m21: a1.x, m22: a1.y, m23: a1.z, m24: a1.dot(p),
      m31: a2.x, m32: a2.y, m33: a2.z, m34: a2.dot(p),
      m41: t.x, m42: t.y, m43: t.z, m44: t.dot(p) + perspective.w)
  }

  /// The interpolation of CSS Transforms 2 step 8 with shortest-path slerp
  /// (<doc:TransitionCatalog#Transform-interpolation>):
  /// translation, scale, skews and perspective are lerped as `(1 − t)·a + t·b`, the rotation is
  /// ``Quaternion/slerp(_:_:fraction:)``.
  ///
  /// `t = 0` gives `self` and `t = 1` gives `other` (the rotation up to sign). A `t` outside
  /// `[0, 1]` extrapolates: the lerped channels continue linearly and the rotation continues along the
  /// same great circle, so the result stays finite for finite inputs of moderate size.
  ///
  /// - Parameters:
  ///   - other: The end decomposition.
  ///   - t: The unitless fraction.
  public func interpolated(to other: DecomposedTransform3D, fraction t: Double)
    -> DecomposedTransform3D
  {
    let u = 1 - t
    func mix(_ a: Double, _ b: Double) -> Double { u * a + t * b }
    func mix(_ a: Vector3, _ b: Vector3) -> Vector3 {
      Vector3(x: mix(a.x, b.x), y: mix(a.y, b.y), z: mix(a.z, b.z))
    }
    return DecomposedTransform3D(
      translation: mix(translation, other.translation),
      scale: mix(scale, other.scale),
      skewXY: mix(skewXY, other.skewXY),
      skewXZ: mix(skewXZ, other.skewXZ),
      skewYZ: mix(skewYZ, other.skewYZ),
      perspective: Vector4(
        x: mix(perspective.x, other.perspective.x), y: mix(perspective.y, other.perspective.y),
        z: mix(perspective.z, other.perspective.z), w: mix(perspective.w, other.perspective.w)),
      rotation: Quaternion.slerp(rotation, other.rotation, fraction: t))
  }

  // MARK: - Flat channels

  /// The number of ``channels``: 17.
  public static let channelCount = 17

  /// The components as 17 numbers, for batch kernels that store values flat:
  ///
  ///     [0, 1, 2]       translation x, y, z          (points)
  ///     [3, 4, 5]       scale x, y, z                (unitless)
  ///     [6, 7, 8]       skewXY, skewXZ, skewYZ       (unitless)
  ///     [9, 10, 11, 12] perspective x, y, z, w       (m14, m24, m34, m44 of P)
  ///     [13, 14, 15, 16] rotation x, y, z, w         (unit quaternion)
  ///
  /// Channels 0–12 interpolate linearly; 13–16 need ``Quaternion/slerp(_:_:fraction:)``.
  public var channels: [Double] {
    [
      translation.x, translation.y, translation.z,
      scale.x, scale.y, scale.z,
      skewXY, skewXZ, skewYZ,
      perspective.x, perspective.y, perspective.z, perspective.w,
      rotation.x, rotation.y, rotation.z, rotation.w,
    ]
  }

  /// Creates a decomposition from ``channels`` in the order listed there.
  ///
  /// The rotation is used as given (not normalised).
  ///
  /// - Throws: ``ValidationError`` on field `"channels"`:
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` unless there are exactly 17 values,
  ///   ``ValidationError/Reason/notFinite`` (with the index) for NaN or infinity.
  public init(channels c: [Double]) throws(ValidationError) {
    guard c.count == DecomposedTransform3D.channelCount else {
      throw ValidationError(
        field: "channels",
        reason: .countMismatch(expected: DecomposedTransform3D.channelCount, actual: c.count))
    }
    for (i, v) in c.enumerated() { try Validate.finite(v, "channels", index: i) }
    self.init(
      translation: Vector3(x: c[0], y: c[1], z: c[2]),
      scale: Vector3(x: c[3], y: c[4], z: c[5]),
      skewXY: c[6], skewXZ: c[7], skewYZ: c[8],
      perspective: Vector4(x: c[9], y: c[10], z: c[11], w: c[12]),
      rotation: Quaternion(x: c[13], y: c[14], z: c[15], w: c[16]))
  }
}

// MARK: - Small private helpers

/// `v · k`.
private func scaled(_ v: Vector3, _ k: Double) -> Vector3 {
  Vector3(x: v.x * k, y: v.y * k, z: v.z * k)
}

/// `v + w · k`.
private func adding(_ v: Vector3, _ w: Vector3, times k: Double) -> Vector3 {
  Vector3(x: v.x + w.x * k, y: v.y + w.y * k, z: v.z + w.z * k)
}

/// The cofactors of a 3×3 matrix given by rows, for its determinant and `A⁻¹ · v`.
private struct Cofactors3 {
  /// `c[i][j]`: cofactor of entry (i, j).
  var c00, c01, c02, c10, c11, c12, c20, c21, c22: Double
  var a00, a01, a02: Double

  init(_ r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
    c00 = r1.y * r2.z - r1.z * r2.y
    c01 = r1.z * r2.x - r1.x * r2.z
    c02 = r1.x * r2.y - r1.y * r2.x
    c10 = r0.z * r2.y - r0.y * r2.z
    c11 = r0.x * r2.z - r0.z * r2.x
    c12 = r0.y * r2.x - r0.x * r2.y
    c20 = r0.y * r1.z - r0.z * r1.y
    c21 = r0.z * r1.x - r0.x * r1.z
    c22 = r0.x * r1.y - r0.y * r1.x
    (a00, a01, a02) = (r0.x, r0.y, r0.z)
  }

  /// Expansion along the first row.
  var determinant: Double { a00 * c00 + a01 * c01 + a02 * c02 }

  /// `A⁻¹ · v = adj(A) · v / det` with `adj(A)ᵢⱼ = cofactor(j, i)`.
  func solve(_ v: Vector3, determinant det: Double) -> Vector3 {
    Vector3(
      x: (c00 * v.x + c10 * v.y + c20 * v.z) / det,
      y: (c01 * v.x + c11 * v.y + c21 * v.z) / det,
      z: (c02 * v.x + c12 * v.y + c22 * v.z) / det)
  }
}
