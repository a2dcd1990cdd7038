import PropertyBased
import Segue
import SegueSpec
import Testing

/// `decode(encode(scene))` samples exactly as `scene`, through the JSON text (serialize, parse).
@Suite("Spec round trip")
struct SpecRoundTripTests {
  private func roundTrip(_ scene: TransitionScene, interaction: InteractionTimeline? = nil)
    throws -> SpecDocument
  {
    let text = SpecFile.encode(scene: scene, interaction: interaction).serialized(pretty: true)
    return try loadSpec(text)
  }

  @Test(arguments: TransitionPreset.allCases, [TransitionOperation.push, .pop])
  func presetRoundTrips(preset: TransitionPreset, operation: TransitionOperation) throws {
    let scene = try SpecTestSupport.presetScene(preset, operation)
    let document = try roundTrip(scene)
    try SpecTestSupport.expectSameSamples(document.scene, scene, "\(preset) \(operation)")
    #expect(document.scene.model == scene.model)
    #expect(document.scene.events == scene.events)
    #expect(document.scene.finishChanges == scene.finishChanges)
    #expect(document.scene.cancelChanges == scene.cancelChanges)
    #expect(document.scene.blendModes == scene.blendModes)
    // Same animations per layer, in order (the set is grouped by layer in the file).
    for layer in scene.model.layers {
      let a = scene.animations.entries.filter { $0.layerID == layer.id }
      let b = document.scene.animations.entries.filter { $0.layerID == layer.id }
      #expect(a == b, "\(layer.id)")
    }
    // Encoding the decoded scene gives the same document (stable output).
    #expect(SpecFile.encode(scene: document.scene) == SpecFile.encode(scene: scene))
  }

