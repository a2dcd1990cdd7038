import PropertyBased
import SegueBenchSupport
import Testing

@testable import Segue

/// Random inputs and buffer plumbing shared by the batch-kernel suites (Geometry, LayerTree,
/// Interpolation).
enum BatchTestSupport {
  /// A seeded random source (the library's splitmix64), so failures reproduce from the seed.
  struct Random {
    var state: SplitMix64
    init(seed: Int) { state = SplitMix64(state: UInt64(truncatingIfNeeded: seed)) }
    /// Uniform in `[lo, hi)`.
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
      lo + (hi - lo) * state.nextUnit()
    }
    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { state.nextUnit() < p }
  }

  /// A general matrix with entries in `[−2, 2]`.
  static func randomMatrix(_ r: inout Random) -> Transform3D {
    InterpolationTestSupport.matrix((0..<16).map { _ in r.uniform(-2, 2) })
  }

  /// `S · R(angle, random axis) · T`, optionally followed by a perspective `P(d)`, `d ∈ [300, 2000]`.
  static func randomTransform(_ r: inout Random, perspective: Bool) -> Transform3D {
    var t = Transform3D.makeScale(x: r.uniform(0.3, 2), y: r.uniform(0.3, 2), z: r.uniform(0.3, 2))
      .concatenating(
        .makeRotation(
          by: r.uniform(-3.1, 3.1), x: r.uniform(-1, 1), y: r.uniform(-1, 1), z: r.uniform(0.1, 1))
      )
      .concatenating(
        .makeTranslation(x: r.uniform(-200, 200), y: r.uniform(-200, 200), z: r.uniform(-50, 50)))
    if perspective { t = t.concatenating(.makePerspective(distance: r.uniform(300, 2000))) }
    return t
  }

  /// A layer with random geometry: bounds (sometimes a negative size), anchor point (sometimes
  /// outside the unit square), positions, a random transform (perspective in a quarter of the
  /// layers), a perspective sublayer transform in half of them, opacity in `[−0.2, 1.2]`.
  static func randomLayer(_ r: inout Random, id: String) -> Layer {
    let width = r.uniform(0, 400) * (r.chance(0.1) ? -1 : 1)
    var sublayer = Transform3D.identity
    if r.chance(0.5) {
      sublayer = Transform3D.makeRotation(by: r.uniform(-1, 1), x: 0, y: 1, z: 0)
        .concatenating(.makePerspective(distance: r.uniform(400, 1500)))
    }
    return Layer(
      id: id,
      bounds: Rect(
        x: r.uniform(-50, 50), y: r.uniform(-50, 50), width: width, height: r.uniform(0, 400)),
      position: Point(x: r.uniform(-300, 300), y: r.uniform(-300, 300)),
      anchorPoint: Point(x: r.uniform(-0.2, 1.2), y: r.uniform(-0.2, 1.2)),
      anchorPointZ: r.uniform(-20, 20), zPosition: r.uniform(-50, 50),
      transform: r.chance(0.15) ? .identity : randomTransform(&r, perspective: r.chance(0.25)),
      sublayerTransform: sublayer, opacity: r.uniform(-0.2, 1.2),
      isTransformLayer: r.chance(0.3))
  }

  /// `m` with each field rounded to `Float` (the batch kernels' inputs).
  static func rounded(_ m: Transform3D) -> Transform3D {
    InterpolationTestSupport.matrix(m.fields.map { Double(Float($0)) })
  }

  /// Planes of `matrices` with `stride`, entries past each plane's count set to `fill`.
  static func planes(_ matrices: [Transform3D], stride: Int, fill: Float = 0) -> [Float] {
    var out = [Float](repeating: fill, count: 16 * stride)
    for (j, m) in matrices.enumerated() {
      for (k, v) in m.fields.enumerated() { out[k * stride + j] = Float(v) }
    }
    return out
  }

  /// The error bound of a `Float` product: `3e-7 · Σ_k |a_ik||b_kj|` per field (four rounded
  /// operations of at most 2⁻²⁴ relative each, plus the inputs' rounding), plus 1e-30.
  static func productBound(_ a: Transform3D, _ b: Transform3D, row i: Int, column j: Int) -> Double
  {
    (0..<4).reduce(1e-30) { $0 + 3e-7 * abs(a[i, $1]) * abs(b[$1, j]) }
  }
}

