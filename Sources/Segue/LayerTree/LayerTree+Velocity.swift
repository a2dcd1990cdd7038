/// The time derivative of what a layer presents: its matrix to the container and its presented
/// opacity (``LayerSample/matrix`` and ``LayerSample/opacity``).
public struct LayerVelocity: Hashable, Sendable {
  /// The layer's id.
  public var id: String
  /// `d matrix / dt`, field by field: matrix entries per second (translation entries `m41`,
  /// `m42`, `m43` in points per second for an affine matrix).
  public var matrix: Transform3D
  /// `d opacity / dt` of the presented (clamped, multiplied down the tree) opacity, per second.
  public var opacity: Double

  /// Creates a velocity from its parts.
  public init(id: String, matrix: Transform3D, opacity: Double) {
    self.id = id
    self.matrix = matrix
    self.opacity = opacity
  }
}

extension LayerTree {
  /// Every layer's velocity, in ``layers`` order, when its geometry properties move at `rates`
  /// (one per layer, same order): the product rule through ``evaluate()``.
  ///
  ///     local = T(−A) · transform · T(position, zPosition) · C_parent
  ///     d local = dT(−A)·M·T(P) + T(−A)·dM·T(P) + T(−A)·M·dT(P)   (then · C + own · dC)
  ///     d toContainer = d up · toContainer(parent) + up · d toContainer(parent)
  ///     d opacity = d clamp(o) · parentOpacity + clamp(o) · d parentOpacity
  ///
  /// `dT(v)` is 0 but for its last row `(dv, 0)`; `A` moves with `bounds` and `anchorPoint`;
  /// `up` is `local`, flattened (`m·3 = 0`) under an ordinary parent. The clamp's derivative is the
  /// opacity's rate strictly inside `(0, 1)`, 0 outside, and at 0 or 1 the rate when it moves
  /// inwards (the derivative from the right), else 0.
  ///
  /// A top-level layer's `C` is the container's (``container``), moving at `containerRates`
  /// (only its ``LayerPropertyRates/sublayerTransform`` is read; default at rest).
  ///
  /// - Precondition: `rates.count == count`.
  public func velocities(
    rates: [LayerPropertyRates], containerRates: LayerPropertyRates = LayerPropertyRates()
  ) -> [LayerVelocity] {
    precondition(rates.count == count, "one rate per layer")
    let geometry = evaluate(placing: false)
    var matrices: [Transform3D] = []
    var opacities: [Double] = []
    matrices.reserveCapacity(count)
    opacities.reserveCapacity(count)
    for i in storage.indices {
      var dLocal = storage[i].matrixInSuperlayerRate(rates[i])
      let own = storage[i].matrixInSuperlayer
      let clamped = Swift.min(Swift.max(storage[i].opacity, 0), 1)
      let dOwnOpacity = Self.clampRate(storage[i].opacity, rates[i].opacity)
      guard let parent = parents[i] else {
        let c = container.sublayerMatrix
        let dc = container.layer.sublayerMatrixRate(containerRates)
        matrices.append(dLocal.concatenating(c).adding(own.concatenating(dc)))
        opacities.append(dOwnOpacity)
        continue
      }
      let c = storage[parent].sublayerMatrix
      let dc = storage[parent].sublayerMatrixRate(rates[parent])
      dLocal = dLocal.concatenating(c).adding(own.concatenating(dc))
      let flattens = !storage[parent].isTransformLayer
      let up = flattens ? geometry[i].localMatrix.flattened : geometry[i].localMatrix
      let dUp = flattens ? dLocal.flattened : dLocal
      matrices.append(
        dUp.concatenating(geometry[parent].matrix).adding(up.concatenating(matrices[parent])))
      opacities.append(
        dOwnOpacity * geometry[parent].opacity + clamped * opacities[parent])
    }
    return storage.indices.map {
      LayerVelocity(id: storage[$0].id, matrix: matrices[$0], opacity: opacities[$0])
    }
  }

