import RealModule
import Segue

/// The parts of a layer a raster layer draws, in this order when several are drawn at once:
/// the shadow (below), the body (the fill), the contents image, the gradient, the paths
/// (a shape's fill and stroke, text), the border (above).
public struct LayerParts: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The drop shadow (``LayerSnapshot/Shadow``).
  public static let shadow = LayerParts(rawValue: 1)
  /// The fill, inside the rounded bounds.
  public static let body = LayerParts(rawValue: 2)
  /// The border (``LayerSnapshot/Border``).
  public static let border = LayerParts(rawValue: 4)
  /// The `contents` image (``LayerSnapshot/Contents``), over the body and under the border.
  public static let contents = LayerParts(rawValue: 8)
  /// The `CAGradientLayer` gradient (``LayerSnapshot/Gradient``), over the contents.
  public static let gradient = LayerParts(rawValue: 16)
  /// The filled paths (``LayerSnapshot/paths``: a shape's fill and stroke, text), over the
  /// gradient.
  public static let paths = LayerParts(rawValue: 32)
  /// All six.
  public static let all: LayerParts = [.shadow, .body, .contents, .gradient, .paths, .border]
}

/// One part being drawn (``LayerParts`` names the set), in draw order.
enum LayerPart: Int, CaseIterable, Sendable {
  case shadow, body, contents, gradient, paths, border

  /// The one-element set.
  var set: LayerParts {
    switch self {
    case .shadow: .shadow
    case .body: .body
    case .contents: .contents
    case .gradient: .gradient
    case .paths: .paths
    case .border: .border
    }
  }
}

/// A rectangle `[x0, x1) × [y0, y1)` with the corners in `corners` rounded to `radius`
/// (`0 ≤ radius ≤` half of each side; `CALayer.maskedCorners`, the others square), in layer
/// coordinates.
struct RoundedRect: Sendable {
  var x0: Double
  var x1: Double
  var y0: Double
  var y1: Double
  var radius: Double
  var corners: CornerMask

  /// `rect` with corner radius `r` clamped to `[0, min(width, height)/2]` on the corners in
  /// `corners` (default all).
  init(
    _ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double, radius r: Double,
    corners: CornerMask = .all
  ) {
    (self.x0, self.x1, self.y0, self.y1) = (x0, x1, y0, y1)
    radius = Swift.max(0, Swift.min(r, (x1 - x0) / 2, (y1 - y0) / 2))
    self.corners = corners
  }

  /// Whether corner square `k` (see ``cornerSquare(_:)``) is rounded: bit `k` of ``corners``
  /// (`CACornerMask`'s order: top-left, top-right, bottom-left, bottom-right in y-down space).
  @inline(__always)
  func rounds(_ k: Int) -> Bool { corners.rawValue & (1 << UInt(k)) != 0 }

  var isEmpty: Bool { !(x0 < x1 && y0 < y1) }

  /// Inside: in the half-open rectangle and, within `radius` of two sides, no farther than
  /// `radius` from that corner's centre.
  @inline(__always)
  func contains(_ u: Double, _ v: Double) -> Bool {
    guard u >= x0 && u < x1 && v >= y0 && v < y1 else { return false }
    let r = radius
    guard r > 0 else { return true }
    let cx = u < x0 + r ? x0 + r : (u > x1 - r ? x1 - r : u)
    let cy = v < y0 + r ? y0 + r : (v > y1 - r ? y1 - r : v)
    let dx = u - cx
    let dy = v - cy
    guard dx * dx + dy * dy > r * r else { return true }
    // Outside the quarter disk of the corner square the point is in: inside the shape only when
    // that corner is square.
    return !rounds((u < cx ? 0 : 1) + (v < cy ? 0 : 2))
  }

  /// Corner square `k` (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right), `radius`
  /// on a side: where the rounding decides.
  func cornerSquare(_ k: Int) -> Rect {
    let r = radius
    return Rect(x: k % 2 == 0 ? x0 : x1 - r, y: k < 2 ? y0 : y1 - r, width: r, height: r)
  }

  var rect: Rect { Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) }
}

