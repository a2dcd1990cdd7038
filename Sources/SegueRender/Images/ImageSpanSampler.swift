import Segue

extension ImageSampler {
  /// Writes the premultiplied RGBA8 samples of pixels `0..<count` of `span` to `out`
  /// (`4·count` bytes). `span` maps pixels to **texel** coordinates (a layer span through
  /// ``ProjectiveSpan/scaled(x:offsetX:y:offsetY:)`` with a ``ContentsPiece``'s map), `w > 0`
  /// along the run. The filters and the footprint are evaluated per pixel as in
  /// ``sample(at:footprint:)``, in `Float` with 8-bit fixed-point weights (within 2/255 of it;
  /// the level of detail within 0.01 of `log₂ ρ`). An empty image writes transparent pixels.
  public func fill(_ span: ProjectiveSpan, count: Int, into out: UnsafeMutablePointer<UInt8>) {
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
          target: UnsafeMutableRawPointer(out))
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
  let x0, y0, w0, dx, dy, dw, rdx, rdy, rdw: Float

  init(
    sampler: ImageSampler, storage: UnsafeRawBufferPointer,
    levels: UnsafeBufferPointer<Mipmaps.LevelGeometry>, span: ProjectiveSpan,
    target: UnsafeMutableRawPointer
  ) {
    self.storage = storage
    self.target = target
    self.levels = levels
    minification = sampler.minificationFilter
    magnification = sampler.magnificationFilter
    (x0, y0, w0) = (Float(span.x), Float(span.y), Float(span.w))
    (dx, dy, dw) = (Float(span.dx), Float(span.dy), Float(span.dw))
    (rdx, rdy, rdw) = (Float(span.rowDX), Float(span.rowDY), Float(span.rowDW))
  }

  func run(_ count: Int) {
    let needsFootprint = minification != magnification
    for k in 0..<count {
      let kf = Float(k)
      let inverse = 1 / (w0 + kf * dw)
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
    storage.loadUnaligned(fromByteOffset: level.offset + 4 * (j * level.width + i), as: UInt32.self)
  }

  /// `⌊v⌋` clamped to `0…n − 1` (NaN to 0).
  @inline(__always)
  static func index(_ v: Float, _ n: Int) -> Int {
    let top = Float(n - 1)
    return v > 0 ? Int(Swift.min(v.rounded(.down), top)) : 0
  }

  @inline(__always)
  func nearest(_ s: Float, _ t: Float) -> UInt32 {
    let level = levels[0]
    return load(level, Self.index(s, level.width), Self.index(t, level.height))
  }

  @inline(__always)
  func bilinear(_ k: Int, _ s: Float, _ t: Float) -> UInt32 {
    let level = levels[k]
    let x = s * level.scale.x - 0.5
    let y = t * level.scale.y - 0.5
    let xf = x.rounded(.down)
    let yf = y.rounded(.down)
    let wx = UInt32(Swift.min(Swift.max((x - xf) * 256 + 0.5, 0), 256))
    let wy = UInt32(Swift.min(Swift.max((y - yf) * 256 + 0.5, 0), 256))
    let w = level.width
    let h = level.height
    let i0 = Self.index(xf, w)
    let i1 = Self.index(xf + 1, w)
    let j0 = Self.index(yf, h)
    let j1 = Self.index(yf + 1, h)
    let top = Self.lerp(load(level, i0, j0), load(level, i1, j0), wx)
    let bottom = Self.lerp(load(level, i0, j1), load(level, i1, j1), wx)
    return Self.lerp(top, bottom, wy)
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
