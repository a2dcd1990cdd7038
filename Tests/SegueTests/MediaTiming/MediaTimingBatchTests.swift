import PropertyBased
import SegueBenchSupport
import Testing

@testable import Segue

/// Runs a ``MediaTimingEvaluationJob`` (shared `parent`, or per-lane `times`) and returns
/// `(progress, phase codes)`.
func mediaTimingBatchRun(_ batch: MediaTimingBatch, parent: Float = 0, times: [Float]? = nil)
  throws(ValidationError) -> ([Float], [Float])
{
  var progress = [Float](repeating: .nan, count: batch.count)
  var phase = [Float](repeating: .nan, count: batch.count)
  try progress.withUnsafeMutableBufferPointer { p throws(ValidationError) in
    try phase.withUnsafeMutableBufferPointer { ph throws(ValidationError) in
      if let times {
        try times.withUnsafeBufferPointer { t throws(ValidationError) in
          try MediaTimingEvaluationJob(
            timings: batch, parentTime: parent, parentTimes: t, progress: p, phase: ph
          ).run()
        }
      } else {
        try MediaTimingEvaluationJob(timings: batch, parentTime: parent, progress: p, phase: ph)
          .run()
      }
    }
  }
  return (progress, phase)
}

/// A `Double` that is exactly a `Float`.
private func exactFloat(_ x: Double) -> Double { Double(Float(x)) }

/// A random valid timing whose fields are `Float`-exact: duration 0.1…2 s (0 one time in 20),
/// begin −1…1 s, speed −2…2 (0 one time in 10), offset −1…1 s, repeatCount 0, 0…4 or forever,
/// repeatDuration 0 or 0…5 s, random autoreverses and fill mode.
func randomMediaTiming(_ rng: inout SplitMix64) -> MediaTiming {
  let pick = rng.next() % 20
  let duration = pick == 0 ? 0 : exactFloat(0.1 + 1.9 * rng.nextUnit())
  let speed = rng.next() % 10 == 0 ? 0 : exactFloat(4 * rng.nextUnit() - 2)
  let repeatCount: Double
  switch rng.next() % 4 {
  case 0: repeatCount = 0
  case 1: repeatCount = .infinity
  default: repeatCount = exactFloat(4 * rng.nextUnit())
  }
  let repeatDuration = rng.next() % 4 == 0 ? exactFloat(5 * rng.nextUnit()) : 0
  let fills = MediaTiming.FillMode.allCases
  return MediaTiming(
    beginTime: exactFloat(2 * rng.nextUnit() - 1), duration: duration, speed: speed,
    timeOffset: exactFloat(2 * rng.nextUnit() - 1), repeatCount: repeatCount,
    repeatDuration: repeatDuration, autoreverses: rng.next() % 2 == 0,
    fillMode: fills[Int(rng.next() % 4)])
}

/// The code the batch should write for a scalar result.
private func code(_ state: MediaTiming.IterationProgress?) -> Float {
  switch state?.phase {
  case nil: MediaTimingBatch.removedCode
  case .before: MediaTimingBatch.beforeCode
  case .active: MediaTimingBatch.activeCode
  case .after: MediaTimingBatch.afterCode
  }
}

/// `true` when the `Double` local time `t` is within `margin` of a discontinuity of the timing:
/// 0, the active end `D`, or a pass boundary `k·d` inside `[0, D]`.
private func nearDiscontinuity(_ timing: MediaTiming, _ t: Double, margin: Double) -> Bool {
  let total = timing.activeDuration
  if abs(t) <= margin || abs(t - total) <= margin { return true }
  let d = timing.duration
  guard d > 0, t >= 0, t < total else { return false }
  let k = (t / d).rounded()
  return abs(t - k * d) <= margin
}

