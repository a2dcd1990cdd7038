import PropertyBased
import Segue
import Testing

/// `TransitionScene.velocity(at:)` against central differences of `sample(at:)`.
///
/// Step and tolerance from first principles, for a quantity `f` of magnitude `F` that varies on
/// the time scale `T` (the shortest animation, ≥ 0.2 s here; a spring's period ≥ 0.2 s):
/// the central difference `(f(t+h) − f(t−h))/2h` has truncation error `h²·|f‴|/6 ≈ h²·F/T³`
/// and rounding error `δ·F/h`, where `δ` is the relative error of one evaluation: the Bézier
/// solver's `1e-12` dominates Double's `1.1e-16`. The sum is smallest at `h = (3δT³)^{1/3}`
/// ≈ 1e-5 s; there both terms are ≈ 1e-7·F/T, so the tolerance is `1e-5·(F/T + |f′|)`: two
/// orders above the expected error and far below any wrong chain-rule factor. Points within
/// `4h` of a place where `f` is not differentiable (an animation's begin or end, a repeat or
/// autoreverse turn, a keyframe time) are skipped.
@Suite("Transition velocities")
struct TransitionVelocityTests {
  static let h = 1e-5

  /// Asserts that `velocity(at: t)` matches central differences of `sample(at:)`.
  static func expectMatchesCentralDifference(
    _ scene: TransitionScene, at t: Double, timeScale: Double = 0.2,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try expectMatchesCentralDifference(
      try scene.velocity(at: t), at: t, timeScale: timeScale, sourceLocation: sourceLocation
    ) { try scene.sample(at: $0) }
  }

