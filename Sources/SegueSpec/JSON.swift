/// A JSON value (RFC 8259) that keeps the order of object members.
///
/// Numbers are `Double`s; a parsed number is always finite (literals outside the `Double` range
/// are rejected by ``parse(_:maxDepth:)``). Objects are lists of `(key, value)` pairs in document
/// order; ``parse(_:maxDepth:)`` rejects duplicate keys, so a parsed object's keys are unique.
public enum JSONValue: Sendable, Equatable, CustomStringConvertible {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, finite when parsed.
  case number(Double)
  /// A string (any Unicode scalars).
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object: members in order.
  case object([(String, JSONValue)])

  /// Structural equality: same case and payload; objects compare member by member **in order**
  /// (keys and values), numbers with `==` (so `0 == -0`).
  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      guard x.count == y.count else { return false }
      for (l, r) in zip(x, y) where l.0 != r.0 || l.1 != r.1 { return false }
      return true
    default: return false
    }
  }

  /// The member named `key` of an object (the first, if a hand-built object repeats it), else
  /// `nil`.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// A short name of the value's type for messages: `null`, `a boolean`, `a number`, `a string`,
  /// `an array`, `an object`.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The compact serialization (``serialized(pretty:)`` with `pretty: false`).
  public var description: String { serialized() }
}

// MARK: - Serializer

extension JSONValue {
  /// The value as JSON text.
  ///
  /// - Object members are written in their stored order (stable output).
  /// - Numbers: `Double.description`, the shortest text that parses back to the same `Double`
  ///   (`0.1`, `1e-05`, `1.5e+300`), without the `.0` it gives integral values (`3`, `-0` for
  ///   negative zero, `9007199254740992`). A non-finite
  ///   number (only possible in a hand-built value) is written as `null`, as JavaScript's
  ///   `JSON.stringify` does.
  /// - Strings escape `"`, `\` and the control characters below U+0020 (`\n`, `\t`, … or
  ///   `\u00XX`); everything else is written as UTF-8.
  ///
  /// - Parameter pretty: `false` (default): no whitespace. `true`: one member or element per line,
  ///   indented by two spaces per level, `": "` after keys, except that an array holding only
  ///   scalars (numbers, strings, booleans, nulls; a point, a rectangle, a matrix) is written on
  ///   one line as `[1, 2, 3]`; empty arrays and objects stay `[]` and `{}`; no trailing newline.
  public func serialized(pretty: Bool = false) -> String {
    var out = ""
    write(into: &out, pretty: pretty, indent: 0)
    return out
  }

  /// Writes a number as described in ``serialized(pretty:)``.
  static func numberText(_ x: Double) -> String {
    guard x.isFinite else { return "null" }
    let text = x.description
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }

  private func write(into out: inout String, pretty: Bool, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let x): out += Self.numberText(x)
    case .string(let s): Self.writeString(s, into: &out)
    case .array(let items):
      guard !items.isEmpty else {
        out += "[]"
        return
      }
      if pretty, items.allSatisfy(\.isScalar) {
        // Arrays of scalars (points, rectangles, matrices) stay on one line.
        out += "["
        for (i, item) in items.enumerated() {
          if i > 0 { out += ", " }
          item.write(into: &out, pretty: false, indent: 0)
        }
        out += "]"
        return
      }
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        if pretty { Self.newline(&out, indent + 1) }
        item.write(into: &out, pretty: pretty, indent: indent + 1)
      }
      if pretty { Self.newline(&out, indent) }
      out += "]"
    case .object(let members):
      guard !members.isEmpty else {
        out += "{}"
        return
      }
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out += "," }
        if pretty { Self.newline(&out, indent + 1) }
        Self.writeString(key, into: &out)
        out += pretty ? ": " : ":"
        value.write(into: &out, pretty: pretty, indent: indent + 1)
      }
      if pretty { Self.newline(&out, indent) }
      out += "}"
    }
  }

  /// Neither an array nor an object.
  private var isScalar: Bool {
    switch self {
    case .array, .object: false
    default: true
    }
  }

  private static func newline(_ out: inout String, _ indent: Int) {
    out += "\n"
    out += String(repeating: "  ", count: indent)
  }

  private static func writeString(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}

// MARK: - Parser

extension JSONValue {
  /// The default nesting limit of ``parse(_:maxDepth:)``.
  public static let defaultMaxDepth = 128

  /// The largest nesting limit ``parse(_:maxDepth:)`` accepts: a larger `maxDepth` is treated as
  /// this. The parser, ``serialized(pretty:)``, `==` and the release of a value are recursive,
  /// one level of calls per level of nesting; 256 levels fit a 512 KiB thread stack with a wide
  /// margin even in a debug build (measured: 1000 levels pass, 1500 overflow a test thread), so
  /// no document, however deep, can exhaust the stack: deeper nesting is a ``SpecError`` naming
  /// the line and column of the first bracket past the limit.
  public static let maximumDepth = 256

