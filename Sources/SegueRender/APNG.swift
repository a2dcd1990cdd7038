import Segue

/// How long each frame of an animation sampled at given times stays on screen.
public enum FrameTiming {
  /// The delays, in seconds, of frames sampled at `times` (seconds, strictly increasing): frame
  /// `k` lasts until the next sample, `times[k + 1] − times[k]`; the last frame lasts as long as
  /// the interval before it, or `single` when there is only one frame.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `times`: `.tooFew` when empty; with the index of the
  ///   first entry that is not finite, is smaller than the one before it (`.decreasing`) or
  ///   equal to it (`.invalidState`); and naming `single` unless it is finite and `> 0`.
  public static func delays(for times: [Double], single: Double = 0.1) throws(ValidationError)
    -> [Double]
  {
    guard !times.isEmpty else {
      throw ValidationError(field: "times", reason: .tooFew(minimum: 1, actual: 0))
    }
    try Validate.positive(single, "single")
    for (k, t) in times.enumerated() {
      try Validate.finite(t, "times", index: k)
      guard k > 0 else { continue }
      guard t >= times[k - 1] else {
        throw ValidationError(field: "times", index: k, reason: .decreasing)
      }
      guard t > times[k - 1] else {
        throw ValidationError(
          field: "times", index: k,
          reason: .invalidState("must be later than the time before it (a frame needs a delay)"))
      }
    }
    guard times.count > 1 else { return [single] }
    var delays = (1..<times.count).map { times[$0] - times[$0 - 1] }
    delays.append(delays[delays.count - 1])
    return delays
  }
}

extension FrameTiming {
  /// Throws `.countMismatch` naming `frame.width` or `frame.height` unless `frame` is
  /// `width × height` (the animation encoders' canvas).
  static func checkFrame(_ frame: PixelBufferRGBA8, width: Int, height: Int)
    throws(ValidationError)
  {
    guard frame.width == width else {
      throw ValidationError(
        field: "frame.width", reason: .countMismatch(expected: width, actual: frame.width))
    }
    guard frame.height == height else {
      throw ValidationError(
        field: "frame.height", reason: .countMismatch(expected: height, actual: frame.height))
    }
  }
}

/// An animated PNG (APNG, the PNG extension every current browser shows): frames added one at a
/// time, written as one file.
///
/// **File.** Signature, `IHDR` (the canvas, RGBA8), `acTL` (frame count, play count: 0 loops
/// forever), then per frame an `fcTL` (its region, delay, `dispose_op` NONE, `blend_op` SOURCE)
/// followed by its image data: the first frame as `IDAT` (so viewers without APNG show it as a
/// still), later frames as `fdAT` chunks; `IEND`. `fcTL` and `fdAT` share one sequence counter
/// from 0. Image data is filtered and compressed like ``PNG`` (adaptive filters, libdeflate), by
/// one ``PNGEncoder`` the encoder keeps: once the first frame is written, a frame allocates
/// nothing beyond the file's growth.
///
/// **Regions.** Frame 1 covers the canvas. A later frame covers only the bounding box of the
/// pixels that differ from the frame before it (1 × 1 at the origin when none does); with
/// SOURCE blending and no disposal the canvas then holds exactly the new frame.
///
/// **Delays.** Each delay `d` seconds is written as the fraction `delay_num/delay_den` nearest to
/// `d` with both terms at most 65535 (``delayFraction(_:)``): `0.1 → 1/10`, `1/30 s → 1/30`.
public struct APNGEncoder {
  /// The canvas size in pixels.
  public let width: Int
  public let height: Int
  /// The number of frames the file will hold (declared in `acTL`).
  public let frameCount: Int
  /// How many times the animation plays; 0 loops forever.
  public let loops: Int
  /// How the frames' scanlines are compressed.
  public let compression: PNG.Compression
  private let encoder: PNGEncoder
  private var bytes: [UInt8] = []
  private var sequence: UInt32 = 0
  private var added = 0
  private var previous: PixelBufferRGBA8?

