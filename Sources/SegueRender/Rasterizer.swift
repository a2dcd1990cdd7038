import Segue

/// What a layer shows, for the software renderer: its bounds filled with a solid colour or a
/// vertical gradient, optionally with a text label drawn in a built-in 3×5 block font.
///
/// This stands in for the layer's real contents (a view snapshot): enough to see where every
/// layer is, how it is transformed and how it blends.
public struct LayerSnapshot: Hashable, Sendable {
  /// How the bounds are filled.
  public enum Fill: Hashable, Sendable {
    /// One colour everywhere.
    case solid(Color)
    /// A linear gradient along y: `top` at `bounds.minY`, `bottom` at `bounds.maxY`, interpolated
    /// linearly in **premultiplied** RGBA (so a fade to `.clear` does not darken), as
    /// `t = (v − minY) / height` clamped to `[0, 1]` for the layer coordinate `v`.
    case linearGradient(top: Color, bottom: Color)
  }

  /// A line of text drawn over the fill in a 3×5 block font.
  ///
  /// Each character is a grid of 3 × 5 square cells of side `cellSize` (points, layer
  /// coordinates); characters advance by 4 cells, so a label of `n` characters covers
  /// `(4n − 1)·cellSize × 5·cellSize` from `origin`. The font has `A–Z` (lower case is drawn as
  /// upper case), `0–9`, space and `- _ . : /`; any other character is drawn as a solid block.
  public struct Label: Hashable, Sendable {
    /// The text (typically the layer id).
    public var text: String
    /// The top-left corner of the first character, in layer coordinates (points).
    public var origin: Point
    /// The side of one font cell, in points; `> 0`.
    public var cellSize: Double
    /// The text colour, drawn "over" the fill.
    public var color: Color

    /// Creates a label.
    public init(text: String, origin: Point, cellSize: Double = 2, color: Color = .black) {
      self.text = text
      self.origin = origin
      self.cellSize = cellSize
      self.color = color
    }
  }

  /// The layer's bounds (points, layer coordinates); only this rectangle is drawn.
  public var bounds: Rect
  /// The fill.
  public var fill: Fill
  /// An optional label over the fill.
  public var label: Label?

  /// Creates a snapshot.
  public init(bounds: Rect, fill: Fill, label: Label? = nil) {
    self.bounds = bounds
    self.fill = fill
    self.label = label
  }

  /// Throws unless the bounds, label origin and cell size are finite (and the cell size `> 0`).
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notFinite`` naming `bounds` (index 0…3 for x, y, width,
  ///   height) or `label.origin` (index 0 or 1), and ``/Segue/ValidationError/Reason/notPositive`` or
  ///   ``/Segue/ValidationError/Reason/notFinite`` naming `label.cellSize`.
  public func validate() throws(ValidationError) {
    let b = [bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height]
    for (i, v) in b.enumerated() { try Validate.finite(v, "bounds", index: i) }
    if let label {
      try Validate.finite(label.origin.x, "label.origin", index: 0)
      try Validate.finite(label.origin.y, "label.origin", index: 1)
      try Validate.positive(label.cellSize, "label.cellSize")
    }
  }

  /// The premultiplied colour at layer coordinate `(u, v)` (assumed inside the bounds): the fill,
  /// with the label composited "over" it where a font cell is set. (The rasteriser prepares the
  /// snapshot once per layer instead of calling this per sample.)
  public func color(atX u: Double, y v: Double) -> SIMD4<Double> {
    SnapshotSampler(self).color(u, v)
  }

  /// `(r·a, g·a, b·a, a)`.
  @inlinable
  public static func premultiplied(_ c: Color) -> SIMD4<Double> {
    SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
  }
}

/// A snapshot prepared for sampling: premultiplied colours and the label's glyph bits computed
/// once per layer.
struct SnapshotSampler {
  let top: SIMD4<Double>
  let bottom: SIMD4<Double>
  let isGradient: Bool
  let minY: Double
  let height: Double
  let glyphs: [UInt16]
  let labelOrigin: Point
  let cellSize: Double
  let labelColor: SIMD4<Double>

