import PropertyBased
import Segue
import Testing

/// `SceneBuilder`: adding layers and views, `set`, `animate` (timing curves,
/// springs, keyframes: the model takes the target at once and the animation fills backwards),
/// events and the finished scene. Includes the property test "random animations: begin = from,
/// end and later = model, never NaN".
@Suite("SceneBuilder")
struct SceneBuilderTests {
  /// A builder with one full-size layer **v** (bounds (0, 0, 100, 100), position (50, 50)).
  static func builder() throws -> SceneBuilder {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "v", bounds: Rect(x: 0, y: 0, width: 100, height: 100), position: Point(x: 50, y: 50)))
    return b
  }

  static let size = Size(width: 100, height: 100)

  static func number(_ tree: LayerTree, _ id: String, _ property: LayerProperty) -> Double {
    guard case .number(let x) = property.value(in: tree[id: id]!) else {
      Issue.record("not a number")
      return .nan
    }
    return x
  }

  // MARK: Layers

  /// `add(view:)` keeps the view's hierarchy and hangs its root under `parent`.
  @Test func addViewKeepsHierarchy() throws {
    var view = LayerTree()
    try view.add(Layer(id: "root"))
    try view.add(Layer(id: "child"), parent: "root")
    try view.add(Layer(id: "grandchild"), parent: "child")
    try view.add(Layer(id: "sibling"), parent: "root")
    var b = try Self.builder()
    try b.add(view: view, parent: "v")
    let m = b.model
    #expect(m.layers.map(\.id) == ["v", "root", "child", "grandchild", "sibling"])
    func parent(_ id: String) throws -> String? {
      try m.parentIndex(at: m.index(of: id)!).map { m.layers[$0].id }
    }
    #expect(try parent("v") == nil)
    #expect(try parent("root") == "v")
    #expect(try parent("child") == "root")
    #expect(try parent("grandchild") == "child")
    #expect(try parent("sibling") == "root")
  }

  /// A duplicate id is rejected (by the tree).
  @Test func rejectsDuplicateLayer() throws {
    var b = try Self.builder()
    #expect(throws: ValidationError(field: "id", reason: .duplicate("v"))) {
      try b.add(Layer(id: "v"))
    }
  }

  /// A view under an unknown parent is rejected.
  @Test func rejectsViewUnderUnknownParent() throws {
    var view = LayerTree()
    try view.add(Layer(id: "root"))
    var b = try Self.builder()
    #expect(throws: ValidationError(field: "parent", reason: .unknown("ghost"))) {
      try b.add(view: view, parent: "ghost")
    }
  }

  // MARK: set

  /// `set` writes the model value now, with no animation.
  @Test func setWritesModel() throws {
    var b = try Self.builder()
    try b.set(.opacity, of: "v", to: .number(0.3))
    try b.set(.position, of: "v", to: .point(Point(x: 1, y: 2)))
    #expect(b.model[id: "v"]!.opacity == 0.3)
    #expect(b.model[id: "v"]!.position == Point(x: 1, y: 2))
    #expect(b.animations.entries.isEmpty)
  }

  @Test func setRejectsUnknownLayer() throws {
    var b = try Self.builder()
    #expect(throws: ValidationError(field: "layer", reason: .unknown("ghost"))) {
      try b.set(.opacity, of: "ghost", to: .number(0))
    }
  }

  /// A non-finite value is rejected on the key path (with the channel index).
  @Test func setRejectsNaN() throws {
    var b = try Self.builder()
    #expect(throws: ValidationError(field: "position", index: 1, reason: .notFinite)) {
      try b.set(.position, of: "v", to: .point(Point(x: 0, y: .nan)))
    }
    #expect(b.model[id: "v"]!.position == Point(x: 50, y: 50))
  }

  @Test func setRejectsKindMismatch() throws {
    var b = try Self.builder()
    #expect(
      throws: ValidationError(
        field: "keyPath", reason: .invalidState("opacity holds a number, not a size"))
    ) {
      try b.set(.opacity, of: "v", to: .size(.zero))
    }
  }

  // MARK: animate

  /// `animate` sets the model to the target at once and adds a backwards-filling animation from
  /// the previous model value. position.x 50 → 150 over [0.2, 0.6), linear, duration 1 scene:
  /// before 0.2 it shows 50 (from); at 0.4 (p = ½) 100; from 0.6 on the model, 150.
  @Test func animateSetsModelAndFillsBackwards() throws {
    var b = try Self.builder()
    try b.animate(
      .positionX, of: "v", to: .number(150), beginTime: 0.2, duration: 0.4, timingParameters: nil)
    #expect(b.model[id: "v"]!.position.x == 150)
    let entry = try #require(b.animations.entries.first)
    #expect(entry.layerID == "v")
    #expect(entry.animation.content == .basic(from: .number(50), to: .number(150)))
    #expect(
      entry.animation.timing == MediaTiming(beginTime: 0.2, duration: 0.4, fillMode: .backwards))
    #expect(entry.animation.timingFunction == nil)

    let scene = try b.scene(duration: 1, containerSize: Self.size)
    #expect(Self.number(scene.presentation(at: 0), "v", .positionX) == 50)
    #expect(Self.number(scene.presentation(at: 0.1), "v", .positionX) == 50)
    #expect(abs(Self.number(scene.presentation(at: 0.4), "v", .positionX) - 100) < 1e-12)
    // The end b + d as the evaluator computes it (the literal 0.6 is one ulp below 0.2 + 0.4, where
    // the local time 0.6 − 0.2 still falls inside [0, 0.4)).
    #expect(Self.number(scene.presentation(at: 0.2 + 0.4), "v", .positionX) == 150)
    #expect(Self.number(scene.presentation(at: 0.9), "v", .positionX) == 150)
  }

  /// An explicit `from` overrides the model value; the timing function is kept. opacity 0 → 1
  /// with easeInEaseOut over [0, 1): ½ at half time (the curve is symmetric).
  @Test func animateWithExplicitFromAndCurve() throws {
    var b = try Self.builder()
    try b.animate(
      .opacity, of: "v", from: .number(0), to: .number(1), duration: 1,
      timingParameters: .easeInEaseOut)
    #expect(b.animations.entries[0].animation.timingFunction == .easeInEaseOut)
    let scene = try b.scene(duration: 1, containerSize: Self.size)
    #expect(Self.number(scene.presentation(at: 0), "v", .opacity) == 0)
    #expect(abs(Self.number(scene.presentation(at: 0.5), "v", .opacity) - 0.5) < 1e-12)
    #expect(Self.number(scene.presentation(at: 1), "v", .opacity) == 1)
  }

  /// A spring animation runs on its own clock and shows the target from the end of its duration
  /// (transition catalog: Duration-based springs). Critical ω0 = 10: x(t) = 1 − e^{−10t}(1 + 10t);
  /// mpmath printed x(0.1) = 0.26424111765711535681, x(0.25) = 0.71270250481635421691. position.x
  /// 50 → 150: 76.42… at 0.1, 121.27… at 0.25, and the target 150 at 0.5 (not 50 + 100·x(0.5) =
  /// 145.96).
  @Test func animateWithSpring() throws {
    var b = try Self.builder()
    let spring = try DampedSpring(mass: 1, stiffness: 100, damping: 20)
    try b.animate(
      .positionX, of: "v", to: .number(150), duration: 0.5,
      timingParameters: .springAnimation(spring))
    #expect(
      b.animations.entries[0].animation.content
        == .spring(spring, from: .number(50), to: .number(150)))
    let scene = try b.scene(duration: 1, containerSize: Self.size)
    #expect(
      abs(Self.number(scene.presentation(at: 0.1), "v", .positionX) - 76.424111765711535681) < 1e-11
    )
    #expect(
      abs(Self.number(scene.presentation(at: 0.25), "v", .positionX) - 121.270250481635421691)
        < 1e-11)
    #expect(Self.number(scene.presentation(at: 0.5), "v", .positionX) == 150)
  }

  /// UIView's duration-based spring (`usingSpringWithDamping: 1`) is fitted to the animation's
  /// duration: ω0 = X/0.5 with (1 + X)·e^(−X) = 0.001, so position.x 50 → 150 shows
  /// 50 + 100·x(0.2) at 0.2 s and the target from 0.5 s on.
  @Test func animateWithDurationBasedSpring() throws {
    var b = try Self.builder()
    try b.animate(
      .positionX, of: "v", to: .number(150), duration: 0.5,
      timingParameters: .spring(try SpringTimingParameters(dampingRatio: 1)))
    #expect(
      b.animations.entries[0].animation.timing
        == MediaTiming(beginTime: 0, duration: 0.5, fillMode: .backwards))
    let scene = try b.scene(duration: 1, containerSize: Self.size)
    let x = SpringReference.critical(omega0: SpringReference.criticalRoot / 0.5, v0: 0, t: 0.2)
    #expect(abs(Self.number(scene.presentation(at: 0.2), "v", .positionX) - (50 + 100 * x)) < 1e-9)
    #expect(Self.number(scene.presentation(at: 0.5), "v", .positionX) == 150)
  }

  /// A physical UIKit spring ignores the duration asked and runs for its settling duration, as a
  /// property animator's does: the system spring (critical, ω0 = √(1000/3)) asked for 0.2 s
  /// still moves at 0.3 s and reaches the target at 0.578 s.
  @Test func animateWithPhysicalSpringLastsItsSettlingDuration() throws {
    var b = try Self.builder()
    try b.animate(
      .positionX, of: "v", to: .number(150), duration: 0.2,
      timingParameters: .spring(SpringTimingParameters()))
    let settling = DampedSpring.systemCurve7.settlingDuration
    #expect(b.animations.entries[0].animation.timing.duration == settling)
    let scene = try b.scene(duration: 1, containerSize: Self.size)
    let x = SpringReference.critical(omega0: (1000.0 / 3).squareRoot(), v0: 0, t: 0.3)
    #expect(abs(Self.number(scene.presentation(at: 0.3), "v", .positionX) - (50 + 100 * x)) < 1e-9)
    #expect(Self.number(scene.presentation(at: settling), "v", .positionX) == 150)
  }

  /// A duration-based spring needs a duration it can be fitted to: 0 is not positive, and
  /// 1e-300 s would need ω0 ≈ 9e300 rad/s. Nothing changes.
  @Test func animateRejectsASpringThatDoesNotFit() throws {
    var b = try Self.builder()
    let spring = TimingCurveProvider.spring(try SpringTimingParameters(dampingRatio: 1))
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try b.animate(.opacity, of: "v", to: .number(0), duration: 0, timingParameters: spring)
    }
    #expect(
      throws: ValidationError(
        field: "duration", reason: .invalidState("no spring fits a run of 1e-300 s"))
    ) {
      try b.animate(.opacity, of: "v", to: .number(0), duration: 1e-300, timingParameters: spring)
    }
    #expect(b.model[id: "v"]!.opacity == 1)
    #expect(b.animations.entries.isEmpty)
  }

  /// Keyframes set the model to the track's last value; before the begin the first key shows.
  /// Keys 0, 0.8, 0.2 (linear, evenly spaced at 0, ½, 1) over [0.5, 1.5): parent 0.75 is u = ¼,
  /// half-way through the first segment, 0.8·½ = 0.4; from 1.5 on the model, 0.2.
  @Test func animateKeyframes() throws {
    var b = try Self.builder()
    let track = try KeyframeTrack<Double>(values: [0, 0.8, 0.2])
    try b.animate(
      .opacity, of: "v", keyframes: .numbers(track), beginTime: 0.5, duration: 1,
      timingParameters: .linear)
    #expect(b.model[id: "v"]!.opacity == 0.2)
    let a = b.animations.entries[0].animation
    #expect(a.content == .keyframes(.numbers(track)))
    #expect(a.timing == MediaTiming(beginTime: 0.5, duration: 1, fillMode: .backwards))
    #expect(a.timingFunction == .linear)
    let scene = try b.scene(duration: 2, containerSize: Self.size)
    #expect(Self.number(scene.presentation(at: 0.2), "v", .opacity) == 0)
    #expect(abs(Self.number(scene.presentation(at: 0.75), "v", .opacity) - 0.4) < 1e-12)
    #expect(Self.number(scene.presentation(at: 1.5), "v", .opacity) == 0.2)
  }

  @Test func animateRejectsUnknownLayer() throws {
    var b = try Self.builder()
    #expect(throws: ValidationError(field: "layer", reason: .unknown("ghost"))) {
      try b.animate(.opacity, of: "ghost", to: .number(0), duration: 1, timingParameters: nil)
    }
  }

  @Test func animateKeyframesRejectsUnknownLayer() throws {
    var b = try Self.builder()
    let track = try KeyframeTrack<Double>(values: [0, 1])
    #expect(throws: ValidationError(field: "layer", reason: .unknown("ghost"))) {
      try b.animate(.opacity, of: "ghost", keyframes: .numbers(track), duration: 1)
    }
  }

  /// A zero duration is rejected and nothing changes (model and animations).
  @Test func animateRejectsZeroDuration() throws {
    var b = try Self.builder()
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try b.animate(.opacity, of: "v", to: .number(0), duration: 0, timingParameters: nil)
    }
    #expect(b.model[id: "v"]!.opacity == 1)
    #expect(b.animations.entries.isEmpty)
  }

  /// A target of the wrong kind is rejected and the model is unchanged.
  @Test func animateRejectsKindMismatch() throws {
    var b = try Self.builder()
    #expect(
      throws: ValidationError(
        field: "toValue", reason: .invalidState("is a point but opacity holds a number"))
    ) {
      try b.animate(.opacity, of: "v", to: .point(.zero), duration: 1, timingParameters: nil)
    }
    #expect(b.model[id: "v"]!.opacity == 1)
  }

  /// A NaN target is rejected.
  @Test func animateRejectsNaNTarget() throws {
    var b = try Self.builder()
    #expect(throws: ValidationError(field: "toValue", index: 0, reason: .notFinite)) {
      try b.animate(.opacity, of: "v", to: .number(.nan), duration: 1, timingParameters: nil)
    }
  }

  /// Keyframes of the wrong kind are rejected.
  @Test func animateKeyframesRejectsKindMismatch() throws {
    var b = try Self.builder()
    let track = try KeyframeTrack<Double>(values: [0, 1])
    #expect(
      throws: ValidationError(
        field: "values", reason: .invalidState("are number values but position holds a point"))
    ) {
      try b.animate(.position, of: "v", keyframes: .numbers(track), duration: 1)
    }
  }

  // MARK: Events and the scene

  /// Events keep insertion order for equal times and are sorted by time in the scene.
  @Test func eventsAreSortedStably() throws {
    var b = try Self.builder()
    let one = ModelChange.set(layerID: "v", property: .opacity, value: .number(0.1))
    let two = ModelChange.set(layerID: "v", property: .opacity, value: .number(0.2))
    let three = ModelChange.set(layerID: "v", property: .opacity, value: .number(0.3))
    b.at(0.7, one)
    b.at(0.2, two)
    b.at(0.7, three)
    #expect(b.events.map(\.time) == [0.7, 0.2, 0.7])
    let scene = try b.scene(duration: 1, containerSize: Self.size)
    #expect(
      scene.events == [
        TimelineEvent(time: 0.2, change: two), TimelineEvent(time: 0.7, change: one),
        TimelineEvent(time: 0.7, change: three),
      ])
    // At 0.7 both later events apply, in order: the last one wins.
    #expect(Self.number(scene.presentation(at: 0.5), "v", .opacity) == 0.2)
    #expect(Self.number(scene.presentation(at: 0.7), "v", .opacity) == 0.3)
  }

  /// The scene carries the completion changes and blend modes.
  @Test func sceneCarriesCompletionAndBlend() throws {
    var b = try Self.builder()
    try b.add(Layer(id: "w"))
    b.finishChanges = [.remove(layerID: "w")]
    b.cancelChanges = [.remove(layerID: "v")]
    b.blendModes = ["v": .add]
    let scene = try b.scene(duration: 2, containerSize: Self.size)
    #expect(scene.duration == 2)
    #expect(scene.containerSize == Self.size)
    #expect(scene.finishChanges == [.remove(layerID: "w")])
    #expect(scene.cancelChanges == [.remove(layerID: "v")])
    #expect(scene.blendModes == ["v": .add])
    #expect(scene.model.layers == b.model.layers)
  }

  /// The scene checks its inputs: a non-positive duration.
  @Test func sceneRejectsZeroDuration() throws {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try Self.builder().scene(duration: 0, containerSize: Self.size)
    }
  }

  /// The scene checks its inputs: an event on an unknown layer.
  @Test func sceneRejectsEventOnUnknownLayer() throws {
    var b = try Self.builder()
    b.at(0.1, .remove(layerID: "ghost"))
    #expect(throws: ValidationError(field: "events", index: 0, reason: .unknown("ghost"))) {
      try b.scene(duration: 1, containerSize: Self.size)
    }
  }

  /// Property: random animations of position (random begin, duration, start, target, curve):
  /// at the begin time the layer shows the start, before it too (backwards fill), from the end on
  /// the model value (the target), and no sample in between is NaN.
  @Test func randomAnimations() async throws {
    let curves: [TimingCurveProvider?] = [
      nil, .easeInEaseOut, .easeIn, .easeOut,
      .springAnimation(try DampedSpring(mass: 1, stiffness: 100, damping: 10)),
      .springAnimation(try DampedSpring(mass: 3, stiffness: 1000, damping: 500)),
    ]
    await propertyCheck(
      count: 150,
      input: Gen.double(in: 0...1), Gen.double(in: 0.05...1), Gen.double(in: -500...500),
      Gen.double(in: -500...500), Gen.int(in: 0...5), Gen.double(in: 0...1)
    ) { begin, duration, start, target, curve, u in
      var b = SceneBuilder()
      try b.add(Layer(id: "v", bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
      try b.set(.position, of: "v", to: .point(Point(x: start, y: -start)))
      try b.animate(
        .position, of: "v", to: .point(Point(x: target, y: 2 * target)), beginTime: begin,
        duration: duration, timingParameters: curves[curve])
      #expect(b.model[id: "v"]!.position == Point(x: target, y: 2 * target))
      let scene = try b.scene(duration: 2.5, containerSize: Self.size)
      #expect(scene.presentation(at: begin)[id: "v"]!.position == Point(x: start, y: -start))
      #expect(scene.presentation(at: begin / 2)[id: "v"]!.position == Point(x: start, y: -start))
      var end = begin + duration
      while end - begin < duration { end = end.nextUp }
      #expect(scene.presentation(at: end)[id: "v"]!.position == Point(x: target, y: 2 * target))
      let sample = try scene.sample(at: begin + u * duration)
      let v = try #require(sample["v"])
      #expect(v.matrix.fields.allSatisfy { $0.isFinite })
      #expect(v.corners.allSatisfy { $0.point.x.isFinite && $0.point.y.isFinite })
      #expect(v.opacity == 1)
    }
  }
}

/// `addSubview`, `insertSubview(_:aboveSubview:)`, `insertSubview(_:belowSubview:)`: the new view
/// lands next to its sibling (same parent) in the draw order, the others keep their order.
@Suite("SceneBuilder subviews")
struct SceneBuilderSubviewTests {
  static func view(_ id: String, child: Bool = false) throws -> LayerTree {
    var tree = LayerTree()
    try tree.add(Layer(id: id))
    if child { try tree.add(Layer(id: id + ".c"), parent: id) }
    return tree
  }

  static func order(_ b: SceneBuilder) -> [String] {
    b.model.drawOrder().map { b.model.layers[$0.layer].id }
  }

  @Test func insertAboveAndBelow() throws {
    var b = SceneBuilder()
    try b.addSubview(try Self.view("a"))
    try b.addSubview(try Self.view("b", child: true))
    try b.addSubview(try Self.view("c"))
    try b.insertSubview(try Self.view("x", child: true), belowSubview: "b")
    #expect(Self.order(b) == ["a", "x", "x.c", "b", "b.c", "c"])
    try b.insertSubview(try Self.view("y"), aboveSubview: try Self.view("b"))
    #expect(Self.order(b) == ["a", "x", "x.c", "b", "b.c", "y", "c"])
    try b.insertSubview(try Self.view("z"), belowSubview: try Self.view("a"))
    #expect(Self.order(b) == ["z", "a", "x", "x.c", "b", "b.c", "y", "c"])
    try b.insertSubview(try Self.view("w"), aboveSubview: "c")
    #expect(Self.order(b).last == "w")
  }

  /// Inside a parent: the sibling's parent receives the view.
  @Test func insertInsideAParent() throws {
    var b = SceneBuilder()
    try b.addSubview(try Self.view("p", child: true))
    try b.insertSubview(try Self.view("q"), belowSubview: "p.c")
    #expect(Self.order(b) == ["p", "q", "p.c"])
    let q = try #require(b.model.index(of: "q"))
    #expect(try b.model.parentIndex(at: q) == b.model.index(of: "p"))
  }

  @Test func rejectsUnknownSiblingAndEmptyView() throws {
    var b = SceneBuilder()
    try b.addSubview(try Self.view("a"))
    #expect(throws: ValidationError(field: "layer", reason: .unknown("nope"))) {
      try b.insertSubview(try Self.view("x"), belowSubview: "nope")
    }
    #expect(throws: ValidationError(field: "subview", reason: .tooFew(minimum: 1, actual: 0))) {
      try b.insertSubview(try Self.view("x"), aboveSubview: LayerTree())
    }
    #expect(b.model.count == 1)
    #expect(throws: ValidationError(field: "id", reason: .duplicate("a"))) {
      try b.insertSubview(try Self.view("a"), aboveSubview: "a")
    }
  }
}
