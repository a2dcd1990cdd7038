/// The UIView keyframe rule (<doc:TransitionCatalog#UIView-keyframe-animations>), shared by
/// ``KeyframeBuilder`` and ``SceneBuilder/animateKeyframes(withDuration:delay:options:animations:)``:
/// the checks on one `addKeyframe` interval, the overlap test between two keyframes that set the
/// same property, and the keys of one property's track.
enum KeyframeRule {
  /// Tolerance on `start + duration ≤ 1`, absorbing rounding such as `0.7 + 0.3`.
  static let endTolerance = 1e-12

  /// Checks `relativeStartTime` and `relativeDuration` of keyframe `j` and returns its end,
  /// `min(start + duration, 1)`.
  static func end(start: Double, duration: Double, index j: Int) throws(ValidationError)
    -> Double
  {
    try Validate.inRange(start, 0, 1, "relativeStartTime", index: j)
    try Validate.inRange(duration, 0, 1, "relativeDuration", index: j)
    guard start + duration <= 1 + endTolerance else {
      throw ValidationError(
        field: "relativeDuration", index: j, reason: .outOfRange(lower: 0, upper: 1 - start))
    }
    return Swift.min(start + duration, 1)
  }

  /// `true` when `[s1, e1]` and `[s2, e2]` overlap: their open intervals intersect, or one is an
  /// instant strictly inside the other.
  static func overlap(_ s1: Double, _ e1: Double, _ s2: Double, _ e2: Double) -> Bool {
    let lo = Swift.max(s1, s2)
    let hi = Swift.min(e1, e2)
    if lo < hi { return true }
    return lo == hi && ((s1 < lo && lo < e1) || (s2 < lo && lo < e2))
  }

  /// The key times and values of one property: `(0, start)`; for each keyframe by start time
  /// (an instant before a longer one at the same time, then insertion order) a hold key
  /// `(startⱼ, previous)` when it starts after the previous key, then `(endⱼ, valueⱼ)`; and
  /// `(1, last)` when the last key is before 1. `frames` are in insertion order.
  static func keys<Value>(start: Value, frames: [(start: Double, end: Double, value: Value)])
    -> (keyTimes: [Double], values: [Value])
  {
    let order = frames.indices.sorted { a, b in
      let (fa, fb) = (frames[a], frames[b])
      if fa.start != fb.start { return fa.start < fb.start }
      if fa.end != fb.end { return fa.end < fb.end }
      return a < b
    }
    var times = [0.0]
    var values = [start]
    for j in order {
      let frame = frames[j]
      if frame.start > times[times.count - 1] {
        times.append(frame.start)
        values.append(values[values.count - 1])
      }
      times.append(frame.end)
      values.append(frame.value)
    }
    if times[times.count - 1] < 1 {
      times.append(1)
      values.append(values[values.count - 1])
    }
    return (times, values)
  }
}
