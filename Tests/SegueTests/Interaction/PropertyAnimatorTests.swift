import PropertyBased
import Testing

@testable import Segue

/// Reference values, computed independently with python3 mpmath at 50 digits (solve x(u) = x with
/// findroot, then evaluate y(u)) for CA's easeIn (0.42, 0, 1, 1) and easeInEaseOut
/// (0.42, 0, 0.58, 1):
///   easeIn(0.5)   = 0.31535681257253930426
///   easeIn(0.625) = 0.45946529280912200963
///   easeIn(0.75)  = 0.62186186917489020266
///   1 − easeIn(0.25) = 0.90653534928117514076   (what a value reversal would show)
///   easeInEaseOut(0.25) = 0.12916193104731981165, easeInEaseOut(0.5) = 0.5
///   q₀ + (1 − q₀)·0.5 with q₀ = easeInEaseOut(0.25): 0.56458096552365990582
private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool {
  abs(a - b) <= tolerance
}

@Suite("PropertyAnimator")
struct PropertyAnimatorTests {
  /// easeIn, D = 2, started at 0: at t = 1, f = 0.5 and q = easeIn(0.5); completes at 2 (.end).
  @Test func plainRun() throws {
    var animator = try PropertyAnimator(duration: 2, timingParameters: .easeIn)
    #expect(animator.state == .inactive && !animator.isRunning)
    try animator.startAnimation(at: 0)
    let mid = try animator.sample(at: 1)
    #expect(mid.state == .active && mid.isRunning)
    #expect(mid.fractionComplete == 0.5)
    #expect(close(mid.progress, 0.31535681257253930426))
    #expect(try animator.advance(to: 1.5) == nil)
    #expect(try animator.advance(to: 2.5) == AnimatorCompletionEvent(position: .end, time: 2))
    #expect(animator.state == .inactive && animator.progress == 1 && animator.fractionComplete == 1)
    #expect(try animator.advance(to: 3) == nil)
    #expect(animator.completionCount == 1)
  }

  /// Reversal reverses time: easeIn, D = 1, pausesOnCompletion; it pauses at the end at t = 1;
  /// reversed and restarted there, at 1 + τ it shows easeIn(1 − τ) (time reversed), not
  /// 1 − easeIn(τ) (value reversed). τ = 0.25: easeIn(0.75) = 0.62186… ≠ 0.90653….
  @Test func reversalReversesTimeNotValue() throws {
    var animator = try PropertyAnimator(
      duration: 1, timingParameters: .easeIn, pausesOnCompletion: true)
    try animator.startAnimation(at: 0)
    #expect(try animator.advance(to: 1) == nil)
    #expect(animator.state == .active && !animator.isRunning && animator.fractionComplete == 1)
    try animator.setReversed(true, at: 1)
    try animator.setPausesOnCompletion(false, at: 1)
    try animator.startAnimation(at: 1)
    let quarter = try animator.sample(at: 1.25)
    #expect(quarter.fractionComplete == 0.75 && quarter.isReversed)
    #expect(close(quarter.progress, 0.62186186917489020266))
    #expect(!close(quarter.progress, 0.90653534928117514076, 1e-3))
    #expect(close(try animator.sample(at: 1.5).progress, 0.31535681257253930426))
    #expect(try animator.advance(to: 2) == AnimatorCompletionEvent(position: .start, time: 2))
    #expect(animator.progress == 0)
  }

  /// Starting an inactive, reversed animator runs from f = 1 back: at 0.25, f = 0.75.
  @Test func startReversedRunsFromTheEnd() throws {
    var animator = try PropertyAnimator(duration: 1, timingParameters: .easeIn)
    try animator.setReversed(true, at: 0)
    try animator.startAnimation(at: 0)
    let sample = try animator.sample(at: 0.25)
    #expect(sample.fractionComplete == 0.75)
    #expect(close(sample.progress, 0.62186186917489020266))
    #expect(try animator.advance(to: 1) == AnimatorCompletionEvent(position: .start, time: 1))
  }

