import Segue

/// A contact sheet of a transition: frames at chosen times laid out in a grid, each with its time
/// as a caption, as one PNG-ready image (``render(_:times:)``) or as an SVG of what the renderer
/// draws of each layer (``svg(_:times:)``).
///
/// **Layout** (pixels). Every frame is ``SceneRenderer/outputSize(for:)`` of the scene's
/// container, `fw × fh`. A cell is the frame with a caption strip of height
/// `ch = ⌈1.6·captionFontSize⌉` below it when ``captions`` is on (else `ch = 0`). With `K` frames,
/// `c = min(columns, K)` columns and `r = ⌈K / c⌉` rows, the sheet is
///
///     width  = c·fw + (c + 1)·gap
///     height = r·(fh + ch) + (r + 1)·gap
///
/// and frame `k` (row-major) has its top-left corner at
/// `(gap + (k mod c)·(fw + gap), gap + ⌊k / c⌋·(fh + ch + gap))`. Gaps, margins and empty cells
/// show ``background``.
///
/// **Captions.** The caption ``caption(for:)`` of each frame's time is set as a `CATextLayer`
/// would set it: the renderer's default font (``/Segue/FontDescriptor/helvetica``, found through
/// fontconfig) at ``captionFontSize`` pixels in ``captionColor``, shaped by HarfBuzz and filled
/// from FreeType's outlines by the rasteriser, in a text layer whose top-left corner is
/// `captionFontSize/2` right of the frame's bottom-left corner and `captionFontSize/4` below it.
/// Where no font is installed the strip stays empty, as a text layer then draws nothing.
public struct Filmstrip: Hashable, Sendable {
  /// The frame renderer (scale, background, snapshots, images).
  public var renderer: SceneRenderer
  /// The most frames per row, `≥ 1`.
  public var columns: Int
  /// The gap between cells and around the sheet, in pixels, `≥ 0`.
  public var gap: Int
  /// Draw each frame's time below it.
  public var captions: Bool
  /// The caption's font size in pixels, finite and `> 0`.
  public var captionFontSize: Double
  /// The sheet's colour (gaps, margins, caption strips, empty cells), straight RGBA.
  public var background: RGBAColor
  /// The caption text colour.
  public var captionColor: RGBAColor

  /// Creates a filmstrip.
  ///
  /// - Parameters:
  ///   - renderer: renders each frame.
  ///   - columns: frames per row (default 6).
  ///   - gap: pixels between cells and around the sheet (default 4).
  ///   - captions: draw the time below each frame (default on).
  ///   - captionFontSize: the caption's font size in pixels (default 11).
  ///   - background: the sheet colour; `nil` (the default) for a light grey, RGB 0.92.
  ///   - captionColor: the caption colour (default black).
  public init(
    renderer: SceneRenderer = SceneRenderer(), columns: Int = 6, gap: Int = 4,
    captions: Bool = true, captionFontSize: Double = 11,
    background: RGBAColor? = nil, captionColor: RGBAColor = .black
  ) {
    self.renderer = renderer
    self.columns = columns
    self.gap = gap
    self.captions = captions
    self.captionFontSize = captionFontSize
    self.background = background ?? RGBAColor(clamping: 0.92, 0.92, 0.92, 1)
    self.captionColor = captionColor
  }

  /// The caption strip's height `ch` in pixels: `⌈1.6·captionFontSize⌉` with ``captions``
  /// (room for the line's ascent and descent), else 0; as a `Double`, so that a huge font size
  /// is reported by ``layout(frameCount:containerSize:)`` rather than overflowing.
  public var captionHeight: Double {
    captions ? (Self.captionLineFactor * captionFontSize).rounded(.up) : 0
  }

  /// The caption strip's height in font sizes.
  static let captionLineFactor = 1.6

  /// The sheet's geometry in pixels (see the type's documentation).
  public struct Layout: Hashable, Sendable {
    /// One frame's width `fw`.
    public var frameWidth: Int
    /// One frame's height `fh`.
    public var frameHeight: Int
    /// The caption strip's height `ch` (0 without captions).
    public var captionHeight: Int
    /// Columns `c = min(columns, K)`.
    public var columns: Int
    /// Rows `r = ⌈K / c⌉`.
    public var rows: Int
    /// The gap.
    public var gap: Int
    /// `c·fw + (c + 1)·gap`.
    public var width: Int
    /// `r·(fh + ch) + (r + 1)·gap`.
    public var height: Int

