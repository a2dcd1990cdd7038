import Segue
import SegueTesting
import Testing

/// Every preset, push and pop, runs without an undeclared jump: by itself, and interactively,
/// finished or cancelled at several progresses after a drag.
@Suite("Preset continuity")
struct PresetContinuityTests {
  @Test(arguments: TransitionPreset.allCases, [TransitionOperation.push, .pop])
  func runs(_ preset: TransitionPreset, _ operation: TransitionOperation) throws {
    let scene = try presetScene(preset, operation)
    assertContinuous(scene, fps: 60)
  }

  @Test(arguments: TransitionPreset.allCases, [true, false])
  func interactive(_ preset: TransitionPreset, finishing: Bool) throws {
    let scene = try presetScene(preset, .push)
    for progress in [0.2, 0.6] {
      // A drag in four updates, a pause, then the finish or cancel.
      var events = (1...4).map { k in
        InteractionEvent.update(time: 0.05 * Double(k), percent: progress * Double(k) / 4)
      }
      events.append(finishing ? .finish(time: 0.3) : .cancel(time: 0.3))
      let run = try InteractionTimeline(duration: scene.duration, events: events)
      assertContinuous(scene, interaction: run, fps: 60)
    }
  }
}
