// The live batch oracle: any bytes are a script of control calls on a small SceneBatch of two
// presets (additions of every live clock kind, removals, animator and percent-driven calls,
// replaced clocks, completion speeds, retargets, completions, evaluations with and without
// velocities), with times and values that include NaN, infinities, times that go backwards and
// fractions outside [0, 1]. After each call the oracle reads every instance's clock and
// evaluates the batch a little later. What must hold:
// - a call that throws leaves the batch as it was: the same instances, the same times, rates and
//   completion states at a later time, and the same evaluated matrices and opacities there;
// - every time, rate, matrix, opacity and velocity the batch reports is finite;
// - a completion names a live instance, at a finite time not after the time asked for, once
//   (a second one needs an accepted call between, as an animator started again);
// - no call is accepted at a time before a completion of its instance already delivered.

import Segue

extension FuzzOracles {
  /// Calls at most this many per input.
  public static let liveBatchCalls = 48
  /// Instances at most in the batch.
  public static let liveBatchInstances = 8

  /// Live batch: runs the bytes as a control script (see the file's header).
  public static func liveBatch(_ bytes: [UInt8]) -> String? {
    var script = LiveBatchScript(bytes: bytes)
    do {
      return try script.run()
    } catch {
      return "reading the batch failed: \(error)"
    }
  }
}

/// A control script read from fuzzer bytes (a byte past the end reads as 0).
struct LiveBatchScript {
  let bytes: [UInt8]
  var position = 0
  var batch = SceneBatch()
  /// The latest finite call time: calls mostly move forwards from it.
  var now = 0.0
  /// Per instance, the time of the completion delivered since its latest accepted call.
  var delivered: [Int: Double] = [:]

  /// The two scenes instances use (built once).
  static let scenes: [TransitionScene] = {
    [(TransitionPreset.system, TransitionOperation.push), (.crossDissolve, .pop)].compactMap {
      let animator = PresetAnimator($0.0)
      return try? animator.animateTransition(
        using: animator.defaultContext(operation: $0.1, content: .bare))
    }
  }()

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func byte() -> UInt8 {
    defer { position += 1 }
    return position < bytes.count ? bytes[position] : 0
  }

  /// A value: one of the edge cases, or a fraction in [0, 1].
  mutating func value() -> Double {
    let specials: [Double] = [
      0, 1, 0.5, -0.1, 1.1, .nan, .infinity, -.infinity, 1e-300, 1e300, 2, -1,
    ]
    let b = Int(byte())
    return b < specials.count ? specials[b] : Double(b - specials.count) / 243
  }

  /// A call time: mostly a little after ``now``, sometimes before it or not finite.
  mutating func time() -> Double {
    let b = byte()
    let t: Double =
      switch b {
      case 0..<200: now + Double(b % 50) * 0.01
      case 200..<220: now - 0.05
      case 220..<230: .nan
      case 230..<240: .infinity
      case 240..<250: -1
      default: 1e300
      }
    return t
  }

  mutating func curve() -> TimingCurveProvider {
    switch byte() % 5 {
    case 0: return .linear
    case 1: return .easeInEaseOut
    case 2:
      return (try? SpringTimingParameters(dampingRatio: value())).map { .spring($0) } ?? .easeIn
    case 3:
      let bezier = try? CubicBezier(x1: value(), y1: value(), x2: value(), y2: value())
      return bezier.map { .cubic(.cubicBezier($0)) } ?? .easeOut
    default:
      let parameters = try? SpringTimingParameters(
        dampingRatio: value(), initialVelocity: Vector2(dx: 8 * value() - 4, dy: 0))
      return parameters.map { .spring($0) } ?? .linear
    }
  }

  mutating func clock() -> SceneClock {
    switch byte() % 4 {
    case 0: return .timed(start: time(), speed: 2 * value())
    case 1: return .position(value())
    case 2:
      return .animator(
        timingParameters: curve(), pausesOnCompletion: byte() % 2 == 0,
        scrubsLinearly: byte() % 2 == 0)
    default:
      return .percentDriven(
        start: time(), completionSpeed: 2 * value(), wantsInteractiveStart: byte() % 2 == 0)
    }
  }

