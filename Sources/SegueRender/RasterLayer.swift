import Segue

/// One layer to rasterise: its snapshot, its full matrix from layer space to the image, its
/// opacity and its blend mode.
public struct RasterLayer: Hashable, Sendable {
  /// The id of the layer drawn (``/Segue/Layer/id``; empty for a layer not taken from a layer
  /// tree). The rasterisers do not read it: it names the layer in a render list.
  public var id: String
  /// What the layer shows (bounds in layer coordinates).
  public var snapshot: LayerSnapshot
  /// Layer space → image pixels, a CATransform3D (row vectors: `[x y z 1]·M`, then divide by
  /// `w`). For a layer tree this is the layer's matrix to the container (``/Segue/LayerTree``), times a
  /// scale if the image has more pixels than the container has points.
  public var matrix: Transform3D
  /// The presented opacity in `[0, 1]` (already multiplied down the tree).
  public var opacity: Double
  /// "over" for ordinary layers, "add" for the two layers of a cross-dissolve.
  public var blendMode: BlendMode
  /// Which parts of the snapshot to draw (default all: shadow, body, border, in that order).
  /// A scene draws a layer's border after its sublayers, as a second raster layer.
  public var parts: LayerParts
  /// Clips: every sample must also lie inside each of these shapes (the rounded bounds of the
  /// layer's ancestors with `masksToBounds`).
  public var clips: [ClipShape]
  /// The part of the layer's plane to draw, in its own coordinates: a sample is drawn only when
  /// the layer point it maps back to lies in the region (a piece of a layer that depth sorting
  /// cut, ``/Segue/DrawStep/region``). The whole plane by default.
  public var region: ConvexRegion

  /// Creates a raster layer.
  public init(
    id: String = "", snapshot: LayerSnapshot, matrix: Transform3D = .identity, opacity: Double = 1,
    blendMode: BlendMode = .over, parts: LayerParts = .all, clips: [ClipShape] = [],
    region: ConvexRegion = .wholePlane
  ) {
    self.id = id
    self.snapshot = snapshot
    self.matrix = matrix
    self.opacity = opacity
    self.blendMode = blendMode
    self.parts = parts
    self.clips = clips
    self.region = region
  }

  /// Throws unless the layer can be drawn: a finite matrix, a valid snapshot, an opacity in
  /// `[0, 1]`, valid clips, a region of finite half-planes.
  func validate() throws(ValidationError) {
    for i in 0..<16 { try Validate.finite(matrix[i / 4, i % 4], "matrix", index: i) }
    try snapshot.validate()
    try Validate.inRange(opacity, 0, 1, "opacity")
    for clip in clips { try clip.validate() }
    for (k, h) in region.halfPlanes.enumerated() {
      for value in [h.a, h.b, h.c] { try Validate.finite(value, "region", index: k) }
    }
  }

  /// The layer's region as a clip in the layer's own plane, bounded by the extents of the parts
  /// drawn (for the fast rasteriser's spans), or `nil` for the whole plane.
  func regionClip(_ paint: SnapshotPaint) -> PreparedClip? {
    guard !region.isWholePlane else { return nil }
    var extent: Rect?
    for part in LayerPart.allCases where parts.contains(part.set) && paint.has(part) {
      let e = paint.extent(of: part)
      extent = extent.map { Rect(boundingBoxOf: Quad($0).points + Quad(e).points) } ?? e
    }
    return PreparedClip(region: region, matrix: matrix, extent: extent ?? .zero)
  }
}

/// A clip: the rounded bounds of a layer with `masksToBounds` (the `RoundedRect` rules: half-open,
/// corners of radius `min(cornerRadius, width/2, height/2)`), mapped to the image by `matrix`.
/// A sample of a clipped layer is drawn only when its pixel position maps back inside the
/// shape, in front of the eye: the clip is decided per sample, like the layer's own edges.
public struct ClipShape: Hashable, Sendable {
  /// The clipping layer's bounds (its own coordinates).
  public var bounds: Rect
  /// Its corner radius (negative counts as 0).
  public var cornerRadius: Double
  /// The corners the radius rounds (`CALayer.maskedCorners`); default all.
  public var maskedCorners: CornerMask
  /// Its matrix to the image (as ``RasterLayer/matrix``).
  public var matrix: Transform3D

  /// Creates a clip.
  public init(
    bounds: Rect, cornerRadius: Double = 0, maskedCorners: CornerMask = .all,
    matrix: Transform3D
  ) {
    self.bounds = bounds
    self.cornerRadius = cornerRadius
    self.maskedCorners = maskedCorners
    self.matrix = matrix
  }

