import PropertyBased
import Testing

@testable import Segue

/// Live control of ``SceneBatch`` instances: random call scripts on random instances of random
/// presets, each instance against its scalar reference (``PropertyAnimator`` with
/// ``TransitionScene/sample(at:animator:)``, ``InteractionTimeline`` with
/// ``TransitionScene/sample(at:interaction:)``, ``TransitionScene/sample(at:)``) after every
/// call; completions exactly once; rejected calls leave the batch exactly as it was.
@Suite struct SceneBatchControlTests {
  /// The scalar reference of one instance.
  enum Reference {
    case timed(start: Double, speed: Double)
    case animator(PropertyAnimator)
    case percent(InteractionTimeline, start: Double)

    func sample(_ scene: TransitionScene, at t: Double) throws -> TransitionSample {
      switch self {
      case .timed(let start, let speed): try scene.sample(at: max((t - start) * speed, 0))
      case .animator(let animator): try scene.sample(at: t, animator: animator)
      case .percent(let timeline, let start):
        try scene.sample(at: max(t - start, 0), interaction: timeline)
      }
    }

    /// The completion (position, time) by `t`, if it has fired.
    func completion(_ scene: TransitionScene, by t: Double) throws -> (AnimatingPosition, Double)? {
      switch self {
      case .timed(let start, let speed):
        let end = start + scene.duration / speed
        return end <= t ? (.end, end) : nil
      case .animator(let animator):
        let s = try animator.sample(at: t)
        guard let position = s.completion, let when = s.completionTime else { return nil }
        return (position, when)
      case .percent(let timeline, let start):
        let s = try timeline.state(at: max(t - start, 0))
        guard s.isCompleted, let when = s.completionTime else { return nil }
        return (s.isFinished == true ? .end : .start, when + start)
      }
    }
  }

  /// The first due slot at or after `k`: the scan eight slots per comparison finds what a slot
  /// by slot scan finds, for every start and length (tails included), due slots anywhere.
  @Test func firstCompletionMatchesASlotBySlotScan() {
    var rng = Xoshiro(seed: 7)
    for n in [0, 1, 7, 8, 9, 16, 17, 40] {
      for _ in 0..<20 {
        let pending = (0..<n).map { _ in
          rng.next() % 5 == 0 ? Double(rng.next() % 10) : .infinity
        }
        let time = Double(rng.next() % 10)
        for k in 0...n {
          let expected = pending.indices.first { $0 >= k && pending[$0] <= time }
          #expect(SceneInstanceGroup.firstCompletion(pending.span, from: k, by: time) == expected)
        }
      }
    }
  }

  /// The whole mutable state of a batch (what a rejected call must leave alone).
  static func snapshot(_ batch: SceneBatch) -> [SceneInstanceGroup] { batch.groups }

  static func equal(_ a: [SceneInstanceGroup], _ b: [SceneInstanceGroup]) -> Bool {
    a.count == b.count
      && zip(a, b).allSatisfy { x, y in
        x.ids == y.ids && x.kinds == y.kinds && x.start == y.start && x.speed == y.speed
          && x.clocks == y.clocks && x.interactions == y.interactions
          && x.animators == y.animators && x.lastCall == y.lastCall
          && x.pendingCompletion == y.pendingCompletion
      }
  }

  static func unit(_ rng: inout Xoshiro) -> Double { Double(rng.next() % 1_000_001) / 1_000_000 }

  static func curve(_ rng: inout Xoshiro) throws -> TimingCurveProvider {
    switch rng.next() % 4 {
    case 0: .linear
    case 1: .easeInEaseOut
    case 2: .spring(try SpringTimingParameters(dampingRatio: 0.6 + 0.4 * unit(&rng)))
    default:
      .spring(
        try SpringTimingParameters(
          dampingRatio: 0.8, initialVelocity: Vector2(dx: 4 * unit(&rng) - 1, dy: 0)))
    }
  }

