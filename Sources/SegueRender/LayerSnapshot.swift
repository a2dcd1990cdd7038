import Segue

/// What a layer shows, for the software renderer: its bounds filled with a solid colour or a
/// vertical gradient, optionally with a text label drawn in a built-in 3×5 block font, with
/// Core Animation's rounded corners, border and shadow.
///
/// This stands in for the layer's real contents (a view snapshot): enough to see where every
/// layer is, how it is transformed and how it blends.
///
/// **Shape.** With a corner radius `r` the fill, label and border are clipped to the bounds with
/// rounded corners, `ρ = min(r, width/2, height/2)` (`CALayer.cornerRadius`; negative counts as
/// 0): a layer point is inside when it is in the half-open bounds and, within `ρ` of two sides,
/// no farther than `ρ` from that corner's centre `(minX + ρ, minY + ρ)` (and its mirror images)
/// when ``maskedCorners`` holds that corner; the other corners are square.
///
/// **Border** (`borderWidth`, `borderColor`): the part of the rounded bounds outside the inner
/// rounded rectangle inset by the width `w` (corner radius `max(ρ − w, 0)`), drawn over the fill
/// and the label (and, in a scene, over the layer's sublayers).
///
/// **Shadow** (`shadowColor`, `shadowOpacity`, `shadowRadius`, `shadowOffset`): drawn below the
/// fill, the rounded bounds moved by the offset and blurred with a Gaussian of standard deviation
/// `σ = shadowRadius/2`, in `shadowColor` times `shadowOpacity` (``Shadow``). Core Animation
/// casts the shadow from the layer's rendered alpha; here it is cast by the rounded bounds, as
/// if `shadowPath` were set to them.
public struct LayerSnapshot: Hashable, Sendable {
  /// A border inside the bounds (`CALayer.borderWidth`, `borderColor`).
  public struct Border: Hashable, Sendable {
    /// The width in points (layer coordinates); `≤ 0` draws nothing.
    public var width: Double
    /// The colour, drawn "over" the fill.
    public var color: RGBAColor

    /// Creates a border.
    public init(width: Double, color: RGBAColor = .black) {
      self.width = width
      self.color = color
    }
  }

  /// A drop shadow (`CALayer.shadowColor`, `shadowOpacity`, `shadowRadius`, `shadowOffset`).
  ///
  /// Its coverage at a layer point `p` is the mass of a 2D Gaussian of standard deviation
  /// `σ = radius/2` centred on `p` that falls inside the rounded bounds moved by `offset`:
  /// `Φ(u; x₀, x₁)·Φ(v; y₀, y₁)` for the rectangle, `Φ(u; a, b) = ½[erf((b − u)/(σ√2)) −
  /// erf((a − u)/(σ√2))]`, minus the mass of each corner piece the rounding removes (integrated
  /// over y with a 16-point Gauss–Legendre rule). It is exactly 0 farther than `5σ` outside the
  /// shape and exactly 1 farther than `5σ` inside (the Gaussian's mass beyond 5σ is below
  /// 3·10⁻⁷); with radius 0 it is the shape itself.
  public struct Shadow: Hashable, Sendable {
    /// `shadowColor` (straight RGBA).
    public var color: RGBAColor
    /// `shadowOpacity` in `[0, 1]`.
    public var opacity: Double
    /// `shadowRadius` in points, `≥ 0`: the blur's `σ` is half of it.
    public var radius: Double
    /// `shadowOffset` in points of the layer's own space.
    public var offset: Size

    /// Creates a shadow (defaults: Core Animation's, apart from the opacity).
    public init(
      color: RGBAColor = .black, opacity: Double, radius: Double = 3,
      offset: Size = Size(width: 0, height: -3)
    ) {
      self.color = color
      self.opacity = opacity
      self.radius = radius
      self.offset = offset
    }
  }

