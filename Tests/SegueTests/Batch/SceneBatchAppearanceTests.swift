import Segue
import Testing

/// `SceneBatch` computes matrices, opacities, corners and presence: the appearance properties
/// change none of them. Their static values are ignored (a scene with them batches exactly as
/// without); animations and changes of them are rejected with a typed error naming the key path,
/// as for the other properties the batch does not write.
@Suite("SceneBatch and appearance properties")
struct SceneBatchAppearanceTests {
  static func scene(styled: Bool) throws -> TransitionScene {
    var b = SceneBuilder()
    var layer = Layer(
      id: "card", bounds: Rect(x: 0, y: 0, width: 100, height: 60), position: Point(x: 50, y: 30))
    if styled {
      layer.cornerRadius = 12
      layer.masksToBounds = true
      layer.borderWidth = 3
      layer.shadowOpacity = 0.5
      layer.shadowOffset = Size(width: 2, height: 5)
    }
    try b.add(layer)
    try b.animate(.positionX, of: "card", to: .number(250), duration: 1, timingParameters: .easeIn)
    return try b.scene(duration: 1, containerSize: Size(width: 300, height: 100))
  }

  @Test func staticValuesAreIgnored() throws {
    let times = [0, 0.3, 0.7, 1]
    let styled = try SceneBatch([
      .init(scene: try Self.scene(styled: true), clock: .timed(start: 0, speed: 1))
    ])
    let plain = try SceneBatch([
      .init(scene: try Self.scene(styled: false), clock: .timed(start: 0, speed: 1))
    ])
    let a = try SceneBatchTests.evaluate(styled, at: times)
    let b = try SceneBatchTests.evaluate(plain, at: times)
    #expect(a.matrices == b.matrices && a.opacities == b.opacities)
    #expect(a.corners == b.corners && a.presence == b.presence)
  }

  @Test(arguments: [
    LayerProperty.cornerRadius, .borderWidth, .shadowOpacity, .shadowRadius,
  ])
  func animationsAreRejected(property: LayerProperty) throws {
    var b = SceneBuilder()
    try b.add(Layer(id: "card"))
    try b.animate(property, of: "card", to: .number(1), duration: 1, timingParameters: nil)
    let scene = try b.scene(duration: 1, containerSize: Size(width: 1, height: 1))
    #expect(
      throws: ValidationError(
        field: "instances", index: 0,
        reason: .invalidState("card: animations of \(property.keyPath) are not supported"))
    ) { try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))]) }
  }

  @Test func changesAreRejected() throws {
    var b = SceneBuilder()
    try b.add(Layer(id: "card"))
    b.at(0.5, .set(layerID: "card", property: .shadowColor, value: .color(.white)))
    let scene = try b.scene(duration: 1, containerSize: Size(width: 1, height: 1))
    #expect(
      throws: ValidationError(
        field: "instances", index: 0,
        reason: .invalidState("card: changes of shadowColor are not supported"))
    ) { try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))]) }
  }
}
