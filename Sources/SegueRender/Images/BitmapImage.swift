import Segue

/// A decoded bitmap for a layer's `contents` (a `CGImage` with UIImage's `scale`): premultiplied
/// RGBA, 8 bits per channel, rows top to bottom.
///
/// `scale` is pixels per point (2 for an `@2x` screenshot); it is what a layer's
/// `contentsScale` should be when the image is shown at its natural size.
public struct BitmapImage: Hashable, Sendable {
  /// The pixels, premultiplied `R, G, B, A`.
  public var pixels: PixelBufferRGBA8
  /// Pixels per point, finite and `> 0`.
  public var scale: Double

  /// The largest image the decoders accept by default: `2²⁵` pixels (33.5 Mpixel, 128 MiB
  /// decoded; an 8K screenshot fits).
  public static let defaultPixelBudget = 1 << 25

  /// Width in pixels.
  @inlinable public var width: Int { pixels.width }
  /// Height in pixels.
  @inlinable public var height: Int { pixels.height }
  /// The natural size in points: `width / scale × height / scale`.
  public var size: Size { Size(width: Double(width) / scale, height: Double(height) / scale) }

  /// An image of existing premultiplied pixels.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `scale` unless it is finite and `> 0`.
  public init(pixels: PixelBufferRGBA8, scale: Double = 1) throws(ValidationError) {
    guard scale.isFinite else { throw ValidationError(field: "scale", reason: .notFinite) }
    guard scale > 0 else { throw ValidationError(field: "scale", reason: .notPositive) }
    self.pixels = pixels
    self.scale = scale
  }

  /// Decodes a PNG or JPEG file's bytes (the format is told by its signature).
  ///
  /// PNG: every colour type and bit depth, palettes, `tRNS` transparency and interlacing;
  /// 16-bit channels are rounded to 8 bits. JPEG: baseline and progressive, grayscale, YCbCr,
  /// RGB, CMYK and YCCK. Colour values are taken as sRGB, as Core Animation does: `gAMA`,
  /// `iCCP` and `sRGB` chunks and ICC profiles are ignored. Straight alpha is premultiplied as
  /// `round(c·a / 255)`.
  ///
  /// - Parameters:
  ///   - bytes: the whole file.
  ///   - scale: pixels per point (`> 0`).
  ///   - pixelBudget: the most pixels accepted, checked from the header before any pixel
  ///     buffer is allocated.
  /// - Throws: ``ImageDecodingError``: `unsupportedFormat` for neither signature,
  ///   `truncated` when the data ends early, `corrupt` for invalid data (with the library's
  ///   message), `tooLarge` over `pixelBudget` or the pixel buffer's limits, `invalidScale`.
  public init(decoding bytes: [UInt8], scale: Double = 1, pixelBudget: Int = defaultPixelBudget)
    throws(ImageDecodingError)
  {
    guard scale.isFinite, scale > 0 else { throw .invalidScale(scale) }
    guard let format = ImageFormat(sniffing: bytes) else { throw .unsupportedFormat }
    let decoded = try ImageCodec(format).decode(bytes, pixelBudget: pixelBudget)
    self.pixels = decoded
    self.scale = scale
  }
}

/// An image file format the decoders read.
public enum ImageFormat: String, Hashable, Sendable, CaseIterable {
  /// PNG (signature `89 50 4E 47 0D 0A 1A 0A`).
  case png
  /// JPEG (signature `FF D8 FF`).
  case jpeg

  /// The format whose signature starts `bytes`, or `nil`.
  public init?(sniffing bytes: [UInt8]) {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
    if bytes.starts(with: png) {
      self = .png
    } else if bytes.starts(with: jpeg) {
      self = .jpeg
    } else {
      return nil
    }
  }
}

/// Why an image could not be decoded.
public enum ImageDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The bytes start with neither a PNG nor a JPEG signature.
  case unsupportedFormat
  /// The data ends before the image does.
  case truncated(ImageFormat)
  /// The data is not a valid file; `reason` is the library's message.
  case corrupt(ImageFormat, reason: String)
  /// The header's `width × height` is over `pixelBudget` (or over what a pixel buffer holds:
  /// `2²⁴` pixels a side); nothing was allocated for it.
  case tooLarge(width: Int, height: Int, pixelBudget: Int)
  /// The `scale` is not finite and `> 0`.
  case invalidScale(Double)

  /// The error in words.
  public var description: String {
    switch self {
    case .unsupportedFormat: "not a PNG or JPEG file"
    case .truncated(let format): "the \(format.rawValue.uppercased()) data ends too early"
    case .corrupt(let format, let reason):
      "not a valid \(format.rawValue.uppercased()) file: \(reason)"
    case .tooLarge(let width, let height, let budget):
      "the image is \(width)×\(height) pixels, over the budget of \(budget) pixels"
    case .invalidScale(let scale): "scale must be finite and greater than 0 (got \(scale))"
    }
  }
}
