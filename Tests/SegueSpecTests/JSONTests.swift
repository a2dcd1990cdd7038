import PropertyBased
import SegueSpec
import Testing

/// The strict RFC 8259 parser: accepted documents and every class of malformed input, each with
/// the `line:column` worked out by hand (1-based; columns count Unicode scalars).
@Suite("JSON parser")
struct JSONParserTests {
  @Test func parsesEveryKindOfValue() throws {
    let text =
      #" { "a" : [ true , false , null , -0 , 12.5e-1 , 1E2 , 0 ] , "b" : { } , "c" : [ ] , "d" : "x" } "#
    let v = try JSONValue.parse(text)
    let expected = JSONValue.object([
      (
        "a",
        .array([
          .bool(true), .bool(false), .null, .number(-0.0), .number(1.25), .number(100), .number(0),
        ])
      ),
      ("b", .object([])), ("c", .array([])), ("d", .string("x")),
    ])
    #expect(v == expected)
    // -0 keeps its sign.
    if case .array(let items) = v["a"]!, case .number(let z) = items[3] {
      #expect(z.sign == .minus)
    }
  }

  @Test func keepsMemberOrder() throws {
    let v = try JSONValue.parse(#"{"z": 1, "a": 2, "m": 3}"#)
    guard case .object(let members) = v else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.0) == ["z", "a", "m"])
  }

  @Test func decodesEscapes() throws {
    // \" \\ \/ \b \f \n \r \t, a BMP \u escape (é = U+00E9), and the surrogate pair
    // D83D DE00 = 0x10000 + (0x3D << 10) + 0x200 = U+1F600 (😀).
    let v = try JSONValue.parse(#""\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00""#)
    #expect(v == .string("\"\\/\u{08}\u{0C}\n\r\t\u{E9}\u{1F600}"))
    // Raw (unescaped) non-ASCII passes through.
    #expect(try JSONValue.parse("\"é😀\"") == .string("é😀"))
  }

  @Test func numbersRoundToNearestDouble() throws {
    #expect(try JSONValue.parse("0.1") == .number(0.1))
    #expect(try JSONValue.parse("1e-400") == .number(0))  // underflow rounds to 0
    #expect(try JSONValue.parse("1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
  }

  private func failure(_ text: String, maxDepth: Int = JSONValue.defaultMaxDepth)
    -> SpecError?
  {
    do {
      _ = try JSONValue.parse(text, maxDepth: maxDepth)
      return nil
    } catch {
      return error
    }
  }

  /// (document, line, column, a fragment of the message)
  static let malformed: [(String, Int, Int, String)] = [
    ("", 1, 1, "expected a JSON value"),
    ("   ", 1, 4, "end of input"),
    ("[1,]", 1, 4, "trailing commas"),
    (#"{"a":1,}"#, 1, 8, "trailing commas"),
    (#"{"a" 1}"#, 1, 6, "expected ':'"),
    ("{a:1}", 1, 2, "string key"),
    ("['a']", 1, 2, "expected a JSON value"),
    ("01", 1, 2, "leading 0"),
    (".5", 1, 1, "expected a JSON value"),
    ("1.", 1, 3, "digit after the decimal point"),
    ("1e", 1, 3, "digit in the exponent"),
    ("-", 1, 2, "digit after '-'"),
    ("+1", 1, 1, "expected a JSON value"),
    ("NaN", 1, 1, "NaN and Infinity"),
    ("-Infinity", 1, 2, "Infinity"),
    ("1e400", 1, 1, "outside the range"),
    ("-1e400", 1, 1, "outside the range"),
    ("tru", 1, 4, "expected 'true'"),
    ("nul", 1, 4, "expected 'null'"),
    ("\"a\u{01}\"", 1, 3, "control characters"),
    ("\"a\nb\"", 1, 3, "control characters"),
    (#""\x""#, 1, 3, "expected an escape"),
    (#""\uD800""#, 1, 2, "low surrogate"),
    (#""\uDC00""#, 1, 2, "lone surrogate"),
    (#""\uD800\u0041""#, 1, 2, "low surrogate"),
    (#""\u12G4""#, 1, 6, "4 hex digits"),
    (#""abc"#, 1, 5, "close the string"),
    ("1 2", 1, 3, "end of input after the JSON value"),
    ("[1 2]", 1, 4, "expected ',' or ']'"),
    (#"{"a":1 "b":2}"#, 1, 8, "expected ',' or '}'"),
    ("[1", 1, 3, "expected ',' or ']'"),
    ("// comment\n1", 1, 1, "expected a JSON value"),
    // Line 3 is `  "b" 2`: the 2 is the 7th character.
    ("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "expected ':'"),
    // Columns count scalars: `["é", x]`, x is the 7th scalar (the 8th byte).
    ("[\"é\", x]", 1, 7, "expected a JSON value"),
    (#"{"a":1,"a":2}"#, 1, 8, "duplicate key \"a\""),
  ]

  @Test(arguments: 0..<malformed.count)
  func malformedInputNamesLineAndColumn(index: Int) throws {
    let (text, line, column, fragment) = Self.malformed[index]
    let error = try #require(failure(text), "accepted \(text.debugDescription)")
    #expect(error.line == line && error.column == column, "\(text.debugDescription): \(error)")
    #expect(error.message.contains(fragment), "\(error.message)")
    #expect(error.path == "$")
    #expect(error.description.hasPrefix("line \(line), column \(column): "))
  }

  @Test func depthLimit() throws {
    let deep128 = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
    #expect(try JSONValue.parse(deep128) != .null)
    let deep129 = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
    let error = try #require(failure(deep129))
    #expect(error.column == 129 && error.message.contains("nesting"))
    #expect(try JSONValue.parse(#"[{"a":1}]"#, maxDepth: 2) != .null)
    let shallow = try #require(failure(#"[{"a":[1]}]"#, maxDepth: 2))
    #expect(shallow.line == 1 && shallow.column == 7)
  }
}

/// The serializer: exact outputs for the number and string rules, pretty printing, and the
/// parse ∘ serialize identity.
@Suite("JSON serializer")
struct JSONSerializerTests {
  @Test func numbers() {
    let cases: [(Double, String)] = [
      (3, "3"), (-0.0, "-0"), (0, "0"), (-12, "-12"), (0.1, "0.1"), (1e-5, "1e-05"),
      (1e300, "1e+300"), (0.35, "0.35"), (9_007_199_254_740_991, "9007199254740991"),
      (9_007_199_254_740_992, "9007199254740992"), (1e17, "1e+17"), (.nan, "null"),
      (.infinity, "null"),
    ]
    for (x, text) in cases { #expect(JSONValue.number(x).serialized() == text, "\(x)") }
  }

  @Test func stringEscapes() {
    let v = JSONValue.string("a\"b\\c\n\t\u{01}\u{1F}é😀/")
    #expect(v.serialized() == #""a\"b\\c\n\t\u0001\u001fé😀/""#)
  }

  @Test func prettyPrinting() {
    let v = JSONValue.object([
      ("b", .array([.number(1), .number(2)])), ("a", .object([("x", .null)])),
      ("e", .array([])), ("o", .object([])), ("n", .array([.object([("k", .bool(true))])])),
    ])
    let expected = """
      {
        "b": [1, 2],
        "a": {
          "x": null
        },
        "e": [],
        "o": {},
        "n": [
          {
            "k": true
          }
        ]
      }
      """
    #expect(v.serialized(pretty: true) == expected)
    #expect(v.serialized() == #"{"b":[1,2],"a":{"x":null},"e":[],"o":{},"n":[{"k":true}]}"#)
  }

  /// Any finite double, drawn from all bit patterns, survives serialize → parse bit for bit.
  @Test func numbersRoundTripExactly() async {
    await propertyCheck(count: 300, input: Gen<Int64>.value()) { bits in
      let x = Double(bitPattern: UInt64(bitPattern: bits))
      guard x.isFinite else { return }
      let text = JSONValue.array([.number(x)]).serialized()
      let back = try JSONValue.parse(text)
      guard case .array(let items) = back, case .number(let y) = items[0] else {
        Issue.record("\(text)")
        return
      }
      #expect(y.bitPattern == x.bitPattern, "\(text)")
    }
  }

  /// Strings of arbitrary scalars (control characters, quotes, astral) round-trip, compact and
  /// pretty, as object keys and values.
  @Test func stringsRoundTrip() async throws {
    // About half ASCII (controls, quotes, backslashes), half any scalar; surrogates dropped.
    let scalar = Gen<UInt32>.value(in: 0...0x20_FFFF).compactMap { v in
      Unicode.Scalar(v <= 0x10_FFFF ? v : v & 0x7F)
    }
    await propertyCheck(count: 200, input: scalar.array(of: 0...12), Gen.double(in: -1e9...1e9)) {
      scalars, x in
      var s = String.UnicodeScalarView()
      s.append(contentsOf: scalars)
      let key = String(s)
      let v = JSONValue.object([(key, .array([.string(key), .number(x), .bool(true), .null]))])
      let compact = try JSONValue.parse(v.serialized())
      let pretty = try JSONValue.parse(v.serialized(pretty: true))
      #expect(compact == v)
      #expect(pretty == v)
    }
  }
}
