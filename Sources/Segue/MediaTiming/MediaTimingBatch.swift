/// Many ``MediaTiming``s prepared for batch evaluation in `Float`: one plane (structure of arrays)
/// per property, so sixteen timings load as one lane vector.
///
/// Planes (index = timing), each the `Double` property rounded once to `Float`: ``beginTime``,
/// ``speed``, ``timeOffset`` (seconds, unitless, seconds); ``duration`` `d` in seconds (1 where
/// `d = 0`, a safe divisor in lanes that are never active); ``activeEnd``, the active duration
/// `D` (``MediaTiming/activeDuration``) rounded **up** to the next `Float` (so that for a `Float`
/// local time `t`, `t < activeEnd` exactly when `t < D`; `+∞` for timings that repeat forever);
/// ``autoreverses``, ``fillsBackwards``, ``fillsForwards`` as 0 or 1; ``lastPass``, the index of
/// the last pass, `⌈D / d⌉ − 1` computed in `Double` (`+∞` for forever), so that a local time
/// just before `D` stays in the last pass even where `d` rounded down and `t / d` reaches the
/// next whole number in `Float`.
///
/// The forwards fill is the same for every time after the end, so it is computed once here, in
/// `Double` by ``MediaTiming/iterationProgress(atLocal:)`` at `t = D` (the end-of-active rule:
/// a whole number of passes reports the last pass finished): ``afterProgress``.
public struct MediaTimingBatch: Sendable {
  /// The timings, in lane order.
  public let timings: [MediaTiming]
  /// `beginTime` per timing, seconds.
  public let beginTime: [Float]
  /// `speed` per timing, unitless.
  public let speed: [Float]
  /// `timeOffset` per timing, seconds.
  public let timeOffset: [Float]
  /// `duration` per timing in seconds, 1 in place of 0.
  public let duration: [Float]
  /// The active duration `D` per timing in seconds, rounded up to `Float` (`+∞` for forever).
  public let activeEnd: [Float]
  /// 1 where the timing autoreverses, else 0.
  public let autoreverses: [Float]
  /// 1 where the fill mode fills backwards (``MediaTiming/FillMode/backwards``, `.both`), else 0.
  public let fillsBackwards: [Float]
  /// 1 where the fill mode fills forwards (``MediaTiming/FillMode/forwards``, `.both`), else 0.
  public let fillsForwards: [Float]
  /// The progress shown after the end when filling forwards, unitless in `[0, 1]` (0 where the
  /// timing does not fill forwards or never ends).
  public let afterProgress: [Float]
  /// The index of the last pass per timing: `⌈D / d⌉ − 1` in `Double` (0 for a single pass),
  /// `+∞` where the timing repeats forever.
  public let lastPass: [Float]

  /// Phase code written by ``MediaTimingEvaluationJob`` where the timing has no effect (outside
  /// the active interval without the matching fill): the model value shows.
  public static let removedCode: Float = 0
  /// Phase code for ``MediaTiming/Phase/before`` (a backwards fill, progress 0).
  public static let beforeCode: Float = 1
  /// Phase code for ``MediaTiming/Phase/active``.
  public static let activeCode: Float = 2
  /// Phase code for ``MediaTiming/Phase/after`` (a forwards fill).
  public static let afterCode: Float = 3

  /// The phase a code from ``MediaTimingEvaluationJob/phase`` stands for: `nil` for
  /// ``removedCode`` (and for anything that is not a code).
  public static func phase(code: Float) -> MediaTiming.Phase? {
    switch code {
    case beforeCode: .before
    case activeCode: .active
    case afterCode: .after
    default: nil
    }
  }

