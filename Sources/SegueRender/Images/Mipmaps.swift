import Segue

/// An image with its mipmap levels for trilinear sampling: level 0 is the image, level `k + 1`
/// is `max(1, ⌊w/2⌋) × max(1, ⌊h/2⌋)` of level `k`, down to 1 × 1.
///
/// Each texel of a level is the **box filter** of the texels of the level above it that its
/// square covers: texel `i` of a level `w′` wide covers `[i·w/w′, (i + 1)·w/w′)` of the `w`
/// texels above, weighted by overlap (for even sizes the plain mean of 2 × 2), on premultiplied
/// values (so transparent texels do not darken their neighbours), rounded to nearest. All levels
/// are kept packed in one buffer (`4·w·h` bytes each, 4/3 of the image in all).
public struct Mipmaps: Hashable, Sendable {
  /// Every level's premultiplied `R, G, B, A` bytes, level 0 first, rows packed.
  let storage: [UInt8]
  /// The byte offset of each level in ``storage``.
  let offsets: [Int]
  /// Each level's width and height.
  let sizes: [SIMD2<Int>]
  /// Each level's geometry for the span kernel.
  let levelGeometry: [LevelGeometry]

  /// Where a level is and how big, for the span kernel.
  struct LevelGeometry: Hashable, Sendable {
    /// Byte offset in the storage.
    var offset: Int
    /// Width and height in texels.
    var width: Int
    var height: Int
    /// The level's size over level 0's, along x and y.
    var scaleX: Float
    var scaleY: Float
  }

  /// The levels of `image`.
  public init(_ image: PixelBufferRGBA8) {
    var current = Self.packed(image)
    var size = SIMD2(image.width, image.height)
    var storage = current
    var offsets = [0]
    var sizes = [size]
    while size.x > 1 || size.y > 1 {
      let next = SIMD2(Swift.max(1, size.x / 2), Swift.max(1, size.y / 2))
      current = Self.halved(current, size, next)
      offsets.append(storage.count)
      storage += current
      sizes.append(next)
      size = next
    }
    self.storage = storage
    self.offsets = offsets
    self.sizes = sizes
    let baseWidth = Float(Swift.max(sizes[0].x, 1))
    let baseHeight = Float(Swift.max(sizes[0].y, 1))
    levelGeometry = zip(offsets, sizes).map { offset, size in
      LevelGeometry(
        offset: offset, width: size.x, height: size.y, scaleX: Float(size.x) / baseWidth,
        scaleY: Float(size.y) / baseHeight)
    }
  }

  /// How many levels there are (`1 + ⌊log₂ max(w, h)⌋`; 1 for an empty image).
  public var levelCount: Int { sizes.count }

  /// Level `k` (`0..<levelCount`) as a pixel buffer.
  public func level(_ k: Int) -> PixelBufferRGBA8 {
    let size = sizes[k]
    let bytes = Array(storage[offsets[k]..<(offsets[k] + 4 * size.x * size.y)])
    return try! PixelBufferRGBA8(width: size.x, height: size.y, components: bytes)
  }

  /// Texel `(i, j)` of level `k` as `(R, G, B, A)`.
  @inline(__always)
  func texel(_ k: Int, _ i: Int, _ j: Int) -> SIMD4<UInt8> {
    let at = offsets[k] + 4 * (j * sizes[k].x + i)
    return SIMD4(storage[at], storage[at + 1], storage[at + 2], storage[at + 3])
  }

  /// The image's rows without padding.
  static func packed(_ image: PixelBufferRGBA8) -> [UInt8] {
    let rowBytes = 4 * image.width
    if image.stride == rowBytes { return image.components }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(rowBytes * image.height)
    for y in 0..<image.height {
      bytes += image.components[(y * image.stride)..<(y * image.stride + rowBytes)]
    }
    return bytes
  }

  /// The next level (`to`) of the packed level `pixels` (`from`).
  static func halved(_ pixels: [UInt8], _ from: SIMD2<Int>, _ to: SIMD2<Int>) -> [UInt8] {
    if from == 2 &* to { return evenHalved(pixels, from, to) }
    let xs = boxWeights(from: from.x, to: to.x)
    let ys = boxWeights(from: from.y, to: to.y)
    var rows = [Float](repeating: 0, count: 4 * to.x * from.y)
    for y in 0..<from.y {
      for x in 0..<to.x {
        for (i, weight) in xs[x] {
          for c in 0..<4 {
            rows[4 * (y * to.x + x) + c] += weight * Float(pixels[4 * (y * from.x + i) + c])
          }
        }
      }
    }
    var out = [UInt8](repeating: 0, count: 4 * to.x * to.y)
    for y in 0..<to.y {
      for i in 0..<(4 * to.x) {
        var sum: Float = 0
        for (j, weight) in ys[y] { sum += weight * rows[4 * j * to.x + i] }
        out[4 * to.x * y + i] = UInt8(Swift.min(Swift.max(sum, 0), 255).rounded())
      }
    }
    return out
  }

  /// The plain 2 × 2 mean, `⌊(a + b + c + d + 2) / 4⌋`.
  static func evenHalved(_ pixels: [UInt8], _ from: SIMD2<Int>, _ to: SIMD2<Int>) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 4 * to.x * to.y)
    let stride = 4 * from.x
    pixels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        for y in 0..<to.y {
          let row0 = 2 * y * stride
          let row1 = row0 + stride
          for i in 0..<(4 * to.x) {
            let x = 8 * (i >> 2) + (i & 3)
            let sum =
              UInt16(src[row0 + x]) + UInt16(src[row0 + x + 4]) + UInt16(src[row1 + x])
              + UInt16(src[row1 + x + 4])
            dst[4 * to.x * y + i] = UInt8((sum + 2) >> 2)
          }
        }
      }
    }
    return out
  }

  /// For each of `n` output texels, the input texels of `m` it covers and their weights
  /// (overlap over `m/n`).
  static func boxWeights(from m: Int, to n: Int) -> [[(Int, Float)]] {
    let ratio = Double(m) / Double(n)
    return (0..<n).map { i in
      let lo = Double(i) * ratio
      let hi = Double(i + 1) * ratio
      return (Int(lo)..<Swift.min(Int(hi.rounded(.up)), m)).compactMap { j in
        let overlap = Swift.min(hi, Double(j + 1)) - Swift.max(lo, Double(j))
        return overlap > 0 ? (j, Float(overlap / ratio)) : nil
      }
    }
  }
}
