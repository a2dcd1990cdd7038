import Segue

/// What the SVG filmstrip keeps from layer to layer and cell to cell: the renderer's working
/// memory for the parts drawn as images, a PNG encoder, the ids of the `contents` images already
/// embedded (each image once per document), and the ids of the current cell's gradients and clip
/// paths.
struct FilmstripSVGWriter {
  let context: RenderContext
  let encoder: PNGEncoder
  /// A frame-sized scratch image for the parts drawn by the rasteriser.
  var frame: PixelBufferRGBA8
  /// `image-N` per embedded texture.
  var textureIDs: [ContentsTexture: String] = [:]
  /// The cell being written and its last local id.
  var cell = 0
  private var counter = 0

  init(frameWidth: Int, frameHeight: Int) throws(ValidationError) {
    context = try RenderContext()
    encoder = try PNGEncoder()
    frame = try PixelBufferRGBA8(width: frameWidth, height: frameHeight)
  }

  /// Starts cell `k`.
  mutating func begin(cell k: Int) {
    cell = k
    counter = 0
  }

  /// A new id for a gradient or clip path of this cell: `kind-cell-n`.
  mutating func newID(_ kind: String) -> String {
    counter += 1
    return "\(kind)-\(cell)-\(counter)"
  }
}

extension Filmstrip {
  /// One planned layer in an SVG cell: inside its ancestors' `masksToBounds` clips (and, for a
  /// piece of a depth-sorted layer, the piece), the shadow, the fill polygon, the contents and
  /// gradient, the paths and the border.
  func svgLayer(
    _ p: SceneRenderer.PlannedLayer, weight: Double, blendMode: BlendMode,
    writer: inout FilmstripSVGWriter, into document: inout SVGDocument
  ) throws(ValidationError) {
    guard !p.parts.isDisjoint(with: .all) else { return }
    guard let groups = try clipGroups(p, writer: &writer, into: &document) else { return }
    try shadow(p, weight: weight, blendMode: blendMode, writer: &writer, into: &document)
    try polygon(p, weight: weight, blendMode: blendMode, into: &document)
    try layerPaint(p, weight: weight, blendMode: blendMode, writer: &writer, into: &document)
    try paths(p, weight: weight, blendMode: blendMode, into: &document)
    try border(p, weight: weight, blendMode: blendMode, into: &document)
    for _ in 0..<groups { document.append(markup: "</g>") }
  }

  /// Opens a `<g clip-path>` per clip of `p` (device pixels): each ancestor's rounded bounds
  /// projected (``/Segue/Transform3D/mapPolygon(_:)``), and the piece of a depth-sorted layer
  /// over the extent of what the layer draws. Returns how many were opened, or `nil` (nothing
  /// opened) when a clip is wholly behind the eye, so the layer shows nothing.
  private func clipGroups(
    _ p: SceneRenderer.PlannedLayer, writer: inout FilmstripSVGWriter,
    into document: inout SVGDocument
  ) throws(ValidationError) -> Int? {
    var outlines: [[Point]] = p.clips.map { $0.matrix.mapPolygon($0.shape.outline()) }
    if !p.region.isWholePlane {
      outlines.append(p.sample.matrix.mapPolygon(p.region.polygon(clipping: Self.extent(p))))
    }
    guard outlines.allSatisfy({ $0.count >= 3 }) else { return nil }
    let s = renderer.scale
    for outline in outlines {
      guard let d = try SVGDocument.pathData(outline.map { Point(x: $0.x * s, y: $0.y * s) })
      else { return nil }
      let id = writer.newID("clip")
      document.define(id, "<clipPath id=\"\(id)\"><path d=\"\(d)\"/></clipPath>")
      document.append(markup: "<g clip-path=\"url(#\(id))\">")
    }
    return outlines.count
  }

  /// The border (``LayerSnapshot/Border``): the rounded bounds minus the inner rounded rectangle
  /// inset by its width, both projected (``/Segue/Transform3D/mapPolygon(_:)``) × `scale`, an
  /// even-odd path in its colour at alpha × opacity.
  private func border(
    _ p: SceneRenderer.PlannedLayer, weight: Double, blendMode: BlendMode,
    into document: inout SVGDocument
  ) throws(ValidationError) {
    guard p.parts.contains(.border), let border = p.snapshot.border, border.width > 0 else {
      return
    }
    let paint = SnapshotPaint(p.snapshot)
    let s = renderer.scale
    let contours = [paint.body.outline(), paint.hole.outline()].map { outline in
      p.sample.matrix.mapPolygon(outline).map { Point(x: $0.x * s, y: $0.y * s) }
    }
    let c = border.color
    try document.path(
      contours, fillRule: .evenOdd,
      fill: RGBAColor(clamping: c.red, c.green, c.blue, c.alpha * p.opacity * weight),
      blendMode: blendMode)
  }

