import PropertyBased
import Testing

@testable import Segue

/// Reference values of the ease-in-ease-out Bézier (0.42, 0, 0.58, 1), computed independently with
/// python3 mpmath at 50 digits: solve x(u) = x with findroot, then evaluate y(u).
///   easeInEaseOut(0.25) = 0.12916193104731981165
///   easeInEaseOut(0.5)  = 0.5 (the curve is point-symmetric about (0.5, 0.5))
///   0.4 − 0.4·easeInEaseOut(0.25) = 0.34833522758107207534
private let eio25 = 0.12916193104731981165

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool {
  abs(a - b) <= tolerance
}

@Suite("InteractionTimeline")
struct InteractionTimelineTests {
  // MARK: The interactive completion rule worked by hand

  /// D = 0.5, update 0.4 at t = 1, finish at t = 2 with completionSpeed 2:
  /// run L = (1 − 0.4)·0.5/2 = 0.15 s, ends at 2.15; at 2.075, s = 0.5 and
  /// p = 0.4 + 0.6·easeInEaseOut(0.5) = 0.4 + 0.3 = 0.7.
  @Test func finishWorkedExample() throws {
    let timeline = try InteractionTimeline(
      duration: 0.5, completionSpeed: 2,
      events: [.update(time: 1, percent: 0.4), .finish(time: 2)])
    let before = try timeline.state(at: 1.5)
    #expect(before.position == 0.4 && before.phase == .interacting && before.completionTime == nil)
    let atFinish = try timeline.state(at: 2)
    #expect(atFinish.position == 0.4 && atFinish.phase == .finishing)
    #expect(close(atFinish.completionTime ?? -1, 2.15))
    let mid = try timeline.state(at: 2.075)
    #expect(close(mid.position, 0.7))
    #expect(mid.phase == .finishing && mid.isFinished == nil && !mid.isCompleted)
    // s = 0.25 of the run: 0.4 + 0.6·easeInEaseOut(0.25).
    let quarter = try timeline.state(at: 2.0375)
    #expect(close(quarter.position, 0.4 + 0.6 * eio25))
    let end = try timeline.state(at: 2.15)
    #expect(end.isCompleted && end.isFinished == true && end.position == 1)
    let later = try timeline.state(at: 9)
    #expect(later.isCompleted && later.isFinished == true && later.position == 1)
  }

  /// Cancel, symmetric: D = 0.5, update 0.4 at t = 1, cancel at t = 2, speed 2:
  /// L = 0.4·0.5/2 = 0.1 s; at 2.05 p = 0.4 − 0.4·0.5 = 0.2; at 2.025 (s = 0.25)
  /// p = 0.4 − 0.4·easeInEaseOut(0.25) = 0.34833522758107207534 (mpmath); completes at 2.1, p = 0.
  @Test func cancelWorkedExample() throws {
    let timeline = try InteractionTimeline(
      duration: 0.5, completionSpeed: 2,
      events: [.update(time: 1, percent: 0.4), .cancel(time: 2)])
    #expect(close(try timeline.state(at: 2.05).position, 0.2))
    #expect(close(try timeline.state(at: 2.025).position, 0.34833522758107207534))
    #expect(try timeline.state(at: 2.05).phase == .cancelling)
    let end = try timeline.state(at: 2.1)
    #expect(end.isCompleted && end.isFinished == false && end.position == 0)
    #expect(close(end.completionTime ?? -1, 2.1))
  }

  /// completionSpeed 1, linear curve, D = 1: finish from 0.2 at t = 1 runs 0.8 s;
  /// at 1.4 (s = 0.5) p = 0.2 + 0.8·0.5 = 0.6.
  @Test func linearCompletionCurve() throws {
    let timeline = try InteractionTimeline(
      duration: 1, completionCurve: .linear,
      events: [.update(time: 0.5, percent: 0.2), .finish(time: 1)])
    #expect(close(try timeline.state(at: 1.4).position, 0.6))
    #expect(close(try timeline.state(at: 1.4).completionTime ?? -1, 1.8))
  }

