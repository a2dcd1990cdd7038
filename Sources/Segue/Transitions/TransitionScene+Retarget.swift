extension TransitionScene {
  /// Retargets `property` of layer `layerID` mid-flight at scene time `time` (seconds), as
  /// UIKit's additive animations do: the property heads for `value` from then on, and what is
  /// presented stays continuous (its velocity too, with a curve that starts at rest).
  ///
  /// The scene gains one additive animation (``LayerAnimation/isAdditive``) of the offset
  /// `Δ = value − old` (`value · old⁻¹` for a transform), from no offset to `Δ`, over
  /// `[time, time + d)` with the curve of `timingParameters`, filling forwards:
  ///
  ///     presented(τ) = beneath(τ) + Δ·q((τ − time)/d)
  ///
  /// where `beneath` is the scene as it was and `q` the curve's progress (0 before `time`).
  /// `old`, the target the property had, is its settled value: the model with the `.set` events
  /// and the earlier retargets' offsets. This equals UIKit's form (the model set to `value` at
  /// once, an additive animation from `old − value` to 0, the running animations made relative
  /// to the model). The finished state shows `value` (then the finish changes); the cancelled
  /// state and every time before `time` are unchanged. Design and costs are in
  /// <doc:DrivingAUserInterface#Retargeting-mid-flight>.
  ///
  /// - Parameters:
  ///   - property: a number, point, size, rectangle or transform property (``AnimationValue/additiveKinds``).
  ///   - layerID: the layer.
  ///   - value: the new target, of the property's kind, finite.
  ///   - time: scene time of the switch, seconds, in `[0, duration)`.
  ///   - duration: seconds of scene time, `> 0`, ending by the scene's end; `nil` (default): the
  ///     rest of the scene, `duration − time` (UIKit's `addAnimations` on a running animator).
  ///     A physical spring takes its own settling duration.
  ///   - timingParameters: the new curve (default ease-in-ease-out).
  /// - Throws: ``ValidationError``: `"time"` not finite, negative or not before the scene's
  ///   duration (``ValidationError/Reason/outOfRange(lower:upper:)``); `"layer"`
  ///   ``ValidationError/Reason/unknown(_:)``; `"keyPath"` for a property of another layer class
  ///   or one that does not add; `"toValue"` not finite or of another kind, or
  ///   ``ValidationError/Reason/singular`` for a transform whose old target has no inverse;
  ///   `"duration"` not `> 0` or past the scene's end. The scene is unchanged on error.
  public mutating func retarget(
    _ property: LayerProperty, of layerID: String, to value: AnimationValue, at time: Double,
    duration: Double? = nil, timingParameters: TimingCurveProvider = .easeInEaseOut
  ) throws(ValidationError) {
    try Validate.nonNegative(time, "time")
    guard time < self.duration else {
      throw ValidationError(field: "time", reason: .outOfRange(lower: 0, upper: self.duration))
    }
    guard let index = model.index(of: layerID) else {
      throw ValidationError(field: "layer", reason: .unknown(layerID))
    }
    try property.checkApplies(to: model.storage[index])
    let old = property.value(in: settledModel().storage[index])
    let animation = try LayerAnimation.retargeting(
      property, from: old, to: value, at: time,
      duration: duration ?? (self.duration - time), timingParameters: timingParameters,
      sceneDuration: self.duration)
    animations.add(animation, to: layerID)
  }

  /// The model with the `.set` events (removals left out, so every layer stays) and the
  /// additive animations' settled offsets: the targets the properties are heading for.
  func settledModel() -> LayerTree {
    var tree = model
    for event in events {
      if case .set = event.change { event.change.apply(to: &tree) }
    }
    return animations.hasAdditive ? animations.settling(tree) : tree
  }
}

extension LayerAnimation {
  /// The additive animation of a retarget from `old` to `new` at `time` (seconds of scene time)
  /// over `duration` with `timingParameters` (see
  /// ``TransitionScene/retarget(_:of:to:at:duration:timingParameters:)``), ending by
  /// `sceneDuration`.
  ///
  /// - Throws: as ``TransitionScene/retarget(_:of:to:at:duration:timingParameters:)``.
  static func retargeting(
    _ property: LayerProperty, from old: AnimationValue, to new: AnimationValue, at time: Double,
    duration: Double, timingParameters: TimingCurveProvider, sceneDuration: Double
  ) throws(ValidationError) -> LayerAnimation {
    guard AnimationValue.additiveKinds.contains(property.valueKind) else {
      throw ValidationError(
        field: "keyPath",
        reason: .invalidState(
          "\(property.keyPath) holds a \(property.valueKind.rawValue), which does not add"))
    }
    guard new.kind == property.valueKind else {
      throw ValidationError(
        field: "toValue",
        reason: .invalidState(
          "is a \(new.kind.rawValue) but \(property.keyPath) holds a \(property.valueKind.rawValue)"
        ))
    }
    guard new.isFiniteAdditive else { throw ValidationError(field: "toValue", reason: .notFinite) }
    let offset = try AnimationValue.additiveOffset(from: old, to: new)
    guard offset.isFiniteAdditive else {
      throw ValidationError(field: "toValue", reason: .invalidState("its offset overflows Double"))
    }
    let length = timingParameters.runLength(forDuration: duration)
    try Validate.positive(length, "duration")
    guard time + length <= sceneDuration else {
      throw ValidationError(
        field: "duration", reason: .outOfRange(lower: 0, upper: sceneDuration - time))
    }
    // Every field is checked above (the general initialiser's checks would allocate).
    var animation = LayerAnimation(
      additive: property, content: .basic(from: offset.additiveIdentity, to: offset),
      timing: MediaTiming(beginTime: time, duration: length, fillMode: .forwards))
    switch timingParameters {
    case .cubic(let function):
      animation.timingFunction = function
    case .spring(let parameters):
      guard let spring = parameters.spring(forRunLength: length) else {
        throw ValidationError(
          field: "duration", reason: .invalidState("no spring fits a run of \(length) s"))
      }
      animation.content = .spring(spring, from: offset.additiveIdentity, to: offset)
    case .springAnimation(let spring):
      animation.content = .spring(spring, from: offset.additiveIdentity, to: offset)
    }
    return animation
  }

  /// An additive animation whose fields the caller has checked.
  private init(additive property: LayerProperty, content: Content, timing: MediaTiming) {
    self.property = property
    self.content = content
    self.timing = timing
    self.timingFunction = nil
    self.isAdditive = true
  }
}

extension AnimationValue {
  /// Whether every channel of a number, point, size, rectangle or transform is finite (other
  /// kinds: `false`); allocates nothing.
  var isFiniteAdditive: Bool { allAdditiveComponents { $0.isFinite } }

  /// Whether `test` holds for every number of an additive value (number, point, size, rect,
  /// transform); `false` for the other kinds. Allocates nothing.
  func allAdditiveComponents(_ test: (Double) -> Bool) -> Bool {
    switch self {
    case .number(let v): test(v)
    case .point(let p): test(p.x) && test(p.y)
    case .size(let s): test(s.width) && test(s.height)
    case .rect(let r):
      test(r.origin.x) && test(r.origin.y) && test(r.size.width) && test(r.size.height)
    case .transform(let m):
      (0..<16).allSatisfy { test(m[$0 / 4, $0 % 4]) }
    default: false
    }
  }
}
