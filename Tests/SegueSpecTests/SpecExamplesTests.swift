import Foundation
import Segue
import SegueSpec
import Testing

/// The shipped examples (Sources/SegueSpec/Examples/<preset>-push.json): one per preset, each
/// sampling exactly as the preset's own scene, and each valid against the shipped JSON Schema.
///
/// The examples were generated once from the encoder with
/// `SEGUE_WRITE_EXAMPLES=1 swift test --filter SpecExamples` (see ``writeExamples()``) and are
/// committed; the tests read them back and compare against `PresetAnimator` directly, so they
/// check the decoder independently of the encoder that wrote them.
@Suite("Spec examples")
struct SpecExamplesTests {
  @Test(arguments: TransitionPreset.allCases)
  func exampleSamplesLikeThePreset(preset: TransitionPreset) throws {
    let text = try String(contentsOf: SpecTestSupport.exampleURL(preset), encoding: .utf8)
    let document = try loadSpec(text)
    #expect(document.interaction == nil)
    let expected = try SpecTestSupport.presetScene(preset, .push)
    try SpecTestSupport.expectSameSamples(document.scene, expected, preset.rawValue)
    // The default suggested times: seven, from 0 to the duration.
    #expect(document.sampleTimes.count == 7)
    #expect(document.sampleTimes.first == 0)
    #expect(document.sampleTimes.last == expected.duration)
  }

  @Test func everyPresetHasAnExampleAndNothingElseIsThere() throws {
    let names = try FileManager.default.contentsOfDirectory(
      atPath: SpecTestSupport.examplesDirectory.path
    ).filter { $0.hasSuffix(".json") }.sorted()
    let expected = TransitionPreset.allCases.map { "\($0.rawValue)-push.json" }.sorted()
    #expect(names == expected)
  }

  /// Validates every example (and the schema itself, against the draft 2020-12 meta-schema) with
  /// python3's `jsonschema` package when it is installed; otherwise the test is skipped with a
  /// note, and ``exampleKeysAreDeclaredInTheSchema()`` still runs.
  @Test func examplesValidateAgainstTheSchema() throws {
    let script = """
      import json, sys
      try:
          import jsonschema
      except ImportError:
          print("NO-JSONSCHEMA"); sys.exit(0)
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft202012Validator.check_schema(schema)
      v = jsonschema.Draft202012Validator(schema)
      bad = 0
      for path in sys.argv[2:]:
          for e in v.iter_errors(json.load(open(path))):
              bad += 1
              print(path, list(e.absolute_path), e.message)
      print("OK" if bad == 0 else "FAIL")
      """
    let paths = TransitionPreset.allCases.map { SpecTestSupport.exampleURL($0).path }
    let output = try SpecTestSupport.runPython(script, [SpecTestSupport.schemaURL.path] + paths)
    if output.contains("NO-JSONSCHEMA") { return }
    #expect(output.hasSuffix("OK\n"), "\(output)")
  }

  /// The schema rejects what the decoder rejects, for a few representative documents.
  @Test func schemaRejectsInvalidDocuments() throws {
    let bad = [
      #"{"version": 1, "layers": [{"id": "a", "colour": [0, 0, 0, 1]}]}"#,
      #"{"version": 2, "layers": []}"#,
      #"{"version": 1, "layers": [{"id": "a", "animations": [{"keyPath": "opacity", "type": "basic", "values": [0, 1]}]}]}"#,
      #"{"version": 1, "layers": [{"id": "a", "bounds": [0, 0, 1]}]}"#,
      #"{"version": 1, "layers": [], "interaction": [{"time": 0, "jump": 1}]}"#,
    ]
    let script = """
      import json, sys
      try:
          import jsonschema
      except ImportError:
          print("NO-JSONSCHEMA"); sys.exit(0)
      v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
      for doc in sys.argv[2:]:
          print("valid" if v.is_valid(json.loads(doc)) else "invalid")
      """
    let output = try SpecTestSupport.runPython(script, [SpecTestSupport.schemaURL.path] + bad)
    if output.contains("NO-JSONSCHEMA") { return }
    #expect(output == String(repeating: "invalid\n", count: bad.count), "\(output)")
    for text in bad { #expect(SpecTestSupport.specError(text) != nil) }
  }

  /// Without python: every key used in an example is declared somewhere in the schema's
  /// `properties`.
  @Test func exampleKeysAreDeclaredInTheSchema() throws {
    let schema = try JSONValue.parse(
      String(contentsOf: SpecTestSupport.schemaURL, encoding: .utf8))
    var declared = Set<String>()
    func collect(_ v: JSONValue) {
      switch v {
      case .object(let members):
        for (k, value) in members {
          if k == "properties", case .object(let props) = value {
            for (name, _) in props { declared.insert(name) }
          }
          collect(value)
        }
      case .array(let items): items.forEach(collect)
      default: break
      }
    }
    collect(schema)
    for preset in TransitionPreset.allCases {
      let example = try JSONValue.parse(
        String(contentsOf: SpecTestSupport.exampleURL(preset), encoding: .utf8))
      var used = Set<String>()
      func keys(_ v: JSONValue, underBlendModes: Bool) {
        switch v {
        case .object(let members):
          for (k, value) in members {
            if !underBlendModes { used.insert(k) }
            keys(value, underBlendModes: k == "blendModes")
          }
        case .array(let items):
          for item in items { keys(item, underBlendModes: false) }
        default: break
        }
      }
      keys(example, underBlendModes: false)
      #expect(used.subtracting(declared).isEmpty, "\(preset): \(used.subtracting(declared))")
    }
  }

  /// Writes the examples from the encoder when `SEGUE_WRITE_EXAMPLES=1` (a one-off generation
  /// step; otherwise does nothing).
  @Test func writeExamples() throws {
    guard ProcessInfo.processInfo.environment["SEGUE_WRITE_EXAMPLES"] == "1" else { return }
    for preset in TransitionPreset.allCases {
      let scene = try SpecTestSupport.presetScene(preset, .push)
      var json = SpecFile.encode(scene: scene)
      if case .object(var members) = json {
        members.insert(
          (
            "description",
            .string(
              "The '\(preset.rawValue)' preset, push, default views in a 390 × 844 container (generated from PresetAnimator by SpecFile.encode)."
            )
          ), at: 1)
        json = .object(members)
      }
      try (json.serialized(pretty: true) + "\n").write(
        to: SpecTestSupport.exampleURL(preset), atomically: true, encoding: .utf8)
    }
  }

}
