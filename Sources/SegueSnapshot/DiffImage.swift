import Segue

/// The picture of a failed image comparison: the new image faded to a light grey, with every
/// pixel that does not match the snapshot in ``failingColor``, every pixel that differs but
/// matches under the tolerance in ``toleratedColor``, and, when the sizes differ, the part that
/// only one of the images covers in ``failingColor``.
public enum DiffImage {
  /// Pixels that do not match (opaque red).
  public static let failingColor: SIMD4<UInt8> = [255, 0, 0, 255]
  /// Pixels that differ within the tolerance (opaque orange).
  public static let toleratedColor: SIMD4<UInt8> = [255, 170, 0, 255]

  /// The faded grey of a pixel: its luminance over white (Rec. 709 weights), moved three
  /// quarters of the way to white.
  static func faded(_ p: UnsafePointer<UInt8>) -> UInt8 {
    // Over white: c + (255 − a) per channel; luminance ≈ (54 R + 183 G + 19 B) / 256.
    let lift = Int(255 - p[3])
    let r = Int(p[0]) + lift
    let g = Int(p[1]) + lift
    let b = Int(p[2]) + lift
    let luminance = (54 * r + 183 * g + 19 * b) >> 8
    return UInt8(255 - (255 - luminance) / 4)
  }

  /// The diff of `actual` against the snapshot `expected` under `tolerance`: the size of the
  /// larger of the two in each direction.
  ///
  /// - Throws: the size errors of ``/Segue/PixelBufferRGBA8/init(width:height:stride:fill:)``.
  public static func make(
    expected: PixelBufferRGBA8, actual: PixelBufferRGBA8, tolerance: ImageTolerance
  ) throws(ValidationError) -> PixelBufferRGBA8 {
    let width = Swift.max(expected.width, actual.width)
    let height = Swift.max(expected.height, actual.height)
    var out = try PixelBufferRGBA8(width: width, height: height, fill: failingColor)
    let shared = (
      width: Swift.min(expected.width, actual.width),
      height: Swift.min(expected.height, actual.height)
    )
    let sameSize = expected.width == actual.width && expected.height == actual.height
    expected.components.withUnsafeBufferPointer { e in
      actual.components.withUnsafeBufferPointer { a in
        out.components.withUnsafeMutableBufferPointer { o in
          for y in 0..<shared.height {
            for x in 0..<shared.width {
              let pe = e.baseAddress! + y * expected.stride + 4 * x
              let pa = a.baseAddress! + y * actual.stride + 4 * x
              let po = o.baseAddress! + y * width * 4 + 4 * x
              let equal = (0..<4).allSatisfy { pe[$0] == pa[$0] }
              var colour: SIMD4<UInt8>
              if equal {
                let grey = faded(pa)
                colour = [grey, grey, grey, 255]
              } else if sameSize && tolerance.pixelMatches(deltaE: ImageTolerance.deltaE(pe, pa)) {
                colour = toleratedColor
              } else {
                colour = failingColor
              }
              for c in 0..<4 { po[c] = colour[c] }
            }
          }
        }
      }
    }
    return out
  }
}
