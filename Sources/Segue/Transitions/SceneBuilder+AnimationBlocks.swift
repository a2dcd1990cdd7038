/// UIView's block animations on the builder: `UIView.animate(withDuration:delay:options:animations:)`
/// and `UIView.animateKeyframes(withDuration:delay:options:animations:)`, whose blocks set view
/// properties (``AnimationBlock/set(_:of:to:)``, ``AnimationBlock/setFrame(_:of:)``) as UIKit
/// code does.
///
/// A block's changes become model values at once, the container layer's `sublayerTransform`
/// (``AnimationBlock/setContainer(_:to:)``) included. Properties that do not animate
/// (``LayerProperty/isAnimatable``: `masksToBounds`, `maskedCorners`) change at once with no
/// animation. A duration `≤ 0` makes every change at once, without animating, as in UIKit.
extension SceneBuilder {
  /// `UIView.animate(withDuration:delay:options:animations:)`: runs `animations` on the model,
  /// then animates each property it changed from its value before the block to its last value,
  /// over `[delay, delay + duration)` paced by `timingParameters` (as
  /// ``animate(_:of:from:to:beginTime:duration:timingParameters:)``).
  ///
  /// - Parameters:
  ///   - duration: seconds, finite; `≤ 0` changes without animating.
  ///   - delay: seconds, finite, `≥ 0` (default 0).
  ///   - timingParameters: the curve (default ease-in-ease-out, UIView's default).
  ///   - animations: the block.
  /// - Throws: ``ValidationError``: `"duration"` not finite; `"delay"` not finite or negative;
  ///   the block's errors; the animations' errors. Nothing changes when it throws.
  public mutating func animate(
    withDuration duration: Double, delay: Double = 0,
    timingParameters: TimingCurveProvider? = .easeInEaseOut,
    animations: (inout AnimationBlock) throws(ValidationError) -> Void
  ) throws(ValidationError) {
    try Validate.finite(duration, "duration")
    try Validate.nonNegative(delay, "delay")
    var block = AnimationBlock(model: model)
    try animations(&block)
    var added = AnimationSet()
    if duration > 0 {
      for change in block.changed where change.property.isAnimatable {
        guard let to = block.value(change.property, of: change.layerID) else { continue }
        added.add(
          try Self.animation(
            change.property, from: change.from, to: to, beginTime: delay, duration: duration,
            timingParameters: timingParameters), to: change.layerID)
      }
    }
    if duration > 0, let from = block.containerFrom {
      containerAnimations.append(
        try Self.animation(
          .sublayerTransform, from: .transform(from),
          to: .transform(block.model.container.sublayerTransform), beginTime: delay,
          duration: duration, timingParameters: timingParameters))
    }
    model = block.model
    self.animations.append(contentsOf: added)
  }

  /// `UIView.animateKeyframes(withDuration:delay:options:animations:)`: runs `animations`, whose
  /// ``KeyframeAnimationBlock/addKeyframe(withRelativeStartTime:relativeDuration:animations:)``
  /// calls set properties, then gives each changed property one keyframe animation over
  /// `[delay, delay + duration)` built by the UIView keyframe rule
  /// (<doc:TransitionCatalog#UIView-keyframe-animations>): key `(0, value before)`, a hold key at
  /// each keyframe's start when it leaves a gap, `(start + relativeDuration, value set)`, and
  /// `(1, last value)`; the options' calculation mode, and their curve as the timing function of
  /// the whole animation.
  ///
  /// - Throws: ``ValidationError``: `"duration"` not finite; `"delay"` not finite or negative;
  ///   the keyframes' errors (``KeyframeAnimationBlock/addKeyframe(withRelativeStartTime:relativeDuration:animations:)``);
  ///   the tracks' errors (``KeyframeTrack``). Nothing changes when it throws.
  public mutating func animateKeyframes(
    withDuration duration: Double, delay: Double = 0,
    options: KeyframeAnimationOptions = .calculationModeLinear,
    animations: (inout KeyframeAnimationBlock) throws(ValidationError) -> Void
  ) throws(ValidationError) {
    try Validate.finite(duration, "duration")
    try Validate.nonNegative(delay, "delay")
    var block = KeyframeAnimationBlock(model: model)
    try animations(&block)
    var added = AnimationSet()
    if duration > 0 {
      let timing = MediaTiming(beginTime: delay, duration: duration, fillMode: .backwards)
      for track in block.propertyKeyframes() where track.property.isAnimatable {
        guard let layer = model[id: track.layerID] else { continue }
        let keys = KeyframeRule.keys(start: track.property.value(in: layer), frames: track.frames)
        let values = try KeyframeValues(
          kind: track.property.valueKind, values: keys.values, keyTimes: keys.keyTimes,
          calculationMode: options.calculationMode)
        added.add(
          try LayerAnimation(
            property: track.property, content: .keyframes(values), timing: timing,
            timingFunction: options.curve?.timingFunction), to: track.layerID)
      }
    }
    model = block.model
    self.animations.append(contentsOf: added)
  }
}
