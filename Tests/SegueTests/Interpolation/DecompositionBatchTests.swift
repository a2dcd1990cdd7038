import PropertyBased
import RealModule
import Testing

@testable import Segue

@Suite("DecompositionBatch: SIMD interpolation by decomposition")
struct DecompositionBatchTests {
  typealias S = BatchTestSupport

  /// The documented tolerance: `2e-6·(1 + max |mᵢⱼ|)` of the reference matrix (measured worst: about
  /// `1.9e-7·(1 + max |mᵢⱼ|)` on these pairs).
  static func tolerance(_ reference: Transform3D) -> Double { 2e-6 * (1 + reference.maxMagnitude) }

  /// A random affine transform: scale (negative in 20% of the draws, a flip), rotation about z,
  /// a shear in 30%, translation.
  static func randomAffine(_ r: inout S.Random) -> Transform3D {
    var sx = r.uniform(0.3, 2)
    if r.chance(0.2) { sx = -sx }
    var m = Transform3D.makeScale(x: sx, y: r.uniform(0.3, 2), z: 1)
    if r.chance(0.3) {
      m = InterpolationTestSupport.shear(row: 2, column: 1, r.uniform(-1, 1)).concatenating(m)
    }
    return m.concatenating(.makeRotation(by: r.uniform(-3.1, 3.1), x: 0, y: 0, z: 1))
      .concatenating(.makeTranslation(x: r.uniform(-200, 200), y: r.uniform(-200, 200), z: 0))
  }

  /// A random pair: 3D (translate / scale / rotate about a random axis / perspective) in half the
  /// draws, affine in 35%, an identical pair in 5% (slerp's equal-ends case), a near-identical 3D
  /// pair in 5% (its normalised-lerp case), singular (discrete) in 5%.
  static func randomPair(_ r: inout S.Random) -> (Transform3D, Transform3D) {
    let kind = r.uniform(0, 1)
    if kind < 0.5 {
      return (
        S.randomTransform(&r, perspective: r.chance(0.5)),
        S.randomTransform(&r, perspective: r.chance(0.5))
      )
    } else if kind < 0.85 {
      return (randomAffine(&r), randomAffine(&r))
    } else if kind < 0.9 {
      let m = S.randomTransform(&r, perspective: true)
      return (m, m)
    } else if kind < 0.95 {
      let m = S.randomTransform(&r, perspective: false)
      return (m, Transform3D.makeRotation(by: 2e-7, x: 1, y: 0, z: 0).concatenating(m))
    }
    return (.makeScale(x: 0, y: 1, z: 1), S.randomTransform(&r, perspective: false))
  }

  /// Runs the job over all layers.
  static func run(_ batch: DecompositionBatch, _ fractions: [Float], stride: Int, fill: Float = 0)
    throws(ValidationError) -> [Float]
  {
    var out = [Float](repeating: fill, count: 16 * stride)
    var failure: ValidationError?
    fractions.withUnsafeBufferPointer { f in
      out.withUnsafeMutableBufferPointer { o in
        do throws(ValidationError) {
          try DecompositionInterpolationJob(batch: batch, fractions: f, output: o, stride: stride)
            .run()
        } catch { failure = error }
      }
    }
    if let failure { throw failure }
    return out
  }

