/// Decomposition-based transform interpolation for many layers, compiled once: each `(from, to)`
/// pair is decomposed in `Double` with the library's ``DecomposedTransform2D`` /
/// ``DecomposedTransform3D`` exactly as ``TransformInterpolator`` does, and the components are
/// stored as `Float` planes (structure of arrays) for ``DecompositionInterpolationJob``, which
/// interpolates and recomposes sixteen layers per `SIMD16<Float>` step.
///
/// Per layer the path is the scalar one (``TransformInterpolation/Path``):
/// ``TransformInterpolation/Path/affine2D`` when both ends are affine (the ends stored after the
/// CSS Transforms 1 angle rules, ``DecomposedTransform2D/aligned(from:to:)``),
/// ``TransformInterpolation/Path/decomposed3D`` otherwise, ``TransformInterpolation/Path/discrete``
/// when an end cannot be decomposed — or, here, when a decomposed component does not fit in
/// `Float`.
///
/// The slerp of the 3D path is prepared at compile time as ``Quaternion/slerp(_:_:fraction:)``
/// prescribes: `d = clamp(a·b, −1, 1)`; `|d| = 1` keeps `a` (stored as `θ = 0`, weights `(1, 0)`);
/// `d < 0` negates the stored `b` and `d` (shortest path); `sin θ < 1e-6` marks the layer for the
/// normalised lerp; otherwise `θ = acos d` and `1/sin θ` are stored, so a frame needs only `sin(tθ)`
/// and `cos(tθ)`.
///
/// Storage: ``planeCount`` planes of ``count`` values, value `p` of layer `j` at
/// `planes[p·count + j]`:
///
///     0        path code: 0 discrete, 1 affine2D, 2 decomposed3D
///     1…17     `from` components: 3D = DecomposedTransform3D.channels order (translation 3,
///              scale 3, skews 3, perspective 4, quaternion 4); 2D = translationX, translationY,
///              scaleX, scaleY, angle (radians), residual11, residual12, residual21, residual22
///     18…34    `to` components, same order (3D quaternion negated when d < 0)
///     35…38    θ, 1/sin θ, d, normalised-lerp flag (1 or 0)
///     39…54    the `from` matrix (m11…m44), returned at fraction 0 and by the discrete rule
///     55…70    the `to` matrix
public struct DecompositionBatch: Hashable, Sendable {
  /// The number of layers.
  public let count: Int
  /// Each layer's interpolation rule.
  public let paths: [TransformInterpolation.Path]
  /// The ``planeCount`` planes described in the type's documentation.
  public let planes: [Float]

  /// The number of planes per layer, 71.
  public static let planeCount = 71
  static let codePlane = 0
  /// The path codes of ``codePlane``.
  static let discreteCode: Float = 0
  static let affine2DCode: Float = 1
  static let decomposed3DCode: Float = 2
  static let fromPlane = 1
  static let toPlane = 18
  static let thetaPlane = 35
  static let inverseSinPlane = 36
  static let dotPlane = 37
  static let nlerpPlane = 38
  static let fromMatrixPlane = 39
  static let toMatrixPlane = 55

  /// The offsets of the 3D path's components within the `from` and `to` planes
  /// (``DecomposedTransform3D`` channel order).
  enum Component3D {
    static let translation = 0
    static let scale = 3
    static let skew = 6
    static let perspective = 9
    static let quaternion = 13
  }

  /// The offsets of the 2D path's components within the `from` and `to` planes.
  enum Component2D {
    static let translation = 0
    static let scale = 2
    static let angle = 4
    static let residual = 5
  }

