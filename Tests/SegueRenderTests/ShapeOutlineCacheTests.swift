import Segue
import SegueRender
import Testing

/// A shape layer's fill and stroke are kept across frames by the shape's properties and the
/// scale (``SceneRenderer/snapshot(for:)``): a cached outline is never served for another shape.
@Suite("Shape outlines kept across frames")
struct ShapeOutlineCacheTests {
  /// A closed curve, filled and stroked 3 points wide.
  static func shape(strokeEnd: Double = 1, lineWidth: Double = 3) throws -> Layer {
    var path = BezierPath()
    try path.move(to: Point(x: 0, y: 20))
    try path.addCurve(
      to: Point(x: 40, y: 20), control1: Point(x: 0, y: -5), control2: Point(x: 40, y: -5))
    try path.closeSubpath()
    return Layer.shapeLayer(
      id: "s", frame: Rect(x: 0, y: 0, width: 40, height: 30), path: path, fillColor: .black,
      strokeColor: .white, lineWidth: lineWidth, strokeEnd: strokeEnd)
  }

  static func paths(_ layer: Layer, scale: Double = 1) throws -> [LayerSnapshot.PathFill] {
    try #require(SceneRenderer(scale: scale).snapshot(for: layer)).paths
  }

  /// The same shape gives the same fill and stroke; a shorter `strokeEnd` or a wider line
  /// changes the stroke alone, a larger scale flattens the curve into more points, and going
  /// back gives the first paths again.
  @Test func pathsFollowTheShapeAndTheScale() throws {
    let first = try Self.paths(Self.shape())
    try #require(first.count == 2)
    #expect(try Self.paths(Self.shape()) == first)
    let trimmed = try Self.paths(Self.shape(strokeEnd: 0.5))
    try #require(trimmed.count == 2)
    #expect(trimmed[0] == first[0] && trimmed[1] != first[1])
    let wider = try Self.paths(Self.shape(lineWidth: 6))
    try #require(wider.count == 2)
    #expect(wider[0] == first[0] && wider[1] != first[1])
    let finer = try Self.paths(Self.shape(), scale: 3)
    try #require(finer.count == 2)
    #expect(finer[0].polygons[0].points.count > first[0].polygons[0].points.count)
    #expect(try Self.paths(Self.shape()) == first)
  }
}
