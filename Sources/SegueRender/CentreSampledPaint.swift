import Segue

extension ReferenceRasterizer {
  /// The coverage and colour of pixel `(px, py)` for a part coloured once per pixel (an image,
  /// a gradient): `hits` of its 16 samples lie in front of the eye, `inside` the part (at their
  /// layer point) and in every clip; `sum` is `color` at the pixel centre (at the first hit
  /// sample when the centre is not in front of the eye) times `hits`. Images and gradients are
  /// sampled at pixel centres as a GPU samples them; the 16 samples only decide coverage.
  @inline(__always)
  static func centreSampled(
    _ px: Int, _ py: Int, _ h: Homography, _ clips: UnsafeBufferPointer<PreparedClip>,
    inside: (Double, Double) -> Bool, color: (Double, Double) -> SIMD4<Double>?
  ) -> (sum: SIMD4<Double>, hits: Int) {
    let n = samplesPerAxis
    let maximumOmega = 1 / Transform3D.minimumW
    var hits = 0
    var first = (x: 0.0, y: 0.0)
    for b in 0..<n {
      let y = sample(py, b)
      for a in 0..<n {
        let x = sample(px, a)
        let omega = x * h.h2 + y * h.h5 + h.h8
        guard omega > 0 && omega < maximumOmega else { continue }
        guard inside((x * h.h0 + y * h.h3 + h.h6) / omega, (x * h.h1 + y * h.h4 + h.h7) / omega)
        else { continue }
        var clipped = false
        for clip in clips where !clip.contains(x, y) { clipped = true }
        guard !clipped else { continue }
        if hits == 0 { first = (x, y) }
        hits += 1
      }
    }
    guard hits > 0 else { return (.zero, 0) }
    let c = color(Double(px) + 0.5, Double(py) + 0.5) ?? color(first.x, first.y) ?? .zero
    return (c * Double(hits), hits)
  }

  /// The layer point of the image position `(x, y)` through `h`, or `nil` when it is not in
  /// front of the eye or not finite.
  @inline(__always)
  static func layerPoint(_ x: Double, _ y: Double, _ h: Homography) -> (
    u: Double, v: Double, omega: Double
  )? {
    let omega = x * h.h2 + y * h.h5 + h.h8
    guard omega > 0 && omega < 1 / Transform3D.minimumW else { return nil }
    let u = (x * h.h0 + y * h.h3 + h.h6) / omega
    let v = (x * h.h1 + y * h.h4 + h.h7) / omega
    guard u.isFinite && v.isFinite else { return nil }
    return (u, v, omega)
  }
}

extension RasterSpans {
  /// Pixels per run of an RGBA8 span shader: the colours go through a 256-byte buffer on the
  /// stack.
  static let shadedChunk = 64

  /// The perspective-correct span of pixel centres `first…` of row `py` in layer coordinates
  /// (``ProjectiveSpan``) through the pixel → layer homography `h`.
  @inline(__always)
  static func layerSpan(_ first: Int, _ py: Int, _ h: Homography) -> ProjectiveSpan {
    let cy = Double(py) + 0.5
    let cx = Double(first) + 0.5
    return ProjectiveSpan(
      x: cx * h.h0 + cy * h.h3 + h.h6, y: cx * h.h1 + cy * h.h4 + h.h7,
      w: cx * h.h2 + cy * h.h5 + h.h8, dx: h.h0, dy: h.h1, dw: h.h2, rowDX: h.h3, rowDY: h.h4,
      rowDW: h.h5)
  }

  /// `span` moved on by `k` pixels.
  @inline(__always)
  static func advanced(_ span: ProjectiveSpan, by k: Int) -> ProjectiveSpan {
    let kd = Double(k)
    var s = span
    s.x += kd * span.dx
    s.y += kd * span.dy
    s.w += kd * span.dw
    return s
  }

  /// Shades pixels `run` of `span` (starting at image column `first`) in chunks of
  /// ``shadedChunk`` with `shade` (RGBA8 premultiplied into the buffer it is given) and blends
  /// them onto `row` at the layer's opacity (``blendBytes(_:_:count:opacity:add:)``).
  @inline(__always)
  static func shadedRun(
    _ run: Range<Int>, _ span: ProjectiveSpan, _ first: Int, _ layer: PreparedLayer,
    _ row: UnsafeMutablePointer<Float>,
    shade: (ProjectiveSpan, Int, UnsafeMutablePointer<UInt8>) -> Void
  ) {
    guard !run.isEmpty else { return }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * shadedChunk) { colors in
      let buffer = colors.baseAddress!
      var k = run.lowerBound
      while k < run.upperBound {
        let n = Swift.min(shadedChunk, run.upperBound - k)
        shade(advanced(span, by: k), n, buffer)
        blendBytes(buffer, row + 4 * (first + k), count: n, opacity: layer.opacity, add: layer.add)
        k += n
      }
    }
  }
}