@Suite("Transform3DBatch: planar storage, concatenation and layer matrices")
struct Transform3DBatchTests {
  typealias S = BatchTestSupport

  /// Runs a concatenation job on planes of `a` and `b` with `stride`.
  static func concatenate(_ a: [Float], _ b: [Float], count: Int, stride: Int, fill: Float = 0)
    throws(ValidationError) -> [Float]
  {
    var out = [Float](repeating: fill, count: 16 * stride)
    var failure: ValidationError?
    a.withUnsafeBufferPointer { pa in
      b.withUnsafeBufferPointer { pb in
        out.withUnsafeMutableBufferPointer { po in
          do throws(ValidationError) {
            try Transform3DConcatenationJob(a: pa, b: pb, output: po, count: count, stride: stride)
              .run()
          } catch { failure = error }
        }
      }
    }
    if let failure { throw failure }
    return out
  }

  /// Hand-worked: `T(1, 2, 3) · S(2, 3, 4)` (translate, then scale) is `diag(2, 3, 4, 1)` with the
  /// translation scaled to `(2, 6, 12)`; `S · T` keeps the translation `(1, 2, 3)`.
  @Test func handWorkedProducts() throws {
    let t = Transform3D.makeTranslation(x: 1, y: 2, z: 3)
    let s = Transform3D.makeScale(x: 2, y: 3, z: 4)
    let out = try Self.concatenate(
      S.planes([t, s], stride: 2), S.planes([s, t], stride: 2), count: 2, stride: 2)
    #expect(
      planarTransform(out, stride: 2, index: 0).fields == [
        2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 2, 6, 12, 1,
      ])
    #expect(
      planarTransform(out, stride: 2, index: 1).fields == [
        2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1,
      ])
  }

  /// Random general matrices, every count from 0 to 40 (full blocks and tails) with a stride
  /// larger than the count: each field within the `Float` product bound of the `Double` product of
  /// the rounded inputs, and the padding past each plane's count untouched.
  @Test func concatenationMatchesDoubleWithinProductBound() throws {
    var r = S.Random(seed: 7)
    for count in 0...40 {
      let stride = count + 3
      let a = (0..<count).map { _ in S.rounded(S.randomMatrix(&r)) }
      let b = (0..<count).map { _ in S.rounded(S.randomMatrix(&r)) }
      let out = try Self.concatenate(
        S.planes(a, stride: stride), S.planes(b, stride: stride), count: count, stride: stride,
        fill: -99)
      for j in 0..<count {
        let reference = a[j].concatenating(b[j])
        let batch = planarTransform(out, stride: stride, index: j)
        for i in 0..<4 {
          for c in 0..<4 {
            #expect(
              abs(batch[i, c] - reference[i, c]) <= S.productBound(a[j], b[j], row: i, column: c))
          }
        }
      }
      for k in 0..<16 {
        for j in count..<stride { #expect(out[k * stride + j] == -99) }
      }
    }
  }

  /// The product is associative within rounding: `(a·b)·c` and `a·(b·c)` computed by the kernel
  /// agree within 1e-5 relative to the magnitudes involved (property-based over random seeds).
  @Test func concatenationIsAssociativeWithinRounding() async {
    await propertyCheck(count: 100, input: Gen.int(in: 0...1_000_000), Gen.int(in: 1...20)) {
      seed, n in
      var r = S.Random(seed: seed)
      let a = (0..<n).map { _ in S.randomMatrix(&r) }
      let b = (0..<n).map { _ in S.randomMatrix(&r) }
      let c = (0..<n).map { _ in S.randomMatrix(&r) }
      let (pa, pb, pc) = (S.planes(a, stride: n), S.planes(b, stride: n), S.planes(c, stride: n))
      let left = try? Self.concatenate(
        Self.concatenate(pa, pb, count: n, stride: n), pc, count: n, stride: n)
      let right = try? Self.concatenate(
        pa, Self.concatenate(pb, pc, count: n, stride: n), count: n, stride: n)
      guard let left, let right else {
        #expect(Bool(false))
        return
      }
      // |entries| ≤ 2, so |(a·b)·c| terms are ≤ 4·(4·2·2)·2 = 128: 1e-5 absolute is ~100 ulp.
      for (x, y) in zip(left, right) { #expect(abs(x - y) <= 1e-5 * 128) }
    }
  }

  /// In place: `output` may be the buffer of `a`.
  @Test func concatenationInPlace() throws {
    var r = S.Random(seed: 11)
    let n = 21
    let a = (0..<n).map { _ in S.rounded(S.randomMatrix(&r)) }
    let b = (0..<n).map { _ in S.rounded(S.randomMatrix(&r)) }
    var buffer = S.planes(a, stride: n)
    let pb = S.planes(b, stride: n)
    pb.withUnsafeBufferPointer { pb in
      buffer.withUnsafeMutableBufferPointer { po in
        try? Transform3DConcatenationJob(a: UnsafeBufferPointer(po), b: pb, output: po, count: n)
          .run()
      }
    }
    let expected = try Self.concatenate(S.planes(a, stride: n), pb, count: n, stride: n)
    #expect(buffer == expected)
  }

  // MARK: Rejected concatenation inputs

  static func concatenationError(
    aCount: Int = 32, bCount: Int = 32, outputCount: Int = 32, count: Int = 2, stride: Int = 2
  ) -> ValidationError? {
    let a = [Float](repeating: 1, count: aCount)
    let b = [Float](repeating: 1, count: bCount)
    var o = [Float](repeating: 0, count: outputCount)
    return a.withUnsafeBufferPointer { pa in
      b.withUnsafeBufferPointer { pb in
        o.withUnsafeMutableBufferPointer { po in
          do throws(ValidationError) {
            try Transform3DConcatenationJob(a: pa, b: pb, output: po, count: count, stride: stride)
              .validate()
            return nil
          } catch { return error }
        }
      }
    }
  }

  @Test func rejectsNegativeCount() {
    #expect(
      Self.concatenationError(count: -1) == ValidationError(field: "count", reason: .negative))
  }

  @Test func rejectsStrideBelowCount() {
    #expect(
      Self.concatenationError(count: 3, stride: 2)
        == ValidationError(field: "stride", reason: .outOfRange(lower: 3, upper: Double(Int.max))))
  }

  /// 16 planes of stride 2 holding 2 matrices need `15·2 + 2 = 32` values.
  @Test func rejectsShortA() {
    #expect(
      Self.concatenationError(aCount: 31)
        == ValidationError(field: "a", reason: .tooFew(minimum: 32, actual: 31)))
  }

  @Test func rejectsShortB() {
    #expect(
      Self.concatenationError(bCount: 30)
        == ValidationError(field: "b", reason: .tooFew(minimum: 32, actual: 30)))
  }

  @Test func rejectsShortOutput() {
    #expect(
      Self.concatenationError(outputCount: 0)
        == ValidationError(field: "output", reason: .tooFew(minimum: 32, actual: 0)))
  }

  @Test func emptyJobIsValidWithEmptyBuffers() {
    #expect(
      Self.concatenationError(aCount: 0, bCount: 0, outputCount: 0, count: 0, stride: 0) == nil)
  }

  // MARK: Storage

  @Test func batchStorageRoundTrips() throws {
    let t = Transform3D.makeRotation(by: 0.3, x: 0, y: 0, z: 1).concatenating(
      .makeTranslation(x: 10, y: 20, z: 30))
    let batch = try Transform3DBatch([.identity, t])
    #expect(try batch.transform(at: 0) == .identity)
    #expect(try batch.transform(at: 1) == S.rounded(t))
    #expect(batch.planes[12 * 2 + 1] == 10)  // m41 of matrix 1
    let identities = try Transform3DBatch(identityCount: 3)
    for j in 0..<3 { #expect(try identities.transform(at: j) == .identity) }
  }

  @Test func batchRejectsNonFiniteField() {
    var t = Transform3D.identity
    t.m23 = .nan
    #expect(throws: ValidationError(field: "transforms", index: 1, reason: .notFinite)) {
      try Transform3DBatch([.identity, t])
    }
  }

  @Test func batchRejectsFieldBeyondFloat() {
    let limit = Double(Float.greatestFiniteMagnitude)
    #expect(
      throws: ValidationError(
        field: "transforms", index: 0, reason: .outOfRange(lower: -limit, upper: limit))
    ) {
      try Transform3DBatch([.makeTranslation(x: 1e39, y: 0, z: 0)])
    }
  }

  @Test func batchRejectsNegativeIdentityCount() {
    #expect(throws: ValidationError(field: "count", reason: .negative)) {
      try Transform3DBatch(identityCount: -1)
    }
  }

  @Test func batchRejectsIndexOutOfRange() throws {
    let batch = try Transform3DBatch(identityCount: 2)
    #expect(throws: ValidationError(field: "index", reason: .outOfRange(lower: 0, upper: 1))) {
      try batch.transform(at: 2)
    }
  }

  // MARK: Layer matrices

  /// Runs a ``LayerMatrixEvaluationJob`` on `layers`.
  static func layerMatrices(_ layers: [Layer], kind: LayerMatrixKind) throws -> [Float] {
    let props = try LayerPlanes.pack(layers)
    var out = [Float](repeating: 0, count: 16 * layers.count)
    var failure: ValidationError?
    props.withUnsafeBufferPointer { p in
      out.withUnsafeMutableBufferPointer { o in
        do throws(ValidationError) {
          try LayerMatrixEvaluationJob(properties: p, output: o, count: layers.count, kind: kind)
            .run()
        } catch { failure = error }
      }
    }
    if let failure { throw failure }
    return out
  }

  /// Hand-worked: bounds `(0, 0, 100, 50)`, anchor `(0.5, 0.5)`, position `(200, 300)`, identity
  /// transform: `T(−(50, 25, 0)) · T(200, 300, 0)` is the translation `(150, 275, 0)`, the frame's
  /// origin. With `transform = S(2, 2, 1)` the anchor stays fixed: `m41 = 200 − 2·50 = 100`,
  /// `m42 = 300 − 2·25 = 250`. The sublayer matrix of `P(500)` about anchor `(50, 25, 0)`:
  /// `T(−A)·P·T(A)` has `m34 = −1/500` and, from row 3, `m31 = m34·50 = −0.1`, `m32 = −0.05`;
  /// row 4 is `(−50, −25, 0, 1)·P·T(A)` = `(−50 + 50, −25 + 25, 0, 1)` = `(0, 0, 0, 1)`.
  @Test func handWorkedLayerMatrices() throws {
    let plain = Layer(
      id: "a", bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 200, y: 300))
    var scaled = plain
    scaled.transform = .makeScale(x: 2, y: 2, z: 1)
    var perspective = plain
    perspective.sublayerTransform = .makePerspective(distance: 500)
    let own = try Self.layerMatrices([plain, scaled], kind: .inSuperlayer)
    #expect(planarTransform(own, stride: 2, index: 0) == .makeTranslation(x: 150, y: 275, z: 0))
    #expect(
      planarTransform(own, stride: 2, index: 1)
        == Transform3D.makeScale(x: 2, y: 2, z: 1).concatenating(
          .makeTranslation(x: 100, y: 250, z: 0)))
    let sub = try Self.layerMatrices([perspective], kind: .sublayer)
    let m = planarTransform(sub, stride: 1, index: 0)
    #expect(Float(m.m34) == Float(-1.0 / 500))
    #expect(Float(m.m31) == Float(-0.1))
    #expect(Float(m.m32) == Float(-0.05))
    #expect(m.m41 == 0 && m.m42 == 0 && m.m43 == 0 && m.m44 == 1)
  }

  /// Random layers (counts across block boundaries): each matrix within
  /// `2e-6·(1 + max |field|)` of ``Layer/matrixInSuperlayer`` / ``Layer/sublayerMatrix``, the
  /// bound scaled by the largest input magnitude as well (positions up to 300 points).
  @Test(arguments: [LayerMatrixKind.inSuperlayer, .sublayer])
  func layerMatricesMatchLayer(kind: LayerMatrixKind) throws {
    var r = S.Random(seed: 3)
    for count in [1, 15, 16, 17, 40] {
      let layers = (0..<count).map { S.randomLayer(&r, id: "l\($0)") }
      let out = try Self.layerMatrices(layers, kind: kind)
      for (j, layer) in layers.enumerated() {
        let reference = kind == .inSuperlayer ? layer.matrixInSuperlayer : layer.sublayerMatrix
        let batch = planarTransform(out, stride: count, index: j)
        let scale = 1 + Swift.max(reference.maxMagnitude, 500 * layer.transform.maxMagnitude)
        #expect(InterpolationTestSupport.maxDifference(batch, reference) <= 2e-6 * scale)
      }
    }
  }

  static func layerJobError(propertiesCount: Int, outputCount: Int, count: Int, stride: Int)
    -> ValidationError?
  {
    let p = [Float](repeating: 0, count: propertiesCount)
    var o = [Float](repeating: 0, count: outputCount)
    return p.withUnsafeBufferPointer { p in
      o.withUnsafeMutableBufferPointer { o in
        do throws(ValidationError) {
          try LayerMatrixEvaluationJob(properties: p, output: o, count: count, stride: stride)
            .validate()
          return nil
        } catch { return error }
      }
    }
  }

  @Test func layerJobRejectsNegativeCount() {
    #expect(
      Self.layerJobError(propertiesCount: 43, outputCount: 16, count: -2, stride: 1)
        == ValidationError(field: "count", reason: .negative))
  }

  @Test func layerJobRejectsStrideBelowCount() {
    #expect(
      Self.layerJobError(propertiesCount: 430, outputCount: 160, count: 2, stride: 1)
        == ValidationError(field: "stride", reason: .outOfRange(lower: 2, upper: Double(Int.max))))
  }

  /// 43 planes, stride 2, 2 layers: `42·2 + 2 = 86` values.
  @Test func layerJobRejectsShortProperties() {
    #expect(
      Self.layerJobError(propertiesCount: 85, outputCount: 32, count: 2, stride: 2)
        == ValidationError(field: "properties", reason: .tooFew(minimum: 86, actual: 85)))
  }

  @Test func layerJobRejectsShortOutput() {
    #expect(
      Self.layerJobError(propertiesCount: 86, outputCount: 31, count: 2, stride: 2)
        == ValidationError(field: "output", reason: .tooFew(minimum: 32, actual: 31)))
  }

  @Test func packRejectsValueBeyondFloat() {
    let limit = Double(Float.greatestFiniteMagnitude)
    let far = Layer(id: "far", position: Point(x: 1e39, y: 0))
    #expect(
      throws: ValidationError(
        field: "layers", index: 1, reason: .outOfRange(lower: -limit, upper: limit))
    ) {
      try LayerPlanes.pack([Layer(id: "near"), far])
    }
  }

  @Test func packRejectsNonFiniteValue() {
    var bad = Layer(id: "bad")
    bad.anchorPointZ = .infinity
    #expect(throws: ValidationError(field: "layers", index: 0, reason: .notFinite)) {
      try LayerPlanes.pack([bad])
    }
  }
}
