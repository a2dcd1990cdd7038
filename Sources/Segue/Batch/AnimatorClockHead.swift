/// The part of an ``AnimatorClockPlan`` that presents an instance whose fraction does not move
/// at the time asked: held (paused, inactive, before a delay ends) or past the end of its run.
/// Kept in its own array, 48 bytes per instance, so that evaluating a frame reads only these for
/// most instances of a live UI (at most a few move at once) and reads the whole plan, four cache
/// lines, only for those that move.
struct AnimatorClockHead: Sendable {
  /// Held at times `t < heldBefore` (a pending delay; `+∞` when the fraction does not move)…
  var heldBefore: Double
  /// …and at times `t ≤ heldThrough` (the call's time, before which the fraction has not moved;
  /// `−∞` when it is at its target already).
  var heldThrough: Double
  /// From this time on, ``AnimatorClockPlan/endProgress`` (`+∞` when the fraction does not move).
  var end: Double
  var heldProgress: Double
  var endProgress: Double
  var heldCompletion: AnimatingPosition?
  var endCompletion: AnimatingPosition?

  /// The head of `plan`.
  @inline(__always)
  init(_ plan: borrowing AnimatorClockPlan) {
    if plan.moves {
      heldBefore = plan.heldUntil
      heldThrough = plan.fraction == plan.target ? -.infinity : plan.from
      end = plan.end
    } else {
      heldBefore = .infinity
      heldThrough = .infinity
      end = .infinity
    }
    heldProgress = plan.heldProgress
    endProgress = plan.endProgress
    heldCompletion = plan.heldCompletion
    endCompletion = plan.endCompletion
  }

  static let notAnimated = AnimatorClockHead(.notAnimated)

  /// ``AnimatorClockPlan/progress(at:)`` at a finite `t` where the fraction does not move there
  /// (the same values); `nil` where it moves, which only the plan can say.
  @inline(__always)
  func progress(at t: Double) -> (progress: Double, completion: AnimatingPosition?)? {
    if t < heldBefore || t <= heldThrough { return (heldProgress, heldCompletion) }
    if t >= end { return (endProgress, endCompletion) }
    return nil
  }
}
