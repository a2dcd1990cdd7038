import PropertyBased
import Testing

@testable import Segue

@Suite("PercentDrivenInteraction")
struct PercentDrivenInteractionTests {
  /// The interactive completion example through the object: D = 0.5, update 0.4 at 1,
  /// completionSpeed 2, finish at 2 → run 0.15 s; completion delivered once, finished, at 2.15 (by
  /// hand).
  @Test func completionIsDeliveredExactlyOnce() throws {
    var interaction = try PercentDrivenInteraction(duration: 0.5)
    try interaction.update(0.4, at: 1)
    #expect(interaction.percentComplete == 0.4)
    try interaction.setCompletionSpeed(2)
    try interaction.finish(at: 2)
    #expect(try interaction.advance(to: 2.1) == nil)
    #expect(interaction.currentState.phase == .finishing)
    let event = try interaction.advance(to: 2.2)
    #expect(event?.isFinished == true)
    #expect(abs((event?.time ?? 0) - 2.15) < 1e-12)
    #expect(interaction.completionCount == 1)
    #expect(interaction.percentComplete == 1)
    #expect(try interaction.advance(to: 2.3) == nil)
    #expect(try interaction.advance(to: 10) == nil)
    #expect(interaction.completionCount == 1)
  }

  @Test func cancelDeliversUnfinished() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    try interaction.update(0.25, at: 0.5)
    try interaction.cancel(at: 1)
    // Run 0.25·1/1 = 0.25 s: completes at 1.25 with finished = false.
    let event = try interaction.advance(to: 1.25)
    #expect(event == TransitionCompletionEvent(isFinished: false, time: 1.25))
    #expect(interaction.percentComplete == 0)
  }

  /// finish at position 1 completes at once: advancing to the finish time delivers it.
  @Test func finishAtOneIsImmediate() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    try interaction.update(1, at: 0.5)
    try interaction.finish(at: 0.75)
    #expect(
      try interaction.advance(to: 0.75) == TransitionCompletionEvent(isFinished: true, time: 0.75))
  }

  /// A non-interactive start that runs to its end completes by itself, finished.
  @Test func nonInteractiveStartCompletesBySelf() throws {
    var interaction = try PercentDrivenInteraction(duration: 0.2, wantsInteractiveStart: false)
    #expect(try interaction.advance(to: 0.1) == nil)
    #expect(interaction.percentComplete == 0.5)
    #expect(
      try interaction.advance(to: 0.3) == TransitionCompletionEvent(isFinished: true, time: 0.2))
  }

  /// `state(at:)` can look back before the clock.
  @Test func stateLooksBack() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    try interaction.update(0.3, at: 1)
    try interaction.update(0.6, at: 2)
    #expect(try interaction.state(at: 1.5).position == 0.3)
    #expect(interaction.percentComplete == 0.6)
  }

  // MARK: Rejections

  @Test func rejectsUpdateAfterCompletion() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    try interaction.finish(at: 0)
    _ = try interaction.advance(to: 2)
    #expect(
      throws: ValidationError(
        field: "interaction", reason: .invalidState("the transition was already finished"))
    ) { try interaction.update(0.5, at: 3) }
  }

  @Test func rejectsFinishAfterCancel() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    try interaction.cancel(at: 0)
    #expect(
      throws: ValidationError(
        field: "interaction", reason: .invalidState("the transition was already cancelled"))
    ) { try interaction.finish(at: 0) }
  }

  @Test func rejectsNaNPercent() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    #expect(throws: ValidationError(field: "percentComplete", reason: .notFinite)) {
      try interaction.update(.nan, at: 0)
    }
  }

  @Test func rejectsInfiniteTime() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
      try interaction.update(0.2, at: -.infinity)
    }
  }

  @Test func rejectsEventBeforeClock() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    _ = try interaction.advance(to: 2)
    #expect(throws: ValidationError(field: "time", reason: .decreasing)) {
      try interaction.pause(at: 1.5)
    }
  }

  @Test func rejectsAdvanceBackwards() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    try interaction.update(0.1, at: 1)
    #expect(throws: ValidationError(field: "time", reason: .decreasing)) {
      try interaction.advance(to: 0.5)
    }
  }

  @Test func rejectsAdvanceToNaN() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
      try interaction.advance(to: .nan)
    }
  }

  @Test func rejectsNonPositiveCompletionSpeed() throws {
    #expect(throws: ValidationError(field: "completionSpeed", reason: .notPositive)) {
      try PercentDrivenInteraction(duration: 1, completionSpeed: 0)
    }
  }

  @Test func rejectsNegativeDuration() throws {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try PercentDrivenInteraction(duration: -1)
    }
  }

  /// A rejected call changes nothing.
  @Test func rejectedCallLeavesStateUnchanged() throws {
    var interaction = try PercentDrivenInteraction(duration: 1)
    try interaction.update(0.3, at: 1)
    let before = interaction
    #expect(throws: ValidationError.self) { try interaction.update(.nan, at: 2) }
    #expect(interaction == before)
  }

  // MARK: Property: a display-link loop with random calls

  /// A loop that advances the clock in random steps and makes random calls: the completion is
  /// delivered exactly once when a finish or cancel was accepted, never otherwise, with
  /// `finished` equal to "a finish was accepted"; calls after it are rejected with a typed
  /// error; percentComplete is always finite in [0, 1].
  @Test func randomLoopsCompleteExactlyOnce() async {
    await propertyCheck(
      count: 200,
      input: Gen.int(in: 0...99).array(of: 1...25), Gen.double(in: -0.2...1.2).array(of: 25),
      Gen.double(in: 0...0.3).array(of: 25)
    ) { kinds, values, gaps in
      var interaction = try PercentDrivenInteraction(duration: 0.5)
      var time = 0.0
      var accepted: Bool?
      var deliveries: [TransitionCompletionEvent] = []
      for (i, kind) in kinds.enumerated() {
        time += gaps[i]
        do throws(ValidationError) {
          switch kind {
          case 0..<60: try interaction.update(values[i], at: time)
          case 60..<70: try interaction.pause(at: time)
          case 70..<80:
            try interaction.finish(at: time)
            accepted = accepted ?? true
          case 80..<90:
            try interaction.cancel(at: time)
            accepted = accepted ?? false
          default:
            if let event = try interaction.advance(to: time) { deliveries.append(event) }
          }
        } catch {
          #expect(accepted != nil && error.field == "interaction")
        }
        #expect(interaction.percentComplete.isFinite)
        #expect((0...1).contains(interaction.percentComplete))
      }
      // Drain: advance far enough for any run to end (runs last at most D / speed = 0.5 s).
      if let event = try? interaction.advance(to: time + 1) { deliveries.append(event) }
      if let event = try? interaction.advance(to: time + 2) { deliveries.append(event) }
      if let flag = accepted {
        #expect(deliveries.count == 1 && deliveries.first?.isFinished == flag)
        #expect(interaction.completionCount == 1)
        #expect(interaction.percentComplete == (flag ? 1 : 0))
      } else {
        #expect(deliveries.isEmpty && interaction.completionCount == 0)
      }
    }
  }
}
