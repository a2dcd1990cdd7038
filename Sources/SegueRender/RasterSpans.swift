import Segue
import SegueSIMDSupport

/// Rows of a premultiplied RGBA Float image the kernels write: row `y` of the image starts at
/// `base + (y − firstRow)·stride`.
struct RasterTarget {
  var base: UnsafeMutablePointer<Float>
  var stride: Int
  var firstRow: Int

  @inline(__always)
  func row(_ y: Int) -> UnsafeMutablePointer<Float> { base + (y - firstRow) * stride }
}

/// The fast rasteriser's per-layer row loop and its span kernels.
///
/// **Classification.** On each pixel row `[py, py + 1]` the layer's projected polygon gives two
/// x-ranges (``ScreenPolygon/spans(_:_:)``): the **outer** one, outside which no sample of the
/// row can hit the layer, and the **inner** one, inside which every point of the row's pixels is
/// inside the polygon. A pixel in the outer range but not wholly in the inner one is an **edge
/// pixel**: it is sampled exactly as the reference does (``ReferenceRasterizer/supersample``,
/// the same `Double` arithmetic, so it is bit-identical). A pixel wholly in the inner range has
/// all 16 samples inside the layer (each sample is ⅛ pixel inside its pixel, far more than the
/// `Double` rounding of the polygon), so its colour is the mean of the paint over the pixel: the
/// fill, one colour for the whole span when it is solid or when a gradient does not change along
/// the row, else the fill at each pixel's mean gradient parameter (``interior(_:_:_:_:_:)``: the
/// fill is linear in `t`, so only `t` is averaged).
///
/// Spans of one colour go through ``fillSpan(_:count:_:add:)``: 4 pixels per 16-lane vector,
/// a plain store when the colour is opaque and blends "over".
enum RasterSpans {
  /// One layer being drawn with its slices of the program's pools.
  struct Source {
    let layer: PreparedLayer
    let regions: UnsafeBufferPointer<ScreenPolygon>
    let clips: UnsafeBufferPointer<PreparedClip>
    var edges: UnsafeBufferPointer<PathEdge>

    init(_ layer: PreparedLayer, _ program: RasterProgram.View) {
      self.layer = layer
      regions = UnsafeBufferPointer(
        rebasing: program.regions[layer.regionStart..<(layer.regionStart + layer.regionCount)])
      clips = UnsafeBufferPointer(
        rebasing: program.clips[layer.clipStart..<(layer.clipStart + layer.clipCount)])
      edges = UnsafeBufferPointer(
        rebasing: program.edges[layer.edgeStart..<(layer.edgeStart + layer.edgeCount)])
    }
  }

  /// Draws `layer` onto rows `rows` of `target` (every row in `rows` must be in the image), and
  /// returns the x-range of pixels it may have changed (empty as `(Int.max, Int.min)`). Its
  /// plain spans may leave out the columns `hidden`, which a later draw overwrites; a path part
  /// sorts its rows' crossings in `crossings` (``PathRowCrossings/bufferCount`` values), from
  /// its edges that reach `rows`, copied to `bandEdges` (room for all its edges) when given. With
  /// `runs` (over `target`), a separable layer edits the runs and every other layer
  /// materialises its pixel box first.
  static func draw(
    _ layer: PreparedLayer, _ program: RasterProgram.View, target: RasterTarget, rows: Range<Int>,
    hidden: Range<Int> = 0..<0, crossings: UnsafeMutablePointer<Int32>,
    bandEdges: UnsafeMutablePointer<PathEdge>? = nil, runs: SolidRunRows? = nil
  ) -> (lo: Int, hi: Int) {
    let first = Swift.max(rows.lowerBound, layer.y0)
    let last = Swift.min(rows.upperBound, layer.y1)
    var dirty = (lo: Int.max, hi: Int.min)
    guard first < last else { return dirty }
    if let runs, !layer.separable {
      for py in first..<last { runs.materialise(py, layer.x0, layer.x1) }
    }
    var source = Source(layer, program)
    if layer.part == .paths, let bandEdges {
      var n = 0
      for e in source.edges where e.y0 < Double(last) && e.y1 > Double(first) {
        bandEdges[n] = e
        n += 1
      }
      source.edges = UnsafeBufferPointer(start: bandEdges, count: n)
    }
    // Rows read a constant: a `var` passed to each row was copied for each row (its layer's
    // references retained and released).
    let rowSource = source
    for py in first..<last {
      if layer.part == .paths {
        pathRow(py, rowSource, target.row(py), &dirty, crossings: crossings)
      } else if layer.separable {
        separableRow(py, rowSource, target.row(py), &dirty, hidden: hidden, runs: runs)
      } else {
        generalRow(py, rowSource, target.row(py), &dirty, hidden: hidden)
      }
    }
    return dirty
  }

