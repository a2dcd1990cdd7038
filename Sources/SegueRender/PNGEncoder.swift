import CDeflate
import Segue

/// Caller-owned working memory for writing PNG files (``PNG``): libdeflate's compressor at one
/// level, the filtered scanlines and the filter's row buffers. Keep one per thread that writes
/// images and reuse it: once it has written an image of a given size, writing another of that
/// size into the same `file` array allocates nothing.
///
/// The bytes written depend only on the pixels, ``compression`` and ``filter``: never on the
/// encoder's history or on which thread runs it, so frames encoded in parallel by several
/// encoders are byte for byte those one encoder writes in order.
///
/// Not thread-safe: one `encode` at a time per encoder.
public final class PNGEncoder {
  /// How the filtered scanlines are compressed.
  public let compression: PNG.Compression
  /// The scanline filters.
  public let filter: PNG.FilterChoice
  /// The compressor for mostly repeated rows whose other rows favour a match search
  /// (``PNG/Compression/automatic``), or for every image (``PNG/Compression/runLength`` or a
  /// fixed level).
  private let flat: any PNG.ZlibCompressor
  /// The run coder for mostly repeated rows (``PNG/Compression/automatic`` only).
  private let runs: PNG.RunLengthCompressor?
  /// The compressor for the other images (``PNG/Compression/automatic`` only).
  private let detail: PNG.Compressor?
  /// The filtered scanlines of the image being written and the filter's row buffers.
  private var scanlines = PNG.Scanlines()
  /// The zlib stream of the last image or region compressed (its first ``compressedCount``
  /// bytes).
  private(set) var compressed: [UInt8] = []
  private(set) var compressedCount = 0
  /// The trial compressions' output (``PNG/Scanlines/unfilteredIsSmaller``).
  private var trial: [UInt8] = []

  /// Creates an encoder.
  ///
  /// - Parameters:
  ///   - compression: libdeflate's level, or ``PNG/Compression/automatic`` (the default).
  ///   - filter: the scanline filters (default ``PNG/FilterChoice/adaptive``).
  /// - Throws: ``/Segue/ValidationError`` naming `level` outside `0…12`, or `deflate`
  ///   (`.invalidState`) when libdeflate cannot allocate its compressor.
  public init(compression: PNG.Compression = .automatic, filter: PNG.FilterChoice = .adaptive)
    throws(ValidationError)
  {
    switch compression {
    case .automatic:
      flat = try PNG.Compressor(level: PNG.Compression.flatLevel)
      detail = try PNG.Compressor(level: PNG.Compression.detailLevel)
      runs = PNG.RunLengthCompressor()
    case .runLength:
      flat = PNG.RunLengthCompressor()
      detail = nil
      runs = nil
    case .level(let level):
      flat = try PNG.Compressor(level: level)
      detail = nil
      runs = nil
    }
    self.compression = compression
    self.filter = filter
  }

  /// Writes `image` (premultiplied RGBA8) as a PNG file into `file`, replacing what it held and
  /// keeping its capacity (see ``PNG/encode(_:compression:filter:)`` for the pixels and the file).
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notPositive`` naming `width` or `height` when the
  ///   image is empty.
  public func encode(_ image: PixelBufferRGBA8, into file: inout [UInt8])
    throws(ValidationError)
  {
    guard image.width > 0 else { throw ValidationError(field: "width", reason: .notPositive) }
    guard image.height > 0 else { throw ValidationError(field: "height", reason: .notPositive) }
    compress(image, x: 0, y: 0, width: image.width, height: image.height)
    let chunks = (compressedCount + PNG.maximumChunkData - 1) / PNG.maximumChunkData
    file.removeAll(keepingCapacity: true)
    file.reserveCapacity(PNG.signature.count + 25 + compressedCount + 12 * (chunks + 1))
    file.append(contentsOf: PNG.signature)
    PNG.appendHeader(width: image.width, height: image.height, to: &file)
    var start = 0
    repeat {
      let end = Swift.min(compressedCount, start + PNG.maximumChunkData)
      PNG.appendChunk("IDAT", compressed[start..<end], to: &file)
      start = end
    } while start < compressedCount
    PNG.appendChunk("IEND", EmptyCollection<UInt8>(), to: &file)
  }

