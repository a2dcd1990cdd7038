import Testing

@testable import Segue

/// ``AnimatorClockPlan`` against the machine it is made from: after every accepted call of a
/// random script, the plan's progress and completion at later wall times are the bits that
/// ``AnimatorMachine/advance(to:)`` and ``AnimatorMachine/progress(atFraction:)`` give on a copy,
/// also when the plan keeps the previous plan's curve because the call left the knot as it was.
@Suite struct AnimatorClockPlanTests {
  static func unit(_ rng: inout Xoshiro) -> Double { SceneBatchControlTests.unit(&rng) }

  /// Every curve form the plan stores, and one it leaves to the machine (`linear(…)`).
  static func curve(_ rng: inout Xoshiro) throws -> TimingCurveProvider {
    switch rng.next() % 6 {
    case 0:
      return .cubic(
        .cubicBezier(
          try CubicBezier(x1: unit(&rng), y1: 2 * unit(&rng) - 0.5, x2: unit(&rng), y2: unit(&rng)))
      )
    case 1: return .cubic(.steps(try StepsEasing(steps: 1 + Int(rng.next() % 5))))
    case 2: return .cubic(.linearPoints(try LinearEasing(outputs: [0, 0.7, 1])))
    case 3:
      return .springAnimation(
        try DampedSpring(mass: 1, stiffness: 100 + 200 * unit(&rng), damping: 10 + 10 * unit(&rng)))
    default: return try SceneBatchControlTests.curve(&rng)
    }
  }

  /// The machine's answer at `t`.
  static func reference(_ machine: AnimatorMachine, at t: Double) -> (Double, AnimatingPosition?) {
    var copy = machine
    copy.advance(to: t)
    return (copy.progress(atFraction: copy.fraction), copy.completionPosition)
  }

  /// Wall times after a call at `now`: the plan's edges, just before them, and random ones.
  static func times(_ plan: AnimatorClockPlan, after now: Double, _ rng: inout Xoshiro) -> [Double]
  {
    let edges = [now, plan.from, plan.end, plan.heldUntil]
      .filter { $0.isFinite && $0 >= now }
    return edges + edges.map(\.nextDown).filter { $0 >= now } + edges.map(\.nextUp)
      + (0..<6).map { _ in now + 1.5 * unit(&rng) }
  }

  /// A random animator and 40 random calls on it, from `seed`: after each accepted call (at
  /// wall time `now`), `body` gets the machine and its plan, updated as the batch updates them (a
  /// call that leaves the knot as it was keeps the plan's curve).
  static func script(
    seed: UInt64, _ body: (AnimatorMachine, AnimatorClockPlan, Double, inout Xoshiro) throws -> Void
  ) throws {
    var rng = Xoshiro(seed: seed)
    var machine = AnimatorMachine(
      duration: 0.3 + unit(&rng), curve: try curve(&rng), pausesOnCompletion: rng.next() % 3 == 0,
      scrubsLinearly: rng.next() % 2 == 0)
    var now = 0.0
    var plan = AnimatorClockPlan(machine)
    for _ in 0..<40 {
      now += 0.12 * unit(&rng)
      var next = machine
      next.advance(to: now)
      let event = try SceneBatchControlTests.animatorEvent(&rng, at: now)
      let replaced: AnimatorKnot?
      do { replaced = try next.apply(event) } catch { continue }
      if replaced == nil { #expect(next.knot == machine.knot) }
      machine = next
      plan.update(from: machine, keepsCurve: replaced == nil)
      try body(machine, plan, now, &rng)
    }
  }

  @Test(arguments: 0..<24)
  func planGivesTheMachinesBitsAfterEveryCall(seed: Int) throws {
    var compared = 0
    var fromMachine = 0
    try Self.script(seed: UInt64(seed) &+ 0x9E37) { machine, plan, now, rng in
      for t in Self.times(plan, after: now, &rng) {
        let (q, position) = Self.reference(machine, at: t)
        guard let (planQ, planPosition) = plan.progress(at: t) else {
          guard case .machine = plan.curve else {
            Issue.record("seed \(seed): no progress at \(t) from a stored curve")
            return
          }
          fromMachine += 1
          continue
        }
        #expect(planQ.bitPattern == q.bitPattern, "seed \(seed), t \(t): \(planQ) vs \(q)")
        #expect(planPosition == position, "seed \(seed), t \(t)")
        compared += 1
      }
    }
    #expect(compared > 0 || fromMachine > 0)
  }

  /// The plans of instances that are not animator-driven, and a fresh animator's: held at 0.
  @Test func newAndNotAnimatedPlansHoldProgressZero() throws {
    let plan = AnimatorClockPlan.notAnimated
    #expect(plan.progress(at: 5)?.progress == 0)
    #expect(plan.progress(at: 5)?.completion == nil)
    let fresh = AnimatorClockPlan(
      AnimatorMachine(
        duration: 0.5, curve: .easeInEaseOut, pausesOnCompletion: false, scrubsLinearly: false))
    #expect(fresh.moves == false)
    #expect(fresh.progress(at: 1)?.progress == 0)
  }

  /// A running ease-in-ease-out animator of 1 s started at 0: at 0.5 s the fraction is 0.5 and
  /// the curve (symmetric about its centre) gives exactly 0.5; from 1 s on it is finished.
  @Test func runningAnimatorFollowsItsCurveAndFinishes() throws {
    var machine = AnimatorMachine(
      duration: 1, curve: .easeInEaseOut, pausesOnCompletion: false, scrubsLinearly: false)
    try machine.apply(.start(time: 0))
    let plan = AnimatorClockPlan(machine)
    let half = try #require(plan.progress(at: 0.5))
    #expect(abs(half.progress - 0.5) < 1e-12)
    #expect(half.completion == nil)
    #expect(plan.progress(at: 1)?.progress == 1)
    #expect(plan.progress(at: 1)?.completion == .end)
  }
}