  /// Decomposes every pair `(from[j], to[j])` once.
  ///
  /// - Throws: ``ValidationError``: `"to"` ``ValidationError/Reason/countMismatch(expected:actual:)``
  ///   when the lists differ in length; `"from"` / `"to"` with the layer index,
  ///   ``ValidationError/Reason/notFinite`` for a NaN or infinite field and
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` for a field beyond `Float`'s range.
  public init(from: [Transform3D], to: [Transform3D]) throws(ValidationError) {
    guard from.count == to.count else {
      throw ValidationError(
        field: "to", reason: .countMismatch(expected: from.count, actual: to.count))
    }
    let n = from.count
    var planes = [Float](repeating: 0, count: Self.planeCount * n)
    var paths: [TransformInterpolation.Path] = []
    paths.reserveCapacity(n)
    for j in 0..<n {
      var fromFields = [Float]()
      var toFields = [Float]()
      for v in from[j].fields { fromFields.append(try floatValue(v, "from", index: j)) }
      for v in to[j].fields { toFields.append(try floatValue(v, "to", index: j)) }
      var values = [Float](repeating: 0, count: Self.planeCount)
      for k in 0..<LaneMatrix.fieldCount {
        values[Self.fromMatrixPlane + k] = fromFields[k]
        values[Self.toMatrixPlane + k] = toFields[k]
      }
      var path = TransformInterpolator(from: from[j], to: to[j]).path
      let ends = Self.components(from: from[j], to: to[j], path: path)
      if let ends,
        ends.allSatisfy({ $0.isFinite && abs($0) <= Double(Float.greatestFiniteMagnitude) })
      {
        for (p, v) in ends.enumerated() { values[Self.fromPlane + p] = Float(v) }
      } else {
        path = .discrete
      }
      switch path {
      case .discrete: values[Self.codePlane] = Self.discreteCode
      case .affine2D: values[Self.codePlane] = Self.affine2DCode
      case .decomposed3D: values[Self.codePlane] = Self.decomposed3DCode
      }
      paths.append(path)
      for (p, v) in values.enumerated() { planes[p * n + j] = v }
    }
    self.count = n
    self.paths = paths
    self.planes = planes
  }

  /// Planes 1…38 of one layer in `Double` (`from`, `to`, slerp parameters), `nil` for the discrete
  /// path.
  private static func components(
    from: Transform3D, to: Transform3D, path: TransformInterpolation.Path
  ) -> [Double]? {
    switch path {
    case .discrete:
      return nil
    case .affine2D:
      guard let a = DecomposedTransform2D(from), let b = DecomposedTransform2D(to) else {
        return nil
      }
      let (a2, b2) = DecomposedTransform2D.aligned(from: a, to: b)
      func fields(_ d: DecomposedTransform2D) -> [Double] {
        [
          d.translationX, d.translationY, d.scaleX, d.scaleY, d.angle, d.residual11,
          d.residual12, d.residual21, d.residual22,
        ] + [Double](repeating: 0, count: 8)
      }
      return fields(a2) + fields(b2) + [0, 0, 1, 0]
    case .decomposed3D:
      guard let a = DecomposedTransform3D(from), var b = DecomposedTransform3D(to) else {
        return nil
      }
      var d = Swift.min(Swift.max(a.rotation.dot(b.rotation), -1), 1)
      var slerp: [Double]
      if abs(d) == 1 {
        slerp = [0, 0, 1, 0]  // weights (cos 0 − 1·0, 0): the result is a.
      } else {
        if d < 0 {
          b.rotation = -b.rotation
          d = -d
        }
        let sinTheta = (1 - d * d).squareRoot()
        if sinTheta < 1e-6 {
          slerp = [0, 0, d, 1]
        } else {
          slerp = [Double.acos(d), 1 / sinTheta, d, 0]
        }
      }
      return a.channels + b.channels + slerp
    }
  }

  /// The interpolated transforms at `fractions` (one per layer) in newly allocated planes
  /// (``Transform3DBatch``), through ``DecompositionInterpolationJob``.
  ///
  /// - Throws: the job's ``DecompositionInterpolationJob/validate()`` errors.
  public func interpolated(at fractions: [Float]) throws(ValidationError) -> Transform3DBatch {
    var result = try Transform3DBatch(identityCount: count)
    var failure: ValidationError?
    fractions.withUnsafeBufferPointer { f in
      result.planes.withUnsafeMutableBufferPointer { out in
        do throws(ValidationError) {
          try DecompositionInterpolationJob(batch: self, fractions: f, output: out).run()
        } catch { failure = error }
      }
    }
    if let failure { throw failure }
    return result
  }
}

/// One frame of ``DecompositionBatch`` for a range of layers: for layer `j` at fraction
/// `t = fractions[j]` it writes the 16 fields of
/// `Transform3D.interpolate(from[j], to[j], fraction: t)` (the ``Interpolatable`` rule) in `Float`
/// to `output[k·stride + j]`, sixteen layers per `SIMD16<Float>` step:
///
/// 1. `t == 0` gives the `from` matrix and `t == 1` the `to` matrix, unchanged (as rounded to
///    `Float`); the discrete path gives `from` for `t < 0.5`, else `to`.
/// 2. Every stored component is lerped as `(1 − t)·a + t·b`.
/// 3. 3D path: the quaternion is `wa·a + wb·b` with `wb = sin(tθ)/sin θ`, `wa = cos(tθ) − d·wb`
///    (`SIMDMath.sinCos`: Cody–Waite reduction and Cephes polynomials), or the
///    normalised lerp `((1 − t)·a + t·b)/|…|` for the flagged layers; then
///    ``DecomposedTransform3D/recomposed()`` in `Float`, as it is (`m44` not divided out).
/// 4. 2D path: ``DecomposedTransform2D/recomposed()`` in `Float` with `sin`/`cos` of the lerped
///    angle.
/// 5. A layer whose result is not finite (an extrapolation that overflows `Float`) takes the
///    discrete rule, so the output is always finite.
///
/// Lanes are independent; a final partial block is padded in a local copy, so nothing outside
/// ``range`` is read or written. Allocates nothing.
///
/// Accuracy against the `Double` reference (checked by the tests on random translate / scale /
/// rotate-about-any-axis / perspective pairs, affine pairs with flips and shears, fractions in
/// `[−0.5, 1.5]`): every field within `2e-6·(1 + max |mᵢⱼ|)` (measured worst about
/// `2e-7·(1 + max |mᵢⱼ|)`).
public struct DecompositionInterpolationJob: @unchecked Sendable {
  /// The compiled pairs (read only).
  public var batch: DecompositionBatch
  /// The fraction of each layer (unitless, usually the eased progress), at least `batch.count`
  /// values; only the layers in ``range`` are read.
  public var fractions: UnsafeBufferPointer<Float>
  /// The transforms, 16 planes with ``stride``; only the layers in ``range`` are written.
  public var output: UnsafeMutableBufferPointer<Float>
  /// The distance between output planes, `≥ batch.count`.
  public var stride: Int
  /// The layers to evaluate, a subrange of `0..<batch.count`.
  public var range: Range<Int>

  /// The largest accepted `|fraction|`, `1e4`: the 3D rotation's `sin(tθ)`, `cos(tθ)` (`θ ≤ π/2`)
  /// keep `SIMDMath`'s accuracy bound of 2.6e-7 only for arguments up to 2¹⁴, and no animation
  /// extrapolates that far.
  public static let maximumFraction: Float = 1e4

  /// Creates a job; nothing is checked until ``validate()`` or ``run()``. `stride` defaults to
  /// `batch.count`, `range` to every layer.
  public init(
    batch: DecompositionBatch, fractions: UnsafeBufferPointer<Float>,
    output: UnsafeMutableBufferPointer<Float>, stride: Int? = nil, range: Range<Int>? = nil
  ) {
    self.batch = batch
    self.fractions = fractions
    self.output = output
    self.stride = stride ?? batch.count
    self.range = range ?? 0..<batch.count
  }

  /// Checks the job without running it.
  ///
  /// - Throws: ``ValidationError``: `"range"` ``ValidationError/Reason/outOfRange(lower:upper:)``
  ///   unless it lies in `0…count`; `"stride"` ``ValidationError/Reason/outOfRange(lower:upper:)``
  ///   when `stride < count`; `"fractions"` ``ValidationError/Reason/tooFew(minimum:actual:)`` when
  ///   it has fewer than `count` values; `"output"` ``ValidationError/Reason/tooFew(minimum:actual:)``
  ///   when it holds fewer than `15·stride + range.upperBound` values; `"fractions"` with the layer
  ///   index: ``ValidationError/Reason/notFinite``, or
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` beyond ``maximumFraction``.
  public func validate() throws(ValidationError) {
    let n = batch.count
    try Validate.subrange(range, of: n, "range")
    try Validate.countAndStride(count: n, stride: stride)
    try Validate.count(fractions.count, atLeast: n, "fractions")
    try Validate.planar(
      output.count, planes: LaneMatrix.fieldCount, stride: stride, count: range.upperBound,
      "output")
    let limit = Double(Self.maximumFraction)
    for j in range {
      try Validate.inRange(Double(fractions[j]), -limit, limit, "fractions", index: j)
    }
  }

