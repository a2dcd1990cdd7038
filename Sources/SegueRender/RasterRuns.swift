import Segue
import SegueSIMDSupport

/// Pixels `lo..<hi` of a frame band row that all hold one premultiplied colour.
struct SolidRun {
  var lo: Int
  var hi: Int
  var colour: SIMD4<Float>
}

/// The frame band's rows as runs of one colour laid over its Float rows, so that a plain span
/// costs a few run edits instead of a Float store per pixel, and a run is quantised once and
/// written to the RGBA8 image as a 32-bit pattern.
///
/// Each row holds up to ``capacity`` sorted, disjoint, non-empty runs. A pixel inside a run
/// has the run's colour (its Float value is stale); a pixel outside every run has its Float
/// value. A row starts as one run of the background (no clear). Before a kernel reads or
/// writes Float pixels, ``materialise(_:_:_:)`` stores the runs over them; a plain colour
/// ``fill(_:_:_:_:add:)`` changes the runs it covers with the kernels' own arithmetic
/// (``RasterSpans/fillSpan(_:count:_:add:)`` on one pixel), so every byte is the one the Float
/// path gives.
struct SolidRunRows {
  /// Runs per row.
  static let capacity = 16
  /// Working room for one row's edit: every run split in two, plus the gaps between them.
  static let spareCapacity = 2 * capacity + 4

  /// `rows × capacity` runs, row `y` at `(y − target.firstRow)·capacity`.
  let runs: UnsafeMutablePointer<SolidRun>
  let counts: UnsafeMutablePointer<Int>
  let spare: UnsafeMutablePointer<SolidRun>
  /// The Float rows under the runs.
  let target: RasterTarget

  /// Every row of `rows` as one run `0..<width` of `colour`.
  func reset(_ rows: Range<Int>, width: Int, colour: SIMD4<Float>) {
    for y in rows {
      let k = y - target.firstRow
      runs[k * Self.capacity] = SolidRun(lo: 0, hi: width, colour: colour)
      counts[k] = width > 0 ? 1 : 0
    }
  }

  /// Stores the runs' colours over pixels `lo..<hi` of row `y` into its Float row and takes
  /// those pixels out of the runs.
  func materialise(_ y: Int, _ lo: Int, _ hi: Int) {
    let k = y - target.firstRow
    let r = runs + k * Self.capacity
    let row = target.row(y)
    var n = counts[k]
    var i = 0
    while i < n && r[i].lo < hi {
      let a = Swift.max(r[i].lo, lo)
      let b = Swift.min(r[i].hi, hi)
      guard a < b else {
        i += 1
        continue
      }
      let left = r[i].lo < a
      let right = b < r[i].hi
      if left && right && n < Self.capacity {
        RasterSpans.setSpan(row + 4 * a, count: b - a, r[i].colour)
        (r + i + 1).update(from: r + i, count: n - i)
        r[i].hi = a
        r[i + 1].lo = b
        n += 1
        i += 2
      } else if left != right {
        RasterSpans.setSpan(row + 4 * a, count: b - a, r[i].colour)
        if left { r[i].hi = a } else { r[i].lo = b }
        i += 1
      } else {
        // Wholly inside, or no room to split: the whole run goes to Floats.
        RasterSpans.setSpan(row + 4 * r[i].lo, count: r[i].hi - r[i].lo, r[i].colour)
        (r + i).update(from: r + i + 1, count: n - i - 1)
        n -= 1
      }
    }
    counts[k] = n
  }

