import Segue
import SegueSpec
import Testing

/// Deep and hostile documents: layer chains of 100 000 levels decode and validate, 20 000 levels
/// sample (with a closed form for the result), a cycle deep in a long chain is reported with its
/// path, and JSON nested 100 000 levels deep is a typed error at the first bracket past the limit,
/// whatever `maxDepth` the caller asks for. No timing assertions (the debug suite must only
/// complete): the decode, cycle check and sampling are iterative and linear in the layer count.
@Suite("Deep documents")
struct DeepDocumentTests {
  /// A spec whose layers form one parent chain `l0 ← l1 ← … ← l(n−1)` (each the parent of the
  /// next), listed in reverse so every parent is listed after its child (the decoder must place
  /// ancestors first itself). Layer `k` has position (1, 2) and opacity 0.9999 in its parent;
  /// `l0` animates `position.x` from 0 to 100 over 1 s (fill both). `extra` replaces the parent
  /// of the given layers.
  static func chain(_ n: Int, parents extra: [Int: Int] = [:]) -> String {
    var text = #"{"version": 1, "duration": 2, "layers": ["#
    text.reserveCapacity(n * 80)
    for k in stride(from: n - 1, through: 0, by: -1) {
      if k != n - 1 { text += "," }
      text += #"{"id": "l\#(k)", "position": [1, 2], "opacity": 0.9999"#
      if let p = extra[k] {
        text += #", "parent": "l\#(p)""#
      } else if k > 0 {
        text += #", "parent": "l\#(k - 1)""#
      }
      if k == 0 {
        text +=
          #", "animations": [{"keyPath": "position.x", "type": "basic", "fromValue": 0, "toValue": 100, "duration": 1, "fillMode": "both"}]"#
      }
      text += "}"
    }
    return text + "]}"
  }

  @Test func hundredThousandLevelsDecodeAndValidate() throws {
    let n = 100_000
    let document = try loadSpec(Self.chain(n))
    let tree = document.scene.model
    #expect(tree.count == n)
    // Ancestors first: l0 at index 0, l(k) the child of l(k−1).
    #expect(tree.index(of: "l0") == 0)
    let last = try #require(tree.index(of: "l\(n - 1)"))
    #expect(try tree.parentIndex(at: last) == tree.index(of: "l\(n - 2)"))
  }

  /// Layer `k` (depth `k + 1`) sits at the sum of the positions above it: with zero bounds the
  /// anchor is its origin and each level translates by (1, 2), so its matrix is the translation
  /// `(x₀ + k, 2(k + 1))` with `x₀` the animated `position.x` of `l0` (50 at t = 0.5 s: half of
  /// 0 → 100, linear pacing) — every level flattens, which a translation in the plane survives;
  /// its opacity is `0.9999^(k + 1)`.
  @Test func twentyThousandLevelsSampleAsTheClosedForm() throws {
    let n = 20_000
    let document = try loadSpec(Self.chain(n))
    let sample = try document.sample(at: 0.5)
    #expect(sample.layers.count == n)
    for k in [0, 1, 999, 12_345, n - 1] {
      let layer = try #require(sample["l\(k)"])
      let x = 50 + Double(k)
      let y = 2 * Double(k + 1)
      #expect(abs(layer.matrix.m41 - x) <= 1e-9 * x, "l\(k) x \(layer.matrix.m41)")
      #expect(abs(layer.matrix.m42 - y) <= 1e-9 * y, "l\(k) y \(layer.matrix.m42)")
      #expect(layer.matrix.m11 == 1 && layer.matrix.m22 == 1 && layer.matrix.m44 == 1)
      let opacity = Double.pow(0.9999, Double(k + 1))
      #expect(abs(layer.opacity - opacity) <= 1e-9 * opacity, "l\(k) opacity")
      #expect(layer.order == k)
    }
  }

