import Segue

extension LayerSnapshot {
  /// A `CAGradientLayer`'s gradient (``GradientPaint``: axial, radial or conic, its colours,
  /// locations and end points), filling the rounded bounds over the fill and the contents.
  /// Prepared once when the snapshot is made (the sorted stops of its ``GradientSpanShader``),
  /// so drawing it allocates nothing.
  ///
  /// Each pixel takes the gradient at the layer point its centre shows (perspective-correct)
  /// times the fraction of its 16 samples inside the rounded bounds (and the clips), times the
  /// layer's opacity.
  public struct Gradient: Hashable, Sendable {
    /// The gradient; its `bounds` are the layer's.
    public let paint: GradientPaint
    /// The `Float` span shader of ``paint``.
    let shader: GradientSpanShader
    /// The stops sorted by location, premultiplied lookups for the reference.
    let stops: [(location: Double, color: RGBAColor)]

    /// Prepares `paint`.
    ///
    /// - Throws: what ``GradientPaint/validate()`` throws.
    public init(_ paint: GradientPaint) throws(ValidationError) {
      shader = try GradientSpanShader(paint)
      self.paint = paint
      stops = paint.stops
    }

    public static func == (a: Gradient, b: Gradient) -> Bool { a.paint == b.paint }

    public func hash(into hasher: inout Hasher) { hasher.combine(paint) }

    /// Whether it draws anything (it has colours).
    var isVisible: Bool { !paint.colors.isEmpty }

    /// The premultiplied colour at layer point `(u, v)` (``GradientPaint/premultipliedColor(at:)``
    /// with the stops sorted once).
    func color(_ u: Double, _ v: Double) -> SIMD4<Double> {
      let t = paint.parameter(at: Point(x: u, y: v))
      guard let c = GradientPaint.color(atParameter: t, stops: stops) else { return .zero }
      return LayerSnapshot.premultiplied(c)
    }

    /// The coverage and colour of pixel `(px, py)` of a layer with rounded bounds `body`
    /// (``ReferenceRasterizer/centreSampled(_:_:_:_:inside:color:)``).
    @inline(__always)
    func supersample(
      _ px: Int, _ py: Int, _ h: Homography, _ body: RoundedRect,
      _ clips: UnsafeBufferPointer<PreparedClip>
    ) -> (sum: SIMD4<Double>, hits: Int) {
      ReferenceRasterizer.centreSampled(
        px, py, h, clips, inside: { body.contains($0, $1) },
        color: { x, y in ReferenceRasterizer.layerPoint(x, y, h).map { color($0.u, $0.v) } })
    }
  }
}

extension RasterSpans {
  /// Pixels wholly inside a gradient layer's rounded bounds: the gradient at each pixel
  /// centre's layer point (``GradientSpanShader/fill(_:count:into:)``, within 1/255 of the
  /// reference's ``LayerSnapshot/Gradient/color(_:_:)``), blended at the layer's opacity.
  static func gradientSpan(
    _ span: Range<Int>, _ py: Int, _ layer: PreparedLayer, _ row: UnsafeMutablePointer<Float>
  ) {
    guard !span.isEmpty, let gradient = layer.paint.gradient else { return }
    let base = layerSpan(span.lowerBound, py, layer.inverse)
    let shader = gradient.shader
    shadedRun(0..<span.count, base, span.lowerBound, layer, row) {
      shader.fill($0, count: $1, into: $2)
    }
  }
}
