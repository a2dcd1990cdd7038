import Segue

extension RasterSpans {
  /// Pixels per chunk of a path row: the winding changes of its `4·64` sample columns go
  /// through a 1 KiB buffer on the stack.
  static let pathChunk = 64

  /// One row of a filled path (``LayerSnapshot/PathFill``), scan-converted: on each of the
  /// row's four sample lines, every edge crossing the line adds its direction at the first
  /// sample right of its crossing (``PathRowCrossings``, sorted once per line), and a sweep
  /// carries the winding number from one crossing to the next — the reference's
  /// ``ReferenceRasterizer/pathHits(_:_:_:_:_:)`` decision for every sample, with the same
  /// crossings, in `O(edges + samples)` per line. Pixels with all 16 samples inside take the
  /// path's colour as one span; the others its colour times their hits over 16.
  static func pathRow(
    _ py: Int, _ source: Source, _ row: UnsafeMutablePointer<Float>,
    _ dirty: inout (lo: Int, hi: Int), crossings buffer: UnsafeMutablePointer<Int32>
  ) {
    let rowTop = Double(py)
    let rowBottom = rowTop + 1
    guard source.edges.contains(where: { $0.y0 < rowBottom && $0.y1 > rowTop }) else { return }
    var crossings = PathRowCrossings(buffer)
    if crossings.gather(py, source) {
      sweepRow(crossings, source, row, &dirty)
    } else {
      chunkedRow(py, source, row, &dirty)
    }
  }

  /// Blends a path row from its sorted crossings: each sample line's winding number is carried
  /// from one crossing to the next, so the row costs `O(crossings + samples)`.
  static func sweepRow(
    _ crossings: PathRowCrossings, _ source: Source, _ row: UnsafeMutablePointer<Float>,
    _ dirty: inout (lo: Int, hi: Int)
  ) {
    let x0 = source.layer.x0
    var state = crossings.startState()
    pathChunks(source.layer, row, &dirty) { b, start, n, counts in
      crossings.sweep(b, &state, 4 * (start - x0), 4 * n, source, counts)
    }
  }

  /// ``pathRow(_:_:_:_:crossings:)`` for rows with more crossings than
  /// ``PathRowCrossings/capacity`` on a sample line: each chunk of pixels tests every edge again.
  static func chunkedRow(
    _ py: Int, _ source: Source, _ row: UnsafeMutablePointer<Float>,
    _ dirty: inout (lo: Int, hi: Int)
  ) {
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * pathChunk) { changes in
      pathChunks(source.layer, row, &dirty) { b, start, n, counts in
        countLine(b, py, start, n, source, changes.baseAddress!, counts)
      }
    }
  }

  /// Blends a path row chunk by chunk: `count(b, start, n, counts)` adds sample line `b`'s
  /// inside samples over pixels `start..<start + n` to `counts` (zeroed per chunk), then the
  /// chunk's pixels are blended by their hits.
  @inline(__always)
  static func pathChunks(
    _ layer: PreparedLayer, _ row: UnsafeMutablePointer<Float>, _ dirty: inout (lo: Int, hi: Int),
    _ count: (Int, Int, Int, UnsafeMutablePointer<UInt8>) -> Void
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: pathChunk) { counts in
      var start = layer.x0
      while start < layer.x1 {
        let n = Swift.min(pathChunk, layer.x1 - start)
        counts.baseAddress!.initialize(repeating: 0, count: n)
        for b in 0..<ReferenceRasterizer.samplesPerAxis { count(b, start, n, counts.baseAddress!) }
        pathPixels(start, n, counts.baseAddress!, layer, row, &dirty)
        start += n
      }
    }
  }

  /// Adds the inside samples of sample line `b` of row `py` over pixels `start..<start + n`
  /// to `counts`.
  @inline(__always)
  static func countLine(
    _ b: Int, _ py: Int, _ start: Int, _ n: Int, _ source: Source,
    _ changes: UnsafeMutablePointer<Int32>, _ counts: UnsafeMutablePointer<UInt8>
  ) {
    let layer = source.layer
    let y = ReferenceRasterizer.sample(py, b)
    let lo = 4 * start
    let hi = 4 * (start + n)
    changes.initialize(repeating: 0, count: hi - lo)
    var base: Int32 = 0
    var crossed = false
    for e in source.edges where e.crosses(y) {
      let x = e.x(at: y)
      guard !x.isNaN else { continue }
      crossed = true
      let k = firstSample(rightOf: x, lo, hi)
      if k == lo {
        base += e.direction
      } else if k < hi {
        changes[k - lo] += e.direction
      }
    }
    guard crossed || base != 0 else { return }
    var w = base
    let clips = source.clips
    for s in 0..<(hi - lo) {
      w += changes[s]
      guard PathProjection.isInside(w, layer.pathRule) else { continue }
      if !clips.isEmpty {
        let x = sampleX(lo + s)
        var clipped = false
        for clip in clips where !clip.contains(x, y) { clipped = true }
        if clipped { continue }
      }
      counts[s >> 2] += 1
    }
  }

  /// The x of sample column `k` (pixel `k >> 2`, sample `k & 3`), as the reference computes it.
  @inline(__always)
  static func sampleX(_ k: Int) -> Double { ReferenceRasterizer.sample(k >> 2, k & 3) }

  /// The first sample column in `lo...hi` whose x is greater than `x` (`hi` when none is).
  @inline(__always)
  static func firstSample(rightOf x: Double, _ lo: Int, _ hi: Int) -> Int {
    if !(x >= sampleX(lo)) { return lo }
    if x >= sampleX(hi - 1) { return hi }
    var k = Swift.min(Swift.max(Int((4 * x - 0.5).rounded(.down)) + 1, lo + 1), hi - 1)
    while k > lo && sampleX(k - 1) > x { k -= 1 }
    while k < hi && sampleX(k) <= x { k += 1 }
    return k
  }

  /// Blends pixels `start..<start + n` of a path row by their hit counts: runs of 16 as one
  /// span of the colour, the others the colour times hits/16 (the reference's arithmetic).
  @inline(__always)
  static func pathPixels(
    _ start: Int, _ n: Int, _ counts: UnsafeMutablePointer<UInt8>, _ layer: PreparedLayer,
    _ row: UnsafeMutablePointer<Float>, _ dirty: inout (lo: Int, hi: Int)
  ) {
    let full = SIMD4<Float>(layer.pathColor) * layer.opacity
    var i = 0
    while i < n {
      let c = counts[i]
      guard c > 0 else {
        i += 1
        continue
      }
      dirty.lo = Swift.min(dirty.lo, start + i)
      if c == 16 {
        var j = i + 1
        while j < n && counts[j] == 16 { j += 1 }
        fillSpan(row + 4 * (start + i), count: j - i, full, add: layer.add)
        dirty.hi = Swift.max(dirty.hi, start + j)
        i = j
        continue
      }
      ReferenceRasterizer.blend(
        layer.pathColor * Double(c), layer.opacity, layer.add, row + 4 * (start + i))
      dirty.hi = Swift.max(dirty.hi, start + i + 1)
      i += 1
    }
  }
}
