import RealModule
import Segue
import Testing

@testable import SegueRender

/// An image from premultiplied pixels, row by row.
private func image(_ width: Int, _ height: Int, _ pixels: [SIMD4<UInt8>]) throws -> PixelBufferRGBA8
{
  try PixelBufferRGBA8(
    width: width, height: height, components: pixels.flatMap { [$0[0], $0[1], $0[2], $0[3]] })
}

private func gray(_ v: UInt8) -> SIMD4<UInt8> { SIMD4(v, v, v, 255) }

private func near(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Bool {
  ((a - b) * (a - b)).max() < 1e-24
}

private func footprint(_ rho: Double) -> TexelFootprint {
  TexelFootprint(alongX: SIMD2(rho, 0), alongY: SIMD2(0, rho))
}

@Suite("Mipmaps: box-filtered levels")
struct MipmapsTests {
  @Test("even sizes: the rounded mean of 2 × 2, down to 1 × 1")
  func even() throws {
    let m = Mipmaps(
      try image(
        4, 2, [gray(0), gray(10), gray(20), gray(31), gray(100), gray(110), gray(120), gray(130)]))
    #expect(m.levelCount == 3)
    // ⌊(0 + 10 + 100 + 110 + 2)/4⌋ = 55, ⌊(20 + 31 + 120 + 130 + 2)/4⌋ = 75.
    #expect(m.level(1) == (try image(2, 1, [gray(55), gray(75)])))
    #expect(m.level(2) == (try image(1, 1, [gray(65)])))
  }

  @Test("odd sizes: overlap-weighted boxes; premultiplied values averaged")
  func odd() throws {
    let m = Mipmaps(
      try image(5, 1, [gray(0), gray(50), gray(100), gray(150), SIMD4(200, 0, 0, 200)]))
    #expect(m.levelCount == 3)
    // Texel 0 covers [0, 2.5): 0.4·0 + 0.4·50 + 0.2·100 = 40; texel 1: 0.2·100 + 0.4·150 + 0.4·200 = 160 (red),
    // and 0.2·100 + 0.4·150 + 0.4·0 = 80 (green).
    let level1 = m.level(1)
    #expect(level1[0, 0] == gray(40))
    #expect(level1[1, 0] == SIMD4(160, 80, 80, 233))
    let square = Mipmaps(try image(3, 3, (0..<9).map { gray(UInt8($0 * 10)) }))
    #expect(square.levelCount == 2 && square.level(1)[0, 0] == gray(40))
  }
}

@Suite("ImageSampler: nearest, linear, trilinear")
struct ImageSamplerTests {
  let sampler = try! ImageSampler(
    Mipmaps(image(2, 2, [gray(0), gray(100), gray(200), SIMD4(0, 0, 0, 0)])))

  @Test("linear: exact texels at their centres, bilinear between, edges repeated")
  func linear() {
    let f = footprint(1)
    #expect(sampler.sample(at: Point(x: 0.5, y: 0.5), footprint: f) == SIMD4<Double>(0, 0, 0, 1))
    #expect(
      near(
        sampler.sample(at: Point(x: 1, y: 0.5), footprint: f), SIMD4<Double>(50, 50, 50, 255) / 255)
    )
    let centre = sampler.sample(at: Point(x: 1, y: 1), footprint: f)
    #expect(abs(centre.w - 0.75) < 1e-15 && abs(centre.x - 300.0 / 4 / 255) < 1e-15)
    #expect(sampler.sample(at: Point(x: -7, y: 0.2), footprint: f) == SIMD4<Double>(0, 0, 0, 1))
    #expect(sampler.sample(at: Point(x: 9, y: 9), footprint: f) == .zero)
  }

  @Test("nearest: the texel containing the point")
  func nearest() {
    var s = sampler
    s.magnificationFilter = .nearest
    #expect(
      s.sample(at: Point(x: 1.01, y: 0.99), footprint: footprint(0.5)) == SIMD4<Double>(
        100, 100, 100, 255)
        / 255)
    #expect(
      s.sample(at: Point(x: 0.99, y: 1.0), footprint: footprint(0.5)) == SIMD4<Double>(
        200, 200, 200, 255)
        / 255)
  }

  @Test("the footprint chooses: ρ ≤ 1 magnifies, ρ > 1 minifies")
  func choice() {
    var s = sampler
    s.minificationFilter = .nearest
    s.magnificationFilter = .linear
    let p = Point(x: 1.2, y: 0.5)
    #expect(s.sample(at: p, footprint: footprint(1)) != s.sample(at: p, footprint: footprint(1.01)))
    #expect(s.sample(at: p, footprint: footprint(1.01)) == SIMD4<Double>(100, 100, 100, 255) / 255)
    #expect(footprint(8).levelOfDetail == 3)
    #expect(
      abs(TexelFootprint(alongX: SIMD2(0, 0.5), alongY: SIMD2(3, 4)).levelOfDetail - Double.log2(5))
        < 1e-15)
  }

  @Test("trilinear: level ⌊λ⌋ and the next mixed by λ − ⌊λ⌋; magnifying it is linear")
  func trilinear() throws {
    let pixels = (0..<16).map { i in gray(UInt8((i % 4 + i / 4) % 2 == 0 ? 0 : 200)) }
    var s = ImageSampler(Mipmaps(try image(4, 4, pixels)), minificationFilter: .trilinear)
    let p = Point(x: 0.5, y: 1.5)  // the centre of texel (0, 1), 200
    // Level 1 of a 1-texel checkerboard is flat 100; level 2 too.
    #expect(s.sample(at: p, footprint: footprint(2)) == SIMD4<Double>(100, 100, 100, 255) / 255)
    #expect(s.sample(at: p, footprint: footprint(3)) == SIMD4<Double>(100, 100, 100, 255) / 255)
    #expect(s.sample(at: p, footprint: footprint(100)) == SIMD4<Double>(100, 100, 100, 255) / 255)
    s.minificationFilter = .linear
    #expect(s.sample(at: p, footprint: footprint(2)) == SIMD4<Double>(200, 200, 200, 255) / 255)
    s.magnificationFilter = .trilinear
    #expect(s.sample(at: p, footprint: footprint(0.5)) == SIMD4<Double>(200, 200, 200, 255) / 255)
    // Between levels 0 and 1 at λ = 0.5: halfway between 200 and 100.
    s.minificationFilter = .trilinear
    let half = s.sample(at: p, footprint: footprint(2.0.squareRoot()))
    #expect(abs(half.x * 255 - 150) < 1e-9)
  }

  @Test("an empty image samples transparent")
  func empty() throws {
    let s = ImageSampler(Mipmaps(try PixelBufferRGBA8(width: 0, height: 0)))
    #expect(s.sample(at: .zero, footprint: footprint(1)) == .zero)
    var out: [UInt8] = [1, 2, 3, 4]
    out.withUnsafeMutableBufferPointer {
      s.fill(
        ProjectiveSpan(x: 0, y: 0, dx: 1, dy: 0, rowDX: 0, rowDY: 1), count: 1,
        into: $0.baseAddress!)
    }
    #expect(out == [0, 0, 0, 0])
  }
}

