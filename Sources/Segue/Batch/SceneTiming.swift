/// What decides an op's phase, eased progress and spring fraction: its media timing, timing
/// function and spring, compared bit for bit. Ops with the same timing give the same results
/// lane for lane, so a program computes them once per lane group (``share(_:functions:)``).
///
/// UIKit's animation blocks give every property they animate the same duration, delay and
/// curve, so most transitions' animations come in such runs: in the ten presets, 58 animations
/// have 26 timings.
struct SceneTiming: Hashable {
  /// The `Double` and `Float` fields the media timing and spring kernels read, as bit patterns
  /// (so `−0` and `0` differ, as they may in the kernels' results).
  var bits: [UInt64]
  var easing: SceneEasing
  /// The timing function the easing evaluates (its curve for ``SceneEasing/bezier``).
  var function: TimingFunction?

  init(_ op: SceneOp, function: TimingFunction?) {
    let doubles = [op.beginTime, op.speed, op.timeOffset, op.activeDuration]
    var floats = [
      op.duration, op.activeEnd, op.autoreverses, op.fillsBackwards, op.fillsForwards,
      op.afterProgress, op.lastPass,
    ]
    if op.isSpring {
      floats += [
        op.springDuration, op.rate, op.frequency, op.frequencyLow, op.coefficient, op.springKind,
      ]
    }
    bits = doubles.map(\.bitPattern) + floats.map { UInt64($0.bitPattern) }
    bits.append(op.isSpring ? 1 : 0)
    easing = op.easing
    self.function = op.easing == .none ? nil : function
  }

  /// Gives every op whose timing another op shares a ``SceneOp/timingSlot`` (the first of them,
  /// in evaluation order, ``SceneOp/storesTiming``); `functions[i]` is op `i`'s timing function.
  /// Returns the number of shared timings. Linear in the number of ops (hashing).
  static func share(_ ops: inout [SceneOp], functions: [TimingFunction?]) -> Int {
    let keys = ops.indices.map { SceneTiming(ops[$0], function: functions[$0]) }
    var counts: [SceneTiming: Int] = [:]
    for key in keys { counts[key, default: 0] += 1 }
    var slots: [SceneTiming: Int32] = [:]
    for (i, key) in keys.enumerated() where counts[key, default: 0] > 1 {
      if let slot = slots[key] {
        ops[i].timingSlot = slot
      } else {
        let slot = Int32(slots.count)
        slots[key] = slot
        ops[i].timingSlot = slot
        ops[i].storesTiming = true
      }
    }
    return slots.count
  }
}
