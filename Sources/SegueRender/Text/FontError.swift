/// Why a font could not be found or loaded.
///
/// Unlike Core Text, which quietly draws an unknown name with a default font, Segue rejects it:
/// a preview in the wrong typeface would pass for the app's. Apple's system font names are the
/// exception (see ``FontCatalog``): they name the default font.
public enum FontError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A name or family name that is empty or only white space.
  case emptyName
  /// No installed font has this PostScript, full or family name; `installed` lists up to five
  /// installed families nearest to it (by edit distance), for the message.
  case familyNotFound(name: String, installed: [String])
  /// None of the default families (``FontCatalog/defaultFamilies``) is installed.
  case noDefaultFont(tried: [String])
  /// fontconfig could not be initialised, so no font can be found by name.
  case fontconfigUnavailable
  /// The font file does not exist.
  case fileNotFound(path: String)
  /// The font file exists but could not be read (`reason`: the system's words).
  case fileUnreadable(path: String, reason: String)
  /// The font file is larger than the budget (``FontLibrary/maximumFileSize``), in bytes.
  case fileTooLarge(path: String, size: Int, limit: Int)
  /// FreeType or HarfBuzz could not read the file as a font (`reason`: FreeType's error).
  case corruptFile(path: String, reason: String)
  /// The file has `faceCount` faces and the index asked for is not in `0..<faceCount`.
  case faceIndexOutOfRange(path: String, index: Int, faceCount: Int)
  /// The face has no outlines (a bitmap-only font), so it cannot be drawn at every scale.
  case notScalable(path: String)

  /// The error in words, naming the path or the name.
  public var description: String {
    switch self {
    case .emptyName: return "font name is empty"
    case .familyNotFound(let name, let installed):
      let nearest = installed.isEmpty ? "" : "; installed: \(installed.joined(separator: ", "))"
      return "font '\(name)' is not installed\(nearest)"
    case .noDefaultFont(let tried):
      return "no default font is installed (tried \(tried.joined(separator: ", ")))"
    case .fontconfigUnavailable: return "fontconfig could not be initialised"
    case .fileNotFound(let path): return "\(path): font file not found"
    case .fileUnreadable(let path, let reason): return "\(path): cannot read font file: \(reason)"
    case .fileTooLarge(let path, let size, let limit):
      return "\(path): font file of \(size) bytes exceeds the limit of \(limit) bytes"
    case .corruptFile(let path, let reason): return "\(path): not a usable font file: \(reason)"
    case .faceIndexOutOfRange(let path, let index, let faceCount):
      return "\(path): face index \(index) is not in 0..<\(faceCount)"
    case .notScalable(let path): return "\(path): the font has no outlines (bitmap-only)"
    }
  }
}
