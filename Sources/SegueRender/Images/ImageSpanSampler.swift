import Segue
import SegueSIMDSupport

extension ImageSampler {
  /// Writes the premultiplied RGBA8 samples of pixels `0..<count` of `span` to `out`
  /// (`4·count` bytes). `span` maps pixels to **texel** coordinates (a layer span through
  /// ``ProjectiveSpan/scaled(x:offsetX:y:offsetY:)`` with a ``ContentsPiece``'s map), `w > 0`
  /// along the run. The filters and the footprint are evaluated per pixel as in
  /// ``sample(at:footprint:)``, in `Float` with 8-bit fixed-point weights (within 2/255 of it;
  /// the level of detail within 0.01 of `log₂ ρ`). An empty image writes transparent pixels.
  public func fill(_ span: ProjectiveSpan, count: Int, into out: UnsafeMutablePointer<UInt8>) {
    fill(span, count: count, into: out, vectorLanes: SpanKernel.vectorLanes)
  }

  /// ``fill(_:count:into:)`` on the vector path of `vectorLanes` pixels per step (16: AVX-512,
  /// 8: AVX2; `Int.max`: none, the Swift kernel), so that tests can hold every path to the same
  /// bytes. A path this CPU lacks writes nothing and leaves the pixels to the Swift kernel.
  func fill(
    _ span: ProjectiveSpan, count: Int, into out: UnsafeMutablePointer<UInt8>, vectorLanes: Int
  ) {
    guard count > 0 else { return }
    let base = mipmaps.sizes[0]
    guard base.x > 0, base.y > 0 else {
      out.initialize(repeating: 0, count: 4 * count)
      return
    }
    mipmaps.storage.withUnsafeBytes { storage in
      mipmaps.levelGeometry.withUnsafeBufferPointer { levels in
        let kernel = SpanKernel(
          sampler: self, storage: storage, levels: levels, span: span,
          target: UnsafeMutableRawPointer(out), lanes: vectorLanes)
        kernel.run(count)
      }
    }
  }
}

/// One run of ``ImageSampler/fill(_:count:into:)``: the span in `Float`, the levels' geometry.
struct SpanKernel {
  let storage: UnsafeRawBufferPointer
  let target: UnsafeMutableRawPointer
  let levels: UnsafeBufferPointer<Mipmaps.LevelGeometry>
  let minification: ContentsFilter
  let magnification: ContentsFilter
  /// Level 0 is at most ``fixedLimit`` texels a side.
  let small: Bool
  let x0, y0, w0, dx, dy, dw, rdx, rdy, rdw: Float
  /// The pixels per step of the vector path (``vectorLanes`` unless a test chooses).
  let lanes: Int

  init(
    sampler: ImageSampler, storage: UnsafeRawBufferPointer,
    levels: UnsafeBufferPointer<Mipmaps.LevelGeometry>, span: ProjectiveSpan,
    target: UnsafeMutableRawPointer, lanes: Int
  ) {
    self.lanes = lanes
    self.storage = storage
    self.target = target
    self.levels = levels
    minification = sampler.minificationFilter
    magnification = sampler.magnificationFilter
    small = Float(levels[0].width) <= Self.fixedLimit && Float(levels[0].height) <= Self.fixedLimit
    (x0, y0, w0) = (Float(span.x), Float(span.y), Float(span.w))
    (dx, dy, dw) = (Float(span.dx), Float(span.dy), Float(span.dw))
    (rdx, rdy, rdw) = (Float(span.rowDX), Float(span.rowDY), Float(span.rowDW))
  }