  /// `d clamp(o, 0, 1) / dt` for `o` moving at `rate` (see ``velocities(rates:containerRates:)``).
  static func clampRate(_ o: Double, _ rate: Double) -> Double {
    if o > 0 && o < 1 { return rate }
    if o == 0 && rate > 0 { return rate }
    if o == 1 && rate < 0 { return rate }
    return 0
  }
}

extension Layer {
  /// `dA/dt` for the anchor `A = (minX + ax·width, minY + ay·height, anchorPointZ)` when
  /// `bounds` and `anchorPoint` move at `rates` (a negative size reads standardised: its
  /// `minX` moves with the origin plus the size, its width against the size).
  func anchorRate(_ rates: LayerPropertyRates) -> Vector3 {
    func axis(
      _ origin: Double, _ size: Double, _ dOrigin: Double, _ dSize: Double, _ unit: Double,
      _ dUnit: Double
    ) -> Double {
      let positive = size > 0 || (size == 0 && dSize >= 0)
      let dMin = positive ? dOrigin : dOrigin + dSize
      let dWidth = positive ? dSize : -dSize
      return dMin + dUnit * abs(size) + unit * dWidth
    }
    return Vector3(
      x: axis(
        bounds.origin.x, bounds.size.width, rates.bounds.origin.x, rates.bounds.size.width,
        anchorPoint.x, rates.anchorPoint.x),
      y: axis(
        bounds.origin.y, bounds.size.height, rates.bounds.origin.y, rates.bounds.size.height,
        anchorPoint.y, rates.anchorPoint.y),
      z: 0)
  }

  /// `d matrixInSuperlayer / dt`: the product rule through `T(−A) · transform · T(P)`.
  func matrixInSuperlayerRate(_ rates: LayerPropertyRates) -> Transform3D {
    let a = anchor
    let da = anchorRate(rates)
    let toAnchor = Transform3D.makeTranslation(x: -a.x, y: -a.y, z: -a.z)
    let position = Transform3D.makeTranslation(x: self.position.x, y: self.position.y, z: zPosition)
    let dToAnchor = Transform3D.translationRate(x: -da.x, y: -da.y, z: -da.z)
    let dPosition = Transform3D.translationRate(
      x: rates.position.x, y: rates.position.y, z: rates.zPosition)
    return dToAnchor.concatenating(transform).concatenating(position)
      .adding(toAnchor.concatenating(rates.transform).concatenating(position))
      .adding(toAnchor.concatenating(transform).concatenating(dPosition))
  }

  /// `d sublayerMatrix / dt`: the product rule through `T(−A) · sublayerTransform · T(A)`.
  func sublayerMatrixRate(_ rates: LayerPropertyRates) -> Transform3D {
    if sublayerTransform.isIdentity && rates.sublayerTransform == .zero { return .zero }
    let a = anchor
    let da = anchorRate(rates)
    let toAnchor = Transform3D.makeTranslation(x: -a.x, y: -a.y, z: -a.z)
    let fromAnchor = Transform3D.makeTranslation(x: a.x, y: a.y, z: a.z)
    return Transform3D.translationRate(x: -da.x, y: -da.y, z: -da.z)
      .concatenating(sublayerTransform).concatenating(fromAnchor)
      .adding(toAnchor.concatenating(rates.sublayerTransform).concatenating(fromAnchor))
      .adding(
        toAnchor.concatenating(sublayerTransform)
          .concatenating(.translationRate(x: da.x, y: da.y, z: da.z)))
  }
}

extension Transform3D {
  /// `d T(v) / dt` for a translation moving at `(x, y, z)` per second: 0 but for `m41…m43`.
  static func translationRate(x: Double, y: Double, z: Double) -> Transform3D {
    var m = Transform3D.zero
    m.m41 = x
    m.m42 = y
    m.m43 = z
    return m
  }
}
