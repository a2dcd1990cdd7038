import Segue

extension LayerSnapshot {
  /// A path filled in one colour: a `CAShapeLayer`'s `path` with its `fillColor` and
  /// `fillRule`, its stroke (the ``Stroker`` outline, non-zero) in `strokeColor`, or a
  /// `CATextLayer`'s glyph outlines in `foregroundColor`.
  ///
  /// The path is kept flattened (closed polygons in layer coordinates; an open subpath is
  /// closed by a straight line, as Core Graphics fills). Both rasterisers project the polygons
  /// through the layer's matrix (clipped in front of the eye) and cover each pixel by its 16
  /// samples' winding numbers, so they agree exactly; the colour is the path's, times the
  /// layer's opacity.
  public struct PathFill: Hashable, Sendable {
    /// The closed polygons, layer coordinates.
    public var polygons: [Polyline]
    /// Which points are inside.
    public var fillRule: FillRule
    /// The colour (straight RGBA).
    public var color: RGBAColor

    /// A fill of already flattened polygons.
    public init(polygons: [Polyline], fillRule: FillRule = .nonZero, color: RGBAColor) {
      self.polygons = polygons
      self.fillRule = fillRule
      self.color = color
    }

    /// The fill of `path`, flattened to within `tolerance` device pixels at `scale` device
    /// pixels per layer point (``PathFlattening/polylines(_:tolerance:scale:budget:)``).
    ///
    /// - Throws: the ``ShapeError`` of the flattening.
    public init(
      path: BezierPath, fillRule: FillRule = .nonZero, color: RGBAColor, scale: Double,
      tolerance: Double = PathFlattening.defaultTolerance
    ) throws(ShapeError) {
      polygons = try PathFlattening.polylines(path, tolerance: tolerance, scale: scale)
      self.fillRule = fillRule
      self.color = color
    }
  }
}

extension SceneRenderer {
  /// How much finer than one device pixel at ``scale`` paths are flattened for drawing: a
  /// layer magnified up to this factor by its transform still shows chords within a quarter
  /// pixel of its curves.
  static let pathMagnification = 4.0

  /// The text layouts of every renderer (fonts found through fontconfig, laid out once per
  /// distinct request).
  static let textLayouts = TextLayoutCache()

  /// The flattened glyphs of every renderer's text layers.
  static let textOutlines = TextOutlineCache()

  /// The filled paths `layer` draws over its gradient: a shape layer's fill then stroke, a text
  /// layer's glyphs. A path that cannot be flattened or stroked (over the point budget), or text
  /// whose font cannot be found, draws nothing.
  func paths(of layer: Layer) -> [LayerSnapshot.PathFill] {
    let scale = self.scale * Self.pathMagnification
    switch layer.kind {
    case .shape(let shape):
      guard let path = shape.path, !path.elements.isEmpty else { return [] }
      var result: [LayerSnapshot.PathFill] = []
      if let fill = shape.fillColor, fill.alpha > 0,
        let filled = try? LayerSnapshot.PathFill(
          path: path, fillRule: shape.fillRule, color: fill, scale: scale)
      {
        result.append(filled)
      }
      if let stroke = shape.strokeColor, stroke.alpha > 0, shape.lineWidth > 0 {
        if let outline = try? Stroker(style: StrokeStyle(shape), scale: scale).outline(of: path) {
          result.append(LayerSnapshot.PathFill(polygons: outline, color: stroke))
        }
      }
      return result
    case .text(let text):
      guard text.foregroundColor.alpha > 0, !text.string.isEmpty, text.fontSize > 0 else {
        return []
      }
      let request = TextLayoutRequest(
        string: text.string, font: text.font, fontSize: text.fontSize,
        bounds: Size(width: layer.bounds.width, height: layer.bounds.height),
        alignmentMode: text.alignmentMode, isWrapped: text.isWrapped,
        truncationMode: text.truncationMode)
      let origin = SIMD2(layer.bounds.minX, layer.bounds.minY)
      let key = TextOutlineCache.Key(request: request, scale: scale, origin: origin)
      guard let polygons = Self.textOutlines.outlines(for: key, { textOutlines(request, key) })
      else { return [] }
      return [LayerSnapshot.PathFill(polygons: polygons, color: text.foregroundColor)]
    case .plain, .gradient:
      return []
    }
  }

  /// The glyph outlines of `request` flattened at `key.scale` and moved by `key.origin`, or
  /// `nil` when its font cannot be found or its path not flattened.
  private func textOutlines(_ request: TextLayoutRequest, _ key: TextOutlineCache.Key)
    -> [Polyline]?
  {
    guard let layout = try? Self.textLayouts.layout(for: request),
      var polygons = try? PathFlattening.polylines(layout.path, scale: key.scale)
    else { return nil }
    let (dx, dy) = (key.origin.x, key.origin.y)
    if dx != 0 || dy != 0 {
      for i in polygons.indices {
        for k in polygons[i].points.indices {
          polygons[i].points[k].x += dx
          polygons[i].points[k].y += dy
        }
      }
    }
    return polygons
  }
}