  func run(_ count: Int) {
    let plainLinear = minification == .linear && magnification == .linear
    // Magnifying pixels are bilinear on level 0 when the magnification filter is linear or
    // trilinear: the vector kernel takes them (and trilinear minification), and stops at a
    // group it cannot take, which the per-pixel loop then does.
    // A linear run of any length is the vector kernel's (its last step is masked).
    let vector = small && magnification != .nearest && lanes != Int.max
    if vector && (count >= lanes || plainLinear) {
      let mode =
        plainLinear
        ? SEGUE_SPAN_LINEAR
        : minification == .trilinear ? SEGUE_SPAN_TRILINEAR : SEGUE_SPAN_MAGNIFYING
      var k = 0
      while k < count {
        k = vectorRun(from: k, count, mode: Int32(mode))
        guard k < count else { return }
        let end = Swift.min(k + lanes, count)
        pixels(k..<end)
        k = end
      }
      return
    }
    let first = small && plainLinear ? bilinear4(from: 0, count) : 0
    pixels(first..<count)
  }

  /// Each pixel of `range` on its own: the footprint chooses the filter.
  func pixels(_ range: Range<Int>) {
    let needsFootprint = minification != magnification
    let affine = dw == 0
    let inverseW0 = 1 / w0
    for k in range {
      let kf = Float(k)
      let inverse = affine ? inverseW0 : 1 / (w0 + kf * dw)
      let s = (x0 + kf * dx) * inverse
      let t = (y0 + kf * dy) * inverse
      var filter = magnification
      var lod: Float = 0
      if needsFootprint || magnification == .trilinear {
        let ax = (dx - s * dw) * inverse
        let ay = (dy - t * dw) * inverse
        let bx = (rdx - s * rdw) * inverse
        let by = (rdy - t * rdw) * inverse
        let rho2 = Swift.max(ax * ax + ay * ay, bx * bx + by * by)
        if rho2 > 1 {
          filter = minification
          lod = 0.5 * Self.log2(rho2)
        }
      }
      let pixel: UInt32
      switch filter {
      case .nearest: pixel = nearest(s, t)
      case .linear: pixel = bilinear(0, s, t)
      case .trilinear: pixel = trilinear(lod, s, t)
      }
      target.storeBytes(of: pixel, toByteOffset: 4 * k, as: UInt32.self)
    }
  }

  @inline(__always)
  func load(_ level: Mipmaps.LevelGeometry, _ i: Int, _ j: Int) -> UInt32 {
    storage.loadUnaligned(
      fromByteOffset: level.offset &+ 4 &* (j &* level.width &+ i), as: UInt32.self)
  }

  /// The largest texel coordinate of the fixed-point path: `round(256·v)` must stay below
  /// `2²²` for the rounding constant below.
  static let fixedLimit: Float = 16_000

  /// `round(256·v)` for `v` clamped to `±fixedLimit` (NaN to `−fixedLimit`), without a
  /// conversion check: adding `1.5·2²³` leaves the rounded integer in the low mantissa bits.
  @inline(__always)
  static func fixed(_ v: Float) -> Int32 {
    let c = v > -fixedLimit ? (v < fixedLimit ? v : fixedLimit) : -fixedLimit
    return Int32(bitPattern: (c * 256 + 12_582_912).bitPattern) &- 0x4B40_0000
  }

  /// `⌊v⌋` and the fraction in 1/256 (rounded) for `v` in texels: by ``fixed(_:)`` when the
  /// image is at most `fixedLimit` texels a side, else by a checked conversion (`v` clamped to
  /// `±2³⁰`).
  @inline(__always)
  func split(_ v: Float) -> (index: Int, weight: UInt32) {
    if small {
      let n = Self.fixed(v)
      return (Int(n >> 8), UInt32(truncatingIfNeeded: n & 255))
    }
    let limit: Float = 1_073_741_824
    let c = v > -limit ? Swift.min(v, limit) : -limit
    var i = Int32(c)
    if Float(i) > c { i -= 1 }
    let w = Swift.min(UInt32((c - Float(i)) * 256 + 0.5), 256)
    return w == 256 ? (Int(i) + 1, 0) : (Int(i), w)
  }

