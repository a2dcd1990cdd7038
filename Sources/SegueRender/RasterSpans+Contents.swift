import Segue
import SegueSIMDSupport

extension RasterSpans {
  /// Pixels wholly inside a layer's contents area: each pixel's centre mapped back
  /// perspective-correct (``ProjectiveSpan``) into the texels of its nine-part piece and
  /// filtered by ``ImageSampler/fill(_:count:into:)`` (`Float`, 8-bit weights: within 2/255 of
  /// the reference's ``PreparedContents/color(_:_:_:)``), then blended at the layer's opacity.
  /// A span crossing the grid lines of `contentsCenter` is cut into runs of one piece each (the
  /// piece of each pixel centre, as the reference finds it).
  static func contentsSpan(
    _ span: Range<Int>, _ py: Int, _ layer: PreparedLayer, _ row: UnsafeMutablePointer<Float>
  ) {
    guard !span.isEmpty, let contents = layer.paint.contents else { return }
    let base = layerSpan(span.lowerBound, py, layer.inverse)
    let sampler = contents.sampler
    func run(_ pixels: Range<Int>, _ piece: (column: Int, row: Int)) {
      let m = contents.map(piece.column, piece.row)
      let texels = base.scaled(x: m.scaleX, offsetX: m.offsetX, y: m.scaleY, offsetY: m.offsetY)
      shadedRun(pixels, texels, span.lowerBound, layer, row) {
        sampler.fill($0, count: $1, into: $2)
      }
    }
    guard !contents.isSinglePiece else { return run(0..<span.count, (1, 1)) }
    var start = 0
    var current = (column: -1, row: -1)
    for k in 0..<span.count {
      let p = base.point(k)
      let piece = contents.piece(p.x, p.y)
      if piece != current {
        if current.column >= 0 { run(start..<k, current) }
        (start, current) = (k, piece)
      }
    }
    run(start..<span.count, current)
  }

  /// Blends `count` premultiplied RGBA8 pixels at `s`, times `opacity`, onto the Float pixels at
  /// `d` ("over" or "add", clamped: ``ReferenceRasterizer/blend(_:_:_:)``'s formula), four
  /// pixels per vector.
  static func blendBytes(
    _ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<Float>, count: Int, opacity: Float,
    add: Bool
  ) {
    let scale = opacity / 255
    let n = 4 * count
    var i = 0
    let one = SIMD16<Float>(repeating: 1)
    while i + 16 <= n {
      let bytes = UnsafeRawPointer(s + i).loadUnaligned(as: SIMD16<UInt8>.self)
      let source = segue_u8x16_to_f32x16(bytes) * scale
      let below = segue_load_f32x16(d + i)
      let r = add ? below + source : source + (one - segue_alpha_f32x16(source)) * below
      segue_store_f32x16(d + i, segue_clamp01_f32x16(r))
      i += 16
    }
    while i < n {
      let c = SIMD4<Float>(Float(s[i]), Float(s[i + 1]), Float(s[i + 2]), Float(s[i + 3]))
      ReferenceRasterizer.blend(c * scale, add, d + i)
      i += 4
    }
  }
}