  /// How the bounds are filled.
  public enum Fill: Hashable, Sendable {
    /// One colour everywhere.
    case solid(RGBAColor)
    /// A linear gradient along y: `top` at `bounds.minY`, `bottom` at `bounds.maxY`, interpolated
    /// linearly in **premultiplied** RGBA (so a fade to `.clear` does not darken), as
    /// `t = (v − minY) / height` clamped to `[0, 1]` for the layer coordinate `v`.
    case linearGradient(top: RGBAColor, bottom: RGBAColor)
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
    public var color: RGBAColor

    /// Creates a label.
    public init(text: String, origin: Point, cellSize: Double = 2, color: RGBAColor = .black) {
      self.text = text
      self.origin = origin
      self.cellSize = cellSize
      self.color = color
    }
  }

  /// The layer's bounds (points, layer coordinates); the fill, label and border are drawn
  /// inside them.
  public var bounds: Rect
  /// The fill.
  public var fill: Fill
  /// An optional label over the fill.
  public var label: Label?
  /// The corner radius in points (`CALayer.cornerRadius`; negative counts as 0).
  public var cornerRadius: Double
  /// The corners ``cornerRadius`` rounds (`CALayer.maskedCorners`) for the fill, the border and
  /// the shadow; the others stay square. Default all.
  public var maskedCorners: CornerMask
  /// An optional border.
  public var border: Border?
  /// An optional shadow.
  public var shadow: Shadow?
  /// An optional `contents` image, over the fill and label (``Contents``).
  public var contents: Contents?
  /// An optional `CAGradientLayer` gradient, over the contents (``Gradient``).
  public var gradient: Gradient?
  /// Filled paths over the gradient, in draw order (``PathFill``: a `CAShapeLayer`'s fill and
  /// stroke, a `CATextLayer`'s glyphs).
  public var paths: [PathFill]

  /// Creates a snapshot.
  public init(
    bounds: Rect, fill: Fill, label: Label? = nil, cornerRadius: Double = 0,
    maskedCorners: CornerMask = .all, border: Border? = nil, shadow: Shadow? = nil,
    contents: Contents? = nil, gradient: Gradient? = nil, paths: [PathFill] = []
  ) {
    self.bounds = bounds
    self.fill = fill
    self.label = label
    self.cornerRadius = cornerRadius
    self.maskedCorners = maskedCorners
    self.border = border
    self.shadow = shadow
    self.contents = contents
    self.gradient = gradient
    self.paths = paths
  }

