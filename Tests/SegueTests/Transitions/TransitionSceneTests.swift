import Segue
import Testing

/// `TransitionScene`: one test per rejected input of the initialiser; presentation while running
/// (events at τ ≤ t, scrubbing back, clamping), finished and cancelled; `sample(at:)` (time
/// errors, completion at t ≥ duration, progress, geometry, opacity, order and blend of the
/// layers present).
@Suite("TransitionScene")
struct TransitionSceneTests {
  /// A 100 × 100 container with
  /// - **from**: full-container view, bounds (0, 0, 100, 100), position (50, 50);
  /// - **to**: the same, model position (50, 50), model opacity 1; animated position.x 150 → 50
  ///   and opacity 0 → 1 over [0, 1), linear, filling backwards (as SceneBuilder does);
  /// - **badge**: sublayer of **to**, bounds (0, 0, 10, 10), position (5, 5);
  /// - **temp**: a transition-only layer, bounds (0, 0, 10, 10), position (50, 50).
  static func model() throws -> LayerTree {
    var tree = LayerTree()
    let view = Rect(x: 0, y: 0, width: 100, height: 100)
    try tree.add(Layer(id: "from", bounds: view, position: Point(x: 50, y: 50)))
    try tree.add(Layer(id: "to", bounds: view, position: Point(x: 50, y: 50)))
    try tree.add(
      Layer(
        id: "badge", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 5, y: 5)),
      parent: "to")
    try tree.add(
      Layer(
        id: "temp", bounds: Rect(x: 0, y: 0, width: 10, height: 10), position: Point(x: 50, y: 50)))
    return tree
  }

  static func animations() throws -> AnimationSet {
    var set = AnimationSet()
    set.add(
      try LayerAnimation.basic(
        .positionX, from: .number(150), to: .number(50), duration: 1, fillMode: .backwards),
      to: "to")
    set.add(
      try LayerAnimation.basic(
        .opacity, from: .number(0), to: .number(1), duration: 1, fillMode: .backwards),
      to: "to")
    return set
  }

  /// The scene: events at 0.5 (from.opacity = 0.5, remove temp); finishing removes from; cancelling
  /// removes to and temp; **to** blends additively.
  static func scene() throws -> TransitionScene {
    try TransitionScene(
      duration: 1, containerSize: Size(width: 100, height: 100), model: try model(),
      animations: try animations(),
      events: [
        TimelineEvent(
          time: 0.5, change: .set(layerID: "from", property: .opacity, value: .number(0.5))),
        TimelineEvent(time: 0.5, change: .remove(layerID: "temp")),
      ],
      finishChanges: [.remove(layerID: "from")],
      cancelChanges: [.remove(layerID: "to"), .remove(layerID: "temp")],
      blendModes: ["to": .add])
  }

  static func make(
    duration: Double = 1, containerSize: Size = Size(width: 100, height: 100),
    animations: AnimationSet = AnimationSet(), events: [TimelineEvent] = [],
    finishChanges: [ModelChange] = [], cancelChanges: [ModelChange] = [],
    blendModes: [String: BlendMode] = [:]
  ) throws -> TransitionScene {
    try TransitionScene(
      duration: duration, containerSize: containerSize, model: try model(),
      animations: animations, events: events, finishChanges: finishChanges,
      cancelChanges: cancelChanges, blendModes: blendModes)
  }

  static let setFrom = ModelChange.set(layerID: "from", property: .opacity, value: .number(0))

  // MARK: Construction

  /// A valid scene keeps its parts.
  @Test func keepsParts() throws {
    let scene = try Self.scene()
    #expect(scene.duration == 1)
    #expect(scene.containerSize == Size(width: 100, height: 100))
    #expect(scene.model.layers.map(\.id) == ["from", "to", "badge", "temp"])
    #expect(scene.animations.entries.count == 2)
    #expect(scene.events.map(\.time) == [0.5, 0.5])
    #expect(scene.finishChanges == [.remove(layerID: "from")])
    #expect(scene.cancelChanges.count == 2)
    #expect(scene.blendModes == ["to": .add])
    #expect(BlendMode.allCases.map(\.rawValue) == ["over", "add"])
  }

  @Test func rejectsZeroDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try Self.make(duration: 0)
    }
  }

  @Test func rejectsNegativeDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try Self.make(duration: -1)
    }
  }

  @Test func rejectsNaNDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notFinite)) {
      try Self.make(duration: .nan)
    }
  }

  @Test func rejectsInfiniteContainerWidth() {
    #expect(throws: ValidationError(field: "containerSize.width", reason: .notFinite)) {
      try Self.make(containerSize: Size(width: .infinity, height: 100))
    }
  }

  @Test func rejectsNaNContainerHeight() {
    #expect(throws: ValidationError(field: "containerSize.height", reason: .notFinite)) {
      try Self.make(containerSize: Size(width: 100, height: .nan))
    }
  }

  /// A NaN event time is rejected with its index.
  @Test func rejectsNaNEventTime() {
    #expect(throws: ValidationError(field: "events.time", index: 1, reason: .notFinite)) {
      try Self.make(events: [
        TimelineEvent(time: 0.1, change: Self.setFrom),
        TimelineEvent(time: .nan, change: Self.setFrom),
      ])
    }
  }

  /// A negative event time is rejected with its index.
  @Test func rejectsNegativeEventTime() {
    #expect(throws: ValidationError(field: "events.time", index: 0, reason: .negative)) {
      try Self.make(events: [TimelineEvent(time: -0.1, change: Self.setFrom)])
    }
  }

  /// Event times must not decrease (equal times are fine).
  @Test func rejectsDecreasingEventTimes() {
    #expect(throws: ValidationError(field: "events.time", index: 2, reason: .decreasing)) {
      try Self.make(events: [
        TimelineEvent(time: 0.5, change: Self.setFrom),
        TimelineEvent(time: 0.5, change: Self.setFrom),
        TimelineEvent(time: 0.2, change: Self.setFrom),
      ])
    }
  }

  /// An event setting a property of an unknown layer is rejected with its index.
  @Test func rejectsEventOnUnknownLayer() {
    #expect(throws: ValidationError(field: "events", index: 1, reason: .unknown("ghost"))) {
      try Self.make(events: [
        TimelineEvent(time: 0, change: Self.setFrom),
        TimelineEvent(
          time: 0, change: .set(layerID: "ghost", property: .opacity, value: .number(0))),
      ])
    }
  }

  /// An event removing an unknown layer is rejected with its index.
  @Test func rejectsEventRemovingUnknownLayer() {
    #expect(throws: ValidationError(field: "events", index: 0, reason: .unknown("ghost"))) {
      try Self.make(events: [TimelineEvent(time: 0, change: .remove(layerID: "ghost"))])
    }
  }

  /// An event setting a value of the wrong kind is rejected with its index.
  @Test func rejectsEventKindMismatch() {
    #expect(
      throws: ValidationError(
        field: "events", index: 0, reason: .invalidState("opacity holds a number"))
    ) {
      try Self.make(events: [
        TimelineEvent(
          time: 0, change: .set(layerID: "from", property: .opacity, value: .point(.zero)))
      ])
    }
  }

  /// An event setting a non-finite value is rejected with the event's index (not a channel's).
  @Test func rejectsEventNaNValue() {
    #expect(throws: ValidationError(field: "events", index: 1, reason: .notFinite)) {
      try Self.make(events: [
        TimelineEvent(time: 0, change: Self.setFrom),
        TimelineEvent(
          time: 0, change: .set(layerID: "from", property: .opacity, value: .number(.nan))),
      ])
    }
  }

  /// A finish change naming an unknown layer is rejected with its index.
  @Test func rejectsUnknownFinishChange() {
    #expect(throws: ValidationError(field: "finishChanges", index: 1, reason: .unknown("ghost"))) {
      try Self.make(finishChanges: [.remove(layerID: "temp"), .remove(layerID: "ghost")])
    }
  }

  /// A cancel change naming an unknown layer is rejected with its index.
  @Test func rejectsUnknownCancelChange() {
    #expect(throws: ValidationError(field: "cancelChanges", index: 0, reason: .unknown("ghost"))) {
      try Self.make(cancelChanges: [
        .set(layerID: "ghost", property: .opacity, value: .number(1))
      ])
    }
  }

  /// A blend mode for an unknown layer is rejected.
  @Test func rejectsUnknownBlendModeLayer() {
    #expect(throws: ValidationError(field: "blendModes", reason: .unknown("ghost"))) {
      try Self.make(blendModes: ["ghost": .add])
    }
  }

  /// An animation of an unknown layer is rejected with its index.
  @Test func rejectsAnimationOfUnknownLayer() throws {
    var set = try Self.animations()
    set.add(
      try LayerAnimation.basic(.opacity, from: .number(0), to: .number(1), duration: 1), to: "ghost"
    )
    #expect(throws: ValidationError(field: "animations.layer", index: 2, reason: .unknown("ghost")))
    {
      try Self.make(animations: set)
    }
  }

  // MARK: Presentation

  /// Running, by hand. At 0.25: to.position.x = 150 − 100·0.25 = 125, to.opacity 0.25, from
  /// untouched, temp present. At 0.5 (the events' time, τ ≤ t): from.opacity 0.5, temp gone,
  /// to at 100 / 0.5.
  @Test func runningPresentation() throws {
    let scene = try Self.scene()
    let early = scene.presentation(at: 0.25)
    #expect(early[id: "to"]!.position == Point(x: 125, y: 50))
    #expect(early[id: "to"]!.opacity == 0.25)
    #expect(early[id: "from"]!.opacity == 1)
    #expect(early[id: "temp"] != nil)

    let mid = scene.presentation(at: 0.5)
    #expect(mid[id: "from"]!.opacity == 0.5)
    #expect(mid[id: "temp"] == nil)
    #expect(mid[id: "to"]!.position == Point(x: 100, y: 50))
    #expect(mid[id: "to"]!.opacity == 0.5)
    #expect(mid.layers.map(\.id) == ["from", "to", "badge"])
  }

  /// Every state is a function of the time: scrubbing back to 0.25 after 0.75 undoes the events.
  @Test func scrubbingBackUndoesEvents() throws {
    let scene = try Self.scene()
    let first = scene.presentation(at: 0.25)
    _ = scene.presentation(at: 0.75)
    let again = scene.presentation(at: 0.25)
    #expect(again.layers == first.layers)
    #expect(again[id: "temp"] != nil)
    #expect(again[id: "from"]!.opacity == 1)
  }

  /// Running times are clamped to [0, duration]: −1 presents t = 0 (backwards fill: to at x 150,
  /// opacity 0) and 7 presents t = 1 (animations over: the model, to at 50 with opacity 1, and
  /// every event applied).
  @Test func runningTimeIsClamped() throws {
    let scene = try Self.scene()
    let before = scene.presentation(at: -1)
    #expect(before.layers == scene.presentation(at: 0).layers)
    #expect(before[id: "to"]!.position == Point(x: 150, y: 50))
    #expect(before[id: "to"]!.opacity == 0)

    let after = scene.presentation(at: 7)
    #expect(after.layers == scene.presentation(at: 1).layers)
    #expect(after[id: "to"]!.position == Point(x: 50, y: 50))
    #expect(after[id: "to"]!.opacity == 1)
    #expect(after[id: "temp"] == nil)
  }

  /// Finished: the model with every event and the finish changes, no animation (whatever `t`):
  /// to and its badge at their model values, from and temp gone.
  @Test func finishedPresentation() throws {
    let scene = try Self.scene()
    for t in [0.0, 0.3, 1, 5] {
      let done = scene.presentation(at: t, completion: .finished)
      #expect(done.layers.map(\.id) == ["to", "badge"])
      #expect(done[id: "to"]!.position == Point(x: 50, y: 50))
      #expect(done[id: "to"]!.opacity == 1)
    }
  }

  /// Cancelled: exactly the state at t = 0 (to at x 150, opacity 0, temp present, no event yet),
  /// then the cancel changes remove to (with its badge) and temp: only from remains, at opacity 1.
  @Test func cancelledPresentation() throws {
    let scene = try Self.scene()
    for t in [0.0, 0.7, 1] {
      let undone = scene.presentation(at: t, completion: .cancelled)
      #expect(undone.layers.map(\.id) == ["from"])
      #expect(undone[id: "from"]!.opacity == 1)
    }
    // Without cancel changes the cancelled state is the t = 0 presentation itself.
    let bare = try Self.make(animations: try Self.animations())
    #expect(
      bare.presentation(at: 0.6, completion: .cancelled).layers == bare.presentation(at: 0).layers)
  }

  /// Events at time 0 already apply at t = 0, so they are part of the cancelled state.
  @Test func eventsAtZeroApplyAtStart() throws {
    let scene = try Self.make(events: [TimelineEvent(time: 0, change: Self.setFrom)])
    #expect(scene.presentation(at: 0)[id: "from"]!.opacity == 0)
    #expect(scene.presentation(at: 0, completion: .cancelled)[id: "from"]!.opacity == 0)
  }

  // MARK: Sampling

  @Test func sampleRejectsNaNTime() throws {
    let scene = try Self.scene()
    #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
      try scene.sample(at: .nan)
    }
  }

  @Test func sampleRejectsNegativeTime() throws {
    let scene = try Self.scene()
    #expect(throws: ValidationError(field: "time", reason: .negative)) {
      try scene.sample(at: -0.001)
    }
  }

  @Test func sampleRejectsInfiniteTime() throws {
    let scene = try Self.scene()
    #expect(throws: ValidationError(field: "time", reason: .notFinite)) {
      try scene.sample(at: .infinity)
    }
  }

  /// A running sample at 0.25, by hand. to: T(−50, −50) · T(125, 50) = T(75, 0), corners
  /// (75, 0), (175, 0), (175, 100), (75, 100); opacity 0.25, blend add. badge: T(−5, −5) · T(5, 5)
  /// = identity, flattened into to's plane, then T(75, 0): corners (75, 0), (85, 0), (85, 10),
  /// (75, 10); opacity 1 × 0.25. Draw order: from, to, badge, temp (depth first, insertion order).
  @Test func runningSample() throws {
    let sample = try Self.scene().sample(at: 0.25)
    #expect(sample.time == 0.25)
    #expect(sample.progress == 0.25)
    #expect(!sample.isCompleted)
    #expect(!sample.isCancelled)
    #expect(sample.layers.map(\.id) == ["from", "to", "badge", "temp"])
    #expect(sample.layers.map(\.order) == [0, 1, 2, 3])

    let to = try #require(sample["to"])
    #expect(to.opacity == 0.25)
    #expect(to.blend == .add)
    #expect(to.matrix == .makeTranslation(x: 75, y: 0, z: 0))
    #expect(
      to.corners.map(\.point) == [
        Point(x: 75, y: 0), Point(x: 175, y: 0), Point(x: 175, y: 100), Point(x: 75, y: 100),
      ])
    #expect(to.corners.allSatisfy { !$0.isBehindEye })

    let badge = try #require(sample["badge"])
    #expect(badge.opacity == 0.25)
    #expect(badge.blend == .over)
    #expect(
      badge.corners.map(\.point) == [
        Point(x: 75, y: 0), Point(x: 85, y: 0), Point(x: 85, y: 10), Point(x: 75, y: 10),
      ])
    #expect(sample["from"]!.blend == .over)
    #expect(sample["from"]!.opacity == 1)
    #expect(sample["ghost"] == nil)
  }

  /// A sample at 0.5 lists only the layers present (temp was removed by the event).
  @Test func sampleListsPresentLayers() throws {
    let sample = try Self.scene().sample(at: 0.5)
    #expect(sample.layers.map(\.id) == ["from", "to", "badge"])
    #expect(sample["from"]!.opacity == 0.5)
    #expect(sample.progress == 0.5)
  }

  /// At t ≥ duration the transition is complete and finished: progress 1, only to and its badge,
  /// to at its model place (identity matrix: T(−50, −50) · T(50, 50)), opacity 1.
  @Test func completedSample() throws {
    let scene = try Self.scene()
    for t in [1.0, 1.5, 100] {
      let sample = try scene.sample(at: t)
      #expect(sample.time == t)
      #expect(sample.isCompleted)
      #expect(!sample.isCancelled)
      #expect(sample.progress == 1)
      #expect(sample.layers.map(\.id) == ["to", "badge"])
      #expect(sample["to"]!.matrix == .identity)
      #expect(sample["to"]!.opacity == 1)
      #expect(sample.layers.map(\.order) == [0, 1])
    }
    let almost = try scene.sample(at: 1.0.nextDown)
    #expect(!almost.isCompleted)
    #expect(almost.progress < 1)
  }

  /// A presented opacity outside [0, 1] is clamped in samples (transition catalog: Presented
  /// opacity): an event sets from.opacity to 3; its sample shows 1.
  @Test func sampleClampsOpacity() throws {
    let scene = try Self.make(events: [
      TimelineEvent(time: 0, change: .set(layerID: "from", property: .opacity, value: .number(3)))
    ])
    #expect(try scene.sample(at: 0.5)["from"]!.opacity == 1)
    #expect(scene.presentation(at: 0.5)[id: "from"]!.opacity == 3)
  }

  /// Every layer is finite, but their product is not: four nested layers each scaled by 1e100
  /// give 1e100, 1e200, 1e300 and then 1e400 = ∞ in the fourth layer's matrix. The sample is a
  /// typed error naming that layer (index 3 in ``TransitionSample/layers``), at every kind of
  /// sample, never a matrix of infinities; and a basic animation extrapolating an overshooting
  /// curve beyond `Double` (position.x from 0 to 1e308, y₁ = 10) is the same error.
  @Test func overflowingGeometryIsATypedError() throws {
    var tree = LayerTree()
    var parent: String? = nil
    for k in 0..<4 {
      try tree.add(
        Layer(
          id: "l\(k)", bounds: Rect(x: 0, y: 0, width: 1, height: 1),
          transform: .makeScale(x: 1e100, y: 1e100, z: 1)), parent: parent)
      parent = "l\(k)"
    }
    let scene = try TransitionScene(
      duration: 1, containerSize: Size(width: 10, height: 10), model: tree,
      animations: AnimationSet())
    let expected: (any Error) -> Bool = { error in
      let e = error as? ValidationError
      return e?.field == "layers" && e?.index == 3
    }
    #expect(performing: { try scene.sample(at: 0.5) }, throws: expected)
    #expect(performing: { try scene.sample(at: 0.5, completion: .finished) }, throws: expected)
    let timeline = try InteractionTimeline(duration: 1, events: [.update(time: 0, percent: 0.5)])
    #expect(performing: { try scene.sample(at: 0.5, interaction: timeline) }, throws: expected)

    var flat = LayerTree()
    try flat.add(Layer(id: "a"))
    var set = AnimationSet()
    set.add(
      try LayerAnimation.basic(
        .positionX, from: .number(0), to: .number(1e308), duration: 1,
        timingFunction: try .cubicBezier(0.5, 10, 0.5, 1)), to: "a")
    let overshoot = try TransitionScene(
      duration: 2, containerSize: Size(width: 10, height: 10), model: flat, animations: set)
    #expect {
      try overshoot.sample(at: 0.5)
    } throws: { error in
      (error as? ValidationError)?.field == "layers"
    }
  }

  /// Appearance numbers overflow like geometry: a corner radius animated from 0 to 1e308 along
  /// the same overshooting curve exceeds `Double` mid-way, and the sample names the property
  /// (`cornerRadius`) instead of returning infinity.
  @Test func overflowingAppearanceIsATypedError() throws {
    var flat = LayerTree()
    try flat.add(Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 1, height: 1)))
    var set = AnimationSet()
    set.add(
      try LayerAnimation.basic(
        .cornerRadius, from: .number(0), to: .number(1e308), duration: 1,
        timingFunction: try .cubicBezier(0.5, 10, 0.5, 1)), to: "a")
    let scene = try TransitionScene(
      duration: 2, containerSize: Size(width: 10, height: 10), model: flat, animations: set)
    #expect {
      try scene.sample(at: 0.5)
    } throws: { error in
      guard let e = error as? ValidationError, e.field == "layers", e.index == 0,
        case .invalidState(let message) = e.reason
      else { return false }
      return message.contains("cornerRadius")
    }
  }
}