@Suite("ImageSampler.fill: the Float runs against the Double reference")
struct ImageSpanSamplerTests {
  /// A `width × height` image whose texels all differ from their neighbours.
  static func makePattern(width: Int, height: Int) -> PixelBufferRGBA8 {
    var bytes: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let a = UInt8((x * 37 + y * 11) % 256)
        bytes += [UInt8((Int(a) * ((x * 7) % 11)) / 10), UInt8((Int(a) * (y % 5)) / 4), a / 2, a]
      }
    }
    return try! PixelBufferRGBA8(width: width, height: height, components: bytes)
  }

  static let pattern = makePattern(width: 20, height: 24)

  static let spans = [
    // Magnifying, affine, fractional offsets.
    ProjectiveSpan(x: -1.3, y: 3.7, dx: 0.37, dy: 0.05, rowDX: -0.05, rowDY: 0.37),
    // Minifying about 2.6×, rotated.
    ProjectiveSpan(x: 2.2, y: -0.4, dx: 2.4, dy: 1.0, rowDX: -1.0, rowDY: 2.4),
    // Perspective: the footprint grows along the run.
    ProjectiveSpan(
      x: 0.5, y: 5, w: 1, dx: 0.9, dy: 0.2, dw: -0.006, rowDX: 0, rowDY: 1, rowDW: 0.001),
  ]

  @Test(
    "within 2/255 for every filter pair",
    arguments: [
      (ContentsFilter.linear, ContentsFilter.linear), (.nearest, .nearest), (.trilinear, .linear),
      (.trilinear, .nearest), (.nearest, .trilinear),
    ])
  func matchesReference(minification: ContentsFilter, magnification: ContentsFilter) {
    let sampler = ImageSampler(
      Mipmaps(Self.pattern), minificationFilter: minification, magnificationFilter: magnification)
    for span in Self.spans {
      let count = 60
      var out = [UInt8](repeating: 0, count: 4 * count)
      out.withUnsafeMutableBufferPointer { sampler.fill(span, count: count, into: $0.baseAddress!) }
      for k in 0..<count {
        let (x, y) = span.point(k)
        let j = span.jacobian(k)
        let f = TexelFootprint(
          alongX: SIMD2(j.alongRun.x, j.alongRun.y), alongY: SIMD2(j.acrossRows.x, j.acrossRows.y))
        // Nearest is discontinuous: skip points within 1e-3 texel of a texel edge.
        if minification == .nearest || magnification == .nearest {
          let fx = x - x.rounded(.down)
          let fy = y - y.rounded(.down)
          if Swift.min(fx, 1 - fx, fy, 1 - fy) < 1e-3 { continue }
        }
        // Trilinear is continuous in λ, but the fast λ is approximate: allow its slope.
        let lod = f.levelOfDetail
        let tolerance = minification == .trilinear && lod > 0 ? 4.0 : 2.0
        let reference = sampler.sample(at: Point(x: x, y: y), footprint: f) * 255
        for c in 0..<4 {
          #expect(
            abs(Double(out[4 * k + c]) - reference[c]) <= tolerance,
            "span pixel \(k) channel \(c): \(out[4 * k + c]) vs \(reference[c])")
        }
      }
    }
  }

  /// The documented `Float` arithmetic of a linear run, one pixel at a time: `r = 1/(w + k·dw)`,
  /// the texel point scaled and moved by −½, `round(256·v)` split into texel and fraction, the
  /// four texels (edges repeated) mixed per byte as `(a·(256 − f) + b·f + 128) >> 8`.
  static func linearPixel(_ image: PixelBufferRGBA8, _ span: ProjectiveSpan, _ k: Int) -> [UInt8] {
    let kf = Float(k)
    let inverse = 1 / (Float(span.w) + kf * Float(span.dw))
    let s = (Float(span.x) + kf * Float(span.dx)) * inverse
    let t = (Float(span.y) + kf * Float(span.dy)) * inverse
    func split(_ v: Float) -> (Int, Int) {
      let n = Int((Swift.min(Swift.max(v, -16_000), 16_000) * 256).rounded(.toNearestOrEven))
      return (n >> 8, n & 255)
    }
    let (xi, fx) = split(s - 0.5)
    let (yi, fy) = split(t - 0.5)
    func texel(_ i: Int, _ j: Int, _ c: Int) -> Int {
      let x = Swift.min(Swift.max(i, 0), image.width - 1)
      let y = Swift.min(Swift.max(j, 0), image.height - 1)
      return Int(image.components[y * image.stride + 4 * x + c])
    }
    func mix(_ a: Int, _ b: Int, _ f: Int) -> Int { (a * (256 - f) + b * f + 128) >> 8 }
    return (0..<4).map { c in
      let top = mix(texel(xi, yi, c), texel(xi + 1, yi, c), fx)
      let bottom = mix(texel(xi, yi + 1, c), texel(xi + 1, yi + 1, c), fx)
      return UInt8(mix(top, bottom, fy))
    }
  }

  @Test("linear runs are the documented fixed-point arithmetic, bit for bit, on every path")
  func linearBitExact() {
    let sampler = ImageSampler(Mipmaps(Self.pattern))
    let spans =
      Self.spans + [
        // Beyond the edges on every side (clamped texels), and a steep perspective.
        ProjectiveSpan(x: -30.2, y: -6.1, dx: 1.3, dy: 0.9, rowDX: 0, rowDY: 1),
        ProjectiveSpan(x: 3, y: 2, w: 0.5, dx: 0.4, dy: 0.45, dw: 0.02, rowDX: 0, rowDY: 1),
      ]
    for span in spans {
      for count in [1, 7, 8, 15, 16, 17, 61] {
        var out = [UInt8](repeating: 0, count: 4 * count)
        out.withUnsafeMutableBufferPointer {
          sampler.fill(span, count: count, into: $0.baseAddress!)
        }
        for k in 0..<count {
          #expect(
            Array(out[(4 * k)..<(4 * k + 4)]) == Self.linearPixel(Self.pattern, span, k),
            "pixel \(k) of \(count)")
        }
      }
    }
  }

  /// A 40 × 36 image (levels 20 × 18, 10 × 9, …), so that steps of 16 pixels cross texel
  /// windows and mip levels.
  static let largePattern = makePattern(width: 40, height: 36)

  @Test(
    "every vector path gives the Swift kernel's bytes",
    arguments: [
      (ContentsFilter.linear, ContentsFilter.linear), (.trilinear, .linear),
      (.trilinear, .trilinear), (.linear, .trilinear),
    ])
  func pathsAgree(minification: ContentsFilter, magnification: ContentsFilter) {
    let sampler = ImageSampler(
      Mipmaps(Self.largePattern), minificationFilter: minification,
      magnificationFilter: magnification)
    let spans =
      Self.spans + [
        // A perspective turn: rows change along the run; then a steep minifying one.
        ProjectiveSpan(
          x: 1.5, y: 3, w: 1.2, dx: 0.8, dy: 0.3, dw: -0.01, rowDX: 0.1, rowDY: 0.9, rowDW: 0.002),
        ProjectiveSpan(
          x: -3, y: 30, w: 1, dx: 2.9, dy: -1.1, dw: 0.004, rowDX: 1, rowDY: 2.5, rowDW: 0),
        ProjectiveSpan(x: -30.2, y: -6.1, dx: 1.3, dy: 0.9, rowDX: 0, rowDY: 1),
      ]
    func run(_ span: ProjectiveSpan, _ lanes: Int, _ count: Int) -> [UInt8] {
      var out = [UInt8](repeating: 0, count: 4 * count)
      out.withUnsafeMutableBufferPointer {
        sampler.fill(span, count: count, into: $0.baseAddress!, vectorLanes: lanes)
      }
      return out
    }
    for span in spans {
      for count in [5, 16, 77] {
        let swift = run(span, .max, count)
        for lanes in [16, 8] {
          let byte = zip(run(span, lanes, count), swift).enumerated()
            .first { $0.element.0 != $0.element.1 }?.offset
          #expect(
            byte == nil,
            "\(lanes) lanes, \(count) pixels: pixel \((byte ?? 0) / 4) differs, \(span)")
        }
      }
    }
  }

  @Test("images wider than the fixed-point range take the checked path, to the same values")
  func wideImage() throws {
    let width = 16_001
    var bytes: [UInt8] = []
    for y in 0..<2 {
      for x in 0..<width { bytes += [UInt8(x % 251), UInt8((x / 7) % 256), UInt8(y * 100), 255] }
    }
    let sampler = ImageSampler(
      Mipmaps(try PixelBufferRGBA8(width: width, height: 2, components: bytes)))
    let span = ProjectiveSpan(x: 15_990.3, y: 0.8, dx: 0.61, dy: 0.01, rowDX: 0, rowDY: 1)
    var out = [UInt8](repeating: 0, count: 4 * 20)
    out.withUnsafeMutableBufferPointer { sampler.fill(span, count: 20, into: $0.baseAddress!) }
    for k in 0..<20 {
      let (x, y) = span.point(k)
      let reference = sampler.sample(at: Point(x: x, y: y), footprint: footprint(0.61)) * 255
      for c in 0..<4 { #expect(abs(Double(out[4 * k + c]) - reference[c]) <= 2) }
    }
  }
}
