import Segue
import Testing

/// `resizableSnapshotView(from:afterScreenUpdates:withCapInsets:)` with cap insets on
/// `SceneBuilder`: nine clipping parts, caps unscaled, the middle stretched, re-laid out when the
/// snapshot's frame or bounds change, in and out of animation blocks; every rejection.
@Suite("Resizable snapshots with cap insets")
struct ResizableSnapshotTests {
  /// Insets top 10, left 20, bottom 30, right 40 on the whole 200 × 100 page: a source centre
  /// of 140 × 60 from (20, 10) to (160, 70).
  static let insets = EdgeInsets(top: 10, left: 20, bottom: 30, right: 40)

  /// The page of ``SceneBuilderSnapshotsTests/builder()`` and its snapshot `"snap"` (frame
  /// (0, 0, 200, 100)) added to the container.
  static func builder() throws -> SceneBuilder {
    var b = try SceneBuilderSnapshotsTests.builder()
    let snap = try b.resizableSnapshotView(
      of: "page", from: Rect(x: 0, y: 0, width: 200, height: 100), afterScreenUpdates: true,
      withCapInsets: insets, named: "snap")
    try b.addSubview(snap)
    return b
  }

  /// Where the source point `p` (in the page's bounds space) shown by `part`'s copy lands in
  /// the container.
  static func map(_ tree: LayerTree, _ part: String, _ p: Point) throws -> Point {
    let copy = try #require(tree.index(of: "snap/\(part)/page"))
    return try #require(try tree.matrixToContainer(at: copy).mapPoint(p))
  }

  static func near(_ a: Point, _ b: Point) -> Bool {
    abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9
  }

  /// Nine parts, each clipping and holding its own copy of the page with its descendants.
  @Test func ninePartsEachWithACopy() throws {
    let b = try Self.builder()
    let names = [
      "topLeft", "top", "topRight", "left", "center", "right", "bottomLeft", "bottom",
      "bottomRight",
    ]
    for name in names {
      let part = try #require(b.model[id: "snap/\(name)"])
      #expect(part.masksToBounds)
      #expect(b.model[id: "snap/\(name)/page/text"] != nil)
      #expect(b.model[id: "snap/\(name)/page/glyph"] != nil)
    }
    #expect(b.model.layers.count == 3 + 1 + 9 * 4)
    // At its original size every part shows its slice unscaled: the identity map.
    for name in names {
      #expect(Self.near(try Self.map(b.model, name, Point(x: 7, y: 9)), Point(x: 7, y: 9)))
    }
  }

