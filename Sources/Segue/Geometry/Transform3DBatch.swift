/// Many ``Transform3D`` values in `Float`, stored as sixteen planes (structure of arrays): field `k`
/// (`0…15` = `m11, m12, …, m44`, `CATransform3D` order) of matrix `j` at `planes[k·count + j]`.
///
/// This is the layout every batch kernel of the geometry stage reads and writes
/// (``Transform3DConcatenationJob``, ``LayerMatrixEvaluationJob``, ``LayerTreeEvaluationJob``,
/// ``DecompositionInterpolationJob``): consecutive matrices are adjacent in each plane, so one
/// `SIMD16<Float>` load fetches one field of sixteen matrices. Jobs take the planes as a buffer with a
/// `stride` (the distance between planes, at least the count); here `stride == count`.
public struct Transform3DBatch: Hashable, Sendable {
  /// The number of matrices.
  public let count: Int
  /// The sixteen planes, `16·count` values: field `k` of matrix `j` at `planes[k·count + j]`.
  public var planes: [Float]

  /// `count` identity matrices.
  ///
  /// - Throws: ``ValidationError`` `"count"` ``ValidationError/Reason/negative`` when `count < 0`.
  public init(identityCount count: Int) throws(ValidationError) {
    guard count >= 0 else { throw ValidationError(field: "count", reason: .negative) }
    self.count = count
    planes = [Float](repeating: 0, count: 16 * count)
    for k in [0, 5, 10, 15] {
      for j in 0..<count { planes[k * count + j] = 1 }
    }
  }

  /// The matrices `transforms`, each field rounded to the nearest `Float`.
  ///
  /// - Throws: ``ValidationError`` `"transforms"` with the matrix index:
  ///   ``ValidationError/Reason/notFinite`` for a NaN or infinite field,
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` for a field whose magnitude exceeds
  ///   `Float.greatestFiniteMagnitude` (it would round to infinity).
  public init(_ transforms: [Transform3D]) throws(ValidationError) {
    count = transforms.count
    planes = [Float](repeating: 0, count: 16 * transforms.count)
    for (j, t) in transforms.enumerated() {
      for (k, v) in t.fields.enumerated() {
        planes[k * count + j] = try floatValue(v, "transforms", index: j)
      }
    }
  }

  /// Matrix `index` (in `0..<count`), widened to `Double`.
  ///
  /// - Throws: ``ValidationError`` `"index"` ``ValidationError/Reason/outOfRange(lower:upper:)``.
  public func transform(at index: Int) throws(ValidationError) -> Transform3D {
    guard index >= 0, index < count else {
      throw ValidationError(
        field: "index", reason: .outOfRange(lower: 0, upper: Double(count - 1)))
    }
    return planarTransform(planes, stride: count, index: index)
  }
}

/// Matrix `index` of a planar buffer (`stride` between planes), widened to `Double`. Unchecked.
func planarTransform<C: RandomAccessCollection<Float>>(_ planes: C, stride: Int, index: Int)
  -> Transform3D where C.Index == Int
{
  let s = planes.startIndex
  let f = (0..<16).map { Double(planes[s + $0 * stride + index]) }
  return Transform3D(
    m11: f[0], m12: f[1], m13: f[2], m14: f[3], m21: f[4], m22: f[5], m23: f[6], m24: f[7],
    m31: f[8], m32: f[9], m33: f[10], m34: f[11], m41: f[12], m42: f[13], m43: f[14], m44: f[15])
}

/// `Float(value)` after checking that `value` is finite and fits in `Float`.
func floatValue(_ value: Double, _ field: String, index: Int?) throws(ValidationError) -> Float {
  try Validate.finite(value, field, index: index)
  let limit = Double(Float.greatestFiniteMagnitude)
  guard abs(value) <= limit else {
    throw ValidationError(
      field: field, index: index, reason: .outOfRange(lower: -limit, upper: limit))
  }
  return Float(value)
}

// MARK: - Concatenation

/// `output[j] = a[j] · b[j]` (`CATransform3DConcat(a[j], b[j])`, "apply a, then b") for `count`
/// matrices in planar `Float` storage, sixteen matrices per `SIMD16<Float>` step.
///
/// Field `k` of matrix `j` is at `buffer[k·stride + j]` in all three buffers (as
/// ``Transform3DBatch/planes`` with `stride == count`). Each output field is the row-by-column sum
/// `c_ij = a_i1·b_1j + a_i2·b_2j + a_i3·b_3j + a_i4·b_4j` evaluated left to right in `Float`, as
/// ``Transform3D/concatenating(_:)`` does in `Double`; the error is bounded by about
/// `4·2⁻²⁴·Σ_k |a_ik||b_kj|` per field. A block loads both operands before storing, so `output` may
/// be the same buffer as `a` or `b` (in-place concatenation). The final partial block is padded in a
/// local copy, so nothing outside `0..<count` of each plane is read or written. Allocates nothing.
public struct Transform3DConcatenationJob: @unchecked Sendable {
  /// The first factors (applied first), 16 planes.
  public var a: UnsafeBufferPointer<Float>
  /// The second factors, 16 planes.
  public var b: UnsafeBufferPointer<Float>
  /// The products, 16 planes.
  public var output: UnsafeMutableBufferPointer<Float>
  /// The number of matrices, `≥ 0`.
  public var count: Int
  /// The distance between planes in every buffer, `≥ count`.
  public var stride: Int

  /// Creates a job; nothing is checked until ``validate()`` or ``run()``. `stride` defaults to
  /// `count`.
  public init(
    a: UnsafeBufferPointer<Float>, b: UnsafeBufferPointer<Float>,
    output: UnsafeMutableBufferPointer<Float>, count: Int, stride: Int? = nil
  ) {
    self.a = a
    self.b = b
    self.output = output
    self.count = count
    self.stride = stride ?? count
  }

  /// Checks the job without running it.
  ///
  /// - Throws: ``ValidationError``: `"count"` ``ValidationError/Reason/negative``; `"stride"`
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` when `stride < count`; `"a"`, `"b"`,
  ///   `"output"` ``ValidationError/Reason/tooFew(minimum:actual:)`` when a buffer holds fewer than
  ///   `15·stride + count` values.
  public func validate() throws(ValidationError) {
    let planes = LaneMatrix.fieldCount
    try Validate.countAndStride(count: count, stride: stride)
    try Validate.planar(a.count, planes: planes, stride: stride, count: count, "a")
    try Validate.planar(b.count, planes: planes, stride: stride, count: count, "b")
    try Validate.planar(output.count, planes: planes, stride: stride, count: count, "output")
  }

