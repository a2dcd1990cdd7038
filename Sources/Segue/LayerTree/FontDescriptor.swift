/// Which typeface a text layer draws with (`CATextLayer.font`, `UIFontDescriptor`): an installed
/// font by name, a family with a weight and slant, or a font file.
///
/// Names are resolved by the renderer, which lists the installed fonts; this value only says
/// what was asked for.
public enum FontDescriptor: Hashable, Sendable {
  /// A font by PostScript name (`"Inter-Bold"`, `"DejaVuSans-Oblique"`), full name
  /// (`"Inter Bold"`) or family name (`"Inter"`, the family's regular upright face), compared
  /// without regard to case. Apple's system names (`"Helvetica"`, `"Helvetica Neue"`,
  /// `"SF Pro Text"`, `".AppleSystemUIFont"`, … with a style suffix such as `"-Bold"`) name the
  /// default font in that style.
  case name(String)
  /// The face of `family` nearest to `weight` (CSS font matching: the nearest weight, lighter
  /// ones first below 400, heavier ones first above 500) with the slant asked for when the
  /// family has it.
  case family(String, weight: FontWeight, isItalic: Bool)
  /// A TrueType, OpenType or collection file (`.ttf`, `.otf`, `.ttc`) and the face within it
  /// (0 for a single-face file).
  case file(path: String, faceIndex: Int)

  /// `CATextLayer`'s default font (Helvetica), drawn with the renderer's default font.
  public static let helvetica = FontDescriptor.name("Helvetica")
}
