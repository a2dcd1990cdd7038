import CZlib
import Segue
import SegueRender

/// Why a snapshot image could not be read.
public enum SnapshotImageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The bytes do not start with the PNG signature.
  case notPNG
  /// The file ends inside a chunk, or before `IEND`.
  case truncated
  /// A chunk's CRC-32 does not match its type and data.
  case checksum(chunk: String)
  /// A well-formed file this reader does not read (bit depth, colour type, interlacing, APNG
  /// disposal or blending other than the encoder's).
  case unsupported(String)
  /// Inconsistent content: a missing or repeated chunk, a size or sequence number that does not
  /// add up, image data that does not inflate to the expected length.
  case corrupt(String)
  /// Wider or taller than `2²⁴` pixels, or more than the pixel budget in all.
  case tooLarge(width: Int, height: Int)

  /// In words, for a failure message.
  public var description: String {
    switch self {
    case .notPNG: "not a PNG file (no PNG signature)"
    case .truncated: "truncated PNG file"
    case .checksum(let chunk): "corrupt PNG file (the CRC of a \(chunk) chunk does not match)"
    case .unsupported(let what): "unsupported PNG: \(what)"
    case .corrupt(let what): "corrupt PNG file: \(what)"
    case .tooLarge(let w, let h): "PNG of \(w)×\(h) pixels is larger than a snapshot may be"
    }
  }
}

/// The frames of an animated PNG, composed onto its canvas.
public struct SnapshotAnimation: Hashable, Sendable {
  /// Each frame as shown: the canvas after the frame was drawn (premultiplied RGBA8).
  public var frames: [PixelBufferRGBA8]
  /// How long each frame shows, seconds (`delay_num / delay_den`; a zero denominator is 1/100 s).
  public var delays: [Double]

  /// Creates an animation from its frames and delays.
  public init(frames: [PixelBufferRGBA8], delays: [Double]) {
    self.frames = frames
    self.delays = delays
  }
}

/// Reads the PNG and APNG files ``PNG`` and ``APNGEncoder`` write — 8-bit RGBA (and RGB),
/// not interlaced, APNG frames with `dispose_op` NONE and `blend_op` SOURCE — into premultiplied
/// RGBA8, with zlib's `inflate`.
///
/// The one place snapshot images are decoded; a general decoder of the rendering library
/// (libpng) can replace it: ``decode(_:)`` returns premultiplied pixels as such a decoder does.
/// Every chunk's CRC is checked, the image data must inflate to exactly the size the header
/// gives, and an image above `2²⁴` pixels (``SceneRenderer/maximumPixelCount``) is refused
/// before anything is allocated for it.
public enum SnapshotImageDecoder {
  /// Decodes a still PNG (an APNG's default image, its first frame).
  ///
  /// - Throws: ``SnapshotImageError``.
  public static func decode(_ bytes: [UInt8]) throws(SnapshotImageError) -> PixelBufferRGBA8 {
    let file = try PNGChunks(bytes)
    let header = try file.header()
    var data: [UInt8] = []
    for chunk in file.chunks where chunk.type == "IDAT" { data += chunk.data }
    guard !data.isEmpty else { throw .corrupt("no IDAT chunk") }
    return try header.image(fromZlib: data, width: header.width, height: header.height)
  }

