import RealModule

extension Transform3D {
  /// The matrix with every field 0: the derivative of a constant transform.
  public static let zero = Transform3D(
    m11: 0, m12: 0, m13: 0, m14: 0, m21: 0, m22: 0, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 0, m34: 0, m41: 0, m42: 0, m43: 0, m44: 0)

  /// The field-by-field sum `self + other` (for derivatives: the product rule adds terms).
  public func adding(_ other: Transform3D) -> Transform3D {
    Transform3D(unchecked: zip(fields, other.fields).map { $0 + $1 })
  }

  /// Every field multiplied by `k`.
  public func multiplied(by k: Double) -> Transform3D {
    Transform3D(unchecked: fields.map { $0 * k })
  }
}

extension Quaternion {
  /// `d slerp(a, b, t) / dt` (``slerp(_:_:fraction:)``), per unit of `t`.
  ///
  /// With `d = a·b` (after the shortest-path sign flip), `θ = acos d`: the slerp is
  /// `wa·a + wb·b` with `wb = sin(tθ)/sin θ`, `wa = cos(tθ) − d·wb`, so `wb′ = θ·cos(tθ)/sin θ`
  /// and `wa′ = −θ·sin(tθ) − d·wb′`. In the nearly parallel branch (`sin θ < 1e-6`) the slerp is
  /// the normalised lerp `l/|l|`, whose derivative is `(l′ − q·(q·l′))/|l|` with `l′ = b − a`.
  /// Equal or opposite ends (`|d| = 1`): 0.
  public static func slerpDerivative(_ a: Quaternion, _ b: Quaternion, fraction t: Double)
    -> Quaternion
  {
    guard let (b, d) = shortestArc(a, b) else { return Quaternion(x: 0, y: 0, z: 0, w: 0) }
    let sinTheta = (1 - d * d).squareRoot()
    if sinTheta < 1e-6 {
      let u = 1 - t
      let l = Quaternion(
        x: u * a.x + t * b.x, y: u * a.y + t * b.y, z: u * a.z + t * b.z, w: u * a.w + t * b.w)
      let length = l.dot(l).squareRoot()
      guard length > 0 else { return Quaternion(x: 0, y: 0, z: 0, w: 0) }
      let q = l.normalized()
      let dl = Quaternion(x: b.x - a.x, y: b.y - a.y, z: b.z - a.z, w: b.w - a.w)
      let k = q.dot(dl)
      return Quaternion(
        x: (dl.x - k * q.x) / length, y: (dl.y - k * q.y) / length,
        z: (dl.z - k * q.z) / length, w: (dl.w - k * q.w) / length)
    }
    let theta = Double.acos(d)
    let dwb = theta * Double.cos(t * theta) / sinTheta
    let dwa = -theta * Double.sin(t * theta) - d * dwb
    return Quaternion(
      x: dwa * a.x + dwb * b.x, y: dwa * a.y + dwb * b.y, z: dwa * a.z + dwb * b.z,
      w: dwa * a.w + dwb * b.w)
  }

  /// The derivative of ``rotationMatrix`` when the quaternion moves by `dq` (the matrix is
  /// quadratic in `x, y, z, w`; e.g. `m11 = 1 − 2(y² + z²)` gives `−4(y·dy + z·dz)`). Only the
  /// 3×3 block is non-zero.
  public func rotationMatrixDerivative(_ dq: Quaternion) -> Transform3D {
    func p(_ a: Double, _ da: Double, _ b: Double, _ db: Double) -> Double { da * b + a * db }
    let dxx = 2 * x * dq.x
    let dyy = 2 * y * dq.y
    let dzz = 2 * z * dq.z
    let dxy = p(x, dq.x, y, dq.y)
    let dxz = p(x, dq.x, z, dq.z)
    let dyz = p(y, dq.y, z, dq.z)
    let dxw = p(x, dq.x, w, dq.w)
    let dyw = p(y, dq.y, w, dq.w)
    let dzw = p(z, dq.z, w, dq.w)
    return Transform3D(
      m11: -2 * (dyy + dzz), m12: 2 * (dxy + dzw), m13: 2 * (dxz - dyw), m14: 0,
      m21: 2 * (dxy - dzw), m22: -2 * (dxx + dzz), m23: 2 * (dyz + dxw), m24: 0,
      m31: 2 * (dxz + dyw), m32: 2 * (dyz - dxw), m33: -2 * (dxx + dyy), m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 0)
  }
}

