/// Builds per-property keyframe tracks the way `UIView.animateKeyframes(withDuration:…)` with
/// `addKeyframe(withRelativeStartTime:relativeDuration:animations:)` does
/// (<doc:TransitionCatalog#UIView-keyframe-animations>).
///
/// Properties are named by `String` and all share the value type `Value` (use one builder per
/// value type). Give each property's starting (model) value, add keyframes in the order the
/// animations block would add them, then call ``tracks()``. For each property that some keyframe
/// sets, the track's keys are:
///
/// 1. `(0, start value)`;
/// 2. for every keyframe `j` that sets it, ordered by relative start time (ties by insertion
///    order, except that an instantaneous keyframe goes before a longer one starting at the same
///    time, the only order that keeps key times non-decreasing): a hold key `(startⱼ, previous value)` when `startⱼ` is after the previous key's
///    time, then `(startⱼ + durationⱼ, new value)`;
/// 3. `(1, last value)` when the last key is before 1.
///
/// The tracks use the builder's ``calculationMode`` with no timing functions: UIView keyframe
/// animations pace linearly overall. Flat holds in the cubic mode may overshoot, as
/// on iOS. Properties no keyframe sets get no track.
///
/// Example (the `fade-slide` push): start opacity `o₀`; keyframe (0, 0.5) sets it to 1 →
/// values `[o₀, 1, 1]` at key times `[0, 0.5, 1]`.
public struct KeyframeBuilder<Value: Interpolatable>: Sendable {
  /// One `addKeyframe` call: a start and a duration as unitless fractions of the overall
  /// duration, and the properties it sets.
  public struct Keyframe: Sendable, Equatable {
    /// Relative start time in `[0, 1]`.
    public var relativeStartTime: Double
    /// Relative duration in `[0, 1 − relativeStartTime]`.
    public var relativeDuration: Double
    /// The new value of each property this keyframe animates.
    public var changes: [String: Value]
  }

  /// The calculation mode of every track built (`UIView.KeyframeAnimationOptions`'
  /// `calculationMode…`; default ``CalculationMode/linear``).
  public var calculationMode: CalculationMode
  /// Each property's value when the animation starts (its model value).
  public private(set) var startValues: [String: Value]
  /// The keyframes in insertion order.
  public private(set) var keyframes: [Keyframe] = []

  /// Tolerance on `start + duration ≤ 1`, absorbing rounding such as `0.7 + 0.3`.
  public static var endTolerance: Double { KeyframeRule.endTolerance }

  /// Creates a builder with the start value of every property that keyframes may set.
  ///
  /// - Throws: ``ValidationError`` `startValues` ``ValidationError/Reason/notFinite`` naming
  ///   no index when a start value has a non-finite channel (the message names the property via
  ///   the field `startValues.<name>`).
  public init(startValues: [String: Value], calculationMode: CalculationMode = .linear)
    throws(ValidationError)
  {
    for (name, value) in startValues {
      for c in value.channels { try Validate.finite(c, "startValues.\(name)") }
    }
    self.startValues = startValues
    self.calculationMode = calculationMode
  }

  /// Adds a keyframe (`addKeyframe(withRelativeStartTime:relativeDuration:animations:)`).
  ///
  /// - Parameters:
  ///   - start: `relativeStartTime`, a unitless fraction of the overall duration, in `[0, 1]`.
  ///   - duration: `relativeDuration`, a unitless fraction, in `[0, 1]`, with
  ///     `start + duration ≤ 1` (up to ``endTolerance``; the end is then taken as 1).
  ///   - changes: the new value of each property the keyframe sets.
  /// - Throws: ``ValidationError`` with the keyframe's index `j` (its position in
  ///   ``keyframes``): `relativeStartTime` or `relativeDuration` not finite or outside `[0, 1]`
  ///   (``ValidationError/Reason/outOfRange(lower:upper:)``); `relativeDuration` outside
  ///   `[0, 1 − start]`; `changes.<name>` ``ValidationError/Reason/unknown(_:)`` for a property
  ///   without a start value, or ``ValidationError/Reason/notFinite`` for a non-finite new value;
  ///   `keyframes.<name>` ``ValidationError/Reason/overlapping`` when an earlier keyframe sets
  ///   the same property over an overlapping interval (the open intervals intersect, or one is
  ///   an instant strictly inside the other; touching ends, or two instantaneous keyframes at the
  ///   same time, do not overlap).
  ///   Nothing is added when it throws.
  public mutating func addKeyframe(
    relativeStartTime start: Double, relativeDuration duration: Double, changes: [String: Value]
  ) throws(ValidationError) {
    let j = keyframes.count
    let end = try KeyframeRule.end(start: start, duration: duration, index: j)
    for name in changes.keys.sorted() {
      guard startValues[name] != nil else {
        throw ValidationError(field: "changes.\(name)", index: j, reason: .unknown(name))
      }
      for c in changes[name]!.channels { try Validate.finite(c, "changes.\(name)", index: j) }
      for other in keyframes where other.changes[name] != nil {
        let otherEnd = Swift.min(other.relativeStartTime + other.relativeDuration, 1)
        if KeyframeRule.overlap(start, end, other.relativeStartTime, otherEnd) {
          throw ValidationError(field: "keyframes.\(name)", index: j, reason: .overlapping)
        }
      }
    }
    keyframes.append(
      Keyframe(relativeStartTime: start, relativeDuration: duration, changes: changes))
  }

  /// The key times and values for `property` by the UIView keyframe rule, or `nil` when no keyframe
  /// sets it (or it has no start value).
  public func keys(for property: String) -> (keyTimes: [Double], values: [Value])? {
    guard let start = startValues[property] else { return nil }
    let frames = keyframes.compactMap { frame in
      frame.changes[property].map { value in
        (
          start: frame.relativeStartTime,
          end: Swift.min(frame.relativeStartTime + frame.relativeDuration, 1), value: value
        )
      }
    }
    guard !frames.isEmpty else { return nil }
    return KeyframeRule.keys(start: start, frames: frames)
  }

  /// One track per property that some keyframe sets, with the builder's calculation mode, the
  /// key times and values of ``keys(for:)``, and no timing functions (linear overall pacing).
  ///
  /// - Throws: ``ValidationError`` from ``KeyframeTrack``'s initializer; with keys built by this
  ///   rule it does not happen in practice (key times start at 0, end at 1, never decrease).
  public func tracks() throws(ValidationError) -> [String: KeyframeTrack<Value>] {
    var result = [String: KeyframeTrack<Value>]()
    for name in startValues.keys.sorted() {
      guard let (times, values) = keys(for: name) else { continue }
      result[name] = try KeyframeTrack(
        values: values, keyTimes: times, calculationMode: calculationMode)
    }
    return result
  }
}