  /// Decodes an animated PNG into the canvas after each frame; a still PNG is one frame.
  ///
  /// - Throws: ``SnapshotImageError``.
  public static func decodeAnimation(_ bytes: [UInt8]) throws(SnapshotImageError)
    -> SnapshotAnimation
  {
    let file = try PNGChunks(bytes)
    let header = try file.header()
    guard let control = file.chunks.first(where: { $0.type == "acTL" }) else {
      return SnapshotAnimation(frames: [try decode(bytes)], delays: [0.1])
    }
    guard control.data.count == 8 else { throw .corrupt("acTL of \(control.data.count) bytes") }
    let declared = Int(Array(control.data).bigEndianUInt32(at: 0))
    let frames = try APNGFrames(file.chunks)
    guard frames.regions.count == declared else {
      throw .corrupt("acTL declares \(declared) frames, the file holds \(frames.regions.count)")
    }
    var canvas = try header.blankCanvas()
    var result = SnapshotAnimation(frames: [], delays: [])
    for region in frames.regions {
      guard region.x + region.width <= header.width, region.y + region.height <= header.height
      else { throw .corrupt("a frame region lies outside the canvas") }
      let image = try header.image(
        fromZlib: region.data, width: region.width, height: region.height)
      canvas.copy(image, x: region.x, y: region.y)
      result.frames.append(canvas)
      result.delays.append(region.delay)
    }
    return result
  }
}

/// A PNG file split into its chunks (signature, lengths and CRCs checked).
private struct PNGChunks {
  struct Chunk {
    var type: String
    var data: ArraySlice<UInt8>
  }

  var chunks: [Chunk] = []

  init(_ bytes: [UInt8]) throws(SnapshotImageError) {
    guard bytes.count >= 8, Array(bytes[0..<8]) == PNG.signature else { throw .notPNG }
    var position = 8
    while true {
      guard position + 12 <= bytes.count else { throw .truncated }
      let length = Int(bytes.bigEndianUInt32(at: position))
      guard length <= bytes.count - position - 12 else { throw .truncated }
      let typeBytes = bytes[(position + 4)..<(position + 8)]
      let type = String(decoding: typeBytes, as: UTF8.self)
      let end = position + 8 + length
      let stored = bytes.bigEndianUInt32(at: end)
      guard PNG.crc32(bytes[(position + 4)..<end]) == stored else { throw .checksum(chunk: type) }
      chunks.append(Chunk(type: type, data: bytes[(position + 8)..<end]))
      position = end + 4
      if type == "IEND" { return }
    }
  }

  /// The checked `IHDR`.
  func header() throws(SnapshotImageError) -> PNGHeader {
    guard let first = chunks.first, first.type == "IHDR", first.data.count == 13 else {
      throw .corrupt("the first chunk is not a 13-byte IHDR")
    }
    let d = Array(first.data)
    let width = Int(d.bigEndianUInt32(at: 0))
    let height = Int(d.bigEndianUInt32(at: 4))
    guard width > 0, height > 0 else { throw .corrupt("an image of \(width)×\(height) pixels") }
    guard width <= PixelBufferLimits.maximumSide, height <= PixelBufferLimits.maximumSide,
      width * height <= SceneRenderer.maximumPixelCount
    else { throw .tooLarge(width: width, height: height) }
    guard d[8] == 8 else { throw .unsupported("bit depth \(d[8]) (8 is read)") }
    let channels: Int
    switch d[9] {
    case 6: channels = 4
    case 2: channels = 3
    default: throw .unsupported("colour type \(d[9]) (RGBA and RGB are read)")
    }
    guard d[10] == 0, d[11] == 0 else { throw .corrupt("compression or filter method not 0") }
    guard d[12] == 0 else { throw .unsupported("interlaced image") }
    return PNGHeader(width: width, height: height, channels: channels)
  }
}

/// The image format of an `IHDR`.
private struct PNGHeader {
  var width: Int
  var height: Int
  /// 4 (RGBA) or 3 (RGB).
  var channels: Int

  /// A transparent image of the canvas size.
  func blankCanvas() throws(SnapshotImageError) -> PixelBufferRGBA8 {
    do { return try PixelBufferRGBA8(width: width, height: height) } catch {
      throw .tooLarge(width: width, height: height)
    }
  }

