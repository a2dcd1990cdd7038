import RealModule
import Segue

/// The outline of a ``RoundedRect`` as a polygon, for outputs that draw polygons (the SVG
/// filmstrip).
extension RoundedRect {
  /// Segments per rounded corner's quarter arc in ``outline()``: 8 keeps a 40-point radius within
  /// `r·(1 − cos(π/32)) ≈ 0.2` points of the arc.
  static let outlineSegmentsPerCorner = 8

  /// The outline clockwise in y-down space from the top-left corner: per corner (top-left,
  /// top-right, bottom-right, bottom-left) the corner point when it is square, else its quarter
  /// arc of radius ``radius`` sampled at ``outlineSegmentsPerCorner`` + 1 points. Empty when the
  /// rectangle is.
  func outline() -> [Point] {
    guard !isEmpty else { return [] }
    let r = radius
    // (mask bit, arc centre, start angle) in clockwise order; angles in y-down space.
    let corners: [(bit: Int, cx: Double, cy: Double, start: Double)] = [
      (0, x0 + r, y0 + r, Double.pi),
      (1, x1 - r, y0 + r, 1.5 * Double.pi),
      (3, x1 - r, y1 - r, 0),
      (2, x0 + r, y1 - r, 0.5 * Double.pi),
    ]
    var points: [Point] = []
    let n = Self.outlineSegmentsPerCorner
    for c in corners {
      guard r > 0, rounds(c.bit) else {
        points.append(Point(x: c.bit & 1 == 0 ? x0 : x1, y: c.bit & 2 == 0 ? y0 : y1))
        continue
      }
      for i in 0...n {
        let angle = c.start + 0.5 * Double.pi * Double(i) / Double(n)
        points.append(Point(x: c.cx + r * .cos(angle), y: c.cy + r * .sin(angle)))
      }
    }
    return points
  }
}
