/// An 8-bit RGBA image with **premultiplied** alpha, rows top to bottom (y-down), as a
/// `CGBitmapContext` with `premultipliedLast` and 8 bits per component.
///
/// Pixel `(x, y)` starts at component `y·stride + 4·x` of ``components`` and holds
/// `R, G, B, A` in that order (byte `c` means `c/255`). Premultiplied means each colour byte is the
/// straight colour times alpha, so a valid pixel has `R, G, B ≤ A`; the blend kernels accept any
/// bytes and saturate at 255, but only valid pixels keep their meaning. Components in the padding
/// between `4·width` and `stride` are never read or written by the kernels.
///
/// The buffer is a value owned by the caller (copy-on-write storage); kernels read it and write
/// their result into a caller-provided destination, so no image memory is allocated per call.
public struct PixelBufferRGBA8: Hashable, Sendable {
  /// Width in pixels, `≥ 0`.
  public let width: Int
  /// Height in pixels, `≥ 0`.
  public let height: Int
  /// Components (bytes) from the start of one row to the next, `≥ 4·width`.
  public let stride: Int
  /// The components, `stride·height` bytes: `R, G, B, A` per pixel, premultiplied.
  public var components: [UInt8]

  /// Creates a buffer filled with `fill` (default transparent black, all zeros).
  ///
  /// - Parameters:
  ///   - width: pixels per row, `0…2²⁴`.
  ///   - height: rows, `0…2²⁴`.
  ///   - stride: components per row, `≥ 4·width` (default `4·width`, no padding).
  ///   - fill: the premultiplied pixel `(R, G, B, A)` to fill with.
  /// - Throws: ``ValidationError`` ``ValidationError/Reason/outOfRange(lower:upper:)`` naming
  ///   `width` or `height` outside `[0, 2²⁴]`, `stride` below `4·width` or above `2²⁶`, and
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` naming `pixelCount` when
  ///   `stride·height` exceeds `2³¹` components.
  public init(
    width: Int, height: Int, stride: Int? = nil, fill: SIMD4<UInt8> = .zero
  ) throws(ValidationError) {
    let stride = stride ?? 4 * Swift.max(width, 0)
    try PixelBufferLimits.check(width: width, height: height, stride: stride)
    self.width = width
    self.height = height
    self.stride = stride
    var data = [UInt8](repeating: 0, count: stride * height)
    if fill != .zero {
      for y in 0..<height {
        for x in 0..<width {
          let i = y * stride + 4 * x
          data[i] = fill[0]
          data[i + 1] = fill[1]
          data[i + 2] = fill[2]
          data[i + 3] = fill[3]
        }
      }
    }
    components = data
  }

  /// Wraps existing components (premultiplied `R, G, B, A` bytes, `stride` per row).
  ///
  /// - Throws: ``ValidationError`` as ``init(width:height:stride:fill:)`` for the sizes, and
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` naming `components` unless it
  ///   has exactly `stride·height` entries.
  public init(width: Int, height: Int, stride: Int? = nil, components: [UInt8])
    throws(ValidationError)
  {
    let stride = stride ?? 4 * Swift.max(width, 0)
    try PixelBufferLimits.check(
      width: width, height: height, stride: stride, componentCount: components.count)
    self.width = width
    self.height = height
    self.stride = stride
    self.components = components
  }

  /// Quantises a Float image: each premultiplied component `c` becomes
  /// `round(255·clamp(c, 0, 1))` with ties away from zero (so `0.5` → 128); NaN becomes 0.
  /// The new buffer has the same size and `stride = 4·width`.
  public init(_ image: PixelBufferRGBAFloat) {
    width = image.width
    height = image.height
    stride = 4 * image.width
    var data = [UInt8](repeating: 0, count: 4 * width * height)
    for y in 0..<height {
      for i in 0..<(4 * width) {
        data[y * stride + i] = PixelBufferRGBA8.quantise(image.components[y * image.stride + i])
      }
    }
    components = data
  }

  /// `round(255·clamp(value, 0, 1))`, ties away from zero; NaN gives 0.
  @inlinable
  public static func quantise(_ value: Float) -> UInt8 {
    guard value > 0 else { return 0 }
    guard value < 1 else { return 255 }
    return UInt8((Double(value) * 255).rounded(.toNearestOrAwayFromZero))
  }

