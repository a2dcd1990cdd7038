import Foundation
import Segue
import SegueRender
import Testing

/// CATextLayer layout: shaping, metrics, line breaking, alignment, truncation, outlines placed in
/// layer coordinates.
@Suite struct TextLayoutTests {
  static let wide = Size(width: 10_000, height: 10_000)

  func layout(
    _ string: String, face: FontFace, size: Double = 36, bounds: Size = wide,
    alignment: TextAlignmentMode = .natural, wrapped: Bool = false,
    truncation: TextTruncationMode = .none
  ) throws -> TextLayout {
    try TextTestFonts.layout(
      TextLayoutRequest(
        string: string, fontSize: size, bounds: bounds, alignmentMode: alignment,
        isWrapped: wrapped, truncationMode: truncation), face: face)
  }

  /// The width of `string` on one line.
  func width(_ string: String, face: FontFace, size: Double = 36) throws -> Double {
    try layout(string, face: face, size: size).lines.first?.width ?? 0
  }

  /// The scalars each line stands for, as strings.
  func lineTexts(_ layout: TextLayout, of string: String) -> [String] {
    let scalars = Array(string.unicodeScalars)
    return layout.lines.map { line in
      var text = String.UnicodeScalarView()
      text.append(contentsOf: scalars[line.characterRange])
      return String(text)
    }
  }

