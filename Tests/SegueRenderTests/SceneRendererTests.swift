import PropertyBased
import RealModule
import Segue
import SegueRender
import Testing

private let red = try! RGBAColor(red: 1, green: 0, blue: 0)
private let green = try! RGBAColor(red: 0, green: 1, blue: 0)
private let blue = try! RGBAColor(red: 0, green: 0, blue: 1)
private let phone = Size(width: 390, height: 844)

/// A one-layer view filling the container, or with extra sublayers `(id, frame, colour)`.
private func view(
  _ id: String, _ color: RGBAColor, size: Size = phone, sublayers: [(String, Rect, RGBAColor)] = []
) throws -> LayerTree {
  var tree = LayerTree()
  try tree.add(TransitionContext.viewLayer(id, containerSize: size, color: color))
  for (sub, frame, c) in sublayers {
    try tree.add(
      Layer(
        id: sub, bounds: Rect(x: 0, y: 0, width: frame.width, height: frame.height),
        position: Point(x: frame.midX, y: frame.midY), backgroundColor: c), parent: id)
  }
  return tree
}

/// A preset's scene between a red **from** (or **old**) and a blue **to** (or **new**).
private func scene(
  _ preset: TransitionPreset, _ operation: TransitionOperation = .push, size: Size = phone,
  from: LayerTree? = nil, to: LayerTree? = nil
) throws -> TransitionScene {
  let (f, t) = preset.isCATransition ? ("old", "new") : ("from", "to")
  let context = try TransitionContext(
    operation: operation, containerSize: size, fromView: from ?? view(f, red, size: size),
    toView: to ?? view(t, blue, size: size))
  return try PresetAnimator(preset).animateTransition(using: context)
}

/// Renders at 0.25 px/pt: the 390 × 844 container becomes round(97.5) × 211 = 98 × 211 pixels;
/// pixel (i, j) covers container points [4i, 4i + 4) × [4j, 4j + 4).
private let quarter = SceneRenderer(scale: 0.25)

/// A layer-tree scene with no animations (what the model shows at every time).
private func still(_ layers: [Layer], size: Size) throws -> TransitionScene {
  var tree = LayerTree()
  for layer in layers { try tree.add(layer) }
  return try TransitionScene(
    duration: 1, containerSize: size, model: tree, animations: AnimationSet())
}

@Suite("SceneRenderer")
struct SceneRendererTests {
  // MARK: Frames of presets

  /// Slide-over push at t = 0: **to** waits off screen at x = W, so the whole image is **from**'s
  /// red; the centre pixel (49, 105) is (255, 0, 0, 255). Pixel 97 covers points [388, 392):
  /// its sample columns at 388.5, 389.5 are inside **from** ([0, 390)), 390.5, 391.5 inside
  /// **to** ([390, 780)). Each layer is composited with its own coverage, in draw order: **from**
  /// at coverage ½ over white gives (1, ½, ½), then **to** at coverage ½ over that gives
  /// ½·(0, 0, 1) + ½·(1, ½, ½) = (½, ¼, ¾) → (128, 64, 191, 255) (the usual coverage-as-alpha
  /// seam where two layers meet).
  @Test func pushAtStartShowsTheFromView() throws {
    let image = try quarter.render(scene(.slideOver), at: 0)
    #expect(image.width == 98 && image.height == 211)
    #expect(image[49, 105] == SIMD4(255, 0, 0, 255))
    #expect(image[96, 105] == SIMD4(255, 0, 0, 255))
    #expect(image[97, 105] == SIMD4(128, 64, 191, 255))
  }

  /// At the duration (0.2 s) the push is complete: only **to**, blue everywhere it covers.
  @Test func pushAtCompletionShowsTheToView() throws {
    let s = try scene(.slideOver)
    let image = try quarter.render(s, at: 0.2)
    #expect(image[49, 105] == SIMD4(0, 0, 255, 255))
    #expect(image[0, 0] == SIMD4(0, 0, 255, 255))
  }

  /// Completion states: finished shows only **to** (blue), cancelled only **from** (red), at any
  /// reported time.
  @Test func completionRendersTheRemainingView() throws {
    let s = try scene(.system)
    let finished = try quarter.render(s, at: 0.1, completion: .finished)
    let cancelled = try quarter.render(s, at: 0.1, completion: .cancelled)
    #expect(finished[49, 105] == SIMD4(0, 0, 255, 255))
    #expect(cancelled[49, 105] == SIMD4(255, 0, 0, 255))
  }

