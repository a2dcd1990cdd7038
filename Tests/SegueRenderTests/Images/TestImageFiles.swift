import SegueRender

/// PNG files written byte by byte for the decoder tests: a signature, chunks with their CRC-32,
/// the scanlines (filter 0) deflated by zlib.
enum TestPNG {
  /// The colour types of the PNG specification.
  enum ColorType: UInt8 {
    case gray = 0
    case rgb = 2
    case palette = 3
    case grayAlpha = 4
    case rgba = 6
  }

  /// A PNG of `width × height` whose scanlines are `rows` (packed samples, without the filter
  /// byte); `extra` chunks go before IDAT (PLTE, tRNS, gAMA …); `interlaced` uses Adam7, with
  /// `rows` still the full image (samples of `bitDepth ≥ 8` only).
  static func file(
    width: Int, height: Int, bitDepth: UInt8, colorType: ColorType, rows: [[UInt8]],
    extra: [(String, [UInt8])] = [], interlaced: Bool = false
  ) throws -> [UInt8] {
    var header: [UInt8] = []
    header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
    header += [bitDepth, colorType.rawValue, 0, 0, interlaced ? 1 : 0]
    var raw: [UInt8] = []
    if interlaced {
      let bytesPerPixel = rows.isEmpty ? 0 : rows[0].count / width
      raw = adam7(rows, width: width, height: height, bytesPerPixel: bytesPerPixel)
    } else {
      for row in rows { raw += [0] + row }
    }
    var file = PNG.signature
    file += chunk("IHDR", header)
    for (type, data) in extra { file += chunk(type, data) }
    file += chunk("IDAT", try PNG.zlib(raw))
    file += chunk("IEND", [])
    return file
  }

  /// The seven Adam7 passes of the full-image `rows`, each scanline with filter byte 0.
  static func adam7(_ rows: [[UInt8]], width: Int, height: Int, bytesPerPixel: Int) -> [UInt8] {
    let passes = [
      (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
      (0, 1, 1, 2),
    ]
    var raw: [UInt8] = []
    for (x0, y0, dx, dy) in passes {
      guard x0 < width, y0 < height else { continue }
      for y in stride(from: y0, to: height, by: dy) {
        raw.append(0)
        for x in stride(from: x0, to: width, by: dx) {
          raw += rows[y][(x * bytesPerPixel)..<((x + 1) * bytesPerPixel)]
        }
      }
    }
    return raw
  }

  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typeBytes = Array(type.utf8)
    return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(PNG.crc32(typeBytes + data))
  }

  static func bigEndian(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
  }
}

/// JPEG files written byte by byte whose 8 × 8 blocks are flat: every block has only its DC
/// coefficient, quantised by 1, so each decodes exactly to its value (the inverse DCT of a
/// lone DC term `8·(v − 128)` is `v` at all 64 samples).
enum TestJPEG {
  /// A baseline (or, with `progressive`, a DC-only progressive) JPEG of `components`
  /// components (1, 3 or 4, each sampled 1 × 1), whose block `(bx, by)` of component `c` is
  /// `value(bx, by, c)`; `adobe` adds an Adobe APP14 marker (transform 0).
  static func file(
    width: Int, height: Int, components: Int, progressive: Bool = false, adobe: Bool = false,
    value: (Int, Int, Int) -> UInt8
  ) -> [UInt8] {
    var out: [UInt8] = [0xFF, 0xD8]
    if adobe {
      out += segment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 0])
    }
    out += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
    var frame: [UInt8] = [8] + be16(height) + be16(width) + [UInt8(components)]
    for c in 0..<components { frame += [UInt8(c + 1), 0x11, 0] }
    out += segment(progressive ? 0xC2 : 0xC0, frame)
    out += segment(0xC4, [0x00] + dcBits + Array(0...11))
    out += segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
    var scan: [UInt8] = [UInt8(components)]
    for c in 0..<components { scan += [UInt8(c + 1), 0x00] }
    scan += progressive ? [0, 0, 0] : [0, 63, 0]
    out += segment(0xDA, scan)
    out += entropy(
      width: width, height: height, components: components, dcOnly: progressive, value: value)
    if progressive {
      // One AC scan per component (coefficients 1…63, all zero: an end-of-band per block), so
      // the decoder knows every coefficient and does not smooth the blocks.
      let blocks = ((width + 7) / 8) * ((height + 7) / 8)
      for c in 0..<components {
        out += segment(0xDA, [1, UInt8(c + 1), 0x00, 1, 63, 0])
        var bits = BitWriter()
        for _ in 0..<blocks { bits.write(0, 1) }
        out += bits.finish()
      }
    }
    out += [0xFF, 0xD9]
    return out
  }

  /// The standard luminance DC table's code lengths (ITU T.81 K.3).
  static let dcBits: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]

  static func entropy(
    width: Int, height: Int, components: Int, dcOnly: Bool, value: (Int, Int, Int) -> UInt8
  ) -> [UInt8] {
    let codes = canonicalCodes(dcBits)
    var bits = BitWriter()
    var previous = [Int](repeating: 0, count: components)
    for by in 0..<((height + 7) / 8) {
      for bx in 0..<((width + 7) / 8) {
        for c in 0..<components {
          let dc = 8 * (Int(value(bx, by, c)) - 128)
          let diff = dc - previous[c]
          previous[c] = dc
          let magnitude = abs(diff)
          let category = magnitude == 0 ? 0 : Int.bitWidth - magnitude.leadingZeroBitCount
          bits.write(codes[category].code, codes[category].length)
          if category > 0 {
            bits.write(diff > 0 ? diff : diff + (1 << category) - 1, category)
          }
          if !dcOnly { bits.write(0, 1) }  // EOB, the AC table's only code
        }
      }
    }
    return bits.finish()
  }

  static func canonicalCodes(_ bits: [UInt8]) -> [(code: Int, length: Int)] {
    var result: [(code: Int, length: Int)] = []
    var code = 0
    for (index, count) in bits.enumerated() {
      for _ in 0..<count {
        result.append((code, index + 1))
        code += 1
      }
      code <<= 1
    }
    return result
  }

  static func segment(_ marker: UInt8, _ data: [UInt8]) -> [UInt8] {
    [0xFF, marker] + be16(data.count + 2) + data
  }

  static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

  /// MSB-first bits with JPEG's byte stuffing (`FF` → `FF 00`), padded with ones.
  struct BitWriter {
    var bytes: [UInt8] = []
    var accumulator = 0
    var count = 0

    mutating func write(_ value: Int, _ length: Int) {
      for i in stride(from: length - 1, through: 0, by: -1) {
        accumulator = (accumulator << 1) | ((value >> i) & 1)
        count += 1
        if count == 8 { flush() }
      }
    }

    mutating func flush() {
      bytes.append(UInt8(accumulator))
      if accumulator == 0xFF { bytes.append(0) }
      accumulator = 0
      count = 0
    }

    mutating func finish() -> [UInt8] {
      while count != 0 { write(1, 1) }
      return bytes
    }
  }
}
