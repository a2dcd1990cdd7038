import Segue

/// A style suffix of a font name (`"Bold"`, `"SemiboldItalic"`, `"Oblique"`): a weight and a
/// slant. Weight words follow `UIFont.Weight`'s order (ultralight 100, thin 200, light 300,
/// regular 400, medium 500, semibold 600, bold 700, heavy 800, black 900).
struct FontStyleName: Hashable, Sendable {
  var weight: FontWeight
  var isItalic: Bool

  static let regular = FontStyleName(weight: .regular, isItalic: false)

  static let weightWords: [String: FontWeight] = [
    "": .regular, "regular": .regular, "roman": .regular, "book": .regular, "normal": .regular,
    "plain": .regular, "ultralight": .ultraLight, "extralight": .ultraLight, "thin": .thin,
    "light": .light, "medium": .medium, "semibold": .semibold, "demibold": .semibold,
    "bold": .bold, "heavy": .heavy, "extrabold": .heavy, "ultrabold": .heavy, "black": .black,
  ]

  /// Parses `suffix` (case and spaces ignored); `nil` when it is not a style name.
  init?<S: StringProtocol>(_ suffix: S) {
    var word = suffix.lowercased().filter { $0 != " " }
    var isItalic = false
    for slant in ["italic", "oblique"] where word.hasSuffix(slant) {
      word.removeLast(slant.count)
      isItalic = true
    }
    guard let weight = Self.weightWords[word] else { return nil }
    self.init(weight: weight, isItalic: isItalic)
  }

  init(weight: FontWeight, isItalic: Bool) {
    self.weight = weight
    self.isItalic = isItalic
  }
}
