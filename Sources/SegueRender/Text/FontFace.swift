import CFreeType
import CHarfBuzz
import Segue
import Synchronization

/// A loaded font face: its metrics, HarfBuzz shaping and FreeType glyph outlines, in font units
/// (y up, `unitsPerEm` units to the em).
///
/// Load faces through a ``FontLibrary``, which keeps one per file and face. A face is immutable
/// except for its outline cache; it is safe to use from several threads at once: shaping uses an
/// immutable `hb_font_t` (HarfBuzz allows concurrent `hb_shape` on one), and the FreeType face,
/// which is not thread-safe, is used only under a lock.
public final class FontFace: @unchecked Sendable {
  /// Where the face came from.
  public let file: FontFile
  /// The family name FreeType reads from the font (`"Inter"`).
  public let familyName: String
  /// The style name (`"Bold"`).
  public let styleName: String
  /// The PostScript name, empty when the font has none.
  public let postScriptName: String
  /// Font units per em (2048 for DejaVu Sans, 2816 for Inter 4).
  public let unitsPerEm: Int
  /// The distance from the baseline up to the top of the line, in font units (`hhea` ascender).
  public let ascender: Int
  /// The distance from the baseline down to the bottom of the line, in font units, positive
  /// (minus the `hhea` descender).
  public let descender: Int
  /// Extra space between lines, in font units (`hhea` line gap, never negative).
  public let lineGap: Int
  /// The number of glyphs.
  public let glyphCount: Int

  /// The ellipsis "…" shaped alone (three full stops when the font has no "…"), in font units.
  let ellipsis: [ShapedGlyph]

  /// The file's bytes; FreeType and HarfBuzz read from them for the face's lifetime.
  private let bytes: UnsafeMutableRawBufferPointer
  /// Immutable after `init`; positions in font units.
  let shapingFont: OpaquePointer
  private let freeType: Mutex<FreeTypeFace>

  /// Loads the face `file` names, reading at most `maximumFileSize` bytes.
  ///
  /// - Throws: ``FontError/fileNotFound(path:)``, ``FontError/fileUnreadable(path:reason:)``,
  ///   ``FontError/fileTooLarge(path:size:limit:)``, ``FontError/corruptFile(path:reason:)``,
  ///   ``FontError/faceIndexOutOfRange(path:index:faceCount:)``,
  ///   ``FontError/notScalable(path:)``.
  public init(file: FontFile, maximumFileSize: Int) throws(FontError) {
    let bytes = try FontFileReader.bytes(ofFile: file.path, limit: maximumFileSize)
    var ownsBytes = true
    defer { if ownsBytes { bytes.deallocate() } }
    let face = try FreeTypeFace(bytes: bytes, file: file)
    let metrics = face.metrics
    guard let shaping = Self.makeShapingFont(bytes, file: file, unitsPerEm: metrics.unitsPerEm)
    else {
      face.close()
      throw .corruptFile(path: file.path, reason: "HarfBuzz cannot read it as OpenType")
    }
    self.file = file
    familyName = metrics.familyName
    styleName = metrics.styleName
    postScriptName = metrics.postScriptName
    unitsPerEm = metrics.unitsPerEm
    ascender = metrics.ascender
    descender = metrics.descender
    lineGap = metrics.lineGap
    glyphCount = metrics.glyphCount
    self.bytes = bytes
    shapingFont = shaping
    freeType = Mutex(face)
    ownsBytes = false
    ellipsis = Self.shapeEllipsis(shaping)
  }

  deinit {
    hb_font_destroy(shapingFont)
    freeType.withLock { $0.close() }
    bytes.deallocate()
  }

  /// An immutable HarfBuzz font over `bytes` with positions in font units; `nil` when HarfBuzz
  /// finds no glyphs (not a TrueType or OpenType file).
  private static func makeShapingFont(
    _ bytes: UnsafeMutableRawBufferPointer, file: FontFile, unitsPerEm: Int
  ) -> OpaquePointer? {
    guard let base = bytes.baseAddress, bytes.count <= Int(UInt32.max) else { return nil }
    let blob = hb_blob_create(
      base.assumingMemoryBound(to: CChar.self), UInt32(bytes.count), HB_MEMORY_MODE_READONLY, nil,
      nil)
    let face = hb_face_create(blob, UInt32(file.faceIndex & 0xFFFF))
    hb_blob_destroy(blob)
    defer { hb_face_destroy(face) }
    guard hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else { return nil }
    hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
    let namedInstance = file.faceIndex >> 16
    if namedInstance > 0 { hb_font_set_var_named_instance(font, UInt32(namedInstance - 1)) }
    hb_font_make_immutable(font)
    return font
  }

  /// The glyph `scalar` maps to through the font's character map, `nil` when it has none.
  public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
    var glyph: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(shapingFont, scalar.value, &glyph) != 0 ? glyph : nil
  }

  /// The horizontal advance of `glyph`, in font units (0 for a glyph the font lacks).
  public func advance(of glyph: UInt32) -> Int {
    Int(hb_font_get_glyph_h_advance(shapingFont, glyph))
  }

  /// The outline of `glyph` in font units (y up), loaded once and kept; empty for a glyph the
  /// font lacks or one without an outline (a space).
  public func outline(of glyph: UInt32) -> GlyphOutline {
    freeType.withLock { face in
      if let cached = face.outlines[glyph] { return cached }
      let outline = face.loadOutline(glyph)
      face.outlines[glyph] = outline
      return outline
    }
  }

  /// The face's vertical metrics at `fontSize` points.
  public func metrics(fontSize: Double) -> FontMetrics {
    FontMetrics(
      fontSize: fontSize, unitsPerEm: unitsPerEm, ascender: ascender, descender: descender,
      lineGap: lineGap)
  }
}
