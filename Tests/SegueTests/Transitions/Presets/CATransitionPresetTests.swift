import PropertyBased
import Segue
import Testing

/// The CATransition presets (the "traditional" way beside `slide-over`, the transition catalog):
/// layers **old** (content before) and **new** (content after); push and pop are the same. `q` is
/// the eased progress: linear by default (a CAAnimation with no timing function, transition
/// catalog: Default timing curves) over the default 0.25 s, so `q = t / 0.25`.
///
/// With the subtype's incoming direction `d` (on screen, y-down): from-right `(W, 0)`, from-left
/// `(−W, 0)`, from-top `(0, −H)` (enters from the top edge), from-bottom `(0, H)`:
/// - fade: both still; **old** opacity `1 − q`, **new** `q`, both blend "add"; order old, new;
/// - move-in: **new** at `(1 − q)·d` over a still **old**; order old, new;
/// - push: **new** at `(1 − q)·d`, **old** at `−q·d`; order old, new;
/// - reveal: **new** still underneath, **old** on top at `−q·d`; order new, old.
///
/// The linear rows are exact by hand: q = 0.25, 0.5, 0.75 at t = 0.0625, 0.125, 0.1875, and
/// q = 0.9996 at t = 0.2499 (just before the end), with W = 390, H = 844.
@Suite("Preset CATransition")
struct CATransitionPresetTests {
  typealias H = PresetsAHarness

  /// The incoming direction, written out independently of ``TransitionSubtype/offset(in:)``.
  static func direction(_ subtype: TransitionSubtype) -> (x: Double, y: Double) {
    switch subtype {
    case .fromRight: (390, 0)
    case .fromLeft: (-390, 0)
    case .fromTop: (0, -844)
    case .fromBottom: (0, 844)
    }
  }

  /// The expected layers of `preset` at eased progress `q` for incoming direction `d`.
  static func expected(
    _ preset: TransitionPreset, q: Double, d: (x: Double, y: Double)
  ) -> [ExpectedLayer] {
    let incoming = (x: (1 - q) * d.x, y: (1 - q) * d.y)
    let outgoing = (x: -q * d.x, y: -q * d.y)
    switch preset {
    case .caFade:
      return [
        ExpectedLayer(id: "old", x: 0, opacity: 1 - q, order: 0, blend: .add),
        ExpectedLayer(id: "new", x: 0, opacity: q, order: 1, blend: .add),
      ]
    case .caMoveIn:
      return [
        ExpectedLayer(id: "old", x: 0, order: 0),
        ExpectedLayer(id: "new", x: incoming.x, y: incoming.y, order: 1),
      ]
    case .caPush:
      return [
        ExpectedLayer(id: "old", x: outgoing.x, y: outgoing.y, order: 0),
        ExpectedLayer(id: "new", x: incoming.x, y: incoming.y, order: 1),
      ]
    default:  // .caReveal
      return [
        ExpectedLayer(id: "new", x: 0, order: 0),
        ExpectedLayer(id: "old", x: outgoing.x, y: outgoing.y, order: 1),
      ]
    }
  }

  static let presets: [TransitionPreset] = [.caFade, .caMoveIn, .caPush, .caReveal]
  static let operations: [TransitionOperation] = [.push, .pop]

  @Test(arguments: presets, operations)
  func defaultsAreFromRightOverAQuarterSecondLinear(
    preset: TransitionPreset, operation: TransitionOperation
  ) throws {
    let scene = try H.scene(preset, operation)
    #expect(scene.duration == 0.25)
    let d = Self.direction(.fromRight)
    // q = t / 0.25 exactly: (0, 0), (0.0625, 0.25), (0.125, 0.5), (0.1875, 0.75),
    // (0.2499, 0.9996). E.g. push from-right at q = 0.9996: new x = 0.0004·390 = 0.156,
    // old x = −389.844.
    for (t, q) in [(0.0, 0.0), (0.0625, 0.25), (0.125, 0.5), (0.1875, 0.75), (0.2499, 0.9996)] {
      try H.checkRunning(scene, at: t, Self.expected(preset, q: q, d: d), tolerance: 1e-9)
    }
    try H.checkCompleted(scene, toID: "new")
  }

  @Test(arguments: [TransitionPreset.caMoveIn, .caPush, .caReveal], TransitionSubtype.allCases)
  func everySubtypeMovesAlongItsEdge(preset: TransitionPreset, subtype: TransitionSubtype)
    throws
  {
    for operation in Self.operations {
      let scene = try H.scene(preset, operation, parameters: PresetParameters(subtype: subtype))
      let d = Self.direction(subtype)
      for (t, q) in [(0.0, 0.0), (0.0625, 0.25), (0.125, 0.5), (0.1875, 0.75), (0.2499, 0.9996)] {
        try H.checkRunning(scene, at: t, Self.expected(preset, q: q, d: d))
      }
      try H.checkCompleted(scene, toID: "new")
      try H.checkCancelled(scene, fromID: "old")
    }
  }

