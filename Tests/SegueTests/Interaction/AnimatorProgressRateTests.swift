import Testing

@testable import Segue

/// ``AnimatorSample/progressRate`` (the animator's analytic `dq/dt`) against differences of the
/// progress itself.
@Suite struct AnimatorProgressRateTests {
  /// The progress of `machine` at `t` (not before its latest call).
  static func progress(_ machine: AnimatorMachine, at t: Double) -> Double {
    var copy = machine
    copy.advance(to: t)
    return copy.progress(atFraction: copy.fraction)
  }

  /// After every accepted call of a random script, at random later times where the progress is
  /// smooth (the backward and forward differences agree), the rate is their mean within 1e-4
  /// relative; where the animator is not running, it is 0.
  @Test(arguments: 0..<16)
  func rateIsTheDerivativeOfTheProgress(seed: Int) throws {
    var rng = Xoshiro(seed: UInt64(seed) &+ 0x5EED)
    var machine = AnimatorMachine(
      duration: 0.3 + SceneBatchControlTests.unit(&rng),
      curve: try AnimatorClockPlanTests.curve(&rng), pausesOnCompletion: rng.next() % 3 == 0,
      scrubsLinearly: rng.next() % 2 == 0)
    var now = 0.0
    var smooth = 0
    var running = 0
    let h = 1e-6
    for _ in 0..<40 {
      now += 0.12 * SceneBatchControlTests.unit(&rng)
      var next = machine
      next.advance(to: now)
      let event = try SceneBatchControlTests.animatorEvent(&rng, at: now)
      do { try next.apply(event) } catch { continue }
      machine = next
      for _ in 0..<4 {
        let t = now + 2 * h + 0.8 * SceneBatchControlTests.unit(&rng)
        var at = machine
        at.advance(to: t)
        let rate = at.sample.progressRate
        // Paused, stopped, completed, or held by a start delay (cleared once it passes).
        guard at.isRunning, at.heldUntil == nil else {
          #expect(rate == 0, "seed \(seed), t \(t): \(rate) while not moving")
          continue
        }
        running += 1
        let q = Self.progress(machine, at: t)
        let back = (q - Self.progress(machine, at: t - h)) / h
        let ahead = (Self.progress(machine, at: t + h) - q) / h
        let scale = max(abs(back), abs(ahead), 1)
        guard abs(back - ahead) <= 1e-3 * scale else { continue }
        #expect(abs(rate - (back + ahead) / 2) <= 1e-4 * scale, "seed \(seed), t \(t)")
        smooth += 1
      }
    }
    #expect(running == 0 || smooth > 0, "seed \(seed): no smooth point among \(running)")
  }

  /// A running ease-in-ease-out animator of 2 s from 0: at 1 s the fraction is 0.5 and the
  /// curve's slope there is `Y′(½)/X′(½) = 1.5/0.87` (the curve is symmetric, `s* = ½`), so
  /// `dq/dt = 1.5/0.87 · ½ per second`; at 0 and 2 s the slope is 0 and 0 (finished).
  @Test func easeInEaseOutRateByHand() throws {
    var animator = try PropertyAnimator(duration: 2, timingParameters: .easeInEaseOut)
    try animator.startAnimation(at: 0)
    // X′(s) = 3·0.52·s² − 2·0.78·s + 1.26 → 0.39 − 0.78 + 1.26 = 0.87 at ½;
    // Y′(s) = −6·s² + 6·s → 1.5 at ½.
    #expect(abs(try animator.sample(at: 1).progressRate - 1.5 / 0.87 / 2) < 1e-12)
    #expect(try animator.sample(at: 2).progressRate == 0)
    try animator.pauseAnimation(at: 1.5)
    #expect(try animator.sample(at: 1.7).progressRate == 0)
  }
}
