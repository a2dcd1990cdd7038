import PropertyBased
import Segue
import Testing

/// Animations of the content properties through the scalar sampler: the drawing-on `strokeEnd`,
/// a `path` morph, gradient `colors`, `locations` and points, fill and stroke colours, keyframe
/// list tracks; the typed errors for paths and lists that cannot be interpolated; and the batch
/// kernel, which evaluates the matrices and opacities of scenes with content layers and leaves
/// their content properties to the scalar sampler.
@Suite("Content animations")
struct ContentAnimationTests {
  static let frame = Rect(x: 0, y: 0, width: 100, height: 100)
  static let container = Size(width: 100, height: 100)

  static func triangle(_ s: Double) throws -> BezierPath {
    var p = BezierPath()
    try p.move(to: Point(x: 0, y: 0))
    try p.addLine(to: Point(x: 10 * s, y: 0))
    try p.addCurve(
      to: Point(x: 0, y: 10), control1: Point(x: s, y: 2 * s), control2: Point(x: 3, y: 4 * s))
    try p.closeSubpath()
    return p
  }

  static func shape(_ path: BezierPath? = nil) throws -> Layer {
    Layer.shapeLayer(
      id: "s", frame: frame, path: try path ?? triangle(1), fillColor: nil, strokeColor: .black)
  }

  static func presented(_ scene: TransitionScene, _ id: String, at t: Double) throws -> LayerKind {
    try #require(try scene.sample(at: t)[id]).kind
  }

  /// `strokeEnd` from 0 to 1, linear over 1 s: the presented value is `t` (exact for dyadic
  /// times), 1 from the end on, and 0 before a delayed start (the backwards fill).
  @Test func strokeEndDrawsOn() throws {
    var b = SceneBuilder()
    try b.add(try Self.shape())
    try b.animate(
      .strokeEnd, of: "s", from: .number(0), to: .number(1), beginTime: 0.5, duration: 1,
      timingParameters: nil)
    let scene = try b.scene(duration: 2, containerSize: Self.container)
    for (t, expected) in [(0.0, 0.0), (0.5, 0), (0.75, 0.25), (1.25, 0.75), (1.5, 1), (2, 1)] {
      guard case .shape(let shape) = try Self.presented(scene, "s", at: t) else {
        Issue.record("kind")
        return
      }
      #expect(shape.strokeEnd == expected, "t = \(t)")
      #expect(shape.strokeStart == 0)
    }
  }

  /// A spring overshooting 1 presents `strokeEnd` clamped to `[0, 1]`, while the model keeps
  /// the target.
  @Test func overshootingStrokeEndIsClamped() throws {
    var b = SceneBuilder()
    try b.add(try Self.shape())
    try b.animate(
      .strokeEnd, of: "s", from: .number(0), to: .number(1), duration: 1,
      timingParameters: .springAnimation(try DampedSpring(mass: 1, stiffness: 200, damping: 5)))
    let scene = try b.scene(duration: 1, containerSize: Self.container)
    var overshot = false
    for k in 0...40 {
      let t = Double(k) / 40
      guard case .shape(let shape) = try Self.presented(scene, "s", at: t) else { return }
      #expect((0...1).contains(shape.strokeEnd), "t = \(t)")
      if shape.strokeEnd == 1 && t < 1 { overshot = true }
    }
    #expect(overshot, "a spring this loose passes its target before 1 s")
  }

  /// A path morph between two paths of the same elements moves every point linearly:
  /// at 1/4 of the way, each coordinate is `a + (b − a)/4` (here the triangle of scale 1.5).
  @Test func pathMorphsPointByPoint() throws {
    var b = SceneBuilder()
    try b.add(try Self.shape(try Self.triangle(1)))
    try b.animate(
      .path, of: "s", to: .path(try Self.triangle(3)), duration: 1, timingParameters: nil)
    let scene = try b.scene(duration: 1, containerSize: Self.container)
    guard case .shape(let shape) = try Self.presented(scene, "s", at: 0.25) else {
      Issue.record("kind")
      return
    }
    #expect(shape.path == (try Self.triangle(1.5)))
    guard case .shape(let end) = try Self.presented(scene, "s", at: 1) else { return }
    #expect(end.path == (try Self.triangle(3)))
  }