  /// `i` clamped to `0…n − 1`.
  @inline(__always)
  static func clamp(_ i: Int, _ n: Int) -> Int { Swift.min(Swift.max(i, 0), n &- 1) }

  @inline(__always)
  func nearest(_ s: Float, _ t: Float) -> UInt32 {
    let level = levels[0]
    // ⌊v⌋ = split(v − 1/512).index: the rounding in `split` is half a 1/256 step.
    let i = Self.clamp(split(s - 1.0 / 512).index, level.width)
    let j = Self.clamp(split(t - 1.0 / 512).index, level.height)
    return load(level, i, j)
  }

  @inline(__always)
  func bilinear(_ k: Int, _ s: Float, _ t: Float) -> UInt32 {
    let level = levels[k]
    let (xi, wx) = split(s * level.scaleX - 0.5)
    let (yi, wy) = split(t * level.scaleY - 0.5)
    let i0 = Self.clamp(xi, level.width)
    let i1 = Self.clamp(xi &+ 1, level.width)
    let j0 = Self.clamp(yi, level.height)
    let j1 = Self.clamp(yi &+ 1, level.height)
    let top = Self.lerp(load(level, i0, j0), load(level, i1, j0), wx)
    let bottom = Self.lerp(load(level, i0, j1), load(level, i1, j1), wx)
    return Self.lerp(top, bottom, wy)
  }

  /// Pixels from `start` 8 or 16 at a time with the CPU's vectors (`segue_bilinear_span` in
  /// `mode`: this kernel's arithmetic, operation for operation). Returns the first pixel it
  /// did not write (`start` without a vector path). Needs ``small``.
  func vectorRun(from start: Int, _ count: Int, mode: Int32) -> Int {
    guard count <= Int(Int32.max) else { return start }
    let used = mode == Int32(SEGUE_SPAN_TRILINEAR) ? levels.count : 1
    let texels = storage.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var span = segue_texel_span(
      x: x0, y: y0, w: w0, dx: dx, dy: dy, dw: dw, row_dx: rdx, row_dy: rdy, row_dw: rdw)
    return withUnsafeTemporaryAllocation(of: segue_bilinear_level.self, capacity: used) {
      geometry in
      for k in 0..<used {
        let level = levels[k]
        geometry[k] = segue_bilinear_level(
          texels: texels + level.offset, width: Int32(level.width), height: Int32(level.height),
          scale_x: level.scaleX, scale_y: level.scaleY)
      }
      return Int(
        segue_bilinear_span_with_lanes(
          Int32(truncatingIfNeeded: lanes), geometry.baseAddress!, Int32(used), &span,
          Int32(start), Int32(count), mode, target.assumingMemoryBound(to: UInt8.self)))
    }
  }

  /// The pixels per step of ``vectorRun(from:_:mode:)`` on this CPU (`Int.max` without a vector
  /// path, so that it is never called).
  static let vectorLanes: Int = {
    let lanes = Int(segue_bilinear_span_lanes())
    return lanes > 0 ? lanes : Int.max
  }()