  /// What a run of pixels of a row gets, by priority: a higher kind wins where runs overlap.
  enum Kind: Int {
    /// The part's plain colour (the fill, the border colour, the shadow's full colour).
    case fill = 0
    /// Inside the border's hole: nothing.
    case skip = 1
    /// Sampled exactly as the reference does.
    case exact = 2
  }

  /// One row of a layer that is not separable. The part's projected extent gives the row's
  /// outer pixels (narrowed by each clip's), the core's inner span (narrowed by each clip's
  /// core) the pixels that are wholly inside; the rest of the outer pixels are sampled. Inside,
  /// the sampled regions (rounded corners) and the border's hole (its boundary sampled, its
  /// inside skipped) are laid over the plain span and each run is drawn by its kind.
  static func generalRow(
    _ py: Int, _ source: Source, _ row: UnsafeMutablePointer<Float>,
    _ dirty: inout (lo: Int, hi: Int), hidden: Range<Int>
  ) {
    let layer = source.layer
    let top = Double(py)
    let bottom = top + 1
    // Outer and inner pixel ranges on this row; without a usable polygon, all sampled.
    var ox0 = layer.x0
    var ox1 = layer.x1
    var ix0 = ox1
    var ix1 = ox1
    if layer.polygon.isFinite && layer.core.isFinite {
      guard let outer = layer.polygon.spans(top, bottom).outer else { return }
      ox0 = Swift.max(ox0, index(outer.lo.rounded(.down), layer.x0, layer.x1))
      ox1 = Swift.min(ox1, index(outer.hi.rounded(.up), layer.x0, layer.x1))
      if let inner = layer.core.spans(top, bottom).inner {
        ix0 = index(inner.lo.rounded(.up), ox0, ox1)
        ix1 = index(inner.hi.rounded(.down), ox0, ox1)
      }
    }
    for clip in source.clips {
      guard clip.core.isFinite && (clip.polygon.isFinite || clip.decidesPixels) else {
        ix1 = ix0  // sample everything
        continue
      }
      if clip.polygon.isFinite {
        guard let outer = clip.polygon.spans(top, bottom).outer else { return }
        ox0 = Swift.max(ox0, index(outer.lo.rounded(.down), layer.x0, layer.x1))
        ox1 = Swift.min(ox1, index(outer.hi.rounded(.up), layer.x0, layer.x1))
      }
      if let inner = clip.core.spans(top, bottom).inner {
        ix0 = Swift.max(ix0, index(inner.lo.rounded(.up), layer.x0, layer.x1))
        ix1 = Swift.min(ix1, index(inner.hi.rounded(.down), layer.x0, layer.x1))
      } else {
        ix1 = ix0
      }
    }
    guard ox0 < ox1 else { return }
    ix0 = Swift.min(Swift.max(ix0, ox0), ox1)
    ix1 = Swift.min(Swift.max(ix1, ix0), ox1)
    dirty.lo = Swift.min(dirty.lo, ox0)
    dirty.hi = Swift.max(dirty.hi, ox1)
    edgePixels(ox0..<ix0, py, source, row)
    edgePixels(ix1..<ox1, py, source, row)
    guard ix0 < ix1 else { return }
    // Runs laid over the plain span [ix0, ix1): at most 2 per region and the hole.
    var runs = RowRuns()
    func span(_ polygon: ScreenPolygon) -> (lo: Int, hi: Int)? {
      guard polygon.isFinite else { return (ix0, ix1) }
      guard let o = polygon.spans(top, bottom).outer else { return nil }
      return (index(o.lo.rounded(.down), ix0, ix1), index(o.hi.rounded(.up), ix0, ix1))
    }
    for region in source.regions {
      if let r = span(region) { runs.add(r.lo, r.hi, .exact) }
    }
    if layer.hole.count > 0 {
      if let r = span(layer.hole) {
        var (skip0, skip1) = (r.hi, r.hi)
        if layer.hole.isFinite, let inner = layer.hole.spans(top, bottom).inner {
          skip0 = index(inner.lo.rounded(.up), r.lo, r.hi)
          skip1 = Swift.max(index(inner.hi.rounded(.down), r.lo, r.hi), skip0)
        }
        runs.add(r.lo, skip0, .exact)
        runs.add(skip0, skip1, .skip)
        runs.add(skip1, r.hi, .exact)
      }
    }
    runs.forEachRun(ix0, ix1) { lo, hi, kind in
      switch kind {
      case .fill:
        let (left, right) = visibleParts(lo..<hi, hidden)
        plain(left, py, layer, row)
        plain(right, py, layer, row)
      case .skip: break
      case .exact: edgePixels(lo..<hi, py, source, row)
      }
    }
  }

