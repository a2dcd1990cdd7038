import Segue
import Testing

/// `LayerSample`'s appearance fields: the presented `backgroundColor`, `cornerRadius`,
/// `masksToBounds`, border and shadow, animated by basic, keyframe and spring animations, and
/// clamped as presented.
@Suite("TransitionSample appearance")
struct TransitionSampleAppearanceTests {
  static let red = try! RGBAColor(red: 1, green: 0, blue: 0)
  static let blue = try! RGBAColor(red: 0, green: 0, blue: 1)

  /// A 100 × 100 card: corner radius 0 → 20 (linear over 1 s), border width keyframes
  /// [0, 4, 2] at [0, 0.5, 1], border colour red → blue (linear), shadow offset (0, 0) → (10, 20)
  /// on a spring, shadow opacity → 0.5 from 0.1 s over 0.4 s, masksToBounds set.
  static func scene(spring: DampedSpring) throws -> TransitionScene {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 100),
        position: Point(x: 50, y: 50), masksToBounds: true, borderColor: red,
        shadowOffset: .zero))
    try b.animate(.cornerRadius, of: "card", to: .number(20), duration: 1, timingParameters: nil)
    try b.animate(
      .borderWidth, of: "card",
      keyframes: .numbers(try KeyframeTrack(values: [0, 4, 2], keyTimes: [0, 0.5, 1])),
      duration: 1)
    try b.animate(.borderColor, of: "card", to: .color(blue), duration: 1, timingParameters: nil)
    try b.animate(
      .shadowOffset, of: "card", to: .size(Size(width: 10, height: 20)), duration: 1,
      timingParameters: .springAnimation(spring))
    try b.animate(
      .shadowOpacity, of: "card", to: .number(0.5), beginTime: 0.1, duration: 0.4,
      timingParameters: nil)
    return try b.scene(duration: 1, containerSize: Size(width: 100, height: 100))
  }

  /// By hand at t = 0.25: radius 5, border width 4·0.5 = 2, colour (0.75, 0, 0.25, 1), shadow
  /// offset (10, 20)·x(0.25) with the spring's closed form, shadow opacity 0.5·(0.15/0.4).
  @Test func animatedValues() throws {
    let spring = try DampedSpring(mass: 1, stiffness: 100, damping: 20)  // ζ = 1, ω0 = 10
    let scene = try Self.scene(spring: spring)
    let card = try #require(try scene.sample(at: 0.25)["card"])
    #expect(card.cornerRadius == 5)
    #expect(card.borderWidth == 2)
    #expect(card.borderColor == (try RGBAColor(red: 0.75, green: 0, blue: 0.25)))
    let x = 1 - (1 + 10 * 0.25) * Double.exp(-2.5)  // critical, v0 = 0
    #expect(abs(card.shadowOffset.width - 10 * x) <= 1e-12)
    #expect(abs(card.shadowOffset.height - 20 * x) <= 1e-12)
    #expect(abs(card.shadowOpacity - 0.5 * 0.15 / 0.4) <= 1e-15)
    #expect(card.masksToBounds)
    #expect(card.shadowRadius == 3 && card.shadowColor == .black)
    #expect(card.backgroundColor == .clear)
    let end = try #require(try scene.sample(at: 1)["card"])
    #expect(end.cornerRadius == 20 && end.borderWidth == 2 && end.borderColor == Self.blue)
    #expect(end.shadowOffset == Size(width: 10, height: 20) && end.shadowOpacity == 0.5)
  }

  /// Presented values are clamped: an underdamped spring taking the corner radius 10 → 0
  /// overshoots below 0, presented as 0; shadow opacity beyond 1 is presented as 1; negative
  /// border widths and shadow radii as 0.
  @Test func presentedValuesAreClamped() throws {
    var b = SceneBuilder()
    try b.add(
      Layer(id: "v", cornerRadius: 10, borderWidth: -1, shadowOpacity: 3, shadowRadius: -2))
    try b.animate(
      .cornerRadius, of: "v", to: .number(0), duration: 1,
      timingParameters: .springAnimation(try DampedSpring(mass: 1, stiffness: 400, damping: 4)))
    let scene = try b.scene(duration: 1, containerSize: Size(width: 1, height: 1))
    var sawOvershoot = false
    for i in 1..<100 {
      let t = Double(i) / 100
      let v = try #require(try scene.sample(at: t)["v"])
      #expect(v.cornerRadius >= 0)
      #expect(v.borderWidth == 0 && v.shadowRadius == 0 && v.shadowOpacity == 1)
      guard
        case .number(let raw) = LayerProperty.cornerRadius.value(
          in: scene.presentation(at: t)[id: "v"]!)
      else { continue }
      if raw < 0 {
        sawOvershoot = true
        #expect(v.cornerRadius == 0)
      }
    }
    #expect(sawOvershoot)
  }
}
