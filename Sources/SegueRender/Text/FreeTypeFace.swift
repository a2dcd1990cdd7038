import CFreeType
import Segue

/// A FreeType library and face over a font file's bytes, with the outlines loaded so far. Not
/// thread-safe: ``FontFace`` keeps it under a lock and never uses it outside (hence the
/// unchecked `Sendable`, which lets it move into the lock).
struct FreeTypeFace: @unchecked Sendable {
  /// What `init` reads from the face.
  struct Metrics {
    var familyName: String
    var styleName: String
    var postScriptName: String
    var unitsPerEm: Int
    var ascender: Int
    var descender: Int
    var lineGap: Int
    var glyphCount: Int
  }

  private let library: FT_Library
  private let face: FT_Face
  let metrics: Metrics
  var outlines: [UInt32: GlyphOutline] = [:]

  /// FreeType's glyph loading: unhinted outlines (no bitmaps), so they scale under any matrix.
  private static let loadFlags = FT_Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
  /// 26.6 fixed point: 64 units to one.
  private static let fixedOne = 64.0

  /// Opens face `file.faceIndex` of the font in `bytes` (which must outlive it).
  init(bytes: UnsafeMutableRawBufferPointer, file: FontFile) throws(FontError) {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else {
      throw .corruptFile(path: file.path, reason: "FreeType could not start")
    }
    do {
      face = try Self.openFace(library, bytes: bytes, file: file)
    } catch {
      FT_Done_FreeType(library)
      throw error
    }
    self.library = library
    do {
      metrics = try Self.readMetrics(face, file: file)
    } catch {
      FT_Done_Face(face)
      FT_Done_FreeType(library)
      throw error
    }
  }

  private static func openFace(
    _ library: FT_Library, bytes: UnsafeMutableRawBufferPointer, file: FontFile
  ) throws(FontError) -> FT_Face {
    let base = bytes.baseAddress?.assumingMemoryBound(to: FT_Byte.self)
    var probe: FT_Face?
    let probeError = FT_New_Memory_Face(library, base, FT_Long(bytes.count), -1, &probe)
    guard probeError == 0, let probe else {
      throw .corruptFile(path: file.path, reason: errorText(probeError))
    }
    let faceCount = Int(probe.pointee.num_faces)
    FT_Done_Face(probe)
    guard file.faceIndex >= 0, file.faceIndex & 0xFFFF < faceCount else {
      throw .faceIndexOutOfRange(path: file.path, index: file.faceIndex, faceCount: faceCount)
    }
    var face: FT_Face?
    let error = FT_New_Memory_Face(
      library, base, FT_Long(bytes.count), FT_Long(file.faceIndex), &face)
    guard error == 0, let face else {
      throw .corruptFile(path: file.path, reason: errorText(error))
    }
    return face
  }

  /// Names and vertical metrics; the face at one pixel per font unit (26.6), so unhinted
  /// outlines come back in font units without rounding.
  private static func readMetrics(_ face: FT_Face, file: FontFile) throws(FontError) -> Metrics {
    let record = face.pointee
    guard record.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
      throw .notScalable(path: file.path)
    }
    let unitsPerEm = Int(record.units_per_EM)
    guard unitsPerEm > 0,
      FT_Set_Char_Size(face, 0, FT_F26Dot6(unitsPerEm) * FT_F26Dot6(fixedOne), 72, 72) == 0
    else {
      throw .corruptFile(path: file.path, reason: "units per em is \(unitsPerEm)")
    }
    let ascender = Int(record.ascender)
    let descender = -Int(record.descender)
    return Metrics(
      familyName: record.family_name.map { String(cString: $0) } ?? "",
      styleName: record.style_name.map { String(cString: $0) } ?? "",
      postScriptName: FT_Get_Postscript_Name(face).map { String(cString: $0) } ?? "",
      unitsPerEm: unitsPerEm, ascender: ascender, descender: descender,
      lineGap: max(0, Int(record.height) - ascender - descender),
      glyphCount: Int(record.num_glyphs))
  }

  /// Frees the face and the library; call once.
  func close() {
    FT_Done_Face(face)
    FT_Done_FreeType(library)
  }

  /// The unhinted outline of `glyph` in font units, empty when FreeType cannot load it as an
  /// outline.
  func loadOutline(_ glyph: UInt32) -> GlyphOutline {
    guard FT_Load_Glyph(face, glyph, Self.loadFlags) == 0, let slot = face.pointee.glyph,
      slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE
    else { return GlyphOutline(glyph: glyph, elements: [], advance: 0, bounds: .zero) }
    let m = slot.pointee.metrics
    let bounds = Rect(
      x: Double(m.horiBearingX) / Self.fixedOne,
      y: Double(m.horiBearingY - m.height) / Self.fixedOne,
      width: Double(m.width) / Self.fixedOne, height: Double(m.height) / Self.fixedOne)
    var outline = slot.pointee.outline
    let elements = OutlineDecomposer.elements(of: &outline, unitsPerFixed: Self.fixedOne)
    return GlyphOutline(
      glyph: glyph, elements: elements, advance: Double(m.horiAdvance) / Self.fixedOne,
      bounds: bounds)
  }

  /// FreeType's name for `error` when it was built with error strings, else its number.
  static func errorText(_ error: FT_Error) -> String {
    if let text = FT_Error_String(error) { return String(cString: text) }
    return "FreeType error \(error)"
  }
}
