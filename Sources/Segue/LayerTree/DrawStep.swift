/// One step of a layer tree's draw order (``LayerTree/drawOrder()``): a layer, drawn where
/// ``region`` contains the layer point — everywhere unless depth sorting cut the layer, or the
/// ancestor it is flattened into, into pieces (<doc:DepthOrder>).
public struct DrawStep: Hashable, Sendable {
  /// The layer's index in ``LayerTree/layers``.
  public var layer: Int
  /// The part of the layer's plane drawn at this step, in the layer's own coordinates (its
  /// shadow and everything outside its bounds included); ``ConvexRegion/wholePlane`` for a
  /// layer drawn whole.
  public var region: ConvexRegion

  /// Creates a step.
  public init(layer: Int, region: ConvexRegion = .wholePlane) {
    self.layer = layer
    self.region = region
  }
}

/// One of the steps at which a layer is drawn, for a layer that depth sorting cut into pieces or
/// that lies in a layer it cut (it is then drawn once per piece of that layer).
public struct LayerPiece: Hashable, Sendable {
  /// The step's position in the draw order (0 is drawn first, at the bottom).
  public var order: Int
  /// The part of the layer's plane drawn at this step, in the layer's own coordinates.
  public var region: ConvexRegion
  /// The part of the layer's bounds drawn at this step: the region's `polygon(clipping:)` of the
  /// bounds, a convex polygon in the layer's own coordinates in the bounds' corner order
  /// (top-left first), empty when none of the bounds is in the region.
  public var polygon: [Point]

  /// Creates a piece.
  public init(order: Int, region: ConvexRegion, polygon: [Point]) {
    self.order = order
    self.region = region
    self.polygon = polygon
  }
}