  /// Up to 16 pixel runs of a row with their kinds, walked in order with the highest kind where
  /// they overlap.
  struct RowRuns {
    var lo = SIMD16<Int>.zero
    var hi = SIMD16<Int>.zero
    var kind = SIMD16<Int>.zero
    var count = 0

    mutating func add(_ a: Int, _ b: Int, _ k: Kind) {
      guard a < b, count < 16 else { return }
      lo[count] = a
      hi[count] = b
      kind[count] = k.rawValue
      count += 1
    }

    /// Calls `body` for each maximal run of one kind covering `[start, end)`.
    func forEachRun(_ start: Int, _ end: Int, _ body: (Int, Int, Kind) -> Void) {
      var x = start
      while x < end {
        // The kind at x, and where it may change next.
        var k = 0
        var next = end
        for i in 0..<count {
          if lo[i] <= x && x < hi[i] {
            k = Swift.max(k, kind[i])
            next = Swift.min(next, hi[i])
          } else if lo[i] > x {
            next = Swift.min(next, lo[i])
          }
        }
        body(x, next, Kind(rawValue: k)!)
        x = next
      }
    }
  }

  /// The part's plain colour over `span`: the body's fill (``interior(_:_:_:_:_:)``), the border
  /// colour, the shadow's colour at full coverage, the contents image
  /// (``contentsSpan(_:_:_:_:)``) or the gradient (``gradientSpan(_:_:_:_:)``).
  @inline(__always)
  static func plain(
    _ span: Range<Int>, _ py: Int, _ layer: PreparedLayer, _ row: UnsafeMutablePointer<Float>
  ) {
    guard !span.isEmpty else { return }
    switch layer.part {
    case .body:
      interior(span, py, layer, SIMD4<Float>(layer.paint.top) * layer.opacity, row)
    case .border:
      let c = SIMD4<Float>(layer.paint.borderColor) * layer.opacity
      fillSpan(row + 4 * span.lowerBound, count: span.count, c, add: layer.add)
    case .shadow:
      let c = SIMD4<Float>(layer.paint.shadowColor) * layer.opacity
      fillSpan(row + 4 * span.lowerBound, count: span.count, c, add: layer.add)
    case .contents:
      contentsSpan(span, py, layer, row)
    case .gradient:
      gradientSpan(span, py, layer, row)
    case .paths:
      break  // drawn by pathRow
    }
  }

