import Segue
import Testing

// Stand-ins for SwiftUI's `Color`, `Animation`, `Spring` and `NavigationStack` (SwiftUI does not
// exist on Linux). Declared at the top level of this test module, they are in scope in every file
// of it, as SwiftUI's are in a file that imports SwiftUI; a module's own declarations shadow
// imported ones. The module compiles only if Segue's names for its colour, layer animation, spring
// and navigation stack types are usable beside these unqualified: the rule of the article "Using
// Segue beside SwiftUI".

/// Stand-in for `SwiftUI.Color`.
struct Color: Equatable {
  var red: Double, green: Double, blue: Double
  static let red = Color(red: 1, green: 0, blue: 0)
}

/// Stand-in for `SwiftUI.Animation`.
struct Animation: Equatable {
  var duration: Double
  static func easeInOut(duration: Double) -> Animation { Animation(duration: duration) }
}

/// Stand-in for `SwiftUI.Spring` (which, like ``DampedSpring``, has `init(mass:stiffness:damping:)`).
struct Spring: Equatable {
  var mass: Double, stiffness: Double, damping: Double
  init(mass: Double = 1, stiffness: Double, damping: Double) {
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
  }
}

/// Stand-in for `SwiftUI.NavigationStack`.
struct NavigationStack<Root> {
  var root: Root
  init(root: () -> Root) { self.root = root() }
}

@Suite struct SwiftUINamesTests {
  /// The common SwiftUI spellings resolve to the module's (SwiftUI's) types, Segue's types beside
  /// them, all unqualified.
  @Test func swiftUINamesAndSegueNamesCoexistUnqualified() throws {
    let tint: Color = .red
    let layerColor = try RGBAColor(red: 1, green: 0.5, blue: 0)
    #expect(tint == Color(red: 1, green: 0, blue: 0))
    #expect(layerColor.green == 0.5 && layerColor.alpha == 1)

    let swiftUIAnimation = Animation.easeInOut(duration: 0.3)
    let layerAnimation = try LayerAnimation.basic(
      .opacity, from: .number(0), to: .number(1), duration: 0.3)
    #expect(swiftUIAnimation.duration == layerAnimation.timing.duration)

    let swiftUISpring = Spring(mass: 1, stiffness: 100, damping: 10)
    let dampedSpring = try DampedSpring(mass: 1, stiffness: 100, damping: 10)
    #expect(swiftUISpring.stiffness == dampedSpring.stiffness)

    let navigation = NavigationStack { "root" }
    let stack = NavigationControllerStack(root: "root")
    #expect(navigation.root == stack.rootViewController)
  }
}