  /// continueAnimation with new timing: easeInEaseOut, D = 2, paused at 0.5 (f = 0.25,
  /// q₀ = easeInEaseOut(0.25)); continued at 1 with .linear and factor 0.5, so the remaining
  /// run lasts 0.5·2 = 1 s: at 1.5, f = 0.25 + 0.75·0.5 = 0.625 and q = q₀ + (1 − q₀)·0.5;
  /// completes at 2.
  @Test func continueWithNewTimingAndFactor() throws {
    var animator = try PropertyAnimator(duration: 2)
    try animator.startAnimation(at: 0)
    try animator.pauseAnimation(at: 0.5)
    #expect(animator.fractionComplete == 0.25)
    #expect(close(animator.progress, 0.12916193104731981165))
    #expect(try animator.sample(at: 0.9).fractionComplete == 0.25)
    try animator.continueAnimation(withTimingParameters: .linear, durationFactor: 0.5, at: 1)
    let mid = try animator.sample(at: 1.5)
    #expect(close(mid.fractionComplete, 0.625))
    #expect(close(mid.progress, 0.56458096552365990582))
    let done = try animator.sample(at: 2)
    #expect(done.completion == .end && done.completionTime == 2 && done.progress == 1)
  }

  /// continueAnimation(nil, 1) keeps the curve: easeIn, D = 2, paused at 0.5 (f = 0.25);
  /// continued at 1, the remaining 0.75 lasts 1·2 = 2 s (rate 0.375/s): at 2, f = 0.625 and
  /// q = easeIn(0.625); completes at 3.
  @Test func continueWithoutTimingKeepsCurve() throws {
    var animator = try PropertyAnimator(duration: 2, timingParameters: .easeIn)
    try animator.startAnimation(at: 0)
    try animator.pauseAnimation(at: 0.5)
    try animator.continueAnimation(withTimingParameters: nil, durationFactor: 1, at: 1)
    let sample = try animator.sample(at: 2)
    #expect(close(sample.fractionComplete, 0.625))
    #expect(close(sample.progress, 0.45946529280912200963))
    #expect(try animator.advance(to: 3) == AnimatorCompletionEvent(position: .end, time: 3))
  }