  /// A random animator call at `t`.
  static func animatorEvent(_ rng: inout Xoshiro, at t: Double) throws -> AnimatorEvent {
    switch rng.next() % 12 {
    case 0, 1: .start(time: t)
    case 2: .startAfterDelay(time: t, delay: 0.2 * unit(&rng))
    case 3, 4: .pause(time: t)
    case 5: .stop(time: t, withoutFinishing: rng.next() % 3 == 0)
    case 6: .finish(time: t, position: [.start, .current, .end][Int(rng.next() % 3)])
    case 7: .setFractionComplete(time: t, fraction: 1.2 * unit(&rng) - 0.1)
    case 8: .setReversed(time: t, reversed: rng.next() % 2 == 0)
    case 9: .setPausesOnCompletion(time: t, value: rng.next() % 4 == 0)
    case 10: .setScrubsLinearly(time: t, value: rng.next() % 2 == 0)
    default:
      .continueAnimation(
        time: t, timing: rng.next() % 3 == 0 ? nil : try curve(&rng),
        durationFactor: 0.3 + 1.5 * unit(&rng))
    }
  }

  /// A random percent-driven call at `t`.
  static func interactionEvent(_ rng: inout Xoshiro, at t: Double) -> InteractionEvent {
    switch rng.next() % 8 {
    case 0...3: .update(time: t, percent: 1.2 * unit(&rng) - 0.1)
    case 4: .pause(time: t)
    case 5, 6: .finish(time: t)
    default: .cancel(time: t)
    }
  }

  /// Applies `call` to the reference and the batch: both accept it or both reject it, and a
  /// rejected call leaves the batch exactly as it was.
  static func both(
    _ batch: inout SceneBatch, _ id: Int, _ reference: inout Reference,
    scalar: (inout Reference) throws -> Void, batchCall: (inout SceneBatch) throws -> Void
  ) -> Bool {
    let before = snapshot(batch)
    var scalarError: (any Error)?
    do { try scalar(&reference) } catch { scalarError = error }
    do {
      try batchCall(&batch)
      #expect(scalarError == nil, "instance \(id): the batch accepted what the scalar rejected")
      return true
    } catch {
      #expect(scalarError != nil, "instance \(id): the batch rejected \(error)")
      #expect(equal(before, snapshot(batch)), "instance \(id): a rejected call changed the batch")
      return false
    }
  }

  @Test func randomCallScriptsMatchTheScalarReferences() async throws {
    let scenes = try SceneBatchTests.allPresetScenes()
    await propertyCheck(count: 10, input: Gen.int(in: 0...1_000_000)) { seed in
      do {
        try Self.runScript(scenes: scenes, seed: UInt64(seed))
      } catch {
        #expect(Bool(false), "\(error)")
      }
    }
  }

  /// What a script did: calls accepted and rejected, completions delivered.
  struct ScriptStats {
    var accepted = 0
    var rejected = 0
    var completions = 0
  }

  /// Over twenty fixed seeds the scripts accept and reject calls and deliver completions (so the
  /// random test above exercises all three).
  @Test func scriptsExerciseCallsRejectionsAndCompletions() throws {
    let scenes = try SceneBatchTests.allPresetScenes()
    var total = ScriptStats()
    for seed in 1...20 {
      let stats = try Self.runScript(scenes: scenes, seed: UInt64(seed))
      total.accepted += stats.accepted
      total.rejected += stats.rejected
      total.completions += stats.completions
    }
    #expect(total.accepted > 200)
    #expect(total.rejected > 20)
    #expect(total.completions > 10)
  }

