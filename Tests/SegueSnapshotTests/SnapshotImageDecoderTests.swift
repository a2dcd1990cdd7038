import Segue
import SegueRender
import SegueSnapshot
import Testing

/// A premultiplied test image: a gradient with alpha ramps, so every scanline filter finds
/// something to predict and every alpha level occurs.
func rampImage(_ width: Int, _ height: Int) throws -> PixelBufferRGBA8 {
  var image = try PixelBufferRGBA8(width: width, height: height)
  for y in 0..<height {
    for x in 0..<width {
      let a = UInt8((x * 37 + y * 11) % 256)
      let c = { (v: Int) in UInt8(v % (Int(a) + 1)) }
      image[x, y] = [c(x * 7 + y), c(x + y * 5), c(x * y), a]
    }
  }
  return image
}

/// A PNG file from chunks (type, data), each given its length and CRC.
func pngFile(_ chunks: [(String, [UInt8])]) -> [UInt8] {
  var file = PNG.signature
  for (type, data) in chunks {
    let length = UInt32(data.count)
    file += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) }
    let body = Array(type.utf8) + data
    file += body
    let crc = PNG.crc32(body)
    file += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
  }
  return file
}

/// An `IHDR` body.
func ihdr(
  _ width: UInt32, _ height: UInt32, depth: UInt8 = 8, type: UInt8 = 6, interlace: UInt8 = 0
)
  -> [UInt8]
{
  let w = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: width >> $0) }
  let h = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: height >> $0) }
  return w + h + [depth, type, 0, 0, interlace]
}

@Suite("Snapshot image decoder")
struct SnapshotImageDecoderTests {
  /// Whatever filter the encoder picks, the decoder gives back the premultiplied pixels.
  @Test(arguments: [PNG.FilterChoice.adaptive] + PNG.Filter.allCases.map { .fixed($0) })
  func decodesWhatTheEncoderWrites(_ filter: PNG.FilterChoice) throws {
    let image = try rampImage(37, 23)
    let decoded = try SnapshotImageDecoder.decode(PNG.encode(image, filter: filter))
    #expect(decoded == image)
  }

  /// The encoder stores straight alpha, `round(255·c/a)`; premultiplying back, `round(c·a/255)`,
  /// restores every premultiplied value `c ≤ a` exactly.
  @Test func premultipliedValuesSurviveTheRoundTrip() throws {
    var image = try PixelBufferRGBA8(width: 256, height: 256)
    for a in 0..<256 {
      for c in 0...a { image[c, a] = [UInt8(c), UInt8(a - c), UInt8(c / 2), UInt8(a)] }
    }
    #expect(try SnapshotImageDecoder.decode(PNG.encode(image)) == image)
  }

  /// An RGB file (colour type 2) decodes as opaque.
  @Test func readsRGB() throws {
    let rows: [UInt8] = [0, 10, 20, 30, 40, 50, 60, 1, 1, 2, 3, 4, 5, 6]
    let file = pngFile([
      ("IHDR", ihdr(2, 2, type: 2)), ("IDAT", try PNG.zlib(rows)), ("IEND", []),
    ])
    let image = try SnapshotImageDecoder.decode(file)
    #expect(image[1, 0] == [40, 50, 60, 255])
    // Row 2 is Sub-filtered: (1, 2, 3), then (1 + 4, 2 + 5, 3 + 6).
    #expect(image[1, 1] == [5, 7, 9, 255])
  }

  @Test func decodesAnAnimation() throws {
    let frames = try (0..<3).map { k in try solidImage(5, 4, (UInt8(40 * k), 100, 200)) }
    var encoder = try APNGEncoder(width: 5, height: 4, frameCount: 3)
    for frame in frames { try encoder.add(frame, delay: 0.05) }
    let animation = try SnapshotImageDecoder.decodeAnimation(encoder.finish())
    #expect(animation.frames == frames)
    #expect(animation.delays == [0.05, 0.05, 0.05])
    // A still PNG is one frame.
    #expect(try SnapshotImageDecoder.decodeAnimation(PNG.encode(frames[0])).frames == [frames[0]])
  }

