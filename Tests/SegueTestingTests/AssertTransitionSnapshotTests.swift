import Foundation
import Segue
import SegueTesting
import Testing

/// A fresh temporary snapshot folder.
func snapshotFolder(_ name: String = #function) throws -> String {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("segue-testing-tests-\(ProcessInfo.processInfo.processIdentifier)")
    .appendingPathComponent(name.filter { $0.isLetter } + "-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url.path
}

/// The comments of a recorded issue.
func text(_ issue: Issue) -> String { issue.comments.map(\.rawValue).joined(separator: "\n") }

@Suite("assertTransitionSnapshot")
struct AssertTransitionSnapshotTests {
  /// The failures are recorded as Swift Testing issues; the first run records and fails once,
  /// the second passes, a changed transition fails naming its images.
  @Test func recordsFailsOnceThenPasses() throws {
    let folder = try snapshotFolder()
    let scene = try presetScene(.system, .push)
    let strategy = TransitionSnapshotting.frames(times: [0, 0.1], scale: 0.1)
    withKnownIssue {
      assertTransitionSnapshot(
        of: scene, as: strategy, named: "push", record: .missing, snapshotDirectory: folder)
    } matching: { issue in
      text(issue).contains("No snapshot at") && text(issue).contains("push.frame-0.png")
    }
    #expect(
      FileManager.default.fileExists(
        atPath: folder + "/recordsFailsOnceThenPasses.push.frame-1.png"))
    assertTransitionSnapshot(
      of: scene, as: strategy, named: "push", record: .missing, snapshotDirectory: folder)
    let other = try presetScene(.depth, .push)
    withKnownIssue {
      assertTransitionSnapshot(
        of: other, as: strategy, named: "push", record: .never, snapshotDirectory: folder)
    } matching: { issue in
      text(issue).contains("does not match") && text(issue).contains(".diff.png")
    }
  }

  /// Unnamed snapshots are counted per test: `<test>.1`, `<test>.2`.
  @Test func unnamedSnapshotsAreNumbered() throws {
    let folder = try snapshotFolder()
    let scene = try presetScene(.caFade, .push)
    withKnownIssue {
      assertTransitionSnapshot(
        of: scene, as: .curves(times: [0]), record: .missing, snapshotDirectory: folder)
      assertTransitionSnapshot(
        of: scene, as: .curves(times: [0.1]), record: .missing, snapshotDirectory: folder)
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(names == ["unnamedSnapshotsAreNumbered.1.txt", "unnamedSnapshotsAreNumbered.2.txt"])
  }

  /// The default folder is `__Snapshots__/<TestFile>` next to the test file.
  @Test func snapshotsLiveNextToTheTestFile() throws {
    let outcome = verifyTransitionSnapshot(
      of: try presetScene(.system, .push), as: .curves(times: [0]), named: "where",
      record: .never)
    let reference = try #require(outcome.files.first?.reference)
    #expect(
      reference.path.hasSuffix(
        "Tests/SegueTestingTests/__Snapshots__/AssertTransitionSnapshotTests/"
          + "snapshotsLiveNextToTheTestFile.where.txt"))
    #expect(outcome.files.first?.status == .missing)
  }

  @Test func sanitisesTestNames() throws {
    let outcome = verifyTransitionSnapshot(
      of: try presetScene(.system, .push), as: .curves(times: [0]), named: "a b/c",
      record: .never, snapshotDirectory: "/nonexistent", testName: "preset(_:_:)")
    #expect(outcome.files.first?.reference.lastPathComponent == "preset.a-b-c.txt")
  }

  /// A bad strategy is a test failure with its reason, not a crash.
  @Test func aBadStrategyFails() throws {
    let folder = try snapshotFolder()
    let scene = try presetScene(.system, .push)
    withKnownIssue {
      assertTransitionSnapshot(
        of: scene, as: .frames(times: [.nan]), named: "bad",
        snapshotDirectory: folder)
    } matching: { issue in
      text(issue).contains("times[0] must be finite")
    }
  }
}
