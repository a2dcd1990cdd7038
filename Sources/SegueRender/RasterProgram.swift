import Segue

/// A convex polygon in image pixels (a layer's projected, eye-plane-clipped bounds: at most 5
/// vertices), with the row queries the fast rasteriser needs.
struct ScreenPolygon: Sendable {
  var x = SIMD8<Double>.zero
  var y = SIMD8<Double>.zero
  var count = 0
  var minX = Double.infinity
  var maxX = -Double.infinity
  var minY = Double.infinity
  var maxY = -Double.infinity
  /// Every coordinate is finite (a layer far beyond `Double` range is drawn by sampling alone).
  var isFinite = true

  init() {}

  /// The visible polygon of `rect` mapped by `matrix`: ``Transform3D/mapQuad(_:)`` (at most 5
  /// vertices), without allocating.
  init(_ rect: Rect, _ matrix: Transform3D) {
    matrix.forEachMappedQuadVertex(Quad(rect)) { append($0) }
  }

  /// The visible polygon of the convex `polygon` (layer coordinates) mapped by `matrix`
  /// (``/Segue/Transform3D/mapPolygon(_:)``); a polygon of more than 8 vertices is not finite
  /// (its pixels are all sampled).
  init(_ polygon: [Point], _ matrix: Transform3D) {
    let mapped = polygon.count >= 3 ? matrix.mapPolygon(polygon) : []
    guard mapped.count <= 8 else {
      isFinite = false
      return
    }
    for p in mapped { append(p) }
  }

  /// Adds the vertex `p` (the first 8 only).
  private mutating func append(_ p: Point) {
    guard count < 8 else { return }
    x[count] = p.x
    y[count] = p.y
    count += 1
    isFinite = isFinite && p.x.isFinite && p.y.isFinite
    minX = Swift.min(minX, p.x)
    maxX = Swift.max(maxX, p.x)
    minY = Swift.min(minY, p.y)
    maxY = Swift.max(maxY, p.y)
  }

  /// The x-extent `[lo, hi]` of the polygon on the line `y = line`, or `nil` when it misses.
  @inline(__always)
  func chord(_ line: Double) -> (lo: Double, hi: Double)? {
    var lo = Double.infinity
    var hi = -Double.infinity
    for i in 0..<count {
      let j = i + 1 == count ? 0 : i + 1
      let (xa, ya, xb, yb) = (x[i], y[i], x[j], y[j])
      if ya == yb {
        if line == ya {
          lo = Swift.min(lo, Swift.min(xa, xb))
          hi = Swift.max(hi, Swift.max(xa, xb))
        }
        continue
      }
      guard line >= Swift.min(ya, yb) && line <= Swift.max(ya, yb) else { continue }
      let xx = xa + (line - ya) / (yb - ya) * (xb - xa)
      lo = Swift.min(lo, xx)
      hi = Swift.max(hi, xx)
    }
    return lo <= hi ? (lo, hi) : nil
  }

  /// For the band of rows `top ≤ y ≤ bottom`: `outer`, the x-extent of the part of the polygon in the
  /// band, and `inner`, the x-range inside the polygon on every line of the band (empty when
  /// the band is not entirely within the polygon's y-range).
  ///
  /// For a convex polygon the left boundary `L(y)` is convex and the right one `R(y)` concave,
  /// so the inner range is `[max(L(top), L(bottom)), min(R(top), R(bottom))]` and the outer one needs the
  /// chords at the band's ends plus the vertices inside it.
  func spans(_ top: Double, _ bottom: Double) -> (
    outer: (lo: Double, hi: Double)?, inner: (lo: Double, hi: Double)?
  ) {
    let a = Swift.max(top, minY)
    let b = Swift.min(bottom, maxY)
    guard a <= b, let c0 = chord(a), let c1 = chord(b) else { return (nil, nil) }
    var lo = Swift.min(c0.lo, c1.lo)
    var hi = Swift.max(c0.hi, c1.hi)
    for i in 0..<count where y[i] > a && y[i] < b {
      lo = Swift.min(lo, x[i])
      hi = Swift.max(hi, x[i])
    }
    guard a == top, b == bottom else { return ((lo, hi), nil) }
    let innerLo = Swift.max(c0.lo, c1.lo)
    let innerHi = Swift.min(c0.hi, c1.hi)
    return ((lo, hi), innerLo < innerHi ? (innerLo, innerHi) : nil)
  }
}

