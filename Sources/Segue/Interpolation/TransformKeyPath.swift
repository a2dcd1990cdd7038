import RealModule

/// The scalar key paths into a layer's `transform` that Core Animation animates
/// (Core Animation's key-value coding extensions for `CATransform3D`).
///
/// Unlike a `transform` animation, which interpolates by decomposition, these animate the **scalar**:
/// `transform.rotation.z` from 0 to 2π spins a full turn. An evaluator interpolates the number and
/// writes it into the model transform every frame with ``applying(_:to:)``.
///
/// Reading and writing go through ``DecomposedTransform3D``:
/// - `transform.translation.x/.y/.z` are the fields `m41, m42, m43` as stored (no decomposition).
/// - `transform.scale.x/.y/.z` are the decomposition's scale factors (unitless); a reflection makes
///   all three negative (CSS step 6). `transform.scale` is their average; writing it sets all three.
/// - `transform.rotation.x/.y/.z` (radians) are Euler angles of the decomposition's rotation, with
///   the convention of ``eulerAngles(of:)``: the rotation is `Rx(α) · Ry(β) · Rz(γ)` in row-vector
///   form (applied to a point: about x first, then y, then z), `α, γ` in `(−π, π]`, `β` in
///   `[−π/2, π/2]`. For a rotation about one axis only, the key path of that axis reads its angle
///   (for `.y` when it is within ±π/2). `transform.rotation` is the same as `.z`.
///
/// `transform.translation` is a `CGSize` (x, y), not a scalar: see ``translation(in:)``,
/// ``applyingTranslation(_:to:)`` and ``channels(forKeyPath:)``, which splits it into
/// ``translationX`` and ``translationY``.
///
/// **Singular models.** A transform whose linear part is singular (such as `S(0, 0, 1)`, the usual
/// state after animating `transform.scale` to 0) has no CSS decomposition. For scale and rotation key
/// paths it is then decomposed best effort: Gram–Schmidt treats a row that is zero (or, after removing
/// the directions already found, shorter than `1e-12` times the longest row) as scale 0 and no skew,
/// the missing directions are completed to a right-handed orthonormal frame, and any perspective
/// column is dropped. So `transform.scale` of `S(0, 0, 1)` reads 1/3 and writing 0.5 gives
/// `S(0.5, 0.5, 0.5)`.
public enum TransformKeyPath: String, CaseIterable, Hashable, Sendable {
  /// `transform.rotation.x`: the Euler angle α about x, radians.
  case rotationX = "transform.rotation.x"
  /// `transform.rotation.y`: the Euler angle β about y, radians.
  case rotationY = "transform.rotation.y"
  /// `transform.rotation.z`: the Euler angle γ about z, radians.
  case rotationZ = "transform.rotation.z"
  /// `transform.rotation`: the same as `transform.rotation.z`.
  case rotation = "transform.rotation"
  /// `transform.scale.x`: the decomposition's x scale (unitless).
  case scaleX = "transform.scale.x"
  /// `transform.scale.y`: the decomposition's y scale (unitless).
  case scaleY = "transform.scale.y"
  /// `transform.scale.z`: the decomposition's z scale (unitless).
  case scaleZ = "transform.scale.z"
  /// `transform.scale`: the average of the three scales; writing it sets all three.
  case scale = "transform.scale"
  /// `transform.translation.x`: `m41`, points.
  case translationX = "transform.translation.x"
  /// `transform.translation.y`: `m42`, points.
  case translationY = "transform.translation.y"
  /// `transform.translation.z`: `m43`, points.
  case translationZ = "transform.translation.z"

  /// `"transform.translation"`, the size-valued key path (x, y); see ``translation(in:)``.
  public static let translationKeyPath = "transform.translation"

  /// Parses one of the scalar key paths, e.g. `"transform.rotation.z"` (exact spelling).
  ///
  /// - Throws: ``ValidationError`` with field `"keyPath"` and ``ValidationError/Reason/unknown(_:)``
  ///   for any other string, including the size-valued `"transform.translation"` (use
  ///   ``channels(forKeyPath:)`` for that).
  public init(keyPath: String) throws(ValidationError) {
    guard let path = TransformKeyPath(rawValue: keyPath) else {
      throw ValidationError(field: "keyPath", reason: .unknown(keyPath))
    }
    self = path
  }

