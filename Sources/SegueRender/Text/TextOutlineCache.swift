import Segue

/// What a text layer's flattened glyph outlines depend on: the layout, the flattening scale
/// (device pixels per layer point) and the layer bounds' origin they are moved by.
struct TextOutlineKey: Hashable, Sendable {
  var request: TextLayoutRequest
  var scale: Double
  var origin: SIMD2<Double>
}

/// Flattened glyph outlines by text layout request, flattening scale and layer origin, so a
/// text layer's glyphs are flattened once, not every frame (``OutlineCache``).
typealias TextOutlineCache = OutlineCache<TextOutlineKey, [Polyline]>