extension DecomposedTransform3D {
  /// The derivative of ``recomposed()`` when the components move by `rate` (translation, scale,
  /// skews and perspective; its rotation is ignored) and the rotation matrix `R(q)` by
  /// `rotationRate` (its 3×3 block). The product rule through
  /// `M = S · K_xy · K_xz · K_yz · R(q) · T · P`: rows `a₀ = sx·r₀`, `a₁ = sy·(r₁ + xy·r₀)`,
  /// `a₂ = sz·(r₂ + xz·r₀ + yz·r₁)`, fourth column `aᵢ·p`, last row `(t, t·p + pw)`.
  public func recomposedDerivative(
    _ rate: DecomposedTransform3D, rotationRate dr: Transform3D
  ) -> Transform3D {
    let r = rotation.rotationMatrix
    let r0 = Vector3(x: r.m11, y: r.m12, z: r.m13)
    let r1 = Vector3(x: r.m21, y: r.m22, z: r.m23)
    let r2 = Vector3(x: r.m31, y: r.m32, z: r.m33)
    let dr0 = Vector3(x: dr.m11, y: dr.m12, z: dr.m13)
    let dr1 = Vector3(x: dr.m21, y: dr.m22, z: dr.m23)
    let dr2 = Vector3(x: dr.m31, y: dr.m32, z: dr.m33)
    // Unscaled rows b and their derivatives.
    let b1 = r1 + r0 * skewXY
    let db1 = dr1 + r0 * rate.skewXY + dr0 * skewXY
    let b2 = r2 + r0 * skewXZ + r1 * skewYZ
    let db2 = dr2 + r0 * rate.skewXZ + dr0 * skewXZ + r1 * rate.skewYZ + dr1 * skewYZ
    let a0 = r0 * scale.x
    let a1 = b1 * scale.y
    let a2 = b2 * scale.z
    let da0 = r0 * rate.scale.x + dr0 * scale.x
    let da1 = b1 * rate.scale.y + db1 * scale.y
    let da2 = b2 * rate.scale.z + db2 * scale.z
    let p = Vector3(x: perspective.x, y: perspective.y, z: perspective.z)
    let dp = Vector3(x: rate.perspective.x, y: rate.perspective.y, z: rate.perspective.z)
    let t = translation
    let dt = rate.translation
    return Transform3D(
      m11: da0.x, m12: da0.y, m13: da0.z, m14: da0.dot(p) + a0.dot(dp),
      m21: da1.x, m22: da1.y, m23: da1.z, m24: da1.dot(p) + a1.dot(dp),
      m31: da2.x, m32: da2.y, m33: da2.z, m34: da2.dot(p) + a2.dot(dp),
      m41: dt.x, m42: dt.y, m43: dt.z, m44: dt.dot(p) + t.dot(dp) + rate.perspective.w)
  }

  /// The rate of change of every lerped component of ``interpolated(to:fraction:)`` per unit of
  /// the fraction: `other − self` (the rotation field is unused).
  func lerpRate(to other: DecomposedTransform3D) -> DecomposedTransform3D {
    DecomposedTransform3D(
      translation: other.translation + translation * -1,
      scale: other.scale + scale * -1,
      skewXY: other.skewXY - skewXY, skewXZ: other.skewXZ - skewXZ,
      skewYZ: other.skewYZ - skewYZ,
      perspective: Vector4(
        x: other.perspective.x - perspective.x, y: other.perspective.y - perspective.y,
        z: other.perspective.z - perspective.z, w: other.perspective.w - perspective.w),
      rotation: rotation)
  }
}

