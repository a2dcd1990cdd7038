import Segue
import Testing

/// `SceneBuilder`'s view hierarchy calls: `superview`, `subviews`, re-parenting with
/// `addSubview(_:to:)`, `removeFromSuperview`, `bringSubviewToFront`, `sendSubviewToBack`, and
/// `frame` outside animation blocks.
@Suite("SceneBuilder view hierarchy")
struct SceneBuilderViewHierarchyTests {
  /// a, b, c in the container; a1, a2 under a.
  static func builder() throws -> SceneBuilder {
    var b = SceneBuilder()
    try b.add(Layer(id: "a"))
    try b.add(Layer(id: "b"))
    try b.add(Layer(id: "c"))
    try b.add(Layer(id: "a1"), parent: "a")
    try b.add(Layer(id: "a2"), parent: "a")
    return b
  }

  static func order(_ b: SceneBuilder) -> [String] {
    b.model.drawOrder().map { b.model.layers[$0.layer].id }
  }

  @Test func superviewAndSubviews() throws {
    let b = try Self.builder()
    #expect(try b.superview(of: "a") == nil)
    #expect(try b.superview(of: "a2") == "a")
    #expect(try b.subviews(of: nil) == ["a", "b", "c"])
    #expect(try b.subviews(of: "a") == ["a1", "a2"])
    #expect(try b.subviews(of: "b") == [])
  }

  /// `bringSubviewToFront` moves a view above its siblings (same superview): a, b, c → b, c, a
  /// in draw order; a subview stays under its superview.
  @Test func bringSubviewToFront() throws {
    var b = try Self.builder()
    try b.bringSubviewToFront("a")
    #expect(Self.order(b) == ["b", "c", "a", "a1", "a2"])
    try b.bringSubviewToFront("a1")
    #expect(Self.order(b) == ["b", "c", "a", "a2", "a1"])
    #expect(try b.superview(of: "a1") == "a")
  }

  /// `sendSubviewToBack` moves a view below its siblings, keeping theirs in order.
  @Test func sendSubviewToBack() throws {
    var b = try Self.builder()
    try b.sendSubviewToBack("c")
    #expect(try b.subviews(of: nil) == ["c", "a", "b"])
    try b.sendSubviewToBack("a2")
    #expect(try b.subviews(of: "a") == ["a2", "a1"])
    #expect(Self.order(b) == ["c", "a", "a2", "a1", "b"])
  }

  /// Re-parenting moves the view with its subviews to the top of the new superview, and keeps
  /// its animations.
  @Test func addSubviewReparents() throws {
    var b = try Self.builder()
    try b.animate(.opacity, of: "a", to: .number(0.5), duration: 1, timingParameters: nil)
    try b.addSubview("a", to: "c")
    #expect(try b.superview(of: "a") == "c")
    #expect(try b.subviews(of: "a") == ["a1", "a2"])
    #expect(try b.subviews(of: nil) == ["b", "c"])
    #expect(b.animations.entries.map(\.layerID) == ["a"])
    try b.addSubview("a", to: nil)
    #expect(try b.subviews(of: nil) == ["b", "c", "a"])
  }

  @Test func addSubviewRejectsCyclesAndUnknownViews() throws {
    var b = try Self.builder()
    #expect(throws: ValidationError(field: "parent", reason: .cyclic)) {
      try b.addSubview("a", to: "a1")
    }
    #expect(throws: ValidationError(field: "parent", reason: .cyclic)) {
      try b.addSubview("a", to: "a")
    }
    #expect(throws: ValidationError(field: "parent", reason: .unknown("ghost"))) {
      try b.addSubview("a", to: "ghost")
    }
    #expect(throws: ValidationError(field: "layer", reason: .unknown("ghost"))) {
      try b.addSubview("ghost", to: nil)
    }
  }

  /// `removeFromSuperview` removes the view, its subviews and their animations; the others stay.
  @Test func removeFromSuperview() throws {
    var b = try Self.builder()
    try b.animate(.opacity, of: "a1", to: .number(0), duration: 1, timingParameters: nil)
    try b.animate(.opacity, of: "b", to: .number(0), duration: 1, timingParameters: nil)
    try b.removeFromSuperview("a")
    #expect(b.model.layers.map(\.id) == ["b", "c"])
    #expect(b.animations.entries.map(\.layerID) == ["b"])
    let scene = try b.scene(duration: 1, containerSize: Size(width: 10, height: 10))
    #expect(scene.model.count == 2)
  }

  /// Every call names the view that is not there.
  @Test func unknownViewsAreRejected() throws {
    var b = try Self.builder()
    let unknown = ValidationError(field: "layer", reason: .unknown("ghost"))
    #expect(throws: unknown) { try b.superview(of: "ghost") }
    #expect(throws: unknown) { try b.subviews(of: "ghost") }
    #expect(throws: unknown) { try b.removeFromSuperview("ghost") }
    #expect(throws: unknown) { try b.bringSubviewToFront("ghost") }
    #expect(throws: unknown) { try b.sendSubviewToBack("ghost") }
    #expect(throws: unknown) { try b.frame(of: "ghost") }
    #expect(throws: unknown) { try b.setFrame(.zero, of: "ghost") }
  }

  /// `frame = (10, 20, 100, 50)` with anchor (0.25, 1): bounds.size (100, 50), position
  /// (10 + 25, 20 + 50) = (35, 70); bounds.origin (5, 5) stays; the frame reads back.
  @Test func setFrameOutsideBlocks() throws {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "v", bounds: Rect(x: 5, y: 5, width: 1, height: 1), position: .zero,
        anchorPoint: Point(x: 0.25, y: 1)))
    try b.setFrame(Rect(x: 10, y: 20, width: 100, height: 50), of: "v")
    let v = b.model[id: "v"]!
    #expect(v.bounds == Rect(x: 5, y: 5, width: 100, height: 50))
    #expect(v.position == Point(x: 35, y: 70))
    #expect(try b.frame(of: "v") == Rect(x: 10, y: 20, width: 100, height: 50))
    // A negative size is read standardised: (110, 70, −100, −50) is (10, 20, 100, 50).
    try b.setFrame(Rect(x: 110, y: 70, width: -100, height: -50), of: "v")
    #expect(b.model[id: "v"]!.position == Point(x: 35, y: 70))
    #expect(b.animations.entries.isEmpty)
  }

  /// A frame with a coordinate that is not finite is refused and changes nothing; with a
  /// rotation by a quarter turn about z the frame reads as the rotated bounds' box: bounds
  /// (0, 0, 40, 20) about position (50, 50) cover x 40…60, y 30…70.
  @Test func frameRejectsNonFiniteAndReadsTransformedBox() throws {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "v", bounds: Rect(x: 0, y: 0, width: 40, height: 20), position: Point(x: 50, y: 50)))
    #expect(throws: ValidationError(field: "frame", index: 0, reason: .notFinite)) {
      try b.setFrame(.null, of: "v")
    }
    #expect(throws: ValidationError(field: "frame", index: 2, reason: .notFinite)) {
      try b.setFrame(Rect(x: 0, y: 0, width: .nan, height: 1), of: "v")
    }
    #expect(b.model[id: "v"]!.position == Point(x: 50, y: 50))
    try b.set(.transform, of: "v", to: .transform(.makeRotation(by: .pi / 2, x: 0, y: 0, z: 1)))
    let f = try b.frame(of: "v")
    #expect(abs(f.minX - 40) < 1e-9 && abs(f.minY - 30) < 1e-9)
    #expect(abs(f.width - 20) < 1e-9 && abs(f.height - 40) < 1e-9)
  }
}
