import Segue
import Testing

// Reference values for the hero preset, derived from the transition catalog, never from
// the code under test.
//
// Phase 1 of the push is UIView's duration-based spring (transition catalog: Duration-based
// springs): ζ = 0.75, D = 0.5 s, v0 = 1.0 /s, mass 1, ω0 = ln(1/(ε·√(1 − ζ²)))/(ζ·D) with ε =
// 0.001, ωd = ω0·√(1 − ζ²), and the underdamped closed form
//
//     x(t) = 1 − e^(−ζω0t)·[cos ωd·t + ((ζω0 − v0)/ωd)·sin ωd·t]
//
// (remaining fraction e(t) = 1 − x with e(0) = 1 and e'(0) = −v0). Evaluated with python3 mpmath
// at 40 digits:
//
//     w0 = log(1/(eps*sqrt(1-z*z)))/(z*D); wd = w0*sqrt(1-z*z)
//     x = lambda t: 1 - exp(-z*w0*t)*(cos(wd*t) + ((z*w0 - v0)/wd)*sin(wd*t))
//
// printed ω0 = 19.522918841531656, ωd = 12.913197030197494 and
//     x(0.1)  = 0.70137225987895902
//     x(0.25) = 1.027974713791039      (overshoot: opacities clamp)
//
// Phase 2, the cascade and the whole pop use ease-in-ease-out, the Bézier (0.42, 0), (0.58, 1),
// evaluated in mpmath by 200 bisection steps on Bx(u) = p, then By(u):
//     ease(0.25) = 0.12916193104731981
//     ease(1/3)  = 0.23177481630274865
//     ease(0.5)  = 0.5                  (the curve is symmetric about (0.5, 0.5))
//     ease(0.75) = 0.87083806895268019
private enum HeroReference {
  static let x010 = 0.70137225987895902
  static let x025 = 1.027974713791039
  static let ease025 = 0.12916193104731981
  static let ease033 = 0.23177481630274865
  static let ease050 = 0.5
  static let ease075 = 0.87083806895268019

  static let width = 390.0
  static let height = 844.0
}

/// The hero preset: push phases, cascade, event at 0.8 s, pop, completion, scene
/// parameters and their validation, all against the spec by hand and mpmath.
@Suite("Hero preset")
struct HeroPresetTests {
  private typealias R = HeroReference

  // MARK: - Helpers

  private static func scene(
    _ operation: TransitionOperation, hero: HeroScene = HeroScene()
  ) throws -> TransitionScene {
    let animator = PresetAnimator(.hero, parameters: PresetParameters(hero: hero))
    return try animator.animateTransition(
      using: animator.defaultContext(operation: operation, content: .bare))
  }

  /// The axis-aligned frame spanned by a layer's top-left and bottom-right corners.
  private static func frame(_ layer: LayerSample) -> Rect {
    let (a, c) = (layer.corners[0].point, layer.corners[2].point)
    return Rect(x: a.x, y: a.y, width: c.x - a.x, height: c.y - a.y)
  }

