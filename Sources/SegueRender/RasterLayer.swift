import Segue

/// One layer to rasterise: its snapshot, its full matrix from layer space to the image, its
/// opacity and its blend mode.
public struct RasterLayer: Hashable, Sendable {
  /// What the layer shows (bounds in layer coordinates).
  public var snapshot: LayerSnapshot
  /// Layer space → image pixels, a CATransform3D (row vectors: `[x y z 1]·M`, then divide by
  /// `w`). For a layer tree this is the layer's matrix to the container (``LayerTree``), times a
  /// scale if the image has more pixels than the container has points.
  public var matrix: Transform3D
  /// The presented opacity in `[0, 1]` (already multiplied down the tree).
  public var opacity: Double
  /// "over" for ordinary layers, "add" for the two layers of a cross-dissolve.
  public var blendMode: BlendMode

  /// Creates a raster layer.
  public init(
    snapshot: LayerSnapshot, matrix: Transform3D = .identity, opacity: Double = 1,
    blendMode: BlendMode = .over
  ) {
    self.snapshot = snapshot
    self.matrix = matrix
    self.opacity = opacity
    self.blendMode = blendMode
  }

  /// Throws unless the layer can be drawn: a finite matrix, a valid snapshot, an opacity in
  /// `[0, 1]`.
  func validate() throws(ValidationError) {
    for i in 0..<16 { try Validate.finite(matrix[i / 4, i % 4], "matrix", index: i) }
    try snapshot.validate()
    try Validate.inRange(opacity, 0, 1, "opacity")
  }
}

/// An entry of a render list: a layer, or an opacity group of entries.
public enum RenderItem: Hashable, Sendable {
  /// One layer, drawn directly onto what is below.
  case layer(RasterLayer)
  /// An opacity group (`allowsGroupOpacity`): `items` are rendered into a cleared off-screen
  /// image, which is then composited "over" with `opacity` in `[0, 1]`.
  indirect case group(opacity: Double, items: [RenderItem])
}

/// The plane homography of a layer matrix and its inverse, as plain values.
///
/// A layer point `(u, v, 0)` maps to `[X Y Z W] = [u v 0 1]·M`; on the plane `z = 0` this is
/// `[X Y W] = [u v 1]·H` with
///
///     H = | m11 m12 m14 |
///         | m21 m22 m24 |
///         | m41 m42 m44 |
///
/// and a pixel position `(x, y)` maps back by `[U V Ω] = [x y 1]·H⁻¹`, `(u, v) = (U/Ω, V/Ω)`,
/// `Ω = 1/W`. The entries are row-major: `[U V Ω] = (x·h0 + y·h3 + h6, x·h1 + y·h4 + h7,
/// x·h2 + y·h5 + h8)`.
struct Homography: Sendable {
  var h0, h1, h2, h3, h4, h5, h6, h7, h8: Double

  /// `H` of `m`.
  init(plane m: Transform3D) {
    (h0, h1, h2, h3, h4, h5, h6, h7, h8) = (
      m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44
    )
  }

  init(
    _ h0: Double, _ h1: Double, _ h2: Double, _ h3: Double, _ h4: Double, _ h5: Double,
    _ h6: Double, _ h7: Double, _ h8: Double
  ) {
    (self.h0, self.h1, self.h2, self.h3, self.h4, self.h5, self.h6, self.h7, self.h8) = (
      h0, h1, h2, h3, h4, h5, h6, h7, h8
    )
  }

  /// The inverse by the adjugate, or `nil` when the matrix is singular by Decision 4
  /// (`|det| ≤ 1e-12·(max |hᵢⱼ|)³` or not finite).
  func inverted() -> Homography? {
    let c00 = h4 * h8 - h5 * h7
    let c01 = h5 * h6 - h3 * h8
    let c02 = h3 * h7 - h4 * h6
    let det = h0 * c00 + h1 * c01 + h2 * c02
    let maxMagnitude = Swift.max(
      Swift.max(Swift.max(abs(h0), abs(h1)), Swift.max(abs(h2), abs(h3))),
      Swift.max(Swift.max(abs(h4), abs(h5)), Swift.max(Swift.max(abs(h6), abs(h7)), abs(h8))))
    guard !Transform3D.isSingular(determinant: det, maxMagnitude: maxMagnitude, order: 3) else {
      return nil
    }
    return Homography(
      c00 / det, (h2 * h7 - h1 * h8) / det, (h1 * h5 - h2 * h4) / det,
      c01 / det, (h0 * h8 - h2 * h6) / det, (h2 * h3 - h0 * h5) / det,
      c02 / det, (h1 * h6 - h0 * h7) / det, (h0 * h4 - h1 * h3) / det)
  }
}