  @Test func oneLineSitsOnTheAscentBaseline() throws {
    let face = try TextTestFonts.inter()
    let result = try layout("Hello", face: face)
    let metrics = face.metrics(fontSize: 36)
    #expect(result.metrics == metrics)
    #expect(result.lines.count == 1)
    let line = try #require(result.lines.first)
    #expect(line.origin == Point(x: 0, y: metrics.ascent))
    #expect(line.box == Rect(x: 0, y: 0, width: line.width, height: metrics.lineHeight))
    #expect(line.characterRange == 0..<5 && !line.isTruncated && line.glyphRange == 0..<5)
    #expect(result.glyphs.map(\.characterIndex) == [0, 1, 2, 3, 4])
    #expect(abs(result.glyphs.reduce(0) { $0 + $1.advance } - line.width) < 1e-9)
    #expect(result.glyphs.allSatisfy { $0.position.y == metrics.ascent })
    #expect(result.fontFile == face.file)
    #expect(TextLayout.fillRule == .nonZero)
    let box = try #require(controlBox(result.path.elements))
    // "Hello" has no descender: only the round "o" overshoots the baseline, by a little.
    #expect(box.minY >= 0 && box.maxY > metrics.ascent && box.maxY < metrics.ascent + 0.05 * 36)
    #expect(box.minX >= 0 && box.maxX <= line.width)
    #expect(
      result.typographicBounds
        == Rect(x: 0, y: 0, width: line.width, height: metrics.ascent + metrics.descent))
  }

  /// The Double reference: "I" in DejaVu Sans at 36 pt, from the font's own tables:
  /// x from `xMin·s` to `xMax·s`, y from `ascent − yMax·s` to `ascent − yMin·s`, `s = 36/2048`.
  @Test func capitalIOutlineInLayerCoordinates() throws {
    let face = try TextTestFonts.dejaVuSans()
    let tables = try TrueTypeTables(path: face.file.path)
    let box = tables.glyphBox(try #require(face.glyph(for: "I")))
    let s = 36 / Double(tables.unitsPerEm)
    let ascent = Double(tables.ascender) * s
    let result = try layout("I", face: face)
    let expected = Rect(
      x: Double(box.xMin) * s, y: ascent - Double(box.yMax) * s,
      width: Double(box.xMax - box.xMin) * s, height: Double(box.yMax - box.yMin) * s)
    let actual = try #require(controlBox(result.path.elements))
    for (a, e) in [
      (actual.minX, expected.minX), (actual.maxX, expected.maxX), (actual.minY, expected.minY),
      (actual.maxY, expected.maxY),
    ] {
      #expect(abs(a - e) <= 1e-12 * 36)
    }
  }

  @Test func kerningPullsAVTogether() throws {
    for face in [try TextTestFonts.inter(), try TextTestFonts.dejaVuSans()] {
      let a = try #require(face.glyph(for: "A"))
      let v = try #require(face.glyph(for: "V"))
      let nominal = Double(face.advance(of: a) + face.advance(of: v)) * 36 / Double(face.unitsPerEm)
      let kerned = try width("AV", face: face)
      #expect(kerned < nominal - 0.5, "\(face.familyName): \(kerned) vs \(nominal)")
    }
  }

  @Test func fiBecomesOneLigatureGlyph() throws {
    let face = try TextTestFonts.dejaVuSans()
    let result = try layout("fi", face: face)
    #expect(result.glyphs.count == 1)
    #expect(result.glyphs.first?.glyph != face.glyph(for: "f"))
    #expect(result.lines.first?.characterRange == 0..<2)
  }

  @Test func rightToLeftTextRunsFromTheRightEdge() throws {
    let face = try TextTestFonts.dejaVuSans()
    let bounds = Size(width: 300, height: 100)
    let result = try layout("שלום", face: face, bounds: bounds)
    let line = try #require(result.lines.first)
    #expect(abs(line.origin.x + line.width - 300) < 1e-9)  // natural: right-aligned
    // Logical first letter drawn rightmost.
    let byX = result.glyphs.sorted { $0.position.x < $1.position.x }
    #expect(byX.map(\.characterIndex) == [3, 2, 1, 0])
    let left = try layout("שלום", face: face, bounds: bounds, alignment: .left)
    #expect(left.lines.first?.origin.x == 0)
  }

  @Test func wrappingBreaksAfterSpaces() throws {
    let face = try TextTestFonts.dejaVuSans()
    let text = "one two three"
    let limit = try width("one two", face: face) + 1
    let result = try layout(
      text, face: face, bounds: Size(width: limit, height: 500), wrapped: true)
    #expect(lineTexts(result, of: text) == ["one two ", "three"])
    let metrics = result.metrics
    #expect(result.lines.map(\.origin.y) == [metrics.ascent, metrics.ascent + metrics.lineHeight])
    #expect(abs(result.lines[0].width - (limit - 1)) < 1e-9)  // trailing space left out
    let unwrapped = try layout(text, face: face, bounds: Size(width: limit, height: 500))
    #expect(unwrapped.lines.count == 1)
  }

  @Test func wordsLongerThanTheWidthBreakBetweenCharacters() throws {
    let face = try TextTestFonts.dejaVuSans()
    let limit = try width("abcd", face: face) + 0.01
    let result = try layout(
      "xy abcdefghij", face: face, bounds: Size(width: limit, height: 500), wrapped: true)
    #expect(lineTexts(result, of: "xy abcdefghij") == ["xy ", "abcd", "efgh", "ij"])
    let narrow = try layout("abc", face: face, bounds: Size(width: 0, height: 500), wrapped: true)
    #expect(lineTexts(narrow, of: "abc") == ["a", "b", "c"])
  }

  @Test func hyphensAndIdeographsAllowBreaks() throws {
    let face = try TextTestFonts.dejaVuSans()
    // Wider than "well-", narrower than "well-kn".
    let limit = try width("known", face: face) + 0.01
    let result = try layout(
      "well-known", face: face, bounds: Size(width: limit, height: 500), wrapped: true)
    #expect(lineTexts(result, of: "well-known") == ["well-", "known"])
    let minus = try layout(
      "-5 -5", face: face, bounds: Size(width: try width("-5", face: face) + 0.01, height: 500),
      wrapped: true)
    #expect(lineTexts(minus, of: "-5 -5") == ["-5 ", "-5"])
    // Between ideographs, but not before the full stop "。".
    let cjk = "日本。語"
    let two = try width("日本", face: face) + 0.01
    let lines = try layout(cjk, face: face, bounds: Size(width: two, height: 500), wrapped: true)
    #expect(lineTexts(lines, of: cjk) == ["日", "本。", "語"])
  }

  @Test func lineSeparatorsStartParagraphs() throws {
    let face = try TextTestFonts.inter()
    let text = "a\nb\r\nc\u{2028}\n"
    let result = try layout(text, face: face)
    #expect(lineTexts(result, of: text) == ["a", "b", "c", ""])
    #expect(try layout("", face: face).lines.isEmpty)
    #expect(try layout("", face: face).typographicBounds == .zero)
    #expect(try layout("\n", face: face).lines.count == 1)
    #expect(try layout("a\n\nb", face: face).lines.count == 3)
  }

  @Test func tabsAndControlCharactersDrawNoMissingGlyphBoxes() throws {
    let face = try TextTestFonts.inter()
    let result = try layout("a\tb\u{01}c\u{7F}", face: face)
    #expect(result.glyphs.allSatisfy { $0.glyph != 0 })
    #expect(result.lines.count == 1)
  }

  @Test func alignmentOffsets() throws {
    let face = try TextTestFonts.inter()
    let bounds = Size(width: 300, height: 100)
    let w = try width("Hi", face: face)
    let expected: [(TextAlignmentMode, Double)] = [
      (.natural, 0), (.left, 0), (.right, 300 - w), (.center, (300 - w) / 2), (.justified, 0),
    ]
    for (mode, x) in expected {
      let result = try layout("Hi   ", face: face, bounds: bounds, alignment: mode)
      #expect(abs(result.lines[0].origin.x - x) < 1e-9, "\(mode)")
      #expect(abs(result.lines[0].width - w) < 1e-9)
    }
    // Wider than the bounds: the offset goes negative.
    let overflow = try layout(
      "Hi", face: face, bounds: Size(width: 0, height: 0), alignment: .right)
    #expect(abs(overflow.lines[0].origin.x + w) < 1e-9)
  }

  @Test func justifiedLinesFillTheWidthButTheLast() throws {
    let face = try TextTestFonts.dejaVuSans()
    let text = "aa bb cc dd ee ff gg hh"
    let limit = try width("aa bb cc", face: face) + 5
    let result = try layout(
      text, face: face, bounds: Size(width: limit, height: 500), alignment: .justified,
      wrapped: true)
    #expect(result.lines.count >= 3)
    for line in result.lines.dropLast() {
      #expect(abs(line.width - limit) < 1e-9 && line.origin.x == 0)
    }
    let last = try #require(result.lines.last)
    #expect(last.width < limit - 1)
    // The extra width goes to the spaces: glyphs of "aa" keep their advances.
    let plain = try layout(text, face: face, bounds: Size(width: limit, height: 500), wrapped: true)
    #expect(result.glyphs[0].advance == plain.glyphs[0].advance)
    #expect(result.glyphs[2].advance > plain.glyphs[2].advance)
  }

  @Test func truncationKeepsWhatFitsBesideTheEllipsis() throws {
    let face = try TextTestFonts.dejaVuSans()
    let text = "The quick brown fox"
    let ellipsisGlyph = try #require(face.glyph(for: "…"))
    let ellipsis = Double(face.advance(of: ellipsisGlyph)) * 36 / Double(face.unitsPerEm)
    let limit = try width("The quick", face: face) + ellipsis + 0.01
    let bounds = Size(width: limit, height: 100)

    let end = try layout(text, face: face, bounds: bounds, truncation: .end)
    let line = try #require(end.lines.first)
    #expect(line.isTruncated && line.width <= limit)
    #expect(end.glyphs.last?.glyph == ellipsisGlyph)
    #expect(abs((end.glyphs.last?.advance ?? 0) - ellipsis) < 1e-9)
    #expect(end.glyphs.dropLast().map(\.characterIndex) == Array(0..<9))
    #expect(end.glyphs.last?.characterIndex == 9)  // the first hidden scalar (" brown")
    #expect(abs(line.width - (try width("The quick", face: face) + ellipsis)) < 1e-9)
    #expect(line.characterRange == 0..<19)

    let start = try layout(text, face: face, bounds: bounds, truncation: .start)
    #expect(start.glyphs.first?.glyph == ellipsisGlyph)
    #expect(start.lines[0].width <= limit)
    #expect(start.glyphs.last?.characterIndex == 18)
    #expect(start.glyphs[1].characterIndex > 9)

    let middle = try layout(text, face: face, bounds: bounds, truncation: .middle)
    let cut = try #require(middle.glyphs.firstIndex { $0.glyph == ellipsisGlyph })
    #expect(cut > 0 && cut < middle.glyphs.count - 1)
    #expect(middle.glyphs.first?.characterIndex == 0 && middle.glyphs.last?.characterIndex == 18)
    #expect(middle.lines[0].width <= limit)

    let none = try layout(text, face: face, bounds: bounds)
    #expect(!none.lines[0].isTruncated && none.lines[0].width > limit)
    let fits = try layout("The", face: face, bounds: bounds, truncation: .end)
    #expect(!fits.lines[0].isTruncated)
  }

  @Test func tooNarrowForTheEllipsisKeepsOnlyIt() throws {
    let face = try TextTestFonts.inter()
    let result = try layout(
      "Hello", face: face, bounds: Size(width: 1, height: 100), truncation: .middle)
    #expect(result.glyphs.count == 1 && result.glyphs[0].glyph == face.glyph(for: "…"))
  }

  @Test func linesBelowTheBoundsAreDroppedAndTheLastOneCut() throws {
    let face = try TextTestFonts.dejaVuSans()
    let text = "one two three four five six"
    let metrics = face.metrics(fontSize: 36)
    let limit = try width("one two", face: face) + 1
    let height = metrics.ascent + metrics.descent + metrics.lineHeight  // two lines
    let bounds = Size(width: limit, height: height)
    let result = try layout(text, face: face, bounds: bounds, wrapped: true, truncation: .end)
    #expect(result.lines.count == 2)
    let last = result.lines[1]
    #expect(last.isTruncated && last.width <= limit)
    #expect(last.characterRange.upperBound == text.unicodeScalars.count)
    #expect(result.glyphs.last?.glyph == face.glyph(for: "…"))
    // Cut at its start, the last line's ellipsis stands for the start of that line.
    let start = try layout(text, face: face, bounds: bounds, wrapped: true, truncation: .start)
    let ellipsis = try #require(start.glyphs.first { $0.glyph == face.glyph(for: "…") })
    #expect(ellipsis.characterIndex == start.lines[1].characterRange.lowerBound)
    #expect(start.lines[1].characterRange.lowerBound > 0)
    // Without truncation every line is kept (nothing is clipped).
    let all = try layout(text, face: face, bounds: bounds, wrapped: true)
    #expect(all.lines.count > 2)
    // Not wrapped: paragraphs below the bounds are dropped; the last one shown says more follows.
    let paragraphs = try layout(
      "a\nb\nc", face: face, bounds: Size(width: 500, height: height), truncation: .end)
    #expect(lineTexts(paragraphs, of: "a\nb\nc") == ["a", "b"])
    #expect(paragraphs.lines[1].isTruncated)
    // A bounds height below one line still shows the first line.
    let flat = try layout("a\nb", face: face, bounds: Size(width: 500, height: 0), truncation: .end)
    #expect(flat.lines.count == 1)
  }

  @Test func zeroFontSizeDrawsNothingVisible() throws {
    let face = try TextTestFonts.inter()
    let result = try layout(
      "Hello world", face: face, size: 0, bounds: Size(width: 10, height: 10), wrapped: true,
      truncation: .end)
    #expect(result.lines.count == 1)
    #expect(result.lines[0].width == 0)
    let box = try #require(controlBox(result.path.elements))
    #expect(box.width == 0 && box.height == 0)
  }

  @Test func rejectedRequests() throws {
    let face = try TextTestFonts.inter()
    let ok = TextLayoutRequest(string: "x", bounds: Size(width: 10, height: 10))
    let cases: [(TextLayoutRequest, ValidationError)] = [
      (with(ok) { $0.fontSize = .nan }, ValidationError(field: "fontSize", reason: .notFinite)),
      (
        with(ok) { $0.fontSize = .infinity }, ValidationError(field: "fontSize", reason: .notFinite)
      ),
      (with(ok) { $0.fontSize = -1 }, ValidationError(field: "fontSize", reason: .negative)),
      (
        with(ok) { $0.fontSize = 2e6 },
        ValidationError(field: "fontSize", reason: .outOfRange(lower: 0, upper: 1e6))
      ),
      (
        with(ok) { $0.bounds.width = -1 },
        ValidationError(field: "bounds.size.width", reason: .negative)
      ),
      (
        with(ok) { $0.bounds.width = .nan },
        ValidationError(field: "bounds.size.width", reason: .notFinite)
      ),
      (
        with(ok) { $0.bounds.height = .infinity },
        ValidationError(field: "bounds.size.height", reason: .notFinite)
      ),
      (
        with(ok) { $0.bounds.height = -0.5 },
        ValidationError(field: "bounds.size.height", reason: .negative)
      ),
    ]
    for (request, error) in cases {
      #expect(throws: error) { try TextLayoutJob(request: request, face: face).run() }
    }
    let long = with(ok) {
      $0.string = String(repeating: "a", count: TextLayoutRequest.maximumScalarCount + 1)
    }
    #expect {
      try TextLayoutJob(request: long, face: face).validate()
    } throws: { error in
      (error as? ValidationError)?.field == "string"
    }
    #expect(throws: Never.self) { try TextLayoutJob(request: ok, face: face).validate() }
  }

  @Test func requestDefaultsAreCATextLayers() {
    let request = TextLayoutRequest(string: "x", bounds: .zero)
    #expect(request.font == .helvetica && request.fontSize == 36)
    #expect(request.alignmentMode == .natural && !request.isWrapped)
    #expect(request.truncationMode == .none)
  }
}

/// `value` changed by `change`.
func with<T>(_ value: T, _ change: (inout T) -> Void) -> T {
  var copy = value
  change(&copy)
  return copy
}
