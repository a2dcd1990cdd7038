/// The view hierarchy calls of `UIView` on the builder's model: each view is named by the id of
/// its root layer, and a view's superview is its parent layer (`nil`: the container).
///
/// Sibling order is drawing order, back to front, as `subviews` in UIKit.
extension SceneBuilder {
  /// `superview`: the id of the parent of view `id`, or `nil` when the container holds it.
  ///
  /// - Throws: ``ValidationError``: `"layer"` ``ValidationError/Reason/unknown(_:)`` for an
  ///   unknown id.
  public func superview(of id: String) throws(ValidationError) -> String? {
    let index = try layerIndex(id)
    return try model.parentIndex(at: index).map { model.layers[$0].id }
  }

  /// `subviews`: the ids of the views directly under `id` (`nil`: the container's), back to
  /// front.
  ///
  /// - Throws: ``ValidationError``: `"layer"` ``ValidationError/Reason/unknown(_:)`` for an
  ///   unknown id.
  public func subviews(of id: String?) throws(ValidationError) -> [String] {
    if let id { _ = try layerIndex(id) }
    return try model.children(of: id).map { model.layers[$0].id }
  }

  /// `superview.addSubview(view)` for a view already in the hierarchy: moves view `id` with its
  /// subviews under `superview` (`nil`: the container), above its new siblings. Its animations
  /// stay with it; its position is read in the new superview's space, as in UIKit.
  ///
  /// - Throws: ``ValidationError``: `"layer"` for an unknown `id`; `"parent"`
  ///   ``ValidationError/Reason/unknown(_:)`` for an unknown superview, or
  ///   ``ValidationError/Reason/cyclic`` when `superview` is `id` or one of its subviews.
  public mutating func addSubview(_ id: String, to superview: String?) throws(ValidationError) {
    _ = try layerIndex(id)
    try model.move(id, toParent: superview)
  }

  /// `removeFromSuperview()`: removes view `id` and its subviews from the model, with their
  /// animations (UIKit removes a view's animations with it).
  ///
  /// - Throws: ``ValidationError``: `"layer"` ``ValidationError/Reason/unknown(_:)`` for an
  ///   unknown id.
  public mutating func removeFromSuperview(_ id: String) throws(ValidationError) {
    _ = try layerIndex(id)
    let removed = Set(try model.remove(id: id).map(\.id))
    animations.removeAll(ofLayers: removed)
  }

  /// `bringSubviewToFront(_:)`: moves view `id` above its siblings (same superview).
  ///
  /// - Throws: ``ValidationError``: `"layer"` ``ValidationError/Reason/unknown(_:)`` for an
  ///   unknown id.
  public mutating func bringSubviewToFront(_ id: String) throws(ValidationError) {
    try addSubview(id, to: try superview(of: id))
  }

  /// `sendSubviewToBack(_:)`: moves view `id` below its siblings (same superview), by moving
  /// every other sibling above it in its order.
  ///
  /// - Throws: ``ValidationError``: `"layer"` ``ValidationError/Reason/unknown(_:)`` for an
  ///   unknown id.
  public mutating func sendSubviewToBack(_ id: String) throws(ValidationError) {
    let parent = try superview(of: id)
    for sibling in try subviews(of: parent) where sibling != id {
      try model.move(sibling, toParent: parent)
    }
  }

  /// `view.frame` (``Layer/frame``).
  ///
  /// - Throws: ``ValidationError``: `"layer"` ``ValidationError/Reason/unknown(_:)`` for an
  ///   unknown id.
  public func frame(of id: String) throws(ValidationError) -> Rect {
    model.layers[try layerIndex(id)].frame
  }

  /// `view.frame = frame` outside an animation block: sets `bounds.size` and `position` now, as
  /// ``Layer/frame``'s setter. Inside a block use ``AnimationBlock/setFrame(_:of:)``.
  ///
  /// - Throws: ``ValidationError``: `"layer"` for an unknown id; `"frame"`
  ///   ``ValidationError/Reason/notFinite`` (with the channel index: x, y, width, height) for a
  ///   coordinate that is not finite, the null rectangle included; `"frame"`
  ///   ``ValidationError/Reason/invalidState(_:)`` for a resizable snapshot with cap insets not
  ///   larger than its caps (its parts are re-laid out:
  ///   ``resizableSnapshotView(of:from:afterScreenUpdates:withCapInsets:named:)``).
  public mutating func setFrame(_ frame: Rect, of id: String) throws(ValidationError) {
    let index = try layerIndex(id)
    try AnimationValue.rect(frame).validate(field: "frame")
    var layer = model.layers[index]
    layer.frame = frame
    var updated = model
    try updated.update(layer)
    try updated.layOutNineParts(of: id, field: "frame")
    model = updated
  }

  func layerIndex(_ id: String) throws(ValidationError) -> Int {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    return index
  }
}