  @discardableResult
  static func runScript(scenes: [TransitionScene], seed: UInt64) throws -> ScriptStats {
    var stats = ScriptStats()
    var rng = Xoshiro(seed: seed)
    var batch = SceneBatch()
    var references: [Reference] = []
    var used: [TransitionScene] = []
    for _ in 0..<6 {
      let scene = scenes[Int(rng.next() % UInt64(scenes.count))]
      switch rng.next() % 3 {
      case 0:
        let timing = try curve(&rng)
        let pauses = rng.next() % 4 == 0
        let scrubs = rng.next() % 2 == 0
        try batch.add(
          .init(
            scene: scene,
            clock: .animator(
              timingParameters: timing, pausesOnCompletion: pauses, scrubsLinearly: scrubs)))
        references.append(
          .animator(
            try PropertyAnimator(
              duration: scene.duration, timingParameters: timing, pausesOnCompletion: pauses,
              scrubsLinearly: scrubs)))
      case 1:
        let start = -0.2 * unit(&rng)
        let k = 0.5 + 2 * unit(&rng)
        let interactiveStart = rng.next() % 3 != 0
        try batch.add(
          .init(
            scene: scene,
            clock: .percentDriven(
              start: start, completionSpeed: k, completionCurve: .easeOut,
              wantsInteractiveStart: interactiveStart)))
        references.append(
          .percent(
            try InteractionTimeline(
              duration: scene.duration, completionSpeed: k, completionCurve: .easeOut,
              wantsInteractiveStart: interactiveStart), start: start))
      default:
        let start = 0.3 * unit(&rng)
        try batch.add(.init(scene: scene, clock: .timed(start: start, speed: 1)))
        references.append(.timed(start: start, speed: 1))
      }
      used.append(scene)
    }
    var t = 0.0
    var reported: [Int: (AnimatingPosition, Double)] = [:]
    var buffer = [SceneCompletionEvent](
      repeating: SceneCompletionEvent(instance: -1, position: .end, time: 0), count: 8)
    for _ in 0..<30 {
      t += 0.12 * unit(&rng)
      let id = Int(rng.next() % UInt64(references.count))
      var accepted = false
      switch references[id] {
      case .animator:
        let event = try animatorEvent(&rng, at: t)
        accepted = both(
          &batch, id, &references[id],
          scalar: { r in
            guard case .animator(var a) = r else { return }
            try a.apply(event)
            r = .animator(a)
          }, batchCall: { try $0.apply(event, to: id) })
      case .percent(_, let start):
        let event = interactionEvent(&rng, at: t)
        accepted = both(
          &batch, id, &references[id],
          scalar: { r in
            guard case .percent(var timeline, _) = r else { return }
            try timeline.append(event.shifted(by: -start))
            r = .percent(timeline, start: start)
          }, batchCall: { try $0.apply(event, to: id) })
      case .timed:
        let speed = 0.5 + unit(&rng)
        accepted = both(
          &batch, id, &references[id],
          scalar: { r in r = .timed(start: t, speed: speed) },
          batchCall: { try $0.setClock(.timed(start: t, speed: speed), of: id, at: t) })
        reported[id] = nil  // a new clock: its own completion
      }
      if accepted { stats.accepted += 1 } else { stats.rejected += 1 }
      // Evaluate a little after the call and compare every instance.
      let at = t + 0.05 * unit(&rng)
      let output = try SceneBatchTests.evaluate(batch, at: [at])
      let samples = try references.indices.map { try references[$0].sample(used[$0], at: at) }
      SceneBatchTests.compare(batch, frame: 0, output: output, samples: samples)
      for (k, r) in references.enumerated() {
        let time = try batch.time(of: k, at: at)
        #expect((time.completion != nil) == samples[k].isCompleted, "instance \(k)")
        if case .timed = r { continue }
        if !samples[k].isCompleted {
          #expect(abs(time.time - samples[k].progress * used[k].duration) < 1e-9, "instance \(k)")
        }
      }
      // Completions: exactly once, with the reference's position and time.
      let n = try buffer.withUnsafeMutableBufferPointer {
        try batch.advance(to: at, completions: $0)
      }
      for event in buffer[..<n] {
        #expect(reported[event.instance] == nil, "instance \(event.instance) completed twice")
        let expected = try references[event.instance].completion(used[event.instance], by: at)
        #expect(expected?.0 == event.position, "instance \(event.instance)")
        #expect(abs((expected?.1 ?? .nan) - event.time) < 1e-9, "instance \(event.instance)")
        reported[event.instance] = (event.position, event.time)
        stats.completions += 1
      }
      for (k, r) in references.enumerated() where reported[k] == nil {
        #expect(try r.completion(used[k], by: at) == nil, "instance \(k) completion not reported")
      }
      t = at
    }
    return stats
  }

