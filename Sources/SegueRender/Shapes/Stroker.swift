import RealModule
import Segue

/// The outline of a stroked path (`CAShapeLayer`'s stroke): closed polygons whose union, filled
/// with the **non-zero** rule, is the stroke.
///
/// **Method.** The path is flattened (``PathFlattening``, tolerance in device pixels over
/// `scale`), consecutive coincident points are dropped, then trimmed and dashed by arc length:
/// - `strokeStart`/`strokeEnd` select `[start·L, end·L]` of the total length `L` of all
///   subpaths in order (closing segments included), as Core Animation trims the whole path;
/// - the dash pattern restarts at each subpath (Core Graphics), its phase measured from the
///   untrimmed subpath's start, so trimming never slides the dashes.
///
/// Each drawn piece is stroked as one polygon: the left offset forward, the end cap, the right
/// offset backward, the start cap. At a vertex the outer side gets the join (miter within
/// `miterLimit`, else bevel; round; bevel) and the inner side passes through the vertex, so the
/// polygon's winding number is the sum of its segments' rectangles and joins, all of one sign:
/// non-zero fills exactly their union, and polygons of different pieces never cancel. A closed
/// subpath drawn whole gives two loops (outer and inner offset) with joins everywhere and no
/// caps. A piece of zero length (`move(to: p)` then `addLine(to: p)`, or a zero dash) draws its
/// two caps only: a disc for `round`, a square along the path's direction (or +x) for `square`,
/// nothing for `butt`. Round joins and caps are arcs flattened to the same tolerance.
///
/// Everything is linear in the input and output size; `budget` bounds the output points.
public struct Stroker: Hashable, Sendable {
  /// The stroke properties.
  public var style: StrokeStyle
  /// Device pixels per layer point (the layer matrix's largest stretch), `> 0`.
  public var scale: Double
  /// The flattening tolerance in device pixels, `> 0`.
  public var tolerance: Double
  /// The most points the outline may have.
  public var budget: Int

  /// A stroker.
  public init(
    style: StrokeStyle, scale: Double = 1, tolerance: Double = PathFlattening.defaultTolerance,
    budget: Int = PathFlattening.defaultBudget
  ) {
    self.style = style
    self.scale = scale
    self.tolerance = tolerance
    self.budget = budget
  }

  /// The outline polygons of `path`'s stroke (each closed; fill with non-zero).
  ///
  /// - Throws: ``ShapeError/invalid(_:)`` for a style value (``StrokeStyle/validate()``), a
  ///   tolerance or scale, a coordinate beyond `±10¹²` (`path`, with the element's index), or a
  ///   dash pattern whose total is not finite; ``ShapeError/tooComplex(limit:)`` when the
  ///   outline would exceed `budget` points.
  public func outline(of path: BezierPath) throws(ShapeError) -> [Polyline] {
    do { try style.validate() } catch { throw .invalid(error) }
    try Self.checkCoordinates(path)
    let layerTolerance = try PathFlattening.layerTolerance(tolerance, scale: scale)
    let start = Swift.min(Swift.max(style.strokeStart, 0), 1)
    let end = Swift.min(Swift.max(style.strokeEnd, 0), 1)
    guard style.lineWidth > 0, start < end else { return [] }
    let lines = try PathFlattening.polylines(
      path, tolerance: tolerance, scale: scale, budget: budget
    ).map(Self.deduplicated)
    let lengths = lines.map(\.length)
    let total = lengths.reduce(0, +)
    let dashes = try DashPattern(style: style)
    var builder = OutlineBuilder(style: style, tolerance: layerTolerance, budget: budget)
    var offset = 0.0
    for (line, length) in zip(lines, lengths) {
      let lo = Swift.max(start * total - offset, 0)
      let hi = Swift.min(end * total - offset, length)
      offset += length
      guard lo < hi || (length == 0 && lo <= hi) else { continue }
      if dashes == nil && line.isClosed && lo <= 0 && hi >= length && line.points.count > 1 {
        try builder.closed(line.points)
        continue
      }
      let walker = PolylineWalker(line)
      let intervals = try dashes?.intervals(lo, hi, budget: budget) ?? [(lo, hi)]
      var cursor = 0
      for (a, b) in intervals {
        let piece = walker.piece(from: a, to: b, cursor: &cursor)
        try builder.open(piece.points, direction: piece.direction)
      }
    }
    return builder.polygons
  }

  /// The outline as a path of closed polygons (fill with ``/Segue/FillRule/nonZero``).
  ///
  /// - Throws: as ``outline(of:)``.
  public func outlinePath(of path: BezierPath) throws(ShapeError) -> BezierPath {
    let polygons = try outline(of: path)
    var result = BezierPath()
    do throws(ValidationError) {
      for polygon in polygons {
        guard let first = polygon.points.first else { continue }
        try result.move(to: first)
        for p in polygon.points.dropFirst() { try result.addLine(to: p) }
        try result.closeSubpath()
      }
    } catch {
      throw .invalid(error)
    }
    return result
  }

  /// The largest coordinate magnitude accepted in a path, in points.
  public static let maximumCoordinate = 1e12

  static func checkCoordinates(_ path: BezierPath) throws(ShapeError) {
    for (index, element) in path.elements.enumerated() {
      let points: [Point]
      switch element {
      case .move(let p), .line(let p): points = [p]
      case .quadCurve(let p, let c): points = [p, c]
      case .curve(let p, let c1, let c2): points = [p, c1, c2]
      case .closeSubpath: points = []
      }
      for p in points where !(abs(p.x) <= maximumCoordinate && abs(p.y) <= maximumCoordinate) {
        throw .invalid(
          ValidationError(
            field: "path", index: index,
            reason: .outOfRange(lower: -maximumCoordinate, upper: maximumCoordinate)))
      }
    }
  }

  /// `line` without consecutive points at zero distance (and without a last point equal to
  /// the first when closed); at least one point stays.
  static func deduplicated(_ line: Polyline) -> Polyline {
    var points: [Point] = []
    points.reserveCapacity(line.points.count)
    for p in line.points where points.last.map({ distance($0, p) > 0 }) ?? true {
      points.append(p)
    }
    if line.isClosed, points.count > 1, let first = points.first, let last = points.last,
      !(distance(last, first) > 0)
    {
      points.removeLast()
    }
    return Polyline(points: points, isClosed: line.isClosed)
  }
}
