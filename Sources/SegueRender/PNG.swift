import CZlib
import Segue
import SegueSIMDSupport

/// A PNG encoder: 8-bit RGBA with straight alpha, each scanline filtered with the filter that
/// suits it best, compressed with zlib.
///
/// The file is the signature, an `IHDR` chunk (bit depth 8, colour type 6 = RGBA, compression 0,
/// filter method 0, no interlace), the image data in `IDAT` chunks of at most 1 MiB, and `IEND`
/// (PNG specification, ISO/IEC 15948). Each scanline is preceded by its filter type:
/// ``Filter/none``, ``Filter/sub``, ``Filter/up``, ``Filter/average`` or ``Filter/paeth``
/// (specification §9.2). With ``FilterChoice/adaptive`` (the default) every row gets the filter
/// whose output has the smallest sum of absolute values when its bytes are read as signed
/// (`Σ min(b, 256 − b)`), the heuristic the specification recommends and libpng uses: flat rows
/// become runs of zeros under Sub or Up, gradients under Up or Paeth. The filtered rows are one
/// zlib stream (RFC 1950/1951, `deflate` at ``encode(_:level:filter:)``'s level, 32 KiB window).
public enum PNG {
  /// A scanline filter (PNG specification §9.2): each byte is stored as its difference from a
  /// prediction made from the byte to its left (`a`, the same channel of the previous pixel),
  /// above (`b`) and above-left (`c`).
  public enum Filter: UInt8, CaseIterable, Hashable, Sendable {
    /// No prediction.
    case none = 0
    /// `a`.
    case sub = 1
    /// `b`.
    case up = 2
    /// `⌊(a + b)/2⌋`.
    case average = 3
    /// Whichever of `a`, `b`, `c` is closest to `a + b − c` (ties: `a`, then `b`).
    case paeth = 4
  }

  /// How the filter of each scanline is chosen.
  public enum FilterChoice: Hashable, Sendable {
    /// Per row, the filter with the smallest sum of absolute signed filtered bytes.
    case adaptive
    /// The same filter for every row.
    case fixed(Filter)
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
  /// - Parameters:
  ///   - image: the pixels.
  ///   - level: zlib's compression level, `0…9` (0 stores, 9 searches hardest; default 6,
  ///     zlib's default).
  ///   - filter: the scanline filters (default ``FilterChoice/adaptive``).
  /// - Throws: ``/Segue/ValidationError/Reason/notPositive`` naming `width` or `height` when the image
  ///   is empty (PNG needs at least one pixel); ``/Segue/ValidationError/Reason/outOfRange(lower:upper:)``
  ///   naming `level`; ``/Segue/ValidationError/Reason/invalidState(_:)`` naming `deflate` if zlib
  ///   fails (out of memory).
  public static func encode(
    _ image: PixelBufferRGBA8, level: Int = 6, filter: FilterChoice = .adaptive
  ) throws(ValidationError) -> [UInt8] {
    guard image.width > 0 else { throw ValidationError(field: "width", reason: .notPositive) }
    guard image.height > 0 else { throw ValidationError(field: "height", reason: .notPositive) }
    try checkLevel(level)
    var file = signature
    appendChunk("IHDR", header(width: image.width, height: image.height), to: &file)
    let data = try compressedImage(
      image, x: 0, y: 0, width: image.width, height: image.height, level: level, filter: filter)
    var start = 0
    repeat {
      let end = Swift.min(data.count, start + (1 << 20))
      appendChunk("IDAT", data[start..<end], to: &file)
      start = end
    } while start < data.count
    appendChunk("IEND", [], to: &file)
    return file
  }

  /// A zlib stream (RFC 1950) of `data`, compressed by zlib's `deflate` at `level` (`0…9`; 0
  /// gives stored blocks).
  ///
  /// - Throws: as ``encode(_:level:filter:)`` for `level` and `deflate`.
  public static func zlib(_ data: [UInt8], level: Int = 6) throws(ValidationError) -> [UInt8] {
    try checkLevel(level)
    return try data.withUnsafeBufferPointer { input throws(ValidationError) in
      try deflate(input, level: level)
    }
  }

  /// CRC-32 (ISO 3309 / ITU-T V.42, reflected polynomial `0xEDB88320`, initial value and final
  /// XOR `0xFFFFFFFF`), as PNG chunks use: `crc32("123456789") = 0xCBF43926` (zlib's `crc32`).
  public static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    let array = Array(bytes)
    return array.withUnsafeBufferPointer { crc(0, $0) }
  }

  /// Adler-32 (RFC 1950 §8.2): `s1 = 1 + Σ bytes`, `s2 = Σ s1` after each byte, both mod 65521;
  /// the checksum is `s2·65536 + s1`. `adler32("Wikipedia") = 0x11E60398` (zlib's `adler32`).
  public static func adler32(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { b in
      UInt32(checksum(CZlib.adler32(0, nil, 0), b, CZlib.adler32))
    }
  }

  // MARK: - Shared with APNG

