import Foundation
import Segue
import SegueSpec
import Testing

/// The shipped examples (Sources/SegueSpec/Examples/<preset>-push.json): one per preset, each
/// sampling exactly as the preset's own scene, and each valid against the shipped JSON Schema.
///
/// The examples are the encoder's output, committed (``examplesAreTheEncodersOutput()`` checks
/// they are current, and rewrites them in record mode); the other tests read them back and
/// compare against `PresetAnimator` directly, so they check the decoder independently of the
/// encoder that wrote them.
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
  /// python3's `jsonschema` package; reported as skipped, with the install hint, where it is
  /// missing (``exampleKeysAreDeclaredInTheSchema()`` needs no Python).
  @Test(.enabled(if: SpecTestSupport.hasJSONSchema, SpecTestSupport.jsonSchemaHint))
  func examplesValidateAgainstTheSchema() throws {
    let script = """
      import json, sys
      import jsonschema
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
    #expect(output.hasSuffix("OK\n"), "\(output)")
  }

  /// Representative invalid documents, each rejected by the schema and by the decoder.
  static let invalidDocuments = [
    #"{"version": 1, "layers": [{"id": "a", "colour": [0, 0, 0, 1]}]}"#,
    #"{"version": 2, "layers": []}"#,
    #"{"version": 1, "layers": [{"id": "a", "animations": [{"keyPath": "opacity", "type": "basic", "values": [0, 1]}]}]}"#,
    #"{"version": 1, "layers": [{"id": "a", "bounds": [0, 0, 1]}]}"#,
    #"{"version": 1, "layers": [], "interaction": [{"time": 0, "jump": 1}]}"#,
  ]

  /// The schema rejects the invalid documents.
  @Test(.enabled(if: SpecTestSupport.hasJSONSchema, SpecTestSupport.jsonSchemaHint))
  func schemaRejectsInvalidDocuments() throws {
    let bad = Self.invalidDocuments
    let script = """
      import json, sys
      import jsonschema
      v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
      for doc in sys.argv[2:]:
          print("valid" if v.is_valid(json.loads(doc)) else "invalid")
      """
    let output = try SpecTestSupport.runPython(script, [SpecTestSupport.schemaURL.path] + bad)
    #expect(output == String(repeating: "invalid\n", count: bad.count), "\(output)")
  }

  /// The decoder rejects the same documents (no Python needed).
  @Test func decoderRejectsInvalidDocuments() {
    for text in Self.invalidDocuments { #expect(SpecTestSupport.specError(text) != nil, "\(text)") }
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

  /// The committed examples are what the encoder writes for each preset (so they sample like
  /// their presets). Record mode (`SEGUE_RECORD_EXAMPLES=1 swift test --filter
  /// examplesAreTheEncodersOutput`) rewrites the files and still fails, as a snapshot test in
  /// record mode does, so it never passes silently.
  @Test func examplesAreTheEncodersOutput() throws {
    let record = ProcessInfo.processInfo.environment["SEGUE_RECORD_EXAMPLES"] == "1"
    for preset in TransitionPreset.allCases {
      let scene = try SpecTestSupport.presetScene(preset, .push)
      var json = SpecFile.encode(scene: scene)
      if case .object(var members) = json {
        members.insert(
          (
            "description",
            .string(
              "The '\(preset.rawValue)' preset, push, bare default views in a 390 × 844 container (generated from PresetAnimator by SpecFile.encode)."
            )
          ), at: 1)
        json = .object(members)
      }
      let text = json.serialized(pretty: true) + "\n"
      let url = SpecTestSupport.exampleURL(preset)
      if record {
        try text.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("record mode: wrote \(url.lastPathComponent); run again without it")
      } else {
        #expect(
          try String(contentsOf: url, encoding: .utf8) == text,
          "\(url.lastPathComponent) differs from the encoder's output (SEGUE_RECORD_EXAMPLES=1 rewrites it)"
        )
      }
    }
  }

}