  private static func expectLayer(
    _ sample: TransitionSample, _ id: String, frame expected: Rect, opacity: Double,
    tolerance: Double = 1e-9, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard let layer = sample[id] else {
      Issue.record("\(id) missing at t = \(sample.time)", sourceLocation: sourceLocation)
      return
    }
    let got = frame(layer)
    let ok =
      abs(got.origin.x - expected.origin.x) <= tolerance
      && abs(got.origin.y - expected.origin.y) <= tolerance
      && abs(got.size.width - expected.size.width) <= tolerance
      && abs(got.size.height - expected.size.height) <= tolerance
    #expect(
      ok, "\(id) frame \(got) ≠ \(expected) at t = \(sample.time)", sourceLocation: sourceLocation)
    #expect(
      abs(layer.opacity - opacity) <= tolerance,
      "\(id) opacity \(layer.opacity) ≠ \(opacity) at t = \(sample.time)",
      sourceLocation: sourceLocation)
  }

  private static func ids(_ sample: TransitionSample) -> Set<String> {
    Set(sample.layers.map(\.id))
  }

  private static func order(_ sample: TransitionSample, _ id: String) -> Int {
    sample[id]?.order ?? -1
  }

  private static let cells = (0..<5).map { "cell\($0)" }

  /// Cell i of the default post view: `(0, 240 + i·100, W, 100)`.
  private static func cellFrame(_ i: Int) -> Rect {
    Rect(x: 0, y: 240 + Double(i) * 100, width: R.width, height: 100)
  }

  /// Phase 1 of the push at spring progress `x` (the spec's lines, by hand):
  /// title opacity `1 − x`, table y `100 + 120·x` (height H − 100 = 744),
  /// image frame `(0, 340, W, 120) → (0, 0, W, 240)`: its centre y `400 → 120` and height
  /// `120 → 240`, so minY = `400 − 280x − (120 + 120x)/2 = 340 − 340x`; opacity `x`;
  /// to opacity `x`. Presented opacities are clamped to [0, 1].
  private static func expectPhase1(
    _ sample: TransitionSample, x: Double, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let clamp = { (v: Double) in min(max(v, 0), 1) }
    let to = clamp(x)
    expectLayer(
      sample, "from", frame: Rect(x: 0, y: 0, width: R.width, height: R.height), opacity: 1,
      sourceLocation: sourceLocation)
    expectLayer(
      sample, "title", frame: Rect(x: 0, y: 44, width: R.width, height: 56),
      opacity: clamp(1 - x), sourceLocation: sourceLocation)
    expectLayer(
      sample, "table", frame: Rect(x: 0, y: 100 + 120 * x, width: R.width, height: 744),
      opacity: 1, sourceLocation: sourceLocation)
    expectLayer(
      sample, "image", frame: Rect(x: 0, y: 340 - 340 * x, width: R.width, height: 120 + 120 * x),
      opacity: clamp(x), sourceLocation: sourceLocation)
    expectLayer(
      sample, "to", frame: Rect(x: 0, y: 0, width: R.width, height: R.height), opacity: to,
      sourceLocation: sourceLocation)
    // Phase 2 has not begun: header 0, back offset by −70 (x = 16 − 70), cells 0 (each times
    // the post view's opacity).
    expectLayer(
      sample, "header", frame: Rect(x: 0, y: 0, width: R.width, height: 240), opacity: 0,
      sourceLocation: sourceLocation)
    expectLayer(
      sample, "back", frame: Rect(x: -54, y: 52, width: 44, height: 44), opacity: to,
      sourceLocation: sourceLocation)
    for i in 0..<5 {
      expectLayer(
        sample, "cell\(i)", frame: cellFrame(i), opacity: 0, sourceLocation: sourceLocation)
    }
  }

  // MARK: - Push

  @Test func pushDurationAndDrawOrder() throws {
    let animator = PresetAnimator(.hero)
    let context = try animator.defaultContext(operation: .push, content: .bare)
    // 0.8 + 0.2·cellCount with the default 5 cells.
    #expect(abs(animator.transitionDuration(using: context) - 1.8) <= 1e-12)
    let scene = try animator.animateTransition(using: context)
    #expect(abs(scene.duration - 1.8) <= 1e-12)
    let s = try scene.sample(at: 0.25)
    // One depth-first walk: from, its title and table; to, header, back, cell0…4; image on top.
    let expected = ["from", "title", "table", "to", "header", "back"] + Self.cells + ["image"]
    for (position, id) in expected.enumerated() {
      #expect(Self.order(s, id) == position, "\(id)")
    }
    #expect(s.layers.count == expected.count)
  }

  @Test func pushStart() throws {
    let s = try Self.scene(.push).sample(at: 0)
    #expect(!s.isCompleted)
    #expect(s.progress == 0)
    Self.expectPhase1(s, x: 0)
  }

  @Test func pushSpringMidway() throws {
    // x(0.1) = 0.70137…: title 0.29863, table y 184.16, image (0, 101.53, W, 204.16).
    Self.expectPhase1(try Self.scene(.push).sample(at: 0.1), x: R.x010)
  }

  @Test func pushSpringOvershootIsExtrapolatedAndOpacityClamped() throws {
    // x(0.25) = 1.02797…: the table passes 220 (223.357), the image grows past the header
    // (height 243.357, minY −9.511), title opacity 1 − x < 0 clamps to 0, image and to clamp to 1.
    let s = try Self.scene(.push).sample(at: 0.25)
    Self.expectPhase1(s, x: R.x025)
    #expect(s["title"]?.opacity == 0)
    #expect(s["image"]?.opacity == 1)
  }

  @Test func pushEndOfPhase1ShowsTargets() throws {
    // From D = 0.5 on, the spring animations show their targets; phase 2 begins (ease(0) = 0).
    let s = try Self.scene(.push).sample(at: 0.5)
    Self.expectLayer(s, "title", frame: Rect(x: 0, y: 44, width: R.width, height: 56), opacity: 0)
    Self.expectLayer(s, "table", frame: Rect(x: 0, y: 220, width: R.width, height: 744), opacity: 1)
    Self.expectLayer(s, "image", frame: Rect(x: 0, y: 0, width: R.width, height: 240), opacity: 1)
    Self.expectLayer(s, "to", frame: Rect(x: 0, y: 0, width: R.width, height: R.height), opacity: 1)
    Self.expectLayer(s, "header", frame: Rect(x: 0, y: 0, width: R.width, height: 240), opacity: 0)
    Self.expectLayer(s, "back", frame: Rect(x: -54, y: 52, width: 44, height: 44), opacity: 1)
  }

  @Test(arguments: [(0.6, HeroReference.ease033), (0.65, HeroReference.ease050)])
  func pushPhase2(time: Double, eased: Double) throws {
    // Phase 2 over [0.5, 0.8), ease-in-ease-out: header opacity e, back x = 16 − 70 + 70·e.
    // t = 0.6 → p = 1/3, e = 0.231775 (header 0.231775, back x −37.7758);
    // t = 0.65 → p = 1/2, e = 0.5 (header 0.5, back x −19).
    let s = try Self.scene(.push).sample(at: time)
    Self.expectLayer(
      s, "header", frame: Rect(x: 0, y: 0, width: R.width, height: 240), opacity: eased)
    Self.expectLayer(
      s, "back", frame: Rect(x: -54 + 70 * eased, y: 52, width: 44, height: 44), opacity: 1)
    Self.expectLayer(s, "title", frame: Rect(x: 0, y: 44, width: R.width, height: 56), opacity: 0)
    Self.expectLayer(s, "image", frame: Rect(x: 0, y: 0, width: R.width, height: 240), opacity: 1)
    for i in 0..<5 {
      Self.expectLayer(s, "cell\(i)", frame: Self.cellFrame(i), opacity: 0)
    }
  }

  @Test func pushEventAt0_8ResetsTitleAndRemovesImage() throws {
    let scene = try Self.scene(.push)
    // Just before: title still 0, image still on top at the header frame.
    let before = try scene.sample(at: 0.799)
    #expect(before["title"]?.opacity == 0)
    #expect(before["image"] != nil)
    // At 0.8: title reset to 1, image gone; header 1 and back at 16 (phase 2's targets);
    // cell0's fade begins (ease(0) = 0).
    let s = try scene.sample(at: 0.8)
    #expect(s["image"] == nil)
    Self.expectLayer(s, "title", frame: Rect(x: 0, y: 44, width: R.width, height: 56), opacity: 1)
    Self.expectLayer(s, "header", frame: Rect(x: 0, y: 0, width: R.width, height: 240), opacity: 1)
    Self.expectLayer(s, "back", frame: Rect(x: 16, y: 52, width: 44, height: 44), opacity: 1)
    Self.expectLayer(s, "cell0", frame: Self.cellFrame(0), opacity: 0)
    #expect(Self.ids(s) == Set(["from", "title", "table", "to", "header", "back"] + Self.cells))
    // The draw order closes up: from, title, table, to, header, back, cell0…4.
    #expect(Self.order(s, "cell4") == 10)
  }

  @Test func scrubbingBackUndoesTheEvent() throws {
    // Sampling is a pure function of time: after sampling 0.9, 0.7 still shows title at 0 and
    // the image.
    let scene = try Self.scene(.push)
    _ = try scene.sample(at: 0.9)
    let s = try scene.sample(at: 0.7)
    #expect(s["title"]?.opacity == 0)
    Self.expectLayer(s, "image", frame: Rect(x: 0, y: 0, width: R.width, height: 240), opacity: 1)
  }

  @Test(arguments: [
    // cell i fades over [0.8 + 0.2·i, 1.0 + 0.2·i), ease-in-ease-out.
    // t = 0.9: cell0 at p = 0.5; cell1 not begun.
    (0.9, [HeroReference.ease050, 0, 0, 0, 0]),
    // t = 1.05: cell0 done, cell1 at p = 0.25.
    (1.05, [1, HeroReference.ease025, 0, 0, 0]),
    // t = 1.65: cell4 at p = 0.25, cells 0…3 done.
    (1.65, [1, 1, 1, 1, HeroReference.ease025]),
    // t = 1.75: cell4 at p = 0.75.
    (1.75, [1, 1, 1, 1, HeroReference.ease075]),
  ])
  func pushCascade(time: Double, opacities: [Double]) throws {
    let s = try Self.scene(.push).sample(at: time)
    #expect(!s.isCompleted)
    for (i, opacity) in opacities.enumerated() {
      Self.expectLayer(s, "cell\(i)", frame: Self.cellFrame(i), opacity: opacity)
    }
    Self.expectLayer(s, "title", frame: Rect(x: 0, y: 44, width: R.width, height: 56), opacity: 1)
    #expect(s["image"] == nil)
  }

  @Test(arguments: [1.8, 2.5])
  func pushCompleted(time: Double) throws {
    // Finished: only to and its sublayers, at their model values, drawn in insertion order.
    let s = try Self.scene(.push).sample(at: time)
    #expect(s.isCompleted && !s.isCancelled)
    #expect(s.progress == 1)
    let expected = ["to", "header", "back"] + Self.cells
    #expect(s.layers.map(\.id) == expected)
    for (position, id) in expected.enumerated() { #expect(Self.order(s, id) == position) }
    Self.expectLayer(s, "to", frame: Rect(x: 0, y: 0, width: R.width, height: R.height), opacity: 1)
    Self.expectLayer(s, "header", frame: Rect(x: 0, y: 0, width: R.width, height: 240), opacity: 1)
    Self.expectLayer(s, "back", frame: Rect(x: 16, y: 52, width: 44, height: 44), opacity: 1)
    for i in 0..<5 { Self.expectLayer(s, "cell\(i)", frame: Self.cellFrame(i), opacity: 1) }
  }

  @Test func pushCancelledShowsTheListAsAtTheStart() throws {
    // Cancelled: the state at progress 0, then to and image removed: the list as it was.
    let tree = try Self.scene(.push).presentation(at: 1.0, completion: .cancelled)
    let layers = tree.evaluate()
    #expect(layers.map(\.id) == ["from", "title", "table"])
    let table = try #require(layers.first { $0.id == "table" })
    #expect(abs(table.corners[0].point.y - 100) <= 1e-12)
    #expect(layers.allSatisfy { abs($0.opacity - 1) <= 1e-12 })
  }

  // MARK: - Pop

  /// The pop at eased progress `e` (0.4 s, ease-in-ease-out), by hand from the spec:
  /// from opacity `1 − e`, scale `s = 1 − 0.1·e` about the centre (195, 422), so a point (x, y) of
  /// the post view lands at `(195 + (x − 195)·s, 422 + (y − 422)·s)`; to opacity `e`; table y
  /// `220 − 120·e`; image `(0, 0, W, 240) → (0, 340, W, 120)`: centre y `120 + 280e`, height
  /// `240 − 120e`, minY `340e`; image opacity `1 − e`.
  private static func expectPop(
    _ sample: TransitionSample, eased e: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let s = 1 - 0.1 * e
    func scaled(_ r: Rect) -> Rect {
      Rect(
        x: 195 + (r.minX - 195) * s, y: 422 + (r.minY - 422) * s, width: r.size.width * s,
        height: r.size.height * s)
    }
    expectLayer(
      sample, "from", frame: scaled(Rect(x: 0, y: 0, width: R.width, height: R.height)),
      opacity: 1 - e, sourceLocation: sourceLocation)
    expectLayer(
      sample, "header", frame: scaled(Rect(x: 0, y: 0, width: R.width, height: 240)),
      opacity: 1 - e, sourceLocation: sourceLocation)
    expectLayer(
      sample, "back", frame: scaled(Rect(x: 16, y: 52, width: 44, height: 44)), opacity: 1 - e,
      sourceLocation: sourceLocation)
    for i in 0..<5 {
      expectLayer(
        sample, "cell\(i)", frame: scaled(cellFrame(i)), opacity: 1 - e,
        sourceLocation: sourceLocation)
    }
    expectLayer(
      sample, "to", frame: Rect(x: 0, y: 0, width: R.width, height: R.height), opacity: e,
      sourceLocation: sourceLocation)
    expectLayer(
      sample, "title", frame: Rect(x: 0, y: 44, width: R.width, height: 56), opacity: e,
      sourceLocation: sourceLocation)
    expectLayer(
      sample, "table", frame: Rect(x: 0, y: 220 - 120 * e, width: R.width, height: 744),
      opacity: e, sourceLocation: sourceLocation)
    expectLayer(
      sample, "image", frame: Rect(x: 0, y: 340 * e, width: R.width, height: 240 - 120 * e),
      opacity: 1 - e, sourceLocation: sourceLocation)
  }

  @Test func popDurationAndDrawOrder() throws {
    let animator = PresetAnimator(.hero)
    let context = try animator.defaultContext(operation: .pop, content: .bare)
    #expect(animator.transitionDuration(using: context) == 0.4)
    let s = try animator.animateTransition(using: context).sample(at: 0.1)
    // to (the list) below from (the post view), image on top.
    let expected = ["to", "title", "table", "from", "header", "back"] + Self.cells + ["image"]
    for (position, id) in expected.enumerated() {
      #expect(Self.order(s, id) == position, "\(id)")
    }
  }

  @Test(arguments: [
    (0.0, 0.0), (0.1, HeroReference.ease025), (0.2, HeroReference.ease050),
    (0.3, HeroReference.ease075),
  ])
  func popInterior(time: Double, eased: Double) throws {
    Self.expectPop(try Self.scene(.pop).sample(at: time), eased: eased)
  }

  @Test func popScaleIsAboutTheCentre() throws {
    // At e = 0.5, s = 0.95: the post view's corners are (195 ∓ 185.25, 422 ∓ 400.9), each
    // corner listed top-left, top-right, bottom-right, bottom-left.
    let s = try Self.scene(.pop).sample(at: 0.2)
    let from = try #require(s["from"])
    let expected = [(9.75, 21.1), (380.25, 21.1), (380.25, 822.9), (9.75, 822.9)]
    for (corner, (x, y)) in zip(from.corners, expected) {
      #expect(abs(corner.point.x - x) <= 1e-9 && abs(corner.point.y - y) <= 1e-9, "\(corner)")
      #expect(!corner.isBehindEye)
    }
  }

  @Test(arguments: [0.4, 1.0])
  func popCompletedLeavesOnlyTheList(time: Double) throws {
    let s = try Self.scene(.pop).sample(at: time)
    #expect(s.isCompleted)
    #expect(s.layers.map(\.id) == ["to", "title", "table"])
    Self.expectLayer(s, "to", frame: Rect(x: 0, y: 0, width: R.width, height: R.height), opacity: 1)
    Self.expectLayer(s, "title", frame: Rect(x: 0, y: 44, width: R.width, height: 56), opacity: 1)
    Self.expectLayer(s, "table", frame: Rect(x: 0, y: 100, width: R.width, height: 744), opacity: 1)
  }

  @Test func popCancelledRestoresThePostViewUnscaled() throws {
    // Cancelled: the state at 0 (from identity, opacity 1), from's transform reset, to and image
    // removed.
    let layers = try Self.scene(.pop).presentation(at: 0.3, completion: .cancelled).evaluate()
    #expect(layers.map(\.id) == ["from", "header", "back"] + Self.cells)
    let from = try #require(layers.first { $0.id == "from" })
    #expect(from.matrix == .identity)
    #expect(from.opacity == 1)
  }

  // MARK: - Scene parameters

  @Test func customSceneSelectedRow0ThreeCells() throws {
    // selectedRow 0, cellCount 3: the tapped cell is (0, 100 + 0·120, W, 120); the push lasts
    // 0.8 + 0.2·3 = 1.4 s; only cell0…2 exist, cell2 fades over [1.2, 1.4).
    let hero = HeroScene(selectedRow: 0, cellCount: 3)
    #expect(abs(hero.pushDuration - 1.4) <= 1e-12)
    #expect(hero.cellFrame(width: 390) == Rect(x: 0, y: 100, width: 390, height: 120))
    let push = try Self.scene(.push, hero: hero)
    #expect(abs(push.duration - 1.4) <= 1e-12)
    // t = 0: the image at the tapped cell.
    Self.expectLayer(
      try push.sample(at: 0), "image", frame: Rect(x: 0, y: 100, width: R.width, height: 120),
      opacity: 0)
    // t = 0.1: centre y 160 → 120 and height 120 → 240, so minY = 160 − 40x − 60 − 60x
    // = 100 − 100x.
    Self.expectLayer(
      try push.sample(at: 0.1), "image",
      frame: Rect(x: 0, y: 100 - 100 * R.x010, width: R.width, height: 120 + 120 * R.x010),
      opacity: R.x010)
    let cascade = try push.sample(at: 1.3)
    #expect(cascade["cell3"] == nil)
    Self.expectLayer(cascade, "cell2", frame: Self.cellFrame(2), opacity: R.ease050)
    #expect(!cascade.isCompleted)
    let end = try push.sample(at: 1.4)
    #expect(end.isCompleted)
    #expect(end.layers.map(\.id) == ["to", "header", "back", "cell0", "cell1", "cell2"])
    // Pop: the image ends at the tapped cell: at e = 0.5, centre y 120 → 160 gives 140 and
    // height 180, so minY 50.
    let pop = try Self.scene(.pop, hero: hero)
    #expect(pop.duration == 0.4)
    Self.expectLayer(
      try pop.sample(at: 0.2), "image", frame: Rect(x: 0, y: 50, width: R.width, height: 180),
      opacity: 0.5)
  }

  /// One rejected hero parameter: the scene, and the error it must raise.
  struct BadScene: Sendable, CustomTestStringConvertible {
    var scene: HeroScene
    var error: ValidationError
    var testDescription: String { error.description }
  }

  static let badScenes: [BadScene] = [
    BadScene(
      scene: HeroScene(selectedRow: -1),
      error: ValidationError(field: "selectedRow", reason: .negative)),
    BadScene(
      scene: HeroScene(cellCount: -1), error: ValidationError(field: "cellCount", reason: .negative)
    ),
    BadScene(
      scene: HeroScene(rowHeight: 0),
      error: ValidationError(field: "rowHeight", reason: .notPositive)),
    BadScene(
      scene: HeroScene(rowHeight: .nan),
      error: ValidationError(field: "rowHeight", reason: .notFinite)),
    BadScene(
      scene: HeroScene(listTop: -1), error: ValidationError(field: "listTop", reason: .negative)),
    BadScene(
      scene: HeroScene(listTop: .infinity),
      error: ValidationError(field: "listTop", reason: .notFinite)),
    BadScene(
      scene: HeroScene(headerHeight: 0),
      error: ValidationError(field: "headerHeight", reason: .notPositive)),
    BadScene(
      scene: HeroScene(headerHeight: -.infinity),
      error: ValidationError(field: "headerHeight", reason: .notFinite)),
    BadScene(
      scene: HeroScene(cellHeight: -5),
      error: ValidationError(field: "cellHeight", reason: .notPositive)),
  ]

  @Test(arguments: badScenes)
  func rejectedSceneParameters(bad: BadScene) throws {
    #expect(throws: bad.error) { try bad.scene.validate() }
    let animator = PresetAnimator(.hero, parameters: PresetParameters(hero: bad.scene))
    // Building the default views checks the scene …
    #expect(throws: bad.error) { _ = try animator.defaultContext(operation: .push, content: .bare) }
    // … and so does animateTransition, with views built from valid parameters.
    let context = try PresetAnimator(.hero).defaultContext(operation: .pop, content: .bare)
    #expect(throws: bad.error) { _ = try animator.animateTransition(using: context) }
  }

  @Test func zeroCellsIsAllowed() throws {
    // cellCount 0 is not rejected: the push lasts 0.8 s and ends after phase 2.
    let scene = try Self.scene(.push, hero: HeroScene(cellCount: 0))
    #expect(abs(scene.duration - 0.8) <= 1e-12)
    #expect(try scene.sample(at: 0.8).layers.map(\.id) == ["to", "header", "back"])
  }
}
