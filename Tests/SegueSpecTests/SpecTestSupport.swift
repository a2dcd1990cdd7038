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

  /// The preset's scene in its default context (390 × 844), as the preset tests build it.
  static func presetScene(_ preset: TransitionPreset, _ operation: TransitionOperation) throws
    -> TransitionScene
  {
    let animator = PresetAnimator(preset)
    let context = try animator.defaultContext(operation: operation)
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
}