  /// One row of a separable layer (``PreparedLayer/separable``). Its four sample rows are
  /// tested once (`v = (y·h4 + h7)/h8`), giving `nV` rows inside and the sum `F` of the fill
  /// over them; a pixel whose column has `nU` samples inside then has the reference's hits
  /// `nU·nV` and colour sum `nU·F`. Full columns form one span of one colour (the interior
  /// when `nV = 4`, a partially covered row otherwise). Anything within the layer's margin of a
  /// bound is sampled exactly instead. With `runs`, the span of full columns is a run edit
  /// and the sampled pixels are materialised first.
  @inline(__always)
  static func separableRow(
    _ py: Int, _ source: Source, _ row: UnsafeMutablePointer<Float>,
    _ dirty: inout (lo: Int, hi: Int), hidden: Range<Int>, runs: SolidRunRows?
  ) {
    let layer = source.layer
    let h = layer.inverse
    let paint = layer.paint
    let margin = layer.marginV
    var nV = 0
    var sum = SIMD4<Double>.zero
    // Rows near a bound are sampled exactly (their decision may depend on x).
    var exactRow = false
    for b in 0..<4 {
      let y = ReferenceRasterizer.sample(py, b)
      let v = (y * h.h4 + h.h7) / h.h8
      if abs(v - paint.minY) <= margin || abs(v - paint.maxY) <= margin { exactRow = true }
      guard v >= paint.minY && v < paint.maxY else { continue }
      nV += 1
      sum += paint.fill(v)
    }
    let columns = layer.columns
    let full = columns.full
    if exactRow {
      // Every column that may hold a sample, sampled as the reference samples it.
      var lo = full.isEmpty ? Int.max : full.lowerBound
      var hi = full.isEmpty ? Int.min : full.upperBound
      for k in 0..<columns.partialCount {
        lo = Swift.min(lo, Int(columns.partial[k]))
        hi = Swift.max(hi, Int(columns.partial[k]) + 1)
      }
      guard lo < hi else { return }
      dirty.lo = Swift.min(dirty.lo, lo)
      dirty.hi = Swift.max(dirty.hi, hi)
      runs?.materialise(py, lo, hi)
      edgePixels(lo..<hi, py, source, row)
      return
    }
    guard nV > 0 else { return }
    for k in 0..<columns.partialCount {
      let px = Int(columns.partial[k])
      let n = columns.counts[k]
      dirty.lo = Swift.min(dirty.lo, px)
      dirty.hi = Swift.max(dirty.hi, px + 1)
      if hidden.contains(px) { continue }
      runs?.materialise(py, px, px + 1)
      if n < 0 {
        edgePixels(px..<(px + 1), py, source, row)
      } else {
        let s = SIMD4<Float>(sum * Double(n) / 16) * layer.opacity
        ReferenceRasterizer.blend(s, layer.add, row + 4 * px)
      }
    }
    guard !full.isEmpty else { return }
    dirty.lo = Swift.min(dirty.lo, full.lowerBound)
    dirty.hi = Swift.max(dirty.hi, full.upperBound)
    let c = SIMD4<Float>(sum * 4 / 16) * layer.opacity
    if let runs {
      let (left, right) = visibleParts(full, hidden)
      runs.fill(py, left.lowerBound, left.upperBound, c, add: layer.add)
      runs.fill(py, right.lowerBound, right.upperBound, c, add: layer.add)
    } else {
      visibleFill(row, full, c, add: layer.add, hidden: hidden)
    }
  }

  /// The parts of `span` left and right of `hidden` (either may be empty).
  @inline(__always)
  static func visibleParts(_ span: Range<Int>, _ hidden: Range<Int>) -> (Range<Int>, Range<Int>) {
    let lo = span.lowerBound
    let hi = span.upperBound
    let leftEnd = Swift.max(lo, Swift.min(hi, hidden.lowerBound))
    let rightStart = Swift.min(hi, Swift.max(lo, hidden.upperBound))
    return hidden.isEmpty ? (span, hi..<hi) : (lo..<leftEnd, rightStart..<hi)
  }

  /// ``fillSpan(_:count:_:add:)`` over the pixels of `span` outside `hidden`.
  @inline(__always)
  static func visibleFill(
    _ row: UnsafeMutablePointer<Float>, _ span: Range<Int>, _ c: SIMD4<Float>, add: Bool,
    hidden: Range<Int>
  ) {
    let (left, right) = visibleParts(span, hidden)
    if !left.isEmpty { fillSpan(row + 4 * left.lowerBound, count: left.count, c, add: add) }
    if !right.isEmpty { fillSpan(row + 4 * right.lowerBound, count: right.count, c, add: add) }
  }

  /// `v` rounded to an index and clamped to `[lo, hi]` (safe for huge or infinite `v`).
  @inline(__always)
  static func index(_ v: Double, _ lo: Int, _ hi: Int) -> Int {
    if !(v > Double(lo)) { return lo }
    if !(v < Double(hi)) { return hi }
    return Int(v)
  }