  /// Validates, then writes the interpolated transforms of the layers in ``range``. Allocates
  /// nothing.
  public func run() throws(ValidationError) {
    try validate()
    guard !range.isEmpty else { return }
    let n = batch.count
    let stride = self.stride
    let out = output.baseAddress!
    let f = fractions.baseAddress!
    let lanes = Lanes.scalarCount
    batch.planes.withUnsafeBufferPointer { planeBuffer in
      let planes = planeBuffer.baseAddress!
      var j = range.lowerBound
      while j + lanes <= range.upperBound {
        let t = UnsafeRawPointer(f + j).loadUnaligned(as: Lanes.self)
        let first = j
        Self.evaluateBlock(t: t) {
          UnsafeRawPointer(planes + $0 * n + first).loadUnaligned(as: Lanes.self)
        }.store(to: out + j, stride: stride)
        j += lanes
      }
      if j < range.upperBound {
        let valid = range.upperBound - j
        let first = j
        Self.evaluateBlock(t: laneLoad(f + j, lanes: valid)) {
          laneLoad(planes + $0 * n + first, lanes: valid)
        }.store(to: out + j, stride: stride, lanes: valid)
      }
    }
  }

  /// Sixteen layers at fractions `t`; `load(p)` gives plane `p` of ``DecompositionBatch``.
  @inline(always)
  static func evaluateBlock(t: Lanes, load: (Int) -> Lanes) -> LaneMatrix {
    typealias B = DecompositionBatch
    let code = load(B.codePlane)
    let is2D = code .== B.affine2DCode
    let is3D = code .== B.decomposed3DCode
    var result = LaneMatrix { _ in Lanes() }
    if any(is3D) {
      let m = decomposed3D(t: t, load: load)
      result = LaneMatrix { SIMDMath.select(is3D, m.field($0), result.field($0)) }
    }
    if any(is2D) {
      let m = affine2D(t: t, load: load)
      result = LaneMatrix { SIMDMath.select(is2D, m.field($0), result.field($0)) }
    }
    return ends(result, t: t, interpolated: is2D .| is3D, load: load)
  }

