import Segue

/// The `presets` workload (segue-bench, `segue profile`, the package benchmarks): instances of the
/// ten catalog presets, push and pop (twenty scenes), instance `i` of scene `i mod 20`, each at
/// its own offset so that at the frame time `t` it is at `uᵢ·duration` of its run (`uᵢ` uniform in
/// `[0, 1)` from splitmix64 with a fixed seed).
public enum PresetsWorkload {
  /// The twenty scenes: every preset with its default context on bare views (only the layers its
  /// animator animates, ``/Segue/DefaultViewContent/bare``), push then pop. The batch workloads
  /// time the transitions themselves; the iOS screens' static rows and text are the renderer's
  /// workload (`render`), and would multiply the layer count without adding any animation.
  public static func scenes() throws -> [TransitionScene] {
    var scenes: [TransitionScene] = []
    for preset in TransitionPreset.allCases {
      for operation in [TransitionOperation.push, .pop] {
        let animator = PresetAnimator(preset)
        scenes.append(
          try animator.animateTransition(
            using: animator.defaultContext(operation: operation, content: .bare)))
      }
    }
    return scenes
  }

  /// Instances until they hold at least `layers` layers, for frame time `time` (seconds).
  public static func instances(layers: Int, time: Double, seed: UInt64 = 0x5EED) throws
    -> [SceneBatch.Instance]
  {
    let scenes = try scenes()
    var state = seed
    func unit() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) * 0x1.0p-53
    }
    var instances: [SceneBatch.Instance] = []
    var count = 0
    while count < layers {
      let scene = scenes[instances.count % scenes.count]
      instances.append(
        .init(scene: scene, clock: .timed(start: time - unit() * scene.duration, speed: 1)))
      count += scene.model.count
    }
    return instances
  }
}