/// The batch media-timing kernel against ``MediaTiming/iterationProgress(atParent:)`` in
/// `Double` at the same `Float` inputs.
@Suite("MediaTimingBatch: Float SIMD time mapping vs the Double reference")
struct MediaTimingBatchTests {
  /// 1 003 random timings (count not a multiple of 16) at 40 random shared parent times in
  /// [−3, 12] s. Samples whose reference local time lies within `2⁻¹⁸·(1 + |t|)` of a
  /// discontinuity (0, D, a pass boundary) are skipped (they may fall on either side in
  /// `Float`); at least 97 % of samples are checked. Elsewhere the phase agrees exactly and
  /// `|p − p_ref| ≤ 2⁻²²·(1 + |t|/d)`: three roundings of the local time (each ≤ 2⁻²⁴·|t|),
  /// divided by `d`, plus a few ulp of the division. Measured worst ratio is printed on failure.
  @Test func randomTimingsMatchReference() throws {
    var rng = SplitMix64(state: 7)
    let timings = (0..<1003).map { _ in randomMediaTiming(&rng) }
    let batch = try MediaTimingBatch(timings: timings)
    var checked = 0
    var skipped = 0
    var worstRatio = 0.0
    for _ in 0..<40 {
      let parent = Float(15 * rng.nextUnit() - 3)
      let (progress, phase) = try mediaTimingBatchRun(batch, parent: parent)
      for (j, timing) in timings.enumerated() {
        let t = timing.localTime(fromParent: Double(parent))
        if nearDiscontinuity(timing, t, margin: 0x1p-18 * (1 + abs(t))) {
          skipped += 1
          continue
        }
        checked += 1
        let state = timing.iterationProgress(atLocal: t)
        #expect(phase[j] == code(state), "timing \(j) parent \(parent)")
        let expected = state?.progress ?? 0
        let bound = 0x1p-22 * (1 + abs(t) / max(timing.duration, 1e-300))
        let error = abs(Double(progress[j]) - expected)
        worstRatio = max(worstRatio, error / bound)
        #expect(error <= bound, "timing \(j) parent \(parent) t \(t)")
      }
    }
    #expect(checked >= 97 * (checked + skipped) / 100, "skipped \(skipped) of \(checked + skipped)")
    #expect(worstRatio <= 1, "worst error / bound \(worstRatio)")
  }

  /// Hand-worked edges, all `Float`-exact (dyadic) so the expected values are exact: begin 1 s,
  /// duration 0.5 s, repeatCount 2, autoreverses, fill `.both`, so D = 2 s (two forward-and-back
  /// cycles) and local time t = tₚ − 1:
  /// * tₚ = 0.5 (t = −0.5): before, progress 0 (backwards fill);
  /// * tₚ = 1 (t = 0, exactly at begin): active, pass 0, progress 0;
  /// * tₚ = 1.25: active, progress 0.5;
  /// * tₚ = 1.5 (t = d, the autoreverse turn): pass 1 reversed, τ = 0 → d − 0, progress 1;
  /// * tₚ = 1.625 (t = 0.625): pass 1 reversed, τ = 0.125 → 0.375, progress 0.75;
  /// * tₚ = 2 (t = 1, the repeat boundary): pass 2 forward, progress 0;
  /// * tₚ = 3 (t = D, the end): after; whole cycles end on the start value, progress 0;
  /// * tₚ = 100: after, progress 0.
  @Test func autoreverseEdgesAreExact() throws {
    let timing = MediaTiming(
      beginTime: 1, duration: 0.5, repeatCount: 2, autoreverses: true, fillMode: .both)
    let batch = try MediaTimingBatch(timings: Array(repeating: timing, count: 8))
    let times: [Float] = [0.5, 1, 1.25, 1.5, 1.625, 2, 3, 100]
    let (progress, phase) = try mediaTimingBatchRun(batch, times: times)
    #expect(progress == [0, 0, 0.5, 1, 0.75, 0, 0, 0])
    let b = MediaTimingBatch.beforeCode
    let a = MediaTimingBatch.activeCode
    let f = MediaTimingBatch.afterCode
    #expect(phase == [b, a, a, a, a, a, f, f])
  }