  /// Asserts that `velocity`, computed at time `t`, matches central differences of `sample`.
  static func expectMatchesCentralDifference(
    _ velocity: [LayerVelocity], at t: Double, timeScale: Double,
    sourceLocation: SourceLocation = #_sourceLocation, _ sample: (Double) throws -> TransitionSample
  ) throws {
    let before = try sample(t - h)
    let after = try sample(t + h)
    let now = try sample(t)
    try #require(velocity.map(\.id) == now.layers.map(\.id), sourceLocation: sourceLocation)
    for (i, layer) in now.layers.enumerated() {
      let magnitude = layer.matrix.fields.map(abs).max() ?? 0
      for k in 0..<16 {
        let numeric =
          (after.layers[i].matrix.fields[k] - before.layers[i].matrix.fields[k]) / (2 * h)
        let analytic = velocity[i].matrix.fields[k]
        let tolerance = 1e-5 * (Swift.max(magnitude, 1) / timeScale + abs(analytic))
        #expect(
          abs(analytic - numeric) <= tolerance,
          "\(layer.id) m[\(k)] at \(t): \(analytic) vs \(numeric)", sourceLocation: sourceLocation)
      }
      let numeric = (after.layers[i].opacity - before.layers[i].opacity) / (2 * h)
      #expect(
        abs(velocity[i].opacity - numeric) <= 1e-5 * (1 / timeScale + abs(numeric)),
        "\(layer.id) opacity at \(t): \(velocity[i].opacity) vs \(numeric)",
        sourceLocation: sourceLocation)
    }
  }

  /// Every preset, push and pop, at interior times away from its animations' begin and end.
  @Test(arguments: TransitionPreset.allCases, [TransitionOperation.push, .pop])
  func presetsMatchCentralDifferences(preset: TransitionPreset, operation: TransitionOperation)
    throws
  {
    let animator = PresetAnimator(preset)
    let context = try animator.defaultContext(operation: operation)
    let scene = try animator.animateTransition(using: context)
    let kinks = Self.breakpoints(scene)
    for fraction in [0.05, 0.13, 0.3, 0.5, 0.71, 0.9] {
      let t = fraction * scene.duration
      guard kinks.allSatisfy({ abs($0 - t) > 4 * Self.h }) else { continue }
      try Self.expectMatchesCentralDifference(scene, at: t)
    }
  }

  /// Random trees and animations (basic, spring, keyframes; every geometry property; cubic,
  /// overshooting and `linear(…)` curves; speed, repeats, autoreverses) at random times.
  @Test func randomScenesMatchCentralDifferences() async throws {
    await propertyCheck(count: 60, input: Gen.int(in: 0...Int(Int32.max)), Gen.double(in: 0...1)) {
      seed, u in
      var generator = RandomScene(seed: UInt64(seed))
      let scene = try generator.scene()
      let t = u * scene.duration * 0.98 + 0.01 * scene.duration
      guard Self.breakpoints(scene).allSatisfy({ abs($0 - t) > 4 * Self.h }) else { return }
      try Self.expectMatchesCentralDifference(scene, at: t)
    }
  }

  /// The parent times where an animation of `scene` starts, ends, repeats, turns, or crosses a
  /// keyframe time (animations without a timing function), and the model events.
  static func breakpoints(_ scene: TransitionScene) -> [Double] {
    var times = scene.events.map(\.time)
    for entry in scene.animations.entries {
      let timing = entry.animation.timing
      guard timing.speed > 0 else { continue }
      let d = timing.duration
      let passes = Swift.min(timing.activeDuration / d, 64)
      var knots = [0.0]
      if case .keyframes(let values) = entry.animation.content,
        entry.animation.timingFunction == nil
      {
        knots += values.keyTimes
      }
      var k = 0.0
      while k <= passes.rounded(.up) {
        for knot in knots {
          for local in [k * d + knot * d, (k + 1) * d - knot * d]
          where local <= timing.activeDuration {
            times.append(timing.beginTime + (local - timing.timeOffset) / timing.speed)
          }
        }
        k += 1
      }
      times.append(timing.beginTime + (timing.activeDuration - timing.timeOffset) / timing.speed)
    }
    return times
  }

  /// Percent-driven: 0 while interacting; during the completion run the scene's velocity times
  /// `duration · dp/dt`, against central differences of `sample(at:interaction:)`.
  @Test(arguments: [true, false])
  func interactionMatchesCentralDifferences(finishing: Bool) throws {
    let animator = PresetAnimator(.fadeSlide)
    let scene = try animator.animateTransition(using: try animator.defaultContext(operation: .push))
    let end: InteractionEvent = finishing ? .finish(time: 0.5) : .cancel(time: 0.5)
    let timeline = try InteractionTimeline(
      duration: scene.duration, completionSpeed: 1.5,
      events: [.update(time: 0.1, percent: 0.2), .update(time: 0.3, percent: 0.45), end])
    for layer in try scene.velocity(at: 0.4, interaction: timeline) {
      #expect(layer.matrix.fields.allSatisfy { $0 == 0 } && layer.opacity == 0)
    }
    let run = timeline.completionRunDuration(from: 0.45, finishing: finishing)
    for fraction in [0.1, 0.37, 0.62, 0.9] {
      let t = 0.5 + fraction * run
      let velocity = try scene.velocity(at: t, interaction: timeline)
      let before = try scene.sample(at: t - Self.h, interaction: timeline)
      let after = try scene.sample(at: t + Self.h, interaction: timeline)
      for (i, layer) in velocity.enumerated() {
        let magnitude = after.layers[i].matrix.fields.map(abs).max() ?? 0
        for k in 0..<16 {
          let numeric =
            (after.layers[i].matrix.fields[k] - before.layers[i].matrix.fields[k]) / (2 * Self.h)
          let tolerance = 1e-5 * (Swift.max(magnitude, 1) / 0.2 + abs(numeric))
          #expect(abs(layer.matrix.fields[k] - numeric) <= tolerance, "\(layer.id) m[\(k)] at \(t)")
        }
        let numeric = (after.layers[i].opacity - before.layers[i].opacity) / (2 * Self.h)
        #expect(abs(layer.opacity - numeric) <= 1e-5 * (5 + abs(numeric)))
      }
    }
  }

  @Test func completedAndHeldStatesDoNotMove() throws {
    let animator = PresetAnimator(.hero)
    let scene = try animator.animateTransition(using: try animator.defaultContext(operation: .push))
    for layer in try scene.velocity(at: scene.duration) {
      #expect(layer.matrix == .zero && layer.opacity == 0)
    }
    let held = try scene.velocity(atSceneTime: 0.5 * scene.duration, timeRate: 0)
    #expect(held.allSatisfy { $0.matrix.fields.allSatisfy { $0 == 0 } && $0.opacity == 0 })
  }

  @Test func timeRateScalesEveryVelocity() throws {
    let animator = PresetAnimator(.depth)
    let scene = try animator.animateTransition(using: try animator.defaultContext(operation: .push))
    let t = 0.4 * scene.duration
    let one = try scene.velocity(atSceneTime: t, timeRate: 1)
    let half = try scene.velocity(atSceneTime: t, timeRate: -0.5)
    for (a, b) in zip(one, half) {
      for (x, y) in zip(a.matrix.fields, b.matrix.fields) {
        #expect(abs(-0.5 * x - y) <= 1e-12 * abs(x))
      }
      #expect(abs(-0.5 * a.opacity - b.opacity) <= 1e-15)
    }
  }

  @Test func rejectsBadTimesAndPathAnimations() throws {
    let animator = PresetAnimator(.system)
    let scene = try animator.animateTransition(using: try animator.defaultContext(operation: .push))
    #expect(throws: ValidationError.self) { try scene.velocity(at: -1) }
    #expect(throws: ValidationError.self) { try scene.velocity(at: .nan) }
    #expect(throws: ValidationError.self) {
      try scene.velocity(atSceneTime: 0.1, timeRate: .infinity)
    }
    var path = BezierPath()
    try path.move(to: Point(x: 0, y: 0))
    try path.addLine(to: Point(x: 100, y: 0))
    var tree = LayerTree()
    try tree.add(Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
    var animations = AnimationSet()
    animations.add(
      try LayerAnimation(
        property: .position, content: .path(try KeyframePathTrack(path: path)),
        timing: MediaTiming(duration: 1, fillMode: .both)), to: "a")
    let pathScene = try TransitionScene(
      duration: 1, containerSize: Size(width: 100, height: 100), model: tree,
      animations: animations)
    #expect(throws: ValidationError.self) { try pathScene.velocity(at: 0.5) }
  }
}
