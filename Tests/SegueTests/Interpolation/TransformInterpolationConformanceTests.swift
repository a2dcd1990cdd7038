import Segue
import Testing

/// Matrix interpolation against the browsers' conformance cases (web-platform-tests, CSS
/// Transforms: `matrix3d()` pairs with perspective), where Core Animation's decomposition and CSS
/// Transforms Level 2's coincide. The recomposed matrix is returned as it is: its `m44` is
/// `translation · perspective.xyz + perspective.w`, not divided out, so it can differ from 1 and be
/// negative, and the sign of every corner's `w` is the reference's.
///
/// Reference values: the suite's expected matrices (`skewFrom → skewTo`, four progresses), and
/// for the extrapolated pair an independent program (mpmath, 40 digits) that implements the
/// specification's decomposition, lerp, slerp and recomposition listings literally; that program
/// reproduces the suite's four expected matrices of the first pair to every printed digit before
/// it prints the second pair.
@Suite("TransformInterpolation conformance")
struct TransformInterpolationConformanceTests {
  typealias Support = InterpolationTestSupport

  /// `translate3d(8px, −4px, 12px) skewX(1rad) perspective(400px)` as a matrix.
  static let skewFrom = Support.matrix([
    1, 0, 0, 0, 1.5574077246549023, 1, 0, 0, -0.02, 0.01, 0.97, -0.0025, 8, -4, 12, 1,
  ])
  /// `scaleY(2) skewX(2rad) perspective(500px)` as a matrix.
  static let skewTo = Support.matrix([
    1, 0, 0, 0, -2.185039863261519, 2, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1,
  ])

  /// The suite's expected values of `skewFrom → skewTo` (progress, 16 fields).
  static let skewExpected: [(Double, [Double])] = [
    (
      -1,
      [
        1, 0, 0, 0, 0, 0, 0, 0, -0.03876288659793814, 0.01938144329896907, 0.94,
        -0.0029653608247422686, 16, -8, 24, 0.986144329896907,
      ]
    ),
    (
      0.25,
      [
        1, 0, 0, 0, 1.1186572632293585, 1.25, 0, 0, -0.0151159793814433, 0.00755798969072165,
        0.9775, -0.002378247422680413, 6, -3, 9, 1.0012989690721648,
      ]
    ),
    (
      0.75,
      [
        1, 0, 0, 0, -0.7525665307288518, 1.75, 0, 0, -0.005115979381443298,
        0.002557989690721649, 0.9924999999999999, -0.002128247422680412, 2, -1, 3,
        1.001298969072165,
      ]
    ),
    (
      2,
      [
        1, 0, 0, 0, -11.227342763749263, 3, 0, 0, 0.021237113402061854, -0.010618556701030927,
        1.03, -0.0014653608247422677, -8, 4, -12, 0.9861443298969074,
      ]
    ),
  ]

  /// A matrix whose recomposition at progress 2 towards the identity has `m44 < 0`.
  static let flipFrom = Support.matrix([
    0.571428571428571, -0.625, -0.8333333333333346, -0.66666666666669, 0.5, -0.1875, -0.8125,
    0.3125, 0.34375, -1, 0.8333333333333327, 1.34375, -1.34375, 1, -0.9375, 1,
  ])
  /// `flipFrom → identity` at progress 2, from the independent program.
  static let flipAtTwo = Support.matrix([
    0.39048513570444403, 0.1478079479706598, 0.69630681002173984, -4.8579078612393442,
    -2.9676827892847924, 0.60049787695843892, -3.5472376016872432, 26.675324787979903,
    -2.5953724498995311, 1.6280843851961386, 0.81638343105863666, 9.0017352565858152, 1.34375, -1,
    0.9375, -14.881239394516224,
  ])
  /// `w` of the unit square's corners TL (0, 0), TR (1, 0), BR (1, 1), BL (0, 1) through
  /// ``flipAtTwo``: `w = u·m14 + v·m24 + m44`.
  static let flipCornerW = [
    -14.881239394516224, -19.739147255755568, 6.9361775322243347, 11.794085393463679,
  ]

  /// `cubic-bezier(0, 2.5, 1, 2.5)` reaches progress 2 at input 0.5 (x(½) = ½, y(½) = 2).
  static let overshoot = TimingFunction.cubicBezier(
    try! CubicBezier(x1: 0, y1: 2.5, x2: 1, y2: 2.5))

  /// Largest field difference relative to `1 + max |expected|`.
  static func relativeError(_ m: Transform3D, _ expected: Transform3D) -> Double {
    Support.maxDifference(m, expected) / (1 + expected.fields.map(abs).max()!)
  }

  @Test func perspectiveSkewPairMatchesTheSuite() throws {
    let interpolator = TransformInterpolator(from: Self.skewFrom, to: Self.skewTo)
    #expect(interpolator.path == .decomposed3D)
    for (progress, fields) in Self.skewExpected {
      let value = try interpolator.value(at: progress)
      let expected = Support.matrix(fields)
      #expect(Self.relativeError(value, expected) < 1e-13, "at \(progress): \(value)")
    }
    // The numbers: m22 = 1.25 and m41…m44 = 6, −3, 9, 1.001299 at 0.25.
    let quarter = try interpolator.value(at: 0.25)
    #expect(abs(quarter.m22 - 1.25) < 1e-14 && abs(quarter.m44 - 1.0012989690721648) < 1e-14)
    #expect([quarter.m41, quarter.m42, quarter.m43] == [6, -3, 9])
  }