  /// The scalar channels a transform key path animates: `[path]` for a scalar key path and
  /// `[.translationX, .translationY]` for `"transform.translation"`.
  ///
  /// - Throws: ``ValidationError`` with field `"keyPath"` and ``ValidationError/Reason/unknown(_:)``
  ///   for a string that is none of them.
  public static func channels(forKeyPath keyPath: String) throws(ValidationError)
    -> [TransformKeyPath]
  {
    if keyPath == translationKeyPath { return [.translationX, .translationY] }
    return [try TransformKeyPath(keyPath: keyPath)]
  }

  /// The value of this key path in `t` (radians, unitless or points; see the type's description).
  ///
  /// - Throws: ``ValidationError`` on field `"transform"`: ``ValidationError/Reason/notFinite`` with
  ///   the field index (0–15, `m11…m44`) for a NaN or infinite field, and, for scale and rotation
  ///   key paths, ``ValidationError/Reason/invalidState(_:)`` at index 15 when `m44 == 0` (no
  ///   decomposition exists).
  public func value(in t: Transform3D) throws(ValidationError) -> Double {
    try validateFinite(t)
    switch self {
    case .translationX: return t.m41
    case .translationY: return t.m42
    case .translationZ: return t.m43
    default: break
    }
    let d = try keyPathDecomposition(t)
    switch self {
    case .scaleX: return d.scale.x
    case .scaleY: return d.scale.y
    case .scaleZ: return d.scale.z
    case .scale: return (d.scale.x + d.scale.y + d.scale.z) / 3
    case .rotationX: return TransformKeyPath.eulerAngles(of: d.rotation).x
    case .rotationY: return TransformKeyPath.eulerAngles(of: d.rotation).y
    case .rotationZ, .rotation: return TransformKeyPath.eulerAngles(of: d.rotation).z
    case .translationX, .translationY, .translationZ: return 0  // handled above
    }
  }

  /// `model` with this key path set to `value`.
  ///
  /// Translation key paths set `m41`, `m42` or `m43` directly. Scale and rotation key paths
  /// decompose `model` (best effort when it is singular, see the type's description), replace the
  /// component (`transform.scale` sets all three scales; a rotation replaces one Euler angle and
  /// keeps the other two), recompose, and multiply by `model.m44` so the homogeneous factor and the
  /// untouched fields are kept. Rotations are periodic: writing 2π gives the same matrix as 0.
  ///
  /// `value(in: applying(v, to: m)) == v` to rounding for translations, for scales when `v > 0`
  /// and the model's other scales are positive, and for rotation angles inside the ranges of
  /// ``eulerAngles(of:)`` away from `β = ±π/2`.
  ///
  /// - Parameters:
  ///   - value: The new value: radians, a unitless scale factor, or points.
  ///   - model: The transform to change.
  /// - Throws: ``ValidationError`` with this key path's name as the field and
  ///   ``ValidationError/Reason/notFinite`` for a NaN or infinite `value`; the errors of
  ///   ``value(in:)`` for `model`.
  public func applying(_ value: Double, to model: Transform3D) throws(ValidationError)
    -> Transform3D
  {
    try Validate.finite(value, rawValue)
    try validateFinite(model)
    var t = model
    switch self {
    case .translationX:
      t.m41 = value
      return t
    case .translationY:
      t.m42 = value
      return t
    case .translationZ:
      t.m43 = value
      return t
    default: break
    }
    var d = try keyPathDecomposition(model)
    switch self {
    case .scaleX: d.scale.x = value
    case .scaleY: d.scale.y = value
    case .scaleZ: d.scale.z = value
    case .scale: d.scale = Vector3(x: value, y: value, z: value)
    case .rotationX, .rotationY, .rotationZ, .rotation:
      var e = TransformKeyPath.eulerAngles(of: d.rotation)
      switch self {
      case .rotationX: e.x = value
      case .rotationY: e.y = value
      default: e.z = value
      }
      d.rotation = TransformKeyPath.rotation(eulerAngles: e)
    case .translationX, .translationY, .translationZ: break  // handled above
    }
    let r = d.recomposed()
    let k = model.m44
    let result = Transform3D(unchecked: r.fields.map { $0 * k })
    for (i, v) in result.fields.enumerated() where !v.isFinite {
      throw ValidationError(
        field: rawValue, index: nil,
        reason: .invalidState(
          "writing \(value) overflows field \(i) of the transform"))
    }
    return result
  }

