extension TransformKeyPath {
  /// The time derivative of ``applying(_:to:)`` when the written `value` moves at `rate` (its
  /// units per second) and `model` stays fixed: matrix entries per second.
  ///
  /// Translations: `rate` in the written field. Scales: ``DecomposedTransform3D`` recomposed
  /// with the scale factor(s) moving at `rate`, times `m44`. Rotations: the Euler angle moves,
  /// so `R = Rx(α)·Ry(β)·Rz(γ)` moves by the product rule with `dRθ/dθ = R(θ + π/2) − Π`, `Π`
  /// the axis's fixed part `(R(θ) + R(θ + π))/2`; recomposed with that rotation rate, times `m44`.
  ///
  /// - Throws: the errors of ``applying(_:to:)``.
  public func rate(writing value: Double, rate: Double, to model: Transform3D)
    throws(ValidationError) -> Transform3D
  {
    _ = try applying(value, to: model)
    var m = Transform3D.zero
    switch self {
    case .translationX:
      m.m41 = rate
      return m
    case .translationY:
      m.m42 = rate
      return m
    case .translationZ:
      m.m43 = rate
      return m
    default: break
    }
    var d = try keyPathDecomposition(model)
    var moving = DecomposedTransform3D(
      scale: Vector3(x: 0, y: 0, z: 0), perspective: Vector4(x: 0, y: 0, z: 0, w: 0))
    var rotationRate = Transform3D.zero
    switch self {
    case .scaleX: (d.scale.x, moving.scale.x) = (value, rate)
    case .scaleY: (d.scale.y, moving.scale.y) = (value, rate)
    case .scaleZ: (d.scale.z, moving.scale.z) = (value, rate)
    case .scale:
      d.scale = Vector3(x: value, y: value, z: value)
      moving.scale = Vector3(x: rate, y: rate, z: rate)
    default:
      var e = TransformKeyPath.eulerAngles(of: d.rotation)
      switch self {
      case .rotationX: e.x = value
      case .rotationY: e.y = value
      default: e.z = value
      }
      d.rotation = TransformKeyPath.rotation(eulerAngles: e)
      rotationRate = Self.eulerRate(e, axis: self).multiplied(by: rate)
    }
    return d.recomposedDerivative(moving, rotationRate: rotationRate).multiplied(by: model.m44)
  }

  /// `∂(Rx(α)·Ry(β)·Rz(γ))/∂θ` for the angle of `axis` (row-vector form, radians).
  private static func eulerRate(_ e: Vector3, axis: TransformKeyPath) -> Transform3D {
    func rotation(_ angle: Double, _ i: Int) -> Transform3D {
      .makeRotation(by: angle, x: i == 0 ? 1 : 0, y: i == 1 ? 1 : 0, z: i == 2 ? 1 : 0)
    }
    func derivative(_ angle: Double, _ i: Int) -> Transform3D {
      let fixed = rotation(angle, i).adding(rotation(angle + .pi, i)).multiplied(by: 0.5)
      return rotation(angle + .pi / 2, i).adding(fixed.multiplied(by: -1))
    }
    let moving = axis == .rotationX ? 0 : axis == .rotationY ? 1 : 2
    let angles = [e.x, e.y, e.z]
    var product = Transform3D.identity
    for i in 0..<3 {
      product = product.concatenating(
        i == moving ? derivative(angles[i], i) : rotation(angles[i], i))
    }
    return product
  }
}
