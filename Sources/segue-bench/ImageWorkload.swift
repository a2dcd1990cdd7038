import ArgumentParser
import Segue
import SegueMallocCounter
import SegueRender

// MARK: - Full-screen image workload (image)
//
// `image`: one full-screen layer showing a 780 × 1688 image (a 390 × 844-point phone screen at
// contentsScale 2, premultiplied splitmix64 noise seeded with 42, mipmapped untimed) under a
// perspective matrix, on one thread, into a 780 × 1688 frame. The layer is scaled 1.4× about the
// screen's centre, rotated 20° about y and seen with m34 = −1/1000 (pixels), so it covers the
// whole frame and the texels per pixel change along every row (0.6…0.85). The filter (both
// minification and magnification) is `--paint`'s image kernel: image-linear (default),
// image-trilinear or image-nearest. Two passes, each timed on its own:
//
// * sampling: `ImageSampler.fill` of every row of the frame through the layer's pixel → texel
//   map, into one reused row buffer (the span kernel alone);
// * frame: `SceneRenderer.render(_:into:context:)` of the layer with `RenderContext(threads: 1)`
//   (compiling the layer, edge coverage, the span kernel, blending onto the Float band, clearing
//   and quantising to RGBA8).
//
// After one untimed warm-up pass, `repeats` passes are timed (or until `--seconds`). Reported:
// Mpixel per CPU-second (frame pixels over process CPU time, the median pass) and per second of
// wall time, allocation calls per pass, and a checksum of the frame's bytes.

extension SegueBench {
  /// The image's size in pixels: a 390 × 844-point screen at 2×.
  static let imageWorkloadSize = (width: 780, height: 1688)

  /// Checks the options of `image` (called from `validate()`).
  func validateImageWorkload() throws {
    guard threads == 1 else {
      throw ValidationError("--threads does not apply to 'image' (one core)")
    }
    guard paintOptions.paint.filter != nil else {
      throw ValidationError(
        "--paint \(paintOptions.paint.rawValue) does not apply to 'image' "
          + "(image-linear, image-trilinear or image-nearest)")
    }
  }

  /// Runs the image workload and prints the report.
  func runImageWorkload() throws {
    let (width, height) = Self.imageWorkloadSize
    let filter = paintOptions.paint.filter ?? .linear
    let bitmap = try BitmapImage(pixels: Self.noiseImage(width: width, height: height), scale: 2)
    let texture = ContentsTexture(bitmap)
    let matrix = Self.imageLayerMatrix(width: Double(width), height: Double(height))
    let sampler = ImageSampler(
      texture.mipmaps, minificationFilter: filter, magnificationFilter: filter)
    let map = Self.inverseSpans(matrix)
    var row = [UInt8](repeating: 0, count: 4 * width)
    let sampling = try cpuTimed {
      row.withUnsafeMutableBufferPointer { out in
        for y in 0..<height { sampler.fill(map(y), count: width, into: out.baseAddress!) }
      }
    }
    let snapshot = LayerSnapshot(
      bounds: Rect(x: 0, y: 0, width: Double(width) / 2, height: Double(height) / 2),
      fill: .solid(.white),
      contents: LayerSnapshot.Contents(
        texture: texture, contentsScale: 2, minificationFilter: filter,
        magnificationFilter: filter))
    let items: [SceneRenderItem] = [.layer(RasterLayer(snapshot: snapshot, matrix: matrix))]
    let renderer = SceneRenderer(scale: 2)
    let context = try RenderContext(threads: 1)
    var frame = try PixelBufferRGBA8(width: width, height: height)
    let rendering = try cpuTimed { try renderer.render(items, into: &frame, context: context) }
    let checksum = frame.components.reduce(UInt64(0xCBF2_9CE4_8422_2325)) {
      ($0 ^ UInt64($1)) &* 0x100_0000_01B3
    }
    let n = Double(width * height)
    func line(_ name: String, _ t: (wall: Double, cpu: Double, allocations: UInt64)) -> String {
      "\(name.padding(10)) \(fixed(n / t.cpu / 1e6, 1)) Mpixel per CPU-second  "
        + "\(fixed(n / t.wall / 1e6, 1)) Mpixel/s wall  \(fixed(t.cpu * 1e3, 2)) ms CPU/pass  "
        + "allocations \(t.allocations) per pass"
    }
    print(
      """
      workload image  filter \(filter.rawValue)  \(width)×\(height) frame, layer scaled 1.4×, \
      rotated 20° about y, m34 = −1/1000  threads 1
      \(line("sampling", sampling))
      \(line("frame", rendering))
      CPU        \(cpuModelName()), \(CPUFeatures.runtime.description)
      Swift built for \(CPUFeatures.compiled.description)
      checksum   \(String(checksum, radix: 16)) (FNV-1a of the frame's bytes)
      """)
  }

