import CFontconfig
import Segue

extension FontCatalog {
  /// The outline fonts fontconfig lists on this system, read once per process (fontconfig's
  /// own cache makes it a few milliseconds; the result is kept).
  ///
  /// - Throws: ``FontError/fontconfigUnavailable`` when fontconfig cannot be initialised.
  public static func installed() throws(FontError) -> FontCatalog {
    try installedFonts.get()
  }

  private static let installedFonts: Result<FontCatalog, FontError> = listInstalledFonts()

  private static func listInstalledFonts() -> Result<FontCatalog, FontError> {
    guard FcInit() != 0, let pattern = FcPatternCreate() else {
      return .failure(.fontconfigUnavailable)
    }
    defer { FcPatternDestroy(pattern) }
    FcPatternAddBool(pattern, FC_OUTLINE, 1)
    guard let objects = FcObjectSetCreate() else { return .failure(.fontconfigUnavailable) }
    defer { FcObjectSetDestroy(objects) }
    for object in [
      FC_FAMILY, FC_STYLE, FC_POSTSCRIPT_NAME, FC_FULLNAME, FC_WEIGHT, FC_SLANT, FC_WIDTH,
      FC_FILE, FC_INDEX,
    ] {
      FcObjectSetAdd(objects, object)
    }
    guard let set = FcFontList(nil, pattern, objects) else {
      return .failure(.fontconfigUnavailable)
    }
    defer { FcFontSetDestroy(set) }
    var fonts: [InstalledFont] = []
    for index in 0..<Int(set.pointee.nfont) {
      if let pattern = set.pointee.fonts[index], let font = installedFont(pattern) {
        fonts.append(font)
      }
    }
    return .success(FontCatalog(fonts: fonts))
  }

  /// One listed face; `nil` without a file or a family.
  private static func installedFont(_ pattern: OpaquePointer) -> InstalledFont? {
    guard let path = strings(pattern, FC_FILE).first else { return nil }
    let families = strings(pattern, FC_FAMILY)
    guard !families.isEmpty else { return nil }
    let weight = integer(pattern, FC_WEIGHT).map { Int(FcWeightToOpenType(Int32($0))) }
    let slant = integer(pattern, FC_SLANT) ?? Int(FC_SLANT_ROMAN)
    return InstalledFont(
      families: families,
      style: strings(pattern, FC_STYLE).first ?? "",
      postScriptName: strings(pattern, FC_POSTSCRIPT_NAME).first ?? "",
      fullName: strings(pattern, FC_FULLNAME).first ?? "",
      weight: weight.flatMap(FontWeight.init(rawValue:)) ?? .regular,
      isItalic: slant != Int(FC_SLANT_ROMAN),
      width: integer(pattern, FC_WIDTH) ?? normalWidth,
      file: FontFile(path: path, faceIndex: integer(pattern, FC_INDEX) ?? 0))
  }

  /// Every string value of `object` in the pattern, in order.
  private static func strings(_ pattern: OpaquePointer, _ object: String) -> [String] {
    var values: [String] = []
    var value: UnsafeMutablePointer<FcChar8>?
    var n: Int32 = 0
    while FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value {
      values.append(String(cString: value))
      n += 1
    }
    return values
  }

  private static func integer(_ pattern: OpaquePointer, _ object: String) -> Int? {
    var value: Int32 = 0
    return FcPatternGetInteger(pattern, object, 0, &value) == FcResultMatch ? Int(value) : nil
  }
}
