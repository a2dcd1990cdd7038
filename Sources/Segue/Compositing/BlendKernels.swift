/// SIMD compositing kernels over whole images: premultiplied RGBA8 and `Float` "over" with a layer
/// opacity, and cross-dissolve. Each one implements a rule of ``Blend`` exactly (RGBA8) or to
/// `Float` rounding (Float), and is tested against it.
///
/// **RGBA8 arithmetic.** Four pixels (16 bytes) are viewed as eight 16-bit lanes and split into
/// even and odd bytes, each zero-extended in its lane (the SSE2 / NEON "SWAR" layout pixman
/// uses), multiplied by 8-bit factors (every product `≤ 255·255 = 65025` fits), and divided by
/// 255 with round-to-nearest using Blinn's identity (``divideBy255(_:)``):
///
///     ⟦t / 255⟧ = (t + 128 + ((t + 128) >> 8)) >> 8      for 0 ≤ t ≤ 65025
///
/// which is exact on that whole range (checked exhaustively in the tests) and needs only adds
/// and shifts. The alpha of each pixel is copied to the low byte of both of its 16-bit lanes by
/// viewing the vector as `SIMD4<UInt32>` (one pixel per 32-bit lane, alpha in the top byte on
/// little-endian targets) and shifting. The final add saturates at 255 byte-wise. No conversion
/// initialisers are used: Swift's generic `SIMD` widening and narrowing initialisers compile to
/// out-of-line scalar loops, which made a first version ten times slower.
///
/// **Memory.** "Over" reads the source and the destination and writes the destination in place:
/// 12 bytes per pixel for RGBA8 (48 for Float), so at large sizes it is bound by memory
/// bandwidth, not arithmetic.
public enum BlendKernels {
  /// `round(t / 255)` for `t` in `0…65025` by Blinn's identity
  /// `(t + 128 + ((t + 128) >> 8)) >> 8`; exact there (a quotient `t/255` is never half-way).
  /// For larger `t` the result is not meaningful (the 16-bit sums wrap).
  @inlinable
  public static func divideBy255(_ t: UInt16) -> UInt16 {
    let u = t &+ 128
    return (u &+ (u &>> 8)) &>> 8
  }

  // MARK: RGBA8 over

