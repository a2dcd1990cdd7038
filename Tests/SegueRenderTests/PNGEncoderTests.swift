import Dispatch
import Foundation
import Segue
import SegueMallocCounter
import SegueRender
import Testing

/// A `width × height` image of valid premultiplied pixels (each colour byte at most its alpha)
/// from a seeded generator, with runs of repeated rows (flat layers), fully transparent and
/// opaque pixels, and a padded stride when `padding > 0`.
private func sampleImage(width: Int, height: Int, seed: UInt64, padding: Int = 0) throws
  -> PixelBufferRGBA8
{
  var state = seed
  func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 33
  }
  var image = try PixelBufferRGBA8(width: width, height: height, stride: 4 * width + padding)
  for y in 0..<height {
    if y > 0 && next() % 3 == 0 {
      for x in 0..<width { image[x, y] = image[x, y - 1] }
      continue
    }
    for x in 0..<width {
      let alpha: UInt64 = [0, 255, 255, next() % 256][Int(next() % 4)]
      func colour() -> UInt8 { UInt8(alpha == 0 ? 0 : next() % (alpha + 1)) }
      image[x, y] = SIMD4(colour(), colour(), colour(), UInt8(alpha))
    }
  }
  return image
}

/// The image's pixels without the stride's padding.
private func tight(_ image: PixelBufferRGBA8) -> [UInt8] {
  (0..<image.height).flatMap { y in
    image.components[(y * image.stride)..<(y * image.stride + 4 * image.width)]
  }
}

/// A rendered frame of a preset at `fraction` of its duration.
private func renderedFrame(
  _ preset: TransitionPreset, at fraction: Double, _ renderer: SceneRenderer
) throws -> PixelBufferRGBA8 {
  let animator = PresetAnimator(preset)
  let scene = try animator.animateTransition(using: animator.defaultContext(operation: .push))
  return try renderer.render(scene, at: fraction * scene.duration)
}

/// ``PNGEncoder``: files libpng decodes to the pixels written, bytes independent of the
/// encoder's history and of threads, and the automatic choice of compression level.
@Suite("PNG encoder")
struct PNGEncoderTests {
  /// libpng (through ``BitmapImage/init(decoding:scale:pixelBudget:)``, which premultiplies
  /// again) reads back exactly the premultiplied pixels written: un-premultiplying rounds to
  /// the nearest straight value, which premultiplies back to the byte it came from. Every
  /// compression and filter choice; odd sizes; a padded stride.
  @Test func libpngDecodesWhatWasWritten() throws {
    let compressions: [PNG.Compression] = [
      .automatic, .runLength, .level(0), .level(1), .level(12),
    ]
    let filters: [PNG.FilterChoice] = [.adaptive] + PNG.Filter.allCases.map { .fixed($0) }
    for (k, size) in [(1, 1), (3, 7), (37, 19), (64, 33)].enumerated() {
      let image = try sampleImage(
        width: size.0, height: size.1, seed: UInt64(k + 1), padding: 4 * (k % 2))
      for compression in compressions {
        for filter in filters {
          let file = try PNG.encode(image, compression: compression, filter: filter)
          let decoded = try BitmapImage(decoding: file).pixels
          #expect(decoded.width == image.width && decoded.height == image.height)
          #expect(tight(decoded) == tight(image), "\(size) \(compression) \(filter)")
        }
      }
    }
  }

  /// Rendered frames (opaque, over white) round-trip exactly through libpng.
  @Test func renderedFramesRoundTrip() throws {
    let renderer = SceneRenderer(scale: 0.5, gradient: true)
    for preset in [TransitionPreset.system, .hero, .caFade] {
      let image = try renderedFrame(preset, at: 0.4, renderer)
      let decoded = try BitmapImage(decoding: PNG.encode(image)).pixels
      #expect(tight(decoded) == tight(image), "\(preset)")
    }
  }

  /// One encoder reused over images of different sizes writes each file exactly as a new
  /// encoder does: nothing of an earlier, larger image leaks into a later one.
  @Test func reuseDoesNotChangeTheBytes() throws {
    let images = [
      try sampleImage(width: 40, height: 30, seed: 7),
      try sampleImage(width: 9, height: 5, seed: 8, padding: 8),
      try sampleImage(width: 40, height: 30, seed: 9),
      try PixelBufferRGBA8(width: 12, height: 6),
      try sampleImage(width: 17, height: 40, seed: 10),
    ]
    for compression in [PNG.Compression.automatic, .runLength, .level(6)] {
      let encoder = try PNGEncoder(compression: compression)
      var file: [UInt8] = []
      for (k, image) in images.enumerated() {
        try encoder.encode(image, into: &file)
        #expect(file == (try PNG.encode(image, compression: compression)), "image \(k)")
      }
    }
  }

