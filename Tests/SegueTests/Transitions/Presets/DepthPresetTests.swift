import PropertyBased
import Segue
import Testing

// Reference values for the depth preset, derived from the transition catalog, never from
// the code under test. W × H = 390 × 844, anchor (195, 422), d = 500, duration 2 s, ease-out.
//
// Ease-out is the Bézier (0, 0), (0.58, 1); python3 mpmath, 200 bisection steps on Bx(u) = p then
// By(u), printed e(0.25) = 0.3781381308251098, e(0.5) = 0.6846431874274607,
// e(0.75) = 0.90653534928117514 (t = 0.5, 1.0, 1.5 s).
//
// Decomposition by hand (CSS Transforms 2, CA storage, row vectors). With k = 1 − z/d,
//
//     M = T(0,0,z)·P(d) = [[1,0,0,0], [0,1,0,0], [0,0,1,−1/d], [0,0,z,k]]
//
// normalised (÷ k): the 3×3 part is (1/k)·I, so scale = (1/k, 1/k, 1/k), no skew, quaternion
// identity; translate = (0, 0, z/k); the perspective matrix is diag(1/k, 1/k, 1/k, 1) with
// m43 = z/k, and solving with the right-hand side (0, 0, −1/(dk), 1) gives
// perspective = (0, 0, −1/d, 1 + z/(dk)) = (0, 0, −1/d, 1/k). The identity decomposes to scale 1,
// translate 0, perspective (0, 0, 0, 1). So each end is four numbers (s, p3, p4, tz):
//
//     identity:    (1, 0, 1, 0)
//     T(0,0,z)P(d): (d/(d−z), −1/d, d/(d−z), z·d/(d−z))
//
// and the interpolated value at eased e lerps them. Recomposing (perspective column, then
// translation into row 4, then scale rows 1–3):
//
//     M(e) = [[s,0,0,0], [0,s,0,0], [0,0,s,s·p3], [0,0,tz, w]],   w = p4 + tz·p3,
//
// normalised by w. A bounds corner at (x, y) from the anchor maps to (s·x, s·y, tz, w), then
// T(195, 422, zPosition): screen (195 + s·x/w, 422 + s·y/w), depth tz/w + zPosition; the matrix
// to the container has m34/m44 = s·p3/w. At e = 0 and 1 the end matrices are returned unchanged:
// T(0,0,z)·P(d) scales a corner by d/(d − z) (500/650 for z = −150, 500/350 for z = +150).
//
// Cross-check: the same steps implemented generically in python3 mpmath (normalise; perspective
// from rhs·transpose(inverse(perspectiveMatrix)); translate; Gram–Schmidt rows for scale/skew;
// lerp; recompose; corners through T(−A)·M·T(195, 422, zPosition) with the divide) printed the
// corner literals below, which agree with the closed form.
enum DepthPresetReference {
  struct Corners: Sendable {
    /// Top-left (x, y, z) and bottom-right (x, y) in the container.
    var topLeft: (Double, Double, Double)
    var bottomRight: (Double, Double)
    /// m34 / m44 of the matrix to the container.
    var m34: Double
  }

  struct Row: Sendable, CustomTestStringConvertible {
    var operation: TransitionOperation
    var time: Double
    var eased: Double
    var from: Corners
    var to: Corners
    var testDescription: String { "\(operation) at \(time)" }
  }