  @Test func finishAtOneCompletesAtOnce() throws {
    let timeline = try InteractionTimeline(
      duration: 0.35, events: [.update(time: 0.3, percent: 1), .finish(time: 0.5)])
    let state = try timeline.state(at: 0.5)
    #expect(state.isCompleted && state.isFinished == true && state.position == 1)
    #expect(state.completionTime == 0.5)
    #expect(try timeline.state(at: 0.49).phase == .interacting)
  }

  /// A cancel with no update (position 0) completes at once, cancelled.
  @Test func cancelAtZeroCompletesAtOnce() throws {
    let timeline = try InteractionTimeline(duration: 0.35, events: [.cancel(time: 0.2)])
    let state = try timeline.state(at: 0.2)
    #expect(state.isCompleted && state.isFinished == false && state.position == 0)
    #expect(state.completionTime == 0.2)
  }

  @Test func positionIsZeroBeforeFirstUpdate() throws {
    let timeline = try InteractionTimeline(
      duration: 2, events: [.update(time: 1, percent: 0.6)])
    #expect(try timeline.state(at: 0).position == 0)
    #expect(try timeline.state(at: 0.999).position == 0)
    #expect(try timeline.state(at: 1).position == 0.6)
  }

  @Test func updatesClampToUnitInterval() throws {
    let timeline = try InteractionTimeline(
      duration: 2,
      events: [.update(time: 1, percent: 1.7), .update(time: 2, percent: -0.3)])
    #expect(try timeline.state(at: 1.5).position == 1)
    #expect(try timeline.state(at: 2).position == 0)
  }

  /// Events at the same time apply in order; a sample at τ applies the events at τ.
  @Test func sameTimeEventsApplyInOrder() throws {
    let timeline = try InteractionTimeline(
      duration: 1,
      events: [.update(time: 1, percent: 0.3), .update(time: 1, percent: 0.8)])
    #expect(try timeline.state(at: 1).position == 0.8)
  }

  /// A pause while interacting changes nothing.
  @Test func pauseWhileInteractingKeepsPosition() throws {
    let timeline = try InteractionTimeline(
      duration: 1, events: [.update(time: 1, percent: 0.3), .pause(time: 2)])
    #expect(try timeline.state(at: 3).position == 0.3)
    #expect(try timeline.state(at: 3).phase == .interacting)
  }

  /// Non-interactive start, D = 2: p = t/2 while running; it completes by itself at t = 2.
  @Test func nonInteractiveStartRunsAndCompletes() throws {
    let timeline = try InteractionTimeline(duration: 2, wantsInteractiveStart: false)
    let running = try timeline.state(at: 0.5)
    #expect(running.position == 0.25 && running.phase == .running)
    let done = try timeline.state(at: 2)
    #expect(done.isCompleted && done.isFinished == true && done.position == 1)
    #expect(done.completionTime == 2)
  }

  /// Non-interactive start paused at t = 1 freezes p = 1/2 = 0.5; a later update moves it.
  @Test func pauseFreezesNonInteractiveRun() throws {
    let timeline = try InteractionTimeline(
      duration: 2, wantsInteractiveStart: false,
      events: [.pause(time: 1), .update(time: 3, percent: 0.9)])
    #expect(try timeline.state(at: 1.7).position == 0.5)
    #expect(try timeline.state(at: 1.7).phase == .interacting)
    #expect(try timeline.state(at: 2.5).position == 0.5)
    #expect(try timeline.state(at: 3).position == 0.9)
  }

  /// A completion curve that overshoots is clamped: Bézier (0.1, 2, 0.9, 2) is symmetric in x,
  /// so x(0.5) = 0.5 and y(0.5) = 3·¼·½·2 + 3·½·¼·2 + ⅛ = 1.625; finishing from 0.5 would give
  /// 0.5 + 0.5·1.625 = 1.3125 > 1, so the position is exactly 1 while the run goes on.
  @Test func overshootingCurveIsClamped() throws {
    let curve = try TimingFunction.cubicBezier(0.1, 2, 0.9, 2)
    let timeline = try InteractionTimeline(
      duration: 1, completionCurve: curve,
      events: [.update(time: 0, percent: 0.5), .finish(time: 1)])
    let mid = try timeline.state(at: 1.25)
    #expect(mid.position == 1 && mid.phase == .finishing)
  }

