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
    if contents.minificationFilter == .nearest || contents.magnificationFilter == .nearest {
      return nearestContentsSpan(span, py, layer, contents, row)
    }
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

  /// Pixels wholly inside the contents area of a layer that filters with `nearest`: each
  /// pixel's centre is mapped (``ReferenceRasterizer/layerPoint(_:_:_:)``), its piece found
  /// and, for a mixed pair of filters, its filter chosen from its footprint
  /// (``ImageSampler/filter(levelOfDetail:)``), all in `Double` by the reference's own
  /// functions, so the texel ``ImageSampler/nearestIndex(_:width:height:)`` picks is the
  /// reference's even when the centre lies on a texel boundary. Runs of pixels that take the
  /// other filter (one piece each) go to ``ImageSampler/fill(_:count:into:)`` with that filter.
  static func nearestContentsSpan(
    _ span: Range<Int>, _ py: Int, _ layer: PreparedLayer, _ contents: PreparedContents,
    _ row: UnsafeMutablePointer<Float>
  ) {
    let sampler = contents.sampler
    let size = sampler.mipmaps.sizes[0]
    guard size.x > 0 && size.y > 0 else { return }  // an empty image is transparent
    sampler.mipmaps.storage.withUnsafeBytes { texels in
      withUnsafeTemporaryAllocation(of: UInt32.self, capacity: shadedChunk) { words in
        let run = NearestRun(
          contents: contents, sampler: sampler, h: layer.inverse, y: Double(py) + 0.5,
          base: layerSpan(span.lowerBound, py, layer.inverse), first: span.lowerBound,
          texels: texels, width: size.x, height: size.y,
          colors: UnsafeMutableRawPointer(words.baseAddress!))
        var k = 0
        while k < span.count {
          let n = Swift.min(shadedChunk, span.count - k)
          run.shade(k, n)
          blendBytes(
            run.bytes, row + 4 * (span.lowerBound + k), count: n, opacity: layer.opacity,
            add: layer.add)
          k += n
        }
      }
    }
  }

  /// One row's `nearest` contents pixels (``nearestContentsSpan(_:_:_:_:_:)``), shaded into
  /// `colors` a chunk at a time.
  struct NearestRun {
    let contents: PreparedContents
    let sampler: ImageSampler
    let h: Homography
    /// The row's pixel centre y.
    let y: Double
    /// The layer span of pixel `first`.
    let base: ProjectiveSpan
    let first: Int
    /// Level 0's bytes and size.
    let texels: UnsafeRawBufferPointer
    let width: Int
    let height: Int
    let colors: UnsafeMutableRawPointer
    var bytes: UnsafeMutablePointer<UInt8> { colors.assumingMemoryBound(to: UInt8.self) }

    /// Shades pixels `k..<k + n` of the span into `colors[0..<n]`.
    func shade(_ k: Int, _ n: Int) {
      var q = 0
      if contents.isSinglePiece && contents.minificationFilter == contents.magnificationFilter {
        let map = contents.map(1, 1)
        while q + Self.lanes <= n, shadeVector(k, q, map) { q += Self.lanes }
      }
      shadeEach(k, q..<n)
    }

    /// Pixels per step of ``shadeVector(_:_:_:)``.
    static let lanes = 8

    /// Pixels `k + q..<k + q + lanes` of a single-piece layer that filters only with `nearest`:
    /// ``ReferenceRasterizer/layerPoint(_:_:_:)``, ``PreparedContents/texel(_:_:_:)`` and
    /// ``ImageSampler/nearestIndex(_:width:height:)`` on vectors of `Double`, operation for
    /// operation (no fused multiply-add), so each lane is the reference's value. Returns false,
    /// writing nothing, when a pixel is not in front of the eye (``shadeEach(_:_:)`` does it).
    @inline(__always)
    func shadeVector(_ k: Int, _ q: Int, _ map: PreparedContents.PieceMap) -> Bool {
      let lanes = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7)
      let x = SIMD8<Double>(repeating: Double(first + k + q)) + lanes + 0.5
      let omega = x * h.h2 + y * h.h5 + h.h8
      let u = (x * h.h0 + y * h.h3 + h.h6) / omega
      let v = (x * h.h1 + y * h.h4 + h.h7) / omega
      let finite = SIMD8<Double>(repeating: .greatestFiniteMagnitude)
      let valid =
        (omega .> 0) .& (omega .< 1 / Transform3D.minimumW) .& (u .>= -finite) .& (u .<= finite)
        .& (v .>= -finite) .& (v .<= finite)
      guard all(valid) else { return false }
      let i = Self.clampedIndex(u * map.scaleX + map.offsetX, width)
      let j = Self.clampedIndex(v * map.scaleY + map.offsetY, height)
      for lane in 0..<Self.lanes {
        // Truncation is the floor on `0…n − 1`.
        let offset = 4 &* (Int(j[lane]) &* width &+ Int(i[lane]))
        colors.storeBytes(
          of: texels.loadUnaligned(fromByteOffset: offset, as: UInt32.self),
          toByteOffset: 4 * (q + lane), as: UInt32.self)
      }
      return true
    }

    /// ``ImageSampler/floorIndex(_:_:)`` before its truncation, lane by lane: `c` on
    /// `[0, n)`, `n − 1` above, 0 below and for NaN.
    @inline(__always)
    static func clampedIndex(_ c: SIMD8<Double>, _ n: Int) -> SIMD8<Double> {
      var inside = c
      inside.replace(with: 0, where: .!(c .>= 0))
      inside.replace(with: Double(n - 1), where: c .>= Double(n))
      return inside
    }

    /// Shades pixels `k + q` for `q` in `range` into `colors[q]`, one at a time.
    func shadeEach(_ k: Int, _ range: Range<Int>) {
      let mixed = contents.minificationFilter != contents.magnificationFilter
      var piece = (column: -1, row: -1)
      var map: PreparedContents.PieceMap = (1, 0, 1, 0)
      // Pixels [pending.start, q) wait for the Float kernel with `filter` in `piece`.
      var pending: (start: Int, filter: ContentsFilter, piece: (column: Int, row: Int))?
      for q in range {
        let x = Double(first + k + q) + 0.5
        guard let (u, v, omega) = ReferenceRasterizer.layerPoint(x, y, h) else {
          flush(&pending, k, q)
          colors.storeBytes(of: 0, toByteOffset: 4 * q, as: UInt32.self)
          continue
        }
        let here = contents.piece(u, v)
        if here != piece { (piece, map) = (here, contents.map(here.column, here.row)) }
        let texel = PreparedContents.texel(u, v, map)
        var filter = ContentsFilter.nearest
        if mixed {
          let point = PreparedContents.MappedPoint(
            u: u, v: v, omega: omega, piece: piece, map: map, texel: texel)
          filter = sampler.filter(levelOfDetail: contents.footprint(point, h).levelOfDetail)
        }
        if filter == .nearest {
          flush(&pending, k, q)
          let (i, j) = ImageSampler.nearestIndex(texel, width: width, height: height)
          colors.storeBytes(
            of: texels.loadUnaligned(fromByteOffset: 4 &* (j &* width &+ i), as: UInt32.self),
            toByteOffset: 4 * q, as: UInt32.self)
        } else if pending == nil || pending!.filter != filter || pending!.piece != piece {
          flush(&pending, k, q)
          pending = (q, filter, piece)
        }
      }
      flush(&pending, k, range.upperBound)
    }

    /// Fills the pending pixels up to `end` of the chunk at `k` with the Float kernel.
    func flush(
      _ pending: inout (start: Int, filter: ContentsFilter, piece: (column: Int, row: Int))?,
      _ k: Int, _ end: Int
    ) {
      guard let p = pending else { return }
      pending = nil
      guard p.start < end else { return }
      let m = contents.map(p.piece.column, p.piece.row)
      let span = RasterSpans.advanced(base, by: k + p.start).scaled(
        x: m.scaleX, offsetX: m.offsetX, y: m.scaleY, offsetY: m.offsetY)
      ImageSampler(sampler.mipmaps, minificationFilter: p.filter, magnificationFilter: p.filter)
        .fill(span, count: end - p.start, into: bytes + 4 * p.start)
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