  /// Linear scrub then resume: easeInEaseOut, D = 1; paused at 0, scrubbed to 0.4 (q = 0.4,
  /// linear); started at 1, re-timed from (0.4, 0.4): at 1.3, f = 0.7, u = 0.3/0.6 = 0.5,
  /// q = 0.4 + 0.6·0.5 = 0.7. Reversed at 1.3, at 1.8 f = 0.2 < 0.4, so
  /// q = 0.4 − 0.4·easeInEaseOut(0.2/0.4) = 0.2.
  @Test func linearScrubThenResume() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.pauseAnimation(at: 0)
    try animator.setFractionComplete(0.4, at: 0.5)
    #expect(animator.progress == 0.4)
    try animator.startAnimation(at: 1)
    let sample = try animator.sample(at: 1.3)
    #expect(close(sample.fractionComplete, 0.7))
    #expect(close(sample.progress, 0.7))
    try animator.setReversed(true, at: 1.3)
    let back = try animator.sample(at: 1.8)
    #expect(close(back.fractionComplete, 0.2))
    #expect(close(back.progress, 0.2))
  }

  /// Without linear scrubbing the scrubbed value follows the curve: easeInEaseOut(0.25).
  @Test func curvedScrub() throws {
    var animator = try PropertyAnimator(duration: 1, scrubsLinearly: false)
    try animator.pauseAnimation(at: 0)
    try animator.setFractionComplete(0.25, at: 0)
    #expect(close(animator.progress, 0.12916193104731981165))
  }

  /// A fraction outside `[0, 1]` is a typed error (UIKit clamps; Segue rejects, as its batch
  /// does) and leaves the animator as it was; the ends themselves are accepted.
  @Test func fractionOutsideTheUnitIntervalIsRejected() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.pauseAnimation(at: 0)
    try animator.setFractionComplete(0.25, at: 0)
    for bad in [1.5, -1, 1.0000001, .nan, .infinity] {
      #expect(throws: ValidationError.self) { try animator.setFractionComplete(bad, at: 0.1) }
    }
    #expect(animator.fractionComplete == 0.25 && animator.events.count == 2)
    try animator.setFractionComplete(1, at: 0.1)
    #expect(animator.fractionComplete == 1)
    try animator.setFractionComplete(0, at: 0.1)
    #expect(animator.fractionComplete == 0)
  }

  @Test func pausesOnCompletionRunsNoCompletion() throws {
    var animator = try PropertyAnimator(duration: 1, pausesOnCompletion: true)
    try animator.startAnimation(at: 0)
    #expect(try animator.advance(to: 5) == nil)
    #expect(animator.state == .active && !animator.isRunning && animator.fractionComplete == 1)
  }

  /// stopAnimation(true) at 0.5 (easeInEaseOut, D = 1: q = 0.5): inactive, values kept, no
  /// completion ever, later calls rejected.
  @Test func stopWithoutFinishing() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0)
    try animator.stopAnimation(withoutFinishing: true, at: 0.5)
    #expect(animator.state == .inactive && close(animator.progress, 0.5))
    #expect(try animator.advance(to: 10) == nil)
    #expect(close(try animator.sample(at: 10).progress, 0.5))
    #expect(
      throws: ValidationError(field: "animator", reason: .invalidState("the animator was stopped"))
    ) { try animator.startAnimation(at: 11) }
  }

  @Test func stopThenFinishAtStart() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0)
    try animator.stopAnimation(withoutFinishing: false, at: 0.5)
    #expect(animator.state == .stopped)
    #expect(try animator.sample(at: 0.6).progress == animator.progress)
    try animator.finishAnimation(at: .start, time: 0.7)
    #expect(animator.progress == 0 && animator.fractionComplete == 0)
    #expect(try animator.advance(to: 0.7) == AnimatorCompletionEvent(position: .start, time: 0.7))
  }

  @Test func stopThenFinishAtCurrent() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0)
    try animator.stopAnimation(withoutFinishing: false, at: 0.5)
    try animator.finishAnimation(at: .current, time: 0.6)
    #expect(close(animator.progress, 0.5) && animator.fractionComplete == 0.5)
    #expect(try animator.sample(at: 0.6).completion == .current)
  }

  // MARK: Rejections

  @Test func rejectsZeroDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try PropertyAnimator(duration: 0)
    }
  }

  @Test func rejectsInfiniteDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notFinite)) {
      try PropertyAnimator(duration: .infinity)
    }
  }

  @Test func rejectsFractionWhileRunning() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0)
    #expect(
      throws: ValidationError(
        field: "fractionComplete",
        reason: .invalidState("fractionComplete can be set only while paused"))
    ) { try animator.setFractionComplete(0.5, at: 0.1) }
  }

  @Test func rejectsFractionWhileInactive() throws {
    var animator = try PropertyAnimator(duration: 1)
    #expect(
      throws: ValidationError(
        field: "fractionComplete",
        reason: .invalidState("fractionComplete can be set only while paused"))
    ) { try animator.setFractionComplete(0.5, at: 0) }
  }

  @Test func rejectsNaNFraction() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.pauseAnimation(at: 0)
    #expect(throws: ValidationError(field: "fractionComplete", reason: .notFinite)) {
      try animator.setFractionComplete(.nan, at: 0)
    }
  }

  @Test func rejectsZeroDurationFactor() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.pauseAnimation(at: 0)
    #expect(throws: ValidationError(field: "durationFactor", reason: .notPositive)) {
      try animator.continueAnimation(withTimingParameters: nil, durationFactor: 0, at: 0)
    }
  }

  @Test func rejectsNaNDurationFactor() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.pauseAnimation(at: 0)
    #expect(throws: ValidationError(field: "durationFactor", reason: .notFinite)) {
      try animator.continueAnimation(withTimingParameters: .linear, durationFactor: .nan, at: 0)
    }
  }

  @Test func rejectsContinueWhileRunning() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0)
    #expect(
      throws: ValidationError(
        field: "animator", reason: .invalidState("continueAnimation needs a paused animator"))
    ) { try animator.continueAnimation(withTimingParameters: nil, durationFactor: 1, at: 0.2) }
  }

  @Test func rejectsContinueWhileInactive() throws {
    var animator = try PropertyAnimator(duration: 1)
    #expect(
      throws: ValidationError(
        field: "animator", reason: .invalidState("continueAnimation needs a paused animator"))
    ) { try animator.continueAnimation(withTimingParameters: nil, durationFactor: 1, at: 0) }
  }

  @Test func rejectsFinishAnimationUnlessStopped() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0)
    #expect(
      throws: ValidationError(
        field: "animator", reason: .invalidState("finishAnimation needs a stopped animator"))
    ) { try animator.finishAnimation(at: .end, time: 0.5) }
  }

  @Test func rejectsStopWhileInactive() throws {
    var animator = try PropertyAnimator(duration: 1)
    #expect(
      throws: ValidationError(
        field: "animator", reason: .invalidState("stopAnimation needs an active animator"))
    ) { try animator.stopAnimation(withoutFinishing: false, at: 0) }
  }

  @Test func rejectsStartWhileStopped() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0)
    try animator.stopAnimation(withoutFinishing: false, at: 0.2)
    #expect(
      throws: ValidationError(field: "animator", reason: .invalidState("the animator is stopped"))
    ) { try animator.startAnimation(at: 0.3) }
  }

  @Test func rejectsReverseWhileStopped() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.pauseAnimation(at: 0)
    try animator.stopAnimation(withoutFinishing: false, at: 0.2)
    #expect(
      throws: ValidationError(field: "animator", reason: .invalidState("the animator is stopped"))
    ) { try animator.setReversed(true, at: 0.3) }
  }

  @Test func rejectsCallAfterCompletion() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0)
    #expect(
      throws: ValidationError(
        field: "animator", reason: .invalidState("the animator has completed"))
    ) { try animator.pauseAnimation(at: 1) }
  }

  @Test func rejectsDecreasingTime() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0.5)
    #expect(throws: ValidationError(field: "time", reason: .decreasing)) {
      try animator.pauseAnimation(at: 0.4)
    }
  }

  @Test func rejectsNaNTime() throws {
    var animator = try PropertyAnimator(duration: 1)
    #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
      try animator.startAnimation(at: .nan)
    }
  }

  @Test func rejectsNegativeSampleTime() throws {
    let animator = try PropertyAnimator(duration: 1)
    #expect(throws: ValidationError(field: "time", reason: .negative)) {
      try animator.sample(at: -0.1)
    }
  }

  @Test func historyErrorsCarryIndex() {
    #expect(throws: ValidationError(field: "durationFactor", index: 1, reason: .notPositive)) {
      try PropertyAnimator(
        duration: 1,
        events: [
          .pause(time: 0), .continueAnimation(time: 0, timing: nil, durationFactor: -1),
        ])
    }
  }

  // MARK: Properties

  /// Reversed mid-run at t₁, the animator retraces its own path: the sample at t₁ + τ equals the
  /// forward sample at t₁ − τ (fraction and progress), for τ ∈ [0, t₁], for several curves.
  @Test func midRunReversalRetracesPath() async {
    let curves: [TimingFunction] = [.easeIn, .easeOut, .easeInEaseOut, .systemDefault]
    await propertyCheck(
      count: 150, input: Gen.double(in: 0.05...1.95), Gen.double(in: 0...1), Gen.int(in: 0...3)
    ) { t1, share, curveIndex in
      var animator = try PropertyAnimator(
        duration: 2, timingParameters: .cubic(curves[curveIndex]))
      #expect((try? animator.startAnimation(at: 0)) != nil)
      #expect((try? animator.setReversed(true, at: t1)) != nil)
      let tau = share * t1
      guard let forward = try? animator.sample(at: t1 - tau),
        let backward = try? animator.sample(at: t1 + tau)
      else {
        Issue.record("valid sample rejected")
        return
      }
      #expect(close(forward.fractionComplete, backward.fractionComplete, 1e-12))
      #expect(close(forward.progress, backward.progress, 1e-9))
    }
  }

  /// Random call sequences (rejected calls skipped): fraction stays in [0, 1], progress finite
  /// (and in [0, 1] for these non-overshooting curves), the completion is delivered at most once
  /// and only to an inactive animator, and sampling is a pure function of the calls at τ ≤ t.
  @Test func randomCallSequencesStayConsistent() async {
    await propertyCheck(
      count: 200,
      input: Gen.int(in: 0...10).array(of: 1...20), Gen.double(in: -0.2...1.2).array(of: 20),
      Gen.double(in: 0...0.4).array(of: 20), Gen.bool().array(of: 20)
    ) { kinds, values, gaps, flags in
      var animator = try PropertyAnimator(duration: 1)
      var time = 0.0
      var deliveries = 0
      for (i, kind) in kinds.enumerated() {
        time += gaps[i]
        let event: AnimatorEvent
        switch kind {
        case 0: event = .start(time: time)
        case 1: event = .pause(time: time)
        case 2: event = .stop(time: time, withoutFinishing: flags[i])
        case 3: event = .finish(time: time, position: flags[i] ? .end : .current)
        case 4, 5: event = .setFractionComplete(time: time, fraction: values[i])
        case 6: event = .setReversed(time: time, reversed: flags[i])
        case 7: event = .setPausesOnCompletion(time: time, value: flags[i])
        case 8: event = .setScrubsLinearly(time: time, value: flags[i])
        case 9:
          event = .continueAnimation(
            time: time, timing: flags[i] ? .easeOut : nil,
            durationFactor: 0.1 + values[i].magnitude)
        default:
          if (try? animator.advance(to: time)) ?? nil != nil { deliveries += 1 }
          continue
        }
        do throws(ValidationError) {
          try animator.apply(event)
        } catch {
          #expect(["animator", "fractionComplete"].contains(error.field))
        }
        let now = animator.current
        #expect((0...1).contains(now.fractionComplete))
        #expect(now.progress.isFinite && now.progress >= -1e-12 && now.progress <= 1 + 1e-12)
        if now.completion != nil { #expect(now.state == .inactive) }
      }
      if (try? animator.advance(to: time + 20)) ?? nil != nil { deliveries += 1 }
      #expect(deliveries <= 1 && deliveries == animator.completionCount)
      let end = animator.current
      #expect((deliveries == 1) == (end.completion != nil))
      // Purity at a random earlier time.
      let probe = time * values[0].magnitude / 1.2
      let prefix = animator.events.filter { $0.time <= probe }
      let replay = try? PropertyAnimator(duration: 1, events: prefix)
      #expect((try? replay?.sample(at: probe)) == (try? animator.sample(at: probe)))
    }
  }
}

