import Segue
import SegueRender
import Testing

/// ``PNG/Compression/runLength``: streams libpng (zlib) inflates back to the rows written, across
/// block boundaries, with code lengths limited to 15 bits, and runs coded as matches.
@Suite("Run-length deflate")
struct RunLengthDeflateTests {
  /// An opaque `width × height` image whose colour bytes come from `byte(k)` (k counts colour
  /// bytes in row order).
  private func image(width: Int, height: Int, _ byte: (Int) -> UInt8) throws -> PixelBufferRGBA8 {
    var image = try PixelBufferRGBA8(width: width, height: height)
    var k = 0
    for y in 0..<height {
      for x in 0..<width {
        image[x, y] = SIMD4(byte(k), byte(k + 1), byte(k + 2), 255)
        k += 3
      }
    }
    return image
  }

  /// Writes `image` with the run coder (unfiltered unless `filter` says otherwise) and checks
  /// that libpng reads it back.
  private func roundTrip(
    _ image: PixelBufferRGBA8, _ name: String, filter: PNG.Filter = .none
  ) throws -> [UInt8] {
    let file = try PNG.encode(image, compression: .runLength, filter: .fixed(filter))
    let decoded = try BitmapImage(decoding: file).pixels
    #expect(decoded.components == image.components, "\(name)")
    return file
  }

  /// Seeded bytes with every value equally likely: mostly literals, over 2¹⁶ symbols, so the
  /// stream has several blocks.
  @Test func randomBytesSpanSeveralBlocks() throws {
    var state: UInt64 = 0xDEF1A7E
    _ = try roundTrip(
      image(width: 300, height: 300) { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
      }, "random")
  }

  /// Byte values with Fibonacci frequencies (value v about F(v) times, never three in a row):
  /// an unlimited Huffman code would need codes of more than 15 bits.
  @Test func skewedFrequenciesKeepCodesWithinFifteenBits() throws {
    var fibonacci: [Int] = [1, 1]
    while fibonacci.count < 24 {
      fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2])
    }
    var sequence: [UInt8] = []
    var remaining = fibonacci
    while remaining.contains(where: { $0 > 0 }) {
      for v in remaining.indices where remaining[v] > 0 {
        sequence.append(UInt8(v))
        remaining[v] -= 1
      }
    }
    let width = 256
    let height = (sequence.count / 3 + width - 1) / width
    _ = try roundTrip(
      image(width: width, height: height) { $0 < sequence.count ? sequence[$0] : 7 }, "fibonacci")
  }

  /// Long runs (bands of one colour under Up: rows of zeros) are coded as matches: the file is
  /// a small fraction of the pixels; a 1 × 1 image and a single-colour image round-trip.
  @Test func runsBecomeMatches() throws {
    let stripes = try image(width: 500, height: 200) { k in UInt8((k / 15000) % 3 * 100) }
    let file = try roundTrip(stripes, "stripes", filter: .up)
    #expect(file.count < 500 * 200 * 4 / 50)
    _ = try roundTrip(image(width: 1, height: 1) { _ in 9 }, "one pixel")
    _ = try roundTrip(image(width: 64, height: 64) { _ in 255 }, "white")
  }
}