  /// Throws unless every number is usable.
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notFinite`` naming `bounds` (index 0…3 for x, y, width,
  ///   height), `label.origin` (index 0 or 1), `cornerRadius`, `border.width`, `shadow.radius`
  ///   or `shadow.offset` (index 0 or 1); ``/Segue/ValidationError/Reason/notPositive`` or
  ///   ``/Segue/ValidationError/Reason/notFinite`` naming `label.cellSize`; `.outOfRange` naming
  ///   `shadow.opacity` outside `[0, 1]`; `.negative` naming `shadow.radius`; the errors of
  ///   the contents' numbers (`contents.contentsRect`, `contents.contentsCenter`,
  ///   `contents.contentsScale`).
  public func validate() throws(ValidationError) {
    try Validate.finite(cornerRadius, "cornerRadius")
    if let border { try Validate.finite(border.width, "border.width") }
    if let shadow {
      try Validate.inRange(shadow.opacity, 0, 1, "shadow.opacity")
      try Validate.nonNegative(shadow.radius, "shadow.radius")
      try Validate.finite(shadow.offset.width, "shadow.offset", index: 0)
      try Validate.finite(shadow.offset.height, "shadow.offset", index: 1)
    }
    try Validate.finite(bounds.origin.x, "bounds", index: 0)
    try Validate.finite(bounds.origin.y, "bounds", index: 1)
    try Validate.finite(bounds.size.width, "bounds", index: 2)
    try Validate.finite(bounds.size.height, "bounds", index: 3)
    if let label {
      try Validate.finite(label.origin.x, "label.origin", index: 0)
      try Validate.finite(label.origin.y, "label.origin", index: 1)
      try Validate.positive(label.cellSize, "label.cellSize")
    }
    try contents?.validate()
  }

  /// The premultiplied colour at layer coordinate `(u, v)` (assumed inside the bounds): the fill,
  /// with the label composited "over" it where a font cell is set. (The rasterisers prepare the
  /// snapshot once per layer instead of calling this per sample.)
  public func color(atX u: Double, y v: Double) -> SIMD4<Double> {
    let glyphs = label.map { BlockFont.glyphs($0.text) } ?? []
    return glyphs.withUnsafeBufferPointer { SnapshotPaint(self).color(u, v, glyphs: $0) }
  }

  /// `(r·a, g·a, b·a, a)`.
  @inlinable
  public static func premultiplied(_ c: RGBAColor) -> SIMD4<Double> {
    SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
  }
}

/// A snapshot prepared for sampling, as plain values (no references, so the fast rasteriser
/// keeps one per layer in a reusable array): premultiplied colours, the bounds, and the label's
/// placement. The label's glyph bits (``BlockFont``) live outside, in a buffer passed to each
/// call, so preparing a frame allocates nothing.
///
/// **Extending.** Everything a layer draws inside its bounds is described here and evaluated by
/// two functions: ``color(_:_:glyphs:)`` at one sample (the reference rasteriser and the fast
/// one's edge pixels), and ``uniformColor(uMin:uMax:vMin:vMax:fill:glyphs:)`` which says whether
/// a pixel's footprint in layer space sees one flat paint (so the fast rasteriser can colour the
/// pixel once instead of 16 times). A later rounded corner, border or shadow adds its fields and
/// its case to both, plus its layer-space rectangle of detail to ``detailRect``; the
/// rasteriser's span logic does not change.
struct SnapshotPaint: Sendable {
  var top: SIMD4<Double>
  var bottom: SIMD4<Double>
  var isGradient: Bool
  var minX: Double
  var maxX: Double
  var minY: Double
  var maxY: Double
  var height: Double
  /// The label's top-left corner, cell size, premultiplied colour and length (0: no label).
  var labelX: Double
  var labelY: Double
  var cellSize: Double
  var labelColor: SIMD4<Double>
  var glyphCount: Int
  /// The rounded bounds (fill, label and border are inside).
  var body: RoundedRect
  /// The border's inner edge (the border is `body` minus `hole`); empty without a border.
  var hole: RoundedRect
  var hasBorder: Bool
  var borderColor: SIMD4<Double>
  /// The shadow's coverage and its premultiplied colour times `shadowOpacity`.
  var shadow: ShadowShape?
  var shadowColor: SIMD4<Double>
  /// The `contents` image, or `nil` when there is none or it draws nothing.
  var contents: PreparedContents?
  /// The gradient, or `nil`.
  var gradient: LayerSnapshot.Gradient?
  /// Whether the snapshot has paths to fill (drawn from the snapshot's ``LayerSnapshot/paths``).
  var hasPaths: Bool

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
    let bounds = snapshot.bounds
    (minX, maxX, minY, maxY) = (bounds.minX, bounds.maxX, bounds.minY, bounds.maxY)
    height = maxY - minY
    if let label = snapshot.label {
      labelX = label.origin.x
      labelY = label.origin.y
      cellSize = label.cellSize
      labelColor = LayerSnapshot.premultiplied(label.color)
      glyphCount = BlockFont.count(label.text)
    } else {
      labelX = 0
      labelY = 0
      cellSize = 1
      labelColor = .zero
      glyphCount = 0
    }
    body = RoundedRect(
      minX, maxX, minY, maxY, radius: snapshot.cornerRadius, corners: snapshot.maskedCorners)
    let width = snapshot.border?.width ?? 0
    hasBorder = width > 0
    borderColor = LayerSnapshot.premultiplied(snapshot.border?.color ?? .clear)
    hole = RoundedRect(
      minX + width, maxX - width, minY + width, maxY - width,
      radius: Swift.max(body.radius - width, 0), corners: body.corners)
    if !hasBorder { hole = RoundedRect(0, 0, 0, 0, radius: 0) }
    if let s = snapshot.shadow {
      let (dx, dy) = (s.offset.width, s.offset.height)
      shadow = ShadowShape(
        shape: RoundedRect(
          minX + dx, maxX + dx, minY + dy, maxY + dy, radius: body.radius, corners: body.corners),
        sigma: s.radius / 2)
      shadowColor = LayerSnapshot.premultiplied(s.color) * s.opacity
    } else {
      shadow = nil
      shadowColor = .zero
    }
    gradient = snapshot.gradient
    hasPaths = !snapshot.paths.isEmpty
    contents = snapshot.contents.flatMap { PreparedContents($0, bounds: bounds, body: body) }
  }