  /// The shadow (``LayerSnapshot/Shadow``) under the fill, in layer coordinates under the
  /// layer's affine matrix: the rounded bounds moved by the offset (``RoundedRect/outline()``),
  /// filled with `shadowColor` at alpha × `shadowOpacity` × opacity and blurred by an
  /// `<feGaussianBlur>` of standard deviation `σ = shadowRadius/2` layer units (filter region
  /// `5σ` around the shape, `sRGB`), so the Gaussian is the renderer's, mapped by the same
  /// matrix. Under perspective (SVG transforms are 2D affine) the shadow is drawn by the
  /// renderer alone and placed as an image.
  private func shadow(
    _ p: SceneRenderer.PlannedLayer, weight: Double, blendMode: BlendMode,
    writer: inout FilmstripSVGWriter, into document: inout SVGDocument
  ) throws(ValidationError) {
    let paint = SnapshotPaint(p.snapshot)
    guard p.parts.contains(.shadow), paint.has(.shadow), let shape = paint.shadow,
      let cast = p.snapshot.shadow
    else { return }
    guard let affine = SVGAffine(p.sample.matrix, scale: renderer.scale) else {
      try rasterImage(
        p, parts: .shadow, weight: weight, blendMode: blendMode, writer: &writer,
        into: &document)
      return
    }
    guard let d = try SVGDocument.pathData(shape.shape.outline()) else { return }
    let c = cast.color
    let colour = RGBAColor(clamping: c.red, c.green, c.blue, c.alpha * cast.opacity)
    var filter = ""
    if shape.sigma > 0 {
      let n = SVGDocument.number
      let e = shape.extent
      let id = writer.newID("shadow")
      document.define(
        id,
        "<filter id=\"\(id)\" filterUnits=\"userSpaceOnUse\" x=\"\(n(e.minX))\" "
          + "y=\"\(n(e.minY))\" width=\"\(n(e.width))\" height=\"\(n(e.height))\" "
          + "color-interpolation-filters=\"sRGB\"><feGaussianBlur stdDeviation=\""
          + "\(n(shape.sigma))\"/></filter>")
      filter = " filter=\"url(#\(id))\""
    }
    let style = SVGLayerStyle(alpha: p.opacity * weight, blendMode: blendMode)
    document.append(
      markup: "<g transform=\"\(affine.attribute)\"><path d=\"\(d)\""
        + SVGDocument.paint("fill", colour) + filter + style.attributes() + "/></g>")
  }

  /// The layer-space rectangle holding everything `p` draws: its bounds, its shadow's extent,
  /// its contents' placed area and its paths' points.
  private static func extent(_ p: SceneRenderer.PlannedLayer) -> Rect {
    var corners = Quad(p.snapshot.bounds).points
    let paint = SnapshotPaint(p.snapshot)
    if p.parts.contains(.shadow), paint.has(.shadow) {
      corners += Quad(paint.extent(of: .shadow)).points
    }
    if let area = paint.contents?.area { corners += Quad(area).points }
    for fill in p.snapshot.paths {
      for polygon in fill.polygons { corners += polygon.points }
    }
    return Rect(boundingBoxOf: corners)
  }

  /// The contents and the gradient of `p`, in that order: as SVG elements in the layer's own
  /// coordinates under its affine matrix when SVG can draw them exactly, else as an image of
  /// the part drawn by the renderer (``rasterImage(_:parts:weight:blendMode:writer:into:)``).
  private func layerPaint(
    _ p: SceneRenderer.PlannedLayer, weight: Double, blendMode: BlendMode,
    writer: inout FilmstripSVGWriter, into document: inout SVGDocument
  ) throws(ValidationError) {
    let snapshot = p.snapshot
    let paint = SnapshotPaint(snapshot)
    let drawsContents = p.parts.contains(.contents) && paint.contents != nil
    let drawsGradient = p.parts.contains(.gradient) && (snapshot.gradient?.isVisible ?? false)
    guard drawsContents || drawsGradient else { return }
    let style = SVGLayerStyle(alpha: p.opacity * weight, blendMode: blendMode)
    let affine = SVGAffine(p.sample.matrix, scale: renderer.scale)
    var pending: LayerParts = []
    if drawsContents, let contents = snapshot.contents {
      if let affine,
        let markup = try contentsMarkup(
          contents, bounds: snapshot.bounds, body: paint.body, affine: affine, style: style,
          writer: &writer, into: &document)
      {
        document.append(markup: "<g transform=\"\(affine.attribute)\">" + markup + "</g>")
      } else {
        pending.insert(.contents)
      }
    }
    if drawsGradient, let gradient = snapshot.gradient {
      if let affine,
        let markup = try gradientMarkup(
          gradient.paint, body: paint.body, style: style, writer: &writer, into: &document)
      {
        try rasterImage(
          p, parts: pending, weight: weight, blendMode: blendMode, writer: &writer,
          into: &document)
        pending = []
        document.append(markup: "<g transform=\"\(affine.attribute)\">" + markup + "</g>")
      } else {
        pending.insert(.gradient)
      }
    }
    try rasterImage(
      p, parts: pending, weight: weight, blendMode: blendMode, writer: &writer,
      into: &document)
  }

