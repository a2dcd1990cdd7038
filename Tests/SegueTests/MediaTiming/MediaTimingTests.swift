import PropertyBased
import Segue
import Testing

/// `MediaTiming`: local time, active duration, iteration progress, fill modes, the hierarchy and
/// QA1673 pause/resume/scrub. Every expected value is worked by hand in the comment beside it.
@Suite("MediaTiming")
struct MediaTimingTests {
  /// CAMediaTiming's documented defaults (Apple's CAMediaTiming reference).
  @Test func defaultsMatchCAMediaTiming() {
    let t = MediaTiming()
    #expect(t.beginTime == 0)
    #expect(t.duration == 0)
    #expect(t.speed == 1)
    #expect(t.timeOffset == 0)
    #expect(t.repeatCount == 0)
    #expect(t.repeatDuration == 0)
    #expect(t.autoreverses == false)
    #expect(t.fillMode == .removed)
  }

  /// (t − beginTime)·speed + timeOffset with beginTime 2, speed 3, timeOffset 1 at t = 5:
  /// (5 − 2)·3 + 1 = 10; inverse (10 − 1)/3 + 2 = 5. Speed −1, offset 5 at t = 2: −2 + 5 = 3.
  @Test func localTimeAndItsInverse() {
    let t = MediaTiming(beginTime: 2, speed: 3, timeOffset: 1)
    #expect(t.localTime(fromParent: 5) == 10)
    #expect(t.parentTime(fromLocal: 10) == 5)
    let backwards = MediaTiming(speed: -1, timeOffset: 5)
    #expect(backwards.localTime(fromParent: 2) == 3)
    #expect(backwards.parentTime(fromLocal: 3) == 2)
  }

  /// Speed 0 freezes local time at timeOffset (0·anything + 1.5) and has no inverse.
  @Test func speedZeroFreezesAndHasNoInverse() {
    let t = MediaTiming(beginTime: 4, speed: 0, timeOffset: 1.5)
    #expect(t.localTime(fromParent: 100) == 1.5)
    #expect(t.localTime(fromParent: -3) == 1.5)
    #expect(t.parentTime(fromLocal: 1.5) == nil)
  }

