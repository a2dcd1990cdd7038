import CDeflate
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

/// Reads the PNG and APNG files `PNG` and `APNGEncoder` (SegueRender) write
/// — 8-bit RGBA (and RGB), not interlaced, APNG frames with `dispose_op` NONE and `blend_op`
/// SOURCE — into premultiplied RGBA8, with libdeflate's zlib decompressor.
///
/// The one place snapshot images are decoded; a general decoder of the rendering library
/// (libpng) can replace it: ``decode(_:)`` returns premultiplied pixels as such a decoder does.
/// Every chunk's CRC is checked, the image data must inflate to exactly the size the header
/// gives, and an image above `2²⁴` pixels
/// (`SceneRenderer.maximumPixelCount`) is refused before anything is allocated
/// for it.
public enum SnapshotImageDecoder {
  /// Decodes a still PNG (an APNG's default image, its first frame).
  ///
  /// - Throws: ``SnapshotImageError``.
  public static func decode(_ bytes: [UInt8]) throws(SnapshotImageError) -> PixelBufferRGBA8 {
    var image = PixelBufferRGBA8.empty
    try decode(bytes, into: &image)
    return image
  }

  /// Decodes a still PNG into `image`, reusing its storage (a loop decoding one snapshot after
  /// another allocates once); on failure `image` is left empty.
  ///
  /// - Throws: ``SnapshotImageError``.
  public static func decode(_ bytes: [UInt8], into image: inout PixelBufferRGBA8)
    throws(SnapshotImageError)
  {
    var storage: [UInt8] = []
    swap(&storage, &image.components)
    image = .empty
    let file = try PNGChunks(bytes)
    let header = try file.header()
    var data: [UInt8] = []
    for chunk in file.chunks where chunk.type == "IDAT" { data += chunk.data }
    guard !data.isEmpty else { throw .corrupt("no IDAT chunk") }
    image = try header.image(
      fromZlib: data, width: header.width, height: header.height, reusing: storage)
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
  func image(
    fromZlib data: [UInt8], width: Int, height: Int, reusing storage: [UInt8] = []
  ) throws(SnapshotImageError) -> PixelBufferRGBA8 {
    let rowBytes = channels * width
    let rawCount = (rowBytes + 1) * height
    var components: [UInt8]
    if channels == 4 {
      // Inflated into the image's own storage, then unfiltered in place: row `r` moves `r + 1`
      // bytes towards the start (its filter bytes drop out), never over bytes not yet read.
      // Every byte is overwritten: the reused storage only grows or shrinks to the size.
      components = storage
      if components.count > rawCount {
        components.removeLast(components.count - rawCount)
      } else {
        components.append(contentsOf: repeatElement(0, count: rawCount - components.count))
      }
      try components.withUnsafeMutableBufferPointer { buffer throws(SnapshotImageError) in
        try Inflate.zlib(data, into: buffer.baseAddress!, count: rawCount)
        try ScanlineFilters.unfilterRGBAInPlace(buffer.baseAddress!, width: width, height: height)
      }
      components.removeLast(height)
    } else {
      let raw = try [UInt8](unsafeUninitializedCapacity: rawCount) {
        (buffer, initialized) throws(SnapshotImageError) in
        initialized = 0
        try Inflate.zlib(data, into: buffer.baseAddress!, count: rawCount)
        initialized = rawCount
      }
      components = try ScanlineFilters.unfilterRGB(raw, width: width, height: height)
    }
    var image: PixelBufferRGBA8
    do { image = try PixelBufferRGBA8(width: width, height: height, components: components) } catch
    {
      throw .tooLarge(width: width, height: height)
    }
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

/// libdeflate's zlib decompressor into a buffer of known size.
private enum Inflate {
  /// Inflates the zlib stream `data` (its Adler-32 checked) into `out`, which it must fill
  /// exactly: `count` bytes.
  ///
  /// - Throws: ``SnapshotImageError/corrupt(_:)`` for bad data, too little or too much.
  static func zlib(_ data: [UInt8], into out: UnsafeMutablePointer<UInt8>, count: Int)
    throws(SnapshotImageError)
  {
    guard let decompressor = libdeflate_alloc_decompressor() else {
      throw .corrupt("libdeflate could not start")
    }
    defer { libdeflate_free_decompressor(decompressor) }
    var produced = 0
    let result = data.withUnsafeBufferPointer { input in
      libdeflate_zlib_decompress(
        decompressor, input.baseAddress, input.count, out, count, &produced)
    }
    switch result {
    case LIBDEFLATE_SUCCESS:
      guard produced == count else {
        throw .corrupt("image data of \(produced) bytes where \(count) were expected")
      }
    case LIBDEFLATE_INSUFFICIENT_SPACE: throw .corrupt("more image data than the size")
    default: throw .corrupt("bad zlib data")
    }
  }
}

/// PNG's scanline filters undone (PNG specification §9) into premultiplied RGBA8 rows (RGB
/// becomes opaque); ``premultiplyRow(_:width:)`` converts the pixels that are not opaque.
private enum ScanlineFilters {
  /// Unfilters the inflated rows of an RGBA image in place: `buffer` holds `height` rows of a
  /// filter byte and `4·width` bytes and ends holding the `4·width·height` image bytes. Each
  /// row's predictions read the row above, already reconstructed.
  static func unfilterRGBAInPlace(_ buffer: UnsafeMutablePointer<UInt8>, width: Int, height: Int)
    throws(SnapshotImageError)
  {
    let rowBytes = 4 * width
    let zeros = [UInt8](repeating: 0, count: rowBytes)
    try zeros.withUnsafeBufferPointer { zero throws(SnapshotImageError) in
      for row in 0..<height {
        let source = buffer + row * (rowBytes + 1)
        let filter = source[0]
        guard filter <= 4 else { throw .corrupt("scanline filter type \(filter)") }
        let target = buffer + row * rowBytes
        let above = row == 0 ? zero.baseAddress! : UnsafePointer(target - rowBytes)
        reconstructRGBA(filter, source + 1, target, above, count: rowBytes)
        // The row above has served its last prediction: premultiplied while in the cache.
        if row > 0 { premultiplyRow(target - rowBytes, width: width) }
      }
      if height > 0 { premultiplyRow(buffer + (height - 1) * rowBytes, width: width) }
    }
  }

  /// Unfilters the inflated rows of an RGB image into opaque RGBA8 bytes.
  static func unfilterRGB(_ raw: [UInt8], width: Int, height: Int) throws(SnapshotImageError)
    -> [UInt8]
  {
    let rowBytes = 3 * width
    var out = [UInt8](repeating: 0, count: 4 * width * height)
    // Two lines and a zero row, each after 3 zero bytes (the left of the first pixel).
    var lines = [UInt8](repeating: 0, count: 3 * (rowBytes + 3))
    try raw.withUnsafeBufferPointer { source throws(SnapshotImageError) in
      try lines.withUnsafeMutableBufferPointer { line throws(SnapshotImageError) in
        try out.withUnsafeMutableBufferPointer { pixels throws(SnapshotImageError) in
          for row in 0..<height {
            let s = source.baseAddress! + row * (rowBytes + 1)
            guard s[0] <= 4 else { throw .corrupt("scanline filter type \(s[0])") }
            let x = line.baseAddress! + 3 + (row & 1) * (rowBytes + 3)
            let previous = line.baseAddress! + 3 + ((row + 1) & 1) * (rowBytes + 3)
            let zero = line.baseAddress! + 3 + 2 * (rowBytes + 3)
            reconstruct(s[0], s + 1, x, row == 0 ? zero : previous, count: rowBytes, bpp: 3)
            expandRGB(x, width: width, into: pixels.baseAddress! + row * 4 * width)
          }
        }
      }
    }
    return out
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

  /// Straight → premultiplied, `round(c·a/255)`, for the pixels of a row that are not opaque
  /// (which undoes ``PNG``'s un-premultiplying exactly for every pixel the renderer produces).
  static func premultiplyRow(_ p: UnsafeMutablePointer<UInt8>, width: Int) {
    let opaque: UInt64 = 0xFF00_0000_FF00_0000
    var x = 0
    while x < width {
      // Four opaque pixels at a time are passed over.
      if x + 4 <= width {
        let pair = UnsafeRawPointer(p + 4 * x).loadUnaligned(as: UInt64.self)
        let next = UnsafeRawPointer(p + 4 * x + 8).loadUnaligned(as: UInt64.self)
        if pair & next & opaque == opaque {
          x += 4
          continue
        }
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

extension PixelBufferRGBA8 {
  /// A 0 × 0 buffer.
  static var empty: PixelBufferRGBA8 {
    // 0 × 0 is within every limit, so this cannot throw.
    (try? PixelBufferRGBA8(width: 0, height: 0))!
  }

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
