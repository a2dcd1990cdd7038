import Foundation
import Segue
import Testing

/// `segue sample --events`: an interactive script gives the library's interactive samples
/// (`scene.sample(at:interaction:)` with the same history).
@Suite struct EventsScriptTests {
  static func scene(_ preset: TransitionPreset, _ operation: TransitionOperation) throws
    -> TransitionScene
  {
    let animator = PresetAnimator(preset)
    return try animator.animateTransition(
      using: animator.defaultContext(operation: operation, content: .bare))
  }

  @Test func updatesThenFinishWithSettings() throws {
    let directory = try TemporaryDirectory()
    let script = try directory.write(
      "events.json",
      """
      [{"time": 0, "update": 0.1}, {"time": 0.2, "update": 0.4},
       {"time": 0.3, "pause": true},
       {"time": 0.35, "finish": {"completionSpeed": 2, "completionCurve": "easeOut"}}]
      """)
    let times = [0, 0.1, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 1]
    let result = try SegueProcess.run([
      "sample", "--preset", "system", "--views", "bare", "--events", script, "--times",
      times.map { "\($0)" }.joined(separator: ","),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try decodeSamples(result)
    #expect(document.interactive)
    let scene = try Self.scene(.system, .push)
    var timeline = try InteractionTimeline(duration: scene.duration)
    try timeline.append(.update(time: 0, percent: 0.1))
    try timeline.append(.update(time: 0.2, percent: 0.4))
    try timeline.append(.pause(time: 0.3))
    try timeline.setCompletionSpeed(2)
    try timeline.setCompletionCurve(.easeOut)
    try timeline.append(.finish(time: 0.35))
    for (frame, t) in zip(document.samples, times) {
      expectFrame(frame, equals: try scene.sample(at: t, interaction: timeline), "t=\(t)")
      #expect(frame.phase == (try timeline.state(at: t)).phase.rawValue)
    }
    // By hand: the finish at p0 = 0.4 runs (1 − 0.4)·0.5/2 = 0.15 s, so it completes at 0.5 s.
    #expect(document.samples[6].completed == false)
    #expect(document.samples[7].completed == true)
    #expect(document.samples[7].progress == 1)
    #expect(document.samples[3].phase == "interacting")
    #expect(document.samples[5].phase == "finishing")
  }

  @Test func cancelReturnsToTheStart() throws {
    let directory = try TemporaryDirectory()
    let script = try directory.write(
      "cancel.json",
      #"[{"time": 0.05, "update": 0.5}, {"time": 0.1, "cancel": true}]"#)
    let result = try SegueProcess.run([
      "sample", "--preset", "slide-over", "--views", "bare", "--operation", "pop", "--events",
      script, "--fps", "40",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try decodeSamples(result)
    let scene = try Self.scene(.slideOver, .pop)
    let timeline = try InteractionTimeline(
      duration: scene.duration,
      events: [.update(time: 0.05, percent: 0.5), .cancel(time: 0.1)])
    // The cancel at p0 = 0.5 runs 0.5·0.2 = 0.1 s, completing at 0.2 s, which is also the end of
    // the sampled range (the duration is 0.2 s): frames k/40 for k = 0…8.
    #expect(document.samples.map(\.time) == (0...8).map { Double($0) / 40 })
    for frame in document.samples {
      expectFrame(frame, equals: try scene.sample(at: frame.time, interaction: timeline), "cancel")
    }
    let last = try #require(document.samples.last)
    #expect(last.completed && last.cancelled)
    #expect(last.layers.map(\.id) == ["from"])
  }

  @Test func objectFormStartsNonInteractively() throws {
    let directory = try TemporaryDirectory()
    let script = try directory.write(
      "object.json",
      """
      {"wantsInteractiveStart": false, "completionSpeed": 0.5,
       "completionCurve": [0.25, 0.1, 0.25, 1],
       "events": [{"time": 0.1, "pause": true}, {"time": 0.2, "finish": true}]}
      """)
    let times = [0, 0.05, 0.1, 0.15, 0.2, 0.5, 0.9, 1]
    let result = try SegueProcess.run([
      "sample", "--preset", "cross-dissolve", "--views", "bare", "--events", script, "--times",
      times.map { "\($0)" }.joined(separator: ","),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try decodeSamples(result)
    let scene = try Self.scene(.crossDissolve, .push)
    let timeline = try InteractionTimeline(
      duration: scene.duration, completionSpeed: 0.5,
      completionCurve: .cubicBezier(0.25, 0.1, 0.25, 1), wantsInteractiveStart: false,
      events: [.pause(time: 0.1), .finish(time: 0.2)])
    for (frame, t) in zip(document.samples, times) {
      expectFrame(frame, equals: try scene.sample(at: t, interaction: timeline), "t=\(t)")
    }
    #expect(document.samples[1].phase == "running")
  }
}
