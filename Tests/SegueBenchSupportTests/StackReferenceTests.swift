import PropertyBased
import Testing

@testable import Segue
@testable import SegueBenchSupport

/// `|a − b| ≤ tolerance · max(1, |b|)`: the workload's per-value comparison.
func stackClose(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool {
  abs(a - b) <= tolerance * max(1, abs(b))
}

/// Generation and the `Double` reference path of the `stack` workload against values computed
/// outside Swift.
@Suite("Stack workload: generation and Double reference")
struct StackReferenceTests {
  /// Independent draws by a Python script (Python integers for splitmix64, the key-value maps in
  /// Python floats) printed layer 0's s and tx keys, layer 1's rot keys and layer 39's opacity keys:
  ///   s_0 = 0.37078243938591166, tx = [-265.26989355600233, -172.69111840099185,
  ///   -121.53124111156272, -360.33646853860796]; rot_1 = [-1.4258782267503431,
  ///   1.7265132764974174, 1.057426425570861, -1.1222316265670123]; opacity_39 =
  ///   [0.056441856266257084, 0.22876245079527313, 0.187877122158836, 0.39857653722272335].
  @Test func generationMatchesIndependentSplitMix64() throws {
    let batch = try StackBatch(count: 40)
    #expect(batch.startDouble[0] == 0.37078243938591166)
    let tx0 = (0..<4).map { batch.keysDouble[$0 * 40 + 0] }
    #expect(
      tx0 == [-265.26989355600233, -172.69111840099185, -121.53124111156272, -360.33646853860796])
    let rot1 = (0..<4).map { batch.keysDouble[(16 + $0) * 40 + 1] }
    #expect(
      rot1 == [-1.4258782267503431, 1.7265132764974174, 1.057426425570861, -1.1222316265670123])
    let opacity39 = (0..<4).map { batch.keysDouble[(20 + $0) * 40 + 39] }
    #expect(
      opacity39 == [
        0.056441856266257084, 0.22876245079527313, 0.187877122158836, 0.39857653722272335,
      ])
    // Not drawn: d_j = [0.2, 0.35, 0.5][j mod 3], curve j mod 4; Float copies round once.
    #expect(batch.durationDouble[0...5] == [0.2, 0.35, 0.5, 0.2, 0.35, 0.5])
    #expect(batch.curveIndex[0...5] == [0, 1, 2, 3, 0, 1])
    #expect(batch.start(7) == Float(batch.startDouble[7]))
    #expect(batch.duration(8) == Float(batch.durationDouble[8]))
    // keysDouble[123] is plane 3 (channel 0, key 3) of layer 3 (123 = 3·40 + 3).
    #expect(batch.key(channel: 0, key: 3, layer: 3) == Float(batch.keysDouble[123]))
  }

  /// The `Float` planes: stride `N` rounded up to 16 plus 16 (never a power of two bytes apart:
  /// 16 400 floats = 65 600 bytes at N = 16 384), 64-byte aligned, every value at
  /// `p·stride + j`, padding layers `s = 0`, `d = 1`, keys 0.
  @Test func floatPlanesArePaddedAndAligned() throws {
    #expect(StackBatch.paddedStride(count: 16_384) == 16_400)
    #expect(StackBatch.paddedStride(count: 1) == 32)
    #expect(StackBatch.paddedStride(count: 33) == 64)
    let batch = try StackBatch(count: 37)
    #expect(batch.planeStride == 64)
    batch.withFloatPlanes { planes in
      #expect(Int(bitPattern: planes) % 64 == 0)
      for j in 0..<37 {
        #expect(planes[j] == Float(batch.startDouble[j]))
        #expect(planes[64 + j] == Float(batch.durationDouble[j]))
        for p in 0..<24 {
          #expect(planes[(2 + p) * 64 + j] == Float(batch.keysDouble[p * 37 + j]))
        }
      }
      for j in 37..<64 {
        #expect(planes[j] == 0 && planes[64 + j] == 1)
        #expect((0..<24).allSatisfy { planes[(2 + $0) * 64 + j] == 0 })
      }
    }
  }

  /// Layer j does not depend on N: the stream is drawn layer by layer.
  @Test func layersDoNotDependOnCount() throws {
    let small = try StackBatch(count: 3)
    let large = try StackBatch(count: 50)
    for c in 0..<24 {
      for j in 0..<3 { #expect(small.keysDouble[c * 3 + j] == large.keysDouble[c * 50 + j]) }
    }
  }

  /// The workload's reference values: checksum of N = 1000 at t = 0.3 is 5.785360807820e+05 (an
  /// independent float64 computation), to 1e-9 relative.
  @Test func referenceChecksumAtThousand() throws {
    let batch = try StackBatch(count: 1000)
    let sum = try batch.referenceChecksum(time: 0.3)
    #expect(abs(sum - 5.785360807820e+05) <= 1e-9 * 5.785360807820e+05)
  }

  /// Layer 0 at t = 0.3 as the workload definition prints it, each value to 1e-9·max(1, |b|).
  @Test func referenceLayerZeroMatchesWorkload() throws {
    let batch = try StackBatch(count: 4)
    let expected: [Double] = [
      1.0196053649324162, -0.028844950485715969, 0, 0, 0.028844950485715969, 1.0196053649324162,
      0, 0, -0.39, -0.844, 1, -0.002, -295.12791058646337, 588.92063535240823,
      35.544619906840438, 0.92891076018631913, 0.073053769103464838,
    ]
    let got = batch.referenceLayer(0, time: 0.3).values
    #expect(got.count == 17)
    for k in 0..<17 { #expect(stackClose(got[k], expected[k], 1e-9), "value \(k)") }
  }

  /// More layers (all four curves, several segments and times) against an independent script:
  /// mpmath at 40 digits, bezier inverted by 140 bisections, Catmull–Rom by the workload's
  /// formula, M as the explicit product T(−a)·S·Rz·T·P·T(a) of mpmath 4×4 matrices.
  @Test(arguments: [
    (
      1, 0.3,
      [
        0.29477626607672066, 0.95455976033098101, 0, 0, -0.95455976033098101, 0.29477626607672066,
        0, 0, -0.39, -0.844, 1, -0.002, 932.04977840433353, 487.57914044531577,
        -125.31233334870942, 1.2506246666974188, 0.44348205647860959,
      ]
    ),
    (
      2, 0.3,
      [
        0.62658652629420284, 0.017003266255092555, 0, 0, -0.017003266255092555,
        0.62658652629420284, 0, 0, -0.39, -0.844, 1, -0.002, -128.25843431179245,
        735.33613500607686, -126.38610381376146, 1.2527722076275229, 0.47191890201291673,
      ]
    ),
    (
      3, 0.3,
      [
        -0.64814219398722996, -1.184348251925689, 0, 0, 1.184348251925689, -0.64814219398722996,
        0, 0, -0.39, -0.844, 1, -0.002, -519.52516926245037, 45.043318409674373,
        72.610832582535039, 0.85477833483492992, 0.67207228126947816,
      ]
    ),
    (
      5, 0.45,
      [
        -1.141160627081149, -0.68181478207216689, 0, 0, 0.68181478207216689, -1.141160627081149,
        0, 0, -0.39, -0.844, 1, -0.002, 45.385257954659341, 692.01214792279175,
        60.398564474856817, 0.87920287105028637, 0.7493918895942356,
      ]
    ),
    (
      6, 0.45,
      [
        0.88809712805623072, -0.61507108487558506, 0, 0, 0.61507108487558506, 0.88809712805623072,
        0, 0, -0.39, -0.844, 1, -0.002, 23.291424224802141, 35.550087190096869,
        66.509059673000196, 0.86698188065399961, 0.38493105911684472,
      ]
    ),
    (
      11, 0.6,
      [
        0.5385109225550574, 1.1156320209524435, 0, 0, -1.1156320209524435, 0.5385109225550574, 0,
        0, -0.39, -0.844, 1, -0.002, 702.00264848170279, 515.74419251477947, 46.545787384487782,
        0.90690842523102444, 0.31188554890128812,
      ]
    ),
    (
      38, 0.2,
      [
        0.56446819665199119, 0.48280363490514521, 0, 0, -0.48280363490514521,
        0.56446819665199119, 0, 0, -0.39, -0.844, 1, -0.002, 629.06968072908488,
        -184.87185115220654, 78.206559798161948, 0.8435868804036761, 0.07874046909178356,
      ]
    ),
  ])
  func referenceMatchesMpmath(layer: Int, time: Double, expected: [Double]) throws {
    let batch = try StackBatch(count: 40)
    let got = batch.referenceLayer(layer, time: time).values
    for k in 0..<17 { #expect(stackClose(got[k], expected[k], 1e-9), "value \(k)") }
  }

  /// The reference solver: `|X(s) − x| ≤ 1e-12` for x in [0, 1] on the four curves, and the end
  /// points exactly (X(0) = 0, X(1) = 1).
  @Test func referenceSolverResidual() async {
    #expect(StackBatch.curves[0].parameter(forX: 0) == 0)
    #expect(StackBatch.curves[0].parameter(forX: 1) == 1)
    await propertyCheck(count: 200, input: Gen.double(in: 0...1), Gen.int(in: 0...3)) { x, c in
      let curve = StackBatch.curves[c]
      let s = curve.parameter(forX: x)
      #expect(s >= 0 && s <= 1)
      #expect(abs(curve.sampleX(s) - x) <= 1e-12)
    }
  }

  /// `count` must be in 1…maximumCount; `time` must be finite; reference output size and range.
  @Test func rejectsZeroCount() {
    #expect(throws: ValidationError(field: "count", reason: .notPositive)) {
      try StackBatch(count: 0)
    }
  }

  @Test func rejectsNegativeCount() {
    #expect(throws: ValidationError(field: "count", reason: .notPositive)) {
      try StackBatch(count: -5)
    }
  }

  @Test func rejectsHugeCount() {
    #expect(
      throws: ValidationError(
        field: "count", reason: .outOfRange(lower: 1, upper: Double(StackBatch.maximumCount)))
    ) { try StackBatch(count: StackBatch.maximumCount + 1) }
  }

  @Test func referenceChecksumRejectsNaNTime() throws {
    let batch = try StackBatch(count: 2)
    #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
      try batch.referenceChecksum(time: .nan)
    }
  }

  @Test func evaluateReferenceRejectsShortOutput() throws {
    let batch = try StackBatch(count: 2)
    var out = [Double](repeating: 0, count: 33)
    _ = out.withUnsafeMutableBufferPointer { buffer in
      #expect(throws: ValidationError(field: "output", reason: .tooFew(minimum: 34, actual: 33))) {
        try batch.evaluateReference(time: 0.3, range: 0..<2, into: buffer)
      }
    }
  }

  @Test func evaluateReferenceRejectsRangePastEnd() throws {
    let batch = try StackBatch(count: 2)
    var out = [Double](repeating: 0, count: 51)
    _ = out.withUnsafeMutableBufferPointer { buffer in
      #expect(throws: ValidationError(field: "range", reason: .outOfRange(lower: 0, upper: 2))) {
        try batch.evaluateReference(time: 0.3, range: 0..<3, into: buffer)
      }
    }
  }

  @Test func evaluateReferenceWritesInterleavedValues() throws {
    let batch = try StackBatch(count: 3)
    var out = [Double](repeating: 0, count: 51)
    try out.withUnsafeMutableBufferPointer { buffer in
      try batch.evaluateReference(time: 0.3, range: 0..<3, into: buffer)
    }
    #expect(Array(out[17..<34]) == batch.referenceLayer(1, time: 0.3).values)
  }
}
