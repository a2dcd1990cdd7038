import PropertyBased
import Testing

@testable import Segue

/// ``SceneBatch/velocity(of:at:)`` and ``SceneBatchOutput/Layer/velocity``: random presets on
/// timed, animator-driven and percent-driven clocks, driven by random calls and retargets, against
/// central differences of each instance's scalar reference (``TransitionScene/sample(at:)``,
/// ``TransitionScene/sample(at:animator:)``, ``TransitionScene/sample(at:interaction:)`` of the
/// scene retargeted by the same calls), with the step and tolerance of
/// ``TransitionVelocityTests`` (the time scale divided by the instance's `|dτ/dt|` when it runs
/// faster than its scene).
@Suite struct SceneBatchVelocityTests {
  static let h = TransitionVelocityTests.h

  /// Whether instance `id` of `batch` is differentiable at wall time `t`: running (no completion)
  /// at `t ± 4h`, and its scene time between those crossing none of `scene`'s breakpoints.
  static func isSmooth(_ batch: SceneBatch, _ id: Int, _ scene: TransitionScene, at t: Double)
    throws -> Bool
  {
    let a = try batch.time(of: id, at: t - 4 * h)
    let b = try batch.time(of: id, at: t + 4 * h)
    guard a.completion == nil, b.completion == nil else { return false }
    let (lo, hi) = (min(a.time, b.time) - 1e-9, max(a.time, b.time) + 1e-9)
    return TransitionVelocityTests.breakpoints(scene).allSatisfy { $0 < lo || $0 > hi }
      && lo > 0 && hi < scene.duration
  }

  /// Random instances of random presets (timed at random speeds, animator-driven with random
  /// curves, percent-driven), random calls and retargets; after each step every instance that
  /// moves smoothly there matches its reference, and the output's rows carry the same velocities.
  @Test func randomScriptsMatchCentralDifferences() async throws {
    let scenes = try SceneBatchTests.allPresetScenes()
    await propertyCheck(count: 6, input: Gen.int(in: 0...1_000_000)) { seed in
      do {
        try Self.runScript(scenes: scenes, seed: UInt64(seed))
      } catch {
        #expect(Bool(false), "\(error)")
      }
    }
  }

  /// Over ten fixed seeds the scripts compare moving instances of every clock kind, retargeted
  /// ones among them (so the random test above checks all of them).
  @Test func scriptsCompareEveryKindOfMovingInstance() throws {
    let scenes = try SceneBatchTests.allPresetScenes()
    var total = ScriptStats()
    for seed in 1...10 {
      let stats = try Self.runScript(scenes: scenes, seed: UInt64(seed))
      total.timed += stats.timed
      total.animator += stats.animator
      total.percent += stats.percent
      total.retargeted += stats.retargeted
    }
    #expect(total.timed > 10 && total.animator > 10 && total.percent > 3 && total.retargeted > 5)
  }

  /// How many smooth, moving instances a script compared, per kind.
  struct ScriptStats {
    var timed = 0
    var animator = 0
    var percent = 0
    var retargeted = 0
  }

  @discardableResult
  static func runScript(scenes: [TransitionScene], seed: UInt64) throws -> ScriptStats {
    var rng = Xoshiro(seed: seed)
    var batch = SceneBatch()
    var references: [SceneBatchControlTests.Reference] = []
    var retargeted: [TransitionScene] = []
    var stats = ScriptStats()
    var wasRetargeted = [Bool](repeating: false, count: 6)
    for _ in 0..<6 {
      let scene = scenes[Int(rng.next() % UInt64(scenes.count))]
      switch rng.next() % 3 {
      case 0:
        let speed = 0.5 + 1.5 * SceneBatchControlTests.unit(&rng)
        try batch.add(.init(scene: scene, clock: .timed(start: 0, speed: speed)))
        references.append(.timed(start: 0, speed: speed))
      case 1:
        let timing = try SceneBatchControlTests.curve(&rng)
        let id = try batch.add(.init(scene: scene, clock: .animator(timingParameters: timing)))
        var animator = try PropertyAnimator(duration: scene.duration, timingParameters: timing)
        try animator.startAnimation(at: 0)
        try batch.apply(AnimatorEvent.start(time: 0), to: id)
        references.append(.animator(animator))
      default:
        let k = 0.5 + 2 * SceneBatchControlTests.unit(&rng)
        try batch.add(
          .init(scene: scene, clock: .percentDriven(start: 0, completionSpeed: k)))
        references.append(
          .percent(
            try InteractionTimeline(duration: scene.duration, completionSpeed: k), start: 0))
      }
      retargeted.append(scene)
    }
    var t = 0.0
    var output = SceneBatchOutput(includesVelocities: true)
    let context = try SceneBatchContext(batch: batch)
    for _ in 0..<10 {
      t += 0.01 + 0.06 * SceneBatchControlTests.unit(&rng)
      let k = Int(rng.next() % 6)
      switch references[k] {
      case .animator(var animator) where rng.next() % 2 == 0:
        let event = try Self.animatorCall(&rng, at: t)
        let batchOK = (try? batch.apply(event, to: k)) != nil
        #expect(batchOK == ((try? animator.apply(event)) != nil))
        references[k] = .animator(animator)
      case .percent(var timeline, let start):
        let event: InteractionEvent =
          rng.next() % 3 == 0
          ? .finish(time: t) : .update(time: t, percent: SceneBatchControlTests.unit(&rng))
        let batchOK = (try? batch.apply(event, to: k)) != nil
        #expect(batchOK == ((try? timeline.append(event.shifted(by: -start))) != nil))
        references[k] = .percent(timeline, start: start)
      default:
        if try SceneBatchRetargetTests.retarget(&batch, k, &retargeted[k], at: t, &rng) {
          wasRetargeted[k] = true
        }
      }
      // A little after the calls: every smoothly moving instance against its reference.
      let at = t + 0.02 * SceneBatchControlTests.unit(&rng) + 8 * h
      try batch.evaluate(at: at, context: context, into: &output)
      for id in references.indices {
        let velocity = try batch.velocity(of: id, at: at)
        for v in velocity {
          #expect(output[instance: id]?[v.id]?.velocity == v, "instance \(id) layer \(v.id)")
        }
        let now = try batch.time(of: id, at: at)
        guard now.rate != 0, try isSmooth(batch, id, retargeted[id], at: at) else { continue }
        let (reference, scene) = (references[id], retargeted[id])
        // The scene's time scale, shorter by the clock's rate when it runs faster than 1.
        try TransitionVelocityTests.expectMatchesCentralDifference(
          velocity, at: at, timeScale: 0.2 / max(1, abs(now.rate))
        ) { try reference.sample(scene, at: $0) }
        switch reference {
        case .timed: stats.timed += 1
        case .animator: stats.animator += 1
        case .percent: stats.percent += 1
        }
        if wasRetargeted[id] { stats.retargeted += 1 }
      }
      t = at
    }
    return stats
  }

