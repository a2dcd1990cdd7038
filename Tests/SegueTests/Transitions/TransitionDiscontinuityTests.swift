import Segue
import Testing

/// `TransitionScene.discontinuities(after:through:)`: what each kind of animation, event and
/// the completion declare, and nothing where everything is smooth.
@Suite("Transition discontinuities")
struct TransitionDiscontinuityTests {
  /// A scene with one layer `box` and `animation` on `position.x`; duration 2 s.
  func scene(
    _ animations: [LayerAnimation], events: [TimelineEvent] = [],
    finish: [ModelChange] = [], cancel: [ModelChange] = []
  ) throws -> TransitionScene {
    var tree = LayerTree()
    try tree.add(Layer(id: "box", bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
    try tree.add(Layer(id: "other"))
    var set = AnimationSet()
    for animation in animations { set.add(animation, to: "box") }
    return try TransitionScene(
      duration: 2, containerSize: Size(width: 100, height: 100), model: tree, animations: set,
      events: events, finishChanges: finish, cancelChanges: cancel)
  }

  func causes(_ scene: TransitionScene, _ a: Double, _ b: Double)
    -> [TransitionDiscontinuity.Cause]
  {
    scene.discontinuities(after: a, through: b).map(\.cause)
  }

  func basic(
    begin: Double = 0.5, duration: Double = 1, timing: TimingFunction? = nil,
    repeatCount: Double = 0, autoreverses: Bool = false
  ) throws -> LayerAnimation {
    var t = MediaTiming(beginTime: begin, duration: duration, fillMode: .both)
    t.repeatCount = repeatCount
    t.autoreverses = autoreverses
    return try LayerAnimation(
      property: .positionX, content: .basic(from: .number(0), to: .number(10)), timing: t,
      timingFunction: timing)
  }

  @Test func aBasicAnimationDeclaresItsStartAndEnd() throws {
    let s = try scene([basic()])
    #expect(causes(s, 0.4, 0.5) == [.animationBoundary])
    #expect(causes(s, 0.5, 0.6).isEmpty)
    #expect(causes(s, 0.6, 1.4).isEmpty)
    #expect(causes(s, 1.4, 1.5) == [.animationBoundary])
    let d = try #require(s.discontinuities(after: 1.4, through: 1.5).first)
    #expect(d.layerID == "box" && d.property == .positionX && d.kind == .velocity)
    #expect(causes(s, 1, 0.5).isEmpty)
  }

  @Test func repeatsRestartOrTurn() throws {
    let restart = try scene([basic(duration: 0.25, repeatCount: 3)])
    #expect(restart.discontinuities(after: 0.7, through: 0.8).map(\.kind) == [.value])
    #expect(causes(restart, 0.7, 0.8) == [.repeatRestart])
    let turn = try scene([basic(duration: 0.25, repeatCount: 2, autoreverses: true)])
    #expect(turn.discontinuities(after: 0.7, through: 0.8).map(\.kind) == [.velocity])
  }

  @Test func stepsTakeSteps() throws {
    let s = try scene([basic(timing: .steps(try StepsEasing(steps: 4)))])
    // Steps at 0.25, 0.5 and 0.75 of the animation: 0.75, 1.0, 1.25 s.
    #expect(causes(s, 0.7, 0.8) == [.steps])
    #expect(causes(s, 0.8, 0.9).isEmpty)
  }

  @Test func keyframesDeclareTheirKeys() throws {
    func keyframes(_ mode: CalculationMode) throws -> LayerAnimation {
      let track = try KeyframeTrack<Double>(
        values: [0, 5, 10], keyTimes: mode == .discrete ? [0, 0.5, 1] : [0, 0.5, 1],
        calculationMode: mode)
      return try LayerAnimation(
        property: .positionX, content: .keyframes(.numbers(track)),
        timing: MediaTiming(beginTime: 0.5, duration: 1, fillMode: .both))
    }
    let linear = try scene([keyframes(.linear)])
    #expect(causes(linear, 0.9, 1.1) == [.keyTime])
    #expect(linear.discontinuities(after: 0.9, through: 1.1).map(\.kind) == [.velocity])
    #expect(causes(linear, 0.6, 0.9).isEmpty)
    let discrete = try scene([keyframes(.discrete)])
    #expect(causes(discrete, 0.9, 1.1) == [.discreteKeyframe])
    #expect(discrete.discontinuities(after: 0.9, through: 1.1).map(\.kind) == [.value])
  }

  @Test func eventsAndCompletion() throws {
    let s = try scene(
      [], events: [TimelineEvent(time: 0.3, change: .remove(layerID: "other"))],
      finish: [.set(layerID: "box", property: .opacity, value: .number(0.5))],
      cancel: [.remove(layerID: "box")])
    let event = s.discontinuities(after: 0.2, through: 0.3)
    #expect(event.map(\.cause) == [.modelChange])
    #expect(event.first?.layerID == "other" && event.first?.property == nil)
    #expect(s.discontinuities(after: 0.3, through: 0.4).isEmpty)
    let end = s.discontinuities(after: 1.9, through: 2)
    #expect(end.filter { $0.kind == .value }.map(\.property) == [.opacity])
    #expect(Set(end.filter { $0.kind == .velocity }.map(\.layerID)) == ["box", "other"])
    let cancelled = s.completionDiscontinuities(.cancelled).filter { $0.kind == .value }
    #expect(cancelled.map(\.layerID) == ["box"] && cancelled.first?.property == nil)
  }
}
