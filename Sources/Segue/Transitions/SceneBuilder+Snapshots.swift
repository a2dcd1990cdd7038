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

  /// `resizableSnapshotView(from:afterScreenUpdates:withCapInsets:)` of view `id`: a root
  /// `named` of `rect`'s size (`masksToBounds`, frame origin `(0, 0)`) showing `rect` (in the
  /// view's bounds space).
  ///
  /// With `.zero` cap insets the root holds one copy of the view placed so that `rect` fills
  /// it; resizing the snapshot view changes its clip, not its scale.
  ///
  /// With other cap insets the snapshot stretches as UIKit's does when its frame or bounds
  /// change: the caps keep their size and the middle stretches (`contentsCenter`'s nine-part
  /// rule). A layer tree is not an image, so each part is a clipping layer `"named/part"`
  /// (`topLeft`, `top`, `topRight`, `left`, `center`, `right`, `bottomLeft`, `bottom`,
  /// `bottomRight`; only those with a non-zero cap, and `center`) holding its own copy
  /// `"named/part/id"` of the view (descendants `"named/part/id/x"`), scaled by 1 in a cap and
  /// by `(W − left − right) / (rect.width − left − right)` across the middle (rows alike).
  /// Setting the root's `frame`, `bounds` or `bounds.size` — in or out of an animation block, or
  /// with ``SceneBuilder/animate(_:of:from:to:beginTime:duration:timingParameters:)`` —
  /// re-lays out the parts. Their positions, sizes and scales are affine in the root's size
  /// and a scale-only transform interpolates its factors linearly, so animating them with the
  /// root's curve gives the exactly stretched image at every time (with linear, discrete or
  /// cubic keyframes too; paced keyframes pace each part on its own). The view is copied once
  /// per part, so a snapshot of `n` layers adds up to `9n + 10` layers.
  ///
  /// - Throws: ``ValidationError``: `"layer"` for an unknown id; `"rect"`
  ///   ``ValidationError/Reason/notFinite`` (with the channel index) for a coordinate that is
  ///   not finite, the null rectangle included; `"capInsets"` (with the index: top, left,
  ///   bottom, right) ``ValidationError/Reason/notFinite`` or
  ///   ``ValidationError/Reason/negative``, and ``ValidationError/Reason/invalidState(_:)``
  ///   when left + right is not less than the rect's width or top + bottom its height.
  public func resizableSnapshotView(
    of id: String, from rect: Rect, afterScreenUpdates: Bool, withCapInsets capInsets: EdgeInsets,
    named snapshotID: String
  ) throws(ValidationError) -> LayerTree {
    let view = try layerIndex(id)
    try AnimationValue.rect(rect).validate(field: "rect")
    let clip = rect.standardized
    var tree = LayerTree()
    try tree.add(
      Layer(
        id: snapshotID, bounds: Rect(origin: .zero, size: clip.size),
        position: Point(x: clip.size.width / 2, y: clip.size.height / 2), masksToBounds: true))
    guard capInsets == .zero else {
      try NinePartSnapshot.validate(capInsets, in: clip)
      let anchor = model.layers[view].anchor
      let layout = NinePartSnapshot(
        source: clip, capInsets: capInsets, viewID: id,
        copyAnchor: Point(x: anchor.x, y: anchor.y))
      for part in layout.parts {
        let partID = "\(snapshotID)/\(part.name)"
        try tree.add(Layer(id: partID, masksToBounds: true), parent: snapshotID)
        try copySubtree(of: id, named: "\(partID)/\(id)", into: &tree, under: partID) { _ in }
      }
      tree.ninePartSnapshots[snapshotID] = layout
      try tree.layOutNineParts(of: snapshotID, field: "rect")
      return tree
    }
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
