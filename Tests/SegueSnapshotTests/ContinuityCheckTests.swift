import Segue
import SegueSnapshot
import Testing

/// One 60 × 40 layer `box` in a 100 × 100 container whose `position.x` model value is `model`,
/// with `animation` on it; the transition lasts `duration`.
func boxScene(
  model: Double, animations: [LayerAnimation], duration: Double = 1,
  events: [TimelineEvent] = []
) throws -> TransitionScene {
  var tree = LayerTree()
  var box = Layer(id: "box")
  box.bounds = Rect(x: 0, y: 0, width: 60, height: 40)
  box.position = Point(x: model, y: 50)
  box.backgroundColor = .black
  try tree.add(box)
  var set = AnimationSet()
  for animation in animations { set.add(animation, to: "box") }
  return try TransitionScene(
    duration: duration, containerSize: Size(width: 100, height: 100), model: tree,
    animations: set, events: events)
}

@Suite("Continuity check")
struct ContinuityCheckTests {
  /// A linear slide that ends on its model value: continuous; its speed drops from 60 pt/s to
  /// 0 at the end, which the completion declares.
  @Test func aSlideEndingOnItsModelValueIsContinuous() throws {
    let slide = try LayerAnimation.basic(
      .positionX, from: .number(20), to: .number(80), duration: 1)
    let report = try ContinuityCheck(
      scene: boxScene(model: 80, animations: [slide]), fps: 30
    ).run()
    #expect(report.undeclared.isEmpty, "\(report.failureMessage ?? "")")
    #expect(report.frameCount == 31)
  }

  /// An animation that ends on another value than the model's: the layer snaps when the
  /// transition completes (the animation fills forwards until then), or at the animation's end
  /// without a fill — an undeclared value jump the message names.
  @Test(arguments: [MediaTiming.FillMode.both, .removed])
  func aSnapToTheModelValueFails(fill: MediaTiming.FillMode) throws {
    let slide = try LayerAnimation.basic(
      .positionX, from: .number(20), to: .number(80), duration: 0.5, fillMode: fill)
    let report = try ContinuityCheck(
      scene: boxScene(model: 100, animations: [slide]), fps: 30
    ).run()
    let jumps = report.undeclared
    #expect(jumps.count == 1)
    let jump = try #require(jumps.first)
    #expect(jump.kind == .value && jump.layerID == "box" && jump.quantity == "corner 0 x")
    // x − 30: from 80 − 30 = 50 to 100 − 30 = 70, at 1 s (frames 29 and 30) or 0.5 s (14, 15).
    #expect(abs(jump.before - 50) < 1e-6 && abs(jump.after - 70) < 1e-9)
    let time = fill == .both ? 1.0 : 0.5
    #expect(abs(jump.time - time) < 1e-7 && jump.frame == Int(time * 30) - 1, "\(jump)")
    let message = try #require(report.failureMessage)
    #expect(message.hasPrefix("1 undeclared jump in 31 frames:"))
    #expect(message.contains("'box' corner 0 x jumps from"))
  }

  /// The same slide's speed drops from 120 pt/s to 0 at 0.5 s when it ends on the model value:
  /// found, and declared by the animation's end.
  @Test func velocityJumpsAreFoundAndDeclared() throws {
    let slide = try LayerAnimation.basic(
      .positionX, from: .number(20), to: .number(80), duration: 0.5)
    let report = try ContinuityCheck(scene: boxScene(model: 80, animations: [slide]), fps: 30)
      .run()
    #expect(report.undeclared.isEmpty, "\(report.failureMessage ?? "")")
    let kink = try #require(report.jumps.first { $0.kind == .velocity && $0.time < 0.9 })
    #expect(kink.declaredBy == [.animationBoundary])
    #expect(abs(kink.before - 120) < 1e-3 && abs(kink.after) < 1e-3)
    #expect(abs(kink.time - 0.5) < 1e-4)
  }

  /// Discrete keyframes jump by design.
  @Test func discreteKeyframesAreDeclared() throws {
    let track = try KeyframeTrack<Double>(values: [0, 50, 100], calculationMode: .discrete)
    var timing = MediaTiming()
    timing.duration = 1
    timing.fillMode = .both
    let steps = try LayerAnimation(
      property: .positionX, content: .keyframes(.numbers(track)), timing: timing)
    let report = try ContinuityCheck(scene: boxScene(model: 100, animations: [steps]), fps: 30)
      .run()
    #expect(report.undeclared.isEmpty, "\(report.failureMessage ?? "")")
    let values = report.jumps.filter { $0.kind == .value }
    #expect(values.count == 2)
    #expect(values.allSatisfy { $0.declaredBy == [.discreteKeyframe] })
  }

  /// A model change and a removal during the run.
  @Test func modelChangesAreDeclared() throws {
    let events = [
      TimelineEvent(
        time: 0.3, change: .set(layerID: "box", property: .positionX, value: .number(10))),
      TimelineEvent(time: 0.6, change: .remove(layerID: "box")),
    ]
    let report = try ContinuityCheck(
      scene: boxScene(model: 50, animations: [], events: events), fps: 30
    ).run()
    #expect(report.undeclared.isEmpty, "\(report.failureMessage ?? "")")
    #expect(report.jumps.map(\.kind) == [.value, .presence])
    #expect(report.jumps.allSatisfy { $0.declaredBy == [.modelChange] })
    #expect(abs(report.jumps[1].time - 0.6) < 1e-7)
  }

  /// Interactive runs: updates move the layer at once (declared), a finish or cancel continues
  /// from where the finger left it.
  @Test(arguments: [true, false])
  func interactiveRunsAreContinuous(finishing: Bool) throws {
    let slide = try LayerAnimation.basic(
      .positionX, from: .number(20), to: .number(80), duration: 1,
      timingFunction: .easeInEaseOut)
    let scene = try boxScene(model: 80, animations: [slide])
    let end: InteractionEvent = finishing ? .finish(time: 0.5) : .cancel(time: 0.5)
    let run = try InteractionTimeline(
      duration: 1,
      events: [.update(time: 0.1, percent: 0.2), .update(time: 0.3, percent: 0.45), end])
    let report = try ContinuityCheck(scene: scene, interaction: run, fps: 60).run()
    #expect(report.undeclared.isEmpty, "\(report.failureMessage ?? "")")
    #expect(report.jumps.contains { $0.kind == .value && $0.declaredBy == [.interaction] })
  }

  @Test func rejectsBadSettings() throws {
    let scene = try boxScene(model: 0, animations: [])
    let cases: [(ContinuityCheck, String)] = [
      (ContinuityCheck(scene: scene, fps: 0), "fps must be greater than 0"),
      (ContinuityCheck(scene: scene, fps: .nan), "fps must be finite (got NaN or infinity)"),
      (
        ContinuityCheck(scene: scene, tolerance: ContinuityTolerance(points: -1)),
        "tolerance.points must be greater than 0"
      ),
      (
        ContinuityCheck(scene: scene, tolerance: ContinuityTolerance(fraction: .nan)),
        "tolerance.fraction must be finite (got NaN or infinity)"
      ),
      (
        ContinuityCheck(scene: scene, fps: 1e9),
        "fps 1000000000.0 frames per second over 1.0 s is more than 100000 frames"
      ),
      (
        ContinuityCheck(scene: scene, interaction: try InteractionTimeline(duration: 2)),
        "interaction.duration must be 1.0"
      ),
    ]
    for (check, message) in cases {
      #expect(throws: ValidationError.self) { try check.run() }
      do { try check.validate() } catch { #expect(error.description == message) }
    }
  }
}
