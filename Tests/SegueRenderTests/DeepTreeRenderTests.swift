import Segue
import SegueRender
import Testing

/// A parent chain 100 000 layers deep through the renderer's draw plan (the render lists every
/// output draws from), and 10 000 deep through the pixels and the SVG. Each step of the plan that
/// looks at a layer's ancestors (the cross-dissolve it belongs to, the clips of its masking
/// ancestors, whether a pending border's subtree has ended) reads what one pass over the tree
/// gathered, so a frame is linear in the tree size. Walking the ancestors of every layer instead
/// costs about 5·10⁹ steps at 100 000 levels (hours of a debug build, past the time limit).
@Suite("Deep layer trees")
struct DeepTreeRenderTests {
  static let depth = 100_000
  /// Each layer's own opacity; the deepest is drawn at `opacity^(depth − 1)` relative to the root.
  static let opacity = 0.999_99
  static let red = try! RGBAColor(red: 1, green: 0, blue: 0)

  /// `l0` (the root, blending "add": one cross-dissolve snapshot holds the whole chain) … `lN−1`,
  /// each a 10 × 10 square at its parent's centre with a border, masking its sublayers; the
  /// squares coincide, so every layer's clips are one square.
  static let scene = chain(depth: depth)

  static func chain(depth: Int) -> TransitionScene {
    var tree = LayerTree()
    for i in 0..<depth {
      let layer = Layer(
        id: "l\(i)", bounds: Rect(x: 0, y: 0, width: 10, height: 10),
        position: Point(x: i == 0 ? 10 : 5, y: i == 0 ? 10 : 5), opacity: opacity,
        backgroundColor: red, masksToBounds: true, borderWidth: 1)
      try! tree.add(layer, parent: i == 0 ? nil : "l\(i - 1)")
    }
    return try! TransitionScene(
      duration: 1, containerSize: Size(width: 20, height: 20), model: tree,
      animations: AnimationSet(), blendModes: ["l0": .add])
  }

  @Test(.timeLimit(.minutes(1)))
  func renderListsOfADeepChain() throws {
    let scene = Self.scene
    let sample = try scene.sample(at: 0.5)
    let items = try SceneRenderer(scale: 0.2).renderItems(
      for: sample, presentation: scene.presentation(at: 0.5))
    guard items.count == 1, case .crossDissolve(let snapshots) = items[0] else {
      Issue.record("expected one cross-dissolve, got \(items.count) items")
      return
    }
    try #require(snapshots.count == 1)
    let layers = snapshots[0].layers
    // Every layer's body in draw order, then the borders as their subtrees end, deepest first.
    try #require(layers.count == 2 * Self.depth)
    #expect(layers[0].parts.contains(.body) && layers[Self.depth - 1].parts.contains(.body))
    #expect(layers[Self.depth].parts == [.border] && layers[2 * Self.depth - 1].parts == [.border])
    #expect(layers[Self.depth].id == layers[Self.depth - 1].id && !layers[Self.depth].id.isEmpty)
    // The root draws unclipped at opacity 1 (relative to itself); the deepest layer is clipped
    // once (its ancestors' squares coincide) at the product of the opacities below the root.
    #expect(layers[0].clips.isEmpty && layers[0].opacity == 1)
    let deepest = layers[Self.depth - 1]
    #expect(deepest.clips.count == 1)
    let expected = Double.pow(Self.opacity, Double(Self.depth - 1))
    #expect(abs(deepest.opacity - expected) < 1e-9 * expected)
    #expect(abs(snapshots[0].weight - Self.opacity) < 1e-15)
  }

  @Test(.timeLimit(.minutes(1)))
  func pixelsAndSVGOfADeepChain() throws {
    let depth = 10_000
    let scene = Self.chain(depth: depth)
    // 4 × 4 pixels: the squares cover pixels 1…2 of each row and column (points 5…15).
    let image = try SceneRenderer(scale: 0.2).render(scene, at: 0.5)
    #expect(image.width == 4 && image.height == 4)
    let centre = image[1, 1]
    let corner = image[0, 0]
    #expect(centre != corner, "the chain drew nothing: \(centre)")
    let svg = try Filmstrip(renderer: SceneRenderer(scale: 0.2), captions: false).svg(
      scene, times: [0.5])
    #expect(svg.text.utf8.count > 100 * depth)
  }
}