  /// Whether this snapshot has `part` to draw.
  func has(_ part: LayerPart) -> Bool {
    switch part {
    case .body: true
    case .border: hasBorder
    case .shadow: shadow != nil && shadowColor[3] > 0
    case .contents: contents != nil
    case .gradient: gradient?.isVisible ?? false
    case .paths: hasPaths
    }
  }

  /// The layer-space rectangle outside which `part` covers nothing.
  func extent(of part: LayerPart) -> Rect {
    switch part {
    case .body, .border: body.rect
    case .shadow: shadow.map { $0.sigma > 0 ? $0.extent : $0.shape.rect } ?? body.rect
    case .contents: contents?.area ?? body.rect
    case .gradient, .paths: body.rect
    }
  }

  /// The colour of `part` at the layer point `(u, v)` (premultiplied; the shadow times its
  /// coverage), or `nil` where `part` does not cover the point.
  @inline(__always)
  func sample(
    _ part: LayerPart, _ u: Double, _ v: Double, glyphs: UnsafeBufferPointer<UInt16>
  ) -> SIMD4<Double>? {
    switch part {
    case .body:
      return body.contains(u, v) ? color(u, v, glyphs: glyphs) : nil
    case .border:
      return body.contains(u, v) && !hole.contains(u, v) ? borderColor : nil
    case .shadow:
      guard let shadow else { return nil }
      let m = shadow.coverage(u, v)
      return m > 0 ? m * shadowColor : nil
    case .contents, .gradient, .paths:
      // Coloured once per pixel, at its centre: ReferenceRasterizer.centreSampled.
      return nil
    }
  }

  /// Whether the layer point `(u, v)` is drawn: inside the half-open bounds
  /// `[minX, maxX) × [minY, maxY)`.
  @inline(__always)
  func contains(_ u: Double, _ v: Double) -> Bool {
    u >= minX && u < maxX && v >= minY && v < maxY
  }

  /// The fill at `v`: `top`, or for a gradient `(1 − t)·top + t·bottom` with
  /// `t = clamp((v − minY)/height, 0, 1)`.
  @inline(__always)
  func fill(_ v: Double) -> SIMD4<Double> {
    guard isGradient else { return top }
    let t = height > 0 ? Swift.min(Swift.max((v - minY) / height, 0), 1) : 0
    return (1 - t) * top + t * bottom
  }

  /// `label over c`: `label + (1 − label_A)·c`.
  @inline(__always)
  func labelOver(_ c: SIMD4<Double>) -> SIMD4<Double> {
    labelColor + (1 - labelColor[3]) * c
  }

  /// The fill at `v`, with the label "over" it where its font cell at `(u, v)` is set.
  @inline(__always)
  func color(_ u: Double, _ v: Double, glyphs: UnsafeBufferPointer<UInt16>) -> SIMD4<Double> {
    let c = fill(v)
    guard glyphCount > 0 else { return c }
    let cx = ((u - labelX) / cellSize).rounded(.down)
    let cy = ((v - labelY) / cellSize).rounded(.down)
    return isSet(cx, cy, glyphs: glyphs) ? labelOver(c) : c
  }

