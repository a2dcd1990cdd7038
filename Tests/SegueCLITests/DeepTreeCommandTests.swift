import Segue
import Testing

@testable import segue

/// The command line's own walk of a parent chain 100 000 layers deep, linear in the tree size:
/// the overflow check's search for the overflowing layer nearest the root (every layer's depth
/// from one pass). Walking the ancestors of every layer instead costs about 5·10⁹ steps here.
@Suite("Deep layer trees in the command line")
struct DeepTreeCommandTests {
  static let depth = 100_000

  /// `l0` … `lN−1`, each the sublayer of the one before, with `masksToBounds` on every other layer
  /// and the given transform.
  static func chain(transform: Transform3D = .identity) throws -> LayerTree {
    var tree = LayerTree()
    for i in 0..<depth {
      try tree.add(
        Layer(
          id: "l\(i)", bounds: Rect(x: 0, y: 0, width: 10, height: 10), transform: transform,
          masksToBounds: i % 2 == 0),
        parent: i == 0 ? nil : "l\(i - 1)")
    }
    return tree
  }

  /// Each layer scales by 10: the matrices overflow from about the 309th level on, and the check
  /// names the first overflowing layer (nearest the root), found among ~99 700 overflowing ones.
  @Test(.timeLimit(.minutes(1)))
  func overflowCheckNamesTheShallowestLayer() throws {
    let scene = try TransitionScene(
      duration: 1, containerSize: Size(width: 20, height: 20),
      model: try Self.chain(transform: .makeScale(x: 10, y: 10, z: 1)),
      animations: AnimationSet())
    let transition = LoadedTransition(scene: scene)
    let sample = try transition.sample(at: 0)
    let overflowing = sample.layers.filter { !$0.matrix.hasFiniteFields }
    try #require(overflowing.count > Self.depth - 400)
    let first = try #require(sample.layers.firstIndex { !$0.matrix.hasFiniteFields })
    do {
      try transition.checkFinite(sample, index: 0)
      Issue.record("no overflow reported")
    } catch {
      #expect(error.message.contains("layer '\(sample.layers[first].id)'"), "\(error.message)")
    }
  }
}
