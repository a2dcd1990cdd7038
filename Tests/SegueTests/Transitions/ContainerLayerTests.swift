import Foundation
import Segue
import Testing

/// `containerView.layer.sublayerTransform`: applied to every top-level layer about the
/// container's centre, set outside and inside animation blocks.
@Suite("Container layer")
struct ContainerLayerTests {
  static let size = Size(width: 400, height: 400)

  /// A 400 × 400 container holding `card`, 200 × 200 at (100, 100), pushed 100 points towards
  /// the viewer (`zPosition` 100).
  static func builder() throws -> SceneBuilder {
    var from = LayerTree()
    try from.add(
      Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 200, height: 200),
        position: Point(x: 200, y: 200), zPosition: 100, backgroundColor: .white))
    var to = LayerTree()
    try to.add(TransitionContext.viewLayer("to", containerSize: size))
    let context = try TransitionContext(
      operation: .push, containerSize: size, fromView: from, toView: to)
    return context.containerView
  }

  /// Core Animation's rule worked by hand: a point `(x, y)` of the card at z = 100 relative to
  /// the container's centre (200, 200) is divided by `w = 1 + m34·z`.
  static func projected(_ x: Double, _ y: Double, m34: Double) -> Point {
    let w = 1 + m34 * 100
    return Point(x: 200 + (x - 200) / w, y: 200 + (y - 200) / w)
  }

  static func expectCorners(_ sample: TransitionSample, m34: Double) {
    let expected = [(100.0, 100.0), (300, 100), (300, 300), (100, 300)].map {
      projected($0.0, $0.1, m34: m34)
    }
    for (corner, p) in zip(sample["card"]!.corners.map(\.point), expected) {
      #expect(abs(corner.x - p.x) < 1e-9 && abs(corner.y - p.y) < 1e-9, "\(corner) ≠ \(p)")
    }
  }

  /// Set outside a block: perspective 500 (`m34 = −1/500`, `w = 0.8`): the card's top-left
  /// corner (−100, −100) from the centre lands at (−125, −125), i.e. (75, 75).
  @Test func perspectiveAboutTheContainersCentre() throws {
    var b = try Self.builder()
    try b.setContainer(.sublayerTransform, to: .transform(.makePerspective(distance: 500)))
    let sample = try b.scene(duration: 1, containerSize: Self.size).sample(at: 0.5)
    #expect(Self.projected(100, 100, m34: -1 / 500.0) == Point(x: 75, y: 75))
    Self.expectCorners(sample, m34: -1 / 500.0)
  }

  /// Set inside `UIView.animate` (linear): the perspective animates from the identity by
  /// decomposition, whose perspective row interpolates linearly, so at half time
  /// `m34 = −1/1000` (`w = 0.9`); at the end `m34 = −1/500`; before it starts, none.
  @Test func animatedInsideABlock() throws {
    var b = try Self.builder()
    try b.animate(withDuration: 1, timingParameters: nil) { views throws(ValidationError) in
      try views.setContainer(.sublayerTransform, to: .transform(.makePerspective(distance: 500)))
    }
    #expect(b.containerAnimations.count == 1)
    let scene = try b.scene(duration: 1, containerSize: Self.size)
    Self.expectCorners(try scene.sample(at: 0), m34: 0)
    Self.expectCorners(try scene.sample(at: 0.5), m34: -1 / 1000.0)
    Self.expectCorners(try scene.sample(at: 1), m34: -1 / 500.0)
    // The container's state stays once the transition completes.
    Self.expectCorners(try scene.sample(at: 2), m34: -1 / 500.0)
  }

  /// A duration of 0 sets it without animating, as every UIView block change.
  @Test func zeroDurationSetsAtOnce() throws {
    var b = try Self.builder()
    try b.animate(withDuration: 0) { views throws(ValidationError) in
      try views.setContainer(.sublayerTransform, to: .transform(.makePerspective(distance: 500)))
    }
    #expect(b.containerAnimations.isEmpty)
    Self.expectCorners(
      try b.scene(duration: 1, containerSize: Self.size).sample(at: 0), m34: -1 / 500.0)
  }

  /// The container's perspective is the same as a full-container stage layer's for x and y
  /// (the stage flattens, the container keeps z): every corner agrees.
  @Test func sameAsAStageLayer() throws {
    var b = try Self.builder()
    try b.setContainer(.sublayerTransform, to: .transform(.makePerspective(distance: 500)))
    let withContainer = try b.scene(duration: 1, containerSize: Self.size).sample(at: 0)
    var tree = LayerTree()
    try tree.add(
      Layer(
        id: "stage", bounds: Rect(x: 0, y: 0, width: 400, height: 400),
        position: Point(x: 200, y: 200), sublayerTransform: .makePerspective(distance: 500)))
    try tree.add(
      Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 200, height: 200),
        position: Point(x: 200, y: 200), zPosition: 100),
      parent: "stage")
    let staged = try TransitionScene(
      duration: 1, containerSize: Self.size, model: tree, animations: AnimationSet()
    ).sample(at: 0)
    for (a, c) in zip(withContainer["card"]!.corners, staged["card"]!.corners) {
      #expect(abs(a.point.x - c.point.x) < 1e-9 && abs(a.point.y - c.point.y) < 1e-9)
    }
  }

  /// The velocity of an animated container: the derivative of the corner-defining matrix agrees
  /// with a central difference.
  @Test func velocityFollowsTheContainer() throws {
    var b = try Self.builder()
    try b.animate(withDuration: 1, timingParameters: nil) { views throws(ValidationError) in
      try views.setContainer(.sublayerTransform, to: .transform(.makePerspective(distance: 500)))
    }
    let scene = try b.scene(duration: 1, containerSize: Self.size)
    let h = 1e-6
    let v = try scene.velocity(at: 0.4)[scene.model.index(of: "card")!].matrix.fields
    let a = try scene.sample(at: 0.4 - h)["card"]!.matrix.fields
    let c = try scene.sample(at: 0.4 + h)["card"]!.matrix.fields
    for k in 0..<16 {
      #expect(abs(v[k] - (c[k] - a[k]) / (2 * h)) < 1e-5, "field \(k)")
    }
  }

  /// The batch applies the container's constant term to every top-level layer, static (`to`) or
  /// animated (`card`'s `zPosition`), as the scalar path does.
  @Test func batchAppliesTheContainer() throws {
    var b = try Self.builder()
    try b.insertSubview(
      { () throws -> LayerTree in
        var to = LayerTree()
        try to.add(
          Layer(
            id: "to", bounds: Rect(x: 0, y: 0, width: 100, height: 100),
            position: Point(x: 120, y: 300), zPosition: -40,
            transform: .makeRotation(by: 0.4, x: 0, y: 1, z: 0)))
        return to
      }(), belowSubview: "card")
    try b.setContainer(.sublayerTransform, to: .transform(.makePerspective(distance: 500)))
    try b.animate(withDuration: 1, timingParameters: nil) { views throws(ValidationError) in
      try views.set(.zPosition, of: "card", to: .number(-50))
    }
    let scene = try b.scene(duration: 1, containerSize: Self.size)
    let batch = try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    let times = [0, 0.3, 0.7, 1]
    let output = try SceneBatchTests.evaluate(batch, at: times)
    for (f, t) in times.enumerated() {
      _ = SceneBatchTests.compare(
        batch, frame: f, output: output, samples: [try scene.sample(at: t)])
    }
  }

  /// The batch takes the container's model value as a constant: a scene animating it is refused.
  @Test func batchRefusesAnAnimatedContainer() throws {
    var b = try Self.builder()
    try b.animate(withDuration: 1) { views throws(ValidationError) in
      try views.setContainer(.sublayerTransform, to: .transform(.makePerspective(distance: 500)))
    }
    let scene = try b.scene(duration: 1, containerSize: Self.size)
    #expect(
      throws: ValidationError(
        field: "scene",
        reason: .invalidState("the batch does not animate the container's sublayerTransform"))
    ) {
      try SceneTemplate(scene)
    }
  }

  @Test func rejections() throws {
    var b = try Self.builder()
    #expect(
      throws: ValidationError(
        field: "keyPath",
        reason: .invalidState(
          "the container's layer takes sublayerTransform only, not opacity"))
    ) {
      try b.setContainer(.opacity, to: .number(0))
    }
    var bad = Transform3D.identity
    bad.m34 = .nan
    #expect(
      throws: ValidationError(
        field: "container.sublayerTransform", index: 11, reason: .notFinite)
    ) {
      try b.setContainer(.sublayerTransform, to: .transform(bad))
    }
    #expect(b.model.container.sublayerTransform == .identity)
    // Keyframe blocks and property animators do not animate the container.
    #expect(throws: ValidationError.self) {
      try b.animateKeyframes(withDuration: 1) { keyframes throws(ValidationError) in
        try keyframes.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) {
          views throws(ValidationError) in
          try views.setContainer(.sublayerTransform, to: .transform(.makePerspective(distance: 9)))
        }
      }
    }
    var animator = try ViewPropertyAnimator(duration: 1, container: try Self.builder())
    do {
      try animator.addAnimations { views throws(ValidationError) in
        try views.setContainer(.sublayerTransform, to: .transform(.makePerspective(distance: 9)))
      }
      Issue.record("a property animator accepted a container change")
    } catch {
      #expect(error.field == "container")
    }
    // A scene's container animations animate sublayerTransform only.
    let opacity = try LayerAnimation(
      property: .opacity, content: .basic(from: .number(0), to: .number(1)),
      timing: MediaTiming(duration: 1))
    #expect(throws: ValidationError.self) {
      try TransitionScene(
        duration: 1, containerSize: Self.size, model: b.model, animations: AnimationSet(),
        containerAnimations: [opacity])
    }
  }
}