  /// Validates, then writes the `count` products. Allocates nothing.
  public func run() throws(ValidationError) {
    try validate()
    guard count > 0 else { return }
    let pa = a.baseAddress!
    let pb = b.baseAddress!
    let po = output.baseAddress!
    let stride = self.stride
    let lanes = Lanes.scalarCount
    var j = 0
    while j + lanes <= count {
      let x = LaneMatrix(load: pa + j, stride: stride)
      let y = LaneMatrix(load: pb + j, stride: stride)
      x.concatenating(y).store(to: po + j, stride: stride)
      j += lanes
    }
    if j < count {
      let valid = count - j
      let x = LaneMatrix(load: pa + j, stride: stride, lanes: valid)
      let y = LaneMatrix(load: pb + j, stride: stride, lanes: valid)
      x.concatenating(y).store(to: po + j, stride: stride, lanes: valid)
    }
  }
}

// MARK: - Layer matrices

/// The planes of the per-layer property buffer read by ``LayerMatrixEvaluationJob`` and
/// ``LayerTreeEvaluationJob``: value `p` of layer `j` at `buffer[p·stride + j]`, all `Float`.
///
///     0 boundsMinX, 1 boundsMinY, 2 boundsWidth, 3 boundsHeight   bounds, standardised (points)
///     4 anchorPointX, 5 anchorPointY                               unit coordinates of the bounds
///     6 anchorPointZ                                               points
///     7 positionX, 8 positionY, 9 zPosition                        points, superlayer space
///     10 opacity                                                   unitless (clamped when used)
///     11…26 transform m11…m44                                      CALayer.transform
///     27…42 sublayerTransform m11…m44                              CALayer.sublayerTransform
///
/// The bounds are stored standardised (`Rect.minX`, `Rect.width`, …) as ``Layer/anchor`` reads them.
public enum LayerPlanes {
  /// `bounds.minX`, points.
  public static let boundsMinX = 0
  /// `bounds.minY`, points.
  public static let boundsMinY = 1
  /// `bounds.width` (`≥ 0`), points.
  public static let boundsWidth = 2
  /// `bounds.height` (`≥ 0`), points.
  public static let boundsHeight = 3
  /// `anchorPoint.x`, unitless.
  public static let anchorPointX = 4
  /// `anchorPoint.y`, unitless.
  public static let anchorPointY = 5
  /// `anchorPointZ`, points.
  public static let anchorPointZ = 6
  /// `position.x`, points.
  public static let positionX = 7
  /// `position.y`, points.
  public static let positionY = 8
  /// `zPosition`, points.
  public static let zPosition = 9
  /// `opacity`, unitless.
  public static let opacity = 10
  /// The first of the 16 planes of `transform` (`m11`); field `k` is plane `transform + k`.
  public static let transform = 11
  /// The first of the 16 planes of `sublayerTransform`; field `k` is plane `sublayerTransform + k`.
  public static let sublayerTransform = 27
  /// The number of planes, 43.
  public static let count = 43