  /// Throws unless `level` is in `0…9`.
  static func checkLevel(_ level: Int) throws(ValidationError) {
    guard level >= 0 && level <= 9 else {
      throw ValidationError(field: "level", reason: .outOfRange(lower: 0, upper: 9))
    }
  }

  /// The 13 bytes of `IHDR` (RGBA8, no interlace).
  static func header(width: Int, height: Int) -> [UInt8] {
    var header = [UInt8]()
    header.appendBigEndian(UInt32(width))
    header.appendBigEndian(UInt32(height))
    header.append(contentsOf: [8, 6, 0, 0, 0])
    return header
  }

  /// Appends a chunk: length, type, data, CRC-32 of type and data.
  static func appendChunk<C: Collection>(
    _ type: String, _ data: C, to file: inout [UInt8]
  ) where C.Element == UInt8 {
    file.appendBigEndian(UInt32(data.count))
    let start = file.count
    file.append(contentsOf: type.utf8)
    file.append(contentsOf: data)
    let value = file.withUnsafeBufferPointer {
      crc(0, UnsafeBufferPointer(rebasing: $0[start...]))
    }
    file.appendBigEndian(value)
  }

  /// The zlib stream of the filtered scanlines of the `width × height` region of `image` at
  /// `(x, y)` (straight alpha), as `IDAT` (or APNG `fdAT`) data.
  static func compressedImage(
    _ image: PixelBufferRGBA8, x: Int, y: Int, width: Int, height: Int, level: Int,
    filter: FilterChoice
  ) throws(ValidationError) -> [UInt8] {
    let rowBytes = 4 * width
    var filtered = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
    // Two straight-alpha rows, each after 16 zero bytes (the "left" of the first pixel).
    let padded = rowBytes + 16
    var rows = [UInt8](repeating: 0, count: 2 * padded)
    var candidates = [UInt8](repeating: 0, count: 5 * rowBytes)
    image.components.withUnsafeBufferPointer { pixels in
      filtered.withUnsafeMutableBufferPointer { out in
        rows.withUnsafeMutableBufferPointer { rows in
          candidates.withUnsafeMutableBufferPointer { candidates in
            var current = rows.baseAddress! + 16
            var previous = rows.baseAddress! + padded + 16
            for row in 0..<height {
              let source = pixels.baseAddress! + (y + row) * image.stride + 4 * x
              unpremultiply(source, into: current, pixels: width)
              filterRow(
                current, previous, count: rowBytes, filter: filter,
                into: out.baseAddress! + row * (rowBytes + 1), scratch: candidates.baseAddress!)
              swap(&current, &previous)
            }
          }
        }
      }
    }
    return try filtered.withUnsafeBufferPointer { input throws(ValidationError) in
      try deflate(input, level: level)
    }
  }

  // MARK: - Pixels and filters

  /// Premultiplied RGBA8 → straight RGBA8 for `pixels` pixels (see ``encode(_:level:filter:)``).
  static func unpremultiply(
    _ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels: Int
  ) {
    // Two opaque pixels at a time (the common case) are copied as they are.
    let opaque: UInt64 = 0xFF00_0000_FF00_0000
    var p = 0
    while p + 2 <= pixels {
      let v = UnsafeRawPointer(source + 4 * p).loadUnaligned(as: UInt64.self)
      guard v & opaque == opaque else { break }
      UnsafeMutableRawPointer(target + 4 * p).storeBytes(of: v, as: UInt64.self)
      p += 2
    }
    while p < pixels {
      defer { p += 1 }
      if p + 2 <= pixels {
        let v = UnsafeRawPointer(source + 4 * p).loadUnaligned(as: UInt64.self)
        if v & opaque == opaque {
          UnsafeMutableRawPointer(target + 4 * p).storeBytes(of: v, as: UInt64.self)
          p += 1
          continue
        }
      }
      let i = 4 * p
      let a = source[i + 3]
      if a == 255 {
        target[i] = source[i]
        target[i + 1] = source[i + 1]
        target[i + 2] = source[i + 2]
        target[i + 3] = 255
      } else if a == 0 {
        target[i] = 0
        target[i + 1] = 0
        target[i + 2] = 0
        target[i + 3] = 0
      } else {
        let a2 = 2 * Int(a)
        for c in 0..<3 {
          target[i + c] = UInt8(Swift.min(255, (510 * Int(source[i + c]) + Int(a)) / a2))
        }
        target[i + 3] = a
      }
    }
  }

  /// Writes the filter type byte and the `count` filtered bytes of row `current` (above it
  /// `previous`, all zeros for the first row) to `out`; `scratch` holds `5·count` bytes. Both
  /// rows must be preceded by 4 readable zero bytes (the pixel left of the first).
  static func filterRow(
    _ current: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>, count: Int,
    filter: FilterChoice, into out: UnsafeMutablePointer<UInt8>,
    scratch: UnsafeMutablePointer<UInt8>
  ) {
    let costs = filterAll(current, previous, count: count, into: scratch)
    var best = Filter.none
    switch filter {
    case .fixed(let f):
      best = f
    case .adaptive:
      for f in Filter.allCases where costs[Int(f.rawValue)] < costs[Int(best.rawValue)] {
        best = f
      }
    }
    out[0] = best.rawValue
    (out + 1).update(from: scratch + Int(best.rawValue) * count, count: count)
  }