  /// ``RasterSpans/fillSpan(_:count:_:add:)`` of `c` over pixels `lo..<hi` of row `y`: the
  /// runs it covers take the blended colour, the Float pixels between them are blended, or,
  /// when the fill is a plain store, become a run of `c`.
  func fill(_ y: Int, _ lo: Int, _ hi: Int, _ c: SIMD4<Float>, add: Bool) {
    guard lo < hi else { return }
    let k = y - target.firstRow
    let r = runs + k * Self.capacity
    let row = target.row(y)
    let store = !add && c[3] >= 1
    var out = 0
    func append(_ a: Int, _ b: Int, _ colour: SIMD4<Float>) {
      if out > 0 && spare[out - 1].hi == a && spare[out - 1].colour == colour {
        spare[out - 1].hi = b
      } else {
        spare[out] = SolidRun(lo: a, hi: b, colour: colour)
        out += 1
      }
    }
    func gap(_ a: Int, _ b: Int) {
      guard a < b else { return }
      if store {
        append(a, b, c)
      } else {
        RasterSpans.fillSpan(row + 4 * a, count: b - a, c, add: add)
      }
    }
    var x = lo
    for i in 0..<counts[k] {
      let run = r[i]
      guard run.hi > lo && run.lo < hi else {
        if run.lo >= hi && x < hi {
          gap(x, hi)
          x = hi
        }
        append(run.lo, run.hi, run.colour)
        continue
      }
      let a = Swift.max(run.lo, lo)
      let b = Swift.min(run.hi, hi)
      if run.lo < a { append(run.lo, a, run.colour) }
      gap(x, a)
      append(a, b, store ? c : Self.blended(run.colour, c, add: add))
      x = b
      if b < run.hi { append(b, run.hi, run.colour) }
    }
    gap(x, hi)
    if out > Self.capacity {
      // Too many runs: all of them go to Floats.
      for i in 0..<out {
        RasterSpans.setSpan(
          row + 4 * spare[i].lo, count: spare[i].hi - spare[i].lo, spare[i].colour)
      }
      out = 0
    }
    r.update(from: spare, count: out)
    counts[k] = out
  }

  /// `d` blended with `c` by ``RasterSpans/fillSpan(_:count:_:add:)`` itself (one pixel).
  @inline(__always)
  static func blended(_ d: SIMD4<Float>, _ c: SIMD4<Float>, add: Bool) -> SIMD4<Float> {
    var pixel = d
    withUnsafeMutablePointer(to: &pixel) {
      $0.withMemoryRebound(to: Float.self, capacity: 4) {
        RasterSpans.fillSpan($0, count: 1, c, add: add)
      }
    }
    return pixel
  }

  /// Quantises row `y` (`width` pixels) into `output`: the Float pixels between runs by
  /// ``RasterSpans/quantiseSpan(_:_:count:)``, each run's colour once, written as one 32-bit
  /// pattern.
  func quantise(_ y: Int, width: Int, into output: UnsafeMutablePointer<UInt8>) {
    let k = y - target.firstRow
    let r = runs + k * Self.capacity
    let row = target.row(y)
    var x = 0
    for i in 0..<counts[k] {
      let run = r[i]
      if x < run.lo { RasterSpans.quantiseSpan(row + 4 * x, output + 4 * x, count: run.lo - x) }
      Self.fill(output + 4 * run.lo, count: run.hi - run.lo, Self.quantised(run.colour))
      x = run.hi
    }
    if x < width { RasterSpans.quantiseSpan(row + 4 * x, output + 4 * x, count: width - x) }
  }

  /// `colour` as ``RasterSpans/quantiseSpan(_:_:count:)`` writes it, as the 32-bit pattern of
  /// its four bytes.
  @inline(__always)
  static func quantised(_ colour: SIMD4<Float>) -> UInt32 {
    var pixel = colour
    var bytes: UInt32 = 0
    withUnsafePointer(to: &pixel) { source in
      source.withMemoryRebound(to: Float.self, capacity: 4) { s in
        withUnsafeMutableBytes(of: &bytes) {
          RasterSpans.quantiseSpan(s, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 1)
        }
      }
    }
    return bytes
  }

  /// Writes `count` copies of the 4-byte `pattern` at `p`, 16 pixels per store.
  @inline(__always)
  static func fill(_ p: UnsafeMutablePointer<UInt8>, count: Int, _ pattern: UInt32) {
    let raw = UnsafeMutableRawPointer(p)
    let wide = SIMD16<UInt32>(repeating: pattern)
    var i = 0
    while i + 16 <= count {
      raw.storeBytes(of: wide, toByteOffset: 4 * i, as: SIMD16<UInt32>.self)
      i += 16
    }
    while i < count {
      raw.storeBytes(of: pattern, toByteOffset: 4 * i, as: UInt32.self)
      i += 1
    }
  }
}