  /// Slide-over push at half time, t = 0.1 s: ease-in-ease-out (0.42, 0, 0.58, 1) is symmetric
  /// about (½, ½), so the eased fraction is ½ and **to**'s left edge is at
  /// 390 + (0 − 390)·½ = 195 points = 48.75 pixels. Pixel 48's sample columns are at 48.125,
  /// 48.375, 48.625 (red **from**) and 48.875 (blue **to**): (¾, 0, ¼) → (191, 0, 64, 255)
  /// (191.25 and 63.75 rounded). Pixel 47 is all red, 49 all blue.
  @Test func slideAtMidTimeHasItsEdgeAtTheHandComputedX() throws {
    let image = try quarter.render(scene(.slideOver), at: 0.1)
    #expect(image[47, 100] == SIMD4(255, 0, 0, 255))
    #expect(image[48, 100] == SIMD4(191, 0, 64, 255))
    #expect(image[49, 100] == SIMD4(0, 0, 255, 255))
  }

  /// CATransition fade (linear, 0.25 s) at t = 0.125: q = ½, the cross-dissolve
  /// ½·red + ½·blue = (½, 0, ½, 1) → (128, 0, 128, 255) (127.5 rounds up). An "over" blend of
  /// two half-transparent layers would show the white background (g > 0) instead. At
  /// t = 0.0625, q = ¼: (¾, 0, ¼) → (191, 0, 64, 255).
  @Test func fadeMidpointIsATrueCrossDissolve() throws {
    let s = try scene(.caFade)
    #expect(try quarter.render(s, at: 0.125)[49, 105] == SIMD4(128, 0, 128, 255))
    #expect(try quarter.render(s, at: 0.0625)[20, 30] == SIMD4(191, 0, 64, 255))
  }

  /// A dissolve snapshot with a sublayer: **old** red with a green **badge** at points
  /// (100, 100, 100, 100), **new** blue. The old snapshot is rendered whole (green inside the
  /// badge) before weighting, so at q = ½ pixel (37, 37) (points [148, 152)², inside the badge)
  /// is ½·green + ½·blue = (0, 128, 128, 255), and pixel (10, 10) outside it (128, 0, 128, 255).
  /// Drawing the badge "over" after the dissolve would give ½·green over the mix instead.
  @Test func dissolveSnapshotsIncludeTheirSublayers() throws {
    let old = try view(
      "old", red, sublayers: [("badge", Rect(x: 100, y: 100, width: 100, height: 100), green)])
    let s = try scene(.caFade, from: old)
    let image = try quarter.render(s, at: 0.125)
    #expect(image[37, 37] == SIMD4(0, 128, 128, 255))
    #expect(image[10, 10] == SIMD4(128, 0, 128, 255))
  }

  /// Property: a fade between two opaque snapshots stays opaque at every q with no trace of the
  /// white background: g = 0, a = 255 and r + b = 255 ± 1 (each of (1 − q)·255 and q·255
  /// rounded). A 40 × 40 container at 0.25 px/pt keeps it fast.
  @Test func fadeOfOpaqueSnapshotsNeverShowsTheBackground() async throws {
    let size = Size(width: 40, height: 40)
    let s = try scene(.caFade, size: size)
    await propertyCheck(count: 100, input: Gen.double(in: 0...0.25)) { t in
      let p = try quarter.render(s, at: t)[5, 5]
      #expect(p[1] == 0 && p[3] == 255)
      #expect(abs(Int(p[0]) + Int(p[2]) - 255) <= 1)
    }
  }

  /// Interactive fade: update(0.5) at 0.1 s holds q = ½ (linear fade): (128, 0, 128, 255) at
  /// 0.15 s. After cancel at 0.2 s the run back lasts ½·0.25 = 0.125 s; at 0.5 s only **old**
  /// (red) remains.
  @Test func interactiveFrames() throws {
    let s = try scene(.caFade)
    var timeline = try InteractionTimeline(duration: 0.25)
    try timeline.append(.update(time: 0.1, percent: 0.5))
    try timeline.append(.cancel(time: 0.2))
    let held = try quarter.render(s, at: 0.15, interaction: timeline)
    #expect(held[49, 105] == SIMD4(128, 0, 128, 255))
    let done = try quarter.render(s, at: 0.5, interaction: timeline)
    #expect(done[49, 105] == SIMD4(255, 0, 0, 255))
  }