  /// Component `c` of the `from` and `to` planes interpolated linearly at `t` (`u = 1 − t`).
  @inline(always)
  static func lerp(_ c: Int, _ t: Lanes, _ u: Lanes, _ load: (Int) -> Lanes) -> Lanes {
    u * load(DecompositionBatch.fromPlane + c) + t * load(DecompositionBatch.toPlane + c)
  }

  /// The 3D path: translation, scale, skews and perspective interpolated linearly, the
  /// quaternion by the prepared slerp (or normalised lerp), recomposed (`m44` not divided out).
  @inline(always)
  static func decomposed3D(t: Lanes, load: (Int) -> Lanes) -> LaneMatrix {
    typealias B = DecompositionBatch
    typealias C = DecompositionBatch.Component3D
    let u = 1 - t
    // Slerp weights.
    let theta = load(B.thetaPlane)
    let (s, c) = SIMDMath.sinCos(t * theta)
    let nlerp = load(B.nlerpPlane) .== 1
    var wb = s * load(B.inverseSinPlane)
    var wa = c - load(B.dotPlane) * wb
    wa = SIMDMath.select(nlerp, u, wa)
    wb = SIMDMath.select(nlerp, t, wb)
    @inline(always) func slerp(_ k: Int) -> Lanes {
      wa * load(B.fromPlane + C.quaternion + k) + wb * load(B.toPlane + C.quaternion + k)
    }
    var (qx, qy, qz, qw) = (slerp(0), slerp(1), slerp(2), slerp(3))
    if any(nlerp) {
      let length = (qx * qx + qy * qy + qz * qz + qw * qw).squareRoot()
      let k = SIMDMath.select(nlerp, 1 / length, Lanes(repeating: 1))
      qx *= k
      qy *= k
      qz *= k
      qw *= k
    }
    let r = LaneRotation(qx, qy, qz, qw)
    @inline(always) func lerp(_ c: Int) -> Lanes { Self.lerp(c, t, u, load) }
    let (sx, sy, sz) = (lerp(C.scale), lerp(C.scale + 1), lerp(C.scale + 2))
    let (kxy, kxz, kyz) = (lerp(C.skew), lerp(C.skew + 1), lerp(C.skew + 2))
    let (px, py, pz, pw) = (
      lerp(C.perspective), lerp(C.perspective + 1), lerp(C.perspective + 2),
      lerp(C.perspective + 3)
    )
    let (tx, ty, tz) = (lerp(C.translation), lerp(C.translation + 1), lerp(C.translation + 2))
    var m = LaneMatrix { _ in Lanes() }
    m.m11 = sx * r.r00
    m.m12 = sx * r.r01
    m.m13 = sx * r.r02
    m.m21 = sy * (r.r10 + r.r00 * kxy)
    m.m22 = sy * (r.r11 + r.r01 * kxy)
    m.m23 = sy * (r.r12 + r.r02 * kxy)
    m.m31 = sz * ((r.r20 + r.r00 * kxz) + r.r10 * kyz)
    m.m32 = sz * ((r.r21 + r.r01 * kxz) + r.r11 * kyz)
    m.m33 = sz * ((r.r22 + r.r02 * kxz) + r.r12 * kyz)
    m.m14 = m.m11 * px + m.m12 * py + m.m13 * pz
    m.m24 = m.m21 * px + m.m22 * py + m.m23 * pz
    m.m34 = m.m31 * px + m.m32 * py + m.m33 * pz
    m.m41 = tx
    m.m42 = ty
    m.m43 = tz
    m.m44 = (tx * px + ty * py + tz * pz) + pw
    return m
  }