  /// Inflates and unfilters a `width × height` image (the whole image or an APNG frame region)
  /// into premultiplied RGBA8.
  func image(fromZlib data: [UInt8], width: Int, height: Int) throws(SnapshotImageError)
    -> PixelBufferRGBA8
  {
    let rowBytes = channels * width
    let count = 4 * width * height
    // Every byte is written by the rows, so the storage starts uninitialised.
    let components = try [UInt8](unsafeUninitializedCapacity: count) {
      (pixels, initialized) throws(SnapshotImageError) in
      initialized = 0
      var rows = ScanlineFilters(width: width, channels: channels)
      try Inflate.rows(of: data, rowBytes: rowBytes, count: height) {
        (row, line) throws(SnapshotImageError) in
        try rows.reconstruct(row, line, into: pixels.baseAddress!)
      }
      initialized = count
    }
    var image: PixelBufferRGBA8
    do { image = try PixelBufferRGBA8(width: width, height: height, components: components) } catch
    {
      throw .tooLarge(width: width, height: height)
    }
    if channels == 4 { ScanlineFilters.premultiply(&image) }
    return image
  }
}

/// The `fcTL`/`fdAT` sequence of an APNG.
private struct APNGFrames {
  struct Region {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var delay: Double
    var data: [UInt8] = []
  }

  var regions: [Region] = []

  init(_ chunks: [PNGChunks.Chunk]) throws(SnapshotImageError) {
    var sequence: UInt32 = 0
    for chunk in chunks {
      switch chunk.type {
      case "fcTL":
        let d = Array(chunk.data)
        guard d.count == 26 else { throw .corrupt("fcTL of \(d.count) bytes") }
        try Self.expect(d.bigEndianUInt32(at: 0), &sequence)
        guard d[24] == 0, d[25] == 0 else {
          throw .unsupported(
            "APNG dispose_op \(d[24]), blend_op \(d[25]) (NONE and SOURCE are read)")
        }
        let numerator = Double(UInt16(d[20]) << 8 | UInt16(d[21]))
        let denominator = Double(UInt16(d[22]) << 8 | UInt16(d[23]))
        regions.append(
          Region(
            x: Int(d.bigEndianUInt32(at: 12)), y: Int(d.bigEndianUInt32(at: 16)),
            width: Int(d.bigEndianUInt32(at: 4)), height: Int(d.bigEndianUInt32(at: 8)),
            delay: numerator / (denominator == 0 ? 100 : denominator)))
        guard regions[regions.count - 1].width > 0, regions[regions.count - 1].height > 0 else {
          throw .corrupt("an empty frame region")
        }
      case "IDAT" where !regions.isEmpty:
        guard regions.count == 1 else { throw .corrupt("IDAT after the first frame") }
        regions[0].data += chunk.data
      case "fdAT":
        guard !regions.isEmpty, chunk.data.count >= 4 else { throw .corrupt("fdAT before fcTL") }
        let d = chunk.data
        try Self.expect(d.bigEndianUInt32(at: d.startIndex), &sequence)
        regions[regions.count - 1].data += d.dropFirst(4)
      default:
        continue
      }
    }
    guard regions.allSatisfy({ !$0.data.isEmpty }) else { throw .corrupt("a frame without data") }
  }

  private static func expect(_ value: UInt32, _ sequence: inout UInt32)
    throws(SnapshotImageError)
  {
    guard value == sequence else {
      throw .corrupt("sequence number \(value) where \(sequence) was expected")
    }
    sequence += 1
  }
}