  /// Bilinear on level 0 for pixels `start..<start + 4⌊(count − start)/4⌋`, four at a time:
  /// the coordinates, the perspective divide and the fixed-point split in vectors, the texel
  /// loads and blends per pixel. Returns the first pixel it did not write. Needs ``small``.
  func bilinear4(from start: Int, _ count: Int) -> Int {
    let level = levels[0]
    let lanes = SIMD4<Float>(0, 1, 2, 3)
    let lowest = SIMD4<Int32>(repeating: 0)
    let right = SIMD4<Int32>(repeating: Int32(level.width - 1))
    let bottom = SIMD4<Int32>(repeating: Int32(level.height - 1))
    var k = start
    while k + 4 <= count {
      let kf = SIMD4<Float>(repeating: Float(k)) + lanes
      let inverse = 1 / (w0 + kf * dw)
      let x = Self.fixed4((x0 + kf * dx) * inverse * level.scaleX - 0.5)
      let y = Self.fixed4((y0 + kf * dy) * inverse * level.scaleY - 0.5)
      let xi = x &>> 8
      let yi = y &>> 8
      let i0 = Self.clamp4(xi, lowest, right)
      let i1 = Self.clamp4(xi &+ 1, lowest, right)
      let j0 = Self.clamp4(yi, lowest, bottom)
      let j1 = Self.clamp4(yi &+ 1, lowest, bottom)
      let wx = SIMD4<UInt32>(truncatingIfNeeded: x & 255)
      let wy = SIMD4<UInt32>(truncatingIfNeeded: y & 255)
      for lane in 0..<4 {
        let a = Int(i0[lane])
        let b = Int(i1[lane])
        let c = Int(j0[lane])
        let d = Int(j1[lane])
        let top = Self.lerp(load(level, a, c), load(level, b, c), wx[lane])
        let under = Self.lerp(load(level, a, d), load(level, b, d), wx[lane])
        target.storeBytes(
          of: Self.lerp(top, under, wy[lane]), toByteOffset: 4 &* (k &+ lane), as: UInt32.self)
      }
      k += 4
    }
    return k
  }

  /// `v` clamped lane by lane to `[lo, hi]` with masked selects (`clamped(lowerBound:upperBound:)`
  /// calls `pointwiseMin`/`pointwiseMax` out of line here, a third of the kernel's time).
  @inline(__always)
  static func clamp4(_ v: SIMD4<Int32>, _ lo: SIMD4<Int32>, _ hi: SIMD4<Int32>) -> SIMD4<Int32> {
    var c = v
    c.replace(with: lo, where: c .< lo)
    c.replace(with: hi, where: c .> hi)
    return c
  }

  /// `v` clamped lane by lane to `[lo, hi]` (a NaN lane stays NaN).
  @inline(__always)
  static func clamp4(_ v: SIMD4<Float>, _ lo: SIMD4<Float>, _ hi: SIMD4<Float>) -> SIMD4<Float> {
    var c = v
    c.replace(with: lo, where: c .< lo)
    c.replace(with: hi, where: c .> hi)
    return c
  }

  /// ``fixed(_:)`` on four lanes (NaN lanes give some index, which the callers clamp).
  @inline(__always)
  static func fixed4(_ v: SIMD4<Float>) -> SIMD4<Int32> {
    let limit = SIMD4<Float>(repeating: fixedLimit)
    let c = clamp4(v, -limit, limit)
    let biased = c * 256 + 12_582_912
    return unsafeBitCast(biased, to: SIMD4<Int32>.self) &- 0x4B40_0000
  }

  @inline(__always)
  func trilinear(_ lod: Float, _ s: Float, _ t: Float) -> UInt32 {
    let level = Swift.min(lod, Float(levels.count - 1))
    guard level > 0 else { return bilinear(0, s, t) }
    let k = Int(level)
    let f = UInt32((level - Float(k)) * 256 + 0.5)
    let a = bilinear(k, s, t)
    guard f > 0, k + 1 < levels.count else { return a }
    return Self.lerp(a, bilinear(k + 1, s, t), f)
  }

  /// `a + (b − a)·w/256` per byte of two RGBA8 pixels, rounded, two channels per multiply.
  @inline(__always)
  static func lerp(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
    let v = 256 &- w
    let rb = ((a & 0x00FF_00FF) &* v &+ (b & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8
    let ag = ((a >> 8) & 0x00FF_00FF) &* v &+ ((b >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080
    return (rb & 0x00FF_00FF) | (ag & 0xFF00_FF00)
  }

  /// `log₂ v` for `v > 0` within 0.01: the exponent plus `m + 0.3466·m(1 − m)` for the
  /// mantissa `1 + m`.
  @inline(__always)
  static func log2(_ v: Float) -> Float {
    let bits = v.bitPattern
    let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
    let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000) - 1
    return exponent + m + 0.346_607 * m * (1 - m)
  }
}