  /// Parses `text` as one JSON value (RFC 8259), strictly.
  ///
  /// Accepted: the grammar of RFC 8259 §2–7 with whitespace (space, tab, LF, CR) around tokens.
  /// Rejected, each with a ``SpecError`` carrying the 1-based `line:column` (columns count Unicode
  /// scalars) of the offending character and what was expected there:
  /// - anything outside the grammar: trailing commas, single quotes, comments, leading `+` or
  ///   zeros, `.5`, `1.`, `NaN`, `Infinity`, unescaped control characters in strings, invalid
  ///   escapes, text after the value, empty input;
  /// - a `\u` escape that is a lone UTF-16 surrogate (a high surrogate must be followed by a
  ///   `\u` low surrogate; the pair is decoded to one scalar);
  /// - a number whose magnitude rounds to infinity in `Double` (`1e400`); numbers that underflow
  ///   round to zero or a subnormal as `strtod` does;
  /// - a key that occurs twice in the same object (RFC 8259 leaves this open; here it is an error
  ///   pointing at the second occurrence);
  /// - arrays and objects nested deeper than `maxDepth` (the top-level value is depth 1).
  ///
  /// - Parameters:
  ///   - text: the document.
  ///   - maxDepth: the nesting limit, `≥ 1` (default ``defaultMaxDepth``, 128; at most
  ///     ``maximumDepth``, 256: larger values are treated as 256).
  /// - Throws: ``SpecError`` with ``SpecError/line`` and ``SpecError/column`` set.
  public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(SpecError)
    -> JSONValue
  {
    var parser = JSONParser(bytes: Array(text.utf8), maxDepth: min(maxDepth, maximumDepth))
    return try parser.parseDocument()
  }
}

/// A recursive-descent parser over UTF-8 bytes.
private struct JSONParser {
  let bytes: [UInt8]
  let maxDepth: Int
  var i = 0
  var depth = 0

  init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func parseDocument() throws(SpecError) -> JSONValue {
    skipWhitespace()
    guard i < bytes.count else { throw error("expected a JSON value, found the end of input") }
    let value = try parseValue()
    skipWhitespace()
    guard i == bytes.count else {
      throw error("expected the end of input after the JSON value, found \(found())")
    }
    return value
  }

  // MARK: Errors

  /// The 1-based line and column (in Unicode scalars) of byte offset `offset`.
  func location(_ offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    var k = 0
    let end = min(offset, bytes.count)
    while k < end {
      let b = bytes[k]
      if b == 0x0A {
        line += 1
        column = 1
      } else if b & 0xC0 != 0x80 {
        column += 1
      }
      k += 1
    }
    return (line, column)
  }

  func error(_ message: String, at offset: Int? = nil) -> SpecError {
    let (line, column) = location(offset ?? i)
    return SpecError(line: line, column: column, message: message)
  }

  /// A description of the character at the cursor.
  func found() -> String {
    guard i < bytes.count else { return "the end of input" }
    let b = bytes[i]
    if b < 0x20 { return "control character U+\(hex4(UInt32(b)))" }
    if b < 0x80 { return "'\(Character(Unicode.Scalar(b)))'" }
    // Decode the scalar starting here for the message.
    var iterator = bytes[i...].makeIterator()
    var decoder = UTF8()
    if case .scalarValue(let s) = decoder.decode(&iterator) { return "'\(Character(s))'" }
    return "byte 0x\(String(b, radix: 16))"
  }