/// zlib's raw `inflate` of a PNG's zlib stream, row by row.
private enum Inflate {
  /// Inflates `data` (a zlib stream: header, deflate data; its Adler-32 is not checked, as the
  /// chunks' CRC-32s already cover every byte) into `count` rows of `rowBytes + 1` bytes, handing
  /// each to `body` as soon as it is complete.
  ///
  /// - Throws: ``SnapshotImageError/corrupt(_:)`` for a bad header or deflate data, too little
  ///   or too much data, and what `body` throws.
  static func rows(
    of data: [UInt8], rowBytes: Int, count: Int,
    _ body: (Int, UnsafePointer<UInt8>) throws(SnapshotImageError) -> Void
  ) throws(SnapshotImageError) {
    guard data.count >= 2, data[0] & 0x0F == 8, data[0] >> 4 <= 7, data[1] & 0x20 == 0,
      (Int(data[0]) << 8 | Int(data[1])) % 31 == 0
    else { throw .corrupt("bad zlib data") }
    var line = [UInt8](repeating: 0, count: rowBytes + 2)
    try withUnsafeTemporaryAllocation(of: z_stream.self, capacity: 1) {
      (buffer) throws(SnapshotImageError) in
      // The stream stays at one address (zlib checks it).
      let stream = buffer.baseAddress!
      stream.initialize(to: z_stream())
      guard inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
      else { throw .corrupt("zlib could not start") }
      defer { inflateEnd(stream) }
      try data.withUnsafeBufferPointer { input throws(SnapshotImageError) in
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + 2)
        stream.pointee.avail_in = uInt(input.count - 2)
        try line.withUnsafeMutableBufferPointer { out throws(SnapshotImageError) in
          for row in 0..<count {
            try fill(
              stream, out.baseAddress!, rowBytes + 1, produced: row * (rowBytes + 1),
              expected: count * (rowBytes + 1))
            try body(row, out.baseAddress!)
          }
          // Nothing may follow the last row.
          stream.pointee.next_out = out.baseAddress!
          stream.pointee.avail_out = 1
          let status = inflate(stream, Z_FINISH)
          guard status == Z_STREAM_END, stream.pointee.avail_out == 1 else {
            throw .corrupt(
              status == Z_STREAM_END || status == Z_OK || status == Z_BUF_ERROR
                ? "more image data than the size" : "bad zlib data")
          }
        }
      }
    }
  }

  /// Inflates exactly `size` bytes into `out`; `produced` (the bytes before) and `expected`
  /// (all of them) name the shortfall of a stream that ends early.
  private static func fill(
    _ stream: UnsafeMutablePointer<z_stream>, _ out: UnsafeMutablePointer<UInt8>, _ size: Int,
    produced: Int, expected: Int
  ) throws(SnapshotImageError) {
    stream.pointee.next_out = out
    stream.pointee.avail_out = uInt(size)
    while stream.pointee.avail_out > 0 {
      let status = inflate(stream, Z_NO_FLUSH)
      if status == Z_STREAM_END || status == Z_BUF_ERROR {
        guard stream.pointee.avail_out == 0 else {
          let total = produced + size - Int(stream.pointee.avail_out)
          throw .corrupt(
            status == Z_STREAM_END
              ? "image data of \(total) bytes where \(expected) were expected"
              : "truncated image data")
        }
        return
      }
      guard status == Z_OK else { throw .corrupt("bad zlib data") }
    }
  }
}

/// PNG's scanline filters undone (PNG specification §9), one row at a time, into premultiplied
/// RGBA8 rows (RGB becomes opaque). RGBA rows are reconstructed in place in the image (the row
/// above is the image's previous row); ``premultiply(_:)`` then converts the pixels that are not
/// opaque.
private struct ScanlineFilters {
  let width: Int
  let channels: Int
  /// The RGB path's two lines, each after `channels` zero bytes (the left of the first pixel).
  private var lines: [UInt8]
  /// A zero row (the row above the first), after `channels` zero bytes.
  private let zeros: [UInt8]

  init(width: Int, channels: Int) {
    self.width = width
    self.channels = channels
    lines = channels == 4 ? [] : [UInt8](repeating: 0, count: 2 * (channels * width + channels))
    zeros = [UInt8](repeating: 0, count: channels * width + 2 * channels)
  }

