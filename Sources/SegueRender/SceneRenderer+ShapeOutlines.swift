import Segue

/// What a shape layer's filled paths depend on: its shape properties (path, fill, stroke and
/// its style, `strokeStart`/`strokeEnd`) and the flattening scale.
struct ShapeOutlineKey: Hashable, Sendable {
  var shape: ShapeLayerProperties
  var scale: Double
}

extension SceneRenderer {
  /// The filled paths of every renderer's shape layers (fill and stroke outline), by shape and
  /// scale.
  static let shapeOutlines = OutlineCache<ShapeOutlineKey, [LayerSnapshot.PathFill]>()

  /// ``paths(of:)``; for a shape layer, kept in ``shapeOutlines``, so a shape whose path and
  /// stroke did not change since an earlier frame is not flattened or stroked again (the same
  /// polygons, so the same pixels).
  func cachedPaths(of layer: Layer) -> [LayerSnapshot.PathFill] {
    guard case .shape(let shape) = layer.kind else { return paths(of: layer) }
    let key = ShapeOutlineKey(shape: shape, scale: scale)
    return Self.shapeOutlines.outlines(for: key) { paths(of: layer) } ?? []
  }
}