  /// The 43 values of `layer` in plane order.
  ///
  /// - Throws: ``ValidationError`` `"layers"` with `index` when a value is not finite or does not fit
  ///   in `Float` (``ValidationError/Reason/outOfRange(lower:upper:)``).
  static func values(of layer: Layer, index: Int) throws(ValidationError) -> [Float] {
    let b = layer.bounds
    let doubles =
      [
        b.minX, b.minY, b.width, b.height, layer.anchorPoint.x, layer.anchorPoint.y,
        layer.anchorPointZ, layer.position.x, layer.position.y, layer.zPosition, layer.opacity,
      ] + layer.transform.fields + layer.sublayerTransform.fields
    var result = [Float](repeating: 0, count: count)
    for (p, v) in doubles.enumerated() {
      result[p] = try floatValue(v, "layers", index: index)
    }
    return result
  }

  /// The planar property buffer of `layers` (`stride == layers.count`), layer `j` in column `j`.
  ///
  /// - Throws: ``ValidationError`` `"layers"` with the layer index when a value is not finite or
  ///   does not fit in `Float`.
  public static func pack(_ layers: [Layer]) throws(ValidationError) -> [Float] {
    let n = layers.count
    var buffer = [Float](repeating: 0, count: count * n)
    for (j, layer) in layers.enumerated() {
      for (p, v) in try values(of: layer, index: j).enumerated() { buffer[p * n + j] = v }
    }
    return buffer
  }
}

/// Which matrix ``LayerMatrixEvaluationJob`` builds from a layer's properties.
public enum LayerMatrixKind: Hashable, Sendable {
  /// ``Layer/matrixInSuperlayer``: `T(−A) · transform · T(position.x, position.y, zPosition)`.
  case inSuperlayer
  /// ``Layer/sublayerMatrix``: `T(−A) · sublayerTransform · T(A)`, the term a parent contributes
  /// to each sublayer's local matrix.
  case sublayer
}

/// A layer's matrix about its anchor point for `count` layers in `SIMD16<Float>` lanes: the
/// composition of ``LayerTree``'s scalar rule, with
/// `A = (boundsMinX + anchorPointX·boundsWidth, boundsMinY + anchorPointY·boundsHeight,
/// anchorPointZ)`:
///
/// * ``LayerMatrixKind/inSuperlayer``: `T(−A) · M · T(p)` with `M` the `transform` planes and
///   `p = (positionX, positionY, zPosition)`;
/// * ``LayerMatrixKind/sublayer``: `T(−A) · S · T(A)` with `S` the `sublayerTransform` planes.
///
/// Both are computed without the full products: `T(−A) · M` replaces row 4 by
/// `m4j − A_x·m1j − A_y·m2j − A_z·m3j`, and `N · T(p)` adds `n_i4·p_j` to columns 1–3. Any
/// perspective in `M` (`m14, m24, m34`) is carried exactly as the 4×4 products carry it. The local
/// matrix of a sublayer is then `inSuperlayer(layer) · sublayer(parent)`
/// (``Transform3DConcatenationJob``); ``LayerTreeEvaluationJob`` does that per tree level.
///
/// `properties` holds ``LayerPlanes/count`` planes (``LayerPlanes``), `output` 16 planes, both with
/// `stride`. Allocates nothing; never reads or writes outside `0..<count` of a plane.
public struct LayerMatrixEvaluationJob: @unchecked Sendable {
  /// The layers' property planes (``LayerPlanes``).
  public var properties: UnsafeBufferPointer<Float>
  /// The matrices, 16 planes.
  public var output: UnsafeMutableBufferPointer<Float>
  /// The number of layers, `≥ 0`.
  public var count: Int
  /// The distance between planes in both buffers, `≥ count`.
  public var stride: Int
  /// Which matrix to build.
  public var kind: LayerMatrixKind