  /// Samples each pixel of `span` 16 times, as the reference does.
  @inline(__always)
  static func edgePixels(
    _ span: Range<Int>, _ py: Int, _ source: Source, _ row: UnsafeMutablePointer<Float>
  ) {
    let layer = source.layer
    if layer.part == .body && !layer.paint.isGradient && source.clips.isEmpty {
      return solidEdgePixels(span, py, layer, row)
    }
    for px in span {
      let (sum, hits) = ReferenceRasterizer.supersample(
        px, py, layer.inverse, layer.paint, layer.part, source.clips)
      guard hits > 0 else { continue }
      ReferenceRasterizer.blend(sum, layer.opacity, layer.add, row + 4 * px)
    }
  }

  /// ``edgePixels(_:_:_:_:)`` for a solid body without clips, a pixel's 16 samples in one
  /// vector: each lane computes `u`, `v`, `Ω` and the inside decision with the reference's
  /// `Double` operations in the reference's order, and the colour is summed once per hit, so
  /// the sum is ``ReferenceRasterizer/supersample(_:_:_:_:_:_:)``'s bit for bit.
  static func solidEdgePixels(
    _ span: Range<Int>, _ py: Int, _ layer: PreparedLayer, _ row: UnsafeMutablePointer<Float>
  ) {
    let h = layer.inverse
    let shape = layer.paint.body
    let colour = layer.paint.top
    let samples = SampleGrid.self
    let y = Double(py) + samples.rowOffsets
    let (yu, yv, yw) = (y * h.h3, y * h.h4, y * h.h5)
    let maximumOmega = 1 / Transform3D.minimumW
    for px in span {
      let x = Double(px) + samples.columnOffsets
      let omega = x * h.h2 + yw + h.h8
      let u = (x * h.h0 + yu + h.h6) / omega
      let v = (x * h.h1 + yv + h.h7) / omega
      let front = (omega .> 0) .& (omega .< maximumOmega)
      let box = (u .>= shape.x0) .& (u .< shape.x1) .& (v .>= shape.y0) .& (v .< shape.y1)
      let corners = shape.radius > 0 ? outsideCorners(u, v, shape) : .init(repeating: false)
      let inside = front .& box .& .!corners
      let hits = Int(SIMD16<Double>.zero.replacing(with: 1, where: inside).sum())
      guard hits > 0 else { continue }
      var sum = SIMD4<Double>.zero
      for _ in 0..<hits { sum += colour }
      ReferenceRasterizer.blend(sum, layer.opacity, layer.add, row + 4 * px)
    }
  }

  /// The lanes of `(u, v)` outside `shape`'s rounded corners (``RoundedRect/contains(_:_:)``
  /// past its rectangle test, lane by lane).
  @inline(__always)
  static func outsideCorners(_ u: SIMD16<Double>, _ v: SIMD16<Double>, _ shape: RoundedRect)
    -> SIMDMask<SIMD16<Int64>>
  {
    let r = shape.radius
    let (left, right, top, bottom) = (shape.x0 + r, shape.x1 - r, shape.y0 + r, shape.y1 - r)
    let cx = u.replacing(with: right, where: u .> right).replacing(with: left, where: u .< left)
    let cy = v.replacing(with: bottom, where: v .> bottom).replacing(with: top, where: v .< top)
    let dx = u - cx
    let dy = v - cy
    let far = dx * dx + dy * dy .> r * r
    let (west, north) = (u .< cx, v .< cy)
    let none = SIMDMask<SIMD16<Int64>>(repeating: false)
    let topLeft = shape.rounds(0) ? west .& north : none
    let topRight = shape.rounds(1) ? .!west .& north : none
    let bottomLeft = shape.rounds(2) ? west .& .!north : none
    let bottomRight = shape.rounds(3) ? .!west .& .!north : none
    return far .& (topLeft .| topRight .| bottomLeft .| bottomRight)
  }

  /// A pixel's 16 sample offsets in the reference's order (row `b` major, column `a` minor),
  /// `(k + ½)/4` as ``ReferenceRasterizer/sample(_:_:)`` adds them.
  enum SampleGrid {
    static let columnOffsets = SIMD16<Double>(
      (0..<16).map { (Double($0 % 4) + 0.5) * 0.25 })
    static let rowOffsets = SIMD16<Double>((0..<16).map { (Double($0 / 4) + 0.5) * 0.25 })
  }

