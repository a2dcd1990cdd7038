import Segue
import SegueImageCodecs

/// The C decoders (`SegueImageCodecs`) behind ``BitmapImage/init(decoding:scale:pixelBudget:)``:
/// read the header, check the budget, allocate, decode, premultiply.
struct ImageCodec {
  typealias ReadSize = (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<segue_codec_result>?) ->
    segue_codec_status
  typealias Decode = (
    UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, UInt32, UInt32,
    UnsafeMutablePointer<segue_codec_result>?
  ) -> segue_codec_status

  let format: ImageFormat
  let readSize: ReadSize
  let decodePixels: Decode

  init(_ format: ImageFormat) {
    self.format = format
    switch format {
    case .png:
      readSize = segue_png_read_size
      decodePixels = segue_png_decode
    case .jpeg:
      readSize = segue_jpeg_read_size
      decodePixels = segue_jpeg_decode
    }
  }

  func decode(_ bytes: [UInt8], pixelBudget: Int) throws(ImageDecodingError) -> PixelBufferRGBA8 {
    var result = segue_codec_result()
    let status = bytes.withUnsafeBufferPointer { readSize($0.baseAddress, $0.count, &result) }
    try check(status, &result)
    let width = Int(result.width)
    let height = Int(result.height)
    let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, pixelCount <= pixelBudget,
      var pixels = try? PixelBufferRGBA8(width: width, height: height)
    else { throw .tooLarge(width: width, height: height, pixelBudget: pixelBudget) }
    let decoded = bytes.withUnsafeBufferPointer { source in
      pixels.components.withUnsafeMutableBufferPointer { target in
        decodePixels(
          source.baseAddress, source.count, target.baseAddress, UInt32(width), UInt32(height),
          &result)
      }
    }
    try check(decoded, &result)
    pixels.components.withUnsafeMutableBufferPointer { Self.premultiply($0) }
    return pixels
  }

  private func check(_ status: segue_codec_status, _ result: inout segue_codec_result)
    throws(ImageDecodingError)
  {
    switch status {
    case SEGUE_CODEC_OK: return
    case SEGUE_CODEC_TRUNCATED: throw .truncated(format)
    default:
      let message = withUnsafeBytes(of: &result.message) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      let reason = status == SEGUE_CODEC_OUT_OF_MEMORY ? "out of memory" : message
      throw .corrupt(format, reason: reason.isEmpty ? "invalid data" : reason)
    }
  }

  /// Straight RGBA8 to premultiplied in place: `c ← round(c·a / 255)`.
  static func premultiply(_ rgba: UnsafeMutableBufferPointer<UInt8>) {
    var i = 0
    while i + 3 < rgba.count {
      let a = UInt32(rgba[i + 3])
      if a != 255 {
        rgba[i] = divide255(UInt32(rgba[i]) * a)
        rgba[i + 1] = divide255(UInt32(rgba[i + 1]) * a)
        rgba[i + 2] = divide255(UInt32(rgba[i + 2]) * a)
      }
      i += 4
    }
  }

  /// `round(x / 255)` for `x ≤ 255·255`, exactly.
  @inline(__always)
  static func divide255(_ x: UInt32) -> UInt8 {
    let y = x + 128
    return UInt8(truncatingIfNeeded: (y + (y >> 8)) >> 8)
  }
}