  /// Hand check of one from-top and one from-bottom sample, written out in full:
  /// at q = 0.25 (t = 0.0625), ca-push from-top has **new** at y = −(1 − 0.25)·844 = −633 and
  /// **old** at y = +0.25·844 = 211; from-bottom mirrors: new at +633, old at −211.
  @Test func fromTopEntersFromTheTopEdge() throws {
    let top = try H.scene(.caPush, .push, parameters: PresetParameters(subtype: .fromTop))
    try H.checkRunning(
      top, at: 0.0625,
      [
        ExpectedLayer(id: "old", x: 0, y: 211, order: 0),
        ExpectedLayer(id: "new", x: 0, y: -633, order: 1),
      ])
    let bottom = try H.scene(.caPush, .push, parameters: PresetParameters(subtype: .fromBottom))
    try H.checkRunning(
      bottom, at: 0.0625,
      [
        ExpectedLayer(id: "old", x: 0, y: -211, order: 0),
        ExpectedLayer(id: "new", x: 0, y: 633, order: 1),
      ])
  }

  /// The article's parameters: 0.5 s and ease-in-ease-out, q = e(t / 0.5) with e the Bézier
  /// (0.42, 0, 0.58, 1) from an independent mpmath bisection:
  /// e(0.25) = 0.12916193104731981165, e(0.5) = 0.5, e(0.75) = 0.87083806895268018835,
  /// e(0.9998) = 0.9999999244073545556 (t = 0.4999).
  @Test(arguments: presets, TransitionSubtype.allCases)
  func articleParametersUseHalfASecondEaseInEaseOut(
    preset: TransitionPreset, subtype: TransitionSubtype
  ) throws {
    let parameters = PresetParameters(
      subtype: subtype, caDuration: 0.5, caTimingFunction: .easeInEaseOut)
    let scene = try H.scene(preset, .push, parameters: parameters)
    #expect(scene.duration == 0.5)
    let d = Self.direction(subtype)
    let rows: [(t: Double, q: Double)] = [
      (0, 0),
      (0.125, 0.12916193104731981165),
      (0.25, 0.5),
      (0.375, 0.87083806895268018835),
      (0.4999, 0.9999999244073545556),
    ]
    for row in rows {
      try H.checkRunning(scene, at: row.t, Self.expected(preset, q: row.q, d: d))
    }
    try H.checkCompleted(scene, toID: "new")
  }

  /// After completion the surviving **new** is an ordinary "over" layer at opacity 1
  /// ("Layers after completion"), also for ca-fade whose layers blend "add" while running.
  @Test func fadeBlendsAddOnlyWhileRunning() throws {
    let scene = try H.scene(.caFade, .push)
    let running = try scene.sample(at: 0.125)
    #expect(running["old"]?.blend == .add)
    #expect(running["new"]?.blend == .add)
    for t in [0.25, 1.0] {
      let done = try scene.sample(at: t)
      #expect(done.layers.map(\.id) == ["new"])
      #expect(done["new"]?.blend == .over)
      #expect(done["new"]?.opacity == 1)
    }
  }

  @Test(arguments: presets, operations)
  func cancelLeavesOldAtItsStart(preset: TransitionPreset, operation: TransitionOperation)
    throws
  {
    try H.checkCancelled(try H.scene(preset, operation), fromID: "old")
  }

  /// For any t in [0, 0.25) (linear q = t / 0.25): the fade's two weights sum to 1, and push
  /// keeps **old** and **new** exactly one container apart along the subtype's axis.
  @Test func fadeWeightsSumToOneAndPushKeepsTheViewsAdjacent() async throws {
    let fade = try H.scene(.caFade, .push)
    let pushes = try TransitionSubtype.allCases.map {
      try H.scene(.caPush, .pop, parameters: PresetParameters(subtype: $0))
    }
    await propertyCheck(count: 150, input: Gen.double(in: 0...0.2499)) { t in
      let f = try fade.sample(at: t)
      let sum = (f["old"]?.opacity ?? .nan) + (f["new"]?.opacity ?? .nan)
      #expect(abs(sum - 1) <= 1e-12)
      #expect(abs((f["new"]?.opacity ?? .nan) - t / 0.25) <= 1e-12)
      for (subtype, scene) in zip(TransitionSubtype.allCases, pushes) {
        let s = try scene.sample(at: t)
        guard let old = s["old"], let new = s["new"] else {
          Issue.record("missing layer")
          return
        }
        let d = Self.direction(subtype)
        #expect(abs(new.matrix.m41 - old.matrix.m41 - d.x) <= 1e-9)
        #expect(abs(new.matrix.m42 - old.matrix.m42 - d.y) <= 1e-9)
      }
    }
  }
}
