import Foundation
import Segue
import SegueRender
import SegueSnapshot
import Testing

/// A fresh, empty temporary folder.
func temporaryFolder(_ name: String = #function) throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("segue-snapshot-tests-\(ProcessInfo.processInfo.processIdentifier)")
    .appendingPathComponent(name.filter { $0.isLetter || $0.isNumber } + "-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

@Suite("Snapshot verification")
struct SnapshotVerificationTests {
  static let frames = TransitionSnapshotting.frames(times: [0, 0.5], scale: 0.25)

  func verification(
    _ scene: TransitionScene, _ strategy: TransitionSnapshotting = frames, in folder: URL,
    record: SnapshotRecordMode = .missing
  ) -> SnapshotVerification {
    SnapshotVerification(
      scene: scene, strategy: strategy,
      reference: SnapshotReference(
        directory: folder.appendingPathComponent("refs"), baseName: "t.1"),
      record: record, artifacts: folder.appendingPathComponent("artifacts"), keepsBytes: true)
  }

  /// Missing: recorded and failing once; then matching.
  @Test func recordsAMissingSnapshotThenMatches() throws {
    let folder = try temporaryFolder()
    let first = verification(try slidingScene(), in: folder).run()
    #expect(first.isFailure)
    #expect(first.files.map(\.status) == [.recordedMissing, .recordedMissing])
    #expect(first.files[0].reference.lastPathComponent == "t.1.frame-0.png")
    #expect(first.message.hasPrefix("No snapshot at "))
    #expect(first.message.contains("recorded it; run the test again"))
    let second = verification(try slidingScene(), in: folder).run()
    #expect(!second.isFailure, "\(second.message)")
  }

  /// A changed transition fails with a one-line message naming the actual and diff images,
  /// which exist; the snapshot is not overwritten.
  @Test func mismatchWritesArtifactsAndKeepsTheSnapshot() throws {
    let folder = try temporaryFolder()
    _ = verification(try slidingScene(), in: folder).run()
    let reference = folder.appendingPathComponent("refs/t.1.frame-1.png")
    let before = try Data(contentsOf: reference)
    let outcome = verification(try slidingScene(to: 60), in: folder).run()
    #expect(outcome.isFailure)
    #expect(outcome.files[0].status == .matched)
    let result = outcome.files[1]
    guard case .mismatch(let summary) = result.status else {
      Issue.record("expected a mismatch, got \(result.status)")
      return
    }
    #expect(summary.contains("pixels differ"))
    let actual = try #require(result.actualArtifact)
    let diff = try #require(result.diffArtifact)
    #expect(actual.lastPathComponent == "t.1.frame-1.actual.png")
    #expect(diff.lastPathComponent == "t.1.frame-1.diff.png")
    #expect(FileManager.default.fileExists(atPath: actual.path))
    #expect(FileManager.default.fileExists(atPath: diff.path))
    #expect(!result.message.contains("\n"))
    #expect(result.message.contains(actual.path) && result.message.contains(diff.path))
    #expect(try Data(contentsOf: reference) == before)
    #expect(result.expectedBytes == [UInt8](before))
    // The actual artefact is what the new run renders.
    let rendered = try SnapshotImageDecoder.decode([UInt8](Data(contentsOf: actual)))
    #expect(rendered.width == 25)
  }

  @Test func recordFailedRewritesOnlyWhatDiffers() throws {
    let folder = try temporaryFolder()
    _ = verification(try slidingScene(), in: folder).run()
    let outcome = verification(try slidingScene(to: 60), in: folder, record: .failed).run()
    #expect(outcome.files.map(\.status) == [.matched, .rerecorded])
    #expect(outcome.isFailure)
    #expect(!verification(try slidingScene(to: 60), in: folder).run().isFailure)
  }

  @Test func recordAllRewritesEverythingAndFails() throws {
    let folder = try temporaryFolder()
    _ = verification(try slidingScene(), in: folder).run()
    let outcome = verification(try slidingScene(), in: folder, record: .all).run()
    #expect(outcome.files.map(\.status) == [.rerecorded, .rerecorded])
    #expect(outcome.isFailure)
  }

  @Test func recordNeverLeavesAMissingSnapshotMissing() throws {
    let folder = try temporaryFolder()
    let outcome = verification(try slidingScene(), in: folder, record: .never).run()
    #expect(outcome.files.map(\.status) == [.missing, .missing])
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs").path))
  }

  /// A corrupt snapshot is reported and left as it is, unless recording failures.
  @Test func corruptSnapshotIsNotOverwritten() throws {
    let folder = try temporaryFolder()
    _ = verification(try slidingScene(), in: folder).run()
    let reference = folder.appendingPathComponent("refs/t.1.frame-0.png")
    try Data("not a png".utf8).write(to: reference)
    let outcome = verification(try slidingScene(), in: folder).run()
    #expect(outcome.files[0].status == .unreadable("not a PNG file (no PNG signature)"))
    #expect(try Data(contentsOf: reference) == Data("not a png".utf8))
    let fixed = verification(try slidingScene(), in: folder, record: .failed).run()
    #expect(fixed.files[0].status == .rerecorded)
    #expect(!verification(try slidingScene(), in: folder).run().isFailure)
  }

  /// A snapshot of another size fails, naming both sizes.
  @Test func anotherSizeFails() throws {
    let folder = try temporaryFolder()
    _ = verification(try slidingScene(), in: folder).run()
    let outcome = verification(
      try slidingScene(), .frames(times: [0, 0.5], scale: 0.5), in: folder
    ).run()
    #expect(
      outcome.files[0].status
        == .mismatch("the snapshot is 25×25 pixels, the new image 50×50"))
  }

  /// Curves: recorded as text; a NaN in the file is reported with its line.
  @Test func curvesFileWithNaN() throws {
    let folder = try temporaryFolder()
    let strategy = TransitionSnapshotting.curves(times: [0, 0.5])
    _ = verification(try slidingScene(), strategy, in: folder).run()
    let reference = folder.appendingPathComponent("refs/t.1.txt")
    let text = try String(contentsOf: reference, encoding: .utf8)
    #expect(!verification(try slidingScene(), strategy, in: folder).run().isFailure)
    let broken = text.replacingOccurrences(of: "\"box\" 1 1 1.0 ", with: "\"box\" 1 1 nan ")
    #expect(broken != text)
    try broken.write(to: reference, atomically: true, encoding: .utf8)
    let outcome = verification(try slidingScene(), strategy, in: folder).run()
    #expect(
      outcome.files[0].status == .unreadable("curves file line 4: value 1 is nan (must be finite)"))
    let changed = verification(try slidingScene(to: 90), strategy, in: folder, record: .failed)
      .run()
    #expect(changed.files[0].status == .rerecorded)
    let mismatch = verification(try slidingScene(to: 70), strategy, in: folder).run()
    guard case .mismatch(let summary) = mismatch.files[0].status else {
      Issue.record("expected a mismatch")
      return
    }
    #expect(summary.contains("1 of 4 curve rows differ"))
  }

  @Test func animationComparesFrameByFrame() throws {
    let folder = try temporaryFolder()
    let strategy = TransitionSnapshotting.animation(fps: 4, scale: 0.25)
    let first = verification(try slidingScene(), strategy, in: folder).run()
    #expect(first.files.map(\.status) == [.recordedMissing])
    #expect(!verification(try slidingScene(), strategy, in: folder).run().isFailure)
    let outcome = verification(try slidingScene(to: 60), strategy, in: folder).run()
    guard case .mismatch(let summary) = outcome.files[0].status else {
      Issue.record("expected a mismatch")
      return
    }
    // Frames at 0, 0.25, 0.5, 0.75 and 1: the first shows x = 20 in both.
    #expect(summary.hasPrefix("4 of 5 frames differ; frame 1:"), "\(summary)")
    let other = verification(
      try slidingScene(), .animation(fps: 8, scale: 0.25), in: folder
    ).run()
    #expect(
      other.files[0].status == .mismatch("the snapshot has 5 frames, the animation 9"))
  }

  @Test func filmstripIsOneSheet() throws {
    let folder = try temporaryFolder()
    let strategy = TransitionSnapshotting.filmstrip(times: [0, 0.5, 1], scale: 0.25, columns: 2)
    let outcome = verification(try slidingScene(), strategy, in: folder).run()
    #expect(outcome.files.map(\.reference.lastPathComponent) == ["t.1.png"])
    let sheet = try SnapshotImageDecoder.decode(
      [UInt8](Data(contentsOf: folder.appendingPathComponent("refs/t.1.png"))))
    // Two columns of 25-pixel frames with 4-pixel gaps: 2·25 + 3·4 = 62 wide.
    #expect(sheet.width == 62)
  }

  /// A strategy that cannot be used fails with its reason and writes nothing.
  @Test func rejectsABadStrategy() throws {
    let folder = try temporaryFolder()
    let cases: [(TransitionSnapshotting, String)] = [
      (.frames(times: [.nan]), "times[0] must be finite (got NaN or infinity)"),
      (.frames(times: []), "times needs at least 1 entries (got 0)"),
      (.frames(times: [0], scale: 0), "scale must be greater than 0"),
      (.filmstrip(times: [0], columns: 0), "columns must be in [1.0, 1000000000.0]"),
      (.animation(fps: -1), "fps must be greater than 0"),
      (.frames(times: [0], precision: 2), "precision must be in [0.0, 1.0]"),
      (.curves(times: [-1]), "times[0] must not be negative"),
    ]
    for (strategy, reason) in cases {
      let outcome = verification(try slidingScene(), strategy, in: folder).run()
      #expect(outcome.error == "Cannot take the snapshot t.1: \(reason)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refs").path))
  }

  @Test func recordModeFromTheEnvironment() throws {
    #expect(try SnapshotRecordMode(environment: [:]) == .missing)
    #expect(try SnapshotRecordMode(environment: ["SEGUE_RECORD": ""]) == .missing)
    for mode in SnapshotRecordMode.allCases {
      #expect(try SnapshotRecordMode(environment: ["SEGUE_RECORD": mode.rawValue]) == mode)
    }
    #expect(throws: SnapshotSetupError.badRecordMode("yes")) {
      try SnapshotRecordMode(environment: ["SEGUE_RECORD": "yes"])
    }
    #expect(
      SnapshotSetupError.badRecordMode("yes").description
        == "SEGUE_RECORD='yes' is not a record mode (use all, missing, failed, never)")
  }
}
