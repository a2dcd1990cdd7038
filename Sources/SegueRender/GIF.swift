import Segue

/// An animated GIF (GIF89a) encoder: frames added one at a time, each with its own colour table
/// (exact up to 256 colours, median cut above), LZW-compressed, looping with the NETSCAPE2.0
/// extension. Delays are whole centiseconds, at least 2, rounded on the cumulative time. The
/// colour reduction, transparency, frame regions and delays are in <doc:ImageFiles>.
public struct GIFEncoder {
  /// The canvas size in pixels.
  public let width: Int
  public let height: Int
  /// How many times the animation repeats after the first play; 0 loops forever (NETSCAPE2.0).
  public let loops: Int
  private var bytes: [UInt8] = []
  private var previous: PixelBufferRGBA8?
  private var previousHadTransparency = false
  /// Sum of the delays so far (seconds) and the centiseconds written for them.
  private var elapsed = 0.0
  private var written = 0
  private var frames = 0

  /// Starts a file.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `width` or `height` outside `1…65535` and `loops`
  ///   outside `0…65535`.
  public init(width: Int, height: Int, loops: Int = 0) throws(ValidationError) {
    try Validate.inRange(Double(width), 1, 65535, "width")
    try Validate.inRange(Double(height), 1, 65535, "height")
    try Validate.inRange(Double(loops), 0, 65535, "loops")
    self.width = width
    self.height = height
    self.loops = loops
    bytes = Array("GIF89a".utf8)
    bytes.appendLittleEndian(UInt16(width))
    bytes.appendLittleEndian(UInt16(height))
    bytes.append(0x00)  // no global colour table
    bytes.append(0)  // background colour index
    bytes.append(0)  // pixel aspect ratio: not given
    // NETSCAPE2.0 application extension: sub-block 1, loop count.
    bytes.append(contentsOf: [0x21, 0xFF, 11])
    bytes.append(contentsOf: Array("NETSCAPE2.0".utf8))
    bytes.append(contentsOf: [3, 1])
    bytes.appendLittleEndian(UInt16(loops))
    bytes.append(0)
  }

  /// Appends a frame (premultiplied RGBA8, the canvas size) shown for `delay` seconds.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `frame.width`/`frame.height` (`.countMismatch`) for a
  ///   frame of another size, and `delay` unless it is finite and in `(0, 655.35]`.
  public mutating func add(_ frame: PixelBufferRGBA8, delay: Double) throws(ValidationError) {
    try FrameTiming.checkFrame(frame, width: width, height: height)
    try Validate.positive(delay, "delay")
    try Validate.inRange(delay, 0, 655.35, "delay")
    elapsed += delay
    let centiseconds = Swift.min(65535, Swift.max(2, Int((100 * elapsed).rounded()) - written))
    written += centiseconds

    // Straight-alpha pixels of the whole frame, and whether any is transparent.
    var straight = [UInt8](repeating: 0, count: 4 * width * height)
    var transparent = false
    frame.components.withUnsafeBufferPointer { source in
      straight.withUnsafeMutableBufferPointer { target in
        for y in 0..<height {
          PNG.unpremultiply(
            source.baseAddress! + y * frame.stride, into: target.baseAddress! + 4 * y * width,
            pixels: width)
        }
        for p in 0..<(width * height) where target[4 * p + 3] < 128 { transparent = true }
      }
    }
    var region = (x: 0, y: 0, width: width, height: height)
    let fullFrame = previous == nil || transparent || previousHadTransparency
    if !fullFrame, let previous { region = APNGEncoder.changedRegion(previous, frame) }
    let quantised = GIFPalette.quantise(
      straight, stride: 4 * width, x: region.x, y: region.y, width: region.width,
      height: region.height, transparent: transparent)

    // Graphic control extension: disposal, transparency, delay.
    let disposal: UInt8 = transparent ? 2 : 1
    bytes.append(contentsOf: [0x21, 0xF9, 4, disposal << 2 | (transparent ? 1 : 0)])
    bytes.appendLittleEndian(UInt16(centiseconds))
    bytes.append(UInt8(quantised.transparentIndex ?? 0))
    bytes.append(0)
    // Image descriptor with a local colour table of 2^(n+1) entries.
    let tableBits = Swift.max(1, GIFPalette.bits(for: quantised.palette.count))
    bytes.append(0x2C)
    bytes.appendLittleEndian(UInt16(region.x))
    bytes.appendLittleEndian(UInt16(region.y))
    bytes.appendLittleEndian(UInt16(region.width))
    bytes.appendLittleEndian(UInt16(region.height))
    bytes.append(0x80 | UInt8(tableBits - 1))
    for k in 0..<(1 << tableBits) {
      let c = k < quantised.palette.count ? quantised.palette[k] : .zero
      bytes.append(contentsOf: [c[0], c[1], c[2]])
    }
    let minimumCodeSize = Swift.max(2, tableBits)
    bytes.append(UInt8(minimumCodeSize))
    let codes = LZW.encode(quantised.indices, minimumCodeSize: minimumCodeSize)
    var start = 0
    while start < codes.count {
      let end = Swift.min(codes.count, start + 255)
      bytes.append(UInt8(end - start))
      bytes.append(contentsOf: codes[start..<end])
      start = end
    }
    bytes.append(0)  // block terminator
    previous = frame
    previousHadTransparency = transparent
    frames += 1
  }

