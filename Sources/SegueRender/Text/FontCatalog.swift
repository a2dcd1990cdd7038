import Segue

/// A font file and the face within it (0 for a single-face file; a collection's face, with a
/// variable font's named instance in the bits above 16, as fontconfig numbers them).
public struct FontFile: Hashable, Sendable, CustomStringConvertible {
  /// The file's path.
  public var path: String
  /// The face index within the file.
  public var faceIndex: Int

  /// The face `faceIndex` of the file at `path`.
  public init(path: String, faceIndex: Int = 0) {
    self.path = path
    self.faceIndex = faceIndex
  }

  /// `path` or `path#faceIndex`.
  public var description: String { faceIndex == 0 ? path : "\(path)#\(faceIndex)" }
}

/// One installed face, as fontconfig lists it.
public struct InstalledFont: Hashable, Sendable {
  /// The family names (fontconfig lists more than one for some faces: `"Inter"`,
  /// `"Inter Black"`).
  public var families: [String]
  /// The style name (`"Bold Italic"`).
  public var style: String
  /// The PostScript name (`"Inter-BoldItalic"`), empty when the font has none.
  public var postScriptName: String
  /// The full name (`"Inter Bold Italic"`), empty when the font has none.
  public var fullName: String
  /// The weight class.
  public var weight: FontWeight
  /// Whether the face slants (italic or oblique).
  public var isItalic: Bool
  /// The width class on fontconfig's scale (100 normal, 75 condensed, 125 expanded).
  public var width: Int
  /// Where the face is.
  public var file: FontFile

  /// An installed face; see the properties.
  public init(
    families: [String], style: String, postScriptName: String, fullName: String,
    weight: FontWeight, isItalic: Bool, width: Int = FontCatalog.normalWidth, file: FontFile
  ) {
    self.families = families
    self.style = style
    self.postScriptName = postScriptName
    self.fullName = fullName
    self.weight = weight
    self.isItalic = isItalic
    self.width = width
    self.file = file
  }
}

/// The installed fonts and the rules that turn a ``/Segue/FontDescriptor`` into a font file.
///
/// A name is matched, without regard to case, against PostScript names, then full names, then
/// family names (the regular upright face); then as `Family-Style` (`"DejaVuSans-Bold"`,
/// spaces ignored in the family). Apple's system names (``systemFontNames``, with or without a
/// `-Style` suffix) stand for the first installed of ``defaultFamilies``: on Linux there is no
/// Helvetica or San Francisco, and Inter is drawn in their place. There is no other substitution:
/// an unknown name is ``FontError/familyNotFound(name:installed:)``.
public struct FontCatalog: Sendable {
  /// The faces, in fontconfig's order.
  public var fonts: [InstalledFont]

  /// The families that draw Apple's system fonts, the first installed one wins: Inter
  /// (Debian's `fonts-inter`, close to San Francisco in shape and metrics), then DejaVu Sans
  /// (`fonts-dejavu-core`, on almost every Debian system).
  public static let defaultFamilies = ["Inter", "DejaVu Sans"]

  /// Apple's system font families, compared lowercased without spaces or a leading dot.
  public static let systemFontNames: Set<String> = [
    "helvetica", "helveticaneue", "system", "systemfont", "applesystemuifont", "sfpro",
    "sfprotext", "sfprodisplay", "sfuitext", "sfuidisplay", "sfui",
  ]

  /// fontconfig's normal width class.
  public static let normalWidth = 100

  /// A catalog of `fonts` (tests build their own).
  public init(fonts: [InstalledFont]) {
    self.fonts = fonts
  }

  /// The face `descriptor` names: a file as given, or an installed face by the rules above.
  ///
  /// - Throws: ``FontError/emptyName``, ``FontError/familyNotFound(name:installed:)``,
  ///   ``FontError/noDefaultFont(tried:)``.
  public func resolve(_ descriptor: FontDescriptor) throws(FontError) -> FontFile {
    switch descriptor {
    case .file(let path, let faceIndex):
      return FontFile(path: path, faceIndex: faceIndex)
    case .family(let family, let weight, let isItalic):
      let key = Self.normalized(family)
      guard !key.isEmpty else { throw .emptyName }
      if Self.systemFontNames.contains(key) {
        return try defaultFace(weight: weight, isItalic: isItalic)
      }
      guard let face = nearest(inFamily: key, weight: weight, isItalic: isItalic) else {
        throw .familyNotFound(name: family, installed: nearestFamilies(to: key))
      }
      return face.file
    case .name(let name):
      return try resolve(name: name)
    }
  }