  /// Without autoreverses (duration 0.5 s, repeatCount 2, fill `.forwards`, begin 0): t = 0.5 is
  /// the repeat boundary (pass 1, progress 0); t = 1 = D is the end, reported as the last pass
  /// finished (progress 1, the end-of-active rule); t = 0.9375 is progress 0.875. Before the
  /// start there is no backwards fill: removed (code 0, progress 0). repeatCount 1.5 gives
  /// D = 0.75 and an after-progress of 0.5; repeatDuration 0.625 with duration 0.25 gives
  /// τ = 0.625 − 2·0.25 = 0.125, progress 0.5.
  @Test func repeatBoundariesAndEnds() throws {
    let whole = MediaTiming(duration: 0.5, repeatCount: 2, fillMode: .forwards)
    let half = MediaTiming(duration: 0.5, repeatCount: 1.5, fillMode: .forwards)
    let byDuration = MediaTiming(duration: 0.25, repeatDuration: 0.625, fillMode: .both)
    let batch = try MediaTimingBatch(timings: [whole, whole, whole, whole, half, byDuration])
    let times: [Float] = [0.5, 1, 0.9375, -0.25, 0.75, 7]
    let (progress, phase) = try mediaTimingBatchRun(batch, times: times)
    #expect(progress == [0, 1, 0.875, 0, 0.5, 0.5])
    let a = MediaTimingBatch.activeCode
    let f = MediaTimingBatch.afterCode
    #expect(phase == [a, f, a, MediaTimingBatch.removedCode, f, f])
  }