  /// A random animator call at `t` that keeps the motion differentiable after it (no delay, no
  /// pause on completion): start, pause, a fraction, reverse, or continue with a cubic or a
  /// spring.
  static func animatorCall(_ rng: inout Xoshiro, at t: Double) throws -> AnimatorEvent {
    switch rng.next() % 6 {
    case 0: .start(time: t)
    case 1: .pause(time: t)
    case 2: .setFractionComplete(time: t, fraction: SceneBatchControlTests.unit(&rng))
    case 3: .setReversed(time: t, reversed: rng.next() % 2 == 0)
    default:
      .continueAnimation(
        time: t, timing: try SceneBatchControlTests.curve(&rng),
        durationFactor: 0.5 + SceneBatchControlTests.unit(&rng))
    }
  }

  /// Held and completed instances do not move: every velocity is 0, for the layers they present.
  @Test func heldAndCompletedInstancesDoNotMove() throws {
    let scene = try SceneBatchTests.presetScene(.system, .push)
    var batch = try SceneBatch([
      .init(scene: scene, clock: .position(0.3 * scene.duration)),
      .init(scene: scene, clock: .timed(start: 0, speed: 1)),
      .init(scene: scene, clock: .animator(timingParameters: .easeInEaseOut)),
    ])
    try batch.apply(AnimatorEvent.start(time: 0), to: 2)
    try batch.apply(AnimatorEvent.pause(time: 0.1), to: 2)
    let late = 2 * scene.duration
    for (id, t) in [(0, 0.2), (1, late), (2, 0.2)] {
      let velocity = try batch.velocity(of: id, at: t)
      #expect(!velocity.isEmpty)
      #expect(velocity.allSatisfy { $0.matrix == .zero && $0.opacity == 0 }, "instance \(id)")
    }
    // A running timed instance moves, at its clock's speed: twice as fast at speed 2.
    try batch.setClock(.timed(start: 0, speed: 2), of: 1, at: 0)
    let fast = try batch.velocity(of: 1, at: 0.1)
    let slow = try scene.velocity(at: 0.2)
    #expect(fast.map(\.id) == slow.map(\.id))
    for (a, b) in zip(fast, slow) {
      #expect(a.matrix == b.matrix.multiplied(by: 2) && a.opacity == 2 * b.opacity)
    }
  }

  /// Without `includesVelocities` the output carries none; with it, a layer the instance does
  /// not present has no row to read and the others have theirs.
  @Test func outputCarriesVelocitiesOnlyWhenAsked() throws {
    let scene = try SceneBatchTests.presetScene(.crossDissolve, .push)
    let batch = try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    let context = try SceneBatchContext(batch: batch)
    var plain = SceneBatchOutput()
    try batch.evaluate(at: 0.1, context: context, into: &plain)
    #expect(plain[instance: 0]!.layers.allSatisfy { $0.velocity == nil })
    var moving = SceneBatchOutput(for: batch, includesVelocities: true)
    try batch.evaluate(at: 0.1, context: context, into: &moving)
    let expected = try batch.velocity(of: 0, at: 0.1)
    #expect(moving[instance: 0]!.layers.map { $0.velocity! } == expected)
    #expect(expected.contains { $0.opacity != 0 })
  }

  /// A removed or unknown id, and a time that is not finite, are typed errors.
  @Test func rejectsUnknownInstancesAndTimesThatAreNotFinite() throws {
    let scene = try SceneBatchTests.presetScene(.system, .push)
    var batch = try SceneBatch([
      .init(scene: scene, clock: .timed(start: 0, speed: 1)),
      .init(scene: scene, clock: .timed(start: 0, speed: 1)),
    ])
    try batch.remove(1)
    for id in [1, 2, -1] {
      #expect(throws: ValidationError(field: "instance", reason: .unknown("\(id)"))) {
        try batch.velocity(of: id, at: 0.1)
      }
    }
    for t in [Double.nan, .infinity, -.infinity] {
      #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
        try batch.velocity(of: 0, at: t)
      }
    }
  }
}