  /// Retargeted scenes keep their additive animations (`"additive": true`), cubic and spring.
  @Test func retargetedScenesRoundTrip() throws {
    var scene = try SpecTestSupport.presetScene(.system, .push)
    let entry = try #require(
      scene.animations.entries.first {
        [.position, .opacity, .transform].contains($0.animation.property)
      })
    let property = entry.animation.property
    let model = try #require(scene.model[id: entry.layerID])
    let target: AnimationValue =
      switch property.value(in: model) {
      case .point(let p): .point(Point(x: p.x + 40, y: p.y - 30))
      case .transform(let m): .transform(m.translated(x: 40, y: -30, z: 0))
      default: .number(0.5)
      }
    try scene.retarget(property, of: entry.layerID, to: target, at: 0.1)
    try scene.retarget(
      property, of: entry.layerID, to: property.value(in: model), at: 0.2,
      timingParameters: .spring(try SpringTimingParameters(dampingRatio: 0.7)))
    let document = try roundTrip(scene)
    for layer in scene.model.layers {
      let a = scene.animations.entries.filter { $0.layerID == layer.id }
      let b = document.scene.animations.entries.filter { $0.layerID == layer.id }
      #expect(a == b, "\(layer.id)")
    }
    #expect(document.scene.animations.entries.filter(\.animation.isAdditive).count == 2)
    try SpecTestSupport.expectSameSamples(document.scene, scene, "retargeted system push")
  }

  @Test func interactionRoundTrips() throws {
    let scene = try SpecTestSupport.presetScene(.depth, .push)
    var timeline = try InteractionTimeline(
      duration: scene.duration, completionSpeed: 2,
      completionCurve: .cubicBezier(0.2, 0, 0.4, 1.3), wantsInteractiveStart: false)
    try timeline.append(.pause(time: 0.3))
    try timeline.append(.update(time: 0.5, percent: 0.4))
    try timeline.append(.update(time: 0.9, percent: 0.7))
    try timeline.append(.cancel(time: 1.2))
    let document = try roundTrip(scene, interaction: timeline)
    #expect(document.interaction == timeline)
    for t in [0, 0.2, 0.3, 0.6, 1.0, 1.3, 1.5, 3.0] {
      #expect(
        try document.sample(at: t) == scene.sample(at: t, interaction: timeline), "t = \(t)")
    }
    // Default times: 0 … completion. Cancel at 1.2 from p = 0.7: run 0.7·2/2 = 0.7 s, so 1.9.
    #expect(document.sampleTimes.count == 7)
    #expect(abs(document.sampleTimes.last! - 1.9) < 1e-12)
  }

  @Test func everyAnimationKindRoundTrips() throws {
    var b = SceneBuilder()
    try b.add(Layer(id: "root", bounds: Rect(x: 0, y: 0, width: 100, height: 50)))
    try b.add(
      Layer(
        id: "child", bounds: Rect(x: 1, y: 2, width: 30, height: 40),
        position: Point(x: 10, y: 20), anchorPoint: Point(x: 0.25, y: 1), anchorPointZ: 3,
        zPosition: -2, transform: .makeRotation(by: 0.3, x: 1, y: 2, z: 3),
        sublayerTransform: .makePerspective(distance: 700),
        opacity: 0.5, isTransformLayer: true,
        backgroundColor: try RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)),
      parent: "root")
    try b.animate(
      .backgroundColor, of: "child",
      keyframes: .colors(
        try KeyframeTrack(
          values: [.black, .white, .clear], keyTimes: [0, 0.3, 1], calculationMode: .cubic,
          timingFunctions: [.steps(try StepsEasing(steps: 3, position: .jumpBoth)), .easeOut],
          timingFunction: .linearPoints(try LinearEasing(outputs: [0, 0.7, 1])),
          tensionValues: [0.1, -0.2, 0.3], continuityValues: [0, 0.5, 0],
          biasValues: [-1, 0, 1])), duration: 0.7, timingParameters: .systemDefault)
    try b.animate(
      .transformComponent(.rotationZ), of: "child", to: .number(6.2), beginTime: 0.1, duration: 0.4,
      timingParameters: .springAnimation(
        try DampedSpring(
          mass: 2, stiffness: 300, damping: 40, initialVelocity: -1.5, allowsOverdamping: true)))
    try b.animate(
      .bounds, of: "root", to: .rect(Rect(x: 5, y: 5, width: 1, height: 2)), duration: 0.3,
      timingParameters: nil)
    try b.animate(
      .sublayerTransform, of: "root", to: .transform(.makeScale(x: 2, y: 3, z: 4)), duration: 0.3,
      timingParameters: .easeIn)
    b.at(0.2, .set(layerID: "root", property: .boundsSize, value: .size(Size(width: 7, height: 8))))
    b.at(0.25, .remove(layerID: "child"))
    b.finishChanges = [
      .set(layerID: "root", property: .anchorPoint, value: .point(Point(x: 0, y: 0)))
    ]
    b.cancelChanges = [.remove(layerID: "root")]
    b.blendModes = ["child": .add]
    var scene = try b.scene(duration: 0.8, containerSize: Size(width: 320, height: 480))
    var animations = AnimationSet()
    for entry in scene.animations.entries {
      var a = entry.animation
      a.timing.speed = 1.5
      a.timing.timeOffset = 0.05
      a.timing.repeatCount = entry.layerID == "root" ? .infinity : 1.5
      a.timing.autoreverses = true
      a.timing.fillMode = .both
      animations.add(a, to: entry.layerID)
    }
    scene.animations = animations
    let document = try roundTrip(scene)
    #expect(document.scene.animations.entries.count == 4)
    try SpecTestSupport.expectSameSamples(document.scene, scene, "all kinds")
    for layer in scene.model.layers {
      let a = scene.animations.entries.filter { $0.layerID == layer.id }
      let c = document.scene.animations.entries.filter { $0.layerID == layer.id }
      #expect(a == c, "\(layer.id)")
    }
    #expect(document.scene.model == scene.model)
  }

  /// Random two-layer scenes with a basic animation of random values and timing round-trip.
  @Test func randomScenesRoundTrip() async {
    await propertyCheck(
      count: 100,
      input: Gen.double(in: -1e6...1e6), Gen.double(in: 1e-3...10), Gen.double(in: 0...1),
      Gen.double(in: -3...3)
    ) { x, duration, fraction, angle in
      var b = SceneBuilder()
      try b.add(Layer(id: "a", bounds: Rect(x: 0, y: 0, width: x, height: 1 / duration)))
      try b.add(Layer(id: "b", position: Point(x: angle, y: fraction)), parent: "a")
      try b.animate(
        .transform, of: "b", to: .transform(.makeRotation(by: angle, x: fraction, y: 1, z: x)),
        beginTime: fraction * duration, duration: duration, timingParameters: .easeInEaseOut)
      try b.animate(
        .positionX, of: "a", to: .number(x * fraction), duration: duration / 3,
        timingParameters: .cubic(try .cubicBezier(fraction, angle, 1 - fraction, -angle)))
      let scene = try b.scene(duration: duration * 2, containerSize: Size(width: 100, height: 100))
      let document = try roundTrip(scene)
      try SpecTestSupport.expectSameSamples(document.scene, scene, "random")
    }
  }
}