  /// The finished file (the trailer appended).
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `frames` (`.tooFew`) when no frame was added.
  public func finish() throws(ValidationError) -> [UInt8] {
    guard frames > 0 else {
      throw ValidationError(field: "frames", reason: .tooFew(minimum: 1, actual: 0))
    }
    return bytes + [0x3B]
  }
}

/// A frame's colour table and indices (``GIFEncoder``'s colour rules).
enum GIFPalette {
  /// The bits of a table holding `count` entries: `⌈log₂ count⌉`, at least 1.
  static func bits(for count: Int) -> Int {
    var bits = 1
    while (1 << bits) < count { bits += 1 }
    return bits
  }

  /// The palette (RGB in the first three lanes), the index of each pixel of the region, and
  /// the transparent index if `transparent`.
  static func quantise(
    _ pixels: [UInt8], stride: Int, x: Int, y: Int, width: Int, height: Int, transparent: Bool
  ) -> (palette: [SIMD4<UInt8>], indices: [UInt8], transparentIndex: Int?) {
    // Histogram of the opaque pixels' colours (0xRRGGBB).
    var histogram: [UInt32: Int] = [:]
    func key(_ i: Int) -> UInt32 {
      UInt32(pixels[i]) << 16 | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2])
    }
    // Counted by runs of one colour (UI frames are mostly long runs): one dictionary update per
    // run instead of per pixel.
    var run: (key: UInt32, count: Int)?
    for row in y..<(y + height) {
      for column in x..<(x + width) {
        let i = row * stride + 4 * column
        if transparent && pixels[i + 3] < 128 { continue }
        let k = key(i)
        if let r = run, r.key == k {
          run = (k, r.count + 1)
        } else {
          if let r = run { histogram[r.key, default: 0] += r.count }
          run = (k, 1)
        }
      }
    }
    if let r = run { histogram[r.key, default: 0] += r.count }
    let capacity = transparent ? 255 : 256
    let colours = histogram.keys.sorted()
    var palette: [SIMD4<UInt8>]
    var lookup: [UInt32: UInt8] = [:]
    if colours.count <= capacity {
      palette = colours.map { unpack($0) }
      for (k, c) in colours.enumerated() { lookup[c] = UInt8(k) }
    } else {
      palette = medianCut(colours.map { ($0, histogram[$0]!) }, count: capacity)
      for c in colours { lookup[c] = nearest(unpack(c), in: palette) }
    }
    var transparentIndex: Int?
    if transparent {
      transparentIndex = palette.count
      palette.append(.zero)
    }
    if palette.isEmpty { palette.append(.zero) }
    var indices: [UInt8] = []
    indices.reserveCapacity(width * height)
    var last: (key: UInt32, index: UInt8)?
    for row in y..<(y + height) {
      for column in x..<(x + width) {
        let i = row * stride + 4 * column
        if let t = transparentIndex, pixels[i + 3] < 128 {
          indices.append(UInt8(t))
        } else {
          let k = key(i)
          if let l = last, l.key == k {
            indices.append(l.index)
          } else {
            let index = lookup[k]!
            last = (k, index)
            indices.append(index)
          }
        }
      }
    }
    return (palette, indices, transparentIndex)
  }

  static func unpack(_ c: UInt32) -> SIMD4<UInt8> {
    SIMD4(UInt8(c >> 16), UInt8((c >> 8) & 0xFF), UInt8(c & 0xFF), 255)
  }

  /// The index of the entry of `palette` nearest to `c` (squared RGB distance; first on ties).
  static func nearest(_ c: SIMD4<UInt8>, in palette: [SIMD4<UInt8>]) -> UInt8 {
    var best = 0
    var bestDistance = Int.max
    for (k, p) in palette.enumerated() {
      let dr = Int(c[0]) - Int(p[0])
      let dg = Int(c[1]) - Int(p[1])
      let db = Int(c[2]) - Int(p[2])
      let d = dr * dr + dg * dg + db * db
      if d < bestDistance {
        best = k
        bestDistance = d
        if d == 0 { break }
      }
    }
    return UInt8(best)
  }

  /// Median cut of `colours` (0xRRGGBB with pixel counts) into at most `count` entries.
  static func medianCut(_ colours: [(UInt32, Int)], count: Int) -> [SIMD4<UInt8>] {
    var boxes: [[(UInt32, Int)]] = [colours]
    func channel(_ c: UInt32, _ k: Int) -> Int { Int((c >> UInt32(16 - 8 * k)) & 0xFF) }
    /// The widest channel of a box, its range and the box's pixel count.
    func measure(_ box: [(UInt32, Int)]) -> (channel: Int, range: Int, pixels: Int) {
      var lo = [255, 255, 255]
      var hi = [0, 0, 0]
      var pixels = 0
      for (c, n) in box {
        pixels += n
        for k in 0..<3 {
          lo[k] = Swift.min(lo[k], channel(c, k))
          hi[k] = Swift.max(hi[k], channel(c, k))
        }
      }
      var widest = 0
      for k in 1..<3 where hi[k] - lo[k] > hi[widest] - lo[widest] { widest = k }
      return (widest, hi[widest] - lo[widest], pixels)
    }
    while boxes.count < count {
      // The box with the most pixels × range, among those with two or more colours.
      var pick = -1
      var bestScore = 0.0
      var pickChannel = 0
      for (k, box) in boxes.enumerated() where box.count > 1 {
        let m = measure(box)
        let score = Double(m.pixels) * Double(m.range)
        if pick < 0 || score > bestScore {
          (pick, bestScore, pickChannel) = (k, score, m.channel)
        }
      }
      guard pick >= 0 else { break }
      let sorted = boxes[pick].sorted {
        let a = channel($0.0, pickChannel)
        let b = channel($1.0, pickChannel)
        return a != b ? a < b : $0.0 < $1.0
      }
      let total = sorted.reduce(0) { $0 + $1.1 }
      var running = 0
      var split = 1
      for (k, entry) in sorted.enumerated() {
        running += entry.1
        if 2 * running >= total {
          split = Swift.max(1, Swift.min(sorted.count - 1, k + 1))
          break
        }
      }
      boxes[pick] = Array(sorted[..<split])
      boxes.append(Array(sorted[split...]))
    }
    return boxes.map { box in
      var sum = SIMD3<Double>.zero
      var n = 0.0
      for (c, count) in box {
        sum +=
          Double(count) * SIMD3(Double(channel(c, 0)), Double(channel(c, 1)), Double(channel(c, 2)))
        n += Double(count)
      }
      let mean = sum / n
      return SIMD4(
        UInt8(mean[0].rounded()), UInt8(mean[1].rounded()), UInt8(mean[2].rounded()), 255)
    }
  }
}

