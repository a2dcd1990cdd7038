import Segue
import Testing

/// `snapshotView(afterScreenUpdates:)` and `resizableSnapshotView(from:afterScreenUpdates:withCapInsets:)`
/// on `SceneBuilder`: copies under fresh ids, placed at frame origin (0, 0), untransformed;
/// the resizable form clips to the rectangle; every rejection.
@Suite("SceneBuilder snapshots")
struct SceneBuilderSnapshotsTests {
  /// **page** (bounds (0, 0, 200, 100) at position (300, 400), rotated, zPosition 5, rounded)
  /// holding **text** at (50, 25) and **text**'s child **glyph**.
  static func builder() throws -> SceneBuilder {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "page", bounds: Rect(x: 0, y: 0, width: 200, height: 100),
        position: Point(x: 300, y: 400), zPosition: 5,
        transform: .makeRotation(by: 0.3, x: 0, y: 1, z: 0), cornerRadius: 8))
    try b.add(
      Layer(
        id: "text", bounds: Rect(x: 0, y: 0, width: 20, height: 10),
        position: Point(x: 50, y: 25)), parent: "page")
    try b.add(Layer(id: "glyph"), parent: "text")
    return b
  }

  /// The copy keeps the hierarchy and appearance under fresh ids; its root sits at frame
  /// (0, 0, 200, 100) (position = anchor · size = (100, 50)), untransformed, at zPosition 0.
  @Test func snapshotCopiesTheSubtree() throws {
    let b = try Self.builder()
    let snapshot = try b.snapshotView(of: "page", afterScreenUpdates: true, named: "pageCopy")
    #expect(snapshot.layers.map(\.id) == ["pageCopy", "pageCopy/text", "pageCopy/glyph"])
    let root = snapshot.layers[0]
    #expect(root.frame == Rect(x: 0, y: 0, width: 200, height: 100))
    #expect(root.transform == .identity && root.zPosition == 0 && root.cornerRadius == 8)
    #expect(snapshot.layers[1].position == Point(x: 50, y: 25))
    #expect(try snapshot.parentIndex(at: 2) == 1)
    // Added next to the original, both can animate independently.
    var c = b
    try c.addSubview(snapshot)
    #expect(c.model.count == 6)
    #expect(
      try b.snapshotView(of: "page", afterScreenUpdates: false, named: "x").layers.map(\.id)
        == ["x", "x/text", "x/glyph"])
  }

  /// The right half of the page, `(100, 0, 100, 100)`: a clipping root 100 × 100 at frame
  /// origin (0, 0) holding the copy placed so the rectangle fills it: the copy's position is
  /// anchor · size − rect.origin = (100, 50) − (100, 0) = (0, 50), so the page's point (100, 0)
  /// lands on the root's (0, 0).
  @Test func resizableSnapshotClipsToTheRect() throws {
    let b = try Self.builder()
    let half = try b.resizableSnapshotView(
      of: "page", from: Rect(x: 100, y: 0, width: 100, height: 100), afterScreenUpdates: true,
      withCapInsets: .zero, named: "right")
    #expect(
      half.layers.map(\.id) == ["right", "right/page", "right/page/text", "right/page/glyph"])
    #expect(half.layers[0].frame == Rect(x: 0, y: 0, width: 100, height: 100))
    #expect(half.layers[0].masksToBounds)
    #expect(half.layers[1].position == Point(x: 0, y: 50))
    #expect(half.layers[1].transform == .identity)
    let pageToRoot = try half.matrix(from: 1, to: 0)
    let corner = try #require(pageToRoot.mapPoint(Point(x: 100, y: 0)))
    #expect(abs(corner.x) < 1e-12 && abs(corner.y) < 1e-12)
  }

  @Test func snapshotRejections() throws {
    let b = try Self.builder()
    let unknown = ValidationError(field: "layer", reason: .unknown("ghost"))
    #expect(throws: unknown) {
      try b.snapshotView(of: "ghost", afterScreenUpdates: true, named: "s")
    }
    #expect(throws: unknown) {
      try b.resizableSnapshotView(
        of: "ghost", from: .zero, afterScreenUpdates: true, withCapInsets: .zero, named: "s")
    }
    #expect(throws: ValidationError(field: "rect", index: 0, reason: .notFinite)) {
      try b.resizableSnapshotView(
        of: "page", from: .null, afterScreenUpdates: true, withCapInsets: .zero, named: "s")
    }
    #expect(throws: ValidationError(field: "capInsets", index: 0, reason: .negative)) {
      try b.resizableSnapshotView(
        of: "page", from: Rect(x: 0, y: 0, width: 10, height: 10), afterScreenUpdates: true,
        withCapInsets: EdgeInsets(top: -1, left: 0, bottom: 0, right: 0), named: "s")
    }
    // A snapshot named like a view already in the container collides when added.
    var c = b
    let clash = try b.snapshotView(of: "text", afterScreenUpdates: true, named: "page")
    #expect(throws: ValidationError(field: "id", reason: .duplicate("page"))) {
      try c.addSubview(clash)
    }
  }
}
