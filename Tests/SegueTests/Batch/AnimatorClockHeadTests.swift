import Testing

@testable import Segue

/// ``AnimatorClockHead`` against the plan it is made from: after every accepted call of a random
/// script, wherever the head answers its progress and completion are the plan's bits, and it
/// leaves to the plan only the times where the fraction moves.
@Suite struct AnimatorClockHeadTests {
  /// The plan's edges, the floats next to them, times before the call and random later ones.
  static func times(_ plan: AnimatorClockPlan, after now: Double, _ rng: inout Xoshiro) -> [Double]
  {
    let edges = [now, plan.from, plan.end, plan.heldUntil].filter(\.isFinite)
    return edges + edges.map(\.nextDown) + edges.map(\.nextUp)
      + [now - 1, -.greatestFiniteMagnitude] + AnimatorClockPlanTests.times(plan, after: now, &rng)
  }

  /// Whether the plan's fraction moves at `t` (``AnimatorClockPlan/progress(at:)`` past its held
  /// and end cases).
  static func moves(_ plan: AnimatorClockPlan, at t: Double) -> Bool {
    plan.moves && t >= plan.heldUntil && (t > plan.from || plan.fraction == plan.target)
      && t < plan.end
  }

  @Test(arguments: 0..<24)
  func headGivesThePlansBitsWhereTheFractionDoesNotMove(seed: Int) throws {
    var (answered, deferred) = (0, 0)
    try AnimatorClockPlanTests.script(seed: UInt64(seed) &+ 0x4EAD) { _, plan, now, rng in
      let head = AnimatorClockHead(plan)
      for t in Self.times(plan, after: now, &rng) {
        guard let (q, position) = head.progress(at: t) else {
          #expect(Self.moves(plan, at: t), "seed \(seed), t \(t): the head defers a held time")
          deferred += 1
          continue
        }
        #expect(!Self.moves(plan, at: t), "seed \(seed), t \(t): the head answers a moving time")
        let want = try #require(plan.progress(at: t))
        #expect(q.bitPattern == want.progress.bitPattern, "seed \(seed), t \(t): \(q) vs \(want)")
        #expect(position == want.completion, "seed \(seed), t \(t)")
        answered += 1
      }
    }
    #expect(answered + deferred > 0)
  }

  /// A linear animator of 1 s started at 0 after a delay of 0.25 s: held up to 0.25 s, moving
  /// (the plan's answer) until 1.25 s, at its end from then on.
  @Test func delayedAnimatorDefersToThePlanOnlyWhileItMoves() throws {
    var machine = AnimatorMachine(
      duration: 1, curve: .cubic(.linear), pausesOnCompletion: false, scrubsLinearly: false)
    _ = try machine.advanceAndApply(.startAfterDelay(time: 0, delay: 0.25))
    let plan = AnimatorClockPlan(machine)
    let head = AnimatorClockHead(plan)
    #expect(head.progress(at: 0.1)?.progress == 0)
    #expect(head.progress(at: 0.25)?.progress == 0)
    #expect(head.progress(at: 0.75) == nil)
    #expect(plan.progress(at: 0.75)?.progress == 0.5)
    let end = try #require(head.progress(at: 1.25))
    #expect(end.progress == 1 && end.completion == .end)
  }

  /// The size the evaluation's look-ahead and its documentation assume: 16 heads in 12 lines.
  @Test func headIsFortyEightBytes() {
    #expect(MemoryLayout<AnimatorClockHead>.stride == 48)
  }

  @Test func notAnimatedHeadHoldsProgressZeroForever() {
    let head = AnimatorClockHead.notAnimated
    for t in [-1e300, 0, 1, 1e300] {
      let answer = head.progress(at: t)
      #expect(answer?.progress == 0 && answer?.completion == nil)
    }
  }
}
