import Segue
import Testing

/// Pixel buffers: layout, fills, conversions with their rounding, and rejected sizes.
@Suite("PixelBuffer")
struct PixelBufferTests {
  /// 3×2 with stride 16 (4 bytes of padding per row): pixel (2, 1) starts at 1·16 + 4·2 = 24;
  /// the fill lands in the pixels only, the padding stays 0.
  @Test func layoutAndFill() throws {
    var b = try PixelBufferRGBA8(width: 3, height: 2, stride: 16, fill: SIMD4(1, 2, 3, 4))
    #expect(b.components.count == 32)
    #expect(b[2, 1] == SIMD4(1, 2, 3, 4))
    #expect(Array(b.components[12..<16]) == [0, 0, 0, 0])
    b[2, 1] = SIMD4(9, 8, 7, 6)
    #expect(Array(b.components[24..<28]) == [9, 8, 7, 6])
    let f = try PixelBufferRGBAFloat(width: 2, height: 2, fill: SIMD4(0.5, 0, 0, 0.5))
    #expect(f.stride == 8 && f[1, 1] == SIMD4(0.5, 0, 0, 0.5))
  }

  /// Float → RGBA8 is round(255·c) with ties away: 0.5 → 127.5 → 128; 0.2 → 51; clamped
  /// above 1 is impossible (the buffer rejects it), 0 → 0, 1 → 255. RGBA8 → Float is c/255.
  @Test func conversions() throws {
    let f = try PixelBufferRGBAFloat(width: 1, height: 1, components: [0.5, 0.2, 0, 1])
    #expect(PixelBufferRGBA8(f)[0, 0] == SIMD4(128, 51, 0, 255))
    let b = try PixelBufferRGBA8(width: 1, height: 1, components: [255, 51, 0, 128])
    #expect(PixelBufferRGBAFloat(b)[0, 0] == SIMD4<Float>(1, Float(51) / 255, 0, Float(128) / 255))
    #expect(PixelBufferRGBA8.quantise(.nan) == 0 && PixelBufferRGBA8.quantise(-1) == 0)
  }

  /// setPixel stores a finite in-range value.
  @Test func setPixelStores() throws {
    var f = try PixelBufferRGBAFloat(width: 2, height: 1)
    try f.setPixel(SIMD4(0.25, 0.5, 0.75, 1), x: 1, y: 0)
    #expect(f[1, 0] == SIMD4(0.25, 0.5, 0.75, 1) && f[0, 0] == .zero)
  }

  @Test func rejectsNegativeWidth() {
    let error = ValidationError(field: "width", reason: .outOfRange(lower: 0, upper: 16_777_216))
    #expect(throws: error) { try PixelBufferRGBA8(width: -1, height: 1) }
  }

  @Test func rejectsHugeHeight() {
    let error = ValidationError(field: "height", reason: .outOfRange(lower: 0, upper: 16_777_216))
    #expect(throws: error) { try PixelBufferRGBAFloat(width: 1, height: 1 << 25) }
  }

  @Test func rejectsShortStride() {
    let error = ValidationError(field: "stride", reason: .outOfRange(lower: 40, upper: 67_108_864))
    #expect(throws: error) { try PixelBufferRGBA8(width: 10, height: 1, stride: 39) }
  }

  @Test func rejectsTooManyComponents() {
    let error = ValidationError(
      field: "pixelCount", reason: .outOfRange(lower: 0, upper: 2_147_483_648))
    #expect(throws: error) { try PixelBufferRGBA8(width: 1 << 16, height: 1 << 16) }
  }

  @Test func rejectsComponentCountMismatch() {
    let error = ValidationError(field: "components", reason: .countMismatch(expected: 8, actual: 7))
    #expect(throws: error) {
      try PixelBufferRGBA8(width: 2, height: 1, components: [0, 0, 0, 0, 0, 0, 0])
    }
  }

  @Test func rejectsNaNFloatComponent() {
    let error = ValidationError(field: "components", index: 2, reason: .notFinite)
    #expect(throws: error) {
      try PixelBufferRGBAFloat(width: 1, height: 1, components: [0, 0, .nan, 0])
    }
  }

  @Test func rejectsFloatComponentAboveOne() {
    let error = ValidationError(
      field: "components", index: 3, reason: .outOfRange(lower: 0, upper: 1))
    #expect(throws: error) {
      try PixelBufferRGBAFloat(width: 1, height: 1, components: [0, 0, 0, 1.5])
    }
  }

  @Test func rejectsNegativeFill() {
    let error = ValidationError(field: "fill", index: 0, reason: .outOfRange(lower: 0, upper: 1))
    #expect(throws: error) {
      try PixelBufferRGBAFloat(width: 1, height: 1, fill: SIMD4(-0.5, 0, 0, 0))
    }
  }

  @Test func setPixelRejectsOutsideX() throws {
    var f = try PixelBufferRGBAFloat(width: 2, height: 1)
    #expect(throws: ValidationError(field: "x", reason: .outOfRange(lower: 0, upper: 1))) {
      try f.setPixel(.zero, x: 2, y: 0)
    }
  }

  @Test func setPixelRejectsOutsideY() throws {
    var f = try PixelBufferRGBAFloat(width: 2, height: 1)
    #expect(throws: ValidationError(field: "y", reason: .outOfRange(lower: 0, upper: 0))) {
      try f.setPixel(.zero, x: 0, y: -1)
    }
  }

  @Test func setPixelRejectsInfinity() throws {
    var f = try PixelBufferRGBAFloat(width: 1, height: 1)
    #expect(throws: ValidationError(field: "value", index: 1, reason: .notFinite)) {
      try f.setPixel(SIMD4(0, .infinity, 0, 0), x: 0, y: 0)
    }
  }
}
