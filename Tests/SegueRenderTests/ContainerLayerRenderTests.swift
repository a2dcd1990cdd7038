import Segue
import SegueRender
import Testing

/// `containerView.layer.sublayerTransform` in pixels: both rasterisers draw the container's
/// perspective exactly as a full-container stage layer's.
@Suite("Container layer in pixels")
struct ContainerLayerRenderTests {
  /// The depth-order X (two crossing layers) with the perspective on the container instead of a
  /// stage layer: the same image, pixel for pixel, from both rasterisers.
  @Test func containerPerspectiveDrawsAsAStage() throws {
    let staged = try DepthOrderRenderTests.crossing()
    var tree = LayerTree()
    for id in ["a", "b"] {
      try tree.add(staged.model[id: id]!)
    }
    try tree.setContainer(ContainerLayer(sublayerTransform: .makePerspective(distance: 500)))
    let scene = try TransitionScene(
      duration: 1, containerSize: staged.containerSize, model: tree, animations: AnimationSet())
    let renderer = SceneRenderer(scale: 0.5)
    let expected = try renderer.render(staged, at: 0)
    let fast = try renderer.render(scene, at: 0)
    let reference = try renderer.referenceRender(
      try scene.sample(at: 0), presentation: scene.presentation(at: 0),
      containerSize: scene.containerSize)
    #expect(fast.components == expected.components)
    #expect(maxChannelDifference(fast, reference) <= 2)
    #expect(DepthOrderRenderTests.pixel(fast, 75, 100) == [255, 0, 0, 255])
    #expect(DepthOrderRenderTests.pixel(fast, 125, 100) == [0, 0, 255, 255])
  }

  /// The SVG filmstrip draws each layer through its sampled corners, so the container's
  /// perspective moves them as the stage's does.
  @Test func filmstripFollowsTheContainer() throws {
    let staged = try DepthOrderRenderTests.crossing()
    var tree = LayerTree()
    for id in ["a", "b"] { try tree.add(staged.model[id: id]!) }
    try tree.setContainer(ContainerLayer(sublayerTransform: .makePerspective(distance: 500)))
    let scene = try TransitionScene(
      duration: 1, containerSize: staged.containerSize, model: tree, animations: AnimationSet())
    let strip = Filmstrip(renderer: SceneRenderer(scale: 0.5))
    #expect(try strip.svg(scene, times: [0]) == strip.svg(staged, times: [0]))
  }
}
