import Segue
import Testing

/// `MediaTiming.progressRate(atParent:)`: speed over duration, the sign of an autoreversed pass,
/// 0 in fills; the derivative from the right at the boundaries.
@Suite("Media timing rates")
struct MediaTimingRateTests {
  @Test func activeFillAndAutoreverse() {
    let timing = MediaTiming(
      beginTime: 1, duration: 2, speed: 4, repeatCount: 2, autoreverses: true, fillMode: .both)
    #expect(timing.progressRate(atParent: 0.5) == 0)  // before: backwards fill holds
    #expect(timing.progressRate(atParent: 1) == 2)  // begin: the active side
    #expect(timing.progressRate(atParent: 1.2) == 2)  // first pass forwards, 4 / 2 per second
    #expect(timing.progressRate(atParent: 1.5) == -2)  // local 2: the reversed pass starts
    #expect(timing.progressRate(atParent: 1.7) == -2)
    #expect(timing.progressRate(atParent: 2.2) == 2)  // second repeat
    #expect(timing.progressRate(atParent: 3) == 0)  // local 8 = the active end: forwards fill
    #expect(MediaTiming(duration: 1).progressRate(atParent: 2) == 0)  // removed: no effect
  }

  /// The rate matches central differences of the progress inside every pass.
  @Test func matchesCentralDifferences() {
    let timing = MediaTiming(
      beginTime: 0.3, duration: 0.7, speed: 1.5, timeOffset: 0.1, repeatCount: 3,
      autoreverses: true, fillMode: .both)
    let h = 1e-6
    for t in stride(from: 0.0, through: 5, by: 0.0373) {
      guard let before = timing.iterationProgress(atParent: t - h),
        let after = timing.iterationProgress(atParent: t + h),
        before.iteration == after.iteration, before.phase == after.phase
      else { continue }
      let numeric = (after.progress - before.progress) / (2 * h)
      #expect(abs(timing.progressRate(atParent: t) - numeric) < 1e-6, "at \(t)")
    }
  }
}
