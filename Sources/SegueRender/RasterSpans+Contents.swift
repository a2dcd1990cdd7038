import Segue
import SegueSIMDSupport

extension RasterSpans {
  /// Pixels per image-sampling run: the texels go through a 256-byte buffer on the stack.
  static let contentsChunk = 64

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
    let h = layer.inverse
    let cy = Double(py) + 0.5
    let cx = Double(span.lowerBound) + 0.5
    let base = ProjectiveSpan(
      x: cx * h.h0 + cy * h.h3 + h.h6, y: cx * h.h1 + cy * h.h4 + h.h7,
      w: cx * h.h2 + cy * h.h5 + h.h8, dx: h.h0, dy: h.h1, dw: h.h2, rowDX: h.h3, rowDY: h.h4,
      rowDW: h.h5)
    let sampler = contents.sampler
    guard !contents.isSinglePiece else {
      return contentsRun(
        0..<span.count, base, (1, 1), span.lowerBound, contents, sampler, layer, row)
    }
    var start = 0
    var current = (column: -1, row: -1)
    for k in 0..<span.count {
      let p = base.point(k)
      let piece = contents.piece(p.x, p.y)
      if piece != current {
        if current.column >= 0 {
          contentsRun(start..<k, base, current, span.lowerBound, contents, sampler, layer, row)
        }
        (start, current) = (k, piece)
      }
    }
    contentsRun(start..<span.count, base, current, span.lowerBound, contents, sampler, layer, row)
  }

  /// Pixels `run` (from the span's first pixel `first`) of one piece, in chunks of
  /// ``contentsChunk``.
  @inline(__always)
  static func contentsRun(
    _ run: Range<Int>, _ base: ProjectiveSpan, _ piece: (column: Int, row: Int), _ first: Int,
    _ contents: PreparedContents, _ sampler: ImageSampler, _ layer: PreparedLayer,
    _ row: UnsafeMutablePointer<Float>
  ) {
    guard !run.isEmpty else { return }
    let m = contents.map(piece.column, piece.row)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * contentsChunk) { texels in
      let buffer = texels.baseAddress!
      var k = run.lowerBound
      while k < run.upperBound {
        let n = Swift.min(contentsChunk, run.upperBound - k)
        let kd = Double(k)
        let span = ProjectiveSpan(
          x: base.x + kd * base.dx, y: base.y + kd * base.dy, w: base.w + kd * base.dw,
          dx: base.dx, dy: base.dy, dw: base.dw, rowDX: base.rowDX, rowDY: base.rowDY,
          rowDW: base.rowDW
        ).scaled(x: m.scaleX, offsetX: m.offsetX, y: m.scaleY, offsetY: m.offsetY)
        sampler.fill(span, count: n, into: buffer)
        blendBytes(buffer, row + 4 * (first + k), count: n, opacity: layer.opacity, add: layer.add)
        k += n
      }
    }
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
      let source = SIMD16<Float>(bytes) * scale
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