  /// `transform.translation` of `t`: `Size(width: m41, height: m42)`, points.
  public static func translation(in t: Transform3D) -> Size {
    Size(width: t.m41, height: t.m42)
  }

  /// `model` with `transform.translation` set: `m41 = size.width`, `m42 = size.height`.
  ///
  /// - Throws: ``ValidationError`` on field `"transform.translation"` with
  ///   ``ValidationError/Reason/notFinite`` (index 0 for the width, 1 for the height).
  public static func applyingTranslation(_ size: Size, to model: Transform3D)
    throws(ValidationError) -> Transform3D
  {
    try Validate.finite(size.width, translationKeyPath, index: 0)
    try Validate.finite(size.height, translationKeyPath, index: 1)
    var t = model
    t.m41 = size.width
    t.m42 = size.height
    return t
  }

  /// The Euler angles `(α, β, γ)` (radians, returned as `x, y, z`) of the rotation `q`, with the
  /// convention `R(q) = Rx(α) · Ry(β) · Rz(γ)` in Core Animation's row-vector form (a point is
  /// rotated about x first, then y, then z; `Rx`, `Ry`, `Rz` as `Transform3D.makeRotation`).
  ///
  /// Expanding the product, `m13 = −sin β`, `(m11, m12) = cos β · (cos γ, sin γ)` and
  /// `(m33, m23) = cos β · (cos α, sin α)`, so `β = asin(−m13)`, `γ = atan2(m12, m11)`,
  /// `α = atan2(m23, m33)`, with `α, γ` in `(−π, π]` and `β` in `[−π/2, π/2]`. At gimbal lock
  /// (`cos β < 1e-9`) only `α ± γ` is determined; then `γ = 0` and `α = atan2(−m32, m22)`.
  public static func eulerAngles(of q: Quaternion) -> Vector3 {
    let m = q.normalized().rotationMatrix
    let beta = Double.asin(Swift.min(Swift.max(-m.m13, -1), 1))
    let cosBeta = (m.m11 * m.m11 + m.m12 * m.m12).squareRoot()
    if cosBeta < 1e-9 {
      return Vector3(x: Double.atan2(y: -m.m32, x: m.m22), y: beta, z: 0)
    }
    return Vector3(
      x: Double.atan2(y: m.m23, x: m.m33), y: beta, z: Double.atan2(y: m.m12, x: m.m11))
  }

  /// The rotation `Rx(α) · Ry(β) · Rz(γ)` (row-vector form, radians) for the Euler angles
  /// `(α, β, γ)` given as `x, y, z`; the inverse of ``eulerAngles(of:)`` within its ranges. The
  /// result has `w ≥ 0`.
  public static func rotation(eulerAngles e: Vector3) -> Quaternion {
    let m = Transform3D.makeRotation(by: e.x, x: 1, y: 0, z: 0)
      .concatenating(.makeRotation(by: e.y, x: 0, y: 1, z: 0))
      .concatenating(.makeRotation(by: e.z, x: 0, y: 0, z: 1))
    return Quaternion(rotationMatrix: m)
  }
}

/// Throws `notFinite` on field `"transform"` with the index of the first non-finite field.
private func validateFinite(_ t: Transform3D) throws(ValidationError) {
  for (i, v) in t.fields.enumerated() { try Validate.finite(v, "transform", index: i) }
}