  /// The premultiplied pixel at `(x, y)` as `(R, G, B, A)`; `x` in `0..<width`, `y` in
  /// `0..<height` (traps otherwise, like an array index).
  @inlinable
  public subscript(x: Int, y: Int) -> SIMD4<UInt8> {
    get {
      precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel index out of range")
      let i = y * stride + 4 * x
      return SIMD4(components[i], components[i + 1], components[i + 2], components[i + 3])
    }
    set {
      precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel index out of range")
      let i = y * stride + 4 * x
      components[i] = newValue[0]
      components[i + 1] = newValue[1]
      components[i + 2] = newValue[2]
      components[i + 3] = newValue[3]
    }
  }

  /// Throws ``ValidationError/Reason/countMismatch(expected:actual:)`` naming `field` ("width"
  /// first, then "height") unless `other` has the same width and height as this buffer.
  public func checkSameSize(as other: PixelBufferRGBA8, _ field: String) throws(ValidationError) {
    try PixelBufferLimits.checkSameSize(width, height, other.width, other.height, field)
  }
}

/// A floating-point RGBA image with **premultiplied** alpha, one `Float` per component, rows top to
/// bottom (y-down).
///
/// Pixel `(x, y)` starts at component `y·stride + 4·x` of ``components`` and holds `R, G, B, A`,
/// unitless fractions. Every component is kept in `[0, 1]`: the initialisers and
/// ``setPixel(_:x:y:)`` reject anything else, and every kernel clamps what it writes, so no
/// kernel can read NaN, infinity or a runaway value. (Premultiplied: a valid pixel also has
/// `R, G, B ≤ A`; the kernels do not require it.)
public struct PixelBufferRGBAFloat: Hashable, Sendable {
  /// Width in pixels, `≥ 0`.
  public let width: Int
  /// Height in pixels, `≥ 0`.
  public let height: Int
  /// Components (Floats) from the start of one row to the next, `≥ 4·width`.
  public let stride: Int
  /// The components, `stride·height` Floats: `R, G, B, A` per pixel, premultiplied. Read-only
  /// outside the library so that every Float a kernel reads is finite; write pixels with
  /// ``setPixel(_:x:y:)``.
  public package(set) var components: [Float]

  /// Creates a buffer filled with the premultiplied pixel `fill` (default transparent black).
  ///
  /// - Throws: ``ValidationError`` as ``PixelBufferRGBA8/init(width:height:stride:fill:)``, and
  ///   ``ValidationError/Reason/notFinite`` or ``ValidationError/Reason/outOfRange(lower:upper:)``
  ///   naming `fill` (with the component index) when a component of `fill` is NaN, infinite or
  ///   outside `[0, 1]`.
  public init(
    width: Int, height: Int, stride: Int? = nil, fill: SIMD4<Float> = .zero
  ) throws(ValidationError) {
    let stride = stride ?? 4 * Swift.max(width, 0)
    try PixelBufferLimits.check(width: width, height: height, stride: stride)
    for c in 0..<4 { try PixelBufferRGBAFloat.checkComponent(fill[c], "fill", index: c) }
    self.width = width
    self.height = height
    self.stride = stride
    var data = [Float](repeating: 0, count: stride * height)
    if fill != .zero {
      for y in 0..<height {
        for x in 0..<width {
          for c in 0..<4 { data[y * stride + 4 * x + c] = fill[c] }
        }
      }
    }
    components = data
  }

  /// Wraps existing premultiplied components.
  ///
  /// - Throws: ``ValidationError`` for the sizes as ``init(width:height:stride:fill:)``,
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` naming `components` unless it
  ///   has `stride·height` entries, and ``ValidationError/Reason/notFinite`` or
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` naming `components` with the index of
  ///   the first entry (inside a row's `4·width` pixels) that is NaN, infinite or outside
  ///   `[0, 1]`. Padding entries are not checked and never read.
  public init(width: Int, height: Int, stride: Int? = nil, components: [Float])
    throws(ValidationError)
  {
    let stride = stride ?? 4 * Swift.max(width, 0)
    try PixelBufferLimits.check(
      width: width, height: height, stride: stride, componentCount: components.count)
    for y in 0..<height {
      for i in (y * stride)..<(y * stride + 4 * width) {
        try PixelBufferRGBAFloat.checkComponent(components[i], "components", index: i)
      }
    }
    self.width = width
    self.height = height
    self.stride = stride
    self.components = components
  }

  /// Converts an 8-bit image exactly: component `c` becomes `Float(c)/255`; `stride = 4·width`.
  public init(_ image: PixelBufferRGBA8) {
    width = image.width
    height = image.height
    stride = 4 * image.width
    var data = [Float](repeating: 0, count: 4 * width * height)
    for y in 0..<height {
      for i in 0..<(4 * width) {
        data[y * stride + i] = Float(image.components[y * image.stride + i]) / 255
      }
    }
    components = data
  }