  @Test func completionRunDuration() throws {
    let timeline = try InteractionTimeline(duration: 0.5, completionSpeed: 2)
    #expect(close(timeline.completionRunDuration(from: 0.4, finishing: true), 0.15))
    #expect(close(timeline.completionRunDuration(from: 0.4, finishing: false), 0.1))
  }

  @Test func settingsBeforeFinishAreUsed() throws {
    var timeline = try InteractionTimeline(duration: 1)
    try timeline.append(.update(time: 0, percent: 0.5))
    try timeline.setCompletionSpeed(4)
    try timeline.setCompletionCurve(.linear)
    try timeline.append(.finish(time: 1))
    // L = 0.5·1/4 = 0.125; at s = 0.5, p = 0.5 + 0.5·0.5 = 0.75.
    #expect(close(try timeline.state(at: 1.0625).position, 0.75))
  }

  // MARK: Rejections (one per condition)

  @Test func rejectsZeroDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try InteractionTimeline(duration: 0)
    }
  }

  @Test func rejectsNaNDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notFinite)) {
      try InteractionTimeline(duration: .nan)
    }
  }

  @Test func rejectsZeroCompletionSpeed() {
    #expect(throws: ValidationError(field: "completionSpeed", reason: .notPositive)) {
      try InteractionTimeline(duration: 1, completionSpeed: 0)
    }
  }

  @Test func rejectsNegativeCompletionSpeed() {
    #expect(throws: ValidationError(field: "completionSpeed", reason: .notPositive)) {
      try InteractionTimeline(duration: 1, completionSpeed: -2)
    }
  }

  @Test func rejectsNaNCompletionSpeed() {
    #expect(throws: ValidationError(field: "completionSpeed", reason: .notFinite)) {
      try InteractionTimeline(duration: 1, completionSpeed: .nan)
    }
  }

  @Test func rejectsCompletionSpeedSetToZero() throws {
    var timeline = try InteractionTimeline(duration: 1)
    #expect(throws: ValidationError(field: "completionSpeed", reason: .notPositive)) {
      try timeline.setCompletionSpeed(0)
    }
    #expect(timeline.completionSpeed == 1)
  }

  @Test func rejectsCompletionSpeedChangeAfterFinish() throws {
    var timeline = try InteractionTimeline(duration: 1, events: [.finish(time: 0)])
    #expect(
      throws: ValidationError(
        field: "interaction", reason: .invalidState("the transition was already finished"))
    ) { try timeline.setCompletionSpeed(3) }
  }

  @Test func rejectsCompletionCurveChangeAfterCancel() throws {
    var timeline = try InteractionTimeline(duration: 1, events: [.cancel(time: 0)])
    #expect(
      throws: ValidationError(
        field: "interaction", reason: .invalidState("the transition was already cancelled"))
    ) { try timeline.setCompletionCurve(.linear) }
  }

  @Test func rejectsNaNPercent() {
    #expect(throws: ValidationError(field: "percentComplete", index: 0, reason: .notFinite)) {
      try InteractionTimeline(duration: 1, events: [.update(time: 0, percent: .nan)])
    }
  }

  @Test func rejectsInfinitePercent() {
    #expect(throws: ValidationError(field: "percentComplete", index: 1, reason: .notFinite)) {
      try InteractionTimeline(
        duration: 1,
        events: [.update(time: 0, percent: 0.1), .update(time: 1, percent: .infinity)])
    }
  }

  @Test func rejectsNaNTime() {
    #expect(throws: ValidationError(field: "time", index: 0, reason: .notFinite)) {
      try InteractionTimeline(duration: 1, events: [.update(time: .nan, percent: 0.1)])
    }
  }

  @Test func rejectsInfiniteTime() {
    #expect(throws: ValidationError(field: "time", index: 0, reason: .notFinite)) {
      try InteractionTimeline(duration: 1, events: [.finish(time: .infinity)])
    }
  }

  @Test func rejectsNegativeTime() {
    #expect(throws: ValidationError(field: "time", index: 0, reason: .negative)) {
      try InteractionTimeline(duration: 1, events: [.pause(time: -0.5)])
    }
  }

  @Test func rejectsDecreasingTime() {
    #expect(throws: ValidationError(field: "time", index: 1, reason: .decreasing)) {
      try InteractionTimeline(
        duration: 1, events: [.update(time: 2, percent: 0.1), .update(time: 1, percent: 0.2)])
    }
  }

  @Test func rejectsUpdateAfterFinish() {
    #expect(
      throws: ValidationError(
        field: "interaction", index: 1,
        reason: .invalidState("the transition was already finished"))
    ) {
      try InteractionTimeline(
        duration: 1, events: [.finish(time: 0), .update(time: 5, percent: 0.2)])
    }
  }

  @Test func rejectsUpdateAfterCancel() {
    #expect(
      throws: ValidationError(
        field: "interaction", index: 2,
        reason: .invalidState("the transition was already cancelled"))
    ) {
      try InteractionTimeline(
        duration: 1,
        events: [
          .update(time: 0, percent: 0.5), .cancel(time: 1), .update(time: 1.1, percent: 0.2),
        ]
      )
    }
  }

  @Test func rejectsFinishAfterCancel() {
    #expect(
      throws: ValidationError(
        field: "interaction", index: 1,
        reason: .invalidState("the transition was already cancelled"))
    ) {
      try InteractionTimeline(duration: 1, events: [.cancel(time: 0), .finish(time: 0)])
    }
  }

  @Test func rejectsSecondFinish() {
    #expect(
      throws: ValidationError(
        field: "interaction", index: 1,
        reason: .invalidState("the transition was already finished"))
    ) {
      try InteractionTimeline(duration: 1, events: [.finish(time: 0), .finish(time: 3)])
    }
  }

  @Test func rejectsSecondCancel() {
    #expect(
      throws: ValidationError(
        field: "interaction", index: 1,
        reason: .invalidState("the transition was already cancelled"))
    ) {
      try InteractionTimeline(duration: 1, events: [.cancel(time: 0), .cancel(time: 3)])
    }
  }

  @Test func rejectsCancelAfterFinish() {
    #expect(
      throws: ValidationError(
        field: "interaction", index: 1,
        reason: .invalidState("the transition was already finished"))
    ) {
      try InteractionTimeline(duration: 1, events: [.finish(time: 0), .cancel(time: 0)])
    }
  }

  @Test func rejectsPauseAfterFinish() {
    #expect(
      throws: ValidationError(
        field: "interaction", index: 1,
        reason: .invalidState("the transition was already finished"))
    ) {
      try InteractionTimeline(duration: 1, events: [.finish(time: 0), .pause(time: 0.1)])
    }
  }

  /// A non-interactive start completes at t = D; an event at or after it is an update after
  /// completion.
  @Test func rejectsEventAfterNonInteractiveCompletion() {
    #expect(
      throws: ValidationError(
        field: "interaction", index: 0,
        reason: .invalidState("the transition already completed"))
    ) {
      try InteractionTimeline(
        duration: 1, wantsInteractiveStart: false, events: [.update(time: 1, percent: 0.2)])
    }
  }

  /// Found by fuzzing: a completion speed of 5e-324 makes the cancel run from p = 0.7 last
  /// 0.7·0.5/5e-324 s, which overflows to infinity, so the completion would never fire and its
  /// time would be infinite. Rejected at the cancel; so is a finish at t = 1e308 whose run of
  /// 1e308 s (p = 0, D = 1e308, k = 1) ends beyond the largest Double. A run that ends at a
  /// large but finite time is accepted.
  @Test func rejectsCompletionRunsEndingAtInfinity() throws {
    #expect {
      var timeline = try InteractionTimeline(duration: 0.5, completionSpeed: 2)
      try timeline.append(.update(time: 0.05, percent: 0.7))
      try timeline.setCompletionSpeed(.leastNonzeroMagnitude)
      try timeline.append(.cancel(time: 0.1))
    } throws: { error in
      let e = error as? ValidationError
      return e?.field == "completionSpeed" && e?.index == 1
    }
    #expect {
      try InteractionTimeline(duration: 1e308, events: [.finish(time: 1e308)])
    } throws: { error in
      (error as? ValidationError)?.field == "completionSpeed"
    }
    let far = try InteractionTimeline(duration: 1e307, events: [.finish(time: 1e307)])
    #expect(try far.state(at: 1e307).completionTime == 2e307)
  }

  @Test func rejectsNaNSampleTime() throws {
    let timeline = try InteractionTimeline(duration: 1)
    #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
      try timeline.state(at: .nan)
    }
  }

  @Test func rejectsNegativeSampleTime() throws {
    let timeline = try InteractionTimeline(duration: 1)
    #expect(throws: ValidationError(field: "time", reason: .negative)) {
      try timeline.state(at: -1)
    }
  }

  // MARK: Properties over random histories

  /// Random histories (built as a gesture handler would: mostly updates, sometimes pause, finish
  /// or cancel, with random gaps; invalid calls are rejected and skipped): at every sampled time
  /// the position is finite and in [0, 1]; once completed the state stays completed with the
  /// flag `finished == (a finish was requested)`, or `true` for a non-interactive run that ended
  /// by itself; a completed cancel sits at 0 and a completed finish at 1; and sampling is a pure
  /// function of the events at τ ≤ t.
  @Test func randomHistoriesAreConsistent() async {
    await propertyCheck(
      count: 200,
      input: Gen.int(in: 0...99).array(of: 1...14), Gen.double(in: -0.5...1.5).array(of: 14),
      Gen.double(in: 0...0.6).array(of: 14), Gen.bool()
    ) { kinds, values, gaps, interactiveStart in
      guard
        var timeline = try? InteractionTimeline(
          duration: 0.35 + gaps[0], completionSpeed: 0.25 + values[1].magnitude,
          wantsInteractiveStart: interactiveStart)
      else {
        Issue.record("valid settings rejected")
        return
      }
      var time = 0.0
      for (i, kind) in kinds.enumerated() {
        time += gaps[i]
        let event: InteractionEvent
        switch kind {
        case 0..<70: event = .update(time: time, percent: values[i])
        case 70..<78: event = .pause(time: time)
        case 78..<89: event = .finish(time: time)
        default: event = .cancel(time: time)
        }
        let hadRequest = timeline.completionRequest != nil
        do throws(ValidationError) {
          try timeline.append(event)
          #expect(!hadRequest)
        } catch {
          #expect(error.field == "interaction")
        }
      }
      let request = timeline.completionRequest
      var completedFlag: Bool?
      var sampleTime = 0.0
      while sampleTime < time + 3 {
        guard let state = try? timeline.state(at: sampleTime) else {
          Issue.record("valid time rejected")
          return
        }
        #expect(state.position.isFinite && state.position >= 0 && state.position <= 1)
        if let flag = completedFlag {
          #expect(state.isCompleted && state.isFinished == flag)
        }
        if state.isCompleted {
          let expected = request ?? true
          #expect(state.isFinished == expected)
          #expect(state.position == (expected ? 1 : 0))
          #expect((state.completionTime ?? .infinity) <= sampleTime)
          completedFlag = state.isFinished
        } else {
          #expect(state.isFinished == nil)
        }
        // Purity: the same state from only the events at τ ≤ sampleTime.
        let prefix = timeline.events.filter { $0.time <= sampleTime }
        let truncated = try? InteractionTimeline(
          duration: timeline.duration, completionSpeed: timeline.completionSpeed,
          wantsInteractiveStart: interactiveStart, events: prefix)
        #expect((try? truncated?.state(at: sampleTime)) == state)
        sampleTime += 0.037
      }
      // Every finish or cancel completes within the longest possible run.
      if request != nil {
        #expect(
          (try? timeline.state(at: time + timeline.duration / timeline.completionSpeed))?
            .isCompleted == true)
      }
    }
  }
}