  init(_ snapshot: LayerSnapshot) {
    switch snapshot.fill {
    case .solid(let color):
      top = LayerSnapshot.premultiplied(color)
      bottom = top
      isGradient = false
    case .linearGradient(let t, let b):
      top = LayerSnapshot.premultiplied(t)
      bottom = LayerSnapshot.premultiplied(b)
      isGradient = true
    }
    minY = snapshot.bounds.minY
    height = snapshot.bounds.maxY - snapshot.bounds.minY
    if let label = snapshot.label {
      glyphs = label.text.unicodeScalars.map(BlockFont.glyph)
      labelOrigin = label.origin
      cellSize = label.cellSize
      labelColor = LayerSnapshot.premultiplied(label.color)
    } else {
      glyphs = []
      labelOrigin = .zero
      cellSize = 1
      labelColor = .zero
    }
  }

  /// The fill at `v`, with the label "over" it where its font cell at `(u, v)` is set.
  @inline(__always)
  func color(_ u: Double, _ v: Double) -> SIMD4<Double> {
    var c = top
    if isGradient {
      let t = height > 0 ? Swift.min(Swift.max((v - minY) / height, 0), 1) : 0
      c = (1 - t) * top + t * bottom
    }
    if !glyphs.isEmpty {
      let cx = ((u - labelOrigin.x) / cellSize).rounded(.down)
      let cy = ((v - labelOrigin.y) / cellSize).rounded(.down)
      if cx >= 0, cy >= 0, cy < 5, cx < Double(4 * glyphs.count) {
        let column = Int(cx) % 4
        if column < 3, (glyphs[Int(cx) / 4] >> (14 - (3 * Int(cy) + column))) & 1 == 1 {
          c = labelColor + (1 - labelColor[3]) * c
        }
      }
    }
    return c
  }
}

/// The 3×5 block font: 15 bits per glyph, row-major from the top-left, most significant first.
enum BlockFont {
  static func glyph(_ s: Unicode.Scalar) -> UInt16 {
    switch Character(s).uppercased().unicodeScalars.first ?? s {
    case "A": return 0b010_101_111_101_101
    case "B": return 0b110_101_110_101_110
    case "C": return 0b011_100_100_100_011
    case "D": return 0b110_101_101_101_110
    case "E": return 0b111_100_110_100_111
    case "F": return 0b111_100_110_100_100
    case "G": return 0b011_100_101_101_011
    case "H": return 0b101_101_111_101_101
    case "I": return 0b111_010_010_010_111
    case "J": return 0b001_001_001_101_010
    case "K": return 0b101_101_110_101_101
    case "L": return 0b100_100_100_100_111
    case "M": return 0b101_111_111_101_101
    case "N": return 0b110_101_101_101_101
    case "O": return 0b010_101_101_101_010
    case "P": return 0b110_101_110_100_100
    case "Q": return 0b010_101_101_110_011
    case "R": return 0b110_101_110_101_101
    case "S": return 0b011_100_010_001_110
    case "T": return 0b111_010_010_010_010
    case "U": return 0b101_101_101_101_111
    case "V": return 0b101_101_101_101_010
    case "W": return 0b101_101_111_111_101
    case "X": return 0b101_101_010_101_101
    case "Y": return 0b101_101_010_010_010
    case "Z": return 0b111_001_010_100_111
    case "0": return 0b111_101_101_101_111
    case "1": return 0b010_110_010_010_111
    case "2": return 0b110_001_010_100_111
    case "3": return 0b110_001_010_001_110
    case "4": return 0b101_101_111_001_001
    case "5": return 0b111_100_110_001_110
    case "6": return 0b011_100_111_101_111
    case "7": return 0b111_001_010_010_010
    case "8": return 0b111_101_111_101_111
    case "9": return 0b111_101_111_001_110
    case "-": return 0b000_000_111_000_000
    case "_": return 0b000_000_000_000_111
    case ".": return 0b000_000_000_000_010
    case ":": return 0b000_010_000_010_000
    case "/": return 0b001_001_010_100_100
    case " ": return 0
    default: return 0b111_111_111_111_111
    }
  }
}

/// One layer to rasterise: its snapshot, its full matrix from layer space to the image, its
/// opacity and its blend mode.
public struct RasterLayer: Hashable, Sendable {
  /// What the layer shows (bounds in layer coordinates).
  public var snapshot: LayerSnapshot
  /// Layer space → image pixels, a CATransform3D (row vectors: `[x y z 1]·M`, then divide by
  /// `w`). For a layer tree this is the layer's matrix to the container (``/Segue/LayerTree``), times a
  /// scale if the image has more pixels than the container has points.
  public var matrix: Transform3D
  /// The presented opacity in `[0, 1]` (already multiplied down the tree).
  public var opacity: Double
  /// "over" for ordinary layers, "add" for the two layers of a cross-dissolve.
  public var blendMode: BlendMode

