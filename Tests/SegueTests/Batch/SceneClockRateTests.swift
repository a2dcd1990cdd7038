import Segue
import Testing

/// `SceneClock.timeRate(at:duration:)` for the clocks of the batch.
@Suite("Scene clock rates")
struct SceneClockRateTests {
  @Test func everyClockKind() throws {
    let timed = SceneClock.timed(start: 1, speed: 2)
    #expect(try timed.timeRate(at: 0.5, duration: 1) == 0)
    #expect(try timed.timeRate(at: 1, duration: 1) == 2)
    #expect(try timed.timeRate(at: 1.3, duration: 1) == 2)
    #expect(try timed.timeRate(at: 1.5, duration: 1) == 0)
    #expect(try SceneClock.position(0.4).timeRate(at: 3, duration: 1) == 0)
    let timeline = try InteractionTimeline(
      duration: 1, wantsInteractiveStart: false, events: [])
    let interactive = SceneClock.interactive(timeline, start: 2)
    #expect(try interactive.timeRate(at: 1, duration: 1) == 0)
    #expect(try interactive.timeRate(at: 2.5, duration: 1) == 1)
    #expect(try interactive.timeRate(at: 3.5, duration: 1) == 0)
    #expect(throws: ValidationError.self) { try timed.timeRate(at: .nan, duration: 1) }
  }

  /// A live clock's rate depends on the calls made on its batch instance: the clock value alone
  /// refuses, naming the batch query that answers.
  @Test func liveClocksReferToTheBatch() throws {
    let live: [SceneClock] = [
      .percentDriven(start: 0), .animator(timingParameters: .easeInEaseOut),
    ]
    for clock in live {
      #expect(throws: ValidationError.self) { try clock.timeRate(at: 1, duration: 1) }
      do {
        _ = try clock.timeRate(at: 1, duration: 1)
      } catch {
        #expect(error.field == "clock")
      }
    }
  }
}