extension DecomposedTransform2D {
  /// The derivative of ``recomposed()`` when every component moves at the rate of `rate`'s
  /// fields: with `R·Residual` rows `r₀ = c·res₀ + s·res₁`, `r₁ = −s·res₀ + c·res₁`
  /// (`c = cos angle`, `s = sin angle`), `m1j = sx·r₀j`, `m2j = sy·r₁j`, `m4j = translation`.
  func recomposedDerivative(_ rate: DecomposedTransform2D) -> Transform3D {
    let cs = Double.cos(angle)
    let sn = Double.sin(angle)
    let dcs = -sn * rate.angle
    let dsn = cs * rate.angle
    let r00 = cs * residual11 + sn * residual21
    let r01 = cs * residual12 + sn * residual22
    let r10 = -sn * residual11 + cs * residual21
    let r11 = -sn * residual12 + cs * residual22
    let dr00 = dcs * residual11 + cs * rate.residual11 + dsn * residual21 + sn * rate.residual21
    let dr01 = dcs * residual12 + cs * rate.residual12 + dsn * residual22 + sn * rate.residual22
    let dr10 = -dsn * residual11 - sn * rate.residual11 + dcs * residual21 + cs * rate.residual21
    let dr11 = -dsn * residual12 - sn * rate.residual12 + dcs * residual22 + cs * rate.residual22
    var m = Transform3D.zero
    m.m11 = rate.scaleX * r00 + scaleX * dr00
    m.m12 = rate.scaleX * r01 + scaleX * dr01
    m.m21 = rate.scaleY * r10 + scaleY * dr10
    m.m22 = rate.scaleY * r11 + scaleY * dr11
    m.m41 = rate.translationX
    m.m42 = rate.translationY
    return m
  }

  /// `other − self` component by component: the rate of ``lerped(to:fraction:)``.
  func lerpRate(to o: DecomposedTransform2D) -> DecomposedTransform2D {
    DecomposedTransform2D(
      translationX: o.translationX - translationX, translationY: o.translationY - translationY,
      scaleX: o.scaleX - scaleX, scaleY: o.scaleY - scaleY, angle: o.angle - angle,
      residual11: o.residual11 - residual11, residual12: o.residual12 - residual12,
      residual21: o.residual21 - residual21, residual22: o.residual22 - residual22)
  }
}

extension TransformInterpolator {
  /// The derivative `dM/df` of ``value(at:)`` (matrix entries per unit of fraction).
  ///
  /// 2D path: the lerped components move at `b − a` and ``DecomposedTransform2D`` recomposes
  /// with the product rule. 3D path: translation, scale, skews and perspective move at `b − a`,
  /// the rotation at ``Quaternion/slerpDerivative(_:_:fraction:)``, recomposed with
  /// ``DecomposedTransform3D/recomposedDerivative(_:rotationRate:)``. The exact ends (`f = 0`,
  /// `f = 1`) are the same curve's ends, so the same formula holds there. Discrete (an end
  /// cannot be decomposed) and a fraction whose value overflows (``value(at:)`` throws; the
  /// evaluators then switch discretely): 0.
  public func derivative(at f: Double) -> Transform3D {
    guard f.isFinite, (try? value(at: f)) != nil else { return .zero }
    switch ends {
    case .discrete:
      return .zero
    case .affine2D(let a, let b):
      return a.lerped(to: b, fraction: f).recomposedDerivative(a.lerpRate(to: b))
    case .decomposed3D(let a, let b):
      let q = a.interpolated(to: b, fraction: f)
      let dq = Quaternion.slerpDerivative(a.rotation, b.rotation, fraction: f)
      return q.recomposedDerivative(
        a.lerpRate(to: b), rotationRate: q.rotation.rotationMatrixDerivative(dq))
    }
  }
}

extension Vector3 {
  fileprivate static func + (a: Vector3, b: Vector3) -> Vector3 {
    Vector3(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z)
  }

  fileprivate static func * (a: Vector3, k: Double) -> Vector3 {
    Vector3(x: a.x * k, y: a.y * k, z: a.z * k)
  }
}