  /// Bad input: a clear error, never a crash.
  @Test func rejectsBadFiles() throws {
    let good = try PNG.encode(rampImage(8, 8))
    #expect(throws: SnapshotImageError.notPNG) { try SnapshotImageDecoder.decode([1, 2, 3]) }
    #expect(throws: SnapshotImageError.notPNG) { try SnapshotImageDecoder.decode([]) }
    // Every truncation is refused.
    for length in 8..<good.count {
      #expect(throws: SnapshotImageError.self) {
        try SnapshotImageDecoder.decode(Array(good[..<length]))
      }
    }
    var flipped = good
    flipped[40] ^= 0x10
    #expect(throws: SnapshotImageError.self) { try SnapshotImageDecoder.decode(flipped) }
    let empty: [UInt8] = try PNG.zlib([0])
    let cases: [([(String, [UInt8])], SnapshotImageError)] = [
      ([("IHDR", ihdr(1, 1, depth: 16)), ("IEND", [])], .unsupported("bit depth 16 (8 is read)")),
      (
        [("IHDR", ihdr(1, 1, type: 3)), ("IEND", [])],
        .unsupported("colour type 3 (RGBA and RGB are read)")
      ),
      ([("IHDR", ihdr(1, 1, interlace: 1)), ("IEND", [])], .unsupported("interlaced image")),
      ([("IHDR", ihdr(1 << 25, 1)), ("IEND", [])], .tooLarge(width: 1 << 25, height: 1)),
      ([("IHDR", ihdr(5000, 5000)), ("IEND", [])], .tooLarge(width: 5000, height: 5000)),
      ([("IHDR", ihdr(0, 1)), ("IEND", [])], .corrupt("an image of 0×1 pixels")),
      ([("IHDR", ihdr(1, 1)), ("IEND", [])], .corrupt("no IDAT chunk")),
      (
        [("IHDR", ihdr(1, 1)), ("IDAT", empty), ("IEND", [])],
        .corrupt("image data of 1 bytes where 5 were expected")
      ),
      (
        [("IHDR", ihdr(1, 1)), ("IDAT", try PNG.zlib([7, 0, 0, 0, 0])), ("IEND", [])],
        .corrupt("scanline filter type 7")
      ),
      (
        [("IHDR", ihdr(1, 1)), ("IDAT", [1, 2, 3, 4]), ("IEND", [])],
        .corrupt("bad zlib data")
      ),
      (
        [("IHDR", ihdr(1, 1)), ("IDAT", try PNG.zlib([0, 1, 2, 3, 4, 5])), ("IEND", [])],
        .corrupt("more image data than the size")
      ),
      (
        [
          ("IHDR", ihdr(1, 1)), ("IDAT", Array(try PNG.zlib([0, 1, 2, 3, 4], level: 0).prefix(8))),
          ("IEND", []),
        ],
        .corrupt("bad zlib data")
      ),
      ([("IEND", [])], .corrupt("the first chunk is not a 13-byte IHDR")),
    ]
    for (chunks, error) in cases {
      #expect(throws: error) { try SnapshotImageDecoder.decode(pngFile(chunks)) }
    }
  }

  @Test func rejectsABadAnimation() throws {
    var encoder = try APNGEncoder(width: 2, height: 2, frameCount: 2)
    try encoder.add(solidImage(2, 2, (1, 2, 3)), delay: 0.1)
    try encoder.add(solidImage(2, 2, (4, 5, 6)), delay: 0.1)
    let file = try encoder.finish()
    // Declare three frames in acTL (its data follows IHDR: offset 8 + 25 + 8).
    var wrongCount = file
    wrongCount[41 + 3] = 3
    let chunkEnd = 41 + 8
    let crc = PNG.crc32(wrongCount[37..<chunkEnd])
    for (i, shift) in [24, 16, 8, 0].enumerated() {
      wrongCount[chunkEnd + i] = UInt8(truncatingIfNeeded: crc >> UInt32(shift))
    }
    #expect(throws: SnapshotImageError.corrupt("acTL declares 3 frames, the file holds 2")) {
      try SnapshotImageDecoder.decodeAnimation(wrongCount)
    }
  }
}
