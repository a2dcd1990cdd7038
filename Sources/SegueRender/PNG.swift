import Segue

/// A self-contained PNG encoder (no external library): 8-bit RGBA with straight alpha, one zlib
/// stream, CRC-32 and Adler-32 computed here.
///
/// The file is the signature, an `IHDR` chunk (bit depth 8, colour type 6 = RGBA, compression 0,
/// filter method 0, no interlace), the image data in `IDAT` chunks of at most 1 MiB, and `IEND`
/// (PNG specification, ISO/IEC 15948). Every scanline uses filter type 0 (None). The zlib stream
/// (RFC 1950: header `78 01`, deflate data, Adler-32 of the raw bytes, big-endian) holds either
/// stored blocks or one fixed-Huffman block (RFC 1951 §3.2.4 and §3.2.6).
public enum PNG {
  /// How the deflate data is produced.
  public enum Compression: Hashable, Sendable {
    /// Stored (uncompressed) blocks of at most 65535 bytes: trivial and fast, about as large as
    /// the raw pixels.
    case stored
    /// One block with the fixed Huffman codes and greedy LZ77 matching (3-byte hash, one
    /// candidate per hash, window 32 KiB, lengths 3…258). Solid colours, gradients and
    /// repeated rows compress well.
    case fixedHuffman
  }

  /// The 8-byte PNG signature `89 50 4E 47 0D 0A 1A 0A`.
  public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// Encodes `image` (premultiplied RGBA8) as a PNG file.
  ///
  /// Each pixel is converted to straight alpha: a colour byte `c` with alpha `a > 0` becomes
  /// `min(255, ⌊(510·c + a) / (2a)⌋)` (= `round(255·c/a)`, ties up); a pixel with `a = 0` becomes
  /// `(0, 0, 0, 0)`. An opaque pixel is unchanged. (Premultiplied 8-bit colour loses precision
  /// at low alpha; un-premultiplying cannot restore it.)
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notPositive`` naming `width` or `height` when the image
  ///   is empty (PNG needs at least one pixel).
  public static func encode(_ image: PixelBufferRGBA8, compression: Compression = .fixedHuffman)
    throws(ValidationError) -> [UInt8]
  {
    guard image.width > 0 else { throw ValidationError(field: "width", reason: .notPositive) }
    guard image.height > 0 else { throw ValidationError(field: "height", reason: .notPositive) }
    var raw = [UInt8]()
    raw.reserveCapacity((4 * image.width + 1) * image.height)
    for y in 0..<image.height {
      raw.append(0)  // filter type None
      let row = y * image.stride
      for x in 0..<image.width {
        let i = row + 4 * x
        let a = image.components[i + 3]
        if a == 0 {
          raw.append(contentsOf: [0, 0, 0, 0])
        } else if a == 255 {
          raw.append(contentsOf: image.components[i..<(i + 4)])
        } else {
          let a2 = 2 * Int(a)
          for c in 0..<3 {
            raw.append(UInt8(Swift.min(255, (510 * Int(image.components[i + c]) + Int(a)) / a2)))
          }
          raw.append(a)
        }
      }
    }
    var header = [UInt8]()
    header.appendBigEndian(UInt32(image.width))
    header.appendBigEndian(UInt32(image.height))
    header.append(contentsOf: [8, 6, 0, 0, 0])
    let stream = zlib(raw, compression: compression)
    var file = signature
    appendChunk("IHDR", header, to: &file)
    var start = 0
    repeat {
      let end = Swift.min(stream.count, start + (1 << 20))
      appendChunk("IDAT", stream[start..<end], to: &file)
      start = end
    } while start < stream.count
    appendChunk("IEND", [], to: &file)
    return file
  }