  /// Pixels wholly inside the layer: the fill.
  ///
  /// A gradient's colour at a pixel is the fill at the mean `t` of its 16 samples. Where `Ω`
  /// is constant along the row (no perspective in x, to 10⁻¹² relative), `v` is linear in `x`
  /// on each sample row, so a pixel's mean `t` is the mean over its four sample rows at its
  /// centre column, linear in the pixel index: the span is one colour when `t` changes by less
  /// than 10⁻⁷ across it (far below 1/255), else `t` is stepped per pixel. Otherwise each pixel
  /// averages its 16 samples.
  @inline(__always)
  static func interior(
    _ span: Range<Int>, _ py: Int, _ layer: PreparedLayer, _ flat: SIMD4<Float>,
    _ row: UnsafeMutablePointer<Float>
  ) {
    guard !span.isEmpty else { return }
    let paint = layer.paint
    let start = row + 4 * span.lowerBound
    guard paint.isGradient && paint.height > 0 else {
      return fillSpan(start, count: span.count, flat, add: layer.add)
    }
    let h = layer.inverse
    let first = Double(span.lowerBound) + 0.5
    let last = Double(span.upperBound) - 0.5
    let y = Double(py) + 0.5
    let omegaFirst = first * h.h2 + y * h.h5 + h.h8
    let omegaLast = last * h.h2 + y * h.h5 + h.h8
    guard abs(omegaLast - omegaFirst) <= 1e-12 * abs(omegaFirst) else {
      for px in span {
        ReferenceRasterizer.blend(gradient(meanT(px, py, layer), layer), layer.add, row + 4 * px)
      }
      return
    }
    let tFirst = columnMeanT(first, py, layer)
    let tLast = columnMeanT(last, py, layer)
    if abs(tLast - tFirst) <= 1e-7 {
      return fillSpan(
        start, count: span.count, gradient((tFirst + tLast) / 2, layer), add: layer.add)
    }
    let step = (tLast - tFirst) / Double(span.count - 1)
    for k in 0..<span.count {
      let t = tFirst + Double(k) * step
      ReferenceRasterizer.blend(gradient(t, layer), layer.add, start + 4 * k)
    }
  }

  /// The gradient's colour at `t` (clamped to `[0, 1]`), times the layer opacity:
  /// `((1 − t)·top + t·bottom)·o`.
  @inline(__always)
  static func gradient(_ t: Double, _ layer: PreparedLayer) -> SIMD4<Float> {
    let t = Swift.min(Swift.max(t, 0), 1)
    return SIMD4<Float>((1 - t) * layer.paint.top + t * layer.paint.bottom) * layer.opacity
  }

  /// The mean of the gradient parameter `t = (v − minY)/height` over the 16 samples of pixel
  /// `(px, py)`.
  @inline(__always)
  static func meanT(_ px: Int, _ py: Int, _ layer: PreparedLayer) -> Double {
    var sum = 0.0
    for a in 0..<4 { sum += columnMeanT(ReferenceRasterizer.sample(px, a), py, layer) }
    return sum / 4
  }

  /// The mean of `t` over the four sample rows of pixel row `py` at column `x`.
  @inline(__always)
  static func columnMeanT(_ x: Double, _ py: Int, _ layer: PreparedLayer) -> Double {
    let h = layer.inverse
    var sum = 0.0
    for b in 0..<4 {
      let y = ReferenceRasterizer.sample(py, b)
      sum += (x * h.h1 + y * h.h4 + h.h7) / (x * h.h2 + y * h.h5 + h.h8)
    }
    return (sum / 4 - layer.paint.minY) / layer.paint.height
  }

  // MARK: - Span kernels

  /// Four copies of `c`: four RGBA pixels in one vector.
  @inline(__always)
  static func splat(_ c: SIMD4<Float>) -> SIMD16<Float> {
    let half = SIMD8(lowHalf: c, highHalf: c)
    return SIMD16(lowHalf: half, highHalf: half)
  }

  /// The first `floats` lanes from `p` (the rest zero): a partial vector at a span's end.
  @inline(__always)
  static func loadPartial(_ p: UnsafePointer<Float>, _ floats: Int) -> SIMD16<Float> {
    var v = SIMD16<Float>.zero
    for i in 0..<floats { v[i] = p[i] }
    return v
  }

