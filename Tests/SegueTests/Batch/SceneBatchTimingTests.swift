import Testing

@testable import Segue

/// Every timing-function kind in every media-timing phase and fill mode through ``SceneBatch``,
/// against the scalar sampler (``TransitionScene/sample(at:)``) and the hand values of
/// ``TimingPhaseTests``: basic animations (Bézier solves in the batch's Bézier bucket, steps and
/// `linear(…)` through the scalar timing functions with the before flag, springs in the spring
/// bucket) and keyframe animations with per-segment functions (Bézier tracks batched by
/// ``KeyframeBatch``, steps and `linear(…)` tracks by the scalar track code with the before flag),
/// in the linear and cubic modes.
@Suite("Timing functions in every phase (SceneBatch)")
struct SceneBatchTimingTests {
  static let times = TimingPhaseTests.times.map(\.t)

  /// One single-animation scene per kind and fill mode (basic or spring content).
  static func basicScenes() throws -> [(
    TimingPhaseTests.Kind, MediaTiming.FillMode, TransitionScene
  )] {
    var out: [(TimingPhaseTests.Kind, MediaTiming.FillMode, TransitionScene)] = []
    for kind in TimingPhaseTests.kinds {
      for fill in MediaTiming.FillMode.allCases {
        out.append(
          (kind, fill, try TimingPhaseTests.scene(try TimingPhaseTests.animation(kind, fill))))
      }
    }
    return out
  }

  /// Keyframe scenes: values [0, 100, 40] at [0, 0.5, 1], both segments with the kind's function.
  static func keyframeScenes() throws -> [TransitionScene] {
    var out: [TransitionScene] = []
    for kind in TimingPhaseTests.kinds {
      guard let f = kind.timingFunction else { continue }
      for mode in [CalculationMode.linear, .cubic] {
        for fill in MediaTiming.FillMode.allCases {
          let track = try KeyframeTrack(
            values: [0.0, 100, 40], keyTimes: [0, 0.5, 1], calculationMode: mode,
            timingFunctions: [f, f])
          out.append(
            try TimingPhaseTests.scene(
              try LayerAnimation(
                property: .positionX, content: .keyframes(.numbers(track)),
                timing: MediaTiming(beginTime: 0.5, duration: 1, fillMode: fill))))
        }
      }
    }
    return out
  }

  /// Runs `scenes` as one batch (clock `timed(0, 1)`) at ``times`` and compares every frame with
  /// the scalar sampler (``SceneBatchTests/compare(_:frame:output:samples:)``'s tolerances).
  static func check(_ scenes: [TransitionScene]) throws
    -> (batch: SceneBatch, output: [Float])
  {
    let batch = try SceneBatch(scenes.map { .init(scene: $0, clock: .timed(start: 0, speed: 1)) })
    let output = try SceneBatchTests.evaluate(batch, at: times)
    for (f, t) in times.enumerated() {
      SceneBatchTests.compare(
        batch, frame: f, output: output, samples: try scenes.map { try $0.sample(at: t) })
    }
    return (batch, output.matrices)
  }

  @Test func basicAndSpringAnimationsMatchTheScalarSamplerAndTheHandValues() throws {
    let cases = try Self.basicScenes()
    let (batch, matrices) = try Self.check(cases.map(\.2))
    // And the hand values, through m41 = position.x (Float: 1e-5 relative).
    for (k, (kind, fill, _)) in cases.enumerated() {
      let i = try #require(batch.layerIndex(instance: k, layerID: "a"))
      for f in Self.times.indices {
        let want = TimingPhaseTests.expected(kind, fill, f)
        let got = Double(matrices[16 * (f * batch.layerCount + i) + 12])
        #expect(
          abs(got - want) <= 1e-5 * (1 + abs(want)),
          "\(kind) \(fill) t = \(Self.times[f]): \(got) vs \(want)")
      }
    }
  }

  @Test func keyframeSegmentFunctionsMatchTheScalarSampler() throws {
    let scenes = try Self.keyframeScenes()
    let (batch, _) = try Self.check(scenes)
    // The Bézier tracks are batched, the steps and linear(…) ones go through the scalar code.
    #expect(batch.batchedKeyframeTrackCount == 8)
    #expect(batch.scalarKeyframeTrackCount == scenes.count - 8)
  }

  /// The brief's case through the batch: `steps(4, jump-start)` on opacity, `beginTime` 0.5, fill
  /// backwards: 0 at t = 0.25 (before flag), 0.25 at t = 0.5.
  @Test func stepsJumpStartBeforeFlagInTheBatch() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
    var set = AnimationSet()
    set.add(
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)),
        timing: MediaTiming(beginTime: 0.5, duration: 1, fillMode: .backwards),
        timingFunction: .steps(try StepsEasing(steps: 4, position: .jumpStart))),
      to: "a")
    let scene = try TransitionScene(
      duration: 2, containerSize: Size(width: 10, height: 10), model: tree, animations: set)
    let batch = try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    let out = try SceneBatchTests.evaluate(batch, at: [0.25, 0.5])
    #expect(out.opacities == [0, 0.25])
    #expect(try scene.sample(at: 0.25)["a"]?.opacity == 0)
    #expect(try scene.sample(at: 0.5)["a"]?.opacity == 0.25)
  }
}