  /// A cycle deep in a long chain: `l50000`'s parent is `l99999`, so `l50000 … l99999` form a
  /// cycle (each the parent of the next, and the last the parent of the first) below a sound chain
  /// `l0 … l49999`. The layers are listed in reverse, so the earliest-listed member is `l99999`
  /// (`$.layers[0]`): the cycle is reported at its `parent`, with the whole path from child to
  /// parent. (The 50 001-name message is checked by parts, so a failure does not print it.)
  @Test func cycleDeepInALongChainIsReportedWithItsPath() throws {
    let n = 100_000
    let error = try #require(SpecTestSupport.specError(Self.chain(n, parents: [50_000: n - 1])))
    #expect(error.path == "$.layers[0].parent")
    let names = error.message.components(separatedBy: " → ")
    #expect(names.count == 50_001)
    let head = Array(names.prefix(3))
    let tail = Array(names.suffix(3))
    #expect(head == ["the parent chain forms a cycle: 'l99999'", "'l99998'", "'l99997'"])
    #expect(tail == ["'l50001'", "'l50000'", "'l99999'"])
  }

  /// Two separate cycles: the one whose earliest-listed member comes first is reported.
  @Test func theEarliestListedCycleIsReported() throws {
    let text =
      #"{"version": 1, "duration": 1, "layers": [{"id": "x"}, {"id": "p", "parent": "q"}, {"id": "a", "parent": "b"}, {"id": "q", "parent": "p"}, {"id": "b", "parent": "a"}, {"id": "z", "parent": "b"}]}"#
    let error = try #require(SpecTestSupport.specError(text))
    #expect(error.path == "$.layers[1].parent")
    #expect(error.message == "the parent chain forms a cycle: 'p' → 'q' → 'p'")
  }

  /// 100 000 nested arrays, objects, and a mix: a typed error at line 1, the column of the first
  /// bracket past the limit (the default 128, or ``JSONValue/maximumDepth`` when the caller asks
  /// for more), never a stack overflow.
  @Test(arguments: [JSONValue.defaultMaxDepth, 1_000_000, Int.max])
  func hundredThousandNestedLevelsAreATypedError(maxDepth: Int) throws {
    let n = 100_000
    let limit = min(maxDepth, JSONValue.maximumDepth)
    let arrays = String(repeating: "[", count: n) + String(repeating: "]", count: n)
    let objects = String(repeating: #"{"a":"#, count: n) + "1" + String(repeating: "}", count: n)
    let mixed =
      String(repeating: #"[{"a":"#, count: n / 2) + "1"
      + String(repeating: "}]", count: n / 2)
    // The bracket opening level `limit + 1` is at column limit + 1, 5·limit + 1 and (for an
    // even limit) 6·limit/2 + 1.
    for (text, column) in [(arrays, limit + 1), (objects, 5 * limit + 1), (mixed, 3 * limit + 1)] {
      do {
        _ = try JSONValue.parse(text, maxDepth: maxDepth)
        Issue.record("accepted \(n) levels")
      } catch {
        #expect(error.line == 1 && error.column == column, "\(error)")
        #expect(error.message == "nesting deeper than the limit of \(limit) arrays and objects")
      }
    }
    #expect(throws: SpecError.self) { try loadSpec(arrays) }
  }

  /// At the largest limit every recursive operation on the value (parse, `==`, serialization,
  /// release) completes on a test thread, for arrays and objects.
  @Test func maximumDepthValuesParseCompareSerializeAndRelease() throws {
    let d = JSONValue.maximumDepth
    for text in [
      String(repeating: "[", count: d) + String(repeating: "]", count: d),
      String(repeating: #"{"a":"#, count: d) + "null" + String(repeating: "}", count: d),
    ] {
      let value = try JSONValue.parse(text, maxDepth: .max)
      #expect(value == (try JSONValue.parse(text, maxDepth: d)))
      #expect(value.serialized() == text)
      #expect(try JSONValue.parse(value.serialized(pretty: true), maxDepth: d) == value)
    }
  }
}
