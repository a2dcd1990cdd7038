import Segue
import Testing

/// Every preset, push and pop, samples without error and without NaN at its start, interior and
/// end, and completes with only the shown view left.
@Suite("Preset smoke")
struct PresetSmokeTests {
  @Test(arguments: TransitionPreset.allCases, [TransitionOperation.push, .pop])
  func samplesAreFiniteAndCompletionKeepsOneView(
    preset: TransitionPreset, operation: TransitionOperation
  ) throws {
    let animator = PresetAnimator(preset)
    let context = try animator.defaultContext(operation: operation)
    let scene = try animator.animateTransition(using: context)
    for fraction in [0.0, 0.1, 0.25, 0.5, 0.75, 0.99] {
      let sample = try scene.sample(at: fraction * scene.duration)
      #expect(!sample.isCompleted)
      for layer in sample.layers {
        let finite = layer.matrix.fields.allSatisfy { $0.isFinite }
        #expect(finite, "\(layer.id) at \(fraction)")
        #expect(layer.opacity.isFinite && layer.opacity >= 0 && layer.opacity <= 1)
      }
    }
    let end = try scene.sample(at: scene.duration)
    #expect(end.isCompleted)
    #expect(end.layers.first?.id == context.toID)
  }
}
