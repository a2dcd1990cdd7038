/// `snapshotView(afterScreenUpdates:)` and `resizableSnapshotView(from:afterScreenUpdates:withCapInsets:)`
/// on the builder: a copy of a view's layer subtree under fresh ids, ready for ``addSubview(_:)``.
///
/// The copy's root is named `named`; each copied sublayer `x` is named `"named/x"`. The root
/// keeps the view's appearance (bounds, anchor point, background, corners, border, shadow,
/// opacity) but not where the view sits: its frame origin is `(0, 0)`, its transform the
/// identity and its `zPosition` 0, as a snapshot view is a new, untransformed view. Animations
/// are not copied: a snapshot is still.
///
/// The builder holds one state, the model, so `afterScreenUpdates` makes no difference: both
/// copy the model values, which is what the screen shows once it has updated.
extension SceneBuilder {
  /// `snapshotView(afterScreenUpdates:)` of view `id`.
  ///
  /// - Throws: ``ValidationError``: `"layer"` ``ValidationError/Reason/unknown(_:)`` for an
  ///   unknown id.
  public func snapshotView(of id: String, afterScreenUpdates: Bool, named snapshotID: String)
    throws(ValidationError) -> LayerTree
  {
    var tree = LayerTree()
    try copySubtree(of: id, named: snapshotID, into: &tree, under: nil) { root in
      let size = root.bounds.standardized.size
      root.position = Point(x: root.anchorPoint.x * size.width, y: root.anchorPoint.y * size.height)
    }
    return tree
  }

  /// `resizableSnapshotView(from:afterScreenUpdates:withCapInsets:)` of view `id`: a clipping
  /// root `named` of `rect`'s size (`masksToBounds`, frame origin `(0, 0)`) holding the copy of
  /// the view placed so that `rect` (in the view's bounds space) fills it.
  ///
  /// A layer-tree snapshot is not an image, so it cannot stretch: only `.zero` cap insets are
  /// accepted (resizing the snapshot view then changes its clip, not its scale).
  ///
  /// - Throws: ``ValidationError``: `"layer"` for an unknown id; `"rect"`
  ///   ``ValidationError/Reason/notFinite`` (with the channel index) for a coordinate that is
  ///   not finite, the null rectangle included; `"capInsets"`
  ///   ``ValidationError/Reason/invalidState(_:)`` for insets other than `.zero`.
  public func resizableSnapshotView(
    of id: String, from rect: Rect, afterScreenUpdates: Bool, withCapInsets capInsets: EdgeInsets,
    named snapshotID: String
  ) throws(ValidationError) -> LayerTree {
    _ = try layerIndex(id)
    try AnimationValue.rect(rect).validate(field: "rect")
    guard capInsets == .zero else {
      throw ValidationError(
        field: "capInsets",
        reason: .invalidState("a layer-tree snapshot cannot stretch; use EdgeInsets.zero"))
    }
    let clip = rect.standardized
    var tree = LayerTree()
    try tree.add(
      Layer(
        id: snapshotID, bounds: Rect(origin: .zero, size: clip.size),
        position: Point(x: clip.size.width / 2, y: clip.size.height / 2), masksToBounds: true))
    try copySubtree(of: id, named: "\(snapshotID)/\(id)", into: &tree, under: snapshotID) {
      root in
      let b = root.bounds.standardized
      root.position = Point(
        x: root.anchorPoint.x * b.width + b.minX - clip.minX,
        y: root.anchorPoint.y * b.height + b.minY - clip.minY)
    }
    return tree
  }

  /// Copies the subtree of `id` into `tree` under `parent`: the root as `rootID` (untransformed,
  /// at `zPosition` 0, then adjusted by `place`), each descendant `x` as `"rootID/x"`.
  private func copySubtree(
    of id: String, named rootID: String, into tree: inout LayerTree, under parent: String?,
    place: (inout Layer) -> Void
  ) throws(ValidationError) {
    let root = try layerIndex(id)
    var rootLayer = model.layers[root]
    rootLayer.id = rootID
    rootLayer.transform = .identity
    rootLayer.zPosition = 0
    place(&rootLayer)
    try tree.add(rootLayer, parent: parent)
    // Parents precede their children in the model, so one pass from the root finds the subtree.
    var inSubtree = [root: true]
    for index in (root + 1)..<model.count {
      guard let p = try model.parentIndex(at: index), inSubtree[p] == true else { continue }
      inSubtree[index] = true
      var layer = model.layers[index]
      let parentID = p == root ? rootID : "\(rootID)/\(model.layers[p].id)"
      layer.id = "\(rootID)/\(layer.id)"
      try tree.add(layer, parent: parentID)
    }
  }
}