  /// The contents' pieces (``ContentsLayout/pieces()``) in layer coordinates: per piece a nested
  /// viewport of its destination rectangle whose `viewBox` is its texel rectangle, showing the
  /// image (embedded once per document as a PNG `data:` URI, ``writer``'s ids), clipped to the
  /// rounded bounds when the layer masks to them. `nil` when SVG cannot show it exactly (a piece
  /// whose texels reach outside the image, where the renderer repeats the edge, or have no
  /// width or height); empty when nothing is drawn.
  private func contentsMarkup(
    _ contents: LayerSnapshot.Contents, bounds: Rect, body: RoundedRect, affine: SVGAffine,
    style: SVGLayerStyle, writer: inout FilmstripSVGWriter, into document: inout SVGDocument
  ) throws(ValidationError) -> String? {
    let image = contents.texture.image
    let layout = ContentsLayout(
      imageWidth: image.width, imageHeight: image.height, bounds: bounds,
      gravity: contents.gravity, contentsRect: contents.contentsRect,
      contentsCenter: contents.contentsCenter, contentsScale: contents.contentsScale)
    let pieces = try layout.pieces()
    let (w, h) = (Double(image.width), Double(image.height))
    for piece in pieces {
      let t = piece.source
      guard t.width > 0, t.height > 0, t.minX >= 0, t.minY >= 0, t.maxX <= w, t.maxY <= h
      else { return nil }
    }
    guard !pieces.isEmpty else { return "" }
    let id = try imageID(contents.texture, writer: &writer, into: &document)
    let n = SVGDocument.number
    var markup = ""
    for piece in pieces {
      let (d, t) = (piece.destination, piece.source)
      let texelsPerPixel = piece.texelsPerPoint.x / affine.pixelsPerPoint
      let filter =
        texelsPerPixel < 1 ? contents.magnificationFilter : contents.minificationFilter
      let rendering = filter == .nearest ? "image-rendering:pixelated;" : ""
      markup +=
        "<svg x=\"\(n(d.minX))\" y=\"\(n(d.minY))\" width=\"\(n(d.width))\" "
        + "height=\"\(n(d.height))\" viewBox=\"\(n(t.minX)) \(n(t.minY)) \(n(t.width)) "
        + "\(n(t.height))\" preserveAspectRatio=\"none\"" + style.attributes(extra: rendering)
        + "><use xlink:href=\"#\(id)\"/></svg>"
    }
    guard contents.clipsToBounds else { return markup }
    guard let outline = try SVGDocument.pathData(body.outline()) else { return "" }
    let clip = writer.newID("clip")
    document.define(clip, "<clipPath id=\"\(clip)\"><path d=\"\(outline)\"/></clipPath>")
    return "<g clip-path=\"url(#\(clip))\">" + markup + "</g>"
  }

  /// The id of `texture`'s `<image>` in `<defs>` (its pixels as a PNG `data:` URI, defined the
  /// first time the document shows it).
  private func imageID(
    _ texture: ContentsTexture, writer: inout FilmstripSVGWriter, into document: inout SVGDocument
  ) throws(ValidationError) -> String {
    if let id = writer.textureIDs[texture] { return id }
    let id = "image-\(writer.textureIDs.count)"
    writer.textureIDs[texture] = id
    let pixels = texture.image.pixels
    let png = try writer.encoder.encode(pixels)
    document.define(
      id,
      "<image id=\"\(id)\" width=\"\(pixels.width)\" height=\"\(pixels.height)\" "
        + "preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,"
        + Base64.encode(png) + "\"/>")
    return id
  }