  /// Creates a raster layer.
  public init(
    snapshot: LayerSnapshot, matrix: Transform3D = .identity, opacity: Double = 1,
    blendMode: BlendMode = .over
  ) {
    self.snapshot = snapshot
    self.matrix = matrix
    self.opacity = opacity
    self.blendMode = blendMode
  }
}

/// An entry of a render list: a layer, or an opacity group of entries.
public enum RenderItem: Hashable, Sendable {
  /// One layer, drawn directly onto what is below.
  case layer(RasterLayer)
  /// An opacity group (`allowsGroupOpacity`): `items` are rendered into a cleared off-screen
  /// image, which is then composited "over" with `opacity` in `[0, 1]`.
  indirect case group(opacity: Double, items: [RenderItem])
}

/// A software rasteriser for layers: each layer's snapshot is drawn through its full 4×4 matrix,
/// perspective-correct, and composited with premultiplied alpha in draw order.
///
/// **Mapping.** A layer point `(u, v, 0)` maps to `[X Y Z W] = [u v 0 1]·M` and to the pixel
/// position `(X/W, Y/W)`. On the plane `z = 0` this is the homography
/// `[X Y W] = [u v 1]·H` with
///
///     H = | m11 m12 m14 |
///         | m21 m22 m24 |
///         | m41 m42 m44 |
///
/// so each pixel sample `(x, y)` is mapped back exactly by `[U V Ω] = [x y 1]·H⁻¹`,
/// `(u, v) = (U/Ω, V/Ω)`, and `Ω = 1/W`. A sample is drawn only when
/// `W > Transform3D.minimumW` (in front of the eye, as ``/Segue/Transform3D/project(_:)``); samples
/// behind the eye are skipped. Inverse mapping is perspective-correct by construction: textures
/// and gradients are sampled at the true layer point, not interpolated in screen space.
///
/// **Coverage.** Each pixel `(i, j)` covers `[i, i+1) × [j, j+1)` in image coordinates and is
/// sampled on a regular 4×4 grid at `(i + (a + ½)/4, j + (b + ½)/4)`, `a, b ∈ 0…3`. A sample
/// counts when its layer point lies in the half-open bounds `[minX, maxX) × [minY, maxY)`, so
/// two layers that share an edge cover each sample exactly once. The pixel's source colour is
/// the mean of the 16 premultiplied sample colours (samples outside count as transparent):
/// coverage and texture anti-aliasing in one step, with coverage quantised to sixteenths. Only
/// pixels in the bounding box of the projected (eye-plane clipped) quad are visited.
///
/// **Compositing.** The pixel's source colour `s` is blended into the Float image with the
/// layer opacity `o`: "over" `out = s·o + (1 − s_A·o)·dst`, or "add" `out = dst + s·o`, then
/// clamped to `[0, 1]`.
public enum Rasterizer {
  /// Samples per pixel along each axis (4, so 16 per pixel).
  public static let samplesPerAxis = 4