  /// An instance id: mostly a live one, sometimes a removed or never used one.
  mutating func id() -> Int {
    let ids = batch.instanceIDs
    let b = Int(byte())
    if b >= 240 || ids.isEmpty { return b - 244 }
    return ids[b % ids.count]
  }

  mutating func animatorEvent() -> AnimatorEvent {
    let t = time()
    switch byte() % 11 {
    case 0: return .start(time: t)
    case 1: return .startAfterDelay(time: t, delay: value())
    case 2: return .pause(time: t)
    case 3: return .stop(time: t, withoutFinishing: byte() % 2 == 0)
    case 4: return .finish(time: t, position: [.start, .current, .end][Int(byte() % 3)])
    case 5: return .setFractionComplete(time: t, fraction: value())
    case 6: return .setReversed(time: t, reversed: byte() % 2 == 0)
    case 7: return .setPausesOnCompletion(time: t, value: byte() % 2 == 0)
    case 8: return .setScrubsLinearly(time: t, value: byte() % 2 == 0)
    default:
      return .continueAnimation(
        time: t, timing: byte() % 3 == 0 ? nil : curve(), durationFactor: 2 * value())
    }
  }

  mutating func interactionEvent() -> InteractionEvent {
    let t = time()
    switch byte() % 4 {
    case 0: return .update(time: t, percent: value())
    case 1: return .pause(time: t)
    case 2: return .finish(time: t)
    default: return .cancel(time: t)
    }
  }

  /// A retarget of an animated property of a layer of the instance's scene, to a value near its
  /// model value or to an extreme one.
  mutating func retarget(_ id: Int, at t: Double) throws(ValidationError) {
    guard let scene = batch.instance(id)?.scene, !scene.animations.entries.isEmpty else {
      try batch.retarget(.opacity, of: "", in: id, to: .number(value()), at: t)
      return
    }
    let entries = scene.animations.entries
    let entry = entries[Int(byte()) % entries.count]
    let property = entry.animation.property
    let model = scene.model[id: entry.layerID].map { property.value(in: $0) } ?? .number(0)
    let u = value()
    let target: AnimationValue =
      switch model {
      case .number(let v): .number(v + u)
      case .point(let p): .point(Point(x: p.x + 100 * u, y: p.y - 100 * u))
      case .transform(let m): .transform(m.translated(x: 100 * u, y: 0, z: 0))
      default: .number(u)
      }
    let duration: Double? = byte() % 2 == 0 ? nil : value()
    try batch.retarget(
      property, of: entry.layerID, in: id, to: target, at: t, duration: duration,
      timingParameters: curve())
  }

  /// Runs the script; `nil` when every property holds.
  mutating func run() throws -> String? {
    guard Self.scenes.count == 2 else { return "the oracle's scenes did not build" }
    for _ in 0..<min(FuzzOracles.liveBatchCalls, bytes.count / 2 + 1) {
      let before = try Fingerprint(batch, at: now + 0.05)
      var rejected = false
      do {
        try call()
      } catch {
        rejected = true
        if error.field.isEmpty { return "a rejection without a field: \(error)" }
      }
      if let problem { return problem }
      let after = try Fingerprint(batch, at: now + 0.05)
      if let problem = after.nonFinite { return problem }
      if rejected && after != before { return "a rejected call changed the batch" }
      if position >= bytes.count { break }
    }
    return nil
  }

  /// A violation found inside a call (a completion or an output), if any.
  var problem: String?

  /// After an accepted call on `id` at `t`: it did not come before a completion already
  /// delivered (which it would change), and the instance may complete again; ``now`` moves to a
  /// finite `t` after it.
  mutating func accepted(_ id: Int, at t: Double) {
    if let c = delivered[id], !(t >= c) {
      problem =
        "instance \(id): a call at \(t) was accepted after its completion at \(c) was delivered"
    }
    delivered[id] = nil
    if t.isFinite && t < Self.horizon { now = max(now, t) }
  }

  /// Times beyond this do not move ``now``, so later calls stay representable near it.
  static let horizon = 1e6