    /// The top-left pixel of frame `k` (row-major).
    public func frameOrigin(_ k: Int) -> (x: Int, y: Int) {
      (
        gap + (k % columns) * (frameWidth + gap),
        gap + (k / columns) * (frameHeight + captionHeight + gap)
      )
    }
  }

  /// The layout for `frameCount` frames of a container of `containerSize` points.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `frameCount` (`.tooFew(minimum: 1, …)`), `columns`
  ///   (`< 1`: `.outOfRange`), `gap` (`.negative`), `captionFontSize` (not finite or `≤ 0`), the
  ///   errors of ``SceneRenderer/outputSize(for:)``, and `sheet.width`, `sheet.height` (above
  ///   `2²⁴`) or `sheet.pixelCount` (above ``SceneRenderer/maximumPixelCount``, the cap) for the
  ///   whole sheet.
  public func layout(frameCount: Int, containerSize: Size) throws(ValidationError) -> Layout {
    guard frameCount >= 1 else {
      throw ValidationError(field: "frameCount", reason: .tooFew(minimum: 1, actual: frameCount))
    }
    guard columns >= 1 else {
      throw ValidationError(
        field: "columns", reason: .outOfRange(lower: 1, upper: Double(Int.max)))
    }
    guard gap >= 0 else { throw ValidationError(field: "gap", reason: .negative) }
    try Validate.positive(captionFontSize, "captionFontSize")
    let frame = try renderer.outputSize(for: containerSize)
    let c = Swift.min(columns, frameCount)
    let r = (frameCount + c - 1) / c
    // Checked in Double first: every factor is an Int, so no Int arithmetic can overflow below.
    let ch = captionHeight
    let g = Double(gap)
    let w = Double(c) * Double(frame.width) + Double(c + 1) * g
    let h = Double(r) * (Double(frame.height) + ch) + Double(r + 1) * g
    let side = Double(PixelBufferLimits.maximumSide)
    guard w <= side else {
      throw ValidationError(field: "sheet.width", reason: .outOfRange(lower: 1, upper: side))
    }
    guard h <= side else {
      throw ValidationError(field: "sheet.height", reason: .outOfRange(lower: 1, upper: side))
    }
    guard w * h <= Double(SceneRenderer.maximumPixelCount) else {
      throw ValidationError(
        field: "sheet.pixelCount",
        reason: .outOfRange(lower: 1, upper: Double(SceneRenderer.maximumPixelCount)))
    }
    return Layout(
      frameWidth: frame.width, frameHeight: frame.height, captionHeight: Int(ch), columns: c,
      rows: r, gap: gap, width: Int(w), height: Int(h))
  }

  /// The caption of a frame at `time` seconds: the time rounded to milliseconds with three
  /// decimals and an `s`, e.g. `0.125s`, `1.000s`. Times
  /// of `10¹²` s or more (or not finite) are written in Swift's shortest form.
  public static func caption(for time: Double) -> String {
    guard time.isFinite, abs(time) < 1e12 else { return "\(time)s" }
    let ms = Int((abs(time) * 1000).rounded(.toNearestOrAwayFromZero))
    let fraction = String(ms % 1000)
    let padded = String(repeating: "0", count: 3 - fraction.count) + fraction
    return (time < 0 && ms > 0 ? "-" : "") + "\(ms / 1000).\(padded)s"
  }

  /// Renders the frames of `scene` at `times` (seconds, each as
  /// ``SceneRenderer/render(_:at:)``) into one sheet (see the type's documentation). Each cell's
  /// frame is byte-for-byte the single-frame render at its time.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `times` (`.tooFew` when empty; with the index when a
  ///   time is not finite or negative), the errors of ``layout(frameCount:containerSize:)`` and
  ///   of ``SceneRenderer/render(_:at:)``.
  public func render(_ scene: TransitionScene, times: [Double]) throws(ValidationError)
    -> PixelBufferRGBA8
  {
    try Self.checkTimes(times)
    let layout = try layout(frameCount: times.count, containerSize: scene.containerSize)
    var sheet = try blankSheet(layout)
    let context = try RenderContext()
    var frame = try PixelBufferRGBA8(width: layout.frameWidth, height: layout.frameHeight)
    for (k, time) in times.enumerated() {
      do { try renderer.render(scene, at: time, into: &frame, context: context) } catch {
        throw ValidationError(
          field: error.field == "time" ? "times" : error.field,
          index: error.field == "time" ? k : error.index, reason: error.reason)
      }
      try place(frame, at: k, time: time, layout: layout, into: &sheet)
    }
    return sheet
  }

