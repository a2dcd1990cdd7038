import Segue
import Testing

/// `TransitionScene.endTime(interaction:)` and `TransitionScene.frameTimes(fps:end:maximum:)`.
@Suite("Transition frame times")
struct TransitionFrameTimesTests {
  @Test func framesRunToTheEndIncluded() throws {
    #expect(
      try TransitionScene.frameTimes(fps: 4, end: 1, maximum: 100) == [0, 0.25, 0.5, 0.75, 1])
    // 0.5 s at 3 fps: 0, 1/3 and the end.
    #expect(try TransitionScene.frameTimes(fps: 3, end: 0.5, maximum: 100) == [0, 1.0 / 3, 0.5])
    #expect(try TransitionScene.frameTimes(fps: 60, end: 0, maximum: 100) == [0])
    // 0.35 s at 60 fps: 21/60 = 0.35 exactly as Swift rounds both, so no extra frame.
    let times = try TransitionScene.frameTimes(fps: 60, end: 0.35, maximum: 100)
    #expect(times.count == 22 && times.last == 0.35)
  }

  @Test(arguments: [0, -1, Double.nan, .infinity])
  func rejectsABadRate(_ fps: Double) {
    #expect(throws: ValidationError.self) {
      try TransitionScene.frameTimes(fps: fps, end: 1, maximum: 100)
    }
  }

  @Test func rejectsTooManyFrames() {
    #expect(throws: ValidationError.self) {
      try TransitionScene.frameTimes(fps: 1000, end: 1, maximum: 100)
    }
  }

  /// The end of an interactive run: its completion, when later than the duration.
  @Test func endTimeOfAnInteractiveRun() throws {
    let animator = PresetAnimator(.system)
    let scene = try animator.animateTransition(using: animator.defaultContext(operation: .push))
    #expect(scene.endTime(interaction: nil) == 0.5)
    // A finish at 0.6 s from 0.4: a run of (1 − 0.4)·0.5 = 0.3 s, complete at 0.9 s.
    let run = try InteractionTimeline(
      duration: 0.5, events: [.update(time: 0.1, percent: 0.4), .finish(time: 0.6)])
    #expect(abs(scene.endTime(interaction: run) - 0.9) < 1e-12)
    #expect(scene.endTime(interaction: try InteractionTimeline(duration: 0.5)) == 0.5)
  }
}