  /// The 2D path: translation, scale, angle and residual matrix interpolated linearly,
  /// recomposed.
  @inline(always)
  static func affine2D(t: Lanes, load: (Int) -> Lanes) -> LaneMatrix {
    typealias C = DecompositionBatch.Component2D
    let u = 1 - t
    @inline(always) func lerp(_ c: Int) -> Lanes { Self.lerp(c, t, u, load) }
    let (sn, cs) = SIMDMath.sinCos(lerp(C.angle))
    let (res11, res12, res21, res22) = (
      lerp(C.residual), lerp(C.residual + 1), lerp(C.residual + 2), lerp(C.residual + 3)
    )
    let (sx, sy) = (lerp(C.scale), lerp(C.scale + 1))
    let zero = Lanes()
    let one = Lanes(repeating: 1)
    var m = LaneMatrix { _ in zero }
    m.m11 = sx * (cs * res11 + sn * res21)
    m.m12 = sx * (cs * res12 + sn * res22)
    m.m21 = sy * (-sn * res11 + cs * res21)
    m.m22 = sy * (-sn * res12 + cs * res22)
    m.m33 = one
    m.m44 = one
    m.m41 = lerp(C.translation)
    m.m42 = lerp(C.translation + 1)
    return m
  }

  /// The ends, the discrete rule, and the overflow fallback to it: the `from` matrix at `t == 0`
  /// and the `to` matrix at `t == 1`; where the path is discrete (not `interpolated`) or the
  /// result is not finite, `from` below `t = 0.5` and `to` from it on.
  @inline(always)
  static func ends(
    _ result: LaneMatrix, t: Lanes, interpolated: LaneMask, load: (Int) -> Lanes
  ) -> LaneMatrix {
    typealias B = DecompositionBatch
    // x − x is 0 for finite x and NaN for ±∞ or NaN.
    var residue = result.m11 - result.m11
    for k in 1..<LaneMatrix.fieldCount {
      let v = result.field(k)
      residue += v - v
    }
    let finite = residue .== 0
    let useFrom = (t .== 0) .| (.!finite .& (t .< 0.5))
    let useTo = (t .== 1) .| (.!finite .& .!(t .< 0.5))
    let discrete = .!interpolated
    let pickFrom = useFrom .| (discrete .& (t .< 0.5))
    let pickTo = useTo .| (discrete .& .!(t .< 0.5))
    guard any(pickFrom .| pickTo) else { return result }
    let from = LaneMatrix { load(B.fromMatrixPlane + $0) }
    let to = LaneMatrix { load(B.toMatrixPlane + $0) }
    return LaneMatrix { k in
      SIMDMath.select(
        pickFrom, from.field(k), SIMDMath.select(pickTo, to.field(k), result.field(k)))
    }
  }
}

/// The rotation rows of a unit quaternion `(x, y, z, w)` in lanes: the upper 3 × 3 of
/// ``Quaternion/rotationMatrix`` (Core Animation storage, `r00` = `m11`, `r01` = `m12`, …).
struct LaneRotation {
  let r00: Lanes, r01: Lanes, r02: Lanes
  let r10: Lanes, r11: Lanes, r12: Lanes
  let r20: Lanes, r21: Lanes, r22: Lanes

  @inline(always)
  init(_ qx: Lanes, _ qy: Lanes, _ qz: Lanes, _ qw: Lanes) {
    let (xx, yy, zz) = (qx * qx, qy * qy, qz * qz)
    let (xy, xz, yz) = (qx * qy, qx * qz, qy * qz)
    let (xw, yw, zw) = (qx * qw, qy * qw, qz * qw)
    r00 = 1 - 2 * (yy + zz)
    r01 = 2 * (xy + zw)
    r02 = 2 * (xz - yw)
    r10 = 2 * (xy - zw)
    r11 = 1 - 2 * (xx + zz)
    r12 = 2 * (yz + xw)
    r20 = 2 * (xz + yw)
    r21 = 2 * (yz - xw)
    r22 = 1 - 2 * (xx + yy)
  }
}