  /// Reconstructs row `row` from `source` (its filter byte and data) into `pixels` (tightly
  /// packed RGBA rows).
  mutating func reconstruct(
    _ row: Int, _ source: UnsafePointer<UInt8>, into pixels: UnsafeMutablePointer<UInt8>
  ) throws(SnapshotImageError) {
    let filter = source[0]
    guard filter <= 4 else { throw .corrupt("scanline filter type \(filter)") }
    let rowBytes = channels * width
    let stride = 4 * width
    let target = pixels + row * stride
    zeros.withUnsafeBufferPointer { zero in
      if channels == 4 {
        let above = row == 0 ? zero.baseAddress! + 4 : UnsafePointer(target - stride)
        Self.reconstructRGBA(filter, source + 1, target, above, count: rowBytes)
        return
      }
      let c = channels
      lines.withUnsafeMutableBufferPointer { line in
        let x = line.baseAddress! + c + (row & 1) * (rowBytes + c)
        let previous = line.baseAddress! + c + ((row + 1) & 1) * (rowBytes + c)
        let above = row == 0 ? zero.baseAddress! + c : UnsafePointer(previous)
        Self.reconstruct(filter, source + 1, x, above, count: rowBytes, bpp: c)
        Self.expandRGB(x, width: width, into: target)
      }
    }
  }

  /// One RGBA row: `x[i] = s[i] + prediction`, four bytes per pixel, the left neighbour of the
  /// first pixel and the pixels above `b` (the previous row, or zeros) as the specification says.
  @inline(__always)
  private static func reconstructRGBA(
    _ filter: UInt8, _ s: UnsafePointer<UInt8>, _ x: UnsafeMutablePointer<UInt8>,
    _ b: UnsafePointer<UInt8>, count: Int
  ) {
    let pixels = count / 4
    func load(_ p: UnsafePointer<UInt8>, _ i: Int) -> SIMD4<UInt8> {
      UnsafeRawPointer(p + 4 * i).loadUnaligned(as: SIMD4<UInt8>.self)
    }
    func store(_ v: SIMD4<UInt8>, _ i: Int) {
      UnsafeMutableRawPointer(x + 4 * i).storeBytes(of: v, as: SIMD4<UInt8>.self)
    }
    switch filter {
    case 0:
      x.update(from: s, count: count)
    case 1:
      var left = SIMD4<UInt8>.zero
      for i in 0..<pixels {
        left = load(s, i) &+ left
        store(left, i)
      }
    case 2:
      var i = 0
      while i + 16 <= count {
        let v =
          UnsafeRawPointer(s + i).loadUnaligned(as: SIMD16<UInt8>.self)
          &+ UnsafeRawPointer(b + i).loadUnaligned(as: SIMD16<UInt8>.self)
        UnsafeMutableRawPointer(x + i).storeBytes(of: v, as: SIMD16<UInt8>.self)
        i += 16
      }
      while i < count {
        x[i] = s[i] &+ b[i]
        i += 1
      }
    case 3:
      var left = SIMD4<UInt16>.zero
      for i in 0..<pixels {
        let up = SIMD4<UInt16>(truncatingIfNeeded: load(b, i))
        let v = SIMD4<UInt16>(truncatingIfNeeded: load(s, i)) &+ ((left &+ up) &>> 1)
        left = v & 0xFF
        store(SIMD4<UInt8>(truncatingIfNeeded: v), i)
      }
    default:
      var a = SIMD4<Int16>.zero
      var c = SIMD4<Int16>.zero
      for i in 0..<pixels {
        let up = SIMD4<Int16>(truncatingIfNeeded: load(b, i))
        let pa = magnitude(up &- c)
        let pb = magnitude(a &- c)
        let pc = magnitude(a &+ up &- c &- c)
        let useA = (pa .<= pb) .& (pa .<= pc)
        let useB = (.!useA) .& (pb .<= pc)
        var predictor = c
        predictor.replace(with: up, where: useB)
        predictor.replace(with: a, where: useA)
        let v = SIMD4<UInt8>(truncatingIfNeeded: predictor) &+ load(s, i)
        store(v, i)
        a = SIMD4<Int16>(truncatingIfNeeded: v)
        c = up
      }
    }
  }

