import Segue

/// A JSON value together with its JSONPath, with typed accessors that throw a ``SpecError``
/// naming the path and the expected type.
struct Node {
  let value: JSONValue
  let path: String

  func fail(_ message: String) -> SpecError { SpecError(path: path, message: message) }

  func wrongType(_ expected: String) -> SpecError {
    fail("expected \(expected), found \(value.typeName)")
  }

  func number() throws(SpecError) -> Double {
    guard case .number(let x) = value else { throw wrongType("a number") }
    guard x.isFinite else { throw fail("must be finite") }
    return x
  }

  func string() throws(SpecError) -> String {
    guard case .string(let s) = value else { throw wrongType("a string") }
    return s
  }

  func bool() throws(SpecError) -> Bool {
    guard case .bool(let b) = value else { throw wrongType("a boolean (true or false)") }
    return b
  }

  func array() throws(SpecError) -> [Node] {
    guard case .array(let items) = value else { throw wrongType("an array") }
    return items.enumerated().map {
      Node(value: $0.element, path: JSONPath.element(path, $0.offset))
    }
  }

  /// An array of numbers with one of the allowed counts.
  func numbers(count allowed: [Int], what: String) throws(SpecError) -> [Double] {
    guard case .array(let items) = value else { throw wrongType(what) }
    guard allowed.contains(items.count) else {
      throw fail("expected \(what), found an array of \(items.count)")
    }
    var out: [Double] = []
    for (i, item) in items.enumerated() {
      out.append(try Node(value: item, path: JSONPath.element(path, i)).number())
    }
    return out
  }

  /// An array of any number of numbers.
  func numberList() throws(SpecError) -> [Double] {
    var out: [Double] = []
    for item in try array() { out.append(try item.number()) }
    return out
  }

  /// The object's members, after checking that every key is in `allowed`.
  func object(allowed: [String]) throws(SpecError) -> Members {
    guard case .object(let members) = value else { throw wrongType("an object") }
    let result = Members(path: path, members: members)
    try result.check(allowed: allowed)
    return result
  }

  /// The object's members, unchecked (call ``Members/check(allowed:)`` once the allowed keys are
  /// known).
  func object() throws(SpecError) -> Members {
    guard case .object(let members) = value else { throw wrongType("an object") }
    return Members(path: path, members: members)
  }
}

/// The members of a JSON object with its path.
struct Members {
  let path: String
  let members: [(String, JSONValue)]

  /// Throws for the first key not in `allowed`, at the key's path.
  func check(allowed: [String], context: String? = nil) throws(SpecError) {
    for (key, _) in members where !allowed.contains(key) {
      let list = allowed.map { "'\($0)'" }.joined(separator: ", ")
      let whereText = context.map { " \($0)" } ?? ""
      throw SpecError(
        path: JSONPath.member(path, key),
        message: "unknown key '\(key)'\(whereText) (allowed: \(list))")
    }
  }

  /// Whether `key` is present.
  func has(_ key: String) -> Bool { members.contains { $0.0 == key } }

  /// The member `key`, or `nil` when absent.
  subscript(key: String) -> Node? {
    guard let value = members.first(where: { $0.0 == key })?.1 else { return nil }
    return Node(value: value, path: JSONPath.member(path, key))
  }

  /// The member `key`; throws "missing required key" at the object's path when absent.
  func required(_ key: String) throws(SpecError) -> Node {
    guard let node = self[key] else {
      throw SpecError(path: path, message: "missing required key '\(key)'")
    }
    return node
  }

  /// The keys present, in order.
  var keys: [String] { members.map(\.0) }
}

/// Runs `body`, turning a library ``ValidationError`` into a ``SpecError`` at `path`.
func building<T>(_ path: String, _ body: () throws(ValidationError) -> T) throws(SpecError) -> T {
  do { return try body() } catch { throw SpecError(wrapping: error, at: path) }
}