  /// Hand-worked values.
  ///
  /// * 2D: `Rz(0) → Rz(π/2)` at `t = 0.5` is `Rz(π/4)`: `m11 = m22 = cos(π/4) = √2/2 ≈
  ///   0.70710678`, `m12 = −m21 = sin(π/4)`; the 0 end becomes 2π by the angle rules and
  ///   `|2π − π/2| > π` moves it to 0 again, so the lerp is π/4.
  /// * 3D: `I → Rx(π/2)` (not affine) at `t = 0.5`: slerp of `(0, 0, 0, 1)` and
  ///   `(sin π/4, 0, 0, cos π/4)` halfway is `(sin π/8, 0, 0, cos π/8)`, i.e. `Rx(π/4)`: `m22 = m33 =
  ///   √2/2`, `m23 = −m32 = √2/2`.
  /// * Discrete: `S(0, 1, 1)` (singular) → `T(5, 0, 0)`: `t = 0.3` gives the start, `t = 0.5` the end.
  @Test func handWorked() throws {
    let h = 0.5.squareRoot()
    let batch = try DecompositionBatch(
      from: [.identity, .identity, .makeScale(x: 0, y: 1, z: 1), .makeScale(x: 0, y: 1, z: 1)],
      to: [
        .makeRotation(by: .pi / 2, x: 0, y: 0, z: 1), .makeRotation(by: .pi / 2, x: 1, y: 0, z: 0),
        .makeTranslation(x: 5, y: 0, z: 0), .makeTranslation(x: 5, y: 0, z: 0),
      ])
    #expect(batch.paths == [.affine2D, .decomposed3D, .discrete, .discrete])
    let out = try Self.run(batch, [0.5, 0.5, 0.3, 0.5], stride: 4)
    let rz = planarTransform(out, stride: 4, index: 0)
    let rx = planarTransform(out, stride: 4, index: 1)
    let e = 1e-6
    #expect(
      abs(rz.m11 - h) < e && abs(rz.m12 - h) < e && abs(rz.m21 + h) < e && abs(rz.m22 - h) < e)
    #expect(rz.m33 == 1 && rz.m44 == 1 && rz.m13 == 0 && rz.m41 == 0)
    #expect(
      abs(rx.m22 - h) < e && abs(rx.m23 - h) < e && abs(rx.m32 + h) < e && abs(rx.m33 - h) < e)
    #expect(abs(rx.m11 - 1) < e && abs(rx.m44 - 1) < e)
    #expect(planarTransform(out, stride: 4, index: 2) == .makeScale(x: 0, y: 1, z: 1))
    #expect(planarTransform(out, stride: 4, index: 3) == .makeTranslation(x: 5, y: 0, z: 0))
  }

  /// Random mixed batches (every path in the same blocks), fractions in `[−0.5, 1.5]` with exact
  /// 0, 0.5 and 1 mixed in: each matrix within ``tolerance(_:)`` of
  /// `Transform3D.interpolate(from, to, fraction: Double(t))`, the paths equal to
  /// ``TransformInterpolator``'s, and the padding past each plane untouched.
  @Test func randomPairsMatchScalarInterpolation() throws {
    var r = S.Random(seed: 2024)
    var worst = 0.0
    for count in [1, 7, 16, 17, 31, 64, 100] {
      let pairs = (0..<count).map { _ in Self.randomPair(&r) }
      let fractions: [Float] = (0..<count).map { j in
        switch j % 7 {
        case 0: 0
        case 1: 1
        case 2: 0.5
        default: Float(r.uniform(-0.5, 1.5))
        }
      }
      let batch = try DecompositionBatch(from: pairs.map(\.0), to: pairs.map(\.1))
      let stride = count + 5
      let out = try Self.run(batch, fractions, stride: stride, fill: -42)
      for (j, (a, b)) in pairs.enumerated() {
        #expect(batch.paths[j] == TransformInterpolator(from: a, to: b).path)
        let reference = Transform3D.interpolate(a, b, fraction: Double(fractions[j]))
        let value = planarTransform(out, stride: stride, index: j)
        let error = InterpolationTestSupport.maxDifference(value, reference)
        worst = max(worst, error / Self.tolerance(reference))
        #expect(
          error <= Self.tolerance(reference), "layer \(j) path \(batch.paths[j]) t \(fractions[j])")
      }
      for k in 0..<16 {
        for j in count..<stride { #expect(out[k * stride + j] == -42) }
      }
    }
    #expect(worst > 0)  // the comparison ran on non-trivial values
  }

  /// Property: for any fraction, the 3D path's rotation block of a pure-rotation pair stays
  /// orthonormal (rows of unit length within 1e-5), as slerp keeps unit quaternions.
  @Test func rotationStaysOrthonormal() async {
    await propertyCheck(count: 150, input: Gen.int(in: 0...1_000_000), Gen.double(in: -1...2)) {
      seed, t in
      var r = S.Random(seed: seed)
      let a = Transform3D.makeRotation(
        by: r.uniform(-3, 3), x: r.uniform(-1, 1), y: r.uniform(-1, 1), z: 1)
      let b = Transform3D.makeRotation(
        by: r.uniform(-3, 3), x: 1, y: r.uniform(-1, 1), z: r.uniform(-1, 1))
      guard let batch = try? DecompositionBatch(from: [a], to: [b]),
        let out = try? Self.run(batch, [Float(t)], stride: 1)
      else {
        #expect(Bool(false))
        return
      }
      let m = planarTransform(out, stride: 1, index: 0)
      for row in 0..<3 {
        let length = (0..<3).reduce(0.0) { $0 + m[row, $1] * m[row, $1] }
        #expect(abs(length - 1) < 1e-5)
      }
    }
  }

  /// A sub-range writes only its layers, with the same values as a full run.
  @Test func rangeWritesOnlyItsLayers() throws {
    var r = S.Random(seed: 5)
    let pairs = (0..<40).map { _ in Self.randomPair(&r) }
    let fractions = (0..<40).map { _ in Float(r.uniform(0, 1)) }
    let batch = try DecompositionBatch(from: pairs.map(\.0), to: pairs.map(\.1))
    let full = try Self.run(batch, fractions, stride: 40)
    var part = [Float](repeating: -1, count: 16 * 40)
    fractions.withUnsafeBufferPointer { f in
      part.withUnsafeMutableBufferPointer { o in
        try? DecompositionInterpolationJob(batch: batch, fractions: f, output: o, range: 5..<23)
          .run()
      }
    }
    for k in 0..<16 {
      for j in 0..<40 {
        #expect(part[k * 40 + j] == ((5..<23).contains(j) ? full[k * 40 + j] : -1))
      }
    }
  }

  /// An extrapolation that overflows `Float` takes the discrete rule: `T(−1e35) → T(1e35)` at
  /// `t = 1e4` has translation ≈ 2e39 > 3.4e38, so the result is the end `T(1e35)`.
  @Test func overflowFallsBackToDiscrete() throws {
    let batch = try DecompositionBatch(
      from: [.makeTranslation(x: -1e35, y: 0, z: 0)], to: [.makeTranslation(x: 1e35, y: 0, z: 0)])
    let out = try Self.run(batch, [1e4], stride: 1)
    #expect(
      planarTransform(out, stride: 1, index: 0) == S.rounded(.makeTranslation(x: 1e35, y: 0, z: 0)))
  }

  /// A decomposed component beyond `Float` demotes the pair to the discrete path.
  @Test func componentBeyondFloatIsDiscrete() throws {
    // m34 = 1e38 (a Float) over the linear part S(1e-10) (not singular: det = 1e-30 against
    // 1e-12·(1e-10)³): the perspective component is A⁻¹·r = 1e38/1e-10 = 1e48 > Float max.
    var from = Transform3D.makeScale(x: 1e-10, y: 1e-10, z: 1e-10)
    from.m34 = 1e38
    let batch = try DecompositionBatch(from: [from], to: [.identity])
    #expect(batch.paths == [.discrete])
    #expect(TransformInterpolator(from: from, to: .identity).path == .decomposed3D)
  }

  // MARK: Rejected inputs

  @Test func rejectsCountMismatch() {
    #expect(throws: ValidationError(field: "to", reason: .countMismatch(expected: 1, actual: 0))) {
      try DecompositionBatch(from: [.identity], to: [])
    }
  }

  @Test func rejectsNonFiniteFrom() {
    var bad = Transform3D.identity
    bad.m42 = .infinity
    #expect(throws: ValidationError(field: "from", index: 1, reason: .notFinite)) {
      try DecompositionBatch(from: [.identity, bad], to: [.identity, .identity])
    }
  }

  @Test func rejectsToBeyondFloat() {
    let limit = Double(Float.greatestFiniteMagnitude)
    #expect(
      throws: ValidationError(
        field: "to", index: 0, reason: .outOfRange(lower: -limit, upper: limit))
    ) {
      try DecompositionBatch(from: [.identity], to: [.makeScale(x: 1e40, y: 1, z: 1)])
    }
  }

  static func jobError(
    fractions: [Float] = [0.5, 0.5], outputCount: Int = 32, stride: Int = 2,
    range: Range<Int> = 0..<2
  ) -> ValidationError? {
    let batch = try! DecompositionBatch(from: [.identity, .identity], to: [.identity, .identity])
    var out = [Float](repeating: 0, count: outputCount)
    return fractions.withUnsafeBufferPointer { f in
      out.withUnsafeMutableBufferPointer { o in
        do throws(ValidationError) {
          try DecompositionInterpolationJob(
            batch: batch, fractions: f, output: o, stride: stride, range: range
          )
          .validate()
          return nil
        } catch { return error }
      }
    }
  }

  @Test func jobRejectsRange() {
    #expect(
      Self.jobError(range: 1..<3)
        == ValidationError(field: "range", reason: .outOfRange(lower: 0, upper: 2)))
  }

  @Test func jobRejectsStride() {
    #expect(
      Self.jobError(stride: 1)
        == ValidationError(field: "stride", reason: .outOfRange(lower: 2, upper: Double(Int.max))))
  }

  @Test func jobRejectsTooFewFractions() {
    #expect(
      Self.jobError(fractions: [0.5])
        == ValidationError(field: "fractions", reason: .tooFew(minimum: 2, actual: 1)))
  }

  @Test func jobRejectsShortOutput() {
    #expect(
      Self.jobError(outputCount: 31)
        == ValidationError(field: "output", reason: .tooFew(minimum: 32, actual: 31)))
  }

  @Test func jobRejectsNonFiniteFraction() {
    #expect(
      Self.jobError(fractions: [0.5, .nan])
        == ValidationError(field: "fractions", index: 1, reason: .notFinite))
  }

  @Test func jobRejectsFractionBeyondLimit() {
    #expect(
      Self.jobError(fractions: [-2e4, 0])
        == ValidationError(
          field: "fractions", index: 0, reason: .outOfRange(lower: -1e4, upper: 1e4)))
  }

  @Test func validJobPasses() {
    #expect(Self.jobError() == nil)
  }
}