  @Test func negativeM44KeepsTheSignOfEveryW() throws {
    let value = try TransformInterpolation.interpolate(
      from: Self.flipFrom, to: .identity, fraction: 2
    ).value
    #expect(Self.relativeError(value, Self.flipAtTwo) < 1e-12, "\(value)")
    #expect(value.m44 < -14.8)
    let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map {
      value.project(Vector3(x: $0.0, y: $0.1, z: 0))
    }
    for (corner, w) in zip(corners, Self.flipCornerW) {
      #expect(abs(corner.w - w) < 1e-11 * abs(w))
      #expect(corner.isBehindEye == (w < 0))
    }
  }

  /// The `Float` batch kernel: both cases in one batch.
  @Test func batchKernelReturnsTheRecomposedMatrix() throws {
    let batch = try DecompositionBatch(
      from: [Self.skewFrom, Self.flipFrom], to: [Self.skewTo, .identity])
    let result = try batch.interpolated(at: [0.25, 2])
    let expected = [Support.matrix(Self.skewExpected[1].1), Self.flipAtTwo]
    for (j, reference) in expected.enumerated() {
      let value = try result.transform(at: j)
      #expect(Self.relativeError(value, reference) < 2e-6, "layer \(j): \(value)")
    }
    #expect(abs(try result.transform(at: 0).m44 - 1.0012989690721648) < 1e-6)
    #expect(abs(try result.transform(at: 1).m44 - Self.flipAtTwo.m44) < 1e-4)
  }

  /// Keyframe tracks in the linear mode interpolate transforms by decomposition too.
  @Test func keyframeTrackReturnsTheRecomposedMatrix() throws {
    let track = try KeyframeTrack(values: [Self.skewFrom, Self.skewTo, .identity])
    // Progress 0.125 of the track is progress 0.25 of its first segment.
    let value = track.value(at: 0.125)
    #expect(Self.relativeError(value, Support.matrix(Self.skewExpected[1].1)) < 1e-13)
    let flip = try KeyframeTrack(values: [Self.flipFrom, .identity])
    #expect(Self.relativeError(flip.value(at: 2), Self.flipAtTwo) < 1e-12)
  }

  /// A 1×1 layer whose matrix to the container is its transform (anchor and position at the
  /// origin), animated `flipFrom → identity` over 1 s with `cubic-bezier(0, 2.5, 1, 2.5)`, by a
  /// basic animation and by a two-value keyframe animation.
  static func flipScene(keyframes: Bool) throws -> TransitionScene {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "square", bounds: Rect(x: 0, y: 0, width: 1, height: 1), position: .zero,
        anchorPoint: .zero, transform: Self.flipFrom))
    if keyframes {
      try b.animate(
        .transform, of: "square",
        keyframes: .transforms(try KeyframeTrack(values: [Self.flipFrom, .identity])),
        duration: 1, timingParameters: Self.overshoot)
    } else {
      try b.animate(
        .transform, of: "square", to: .transform(.identity), duration: 1,
        timingParameters: .cubic(Self.overshoot))
    }
    return try b.scene(duration: 2, containerSize: Size(width: 10, height: 10))
  }

  @Test(arguments: [false, true])
  func scalarSceneProjectsCornersWithTheReferenceW(keyframes: Bool) throws {
    let scene = try Self.flipScene(keyframes: keyframes)
    let layer = try #require(try scene.sample(at: 0.5)["square"])
    // The solver's progress at 0.5 is 2 to about 1e-7, so the matrix is the reference to ~1e-5.
    #expect(Self.relativeError(layer.matrix, Self.flipAtTwo) < 1e-5, "\(layer.matrix)")
    for (corner, w) in zip(layer.corners, Self.flipCornerW) {
      #expect(corner.isBehindEye == (w < 0), "w \(corner.w), reference \(w)")
      #expect(abs(corner.w - w) < 1e-4 * abs(w))
    }
  }

  @Test(arguments: [false, true])
  func sceneBatchProjectsCornersWithTheReferenceW(keyframes: Bool) throws {
    let scene = try Self.flipScene(keyframes: keyframes)
    let batch = try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    let output = try SceneBatchTests.evaluate(batch, at: [0.5])
    let i = try #require(batch.layerIndex(instance: 0, layerID: "square"))
    let matrix = Support.matrix((0..<16).map { Double(output.matrices[16 * i + $0]) })
    #expect(Self.relativeError(matrix, Self.flipAtTwo) < 1e-4, "\(matrix)")
    for (c, w) in Self.flipCornerW.enumerated() {
      let batchW = Double(output.corners[16 * i + 4 * c + 3])
      #expect((batchW < 0) == (w < 0), "corner \(c): w \(batchW), reference \(w)")
      #expect(abs(batchW - w) < 1e-3 * abs(w))
    }
  }
}
