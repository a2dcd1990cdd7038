import Segue

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How closely an image must match its snapshot, as swift-snapshot-testing's image strategies
/// define it.
///
/// A pixel **matches** when its bytes are equal, or, with ``perceptualPrecision`` below 1, when
/// its colour difference is at most `(1 − perceptualPrecision)·100` CIEDE2000 units
/// (``LabColor/deltaE2000(_:_:)``, sRGB colours in CIELAB; 98–99 % is about what an eye
/// tells apart). A pixel that is not opaque is compared over white and over black, and the
/// larger difference counts. The image matches when the share of matching pixels is at least
/// ``precision``. Images of different sizes never match.
public struct ImageTolerance: Hashable, Sendable {
  /// The share of pixels that must match, in `[0, 1]` (1: every pixel).
  public var precision: Double
  /// How much a pixel's colour may differ and still match, in `[0, 1]` (1: not at all).
  public var perceptualPrecision: Double

  /// An exact match (both 1).
  public static let exact = ImageTolerance()

  /// A tolerance; the defaults demand an exact match.
  public init(precision: Double = 1, perceptualPrecision: Double = 1) {
    self.precision = precision
    self.perceptualPrecision = perceptualPrecision
  }

  /// Throws ``/Segue/ValidationError`` naming `precision` or `perceptualPrecision` when it is
  /// not a number in `[0, 1]`.
  public func validate() throws(ValidationError) {
    try Validate.inRange(precision, 0, 1, "precision")
    try Validate.inRange(perceptualPrecision, 0, 1, "perceptualPrecision")
  }

  /// The largest CIEDE2000 difference of a matching pixel, `(1 − perceptualPrecision)·100`
  /// (`-1` for an exact tolerance: only equal bytes match).
  var deltaEThreshold: Double { perceptualPrecision >= 1 ? -1 : (1 - perceptualPrecision) * 100 }

  /// Compares `actual` with the snapshot `expected` (both premultiplied RGBA8).
  ///
  /// Rows whose bytes are equal are passed over with `memcmp`; only the pixels of other rows are
  /// looked at one by one, and a colour difference is computed only for pixels whose bytes
  /// differ.
  public func compare(_ expected: PixelBufferRGBA8, _ actual: PixelBufferRGBA8)
    -> ImageDifference
  {
    var result = ImageDifference(
      expectedSize: (expected.width, expected.height), actualSize: (actual.width, actual.height),
      tolerance: self)
    guard expected.width == actual.width, expected.height == actual.height else {
      return result
    }
    let rowBytes = 4 * expected.width
    let threshold = deltaEThreshold
    // The last pair of differing pixels and its colour difference: flat areas repeat it.
    var last: (UInt32, UInt32, Double) = (0, 0, 0)
    expected.components.withUnsafeBufferPointer { e in
      actual.components.withUnsafeBufferPointer { a in
        for y in 0..<expected.height {
          let pe = e.baseAddress! + y * expected.stride
          let pa = a.baseAddress! + y * actual.stride
          if memcmp(pe, pa, rowBytes) == 0 { continue }
          for x in 0..<expected.width {
            let i = 4 * x
            let ve = UnsafeRawPointer(pe + i).loadUnaligned(as: UInt32.self)
            let va = UnsafeRawPointer(pa + i).loadUnaligned(as: UInt32.self)
            guard ve != va else { continue }
            result.differingPixels += 1
            if result.firstDifference == nil { result.firstDifference = (x, y) }
            var delta = 0.0
            if threshold >= 0 {
              if (ve, va) != (last.0, last.1) { last = (ve, va, Self.deltaE(pe + i, pa + i)) }
              delta = last.2
            }
            result.maximumDeltaE = Swift.max(result.maximumDeltaE, delta)
            if !(delta <= threshold) { result.failingPixels += 1 }
          }
        }
      }
    }
    return result
  }

  /// Whether a pixel pair with colour difference `delta` (or different bytes, when the
  /// tolerance is exact) matches.
  func pixelMatches(deltaE delta: Double) -> Bool { delta <= deltaEThreshold }

  /// The CIEDE2000 difference of two premultiplied pixels: over black (the premultiplied
  /// colour itself) and, unless both are opaque, over white; the larger.
  static func deltaE(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>) -> Double {
    func lab(_ p: UnsafePointer<UInt8>, _ lift: UInt8) -> LabColor {
      LabColor(red: p[0] &+ lift, green: p[1] &+ lift, blue: p[2] &+ lift)
    }
    var delta = LabColor.deltaE2000(lab(p, 0), lab(q, 0))
    if p[3] != 255 || q[3] != 255 {
      delta = Swift.max(delta, LabColor.deltaE2000(lab(p, 255 - p[3]), lab(q, 255 - q[3])))
    }
    return delta
  }
}

/// How an image differs from its snapshot (``ImageTolerance/compare(_:_:)``).
public struct ImageDifference: Sendable {
  /// The snapshot's size in pixels.
  public var expectedSize: (width: Int, height: Int)
  /// The new image's size in pixels.
  public var actualSize: (width: Int, height: Int)
  /// The tolerance it was compared with.
  public var tolerance: ImageTolerance
  /// Pixels whose bytes differ (0 when the sizes differ: nothing was compared).
  public var differingPixels = 0
  /// Pixels that do not match under the tolerance (at most ``differingPixels``).
  public var failingPixels = 0
  /// The largest CIEDE2000 difference of a differing pixel (0 with an exact tolerance, which
  /// does not compute it).
  public var maximumDeltaE = 0.0
  /// The first differing pixel in row order.
  public var firstDifference: (x: Int, y: Int)?

  /// Whether both images have the same size.
  public var sizesMatch: Bool {
    expectedSize.width == actualSize.width && expectedSize.height == actualSize.height
  }

  /// The number of pixels compared.
  public var pixelCount: Int { sizesMatch ? expectedSize.width * expectedSize.height : 0 }

  /// The share of matching pixels, in `[0, 1]` (0 when the sizes differ).
  public var matchingShare: Double {
    pixelCount == 0 ? 0 : Double(pixelCount - failingPixels) / Double(pixelCount)
  }

  /// Whether the image matches its snapshot under the tolerance.
  public var matches: Bool {
    sizesMatch && (failingPixels == 0 || matchingShare >= tolerance.precision)
  }

  /// One line for a failure message, e.g. `312 of 82 368 pixels differ (precision 0.99621 <
  /// 1), first at (10, 4)` or `the snapshot is 98×211 pixels, the image 196×422`.
  public var summary: String {
    guard sizesMatch else {
      return "the snapshot is \(expectedSize.width)×\(expectedSize.height) pixels, the new image "
        + "\(actualSize.width)×\(actualSize.height)"
    }
    var text = "\(failingPixels) of \(pixelCount) pixels differ"
    if failingPixels != differingPixels { text += " beyond ΔE \(tolerance.deltaEThreshold)" }
    text += " (matching share \(rounded(matchingShare)) < precision \(tolerance.precision)"
    if tolerance.perceptualPrecision < 1 {
      text +=
        "; largest ΔE00 \(rounded(maximumDeltaE)), perceptual precision "
        + "\(rounded(1 - Swift.min(maximumDeltaE, 100) / 100)) < \(tolerance.perceptualPrecision)"
    }
    text += ")"
    if let first = firstDifference { text += ", first at (\(first.x), \(first.y))" }
    return text
  }

  /// `v` to six decimals, rounded down below 1 so that a share just short of 1 does not show
  /// as 1.
  private func rounded(_ v: Double) -> Double { (v * 1_000_000).rounded(.down) / 1_000_000 }
}