  private func resolve(name: String) throws(FontError) -> FontFile {
    let trimmed = name.trimmingWhiteSpace
    guard !trimmed.isEmpty else { throw .emptyName }
    let lowered = trimmed.lowercased()
    if let face = fonts.first(where: { $0.postScriptName.lowercased() == lowered }) {
      return face.file
    }
    if let face = fonts.first(where: { $0.fullName.lowercased() == lowered }) {
      return face.file
    }
    var family = Self.normalized(trimmed)
    var style = FontStyleName.regular
    if let dash = trimmed.lastIndex(of: "-"),
      let parsed = FontStyleName(trimmed[dash...].dropFirst())
    {
      family = Self.normalized(trimmed[..<dash])
      style = parsed
    }
    if Self.systemFontNames.contains(family) {
      return try defaultFace(weight: style.weight, isItalic: style.isItalic)
    }
    if let face = nearest(inFamily: family, weight: style.weight, isItalic: style.isItalic) {
      return face.file
    }
    throw .familyNotFound(
      name: String(trimmed), installed: nearestFamilies(to: Self.normalized(trimmed)))
  }

  /// The first installed default family's face nearest to the weight and slant.
  public func defaultFace(weight: FontWeight = .regular, isItalic: Bool = false)
    throws(FontError) -> FontFile
  {
    for family in Self.defaultFamilies {
      if let face = nearest(inFamily: Self.normalized(family), weight: weight, isItalic: isItalic) {
        return face.file
      }
    }
    throw .noDefaultFont(tried: Self.defaultFamilies)
  }

  /// The family's face nearest to `weight` and the slant (see ``/Segue/FontDescriptor/family(_:weight:isItalic:)``),
  /// then nearest to the normal width, then by path; `nil` when no face has the family.
  func nearest(inFamily key: String, weight: FontWeight, isItalic: Bool) -> InstalledFont? {
    let members = fonts.filter { $0.families.contains { Self.normalized($0) == key } }
    guard !members.isEmpty else { return nil }
    let sameSlant = members.filter { $0.isItalic == isItalic }
    let pool = sameSlant.isEmpty ? members : sameSlant
    return pool.min { a, b in
      let ra = Self.weightRank(a.weight.rawValue, wanted: weight.rawValue)
      let rb = Self.weightRank(b.weight.rawValue, wanted: weight.rawValue)
      if ra != rb { return ra < rb }
      let wa = abs(a.width - Self.normalWidth)
      let wb = abs(b.width - Self.normalWidth)
      if wa != wb { return wa < wb }
      return a.file.description < b.file.description
    }
  }

  /// CSS Fonts 4 §5.2 weight matching as a rank (smaller is better): for a wanted weight
  /// `400…500`, heavier weights up to 500 first (ascending), then lighter ones (descending),
  /// then heavier than 500 (ascending); below 400 lighter first, above 500 heavier first.
  static func weightRank(_ weight: Int, wanted: Int) -> Int {
    let span = FontWeight.range.upperBound + 1
    if weight == wanted { return 0 }
    if wanted >= 400 && wanted <= 500 {
      if weight > wanted && weight <= 500 { return weight - wanted }
      if weight < wanted { return span + (wanted - weight) }
      return 2 * span + (weight - wanted)
    }
    let preferLighter = wanted < 400
    let lighter = weight < wanted
    let distance = abs(weight - wanted)
    return lighter == preferLighter ? distance : span + distance
  }

  /// Up to five installed family names nearest to `key` by edit distance (then by name).
  func nearestFamilies(to key: String) -> [String] {
    var seen = Set<String>()
    var scored: [(Int, String)] = []
    for font in fonts {
      for family in font.families where seen.insert(family).inserted {
        scored.append((Self.editDistance(Self.normalized(family), key), family))
      }
    }
    return scored.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.prefix(5).map(\.1)
  }

  /// Lowercased, without spaces, hyphens, underscores or a leading dot: `"SF Pro Text"` →
  /// `"sfprotext"`.
  static func normalized<S: StringProtocol>(_ name: S) -> String {
    String(name.lowercased().filter { !" -_.".contains($0) })
  }

  /// Levenshtein distance by characters (one row of the table at a time).
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}

extension StringProtocol {
  /// Without leading and trailing white space.
  var trimmingWhiteSpace: Substring {
    let text = Substring(self)
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
      let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return text[first...last]
  }
}
