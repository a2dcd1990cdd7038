/// The layer-space points of a run of pixels, as a rasteriser walks them: pixel `k` of the run
/// (`k = 0, 1, …`) maps to
/// `((x + k·dx) / (w + k·dw), (y + k·dy) / (w + k·dw))`,
/// and one pixel down changes the homogeneous numerators by `(rowDX, rowDY, rowDW)`.
///
/// For a layer drawn through the plane homography `H` (rows and columns 1, 2, 4 of its
/// `CATransform3D`), the inverse `G = H⁻¹` gives, for pixel centre `(px + ½, py + ½)`:
/// `(x, y, w) = (px + ½, py + ½, 1)·G`, `(dx, dy, dw)` its first row and `(rowDX, rowDY, rowDW)`
/// its second. An affine map has `dw = rowDW = 0`. Only `w > 0` is in front of the eye: the
/// callers clip before.
public struct ProjectiveSpan: Hashable, Sendable {
  /// Homogeneous x, y and w of pixel 0.
  public var x, y, w: Double
  /// Their change per pixel along the run.
  public var dx, dy, dw: Double
  /// Their change per pixel row.
  public var rowDX, rowDY, rowDW: Double

  /// Creates a span.
  public init(
    x: Double, y: Double, w: Double = 1, dx: Double, dy: Double, dw: Double = 0,
    rowDX: Double, rowDY: Double, rowDW: Double = 0
  ) {
    (self.x, self.y, self.w) = (x, y, w)
    (self.dx, self.dy, self.dw) = (dx, dy, dw)
    (self.rowDX, self.rowDY, self.rowDW) = (rowDX, rowDY, rowDW)
  }

  /// The point of pixel `k`.
  @inlinable
  public func point(_ k: Int) -> (x: Double, y: Double) {
    let kd = Double(k)
    let w = self.w + kd * dw
    return ((x + kd * dx) / w, (y + kd * dy) / w)
  }

  /// The Jacobian of the pixel → point map at pixel `k`: the change of the point per pixel
  /// along the run (`alongRun`) and per row (`acrossRows`).
  @inlinable
  public func jacobian(_ k: Int) -> (
    alongRun: (x: Double, y: Double), acrossRows: (x: Double, y: Double)
  ) {
    let kd = Double(k)
    let w = self.w + kd * dw
    let u = (x + kd * dx) / w
    let v = (y + kd * dy) / w
    return (
      ((dx - u * dw) / w, (dy - v * dw) / w), ((rowDX - u * rowDW) / w, (rowDY - v * rowDW) / w)
    )
  }

  /// The span after the affine map `p ↦ (a·p.x + c, b·p.y + d)` (a scale and offset per axis,
  /// as a ``ContentsPiece`` maps points to texels).
  public func scaled(x a: Double, offsetX c: Double, y b: Double, offsetY d: Double)
    -> ProjectiveSpan
  {
    ProjectiveSpan(
      x: a * x + c * w, y: b * y + d * w, w: w, dx: a * dx + c * dw, dy: b * dy + d * dw, dw: dw,
      rowDX: a * rowDX + c * rowDW, rowDY: b * rowDY + d * rowDW, rowDW: rowDW)
  }
}