/// A shadow's coverage function (``LayerSnapshot/Shadow``): the Gaussian-blurred rounded
/// rectangle `shape`, `σ` in layer units.
struct ShadowShape: Sendable {
  var shape: RoundedRect
  var sigma: Double
  /// `5σ`: beyond it the coverage is exactly 0 (outside) or 1 (inside).
  var reach: Double { 5 * sigma }

  /// The layer-space rectangle outside which the coverage is 0.
  var extent: Rect {
    let d = reach
    return Rect(
      x: shape.x0 - d, y: shape.y0 - d, width: shape.x1 - shape.x0 + 2 * d,
      height: shape.y1 - shape.y0 + 2 * d)
  }

  /// The rectangle inside which the coverage is 1 whatever the rounding: the shape inset by
  /// `5σ + radius`, or `nil` when the shape is too small to have one.
  var core: Rect? {
    let d = reach + shape.radius
    let (w, h) = (shape.x1 - shape.x0 - 2 * d, shape.y1 - shape.y0 - 2 * d)
    guard w > 0 && h > 0 else { return nil }
    return Rect(x: shape.x0 + d, y: shape.y0 + d, width: w, height: h)
  }

  /// The coverage at `(u, v)` in `[0, 1]` (see ``LayerSnapshot/Shadow``).
  func coverage(_ u: Double, _ v: Double) -> Double {
    guard sigma > 0 else { return shape.contains(u, v) ? 1 : 0 }
    let d = reach
    let s = shape
    guard u > s.x0 - d && u < s.x1 + d && v > s.y0 - d && v < s.y1 + d else { return 0 }
    let inner = RoundedRect(
      s.x0 + d, s.x1 - d, s.y0 + d, s.y1 - d, radius: Swift.max(s.radius - d, 0),
      corners: s.corners)
    if !inner.isEmpty && inner.contains(u, v) { return 1 }
    var m = phi(u, s.x0, s.x1) * phi(v, s.y0, s.y1)
    if s.radius > 0 {
      let r = s.radius
      for corner in 0..<4 where s.rounds(corner) {
        let left = corner % 2 == 0
        let top = corner < 2
        // The piece: the corner square minus its quarter disk, row by row.
        let (ya, yb) = top ? (s.y0, s.y0 + r) : (s.y1 - r, s.y1)
        let (xa, xb) = left ? (s.x0, s.x0 + r) : (s.x1 - r, s.x1)
        guard u > xa - d && u < xb + d else { continue }
        let lo = Swift.max(ya, v - d)
        let hi = Swift.min(yb, v + d)
        guard lo < hi else { continue }
        let cy = top ? s.y0 + r : s.y1 - r
        let cx = left ? s.x0 + r : s.x1 - r
        var piece = 0.0
        let half = (hi - lo) / 2
        let mid = (hi + lo) / 2
        // The integrand at row y: the piece's chord times the Gaussian in v.
        func integrand(_ y: Double) -> Double {
          let dy = y - cy
          let reach = (Swift.max(r * r - dy * dy, 0)).squareRoot()
          let row = left ? phi(u, s.x0, cx - reach) : phi(u, cx + reach, s.x1)
          let z = (v - y) / sigma
          return row * Double.exp(-0.5 * z * z)
        }
        for (node, weight) in Self.rule {
          piece += weight * (integrand(mid - half * node) + integrand(mid + half * node))
        }
        m -= piece * half / (sigma * (2 * Double.pi).squareRoot())
      }
    }
    return Swift.min(Swift.max(m, 0), 1)
  }

  /// The 16-point Gauss–Legendre rule's positive nodes and weights (``GaussLegendre``).
  static let rule = GaussLegendre.nodes(16)

  /// `Φ(u; a, b)`: the mass of the 1D Gaussian of `σ` around `u` on `[a, b]`.
  @inline(__always)
  func phi(_ u: Double, _ a: Double, _ b: Double) -> Double {
    guard a < b else { return 0 }
    let k = 1 / (sigma * 2.0.squareRoot())
    return 0.5 * (Double.erf((b - u) * k) - Double.erf((a - u) * k))
  }
}
