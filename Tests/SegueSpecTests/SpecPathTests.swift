import Foundation
import Segue
import SegueSpec
import Testing

/// Keyframe animations along a `path` in spec files: every element kind, `rotationMode`,
/// `keyTimes` per vertex, round trips, the schema, and every rejection.
@Suite("Spec keyframe paths")
struct SpecPathTests {
  static func scene() throws -> TransitionScene {
    var b = SceneBuilder()
    try b.add(Layer(id: "icon", bounds: Rect(x: 0, y: 0, width: 20, height: 20)))
    let path = try BezierPath(elements: [
      .move(to: Point(x: 10, y: 10)), .line(to: Point(x: 60, y: 10)),
      .quadCurve(to: Point(x: 100, y: 50), control: Point(x: 100, y: 10)),
      .curve(
        to: Point(x: 40, y: 90), control1: Point(x: 100, y: 90), control2: Point(x: 60, y: 90)),
      .closeSubpath, .move(to: Point(x: 0, y: 0)), .line(to: Point(x: 5, y: 5)),
    ])
    try b.animate(
      .position, of: "icon",
      path: try KeyframePathTrack(
        path: path, keyTimes: [0, 0.1, 0.3, 0.5, 0.8, 0.9, 1],
        timingFunctions: [.easeIn, .linear, .easeOut, .linear, .linear, .easeInEaseOut],
        rotationMode: .rotateAutoReverse), duration: 2, timingParameters: .easeInEaseOut)
    try b.animate(
      .anchorPoint, of: "icon",
      path: try KeyframePathTrack(
        path: try BezierPath(elements: [.move(to: .zero), .line(to: Point(x: 1, y: 1))]),
        calculationMode: .paced), duration: 1)
    return try b.scene(duration: 2, containerSize: Size(width: 120, height: 120))
  }

  @Test func roundTrips() throws {
    let scene = try Self.scene()
    let text = SpecFile.encode(scene: scene).serialized(pretty: true)
    let document = try loadSpec(text)
    #expect(document.scene.animations.entries == scene.animations.entries)
    #expect(document.scene.model == scene.model)
    try SpecTestSupport.expectSameSamples(document.scene, scene, "path")
  }

  /// The encoded scene is valid against the schema.
  @Test(.enabled(if: SpecTestSupport.hasJSONSchema, SpecTestSupport.jsonSchemaHint))
  func encodedSceneValidates() throws {
    let text = SpecFile.encode(scene: try Self.scene()).serialized(pretty: true)
    let report = try SpecTestSupport.schemaReport([text])
    #expect(report.hasSuffix("OK\n"), "\(report)")
  }

