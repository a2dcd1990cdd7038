import Foundation
import Segue
import SegueRender
import Testing

private let red = try! RGBAColor(red: 1, green: 0, blue: 0)
private let blue = try! RGBAColor(red: 0, green: 0, blue: 1)
private let small = Size(width: 40, height: 20)

/// A preset's scene in a small container: red **from**/**old**, blue **to**/**new**.
private func scene(_ preset: TransitionPreset, size: Size = small) throws -> TransitionScene {
  let (f, t) = preset.isCATransition ? ("old", "new") : ("from", "to")
  var from = LayerTree()
  try from.add(TransitionContext.viewLayer(f, containerSize: size, color: red))
  var to = LayerTree()
  try to.add(TransitionContext.viewLayer(t, containerSize: size, color: blue))
  let context = try TransitionContext(
    operation: .push, containerSize: size, fromView: from, toView: to)
  return try PresetAnimator(preset).animateTransition(using: context)
}

/// The 2 × 2 test sheet: 40 × 20-point frames at scale 1, gap 3, 4.2-pixel captions (strip
/// ⌈1.6·4.2⌉ = ⌈6.72⌉ = 7 pixels high), three frames in two columns.
private let strip = Filmstrip(renderer: SceneRenderer(), columns: 2, gap: 3, captionFontSize: 4.2)
private let times = [0, 0.1, 0.2]

/// Numbers of every `points="…"` attribute of the `<polygon>` lines, in document order.
private func polygons(_ svg: String) -> [[Double]] {
  svg.split(separator: "\n").filter { $0.hasPrefix("<polygon") }.map { line in
    let start = line.range(of: "points=\"")!.upperBound
    let end = line[start...].firstIndex(of: "\"")!
    return line[start..<end].split(whereSeparator: { $0 == " " || $0 == "," }).map {
      Double($0)!
    }
  }
}

@Suite("Filmstrip")
struct FilmstripTests {
  /// c = min(2, 3) = 2 columns, r = ⌈3/2⌉ = 2 rows; width 2·40 + 3·3 = 89, height
  /// 2·(20 + 7) + 3·3 = 63; frame k at (3 + (k mod 2)·43, 3 + ⌊k/2⌋·30).
  @Test func layoutIsColumnsTimesCellsPlusGaps() throws {
    let layout = try strip.layout(frameCount: 3, containerSize: small)
    #expect(layout.width == 89 && layout.height == 63)
    #expect(layout.columns == 2 && layout.rows == 2 && layout.captionHeight == 7)
    #expect(layout.frameOrigin(0) == (3, 3))
    #expect(layout.frameOrigin(1) == (46, 3))
    #expect(layout.frameOrigin(2) == (3, 33))
    let image = try strip.render(scene(.slideOver), times: times)
    #expect(image.width == 89 && image.height == 63)
  }

  /// Fewer frames than columns: c = K. Two frames, six columns: width 2·40 + 3·3 = 89,
  /// one row: 27 + 6 = 33. Without captions: 20 + 6 = 26.
  @Test func fewerFramesThanColumns() throws {
    let layout = try Filmstrip(renderer: SceneRenderer(), gap: 3, captionFontSize: 4.2)
      .layout(frameCount: 2, containerSize: small)
    #expect(layout.width == 89 && layout.height == 33 && layout.columns == 2)
    let bare = try Filmstrip(renderer: SceneRenderer(), gap: 3, captions: false)
      .layout(frameCount: 2, containerSize: small)
    #expect(bare.height == 26 && bare.captionHeight == 0)
  }

  /// Each cell holds exactly the bytes of the single-frame render at its time.
  @Test func eachCellEqualsTheSingleFrameRender() throws {
    let s = try scene(.slideOver)
    let sheet = try strip.render(s, times: times)
    let layout = try strip.layout(frameCount: 3, containerSize: small)
    for (k, t) in times.enumerated() {
      let frame = try strip.renderer.render(s, at: t)
      let (x0, y0) = layout.frameOrigin(k)
      var same = true
      for y in 0..<frame.height {
        for x in 0..<frame.width where sheet[x0 + x, y0 + y] != frame[x, y] { same = false }
      }
      #expect(same, "frame \(k)")
    }
  }