  /// Creates a job; nothing is checked until ``validate()`` or ``run()``. `stride` defaults to
  /// `count`.
  public init(
    properties: UnsafeBufferPointer<Float>, output: UnsafeMutableBufferPointer<Float>,
    count: Int, stride: Int? = nil, kind: LayerMatrixKind = .inSuperlayer
  ) {
    self.properties = properties
    self.output = output
    self.count = count
    self.stride = stride ?? count
    self.kind = kind
  }

  /// Checks the job without running it.
  ///
  /// - Throws: ``ValidationError``: `"count"` ``ValidationError/Reason/negative``; `"stride"`
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` when `stride < count`; `"properties"`
  ///   (43 planes) and `"output"` (16 planes) ``ValidationError/Reason/tooFew(minimum:actual:)``.
  public func validate() throws(ValidationError) {
    try Validate.countAndStride(count: count, stride: stride)
    try Validate.planar(
      properties.count, planes: LayerPlanes.count, stride: stride, count: count, "properties")
    try Validate.planar(
      output.count, planes: LaneMatrix.fieldCount, stride: stride, count: count, "output")
  }

  /// Validates, then writes the `count` matrices. Allocates nothing.
  public func run() throws(ValidationError) {
    try validate()
    guard count > 0 else { return }
    let p = properties.baseAddress!
    let o = output.baseAddress!
    let stride = self.stride
    let kind = self.kind
    let lanes = Lanes.scalarCount
    var j = 0
    while j + lanes <= count {
      laneLayerMatrix(kind) {
        UnsafeRawPointer(p + $0 * stride + j).loadUnaligned(as: Lanes.self)
      }
      .store(to: o + j, stride: stride)
      j += lanes
    }
    if j < count {
      let valid = count - j
      laneLayerMatrix(kind) { laneLoad(p + $0 * stride + j, lanes: valid) }
        .store(to: o + j, stride: stride, lanes: valid)
    }
  }
}

// MARK: - Lane helpers (shared by the batch kernels of the geometry, interpolation and tree stages)

/// The first `lanes` values at `p` in a vector, the other lanes `fill`.
@inline(always)
func laneLoad(_ p: UnsafePointer<Float>, lanes: Int, fill: Float = 0) -> Lanes {
  var v = Lanes(repeating: fill)
  for l in 0..<lanes { v[l] = p[l] }
  return v
}

/// Writes the first `lanes` values of `v` at `p`.
@inline(always)
func laneStore(_ v: Lanes, _ p: UnsafeMutablePointer<Float>, lanes: Int) {
  for l in 0..<lanes { p[l] = v[l] }
}

/// Sixteen 4×4 matrices, one per lane, field by field.
struct LaneMatrix {
  /// The fields of a 4 × 4 matrix (`m11 … m44`): the planes of a planar matrix buffer, the floats
  /// of a matrix row.
  static var fieldCount: Int { 16 }

  var m11: Lanes, m12: Lanes, m13: Lanes, m14: Lanes
  var m21: Lanes, m22: Lanes, m23: Lanes, m24: Lanes
  var m31: Lanes, m32: Lanes, m33: Lanes, m34: Lanes
  var m41: Lanes, m42: Lanes, m43: Lanes, m44: Lanes

  /// Builds the matrix from `field(k)` for `k = 0…15` (`m11 … m44`).
  @inline(always)
  init(_ field: (Int) -> Lanes) {
    m11 = field(0)
    m12 = field(1)
    m13 = field(2)
    m14 = field(3)
    m21 = field(4)
    m22 = field(5)
    m23 = field(6)
    m24 = field(7)
    m31 = field(8)
    m32 = field(9)
    m33 = field(10)
    m34 = field(11)
    m41 = field(12)
    m42 = field(13)
    m43 = field(14)
    m44 = field(15)
  }

  /// Sixteen full lanes from planar storage at `p` (plane `k` at `p + k·stride`).
  @inline(always)
  init(load p: UnsafePointer<Float>, stride: Int) {
    self.init { k in UnsafeRawPointer(p + k * stride).loadUnaligned(as: Lanes.self) }
  }

  /// The first `lanes` lanes from planar storage at `p`, the rest zero.
  @inline(always)
  init(load p: UnsafePointer<Float>, stride: Int, lanes: Int) {
    self.init { k in laneLoad(p + k * stride, lanes: lanes) }
  }

  /// Field `k` (`0…15`).
  @inline(always)
  func field(_ k: Int) -> Lanes {
    switch k {
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

  /// Stores sixteen full lanes to planar storage at `p`.
  @inline(always)
  func store(to p: UnsafeMutablePointer<Float>, stride: Int) {
    for k in 0..<16 {
      UnsafeMutableRawPointer(p + k * stride).storeBytes(of: field(k), as: Lanes.self)
    }
  }

  /// Stores the first `lanes` lanes to planar storage at `p`.
  @inline(always)
  func store(to p: UnsafeMutablePointer<Float>, stride: Int, lanes: Int) {
    for k in 0..<16 { laneStore(field(k), p + k * stride, lanes: lanes) }
  }

  /// `self · b` lane by lane, each field summed left to right as ``Transform3D/concatenating(_:)``.
  @inline(always)
  func concatenating(_ b: LaneMatrix) -> LaneMatrix {
    let a = self
    var r = a
    r.m11 = a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41
    r.m12 = a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42
    r.m13 = a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43
    r.m14 = a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44
    r.m21 = a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41
    r.m22 = a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42
    r.m23 = a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43
    r.m24 = a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44
    r.m31 = a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41
    r.m32 = a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42
    r.m33 = a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43
    r.m34 = a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44
    r.m41 = a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41
    r.m42 = a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42
    r.m43 = a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43
    r.m44 = a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44
    return r
  }

  /// `T(−a) · self · T(p)` (row vectors): row 4 becomes `m4j − a_x·m1j − a_y·m2j − a_z·m3j`, then
  /// `n_i4·p_j` is added to columns 1–3.
  @inline(always)
  func aboutPivot(
    _ ax: Lanes, _ ay: Lanes, _ az: Lanes, then px: Lanes, _ py: Lanes,
    _ pz: Lanes
  ) -> LaneMatrix {
    var n = self
    n.m41 = m41 - ax * m11 - ay * m21 - az * m31
    n.m42 = m42 - ax * m12 - ay * m22 - az * m32
    n.m43 = m43 - ax * m13 - ay * m23 - az * m33
    n.m44 = m44 - ax * m14 - ay * m24 - az * m34
    n.m11 += n.m14 * px
    n.m12 += n.m14 * py
    n.m13 += n.m14 * pz
    n.m21 += n.m24 * px
    n.m22 += n.m24 * py
    n.m23 += n.m24 * pz
    n.m31 += n.m34 * px
    n.m32 += n.m34 * py
    n.m33 += n.m34 * pz
    n.m41 += n.m44 * px
    n.m42 += n.m44 * py
    n.m43 += n.m44 * pz
    return n
  }
}

/// The ``LayerMatrixKind`` matrix of sixteen layers whose property plane `p` (``LayerPlanes``) is
/// `load(p)`, with `A = (minX + anchorPoint.x·width, minY + anchorPoint.y·height, anchorPointZ)`.
@inline(always)
func laneLayerMatrix(_ kind: LayerMatrixKind, _ load: (Int) -> Lanes) -> LaneMatrix {
  typealias P = LayerPlanes
  let ax = load(P.boundsMinX) + load(P.anchorPointX) * load(P.boundsWidth)
  let ay = load(P.boundsMinY) + load(P.anchorPointY) * load(P.boundsHeight)
  let az = load(P.anchorPointZ)
  switch kind {
  case .inSuperlayer:
    return LaneMatrix { load(P.transform + $0) }.aboutPivot(
      ax, ay, az, then: load(P.positionX), load(P.positionY), load(P.zPosition))
  case .sublayer:
    return LaneMatrix { load(P.sublayerTransform + $0) }.aboutPivot(
      ax, ay, az, then: ax, ay, az)
  }
}