  /// The premultiplied pixel at `(x, y)`; `x` in `0..<width`, `y` in `0..<height` (traps
  /// otherwise, like an array index).
  @inlinable
  public subscript(x: Int, y: Int) -> SIMD4<Float> {
    precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel index out of range")
    let i = y * stride + 4 * x
    return SIMD4(components[i], components[i + 1], components[i + 2], components[i + 3])
  }

  /// Stores the premultiplied pixel `value` at `(x, y)`.
  ///
  /// - Throws: ``ValidationError/Reason/outOfRange(lower:upper:)`` naming `x` or `y` outside the
  ///   image, and ``ValidationError/Reason/notFinite`` or
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` naming `value` (with the component
  ///   index) for a component that is NaN, infinite or outside `[0, 1]`.
  public mutating func setPixel(_ value: SIMD4<Float>, x: Int, y: Int) throws(ValidationError) {
    guard x >= 0 && x < width else {
      throw ValidationError(field: "x", reason: .outOfRange(lower: 0, upper: Double(width - 1)))
    }
    guard y >= 0 && y < height else {
      throw ValidationError(field: "y", reason: .outOfRange(lower: 0, upper: Double(height - 1)))
    }
    for c in 0..<4 { try PixelBufferRGBAFloat.checkComponent(value[c], "value", index: c) }
    let i = y * stride + 4 * x
    for c in 0..<4 { components[i + c] = value[c] }
  }

  /// Throws unless `value` is finite and in `[0, 1]`.
  static func checkComponent(_ value: Float, _ field: String, index: Int) throws(ValidationError) {
    guard value.isFinite else {
      throw ValidationError(field: field, index: index, reason: .notFinite)
    }
    guard value >= 0 && value <= 1 else {
      throw ValidationError(field: field, index: index, reason: .outOfRange(lower: 0, upper: 1))
    }
  }

  /// Throws ``ValidationError/Reason/countMismatch(expected:actual:)`` naming `field` unless
  /// `other` has the same width and height as this buffer.
  public func checkSameSize(as other: PixelBufferRGBAFloat, _ field: String)
    throws(ValidationError)
  {
    try PixelBufferLimits.checkSameSize(width, height, other.width, other.height, field)
  }
}

/// Size limits shared by both buffer types.
package enum PixelBufferLimits {
  /// Largest width or height, 2²⁴ pixels.
  package static let maximumSide = 1 << 24
  /// Largest stride, 2²⁶ components.
  package static let maximumStride = 1 << 26
  /// Largest `stride·height`, 2³¹ components.
  package static let maximumCount = 1 << 31

  /// The size checks of ``check(width:height:stride:)``, then that wrapped components hold
  /// exactly `stride·height` entries (`.countMismatch` naming `components`).
  package static func check(width: Int, height: Int, stride: Int, componentCount: Int)
    throws(ValidationError)
  {
    try check(width: width, height: height, stride: stride)
    guard componentCount == stride * height else {
      throw ValidationError(
        field: "components",
        reason: .countMismatch(expected: stride * height, actual: componentCount))
    }
  }

  package static func check(width: Int, height: Int, stride: Int) throws(ValidationError) {
    guard width >= 0 && width <= maximumSide else {
      throw ValidationError(
        field: "width", reason: .outOfRange(lower: 0, upper: Double(maximumSide)))
    }
    guard height >= 0 && height <= maximumSide else {
      throw ValidationError(
        field: "height", reason: .outOfRange(lower: 0, upper: Double(maximumSide)))
    }
    guard stride >= 4 * width && stride <= maximumStride else {
      throw ValidationError(
        field: "stride",
        reason: .outOfRange(lower: Double(4 * width), upper: Double(maximumStride)))
    }
    guard stride * height <= maximumCount else {
      throw ValidationError(
        field: "pixelCount", reason: .outOfRange(lower: 0, upper: Double(maximumCount)))
    }
  }

  package static func checkSameSize(
    _ width: Int, _ height: Int, _ otherWidth: Int, _ otherHeight: Int, _ field: String
  ) throws(ValidationError) {
    guard otherWidth == width else {
      throw ValidationError(
        field: "\(field).width", reason: .countMismatch(expected: width, actual: otherWidth))
    }
    guard otherHeight == height else {
      throw ValidationError(
        field: "\(field).height", reason: .countMismatch(expected: height, actual: otherHeight))
    }
  }
}