  /// Validates every timing (``MediaTiming/validate()``) and reduces it to the planes above.
  ///
  /// - Throws: ``ValidationError`` with field `"timings.<property>"` (for example
  ///   `"timings.speed"`) and the timing's index: whatever ``MediaTiming/validate()`` rejects;
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` (`±Float.greatestFiniteMagnitude`)
  ///   for `beginTime`, `speed`, `timeOffset` or `duration` beyond `Float`'s range (they would
  ///   become infinite in the lanes), and for a positive `duration` below
  ///   `Float.leastNormalMagnitude` (it would become 0).
  public init(timings: [MediaTiming]) throws(ValidationError) {
    let big = Double(Float.greatestFiniteMagnitude)
    var planes = [[Float]](repeating: [], count: 10)
    for (i, timing) in timings.enumerated() {
      do {
        try timing.validate()
      } catch {
        throw ValidationError(field: "timings." + error.field, index: i, reason: error.reason)
      }
      for (value, field) in [
        (timing.beginTime, "beginTime"), (timing.speed, "speed"),
        (timing.timeOffset, "timeOffset"), (timing.duration, "duration"),
      ] where abs(value) > big {
        throw ValidationError(
          field: "timings." + field, index: i, reason: .outOfRange(lower: -big, upper: big))
      }
      let tiny = Double(Float.leastNormalMagnitude)
      if timing.duration > 0, timing.duration < tiny {
        throw ValidationError(
          field: "timings.duration", index: i, reason: .outOfRange(lower: tiny, upper: big))
      }
      let total = timing.activeDuration
      var end = Float(total)
      if Double(end) < total { end = end.nextUp }
      var after: Float = 0
      if timing.fillMode.fillsForwards, total.isFinite,
        let state = timing.iterationProgress(atLocal: total)
      {
        after = Float(state.progress)
      }
      let row: [Float] = [
        Float(timing.beginTime), Float(timing.speed), Float(timing.timeOffset),
        timing.duration > 0 ? Float(timing.duration) : 1, end, timing.autoreverses ? 1 : 0,
        timing.fillMode.fillsBackwards ? 1 : 0, timing.fillMode.fillsForwards ? 1 : 0, after,
        Self.lastPass(timing),
      ]
      for p in 0..<row.count { planes[p].append(row[p]) }
    }
    self.timings = timings
    beginTime = planes[0]
    speed = planes[1]
    timeOffset = planes[2]
    duration = planes[3]
    activeEnd = planes[4]
    autoreverses = planes[5]
    fillsBackwards = planes[6]
    fillsForwards = planes[7]
    afterProgress = planes[8]
    lastPass = planes[9]
  }

  /// `⌈D / d⌉ − 1` in `Double`, at least 0; `+∞` for a timing that repeats forever, and 0 for a
  /// zero duration (never active).
  static func lastPass(_ timing: MediaTiming) -> Float {
    let total = timing.activeDuration
    guard total.isFinite else { return .infinity }
    guard timing.duration > 0 else { return 0 }
    return Float(Swift.max((total / timing.duration).rounded(.up) - 1, 0))
  }

  /// Number of timings.
  public var count: Int { timings.count }
}

/// A batch evaluation of ``MediaTiming/iterationProgress(atParent:)`` in `Float`, sixteen
/// timings per step, with no allocation: for lane `j`, the parent time `tₚ` (``parentTime``, or
/// ``parentTimes```[j]` when given), then
///
///     t = (tₚ − beginTime) · speed + timeOffset          (local time, seconds)
///
/// and, with `d` the duration and `D` the active duration:
///
/// * `t < 0`: phase code ``MediaTimingBatch/beforeCode`` and progress 0 when the timing fills
///   backwards, else ``MediaTimingBatch/removedCode`` and progress 0;
/// * `0 ≤ t < D`: ``MediaTimingBatch/activeCode``; pass `k = ⌊t / d⌋`, `τ = t − k·d` (moved into
///   `[0, d)` by one pass where rounding put it outside; a pass past
///   ``MediaTimingBatch/lastPass`` is the last pass, with `τ = t − k·d ≥ d`: the end of a
///   duration that rounded down), `τ ← d − τ` when the timing autoreverses and `k` is odd,
///   progress `clamp(τ / d, 0, 1)`;
/// * `t ≥ D`: ``MediaTimingBatch/afterCode`` with ``MediaTimingBatch/afterProgress`` when the
///   timing fills forwards, else ``MediaTimingBatch/removedCode`` and progress 0.
///
/// Interactive positions: a percent-driven transition shows its animations at animation time
/// `position · duration` (``InteractionTimeline/state(at:)``), a different moment for
/// every instance being driven. Pass those already mapped times per lane in ``parentTimes``; they
/// replace ``parentTime`` lane by lane.
///
/// Accuracy, measured against the `Double` reference at the same `Float` inputs
/// (`MediaTimingBatchTests`, 40 000 samples of random timings): the phase agrees exactly and
/// `|p − p_ref| ≤ 2⁻²²·(1 + |t|/d)` (measured up to 0.67 of that bound) away from the
/// discontinuities (the pass boundaries, `0` and `D`): the `Float` local time is rounded in `−`,
/// `·` and `+` (about `2⁻²⁴·|t|` each), an error divided by `d` in the progress. Within a few such
/// roundings of a discontinuity the lane can land on the other side and the progress jumps, as
/// it would for a `Double` time a few ulps away. Dyadic (`Float`-exact) inputs give exact results
/// at the boundaries. The pass index (and so the autoreverse
/// direction) stays exact for `t / d < 2²²`.
public struct MediaTimingEvaluationJob: @unchecked Sendable {
  /// The timings (read only); lane `j` is timing `j`.
  public var timings: MediaTimingBatch
  /// The parent time shared by every lane, in seconds (finite). Ignored when ``parentTimes`` is
  /// given.
  public var parentTime: Float
  /// Per-lane parent times in seconds (finite), replacing ``parentTime``: for example the
  /// animation time `position · duration` of each interactively driven instance. When given,
  /// `parentTimes.count == timings.count`.
  public var parentTimes: UnsafeBufferPointer<Float>?
  /// The iteration progress per timing, unitless in `[0, 1]` (already mirrored in reversed
  /// passes; 0 where the timing has no effect); at least `timings.count` entries.
  public var progress: UnsafeMutableBufferPointer<Float>
  /// The phase code per timing (``MediaTimingBatch/removedCode`` … ``MediaTimingBatch/afterCode``);
  /// at least `timings.count` entries.
  public var phase: UnsafeMutableBufferPointer<Float>

  /// Creates a job; nothing is checked until ``validate()`` or ``run()``.
  public init(
    timings: MediaTimingBatch, parentTime: Float = 0,
    parentTimes: UnsafeBufferPointer<Float>? = nil,
    progress: UnsafeMutableBufferPointer<Float>, phase: UnsafeMutableBufferPointer<Float>
  ) {
    self.timings = timings
    self.parentTime = parentTime
    self.parentTimes = parentTimes
    self.progress = progress
    self.phase = phase
  }

  /// Checks the job without running it (one pass over ``parentTimes``).
  ///
  /// - Throws: ``ValidationError`` with `field`
  ///   * `"parentTime"` ``ValidationError/Reason/notFinite`` (checked only without
  ///     ``parentTimes``);
  ///   * `"parentTimes"` ``ValidationError/Reason/countMismatch(expected:actual:)`` unless its
  ///     count is `timings.count`;
  ///   * `"progress"`, `"phase"` ``ValidationError/Reason/tooFew(minimum:actual:)`` when shorter
  ///     than `timings.count`;
  ///   * `"parentTimes"` with the index ``ValidationError/Reason/notFinite``.
  public func validate() throws(ValidationError) {
    let n = timings.count
    if let parentTimes {
      try Validate.count(parentTimes.count, equals: n, "parentTimes")
    } else {
      try Validate.finite(Double(parentTime), "parentTime")
    }
    try Validate.count(progress.count, atLeast: n, "progress")
    try Validate.count(phase.count, atLeast: n, "phase")
    if let parentTimes { try Validate.allFinite(parentTimes, "parentTimes") }
  }

  /// Validates the job (``validate()``), then writes `progress[0 ..< n]` and `phase[0 ..< n]`,
  /// `n = timings.count`. Allocates nothing.
  public func run() throws(ValidationError) {
    try validate()
    runUnchecked()
  }

  /// One lane vector (see the type's description).
  @inline(__always)
  static func evaluate(
    parent: Lanes, begin: Lanes, speed: Lanes, offset: Lanes, duration d: Lanes, end: Lanes,
    reverses: Lanes, backwards: Lanes, forwards: Lanes, after: Lanes, lastPass: Lanes
  ) -> (progress: Lanes, phase: Lanes) {
    let t = (parent - begin) * speed + offset
    // Active pass: k = ⌊t/d⌋, τ = t − k·d, corrected by one pass when rounding left [0, d).
    var k = SIMDMath.floor(t / d)
    var tau = t - k * d
    let low = tau .< 0
    k = SIMDMath.select(low, k - 1, k)
    tau = SIMDMath.select(low, tau + d, tau)
    let high = tau .>= d
    k = SIMDMath.select(high, k + 1, k)
    tau = SIMDMath.select(high, tau - d, tau)
    // Before the active end but past the last pass (`d` rounded down): the end of the last pass.
    let past = k .> lastPass
    k = SIMDMath.select(past, lastPass, k)
    tau = SIMDMath.select(past, t - lastPass * d, tau)
    // Odd pass: k − 2·⌊k/2⌋ = 1 (k is an integer-valued Float).
    let odd = (k - 2 * SIMDMath.floor(k * 0.5)) .== 1
    tau = SIMDMath.select(odd .& (reverses .== 1), d - tau, tau)
    let active = SIMDMath.clamp(tau / d, 0, 1)
    let before = t .< 0
    let isAfter = t .>= end
    var progress = SIMDMath.select(isAfter, after, active)
    var phase = SIMDMath.select(isAfter, MediaTimingBatch.afterCode * forwards, Lanes(repeating: 2))
    progress = SIMDMath.select(before, 0, progress)
    phase = SIMDMath.select(before, MediaTimingBatch.beforeCode * backwards, phase)
    // Lanes with no effect show progress 0.
    progress = SIMDMath.select(phase .== 0, 0, progress)
    return (progress, phase)
  }

  /// ``run()`` without the checks.
  func runUnchecked() {
    let n = timings.count
    guard n > 0 else { return }
    let width = Lanes.scalarCount
    let fullEnd = n / width * width
    let times = parentTimes?.baseAddress
    let shared = Lanes(repeating: parentTime)
    let outProgress = progress.baseAddress!
    let outPhase = phase.baseAddress!
    let b = timings
    b.beginTime.withUnsafeBufferPointer { p0 in
      b.speed.withUnsafeBufferPointer { p1 in
        b.timeOffset.withUnsafeBufferPointer { p2 in
          b.duration.withUnsafeBufferPointer { p3 in
            b.activeEnd.withUnsafeBufferPointer { p4 in
              b.autoreverses.withUnsafeBufferPointer { p5 in
                b.fillsBackwards.withUnsafeBufferPointer { p6 in
                  b.fillsForwards.withUnsafeBufferPointer { p7 in
                    b.afterProgress.withUnsafeBufferPointer { p8 in
                      b.lastPass.withUnsafeBufferPointer { p9 in
                        let planes = (
                          p0.baseAddress!, p1.baseAddress!, p2.baseAddress!, p3.baseAddress!,
                          p4.baseAddress!, p5.baseAddress!, p6.baseAddress!, p7.baseAddress!,
                          p8.baseAddress!, p9.baseAddress!
                        )
                        Self.blocks(
                          n: n, fullEnd: fullEnd, times: times, shared: shared, planes: planes,
                          outProgress: outProgress, outPhase: outPhase)
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// The ten plane pointers: beginTime, speed, timeOffset, duration, activeEnd, autoreverses,
  /// fillsBackwards, fillsForwards, afterProgress, lastPass.
  typealias Planes = (
    UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
    UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
    UnsafePointer<Float>, UnsafePointer<Float>
  )

  /// The block loop over `planes`.
  @inline(__always)
  static func blocks(
    n: Int, fullEnd: Int, times: UnsafePointer<Float>?, shared: Lanes,
    planes: Planes, outProgress: UnsafeMutablePointer<Float>,
    outPhase: UnsafeMutablePointer<Float>
  ) {
    let width = Lanes.scalarCount
    let (q0, q1, q2, q3, q4, q5, q6, q7, q8, q9) = planes
    @inline(__always) func load(_ p: UnsafePointer<Float>, _ j: Int) -> Lanes {
      UnsafeRawPointer(p + j).loadUnaligned(as: Lanes.self)
    }
    var j = 0
    while j < fullEnd {
      let parent = times.map { load($0, j) } ?? shared
      let (p, ph) = evaluate(
        parent: parent, begin: load(q0, j), speed: load(q1, j), offset: load(q2, j),
        duration: load(q3, j), end: load(q4, j), reverses: load(q5, j), backwards: load(q6, j),
        forwards: load(q7, j), after: load(q8, j), lastPass: load(q9, j))
      UnsafeMutableRawPointer(outProgress + j).storeBytes(of: p, as: Lanes.self)
      UnsafeMutableRawPointer(outPhase + j).storeBytes(of: ph, as: Lanes.self)
      j += width
    }
    if j < n {
      // Tail: padded local copies (duration 1, everything else 0); only valid lanes are written.
      var v = (
        shared, Lanes(), Lanes(), Lanes(), Lanes(repeating: 1), Lanes(), Lanes(), Lanes(), Lanes(),
        Lanes(), Lanes()
      )
      for l in 0..<(n - j) {
        if let times { v.0[l] = times[j + l] }
        v.1[l] = q0[j + l]
        v.2[l] = q1[j + l]
        v.3[l] = q2[j + l]
        v.4[l] = q3[j + l]
        v.5[l] = q4[j + l]
        v.6[l] = q5[j + l]
        v.7[l] = q6[j + l]
        v.8[l] = q7[j + l]
        v.9[l] = q8[j + l]
        v.10[l] = q9[j + l]
      }
      let (p, ph) = evaluate(
        parent: v.0, begin: v.1, speed: v.2, offset: v.3, duration: v.4, end: v.5, reverses: v.6,
        backwards: v.7, forwards: v.8, after: v.9, lastPass: v.10)
      for l in 0..<(n - j) {
        outProgress[j + l] = p[l]
        outPhase[j + l] = ph[l]
      }
    }
  }
}