  /// - Throws: ``ValidationError/Reason/notFinite`` naming `clip.matrix` (index 0…15),
  ///   `clip.bounds` (index 0…3) or `clip.cornerRadius`.
  func validate() throws(ValidationError) {
    for i in 0..<16 { try Validate.finite(matrix[i / 4, i % 4], "clip.matrix", index: i) }
    try Validate.finite(bounds.origin.x, "clip.bounds", index: 0)
    try Validate.finite(bounds.origin.y, "clip.bounds", index: 1)
    try Validate.finite(bounds.size.width, "clip.bounds", index: 2)
    try Validate.finite(bounds.size.height, "clip.bounds", index: 3)
    try Validate.finite(cornerRadius, "clip.cornerRadius")
  }

  /// The shape in its layer's coordinates.
  var shape: RoundedRect {
    RoundedRect(
      bounds.minX, bounds.maxX, bounds.minY, bounds.maxY, radius: cornerRadius,
      corners: maskedCorners)
  }
}

/// A clip prepared for sampling: its pixel → layer homography (`nil` when singular: nothing
/// is inside), its shape and the half-planes of a region (a depth-sorted piece).
struct PreparedClip: Sendable {
  var inverse: Homography?
  var shape: RoundedRect
  var halfPlanes: [HalfPlane] = []
  /// Whether the clip decides whole pixels, at their centres (a region's cut edges), rather than
  /// each sample.
  var decidesPixels = false
  /// The projected shape, and the projected rectangle inside it away from the rounded corners
  /// (pixels wholly inside the latter are wholly inside the clip).
  var polygon: ScreenPolygon
  var core: ScreenPolygon

  init(_ clip: ClipShape) {
    inverse = Homography(plane: clip.matrix).inverted()
    shape = clip.shape
    polygon = ScreenPolygon(shape.rect, clip.matrix)
    let r = shape.radius
    core =
      r > 0
      ? ScreenPolygon(
        Rect(
          x: shape.x0 + r, y: shape.y0, width: shape.x1 - shape.x0 - 2 * r,
          height: shape.y1 - shape.y0), clip.matrix) : polygon
    // A rounded shape is covered by the union of its two inner crosses; the core is the taller
    // one here, which is all the fast path needs (anything else is sampled).
  }

  /// The region `region` of the plane of the layer with `matrix` as a clip that decides whole
  /// pixels: a pixel is in when its centre maps into the region, so the pieces of a cut layer
  /// share out its pixels with neither seam nor overlap (Core Animation draws layer edges
  /// without antialiasing unless `allowsEdgeAntialiasing` is set). No shape bounds it; its
  /// outer polygon is not finite (it narrows nothing) and its core, the part of `extent` in the
  /// region projected, holds the pixels wholly inside (none when that part has more than 8
  /// vertices on screen).
  init(region: ConvexRegion, matrix: Transform3D, extent: Rect) {
    inverse = Homography(plane: matrix).inverted()
    let infinity = Double.infinity
    shape = RoundedRect(-infinity, infinity, -infinity, infinity, radius: 0)
    halfPlanes = region.halfPlanes
    decidesPixels = true
    polygon = ScreenPolygon()
    polygon.isFinite = false
    core = ScreenPolygon(region.polygon(clipping: extent), matrix)
  }

  /// Whether the pixel position `(x, y)` is inside the clip (at the centre of its pixel when the
  /// clip ``decidesPixels``): the reference's arithmetic for mapping back, then
  /// ``RoundedRect/contains(_:_:)`` and every half-plane.
  @inline(__always)
  func contains(_ sampleX: Double, _ sampleY: Double) -> Bool {
    guard let h = inverse else { return false }
    let x = decidesPixels ? sampleX.rounded(.down) + 0.5 : sampleX
    let y = decidesPixels ? sampleY.rounded(.down) + 0.5 : sampleY
    let omega = x * h.h2 + y * h.h5 + h.h8
    guard omega > 0 && omega < 1 / Transform3D.minimumW else { return false }
    let u = (x * h.h0 + y * h.h3 + h.h6) / omega
    let v = (x * h.h1 + y * h.h4 + h.h7) / omega
    for plane in halfPlanes where !plane.contains(x: u, y: v) { return false }
    return shape.contains(u, v)
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

  /// The inverse by the adjugate, or `nil` when the matrix is singular by Segue's relative test
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
