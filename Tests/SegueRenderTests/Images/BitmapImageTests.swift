import Segue
import SegueRender
import Testing

/// The pixel `(x, y)` of `image` as `[R, G, B, A]`.
private func pixel(_ image: BitmapImage, _ x: Int, _ y: Int) -> [UInt8] {
  let p = image.pixels[x, y]
  return [p[0], p[1], p[2], p[3]]
}

@Suite("BitmapImage: PNG decoding")
struct PNGDecodingTests {
  @Test("8-bit RGBA: premultiplied as round(c·a/255)")
  func rgba8() throws {
    let rows: [[UInt8]] = [[255, 0, 0, 255, 0, 255, 0, 128], [0, 0, 255, 0, 200, 100, 50, 51]]
    let file = try TestPNG.file(width: 2, height: 2, bitDepth: 8, colorType: .rgba, rows: rows)
    let image = try BitmapImage(decoding: file, scale: 2)
    #expect(image.width == 2 && image.height == 2 && image.scale == 2)
    #expect(image.size == Size(width: 1, height: 1))
    #expect(pixel(image, 0, 0) == [255, 0, 0, 255])
    #expect(pixel(image, 1, 0) == [0, 128, 0, 128])  // 255·128/255 = 128
    #expect(pixel(image, 0, 1) == [0, 0, 0, 0])
    // 200·51/255 = 40, 100·51/255 = 20, 50·51/255 = 10
    #expect(pixel(image, 1, 1) == [40, 20, 10, 51])
  }

  @Test("16-bit RGB: channels rounded to 8 bits, opaque")
  func rgb16() throws {
    let row: [UInt8] = [0xFF, 0xFF, 0x80, 0x80, 0x00, 0x00, 0x01, 0x00, 0x00, 0x7F, 0xFE, 0xFF]
    let file = try TestPNG.file(width: 2, height: 1, bitDepth: 16, colorType: .rgb, rows: [row])
    let image = try BitmapImage(decoding: file)
    // 0x8080/257 = 128; 0x0100/257 = 0.996 → 1; 0x007F/257 = 0.49 → 0; 0xFEFF/257 = 254.0 → 254
    #expect(pixel(image, 0, 0) == [255, 128, 0, 255])
    #expect(pixel(image, 1, 0) == [1, 0, 254, 255])
  }

  @Test("1-bit gray expands to 0 and 255")
  func gray1() throws {
    let file = try TestPNG.file(
      width: 3, height: 1, bitDepth: 1, colorType: .gray, rows: [[0b1010_0000]])
    let image = try BitmapImage(decoding: file)
    #expect(pixel(image, 0, 0) == [255, 255, 255, 255])
    #expect(pixel(image, 1, 0) == [0, 0, 0, 255])
    #expect(pixel(image, 2, 0) == [255, 255, 255, 255])
  }

  @Test("gray with alpha, 16-bit")
  func grayAlpha16() throws {
    let row: [UInt8] = [0xFF, 0xFF, 0x80, 0x80]
    let file = try TestPNG.file(
      width: 1, height: 1, bitDepth: 16, colorType: .grayAlpha, rows: [row])
    #expect(pixel(try BitmapImage(decoding: file), 0, 0) == [128, 128, 128, 128])
  }

  @Test("2-bit palette with tRNS: index 1 half transparent, index 2 beyond tRNS opaque")
  func palette() throws {
    let plte: [UInt8] = [255, 0, 0, 0, 0, 255, 10, 20, 30]
    let trns: [UInt8] = [255, 102]
    let file = try TestPNG.file(
      width: 3, height: 1, bitDepth: 2, colorType: .palette, rows: [[0b0001_1000]],
      extra: [("PLTE", plte), ("tRNS", trns)])
    let image = try BitmapImage(decoding: file)
    #expect(pixel(image, 0, 0) == [255, 0, 0, 255])
    #expect(pixel(image, 1, 0) == [0, 0, 102, 102])
    #expect(pixel(image, 2, 0) == [10, 20, 30, 255])
  }

  @Test("RGB with a tRNS colour key: that colour becomes transparent")
  func rgbColorKey() throws {
    let file = try TestPNG.file(
      width: 2, height: 1, bitDepth: 8, colorType: .rgb, rows: [[1, 2, 3, 4, 5, 6]],
      extra: [("tRNS", [0, 4, 0, 5, 0, 6])])
    let image = try BitmapImage(decoding: file)
    #expect(pixel(image, 0, 0) == [1, 2, 3, 255])
    #expect(pixel(image, 1, 0) == [0, 0, 0, 0])
  }