/// The CSS decomposition of `t`, or the best-effort one for a singular linear part (see
/// ``TransformKeyPath``). `t` must be finite.
func keyPathDecomposition(_ t: Transform3D) throws(ValidationError)
  -> DecomposedTransform3D
{
  guard t.m44 != 0 else {
    throw ValidationError(
      field: "transform", index: 15,
      reason: .invalidState("m44 is 0, so the transform cannot be decomposed"))
  }
  if let d = DecomposedTransform3D(t) { return d }
  let k = 1 / t.m44
  let rows = [
    Vector3(x: t.m11 * k, y: t.m12 * k, z: t.m13 * k),
    Vector3(x: t.m21 * k, y: t.m22 * k, z: t.m23 * k),
    Vector3(x: t.m31 * k, y: t.m32 * k, z: t.m33 * k),
  ]
  let tolerance = 1e-12 * rows.map(\.length).max()!
  // Gram–Schmidt that skips rows with nothing left: n[i] == nil means scale i is 0.
  var n: [Vector3?] = [nil, nil, nil]
  var scale = [0.0, 0.0, 0.0]
  var skewXY = 0.0
  var skewXZ = 0.0
  var skewYZ = 0.0
  for i in 0..<3 {
    var v = rows[i]
    var projections = [0.0, 0.0]
    for j in 0..<i {
      guard let nj = n[j] else { continue }
      let p = nj.dot(v)
      projections[j] = p
      v = Vector3(x: v.x - p * nj.x, y: v.y - p * nj.y, z: v.z - p * nj.z)
    }
    let length = v.length
    guard length > tolerance else { continue }
    n[i] = Vector3(x: v.x / length, y: v.y / length, z: v.z / length)
    scale[i] = length
    if i == 1 { skewXY = projections[0] / length }
    if i == 2 {
      skewXZ = projections[0] / length
      skewYZ = projections[1] / length
    }
  }
  // Complete the frame: one known direction gets a perpendicular, then cross products (cyclic, so
  // the frame is right-handed).
  let present = (0..<3).filter { n[$0] != nil }
  if present.isEmpty {
    n = [Vector3(x: 1, y: 0, z: 0), Vector3(x: 0, y: 1, z: 0), Vector3(x: 0, y: 0, z: 1)]
  } else if present.count == 1, let a = n[present[0]] {
    let i = present[0]
    // The coordinate axis least aligned with `a`, made perpendicular to it.
    let axis: Vector3 =
      abs(a.x) <= abs(a.y) && abs(a.x) <= abs(a.z)
      ? Vector3(x: 1, y: 0, z: 0)
      : (abs(a.y) <= abs(a.z) ? Vector3(x: 0, y: 1, z: 0) : Vector3(x: 0, y: 0, z: 1))
    let p = a.dot(axis)
    let v = Vector3(x: axis.x - p * a.x, y: axis.y - p * a.y, z: axis.z - p * a.z)
    let b = Vector3(x: v.x / v.length, y: v.y / v.length, z: v.z / v.length)
    n[(i + 1) % 3] = b
    n[(i + 2) % 3] = a.cross(b)
  } else if present.count == 2 {
    let m = (0..<3).first { n[$0] == nil }!
    n[m] = n[(m + 1) % 3]!.cross(n[(m + 2) % 3]!)
  }
  var r0 = n[0]!
  var r1 = n[1]!
  var r2 = n[2]!
  if r0.dot(r1.cross(r2)) < 0 {
    scale = scale.map { -$0 }
    r0 = Vector3(x: -r0.x, y: -r0.y, z: -r0.z)
    r1 = Vector3(x: -r1.x, y: -r1.y, z: -r1.z)
    r2 = Vector3(x: -r2.x, y: -r2.y, z: -r2.z)
  }
  return DecomposedTransform3D(
    translation: Vector3(x: t.m41 * k, y: t.m42 * k, z: t.m43 * k),
    scale: Vector3(x: scale[0], y: scale[1], z: scale[2]),
    skewXY: skewXY, skewXZ: skewXZ, skewYZ: skewYZ,
    perspective: Vector4(x: 0, y: 0, z: 0, w: 1),
    rotation: Quaternion(rotationRows: r0, r1, r2))
}
