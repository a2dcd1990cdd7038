import Foundation
import Segue
import SegueRender
import Testing

/// Loading faces (and every file the library rejects), glyph outlines against the font's own
/// tables and FreeType's metrics.
@Suite struct FontFaceTests {
  @Test func defaultFontIsInterAndFacesAreShared() throws {
    let face = try TextTestFonts.library.face(for: .helvetica)
    #expect(face.familyName == "Inter")
    #expect(face.postScriptName == "Inter-Regular")
    #expect(try TextTestFonts.inter() === face)
    #expect(try TextTestFonts.library.face(face.file) === face)
    #expect(face.unitsPerEm > 0 && face.ascender > 0 && face.descender > 0)
  }

  @Test func metricsScaleFontUnitsToPoints() throws {
    let face = try TextTestFonts.dejaVuSans()
    let tables = try TrueTypeTables(path: face.file.path)
    #expect(face.unitsPerEm == tables.unitsPerEm)
    #expect(face.ascender == tables.ascender)
    let metrics = face.metrics(fontSize: 36)
    #expect(metrics.scale == 36.0 / Double(tables.unitsPerEm))
    #expect(metrics.ascent == Double(tables.ascender) * 36 / Double(tables.unitsPerEm))
    #expect(metrics.lineHeight == metrics.ascent + metrics.descent + metrics.leading)
  }

  /// DejaVu Sans "I" is a rectangle: its outline's box is the `glyf` header's box, read from the
  /// file's bytes, and FreeType's metrics box.
  @Test func outlineOfCapitalIMatchesTheGlyfTable() throws {
    let face = try TextTestFonts.dejaVuSans()
    let tables = try TrueTypeTables(path: face.file.path)
    let glyph = try #require(face.glyph(for: "I"))
    let outline = face.outline(of: glyph)
    let box = tables.glyphBox(glyph)
    let expected = Rect(
      x: Double(box.xMin), y: Double(box.yMin), width: Double(box.xMax - box.xMin),
      height: Double(box.yMax - box.yMin))
    #expect(try #require(controlBox(outline.elements)) == expected)
    #expect(outline.bounds == expected)
    #expect(outline.elements.filter { if case .line = $0 { true } else { false } }.count == 4)
    #expect(outline.elements.first.map { if case .move = $0 { true } else { false } } == true)
    #expect(outline.elements.last == .closeSubpath)
    #expect(outline.advance == Double(face.advance(of: glyph)))
  }