  /// Draws one layer into `buffer` (see the type's documentation for the rules).
  ///
  /// A matrix whose plane homography `H` is singular (the layer is seen edge-on, or scaled to
  /// zero) draws nothing, by the test of Decision 4 for a 3×3 matrix.
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notFinite`` naming `matrix` (with the field index
  ///   0…15, row-major) for a NaN or infinite field; the errors of
  ///   ``LayerSnapshot/validate()``; and ``/Segue/ValidationError`` naming `opacity` unless it is in
  ///   `[0, 1]`.
  public static func draw(_ layer: RasterLayer, into buffer: inout PixelBufferRGBAFloat)
    throws(ValidationError)
  {
    try validate(layer)
    let m = layer.matrix
    let h = [m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44]
    guard let inverse = invert3(h) else { return }
    let polygon = m.mapQuad(Quad(layer.snapshot.bounds))
    guard !polygon.isEmpty, buffer.width > 0, buffer.height > 0 else { return }
    let box = Rect(boundingBoxOf: polygon)
    func clampIndex(_ v: Double, _ upper: Int) -> Int {
      Int(Swift.min(Swift.max(v, 0), Double(upper)))
    }
    let x0 = clampIndex(box.minX.rounded(.down), buffer.width)
    let x1 = clampIndex(box.maxX.rounded(.up) + 1, buffer.width)
    let y0 = clampIndex(box.minY.rounded(.down), buffer.height)
    let y1 = clampIndex(box.maxY.rounded(.up) + 1, buffer.height)
    guard x0 < x1, y0 < y1 else { return }

    let sampler = SnapshotSampler(layer.snapshot)
    let bounds = layer.snapshot.bounds
    let (minX, maxX, minY, maxY) = (bounds.minX, bounds.maxX, bounds.minY, bounds.maxY)
    let n = samplesPerAxis
    let step = 1 / Double(n)
    let maximumOmega = 1 / Transform3D.minimumW
    let opacity = Float(layer.opacity)
    let add = layer.blendMode == .add
    for py in y0..<y1 {
      for px in x0..<x1 {
        var sum = SIMD4<Double>.zero
        var hits = 0
        for b in 0..<n {
          let y = Double(py) + (Double(b) + 0.5) * step
          for a in 0..<n {
            let x = Double(px) + (Double(a) + 0.5) * step
            let uh = x * inverse[0] + y * inverse[3] + inverse[6]
            let vh = x * inverse[1] + y * inverse[4] + inverse[7]
            let omega = x * inverse[2] + y * inverse[5] + inverse[8]
            // W = 1/Ω > minimumW, i.e. 0 < Ω < 1/minimumW: in front of the eye.
            guard omega > 0 && omega < maximumOmega else { continue }
            let u = uh / omega
            let v = vh / omega
            guard u >= minX && u < maxX && v >= minY && v < maxY else { continue }
            sum += sampler.color(u, v)
            hits += 1
          }
        }
        guard hits > 0 else { continue }
        let s = SIMD4<Float>(sum / Double(n * n)) * opacity
        let i = py * buffer.stride + 4 * px
        let d = SIMD4<Float>(
          buffer.components[i], buffer.components[i + 1], buffer.components[i + 2],
          buffer.components[i + 3])
        let r = add ? d + s : s + (1 - s[3]) * d
        let c = r.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
        for k in 0..<4 { buffer.components[i + k] = c[k] }
      }
    }
  }

  /// Renders a list of items bottom to top onto a `width × height` image cleared to
  /// `background`, and returns it (premultiplied Float; quantise with
  /// ``/Segue/PixelBufferRGBA8/init(_:)``).
  ///
  /// Rules, in draw order:
  /// - an "over" layer is drawn directly with ``draw(_:into:)``;
  /// - a **run of consecutive "add" layers** (a cross-dissolve's old and new snapshots) is summed
  ///   into a cleared off-screen image, which is then composited "over" what lies below with
  ///   opacity 1 — so old at weight `1 − q` and new at weight `q` give exactly
  ///   `(1 − q)·old + q·new` where they overlap, and the background shows through only where
  ///   that sum is translucent;
  /// - a ``RenderItem/group(opacity:items:)`` is rendered by the same rules into a cleared
  ///   off-screen image, which is then composited "over" with the group opacity.
  ///
  /// - Throws: the errors of ``draw(_:into:)``; ``/Segue/ValidationError`` naming `group.opacity`
  ///   unless a group's opacity is in `[0, 1]`; and the size errors of
  ///   ``/Segue/PixelBufferRGBAFloat/init(width:height:stride:fill:)``.
  public static func render(
    _ items: [RenderItem], width: Int, height: Int, background: Color = .clear
  ) throws(ValidationError) -> PixelBufferRGBAFloat {
    let fill = SIMD4<Float>(LayerSnapshot.premultiplied(background))
    var buffer = try PixelBufferRGBAFloat(width: width, height: height, fill: fill)
    try composite(items, into: &buffer)
    return buffer
  }

  private static func composite(_ items: [RenderItem], into buffer: inout PixelBufferRGBAFloat)
    throws(ValidationError)
  {
    var i = 0
    while i < items.count {
      switch items[i] {
      case .layer(let layer) where layer.blendMode == .add:
        var offscreen = try PixelBufferRGBAFloat(width: buffer.width, height: buffer.height)
        while i < items.count, case .layer(let next) = items[i], next.blendMode == .add {
          try draw(next, into: &offscreen)
          i += 1
        }
        try BlendKernels.overFloat(offscreen, opacity: 1, onto: &buffer)
      case .layer(let layer):
        try draw(layer, into: &buffer)
        i += 1
      case .group(let opacity, let members):
        try Validate.inRange(opacity, 0, 1, "group.opacity")
        var offscreen = try PixelBufferRGBAFloat(width: buffer.width, height: buffer.height)
        try composite(members, into: &offscreen)
        try BlendKernels.overFloat(offscreen, opacity: opacity, onto: &buffer)
        i += 1
      }
    }
  }

  private static func validate(_ layer: RasterLayer) throws(ValidationError) {
    for (i, v) in layer.matrix.fields.enumerated() {
      try Validate.finite(v, "matrix", index: i)
    }
    try layer.snapshot.validate()
    try Validate.inRange(layer.opacity, 0, 1, "opacity")
  }

  /// The inverse of a row-major 3×3 matrix by the adjugate, or `nil` when it is singular by
  /// Decision 4 (`|det| ≤ 1e-12·(max |hᵢⱼ|)³` or not finite).
  static func invert3(_ h: [Double]) -> [Double]? {
    let c00 = h[4] * h[8] - h[5] * h[7]
    let c01 = h[5] * h[6] - h[3] * h[8]
    let c02 = h[3] * h[7] - h[4] * h[6]
    let det = h[0] * c00 + h[1] * c01 + h[2] * c02
    let maxMagnitude = h.reduce(0) { Swift.max($0, abs($1)) }
    guard !Transform3D.isSingular(determinant: det, maxMagnitude: maxMagnitude, order: 3) else {
      return nil
    }
    let adjugate = [
      c00, h[2] * h[7] - h[1] * h[8], h[1] * h[5] - h[2] * h[4],
      c01, h[0] * h[8] - h[2] * h[6], h[2] * h[3] - h[0] * h[5],
      c02, h[1] * h[6] - h[0] * h[7], h[0] * h[4] - h[1] * h[3],
    ]
    return adjugate.map { $0 / det }
  }
}
