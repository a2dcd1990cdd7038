extension TransitionScene {
  /// Throws ``ValidationError/Reason/invalidState(_:)`` on `"containerAnimations.keyPath"` (with
  /// the index) for an animation of another property than `sublayerTransform`, the one property
  /// of the container's layer a transition sets.
  static func validateContainer(_ animations: [LayerAnimation]) throws(ValidationError) {
    for (i, animation) in animations.enumerated() where animation.property != .sublayerTransform {
      throw ValidationError(
        field: "containerAnimations.keyPath", index: i,
        reason: .invalidState(
          "the container's layer animates sublayerTransform only, not \(animation.property.keyPath)"
        ))
    }
  }

  /// The container's bounds, `(0, 0, W, H)`.
  var containerBounds: Rect {
    Rect(x: 0, y: 0, width: containerSize.width, height: containerSize.height)
  }

  /// Gives `tree`'s container the scene's bounds and writes the container animations' values at
  /// `time` over its model `sublayerTransform`, by the rule of ``AnimationSet``: in the order
  /// added, a later one winning, a backwards fill never covering an earlier one that shows.
  func presentContainer(in tree: inout LayerTree, at time: Double) {
    tree.container.bounds = containerBounds
    var written = false
    for animation in compiledContainerAnimations {
      guard let (eased, phase) = animation.eased(atParentTime: time) else { continue }
      if phase == .before, written { continue }
      written = true
      if case .transform(let m) = animation.value(atEased: eased, beforeFlag: phase == .before) {
        tree.container.sublayerTransform = m
      }
    }
  }

  /// The rate of the container's `sublayerTransform` at `time` (the animation
  /// ``presentContainer(in:at:)`` writes last), as layer rates.
  func containerRates(at time: Double) throws(ValidationError) -> LayerPropertyRates {
    var rates = LayerPropertyRates()
    var written = false
    for animation in compiledContainerAnimations {
      guard let (_, phase) = animation.eased(atParentTime: time) else { continue }
      if phase == .before, written { continue }
      written = true
      if case .transform(let m)? = try animation.rate(atParentTime: time) {
        rates.sublayerTransform = m
      }
    }
    return rates
  }
}