  func hex4(_ v: UInt32) -> String {
    let h = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - h.count)) + h
  }

  // MARK: Lexing

  mutating func skipWhitespace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  mutating func parseValue() throws(SpecError) -> JSONValue {
    guard i < bytes.count else { throw error("expected a JSON value, found the end of input") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    case UInt8(ascii: "N"), UInt8(ascii: "I"):
      throw error(
        "expected a JSON value, found \(found()) (NaN and Infinity are not JSON numbers)")
    default:
      throw error(
        "expected a JSON value (object, array, string, number, true, false or null), found \(found())"
      )
    }
  }

  mutating func literal(_ word: String, _ value: JSONValue) throws(SpecError) -> JSONValue {
    let start = i
    for b in word.utf8 {
      guard i < bytes.count, bytes[i] == b else {
        throw error("expected '\(word)', found \(found())", at: i == start ? start : i)
      }
      i += 1
    }
    return value
  }

  mutating func enter() throws(SpecError) {
    depth += 1
    guard depth <= maxDepth else {
      throw error("nesting deeper than the limit of \(maxDepth) arrays and objects")
    }
  }

  mutating func parseArray() throws(SpecError) -> JSONValue {
    try enter()
    i += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
      depth -= 1
      return .array(items)
    }
    while true {
      skipWhitespace()
      if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
        throw error("expected a JSON value after ',', found ']' (trailing commas are not allowed)")
      }
      items.append(try parseValue())
      skipWhitespace()
      guard i < bytes.count else {
        throw error("expected ',' or ']' in the array, found the end of input")
      }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      if bytes[i] == UInt8(ascii: "]") {
        i += 1
        depth -= 1
        return .array(items)
      }
      throw error("expected ',' or ']' in the array, found \(found())")
    }
  }

  mutating func parseObject() throws(SpecError) -> JSONValue {
    try enter()
    i += 1
    var members: [(String, JSONValue)] = []
    var seen = Set<String>()
    skipWhitespace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
      i += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
          throw error(
            "expected a string key after ',', found '}' (trailing commas are not allowed)")
        }
        throw error("expected a string key in double quotes, found \(found())")
      }
      let keyStart = i
      let key = try parseString()
      guard seen.insert(key).inserted else {
        throw error("duplicate key \"\(key)\" in the object", at: keyStart)
      }
      skipWhitespace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
        throw error("expected ':' after the key \"\(key)\", found \(found())")
      }
      i += 1
      skipWhitespace()
      let value = try parseValue()
      members.append((key, value))
      skipWhitespace()
      guard i < bytes.count else {
        throw error("expected ',' or '}' in the object, found the end of input")
      }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      if bytes[i] == UInt8(ascii: "}") {
        i += 1
        depth -= 1
        return .object(members)
      }
      throw error("expected ',' or '}' in the object, found \(found())")
    }
  }

  mutating func parseNumber() throws(SpecError) -> JSONValue {
    let start = i
    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard i < bytes.count, isDigit(bytes[i]) else {
      if i < bytes.count, bytes[i] == UInt8(ascii: "I") {
        throw error("expected a digit after '-', found \(found()) (Infinity is not a JSON number)")
      }
      throw error("expected a digit after '-', found \(found())")
    }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
      if i < bytes.count, isDigit(bytes[i]) {
        throw error(
          "expected '.', 'e' or the end of the number after a leading 0, found \(found())")
      }
    } else {
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard i < bytes.count, isDigit(bytes[i]) else {
        throw error("expected a digit after the decimal point, found \(found())")
      }
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard i < bytes.count, isDigit(bytes[i]) else {
        throw error("expected a digit in the exponent, found \(found())")
      }
      while i < bytes.count, isDigit(bytes[i]) { i += 1 }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw error("number \(text) is outside the range of a 64-bit floating-point value", at: start)
    }
    return .number(value)
  }

  mutating func parseString() throws(SpecError) -> String {
    i += 1  // opening quote
    var scalars = String.UnicodeScalarView()
    var runStart = i
    func flush(_ parser: JSONParser, _ end: Int) {
      if end > runStart {
        scalars.append(
          contentsOf: String(decoding: parser.bytes[runStart..<end], as: UTF8.self).unicodeScalars)
      }
    }
    while true {
      guard i < bytes.count else {
        throw error("expected '\"' to close the string, found the end of input")
      }
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        flush(self, i)
        i += 1
        return String(scalars)
      }
      if b < 0x20 {
        throw error(
          "expected a character of the string, found \(found()) (control characters must be escaped)"
        )
      }
      if b != UInt8(ascii: "\\") {
        i += 1
        continue
      }
      flush(self, i)
      let escapeStart = i
      i += 1
      guard i < bytes.count else {
        throw error("expected an escape character after '\\', found the end of input")
      }
      let e = bytes[i]
      i += 1
      switch e {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        let unit = try hexQuad()
        if (0xD800...0xDBFF).contains(unit) {
          guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
            bytes[i + 1] == UInt8(ascii: "u")
          else {
            throw error(
              "expected a \\u low surrogate after the high surrogate \\u\(hex4(unit))",
              at: escapeStart)
          }
          i += 2
          let low = try hexQuad()
          guard (0xDC00...0xDFFF).contains(low) else {
            throw error(
              "expected a low surrogate (\\uDC00–\\uDFFF) after \\u\(hex4(unit)), found \\u\(hex4(low))",
              at: escapeStart)
          }
          let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
          scalars.append(Unicode.Scalar(value)!)
        } else if (0xDC00...0xDFFF).contains(unit) {
          throw error(
            "expected a high surrogate before the low surrogate \\u\(hex4(unit)) (lone surrogate)",
            at: escapeStart)
        } else {
          scalars.append(Unicode.Scalar(unit)!)
        }
      default:
        i -= 1
        throw error(
          "expected an escape (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX), found \(found())"
        )
      }
      runStart = i
    }
  }

  /// Four hex digits after `\u`.
  mutating func hexQuad() throws(SpecError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard i < bytes.count else {
        throw error("expected 4 hex digits after \\u, found the end of input")
      }
      let b = bytes[i]
      let digit: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
      default: throw error("expected 4 hex digits after \\u, found \(found())")
      }
      value = value * 16 + digit
      i += 1
    }
    return value
  }
}
