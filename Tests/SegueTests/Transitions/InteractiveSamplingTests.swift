import PropertyBased
import Segue
import Testing

/// Sampling a percent-driven transition from its event history (the transition catalog,
/// "Interactive transitions").
///
/// The scene is cross-dissolve push (0.35 s, ease-in-ease-out): **to** opacity = e(t / 0.35)
/// where e is the bezier (0.42, 0, 0.58, 1). Reference values of e come from an independent
/// mpmath computation (30 digits; X(s) = x inverted by 200 bisection steps on the Bernstein form,
/// then Y(s)): e(0.4) = 0.331883870097646, e(0.7) = 0.812604093294687.
@Suite("Interactive sampling")
struct InteractiveSamplingTests {
  let scene: TransitionScene

  init() throws {
    let animator = PresetAnimator(.crossDissolve)
    scene = try animator.animateTransition(
      using: animator.defaultContext(operation: .push, content: .bare))
  }

  /// update(0.4) at t = 0.1, then finish at t = 0.2 with a linear completion curve and speed 1:
  /// the run lasts (1 − 0.4)·0.35 = 0.21 s; at t = 0.305 (half of it) the position is
  /// 0.4 + 0.6·0.5 = 0.7, so **to** shows e(0.7). At t = 0.41 the run is over: finished.
  @Test func finishRunsTheTimelineToTheEnd() throws {
    var timeline = try InteractionTimeline(duration: 0.35, completionCurve: .linear)
    try timeline.append(.update(time: 0.1, percent: 0.4))
    try timeline.append(.finish(time: 0.2))

    let held = try scene.sample(at: 0.15, interaction: timeline)
    #expect(abs(held.progress - 0.4) < 1e-12)
    #expect(abs(held["to"]!.opacity - 0.331883870097646) < 1e-9)
    #expect(!held.isCompleted)

    let running = try scene.sample(at: 0.305, interaction: timeline)
    #expect(abs(running.progress - 0.7) < 1e-9)
    #expect(abs(running["to"]!.opacity - 0.812604093294687) < 1e-7)

    let done = try scene.sample(at: 0.42, interaction: timeline)
    #expect(done.isCompleted && !done.isCancelled)
    #expect(done.layers.map(\.id) == ["to"])
    #expect(done["to"]!.opacity == 1)
  }

  /// cancel at p = 0.4 runs back to 0 over 0.4·0.35 = 0.14 s; afterwards only **from** remains,
  /// exactly as at progress 0.
  @Test func cancelRestoresTheStart() throws {
    var timeline = try InteractionTimeline(duration: 0.35, completionCurve: .linear)
    try timeline.append(.update(time: 0.1, percent: 0.4))
    try timeline.append(.cancel(time: 0.2))
    let midway = try scene.sample(at: 0.27, interaction: timeline)
    #expect(abs(midway.progress - 0.2) < 1e-9)
    let done = try scene.sample(at: 0.35, interaction: timeline)
    #expect(done.isCompleted && done.isCancelled)
    #expect(done.layers.map(\.id) == ["from"])
    #expect(done["from"]!.opacity == 1)
    #expect(done["from"]!.blend == .over)
  }

  @Test func rejectsAMismatchedDuration() throws {
    let timeline = try InteractionTimeline(duration: 1)
    #expect(throws: ValidationError(field: "interaction.duration", reason: .mustEqual(0.35))) {
      try scene.sample(at: 0, interaction: timeline)
    }
  }

  @Test(arguments: [Double.nan, .infinity, -1])
  func rejectsBadTimes(time: Double) throws {
    let timeline = try InteractionTimeline(duration: 0.35)
    #expect(throws: ValidationError.self) { try scene.sample(at: time, interaction: timeline) }
    #expect(throws: ValidationError.self) { try scene.sample(at: time, completion: .finished) }
  }

  /// The completed samples without an interaction: finished keeps **to**, cancelled **from**.
  @Test func completedSamples() throws {
    let finished = try scene.sample(at: 1, completion: .finished)
    #expect(finished.layers.map(\.id) == ["to"] && finished.progress == 1)
    let cancelled = try scene.sample(at: 1, completion: .cancelled)
    #expect(cancelled.layers.map(\.id) == ["from"] && cancelled.isCancelled)
  }
}

/// Random interactive histories over every preset and operation: nothing is NaN, the completion
/// is reported from the moment it fires on, with the right flag, and after a cancel every layer
/// equals its progress-0 state.
@Suite("Interactive sampling properties")
struct InteractiveSamplingPropertyTests {
  @Test func randomHistories() async throws {
    let presets = TransitionPreset.allCases
    await propertyCheck(
      count: 120,
      input: Gen.int(in: 0...(presets.count - 1)), Gen.bool(),
      Gen.double(in: 0...1).array(of: 1...5), Gen.bool(), Gen.double(in: 0.2...3)
    ) { presetIndex, push, percents, finishes, speed in
      do {
        let animator = PresetAnimator(presets[presetIndex])
        let context = try animator.defaultContext(operation: push ? .push : .pop, content: .bare)
        let scene = try animator.animateTransition(using: context)
        var timeline = try InteractionTimeline(
          duration: scene.duration, completionSpeed: speed)
        var t = 0.0
        for p in percents {
          t += 0.05
          try timeline.append(.update(time: t, percent: p))
        }
        t += 0.05
        try timeline.append(finishes ? .finish(time: t) : .cancel(time: t))
        var completedAt: Double?
        // The completion run lasts at most duration / speed after the last event.
        let end = t + scene.duration / speed + 0.01
        for step in 0...40 {
          let time = Double(step) / 40 * end
          let sample = try scene.sample(at: time, interaction: timeline)
          for layer in sample.layers {
            #expect(layer.opacity.isFinite && layer.matrix.fields.allSatisfy { $0.isFinite })
          }
          if sample.isCompleted {
            if completedAt == nil { completedAt = time }
            #expect(sample.isCancelled == !finishes)
          } else {
            #expect(completedAt == nil, "completion must not un-fire")
          }
        }
        #expect(completedAt != nil)
        if !finishes {
          let start = scene.presentation(at: 0).evaluate()
          let last = try scene.sample(at: end, interaction: timeline)
          for layer in last.layers {
            let initial = try #require(start.first { $0.id == layer.id })
            #expect(layer.matrix == initial.matrix && layer.opacity == initial.opacity)
          }
          #expect(last.layers.first?.id == context.fromID)
        }
      } catch {
        Issue.record("unexpected error \(error)")
      }
    }
  }
}