  /// Paths of another element count or kind, and colour lists of another length, are rejected
  /// when the animation is made, naming `toValue` (and the element index).
  @Test func mismatchedLayoutsAreRejected() throws {
    var b = SceneBuilder()
    try b.add(try Self.shape())
    var line = BezierPath()
    try line.move(to: Point(x: 0, y: 0))
    try line.addLine(to: Point(x: 1, y: 1))
    #expect(
      throws: ValidationError(field: "toValue", reason: .countMismatch(expected: 4, actual: 2))
    ) {
      try b.animate(.path, of: "s", to: .path(line), duration: 1, timingParameters: nil)
    }
    var kinds = BezierPath()
    try kinds.move(to: Point(x: 0, y: 0))
    try kinds.addLine(to: Point(x: 1, y: 1))
    try kinds.addLine(to: Point(x: 2, y: 1))
    try kinds.closeSubpath()
    #expect {
      try b.animate(.path, of: "s", to: .path(kinds), duration: 1, timingParameters: nil)
    } throws: { error in
      guard let error = error as? ValidationError, case .invalidState = error.reason else {
        return false
      }
      return error.field == "toValue" && error.index == 2
    }
    try b.add(Layer.gradientLayer(id: "g", frame: Self.frame, colors: [.black, .white]))
    #expect(
      throws: ValidationError(field: "toValue", reason: .countMismatch(expected: 2, actual: 3))
    ) {
      try b.animate(
        .colors, of: "g", to: .colorList([.black, .white, .black]), duration: 1,
        timingParameters: nil)
    }
    // The failed calls left the model alone.
    #expect(b.model[id: "s"]?.kind == (try Self.shape()).kind)
  }

  /// Animating a property of another layer class is rejected (`strokeEnd` of a gradient layer).
  @Test func propertyOfAnotherClassIsRejected() throws {
    var b = SceneBuilder()
    try b.add(Layer.gradientLayer(id: "g", frame: Self.frame, colors: [.black, .white]))
    #expect(throws: ValidationError.self) {
      try b.animate(.strokeEnd, of: "g", to: .number(0.5), duration: 1, timingParameters: nil)
    }
    #expect(b.animations.entries.isEmpty)
  }

  /// Gradient colours, locations and points blend entry by entry; black → white at one half is
  /// mid grey (straight RGBA, channel by channel).
  @Test func gradientBlendsEntryByEntry() throws {
    let grey = try RGBAColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
    var b = SceneBuilder()
    try b.add(
      Layer.gradientLayer(
        id: "g", frame: Self.frame, colors: [.black, .white], locations: [0, 1]))
    try b.animate(
      .colors, of: "g", to: .colorList([.white, .black]), duration: 1, timingParameters: nil)
    try b.animate(
      .locations, of: "g", to: .numberList([0.5, 1]), duration: 1, timingParameters: nil)
    try b.animate(
      .startPoint, of: "g", to: .point(Point(x: 0, y: 0.5)), duration: 1, timingParameters: nil)
    try b.animate(
      .endPoint, of: "g", to: .point(Point(x: 1, y: 0.5)), duration: 1, timingParameters: nil)
    let scene = try b.scene(duration: 1, containerSize: Self.container)
    guard case .gradient(let g) = try Self.presented(scene, "g", at: 0.5) else {
      Issue.record("kind")
      return
    }
    #expect(g.colors == [grey, grey])
    #expect(g.locations == [0.25, 1])
    #expect(g.startPoint == Point(x: 0.25, y: 0.25) && g.endPoint == Point(x: 0.75, y: 0.75))
  }

  /// A `nil` fill animates as clear: to opaque red, one quarter of the way is red at alpha 1/4
  /// with its colour channels a quarter of the way from clear's zeros; the stroke, from black,
  /// is a quarter red.
  @Test func fillAndStrokeColors() throws {
    let red = try RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    var b = SceneBuilder()
    try b.add(try Self.shape())
    try b.animate(.fillColor, of: "s", to: .color(red), duration: 1, timingParameters: nil)
    try b.animate(.strokeColor, of: "s", to: .color(red), duration: 1, timingParameters: nil)
    let scene = try b.scene(duration: 1, containerSize: Self.container)
    guard case .shape(let shape) = try Self.presented(scene, "s", at: 0.25) else {
      Issue.record("kind")
      return
    }
    #expect(shape.fillColor == (try RGBAColor(red: 0.25, green: 0, blue: 0, alpha: 0.25)))
    #expect(shape.strokeColor == (try RGBAColor(red: 0.25, green: 0, blue: 0, alpha: 1)))
  }

  /// A keyframe animation of `colors` through three lists: at each key time the key itself, and
  /// half-way between keys the channel-wise mean; lists of another length are rejected with the
  /// key's index.
  @Test func keyframeListTrack() throws {
    let red = try RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    let keys: [[RGBAColor]] = [[.black, .white], [red, red], [.white, .black]]
    let track = try KeyframeListTrack(values: keys)
    #expect(track.value(at: 0) == keys[0])
    #expect(track.value(at: 0.5) == keys[1])
    #expect(track.value(at: 1) == keys[2])
    #expect(
      track.value(at: 0.25)
        == [
          try RGBAColor(red: 0.5, green: 0, blue: 0, alpha: 1),
          try RGBAColor(red: 1, green: 0.5, blue: 0.5, alpha: 1),
        ])
    #expect(
      throws: ValidationError(
        field: "values", index: 2, reason: .countMismatch(expected: 2, actual: 1))
    ) {
      try KeyframeListTrack(values: [[RGBAColor.black, .white], [.black, .white], [.black]])
    }
    #expect(throws: ValidationError(field: "values", reason: .tooFew(minimum: 2, actual: 1))) {
      try KeyframeListTrack(values: [[RGBAColor.black]])
    }
    var b = SceneBuilder()
    try b.add(Layer.gradientLayer(id: "g", frame: Self.frame, colors: [.black, .white]))
    try b.animate(.colors, of: "g", keyframes: .colorLists(track), duration: 2)
    let scene = try b.scene(duration: 2, containerSize: Self.container)
    guard case .gradient(let g) = try Self.presented(scene, "g", at: 1) else { return }
    #expect(g.colors == [red, red])
    // The model takes the last key.
    #expect(LayerProperty.colors.value(in: try #require(b.model[id: "g"])) == .colorList(keys[2]))
  }

  /// Path keyframes with the paced mode: key times proportional to the distance between
  /// successive paths (all channels), so the middle key of two equal steps sits at one half.
  @Test func pacedPathKeyframes() throws {
    let track = try KeyframeListTrack(
      values: [try Self.triangle(1), try Self.triangle(2), try Self.triangle(3)],
      calculationMode: .paced)
    #expect(track.compiled.keyTimes == [0, 0.5, 1])
    #expect(track.value(at: 0.75) == (try Self.triangle(2.5)))
  }

  /// For random paths of one layout and any fraction, the morph is `a + (b − a)·f` on every
  /// coordinate, `a` at 0 and `b` at 1 exactly, and the same through ``AnimationValue``.
  @Test func pathInterpolationIsTheLerpOfItsPoints() async {
    await propertyCheck(
      count: 100, input: Gen.double(in: -1e3...1e3), Gen.double(in: -1e3...1e3),
      Gen.double(in: -1...2)
    ) { s, u, f in
      let a = try Self.triangle(s)
      let b = try Self.triangle(u)
      let mixed = try a.interpolated(to: b, fraction: f)
      for (x, (p, q)) in zip(mixed.channels, zip(a.channels, b.channels)) {
        #expect(x == (f == 0 ? p : f == 1 ? q : p + (q - p) * f))
      }
      #expect(try a.interpolated(to: b, fraction: 0) == a)
      #expect(try a.interpolated(to: b, fraction: 1) == b)
      #expect(AnimationValue.interpolate(.path(a), .path(b), fraction: f) == .path(mixed))
    }
  }

  /// For random number lists and fractions, a list animation is the entry-wise lerp, and
  /// presented locations follow it exactly.
  @Test func numberListInterpolationIsEntryWise() async {
    await propertyCheck(
      count: 100, input: Gen.double(in: -10...10), Gen.double(in: -10...10), Gen.double(in: 0...1)
    ) { x, y, f in
      let a = [x, 0.5, y]
      let b = [y, 0.25, x]
      let mixed = try #require(a.channelwiseInterpolated(to: b, fraction: f))
      #expect(mixed == (f == 1 ? b : zip(a, b).map { $0 + ($1 - $0) * f }))
      #expect(
        AnimationValue.interpolate(.numberList(a), .numberList(b), fraction: f)
          == .numberList(mixed))
    }
  }

  /// The batch kernel evaluates scenes with text, shape, gradient and image layers (their
  /// matrices and opacities match the scalar sampler) and skips the content animations, which
  /// the scalar sampler presents.
  @Test func batchEvaluatesSceneWithContentLayers() throws {
    var b = SceneBuilder()
    try b.add(try Self.shape())
    try b.add(Layer.textLayer(id: "t", frame: Self.frame, string: "Title"))
    try b.add(Layer.gradientLayer(id: "g", frame: Self.frame, colors: [.black, .white]))
    try b.add(Layer.imageLayer(id: "i", frame: Self.frame, contents: .named("photo")))
    try b.animate(
      .strokeEnd, of: "s", from: .number(0), to: .number(1), duration: 1, timingParameters: nil)
    try b.animate(
      .path, of: "s", to: .path(try Self.triangle(2)), duration: 1, timingParameters: nil)
    try b.animate(.fontSize, of: "t", to: .number(20), duration: 1, timingParameters: nil)
    try b.animate(
      .colors, of: "g", to: .colorList([.white, .black]), duration: 1, timingParameters: nil)
    try b.animate(
      .contentsRect, of: "i", to: .rect(Rect(x: 0, y: 0, width: 0.5, height: 0.5)), duration: 1,
      timingParameters: nil)
    try b.animate(.opacity, of: "t", to: .number(0.5), duration: 1, timingParameters: nil)
    try b.animate(
      .position, of: "g", to: .point(Point(x: 80, y: 20)), duration: 1, timingParameters: nil)
    let scene = try b.scene(duration: 1, containerSize: Self.container)
    let batch = try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    let times = [0.0, 0.25, 0.5, 1]
    let output = try SceneBatchTests.evaluate(batch, at: times)
    for (f, t) in times.enumerated() {
      SceneBatchTests.compare(batch, frame: f, output: output, samples: [try scene.sample(at: t)])
    }
    guard case .shape(let shape) = try Self.presented(scene, "s", at: 0.5) else { return }
    #expect(shape.strokeEnd == 0.5)
  }
}
