import Segue
import SegueSnapshot
import Testing

/// A `width × height` opaque image of one colour.
func solidImage(_ width: Int, _ height: Int, _ rgb: (UInt8, UInt8, UInt8)) throws
  -> PixelBufferRGBA8
{
  try PixelBufferRGBA8(width: width, height: height, fill: [rgb.0, rgb.1, rgb.2, 255])
}

@Suite("Image comparison")
struct ImageComparisonTests {
  @Test func equalImagesMatch() throws {
    let a = try solidImage(10, 10, (10, 20, 30))
    let difference = ImageTolerance.exact.compare(a, a)
    #expect(difference.matches)
    #expect(difference.differingPixels == 0 && difference.failingPixels == 0)
  }

  /// One pixel in a hundred: precision 1 fails, 0.99 passes (99 of 100 match), 0.995 fails.
  @Test func precisionIsTheShareOfMatchingPixels() throws {
    let a = try solidImage(10, 10, (200, 200, 200))
    var b = a
    b[3, 7] = [0, 0, 0, 255]
    let exact = ImageTolerance.exact.compare(a, b)
    #expect(!exact.matches)
    #expect(exact.differingPixels == 1 && exact.failingPixels == 1)
    #expect(exact.firstDifference?.x == 3 && exact.firstDifference?.y == 7)
    #expect(exact.matchingShare == 0.99)
    #expect(ImageTolerance(precision: 0.99).compare(a, b).matches)
    #expect(!ImageTolerance(precision: 0.995).compare(a, b).matches)
    #expect(exact.summary.contains("1 of 100 pixels differ"), "\(exact.summary)")
  }

  /// Perceptual precision p lets a pixel differ by up to (1 − p)·100 CIEDE2000 units: one
  /// level of grey (ΔE00 ≈ 0.3) passes at 0.99 (threshold 1), black against white (100) does
  /// not pass even at 0.01 (threshold 99).
  @Test func perceptualPrecisionIsADeltaEThreshold() throws {
    let a = try solidImage(4, 4, (128, 128, 128))
    var b = a
    b[0, 0] = [129, 129, 129, 255]
    let near = ImageTolerance(perceptualPrecision: 0.99).compare(a, b)
    #expect(near.matches && near.differingPixels == 1 && near.failingPixels == 0)
    #expect(near.maximumDeltaE > 0.1 && near.maximumDeltaE < 1)
    #expect(!ImageTolerance.exact.compare(a, b).matches)
    let black = try solidImage(1, 1, (0, 0, 0))
    let white = try solidImage(1, 1, (255, 255, 255))
    let far = ImageTolerance(perceptualPrecision: 0.01).compare(black, white)
    #expect(!far.matches)
    #expect(abs(far.maximumDeltaE - 100) < 0.01)
  }

  /// A transparent pixel against an opaque black one: equal over black, 100 apart over white;
  /// the larger counts.
  @Test func transparencyIsComparedOverWhiteAndBlack() throws {
    let clear = try PixelBufferRGBA8(width: 1, height: 1)
    let black = try solidImage(1, 1, (0, 0, 0))
    let difference = ImageTolerance(perceptualPrecision: 0.5).compare(clear, black)
    #expect(!difference.matches)
    #expect(abs(difference.maximumDeltaE - 100) < 0.01)
  }

  @Test func differentSizesNeverMatch() throws {
    let a = try solidImage(4, 4, (1, 2, 3))
    let b = try solidImage(4, 5, (1, 2, 3))
    let difference = ImageTolerance(precision: 0).compare(a, b)
    #expect(!difference.matches)
    #expect(difference.summary == "the snapshot is 4×4 pixels, the new image 4×5")
  }

  @Test(arguments: [Double.nan, -0.1, 1.5, .infinity])
  func rejectsAPrecisionOutsideZeroToOne(_ value: Double) {
    #expect(throws: ValidationError.self) { try ImageTolerance(precision: value).validate() }
    #expect(throws: ValidationError.self) {
      try ImageTolerance(perceptualPrecision: value).validate()
    }
  }

  /// The diff shows matching pixels as a faded grey, failing ones in red, tolerated ones in
  /// orange, and what only one image covers in red.
  @Test func diffImage() throws {
    let a = try solidImage(3, 2, (0, 0, 0))
    var b = a
    b[0, 0] = [255, 255, 255, 255]
    b[1, 0] = [1, 1, 1, 255]
    let diff = try DiffImage.make(
      expected: a, actual: b, tolerance: ImageTolerance(perceptualPrecision: 0.98))
    #expect(diff[0, 0] == DiffImage.failingColor)
    #expect(diff[1, 0] == DiffImage.toleratedColor)
    // Black faded three quarters of the way to white: 255 − 255/4 = 192.
    #expect(diff[2, 1] == [192, 192, 192, 255])
    let taller = try solidImage(3, 3, (0, 0, 0))
    let grown = try DiffImage.make(expected: a, actual: taller, tolerance: .exact)
    #expect(grown.width == 3 && grown.height == 3)
    #expect(grown[0, 2] == DiffImage.failingColor)
  }
}