/// Springs, `startAnimation(afterDelay:)` and the progress of animations that start later.
@Suite("PropertyAnimator: springs, delay, blocks")
struct PropertyAnimatorSpringTests {
  /// ζ = 1 fitted to D = 1: at t the progress is the critical closed form with ω0 = X/1.
  @Test func springRun() throws {
    var animator = try PropertyAnimator(
      duration: 1, timingParameters: .spring(try SpringTimingParameters(dampingRatio: 1)))
    try animator.startAnimation(at: 0)
    let omega0 = SpringReference.criticalRoot
    for t in [0.1, 0.25, 0.5, 0.9] {
      let expected = SpringReference.critical(omega0: omega0, v0: 0, t: t)
      #expect(close(try animator.sample(at: t).progress, expected))
    }
    #expect(try animator.advance(to: 1) == AnimatorCompletionEvent(position: .end, time: 1))
    #expect(animator.progress == 1)
  }

  /// A physical spring ignores the duration: the animator lasts its settling duration.
  @Test func physicalSpringSetsTheDuration() throws {
    let animator = try PropertyAnimator(
      duration: 40, timingParameters: .spring(SpringTimingParameters()))
    #expect(animator.duration == DampedSpring.systemCurve7.settlingDuration)
    if case .spring = animator.timingParameters {} else { Issue.record("not a spring") }
  }