  /// Frames encoded at once on several threads, each by its own encoder, are byte for byte
  /// those of one encoder in order.
  @Test func parallelEncodingWritesTheSameBytes() throws {
    let frames = try (0..<8).map { try sampleImage(width: 48, height: 40, seed: UInt64(20 + $0)) }
    let serial = try PNGEncoder()
    let expected = try frames.map { try serial.encode($0) }
    for threads in [2, 3, 4] {
      let encoders = try (0..<threads).map { _ in try PNGEncoder() }
      var files = [[UInt8]](repeating: [], count: frames.count)
      files.withUnsafeMutableBufferPointer { files in
        nonisolated(unsafe) let files = files
        // Each thread uses only its own encoder.
        nonisolated(unsafe) let encoders = encoders
        DispatchQueue.concurrentPerform(iterations: threads) { t in
          for k in stride(from: t, to: frames.count, by: threads) {
            files[k] = (try? encoders[t].encode(frames[k])) ?? []
          }
        }
      }
      #expect(files == expected, "\(threads) threads")
    }
  }

  /// ``PNG/Compression/automatic`` writes a flat image (one row in 128 differs from the row
  /// above) with the run coder, the same with one row in 16 at libdeflate's flat level, and an
  /// image whose rows all differ (a vertical gradient) at its detail level (filters fixed, so
  /// only the compression is chosen).
  @Test func automaticCompressionFollowsTheRows() throws {
    var flat = try PixelBufferRGBA8(width: 32, height: 128, fill: SIMD4(10, 20, 30, 255))
    for x in 0..<32 { flat[x, 0] = SIMD4(200, 0, 0, 255) }
    var banded = flat
    for y in stride(from: 1, to: 128, by: 16) {
      for x in 0..<32 { banded[x, y] = SIMD4(UInt8(y), UInt8(x), 0, 255) }
    }
    var gradient = try PixelBufferRGBA8(width: 32, height: 32)
    for y in 0..<32 {
      for x in 0..<32 { gradient[x, y] = SIMD4(UInt8(8 * y), UInt8(x), UInt8(x ^ y), 255) }
    }
    let detail = PNG.Compression.level(PNG.Compression.detailLevel)
    let up = PNG.FilterChoice.fixed(.up)
    #expect(
      try PNG.encode(flat, filter: up) == PNG.encode(flat, compression: .runLength, filter: up))
    #expect(
      try PNG.encode(gradient, filter: up) == PNG.encode(gradient, compression: detail, filter: up))
    #expect(try PNG.encode(flat, filter: up) != PNG.encode(flat, compression: detail, filter: up))
    let flatLevel = PNG.Compression.level(PNG.Compression.flatLevel)
    #expect(
      try PNG.encode(banded, filter: up) == PNG.encode(banded, compression: flatLevel, filter: up))
  }

  /// The adaptive filters give way to no filter when that compresses smaller: rows that repeat
  /// a few rows apart but differ from the row above (as lines of text do) are written unfiltered
  /// at the detail level; a gradient keeps its per-row filters.
  @Test func adaptiveFilteringFallsBackToNoFilter() throws {
    var state: UInt64 = 0x5EED
    func byte() -> UInt8 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    let pattern = (0..<3).map { _ in (0..<64).map { _ in byte() } }
    var text = try PixelBufferRGBA8(width: 64, height: 300)
    for y in 0..<300 {
      for x in 0..<64 { text[x, y] = SIMD4(pattern[y % 3][x], pattern[y % 3][x] / 2, 0, 255) }
    }
    #expect(try PNG.encode(text) == PNG.encode(text, filter: .fixed(.none)))
    var gradient = try PixelBufferRGBA8(width: 64, height: 300)
    for y in 0..<300 {
      for x in 0..<64 { gradient[x, y] = SIMD4(UInt8(y % 256), UInt8(4 * x), 128, 255) }
    }
    #expect(try PNG.encode(gradient) != PNG.encode(gradient, filter: .fixed(.none)))
    #expect(try PNG.encode(gradient).count < PNG.encode(gradient, filter: .fixed(.none)).count)
  }
}

#if DEBUG
  private let pngAllocationTestsEnabled = false
#else
  private let pngAllocationTestsEnabled = true
#endif

/// Writing a frame into a reused file array allocates nothing once the encoder has written one
/// of its size (optimised builds only, as ``RasterAllocationTests``).
@Suite(.enabled(if: pngAllocationTestsEnabled))
struct PNGAllocationTests {
  @Test func warmFramesAllocateNothing() throws {
    try #require(segue_allocation_counting_available() == 1)
    let renderer = SceneRenderer(scale: 1, gradient: true)
    let frames = try [0.2, 0.5, 0.8].map { try renderedFrame(.hero, at: $0, renderer) }
    for compression in [PNG.Compression.automatic, .runLength, .level(6)] {
      let encoder = try PNGEncoder(compression: compression)
      var file: [UInt8] = []
      for frame in frames { try encoder.encode(frame, into: &file) }
      for frame in frames {
        let before = segue_thread_allocation_count()
        try encoder.encode(frame, into: &file)
        #expect(segue_thread_allocation_count() &- before == 0, "\(compression)")
      }
    }
  }
}