  /// Composites `source` at `opacity` over `destination`, in place:
  /// ``Blend/overRGBA8(_:onto:opacity:)`` for every pixel, with the opacity byte
  /// ``Blend/opacityByte(_:)``.
  ///
  /// - Parameters:
  ///   - source: the premultiplied layer image.
  ///   - opacity: the layer opacity in `[0, 1]` (quantised to `round(255·o)`).
  ///   - destination: the premultiplied image below; same width and height (its stride may
  ///     differ).
  /// - Throws: ``ValidationError`` naming `opacity` when it is not in `[0, 1]`, and
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` naming `source.width` or
  ///   `source.height` when the sizes differ.
  public static func overRGBA8(
    _ source: PixelBufferRGBA8, opacity: Double = 1, onto destination: inout PixelBufferRGBA8
  ) throws(ValidationError) {
    let o = try Blend.opacityByte(opacity)
    try destination.checkSameSize(as: source, "source")
    guard source.width > 0 && source.height > 0 else { return }
    let rowBytes = 4 * source.width
    source.components.withUnsafeBufferPointer { s in
      destination.components.withUnsafeMutableBufferPointer { d in
        for y in 0..<source.height {
          overRGBA8Run(
            s.baseAddress! + y * source.stride, d.baseAddress! + y * destination.stride,
            bytes: rowBytes, opacity: o)
        }
      }
    }
  }

  /// Composites a run of premultiplied RGBA8 pixels (for example one row of caller-owned memory)
  /// over another, in place: ``Blend/overRGBA8(_:onto:opacity:)`` per pixel.
  ///
  /// - Parameters:
  ///   - source: `4·n` bytes, `R, G, B, A` per pixel.
  ///   - destination: `4·n` bytes, overwritten with the result. It may be the same memory as
  ///     `source` (each pixel is read before it is written).
  ///   - opacity: the opacity byte (`255` is opaque; see ``Blend/opacityByte(_:)``).
  /// - Throws: ``ValidationError/Reason/countMismatch(expected:actual:)`` naming `destination`
  ///   when the counts differ, or naming `source` when its count is not a multiple of 4 (the
  ///   expected value is then the count rounded down to a multiple of 4).
  public static func overRGBA8(
    source: UnsafeBufferPointer<UInt8>, destination: UnsafeMutableBufferPointer<UInt8>,
    opacity: UInt8
  ) throws(ValidationError) {
    guard source.count % 4 == 0 else {
      throw ValidationError(
        field: "source", reason: .countMismatch(expected: source.count & ~3, actual: source.count))
    }
    guard destination.count == source.count else {
      throw ValidationError(
        field: "destination",
        reason: .countMismatch(expected: source.count, actual: destination.count))
    }
    guard let s = source.baseAddress, let d = destination.baseAddress else { return }
    overRGBA8Run(s, d, bytes: source.count, opacity: opacity)
  }

  /// The kernel: `bytes` (a multiple of 4) from `s` over `d`.
  @usableFromInline
  static func overRGBA8Run(
    _ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, bytes: Int, opacity: UInt8
  ) {
    #if _endian(little)
      if opacity == 255 {
        overRGBA8Loop(s, d, bytes: bytes, opacity: 255, scaleSource: false)
      } else {
        overRGBA8Loop(s, d, bytes: bytes, opacity: opacity, scaleSource: true)
      }
    #else
      // The lane layout of `over4` assumes little-endian; elsewhere use the reference rule.
      for i in Swift.stride(from: 0, to: bytes, by: 4) {
        let r = Blend.overRGBA8(
          SIMD4(s[i], s[i + 1], s[i + 2], s[i + 3]),
          onto: SIMD4(d[i], d[i + 1], d[i + 2], d[i + 3]),
          opacity: opacity)
        for c in 0..<4 { d[i + c] = r[c] }
      }
    #endif
  }

  /// `min(255, s′ + ⟦d·(255 − s′_A)/255⟧)`, `s′ = ⟦s·o/255⟧`, for four pixels (16 bytes, one
  /// SSE / NEON register) viewed as eight 16-bit lanes; `⟦t/255⟧` by Blinn's identity
  /// (``divideBy255(_:)``).
  ///
  /// Each 16-bit lane holds two bytes of a pixel. Products are formed on the even bytes
  /// `(R, B)` and on the odd bytes `(G, A)` separately, each zero-extended in its lane
  /// (`v & 0xFF`, `v >> 8`), so every product fits its lane; the odd results are put back with
  /// `& 0xFF00` (the same as `>> 8` then `<< 8`). Each pixel's alpha is copied into the low byte
  /// of both of its 16-bit lanes with 32-bit shifts (`((v & 0xFF000000) >> 8) | (v >> 24)`).
  /// The final `s′ + x` is a byte-wise add that saturates at 255 (`sum < s′` detects the
  /// wrap; LLVM emits one `paddusb` / `uqadd`), which only acts on invalid premultiplied input.
  ///
  /// Only 128-bit vector types are used: a generic version was not specialised (400× slower),
  /// and the standard library compiles shifts and compares of `SIMD32` to scalar loops.
  @inline(__always)
  static func over4(_ s: SIMD8<UInt16>, _ d: SIMD8<UInt16>, _ o: UInt16, _ scale: Bool)
    -> SIMD8<UInt16>
  {
    typealias V = SIMD8<UInt16>
    typealias W = SIMD4<UInt32>
    typealias B = SIMD16<UInt8>
    let low = V(repeating: 0x00FF)
    let high = V(repeating: 0xFF00)
    var sv = s
    if scale {
      let ov = V(repeating: o)
      var t = (s & low) &* ov &+ 128
      let rb = (t &+ (t &>> 8)) &>> 8
      t = (s &>> 8) &* ov &+ 128
      sv = rb | ((t &+ (t &>> 8)) & high)
    }
    let s32 = unsafeBitCast(sv, to: W.self)
    let alpha = unsafeBitCast(
      ((s32 & W(repeating: 0xFF00_0000)) &>> 8) | (s32 &>> 24), to: V.self)
    let inverse = low &- alpha
    var t = (d & low) &* inverse &+ 128
    let xRB = (t &+ (t &>> 8)) &>> 8
    t = (d &>> 8) &* inverse &+ 128
    let x = unsafeBitCast(xRB | ((t &+ (t &>> 8)) & high), to: B.self)
    let s8 = unsafeBitCast(sv, to: B.self)
    let sum = s8 &+ x
    return unsafeBitCast(sum.replacing(with: 255, where: sum .< s8), to: V.self)
  }

  @inline(__always)
  static func overRGBA8Loop(
    _ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, bytes: Int, opacity: UInt8,
    scaleSource: Bool
  ) {
    let o = UInt16(opacity)
    let source = UnsafeRawPointer(s)
    let destination = UnsafeMutableRawPointer(d)
    var i = 0
    // Sixteen pixels (64 bytes) per iteration, as four independent groups of four.
    while i + 64 <= bytes {
      let s0 = source.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt16>.self)
      let s1 = source.loadUnaligned(fromByteOffset: i + 16, as: SIMD8<UInt16>.self)
      let s2 = source.loadUnaligned(fromByteOffset: i + 32, as: SIMD8<UInt16>.self)
      let s3 = source.loadUnaligned(fromByteOffset: i + 48, as: SIMD8<UInt16>.self)
      let d0 = destination.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt16>.self)
      let d1 = destination.loadUnaligned(fromByteOffset: i + 16, as: SIMD8<UInt16>.self)
      let d2 = destination.loadUnaligned(fromByteOffset: i + 32, as: SIMD8<UInt16>.self)
      let d3 = destination.loadUnaligned(fromByteOffset: i + 48, as: SIMD8<UInt16>.self)
      let r0 = over4(s0, d0, o, scaleSource)
      let r1 = over4(s1, d1, o, scaleSource)
      let r2 = over4(s2, d2, o, scaleSource)
      let r3 = over4(s3, d3, o, scaleSource)
      destination.storeBytes(of: r0, toByteOffset: i, as: SIMD8<UInt16>.self)
      destination.storeBytes(of: r1, toByteOffset: i + 16, as: SIMD8<UInt16>.self)
      destination.storeBytes(of: r2, toByteOffset: i + 32, as: SIMD8<UInt16>.self)
      destination.storeBytes(of: r3, toByteOffset: i + 48, as: SIMD8<UInt16>.self)
      i += 64
    }
    // Four pixels at a time, then the last one to three pixels padded with zeros.
    while i < bytes {
      let n = Swift.min(16, bytes - i)
      let sv: SIMD8<UInt16>
      let dv: SIMD8<UInt16>
      if n == 16 {
        sv = source.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt16>.self)
        dv = destination.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt16>.self)
      } else {
        var s16 = SIMD16<UInt8>.zero
        var d16 = SIMD16<UInt8>.zero
        for k in 0..<n {
          s16[k] = s[i + k]
          d16[k] = d[i + k]
        }
        sv = unsafeBitCast(s16, to: SIMD8<UInt16>.self)
        dv = unsafeBitCast(d16, to: SIMD8<UInt16>.self)
      }
      let r = unsafeBitCast(over4(sv, dv, o, scaleSource), to: SIMD16<UInt8>.self)
      for k in 0..<n { d[i + k] = r[k] }
      i += n
    }
  }

  // MARK: Float over

  /// Composites `source` at `opacity` over `destination`, in place, in `Float`:
  /// `out = clamp(src·o + (1 − α_src·o)·dst, 0, 1)` per component (``Blend/over(_:onto:opacity:)``
  /// evaluated in single precision; for valid premultiplied inputs the clamp only removes
  /// rounding excess, within `1e-6`).
  ///
  /// - Throws: ``ValidationError`` naming `opacity` when it is not in `[0, 1]`, and
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` naming `source.width` or
  ///   `source.height` when the sizes differ.
  public static func overFloat(
    _ source: PixelBufferRGBAFloat, opacity: Double = 1,
    onto destination: inout PixelBufferRGBAFloat
  ) throws(ValidationError) {
    try Validate.inRange(opacity, 0, 1, "opacity")
    try destination.checkSameSize(as: source, "source")
    guard source.width > 0 && source.height > 0 else { return }
    let o = Float(opacity)
    let width = source.width
    source.components.withUnsafeBufferPointer { sb in
      destination.components.withUnsafeMutableBufferPointer { db in
        for y in 0..<source.height {
          let s = UnsafeRawPointer(sb.baseAddress! + y * source.stride)
          let d = UnsafeMutableRawPointer(db.baseAddress! + y * destination.stride)
          for x in 0..<width {
            let offset = 16 * x
            let sv = s.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self) * o
            let dv = d.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
            let r = sv + (1 - sv[3]) * dv
            d.storeBytes(of: clamp01(r), toByteOffset: offset, as: SIMD4<Float>.self)
          }
        }
      }
    }
  }

  @inline(__always)
  static func clamp01(_ v: SIMD4<Float>) -> SIMD4<Float> {
    v.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
  }

  // MARK: Cross-dissolve

  /// Cross-dissolve of two RGBA8 images (CATransition `fade`): ``Blend/crossDissolveRGBA8(_:_:weight:)``
  /// per pixel with `k = round(256·q)` (``Blend/dissolveWeight(_:)``):
  /// `out = ⌊(from·(256 − k) + to·k + 128) / 256⌋`.
  ///
  /// - Parameters:
  ///   - from: the old content, weight `1 − q`.
  ///   - to: the new content, weight `q`; same size as `from`.
  ///   - fraction: the eased progress `q` in `[0, 1]`.
  ///   - destination: receives the result; same size (its stride may differ). Its previous
  ///     contents are not read.
  /// - Throws: ``ValidationError`` naming `fraction` when it is not in `[0, 1]`, and
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` naming `to.width`/`to.height`
  ///   or `destination.width`/`destination.height` when the sizes differ.
  public static func crossDissolveRGBA8(
    _ from: PixelBufferRGBA8, _ to: PixelBufferRGBA8, fraction: Double,
    into destination: inout PixelBufferRGBA8
  ) throws(ValidationError) {
    let k = try Blend.dissolveWeight(fraction)
    try from.checkSameSize(as: to, "to")
    try from.checkSameSize(as: destination, "destination")
    guard from.width > 0 && from.height > 0 else { return }
    let wb = UInt16(k)
    let wa = UInt16(256 - k)
    let rowBytes = 4 * from.width
    from.components.withUnsafeBufferPointer { ab in
      to.components.withUnsafeBufferPointer { bb in
        destination.components.withUnsafeMutableBufferPointer { db in
          for y in 0..<from.height {
            let a = ab.baseAddress! + y * from.stride
            let b = bb.baseAddress! + y * to.stride
            let d = db.baseAddress! + y * destination.stride
            var i = 0
            while i + 16 <= rowBytes {
              let av = UnsafeRawPointer(a).loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
              let bv = UnsafeRawPointer(b).loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
              let r = dissolve16(av, bv, wa, wb)
              UnsafeMutableRawPointer(d).storeBytes(of: r, toByteOffset: i, as: SIMD16<UInt8>.self)
              i += 16
            }
            while i < rowBytes {
              let t = UInt16(a[i]) &* wa &+ UInt16(b[i]) &* wb &+ 128
              d[i] = UInt8(truncatingIfNeeded: t &>> 8)
              i += 1
            }
          }
        }
      }
    }
  }

  /// `(a·wa + b·wb + 128) >> 8` per byte with `wa + wb = 256`: at most `255·256 + 128 = 65408`,
  /// so each sum fits a 16-bit lane (even and odd bytes are processed as two halves).
  @inline(__always)
  static func dissolve16(_ a8: SIMD16<UInt8>, _ b8: SIMD16<UInt8>, _ wa: UInt16, _ wb: UInt16)
    -> SIMD16<UInt8>
  {
    let low = SIMD8<UInt16>(repeating: 0x00FF)
    let a = unsafeBitCast(a8, to: SIMD8<UInt16>.self)
    let b = unsafeBitCast(b8, to: SIMD8<UInt16>.self)
    let va = SIMD8<UInt16>(repeating: wa)
    let vb = SIMD8<UInt16>(repeating: wb)
    let even = ((a & low) &* va &+ (b & low) &* vb &+ 128) &>> 8
    let odd = ((a &>> 8) &* va &+ (b &>> 8) &* vb &+ 128) & SIMD8(repeating: 0xFF00)
    return unsafeBitCast(even | odd, to: SIMD16<UInt8>.self)
  }

  /// Cross-dissolve of two Float images: `out = clamp((1 − q)·from + q·to, 0, 1)`
  /// (``Blend/crossDissolve(_:_:fraction:)`` in single precision; the clamp only removes rounding
  /// excess, since a convex combination of values in `[0, 1]` stays in `[0, 1]`).
  ///
  /// - Throws: as ``crossDissolveRGBA8(_:_:fraction:into:)``.
  public static func crossDissolveFloat(
    _ from: PixelBufferRGBAFloat, _ to: PixelBufferRGBAFloat, fraction: Double,
    into destination: inout PixelBufferRGBAFloat
  ) throws(ValidationError) {
    try Validate.inRange(fraction, 0, 1, "fraction")
    try from.checkSameSize(as: to, "to")
    try from.checkSameSize(as: destination, "destination")
    guard from.width > 0 && from.height > 0 else { return }
    let q = Float(fraction)
    let p = 1 - q
    let width = from.width
    from.components.withUnsafeBufferPointer { ab in
      to.components.withUnsafeBufferPointer { bb in
        destination.components.withUnsafeMutableBufferPointer { db in
          for y in 0..<from.height {
            let a = UnsafeRawPointer(ab.baseAddress! + y * from.stride)
            let b = UnsafeRawPointer(bb.baseAddress! + y * to.stride)
            let d = UnsafeMutableRawPointer(db.baseAddress! + y * destination.stride)
            for x in 0..<width {
              let offset = 16 * x
              let av = a.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
              let bv = b.loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self)
              d.storeBytes(
                of: clamp01(p * av + q * bv), toByteOffset: offset, as: SIMD4<Float>.self)
            }
          }
        }
      }
    }
  }
}