  /// The release of a pan: easeInEaseOut, D = 1, paused half way (q₀ = 0.5), continued with a
  /// critical spring (ζ = 1) and v0 = 2 remaining-distances per second over 0.4·1 s. At 1.1 s,
  /// f = 0.5 + 0.1·(0.5/0.4) = 0.625, the run's elapsed fraction is 0.25 and
  /// q = 0.5 + 0.5·x(0.1) with ω0 = X/0.4; the initial slope is (1 − q₀)·v0 = 1 per second;
  /// the run ends at 1.4 s.
  @Test func continueWithASpring() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0)
    try animator.pauseAnimation(at: 0.5)
    #expect(close(animator.progress, 0.5))
    let spring = try SpringTimingParameters(dampingRatio: 1, initialVelocity: Vector2(dx: 2, dy: 0))
    try animator.continueAnimation(
      withTimingParameters: .spring(spring), durationFactor: 0.4, at: 1)
    let omega0 = SpringReference.criticalRoot / 0.4
    let sample = try animator.sample(at: 1.1)
    #expect(close(sample.fractionComplete, 0.625))
    let expected = 0.5 + 0.5 * SpringReference.critical(omega0: omega0, v0: 2, t: 0.1)
    #expect(close(sample.progress, expected))
    let h = 1e-6
    let slope = (try animator.sample(at: 1 + h).progress - 0.5) / h
    #expect(abs(slope - 1) < 1e-3)
    #expect(try animator.advance(to: 2) == AnimatorCompletionEvent(position: .end, time: 1.4))
  }

  /// Cancelling with a spring: reversed, the run back to 0 is the spring laid towards the start:
  /// q = q₀ − q₀·x(s·L), L = 0.5·D·… here f₀ = 0.5, factor 0.5 → L = 0.5 s, rate 1/s.
  @Test func cancelWithASpring() throws {
    var animator = try PropertyAnimator(duration: 1, timingParameters: .linear)
    try animator.startAnimation(at: 0)
    try animator.pauseAnimation(at: 0.5)
    try animator.setReversed(true, at: 0.5)
    let spring = try SpringTimingParameters(dampingRatio: 1)
    try animator.continueAnimation(
      withTimingParameters: .spring(spring), durationFactor: 0.5, at: 0.5)
    let omega0 = SpringReference.criticalRoot / 0.5
    let sample = try animator.sample(at: 0.7)
    #expect(close(sample.fractionComplete, 0.3))
    let expected = 0.5 - 0.5 * SpringReference.critical(omega0: omega0, v0: 0, t: 0.2)
    #expect(close(sample.progress, expected))
    #expect(try animator.advance(to: 1.5) == AnimatorCompletionEvent(position: .start, time: 1))
    #expect(animator.progress == 0)
  }

  /// A physical spring in `continueAnimation` lasts its settling duration, whatever the factor.
  @Test func continueWithAPhysicalSpringIgnoresTheFactor() throws {
    var animator = try PropertyAnimator(duration: 1, timingParameters: .linear)
    try animator.pauseAnimation(at: 0)
    try animator.continueAnimation(
      withTimingParameters: .spring(SpringTimingParameters()), durationFactor: 3, at: 0)
    let end = DampedSpring.systemCurve7.settlingDuration
    #expect(
      try animator.advance(to: 5) == AnimatorCompletionEvent(position: .end, time: end))
  }

  /// `startAnimation(afterDelay: 0.5)` at 1, linear, D = 2: running at once, f held until 1.5,
  /// then 0.5 per second: f = 0.5 at 2.5, completion at 3.5.
  @Test func startAfterDelay() throws {
    var animator = try PropertyAnimator(duration: 2, timingParameters: .linear)
    try animator.startAnimation(afterDelay: 0.5, at: 1)
    #expect(animator.delay == 0.5)
    let held = try animator.sample(at: 1.4)
    #expect(held.state == .active && held.isRunning && held.fractionComplete == 0)
    #expect(close(try animator.sample(at: 2.5).fractionComplete, 0.5))
    #expect(try animator.advance(to: 4) == AnimatorCompletionEvent(position: .end, time: 3.5))
  }

  /// A pause during the delay drops the rest of it; a delay on a running animator changes nothing.
  @Test func delayIsDroppedByPauseAndIgnoredWhileRunning() throws {
    var animator = try PropertyAnimator(duration: 1, timingParameters: .linear)
    try animator.startAnimation(afterDelay: 1, at: 0)
    try animator.pauseAnimation(at: 0.2)
    try animator.startAnimation(at: 0.5)
    #expect(close(try animator.sample(at: 0.75).fractionComplete, 0.25))
    try animator.startAnimation(afterDelay: 5, at: 0.75)
    #expect(close(try animator.sample(at: 1).fractionComplete, 0.5))
    #expect(animator.delay == 5)
  }

  @Test func rejectsNegativeDelay() throws {
    var animator = try PropertyAnimator(duration: 1)
    #expect(throws: ValidationError(field: "delay", reason: .negative)) {
      try animator.startAnimation(afterDelay: -1, at: 0)
    }
    #expect(throws: ValidationError(field: "delay", reason: .notFinite)) {
      try animator.startAnimation(afterDelay: .nan, at: 0)
    }
    #expect(animator.events.isEmpty)
  }

  /// Animations starting at fraction 0.5 of an easeIn run (D = 1): 0 before, easeIn(φ) with
  /// φ = (f − 0.5)/0.5 after, 1 at the end; start 0 is the animator's own progress.
  @Test func progressOfALaterBlock() throws {
    var animator = try PropertyAnimator(duration: 1, timingParameters: .easeIn)
    try animator.startAnimation(at: 0)
    #expect(try animator.progress(at: 0.25, startingAt: 0.5) == 0)
    #expect(close(try animator.progress(at: 0.75, startingAt: 0.5), 0.31535681257253930426))
    #expect(try animator.progress(at: 1, startingAt: 0.5) == 1)
    #expect(try animator.progress(at: 1, startingAt: 1) == 1)
    #expect(try animator.progress(at: 0.6, startingAt: 0) == animator.sample(at: 0.6).progress)
  }

  /// Re-timing moves the knot into each block's local fraction: easeInEaseOut, D = 1, block from
  /// 0.5; paused at 0.75 (φ₀ = 0.5, q₀ = 0.5); continued linearly with factor 1 (rate 0.25/s):
  /// at 1.5, f = 0.875, φ = 0.75, q = 0.5 + 0.5·0.5 = 0.75. The animator itself re-knots at
  /// q₀ = easeInEaseOut(0.75) = 1 − easeInEaseOut(0.25).
  @Test func retimedLaterBlock() throws {
    var animator = try PropertyAnimator(duration: 1)
    try animator.startAnimation(at: 0)
    try animator.pauseAnimation(at: 0.75)
    #expect(close(try animator.progress(at: 0.75, startingAt: 0.5), 0.5))
    try animator.continueAnimation(withTimingParameters: .linear, durationFactor: 1, at: 1)
    #expect(close(try animator.progress(at: 1.5, startingAt: 0.5), 0.75))
    let q0 = 1 - 0.12916193104731981165
    #expect(close(try animator.sample(at: 1.5).progress, q0 + (1 - q0) * 0.5))
  }

  /// Stopped: every block keeps the progress it had; finished at .end: all 1.
  @Test func stoppedAndFinishedBlocks() throws {
    var animator = try PropertyAnimator(duration: 1, timingParameters: .linear)
    try animator.startAnimation(at: 0)
    try animator.stopAnimation(withoutFinishing: false, at: 0.75)
    #expect(close(try animator.progress(at: 2, startingAt: 0.5), 0.5))
    try animator.finishAnimation(at: .end, time: 3)
    #expect(try animator.progress(at: 3, startingAt: 0.5) == 1)
  }

  @Test func rejectsBadBlockStart() throws {
    let animator = try PropertyAnimator(duration: 1)
    #expect(throws: ValidationError(field: "start", reason: .outOfRange(lower: 0, upper: 1))) {
      try animator.progress(at: 0, startingAt: 1.5)
    }
    #expect(throws: ValidationError(field: "start", reason: .notFinite)) {
      try animator.progress(at: 0, startingAt: .nan)
    }
    #expect(throws: ValidationError(field: "time", reason: .negative)) {
      try animator.progress(at: -1, startingAt: 0)
    }
  }
}
