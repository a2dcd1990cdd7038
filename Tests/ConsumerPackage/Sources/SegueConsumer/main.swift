// The README's example as a consumer writes it, plus a batch of instances checked against the
// scalar sampler and a spec file decoded: exits non-zero if anything disagrees.
import Segue
import SegueSpec

// UIKit's default push, headless: sample it at 0.1 s.
let animator = PresetAnimator(.system)
let context = try animator.defaultContext(operation: .push)  // 390 × 844 container
let scene = try animator.animateTransition(using: context)
let sample = try scene.sample(at: 0.1)
for layer in sample.layers {
  print(layer.id, layer.opacity, layer.corners.map(\.point), layer.order)
}

// The same transition driven by a swipe: update, then finish.
var swipe = try InteractionTimeline(duration: scene.duration)
try swipe.append(.update(time: 0.10, percent: 0.4))
try swipe.append(.finish(time: 0.25))
let moment = try scene.sample(at: 0.3, interaction: swipe)
print("interactive progress", moment.progress)

// No BLAS in this build: the jobs say so and run SIMD.
precondition(!BatchPath.isBLASAvailable, "the consumer was built with the BLAS trait off")
precondition(BatchPath.automatic.resolved(for: .init(rows: 60, inner: 64, columns: 1000)) == .simd)

// A spec file round trip.
let spec = try SpecFile.decode(
  text: """
    {"version": 1, "duration": 1, "container": [40, 30],
     "layers": [{"id": "box", "bounds": [0, 0, 10, 10], "position": [5, 5],
                 "animations": [{"keyPath": "opacity", "type": "basic", "fromValue": 0,
                                 "toValue": 1, "duration": 1, "fillMode": "both"}]}]}
    """)
let half = try spec.scene.sample(at: 0.5)
precondition(half.layers.map(\.id) == ["box"] && abs(half.layers[0].opacity - 0.5) < 1e-12)
print("spec layers", half.layers.map(\.id))
print("consumer ok")
