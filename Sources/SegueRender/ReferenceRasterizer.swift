import Segue
import SegueSIMDSupport

/// The reference software rasteriser: every pixel of a layer's bounding box sampled 16 times
/// (a 4×4 grid) in `Double` through the inverse of the layer's plane homography,
/// `[U V Ω] = [x y 1]·H⁻¹`, and composited "over" (`out = s·o + (1 − s_A·o)·dst`) or "add"
/// (`out = dst + s·o`). Slow (about 5 Mpixel/s) and simple; ``Rasterizer`` is the fast renderer
/// and is tested against this one (every channel within 2/255 on every preset and spec example).
/// The mapping, coverage, parts, clips and compositing rules are in <doc:Rendering>.
public enum ReferenceRasterizer {
  /// Samples per pixel along each axis (4, so 16 per pixel).
  public static let samplesPerAxis = 4

  /// Draws one layer into `buffer` (the rules are in <doc:Rendering>).
  ///
  /// A matrix whose plane homography `H` is singular (the layer is seen edge-on, or scaled to
  /// zero) draws nothing, by Segue's relative singular test for a 3×3 matrix
  /// (`|det| ≤ 1e-12·(max |hᵢⱼ|)³`).
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notFinite`` naming `matrix` (with the field index
  ///   0…15, row-major) for a NaN or infinite field; the errors of
  ///   ``LayerSnapshot/validate()``; and ``/Segue/ValidationError`` naming `opacity` unless it is in
  ///   `[0, 1]`.
  public static func draw(_ layer: RasterLayer, into buffer: inout PixelBufferRGBAFloat)
    throws(ValidationError)
  {
    try layer.validate()
    guard let inverse = Homography(plane: layer.matrix).inverted() else { return }
    let paint = SnapshotPaint(layer.snapshot)
    let clips = layer.clips.map(PreparedClip.init) + [layer.regionClip(paint)].compactMap(\.self)
    let opacity = Float(layer.opacity)
    let add = layer.blendMode == .add
    let stride = buffer.stride
    for part in LayerPart.allCases where layer.parts.contains(part.set) && paint.has(part) {
      if part == .paths {
        clips.withUnsafeBufferPointer { drawPaths(layer, $0, into: &buffer) }
        continue
      }
      let polygon = ScreenPolygon(paint.extent(of: part), layer.matrix)
      guard let box = pixelBox(polygon, width: buffer.width, height: buffer.height) else {
        continue
      }
      clips.withUnsafeBufferPointer { clips in
        buffer.components.withUnsafeMutableBufferPointer { pixels in
          for py in box.y0..<box.y1 {
            for px in box.x0..<box.x1 {
              let (sum, hits) = supersample(px, py, inverse, paint, part, clips)
              guard hits > 0 else { continue }
              blend(sum, opacity, add, pixels.baseAddress! + py * stride + 4 * px)
            }
          }
        }
      }
    }
  }

  /// Renders a list of items bottom to top onto a `width × height` image cleared to
  /// `background`, and returns it (premultiplied Float; quantise with
  /// ``/Segue/PixelBufferRGBA8/init(_:)``).
  ///
  /// Rules, in draw order:
  /// - an "over" layer is drawn directly with ``draw(_:into:)``;
  /// - a **run of consecutive "add" layers** (a cross-dissolve's old and new snapshots) is summed
  ///   into a cleared off-screen image, which is then composited "over" what lies below with
  ///   opacity 1 — so old at weight `1 − q` and new at weight `q` give exactly
  ///   `(1 − q)·old + q·new` where they overlap, and the background shows through only where
  ///   that sum is translucent;
  /// - a ``RenderItem/group(opacity:items:)`` is rendered by the same rules into a cleared
  ///   off-screen image, which is then composited "over" with the group opacity.
  ///
  /// - Throws: the errors of ``draw(_:into:)``; ``/Segue/ValidationError`` naming `group.opacity`
  ///   unless a group's opacity is in `[0, 1]`; and the size errors of
  ///   ``/Segue/PixelBufferRGBAFloat/init(width:height:stride:fill:)``.
  public static func render(
    _ items: [RenderItem], width: Int, height: Int, background: RGBAColor = .clear
  ) throws(ValidationError) -> PixelBufferRGBAFloat {
    let fill = SIMD4<Float>(LayerSnapshot.premultiplied(background))
    var buffer = try PixelBufferRGBAFloat(width: width, height: height, fill: fill)
    try composite(items, into: &buffer)
    return buffer
  }

  private static func composite(_ items: [RenderItem], into buffer: inout PixelBufferRGBAFloat)
    throws(ValidationError)
  {
    var i = 0
    while i < items.count {
      switch items[i] {
      case .layer(let layer) where layer.blendMode == .add:
        var offscreen = try PixelBufferRGBAFloat(width: buffer.width, height: buffer.height)
        while i < items.count, case .layer(let next) = items[i], next.blendMode == .add {
          try draw(next, into: &offscreen)
          i += 1
        }
        try BlendKernels.overFloat(offscreen, opacity: 1, onto: &buffer)
      case .layer(let layer):
        try draw(layer, into: &buffer)
        i += 1
      case .group(let opacity, let members):
        try Validate.inRange(opacity, 0, 1, "group.opacity")
        var offscreen = try PixelBufferRGBAFloat(width: buffer.width, height: buffer.height)
        try composite(members, into: &offscreen)
        try BlendKernels.overFloat(offscreen, opacity: opacity, onto: &buffer)
        i += 1
      }
    }
  }

  // MARK: - Shared with the fast rasteriser

  /// The pixels visited for a projected polygon (``Transform3D/mapQuad(_:)`` of the bounds):
  /// its bounding box, widened to whole pixels plus one on the right and bottom, clamped to the
  /// image; `nil` when empty.
  static func pixelBox(_ polygon: ScreenPolygon, width: Int, height: Int)
    -> (x0: Int, x1: Int, y0: Int, y1: Int)?
  {
    guard polygon.count > 0, width > 0, height > 0 else { return nil }
    func clampIndex(_ v: Double, _ upper: Int) -> Int {
      Int(Swift.min(Swift.max(v, 0), Double(upper)))
    }
    let x0 = clampIndex(polygon.minX.rounded(.down), width)
    let x1 = clampIndex(polygon.maxX.rounded(.up) + 1, width)
    let y0 = clampIndex(polygon.minY.rounded(.down), height)
    let y1 = clampIndex(polygon.maxY.rounded(.up) + 1, height)
    guard x0 < x1, y0 < y1 else { return nil }
    return (x0, x1, y0, y1)
  }

  /// The sum of the premultiplied colours of the samples of pixel `(px, py)` that hit `part`,
  /// and how many did (0…16): the 4×4 grid, each sample mapped back through `inverse`, kept when
  /// `0 < Ω < 1/minimumW`, `part` covers the layer point (``SnapshotPaint/sample(_:_:_:)``)
  /// and every clip contains the sample. The contents image and the gradient are coloured once
  /// per pixel, at its centre (``centreSampled(_:_:_:_:inside:color:)``).
  @inline(__always)
  static func supersample(
    _ px: Int, _ py: Int, _ inverse: Homography, _ paint: SnapshotPaint, _ part: LayerPart,
    _ clips: UnsafeBufferPointer<PreparedClip>
  ) -> (sum: SIMD4<Double>, hits: Int) {
    if part == .contents, let contents = paint.contents {
      return contents.supersample(px, py, inverse, clips)
    }
    if part == .gradient, let gradient = paint.gradient {
      return gradient.supersample(px, py, inverse, paint.body, clips)
    }
    let n = samplesPerAxis
    let maximumOmega = 1 / Transform3D.minimumW
    var sum = SIMD4<Double>.zero
    var hits = 0
    for b in 0..<n {
      let y = sample(py, b)
      for a in 0..<n {
        let x = sample(px, a)
        let uh = x * inverse.h0 + y * inverse.h3 + inverse.h6
        let vh = x * inverse.h1 + y * inverse.h4 + inverse.h7
        let omega = x * inverse.h2 + y * inverse.h5 + inverse.h8
        // W = 1/Ω > minimumW, i.e. 0 < Ω < 1/minimumW: in front of the eye.
        guard omega > 0 && omega < maximumOmega else { continue }
        guard let color = paint.sample(part, uh / omega, vh / omega) else {
          continue
        }
        var clipped = false
        for clip in clips where !clip.contains(x, y) { clipped = true }
        guard !clipped else { continue }
        sum += color
        hits += 1
      }
    }
    return (sum, hits)
  }

  /// The coordinate of sample `k` (`0…3`) of pixel `p`: `p + (k + ½)/4`, on the 4 × 4 grid every
  /// rasteriser path uses (so they all decide on the same numbers).
  @inline(__always)
  static func sample(_ p: Int, _ k: Int) -> Double {
    Double(p) + (Double(k) + 0.5) * 0.25
  }

  /// Blends the mean `sum/16` at `opacity` into the pixel at `pixel`: "over"
  /// `s + (1 − s_A)·d` or "add" `d + s` with `s = mean·opacity`, clamped to `[0, 1]`.
  @inline(__always)
  static func blend(
    _ sum: SIMD4<Double>, _ opacity: Float, _ add: Bool, _ pixel: UnsafeMutablePointer<Float>
  ) {
    let n = samplesPerAxis
    blend(SIMD4<Float>(sum / Double(n * n)) * opacity, add, pixel)
  }

  /// Blends the source `s` (premultiplied, opacity applied) into the pixel at `pixel`.
  @inline(__always)
  static func blend(_ s: SIMD4<Float>, _ add: Bool, _ pixel: UnsafeMutablePointer<Float>) {
    let d = SIMD4<Float>(pixel[0], pixel[1], pixel[2], pixel[3])
    let r = add ? d + s : s + (1 - s[3]) * d
    let c = segue_clamp01_f32x4(r)
    pixel[0] = c[0]
    pixel[1] = c[1]
    pixel[2] = c[2]
    pixel[3] = c[3]
  }
}

extension SceneRenderer {
  /// Renders `items` with the reference rasteriser (``ReferenceRasterizer``): the same rules as
  /// ``render(_:width:height:)``, full-size Float images for every off-screen step, every pixel
  /// sampled 16 times in `Double`. For tests and benchmarks that hold the fast renderer to it.
  ///
  /// - Throws: as ``render(_:width:height:)``.
  public func referenceRender(_ items: [SceneRenderItem], width: Int, height: Int)
    throws(ValidationError) -> PixelBufferRGBAFloat
  {
    let fill = SIMD4<Float>(LayerSnapshot.premultiplied(background))
    var buffer = try PixelBufferRGBAFloat(width: width, height: height, fill: fill)
    for item in items {
      switch item {
      case .layer(let layer):
        try ReferenceRasterizer.draw(layer, into: &buffer)
      case .crossDissolve(let snapshots):
        var sum = try PixelBufferRGBAFloat(width: width, height: height)
        for (k, snapshot) in snapshots.enumerated() {
          try Validate.inRange(snapshot.weight, 0, 1, "crossDissolve.weight", index: k)
          if let layer = try snapshot.directLayer() {
            try ReferenceRasterizer.draw(layer, into: &sum)
          } else {
            var over = snapshot.layers
            for i in over.indices { over[i].blendMode = .over }
            let image = try ReferenceRasterizer.render(
              over.map(RenderItem.layer), width: width, height: height)
            let weight = Float(snapshot.weight)
            for y in 0..<height {
              for i in (y * sum.stride)..<(y * sum.stride + 4 * width) {
                sum.components[i] = Swift.min(
                  Swift.max(sum.components[i] + weight * image.components[i], 0), 1)
              }
            }
          }
        }
        try BlendKernels.overFloat(sum, opacity: 1, onto: &buffer)
      }
    }
    return buffer
  }

  /// Renders a sampled transition with the reference rasteriser, quantised to 8 bits: the
  /// reference twin of ``render(_:presentation:containerSize:)``.
  ///
  /// - Throws: as ``render(_:presentation:containerSize:)``.
  public func referenceRender(
    _ sample: TransitionSample, presentation tree: LayerTree, containerSize: Size
  ) throws(ValidationError) -> PixelBufferRGBA8 {
    let size = try outputSize(for: containerSize)
    let items = try renderItems(for: sample, presentation: tree)
    return PixelBufferRGBA8(try referenceRender(items, width: size.width, height: size.height))
  }
}
