import Foundation
import Segue
import SegueRender
import SegueTesting
import Testing

/// The preset's scene in its default context (390 × 844 points).
func presetScene(_ preset: TransitionPreset, _ operation: TransitionOperation) throws
  -> TransitionScene
{
  let animator = PresetAnimator(preset)
  return try animator.animateTransition(using: animator.defaultContext(operation: operation))
}

/// The ten presets, push and pop, held by snapshots in `__Snapshots__/PresetSnapshotTests`: a
/// filmstrip of five frames at a quarter scale and the curves at the same times; and the
/// documentation's filmstrips (`Segue.docc/Resources/filmstrip-<preset>.png`).
///
/// After a deliberate change to the presets, their default views or the rasteriser, record them
/// again with one command and review the images in the diff:
///
///     SEGUE_RECORD=all swift test --filter PresetSnapshotTests
@Suite("Preset snapshots")
struct PresetSnapshotTests {
  /// 0, ¼, ½, ¾ of the duration and the end (complete).
  static func times(_ scene: TransitionScene) -> [Double] {
    [0, 0.25, 0.5, 0.75, 1].map { $0 * scene.duration }
  }

  @Test(arguments: TransitionPreset.allCases, [TransitionOperation.push, .pop])
  func preset(_ preset: TransitionPreset, _ operation: TransitionOperation) throws {
    let scene = try presetScene(preset, operation)
    let name = "\(preset.rawValue)-\(operation.rawValue)"
    assertTransitionSnapshot(
      of: scene, as: .filmstrip(times: Self.times(scene), scale: 0.25, columns: 5), named: name)
    assertTransitionSnapshot(of: scene, as: .curves(times: Self.times(scene)), named: name)
  }

  /// The filmstrips of the transition catalog: six frames at `k·duration/5` at 0.4 px/pt, six
  /// columns, each below 150 KB.
  @Test(arguments: TransitionPreset.allCases)
  func documentationFilmstrip(_ preset: TransitionPreset) throws {
    let resources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/Segue/Segue.docc/Resources")
    let scene = try presetScene(preset, .push)
    let renderer = SceneRenderer(scale: 0.4)
    let verification = SnapshotVerification(
      scene: scene,
      strategy: .filmstrip(
        times: (0...5).map { Double($0) * scene.duration / 5 }, renderer: renderer, columns: 6),
      reference: SnapshotReference(directory: resources, baseName: "filmstrip-\(preset.rawValue)"),
      record: try SnapshotRecordMode(environment: ProcessInfo.processInfo.environment),
      artifacts: FileManager.default.temporaryDirectory.appendingPathComponent(
        "segue-snapshot-artifacts/PresetSnapshotTests"))
    let outcome = verification.run()
    #expect(!outcome.isFailure, "\(outcome.message)")
    let file = resources.appendingPathComponent("filmstrip-\(preset.rawValue).png")
    let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
    #expect(size > 0 && size < 150_000, "\(file.path): \(size) bytes")
  }
}