/// One layer prepared for the fast rasteriser: everything per layer computed once per frame,
/// as plain values.
struct PreparedLayer: Sendable {
  /// The snapshot's colours and shapes.
  var paint: SnapshotPaint
  /// The part drawn: one layer part per prepared layer.
  var part: LayerPart
  /// Pixel → layer homography (``Homography``).
  var inverse: Homography
  /// The projected extent of the part (``SnapshotPaint/extent(of:)``).
  var polygon: ScreenPolygon
  /// The projected rectangle whose wholly covered pixels take the part's plain colour (the
  /// bounds for the body and the border, the shadow's core), before the special regions.
  var core: ScreenPolygon
  /// The border's projected hole rectangle (pixels wholly inside are skipped), or empty.
  var hole: ScreenPolygon
  /// Projected rectangles where every pixel is sampled (rounded corner squares), in the
  /// program's region pool.
  var regionStart = 0
  var regionCount = 0
  /// The clips, in the program's clip pool.
  var clipStart = 0
  var clipCount = 0
  /// The pixels the reference visits (``ReferenceRasterizer/pixelBox(_:width:height:)``).
  var x0: Int
  var x1: Int
  var y0: Int
  var y1: Int
  var opacity: Float
  var add: Bool
  /// The map is affine (`h2 = h5 = 0` exactly in the inverse, so `Ω = h8` everywhere) and
  /// axis-aligned to within `marginU`, `marginV` (``separability(_:box:)``): `u` is taken as a
  /// function of `x` alone, `(x·h0 + h6)/h8`, and `v` of `y` alone, `(y·h4 + h7)/h8`, so a
  /// sample is inside when its column and its row are (``SeparableColumns``). A column or row
  /// whose `u` or `v` lies within the margin of a bound is sampled exactly,
  /// so every decision is the reference's.
  var separable: Bool
  /// How far the reference's `u` (or `v`) can be from the separable one: the neglected
  /// `y·h3/h8` (`x·h1/h8`) over the box plus a generous bound on both roundings.
  var marginU: Double
  var marginV: Double
  /// For a separable layer: which pixel columns have all, some or none of their four sample
  /// columns inside `[minX, maxX)`.
  var columns: SeparableColumns
  /// For a path fill: its projected edges in the program's edge pool, its premultiplied colour
  /// and its fill rule.
  var edgeStart = 0
  var edgeCount = 0
  var pathColor = SIMD4<Double>.zero
  var pathRule = FillRule.nonZero
  /// The pixels this layer sets to one opaque colour whatever lies below (a plain store), on
  /// the frame level: empty unless it is a separable, solid, opaque body at opacity 1 drawn
  /// "over" onto the frame. Draws on the frame before it may skip these pixels
  /// (``RasterProgram/hiddenColumns(before:rows:)``).
  var opaqueRows = 0..<0
  var opaqueColumns = 0..<0
}

/// The pixel columns of a separable layer by how many of their four sample columns
/// `x = px + (a + ½)/4` map inside the bounds: all four in `full`, between one and three in
/// up to 8 `partial` columns (with their counts), none elsewhere. Computed with the reference's
/// arithmetic (`u = (x·h0 + h6)/h8`), so the counts are the reference's.
struct SeparableColumns: Sendable {
  var full = 0..<0
  var partial = SIMD8<Int32>.zero
  var counts = SIMD8<Int32>.zero
  var partialCount = 0

  init() {}

