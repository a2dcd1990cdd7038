import CZlib
import Foundation
import Testing

/// A whole PNG image decoded to RGB bytes (zlib's `uncompress`, then the five scanline filters of
/// the PNG specification), for comparing screenshots with rendered frames. It reads what headless
/// Chromium (8-bit RGB) and `segue render` (8-bit RGBA, opaque over white) write: 8 bits per
/// channel, colour type 2 or 6, not interlaced; alpha is dropped.
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
    try #require(data.count > 8 && data[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    func u32(_ i: Int) -> Int { data[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
    var pos = 8
    var header: [UInt8] = []
    var idat: [UInt8] = []
    while pos + 8 <= data.count {
      let n = u32(pos)
      let kind = String(decoding: data[pos + 4..<pos + 8], as: UTF8.self)
      try #require(pos + 12 + n <= data.count, "\(path): truncated chunk")
      let body = data[pos + 8..<pos + 8 + n]
      if kind == "IHDR" { header = Array(body) }
      if kind == "IDAT" { idat += body }
      if kind == "IEND" { break }
      pos += 12 + n
    }
    try #require(header.count == 13, "\(path): no IHDR")
    width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
    height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
    let (depth, type, interlace) = (header[8], header[9], header[12])
    try #require(depth == 8 && (type == 2 || type == 6) && interlace == 0, "\(path): \(header)")
    let bpp = type == 6 ? 4 : 3
    let stride = width * bpp
    var raw = [UInt8](repeating: 0, count: height * (stride + 1))
    var length = uLongf(raw.count)
    let status = raw.withUnsafeMutableBufferPointer { out in
      idat.withUnsafeBufferPointer { input in
        uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
      }
    }
    try #require(status == Z_OK && Int(length) == raw.count, "\(path): inflate \(status)")
    var previous = [UInt8](repeating: 0, count: stride)
    var line = [UInt8](repeating: 0, count: stride)
    rgb = []
    rgb.reserveCapacity(width * height * 3)
    for y in 0..<height {
      let start = y * (stride + 1)
      let filter = raw[start]
      for x in 0..<stride {
        let value = raw[start + 1 + x]
        let a = x >= bpp ? Int(line[x - bpp]) : 0
        let b = Int(previous[x])
        let c = x >= bpp ? Int(previous[x - bpp]) : 0
        let predictor: Int
        switch filter {
        case 0: predictor = 0
        case 1: predictor = a
        case 2: predictor = b
        case 3: predictor = (a + b) / 2
        case 4:
          let p = a + b - c
          let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
          predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        default:
          Issue.record("\(path): filter \(filter)")
          predictor = 0
        }
        line[x] = UInt8(truncatingIfNeeded: Int(value) + predictor)
      }
      for x in 0..<width { rgb += line[x * bpp..<x * bpp + 3] }
      swap(&previous, &line)
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