  /// A sheet of `layout`'s size before any frame: ``background`` everywhere. With
  /// ``place(_:at:time:layout:into:)`` it builds the sheet of frames rendered elsewhere (an
  /// interactive run, frames already on hand).
  ///
  /// - Throws: the size errors of ``/Segue/PixelBufferRGBA8/init(width:height:stride:fill:)``.
  public func blankSheet(_ layout: Layout) throws(ValidationError) -> PixelBufferRGBA8 {
    let premultiplied = SIMD4<Float>(LayerSnapshot.premultiplied(background))
    var fill = SIMD4<UInt8>.zero
    for c in 0..<4 { fill[c] = PixelBufferRGBA8.quantise(premultiplied[c]) }
    return try PixelBufferRGBA8(width: layout.width, height: layout.height, fill: fill)
  }

  /// Copies `frame` into cell `k` of `sheet` and, with ``captions``, draws the caption of `time`
  /// below it, as ``render(_:times:)`` does.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `frame` (`.invalidState`) unless `frame` has
  ///   `layout`'s frame size, `sheet` has `layout`'s size and `0 ≤ k < columns·rows`; the
  ///   caption's rendering errors.
  public func place(
    _ frame: PixelBufferRGBA8, at k: Int, time: Double, layout: Layout,
    into sheet: inout PixelBufferRGBA8
  ) throws(ValidationError) {
    guard frame.width == layout.frameWidth, frame.height == layout.frameHeight,
      sheet.width == layout.width, sheet.height == layout.height,
      k >= 0, k < layout.columns * layout.rows
    else {
      throw ValidationError(
        field: "frame", index: k,
        reason: .invalidState(
          "a \(frame.width)×\(frame.height) frame does not fit cell \(k) of a "
            + "\(layout.columns)×\(layout.rows) sheet of \(layout.frameWidth)×"
            + "\(layout.frameHeight) frames (sheet \(sheet.width)×\(sheet.height))"))
    }
    let (x, y) = layout.frameOrigin(k)
    Self.copy(frame, into: &sheet, x: x, y: y)
    if captions {
      let strip = try captionStrip(Self.caption(for: time), width: layout.frameWidth)
      Self.copy(strip, into: &sheet, x: x, y: y + layout.frameHeight)
    }
  }