  /// One call, chosen by the next byte.
  mutating func call() throws(ValidationError) {
    let kind = byte() % 10
    if kind == 0 {
      guard batch.instanceCount < FuzzOracles.liveBatchInstances else { return }
      let scene = Self.scenes[Int(byte() % 2)]
      let clock = clock()
      delivered[try batch.add(.init(scene: scene, clock: clock))] = nil
      return
    }
    let id = id()
    switch kind {
    case 1:
      try batch.remove(id)
      delivered[id] = nil
    case 2, 3:
      let event = animatorEvent()
      try batch.apply(event, to: id)
      accepted(id, at: event.time)
    case 4:
      let event = interactionEvent()
      try batch.apply(event, to: id)
      accepted(id, at: event.time)
    case 5:
      let (t, clock) = (time(), clock())
      try batch.setClock(clock, of: id, at: t)
      accepted(id, at: t)
    case 6:
      let (t, speed, curve) = (time(), 2 * value(), byte() % 2 == 0 ? nil : TimingFunction.easeIn)
      try batch.setCompletion(speed: speed, curve: curve, of: id, at: t)
      accepted(id, at: t)
    case 7:
      let t = time()
      try retarget(id, at: t)
      accepted(id, at: t)
    case 8: try deliverCompletions(by: time())
    default: try evaluate(at: time())
    }
  }

  /// Completions by `t` through a buffer of 1 to 3 events: each names a live instance not
  /// completed since its latest accepted call, at a finite time by `t`.
  mutating func deliverCompletions(by t: Double) throws(ValidationError) {
    var buffer = [SceneCompletionEvent](
      repeating: SceneCompletionEvent(instance: -1, position: .end, time: 0),
      count: 1 + Int(byte() % 3))
    let live = Set(batch.instanceIDs)
    let n = try buffer.withUnsafeMutableBufferPointer {
      (events: inout UnsafeMutableBufferPointer<SceneCompletionEvent>) throws(ValidationError) in
      try batch.advance(to: t, completions: events)
    }
    for event in buffer[..<n] {
      guard live.contains(event.instance) else {
        problem = "a completion of instance \(event.instance), which is not in the batch"
        return
      }
      guard delivered[event.instance] == nil else {
        problem = "instance \(event.instance) completed twice without a call between"
        return
      }
      delivered[event.instance] = event.time
      guard event.time.isFinite, event.time <= t else {
        problem = "instance \(event.instance) completed at \(event.time), asked by \(t)"
        return
      }
    }
  }

  /// An evaluation at `t`, with velocities on every other one: every value finite.
  mutating func evaluate(at t: Double) throws(ValidationError) {
    let context = try SceneBatchContext(batch: batch)
    var output = SceneBatchOutput(includesVelocities: byte() % 2 == 0)
    try batch.evaluate(at: t, context: context, into: &output)
    for id in output.instanceIDs {
      guard let instance = output[instance: id] else { continue }
      for layer in instance.layers {
        let parts: [(String, [Double])] = [
          ("matrix", layer.matrix.fields), ("opacity", [layer.opacity]),
          ("velocity", (layer.velocity?.matrix.fields ?? []) + [layer.velocity?.opacity ?? 0]),
        ]
        for (name, values) in parts where !values.allSatisfy({ $0.isFinite }) {
          problem = "instance \(id) layer \(layer.id) at \(t): \(name) \(values)"
          return
        }
      }
    }
  }
}

/// What a rejected call must not change: the instances, their times, rates and completion states
/// at one time, and what the batch presents there.
struct Fingerprint: Equatable {
  var ids: [Int]
  var times: [SceneInstanceTime]
  /// The matrix entries and opacity of every present layer, instance by instance.
  var values: [Double]
  var additiveAnimations: Int

  init(_ batch: SceneBatch, at t: Double) throws {
    ids = batch.instanceIDs
    times = try ids.map { try batch.time(of: $0, at: t) }
    let context = try SceneBatchContext(batch: batch)
    var output = SceneBatchOutput()
    try batch.evaluate(at: t, context: context, into: &output)
    values = []
    for id in ids {
      guard let instance = output[instance: id] else { continue }
      for layer in instance.layers {
        values += layer.matrix.fields
        values.append(layer.opacity)
      }
    }
    additiveAnimations = batch.additiveAnimationCount
  }

  /// The first value that is not finite, described, or `nil`.
  var nonFinite: String? {
    for (id, time) in zip(ids, times) where !(time.time.isFinite && time.rate.isFinite) {
      return "instance \(id): time \(time.time), rate \(time.rate)"
    }
    return values.allSatisfy(\.isFinite) ? nil : "a presented value that is not finite"
  }
}