  /// `image` (premultiplied RGBA8) as a PNG file.
  ///
  /// - Throws: as ``encode(_:into:)``.
  public func encode(_ image: PixelBufferRGBA8) throws(ValidationError) -> [UInt8] {
    var file: [UInt8] = []
    try encode(image, into: &file)
    return file
  }

  /// Filters the `width × height` region of `image` at `(x, y)` (straight alpha) and compresses
  /// it into the first ``compressedCount`` bytes of ``compressed`` (an `IDAT` or APNG `fdAT`
  /// stream). The region must lie inside the image and be at least 1 × 1.
  func compress(_ image: PixelBufferRGBA8, x: Int, y: Int, width: Int, height: Int) {
    let rows = scanlines.filter(image, x: x, y: y, width: width, height: height, filter: filter)
    // Unfiltered rows keep their repeats far apart, which lazy parsing (the detail level) finds.
    let filteredCompressor = chooseCompressor(repeated: rows.repeated, width: width, height: height)
    let unfilteredCompressor: any PNG.ZlibCompressor = detail ?? flat
    // With the run coder chosen, at most one row in 64 differs from the row above: those rows
    // are all zeros under Up, which no unfiltered row beats, so the trial is skipped.
    let runsChosen = runs.map { $0 === filteredCompressor } ?? false
    let unfiltered =
      filter == .adaptive && !runsChosen
      && scanlines.unfilteredIsSmaller(
        image, x: x, y: y, width: width, height: height, compressor: filteredCompressor,
        unfilteredCompressor: unfilteredCompressor, output: &trial)
    if unfiltered { scanlines.unfilter(image, x: x, y: y, width: width, rows: 0..<height) }
    let compressor = unfiltered ? unfilteredCompressor : filteredCompressor
    compressedCount = scanlines.withFiltered(count: rows.bytes, unfiltered: unfiltered) { input in
      compressor.zlib(input, into: &compressed)
    }
  }
}

extension PNGEncoder {
  /// The compressor for the filtered rows: with ``PNG/Compression/automatic``, the detail level
  /// unless at least half of the rows repeat the row above, then the run coder or, when the
  /// sampled rows of detail compress smaller by a match search, the flat level.
  fileprivate func chooseCompressor(repeated: Int, width: Int, height: Int)
    -> any PNG.ZlibCompressor
  {
    guard let detail, let runs else { return flat }
    guard 2 * repeated >= height else { return detail }
    let runsWin = scanlines.runsCompressSmaller(
      rowBytes: 4 * width + 1, height: height, runs: runs, search: flat, output: &trial)
    return runsWin ? runs : flat
  }
}

extension PNG {
  /// libdeflate's compressor at one level, freed with its owner.
  final class Compressor: ZlibCompressor {
    private let pointer: OpaquePointer

    /// - Throws: ``/Segue/ValidationError`` naming `level` outside `0…12`, or `deflate` when
    ///   libdeflate cannot allocate the compressor.
    init(level: Int) throws(ValidationError) {
      try PNG.checkLevel(level)
      guard let pointer = libdeflate_alloc_compressor(Int32(level)) else {
        throw ValidationError(
          field: "deflate",
          reason: .invalidState("libdeflate could not allocate a compressor (out of memory)"))
      }
      self.pointer = pointer
    }

    deinit { libdeflate_free_compressor(pointer) }

    /// Writes the zlib stream (RFC 1950) of `input` to the start of `output`, growing `output`
    /// to libdeflate's bound for `input` when it is shorter; returns the stream's length.
    func zlib(_ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Int {
      let bound = libdeflate_zlib_compress_bound(pointer, input.count)
      if output.count < bound {
        output.append(contentsOf: repeatElement(0, count: bound - output.count))
      }
      let size = output.withUnsafeMutableBufferPointer { out in
        libdeflate_zlib_compress(
          pointer, input.baseAddress, input.count, out.baseAddress, out.count)
      }
      // libdeflate returns 0 only when the output is shorter than its bound.
      precondition(size > 0, "libdeflate's output exceeded its bound")
      return size
    }

    /// The zlib stream of `input`, appended to `output`.
    func zlib(_ input: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8]) {
      var stream: [UInt8] = []
      let size = zlib(input, into: &stream)
      output.append(contentsOf: stream[0..<size])
    }
  }
}