  /// One instance of each live kind and a timed one.
  static func liveBatch() throws -> SceneBatch {
    let scene = try SceneBatchTests.presetScene(.system, .push)
    return try SceneBatch([
      .init(scene: scene, clock: .animator(timingParameters: .easeInEaseOut)),
      .init(scene: scene, clock: .percentDriven(start: 0)),
      .init(scene: scene, clock: .timed(start: 0, speed: 1)),
    ])
  }

  /// Every bad call of the issue is a typed error that leaves the whole batch as it was.
  @Test func rejectedCallsLeaveTheBatchUnchanged() throws {
    var batch = try Self.liveBatch()
    try batch.apply(AnimatorEvent.start(time: 0.1), to: 0)
    try batch.apply(InteractionEvent.update(time: 0.1, percent: 0.4), to: 1)
    try batch.remove(2)
    let before = Self.snapshot(batch)
    func rejects(_ field: String, _ call: (inout SceneBatch) throws -> Void) {
      var copy = batch
      do {
        try call(&copy)
        #expect(Bool(false), "accepted a bad call on \(field)")
      } catch let error as ValidationError {
        #expect(error.field == field, "\(error)")
      } catch {
        #expect(Bool(false), "\(error)")
      }
      #expect(Self.equal(before, Self.snapshot(copy)), "\(field): the batch changed")
    }
    // A removed id, an id never added.
    rejects("instance") { try $0.apply(AnimatorEvent.pause(time: 0.2), to: 2) }
    rejects("instance") { try $0.apply(AnimatorEvent.pause(time: 0.2), to: 99) }
    rejects("instance") { try $0.setClock(.position(0.5), of: 2, at: 0.2) }
    // NaN and infinite times.
    rejects("time") { try $0.apply(AnimatorEvent.pause(time: .nan), to: 0) }
    rejects("time") { try $0.apply(InteractionEvent.update(time: .infinity, percent: 0.5), to: 1) }
    rejects("time") { try $0.setClock(.position(0.5), of: 0, at: -.infinity) }
    // A time before the instance's latest call.
    rejects("time") { try $0.apply(AnimatorEvent.pause(time: 0.05), to: 0) }
    rejects("time") { try $0.apply(InteractionEvent.finish(time: 0.05), to: 1) }
    // A fraction outside [0, 1] (paused first, so only the fraction is wrong).
    var paused = batch
    try paused.apply(AnimatorEvent.pause(time: 0.2), to: 0)
    let pausedState = Self.snapshot(paused)
    for bad in [-0.01, 1.01, Double.nan] {
      var copy = paused
      #expect(throws: ValidationError.self) {
        try copy.apply(AnimatorEvent.setFractionComplete(time: 0.3, fraction: bad), to: 0)
      }
      #expect(Self.equal(pausedState, Self.snapshot(copy)))
    }
    // continueAnimation where UIKit rejects it: on a running animator.
    rejects("animator") {
      try $0.apply(
        AnimatorEvent.continueAnimation(time: 0.2, timing: nil, durationFactor: 1), to: 0)
    }
    // The wrong kind of call for the instance.
    rejects("instance") { try $0.apply(InteractionEvent.pause(time: 0.2), to: 0) }
    rejects("instance") { try $0.apply(AnimatorEvent.pause(time: 0.2), to: 1) }
    // A second finish of a percent-driven instance.
    var finished = batch
    try finished.apply(InteractionEvent.finish(time: 0.2), to: 1)
    let finishedState = Self.snapshot(finished)
    #expect(throws: ValidationError.self) {
      try finished.apply(InteractionEvent.cancel(time: 0.3), to: 1)
    }
    #expect(Self.equal(finishedState, Self.snapshot(finished)))
  }

  /// A delivered completion counts as its instance's latest call: a call before its time is
  /// rejected and changes nothing (it would change what was reported); a clock set from its
  /// time on runs and completes again.
  @Test func aDeliveredCompletionIsTheLatestCall() throws {
    let scene = try SceneBatchTests.presetScene(.system, .push)
    let d = scene.duration
    var batch = try SceneBatch([
      .init(scene: scene, clock: .animator(timingParameters: .easeInEaseOut))
    ])
    try batch.apply(AnimatorEvent.start(time: 0), to: 0)
    var buffer = [SceneCompletionEvent](
      repeating: SceneCompletionEvent(instance: -1, position: .start, time: 0), count: 2)
    func advance(to t: Double) throws -> [SceneCompletionEvent] {
      let n = try buffer.withUnsafeMutableBufferPointer {
        try batch.advance(to: t, completions: $0)
      }
      return Array(buffer[..<n])
    }
    #expect(try advance(to: 10) == [SceneCompletionEvent(instance: 0, position: .end, time: d)])
    let before = Self.snapshot(batch)
    #expect(throws: ValidationError(field: "time", reason: .decreasing)) {
      try batch.apply(AnimatorEvent.pause(time: d / 2), to: 0)
    }
    #expect(Self.equal(before, Self.snapshot(batch)))
    // From its time on, calls pass the time check (a completed animator refuses a start itself)…
    #expect {
      try batch.apply(AnimatorEvent.start(time: d), to: 0)
    } throws: { ($0 as? ValidationError)?.field == "animator" }
    #expect(Self.equal(before, Self.snapshot(batch)))
    // …and a new clock there runs and completes again.
    try batch.setClock(.animator(timingParameters: .easeInEaseOut), of: 0, at: d)
    try batch.apply(AnimatorEvent.start(time: d), to: 0)
    #expect(try advance(to: 10) == [SceneCompletionEvent(instance: 0, position: .end, time: 2 * d)])
  }

  /// A completion is delivered exactly once, whatever the buffer size (a full buffer leaves the
  /// rest for the next call), with the time it fired.
  @Test func completionsAreDeliveredOnceThroughASmallBuffer() throws {
    let scene = try SceneBatchTests.presetScene(.system, .push)
    var batch = SceneBatch()
    for k in 0..<5 {
      try batch.add(.init(scene: scene, clock: .animator(timingParameters: .linear)))
      try batch.apply(AnimatorEvent.start(time: 0.01 * Double(k)), to: k)
    }
    var buffer = [SceneCompletionEvent](
      repeating: SceneCompletionEvent(instance: -1, position: .start, time: 0), count: 2)
    var seen: [Int: Double] = [:]
    for t in [scene.duration * 0.5, scene.duration + 1, scene.duration + 2, scene.duration + 3] {
      let n = try buffer.withUnsafeMutableBufferPointer {
        try batch.advance(to: t, completions: $0)
      }
      for event in buffer[..<n] {
        #expect(seen[event.instance] == nil)
        #expect(event.position == .end)
        seen[event.instance] = event.time
      }
    }
    #expect(seen.count == 5)
    for (id, time) in seen { #expect(abs(time - (scene.duration + 0.01 * Double(id))) < 1e-12) }
  }

  /// `setClock` replaces a running timed clock in place: same id and rows, the new clock's scene.
  @Test func replacingAClockKeepsTheIdAndRows() throws {
    var batch = try Self.liveBatch()
    let row = batch.layerIndex(instance: 2, layerID: "to")
    try batch.setClock(.timed(start: 0.2, speed: 2), of: 2, at: 0.2)
    #expect(batch.layerIndex(instance: 2, layerID: "to") == row)
    let time = try batch.time(of: 2, at: 0.3)
    #expect(abs(time.time - 0.2) < 1e-12 && time.rate == 2 && time.completion == nil)
  }

  /// Instances added or reset on an animator clock equal to an earlier one share its initial
  /// state but none of its calls: each reads as the same instance alone in a new batch, for the
  /// same calls, whether its clock equals the previous one or not.
  @Test func equalAnimatorClocksStartFromTheSameInitialState() throws {
    let scene = try SceneBatchTests.presetScene(.system, .push)
    let cubic = SceneClock.animator(timingParameters: .easeInEaseOut)
    let spring = SceneClock.animator(
      timingParameters: .spring(try SpringTimingParameters(dampingRatio: 0.7)))
    var batch = SceneBatch()
    /// Instance `id` against the same clock and calls alone in a new batch.
    func expectAlone(_ id: Int, clock: SceneClock, calls: [AnimatorEvent], at t: Double) throws {
      var alone = SceneBatch()
      let only = try alone.add(.init(scene: scene, clock: clock))
      for call in calls { try alone.apply(call, to: only) }
      #expect(try batch.time(of: id, at: t) == alone.time(of: only, at: t))
    }
    let first = try batch.add(.init(scene: scene, clock: cubic))
    let started: [AnimatorEvent] = [.start(time: 0.05), .pause(time: 0.1)]
    for call in started { try batch.apply(call, to: first) }
    let second = try batch.add(.init(scene: scene, clock: cubic))
    try expectAlone(second, clock: cubic, calls: [], at: 0.2)
    try batch.apply(AnimatorEvent.start(time: 0.15), to: second)
    try expectAlone(second, clock: cubic, calls: [.start(time: 0.15)], at: 0.2)
    let third = try batch.add(.init(scene: scene, clock: spring))
    try batch.apply(AnimatorEvent.start(time: 0.1), to: third)
    try expectAlone(third, clock: spring, calls: [.start(time: 0.1)], at: 0.25)
    try expectAlone(first, clock: cubic, calls: started, at: 0.3)
    try batch.setClock(cubic, of: first, at: 0.3)
    try expectAlone(first, clock: cubic, calls: [], at: 0.35)
    // Other clock kinds in between: the next animator clock still starts from its own state.
    let timed = try batch.add(.init(scene: scene, clock: .timed(start: 0.1, speed: 1)))
    let percent = try batch.add(.init(scene: scene, clock: .percentDriven(start: 0)))
    let fourth = try batch.add(.init(scene: scene, clock: spring))
    try expectAlone(fourth, clock: spring, calls: [], at: 0.4)
    try expectAlone(timed, clock: .timed(start: 0.1, speed: 1), calls: [], at: 0.4)
    try batch.setClock(cubic, of: percent, at: 0.4)
    try expectAlone(percent, clock: cubic, calls: [], at: 0.45)
  }

  /// A removal moves the group's last instance into the freed slot with all its state: every
  /// remaining instance keeps its time, whichever clock kinds the removed and the moved
  /// instances have (percent-driven into animator, animator into percent-driven, animator into
  /// animator, the last one itself).
  @Test func removalKeepsEveryOtherInstance() throws {
    let scene = try SceneBatchTests.presetScene(.system, .push)
    let kinds: [SceneClock] = [
      .animator(timingParameters: .easeInEaseOut), .percentDriven(start: 0),
      .animator(timingParameters: .easeInEaseOut), .percentDriven(start: 0),
      .animator(timingParameters: .easeInEaseOut), .percentDriven(start: 0),
      .animator(timingParameters: .easeInEaseOut),
    ]
    var batch = try SceneBatch(kinds.map { .init(scene: scene, clock: $0) })
    for (id, clock) in kinds.enumerated() {
      if case .percentDriven = clock {
        try batch.apply(InteractionEvent.update(time: 0.1, percent: 0.1 * Double(id + 1)), to: id)
      } else {
        try batch.apply(AnimatorEvent.start(time: 0.05 * Double(id)), to: id)
      }
    }
    var remaining = batch.instanceIDs
    let before = try Dictionary(
      uniqueKeysWithValues: remaining.map {
        ($0, try batch.time(of: $0, at: 0.2))
      })
    for id in [2, 6, 1, 0, 5] {
      batch.prefetch(removing: [id])
      try batch.remove(id)
      remaining.removeAll { $0 == id }
      #expect(batch.instanceIDs == remaining)
      for other in remaining { #expect(try batch.time(of: other, at: 0.2) == before[other]) }
    }
  }

  /// Fifty animator-driven instances of one template and a few timed ones between them: the
  /// evaluation loads each lane group's plans and rows one lane group ahead, which must change
  /// nothing. Every instance matches its scalar reference, and the output is bitwise the same on
  /// one thread, on two, and in chunks of one lane group.
  @Test func manyAnimatorDrivenLaneGroupsMatchTheScalarReferences() throws {
    let scene = try SceneBatchTests.presetScene(.system, .push)
    var batch = SceneBatch()
    var references: [Reference] = []
    for k in 0..<53 {
      if k % 17 == 5 {
        try batch.add(.init(scene: scene, clock: .timed(start: 0.01 * Double(k), speed: 1)))
        references.append(.timed(start: 0.01 * Double(k), speed: 1))
        continue
      }
      try batch.add(.init(scene: scene, clock: .animator(timingParameters: .easeInEaseOut)))
      var animator = try PropertyAnimator(
        duration: scene.duration, timingParameters: .easeInEaseOut)
      // Running from staggered times; every fourth paused at its own fraction.
      let events: [AnimatorEvent] =
        k % 4 == 0
        ? [.pause(time: 0), .setFractionComplete(time: 0, fraction: Double(k) / 60)]
        : [.start(time: 0.005 * Double(k))]
      for event in events {
        try animator.apply(event)
        try batch.apply(event, to: k)
      }
      references.append(.animator(animator))
    }
    let at = 0.2
    let output = try SceneBatchTests.evaluate(batch, at: [at])
    let samples = try references.map { try $0.sample(scene, at: at) }
    SceneBatchTests.compare(batch, frame: 0, output: output, samples: samples)
    let twoThreads = try SceneBatchTests.evaluate(batch, at: [at], threads: 2)
    let smallChunks = try SceneBatchTests.evaluate(batch, at: [at], threads: 2, chunkSize: 1)
    for other in [twoThreads, smallChunks] {
      #expect(other.matrices.map(\.bitPattern) == output.matrices.map(\.bitPattern))
      #expect(other.opacities.map(\.bitPattern) == output.opacities.map(\.bitPattern))
    }
  }

  /// `prefetch` (for calls and for removals) is a hint: ids that name no instance (negative,
  /// never added, removed) are skipped, and every instance's time is the same afterwards, for
  /// arrays, slices of them (a block of a frame's calls) and collections without contiguous
  /// storage.
  @Test func prefetchChangesNothing() throws {
    var batch = try Self.liveBatch()
    try batch.remove(1)
    let ids = batch.instanceIDs
    let before = try ids.map { try batch.time(of: $0, at: 0.4) }
    let mixed = ids + [-1, 1, 1_000_000, Int.max, Int.min]
    batch.prefetch(mixed)
    batch.prefetch([])
    batch.prefetch(mixed.dropFirst(2).prefix(4))
    batch.prefetch(-3..<(ids.count + 3))
    batch.prefetch(removing: mixed)
    batch.prefetch(removing: [])
    batch.prefetch(removing: mixed.suffix(4))
    batch.prefetch(removing: Set(mixed))
    let after = try ids.map { try batch.time(of: $0, at: 0.4) }
    #expect(before == after)
  }
}