  /// Scans the columns `x0..<x1`; `nil` when more than 8 are partial (a layer narrower than a
  /// few pixels: drawn by the general path). A column with a sample within `margin` of a bound
  /// is listed as partial with count −1 (sampled exactly).
  init?(_ h: Homography, _ paint: SnapshotPaint, x0: Int, x1: Int, margin: Double) {
    var fullLo = Int.max
    var fullHi = Int.min
    for px in x0..<x1 {
      var n: Int32 = 0
      for a in 0..<4 {
        let x = ReferenceRasterizer.sample(px, a)
        let u = (x * h.h0 + h.h6) / h.h8
        if abs(u - paint.minX) <= margin || abs(u - paint.maxX) <= margin {
          n = -1
          break
        }
        if u >= paint.minX && u < paint.maxX { n += 1 }
      }
      if n == 4 {
        fullLo = Swift.min(fullLo, px)
        fullHi = Swift.max(fullHi, px + 1)
      } else if n != 0 {
        guard partialCount < 8 else { return nil }
        partial[partialCount] = Int32(px)
        counts[partialCount] = n
        partialCount += 1
      }
    }
    if fullLo < fullHi { full = fullLo..<fullHi }
  }
}

/// A step of a compiled render list, executed per band of rows on a stack of images: level 0
/// is the frame, each ``push`` opens a cleared off-screen level and each pop composites it onto
/// the level below.
enum RasterOp: Sendable {
  /// Draws layer `index` onto the current level with its own blend mode.
  case draw(Int)
  /// Opens a cleared off-screen level.
  case push
  /// Composites the current level "over" the one below at `opacity` (``BlendKernels/overFloat``'s
  /// formula) and closes it.
  case popOver(Float)
  /// Adds the current level times `weight` to the one below, clamped to `[0, 1]`, and closes it.
  case popAdd(Float)
}

/// A render list compiled for the fast rasteriser: the ops, the prepared layers and their
/// pools. Kept in a ``RenderContext`` and refilled every frame without reallocating.
struct RasterProgram {
  var ops: [RasterOp] = []
  var layers: [PreparedLayer] = []
  /// Sampled regions (``PreparedLayer/regionStart``) and clips (``PreparedLayer/clipStart``).
  var regions: [ScreenPolygon] = []
  var clips: [PreparedClip] = []
  /// The projected edges of path fills (``PreparedLayer/edgeStart``), and working memory for
  /// projecting them.
  var edges: [PathEdge] = []
  var pathScratch: [SIMD3<Double>] = []
  /// The deepest off-screen level the ops open.
  var depth = 0
  private var level = 0

  /// The program's arrays as buffers, for the band workers.
  struct View {
    let ops: UnsafeBufferPointer<RasterOp>
    let layers: UnsafeBufferPointer<PreparedLayer>
    let regions: UnsafeBufferPointer<ScreenPolygon>
    let clips: UnsafeBufferPointer<PreparedClip>
    let edges: UnsafeBufferPointer<PathEdge>

    /// The widest run of columns that a draw after op `index` stores an opaque colour into on
    /// every row of `rows`, whatever lies below (``PreparedLayer/opaqueColumns``), or an empty
    /// range. What is drawn on the frame before that store is overwritten, so it may be skipped.
    func hiddenColumns(after index: Int, rows: Range<Int>) -> Range<Int> {
      var best = 0..<0
      var j = index + 1
      while j < ops.count {
        if case .draw(let k) = ops[j], layers[k].opaqueRows.lowerBound <= rows.lowerBound,
          rows.upperBound <= layers[k].opaqueRows.upperBound,
          layers[k].opaqueColumns.count > best.count
        {
          best = layers[k].opaqueColumns
        }
        j += 1
      }
      return best
    }
  }

  /// Calls `body` with the program's arrays as buffers (valid only inside `body`).
  func withView<R>(_ body: (View) -> R) -> R {
    ops.withUnsafeBufferPointer { ops in
      layers.withUnsafeBufferPointer { layers in
        regions.withUnsafeBufferPointer { regions in
          clips.withUnsafeBufferPointer { clips in
            edges.withUnsafeBufferPointer { edges in
              body(
                View(ops: ops, layers: layers, regions: regions, clips: clips, edges: edges))
            }
          }
        }
      }
    }
  }

