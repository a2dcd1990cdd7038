import Segue
import Testing

/// The README's example, kept compiling and checked: UIKit's default push at 0.1 s, and the same
/// transition driven by a swipe.
@Suite("README example")
struct ReadmeExampleTests {
  /// At 0.1 s the curve-7 spring (critically damped, ω0 = √(1000/3) ≈ 18.2574 rad/s) is at
  /// x = 1 − e^(−1.82574)(1 + 1.82574) = 0.544778 (by hand), so **to**'s
  /// frame x is W·(1 − x) = 390·0.455222 = 177.54 points.
  @Test func readmeExample() throws {
    let animator = PresetAnimator(.system)
    let context = try animator.defaultContext(operation: .push, content: .bare)
    let scene = try animator.animateTransition(using: context)
    let sample = try scene.sample(at: 0.1)
    #expect(sample.layers.map(\.id) == ["from", "dimming", "to"])
    let to = try #require(sample["to"])
    #expect(abs(to.corners[0].point.x - 177.54) < 0.01)

    var swipe = try InteractionTimeline(duration: scene.duration)
    try swipe.append(.update(time: 0.10, percent: 0.4))
    try swipe.append(.finish(time: 0.25))
    let moment = try scene.sample(at: 0.3, interaction: swipe)
    #expect(moment.progress > 0.4 && moment.progress < 1 && !moment.isCompleted)
  }
}