  /// By hand: a paced line from (0, 0) to (100, 0) with rotateAuto, over 1 s, linear: at 0.25 s
  /// the layer is at (25, 0), facing right (angle 0); written with CA's constant name.
  @Test func decodesByHand() throws {
    let text = #"""
      {"version": 1, "duration": 1, "layers": [{"id": "a", "bounds": [0, 0, 10, 10],
        "animations": [{"keyPath": "position", "type": "keyframe", "duration": 1,
          "calculationMode": "paced", "rotationMode": "kCAAnimationRotateAuto",
          "path": [{"move": [0, 0]}, {"line": [100, 0]}]}]}]}
      """#
    let document = try loadSpec(text)
    let a = try #require(try document.sample(at: 0.25)["a"])
    #expect(a.matrix.m41 == 20 && a.matrix.m42 == -5)
    #expect(a.matrix.m11 == 1 && a.matrix.m12 == 0)
  }

  // MARK: Rejections

  private func anim(_ body: String) -> String {
    SpecRejectionTests.anim(
      #"{"keyPath": "position", "type": "keyframe", "duration": 1, "# + body + "}")
  }

  @Test func elementWithTwoKeys() {
    expectError(
      anim(#""path": [{"move": [0, 0], "line": [1, 1]}]"#),
      path: "$.layers[0].animations[0].path[0]", "exactly one of move, line")
  }

  @Test func unknownElement() {
    expectError(
      anim(#""path": [{"arc": [0, 0]}]"#), path: "$.layers[0].animations[0].path[0].arc",
      "unknown key 'arc'")
  }

  @Test func lineBeforeMove() {
    expectError(
      anim(#""path": [{"line": [1, 1]}]"#), path: "$.layers[0].animations[0].path[0]",
      "needs a current point")
  }

  @Test func badPoints() {
    expectError(
      anim(#""path": [{"move": [0]}]"#), path: "$.layers[0].animations[0].path[0].move",
      "found an array of 1")
    expectError(
      anim(#""path": [{"move": [0, 0]}, {"quadCurve": {"to": [1, 1]}}]"#),
      path: "$.layers[0].animations[0].path[1].quadCurve", "missing required key 'control'")
    expectError(
      anim(#""path": [{"move": [0, 0]}, {"curve": {"to": [1, 1], "control": [0, 0]}}]"#),
      path: "$.layers[0].animations[0].path[1].curve.control", "unknown key 'control'")
    expectError(
      anim(#""path": [{"move": [0, 0]}, {"close": false}]"#),
      path: "$.layers[0].animations[0].path[1].close", "expected true")
  }

  @Test func tooFewVertices() {
    expectError(
      anim(#""path": [{"move": [0, 0]}]"#), path: "$.layers[0].animations[0].path",
      "needs at least 2 entries (got 1)")
  }

  @Test func keyTimesPerVertex() {
    expectError(
      anim(#""path": [{"move": [0, 0]}, {"line": [1, 1]}], "keyTimes": [0, 0.5, 1]"#),
      path: "$.layers[0].animations[0].keyTimes", "must have 2 entries (got 3)")
  }

  @Test func valuesAndPathTogether() {
    expectError(
      anim(#""path": [{"move": [0, 0]}, {"line": [1, 1]}], "values": [[0, 0], [1, 1]]"#),
      path: "$.layers[0].animations[0].values", "cannot be combined with 'path'")
    expectError(
      anim(#""path": [{"move": [0, 0]}, {"line": [1, 1]}], "biasValues": [0, 0]"#),
      path: "$.layers[0].animations[0].biasValues", "cannot be combined with 'path'")
  }

  @Test func rotationModeNeedsAPath() {
    expectError(
      anim(#""values": [[0, 0], [1, 1]], "rotationMode": "auto""#),
      path: "$.layers[0].animations[0].rotationMode", "needs a 'path'")
  }

  @Test func unknownRotationMode() {
    expectError(
      anim(#""path": [{"move": [0, 0]}, {"line": [1, 1]}], "rotationMode": "spin""#),
      path: "$.layers[0].animations[0].rotationMode", "unknown rotation mode 'spin'")
  }

  @Test func pathOnANumberKeyPath() {
    expectError(
      SpecRejectionTests.anim(
        #"{"keyPath": "opacity", "type": "keyframe", "path": [{"move": [0, 0]}, {"line": [1, 1]}]}"#
      ), path: "$.layers[0].animations[0].path", "moves a point property")
  }

  /// The schema agrees on a few of these.
  @Test(.enabled(if: SpecTestSupport.hasJSONSchema, SpecTestSupport.jsonSchemaHint))
  func schemaRejectsTheSame() throws {
    let bad = [
      anim(#""path": [{"move": [0, 0], "line": [1, 1]}]"#),
      anim(#""values": [[0, 0], [1, 1]], "rotationMode": "auto""#),
      anim(#""path": [{"move": [0, 0]}, {"line": [1, 1]}], "values": [[0, 0], [1, 1]]"#),
      anim(#""path": [{"move": [0, 0]}, {"close": false}]"#),
    ]
    let good = anim(#""path": [{"move": [0, 0]}, {"line": [1, 1]}], "rotationMode": "autoReverse""#)
    #expect(throws: Never.self) { try loadSpec(good) }
    let report = try SpecTestSupport.schemaReport([good])
    #expect(report.hasSuffix("OK\n"), "\(report)")
    for text in bad {
      #expect(try SpecTestSupport.schemaReport([text]).hasSuffix("FAIL\n"), "\(text)")
    }
  }
}