  /// TrueType outlines have quadratic curves, CFF (Inter) cubic ones; each outline's control box
  /// is FreeType's metrics box (on-curve extremes).
  @Test func outlinesKeepTheirCurveKind() throws {
    for (face, cubic) in [
      (try TextTestFonts.dejaVuSans(), false), (try TextTestFonts.inter(), true),
    ] {
      let outline = face.outline(of: try #require(face.glyph(for: "O")))
      let quads = outline.elements.filter { if case .quadCurve = $0 { true } else { false } }
      let cubics = outline.elements.filter { if case .curve = $0 { true } else { false } }
      #expect(cubic ? (cubics.count > 0 && quads.isEmpty) : (quads.count > 0 && cubics.isEmpty))
      let moves = outline.elements.filter { if case .move = $0 { true } else { false } }
      #expect(moves.count == 2)  // outer and inner contour
      let box = try #require(controlBox(outline.elements))
      #expect(abs(box.minX - outline.bounds.minX) <= 1e-9)
      #expect(abs(box.maxY - outline.bounds.maxY) <= 1e-9)
      #expect(outline.path.elements == outline.elements)
    }
  }

  @Test func glyphsWithoutOutlines() throws {
    let face = try TextTestFonts.inter()
    let space = face.outline(of: try #require(face.glyph(for: " ")))
    #expect(space.elements.isEmpty && space.advance > 0)
    #expect(face.outline(of: UInt32(face.glyphCount + 10)).elements.isEmpty)
    #expect(face.glyph(for: "\u{10FFFD}") == nil)
  }

  // MARK: Rejected files

  func load(_ path: String, index: Int = 0, limit: Int = FontLibrary.defaultMaximumFileSize)
    throws(FontError) -> FontFace
  {
    try FontFace(file: FontFile(path: path, faceIndex: index), maximumFileSize: limit)
  }

  @Test func missingFilesAndDirectories() {
    #expect(throws: FontError.fileNotFound(path: "/nonexistent/font.ttf")) {
      try load("/nonexistent/font.ttf")
    }
    #expect(throws: FontError.fileNotFound(path: "")) { try load("") }
    #expect(throws: FontError.fileUnreadable(path: "/tmp", reason: "not a regular file")) {
      try load("/tmp")
    }
    #expect(throws: FontError.fileUnreadable(path: "/dev/null", reason: "not a regular file")) {
      try load("/dev/null")
    }
  }

  @Test func oversizedFilesAreRejectedBeforeReading() throws {
    let path = try TextTestFonts.dejaVuSans().file.path
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(throws: FontError.fileTooLarge(path: path, size: size, limit: 1000)) {
      try load(path, limit: 1000)
    }
    #expect(try load(path, limit: size).unitsPerEm > 0)
  }

  @Test func corruptAndEmptyFiles() throws {
    let empty = try TextTestFonts.temporaryFile([])
    defer { try? FileManager.default.removeItem(atPath: empty) }
    #expect(throws: FontError.corruptFile(path: empty, reason: "the file is empty")) {
      try load(empty)
    }
    var generator = SystemRandomNumberGenerator()
    let noise = try TextTestFonts.temporaryFile((0..<4096).map { _ in generator.next() })
    defer { try? FileManager.default.removeItem(atPath: noise) }
    #expect(throws: FontError.self) { try load(noise) }
    #expect {
      try load(noise)
    } throws: { error in
      if case .corruptFile(let path, _) = error as? FontError { return path == noise }
      return false
    }
    // A real font cut short.
    let real = Array(
      try Data(contentsOf: URL(fileURLWithPath: try TextTestFonts.dejaVuSans().file.path)))
    let truncated = try TextTestFonts.temporaryFile(Array(real.prefix(200)))
    defer { try? FileManager.default.removeItem(atPath: truncated) }
    #expect {
      try load(truncated)
    } throws: { error in
      if case .corruptFile = error as? FontError { return true }
      return false
    }
  }

  @Test func faceIndexOutOfRange() throws {
    let path = try TextTestFonts.inter().file.path
    #expect(throws: FontError.faceIndexOutOfRange(path: path, index: 1, faceCount: 1)) {
      try load(path, index: 1)
    }
    #expect(throws: FontError.faceIndexOutOfRange(path: path, index: -1, faceCount: 1)) {
      try load(path, index: -1)
    }
  }

  /// A bitmap-only font (BDF, which FreeType reads) has no outlines.
  @Test func bitmapOnlyFontsAreNotScalable() throws {
    let bdf = """
      STARTFONT 2.1
      FONT -segue-test-medium-r-normal--8-80-75-75-c-80-iso10646-1
      SIZE 8 75 75
      FONTBOUNDINGBOX 8 8 0 0
      STARTPROPERTIES 2
      FONT_ASCENT 8
      FONT_DESCENT 0
      ENDPROPERTIES
      CHARS 1
      STARTCHAR A
      ENCODING 65
      SWIDTH 500 0
      DWIDTH 8 0
      BBX 8 8 0 0
      BITMAP
      18
      24
      42
      42
      7E
      42
      42
      00
      ENDCHAR
      ENDFONT

      """
    let path = try TextTestFonts.temporaryFile(Array(bdf.utf8), suffix: ".bdf")
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: FontError.notScalable(path: path)) { try load(path) }
  }

  @Test func libraryRejectsWhatFacesReject() {
    let library = FontLibrary(maximumFileSize: 10)
    #expect(library.maximumFileSize == 10)
    #expect {
      try library.face(for: .name("DejaVu Sans"))
    } throws: { error in
      if case .fileTooLarge(_, _, 10) = error as? FontError { return true }
      return false
    }
    #expect(throws: FontError.fileNotFound(path: "/nonexistent.otf")) {
      try library.face(for: .file(path: "/nonexistent.otf", faceIndex: 0))
    }
  }

  @Test func errorMessagesNameWhatWasWrong() {
    let cases: [(FontError, String)] = [
      (.emptyName, "font name is empty"),
      (
        .familyNotFound(name: "Arial", installed: ["Inter"]),
        "font 'Arial' is not installed; installed: Inter"
      ),
      (.familyNotFound(name: "X", installed: []), "font 'X' is not installed"),
      (
        .noDefaultFont(tried: ["Inter", "DejaVu Sans"]),
        "no default font is installed (tried Inter, DejaVu Sans)"
      ),
      (.fontconfigUnavailable, "fontconfig could not be initialised"),
      (.fileNotFound(path: "/a"), "/a: font file not found"),
      (.fileUnreadable(path: "/a", reason: "denied"), "/a: cannot read font file: denied"),
      (
        .fileTooLarge(path: "/a", size: 20, limit: 10),
        "/a: font file of 20 bytes exceeds the limit of 10 bytes"
      ),
      (.corruptFile(path: "/a", reason: "bad"), "/a: not a usable font file: bad"),
      (
        .faceIndexOutOfRange(path: "/a", index: 3, faceCount: 1), "/a: face index 3 is not in 0..<1"
      ),
      (.notScalable(path: "/a"), "/a: the font has no outlines (bitmap-only)"),
    ]
    for (error, text) in cases { #expect(error.description == text) }
  }
}