  /// Starts a file.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `width` or `height` outside `1…2³¹ − 1`, `frameCount`
  ///   (`.tooFew` below 1, `.outOfRange` above 2³¹ − 1), `loops` outside `0…2³¹ − 1`, and
  ///   `level` outside `0…12` (a ``PNG/Compression/level(_:)``).
  public init(
    width: Int, height: Int, frameCount: Int, loops: Int = 0,
    compression: PNG.Compression = .automatic
  )
    throws(ValidationError)
  {
    let limit = Double(Int32.max)
    try Validate.inRange(Double(width), 1, limit, "width")
    try Validate.inRange(Double(height), 1, limit, "height")
    guard frameCount >= 1 else {
      throw ValidationError(field: "frameCount", reason: .tooFew(minimum: 1, actual: frameCount))
    }
    try Validate.inRange(Double(frameCount), 1, limit, "frameCount")
    try Validate.inRange(Double(loops), 0, limit, "loops")
    encoder = try PNGEncoder(compression: compression)
    self.width = width
    self.height = height
    self.frameCount = frameCount
    self.loops = loops
    self.compression = compression
    bytes = PNG.signature
    PNG.appendHeader(width: width, height: height, to: &bytes)
    PNG.appendChunk("acTL", to: &bytes) { data in
      data.appendBigEndian(UInt32(frameCount))
      data.appendBigEndian(UInt32(loops))
    }
  }

  /// Appends a frame (premultiplied RGBA8, the canvas size) shown for `delay` seconds.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `frame.width`/`frame.height` (`.countMismatch`) for a
  ///   frame of another size, `frameCount` (`.invalidState`) when all declared frames were
  ///   added, and `delay` unless it is finite and in `(0, 65535]`.
  public mutating func add(_ frame: PixelBufferRGBA8, delay: Double) throws(ValidationError) {
    try FrameTiming.checkFrame(frame, width: width, height: height)
    guard added < frameCount else {
      throw ValidationError(
        field: "frameCount", reason: .invalidState("all \(frameCount) frames were already added"))
    }
    try Validate.positive(delay, "delay")
    try Validate.inRange(delay, 0, 65535, "delay")
    var region = (x: 0, y: 0, width: width, height: height)
    if let previous { region = Self.changedRegion(previous, frame) }
    encoder.compress(frame, x: region.x, y: region.y, width: region.width, height: region.height)
    let (numerator, denominator) = Self.delayFraction(delay)
    PNG.appendChunk("fcTL", to: &bytes) { [sequence] data in
      data.appendBigEndian(sequence)
      data.appendBigEndian(UInt32(region.width))
      data.appendBigEndian(UInt32(region.height))
      data.appendBigEndian(UInt32(region.x))
      data.appendBigEndian(UInt32(region.y))
      data.appendBigEndian(numerator)
      data.appendBigEndian(denominator)
      data.append(0)  // dispose_op NONE
      data.append(0)  // blend_op SOURCE
    }
    sequence += 1
    appendImageData()
    added += 1
    keep(frame)
  }

  /// Appends the encoder's compressed frame: as `IDAT` chunks for the first frame, else as
  /// `fdAT` chunks (each with the next sequence number), at most 1 MiB of data each.
  private mutating func appendImageData() {
    let data = encoder.compressed
    let count = encoder.compressedCount
    var start = 0
    repeat {
      let end = Swift.min(count, start + PNG.maximumChunkData)
      if added == 0 {
        PNG.appendChunk("IDAT", data[start..<end], to: &bytes)
      } else {
        PNG.appendChunk("fdAT", to: &bytes) { [sequence] chunk in
          chunk.appendBigEndian(sequence)
          chunk.append(contentsOf: data[start..<end])
        }
        sequence += 1
      }
      start = end
    } while start < count
  }

  /// Keeps a copy of `frame` as the frame the next one is compared with, in the buffer of the
  /// copy before it (no allocation once the first is kept).
  private mutating func keep(_ frame: PixelBufferRGBA8) {
    guard var kept = previous, kept.stride == frame.stride else {
      previous = frame
      return
    }
    previous = nil  // the only reference: the update below writes in place
    kept.components.withUnsafeMutableBufferPointer { target in
      frame.components.withUnsafeBufferPointer { source in
        target.baseAddress!.update(from: source.baseAddress!, count: source.count)
      }
    }
    previous = kept
  }

