import Segue
import Testing

/// The ten presets keep their draw order: at every sampled moment, push and pop, the depth order
/// is the plain one (siblings by zPosition, then insertion, depth first) with no pieces — their
/// zPositions agree with their depths.
@Suite("Depth order of the presets")
struct DepthOrderPresetTests {
  /// The order without depth sorting: a depth-first walk, each layer before its sublayers,
  /// siblings by (zPosition, insertion).
  static func plainOrder(_ tree: LayerTree) throws -> [Int] {
    var children = [[Int]](repeating: [], count: tree.count + 1)
    for i in 0..<tree.count { children[try tree.parentIndex(at: i) ?? tree.count].append(i) }
    let sorted = { (list: [Int]) in
      list.sorted { (tree.layers[$0].zPosition, $0) < (tree.layers[$1].zPosition, $1) }
    }
    var order: [Int] = []
    var stack = Array(sorted(children[tree.count]).reversed())
    while let next = stack.popLast() {
      order.append(next)
      stack += sorted(children[next]).reversed()
    }
    return order
  }

  @Test(arguments: TransitionPreset.allCases, [TransitionOperation.push, .pop])
  func presetsKeepThePlainOrder(preset: TransitionPreset, operation: TransitionOperation) throws {
    let animator = PresetAnimator(preset)
    let scene = try animator.animateTransition(
      using: animator.defaultContext(operation: operation))
    for k in 0...24 {
      let t = scene.duration * Double(k) / 20
      let tree = scene.presentation(at: t, completion: t >= scene.duration ? .finished : nil)
      let steps = tree.drawOrder()
      #expect(steps.map(\.layer) == (try Self.plainOrder(tree)), "\(preset) \(operation) t=\(t)")
      #expect(steps.allSatisfy { $0.region.isWholePlane })
      let sample = try scene.sample(at: t)
      #expect(sample.layers.allSatisfy { $0.pieces.isEmpty })
    }
  }
}
