import RealModule
import Segue

/// The colour of a `CAGradientLayer` at each point of its bounds (Double reference).
///
/// **Parameter.** `startPoint` and `endPoint` are in the unit space of `bounds` (`(0, 0)` its
/// top-left, `(1, 1)` its bottom-right, y-down) and mapped to points `S` and `E` first; then
/// ``parameter(at:)`` is, for ``/Segue/GradientType``:
/// - `axial`: `t = (p − S)·(E − S) / |E − S|²`;
/// - `radial`: `t = √((Δx/rx)² + (Δy/ry)²)` with `Δ = p − S`, `rx = |E.x − S.x|`,
///   `ry = |E.y − S.y|` (Core Animation's ellipse centred at `startPoint`);
/// - `conic`: `t = ((atan2(Δy, Δx) − atan2(E.y − S.y, E.x − S.x)) / 2π) mod 1`, in `[0, 1)`.
///
/// **Degenerate geometry** (*chosen*; Core Animation calls it undefined): `S = E` for `axial`
/// and a zero half-axis for `radial` give `t = 1` everywhere (the last colour); `S = E` for
/// `conic` measures angles from the +x axis.
///
/// **Colour at t** (``color(atParameter:)``): `t` is clamped to `[0, 1]` (the end colours
/// extend); the stops are `(locations[i], colors[i])`, or evenly spaced `i / (n − 1)` when
/// `locations` is `nil`; stops are sorted by location, keeping the given order among equal
/// ones (*chosen*: Core Animation requires increasing locations), so equal locations make a
/// hard edge (the later stop wins at and after it). Below the first stop the colour is the first
/// colour, above the last the last. Between stops the **straight** (not premultiplied)
/// components are interpolated linearly, as Core Animation does (a fade from white to `clear`,
/// transparent black, passes through translucent grey), then premultiplied. No colours draws
/// nothing (transparent); one colour is flat.
public struct GradientPaint: Hashable, Sendable {
  /// `type` (default `axial`).
  public var type: GradientType
  /// `colors`, straight RGBA.
  public var colors: [RGBAColor]
  /// `locations` (`nil`: evenly spaced).
  public var locations: [Double]?
  /// `startPoint`, unit space of the bounds (default `(0.5, 0)`).
  public var startPoint: Point
  /// `endPoint`, unit space of the bounds (default `(0.5, 1)`).
  public var endPoint: Point
  /// The layer's bounds, in points.
  public var bounds: Rect

  /// A gradient with Core Animation's defaults for what is not given.
  public init(
    type: GradientType = .axial, colors: [RGBAColor], locations: [Double]? = nil,
    startPoint: Point = GradientLayerProperties.defaultStartPoint,
    endPoint: Point = GradientLayerProperties.defaultEndPoint, bounds: Rect
  ) {
    self.type = type
    self.colors = colors
    self.locations = locations
    self.startPoint = startPoint
    self.endPoint = endPoint
    self.bounds = bounds
  }

  /// Throws unless every input is usable.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `locations` (`.countMismatch` unless it has one
  ///   entry per colour; `.notFinite` with the index), `startPoint`/`endPoint` (`.notFinite`,
  ///   index 0 or 1), `bounds` (`.notFinite`, index 0…3).
  public func validate() throws(ValidationError) {
    // The layer's own checks, then the bounds this paint adds.
    try GradientLayerProperties(
      type: type, colors: colors, locations: locations, startPoint: startPoint, endPoint: endPoint
    ).validate()
    let values = [bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height]
    for (index, value) in values.enumerated() {
      try Validate.finite(value, "bounds", index: index)
    }
  }

  /// `S` and `E`: the start and end points in layer points.
  public var endPoints: (start: Point, end: Point) {
    func map(_ u: Point) -> Point {
      Point(x: bounds.minX + u.x * bounds.width, y: bounds.minY + u.y * bounds.height)
    }
    return (map(startPoint), map(endPoint))
  }

  /// The stops sorted by location (see the type's notes).
  public var stops: [(location: Double, color: RGBAColor)] {
    let n = colors.count
    let given = locations ?? (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
    return zip(given, colors).enumerated()
      .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
      .map { (location: $0.element.0, color: $0.element.1) }
  }

  /// The stops of an output that interpolates straight colours between stops over `[0, 1]` and
  /// extends the end colours beyond (SVG, CSS and canvas gradients): the colour at 0, the
  /// ``stops`` with locations in `[0, 1]` in order, the colour at 1 (``color(atParameter:)``).
  /// It gives this paint's colour at every `t`, also with locations outside `[0, 1]` and repeated
  /// locations (a hard edge, the later stop winning at it). Empty without colours.
  public var unitIntervalStops: [(location: Double, color: RGBAColor)] {
    let sorted = stops
    guard let first = Self.color(atParameter: 0, stops: sorted),
      let last = Self.color(atParameter: 1, stops: sorted)
    else { return [] }
    return [(0, first)] + sorted.filter { $0.location >= 0 && $0.location <= 1 } + [(1, last)]
  }

  /// The gradient parameter `t` at layer point `p`, before clamping.
  public func parameter(at p: Point) -> Double {
    let (s, e) = endPoints
    let dx = p.x - s.x
    let dy = p.y - s.y
    let ex = e.x - s.x
    let ey = e.y - s.y
    switch type {
    case .axial:
      let length2 = ex * ex + ey * ey
      return length2 > 0 ? (dx * ex + dy * ey) / length2 : 1
    case .radial:
      let rx = abs(ex)
      let ry = abs(ey)
      guard rx > 0, ry > 0 else { return 1 }
      return ((dx / rx) * (dx / rx) + (dy / ry) * (dy / ry)).squareRoot()
    case .conic:
      let reference = ex == 0 && ey == 0 ? 0 : Double.atan2(y: ey, x: ex)
      let turns = (Double.atan2(y: dy, x: dx) - reference) / (2 * Double.pi)
      let t = turns - turns.rounded(.down)
      return t < 1 ? t : 0
    }
  }

  /// The straight colour at parameter `t` (see the type's notes), or `nil` without colours.
  public func color(atParameter t: Double) -> RGBAColor? {
    Self.color(atParameter: t, stops: stops)
  }

  /// The straight colour at parameter `t` between `stops` (sorted, as ``stops``), or `nil`
  /// without stops.
  static func color(atParameter t: Double, stops: [(location: Double, color: RGBAColor)])
    -> RGBAColor?
  {
    guard let first = stops.first, let last = stops.last else { return nil }
    let t = t.isNaN ? 0 : Swift.min(Swift.max(t, 0), 1)
    if t < first.location { return first.color }
    guard let next = stops.firstIndex(where: { $0.location > t }) else { return last.color }
    let a = stops[next - 1]
    let b = stops[next]
    let f = (t - a.location) / (b.location - a.location)
    func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
    return RGBAColor(
      clamping: mix(a.color.red, b.color.red), mix(a.color.green, b.color.green),
      mix(a.color.blue, b.color.blue), mix(a.color.alpha, b.color.alpha))
  }

  /// The premultiplied colour at layer point `p` (transparent without colours).
  public func premultipliedColor(at p: Point) -> SIMD4<Double> {
    guard let c = color(atParameter: parameter(at: p)) else { return .zero }
    return SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
  }
}
