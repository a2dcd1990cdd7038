import SegueToolSupport
import Testing

@testable import Segue
@testable import SegueBenchSupport

/// The `live` workload's two drivers run the same seeded script: the scene batch (with its
/// prefetching, completions and replacements) and one `PropertyAnimator` per slot. After every
/// frame's control phase they agree on each slot's state and scene time, and on every count.
@Suite struct LiveWorkloadTests {
  @Test(arguments: [false, true])
  func batchAndScalarDriversAgreeFrameByFrame(retargets: Bool) throws {
    let slots = 200
    var batch = try LiveBatchDriver(slots: slots, retargets: retargets)
    var scalar = try LiveScalarDriver(slots: slots, retargets: retargets)
    var script = LiveWorkload.Script(slots: slots, seed: 0x5EED)
    var calls: [LiveWorkload.Call] = []
    var checkedTimes = 0
    for f in 0..<90 {
      let t = Double(f) * LiveWorkload.framePeriod
      script.nextFrame(into: &calls)
      try batch.control(calls, at: t)
      try scalar.control(calls, at: t)
      #expect(batch.callCount == scalar.callCount, "frame \(f)")
      #expect(batch.rejectedCount == scalar.rejectedCount, "frame \(f)")
      for s in 0..<slots {
        let (b, c) = (batch.states[s], scalar.states[s])
        #expect(
          b.active == c.active && b.running == c.running && b.reversed == c.reversed
            && b.over == c.over, "frame \(f), slot \(s)")
        let duration = scalar.scenes[s].duration
        let now = try batch.batch.time(of: batch.ids[s], at: t)
        let sample = try scalar.animators[s].sample(at: t)
        guard now.completion == nil, sample.completion == nil else { continue }
        #expect(
          abs(now.time - min(max(sample.progress, 0), 1) * duration) <= 1e-9,
          "frame \(f), slot \(s)")
        checkedTimes += 1
      }
    }
    #expect(checkedTimes > 5000)
    #expect(batch.completionCount > 0)
    // One call in `callSampleStride` is timed on its own (not retargets, nor rejected calls).
    let sampled = batch.callCount / LiveBatchDriver.callSampleStride
    #expect(batch.callDurations.count <= sampled)
    #expect(batch.callDurations.count >= sampled - batch.retargetCount - batch.rejectedCount)
    #expect(batch.callDurations.count > 100)
  }

  /// The histogram's quantiles are the upper edges of the bins, by rank: three calls of 100 ns and
  /// one of 300 ns have the median in the 100 ns bin (101 ns) and the maximum in the 300 ns bin;
  /// a call of a second counts in the last bin; an empty histogram has none.
  @Test func callDurationQuantilesAreBinEdgesByRank() {
    var histogram = CallDurationHistogram()
    #expect(histogram.quantile(0.5) == nil)
    for _ in 0..<3 { histogram.record(nanoseconds: 100) }
    histogram.record(nanoseconds: 300)
    #expect(histogram.count == 4)
    #expect(histogram.quantile(0.5) == 101e-9)
    #expect(histogram.quantile(1) == 301e-9)
    histogram.record(nanoseconds: 1_000_000_000)
    histogram.record(nanoseconds: 1_000_000_000)
    let limit = Double(CallDurationHistogram.limitNanoseconds + 1) * 1e-9
    #expect(histogram.quantile(1) == limit)
    #expect(histogram.quantile(0) == 101e-9)
  }

  /// The clock the driver times calls with is monotonic and never reads 0 (0 marks a call that is
  /// not timed).
  @Test func callClockIsMonotonicAndNonZero() {
    var previous = monotonicNanoseconds()
    #expect(previous > 0)
    for _ in 0..<1000 {
      let now = monotonicNanoseconds()
      #expect(now >= previous)
      previous = now
    }
  }
}