  /// The finished file.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `frameCount` (`.countMismatch`) unless exactly
  ///   ``frameCount`` frames were added.
  public func finish() throws(ValidationError) -> [UInt8] {
    guard added == frameCount else {
      throw ValidationError(
        field: "frameCount", reason: .countMismatch(expected: frameCount, actual: added))
    }
    var file = bytes
    PNG.appendChunk("IEND", [], to: &file)
    return file
  }

  /// The fraction `n/d` nearest to `seconds` with `1 ≤ d ≤ 65535` and `n ≤ 65535` (continued
  /// fractions with the last term reduced to the bound, as Python's
  /// `Fraction.limit_denominator`); stops at the first convergent within 10⁻⁹ relative. A
  /// delay that rounds to 0 is written as `1/65535` (APNG reads 0 as "as fast as possible").
  public static func delayFraction(_ seconds: Double) -> (numerator: UInt16, denominator: UInt16) {
    let bound = Swift.max(1, Swift.min(65535, Int((65535 / seconds).rounded(.down))))
    var (p0, q0, p1, q1) = (0, 1, 1, 0)
    var v = seconds
    for _ in 0..<64 {
      guard v.isFinite, v < 1e9 else { break }
      let a = Int(v.rounded(.down))
      let q2 = q0 + a * q1
      if q2 > bound {
        // The best approximation is p1/q1 or the semiconvergent with the largest allowed term.
        let k = (bound - q0) / q1
        let (ps, qs) = (p0 + k * p1, q0 + k * q1)
        if abs(seconds - Double(ps) / Double(qs)) < abs(seconds - Double(p1) / Double(q1)) {
          (p1, q1) = (ps, qs)
        }
        break
      }
      (p0, q0, p1, q1) = (p1, q1, p0 + a * p1, q2)
      if abs(seconds - Double(p1) / Double(q1)) <= 1e-9 * seconds { break }
      let fraction = v - Double(a)
      guard fraction > 0 else { break }
      v = 1 / fraction
    }
    guard p1 > 0 else { return (1, 65535) }
    return (UInt16(Swift.min(p1, 65535)), UInt16(Swift.max(1, Swift.min(q1, 65535))))
  }

  /// The bounding box of the pixels where `b` differs from `a` (same size), or `(0, 0, 1, 1)`
  /// when they are equal.
  static func changedRegion(_ a: PixelBufferRGBA8, _ b: PixelBufferRGBA8) -> (
    x: Int, y: Int, width: Int, height: Int
  ) {
    var (x0, y0, x1, y1) = (Int.max, Int.max, Int.min, Int.min)
    a.components.withUnsafeBufferPointer { pa in
      b.components.withUnsafeBufferPointer { pb in
        for y in 0..<a.height {
          let ra = pa.baseAddress! + y * a.stride
          let rb = pb.baseAddress! + y * b.stride
          // Whole rows first, 8 bytes at a time.
          var equal = true
          var i = 0
          while equal && i + 8 <= 4 * a.width {
            equal =
              UnsafeRawPointer(ra).loadUnaligned(fromByteOffset: i, as: UInt64.self)
              == UnsafeRawPointer(rb).loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
          }
          if equal && i < 4 * a.width {
            equal =
              UnsafeRawPointer(ra).loadUnaligned(fromByteOffset: i, as: UInt32.self)
              == UnsafeRawPointer(rb).loadUnaligned(fromByteOffset: i, as: UInt32.self)
          }
          if equal { continue }
          func same(_ x: Int) -> Bool {
            UnsafeRawPointer(ra).loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
              == UnsafeRawPointer(rb).loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
          }
          var first = 0
          while first < a.width && same(first) { first += 1 }
          guard first < a.width else { continue }
          var last = a.width - 1
          while last > first && same(last) { last -= 1 }
          (x0, x1) = (Swift.min(x0, first), Swift.max(x1, last + 1))
          (y0, y1) = (Swift.min(y0, y), y + 1)
        }
      }
    }
    guard x0 < x1 else { return (0, 0, 1, 1) }
    return (x0, y0, x1 - x0, y1 - y0)
  }
}