  /// An axial or radial gradient filling the rounded bounds (layer coordinates): a
  /// `<linearGradient>` or `<radialGradient>` in `userSpaceOnUse` (``SVGGradient``), or the
  /// last colour for degenerate geometry; `nil` for a conic gradient (SVG has none).
  private func gradientMarkup(
    _ paint: GradientPaint, body: RoundedRect, style: SVGLayerStyle,
    writer: inout FilmstripSVGWriter, into document: inout SVGDocument
  ) throws(ValidationError) -> String? {
    guard let d = try SVGDocument.pathData(body.outline()) else { return "" }
    switch SVGGradient(paint) {
    case nil: return nil
    case .solid(let c)?:
      let colour = RGBAColor(clamping: c.red, c.green, c.blue, c.alpha * style.alpha)
      let opaque = SVGLayerStyle(alpha: 1, blendMode: style.blendMode)
      return "<path d=\"\(d)\"" + SVGDocument.paint("fill", colour) + opaque.attributes() + "/>"
    case let gradient?:
      let id = writer.newID("gradient")
      document.define(id, gradient.definition(id: id))
      return "<path d=\"\(d)\" fill=\"url(#\(id))\""
        + style.attributes(opacityName: "fill-opacity") + "/>"
    }
  }

  /// `parts` of `p` drawn by the renderer alone onto a clear frame (its clips and region, its
  /// opacity times `weight`), cropped to the pixels it covers and placed as a PNG `<image>` at
  /// their position in the cell: what SVG cannot draw (perspective, conic gradients, contents
  /// reaching outside the image) drawn as `segue render` draws it.
  private func rasterImage(
    _ p: SceneRenderer.PlannedLayer, parts: LayerParts, weight: Double, blendMode: BlendMode,
    writer: inout FilmstripSVGWriter, into document: inout SVGDocument
  ) throws(ValidationError) {
    guard !parts.isEmpty else { return }
    let s = renderer.scale
    let pixels = Transform3D.makeScale(x: s, y: s, z: 1)
    let layer = RasterLayer(
      snapshot: p.snapshot, matrix: p.sample.matrix.concatenating(pixels),
      opacity: p.opacity * weight, parts: parts,
      clips: p.clips.map {
        ClipShape(
          bounds: $0.bounds, cornerRadius: $0.cornerRadius, maskedCorners: $0.maskedCorners,
          matrix: $0.matrix.concatenating(pixels))
      }, region: p.region)
    try Rasterizer.render([.layer(layer)], into: &writer.frame, context: writer.context)
    guard let crop = Self.coveredPart(of: writer.frame) else { return }
    let png = try writer.encoder.encode(crop.image)
    let blend = blendMode == .add ? " style=\"mix-blend-mode:plus-lighter\"" : ""
    document.append(
      markup: "<image x=\"\(crop.x)\" y=\"\(crop.y)\" width=\"\(crop.image.width)\" "
        + "height=\"\(crop.image.height)\" preserveAspectRatio=\"none\" "
        + "xlink:href=\"data:image/png;base64,\(Base64.encode(png))\"" + blend + "/>")
  }

  /// The smallest rectangle of `frame` holding every pixel with alpha > 0, copied, with its
  /// top-left corner; `nil` when every pixel is clear.
  static func coveredPart(of frame: PixelBufferRGBA8) -> (x: Int, y: Int, image: PixelBufferRGBA8)?
  {
    var (x0, y0, x1, y1) = (frame.width, frame.height, -1, -1)
    for y in 0..<frame.height {
      let row = y * frame.stride
      for x in 0..<frame.width where frame.components[row + 4 * x + 3] != 0 {
        x0 = Swift.min(x0, x)
        x1 = Swift.max(x1, x)
        y0 = Swift.min(y0, y)
        y1 = y
      }
    }
    guard x1 >= x0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(4 * (x1 - x0 + 1) * (y1 - y0 + 1))
    for y in y0...y1 {
      let row = y * frame.stride
      bytes += frame.components[(row + 4 * x0)..<(row + 4 * x1 + 4)]
    }
    guard
      let image = try? PixelBufferRGBA8(width: x1 - x0 + 1, height: y1 - y0 + 1, components: bytes)
    else { return nil }
    return (x0, y0, image)
  }
}

/// A layer's planar map to device pixels when it is affine (`m14 = m24 = 0`, `m44` in front of
/// the eye: no perspective divide varies over the layer) and invertible: SVG's
/// `matrix(a b c d e f)`, `x' = a·x + c·y + e`, `y' = b·x + d·y + f`.
struct SVGAffine {
  var a: Double, b: Double, c: Double, d: Double, e: Double, f: Double