  /// Empties the program, keeping its storage.
  mutating func reset() {
    ops.removeAll(keepingCapacity: true)
    layers.removeAll(keepingCapacity: true)
    regions.removeAll(keepingCapacity: true)
    clips.removeAll(keepingCapacity: true)
    edges.removeAll(keepingCapacity: true)
    depth = 0
    level = 0
  }

  mutating func push() {
    ops.append(.push)
    level += 1
    depth = Swift.max(depth, level)
  }

  mutating func pop(_ op: RasterOp) {
    ops.append(op)
    level -= 1
  }

  /// Validates `layer` and appends a draw op for it, unless it draws nothing in a
  /// `width × height` image (singular homography, or outside the image).
  ///
  /// - Throws: the errors of ``RasterLayer/validate()``.
  mutating func draw(_ layer: RasterLayer, width: Int, height: Int) throws(ValidationError) {
    try layer.validate()
    guard let inverse = Homography(plane: layer.matrix).inverted() else { return }
    let paint = SnapshotPaint(layer.snapshot)
    let clipStart = clips.count
    // The layer's clips, then its region's, appended one by one (no array per layer). A clip
    // with a singular homography contains nothing: the layer draws nothing.
    for clip in layer.clips {
      let prepared = PreparedClip(clip)
      guard prepared.inverse != nil else {
        clips.removeLast(clips.count - clipStart)
        return
      }
      clips.append(prepared)
    }
    if let prepared = layer.regionClip(paint) {
      guard prepared.inverse != nil else {
        clips.removeLast(clips.count - clipStart)
        return
      }
      clips.append(prepared)
    }
    for part in LayerPart.allCases where layer.parts.contains(part.set) && paint.has(part) {
      if part == .paths {
        preparePaths(
          layer, paint: paint, inverse: inverse, clipStart: clipStart, width: width, height: height)
        continue
      }
      prepare(
        layer, part: part, paint: paint, inverse: inverse, clipStart: clipStart, width: width,
        height: height)
    }
  }

  /// Appends the prepared layer and draw op of one part of `layer`, unless it covers no pixel.
  private mutating func prepare(
    _ layer: RasterLayer, part: LayerPart, paint: SnapshotPaint, inverse: Homography,
    clipStart: Int, width: Int, height: Int
  ) {
    let matrix = layer.matrix
    let polygon = ScreenPolygon(paint.extent(of: part), matrix)
    guard let box = ReferenceRasterizer.pixelBox(polygon, width: width, height: height) else {
      return
    }
    let clipCount = clips.count - clipStart
    var core = polygon
    var hole = ScreenPolygon()
    let regionStart = regions.count
    switch part {
    case .body:
      appendCorners(of: paint.body, matrix)
    case .border:
      appendCorners(of: paint.body, matrix)
      if !paint.hole.isEmpty {
        hole = ScreenPolygon(paint.hole.rect, matrix)
        appendCorners(of: paint.hole, matrix)
      }
    case .contents:
      if paint.contents?.clip != nil { appendCorners(of: paint.body, matrix) }
    case .gradient:
      appendCorners(of: paint.body, matrix)
    case .paths:
      return  // prepared by preparePaths
    case .shadow:
      guard let shadow = paint.shadow else { return }
      if shadow.sigma > 0 {
        // Without a core every pixel is sampled (a Rect of negative size would be normalised
        // into a real rectangle).
        core = shadow.core.map { ScreenPolygon($0, matrix) } ?? ScreenPolygon()
      }
      if shadow.sigma == 0 { appendCorners(of: shadow.shape, matrix) }
    }
    let h = inverse
    let margins =
      part == .body && paint.body.radius == 0 && clipCount == 0
      ? Self.separability(h, box: box) : nil
    var separable = margins != nil
    var columns = SeparableColumns()
    if let margins {
      // Ω = h8 everywhere: in front of the eye for every sample, or for none.
      guard h.h8 > 0 && h.h8 < 1 / Transform3D.minimumW else { return }
      if let c = SeparableColumns(h, paint, x0: box.x0, x1: box.x1, margin: margins.u) {
        columns = c
      } else {
        separable = false
      }
    }
    var prepared = PreparedLayer(
      paint: paint, part: part, inverse: inverse, polygon: polygon, core: core, hole: hole,
      regionStart: regionStart, regionCount: regions.count - regionStart, clipStart: clipStart,
      clipCount: clipCount, x0: box.x0, x1: box.x1, y0: box.y0, y1: box.y1,
      opacity: Float(layer.opacity), add: layer.blendMode == .add, separable: separable,
      marginU: margins?.u ?? 0, marginV: margins?.v ?? 0, columns: columns)
    if separable && level == 0 { Self.findOpaqueRect(&prepared) }
    layers.append(prepared)
    ops.append(.draw(layers.count - 1))
  }

