import Foundation
import Segue
import SegueTesting
import Testing

/// The walkthrough of the article "Testing transitions": a test records its snapshots and
/// fails once, passes, fails when the curve changes, and passes again once the new curve is
/// recorded (as `SEGUE_RECORD=failed` would).
@Suite("Testing transitions article")
struct TestingTransitionsArticleTests {
  /// The article's transition: CATransition push with a timing function.
  static func scene(_ curve: TimingFunction) throws -> TransitionScene {
    var parameters = PresetParameters()
    parameters.caTimingFunction = curve
    let animator = PresetAnimator(.caPush, parameters: parameters)
    return try animator.animateTransition(using: animator.defaultContext(operation: .push))
  }

  /// The article's assertions, against `folder`.
  static func assertPush(
    _ scene: TransitionScene, record: SnapshotRecordMode, folder: String
  ) {
    assertTransitionSnapshot(
      of: scene, as: .curves(times: [0, 0.05, 0.125, 0.2, 0.25]), named: "push",
      record: record, snapshotDirectory: folder)
    assertTransitionSnapshot(
      of: scene, as: .frames(times: [0.05], scale: 0.25), named: "push", record: record,
      snapshotDirectory: folder)
  }

  @Test func recordsFailsOnAChangedCurveAndPassesAgain() throws {
    let folder = try snapshotFolder()
    let easing = try Self.scene(.easeInEaseOut)
    let linear = try Self.scene(.linear)
    // 1. The first run records both snapshots and fails once, saying so.
    withKnownIssue {
      Self.assertPush(easing, record: .missing, folder: folder)
    } matching: {
      text($0).hasPrefix("No snapshot at")
    }
    // 2. Then it passes.
    Self.assertPush(easing, record: .missing, folder: folder)
    // 3. A changed curve fails: the rows that moved, the frame's pixels.
    withKnownIssue {
      Self.assertPush(linear, record: .missing, folder: folder)
    } matching: { issue in
      text(issue).contains("curve rows differ") || text(issue).contains("pixels differ")
    }
    // 4. Recording the new curve on purpose (SEGUE_RECORD=failed) fails once more, naming the
    //    files it wrote; from then on the new curve passes.
    withKnownIssue {
      Self.assertPush(linear, record: .failed, folder: folder)
    } matching: {
      text($0).hasPrefix("Recorded ")
    }
    Self.assertPush(linear, record: .missing, folder: folder)
  }
}