  /// The layer-space rectangle `[x0, x1) × [y0, y1)` outside which the paint depends on `v`
  /// alone (the fill), or `nil`: the label's cells `4n·cellSize × 5·cellSize` from its origin.
  var detailRect: (x0: Double, y0: Double, x1: Double, y1: Double)? {
    guard glyphCount > 0 else { return nil }
    return (labelX, labelY, labelX + Double(4 * glyphCount) * cellSize, labelY + 5 * cellSize)
  }

  /// Whether the font cell `(cx, cy)` (from the label's origin, in cells) is set.
  @inline(__always)
  func isSet(_ cx: Double, _ cy: Double, glyphs: UnsafeBufferPointer<UInt16>) -> Bool {
    guard cx >= 0, cy >= 0, cy < 5, cx < Double(4 * glyphCount) else { return false }
    let column = Int(cx) % 4
    return column < 3 && (glyphs[Int(cx) / 4] >> (14 - (3 * Int(cy) + column))) & 1 == 1
  }

  /// The colour of a pixel whose every sample lies in the layer-space box
  /// `[uMin, uMax] × [vMin, vMax]` (inside the bounds), when the label is the same there (all
  /// font cells the box touches set, or all clear): `c` (the mean fill over the pixel's
  /// samples), under the label if set. `nil` when the box straddles a set and a clear cell, or
  /// spans more than 3 × 3 cells: the caller then samples the pixel.
  ///
  /// Exactness: the cells are found with the same `⌊(u − x₀)/cellSize⌋` as
  /// ``color(_:_:glyphs:)``, which is monotonic in `u`, so every sample's cell is among the
  /// box's, and "over" is linear in the fill, so the mean of the samples is `label over c`.
  @inline(__always)
  func uniformColor(
    uMin: Double, uMax: Double, vMin: Double, vMax: Double, fill c: SIMD4<Double>,
    glyphs: UnsafeBufferPointer<UInt16>
  ) -> SIMD4<Double>? {
    let cx0 = ((uMin - labelX) / cellSize).rounded(.down)
    let cx1 = ((uMax - labelX) / cellSize).rounded(.down)
    let cy0 = ((vMin - labelY) / cellSize).rounded(.down)
    let cy1 = ((vMax - labelY) / cellSize).rounded(.down)
    guard cx1 - cx0 <= 2, cy1 - cy0 <= 2 else { return nil }
    let first = isSet(cx0, cy0, glyphs: glyphs)
    var cy = cy0
    while cy <= cy1 {
      var cx = cx0
      while cx <= cx1 {
        if isSet(cx, cy, glyphs: glyphs) != first { return nil }
        cx += 1
      }
      cy += 1
    }
    return first ? labelOver(c) : c
  }
}

/// The 3×5 block font: 15 bits per glyph, row-major from the top-left, most significant first.
enum BlockFont {
  /// The glyphs of `text`, one per Unicode scalar.
  static func glyphs(_ text: String) -> [UInt16] {
    var result: [UInt16] = []
    append(text, to: &result)
    return result
  }

  /// Appends the glyphs of `text` (one per Unicode scalar) without an intermediate array.
  static func append(_ text: String, to glyphs: inout [UInt16]) {
    for s in text.unicodeScalars { glyphs.append(glyph(s)) }
  }

  /// The number of glyphs of `text` (its Unicode scalars).
  static func count(_ text: String) -> Int {
    var n = 0
    for _ in text.unicodeScalars { n += 1 }
    return n
  }

  /// The glyph of one scalar, after upper-casing (ASCII directly; anything else through
  /// `Character.uppercased()`, whose first scalar is used).
  static func glyph(_ s: Unicode.Scalar) -> UInt16 {
    if s.isASCII {
      let v = s.value
      return bits(Unicode.Scalar(UInt8(v >= 0x61 && v <= 0x7A ? v - 0x20 : v)))
    }
    return bits(Character(s).uppercased().unicodeScalars.first ?? s)
  }

  private static func bits(_ s: Unicode.Scalar) -> UInt16 {
    switch s {
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
