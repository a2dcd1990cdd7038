import Foundation
import SegueSnapshot
import Testing

/// A whole PNG image as RGB bytes, for comparing screenshots with rendered frames. It reads
/// what headless Chromium (8-bit RGB) and `segue render` (8-bit RGBA, opaque over white) write,
/// with the snapshot decoder (``SnapshotImageDecoder``); alpha is dropped.
struct RasterImage {
  var width: Int
  var height: Int
  /// RGB bytes, row by row.
  var rgb: [UInt8]

  init(width: Int, height: Int, rgb: [UInt8]) {
    self.width = width
    self.height = height
    self.rgb = rgb
  }

  init(path: String) throws {
    let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let image = try SnapshotImageDecoder.decode(data)
    width = image.width
    height = image.height
    rgb = []
    rgb.reserveCapacity(width * height * 3)
    for y in 0..<height {
      let row = y * image.stride
      for x in 0..<width { rgb += image.components[(row + 4 * x)..<(row + 4 * x + 3)] }
    }
  }

  /// The `w × h` region at `(x, y)`.
  func crop(x: Int, y: Int, width w: Int, height h: Int) -> RasterImage {
    var out: [UInt8] = []
    out.reserveCapacity(w * h * 3)
    for row in y..<y + h { out += rgb[(row * width + x) * 3..<(row * width + x + w) * 3] }
    return RasterImage(width: w, height: h, rgb: out)
  }

  /// The mean absolute channel difference (0…255) and the fraction of pixels whose largest
  /// channel difference exceeds `threshold`.
  func difference(_ other: RasterImage, threshold: Int) -> (mean: Double, fraction: Double) {
    precondition(width == other.width && height == other.height)
    var sum = 0
    var over = 0
    for p in 0..<width * height {
      var largest = 0
      for c in 0..<3 {
        let d = abs(Int(rgb[3 * p + c]) - Int(other.rgb[3 * p + c]))
        sum += d
        largest = max(largest, d)
      }
      if largest > threshold { over += 1 }
    }
    let pixels = Double(width * height)
    return (Double(sum) / (3 * pixels), Double(over) / pixels)
  }
}