  @Test("gAMA is ignored: values stay as stored")
  func gammaIgnored() throws {
    let file = try TestPNG.file(
      width: 1, height: 1, bitDepth: 8, colorType: .rgb, rows: [[100, 150, 200]],
      extra: [("gAMA", TestPNG.bigEndian(100_000))])
    #expect(pixel(try BitmapImage(decoding: file), 0, 0) == [100, 150, 200, 255])
  }

  @Test("Adam7 interlacing gives the same pixels as the plain file")
  func interlaced() throws {
    let width = 9
    let height = 10
    var rows: [[UInt8]] = []
    for y in 0..<height {
      var row: [UInt8] = []
      for x in 0..<width { row += [UInt8(x * 20), UInt8(y * 20), UInt8(x + y), 255] }
      rows.append(row)
    }
    let plain = try BitmapImage(
      decoding: try TestPNG.file(
        width: width, height: height, bitDepth: 8, colorType: .rgba, rows: rows))
    let adam7 = try BitmapImage(
      decoding: try TestPNG.file(
        width: width, height: height, bitDepth: 8, colorType: .rgba, rows: rows, interlaced: true))
    #expect(adam7.pixels == plain.pixels)
    #expect(pixel(adam7, 8, 9) == [160, 180, 17, 255])
  }

  @Test("truncated files: typed error at every cut")
  func truncated() throws {
    let file = try TestPNG.file(
      width: 2, height: 2, bitDepth: 8, colorType: .rgb,
      rows: [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
    for cut in [9, 20, 33, 40, file.count - 13, file.count - 1] {
      #expect(throws: ImageDecodingError.truncated(.png)) {
        try BitmapImage(decoding: Array(file.prefix(cut)))
      }
    }
  }

  @Test("corrupt data: a bad CRC in IHDR, a bad IHDR field, garbage deflate data")
  func corrupt() throws {
    let file = try TestPNG.file(
      width: 2, height: 1, bitDepth: 8, colorType: .rgb, rows: [[1, 2, 3, 4, 5, 6]])
    var badCRC = file
    badCRC[29] ^= 0xFF
    var badDepth = TestPNG.chunk(
      "IHDR", TestPNG.bigEndian(2) + TestPNG.bigEndian(1) + [7, 2, 0, 0, 0])
    badDepth = PNG.signature + badDepth + Array(file[33...])
    let garbage =
      PNG.signature + TestPNG.chunk("IHDR", Array(file[16..<29]))
      + TestPNG.chunk("IDAT", [0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0x00]) + TestPNG.chunk("IEND", [])
    for bad in [badCRC, badDepth, garbage] {
      do {
        _ = try BitmapImage(decoding: bad)
        Issue.record("decoded a corrupt file")
      } catch {
        guard case .corrupt(.png, let reason) = error else {
          Issue.record("expected corrupt, got \(error)")
          continue
        }
        #expect(!reason.isEmpty)
      }
    }
  }

  @Test("the pixel budget is checked from the header before allocating")
  func oversized() throws {
    // A header claiming 100000 × 100000 pixels and no image data.
    let header = TestPNG.bigEndian(100_000) + TestPNG.bigEndian(100_000) + [8, 6, 0, 0, 0]
    let file =
      PNG.signature + TestPNG.chunk("IHDR", header) + TestPNG.chunk("IDAT", [])
      + TestPNG.chunk("IEND", [])
    #expect(
      throws: ImageDecodingError.tooLarge(
        width: 100_000, height: 100_000, pixelBudget: BitmapImage.defaultPixelBudget)
    ) {
      try BitmapImage(decoding: file)
    }
    let small = try TestPNG.file(
      width: 3, height: 3, bitDepth: 8, colorType: .gray,
      rows: [[0, 0, 0], [0, 0, 0], [0, 0, 0]])
    #expect(throws: ImageDecodingError.tooLarge(width: 3, height: 3, pixelBudget: 8)) {
      try BitmapImage(decoding: small, pixelBudget: 8)
    }
    #expect(try BitmapImage(decoding: small, pixelBudget: 9).width == 3)
  }

  @Test("unsupported formats and scales are rejected")
  func rejected() throws {
    #expect(throws: ImageDecodingError.unsupportedFormat) { try BitmapImage(decoding: []) }
    #expect(throws: ImageDecodingError.unsupportedFormat) {
      try BitmapImage(decoding: Array("GIF89a".utf8))
    }
    let file = try TestPNG.file(width: 1, height: 1, bitDepth: 8, colorType: .gray, rows: [[7]])
    for scale in [0, -1, Double.nan, .infinity] {
      #expect(throws: ImageDecodingError.self) { try BitmapImage(decoding: file, scale: scale) }
    }
    #expect(ImageDecodingError.unsupportedFormat.description == "not a PNG or JPEG file")
  }
}

