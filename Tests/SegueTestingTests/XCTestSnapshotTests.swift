import Segue
import SegueTesting
import XCTest

/// The assertions from XCTest: a preset's curves against the snapshot committed in
/// `__Snapshots__/XCTestSnapshotTests`, and its continuity.
final class XCTestSnapshotTests: XCTestCase {
  func testSystemPushCurves() throws {
    let animator = PresetAnimator(.system)
    let scene = try animator.animateTransition(using: animator.defaultContext(operation: .push))
    assertTransitionSnapshot(of: scene, as: .curves(times: [0, 0.1, 0.25]), named: "push")
    assertContinuous(scene, fps: 30)
  }
}
