import Foundation
import SegueSpec
import Testing

/// The spec format is described once, in the DocC article `SpecFormat.md`, whose tables list every
/// key with its type, and published as the JSON Schema `segue-spec.schema.json`. These tests read
/// both files and fail when they drift apart: a key in one and not the other, a key whose type
/// differs, a named value (an `enum` entry) the article does not list, a schema definition the
/// article does not describe.
@Suite struct SpecFormatArticleTests {
  static let articleURL = SpecTestSupport.packageRoot.appendingPathComponent(
    "Sources/SegueSpec/SegueSpec.docc/SpecFormat.md")

  static func schema() throws -> JSONValue {
    try JSONValue.parse(String(contentsOf: SpecTestSupport.schemaURL, encoding: .utf8))
  }

  static func article() throws -> String {
    try String(contentsOf: articleURL, encoding: .utf8)
  }

  /// The schema and the article's tables list the same keys with the same types and names.
  @Test func articleTablesMatchTheSchema() throws {
    let problems = SpecFormatConsistency.problems(
      schema: try Self.schema(), article: try Self.article())
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// The check reads what it should: every key group of the schema has a table, and the tables
  /// hold all the keys (a parser that found nothing would pass the comparison vacuously).
  @Test func articleTablesAreRead() throws {
    let schema = SpecFormatConsistency.SchemaKeys(try Self.schema())
    let tables = SpecFormatConsistency.tables(in: try Self.article())
    #expect(schema.groups.count >= 10 && schema.definitions.count >= 10)
    #expect(schema.groups.values.reduce(0) { $0 + $1.count } >= 80)
    let covered = Set(tables.flatMap(\.groups))
    #expect(Set(schema.groups.keys).subtracting(covered).isEmpty)
    #expect(covered.contains(SpecFormatConsistency.definitionsGroup))
  }

  /// Types are written the way the article's "Reading the tables" explains.
  @Test func typesAreRenderedAsTheArticleWritesThem() throws {
    let cases: [(String, String)] = [
      (#"{"type": "number", "exclusiveMinimum": 0}"#, "number"),
      (#"{"type": ["string", "null"]}"#, "string or null"),
      (#"{"const": 1}"#, "1"),
      (#"{"const": "basic"}"#, "\"basic\""),
      (##"{"type": "array", "items": {"$ref": "#/$defs/layer"}}"##, "[layer]"),
      (
        #"{"type": "object", "additionalProperties": {"enum": ["over", "add"]}}"#,
        "{string: string}"
      ),
      (
        #"{"oneOf": [{"type": "number"}, {"type": "object", "properties": {}}]}"#,
        "number or object"
      ),
      (
        #"{"type": "array", "items": {"anyOf": [{"type": "number"}, {"type": "array", "items": {"type": "number"}}]}}"#,
        "[number or [number]]"
      ),
    ]
    for (text, expected) in cases {
      #expect(SpecFormatConsistency.render(try JSONValue.parse(text)) == expected, "\(text)")
    }
  }

  /// Each kind of drift is reported: a key only in the schema, a key only in the article, a
  /// different type, an unlisted enum value, a definition the article does not describe.
  @Test func driftIsReported() throws {
    var schemaText = try String(contentsOf: SpecTestSupport.schemaURL, encoding: .utf8)
    var article = try Self.article()
    func replace(_ old: String, _ new: String, in text: inout String) {
      #expect(text.contains(old), "\(old)")
      text = text.replacingOccurrences(of: old, with: new)
    }
    // A key added to the schema only.
    replace(
      #""id": { "type": "string" },"#,
      #""id": { "type": "string" }, "nickname": { "type": "string" },"#,
      in: &schemaText)
    // A type changed in the schema only.
    replace(
      #""anchorPointZ": { "type": "number" }"#, #""anchorPointZ": { "type": "string" }"#,
      in: &schemaText)
    // A new enum value in the schema only.
    replace(#"["over", "add"]"#, #"["over", "add", "multiply"]"#, in: &schemaText)
    // A definition added to the schema only.
    replace(#""$defs": {"#, #""$defs": { "unused": { "type": "number" },"#, in: &schemaText)
    // A row removed from the article, and a row the schema does not have.
    replace("| `zPosition` | `number` | `0` |", "| `zIndex` | `number` | `0` |", in: &article)
    let problems = SpecFormatConsistency.problems(
      schema: try JSONValue.parse(schemaText), article: article)
    let expected = [
      "layer.nickname", "layer.anchorPointZ", "`multiply`", "$defs.unused", "layer.zPosition",
      "layer.zIndex",
    ]
    for needle in expected {
      #expect(problems.contains { $0.contains(needle) }, "no problem names \(needle): \(problems)")
    }
    #expect(problems.count == expected.count, "\(problems.joined(separator: "\n"))")
  }
}

/// Compares the JSON Schema of spec files with the key tables of the SpecFormat article.
///
/// The schema's keys are collected into *groups*: the top level is `document`, each definition
/// of `$defs` is its own group, and an object inside key `b` of group `a` is `a.b` (`b` alone
/// under the top level). Alternatives (`oneOf`, `anyOf`, `allOf`), `items` and
/// `additionalProperties` stay in their group. The article names the groups each table covers
/// in a line `Schema: \`group\`, …` before it; `Schema: \`$defs\`` marks the table of value types.
enum SpecFormatConsistency {
  static let definitionsGroup = "$defs"

  /// One key of a schema group: its rendered type and the names its `enum`s allow.
  struct Key: Equatable {
    var type: String
    var names: [String]
  }

  /// The schema's key groups and definitions.
  struct SchemaKeys {
    var groups: [String: [String: Key]] = [:]
    /// Definition name → the names its `enum`s allow.
    var definitions: [String: [String]] = [:]
    /// Keys whose alternatives disagree about the type.
    var conflicts: [String] = []

    init(_ schema: JSONValue) {
      collect(schema, group: "document")
      if case .object(let defs)? = schema["$defs"] {
        for (name, definition) in defs {
          definitions[name] = SpecFormatConsistency.names(in: definition)
          collect(definition, group: name)
        }
      }
    }

    private mutating func collect(_ node: JSONValue, group: String) {
      guard case .object = node else { return }
      if case .object(let properties)? = node["properties"] {
        for (key, value) in properties {
          let entry = Key(
            type: SpecFormatConsistency.render(value), names: SpecFormatConsistency.names(in: value)
          )
          if let known = groups[group]?[key], known.type != entry.type {
            conflicts.append("\(group).\(key): \(known.type) and \(entry.type) in one schema group")
          }
          groups[group, default: [:]][key] = entry
          collect(value, group: group == "document" ? key : "\(group).\(key)")
        }
      }
      for alternatives in ["oneOf", "anyOf", "allOf"] {
        if case .array(let items)? = node[alternatives] {
          for item in items { collect(item, group: group) }
        }
      }
      for key in ["items", "additionalProperties"] {
        if let child = node[key] { collect(child, group: group) }
      }
    }
  }

  /// A table of the article: the groups named before it and its rows (cells, backticks removed
  /// from the first two).
  struct Table {
    var groups: [String]
    var header: [String]
    var rows: [[String]]
    var line: Int
  }

  /// A schema node's type as the article writes it (see "Reading the tables").
  static func render(_ node: JSONValue) -> String {
    if case .string(let reference)? = node["$ref"] {
      return String(reference.split(separator: "/").last ?? "")
    }
    if let constant = node["const"] { return constant.serialized() }
    if node["enum"] != nil { return "string" }
    for alternatives in ["oneOf", "anyOf"] {
      if case .array(let items)? = node[alternatives] {
        return items.map(render).joined(separator: " or ")
      }
    }
    switch node["type"] {
    case .array(let types)?:
      return types.map { if case .string(let t) = $0 { t } else { "?" } }.joined(separator: " or ")
    case .string("array")?:
      return node["items"].map { "[\(render($0))]" } ?? "array"
    case .string("object")?:
      if node["properties"] == nil, let values = node["additionalProperties"], case .object = values
      {
        return "{string: \(render(values))}"
      }
      return "object"
    case .string(let type)?:
      return type
    default:
      return "any"
    }
  }

  /// The names the `enum`s of `node` allow, through alternatives, `items` and
  /// `additionalProperties` (not into `properties` or references).
  static func names(in node: JSONValue) -> [String] {
    var out: [String] = []
    if case .array(let values)? = node["enum"] {
      for case .string(let name) in values { out.append(name) }
    }
    for alternatives in ["oneOf", "anyOf", "allOf"] {
      if case .array(let items)? = node[alternatives] { out += items.flatMap(names(in:)) }
    }
    for key in ["items", "additionalProperties"] {
      if let child = node[key], case .object = child { out += names(in: child) }
    }
    return out
  }

  /// The tables of `article`, each with the groups of the `Schema:` line before it.
  static func tables(in article: String) -> [Table] {
    var tables: [Table] = []
    var pending: [String]?
    var current: Table?
    for (index, line) in article.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let text = line.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix("|") {
        let cells = cellsOf(text)
        if var table = current {
          if !cells.allSatisfy({ $0.allSatisfy { "-:".contains($0) } }) {
            table.rows.append(cells)
          }
          current = table
        } else {
          current = Table(groups: pending ?? [], header: cells, rows: [], line: index + 1)
          pending = nil
        }
        continue
      }
      if let table = current {
        tables.append(table)
        current = nil
      }
      if text.hasPrefix("Schema: ") { pending = backticked(text) }
    }
    if let table = current { tables.append(table) }
    return tables
  }

  /// Every difference between the schema and the article, one sentence each.
  static func problems(schema: JSONValue, article: String) -> [String] {
    let keys = SchemaKeys(schema)
    var problems = keys.conflicts
    let tables = self.tables(in: article)
    let keyHeader = ["Key", "Type", "Default", "Meaning"]
    let definitionHeader = ["Type", "JSON", "Meaning"]
    // Rows by group and key.
    var rows: [String: [String: (type: String, meaning: String)]] = [:]
    var definitionRows: [String: String] = [:]
    for table in tables {
      if table.groups.isEmpty {
        problems.append("line \(table.line): a table without a 'Schema:' line before it")
        continue
      }
      if table.groups == [definitionsGroup] {
        guard table.header == definitionHeader else {
          problems.append(
            "line \(table.line): the value types' columns are not \(definitionHeader)")
          continue
        }
        for row in table.rows where row.count == 3 { definitionRows[unquoted(row[0])] = row[2] }
        continue
      }
      guard table.header == keyHeader else {
        problems.append("line \(table.line): the columns are not \(keyHeader)")
        continue
      }
      for group in table.groups where keys.groups[group] == nil {
        problems.append("line \(table.line): the schema has no key group '\(group)'")
      }
      for row in table.rows {
        guard row.count == 4 else {
          problems.append("line \(table.line): a row of \(row.count) cells: \(row)")
          continue
        }
        let key = unquoted(row[0])
        let type = unquoted(row[1])
        let inSchema = table.groups.filter { keys.groups[$0]?[key] != nil }
        if inSchema.isEmpty {
          let groups = table.groups.map { "\($0).\(key)" }.joined(separator: ", ")
          problems.append(
            "the article lists \(groups) (type \(type)), which the schema does not have")
        }
        for group in inSchema { rows[group, default: [:]][key] = (type, row[3]) }
      }
    }
    for (group, groupKeys) in keys.groups.sorted(by: { $0.key < $1.key }) {
      for (key, entry) in groupKeys.sorted(by: { $0.key < $1.key }) {
        guard let row = rows[group]?[key] else {
          problems.append(
            "the schema has \(group).\(key) (type \(entry.type)), which the article's tables do not list"
          )
          continue
        }
        if row.type != entry.type {
          problems.append(
            "\(group).\(key): the article says type \(row.type), the schema \(entry.type)")
        }
        for name in entry.names where !row.meaning.contains("`\(name)`") {
          problems.append(
            "\(group).\(key): the schema allows `\(name)`, which the article does not name")
        }
      }
    }
    for (name, names) in keys.definitions.sorted(by: { $0.key < $1.key }) {
      guard let meaning = definitionRows[name] else {
        problems.append(
          "the schema defines $defs.\(name), which the article's value types do not list")
        continue
      }
      for value in names where !meaning.contains("`\(value)`") {
        problems.append(
          "$defs.\(name): the schema allows `\(value)`, which the article does not name")
      }
    }
    for name in definitionRows.keys.sorted() where keys.definitions[name] == nil {
      problems.append(
        "the article lists the value type $defs.\(name), which the schema does not define")
    }
    return problems
  }

  /// The cells of a table row `| a | b |`, trimmed; `\|` is a literal bar.
  private static func cellsOf(_ line: String) -> [String] {
    var cells: [String] = []
    var cell = ""
    var escaped = false
    for character in line {
      if escaped {
        cell.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "|" {
        cells.append(cell.trimmingCharacters(in: .whitespaces))
        cell = ""
      } else {
        cell.append(character)
      }
    }
    // The text before the first bar and after the last one is not a cell.
    return Array(cells.dropFirst())
  }

  /// `` `text` `` without its backticks; other text unchanged.
  private static func unquoted(_ cell: String) -> String {
    guard cell.count >= 2, cell.hasPrefix("`"), cell.hasSuffix("`") else { return cell }
    return String(cell.dropFirst().dropLast())
  }

  /// The backticked words of a line.
  private static func backticked(_ line: String) -> [String] {
    line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }
}
