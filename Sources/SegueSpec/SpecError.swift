import Segue

/// A rejected spec file: where the problem is and what is wrong.
///
/// Two kinds of location:
/// - malformed JSON: ``line`` and ``column`` (1-based; columns count Unicode scalars) of the
///   offending character, and ``path`` is `"$"`;
/// - a well-formed document that is not a valid spec: ``path``, a JSONPath to the offending value
///   (`$.layers[2].animations[0].keyTimes[1]`; keys that are not identifiers are written
///   `$.blendModes["my layer"]`), and ``line``/``column`` are `nil`.
///
/// When the library rejected a value while the spec was being built (a ``/Segue/LayerTree``,
/// ``/Segue/LayerAnimation``, ``/Segue/KeyframeTrack``, …), ``validation`` holds its ``/Segue/ValidationError`` and the
/// path is the JSON path of the object being built followed by the library's field (and index).
public struct SpecError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The JSONPath of the offending value (`$` for the whole document or for malformed JSON).
  public var path: String
  /// The 1-based line of a JSON syntax error, else `nil`.
  public var line: Int?
  /// The 1-based column (in Unicode scalars) of a JSON syntax error, else `nil`.
  public var column: Int?
  /// What is wrong, in words (`"expected a number, found a string"`).
  public var message: String
  /// The library's error this one wraps, if any.
  public var validation: ValidationError?
  /// Whether the spec's content is wrong, or a file it names cannot be read.
  public var category: Category

  /// What a ``SpecError`` is about.
  public enum Category: Hashable, Sendable {
    /// The spec's content (the JSON, a value, a name, a budget): the command line's exit 65.
    case content
    /// A file the spec names (an image, a font) does not exist, is not a regular file or cannot
    /// be read: the command line's exit 66, as for a missing spec.
    case unreadableFile
  }

  /// An error at the JSON path `path`.
  public init(
    path: String, message: String, validation: ValidationError? = nil,
    category: Category = .content
  ) {
    self.path = path
    self.line = nil
    self.column = nil
    self.message = message
    self.validation = validation
    self.category = category
  }

  /// A JSON syntax error at `line:column`.
  public init(line: Int, column: Int, message: String) {
    self.path = "$"
    self.line = line
    self.column = column
    self.message = message
    self.validation = nil
    self.category = .content
  }

  /// Wraps a library error raised while building the object at `path`: the error's field (and
  /// index) is appended to the path, its reason becomes the message.
  public init(wrapping error: ValidationError, at path: String) {
    var place = path
    if !error.field.isEmpty { place += "." + error.field }
    if let index = error.index { place += "[\(index)]" }
    let text = error.description
    // ValidationError.description is "field[index] why": keep only the "why".
    let prefix = (error.index.map { "\(error.field)[\($0)]" } ?? error.field) + " "
    let why = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    self.init(path: place, message: why, validation: error)
  }

  /// `"line L, column C: message"` for malformed JSON, else `"path: message"`.
  public var description: String {
    if let line, let column { return "line \(line), column \(column): \(message)" }
    return "\(path): \(message)"
  }
}

/// JSONPath helpers.
enum JSONPath {
  /// `base.key`, or `base["key"]` when `key` is not an identifier (letters, digits, `_`, not
  /// starting with a digit).
  static func member(_ base: String, _ key: String) -> String {
    var isIdentifier = !key.isEmpty
    for (n, scalar) in key.unicodeScalars.enumerated() {
      let v = scalar.value
      let letter = (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F || v == 0x24
      let digit = v >= 0x30 && v <= 0x39
      if !(letter || (digit && n > 0)) {
        isIdentifier = false
        break
      }
    }
    if isIdentifier { return base + "." + key }
    return base + "[" + JSONValue.string(key).serialized() + "]"
  }

  /// `base[index]`.
  static func element(_ base: String, _ index: Int) -> String { "\(base)[\(index)]" }
}