  /// Sets ``PreparedLayer/opaqueRows`` and ``PreparedLayer/opaqueColumns`` of a separable
  /// body: the rows whose four sample rows are inside its bounds and clear of its margin, by the
  /// columns wholly inside, when its fill is solid and opaque, at opacity 1,
  /// drawn "over" (``RasterSpans/separableRow(_:_:_:_:hidden:)`` stores its colour there).
  static func findOpaqueRect(_ layer: inout PreparedLayer) {
    let paint = layer.paint
    guard layer.part == .body, layer.opacity == 1, !layer.add, !paint.isGradient,
      paint.top[3] == 1, !layer.columns.full.isEmpty
    else { return }
    let h = layer.inverse
    var first = Int.max
    var last = Int.min
    for py in layer.y0..<layer.y1 {
      var inside = true
      for b in 0..<4 {
        let v = (ReferenceRasterizer.sample(py, b) * h.h4 + h.h7) / h.h8
        if abs(v - paint.minY) <= layer.marginV || abs(v - paint.maxY) <= layer.marginV
          || !(v >= paint.minY && v < paint.maxY)
        {
          inside = false
        }
      }
      if inside {
        guard last == Int.min || last == py else { return }  // not one run of rows
        first = Swift.min(first, py)
        last = py + 1
      }
    }
    guard first < last else { return }
    layer.opaqueRows = first..<last
    layer.opaqueColumns = layer.columns.full
  }

  /// Appends a prepared layer and draw op for each path fill of `layer` that covers a pixel:
  /// its edges projected into the edge pool (``PathProjection``), its pixel box from theirs.
  private mutating func preparePaths(
    _ layer: RasterLayer, paint: SnapshotPaint, inverse: Homography, clipStart: Int,
    width: Int, height: Int
  ) {
    for path in layer.snapshot.paths {
      let edgeStart = edges.count
      let bounds = PathProjection.append(
        path.polygons, matrix: layer.matrix, to: &edges, scratch: &pathScratch)
      guard edges.count > edgeStart,
        let box = ReferenceRasterizer.pathBox(bounds, width: width, height: height)
      else {
        edges.removeLast(edges.count - edgeStart)
        continue
      }
      var prepared = PreparedLayer(
        paint: paint, part: .paths, inverse: inverse, polygon: ScreenPolygon(),
        core: ScreenPolygon(), hole: ScreenPolygon(), clipStart: clipStart,
        clipCount: clips.count - clipStart, x0: box.x0, x1: box.x1, y0: box.y0, y1: box.y1,
        opacity: Float(layer.opacity), add: layer.blendMode == .add,
        separable: false, marginU: 0, marginV: 0, columns: SeparableColumns())
      prepared.edgeStart = edgeStart
      prepared.edgeCount = edges.count - edgeStart
      prepared.pathColor = LayerSnapshot.premultiplied(path.color)
      prepared.pathRule = path.fillRule
      layers.append(prepared)
      ops.append(.draw(layers.count - 1))
    }
  }

