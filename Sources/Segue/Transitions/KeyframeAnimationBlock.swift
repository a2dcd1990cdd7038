/// `UIView.KeyframeAnimationOptions`: the calculation mode of every property's track and the
/// curve that paces the whole animation.
///
/// The curve applies to the animation as a whole (the timing function of each property's
/// keyframe animation), never per keyframe. Without one the animation paces linearly, the rule
/// <doc:TransitionCatalog#UIView-keyframe-animations> states.
public struct KeyframeAnimationOptions: Hashable, Sendable {
  /// The `calculationMode…` option (default ``CalculationMode/linear``).
  public var calculationMode: CalculationMode
  /// The `curve…` option for the whole animation; `nil` (the default) paces linearly.
  public var curve: ViewAnimationCurve?

  /// Options with a calculation mode and an overall curve.
  public init(calculationMode: CalculationMode = .linear, curve: ViewAnimationCurve? = nil) {
    self.calculationMode = calculationMode
    self.curve = curve
  }

  /// `.calculationModeLinear`, the default.
  public static let calculationModeLinear = Self(calculationMode: .linear)
  /// `.calculationModeDiscrete`.
  public static let calculationModeDiscrete = Self(calculationMode: .discrete)
  /// `.calculationModePaced`: key times are ignored, so are relative start times.
  public static let calculationModePaced = Self(calculationMode: .paced)
  /// `.calculationModeCubic`: Catmull–Rom through the keys (tension, continuity, bias 0).
  public static let calculationModeCubic = Self(calculationMode: .cubic)
  /// `.calculationModeCubicPaced`.
  public static let calculationModeCubicPaced = Self(calculationMode: .cubicPaced)
}

/// The block of `UIView.animateKeyframes(withDuration:delay:options:animations:)`: each
/// ``addKeyframe(withRelativeStartTime:relativeDuration:animations:)`` runs an ``AnimationBlock``
/// that sets view properties as UIKit code does, and records what it set and when.
public struct KeyframeAnimationBlock: Sendable {
  /// One keyframe: its interval (fractions of the whole duration) and the values it set.
  struct Keyframe: Sendable {
    var start: Double
    var end: Double
    var changes: [(layerID: String, property: LayerProperty, value: AnimationValue)]
  }

  /// The model: the values before the animation, with the keyframes' changes so far (in call
  /// order, as the assignments run in UIKit).
  public private(set) var model: LayerTree
  var keyframes: [Keyframe] = []

  init(model: LayerTree) {
    self.model = model
  }

  /// `addKeyframe(withRelativeStartTime:relativeDuration:animations:)`.
  ///
  /// - Parameters:
  ///   - start: fraction of the whole duration, in `[0, 1]`.
  ///   - duration: fraction of the whole duration, in `[0, 1 − start]` (up to
  ///     ``KeyframeBuilder/endTolerance``).
  ///   - animations: sets the properties the keyframe animates.
  /// - Throws: ``ValidationError`` with the keyframe's index: `"relativeStartTime"`,
  ///   `"relativeDuration"` as ``KeyframeBuilder/addKeyframe(relativeStartTime:relativeDuration:changes:)``;
  ///   `"keyframes.<layer>.<keyPath>"` ``ValidationError/Reason/overlapping`` when an earlier
  ///   keyframe sets the same property of the same view over an overlapping interval;
  ///   `"container"` ``ValidationError/Reason/invalidState(_:)`` when the block sets the
  ///   container's layer (``AnimationBlock/setContainer(_:to:)``); the block's own errors.
  ///   Nothing is added when it throws.
  public mutating func addKeyframe(
    withRelativeStartTime start: Double, relativeDuration duration: Double,
    animations: (inout AnimationBlock) throws(ValidationError) -> Void
  ) throws(ValidationError) {
    let j = keyframes.count
    let end = try KeyframeRule.end(start: start, duration: duration, index: j)
    var block = AnimationBlock(model: model)
    try animations(&block)
    try block.refuseContainerChange("a keyframe animation")
    var changes: [(layerID: String, property: LayerProperty, value: AnimationValue)] = []
    for change in block.changed {
      for other in keyframes
      where other.changes.contains(where: {
        $0.layerID == change.layerID && $0.property == change.property
      }) && KeyframeRule.overlap(start, end, other.start, other.end) {
        throw ValidationError(
          field: "keyframes.\(change.layerID).\(change.property.keyPath)", index: j,
          reason: .overlapping)
      }
      guard let value = block.value(change.property, of: change.layerID) else { continue }
      changes.append((change.layerID, change.property, value))
    }
    keyframes.append(Keyframe(start: start, end: end, changes: changes))
    model = block.model
  }

  /// One property of one view with the keyframes that set it, in call order.
  struct PropertyKeyframes: Sendable {
    var layerID: String
    var property: LayerProperty
    var frames: [(start: Double, end: Double, value: AnimationValue)]
  }

  /// Each changed property once, in the order first set.
  func propertyKeyframes() -> [PropertyKeyframes] {
    var result: [PropertyKeyframes] = []
    for keyframe in keyframes {
      for change in keyframe.changes {
        let frame = (start: keyframe.start, end: keyframe.end, value: change.value)
        if let i = result.firstIndex(where: {
          $0.layerID == change.layerID && $0.property == change.property
        }) {
          result[i].frames.append(frame)
        } else {
          result.append(
            PropertyKeyframes(
              layerID: change.layerID, property: change.property, frames: [frame]))
        }
      }
    }
    return result
  }
}
