import Segue

/// An edge of a filled path projected to image pixels, top to bottom: it crosses the line
/// `y` (for `y0 ≤ y < y1`) at ``x(at:)``, with winding `direction` (+1 when the contour runs
/// down along it). Both rasterisers decide every sample with these values and this arithmetic,
/// so they agree sample for sample.
struct PathEdge: Sendable {
  var x0: Double
  var y0: Double
  var y1: Double
  /// `Δx/Δy`.
  var slope: Double
  var direction: Int32

  /// The edge's x on the line `y`.
  @inline(__always)
  func x(at y: Double) -> Double { x0 + (y - y0) * slope }

  /// Whether the line `y` crosses the edge (half-open in y, so a vertex is counted once).
  @inline(__always)
  func crosses(_ y: Double) -> Bool { y >= y0 && y < y1 }
}

/// The projection of a layer's flattened path (closed polygons in layer coordinates) to image
/// pixels: each polygon is clipped to the part in front of the eye (`W ≥ minimumW`, in
/// homogeneous coordinates, so nothing behind the eye is mirrored into view), divided by `W`,
/// and cut into ``PathEdge``s (horizontal edges dropped: they cross no line).
enum PathProjection {
  /// Appends the edges of `polygons` through `matrix` to `edges`, with `scratch` as working
  /// memory (both keep their capacity: no allocation once warm), and returns their bounding
  /// box in pixels (empty as `minX > maxX`).
  static func append(
    _ polygons: [Polyline], matrix m: Transform3D, to edges: inout [PathEdge],
    scratch: inout [SIMD3<Double>]
  ) -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
    var box = (
      minX: Double.infinity, maxX: -Double.infinity, minY: Double.infinity, maxY: -Double.infinity
    )
    let wMin = Transform3D.minimumW
    for polygon in polygons where polygon.points.count >= 2 {
      scratch.removeAll(keepingCapacity: true)
      let points = polygon.points
      for k in points.indices {
        let a = homogeneous(points[k], m)
        let b = homogeneous(points[k + 1 == points.count ? 0 : k + 1], m)
        if a.z >= wMin { scratch.append(a) }
        if (a.z >= wMin) != (b.z >= wMin) {
          let t = (wMin - a.z) / (b.z - a.z)
          scratch.append(a + (b - a) * t)
        }
      }
      guard scratch.count >= 2 else { continue }
      for k in scratch.indices {
        let a = scratch[k]
        let b = scratch[k + 1 == scratch.count ? 0 : k + 1]
        let (ax, ay) = (a.x / a.z, a.y / a.z)
        let (bx, by) = (b.x / b.z, b.y / b.z)
        guard ax.isFinite && ay.isFinite && bx.isFinite && by.isFinite else { continue }
        box = (
          Swift.min(box.minX, ax), Swift.max(box.maxX, ax), Swift.min(box.minY, ay),
          Swift.max(box.maxY, ay)
        )
        guard ay != by else { continue }
        let down = ay < by
        let (x0, y0, x1, y1) = down ? (ax, ay, bx, by) : (bx, by, ax, ay)
        edges.append(
          PathEdge(x0: x0, y0: y0, y1: y1, slope: (x1 - x0) / (y1 - y0), direction: down ? 1 : -1))
      }
    }
    return box
  }

  /// `[u v 1]` through the plane homography of `m`: `(X, Y, W)`.
  @inline(__always)
  static func homogeneous(_ p: Point, _ m: Transform3D) -> SIMD3<Double> {
    SIMD3(
      p.x * m.m11 + p.y * m.m21 + m.m41, p.x * m.m12 + p.y * m.m22 + m.m42,
      p.x * m.m14 + p.y * m.m24 + m.m44)
  }

  /// Whether winding number `w` is inside by `rule`.
  @inline(__always)
  static func isInside(_ w: Int32, _ rule: FillRule) -> Bool {
    rule == .nonZero ? w != 0 : w & 1 != 0
  }
}

extension ReferenceRasterizer {
  /// The hits of pixel `(px, py)` on a filled path: of its 16 samples, those whose winding
  /// number (the directions of the `edges` crossing the sample's line left of it,
  /// `x(at: y) < x`) is inside by `rule`, and that every clip contains.
  static func pathHits(
    _ px: Int, _ py: Int, _ edges: UnsafeBufferPointer<PathEdge>, _ rule: FillRule,
    _ clips: UnsafeBufferPointer<PreparedClip>
  ) -> Int {
    var hits = 0
    for b in 0..<samplesPerAxis {
      let y = sample(py, b)
      for a in 0..<samplesPerAxis {
        let x = sample(px, a)
        var w: Int32 = 0
        for e in edges where e.crosses(y) && e.x(at: y) < x { w += e.direction }
        guard PathProjection.isInside(w, rule) else { continue }
        var clipped = false
        for clip in clips where !clip.contains(x, y) { clipped = true }
        if !clipped { hits += 1 }
      }
    }
    return hits
  }

  /// Draws the path fills of `layer` (``LayerSnapshot/paths``) into `buffer`, each pixel its
  /// path's colour times its hits (``pathHits(_:_:_:_:_:)``) over 16, at the layer's opacity.
  static func drawPaths(
    _ layer: RasterLayer, _ clips: UnsafeBufferPointer<PreparedClip>,
    into buffer: inout PixelBufferRGBAFloat
  ) {
    let opacity = Float(layer.opacity)
    let add = layer.blendMode == .add
    let stride = buffer.stride
    for path in layer.snapshot.paths {
      var edges: [PathEdge] = []
      var scratch: [SIMD3<Double>] = []
      let bounds = PathProjection.append(
        path.polygons, matrix: layer.matrix, to: &edges, scratch: &scratch)
      guard let box = pathBox(bounds, width: buffer.width, height: buffer.height) else {
        continue
      }
      let color = LayerSnapshot.premultiplied(path.color)
      edges.withUnsafeBufferPointer { edges in
        buffer.components.withUnsafeMutableBufferPointer { pixels in
          for py in box.y0..<box.y1 {
            for px in box.x0..<box.x1 {
              let hits = pathHits(px, py, edges, path.fillRule, clips)
              guard hits > 0 else { continue }
              blend(color * Double(hits), opacity, add, pixels.baseAddress! + py * stride + 4 * px)
            }
          }
        }
      }
    }
  }

  /// The pixels a path's projected bounding box touches, clamped to the image; `nil` when
  /// empty.
  static func pathBox(
    _ b: (minX: Double, maxX: Double, minY: Double, maxY: Double), width: Int, height: Int
  ) -> (x0: Int, x1: Int, y0: Int, y1: Int)? {
    guard b.minX <= b.maxX, b.minY <= b.maxY else { return nil }
    var polygon = ScreenPolygon()
    polygon.count = 1
    (polygon.minX, polygon.maxX, polygon.minY, polygon.maxY) = (b.minX, b.maxX, b.minY, b.maxY)
    return pixelBox(polygon, width: width, height: height)
  }
}
