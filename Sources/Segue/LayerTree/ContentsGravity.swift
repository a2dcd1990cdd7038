/// How a layer places its `contents` image in its bounds (`CALayerContentsGravity`).
///
/// Segue's layer space is y-down, as UIKit's: **`top` means the edge at the bounds' smallest y**
/// (the top of the screen for an untransformed layer), as `UIView.contentMode`'s `.top` does.
/// (A bare `CALayer` on iOS whose `contentsAreFlipped()` is `false` names its vertical gravities
/// in Core Animation's y-up sense, so there `top` lands at the bottom; Segue follows what a
/// UIKit view shows.)
///
/// The nine positional values keep the image at its natural size in points (pixels divided by
/// `contentsScale`); the three `resize` values scale it, and only they use `contentsCenter`.
public enum ContentsGravity: String, Hashable, Sendable, CaseIterable {
  /// `kCAGravityCenter`: centred, natural size.
  case center
  /// `kCAGravityTop`: centred horizontally at the top edge, natural size.
  case top
  /// `kCAGravityBottom`: centred horizontally at the bottom edge, natural size.
  case bottom
  /// `kCAGravityLeft`: centred vertically at the left edge, natural size.
  case left
  /// `kCAGravityRight`: centred vertically at the right edge, natural size.
  case right
  /// `kCAGravityTopLeft`: in the top-left corner, natural size.
  case topLeft
  /// `kCAGravityTopRight`: in the top-right corner, natural size.
  case topRight
  /// `kCAGravityBottomLeft`: in the bottom-left corner, natural size.
  case bottomLeft
  /// `kCAGravityBottomRight`: in the bottom-right corner, natural size.
  case bottomRight
  /// `kCAGravityResize` (the default): stretched to fill the bounds exactly.
  case resize
  /// `kCAGravityResizeAspect`: scaled uniformly to fit inside the bounds, centred.
  case resizeAspect
  /// `kCAGravityResizeAspectFill`: scaled uniformly to cover the bounds, centred (the overflow is
  /// visible unless the layer masks to its bounds).
  case resizeAspectFill

  /// Whether the image is scaled to the bounds (`resize`, `resizeAspect`, `resizeAspectFill`):
  /// the gravities under which `contentsCenter` stretches nine parts.
  @inlinable
  public var isResizing: Bool {
    switch self {
    case .resize, .resizeAspect, .resizeAspectFill: true
    default: false
    }
  }

  /// Where the natural-size image sits along x and y, as a fraction of the free space
  /// (`0` = left/top, `0.5` = centre, `1` = right/bottom); `(0.5, 0.5)` for the resizing values.
  @inlinable
  public var alignment: (x: Double, y: Double) {
    switch self {
    case .center, .resize, .resizeAspect, .resizeAspectFill: (0.5, 0.5)
    case .top: (0.5, 0)
    case .bottom: (0.5, 1)
    case .left: (0, 0.5)
    case .right: (1, 0.5)
    case .topLeft: (0, 0)
    case .topRight: (1, 0)
    case .bottomLeft: (0, 1)
    case .bottomRight: (1, 1)
    }
  }
}
