import Foundation
import Segue
import SegueSpec
import Testing

/// The appearance properties in spec files: `cornerRadius`, `masksToBounds`, `borderWidth`,
/// `borderColor`, `shadowOpacity`, `shadowRadius`, `shadowOffset`, `shadowColor` on layers, as
/// animation key paths and in events; round trips, the schema, and every rejection.
@Suite("Spec appearance properties")
struct SpecAppearanceTests {
  /// A layer with every appearance property set, animated by each animation kind.
  static func scene() throws -> TransitionScene {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "card", bounds: Rect(x: 0, y: 0, width: 200, height: 120),
        position: Point(x: 150, y: 200), backgroundColor: .white, cornerRadius: 12,
        masksToBounds: true, borderWidth: 2,
        borderColor: try RGBAColor(red: 0.2, green: 0.3, blue: 0.4),
        shadowOpacity: 0.4, shadowRadius: 8, shadowOffset: Size(width: 1, height: 4),
        shadowColor: try RGBAColor(red: 0, green: 0, blue: 0.5, alpha: 0.8)))
    try b.animate(
      .cornerRadius, of: "card", to: .number(30), duration: 0.5, timingParameters: .easeInEaseOut)
    try b.animate(
      .borderWidth, of: "card", keyframes: .numbers(try KeyframeTrack(values: [2, 6, 0])),
      duration: 0.6)
    try b.animate(
      .shadowOffset, of: "card", to: .size(Size(width: -3, height: 10)), duration: 0.4,
      timingParameters: .springAnimation(try DampedSpring(damping: 6)))
    try b.animate(
      .shadowColor, of: "card", to: .color(.white), duration: 0.3, timingParameters: nil)
    try b.animate(
      .borderColor, of: "card", to: .color(.clear), beginTime: 0.1, duration: 0.3,
      timingParameters: .easeIn)
    try b.animate(
      .shadowOpacity, of: "card", to: .number(1.4), duration: 0.2, timingParameters: .linear)
    try b.animate(.shadowRadius, of: "card", to: .number(-2), duration: 0.2, timingParameters: nil)
    b.at(0.3, .set(layerID: "card", property: .cornerRadius, value: .number(4)))
    b.finishChanges = [.set(layerID: "card", property: .shadowOpacity, value: .number(0))]
    return try b.scene(duration: 0.6, containerSize: Size(width: 300, height: 400))
  }

  @Test func roundTrips() throws {
    let scene = try Self.scene()
    let text = SpecFile.encode(scene: scene).serialized(pretty: true)
    let document = try loadSpec(text)
    #expect(document.scene.model == scene.model)
    #expect(document.scene.animations.entries == scene.animations.entries)
    #expect(document.scene.events == scene.events)
    try SpecTestSupport.expectSameSamples(document.scene, scene, "appearance")
    #expect(SpecFile.encode(scene: document.scene) == SpecFile.encode(scene: scene))
  }

  /// The encoded scene is valid against the schema.
  @Test(.enabled(if: SpecTestSupport.hasJSONSchema, SpecTestSupport.jsonSchemaHint))
  func encodedSceneValidates() throws {
    let text = SpecFile.encode(scene: try Self.scene()).serialized(pretty: true)
    let report = try SpecTestSupport.schemaReport([text])
    #expect(report.hasSuffix("OK\n"), "\(report)")
  }

  /// Defaults are not written, so a plain layer's JSON has none of the new keys; what is written
  /// has CA's names and kinds.
  @Test func encodesOnlyWhatDiffersFromTheDefaults() throws {
    var b = SceneBuilder()
    try b.add(Layer(id: "plain"))
    try b.add(
      Layer(id: "styled", cornerRadius: 3, masksToBounds: true, shadowOffset: .zero))
    let scene = try b.scene(duration: 1, containerSize: Size(width: 1, height: 1))
    let text = SpecFile.encode(scene: scene).serialized(pretty: false)
    for key in ["borderWidth", "borderColor", "shadowOpacity", "shadowRadius", "shadowColor"] {
      #expect(!text.contains(key), "\(key)")
    }
    #expect(text.contains(#""cornerRadius":3"#))
    #expect(text.contains(#""masksToBounds":true"#))
    #expect(text.contains(#""shadowOffset":[0,0]"#))
  }

  /// Decoded by hand: the defaults are Core Animation's, and the sampled values are presented
  /// (negative radii and widths as 0, shadow opacity clamped to [0, 1]).
  @Test func decodesAndSamples() throws {
    let text = #"""
      {"version": 1, "duration": 1, "layers": [
        {"id": "a", "bounds": [0, 0, 10, 10]},
        {"id": "b", "cornerRadius": -4, "borderWidth": 1.5, "borderColor": [1, 0, 0, 1],
         "shadowOpacity": 2, "shadowRadius": -1, "shadowOffset": [2, 3],
         "shadowColor": [0, 1, 0, 0.5], "masksToBounds": true}
      ]}
      """#
    let document = try loadSpec(text)
    let a = try #require(document.scene.model[id: "a"])
    #expect(a.cornerRadius == 0 && !a.masksToBounds && a.borderWidth == 0)
    #expect(a.borderColor == .black && a.shadowColor == .black)
    #expect(a.shadowOpacity == 0 && a.shadowRadius == 3)
    #expect(a.shadowOffset == Size(width: 0, height: -3))
    let b = try #require(try document.sample(at: 0)["b"])
    #expect(b.cornerRadius == 0 && b.masksToBounds && b.borderWidth == 1.5)
    #expect(b.borderColor == (try RGBAColor(red: 1, green: 0, blue: 0)))
    #expect(b.shadowOpacity == 1 && b.shadowRadius == 0)
    #expect(b.shadowOffset == Size(width: 2, height: 3))
    #expect(b.shadowColor == (try RGBAColor(red: 0, green: 1, blue: 0, alpha: 0.5)))
    #expect(document.scene.model[id: "b"]!.cornerRadius == -4)
  }

  // MARK: Rejections

  private func layer(_ body: String) -> String {
    SpecRejectionTests.doc(layers: #"{"id": "a", "# + body + "}")
  }

  @Test(arguments: ["cornerRadius", "borderWidth", "shadowOpacity", "shadowRadius"])
  func numberFieldsRejectOtherTypes(key: String) {
    expectError(
      layer(#"""# + key + #"": "4""#), path: "$.layers[0].\(key)", "expected a number")
  }

  @Test(arguments: ["borderColor", "shadowColor"])
  func colourFieldsNeedFourNumbers(key: String) {
    expectError(layer(#"""# + key + #"": [1, 0, 0]"#), path: "$.layers[0].\(key)", "3")
  }

  @Test func shadowOffsetNeedsTwoNumbers() {
    expectError(
      layer(#""shadowOffset": [1, 2, 3]"#), path: "$.layers[0].shadowOffset",
      "found an array of 3")
  }

  @Test func masksToBoundsIsABoolean() {
    expectError(layer(#""masksToBounds": 1"#), path: "$.layers[0].masksToBounds", "boolean")
  }

  /// `masksToBounds` and `maskedCorners` do not animate: an animation of them is refused on its
  /// key path; in events they hold a boolean and a corner list.
  @Test func modelOnlyPropertiesAreNotAnimatable() {
    expectError(
      SpecRejectionTests.anim(#"{"keyPath": "masksToBounds", "type": "basic", "toValue": 1}"#),
      path: "$.layers[0].animations[0].keyPath", "masksToBounds is not animatable")
    expectError(
      SpecRejectionTests.anim(
        #"{"keyPath": "maskedCorners", "type": "basic", "toValue": ["layerMinXMinYCorner"]}"#),
      path: "$.layers[0].animations[0].keyPath", "maskedCorners is not animatable")
    expectError(
      SpecRejectionTests.doc(
        extra: #", "events": [{"time": 0, "layer": "a", "keyPath": "masksToBounds", "value": 1}]"#),
      path: "$.events[0].value", "boolean")
  }

  /// `maskedCorners` is a list of `CACornerMask` names, each once.
  @Test func maskedCornersRejections() {
    expectError(
      layer(#""maskedCorners": ["layerMinXMinYCorner", "topLeft"]"#),
      path: "$.layers[0].maskedCorners[1]", "unknown corner 'topLeft'")
    expectError(
      layer(#""maskedCorners": ["layerMaxXMaxYCorner", "layerMaxXMaxYCorner"]"#),
      path: "$.layers[0].maskedCorners[1]", "listed twice")
    expectError(layer(#""maskedCorners": 3"#), path: "$.layers[0].maskedCorners", "array")
  }

  /// `clipsToBounds` and `maskedCorners` change at any time through events and completion
  /// changes, and round-trip with the layer's own `maskedCorners`.
  @Test func modelOnlyPropertiesInEventsRoundTrip() throws {
    var b = SceneBuilder()
    try b.add(Layer(id: "card", maskedCorners: [.layerMinXMinYCorner, .layerMaxXMinYCorner]))
    b.at(0.25, .set(layerID: "card", property: .masksToBounds, value: .boolean(true)))
    b.at(0.5, .set(layerID: "card", property: .maskedCorners, value: .cornerMask([])))
    b.finishChanges = [.set(layerID: "card", property: .maskedCorners, value: .cornerMask(.all))]
    let scene = try b.scene(duration: 1, containerSize: Size(width: 10, height: 10))
    let text = SpecFile.encode(scene: scene).serialized(pretty: false)
    #expect(text.contains(#""maskedCorners":["layerMinXMinYCorner","layerMaxXMinYCorner"]"#))
    let document = try loadSpec(text)
    #expect(document.scene.model == scene.model)
    #expect(document.scene.events == scene.events)
    #expect(document.scene.finishChanges == scene.finishChanges)
    let early = try document.scene.sample(at: 0.1)["card"]!
    #expect(!early.masksToBounds && early.maskedCorners.names.count == 2)
    let late = try document.scene.sample(at: 0.75)["card"]!
    #expect(late.masksToBounds && late.maskedCorners == [])
    let report = try SpecTestSupport.schemaReport([text])
    #expect(report.hasSuffix("OK\n"), "\(report)")
  }

  @Test func animationValuesHaveTheKeyPathsKind() {
    expectError(
      SpecRejectionTests.anim(#"{"keyPath": "shadowOffset", "type": "basic", "toValue": 3}"#),
      path: "$.layers[0].animations[0].toValue", "expected")
    expectError(
      SpecRejectionTests.anim(
        #"{"keyPath": "borderColor", "type": "keyframe", "values": [[0, 0, 0, 1], [1, 1]]}"#),
      path: "$.layers[0].animations[0].values[1]", "found an array of 2")
    expectError(
      SpecRejectionTests.doc(
        extra: #", "finish": [{"layer": "a", "keyPath": "cornerRadius", "value": [1, 2]}]"#),
      path: "$.finish[0].value", "expected a number")
  }

  /// The schema accepts the new layer keys and key paths and rejects a wrong shape.
  @Test(.enabled(if: SpecTestSupport.hasJSONSchema, SpecTestSupport.jsonSchemaHint))
  func schemaKnowsTheNewKeys() throws {
    let good = layer(
      #""cornerRadius": 4, "masksToBounds": true, "borderWidth": 1, "borderColor": [0, 0, 0, 1], "shadowOpacity": 0.5, "shadowRadius": 2, "shadowOffset": [0, 2], "shadowColor": [0, 0, 0, 1], "animations": [{"keyPath": "shadowOffset", "type": "basic", "toValue": [1, 1]}]"#
    )
    #expect(throws: Never.self) { try loadSpec(good) }
    let report = try SpecTestSupport.schemaReport([good])
    #expect(report.hasSuffix("OK\n"), "\(report)")
    let bad = layer(#""shadowOffset": [1]"#)
    let badReport = try SpecTestSupport.schemaReport([bad])
    #expect(badReport.hasSuffix("FAIL\n"), "\(badReport)")
  }
}
