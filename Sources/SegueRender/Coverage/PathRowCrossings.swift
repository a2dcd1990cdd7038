/// The edge crossings of one pixel row's sample lines, each line's sorted by sample column, in
/// caller-owned memory: a path row's scan conversion in `O(edges + samples)`.
///
/// A crossing at column `k` (the first sample whose x is right of the edge's x on the line, as
/// ``RasterSpans/firstSample(rightOf:_:_:)`` finds it) adds the edge's direction to the winding
/// number of samples `k…`; crossings left of the layer's first sample add to the line's base.
/// These are the reference rasteriser's crossings, so every sample's inside decision is the
/// reference's.
struct PathRowCrossings {
  /// The most crossings a sample line keeps; a row with more is scan-converted chunk by chunk
  /// (``RasterSpans/chunkedRow(_:_:_:_:)``).
  static let capacity = 256
  /// The values a buffer of crossings holds: a column and a direction per crossing, per line.
  static let bufferCount = 2 * ReferenceRasterizer.samplesPerAxis * capacity

  /// Per line `b`, ``capacity`` columns (relative to the layer's first sample) and directions.
  let columns: UnsafeMutablePointer<Int32>
  let directions: UnsafeMutablePointer<Int32>
  var capacity: Int { Self.capacity }
  /// The pixel row.
  var py = 0
  /// Per line: how many crossings it keeps, and the directions summed left of the layer.
  var lengths = SIMD4<Int>(repeating: 0)
  var bases = SIMD4<Int32>(repeating: 0)

  /// Where a sweep has got to on each line: the next crossing and the winding number.
  struct Sweep {
    var cursors = SIMD4<Int>(repeating: 0)
    var windings = SIMD4<Int32>(repeating: 0)
  }

  /// Crossings in `buffer`, which holds ``bufferCount`` values.
  init(_ buffer: UnsafeMutablePointer<Int32>) {
    columns = buffer
    directions = buffer + ReferenceRasterizer.samplesPerAxis * Self.capacity
  }

  /// Collects the crossings of row `py`'s sample lines with `source`'s edges; `false` when a
  /// line has more than `capacity`. One pass over the edges: an edge that misses the row's
  /// sample lines is passed over with two comparisons (a line's crossings are the same in any
  /// edge order: equal columns keep their arrival order, and only their sum matters).
  mutating func gather(_ py: Int, _ source: RasterSpans.Source) -> Bool {
    self.py = py
    let lo = 4 * source.layer.x0
    let hi = 4 * source.layer.x1
    let lines = ReferenceRasterizer.samplesPerAxis
    let first = ReferenceRasterizer.sample(py, 0)
    let last = ReferenceRasterizer.sample(py, lines - 1)
    lengths = .zero
    for e in source.edges where e.y0 <= last && e.y1 > first {
      for b in 0..<lines {
        let y = ReferenceRasterizer.sample(py, b)
        guard e.crosses(y) else { continue }
        let x = e.x(at: y)
        guard !x.isNaN else { continue }
        let k = RasterSpans.firstSample(rightOf: x, lo, hi)
        if k == lo {
          bases[b] += e.direction
        } else if k < hi {
          let n = lengths[b]
          guard n < capacity else { return false }
          insert(Int32(k - lo), e.direction, line: b, count: n)
          lengths[b] = n + 1
        }
      }
    }
    return true
  }

  /// Inserts a crossing in column order (edges arrive nearly in order along a row, so the
  /// insertion moves few entries).
  private func insert(_ column: Int32, _ direction: Int32, line b: Int, count n: Int) {
    let c = columns + b * capacity
    let d = directions + b * capacity
    var i = n
    while i > 0 && c[i - 1] > column {
      c[i] = c[i - 1]
      d[i] = d[i - 1]
      i -= 1
    }
    c[i] = column
    d[i] = direction
  }

  /// The sweep at the layer's first sample: every line at its base winding.
  func startState() -> Sweep { Sweep(windings: bases) }

  /// Adds the inside samples of line `b` in columns `from..<from + n` (relative to the layer's
  /// first sample; `from` a multiple of 4) to `counts` (one per pixel from `from / 4`),
  /// advancing `state`.
  func sweep(
    _ b: Int, _ state: inout Sweep, _ from: Int, _ n: Int, _ source: RasterSpans.Source,
    _ counts: UnsafeMutablePointer<UInt8>
  ) {
    let c = columns + b * capacity
    let d = directions + b * capacity
    let length = lengths[b]
    let rule = source.layer.pathRule
    var cursor = state.cursors[b]
    var w = state.windings[b]
    let end = from + n
    var s = from
    while s < end {
      while cursor < length && Int(c[cursor]) <= s {
        w += d[cursor]
        cursor += 1
      }
      let next = cursor < length ? Swift.min(Int(c[cursor]), end) : end
      if PathProjection.isInside(w, rule) { mark(b, s..<next, from, source, counts) }
      s = next
    }
    state.cursors[b] = cursor
    state.windings[b] = w
  }

  /// Counts the samples of `run` on line `b` that the layer's clips keep.
  @inline(__always)
  private func mark(
    _ b: Int, _ run: Range<Int>, _ from: Int, _ source: RasterSpans.Source,
    _ counts: UnsafeMutablePointer<UInt8>
  ) {
    let clips = source.clips
    guard !clips.isEmpty else {
      for s in run { counts[(s - from) >> 2] += 1 }
      return
    }
    let y = ReferenceRasterizer.sample(py, b)
    let first = 4 * source.layer.x0
    for s in run {
      let x = RasterSpans.sampleX(first + s)
      var clipped = false
      for clip in clips where !clip.contains(x, y) { clipped = true }
      if !clipped { counts[(s - from) >> 2] += 1 }
    }
  }
}