  /// A layer rotated 60° about y with its own perspective P(100): bounds (0, 0, 40, 40),
  /// position (50, 50) in a 100 × 100 container, scale 1. A layer point (u, v) relative to the
  /// anchor maps to x' = u·cos θ, z' = −u·sin θ, w = 1 − z'/100, then (50 + x'/w, 50 + v/w).
  /// mpmath (30 digits) gives the corners TL (37.90510, 25.81020), TR (58.52366, 32.95268),
  /// BR (58.52366, 67.04732), BL (37.90510, 74.18980); the top edge is at y = 26.5359 at x = 40,
  /// 26.8823 at x = 41, 32.0785 at x = 56 and 32.4249 at x = 57.
  /// - Pixel (40, 28) lies below the top edge (y ≥ 28 > 26.89): covered (red), though the flat
  ///   layer (30…70)² would not cover it.
  /// - Pixel (56, 30) lies above the top edge (y < 31 < 32.07): background, though inside the
  ///   flat layer; likewise (36, 50) left of x = 37.905 and (59, 50) right of x = 58.524.
  /// - Pixel (57, 50) (x < 58 < 58.52) is covered.
  @Test func rotatedLayerCoversTheHandProjectedPoints() throws {
    let card = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: Point(x: 50, y: 50),
      transform: Transform3D.makeRotation(by: .pi / 3, x: 0, y: 1, z: 0)
        * .makePerspective(distance: 100),
      backgroundColor: red)
    let image = try SceneRenderer().render(
      still([card], size: Size(width: 100, height: 100)), at: 0)
    #expect(image[40, 28] == SIMD4(255, 0, 0, 255))
    #expect(image[57, 50] == SIMD4(255, 0, 0, 255))
    for (x, y) in [(56, 30), (36, 50), (59, 50)] {
      #expect(image[x, y] == SIMD4(255, 255, 255, 255))
    }
  }

  // MARK: Render items

  /// Fade at q = ½: one cross-dissolve of **old** then **new**, weights ½ and ½, each one
  /// layer at relative opacity 1 with matrix T(−195, −422)·T(195, 422)·S(¼) = S(¼).
  @Test func fadeBecomesOneCrossDissolveItem() throws {
    let s = try scene(.caFade)
    let sample = try s.sample(at: 0.125)
    let items = try quarter.renderItems(for: sample, presentation: s.presentation(at: 0.125))
    guard items.count == 1, case .crossDissolve(let snapshots) = items[0] else {
      Issue.record("expected one cross-dissolve, got \(items)")
      return
    }
    #expect(snapshots.map(\.id) == ["old", "new"])
    for snapshot in snapshots {
      #expect(abs(snapshot.weight - 0.5) < 1e-12)
      #expect(snapshot.layers.count == 1)
      #expect(snapshot.layers[0].opacity == 1)
      #expect(snapshot.layers[0].matrix == .makeScale(x: 0.25, y: 0.25, z: 1))
    }
  }

  /// System push at t = 0: **dimming** is at opacity 0 and is skipped; **from** and **to** are
  /// drawn in that order (each raster layer carries its layer's id). After completion only
  /// **to**.
  @Test func zeroOpacityLayersAreSkipped() throws {
    let renderer = SceneRenderer(scale: 0.25)
    let s = try scene(.system)
    let start = try renderer.renderItems(
      for: s.sample(at: 0), presentation: s.presentation(at: 0))
    #expect(start.map(Self.id) == ["from", "to"])
    let end = try renderer.renderItems(
      for: s.sample(at: 1), presentation: s.presentation(at: 1, completion: .finished))
    #expect(end.map(Self.id) == ["to"])
  }

  /// A clear, zero-size group layer draws nothing itself, but its red child (frame
  /// (0, 0, 10, 10)) still draws: pixel (5, 5) red, (15, 15) white.
  @Test func emptyLayersAreSkippedButTheirSublayersDraw() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "group", position: Point(x: 0, y: 0)))
    try tree.add(
      Layer(
        id: "child", bounds: Rect(x: 0, y: 0, width: 10, height: 10),
        position: Point(x: 5, y: 5), backgroundColor: red), parent: "group")
    let s = try TransitionScene(
      duration: 1, containerSize: Size(width: 20, height: 20), model: tree,
      animations: AnimationSet())
    let renderer = SceneRenderer()
    #expect(try renderer.renderItems(for: s.sample(at: 0), presentation: tree).count == 1)
    let image = try renderer.render(s, at: 0)
    #expect(image[5, 5] == SIMD4(255, 0, 0, 255))
    #expect(image[15, 15] == SIMD4(255, 255, 255, 255))
  }

  /// An override replaces the fill (green instead of red) and takes the layer's bounds
  /// (0, 0, 390, 844), not its own.
  @Test func overrideSnapshotReplacesTheFill() throws {
    let override = LayerSnapshot(bounds: .zero, fill: .solid(green))
    let renderer = SceneRenderer(scale: 0.25, snapshots: ["from": override])
    let s = try scene(.slideOver)
    let items = try renderer.renderItems(for: s.sample(at: 0), presentation: s.presentation(at: 0))
    guard case .layer(let from) = items.first else {
      Issue.record("no first layer")
      return
    }
    #expect(from.snapshot.bounds == Rect(x: 0, y: 0, width: 390, height: 844))
    #expect(from.snapshot.fill == .solid(green))
    #expect(try renderer.render(s, at: 0)[49, 105] == SIMD4(0, 255, 0, 255))
  }

  /// Generated snapshots: solid by default; with `gradient`, red on top and 0.7·red = (0.7, 0, 0)
  /// at the bottom. A text layer's snapshot fills its glyph outlines (laid out in its bounds,
  /// here offset to (2, 3)) in its foreground colour; a layer without a string draws nothing.
  @Test func generatedSnapshots() throws {
    let layer = Layer(
      id: "a", bounds: Rect(x: 2, y: 3, width: 10, height: 20), backgroundColor: red)
    #expect(SceneRenderer().snapshot(for: layer)?.fill == .solid(red))
    let gradient = SceneRenderer(gradient: true).snapshot(for: layer)
    #expect(
      gradient?.fill
        == .linearGradient(top: red, bottom: try RGBAColor(red: 0.7, green: 0, blue: 0)))
    var text = Layer.textLayer(
      id: "t", frame: Rect(x: 0, y: 0, width: 60, height: 20), string: "Hi", fontSize: 12,
      foregroundColor: blue)
    text.bounds = Rect(x: 2, y: 3, width: 60, height: 20)
    let paths = try #require(SceneRenderer().snapshot(for: text)?.paths)
    #expect(paths.count == 1 && paths.first?.color == blue)
    let points = paths.flatMap { $0.polygons.flatMap(\.points) }
    #expect(!points.isEmpty)
    #expect(points.allSatisfy { $0.x >= 2 && $0.x <= 62 && $0.y >= 3 && $0.y <= 23 })
    var empty = text
    empty.kind = .text(TextLayerProperties(string: "", foregroundColor: blue))
    #expect(SceneRenderer().snapshot(for: empty) == nil)
    var clear = layer
    clear.backgroundColor = .clear
    #expect(SceneRenderer().snapshot(for: clear) == nil)
  }

  /// Output size: round(scale·container) (97.5 → 98), or the explicit size.
  @Test func outputSize() throws {
    let size = try quarter.outputSize(for: phone)
    #expect(size.width == 98 && size.height == 211)
    let fixed = try SceneRenderer(width: 30, height: 40).outputSize(for: phone)
    #expect(fixed.width == 30 && fixed.height == 40)
  }

  // MARK: Rejected input

  private static func id(_ item: SceneRenderItem) -> String {
    if case .layer(let layer) = item { return layer.id }
    return "dissolve"
  }

  private static func expectError(
    _ field: String, _ reason: ValidationError.Reason? = nil, index: Int? = nil,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
  ) {
    do {
      try body()
      Issue.record("no error, expected \(field)", sourceLocation: sourceLocation)
    } catch let error as ValidationError {
      #expect(error.field == field, "\(error)", sourceLocation: sourceLocation)
      if let reason { #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation) }
      if let index { #expect(error.index == index, "\(error)", sourceLocation: sourceLocation) }
    } catch {
      Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
  }

  @Test func rejectsANaNScale() {
    Self.expectError("scale", .notFinite) { try SceneRenderer(scale: .nan).validate() }
  }

  @Test func rejectsAZeroScale() {
    Self.expectError("scale", .notPositive) { try SceneRenderer(scale: 0).validate() }
  }

  @Test func rejectsANegativeScale() {
    Self.expectError("scale", .notPositive) { try SceneRenderer(scale: -2).validate() }
  }

  @Test func rejectsAZeroWidth() {
    Self.expectError("width", .outOfRange(lower: 1, upper: 16_777_216)) {
      try SceneRenderer(width: 0).validate()
    }
  }

  @Test func rejectsANegativeHeight() {
    Self.expectError("height", .outOfRange(lower: 1, upper: 16_777_216)) {
      try SceneRenderer(height: -1).validate()
    }
  }

  @Test func rejectsAWidthAboveTheSideLimit() {
    Self.expectError("width", .outOfRange(lower: 1, upper: 16_777_216)) {
      try SceneRenderer(width: 16_777_217, height: 1).validate()
    }
  }

  /// 5000 × 5000 = 25 000 000 pixels > 2²⁴ = 16 777 216: the cap.
  @Test func rejectsTooManyExplicitPixels() {
    Self.expectError("pixelCount", .outOfRange(lower: 1, upper: 16_777_216)) {
      try SceneRenderer(width: 5000, height: 5000).validate()
    }
  }

  /// 390 × 844 at scale 10: 3900 × 8440 = 32 916 000 pixels > 2²⁴.
  @Test func rejectsTooManyScaledPixels() {
    Self.expectError("pixelCount", .outOfRange(lower: 1, upper: 16_777_216)) {
      _ = try SceneRenderer(scale: 10).outputSize(for: phone)
    }
  }

  /// 390 × 0.001 = 0.39 rounds to 0 pixels.
  @Test func rejectsAScaleThatRoundsToNothing() {
    Self.expectError("width", .outOfRange(lower: 1, upper: 16_777_216)) {
      _ = try SceneRenderer(scale: 0.001).outputSize(for: phone)
    }
  }

  /// 390 × 1e307 overflows to infinity.
  @Test func rejectsAScaleThatOverflows() {
    Self.expectError("width", .notFinite) {
      _ = try SceneRenderer(scale: 1e307).outputSize(for: phone)
    }
  }

  @Test func rejectsABadOverrideSnapshot() {
    let bad = LayerSnapshot(bounds: Rect(x: .nan, y: 0, width: 1, height: 1), fill: .solid(red))
    Self.expectError("snapshots.from.bounds", .notFinite, index: 0) {
      try SceneRenderer(snapshots: ["from": bad]).validate()
    }
  }

  @Test func rejectsANegativeTime() throws {
    let s = try scene(.slideOver)
    Self.expectError("time", .negative) { _ = try quarter.render(s, at: -0.1) }
  }

  @Test func rejectsANaNTime() throws {
    let s = try scene(.slideOver)
    Self.expectError("time", .notFinite) { _ = try quarter.render(s, at: .nan) }
  }

  @Test func rejectsAPresentationOfAnotherSize() throws {
    let s = try scene(.system)
    Self.expectError("presentation", .countMismatch(expected: 3, actual: 2)) {
      _ = try quarter.renderItems(
        for: s.sample(at: 0),
        presentation: s.presentation(at: 0, completion: .cancelled)
          .adding(Layer(id: "x")))
    }
  }

  @Test func rejectsAPresentationWithOtherLayers() throws {
    let s = try scene(.slideOver)
    var other = LayerTree()
    try other.add(Layer(id: "from"))
    try other.add(Layer(id: "stranger"))
    Self.expectError("presentation", .unknown("to")) {
      _ = try quarter.renderItems(for: s.sample(at: 0), presentation: other)
    }
  }

  @Test func rejectsADissolveWeightAboveOne() {
    let layer = RasterLayer(
      snapshot: LayerSnapshot(bounds: Rect(x: 0, y: 0, width: 1, height: 1), fill: .solid(red)))
    let item = SceneRenderItem.crossDissolve([
      DissolveSnapshot(id: "a", weight: 1.5, layers: [layer])
    ])
    Self.expectError("crossDissolve.weight", .outOfRange(lower: 0, upper: 1), index: 0) {
      _ = try SceneRenderer().render([item], width: 2, height: 2)
    }
  }
}

extension LayerTree {
  /// A copy with `layer` added at the top level (test helper).
  fileprivate func adding(_ layer: Layer) throws -> LayerTree {
    var copy = self
    try copy.add(layer)
    return copy
  }
}
