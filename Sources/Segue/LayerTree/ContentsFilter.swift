/// How a layer's `contents` image is sampled when it is drawn smaller
/// (`minificationFilter`) or larger (`magnificationFilter`) than its pixels
/// (`CALayerContentsFilter`).
public enum ContentsFilter: String, Hashable, Sendable, CaseIterable {
  /// `kCAFilterNearest`: the texel whose square holds the sample point.
  case nearest
  /// `kCAFilterLinear` (the default for both): bilinear between the four nearest texels of the
  /// full-size image.
  case linear
  /// `kCAFilterTrilinear`: as `linear`, on the two mipmap levels whose texel size brackets the
  /// pixel's footprint, blended by the footprint's level of detail (as `linear` when magnifying).
  case trilinear
}
