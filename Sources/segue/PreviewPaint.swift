import Segue
import SegueRender
import SegueSpec

// What the preview page draws over a layer's fill: its `contents` image, its gradient and its
// paths (a shape's fill and stroke, a text layer's glyph outlines), in layer coordinates, as the
// renderer draws them. The page projects them through the layer's homography.

/// The page's images, each embedded once as a PNG `data:` URI however many layers, frames and
/// scenes show it.
struct PreviewImages {
  /// The `data:image/png;base64,…` URIs, by index.
  private(set) var uris: [String] = []
  private var indices: [ContentsTexture: Int] = [:]

  /// The index of `texture`'s URI, encoding it the first time.
  ///
  /// - Throws: ``CLIError`` (internal) when the image cannot be encoded.
  mutating func index(of texture: ContentsTexture) throws(CLIError) -> Int {
    if let known = indices[texture] { return known }
    let png: [UInt8]
    do throws(Segue.ValidationError) {
      png = try PNG.encode(texture.image.pixels)
    } catch {
      throw CLIError(.internalError, "", "an image cannot be encoded as PNG: \(error)")
    }
    indices[texture] = uris.count
    uris.append("data:image/png;base64," + base64(png))
    return uris.count - 1
  }
}

/// What identifies a layer's paint in the page's snapshot table.
struct PreviewPaintKey: Hashable {
  var bounds: Rect
  var cornerRadius: Double
  var maskedCorners: CornerMask
  var contents: LayerSnapshot.Contents?
  var gradient: GradientPaint?
  var paths: [LayerSnapshot.PathFill]

  /// The paint `layer` draws at this step, or `nil` when it draws none of it.
  init?(_ layer: RasterLayer) {
    let snapshot = layer.snapshot
    let parts = layer.parts
    contents = parts.contains(.contents) ? snapshot.contents : nil
    gradient = parts.contains(.gradient) ? snapshot.gradient?.paint : nil
    paths = parts.contains(.paths) ? snapshot.paths : []
    guard contents != nil || gradient != nil || !paths.isEmpty else { return nil }
    bounds = snapshot.bounds
    cornerRadius = snapshot.cornerRadius
    maskedCorners = snapshot.maskedCorners
  }

  /// The paint as the page reads it: `body` `[x0, y0, x1, y1, ρ, maskedCorners]` (the rounded
  /// bounds, `ρ = min(max(r, 0), w/2, h/2)`), and when drawn: `contents` (`image` index,
  /// `pieces` `[sx, sy, sw, sh, dx, dy, dw, dh]` of ``ContentsLayout``, `clip`, `smooth`:
  /// false for the `nearest` filters), `gradient` (`type`, `start` and `end` points `S`, `E`,
  /// `stops` `[location, r, g, b, a]` of ``GradientPaint/unitIntervalStops``) and `paths` (per
  /// fill its colour, `rule`, and `polygons`: base64 Float32 `n, x1, y1 … xn, yn` per polygon).
  func json(images: inout PreviewImages) throws(CLIError) -> JSONValue {
    let radius = Swift.min(Swift.max(cornerRadius, 0), bounds.width / 2, bounds.height / 2)
    let body = [
      bounds.minX, bounds.minY, bounds.maxX, bounds.maxY, radius, Double(maskedCorners.rawValue),
    ]
    var members: [(String, JSONValue)] = [("body", .array(body.map(JSONValue.number)))]
    if let contents, let value = try contentsJSON(contents, images: &images) {
      members.append(("contents", value))
    }
    if let gradient, !gradient.colors.isEmpty {
      members.append(("gradient", gradientJSON(gradient)))
    }
    if !paths.isEmpty { members.append(("paths", .array(paths.map(Self.pathJSON)))) }
    return .object(members)
  }

  private func contentsJSON(_ contents: LayerSnapshot.Contents, images: inout PreviewImages)
    throws(CLIError) -> JSONValue?
  {
    let image = contents.texture.image
    guard contents.contentsScale > 0,
      let pieces = try? ContentsLayout(
        imageWidth: image.width, imageHeight: image.height, bounds: bounds,
        gravity: contents.gravity, contentsRect: contents.contentsRect,
        contentsCenter: contents.contentsCenter, contentsScale: contents.contentsScale
      ).pieces(), !pieces.isEmpty
    else { return nil }
    let index = try images.index(of: contents.texture)
    let list: [JSONValue] = pieces.map { piece in
      let (s, d) = (piece.source, piece.destination)
      return .array(
        [s.minX, s.minY, s.width, s.height, d.minX, d.minY, d.width, d.height].map(
          JSONValue.number))
    }
    let smooth = contents.minificationFilter != .nearest || contents.magnificationFilter != .nearest
    return .object([
      ("image", .number(Double(index))), ("pieces", .array(list)),
      ("clip", .bool(contents.clipsToBounds)), ("smooth", .bool(smooth)),
    ])
  }

  private func gradientJSON(_ paint: GradientPaint) -> JSONValue {
    let (s, e) = paint.endPoints
    let stops: [JSONValue] = paint.unitIntervalStops.map { stop in
      .array(([stop.location] + stop.color.channels).map(JSONValue.number))
    }
    return .object([
      ("type", .string(paint.type.rawValue)),
      ("start", .array([.number(s.x), .number(s.y)])),
      ("end", .array([.number(e.x), .number(e.y)])),
      ("stops", .array(stops)),
    ])
  }

  private static func pathJSON(_ fill: LayerSnapshot.PathFill) -> JSONValue {
    var floats: [Float] = []
    // A polygon with a point beyond Float32's range is left out (the page reads Float32).
    for polygon in fill.polygons
    where polygon.points.count >= 3
      && polygon.points.allSatisfy({ Float($0.x).isFinite && Float($0.y).isFinite })
    {
      floats.append(Float(polygon.points.count))
      for p in polygon.points { floats += [Float(p.x), Float(p.y)] }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(4 * floats.count)
    for value in floats { appendLittleEndian(value, to: &bytes) }
    return .object([
      ("color", .array(fill.color.channels.map(JSONValue.number))),
      ("rule", .string(fill.fillRule == .evenOdd ? "evenodd" : "nonzero")),
      ("polygons", .string(base64(bytes))),
    ])
  }
}
