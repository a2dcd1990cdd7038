import CDeflate
import Segue
import SegueSIMDSupport

/// A PNG encoder: 8-bit RGBA with straight alpha, each scanline filtered with the filter that
/// suits it best, compressed with libdeflate.
///
/// The file is the signature, an `IHDR` chunk (bit depth 8, colour type 6 = RGBA, compression 0,
/// filter method 0, no interlace), the image data in `IDAT` chunks of at most 1 MiB, and `IEND`
/// (PNG specification, ISO/IEC 15948). Each scanline is preceded by its filter type:
/// ``Filter/none``, ``Filter/sub``, ``Filter/up``, ``Filter/average`` or ``Filter/paeth``
/// (specification §9.2). With ``FilterChoice/adaptive`` (the default) every row gets the filter
/// whose output has the smallest sum of absolute values when its bytes are read as signed
/// (`Σ min(b, 256 − b)`), the heuristic the specification recommends and libpng uses: flat rows
/// become runs of zeros under Sub or Up, gradients under Up or Paeth. A row whose premultiplied
/// pixels equal the row above is not filtered five times: every filtered byte is 0 under Up,
/// which is what the heuristic picks (None when the row is all zeros). The filtered rows are one
/// zlib stream (RFC 1950/1951) written by libdeflate at the level ``Compression`` gives (32 KiB
/// window). ``PNGEncoder`` keeps the compressor and the buffers from one image to the
/// next; `encode` makes one for a single image.
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
    /// Per row, the filter with the smallest sum of absolute signed filtered bytes; or, per
    /// image, no filter on any row when eight sample bands of 16 rows compress smaller that way
    /// (unfiltered rows at ``Compression/detailLevel`` under ``Compression/automatic``; not
    /// tried when ``Compression/automatic`` chooses ``Compression/runLength``). Flat
    /// screens with text compress best unfiltered: their rows repeat exactly a few rows apart,
    /// which per-row filters hide.
    case adaptive
    /// The same filter for every row.
    case fixed(Filter)
  }

  /// The 8-byte PNG signature `89 50 4E 47 0D 0A 1A 0A`.
  public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// How the filtered scanlines are compressed.
  public enum Compression: Hashable, Sendable {
    /// Chosen per image from its rows. When at most one row in 64 differs from the row above
    /// (flat layers: under Up, rows of zeros) and those rows compress by runs to at most 1.1 ×
    /// their size by libdeflate's ``flatLevel``: ``runLength``. Otherwise, when at least half of the rows
    /// repeat the row above, ``flatLevel`` (greedy parsing); else ``detailLevel`` (lazy
    /// parsing, for gradients, text and images). On rendered frames each choice stays within 1.1 × zlib's level 6 on
    /// the same rows, where no single one does for every kind of image.
    case automatic
    /// Runs only: each byte that repeats the byte before it, 3 to 258 times, is one match
    /// (distance 1), every other byte a literal, Huffman-coded per block (zlib's `Z_RLE`
    /// strategy). On flat frames it writes smaller streams than libdeflate's greedy levels, and
    /// scans rows of zeros eight bytes at a time.
    case runLength
    /// libdeflate's level `0…12` for every image: 0 stores, 1 is fastest, 12 searches hardest.
    case level(Int)

    /// The libdeflate level ``automatic`` uses for mostly repeated rows whose other rows do not
    /// suit ``runLength``: 2.
    public static let flatLevel = 2
    /// The libdeflate level ``automatic`` uses for images that are not mostly repeated rows: 6.
    public static let detailLevel = 6
  }

  /// The highest compression level (libdeflate's 12, which searches hardest).
  public static let maximumLevel = 12

  /// Encodes `image` (premultiplied RGBA8) as a PNG file.
  ///
  /// Each pixel is converted to straight alpha: a colour byte `c` with alpha `a > 0` becomes
  /// `min(255, ⌊(510·c + a) / (2a)⌋)` (= `round(255·c/a)`, ties up); a pixel with `a = 0` becomes
  /// `(0, 0, 0, 0)`. An opaque pixel is unchanged. (Premultiplied 8-bit colour loses precision
  /// at low alpha; un-premultiplying cannot restore it.) The bytes depend only on the pixels,
  /// the compression and the filter choice.
  ///
  /// - Parameters:
  ///   - image: the pixels.
  ///   - compression: libdeflate's level, or ``Compression/automatic`` (the default).
  ///   - filter: the scanline filters (default ``FilterChoice/adaptive``).
  /// - Throws: ``/Segue/ValidationError/Reason/notPositive`` naming `width` or `height` when the image
  ///   is empty (PNG needs at least one pixel); ``/Segue/ValidationError/Reason/outOfRange(lower:upper:)``
  ///   naming `level` outside `0…12`; ``/Segue/ValidationError/Reason/invalidState(_:)`` naming
  ///   `deflate` if libdeflate cannot allocate its compressor (out of memory).
  public static func encode(
    _ image: PixelBufferRGBA8, compression: Compression = .automatic,
    filter: FilterChoice = .adaptive
  ) throws(ValidationError) -> [UInt8] {
    try PNGEncoder(compression: compression, filter: filter).encode(image)
  }

  /// A zlib stream (RFC 1950) of `data`, compressed by libdeflate at `level` (`0…12`; 0 gives
  /// stored blocks).
  ///
  /// - Throws: as ``encode(_:compression:filter:)`` for `level` and `deflate`.
  public static func zlib(_ data: [UInt8], level: Int = Compression.detailLevel)
    throws(ValidationError)
    -> [UInt8]
  {
    let compressor = try Compressor(level: level)
    var output: [UInt8] = []
    data.withUnsafeBufferPointer { compressor.zlib($0, appendingTo: &output) }
    return output
  }

  /// CRC-32 (ISO 3309 / ITU-T V.42, reflected polynomial `0xEDB88320`, initial value and final
  /// XOR `0xFFFFFFFF`), as PNG chunks use: `crc32("123456789") = 0xCBF43926` (libdeflate's
  /// `libdeflate_crc32`).
  public static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    let array = Array(bytes)
    return array.withUnsafeBufferPointer { crc(0, $0) }
  }

  /// Adler-32 (RFC 1950 §8.2): `s1 = 1 + Σ bytes`, `s2 = Σ s1` after each byte, both mod 65521;
  /// the checksum is `s2·65536 + s1`. `adler32("Wikipedia") = 0x11E60398` (libdeflate's
  /// `libdeflate_adler32`).
  public static func adler32(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { libdeflate_adler32(1, $0.baseAddress, $0.count) }
  }

  // MARK: - Shared with APNG

  /// Throws unless `level` is in `0…maximumLevel`.
  static func checkLevel(_ level: Int) throws(ValidationError) {
    guard level >= 0 && level <= maximumLevel else {
      throw ValidationError(
        field: "level", reason: .outOfRange(lower: 0, upper: Double(maximumLevel)))
    }
  }

  /// The most image data one `IDAT` or `fdAT` chunk holds: 1 MiB.
  static let maximumChunkData = 1 << 20

  /// Appends a chunk: length, type, data, CRC-32 of type and data.
  static func appendChunk<C: Collection>(
    _ type: String, _ data: C, to file: inout [UInt8]
  ) where C.Element == UInt8 {
    appendChunk(type, to: &file) { $0.append(contentsOf: data) }
  }

  /// Appends a chunk whose data `body` appends to the file: the length (filled in afterwards),
  /// the type, the data, the CRC-32 of type and data. Allocates nothing once `file` has the
  /// capacity.
  static func appendChunk(
    _ type: String, to file: inout [UInt8], body: (inout [UInt8]) -> Void
  ) {
    let lengthAt = file.count
    file.appendBigEndian(UInt32(0))
    let start = file.count
    file.append(contentsOf: type.utf8)
    body(&file)
    let length = UInt32(file.count - start - 4)
    for k in 0..<4 { file[lengthAt + k] = UInt8(truncatingIfNeeded: length >> (24 - 8 * k)) }
    let value = file.withUnsafeBufferPointer {
      crc(0, UnsafeBufferPointer(rebasing: $0[start...]))
    }
    file.appendBigEndian(value)
  }

  /// Appends the `IHDR` chunk of a `width × height` RGBA8 image (no interlace).
  static func appendHeader(width: Int, height: Int, to file: inout [UInt8]) {
    appendChunk("IHDR", to: &file) { data in
      data.appendBigEndian(UInt32(width))
      data.appendBigEndian(UInt32(height))
      data.append(8)  // bit depth
      data.append(6)  // colour type: RGBA
      data.append(0)  // compression method: deflate
      data.append(0)  // filter method: the five adaptive filters
      data.append(0)  // no interlace
    }
  }

  /// The CRC-32 of `bytes`, continuing from `value` (libdeflate's, any length).
  static func crc(_ value: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    libdeflate_crc32(value, bytes.baseAddress, bytes.count)
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
