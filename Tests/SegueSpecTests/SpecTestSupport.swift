import Foundation
import Segue
import SegueSpec
import Testing

enum SpecTestSupport {
  /// The package root, from this file's path (Tests/SegueSpecTests/<file>).
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let examplesDirectory = packageRoot.appendingPathComponent("Sources/SegueSpec/Examples")
  static let schemaURL = packageRoot.appendingPathComponent(
    "Sources/SegueSpec/Schema/segue-spec.schema.json")

  static func exampleURL(_ preset: TransitionPreset) -> URL {
    examplesDirectory.appendingPathComponent("\(preset.rawValue)-push.json")
  }

  /// The preset's scene in its bare default context (390 × 844), as the preset tests build it.
  static func presetScene(_ preset: TransitionPreset, _ operation: TransitionOperation) throws
    -> TransitionScene
  {
    let animator = PresetAnimator(preset)
    let context = try animator.defaultContext(operation: operation, content: .bare)
    return try animator.animateTransition(using: context)
  }

  /// The times checked against a preset: 0, five interior points and the duration.
  static func checkTimes(_ duration: Double) -> [Double] {
    [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1].map { $0 * duration }
  }

  /// Samples both scenes at `checkTimes` and both completions and expects exact equality.
  static func expectSameSamples(
    _ a: TransitionScene, _ b: TransitionScene, _ comment: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(a.duration == b.duration, "duration \(comment)", sourceLocation: sourceLocation)
    #expect(
      a.containerSize == b.containerSize, "container \(comment)", sourceLocation: sourceLocation)
    for t in checkTimes(a.duration) {
      let x = try a.sample(at: t)
      let y = try b.sample(at: t)
      #expect(x == y, "t = \(t) \(comment)", sourceLocation: sourceLocation)
    }
    for completion in [TransitionCompletion.finished, .cancelled] {
      let x = try a.sample(at: a.duration, completion: completion)
      let y = try b.sample(at: b.duration, completion: completion)
      #expect(x == y, "\(completion) \(comment)", sourceLocation: sourceLocation)
    }
  }

  /// The error thrown by `loadSpec(text)`, or `nil` (recorded as an issue) if none.
  static func specError(
    _ text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> SpecError? {
    do {
      _ = try loadSpec(text)
      Issue.record("expected a SpecError", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  /// Runs `python3 -c script arguments…` and returns its standard output and error.
  static func runPython(_ script: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// Whether `python3` on `PATH` imports `jsonschema` (the schema checks need it; `make test`
  /// installs it).
  static let hasJSONSchema: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import jsonschema"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  /// Why a schema check is skipped, and how to install what it needs.
  static let jsonSchemaHint: Comment = """
    python3's jsonschema is not installed: apt-get install python3-jsonschema (or pip install \
    jsonschema), or make setup-test
    """

  /// Validates the JSON texts against the shipped schema with python3's `jsonschema` (callers
  /// are enabled only when ``hasJSONSchema``): the validator's report ending in `OK` or `FAIL`.
  static func schemaReport(_ texts: [String]) throws -> String {
    let script = """
      import json, sys
      import jsonschema
      v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
      bad = 0
      for text in sys.argv[2:]:
          for e in v.iter_errors(json.loads(text)):
              bad += 1
              print(list(e.absolute_path), e.message)
      print("OK" if bad == 0 else "FAIL")
      """
    return try runPython(script, [schemaURL.path] + texts)
  }
}

/// Expects `loadSpec(text)` to fail at the JSON path `path` with a message containing
/// `fragment` (not a malformed-JSON error, so no line), described as `"path: message"`.
func expectError(
  _ text: String, path: String, _ fragment: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let error = SpecTestSupport.specError(text, sourceLocation: sourceLocation) else {
    return
  }
  #expect(error.path == path, "\(error)", sourceLocation: sourceLocation)
  #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
  #expect(error.line == nil, sourceLocation: sourceLocation)
  #expect(error.description == "\(path): \(error.message)", sourceLocation: sourceLocation)
}