@Suite("BitmapImage: JPEG decoding")
struct JPEGDecodingTests {
  @Test("baseline grayscale: each flat 8×8 block decodes exactly", arguments: [false, true])
  func gray(progressive: Bool) throws {
    let file = TestJPEG.file(width: 16, height: 9, components: 1, progressive: progressive) {
      bx, by, _ in
      UInt8(40 + 100 * bx + 50 * by)
    }
    let image = try BitmapImage(decoding: file)
    #expect(image.width == 16 && image.height == 9)
    #expect(pixel(image, 0, 0) == [40, 40, 40, 255])
    #expect(pixel(image, 7, 7) == [40, 40, 40, 255])
    #expect(pixel(image, 8, 0) == [140, 140, 140, 255])
    #expect(pixel(image, 15, 8) == [190, 190, 190, 255])
  }

  @Test("YCbCr: converted with the JFIF matrix (within 1)")
  func color() throws {
    let file = TestJPEG.file(width: 8, height: 8, components: 3) { _, _, c in [100, 128, 200][c] }
    let p = pixel(try BitmapImage(decoding: file), 3, 3)
    // R = Y + 1.402(Cr − 128) = 200.9; G = Y − 0.714136(Cr − 128) = 48.6; B = Y.
    let expected: [Int] = [201, 49, 100, 255]
    for c in 0..<4 { #expect(abs(Int(p[c]) - expected[c]) <= 1) }
  }

  @Test("CMYK, plain and Adobe-inverted")
  func cmyk() throws {
    // Plain: C = 0, M = 255, Y = 255, K = 0 → red.
    let plain = TestJPEG.file(width: 8, height: 8, components: 4) { _, _, c in [0, 255, 255, 0][c] }
    #expect(pixel(try BitmapImage(decoding: plain), 0, 0) == [255, 0, 0, 255])
    // Adobe stores 255 − value: C = 0 (255), M = 0 (255), Y = 1 (0), K = 0.5 (127) →
    // R = G = 255·127/255 = 127, B = 0.
    let adobe = TestJPEG.file(width: 8, height: 8, components: 4, adobe: true) { _, _, c in
      [255, 255, 0, 127][c]
    }
    #expect(pixel(try BitmapImage(decoding: adobe), 0, 0) == [127, 127, 0, 255])
  }

  @Test("truncated and corrupt JPEG data are typed errors")
  func rejected() throws {
    let file = TestJPEG.file(width: 64, height: 64, components: 3) { bx, by, c in
      UInt8((bx * 37 + by * 11 + c * 50) % 256)
    }
    _ = try BitmapImage(decoding: file)
    for cut in [3, 30, 200, file.count - 40] {
      #expect(throws: ImageDecodingError.truncated(.jpeg)) {
        try BitmapImage(decoding: Array(file.prefix(cut)))
      }
    }
    var badPrecision = file
    let sof = try #require(file.indices.first { file[$0] == 0xFF && file[$0 + 1] == 0xC0 })
    badPrecision[sof + 4] = 7
    #expect {
      try BitmapImage(decoding: badPrecision)
    } throws: { error in
      guard case .corrupt(.jpeg, let reason) = error as? ImageDecodingError else { return false }
      return !reason.isEmpty
    }
  }

  @Test("the pixel budget is checked from the header")
  func oversized() throws {
    let file = TestJPEG.file(width: 24, height: 16, components: 1) { _, _, _ in 128 }
    #expect(throws: ImageDecodingError.tooLarge(width: 24, height: 16, pixelBudget: 100)) {
      try BitmapImage(decoding: file, pixelBudget: 100)
    }
  }
}
