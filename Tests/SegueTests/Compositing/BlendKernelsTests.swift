import PropertyBased
import Segue
import Testing

/// Builds a `width × height` RGBA8 buffer from a pixel function.
private func image(
  _ width: Int, _ height: Int, stride: Int? = nil, _ pixel: (Int, Int) -> SIMD4<UInt8>
) throws -> PixelBufferRGBA8 {
  var b = try PixelBufferRGBA8(width: width, height: height, stride: stride)
  for y in 0..<height {
    for x in 0..<width { b[x, y] = pixel(x, y) }
  }
  return b
}

/// The SIMD kernels against the scalar reference rules of `Blend`.
@Suite("BlendKernels")
struct BlendKernelsTests {
  /// Blinn's identity equals round(t/255) for every t in 0…65025. The reference is the
  /// integer form ⌊(2t + 255)/510⌋ = ⌊t/255 + ½⌋ (no ties occur: 2t = 255·odd is impossible).
  @Test func divideBy255IsExactEverywhere() {
    var mismatches = 0
    for t in 0...65025 where Int(BlendKernels.divideBy255(UInt16(t))) != (2 * t + 255) / 510 {
      mismatches += 1
    }
    #expect(mismatches == 0)
  }

  /// RGBA8 over, exhaustively: a 256×256 image whose red channel holds every (source, destination)
  /// byte pair (s_R = x, d_R = y), and whose other channels vary too, for every source-alpha
  /// pattern below and five opacities, against `Blend.overRGBA8` for every channel of every
  /// pixel. The source alphas cover fixed values (0, 1, 128, 255), valid premultiplied data
  /// (α = max(x, 255 − x), so R, G ≤ α) and arbitrary bytes (α = x ^ y, often below the
  /// colour, which exercises the saturation).
  @Test func overRGBA8MatchesReferenceOnAllBytePairs() throws {
    let alphas: [(Int, Int) -> UInt8] = [
      { _, _ in 0 }, { _, _ in 1 }, { _, _ in 128 }, { _, _ in 255 },
      { x, _ in UInt8(Swift.max(x, 255 - x)) }, { x, y in UInt8(x ^ y) },
    ]
    let destination = try image(256, 256) { x, y in
      SIMD4(UInt8(y), UInt8(x), UInt8(255 - y), UInt8(Swift.max(y, x)))
    }
    var mismatches = 0
    for alpha in alphas {
      let source = try image(256, 256) { x, y in
        SIMD4(UInt8(x), UInt8(255 - x), UInt8(y), alpha(x, y))
      }
      for opacity: Double in [1, 0.5, 0.3, 1 / 255, 0] {
        let o = try Blend.opacityByte(opacity)
        var result = destination
        try BlendKernels.overRGBA8(source, opacity: opacity, onto: &result)
        for y in 0..<256 {
          for x in 0..<256
          where result[x, y] != Blend.overRGBA8(source[x, y], onto: destination[x, y], opacity: o) {
            mismatches += 1
          }
        }
      }
    }
    #expect(mismatches == 0)
  }

