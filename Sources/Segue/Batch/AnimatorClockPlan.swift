/// An animator-driven instance's clock after its latest call, as plain values: what the clock
/// stage of ``SceneEvaluationJob`` reads to present the instance at a later wall time without
/// copying its ``AnimatorMachine``.
///
/// `progress(at:)` is ``AnimatorMachine/advance(to:)`` followed by
/// ``AnimatorMachine/progress(atFraction:)`` on a copy of the machine, with the same `Double`
/// operations in the same order, so both give the same bits. The spring a run needs is fitted
/// once, when the plan is made, rather than at every evaluation.
struct AnimatorClockPlan: Sendable {
  /// The eased curve of the machine's current knot, in the forms that need no references.
  enum Curve: Sendable {
    /// A cubic Bézier ``TimingFunction``.
    case cubicBezier(CubicBezier)
    /// A `steps()` ``TimingFunction``.
    case steps(StepsEasing)
    /// A spring (either ``TimingCurveProvider`` spring case), fitted to the run after the knot
    /// (`forward`) and to the one before it (`backward`), its motion worked out; `nil` where no
    /// spring fits, which shows progress 1 inside the run.
    case spring(forward: SpringMotion?, backward: SpringMotion?)
    /// A curve with stored points (`linear(…)`): read from the machine.
    case machine
  }

  // Declaration order is layout order: the `Double` fields first and the one-byte ones together,
  // before the curve, leave no padding between fields (216 bytes per plan).

  /// The fraction does not move before this wall time (`−∞` without a pending delay).
  var heldUntil = 0.0
  /// The wall time the fraction starts moving from: the later of the call and ``heldUntil``.
  var from = 0.0
  /// The fraction at ``from``, the one it heads for, and its signed speed (per second).
  var fraction = 0.0
  var target = 0.0
  var velocity = 0.0
  /// The progress shown while the fraction does not move.
  var heldProgress = 0.0
  /// When the fraction reaches ``target``, and the progress from then on.
  var end = 0.0
  var endProgress = 0.0
  /// The knot: its fraction `φ₀` and progress `q₀` (its curve is ``curve``).
  var knotFraction = 0.0
  var knotProgress = 0.0
  /// The lengths (seconds) of the runs after and before the knot, which a spring is fitted to.
  var forwardLength = 0.0
  var backwardLength = 0.0
  /// The machine's flags that ``AnimatorMachine/progress(atFraction:)`` reads.
  var frozenValue: Double? = nil
  var scrubbedLinearly = false
  /// Whether the fraction moves after the call: active and running.
  var moves = false
  /// The completions shown while the fraction does not move, and from ``end`` on.
  var heldCompletion: AnimatingPosition? = nil
  var endCompletion: AnimatingPosition? = nil
  /// The eased curve of the knot.
  var curve = Curve.machine

  /// The plan of an instance that is not animator-driven: progress 0, held.
  static let notAnimated = AnimatorClockPlan(.notAnimated)

  /// The plan of `machine` after its latest call (every field is written by
  /// ``update(from:keepsCurve:)``).
  init(_ machine: borrowing AnimatorMachine) {
    update(from: machine, keepsCurve: false)
  }

  /// Makes the plan again, in place, for `machine` after a call. The curve (a spring fitted to
  /// its runs) is made first and the held and end progress read through it, so a call fits its
  /// spring once; with `keepsCurve` (the call left the machine's knot as it was) the plan's
  /// curve stays and the call fits nothing.
  @inline(__always)
  mutating func update(from machine: borrowing AnimatorMachine, keepsCurve: Bool) {
    knotFraction = machine.knot.fraction
    knotProgress = machine.knot.progress
    forwardLength = (1 - Swift.max(knotFraction, 0)) / machine.knot.rate
    backwardLength = knotFraction / machine.knot.rate
    if !keepsCurve {
      curve = Self.curve(machine.knot.curve, forward: forwardLength, backward: backwardLength)
    }
    if case .value(let v) = machine.frozen { frozenValue = v } else { frozenValue = nil }
    scrubbedLinearly = machine.scrubbedLinearly
    moves = machine.state == .active && machine.isRunning
    heldCompletion = machine.completionPosition
    heldUntil = machine.heldUntil ?? -.infinity
    from = Swift.max(machine.time, machine.heldUntil ?? machine.time)
    fraction = machine.fraction
    target = machine.target
    velocity = (machine.isReversed ? -1 : 1) * machine.rate
    end = from + abs(machine.target - machine.fraction) / machine.rate
    endProgress = machine.target
    endCompletion = machine.isReversed ? .start : .end
    heldProgress = progress(atFraction: fraction) ?? machine.progress(atFraction: fraction)
    if machine.pausesOnCompletion {
      endProgress = progress(atFraction: target) ?? machine.progress(atFraction: target)
      endCompletion = machine.completionPosition
    }
  }