  /// An SVG contact sheet with the layout of ``render(_:times:)`` (user units = pixels): per
  /// cell, a nested viewport (``SVGDocument/embed(_:at:isolated:)``, which clips to the cell)
  /// holding a rectangle of the renderer's background and, in draw order, each layer that draws
  /// (the rules of ``SceneRenderer/renderItems(for:presentation:)``), inside a `<g clip-path>`
  /// per ancestor with `masksToBounds` (its rounded bounds projected) and, for a piece of a
  /// layer cut by depth sorting, the piece:
  /// - **shadow** (``LayerSnapshot/Shadow``), below the fill: the rounded bounds moved by
  ///   `shadowOffset`, in layer coordinates under `<g transform="matrix(…)">`, filled with
  ///   `shadowColor` at alpha × `shadowOpacity` × opacity and blurred by `<feGaussianBlur>` with
  ///   the renderer's `σ = shadowRadius/2` layer units (so the blur is transformed with the
  ///   layer, as the renderer's is); under perspective it is drawn by the renderer alone and
  ///   placed as an image, as below;
  /// - **fill**: a polygon through its projected bounds corners × `scale`
  ///   (``/Segue/LayerSample/corners``; with a corner radius, the outline of its rounded
  ///   rectangle, only the `maskedCorners` rounded, each quarter arc in 8 segments; the
  ///   eye-plane-clipped polygon of ``/Segue/Transform3D/mapQuad(_:)`` when a corner is behind
  ///   the eye; for a depth-sorted piece, the piece's polygon through
  ///   ``/Segue/Transform3D/mapPolygon(_:)``), filled with its colour (a vertical gradient fill's
  ///   mean of top and bottom) at alpha × opacity;
  /// - **contents** (``LayerSnapshot/Contents``) and **gradient** (``LayerSnapshot/Gradient``),
  ///   when the layer's matrix is affine in its plane (no perspective divide varies over it),
  ///   as SVG under `<g transform="matrix(…)">` in layer coordinates: the image embedded once
  ///   per document in `<defs>` as a PNG `data:` URI and shown per ``ContentsLayout`` piece
  ///   (nine-part stretching included) by a nested viewport whose `viewBox` is the piece's
  ///   texel rectangle, clipped to the rounded bounds with `masksToBounds`,
  ///   `image-rendering:pixelated` for the `nearest` filter; an axial or radial gradient as
  ///   `<linearGradient>` or `<radialGradient>` in `userSpaceOnUse` filling the rounded bounds.
  ///   What SVG cannot draw exactly — a layer under perspective (SVG transforms are 2D
  ///   affine: its contents, gradient and shadow), a conic gradient (SVG has none), contents whose texels reach outside the image
  ///   (the renderer repeats the edge) — is drawn by the renderer alone, with the layer's
  ///   clips, and placed as a cropped PNG `<image>` at its pixel position, so it matches the
  ///   PNG frame;
  /// - **paths** (a shape layer's fill and stroke, a text layer's glyphs: ``LayerSnapshot/paths``):
  ///   `<path>` elements of the polygons the renderer fills, projected through the matrix ×
  ///   `scale`, with the fill rule, colour and alpha × opacity. A stroke is its outline
  ///   (``Stroker``, with caps, joins, miter limit, dashes and `strokeStart`/`strokeEnd`
  ///   applied) and text is the glyph outlines of the renderer's HarfBuzz/FreeType layout, so
  ///   the SVG needs no fonts and matches the PNG; a path with a point at or behind the eye is
  ///   left out;
  /// - **border**: the rounded bounds minus the inner rounded rectangle inset by the border's
  ///   width, both projected, an even-odd path in the border's colour at alpha × opacity.
  ///
  /// A cross-dissolve's layers sit in an isolated nested
  /// viewport and blend with `plus-lighter` at alpha × weight (exact for one-layer snapshots
  /// such as CATransition `fade`'s; a snapshot's sublayers are added rather than composited
  /// over their root). The caption is SVG text in the caption strip.
  ///
  /// - Throws: as ``render(_:times:)``, and the errors of ``SVGDocument``.
  public func svg(_ scene: TransitionScene, times: [Double]) throws(ValidationError)
    -> SVGDocument
  {
    try Self.checkTimes(times)
    let layout = try layout(frameCount: times.count, containerSize: scene.containerSize)
    var document = try SVGDocument(width: Double(layout.width), height: Double(layout.height))
    try document.rect(
      Rect(x: 0, y: 0, width: Double(layout.width), height: Double(layout.height)),
      fill: background)
    let fw = Double(layout.frameWidth)
    let fh = Double(layout.frameHeight)
    var writer = try FilmstripSVGWriter(
      frameWidth: layout.frameWidth, frameHeight: layout.frameHeight)
    for (k, time) in times.enumerated() {
      writer.begin(cell: k)
      let steps: [SceneRenderer.PlanStep]
      do {
        let sample = try scene.sample(at: time)
        let tree = scene.presentation(at: time, completion: sample.isCompleted ? .finished : nil)
        steps = try renderer.plan(for: sample, presentation: tree)
      } catch {
        throw ValidationError(
          field: error.field == "time" ? "times" : error.field,
          index: error.field == "time" ? k : error.index, reason: error.reason)
      }
      var cell = try SVGDocument(width: fw, height: fh)
      try cell.rect(Rect(x: 0, y: 0, width: fw, height: fh), fill: renderer.background)
      for step in steps {
        switch step {
        case .layer(let p):
          try svgLayer(p, weight: 1, blendMode: .over, writer: &writer, into: &cell)
        case .dissolve(let snapshots):
          var group = try SVGDocument(width: fw, height: fh)
          for snapshot in snapshots {
            for p in snapshot.layers {
              try svgLayer(
                p, weight: snapshot.weight, blendMode: .add, writer: &writer, into: &group)
            }
          }
          try cell.embed(group, at: .zero, isolated: true)
        }
      }
      let (x, y) = layout.frameOrigin(k)
      try document.embed(cell, at: Point(x: Double(x), y: Double(y)))
      if captions {
        // The baseline one font size below the text layer's top (≈ its first line's ascent).
        let origin = captionOrigin
        try document.text(
          Self.caption(for: time),
          at: Point(x: Double(x) + origin.x, y: Double(y) + fh + origin.y + captionFontSize),
          fontSize: captionFontSize, fill: captionColor)
      }
    }
    return document
  }

  // MARK: - Private helpers