  /// The map of `m` (row vectors, layer → container points) times `scale`, or `nil`.
  init?(_ m: Transform3D, scale s: Double) {
    guard m.m14 == 0, m.m24 == 0, m.m44 >= Transform3D.minimumW else { return nil }
    let k = s / m.m44
    (a, b, c, d, e, f) = (m.m11 * k, m.m12 * k, m.m21 * k, m.m22 * k, m.m41 * k, m.m42 * k)
    guard [a, b, c, d, e, f].allSatisfy(\.isFinite), a * d - b * c != 0 else { return nil }
  }

  /// Device pixels per layer point, `√|det|` (the mean scale, for choosing a filter).
  var pixelsPerPoint: Double { abs(a * d - b * c).squareRoot() }

  /// `matrix(a b c d e f)`.
  var attribute: String {
    "matrix(" + [a, b, c, d, e, f].map(SVGDocument.number).joined(separator: " ") + ")"
  }
}

/// How a layer's elements composite: their alpha (the layer's opacity times a dissolve's
/// weight) and `plus-lighter` in a cross-dissolve.
struct SVGLayerStyle {
  var alpha: Double
  var blendMode: BlendMode

  /// ` opacity="α"` (or `opacityName`) when α < 1, and a `style` with the blend mode and
  /// `extra` CSS declarations when there are any.
  func attributes(opacityName: String = "opacity", extra: String = "") -> String {
    var out = alpha < 1 ? " \(opacityName)=\"\(SVGDocument.number(alpha))\"" : ""
    let css = (blendMode == .add ? "mix-blend-mode:plus-lighter;" : "") + extra
    if !css.isEmpty { out += " style=\"\(css)\"" }
    return out
  }
}

/// A `CAGradientLayer`'s axial or radial gradient as an SVG paint server in the layer's
/// coordinates (`userSpaceOnUse`), `spreadMethod` pad (the end colours extend, as the parameter
/// is clamped to `[0, 1]`).
///
/// Stops: ``GradientPaint/unitIntervalStops`` (SVG and the renderer both interpolate straight,
/// not premultiplied, components between stops).
enum SVGGradient {
  /// One colour everywhere: axial with `S = E`, radial with a zero half-axis (`t = 1`), or one
  /// stop.
  case solid(RGBAColor)
  /// `t = (p − S)·(E − S)/|E − S|²`: `x1 y1 x2 y2` are `S` and `E`.
  case linear(start: Point, end: Point, stops: [(Double, RGBAColor)])
  /// `t = √((Δx/rx)² + (Δy/ry)²)`: the unit circle at the origin mapped by
  /// `matrix(rx 0 0 ry Sx Sy)`.
  case radial(centre: Point, rx: Double, ry: Double, stops: [(Double, RGBAColor)])

  /// The SVG form of `paint`, or `nil` for a conic gradient or no colours.
  init?(_ paint: GradientPaint) {
    let stops = paint.unitIntervalStops.map { ($0.location, $0.color) }
    guard paint.type != .conic, let last = stops.last?.1 else { return nil }
    let (s, e) = paint.endPoints
    let (rx, ry) = (abs(e.x - s.x), abs(e.y - s.y))
    switch paint.type {
    case .axial where rx > 0 || ry > 0: self = .linear(start: s, end: e, stops: stops)
    case .radial where rx > 0 && ry > 0: self = .radial(centre: s, rx: rx, ry: ry, stops: stops)
    default: self = .solid(last)
    }
  }

  /// The `<linearGradient>` or `<radialGradient>` element with `id` (empty for ``solid(_:)``).
  func definition(id: String) -> String {
    let n = SVGDocument.number
    let open: String
    let stops: [(Double, RGBAColor)]
    switch self {
    case .solid: return ""
    case .linear(let s, let e, let list):
      open =
        "<linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(n(s.x))\" "
        + "y1=\"\(n(s.y))\" x2=\"\(n(e.x))\" y2=\"\(n(e.y))\">"
      stops = list
    case .radial(let c, let rx, let ry, let list):
      open =
        "<radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"0\" cy=\"0\" "
        + "r=\"1\" gradientTransform=\"matrix(\(n(rx)) 0 0 \(n(ry)) \(n(c.x)) \(n(c.y)))\">"
      stops = list
    }
    var out = open
    for (offset, color) in stops {
      out +=
        "<stop offset=\"\(n(offset))\" stop-color=\"\(SVGDocument.hex(color))\""
        + (color.alpha < 1 ? " stop-opacity=\"\(n(color.alpha))\"" : "") + "/>"
    }
    return out + (self.isLinear ? "</linearGradient>" : "</radialGradient>")
  }

  private var isLinear: Bool {
    if case .linear = self { return true }
    return false
  }
}