  /// Filters one row with all five filters (filter `f` to `out + f·count`) and returns each
  /// output's `Σ min(b, 256 − b)`. Sixteen bytes at a time (the Paeth predictor and the cost
  /// from ``segue_paeth_u8x16`` and ``segue_png_cost_u8x16``), the last few one by one. `x` and
  /// `b` (the row above) must be preceded by 4 readable zero bytes.
  static func filterAll(
    _ x: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int,
    into out: UnsafeMutablePointer<UInt8>
  ) -> SIMD8<Int> {
    var costs = SIMD8<Int>.zero
    var i = 0
    while i + 16 <= count {
      let xv = segue_load_u8x16(x + i)
      let av = segue_load_u8x16(x + i - 4)
      let bv = segue_load_u8x16(b + i)
      let cv = segue_load_u8x16(b + i - 4)
      let average = (av & bv) &+ ((av ^ bv) &>> 1)
      let filtered = (
        xv, xv &- av, xv &- bv, xv &- average, xv &- segue_paeth_u8x16(av, bv, cv)
      )
      store(filtered.0, out + i, &costs[0])
      store(filtered.1, out + count + i, &costs[1])
      store(filtered.2, out + 2 * count + i, &costs[2])
      store(filtered.3, out + 3 * count + i, &costs[3])
      store(filtered.4, out + 4 * count + i, &costs[4])
      i += 16
    }
    while i < count {
      let (xv, a, up, c) = (x[i], x[i - 4], b[i], b[i - 4])
      let pa = abs(Int(up) - Int(c))
      let pb = abs(Int(a) - Int(c))
      let pc = abs(Int(a) + Int(up) - 2 * Int(c))
      let paeth = pa <= pb && pa <= pc ? a : (pb <= pc ? up : c)
      let average = UInt8((UInt16(a) + UInt16(up)) >> 1)
      func put(_ f: Int, _ prediction: UInt8) {
        let d = xv &- prediction
        out[f * count + i] = d
        costs[f] += Int(Swift.min(d, 0 &- d))
      }
      put(0, 0)
      put(1, a)
      put(2, up)
      put(3, average)
      put(4, paeth)
      i += 1
    }
    return costs
  }

  @inline(__always)
  private static func store(
    _ v: SIMD16<UInt8>, _ p: UnsafeMutablePointer<UInt8>, _ cost: inout Int
  ) {
    segue_store_u8x16(p, v)
    cost += Int(segue_png_cost_u8x16(v))
  }

  // MARK: - zlib

  /// zlib's CRC-32 of `bytes`, continuing from `value`.
  static func crc(_ value: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    UInt32(checksum(uLong(value), bytes, CZlib.crc32))
  }

  /// Runs one of zlib's checksums (`crc32`, `adler32`) over `bytes` in pieces zlib's 32-bit
  /// lengths can hold.
  private static func checksum(
    _ initial: uLong, _ bytes: UnsafeBufferPointer<UInt8>,
    _ update: (uLong, UnsafePointer<Bytef>?, uInt) -> uLong
  ) -> uLong {
    var value = initial
    var start = 0
    while start < bytes.count {
      let n = Swift.min(bytes.count - start, Int(UInt32.max))
      value = update(value, bytes.baseAddress! + start, uInt(n))
      start += n
    }
    return value
  }

  /// One zlib stream of `input` (`deflateInit2` with a 32 KiB window and the default memory
  /// level and strategy, `deflate(Z_FINISH)` into a buffer of `deflateBound` bytes, `deflateEnd`).
  static func deflate(_ input: UnsafeBufferPointer<UInt8>, level: Int) throws(ValidationError)
    -> [UInt8]
  {
    var stream = z_stream()
    var status = deflateInit2_(
      &stream, Int32(level), Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
      Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { throw zlibError("deflateInit2", status) }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
    status = output.withUnsafeMutableBufferPointer { out in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = uInt(input.count)
      stream.next_out = out.baseAddress
      stream.avail_out = uInt(out.count)
      return CZlib.deflate(&stream, Z_FINISH)
    }
    guard status == Z_STREAM_END else { throw zlibError("deflate", status) }
    output.removeLast(output.count - Int(stream.total_out))
    return output
  }

  private static func zlibError(_ function: String, _ status: Int32) -> ValidationError {
    ValidationError(
      field: "deflate", reason: .invalidState("zlib \(function) failed with status \(status)"))
  }
}

extension Array where Element == UInt8 {
  /// Appends `v` as 4 bytes, most significant first.
  mutating func appendBigEndian(_ v: UInt32) {
    append(UInt8(v >> 24))
    append(UInt8((v >> 16) & 0xFF))
    append(UInt8((v >> 8) & 0xFF))
    append(UInt8(v & 0xFF))
  }

  /// Appends `v` as 2 bytes, most significant first.
  mutating func appendBigEndian(_ v: UInt16) {
    append(UInt8(v >> 8))
    append(UInt8(v & 0xFF))
  }
}