  static let rows: [Row] = [
    Row(
      operation: .push, time: 0.5, eased: 0.3781381308251098,
      from: Corners(
        topLeft: (-10.855725644111432, -23.492903701615509, 373.61117985780163),
        bottomRight: (400.85572564411143, 867.49290370161551), m34: -0.00079837845450985557),
      to: Corners(
        topLeft: (18.40056044653217, 39.820700043264491, -375.87042486537853),
        bottomRight: (371.59943955346783, 804.17929995673551), m34: -0.0011263636674457184)),
    Row(
      operation: .push, time: 1.0, eased: 0.6846431874274607,
      from: Corners(
        topLeft: (-35.855223211784847, -77.594380489093362, 434.28377213429609),
        bottomRight: (425.85522321178485, 921.59438048909336), m34: -0.0016210610856819927),
      to: Corners(
        topLeft: (4.7099163843272678, 10.192742124031318, -338.29537906362592),
        bottomRight: (385.29008361567273, 833.80725787596868), m34: -0.00061547973572513372)),
    Row(
      operation: .push, time: 1.5, eased: 0.90653534928117514,
      from: Corners(
        topLeft: (-66.272996086253306, -143.42156076101997, 487.45078096542576),
        bottomRight: (456.27299608625331, 987.42156076101997), m34: -0.0024292636591260589),
      to: Corners(
        topLeft: (0.40094342810103768, 0.8676827008135277, -310.99945342059551),
        bottomRight: (389.59905657189896, 843.13231729918647), m34: -0.00018654495233543975)),
    Row(
      operation: .pop, time: 0.5, eased: 0.3781381308251098,
      from: Corners(
        topLeft: (6.8036841094520234, 14.723870226608994, -346.13484451389097),
        bottomRight: (383.19631589054798, 829.27612977339101), m34: -0.00072988926275921765),
      to: Corners(
        topLeft: (-29.359304854841355, -63.536546916631035, 421.05625475710913),
        bottomRight: (419.35930485484136, 907.53654691663104), m34: -0.0014309794531672889)),
    Row(
      operation: .pop, time: 1.0, eased: 0.6846431874274607,
      from: Corners(
        topLeft: (22.199201049426782, 48.041347912092831, -383.13969871772724),
        bottomRight: (367.80079895057322, 795.95865208790717), m34: -0.001213403997779818),
      to: Corners(
        topLeft: (-7.607260409637915, -16.462891758293334, 361.85309828263729),
        bottomRight: (397.60726040963791, 860.46289175829333), m34: -0.00065531876765987535)),
    Row(
      operation: .pop, time: 1.5, eased: 0.90653534928117514,
      from: Corners(
        topLeft: (37.71879516140528, 81.627341323656555, -406.68625273676024),
        bottomRight: (352.28120483859472, 762.37265867634344), m34: -0.0014623689432176361),
      to: Corners(
        topLeft: (-0.70446900882289681, -1.5245431883244228, 319.32635256175804),
        bottomRight: (390.7044690088229, 845.52454318832442), m34: -0.00018760461374382273)),
  ]
}

/// The depth preset: start transforms, zPositions and draw order, decomposed
/// perspective interpolation with ease-out, opacity, projected corners, completion and cancel.
@Suite("Depth preset")
struct DepthPresetTests {
  // MARK: - Helpers

  private static func scene(_ operation: TransitionOperation) throws -> TransitionScene {
    let animator = PresetAnimator(.depth)
    return try animator.animateTransition(
      using: animator.defaultContext(operation: operation, content: .bare))
  }

