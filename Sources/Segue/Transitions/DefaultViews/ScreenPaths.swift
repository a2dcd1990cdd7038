/// The paths of the default views' glyphs and controls, in points of the shape layer's frame
/// (y down): chevrons, the status bar's signal, Wi-Fi and battery, rounded rectangles.
enum ScreenPaths {
  /// The fraction of a quarter circle's radius at which a cubic Bézier's control points sit,
  /// `4/3·tan(π/8)`.
  static let quarterCircleControl = 0.552_284_749_8

  /// An open chevron spanning `rect`: from its top corner to the middle of its opposite side
  /// and back to its bottom corner, pointing left (a back button's) or right (a disclosure
  /// indicator's); for stroking.
  static func chevron(in rect: Rect, pointsRight: Bool = false) throws(ValidationError)
    -> BezierPath
  {
    let (tip, ends) = pointsRight ? (rect.maxX, rect.minX) : (rect.minX, rect.maxX)
    var path = BezierPath()
    try path.move(to: Point(x: ends, y: rect.minY))
    try path.addLine(to: Point(x: tip, y: rect.midY))
    try path.addLine(to: Point(x: ends, y: rect.maxY))
    return path
  }

  /// The rectangle `rect` with corners of `radius` (at most half the shorter side), clockwise.
  static func roundedRect(_ rect: Rect, radius: Double, into path: inout BezierPath)
    throws(ValidationError)
  {
    let r = Swift.min(radius, rect.width / 2, rect.height / 2)
    let k = r * (1 - quarterCircleControl)
    let (x0, y0, x1, y1) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
    try path.move(to: Point(x: x0 + r, y: y0))
    try path.addLine(to: Point(x: x1 - r, y: y0))
    try path.addCurve(
      to: Point(x: x1, y: y0 + r), control1: Point(x: x1 - k, y: y0),
      control2: Point(x: x1, y: y0 + k))
    try path.addLine(to: Point(x: x1, y: y1 - r))
    try path.addCurve(
      to: Point(x: x1 - r, y: y1), control1: Point(x: x1, y: y1 - k),
      control2: Point(x: x1 - k, y: y1))
    try path.addLine(to: Point(x: x0 + r, y: y1))
    try path.addCurve(
      to: Point(x: x0, y: y1 - r), control1: Point(x: x0 + k, y: y1),
      control2: Point(x: x0, y: y1 - k))
    try path.addLine(to: Point(x: x0, y: y0 + r))
    try path.addCurve(
      to: Point(x: x0 + r, y: y0), control1: Point(x: x0, y: y0 + k),
      control2: Point(x: x0 + k, y: y0))
    try path.closeSubpath()
  }

  /// The cellular signal: four bars of rising height, rounded, filling `width × height`.
  static func signalBars(width: Double, height: Double) throws(ValidationError) -> BezierPath {
    var path = BezierPath()
    let gap = width / 12
    let bar = (width - 3 * gap) / 4
    for i in 0..<4 {
      let h = height * Double(i + 1) / 4
      let rect = Rect(x: Double(i) * (bar + gap), y: height - h, width: bar, height: h)
      try roundedRect(rect, radius: bar / 3, into: &path)
    }
    return path
  }

  /// The Wi-Fi fan: two bands and a wedge, quarter circles centred on the bottom middle of
  /// `width × height` (the fan is `√2·height` wide).
  static func wifi(width: Double, height: Double) throws(ValidationError) -> BezierPath {
    var path = BezierPath()
    let centre = Point(x: width / 2, y: height)
    let band = height / 5
    for k in 0..<2 {
      let outer = height - Double(k) * 1.8 * band
      try sector(centre: centre, inner: outer - band, outer: outer, into: &path)
    }
    try sector(centre: centre, inner: 0, outer: height - 3.6 * band, into: &path)
    return path
  }

  /// A band of the quarter circle between −135° and −45° (pointing up) from `inner` to
  /// `outer` radius around `centre`; a wedge when `inner` is 0.
  static func sector(centre c: Point, inner: Double, outer: Double, into path: inout BezierPath)
    throws(ValidationError)
  {
    let s = 0.5.squareRoot()
    let k = quarterCircleControl
    func point(_ r: Double, _ dx: Double, _ dy: Double) -> Point {
      Point(x: c.x + r * dx, y: c.y + r * dy)
    }
    try path.move(to: point(outer, -s, -s))
    // The 90° arc from −135° to −45° through −90°, as one cubic: control points k·r along
    // the unit tangents (s, −s) and (s, s).
    let t = k
    try path.addCurve(
      to: point(outer, s, -s), control1: point(outer, -s + t * s, -s - t * s),
      control2: point(outer, s - t * s, -s - t * s))
    if inner > 0 {
      try path.addLine(to: point(inner, s, -s))
      try path.addCurve(
        to: point(inner, -s, -s), control1: point(inner, s - t * s, -s - t * s),
        control2: point(inner, -s + t * s, -s - t * s))
    } else {
      try path.addLine(to: c)
    }
    try path.closeSubpath()
  }
}