/// GIF's variable-width LZW (GIF89a appendix F).
enum LZW {
  /// The code stream of `indices` (each below `2^minimumCodeSize`), packed least significant bit
  /// first: a clear code, the codes, the end-of-information code.
  static func encode(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
    let clear = 1 << minimumCodeSize
    let end = clear + 1
    var width = minimumCodeSize + 1
    var next = clear + 2
    // Open-addressing table from (prefix code, byte) to code; 0 = empty, code + 1 stored.
    let tableSize = 1 << 14
    var keys = [Int32](repeating: -1, count: tableSize)
    var values = [Int16](repeating: 0, count: tableSize)
    var out: [UInt8] = []
    out.reserveCapacity(indices.count / 2 + 16)
    var buffer = 0
    var bits = 0
    func emit(_ code: Int) {
      buffer |= code << bits
      bits += width
      while bits >= 8 {
        out.append(UInt8(buffer & 0xFF))
        buffer >>= 8
        bits -= 8
      }
    }
    func slot(_ key: Int32) -> Int {
      var h = Int((UInt32(bitPattern: key) &* 2_654_435_761) >> 18)
      while keys[h] != -1 && keys[h] != key { h = (h + 1) & (tableSize - 1) }
      return h
    }
    emit(clear)
    guard var prefix = indices.first.map(Int.init) else {
      emit(end)
      if bits > 0 { out.append(UInt8(buffer & 0xFF)) }
      return out
    }
    for k in indices.dropFirst() {
      let key = Int32(prefix << 8 | Int(k))
      let h = slot(key)
      if keys[h] == key {
        prefix = Int(values[h])
        continue
      }
      emit(prefix)
      prefix = Int(k)
      if next == 4096 {
        // Table full: start over.
        emit(clear)
        width = minimumCodeSize + 1
        next = clear + 2
        for i in 0..<tableSize { keys[i] = -1 }
        continue
      }
      keys[h] = key
      values[h] = Int16(next)
      // The decoder widens its codes once the code it will assign next needs another bit.
      if next == 1 << width && width < 12 { width += 1 }
      next += 1
    }
    emit(prefix)
    // The decoder reserves an entry after this code too and may widen before the end code.
    if next < 4096 && next == 1 << width && width < 12 { width += 1 }
    emit(end)
    if bits > 0 { out.append(UInt8(buffer & 0xFF)) }
    return out
  }
}

extension Array where Element == UInt8 {
  /// Appends `v` as 2 bytes, least significant first.
  mutating func appendLittleEndian(_ v: UInt16) {
    append(UInt8(v & 0xFF))
    append(UInt8(v >> 8))
  }
}