  /// A sheet assembled from frames rendered elsewhere (``Filmstrip/blankSheet(_:)`` and
  /// ``Filmstrip/place(_:at:time:layout:into:)``) is the rendered sheet; a frame or cell that
  /// does not fit is refused.
  @Test func placingFramesBuildsTheSameSheet() throws {
    let s = try scene(.slideOver)
    let layout = try strip.layout(frameCount: 3, containerSize: small)
    var sheet = try strip.blankSheet(layout)
    for (k, t) in times.enumerated() {
      try strip.place(strip.renderer.render(s, at: t), at: k, time: t, layout: layout, into: &sheet)
    }
    #expect(sheet == (try strip.render(s, times: times)))
    let frame = try strip.renderer.render(s, at: 0)
    #expect(throws: ValidationError.self) {
      try strip.place(frame, at: 4, time: 0, layout: layout, into: &sheet)
    }
    let wrong = try PixelBufferRGBA8(width: 3, height: 3)
    #expect(throws: ValidationError.self) {
      try strip.place(wrong, at: 0, time: 0, layout: layout, into: &sheet)
    }
  }

  /// Gaps and the empty fourth cell show the sheet grey, 0.92·255 = 234.6 → 235.
  @Test func gapsAndEmptyCells() throws {
    let sheet = try strip.render(scene(.slideOver), times: times)
    let grey: SIMD4<UInt8> = SIMD4(235, 235, 235, 255)
    #expect(sheet[0, 0] == grey)
    #expect(sheet[44, 10] == grey)
    #expect(sheet[46 + 20, 33 + 10] == grey)
  }

  /// The caption is the time set as a text layer would set it: the caption strip of a
  /// 200 × 40-point frame with 20-pixel captions (strip ⌈1.6·20⌉ = 32 pixels, from y = 4 + 40)
  /// holds the pixels of a text layer of the caption's string (within 1 level: the scene's
  /// 8-bit bands against the strip's Float image quantised), the default font at
  /// 20 points in the caption colour, at (10, 5) on the sheet grey; the strip has dark ink (the
  /// glyphs are filled, not outlined), and a different time gives different pixels.
  @Test func captionIsTheTextLayerOfTheTime() throws {
    let size = Size(width: 200, height: 40)
    let film = Filmstrip(renderer: SceneRenderer(), columns: 1, captionFontSize: 20)
    let sheet = try film.render(scene(.slideOver, size: size), times: [0.125, 0.25])
    let layout = try film.layout(frameCount: 2, containerSize: size)
    #expect(layout.captionHeight == 32)
    // The text layer the caption must be, drawn alone on the sheet colour.
    let text = Layer.textLayer(
      id: "caption", frame: Rect(x: 0, y: 0, width: 180, height: 27), string: "0.125s",
      fontSize: 20, foregroundColor: .black)
    var tree = LayerTree()
    try tree.add(
      Layer(
        id: "strip", bounds: Rect(x: 0, y: 0, width: 200, height: 32),
        position: Point(x: 100, y: 16), backgroundColor: film.background))
    var placed = text
    placed.position = Point(x: 10 + 90, y: 5 + 13.5)
    try tree.add(placed, parent: "strip")
    let alone = try TransitionScene(
      duration: 1, containerSize: Size(width: 200, height: 32), model: tree,
      animations: AnimationSet())
    let expected = try SceneRenderer().render(alone, at: 0)
    let (x0, y0) = layout.frameOrigin(0)
    var largest = 0
    var darkest = 255
    var differsFromNext = false
    let next = layout.frameOrigin(1)
    for y in 0..<32 {
      for x in 0..<200 {
        let pixel = sheet[x0 + x, y0 + 40 + y]
        let d =
          SIMD4<Int>(truncatingIfNeeded: pixel) &- SIMD4<Int>(truncatingIfNeeded: expected[x, y])
        largest = max(largest, abs(d[0]), abs(d[1]), abs(d[2]), abs(d[3]))
        darkest = min(darkest, Int(pixel[0]))
        if pixel != sheet[next.x + x, next.y + 40 + y] { differsFromNext = true }
      }
    }
    #expect(largest <= 1)
    #expect(darkest < 64)
    #expect(differsFromNext)
  }

  /// Milliseconds with three decimals: 0.0625·1000 = 62.5 rounds away from zero to 63.
  @Test func captions() {
    #expect(Filmstrip.caption(for: 0) == "0.000s")
    #expect(Filmstrip.caption(for: 0.125) == "0.125s")
    #expect(Filmstrip.caption(for: 0.0625) == "0.063s")
    #expect(Filmstrip.caption(for: 2) == "2.000s")
    #expect(Filmstrip.caption(for: 12.3456) == "12.346s")
  }

  /// The SVG polygons of each cell are the sampled corners (TL, TR, BR, BL) × scale, in draw
  /// order, inside a nested viewport at the cell's origin: slide-over in a 40 × 20 container at
  /// scale 2 (80 × 40-pixel cells), times 0 and 0.1.
  @Test func svgPolygonsAreTheSampledCornersTimesScale() throws {
    let s = try scene(.slideOver)
    let film = Filmstrip(renderer: SceneRenderer(scale: 2), columns: 2, gap: 3)
    let text = try film.svg(s, times: [0, 0.1]).text
    var expected: [[Double]] = []
    for t in [0, 0.1] {
      let sample = try s.sample(at: t)
      for layer in sample.layers.sorted(by: { $0.order < $1.order }) {
        expected.append(layer.corners.flatMap { [2 * $0.point.x, 2 * $0.point.y] })
      }
    }
    let actual = polygons(text)
    #expect(actual.count == expected.count)
    for (a, e) in zip(actual, expected) {
      #expect(a.count == e.count && zip(a, e).allSatisfy { abs($0 - $1) <= 1e-12 }, "\(a) \(e)")
    }
    #expect(text.contains("<svg x=\"3\" y=\"3\" width=\"80\" height=\"40\" viewBox=\"0 0 80 40\">"))
    #expect(
      text.contains("<svg x=\"86\" y=\"3\" width=\"80\" height=\"40\" viewBox=\"0 0 80 40\">"))
    #expect(text.contains(">0.100s</text>"))
  }

  /// `maskedCorners` in the SVG: a 100 × 100 layer at frame (50, 50) in a 200 × 200 container,
  /// corner radius 40. Square corners are one vertex at the corner; a rounded corner is its
  /// quarter arc in 8 segments, 9 vertices from one tangent point to the other, e.g. the
  /// top-left's from (50, 90) through (90 − 40·cos 45°, 90 − 40·sin 45°) to (90, 50).
  @Test(arguments: [0, 1, 9, 15] as [UInt])
  func svgRoundsOnlyTheMaskedCorners(_ bits: UInt) throws {
    var tree = LayerTree()
    try tree.add(
      Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 100),
        position: Point(x: 100, y: 100), backgroundColor: .black, cornerRadius: 40,
        maskedCorners: CornerMask(rawValue: bits)))
    let s = try TransitionScene(
      duration: 1, containerSize: Size(width: 200, height: 200), model: tree,
      animations: AnimationSet())
    let text = try Filmstrip(renderer: SceneRenderer(), captions: false).svg(s, times: [0]).text
    let outline = try #require(polygons(text).last)
    let points = stride(from: 0, to: outline.count - 1, by: 2).map {
      Point(x: outline[$0], y: outline[$0 + 1])
    }
    let rounded = bits.nonzeroBitCount
    #expect(points.count == 9 * rounded + (4 - rounded))
    func has(_ x: Double, _ y: Double) -> Bool {
      points.contains { abs($0.x - x) < 1e-9 && abs($0.y - y) < 1e-9 }
    }
    // Clockwise from the top-left: (corner, mask bit).
    let corners: [(Double, Double, UInt)] = [
      (50, 50, 1), (150, 50, 2), (150, 150, 8), (50, 150, 4),
    ]
    for (x, y, bit) in corners {
      let isRounded = bits & bit != 0
      #expect(has(x, y) == !isRounded, "corner (\(x), \(y))")
      let mid = 40 * (1 - 0.5.squareRoot())
      #expect(
        has(x + (x < 100 ? mid : -mid), y + (y < 100 ? mid : -mid)) == isRounded,
        "arc midpoint of (\(x), \(y))")
    }
    if bits & 1 != 0 { #expect(has(50, 90) && has(90, 50)) }
  }

  /// Fade at q = ½: the two snapshots sit in an isolated viewport and add (plus-lighter) at
  /// alpha ½ each: red `#ff0000` and blue `#0000ff` with `fill-opacity="0.5"`.
  @Test func svgFadeIsAnIsolatedPlusLighterGroup() throws {
    let text = try Filmstrip(renderer: SceneRenderer()).svg(scene(.caFade), times: [0.125]).text
    #expect(text.contains("style=\"isolation:isolate\""))
    let adds = text.split(separator: "\n").filter { $0.contains("plus-lighter") }
    #expect(adds.count == 2)
    #expect(adds.allSatisfy { $0.contains("fill-opacity=\"0.5\"") })
    #expect(adds.first?.contains("#ff0000") == true && adds.last?.contains("#0000ff") == true)
  }

  // MARK: SVGDocument extensions

  /// `embed` writes a nested `<svg>` with the child's size and viewBox; `isolated` adds the
  /// isolation style; an "add" polygon carries `mix-blend-mode:plus-lighter`.
  @Test func svgEmbedAndAddPolygon() throws {
    var child = try SVGDocument(width: 10, height: 5)
    try child.polygon(
      [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 0, y: 5)], fill: red, blendMode: .add)
    var parent = try SVGDocument(width: 20, height: 20)
    try parent.embed(child, at: Point(x: 2, y: 3.5), isolated: true)
    let lines = parent.text.split(separator: "\n").map(String.init)
    #expect(
      lines[2] == "<svg x=\"2\" y=\"3.5\" width=\"10\" height=\"5\" viewBox=\"0 0 10 5\" "
        + "style=\"isolation:isolate\">")
    #expect(
      lines[3] == "<polygon points=\"0,0 10,0 0,5\" fill=\"#ff0000\" "
        + "style=\"mix-blend-mode:plus-lighter\"/>")
    #expect(lines[4] == "</svg>")
  }

  // MARK: Rejected input

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

  @Test func rejectsNoTimes() throws {
    let s = try scene(.slideOver)
    Self.expectError("times", .tooFew(minimum: 1, actual: 0)) {
      _ = try strip.render(s, times: [])
    }
  }

  @Test func rejectsANegativeTime() throws {
    let s = try scene(.slideOver)
    Self.expectError("times", .negative, index: 1) { _ = try strip.render(s, times: [0, -1]) }
  }

  @Test func rejectsANaNTimeInTheSVG() throws {
    let s = try scene(.slideOver)
    Self.expectError("times", .notFinite, index: 2) {
      _ = try strip.svg(s, times: [0, 0.1, .nan])
    }
  }

  @Test func rejectsZeroColumns() {
    Self.expectError("columns") {
      _ = try Filmstrip(columns: 0).layout(frameCount: 1, containerSize: small)
    }
  }

  @Test func rejectsANegativeGap() {
    Self.expectError("gap", .negative) {
      _ = try Filmstrip(gap: -1).layout(frameCount: 1, containerSize: small)
    }
  }

  @Test func rejectsABadCaptionFontSize() {
    Self.expectError("captionFontSize", .notPositive) {
      _ = try Filmstrip(captionFontSize: 0).layout(frameCount: 1, containerSize: small)
    }
    Self.expectError("captionFontSize", .notFinite) {
      _ = try Filmstrip(captionFontSize: .nan).layout(frameCount: 1, containerSize: small)
    }
    Self.expectError("sheet.height") {
      _ = try Filmstrip(captionFontSize: 1e300).layout(frameCount: 1, containerSize: small)
    }
  }

  @Test func rejectsZeroFrames() {
    Self.expectError("frameCount", .tooFew(minimum: 1, actual: 0)) {
      _ = try Filmstrip().layout(frameCount: 0, containerSize: small)
    }
  }

  /// 5000 columns of 4096-pixel frames: 5000·4096 + 5001·4 > 2²⁴.
  @Test func rejectsASheetTooWide() {
    let film = Filmstrip(renderer: SceneRenderer(width: 4096, height: 1), columns: 5000)
    Self.expectError("sheet.width", .outOfRange(lower: 1, upper: 16_777_216)) {
      _ = try film.layout(frameCount: 5000, containerSize: small)
    }
  }

  /// 20 frames of 1000 × 1000 pixels: at least 2·10⁷ pixels > 2²⁴.
  @Test func rejectsASheetWithTooManyPixels() {
    let film = Filmstrip(renderer: SceneRenderer(width: 1000, height: 1000), columns: 20)
    Self.expectError("sheet.pixelCount", .outOfRange(lower: 1, upper: 16_777_216)) {
      _ = try film.layout(frameCount: 20, containerSize: small)
    }
  }

  @Test func rejectsABadRendererScale() {
    Self.expectError("scale", .notPositive) {
      _ = try Filmstrip(renderer: SceneRenderer(scale: 0)).layout(
        frameCount: 1, containerSize: small)
    }
  }

  @Test func rejectsANaNEmbedOrigin() throws {
    var parent = try SVGDocument(width: 1, height: 1)
    let child = try SVGDocument(width: 1, height: 1)
    Self.expectError("origin", .notFinite, index: 0) {
      try parent.embed(child, at: Point(x: .nan, y: 0))
    }
  }
}
