import Testing

@testable import Segue

/// The presets' default views: iOS screens built around the layers the presets animate, which
/// keep the ids, frames and opacities of the bare views.
@Suite("Default views")
struct DefaultViewsTests {
  static let container = Size(width: 390, height: 844)

  /// Every layer of `tree` with its id, bounds, position and opacity.
  static func geometry(_ tree: LayerTree) -> [String: [Double]] {
    var result: [String: [Double]] = [:]
    for layer in tree.layers {
      result[layer.id] = [
        layer.bounds.width, layer.bounds.height, layer.position.x, layer.position.y,
        layer.opacity,
      ]
    }
    return result
  }

  @Test(arguments: TransitionPreset.allCases, [TransitionOperation.push, .pop])
  func screensKeepTheBareLayers(_ preset: TransitionPreset, _ operation: TransitionOperation)
    throws
  {
    let animator = PresetAnimator(preset)
    let bare = try animator.defaultViews(
      operation: operation, containerSize: Self.container, content: .bare)
    let screens = try animator.defaultViews(operation: operation, containerSize: Self.container)
    for (b, s) in [(bare.from, screens.from), (bare.to, screens.to)] {
      let g = Self.geometry(s)
      for (id, values) in Self.geometry(b) {
        #expect(g[id] == values, "\(preset) \(operation) \(id)")
      }
      #expect(s.count > b.count + 10, "\(preset) \(operation): \(s.count) layers")
      #expect(s.layers.contains { if case .text = $0.kind { true } else { false } })
      #expect(s.layers.contains { if case .shape = $0.kind { true } else { false } })
    }
  }

  /// Bare views hold only the animated layers: one per view, or hero's named sublayers.
  @Test func bareViewsHoldOnlyTheAnimatedLayers() throws {
    let system = try PresetAnimator(.system).defaultViews(
      operation: .push, containerSize: Self.container, content: .bare)
    #expect(system.from.layers.map(\.id) == ["from"])
    #expect(system.to.layers.map(\.id) == ["to"])
    #expect(system.from.layers[0].backgroundColor == DefaultViews.bareFromColor)
    let hero = try PresetAnimator(.hero).defaultViews(
      operation: .push, containerSize: Self.container, content: .bare)
    #expect(hero.from.layers.map(\.id) == ["from", "title", "table"])
    #expect(
      hero.to.layers.map(\.id) == ["to", "header", "back"] + (0..<5).map { "cell\($0)" })
  }

  /// The screens' texts: the large title being left, the inline title and back button shown.
  @Test func pushLeavesTheLargeTitleForTheDetailScreen() throws {
    let views = try PresetAnimator(.system).defaultViews(
      operation: .push, containerSize: Self.container)
    func strings(_ tree: LayerTree) -> [String: String] {
      var result: [String: String] = [:]
      for layer in tree.layers {
        if case .text(let t) = layer.kind { result[layer.id] = t.string }
      }
      return result
    }
    let from = strings(views.from)
    let to = strings(views.to)
    #expect(from["from.time"] == "9:41")
    #expect(from["from.largeTitle"] == "Settings")
    #expect(to["to.title"] == "General")
    #expect(to["to.backTitle"] == "Settings")
    #expect(
      views.to[id: "to.backChevron"].map { if case .shape = $0.kind { true } else { false } }
        == true)
    #expect(views.from[id: "from"]?.backgroundColor == SystemColor.systemGroupedBackground)
    // Pop swaps them: the detail screen is left.
    let pop = try PresetAnimator(.system).defaultViews(
      operation: .pop, containerSize: Self.container)
    #expect(strings(pop.from)["from.title"] == "General")
  }

  /// Every sublayer lies inside its superlayer (except the animated ones, which the presets
  /// place), and a container too small for the chrome gets none of it.
  @Test(arguments: [Size(width: 390, height: 844), Size(width: 60, height: 40)])
  func chromeStaysInsideTheView(_ size: Size) throws {
    let views = try PresetAnimator(.depth).defaultViews(operation: .push, containerSize: size)
    for tree in [views.from, views.to] {
      for (index, layer) in tree.layers.enumerated() {
        guard let parent = try tree.parentIndex(at: index) else { continue }
        let p = tree.layers[parent].bounds
        let minX = layer.position.x - layer.bounds.width / 2
        let minY = layer.position.y - layer.bounds.height / 2
        #expect(minX >= -0.01 && minY >= -0.01, "\(layer.id)")
        #expect(minX + layer.bounds.width <= p.width + 0.01, "\(layer.id)")
        #expect(minY + layer.bounds.height <= p.height + 0.01, "\(layer.id)")
      }
    }
    if size.width < 100 {
      #expect(views.from.count == 1 && views.to.count == 1)
    }
  }

  /// Hero: the flying image is a snapshot of the post's header (its gradient photo), and the
  /// tapped card shows the same photo.
  @Test func heroImageIsTheHeadersPhoto() throws {
    let animator = PresetAnimator(.hero)
    let context = try animator.defaultContext(operation: .push)
    let scene = try animator.animateTransition(using: context)
    let image = scene.model[id: "image"]
    let header = context.toView[id: "header"]
    #expect(image?.kind == header?.kind)
    guard case .gradient(let photo) = header?.kind else {
      Issue.record("the header is not a gradient layer")
      return
    }
    #expect(context.fromView[id: "table.row2"]?.kind == .gradient(photo))
    #expect(photo.colors.count == photo.effectiveLocations.count)
  }

  /// UIKit's light-appearance values, 8-bit sRGB.
  @Test func systemColoursAreUIKits() {
    #expect(SystemColor.systemBlue == RGBAColor(clamping: 0, 122 / 255, 1, 1))
    #expect(
      SystemColor.systemGroupedBackground == RGBAColor(clamping: 242 / 255, 242 / 255, 247 / 255, 1)
    )
    #expect(SystemColor.separator == RGBAColor(clamping: 60 / 255, 60 / 255, 67 / 255, 0.29))
  }
}