  /// `|v|` lane by lane.
  @inline(__always)
  private static func magnitude(_ v: SIMD4<Int16>) -> SIMD4<Int16> {
    pointwiseMax(v, SIMD4<Int16>.zero &- v)
  }

  /// Writes the reconstructed bytes of one row into `x` (`x[-bpp..<0]` and `b[-bpp..<0]` are 0).
  @inline(__always)
  private static func reconstruct(
    _ filter: UInt8, _ s: UnsafePointer<UInt8>, _ x: UnsafeMutablePointer<UInt8>,
    _ b: UnsafePointer<UInt8>, count: Int, bpp: Int
  ) {
    for i in 0..<count {
      let a = Int(x[i - bpp])
      let up = Int(b[i])
      let c = Int(b[i - bpp])
      let predictor: Int
      switch filter {
      case 0: predictor = 0
      case 1: predictor = a
      case 2: predictor = up
      case 3: predictor = (a + up) >> 1
      default:
        let pa = abs(up - c)
        let pb = abs(a - c)
        let pc = abs(a + up - 2 * c)
        predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? up : c)
      }
      x[i] = s[i] &+ UInt8(truncatingIfNeeded: predictor)
    }
  }

  /// RGB → opaque RGBA.
  @inline(__always)
  private static func expandRGB(
    _ line: UnsafePointer<UInt8>, width: Int, into target: UnsafeMutablePointer<UInt8>
  ) {
    for p in 0..<width {
      target[4 * p] = line[3 * p]
      target[4 * p + 1] = line[3 * p + 1]
      target[4 * p + 2] = line[3 * p + 2]
      target[4 * p + 3] = 255
    }
  }

  /// Straight → premultiplied, `round(c·a/255)`, for the pixels that are not opaque (which
  /// undoes ``PNG``'s un-premultiplying exactly for every pixel the renderer produces). Two
  /// opaque pixels are passed over with one 64-bit test.
  static func premultiply(_ image: inout PixelBufferRGBA8) {
    let width = image.width
    let stride = image.stride
    let opaque: UInt64 = 0xFF00_0000_FF00_0000
    image.components.withUnsafeMutableBufferPointer { pixels in
      for row in 0..<image.height {
        let p = pixels.baseAddress! + row * stride
        var x = 0
        while x < width {
          if x + 2 <= width,
            UnsafeRawPointer(p + 4 * x).loadUnaligned(as: UInt64.self) & opaque == opaque
          {
            x += 2
            continue
          }
          let a = UInt32(p[4 * x + 3])
          if a != 255 {
            for c in 0..<3 {
              let product = UInt32(p[4 * x + c]) * a + 128
              p[4 * x + c] = UInt8((product + (product >> 8)) >> 8)
            }
          }
          x += 1
        }
      }
    }
  }
}

extension PixelBufferRGBA8 {
  /// Copies `image` into this buffer with its top-left corner at `(x, y)` (it must fit).
  mutating func copy(_ image: PixelBufferRGBA8, x: Int, y: Int) {
    let rowBytes = 4 * image.width
    for row in 0..<image.height {
      let source = row * image.stride
      let target = (y + row) * stride + 4 * x
      components.replaceSubrange(
        target..<(target + rowBytes), with: image.components[source..<(source + rowBytes)])
    }
  }
}

extension Collection where Element == UInt8, Index == Int {
  /// The big-endian 32-bit number at `index`.
  func bigEndianUInt32(at index: Int) -> UInt32 {
    UInt32(self[index]) << 24 | UInt32(self[index + 1]) << 16 | UInt32(self[index + 2]) << 8
      | UInt32(self[index + 3])
  }
}