  /// A duration that rounds down in `Float` keeps the last pass: d = 0.35 s rounds to
  /// 0.3499999940 (below 0.35), while the active end rounds up to 0.3500000238, so the local time
  /// 0.3499999940 is active and `t / d` is exactly 1 in `Float`. The reference at a `Double`
  /// time that rounds there (0.34999999) is progress ≈ 1, not the start of a pass that does not
  /// exist: the lane is at the end of pass 0 (progress 1); autoreversing once (D = 0.7, two
  /// passes) at 0.6999999881 it is at the end of pass 1, going back (progress 0); repeating
  /// forever it wraps.
  @Test func aDurationThatRoundsDownKeepsTheLastPass() throws {
    let once = MediaTiming(duration: 0.35)
    let twice = MediaTiming(duration: 0.35, repeatCount: 1, autoreverses: true)
    let forever = MediaTiming(duration: 0.35, repeatCount: .infinity)
    let batch = try MediaTimingBatch(timings: [once, twice, forever])
    #expect(batch.duration[0] < batch.activeEnd[0])
    #expect(batch.lastPass == [0, 1, .infinity])
    let t = Float(0.35)
    #expect(t < batch.activeEnd[0] && t / batch.duration[0] == 1)
    let end2 = Float(0.7)
    #expect(end2 < batch.activeEnd[1] && end2 / batch.duration[1] == 2)
    let (progress, phase) = try mediaTimingBatchRun(batch, times: [t, end2, t])
    #expect(progress[0] == 1)
    #expect(once.iterationProgress(atLocal: 0.34999999)!.progress > 0.9999999)
    #expect(progress[1] <= 1e-6)
    #expect(twice.iterationProgress(atLocal: Double(end2))!.progress < 1e-6)
    #expect(progress[2] == 0)
    #expect(
      phase == [
        MediaTimingBatch.activeCode, MediaTimingBatch.activeCode, MediaTimingBatch.activeCode,
      ])
  }

  /// Speed 0 freezes local time at timeOffset (0.375 s of a 0.5 s animation: progress 0.75) for
  /// every parent time; speed −1 with timeOffset 1 runs backwards: tₚ = 0.25 gives t = 0.75
  /// (progress 0.75 of a 1 s animation), tₚ = 2 gives t = −1 (before; removed); infinite repeats
  /// at tₚ = 10000.25 with d = 0.5 give progress 0.5; duration 0 with `.both` shows the after
  /// state (progress 1) from t = 0 and the before state (progress 0) before.
  @Test func speedZeroNegativeSpeedForeverAndZeroDuration() throws {
    let frozen = MediaTiming(duration: 0.5, speed: 0, timeOffset: 0.375)
    let backwards = MediaTiming(duration: 1, speed: -1, timeOffset: 1)
    let forever = MediaTiming(duration: 0.5, repeatCount: .infinity)
    let empty = MediaTiming(duration: 0, fillMode: .both)
    let batch = try MediaTimingBatch(
      timings: [frozen, frozen, backwards, backwards, forever, empty, empty])
    let times: [Float] = [-50, 1e6, 0.25, 2, 10000.25, 0, -1]
    let (progress, phase) = try mediaTimingBatchRun(batch, times: times)
    #expect(progress == [0.75, 0.75, 0.75, 0, 0.5, 1, 0])
    let a = MediaTimingBatch.activeCode
    #expect(
      phase == [
        a, a, a, MediaTimingBatch.removedCode, a, MediaTimingBatch.afterCode,
        MediaTimingBatch.beforeCode,
      ])
    #expect(batch.activeEnd[4] == .infinity)
  }

  /// Counts 0, 1, 15, 16, 17 and 33 (full blocks, tails, both): each lane equals the lane of a
  /// single-timing batch, and the per-lane results match the reference (within the random test's
  /// bound) — the tail padding does not leak into valid lanes.
  @Test(arguments: [0, 1, 15, 16, 17, 33])
  func tailsMatchSingleLanes(count: Int) throws {
    var rng = SplitMix64(state: UInt64(100 + count))
    let timings = (0..<count).map { _ in randomMediaTiming(&rng) }
    let times = (0..<count).map { _ in Float(6 * rng.nextUnit() - 1) }
    let (progress, phase) = try mediaTimingBatchRun(
      try MediaTimingBatch(timings: timings), times: times)
    #expect(progress.count == count)
    for j in 0..<count {
      let (p1, ph1) = try mediaTimingBatchRun(
        try MediaTimingBatch(timings: [timings[j]]), times: [times[j]])
      #expect(progress[j] == p1[0])
      #expect(phase[j] == ph1[0])
      #expect(
        MediaTimingBatch.phase(code: phase[j])
          == (timings[j].iterationProgress(
            atParent: Double(times[j])))?.phase
          || nearDiscontinuity(
            timings[j], timings[j].localTime(fromParent: Double(times[j])), margin: 1e-5)
      )
    }
  }

  /// Interactive positions: each lane is an instance of a 0.5 s transition driven by its own
  /// event history; the lane's time is `position · duration` from ``InteractionTimeline``
  /// (pause at 0.25 s of a running start: position 0.5 → time 0.25; update(0.75) → 0.375;
  /// a finish from 1.0 completes at once → 0.5). With an ease-free animation of duration 0.5 s
  /// and fill `.forwards`, progress is time / 0.5 (and 1 at the end), independent of the shared
  /// parent time, which the per-lane times replace.
  @Test func interactiveLaneTimesReplaceSharedTime() throws {
    let duration = 0.5
    var running = try InteractionTimeline(duration: duration, wantsInteractiveStart: false)
    try running.append(.pause(time: 0.25))
    var updated = try InteractionTimeline(duration: duration)
    try updated.append(.update(time: 0.1, percent: 0.75))
    var finished = try InteractionTimeline(duration: duration)
    try finished.append(.update(time: 0.1, percent: 1))
    try finished.append(.finish(time: 0.2))
    let positions = try [running, updated, finished].map { try $0.state(at: 0.3).position }
    #expect(positions == [0.5, 0.75, 1])
    let times = positions.map { Float($0 * duration) }
    let timing = MediaTiming(duration: duration, fillMode: .forwards)
    let batch = try MediaTimingBatch(timings: Array(repeating: timing, count: 3))
    let (progress, phase) = try mediaTimingBatchRun(batch, parent: 99, times: times)
    #expect(progress == [0.5, 0.75, 1])
    let a = MediaTimingBatch.activeCode
    #expect(phase == [a, a, MediaTimingBatch.afterCode])
    let (shared, _) = try mediaTimingBatchRun(batch, parent: 99)
    #expect(shared == [1, 1, 1])
  }

  /// Invariants for random timings at random parent times: progress in [0, 1], a known phase
  /// code, progress 0 where the code is "removed" or "before".
  @Test func progressAndCodesStayInRange() async throws {
    var rng = SplitMix64(state: 3)
    let batch = try MediaTimingBatch(timings: (0..<37).map { _ in randomMediaTiming(&rng) })
    await propertyCheck(count: 150, input: Gen.float(in: -100...100)) { parent in
      let (progress, phase) = try mediaTimingBatchRun(batch, parent: parent)
      for j in 0..<batch.count {
        #expect(progress[j] >= 0 && progress[j] <= 1)
        #expect([0, 1, 2, 3].contains(phase[j]))
        if phase[j] <= 1 { #expect(progress[j] == 0) }
      }
    }
  }

  /// Speed 0: the result does not depend on the parent time.
  @Test func speedZeroIgnoresParentTime() async throws {
    var rng = SplitMix64(state: 5)
    let timings = (0..<20).map { _ in
      var t = randomMediaTiming(&rng)
      t.speed = 0
      return t
    }
    let batch = try MediaTimingBatch(timings: timings)
    let reference = try mediaTimingBatchRun(batch, parent: 0)
    await propertyCheck(count: 100, input: Gen.float(in: -1000...1000)) { parent in
      let result = try mediaTimingBatchRun(batch, parent: parent)
      #expect(result.0 == reference.0 && result.1 == reference.1)
    }
  }

  // MARK: Rejected input

  static let badTimings: [(MediaTiming, String)] = [
    (MediaTiming(beginTime: .nan), "timings.beginTime"),
    (MediaTiming(duration: -1), "timings.duration"),
    (MediaTiming(duration: .infinity), "timings.duration"),
    (MediaTiming(speed: .infinity), "timings.speed"),
    (MediaTiming(timeOffset: .nan), "timings.timeOffset"),
    (MediaTiming(repeatCount: .nan), "timings.repeatCount"),
    (MediaTiming(repeatCount: -1), "timings.repeatCount"),
    (MediaTiming(repeatDuration: .nan), "timings.repeatDuration"),
    (MediaTiming(repeatDuration: -2), "timings.repeatDuration"),
    (MediaTiming(beginTime: 1e300), "timings.beginTime"),
    (MediaTiming(speed: -1e39), "timings.speed"),
    (MediaTiming(timeOffset: 1e39), "timings.timeOffset"),
    (MediaTiming(duration: 1e40), "timings.duration"),
    (MediaTiming(duration: 1e-300), "timings.duration"),
  ]

  /// Each invalid timing (at index 2 of the list) is rejected naming its property and index.
  @Test(arguments: 0..<badTimings.count)
  func rejectsInvalidTiming(_ k: Int) {
    let (bad, field) = Self.badTimings[k]
    #expect {
      _ = try MediaTimingBatch(timings: [MediaTiming(), MediaTiming(), bad])
    } throws: { error in
      guard let e = error as? ValidationError else { return false }
      return e.field == field && e.index == 2
    }
  }

  @Test func rejectsNonFiniteSharedParentTime() throws {
    let batch = try MediaTimingBatch(timings: [MediaTiming(duration: 1)])
    #expect(throws: ValidationError(field: "parentTime", reason: .notFinite)) {
      _ = try mediaTimingBatchRun(batch, parent: .nan)
    }
  }

  @Test func rejectsParentTimesCountMismatch() throws {
    let batch = try MediaTimingBatch(timings: [MediaTiming(duration: 1), MediaTiming()])
    #expect(
      throws: ValidationError(field: "parentTimes", reason: .countMismatch(expected: 2, actual: 3))
    ) { _ = try mediaTimingBatchRun(batch, times: [0, 1, 2]) }
  }

  @Test func rejectsNonFiniteLaneTime() throws {
    let batch = try MediaTimingBatch(timings: Array(repeating: MediaTiming(duration: 1), count: 3))
    #expect(throws: ValidationError(field: "parentTimes", index: 1, reason: .notFinite)) {
      _ = try mediaTimingBatchRun(batch, times: [0, .infinity, 2])
    }
  }

  @Test func rejectsShortProgress() throws {
    let batch = try MediaTimingBatch(timings: Array(repeating: MediaTiming(duration: 1), count: 3))
    var progress = [Float](repeating: 0, count: 2)
    var phase = [Float](repeating: 0, count: 3)
    #expect(throws: ValidationError(field: "progress", reason: .tooFew(minimum: 3, actual: 2))) {
      try progress.withUnsafeMutableBufferPointer { p in
        try phase.withUnsafeMutableBufferPointer { ph in
          try MediaTimingEvaluationJob(timings: batch, progress: p, phase: ph).run()
        }
      }
    }
  }

  @Test func rejectsShortPhase() throws {
    let batch = try MediaTimingBatch(timings: Array(repeating: MediaTiming(duration: 1), count: 3))
    var progress = [Float](repeating: 0, count: 3)
    var phase = [Float](repeating: 0, count: 1)
    #expect(throws: ValidationError(field: "phase", reason: .tooFew(minimum: 3, actual: 1))) {
      try progress.withUnsafeMutableBufferPointer { p in
        try phase.withUnsafeMutableBufferPointer { ph in
          try MediaTimingEvaluationJob(timings: batch, progress: p, phase: ph).run()
        }
      }
    }
  }
}