  /// Checks all four corners (top-left, top-right, bottom-right, bottom-left) of an axis-aligned
  /// projected quad given its top-left (x, y, z) and bottom-right (x, y); every corner has depth z.
  private static func expectCorners(
    _ layer: LayerSample?, topLeft: (Double, Double, Double), bottomRight: (Double, Double),
    tolerance: Double = 1e-9, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let layer else {
      Issue.record("layer missing", sourceLocation: sourceLocation)
      return
    }
    let (x0, y0, z) = topLeft
    let (x1, y1) = bottomRight
    let expected = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    #expect(layer.corners.count == 4, sourceLocation: sourceLocation)
    for (corner, (x, y)) in zip(layer.corners, expected) {
      let ok =
        abs(corner.point.x - x) <= tolerance && abs(corner.point.y - y) <= tolerance
        && abs(corner.z - z) <= tolerance && !corner.isBehindEye
      #expect(
        ok, "\(layer.id): \(corner) ≠ (\(x), \(y), \(z))", sourceLocation: sourceLocation)
    }
  }

  /// Ease-out `(0, 0), (0.58, 1)` at `p`, by bisection on the x polynomial (an independent
  /// evaluation for the property test; 80 halvings reach double precision).
  private static func easeOut(_ p: Double) -> Double {
    func bezier(_ a: Double, _ b: Double, _ u: Double) -> Double {
      3 * a * u * (1 - u) * (1 - u) + 3 * b * u * u * (1 - u) + u * u * u
    }
    var (lo, hi) = (0.0, 1.0)
    for _ in 0..<80 {
      let mid = (lo + hi) / 2
      if bezier(0, 0.58, mid) < p { lo = mid } else { hi = mid }
    }
    return bezier(0, 1, (lo + hi) / 2)
  }

  /// The closed form of the file comment: the decomposition parameters (s, p3, p4, tz) of
  /// `T(0, 0, z)·P(500)` (z = nil: the identity).
  private static func parameters(z: Double?) -> (Double, Double, Double, Double) {
    guard let z else { return (1, 0, 1, 0) }
    let f = 500 / (500 - z)
    return (f, -1.0 / 500, f, z * f)
  }

  /// Screen corners of a full-container layer whose transform is the lerp of the two ends at `e`.
  private static func closedForm(
    from a: Double?, to b: Double?, eased e: Double, zPosition: Double
  ) -> (topLeft: (Double, Double, Double), bottomRight: (Double, Double)) {
    let (pa, pb) = (parameters(z: a), parameters(z: b))
    let s = pa.0 + (pb.0 - pa.0) * e
    let p3 = pa.1 + (pb.1 - pa.1) * e
    let p4 = pa.2 + (pb.2 - pa.2) * e
    let tz = pa.3 + (pb.3 - pa.3) * e
    let w = p4 + tz * p3
    return (
      (195 - 195 * s / w, 422 - 422 * s / w, tz / w + zPosition),
      (195 + 195 * s / w, 422 + 422 * s / w)
    )
  }

  // MARK: - Start state

  @Test func pushStart() throws {
    let scene = try Self.scene(.push)
    #expect(scene.duration == 2)
    // zPosition: from +300, to −300 (push); they decide the draw order: to below from.
    #expect(scene.model[id: "from"]?.zPosition == 300)
    #expect(scene.model[id: "to"]?.zPosition == -300)
    let s = try scene.sample(at: 0)
    #expect(s.layers.count == 2)
    #expect(s["to"]?.order == 0 && s["from"]?.order == 1)
    // from: identity, so its bounds at depth +300.
    Self.expectCorners(s["from"], topLeft: (0, 0, 300), bottomRight: (390, 844))
    #expect(s["from"]?.opacity == 1)
    // to: T(0,0,−150)·P(500): a corner (±195, ±422) from the anchor is scaled by
    // 500/(500 + 150) = 10/13: x = 195 ∓ 150, y = 422 ∓ 324.615…; depth −150/1.3 − 300.
    Self.expectCorners(
      s["to"], topLeft: (45, 97.384615384615385, -415.38461538461538),
      bottomRight: (345, 746.61538461538462))
    #expect(s["to"]?.opacity == 0)
    // The end matrix itself, unnormalised: T(−195, −422, 0)·T(0, 0, −150)·P(500)·T(195, 422, −300).
    // Row 3 = (0, 0, 1, −0.002)·T = (195·−0.002, 422·−0.002, 1 + 300·0.002, −0.002);
    // row 4 = (−195, −422, −150, 1.3)·T = (−195 + 1.3·195, −422 + 1.3·422, −150 − 1.3·300, 1.3).
    let expected: [Double] = [
      1, 0, 0, 0, 0, 1, 0, 0, -0.39, -0.844, 1.6, -0.002, 58.5, 126.6, -540, 1.3,
    ]
    let fields = try #require(s["to"]).matrix.fields
    for (got, want) in zip(fields, expected) { #expect(abs(got - want) <= 1e-12) }
  }

  @Test func popStart() throws {
    let scene = try Self.scene(.pop)
    // reverse: from −300, to +300; from is sent to the back.
    #expect(scene.model[id: "from"]?.zPosition == -300)
    #expect(scene.model[id: "to"]?.zPosition == 300)
    let s = try scene.sample(at: 0)
    #expect(s["from"]?.order == 0 && s["to"]?.order == 1)
    Self.expectCorners(s["from"], topLeft: (0, 0, -300), bottomRight: (390, 844))
    // to: T(0,0,+150)·P(500) scales by 500/350 = 10/7: x = 195 ∓ 278.571…, depth 150/0.7 + 300.
    Self.expectCorners(
      s["to"], topLeft: (-83.571428571428571, -180.85714285714286, 514.28571428571429),
      bottomRight: (473.57142857142857, 1024.8571428571429))
    #expect(s["to"]?.opacity == 0)
    // Unnormalised end matrix: row 3 = (−0.39, −0.844, 1 − 300·0.002, −0.002),
    // row 4 = (−195 + 0.7·195, −422 + 0.7·422, 150 + 0.7·300, 0.7).
    let expected: [Double] = [
      1, 0, 0, 0, 0, 1, 0, 0, -0.39, -0.844, 0.4, -0.002, -58.5, -126.6, 360, 0.7,
    ]
    let fields = try #require(s["to"]).matrix.fields
    for (got, want) in zip(fields, expected) { #expect(abs(got - want) <= 1e-12) }
  }

  // MARK: - Interior

  @Test(arguments: DepthPresetReference.rows)
  func interior(row: DepthPresetReference.Row) throws {
    let s = try Self.scene(row.operation).sample(at: row.time)
    #expect(!s.isCompleted)
    #expect(abs(s.progress - row.time / 2) <= 1e-15)
    // Opacity: from 1 → 0, to 0 → 1 along ease-out.
    #expect(abs((s["from"]?.opacity ?? -1) - (1 - row.eased)) <= 1e-12)
    #expect(abs((s["to"]?.opacity ?? -1) - row.eased) <= 1e-12)
    // Draw order stays as at the start.
    let back = row.operation == .push ? "to" : "from"
    #expect(s[back]?.order == 0)
    for (id, reference) in [("from", row.from), ("to", row.to)] {
      Self.expectCorners(
        s[id], topLeft: reference.topLeft, bottomRight: reference.bottomRight)
      let matrix = try #require(s[id]).matrix
      #expect(abs(matrix.m34 / matrix.m44 - reference.m34) <= 1e-12, "\(id)")
    }
  }

  @Test func interpolationIsNotEntryByEntry() throws {
    // Entry by entry, from's m44 at e would be 1 + e·(0.7 − 1) and the corner scale 1/m44:
    // at t = 1 (e = 0.68464) that is 1.2585, while the decomposition gives
    // s/w = 1.18387 (python: m33 = 1.1838729395476146). The two differ by 0.07.
    let s = try Self.scene(.push).sample(at: 1)
    let from = try #require(s["from"])
    let scale = (from.corners[1].point.x - from.corners[0].point.x) / 390
    #expect(abs(scale - 1.1838729395476146) <= 1e-12)
    #expect(abs(scale - 1 / (1 - 0.3 * 0.6846431874274607)) > 0.05)
  }

  @Test func cornersFollowTheClosedFormAtAnyTime() async {
    // Property: at any time of either operation, both layers' corners match the hand-derived
    // closed form (file comment) with ease-out evaluated independently by bisection.
    await propertyCheck(count: 120, input: Gen.double(in: 0.001...1.999), Gen.bool) {
      time, push in
      let operation: TransitionOperation = push ? .push : .pop
      let s = try Self.scene(operation).sample(at: time)
      let e = Self.easeOut(time / 2)
      let (zFromEnd, zToStart) = push ? (150.0, -150.0) : (-150.0, 150.0)
      let (zpFrom, zpTo) = push ? (300.0, -300.0) : (-300.0, 300.0)
      let from = Self.closedForm(from: nil, to: zFromEnd, eased: e, zPosition: zpFrom)
      let to = Self.closedForm(from: zToStart, to: nil, eased: e, zPosition: zpTo)
      Self.expectCorners(s["from"], topLeft: from.topLeft, bottomRight: from.bottomRight)
      Self.expectCorners(s["to"], topLeft: to.topLeft, bottomRight: to.bottomRight)
      #expect(abs((s["to"]?.opacity ?? -1) - e) <= 1e-9)
    }
  }

  // MARK: - Completion

  @Test(arguments: [TransitionOperation.push, .pop])
  func finishedKeepsOnlyTo(operation: TransitionOperation) throws {
    // Finished: from removed; to at its model values: identity transform, opacity 1, its
    // zPosition (−300 on push, +300 on pop) kept, as UIKit leaves layer.zPosition.
    let s = try Self.scene(operation).sample(at: 2)
    #expect(s.isCompleted && !s.isCancelled)
    #expect(s.layers.map(\.id) == ["to"])
    let z = operation == .push ? -300.0 : 300.0
    Self.expectCorners(s["to"], topLeft: (0, 0, z), bottomRight: (390, 844), tolerance: 1e-12)
    #expect(s["to"]?.opacity == 1)
    #expect(s["to"]?.order == 0)
  }

  @Test(arguments: [TransitionOperation.push, .pop])
  func cancelledKeepsOnlyFrom(operation: TransitionOperation) throws {
    // Cancelled: the state at progress 0 (from untransformed and opaque), to removed.
    let layers = try Self.scene(operation).presentation(at: 1.2, completion: .cancelled)
      .evaluate()
    #expect(layers.map(\.id) == ["from"])
    let from = try #require(layers.first)
    #expect(from.opacity == 1)
    let z = operation == .push ? 300.0 : -300.0
    #expect(from.matrix == .makeTranslation(x: 0, y: 0, z: z))
  }
}