  /// A zlib stream (RFC 1950) of `data`: header `78 01` (deflate, 32 KiB window, no dictionary;
  /// `0x7801` is divisible by 31), the deflate blocks, then ``adler32(_:)`` big-endian.
  public static func zlib(_ data: [UInt8], compression: Compression = .fixedHuffman) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    switch compression {
    case .stored: out.append(contentsOf: deflateStored(data))
    case .fixedHuffman: out.append(contentsOf: deflateFixed(data))
    }
    out.appendBigEndian(adler32(data))
    return out
  }

  /// CRC-32 (ISO 3309 / ITU-T V.42, reflected polynomial `0xEDB88320`, initial value and final
  /// XOR `0xFFFFFFFF`), as PNG chunks use: `crc32("123456789") = 0xCBF43926`.
  public static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// Adler-32 (RFC 1950 §8.2): `s1 = 1 + Σ bytes`, `s2 = Σ s1` after each byte, both mod 65521;
  /// the checksum is `s2·65536 + s1`. `adler32("Wikipedia") = 0x11E60398`.
  public static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var s1: UInt32 = 1
    var s2: UInt32 = 0
    var i = 0
    while i < bytes.count {
      // 5552 bytes is the most that cannot overflow 32 bits before the reduction (zlib's NMAX).
      let end = Swift.min(bytes.count, i + 5552)
      while i < end {
        s1 &+= UInt32(bytes[i])
        s2 &+= s1
        i += 1
      }
      s1 %= 65521
      s2 %= 65521
    }
    return (s2 << 16) | s1
  }

  private static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  private static func appendChunk<C: Collection>(
    _ type: String, _ data: C, to file: inout [UInt8]
  ) where C.Element == UInt8 {
    file.appendBigEndian(UInt32(data.count))
    let typeBytes = Array(type.utf8)
    file.append(contentsOf: typeBytes)
    file.append(contentsOf: data)
    file.appendBigEndian(crc32(typeBytes + Array(data)))
  }

  /// Stored blocks: `BFINAL BTYPE=00` byte, `LEN`, `NLEN` (little-endian), the bytes.
  static func deflateStored(_ data: [UInt8]) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(data.count + 5 * (data.count / 65535 + 1))
    var start = 0
    repeat {
      let end = Swift.min(data.count, start + 65535)
      let length = UInt16(end - start)
      out.append(end == data.count ? 1 : 0)
      out.append(UInt8(length & 0xFF))
      out.append(UInt8(length >> 8))
      out.append(UInt8(~length & 0xFF))
      out.append(UInt8(~length >> 8))
      out.append(contentsOf: data[start..<end])
      start = end
    } while start < data.count
    return out
  }

  /// Length codes 257…285: base length and extra bits (RFC 1951 §3.2.5).
  private static let lengthBase: [Int] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  private static let lengthExtra: [Int] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  /// Distance codes 0…29: base distance and extra bits.
  private static let distanceBase: [Int] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtra: [Int] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]

  /// One final block with the fixed Huffman codes and greedy LZ77.
  static func deflateFixed(_ data: [UInt8]) -> [UInt8] {
    var writer = BitWriter()
    writer.write(1, bits: 1)  // BFINAL
    writer.write(1, bits: 2)  // BTYPE = 01, fixed Huffman
    let hashBits = 15
    var head = [Int](repeating: -1, count: 1 << hashBits)
    func hash(_ i: Int) -> Int {
      let v = UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2]) << 16
      return Int((v &* 2_654_435_761) >> UInt32(32 - hashBits))
    }
    var i = 0
    let n = data.count
    while i < n {
      var bestLength = 0
      var bestDistance = 0
      if i + 3 <= n {
        let h = hash(i)
        let candidate = head[h]
        head[h] = i
        if candidate >= 0 && i - candidate <= 32768 {
          let limit = Swift.min(258, n - i)
          var length = 0
          while length < limit && data[candidate + length] == data[i + length] { length += 1 }
          if length >= 3 {
            bestLength = length
            bestDistance = i - candidate
          }
        }
      }
      if bestLength >= 3 {
        writeLength(bestLength, &writer)
        writeDistance(bestDistance, &writer)
        // Index the positions inside the match so later data can refer to them.
        var j = i + 1
        let end = Swift.min(i + bestLength, n - 2)
        while j < end {
          head[hash(j)] = j
          j += 1
        }
        i += bestLength
      } else {
        writeLiteral(Int(data[i]), &writer)
        i += 1
      }
    }
    writeLiteral(256, &writer)  // end of block
    return writer.finish()
  }

  /// The fixed literal/length code (RFC 1951 §3.2.6), written most significant bit first.
  private static func writeLiteral(_ symbol: Int, _ writer: inout BitWriter) {
    switch symbol {
    case 0...143: writer.writeHuffman(0x30 + symbol, bits: 8)
    case 144...255: writer.writeHuffman(0x190 + symbol - 144, bits: 9)
    case 256...279: writer.writeHuffman(symbol - 256, bits: 7)
    default: writer.writeHuffman(0xC0 + symbol - 280, bits: 8)
    }
  }

  private static func writeLength(_ length: Int, _ writer: inout BitWriter) {
    var code = lengthBase.count - 1
    while lengthBase[code] > length { code -= 1 }
    writeLiteral(257 + code, &writer)
    writer.write(UInt32(length - lengthBase[code]), bits: lengthExtra[code])
  }

  private static func writeDistance(_ distance: Int, _ writer: inout BitWriter) {
    var code = distanceBase.count - 1
    while distanceBase[code] > distance { code -= 1 }
    writer.writeHuffman(code, bits: 5)
    writer.write(UInt32(distance - distanceBase[code]), bits: distanceExtra[code])
  }
}

/// Packs bits least significant first, as deflate requires.
private struct BitWriter {
  var bytes: [UInt8] = []
  var buffer: UInt64 = 0
  var count = 0

  /// Appends the low `bits` bits of `value`, least significant first (extra bits, headers).
  mutating func write(_ value: UInt32, bits: Int) {
    guard bits > 0 else { return }
    buffer |= UInt64(value & ((1 << UInt32(bits)) - 1)) << UInt64(count)
    count += bits
    while count >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      count -= 8
    }
  }

  /// Appends a Huffman code of `bits` bits, most significant bit first (RFC 1951 §3.1.1).
  mutating func writeHuffman(_ code: Int, bits: Int) {
    var reversed: UInt32 = 0
    for k in 0..<bits { reversed |= UInt32((code >> k) & 1) << UInt32(bits - 1 - k) }
    write(reversed, bits: bits)
  }

  /// Flushes the last partial byte (padded with zeros).
  mutating func finish() -> [UInt8] {
    if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
    buffer = 0
    count = 0
    return bytes
  }
}

extension Array where Element == UInt8 {
  fileprivate mutating func appendBigEndian(_ v: UInt32) {
    append(UInt8(v >> 24))
    append(UInt8((v >> 16) & 0xFF))
    append(UInt8((v >> 8) & 0xFF))
    append(UInt8(v & 0xFF))
  }
}