  /// ``AnimatorMachine/advanceAndApply(_:)`` on `machine`, then `plan` and its `head` made
  /// again for the result (keeping the plan's curve when the call left the knot as it was);
  /// returns the machine's ``AnimatorMachine/completionTime``. All three are changed in place,
  /// and only when the call is accepted: reading the machine and the plan through `inout` lends
  /// them without copying, and each is written where it lies rather than built aside and copied in.
  static func apply(
    _ event: AnimatorEvent, to machine: inout AnimatorMachine, plan: inout AnimatorClockPlan,
    head: inout AnimatorClockHead
  ) throws(ValidationError) -> Double? {
    let replaced = try machine.advanceAndApply(event)
    var sameKnot = true
    if case .some = replaced { sameKnot = false }
    plan.update(from: machine, keepsCurve: sameKnot)
    head = AnimatorClockHead(plan)
    return machine.completionTime
  }

  static func curve(_ provider: TimingCurveProvider, forward: Double, backward: Double) -> Curve {
    switch provider {
    case .cubic(.cubicBezier(let bezier)): return .cubicBezier(bezier)
    case .cubic(.steps(let steps)): return .steps(steps)
    case .cubic(.linearPoints): return .machine
    case .spring(let parameters):
      return .spring(
        forward: parameters.spring(forRunLength: forward).map(SpringMotion.init),
        backward: parameters.spring(forRunLength: backward).map(SpringMotion.init))
    case .springAnimation(let spring):
      let motion = SpringMotion(spring)
      return .spring(forward: motion, backward: motion)
    }
  }

  /// The eased progress and the completion at wall time `t`: `nil` progress when the curve must
  /// be read from the machine (``Curve/machine``).
  @inline(__always)
  func progress(at t: Double) -> (progress: Double, completion: AnimatingPosition?)? {
    guard moves, t >= heldUntil else { return (heldProgress, heldCompletion) }
    guard t > from || fraction == target else { return (heldProgress, heldCompletion) }
    if t >= end { return (endProgress, endCompletion) }
    let moved = fraction + velocity * (t - from)
    guard let q = progress(atFraction: Swift.min(Swift.max(moved, 0), 1)) else { return nil }
    return (q, nil)
  }

  /// ``AnimatorMachine/progress(atFraction:)``.
  @inline(__always)
  func progress(atFraction f: Double) -> Double? {
    if let frozenValue { return frozenValue }
    if scrubbedLinearly { return f }
    guard let q = value(f) else { return nil }
    return AnimatorMachine.finite(q, f)
  }

  /// ``AnimatorKnot/value(_:phi0:q0:start:)`` at animation start 0.
  @inline(__always)
  func value(_ phi: Double) -> Double? {
    let phi0 = knotFraction
    let q0 = knotProgress
    if phi >= phi0 {
      guard phi0 < 1 else { return q0 }
      guard let s = eased((phi - phi0) / (1 - phi0), forward: true) else { return nil }
      return q0 + (1 - q0) * s
    }
    guard let s = eased((phi0 - phi) / phi0, forward: false) else { return nil }
    return q0 - q0 * s
  }

  /// ``TimingCurveProvider/progress(atElapsed:runLength:)`` at elapsed fraction `s` of the run
  /// after the knot (`forward`) or before it.
  @inline(__always)
  func eased(_ s: Double, forward: Bool) -> Double? {
    switch curve {
    case .cubicBezier(let bezier): return bezier.solve(s)
    case .steps(let steps): return steps.value(at: s, beforeFlag: false)
    case .spring(let after, let before):
      return DampedSpring.progress(
        forward ? after : before, atElapsed: s,
        runLength: forward ? forwardLength : backwardLength)
    case .machine: return nil
    }
  }
}