  /// Lockwood: repeatCount 3.5 × duration 2 s = 7 s active. At t = 6.5: k = ⌊6.5/2⌋ = 3,
  /// τ = 0.5, p = 0.25. At t = 7 (forwards fill): 7/2 = 3.5 so k = 3, τ = 1, p = 0.5 (the
  /// fractional last repeat stops half-way).
  @Test func lockwoodFractionalRepeat() {
    let t = MediaTiming(duration: 2, repeatCount: 3.5, fillMode: .forwards)
    #expect(t.activeDuration == 7)
    #expect(
      t.iterationProgress(atLocal: 6.5)
        == .init(phase: .active, iteration: 3, isReversed: false, progress: 0.25))
    #expect(
      t.iterationProgress(atLocal: 7)
        == .init(phase: .after, iteration: 3, isReversed: false, progress: 0.5))
    #expect(
      t.iterationProgress(atLocal: 100)
        == .init(phase: .after, iteration: 3, isReversed: false, progress: 0.5))
  }

  /// End-of-active rule: duration 2, repeatCount 2 (D = 4). At t = 4, k = 2 and τ = 0 would
  /// start a new pass; the rule reports pass 1 finished, p = 1. Inside, t = 2 starts pass 1 at
  /// p = 0 (no end rule in the active phase).
  @Test func endOfActiveReportsTheFinishedPass() {
    let t = MediaTiming(duration: 2, repeatCount: 2, fillMode: .both)
    #expect(t.activeDuration == 4)
    #expect(
      t.iterationProgress(atLocal: 4)
        == .init(phase: .after, iteration: 1, isReversed: false, progress: 1))
    #expect(
      t.iterationProgress(atLocal: 2)
        == .init(phase: .active, iteration: 1, isReversed: false, progress: 0))
  }

  /// Autoreverses, duration 2, repeatCount 1: cycle 4 s so D = 4.
  /// t = 1: k = 0, p = 0.5 forwards. t = 3: k = 1 (odd) so τ = 2 − 1 = 1, p = 0.5 reversed.
  /// t = 3.5: τ = 1.5 mirrored to 0.5, p = 0.25. t = 4 (forwards fill): end rule k = 1, τ = 2,
  /// mirrored to 0, p = 0: a whole number of cycles ends at the start value.
  @Test func autoreversePhases() {
    let t = MediaTiming(duration: 2, repeatCount: 1, autoreverses: true, fillMode: .forwards)
    #expect(t.activeDuration == 4)
    #expect(
      t.iterationProgress(atLocal: 1)
        == .init(phase: .active, iteration: 0, isReversed: false, progress: 0.5))
    #expect(
      t.iterationProgress(atLocal: 3)
        == .init(phase: .active, iteration: 1, isReversed: true, progress: 0.5))
    #expect(
      t.iterationProgress(atLocal: 3.5)
        == .init(phase: .active, iteration: 1, isReversed: true, progress: 0.25))
    #expect(
      t.iterationProgress(atLocal: 4)
        == .init(phase: .after, iteration: 1, isReversed: true, progress: 0))
  }

  /// Autoreverses with repeatCount 1.25: D = 4 · 1.25 = 5; at t = 5, k = ⌊5/2⌋ = 2 (even, not
  /// reversed), τ = 1, p = 0.5.
  @Test func autoreverseFractionalEnd() {
    let t = MediaTiming(duration: 2, repeatCount: 1.25, autoreverses: true, fillMode: .forwards)
    #expect(t.activeDuration == 5)
    #expect(
      t.iterationProgress(atLocal: 5)
        == .init(phase: .after, iteration: 2, isReversed: false, progress: 0.5))
  }

  /// repeatDuration 3 with duration 2: D = 3; at the end k = 1, τ = 1, p = 0.5.
  @Test func repeatDurationSetsTheActiveDuration() {
    let t = MediaTiming(duration: 2, repeatDuration: 3, fillMode: .forwards)
    #expect(t.activeDuration == 3)
    #expect(
      t.iterationProgress(atLocal: 3)
        == .init(phase: .after, iteration: 1, isReversed: false, progress: 0.5))
  }

  /// Before the start (t = −1) only backwards/both fill, with pass 0 at p = 0; after the end
  /// (t = 2 for duration 1) only forwards/both fill, with p = 1.
  @Test(arguments: MediaTiming.FillMode.allCases)
  func fillModesBeforeAndAfter(mode: MediaTiming.FillMode) {
    let t = MediaTiming(duration: 1, fillMode: mode)
    let before = t.iterationProgress(atLocal: -1)
    let after = t.iterationProgress(atLocal: 2)
    let fillsBackwards = mode == .backwards || mode == .both
    let fillsForwards = mode == .forwards || mode == .both
    #expect(
      before
        == (fillsBackwards
          ? .init(phase: .before, iteration: 0, isReversed: false, progress: 0) : nil))
    #expect(
      after
        == (fillsForwards
          ? .init(phase: .after, iteration: 0, isReversed: false, progress: 1) : nil))
    #expect(
      t.iterationProgress(atLocal: 0.25)
        == .init(phase: .active, iteration: 0, isReversed: false, progress: 0.25))
  }

  /// Three spellings of "forever" give an infinite active duration; a billion seconds in,
  /// duration 2: k = 5e8, τ = 0, p = 0, still active.
  @Test(arguments: [
    Double.infinity, .greatestFiniteMagnitude, Double(Float.greatestFiniteMagnitude),
  ])
  func repeatForever(count: Double) throws {
    let t = MediaTiming(duration: 2, repeatCount: count)
    try t.validate()
    #expect(t.repeatsForever)
    #expect(t.activeDuration == .infinity)
    #expect(
      t.iterationProgress(atLocal: 1e9)
        == .init(phase: .active, iteration: 500_000_000, isReversed: false, progress: 0))
  }

  /// Duration 0 resolves to 0.25 s when added, or to the transaction's duration; a positive
  /// duration is kept. Unresolved, duration 0 has an empty active interval.
  @Test func zeroDurationResolvesForAnimations() {
    let zero = MediaTiming()
    #expect(zero.activeDuration == 0)
    #expect(zero.iterationProgress(atLocal: 0) == nil)
    #expect(zero.resolvedForAnimation().duration == 0.25)
    #expect(zero.resolvedForAnimation(transactionDuration: 0.5).duration == 0.5)
    #expect(MediaTiming(duration: 1).resolvedForAnimation().duration == 1)
    var filled = MediaTiming(fillMode: .forwards)
    #expect(
      filled.iterationProgress(atLocal: 0)
        == .init(phase: .after, iteration: 0, isReversed: false, progress: 1))
    filled.fillMode = .removed
    #expect(filled.iterationProgress(atLocal: 5) == nil)
  }

  /// A NaN time has no effect.
  @Test func nanTimeHasNoEffect() {
    #expect(MediaTiming(duration: 1, fillMode: .both).iterationProgress(atLocal: .nan) == nil)
  }

  /// Root (beginTime 1, speed 2), layer (speed 0.5, timeOffset 0.5), animation (beginTime 3) at
  /// root time 10: (10 − 1)·2 = 18; 18·0.5 + 0.5 = 9.5; 9.5 − 3 = 6.5. And back up to 10.
  @Test func hierarchyByHand() {
    let chain = [
      MediaTiming(beginTime: 1, speed: 2),
      MediaTiming(speed: 0.5, timeOffset: 0.5),
      MediaTiming(beginTime: 3),
    ]
    #expect(MediaTiming.localTime(10, through: chain) == 6.5)
    #expect(MediaTiming.parentTime(6.5, through: chain) == 10)
    #expect(MediaTiming.localTime(10, through: []) == 10)
    #expect(MediaTiming.parentTime(1, through: [MediaTiming(speed: 0)]) == nil)
  }

  /// Round trip through a random three-level hierarchy (speeds in ±[0.25, 4.25]): root → leaf →
  /// root returns the start time to within 1e-9 relative.
  @Test func hierarchyRoundTrip() async {
    await propertyCheck(
      count: 200, input: Gen.double(in: -4...4).array(of: 9), Gen.double(in: -100...100)
    ) { p, t in
      let chain = (0..<3).map { i in
        let s = p[3 * i + 1]
        return MediaTiming(
          beginTime: p[3 * i] * 10, speed: s >= 0 ? s + 0.25 : s - 0.25,
          timeOffset: p[3 * i + 2] * 10)
      }
      let local = MediaTiming.localTime(t, through: chain)
      let back = MediaTiming.parentTime(local, through: chain)
      #expect(back != nil)
      if let back { #expect(abs(back - t) <= 1e-9 * max(1, abs(t))) }
    }
  }

  /// QA1673 by hand: a layer (default timing) hosts an animation with beginTime 1. Pause at parent
  /// time 3: layer local 3, animation local 2; at parent time 7 still 2. Resume at 7: beginTime =
  /// 7 − 3 = 4, so the animation's local time is 7 − 4 − 1 = 2 at 7 and 3 at 8.
  @Test func pauseAndResumeByHand() throws {
    var layer = MediaTiming()
    let animation = MediaTiming(beginTime: 1, duration: 10)
    func visible(_ t: Double, _ layer: MediaTiming) -> Double {
      MediaTiming.localTime(t, through: [layer, animation])
    }
    #expect(visible(3, layer) == 2)
    try layer.pause(atParentTime: 3)
    #expect(layer.speed == 0)
    #expect(layer.timeOffset == 3)
    #expect(visible(7, layer) == 2)
    try layer.resume(atParentTime: 7)
    #expect(layer.beginTime == 4)
    #expect(layer.speed == 1)
    #expect(layer.timeOffset == 0)
    #expect(visible(7, layer) == 2)
    #expect(visible(8, layer) == 3)
  }

  /// Pausing at a random time, waiting, and resuming keeps the visible (animation-local) time
  /// continuous at both events, for random layer timings and resume speeds; after resuming it
  /// advances at the resume speed.
  @Test func pauseResumeKeepsVisibleTimeContinuous() async {
    await propertyCheck(
      count: 200, input: Gen.double(in: -5...5).array(of: 3), Gen.double(in: 0...50),
      Gen.double(in: 0...50), Gen.double(in: 0.25...3)
    ) { p, pauseAt, wait, resumeSpeed in
      var layer = MediaTiming(
        beginTime: p[0], speed: p[1] >= 0 ? p[1] + 0.5 : p[1] - 0.5, timeOffset: p[2])
      let animation = MediaTiming(beginTime: 0.5, duration: 2)
      let before = MediaTiming.localTime(pauseAt, through: [layer, animation])
      try layer.pause(atParentTime: pauseAt)
      let frozen = MediaTiming.localTime(pauseAt + wait, through: [layer, animation])
      try layer.resume(atParentTime: pauseAt + wait, speed: resumeSpeed)
      let resumed = MediaTiming.localTime(pauseAt + wait, through: [layer, animation])
      let later = MediaTiming.localTime(pauseAt + wait + 1, through: [layer, animation])
      let tolerance = 1e-9 * max(1, abs(before))
      #expect(abs(frozen - before) <= tolerance)
      #expect(abs(resumed - before) <= tolerance)
      #expect(abs(later - resumed - resumeSpeed) <= tolerance)
    }
  }

  /// Scrubbing to half of a 0.4 s animation that begins at local time 1: speed 0 and timeOffset
  /// 1 + 0.5·0.4 = 1.2, whatever the parent time.
  @Test func scrubFreezesAtTheFraction() throws {
    var layer = MediaTiming(beginTime: 3, speed: 2)
    try layer.scrub(toFraction: 0.5, ofDuration: 0.4, animationsBeginTime: 1)
    #expect(layer.speed == 0)
    #expect(layer.timeOffset == 1.2)
    #expect(layer.localTime(fromParent: 17) == 1.2)
  }

  /// Zero and negative speeds, and forever in repeatDuration, are accepted.
  @Test func acceptedEdgeValues() throws {
    try MediaTiming(speed: 0).validate()
    try MediaTiming(speed: -2).validate()
    try MediaTiming(duration: 1, repeatDuration: .infinity).validate()
    #expect(MediaTiming(duration: 1, repeatDuration: .infinity).activeDuration == .infinity)
  }

  /// One rejected condition per case: the timing, the field and the reason.
  static let rejected: [(String, MediaTiming, ValidationError)] = [
    ("beginTime NaN", MediaTiming(beginTime: .nan), .init(field: "beginTime", reason: .notFinite)),
    (
      "beginTime infinite", MediaTiming(beginTime: .infinity),
      .init(field: "beginTime", reason: .notFinite)
    ),
    ("duration NaN", MediaTiming(duration: .nan), .init(field: "duration", reason: .notFinite)),
    (
      "duration infinite", MediaTiming(duration: .infinity),
      .init(field: "duration", reason: .notFinite)
    ),
    ("duration negative", MediaTiming(duration: -1), .init(field: "duration", reason: .negative)),
    ("speed NaN", MediaTiming(speed: .nan), .init(field: "speed", reason: .notFinite)),
    ("speed infinite", MediaTiming(speed: -.infinity), .init(field: "speed", reason: .notFinite)),
    (
      "timeOffset NaN", MediaTiming(timeOffset: .nan),
      .init(field: "timeOffset", reason: .notFinite)
    ),
    (
      "repeatCount NaN", MediaTiming(repeatCount: .nan),
      .init(field: "repeatCount", reason: .notFinite)
    ),
    (
      "repeatCount negative", MediaTiming(repeatCount: -1),
      .init(field: "repeatCount", reason: .negative)
    ),
    (
      "repeatCount −infinity", MediaTiming(repeatCount: -.infinity),
      .init(field: "repeatCount", reason: .negative)
    ),
    (
      "repeatDuration NaN", MediaTiming(repeatDuration: .nan),
      .init(field: "repeatDuration", reason: .notFinite)
    ),
    (
      "repeatDuration negative", MediaTiming(repeatDuration: -0.5),
      .init(field: "repeatDuration", reason: .negative)
    ),
  ]

  @Test(arguments: 0..<rejected.count)
  func validateRejects(_ i: Int) {
    let (_, timing, error) = Self.rejected[i]
    #expect(throws: error) { try timing.validate() }
  }

  @Test func pauseRejectsNonFiniteParentTime() {
    var t = MediaTiming()
    #expect(throws: ValidationError(field: "parentTime", reason: .notFinite)) {
      try t.pause(atParentTime: .nan)
    }
  }

  @Test func resumeRejectsNonFiniteParentTime() {
    var t = MediaTiming(speed: 0)
    #expect(throws: ValidationError(field: "parentTime", reason: .notFinite)) {
      try t.resume(atParentTime: .infinity)
    }
  }

  @Test func resumeRejectsNonFiniteSpeed() {
    var t = MediaTiming(speed: 0)
    #expect(throws: ValidationError(field: "speed", reason: .notFinite)) {
      try t.resume(atParentTime: 1, speed: .nan)
    }
  }

  @Test func resumeRejectsZeroSpeed() {
    var t = MediaTiming(speed: 0)
    #expect(throws: ValidationError(field: "speed", reason: .notPositive)) {
      try t.resume(atParentTime: 1, speed: 0)
    }
  }

  @Test func resumeRejectsATimingThatIsNotPaused() {
    var t = MediaTiming()
    #expect(
      throws: ValidationError(
        field: "speed", reason: .invalidState("resume requires a paused timing"))
    ) {
      try t.resume(atParentTime: 1)
    }
  }

  @Test func scrubRejectsFractionOutOfRange() {
    var t = MediaTiming()
    #expect(throws: ValidationError(field: "fraction", reason: .outOfRange(lower: 0, upper: 1))) {
      try t.scrub(toFraction: 1.5, ofDuration: 1)
    }
  }

  @Test func scrubRejectsNaNFraction() {
    var t = MediaTiming()
    #expect(throws: ValidationError(field: "fraction", reason: .notFinite)) {
      try t.scrub(toFraction: .nan, ofDuration: 1)
    }
  }

  @Test func scrubRejectsNegativeDuration() {
    var t = MediaTiming()
    #expect(throws: ValidationError(field: "duration", reason: .negative)) {
      try t.scrub(toFraction: 0.5, ofDuration: -1)
    }
  }

  @Test func scrubRejectsNonFiniteBeginTime() {
    var t = MediaTiming()
    #expect(throws: ValidationError(field: "animationsBeginTime", reason: .notFinite)) {
      try t.scrub(toFraction: 0.5, ofDuration: 1, animationsBeginTime: .nan)
    }
  }
}