  @inline(__always)
  static func storePartial(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Float>, _ floats: Int) {
    for i in 0..<floats { p[i] = v[i] }
  }

  /// Blends the colour `c` (premultiplied, opacity applied) onto `count` pixels at `p`: "add"
  /// `clamp(d + c)`, "over" `clamp(c + (1 − c_A)·d)` (the reference's formula and order), or a
  /// plain store when "over" with `c_A = 1`. (Written out per case: a closure per vector is not
  /// inlined and costs a call per 4 pixels.)
  static func fillSpan(
    _ p: UnsafeMutablePointer<Float>, count: Int, _ c: SIMD4<Float>, add: Bool
  ) {
    if !add && c[3] >= 1 { return setSpan(p, count: count, c) }
    let c16 = splat(c)
    let k = SIMD16<Float>(repeating: add ? 1 : 1 - c[3])
    let n = 4 * count
    var i = 0
    if add {
      while i + 16 <= n {
        segue_store_f32x16(p + i, segue_clamp01_f32x16(segue_load_f32x16(p + i) + c16))
        i += 16
      }
    } else {
      while i + 16 <= n {
        segue_store_f32x16(p + i, segue_clamp01_f32x16(c16 + k * segue_load_f32x16(p + i)))
        i += 16
      }
    }
    if i < n {
      let d = loadPartial(p + i, n - i)
      storePartial(segue_clamp01_f32x16(add ? d + c16 : c16 + k * d), p + i, n - i)
    }
  }

  /// `d = clamp(s·o + (1 − s_A·o)·d)` for `count` pixels (``BlendKernels/overFloat``'s formula).
  static func overSpan(
    _ s: UnsafePointer<Float>, _ d: UnsafeMutablePointer<Float>, count: Int, opacity o: Float
  ) {
    let n = 4 * count
    var i = 0
    let one = SIMD16<Float>(repeating: 1)
    while i + 16 <= n {
      let sv = segue_load_f32x16(s + i) * o
      let r = sv + (one - segue_alpha_f32x16(sv)) * segue_load_f32x16(d + i)
      segue_store_f32x16(d + i, segue_clamp01_f32x16(r))
      i += 16
    }
    if i < n {
      let sv = loadPartial(s + i, n - i) * o
      let r = sv + (one - segue_alpha_f32x16(sv)) * loadPartial(d + i, n - i)
      storePartial(segue_clamp01_f32x16(r), d + i, n - i)
    }
  }

  /// `d = clamp(d + w·s)` for `count` pixels.
  static func addSpan(
    _ s: UnsafePointer<Float>, _ d: UnsafeMutablePointer<Float>, count: Int, weight w: Float
  ) {
    let n = 4 * count
    var i = 0
    while i + 16 <= n {
      let r = segue_load_f32x16(d + i) + w * segue_load_f32x16(s + i)
      segue_store_f32x16(d + i, segue_clamp01_f32x16(r))
      i += 16
    }
    if i < n {
      let r = loadPartial(d + i, n - i) + w * loadPartial(s + i, n - i)
      storePartial(segue_clamp01_f32x16(r), d + i, n - i)
    }
  }

  /// Stores `c` in `count` pixels at `p`.
  static func setSpan(_ p: UnsafeMutablePointer<Float>, count: Int, _ c: SIMD4<Float>) {
    let c16 = splat(c)
    let n = 4 * count
    var i = 0
    while i + 16 <= n {
      segue_store_f32x16(p + i, c16)
      i += 16
    }
    if i < n { storePartial(c16, p + i, n - i) }
  }

  /// Quantises `count` pixels (``PixelBufferRGBA8/quantise(_:)``, up to the single-precision
  /// rounding of `255·c`) from `s` to bytes at `d`.
  static func quantiseSpan(
    _ s: UnsafePointer<Float>, _ d: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    let n = 4 * count
    var i = 0
    while i + 16 <= n {
      segue_store_u8x16(d + i, segue_quantise_f32x16(segue_load_f32x16(s + i)))
      i += 16
    }
    if i < n {
      let q = segue_quantise_f32x16(loadPartial(s + i, n - i))
      for k in 0..<(n - i) { d[i + k] = q[k] }
    }
  }
}