  /// Every width from 1 to 37 (the 16-pixel main loop, the 4-pixel loop and tails of 1–3
  /// pixels), with row padding in both images: each pixel matches the reference and the
  /// padding bytes are untouched.
  @Test func overRGBA8HandlesTailsAndStride() throws {
    for width in 1...37 {
      let source = try image(width, 3, stride: 4 * width + 8) { x, y in
        let a = UInt8((x * 37 + y * 91) % 256)
        return SIMD4(a / 2, a / 3, a, a)
      }
      var destination = try image(width, 3, stride: 4 * width + 4) { x, y in
        SIMD4(UInt8((x * 13) % 256), UInt8(y * 50), 200, 255)
      }
      for y in 0..<3 {
        for k in 0..<4 { destination.components[y * destination.stride + 4 * width + k] = 0xAB }
      }
      let before = destination
      try BlendKernels.overRGBA8(source, opacity: 0.6, onto: &destination)
      let o = try Blend.opacityByte(0.6)
      for y in 0..<3 {
        for x in 0..<width {
          #expect(
            destination[x, y] == Blend.overRGBA8(source[x, y], onto: before[x, y], opacity: o))
        }
        for k in 0..<4 {
          #expect(destination.components[y * destination.stride + 4 * width + k] == 0xAB)
        }
      }
    }
  }

  /// The raw-pointer entry point gives the same result on caller-owned memory, also when the
  /// source and destination are the same bytes (x over x).
  @Test func overRGBA8OnCallerMemory() throws {
    let src: [UInt8] = [128, 0, 0, 128, 0, 0, 0, 0, 10, 20, 30, 40]
    var dst: [UInt8] = [0, 0, 255, 255, 1, 2, 3, 4, 100, 100, 100, 200]
    try src.withUnsafeBufferPointer { s throws(ValidationError) in
      try dst.withUnsafeMutableBufferPointer { d throws(ValidationError) in
        try BlendKernels.overRGBA8(source: s, destination: d, opacity: 255)
      }
    }
    // Pixel 0 by hand in BlendTests: (128, 0, 127, 255); pixel 1: a transparent source leaves
    // (1, 2, 3, 4); pixel 2: the reference.
    #expect(Array(dst[0..<8]) == [128, 0, 127, 255, 1, 2, 3, 4])
    let p2 = Blend.overRGBA8(SIMD4(10, 20, 30, 40), onto: SIMD4(100, 100, 100, 200), opacity: 255)
    #expect(Array(dst[8..<12]) == [p2[0], p2[1], p2[2], p2[3]])
    var same: [UInt8] = [64, 32, 16, 128]
    same.withUnsafeMutableBufferPointer { p in
      try? BlendKernels.overRGBA8(source: UnsafeBufferPointer(p), destination: p, opacity: 255)
    }
    let expected = Blend.overRGBA8(
      SIMD4(64, 32, 16, 128), onto: SIMD4(64, 32, 16, 128), opacity: 255)
    #expect(same == [expected[0], expected[1], expected[2], expected[3]])
  }

  /// Float over against the Double reference on random valid premultiplied pixels and opacities:
  /// within 1e-6 (single-precision rounding), and every output in [0, 1].
  @Test func overFloatMatchesReference() async {
    await propertyCheck(count: 200, input: Gen.double(in: 0...1).array(of: 9 * 5)) { v in
      var s: [Float] = []
      var d: [Float] = []
      for p in 0..<5 {
        let b = 9 * p
        s += [v[b] * v[b + 3], v[b + 1] * v[b + 3], v[b + 2] * v[b + 3], v[b + 3]].map { Float($0) }
        d += [v[b + 4] * v[b + 7], v[b + 5] * v[b + 7], v[b + 6] * v[b + 7], v[b + 7]].map {
          Float($0)
        }
      }
      let o = v[8]
      let source = try PixelBufferRGBAFloat(width: 5, height: 1, components: s)
      var destination = try PixelBufferRGBAFloat(width: 5, height: 1, components: d)
      try BlendKernels.overFloat(source, opacity: o, onto: &destination)
      for x in 0..<5 {
        let expected = try Blend.over(
          SIMD4<Double>(source[x, 0]), onto: SIMD4<Double>(SIMD4<Float>(d[(4 * x)..<(4 * x + 4)])),
          opacity: Double(Float(o)))
        for c in 0..<4 {
          #expect(abs(Double(destination[x, 0][c]) - expected[c]) <= 1e-6)
          #expect(destination[x, 0][c] >= 0 && destination[x, 0][c] <= 1)
        }
      }
    }
  }

  /// RGBA8 cross-dissolve over all 256×256 (from, to) byte pairs at several fractions, against
  /// `Blend.crossDissolveRGBA8` with k = round(256·q).
  @Test func crossDissolveRGBA8MatchesReferenceOnAllBytePairs() throws {
    let from = try image(256, 256) { x, y in SIMD4(UInt8(x), UInt8(y), UInt8(255 - x), 255) }
    let to = try image(256, 256) { x, y in SIMD4(UInt8(y), UInt8(x), UInt8(x ^ y), UInt8(x)) }
    var mismatches = 0
    for q: Double in [0, 0.25, 0.5, 0.3, 0.999, 1] {
      let k = try Blend.dissolveWeight(q)
      var result = try PixelBufferRGBA8(width: 256, height: 256)
      try BlendKernels.crossDissolveRGBA8(from, to, fraction: q, into: &result)
      for y in 0..<256 {
        for x in 0..<256
        where result[x, y] != Blend.crossDissolveRGBA8(from[x, y], to[x, y], weight: k) {
          mismatches += 1
        }
      }
    }
    #expect(mismatches == 0)
  }

  /// The cross-dissolve midpoint by hand: red and blue at q = 0.5 give (127.5, 0, 127.5, 255)
  /// rounded half up, (128, 0, 128, 255), for every pixel (5×3 exercises the 16-byte loop and
  /// the scalar tail). In Float: exactly (0.5, 0, 0.5, 1).
  @Test func crossDissolveMidpointRedBlue() throws {
    let red = try PixelBufferRGBA8(width: 5, height: 3, fill: SIMD4(255, 0, 0, 255))
    let blue = try PixelBufferRGBA8(width: 5, height: 3, fill: SIMD4(0, 0, 255, 255))
    var out = try PixelBufferRGBA8(width: 5, height: 3)
    try BlendKernels.crossDissolveRGBA8(red, blue, fraction: 0.5, into: &out)
    for y in 0..<3 {
      for x in 0..<5 { #expect(out[x, y] == SIMD4(128, 0, 128, 255)) }
    }
    let redF = PixelBufferRGBAFloat(red)
    let blueF = PixelBufferRGBAFloat(blue)
    var outF = try PixelBufferRGBAFloat(width: 5, height: 3)
    try BlendKernels.crossDissolveFloat(redF, blueF, fraction: 0.5, into: &outF)
    #expect(outF[4, 2] == SIMD4(0.5, 0, 0.5, 1))
    #expect(PixelBufferRGBA8(outF)[4, 2] == SIMD4(128, 0, 128, 255))
  }

  /// Float cross-dissolve against the Double reference on random pixels: within 1e-6.
  @Test func crossDissolveFloatMatchesReference() async {
    await propertyCheck(count: 200, input: Gen.double(in: 0...1).array(of: 9)) { v in
      let a = try PixelBufferRGBAFloat(width: 1, height: 1, components: v[0..<4].map { Float($0) })
      let b = try PixelBufferRGBAFloat(width: 1, height: 1, components: v[4..<8].map { Float($0) })
      var out = try PixelBufferRGBAFloat(width: 1, height: 1)
      try BlendKernels.crossDissolveFloat(a, b, fraction: v[8], into: &out)
      let expected = try Blend.crossDissolve(
        SIMD4<Double>(a[0, 0]), SIMD4<Double>(b[0, 0]), fraction: Double(Float(v[8])))
      for c in 0..<4 { #expect(abs(Double(out[0, 0][c]) - expected[c]) <= 1e-6) }
    }
  }

  // MARK: Rejected input

  @Test func overRejectsSizeMismatch() throws {
    let s = try PixelBufferRGBA8(width: 2, height: 2)
    var d = try PixelBufferRGBA8(width: 3, height: 2)
    #expect(
      throws: ValidationError(field: "source.width", reason: .countMismatch(expected: 3, actual: 2))
    ) { try BlendKernels.overRGBA8(s, onto: &d) }
  }

  @Test func overRejectsOpacityOutOfRange() throws {
    let s = try PixelBufferRGBA8(width: 1, height: 1)
    var d = s
    #expect(throws: ValidationError(field: "opacity", reason: .outOfRange(lower: 0, upper: 1))) {
      try BlendKernels.overRGBA8(s, opacity: 2, onto: &d)
    }
  }

  @Test func overFloatRejectsNaNOpacity() throws {
    let s = try PixelBufferRGBAFloat(width: 1, height: 1)
    var d = s
    #expect(throws: ValidationError(field: "opacity", reason: .notFinite)) {
      try BlendKernels.overFloat(s, opacity: .nan, onto: &d)
    }
  }

  @Test func overFloatRejectsHeightMismatch() throws {
    let s = try PixelBufferRGBAFloat(width: 1, height: 1)
    var d = try PixelBufferRGBAFloat(width: 1, height: 2)
    #expect(
      throws: ValidationError(
        field: "source.height", reason: .countMismatch(expected: 2, actual: 1))
    ) { try BlendKernels.overFloat(s, onto: &d) }
  }

  @Test func rawOverRejectsPartialPixel() {
    let s: [UInt8] = [1, 2, 3, 4, 5]
    var d: [UInt8] = [0, 0, 0, 0, 0]
    #expect(
      throws: ValidationError(field: "source", reason: .countMismatch(expected: 4, actual: 5))
    ) {
      try s.withUnsafeBufferPointer { sp throws(ValidationError) in
        try d.withUnsafeMutableBufferPointer { dp throws(ValidationError) in
          try BlendKernels.overRGBA8(source: sp, destination: dp, opacity: 255)
        }
      }
    }
  }

  @Test func rawOverRejectsCountMismatch() {
    let s: [UInt8] = [1, 2, 3, 4]
    var d: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0]
    #expect(
      throws: ValidationError(field: "destination", reason: .countMismatch(expected: 4, actual: 8))
    ) {
      try s.withUnsafeBufferPointer { sp throws(ValidationError) in
        try d.withUnsafeMutableBufferPointer { dp throws(ValidationError) in
          try BlendKernels.overRGBA8(source: sp, destination: dp, opacity: 255)
        }
      }
    }
  }

  @Test func crossDissolveRejectsFractionOutOfRange() throws {
    let a = try PixelBufferRGBA8(width: 1, height: 1)
    var d = a
    #expect(throws: ValidationError(field: "fraction", reason: .outOfRange(lower: 0, upper: 1))) {
      try BlendKernels.crossDissolveRGBA8(a, a, fraction: -0.5, into: &d)
    }
  }

  @Test func crossDissolveRejectsInputSizeMismatch() throws {
    let a = try PixelBufferRGBA8(width: 1, height: 1)
    let b = try PixelBufferRGBA8(width: 2, height: 1)
    var d = a
    #expect(
      throws: ValidationError(field: "to.width", reason: .countMismatch(expected: 1, actual: 2))
    ) {
      try BlendKernels.crossDissolveRGBA8(a, b, fraction: 0.5, into: &d)
    }
  }

  @Test func crossDissolveRejectsDestinationSizeMismatch() throws {
    let a = try PixelBufferRGBAFloat(width: 1, height: 1)
    var d = try PixelBufferRGBAFloat(width: 1, height: 3)
    #expect(
      throws: ValidationError(
        field: "destination.height", reason: .countMismatch(expected: 1, actual: 3))
    ) { try BlendKernels.crossDissolveFloat(a, a, fraction: 0.5, into: &d) }
  }
}