  /// Appends the projected squares of a rounded rectangle's rounded corners to the sampled
  /// regions.
  private mutating func appendCorners(of shape: RoundedRect, _ matrix: Transform3D) {
    guard shape.radius > 0 else { return }
    for k in 0..<4 where shape.rounds(k) {
      regions.append(ScreenPolygon(shape.cornerSquare(k), matrix))
    }
  }

  /// The margins of a separable map (``PreparedLayer/separable``), or `nil` when the map has
  /// perspective in the plane (`h2` or `h5` not exactly 0) or turns a sample by more than 10⁻⁶
  /// of a layer unit anywhere in `box` (a real rotation or shear).
  ///
  /// The reference computes `u = ((x·h0 + y·h3) + h6)/h8`; the separable `u` drops `y·h3`,
  /// which is at most `δ = max |y·h3|/|h8|` over the box's rows (a tiny rotation left by
  /// interpolation, `≈ 10⁻¹⁶`, gives `δ ≈ 10⁻¹³`). Each `u` carries a rounding error of a few
  /// ulps of `S = (|x·h0| + |y·h3| + |h6|)/|h8|`; the margin `δ + 10⁻¹²·(S + 1)` covers both
  /// with a factor of about a thousand to spare. The same for `v` with `x·h1`.
  static func separability(_ h: Homography, box: (x0: Int, x1: Int, y0: Int, y1: Int))
    -> (u: Double, v: Double)?
  {
    guard h.h2 == 0 && h.h5 == 0 && h.h8 != 0 else { return nil }
    let x = Swift.max(abs(Double(box.x0)), abs(Double(box.x1)))
    let y = Swift.max(abs(Double(box.y0)), abs(Double(box.y1)))
    let w = abs(h.h8)
    let du = y * abs(h.h3) / w
    let dv = x * abs(h.h1) / w
    guard du <= 1e-6 && dv <= 1e-6 else { return nil }
    let su = (x * abs(h.h0) + y * abs(h.h3) + abs(h.h6)) / w
    let sv = (x * abs(h.h1) + y * abs(h.h4) + abs(h.h7)) / w
    return (du + 1e-12 * (su + 1), dv + 1e-12 * (sv + 1))
  }

  /// Compiles a ``Rasterizer/render(_:width:height:background:)`` list: "add" runs and groups
  /// as off-screen levels.
  mutating func compile(_ items: [RenderItem], width: Int, height: Int) throws(ValidationError) {
    var i = 0
    while i < items.count {
      switch items[i] {
      case .layer(let layer) where layer.blendMode == .add:
        push()
        while i < items.count, case .layer(let next) = items[i], next.blendMode == .add {
          try draw(next, width: width, height: height)
          i += 1
        }
        pop(.popOver(1))
      case .layer(let layer):
        try draw(layer, width: width, height: height)
        i += 1
      case .group(let opacity, let members):
        try Validate.inRange(opacity, 0, 1, "group.opacity")
        push()
        try compile(members, width: width, height: height)
        pop(.popOver(Float(opacity)))
        i += 1
      }
    }
  }

  /// Compiles a ``SceneRenderer/render(_:width:height:)`` list: each cross-dissolve sums its
  /// snapshots on one off-screen level (a one-layer snapshot added directly at `w·o`, a larger
  /// one rendered "over" on a level of its own and added with weight `w`), then composites the
  /// sum "over" the frame.
  mutating func compile(_ items: [SceneRenderItem], width: Int, height: Int)
    throws(ValidationError)
  {
    for item in items {
      switch item {
      case .layer(let layer):
        try draw(layer, width: width, height: height)
      case .crossDissolve(let snapshots):
        push()
        for (k, snapshot) in snapshots.enumerated() {
          try Validate.inRange(snapshot.weight, 0, 1, "crossDissolve.weight", index: k)
          if let layer = try snapshot.directLayer() {
            try draw(layer, width: width, height: height)
          } else {
            push()
            for var layer in snapshot.layers {
              layer.blendMode = .over
              try draw(layer, width: width, height: height)
            }
            pop(.popAdd(Float(snapshot.weight)))
          }
        }
        pop(.popOver(1))
      }
    }
  }
}