  /// One untimed warm-up run of `pass`, then the timed passes: the median pass's wall and
  /// process CPU seconds and the most allocation calls of a pass.
  private func cpuTimed(_ pass: () throws -> Void) throws -> (
    wall: Double, cpu: Double, allocations: UInt64
  ) {
    try pass()
    var cpuSeconds: [Double] = []
    cpuSeconds.reserveCapacity(repeats + 1_000)
    let (wall, allocations) = try timedPasses {
      let start = processCPUSeconds()
      try pass()
      cpuSeconds.append(processCPUSeconds() - start)
    }
    return (wall.sorted()[wall.count / 2], cpuSeconds.sorted()[cpuSeconds.count / 2], allocations)
  }

  /// Layer points → frame pixels for the image workload: the layer (`width/2 × height/2`
  /// points) at 2×, scaled 1.4× about the frame's centre, rotated 20° about y, projected with
  /// m34 = −1/1000 and moved back to the centre.
  static func imageLayerMatrix(width: Double, height: Double) -> Transform3D {
    Transform3D.makeScale(x: 2, y: 2, z: 1)
      * Transform3D.makeTranslation(x: -width / 2, y: -height / 2, z: 0)
      * Transform3D.makeScale(x: 1.4, y: 1.4, z: 1)
      * Transform3D.makeRotation(by: Double.pi / 9, x: 0, y: 1, z: 0)
      * Transform3D.makePerspective(distance: 1000)
      * Transform3D.makeTranslation(x: width / 2, y: height / 2, z: 0)
  }

  /// The pixel → texel spans of the rows of a frame for a layer drawn with `matrix` (layer
  /// points → pixels) showing its image at 2 texels per point.
  static func inverseSpans(_ matrix: Transform3D) -> (Int) -> ProjectiveSpan {
    let full = Transform3D.makeScale(x: 0.5, y: 0.5, z: 1) * matrix
    return planeInverse(full)
  }

  /// A `width × height` premultiplied noise image (splitmix64, seed 42).
  static func noiseImage(width: Int, height: Int) -> PixelBufferRGBA8 {
    var state: UInt64 = 42
    var bytes = [UInt8](repeating: 0, count: 4 * width * height)
    for p in 0..<(width * height) {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      let a = UInt16(truncatingIfNeeded: z >> 56)
      for c in 0..<3 {
        bytes[4 * p + c] = UInt8(UInt16(truncatingIfNeeded: z >> (8 * c)) & 0xFF * a / 255)
      }
      bytes[4 * p + 3] = UInt8(a)
    }
    return try! PixelBufferRGBA8(width: width, height: height, components: bytes)
  }
}

extension PaintKernel {
  /// The image filter of an image kernel, `nil` for a gradient.
  var filter: ContentsFilter? {
    switch self {
    case .imageLinear: .linear
    case .imageTrilinear: .trilinear
    case .imageNearest: .nearest
    case .gradientAxial, .gradientRadial, .gradientConic: nil
    }
  }
}
