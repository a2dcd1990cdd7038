import Segue

/// What a layer shows, for the software renderer: its bounds filled with a solid colour or a
/// vertical gradient, with Core Animation's rounded corners, border and shadow, and the layer's
/// contents image, gradient and paths (a shape layer's fill and stroke, a text layer's glyphs).
///
/// **Shape.** With a corner radius `r` the fill and border are clipped to the bounds with
/// rounded corners, `ρ = min(r, width/2, height/2)` (`CALayer.cornerRadius`; negative counts as
/// 0): a layer point is inside when it is in the half-open bounds and, within `ρ` of two sides,
/// no farther than `ρ` from that corner's centre `(minX + ρ, minY + ρ)` (and its mirror images)
/// when ``maskedCorners`` holds that corner; the other corners are square.
///
/// **Border** (`borderWidth`, `borderColor`): the part of the rounded bounds outside the inner
/// rounded rectangle inset by the width `w` (corner radius `max(ρ − w, 0)`), drawn over the fill
/// (and, in a scene, over the layer's sublayers).
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

  /// The layer's bounds (points, layer coordinates); the fill and border are drawn inside them.
  public var bounds: Rect
  /// The fill.
  public var fill: Fill
  /// The corner radius in points (`CALayer.cornerRadius`; negative counts as 0).
  public var cornerRadius: Double
  /// The corners ``cornerRadius`` rounds (`CALayer.maskedCorners`) for the fill, the border and
  /// the shadow; the others stay square. Default all.
  public var maskedCorners: CornerMask
  /// An optional border.
  public var border: Border?
  /// An optional shadow.
  public var shadow: Shadow?
  /// An optional `contents` image, over the fill (``Contents``).
  public var contents: Contents?
  /// An optional `CAGradientLayer` gradient, over the contents (``Gradient``).
  public var gradient: Gradient?
  /// Filled paths over the gradient, in draw order (``PathFill``: a `CAShapeLayer`'s fill and
  /// stroke, a `CATextLayer`'s glyphs).
  public var paths: [PathFill]

  /// Creates a snapshot.
  public init(
    bounds: Rect, fill: Fill, cornerRadius: Double = 0,
    maskedCorners: CornerMask = .all, border: Border? = nil, shadow: Shadow? = nil,
    contents: Contents? = nil, gradient: Gradient? = nil, paths: [PathFill] = []
  ) {
    self.bounds = bounds
    self.fill = fill
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
  ///   height), `cornerRadius`, `border.width`, `shadow.radius` or `shadow.offset` (index 0 or
  ///   1); `.outOfRange` naming
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
    try contents?.validate()
  }

  /// The premultiplied fill at layer coordinate `(u, v)` (assumed inside the bounds). (The
  /// rasterisers prepare the snapshot once per layer instead of calling this per sample.)
  public func color(atX u: Double, y v: Double) -> SIMD4<Double> {
    SnapshotPaint(self).color(u, v)
  }

  /// `(r·a, g·a, b·a, a)`.
  @inlinable
  public static func premultiplied(_ c: RGBAColor) -> SIMD4<Double> {
    SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
  }
}

/// A snapshot prepared for sampling, as plain values (no references, so the fast rasteriser
/// keeps one per layer in a reusable array): premultiplied colours and the bounds, so preparing
/// a frame allocates nothing.
///
/// **Extending.** Everything a layer draws inside its bounds is described here and evaluated
/// per part by ``sample(_:_:_:)`` at one sample (the reference rasteriser and the fast one's
/// edge pixels); the fast rasteriser fills the plain spans of each part itself.
struct SnapshotPaint: Sendable {
  var top: SIMD4<Double>
  var bottom: SIMD4<Double>
  var isGradient: Bool
  var minX: Double
  var maxX: Double
  var minY: Double
  var maxY: Double
  var height: Double
  /// The rounded bounds (fill and border are inside).
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
    _ part: LayerPart, _ u: Double, _ v: Double
  ) -> SIMD4<Double>? {
    switch part {
    case .body:
      return body.contains(u, v) ? color(u, v) : nil
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

  /// The fill at layer point `(u, v)`: it depends on `v` alone.
  @inline(__always)
  func color(_ u: Double, _ v: Double) -> SIMD4<Double> { fill(v) }
}