  func polygon(
    _ p: SceneRenderer.PlannedLayer, weight: Double, blendMode: BlendMode,
    into document: inout SVGDocument
  ) throws(ValidationError) {
    guard p.parts.contains(.body) else { return }
    let corners = p.sample.corners
    let points: [Point]
    if !p.region.isWholePlane {
      points = p.sample.matrix.mapPolygon(p.region.polygon(clipping: p.snapshot.bounds))
    } else if p.snapshot.cornerRadius > 0, p.snapshot.maskedCorners != [] {
      let b = p.snapshot.bounds
      points = p.sample.matrix.mapPolygon(
        RoundedRect(
          b.minX, b.maxX, b.minY, b.maxY, radius: p.snapshot.cornerRadius,
          corners: p.snapshot.maskedCorners
        ).outline())
    } else if corners.count == 4, !corners.contains(where: \.isBehindEye) {
      points = corners.map(\.point)
    } else {
      points = p.sample.matrix.mapQuad(Quad(p.snapshot.bounds))
    }
    guard points.count >= 3 else { return }
    let s = renderer.scale
    let colour: RGBAColor
    switch p.snapshot.fill {
    case .solid(let c): colour = c
    case .linearGradient(let top, let bottom):
      colour = RGBAColor(
        clamping: (top.red + bottom.red) / 2, (top.green + bottom.green) / 2,
        (top.blue + bottom.blue) / 2, (top.alpha + bottom.alpha) / 2)
    }
    let fill = RGBAColor(
      clamping: colour.red, colour.green, colour.blue, colour.alpha * p.opacity * weight)
    try document.polygon(
      points.map { Point(x: $0.x * s, y: $0.y * s) }, fill: fill, blendMode: blendMode)
  }

  /// The layer's filled paths (shape fills and strokes, text outlines) projected through its
  /// matrix × `scale`; a path with a point at or behind the eye is left out (SVG has no
  /// perspective clipping).
  func paths(
    _ p: SceneRenderer.PlannedLayer, weight: Double, blendMode: BlendMode,
    into document: inout SVGDocument
  ) throws(ValidationError) {
    guard p.parts.contains(.paths) else { return }
    let s = renderer.scale
    let m = p.sample.matrix
    for fill in p.snapshot.paths {
      var contours: [[Point]] = []
      var visible = true
      for polygon in fill.polygons {
        contours.append(
          polygon.points.map { point in
            let h = PathProjection.homogeneous(point, m)
            if !(h.z >= Transform3D.minimumW) { visible = false }
            return Point(x: h.x / h.z * s, y: h.y / h.z * s)
          })
      }
      guard visible else { continue }
      let c = fill.color
      try document.path(
        contours, fillRule: fill.fillRule,
        fill: RGBAColor(clamping: c.red, c.green, c.blue, c.alpha * p.opacity * weight),
        blendMode: blendMode)
    }
  }

  /// The caption text layer's top-left corner in its strip: `(captionFontSize/2,
  /// captionFontSize/4)` pixels.
  private var captionOrigin: Point {
    Point(x: captionFontSize / 2, y: captionFontSize / 4)
  }

  /// A `width × ch` strip of the sheet colour with `text` drawn by a text layer in the default
  /// font (see the type's documentation).
  private func captionStrip(_ text: String, width: Int) throws(ValidationError)
    -> PixelBufferRGBA8
  {
    let height = Int(captionHeight)
    let origin = captionOrigin
    let frame = Rect(
      x: 0, y: 0, width: Swift.max(Double(width) - 2 * origin.x, 1),
      height: Double(height) - origin.y)
    let layer = Layer.textLayer(
      id: "caption", frame: frame, string: text, fontSize: captionFontSize,
      foregroundColor: captionColor)
    let snapshot = LayerSnapshot(
      bounds: frame, fill: .solid(.clear), paths: SceneRenderer(scale: 1).paths(of: layer))
    let image = try Rasterizer.render(
      [
        .layer(
          RasterLayer(
            snapshot: snapshot,
            matrix: Transform3D.makeTranslation(x: origin.x, y: origin.y, z: 0)))
      ], width: width, height: height, background: background)
    return PixelBufferRGBA8(image)
  }

  private static func checkTimes(_ times: [Double]) throws(ValidationError) {
    guard !times.isEmpty else {
      throw ValidationError(field: "times", reason: .tooFew(minimum: 1, actual: 0))
    }
    for (i, t) in times.enumerated() { try Validate.nonNegative(t, "times", index: i) }
  }

  /// Copies `image` into `sheet` with its top-left corner at `(x, y)` (fits by construction).
  private static func copy(
    _ image: PixelBufferRGBA8, into sheet: inout PixelBufferRGBA8, x: Int, y: Int
  ) {
    let rowBytes = 4 * image.width
    for row in 0..<image.height {
      let source = row * image.stride
      let target = (y + row) * sheet.stride + 4 * x
      sheet.components.replaceSubrange(
        target..<(target + rowBytes), with: image.components[source..<(source + rowBytes)])
    }
  }
}