  /// Only the parts of non-zero caps exist: a top cap alone gives `top` and `center`.
  @Test func zeroCapsHaveNoParts() throws {
    let b = try SceneBuilderSnapshotsTests.builder()
    let snap = try b.resizableSnapshotView(
      of: "page", from: Rect(x: 0, y: 0, width: 200, height: 100), afterScreenUpdates: true,
      withCapInsets: EdgeInsets(top: 10, left: 0, bottom: 0, right: 0), named: "snap")
    #expect(
      snap.layers.filter { !$0.id.dropFirst(5).contains("/") }.map(\.id) == [
        "snap", "snap/top", "snap/center",
      ])
  }

  /// A linear 1 s animation of the frame from (0, 0, 200, 100) to (0, 0, 340, 130): at 0.5 s the
  /// snapshot is 270 × 115. Worked by hand: the centre is 270 − 60 = 210 wide over a source
  /// 140 (scale 1.5) and 115 − 40 = 75 tall over 60 (scale 1.25); at 1 s, 280/140 = 2 and
  /// 90/60 = 1.5. Caps map by translation only.
  @Test(arguments: [AnimationMode.block, .explicit])
  func frameAnimationStretchesOnlyTheMiddle(_ mode: AnimationMode) throws {
    var b = try Self.builder()
    let end = Rect(x: 0, y: 0, width: 340, height: 130)
    switch mode {
    case .block:
      try b.animate(withDuration: 1, timingParameters: nil) { block throws(ValidationError) in
        try block.setFrame(end, of: "snap")
      }
    case .explicit:
      try b.animate(
        .boundsSize, of: "snap", to: .size(end.size), duration: 1, timingParameters: nil)
      try b.animate(
        .position, of: "snap", to: .point(Point(x: 170, y: 65)), duration: 1,
        timingParameters: nil)
    }
    let scene = try b.scene(duration: 1, containerSize: Size(width: 400, height: 400))
    let cases: [(t: Double, w: Double, h: Double, sx: Double, sy: Double)] = [
      (0, 200, 100, 1, 1), (0.5, 270, 115, 1.5, 1.25), (1, 340, 130, 2, 1.5),
    ]
    for c in cases {
      let tree = scene.presentation(at: c.t)
      // Caps: unscaled, pinned to their corners.
      #expect(Self.near(try Self.map(tree, "topLeft", Point(x: 5, y: 5)), Point(x: 5, y: 5)))
      #expect(
        Self.near(
          try Self.map(tree, "bottomRight", Point(x: 200, y: 100)), Point(x: c.w, y: c.h)))
      #expect(
        Self.near(
          try Self.map(tree, "bottomRight", Point(x: 165, y: 75)),
          Point(x: c.w - 35, y: c.h - 25)))
      // Edges: stretched along one axis.
      #expect(
        Self.near(try Self.map(tree, "top", Point(x: 90, y: 5)), Point(x: 20 + 70 * c.sx, y: 5)))
      #expect(
        Self.near(
          try Self.map(tree, "right", Point(x: 180, y: 40)),
          Point(x: c.w - 20, y: 10 + 30 * c.sy)))
      // Centre: both axes; its corners meet the caps' corners.
      #expect(
        Self.near(
          try Self.map(tree, "center", Point(x: 90, y: 40)),
          Point(x: 20 + 70 * c.sx, y: 10 + 30 * c.sy)))
      #expect(
        Self.near(
          try Self.map(tree, "center", Point(x: 160, y: 70)), Point(x: c.w - 40, y: c.h - 30)))
      let center = try #require(tree[id: "snap/center"])
      #expect(center.frame == Rect(x: 20, y: 10, width: c.w - 60, height: c.h - 40))
      #expect(
        try #require(tree[id: "snap/topLeft"]).frame == Rect(x: 0, y: 0, width: 20, height: 10))
    }
  }

  enum AnimationMode: Sendable, CaseIterable { case block, explicit }

  /// Outside a block, `frame` and `bounds` re-lay out the parts at once.
  @Test func settingFrameOrBoundsOutsideABlock() throws {
    var b = try Self.builder()
    try b.setFrame(Rect(x: 0, y: 0, width: 340, height: 130), of: "snap")
    #expect(
      Self.near(try Self.map(b.model, "center", Point(x: 90, y: 40)), Point(x: 160, y: 55)))
    try b.set(.bounds, of: "snap", to: .rect(Rect(x: 0, y: 0, width: 200, height: 100)))
    // The root keeps its position (170, 65), so its bounds sit at (70, 15); the parts follow.
    #expect(
      Self.near(try Self.map(b.model, "center", Point(x: 90, y: 40)), Point(x: 160, y: 55)))
  }

  /// Zero insets keep the single clipped copy (``SceneBuilderSnapshotsTests``).
  @Test func zeroInsetsKeepOneCopy() throws {
    let b = try SceneBuilderSnapshotsTests.builder()
    let snap = try b.resizableSnapshotView(
      of: "page", from: Rect(x: 0, y: 0, width: 200, height: 100), afterScreenUpdates: true,
      withCapInsets: .zero, named: "snap")
    #expect(snap.layers.map(\.id) == ["snap", "snap/page", "snap/page/text", "snap/page/glyph"])
  }

  @Test func rejections() throws {
    let b = try SceneBuilderSnapshotsTests.builder()
    let rect = Rect(x: 0, y: 0, width: 200, height: 100)
    func make(_ insets: EdgeInsets) throws(ValidationError) {
      _ = try b.resizableSnapshotView(
        of: "page", from: rect, afterScreenUpdates: true, withCapInsets: insets, named: "s")
    }
    #expect(throws: ValidationError(field: "capInsets", index: 1, reason: .negative)) {
      try make(EdgeInsets(top: 0, left: -1, bottom: 0, right: 0))
    }
    #expect(throws: ValidationError(field: "capInsets", index: 3, reason: .notFinite)) {
      try make(EdgeInsets(top: 0, left: 0, bottom: 0, right: .infinity))
    }
    #expect(throws: ValidationError(field: "capInsets", index: 0, reason: .notFinite)) {
      try make(EdgeInsets(top: .nan, left: 0, bottom: 0, right: 0))
    }
    #expect(throws: ValidationError.self) {
      try make(EdgeInsets(top: 0, left: 150, bottom: 0, right: 50))
    }
    #expect(throws: ValidationError.self) {
      try make(EdgeInsets(top: 60, left: 0, bottom: 70, right: 0))
    }
    // The snapshot cannot become narrower than its caps.
    var c = try Self.builder()
    #expect(throws: ValidationError.self) {
      try c.setFrame(Rect(x: 0, y: 0, width: 60, height: 100), of: "snap")
    }
    #expect(throws: ValidationError.self) {
      try c.animate(withDuration: 1) { block throws(ValidationError) in
        try block.set(.boundsSize, of: "snap", to: .size(Size(width: 200, height: 40)))
      }
    }
    #expect(c.model == (try Self.builder()).model)
    let keys = KeyframeValues.sizes(
      try KeyframeTrack(values: [Size(width: 200, height: 100), Size(width: 300, height: 100)]))
    #expect(throws: ValidationError.self) {
      try c.animate(.boundsSize, of: "snap", keyframes: keys, duration: 1)
    }
  }
}
