import Foundation
import Segue
import SegueSpec
import Testing

/// What a layer draws in the spec format: `contents` and its keys, `text`, `shape` and
/// `gradient` objects, animations of paths and lists, the encode/decode round trip, every
/// rejected input (named by its JSON path), the files a spec names (found relative to the spec's
/// folder, missing, outside it, over budget), and the schema.
@Suite("Spec content layers")
struct SpecContentTests {
  static let square =
    #"[{"move": [0, 0]}, {"line": [10, 0]}, {"line": [10, 10]}, {"line": [0, 10]}, {"close": true}]"#
  static let bigSquare =
    #"[{"move": [0, 0]}, {"line": [30, 0]}, {"line": [30, 30]}, {"line": [0, 30]}, {"close": true}]"#

  /// A document with one content layer of each kind.
  static let document = """
    {"version": 1, "duration": 1, "layers": [
      {"id": "image", "bounds": [0, 0, 100, 50], "contents": "shots/from.png",
       "contentsGravity": "kCAGravityResizeAspectFill", "contentsRect": [0, 0, 0.5, 1],
       "contentsCenter": [0.25, 0.25, 0.5, 0.5], "contentsScale": 3,
       "minificationFilter": "trilinear", "magnificationFilter": "nearest"},
      {"id": "named", "contents": {"named": "photo"}},
      {"id": "title", "bounds": [0, 0, 200, 44], "text": {"string": "Settings",
       "font": {"family": "Inter", "weight": "semibold"}, "fontSize": 17,
       "foregroundColor": [0, 0, 0, 1], "alignmentMode": "center", "isWrapped": true,
       "truncationMode": "end"}},
      {"id": "chevron", "shape": {"path": \(square), "fillColor": null,
       "strokeColor": [0, 0.48, 1, 1], "lineWidth": 3, "lineCap": "round", "lineJoin": "bevel",
       "miterLimit": 4, "lineDashPattern": [2, 1], "lineDashPhase": 0.5, "fillRule": "evenOdd",
       "strokeStart": 0.1, "strokeEnd": 0.9},
       "animations": [
         {"keyPath": "strokeEnd", "type": "basic", "fromValue": 0, "toValue": 1, "duration": 1},
         {"keyPath": "path", "type": "basic", "toValue": \(bigSquare), "duration": 1}]},
      {"id": "sky", "gradient": {"type": "radial", "colors": [[1, 1, 1, 1], [0, 0, 1, 1]],
       "locations": [0, 0.75], "startPoint": [0.5, 0.5], "endPoint": [1, 1]},
       "animations": [
         {"keyPath": "colors", "type": "keyframe",
          "values": [[[1, 1, 1, 1], [0, 0, 1, 1]], [[0, 0, 0, 1], [1, 0, 0, 1]]], "duration": 1},
         {"keyPath": "locations", "type": "basic", "toValue": [0.5, 1], "duration": 1}]}
    ]}
    """

  /// Every key reads into the model value it names.
  @Test func decodesEveryKey() throws {
    let model = try loadSpec(Self.document).scene.model
    let image = try #require(model[id: "image"])
    #expect(image.contents == .file("shots/from.png") && image.contentsGravity == .resizeAspectFill)
    #expect(image.contentsRect == Rect(x: 0, y: 0, width: 0.5, height: 1))
    #expect(image.contentsCenter == Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))
    #expect(image.contentsScale == 3)
    #expect(image.minificationFilter == .trilinear && image.magnificationFilter == .nearest)
    #expect(model[id: "named"]?.contents == .named("photo"))
    guard case .text(let text)? = model[id: "title"]?.kind else {
      Issue.record("text")
      return
    }
    #expect(
      text
        == TextLayerProperties(
          string: "Settings", font: .family("Inter", weight: .semibold, isItalic: false),
          fontSize: 17, foregroundColor: .black, alignmentMode: .center, isWrapped: true,
          truncationMode: .end))
    guard case .shape(let shape)? = model[id: "chevron"]?.kind,
      case .gradient(let gradient)? = model[id: "sky"]?.kind
    else {
      Issue.record("shape, gradient")
      return
    }
    #expect(shape.fillColor == nil && shape.lineWidth == 3 && shape.lineCap == .round)
    #expect(shape.lineJoin == .bevel && shape.miterLimit == 4 && shape.fillRule == .evenOdd)
    #expect(shape.lineDashPattern == [2, 1] && shape.lineDashPhase == 0.5)
    #expect(shape.strokeStart == 0.1 && shape.strokeEnd == 0.9)
    #expect(shape.path?.elements.count == 5)
    #expect(gradient.type == .radial && gradient.colors.count == 2)
    #expect(gradient.locations == [0, 0.75] && gradient.endPoint == Point(x: 1, y: 1))
  }

  /// The animations present through the scalar sampler: `strokeEnd` halfway at 0.5 s, the path
  /// halfway between the squares, the colours halfway between the keyframe lists.
  @Test func animationsSample() throws {
    let scene = try loadSpec(Self.document).scene
    let sample = try scene.sample(at: 0.5)
    guard case .shape(let shape)? = sample["chevron"]?.kind,
      case .gradient(let gradient)? = sample["sky"]?.kind
    else {
      Issue.record("kinds")
      return
    }
    #expect(shape.strokeEnd == 0.5)
    #expect(shape.path?.channels == [0, 0, 20, 0, 20, 20, 0, 20])
    #expect(gradient.colors.map(\.channels) == [[0.5, 0.5, 0.5, 1], [0.5, 0, 0.5, 1]])
    #expect(gradient.locations == [0.25, 0.875])
  }

  /// `decode(encode(scene))` gives the same model and samples exactly as the scene; encoding
  /// again gives the same text.
  @Test func roundTrip() throws {
    let scene = try loadSpec(Self.document).scene
    let text = SpecFile.encode(scene: scene).serialized()
    let again = try loadSpec(text).scene
    #expect(again.model == scene.model)
    #expect(again.animations.entries == scene.animations.entries)
    try SpecTestSupport.expectSameSamples(scene, again, "content layers")
    #expect(SpecFile.encode(scene: again).serialized() == text)
  }

  /// A scene built in code with every content property away from its default survives the
  /// round trip; defaults are not written.
  @Test func builtSceneRoundTrips() throws {
    var b = SceneBuilder()
    var image = Layer.imageLayer(
      id: "i", frame: Rect(x: 0, y: 0, width: 10, height: 10), contents: .named("n"),
      contentsGravity: .topLeft, contentsScale: 2)
    image.contentsCenter = Rect(x: 0.1, y: 0.2, width: 0.3, height: 0.4)
    try b.add(image)
    try b.add(
      Layer.textLayer(
        id: "t", frame: Rect(x: 0, y: 0, width: 10, height: 10), string: "é\n\"x\"",
        font: .file(path: "fonts/a.ttc", faceIndex: 2), fontSize: 9, alignmentMode: .justified,
        truncationMode: .middle, contentsScale: 3))
    var path = BezierPath()
    try path.move(to: Point(x: 0.1, y: 1e-9))
    try path.addQuadCurve(to: Point(x: 3, y: 4), control: Point(x: 1, y: 2))
    try path.addCurve(
      to: Point(x: 7, y: 8), control1: Point(x: 5, y: 6), control2: Point(x: -1, y: 0.3))
    try b.add(
      Layer.shapeLayer(
        id: "s", frame: Rect(x: 0, y: 0, width: 10, height: 10), path: path, fillColor: .white,
        fillRule: .evenOdd, strokeColor: .black, lineWidth: 0.5, lineCap: .square,
        lineJoin: .round, miterLimit: 2, lineDashPattern: [1, 2, 3], lineDashPhase: 1,
        strokeStart: 0.2, strokeEnd: 0.7))
    try b.add(
      Layer.gradientLayer(
        id: "g", frame: Rect(x: 0, y: 0, width: 10, height: 10), colors: [.black, .clear],
        startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 0), type: .conic))
    try b.animate(.strokeStart, of: "s", to: .number(0), duration: 1, timingParameters: nil)
    try b.animate(
      .fontSize, of: "t", to: .number(30), duration: 1, timingParameters: .easeInEaseOut)
    try b.animate(
      .endPoint, of: "g", to: .point(Point(x: 1, y: 1)), duration: 1, timingParameters: nil)
    let scene = try b.scene(duration: 1, containerSize: Size(width: 10, height: 10))
    let json = SpecFile.encode(scene: scene)
    let again = try SpecFile.decode(json).scene
    #expect(again.model == scene.model)
    // A spec lists each layer's animations with the layer: compare them layer by layer.
    func byLayer(_ set: AnimationSet) -> [String: [LayerAnimation]] {
      Dictionary(grouping: set.entries, by: \.layerID).mapValues { $0.map(\.animation) }
    }
    #expect(byLayer(again.animations) == byLayer(scene.animations))
    #expect(again.animations.entries.count == 3)
    var plainBuilder = SceneBuilder()
    try plainBuilder.add(Layer(id: "p"))
    let written = SpecFile.encode(
      scene: try plainBuilder.scene(duration: 1, containerSize: Size(width: 1, height: 1))
    ).serialized()
    for key in ["contents", "text", "shape", "gradient", "contentsScale", "contentsGravity"] {
      #expect(!written.contains("\"\(key)\""), "\(key) is a default and is not written")
    }
  }

  /// One rejected input: the error's JSON path and a fragment of its message.
  struct Rejection: CustomTestStringConvertible, Sendable {
    var layer: String
    var path: String
    var message: String
    var testDescription: String { "\(path): \(message)" }
  }

  static let rejections: [Rejection] = [
    .init(
      layer: #"{"id": "a", "text": {}, "shape": {}}"#, path: "$.layers[0].shape",
      message: "cannot be combined"),
    .init(
      layer: #"{"id": "a", "contents": "/etc/passwd"}"#, path: "$.layers[0].contents",
      message: "absolute"),
    .init(
      layer: #"{"id": "a", "contents": "x/../../up.png"}"#, path: "$.layers[0].contents",
      message: "leaves the spec's folder"),
    .init(layer: #"{"id": "a", "contents": ""}"#, path: "$.layers[0].contents", message: "empty"),
    .init(
      layer: #"{"id": "a", "contents": "a\u0000.png"}"#, path: "$.layers[0].contents",
      message: "NUL"),
    .init(
      layer: #"{"id": "a", "contents": {"file": "../a.png"}}"#, path: "$.layers[0].contents.file",
      message: "leaves"),
    .init(
      layer: #"{"id": "a", "contents": {"named": ""}}"#, path: "$.layers[0].contents.named",
      message: "empty"),
    .init(
      layer: #"{"id": "a", "contents": {"named": "a", "file": "b"}}"#, path: "$.layers[0].contents",
      message: "exactly one"),
    .init(
      layer: #"{"id": "a", "contents": 3}"#, path: "$.layers[0].contents", message: "file path"),
    .init(
      layer: #"{"id": "a", "contentsGravity": "middle"}"#, path: "$.layers[0].contentsGravity",
      message: "middle"),
    .init(
      layer: #"{"id": "a", "contentsScale": 0}"#, path: "$.layers[0].contentsScale",
      message: "greater than 0"),
    .init(
      layer: #"{"id": "a", "contentsRect": [0, 0, 1]}"#, path: "$.layers[0].contentsRect",
      message: "rectangle"),
    .init(
      layer: #"{"id": "a", "minificationFilter": "cubic"}"#,
      path: "$.layers[0].minificationFilter", message: "cubic"),
    .init(
      layer: #"{"id": "a", "text": {"color": [0, 0, 0, 1]}}"#, path: "$.layers[0].text.color",
      message: "color"),
    .init(
      layer: #"{"id": "a", "text": {"font": ""}}"#, path: "$.layers[0].text.font",
      message: "empty"),
    .init(
      layer: #"{"id": "a", "text": {"font": {"file": "/f.ttf"}}}"#,
      path: "$.layers[0].text.font.file", message: "absolute"),
    .init(
      layer: #"{"id": "a", "text": {"font": {"file": "f.ttf", "faceIndex": 1.5}}}"#,
      path: "$.layers[0].text.font.faceIndex", message: "face index"),
    .init(
      layer: #"{"id": "a", "text": {"font": {"file": "f.ttf", "weight": 700}}}"#,
      path: "$.layers[0].text.font.weight", message: "weight"),
    .init(
      layer: #"{"id": "a", "text": {"font": {"family": "Inter", "weight": 0}}}"#,
      path: "$.layers[0].text.font.weight", message: "weight"),
    .init(
      layer: #"{"id": "a", "text": {"font": {"family": "Inter", "weight": "hefty"}}}"#,
      path: "$.layers[0].text.font.weight", message: "hefty"),
    .init(
      layer: #"{"id": "a", "text": {"alignmentMode": "middle"}}"#,
      path: "$.layers[0].text.alignmentMode", message: "middle"),
    .init(
      layer: #"{"id": "a", "text": {"truncationMode": "both"}}"#,
      path: "$.layers[0].text.truncationMode", message: "both"),
    .init(
      layer: #"{"id": "a", "text": {"string": 3}}"#, path: "$.layers[0].text.string",
      message: "string"),
    .init(
      layer: #"{"id": "a", "shape": {"path": [{"line": [1, 1]}]}}"#,
      path: "$.layers[0].shape.path[0]", message: "move"),
    .init(
      layer: #"{"id": "a", "shape": {"lineDashPattern": [1, -2]}}"#,
      path: "$.layers[0].shape.lineDashPattern[1]", message: "negative"),
    .init(
      layer: #"{"id": "a", "shape": {"lineCap": "flat"}}"#, path: "$.layers[0].shape.lineCap",
      message: "flat"),
    .init(
      layer: #"{"id": "a", "shape": {"fillRule": "winding"}}"#,
      path: "$.layers[0].shape.fillRule", message: "winding"),
    .init(
      layer: #"{"id": "a", "shape": {"fillColor": [1, 0, 0]}}"#,
      path: "$.layers[0].shape.fillColor", message: "colour"),
    .init(
      layer: #"{"id": "a", "gradient": {"colors": [[0, 0, 0, 1]], "locations": [0, 1]}}"#,
      path: "$.layers[0].gradient.locations", message: "1"),
    .init(
      layer: #"{"id": "a", "gradient": {"type": "diamond"}}"#, path: "$.layers[0].gradient.type",
      message: "diamond"),
    .init(
      layer: #"{"id": "a", "gradient": {"startPoint": [0]}}"#,
      path: "$.layers[0].gradient.startPoint", message: "point"),
    .init(
      layer:
        #"{"id": "a", "gradient": {}, "animations": [{"keyPath": "strokeEnd", "type": "basic", "toValue": 1}]}"#,
      path: "$.layers[0].animations[0].keyPath", message: "CAShapeLayer"),
    .init(
      layer:
        #"{"id": "a", "animations": [{"keyPath": "contents", "type": "basic", "toValue": 1}]}"#,
      path: "$.layers[0].animations[0].keyPath", message: "cross-fade"),
    .init(
      layer:
        #"{"id": "a", "shape": {}, "animations": [{"keyPath": "lineCap", "type": "basic", "toValue": 1}]}"#,
      path: "$.layers[0].animations[0].keyPath", message: "not animatable"),
    .init(
      layer: """
        {"id": "a", "shape": {"path": \(square)}, "animations": [{"keyPath": "path",
         "type": "basic", "toValue": [{"move": [0, 0]}, {"line": [1, 1]}]}]}
        """,
      path: "$.layers[0].animations[0].toValue", message: "5"),
    .init(
      layer: """
        {"id": "a", "gradient": {"colors": [[0, 0, 0, 1]]}, "animations": [{"keyPath": "colors",
         "type": "keyframe", "values": [[[0, 0, 0, 1]], [[0, 0, 0, 1], [1, 1, 1, 1]]]}]}
        """,
      path: "$.layers[0].animations[0].values[1]", message: "2"),
    .init(
      layer: """
        {"id": "a", "gradient": {}, "animations": [{"keyPath": "locations", "type": "basic",
         "toValue": [0, "x"]}]}
        """,
      path: "$.layers[0].animations[0].toValue[1]", message: "number"),
  ]

  /// Every rejected input is a typed error at the JSON path of the value at fault.
  @Test(arguments: rejections)
  func rejected(_ rejection: Rejection) throws {
    let text = #"{"version": 1, "duration": 1, "layers": ["# + rejection.layer + "]}"
    let error = try #require(SpecTestSupport.specError(text))
    #expect(error.path == rejection.path, "\(error)")
    #expect(error.message.contains(rejection.message), "\(error)")
    #expect(error.category == .content)
  }

  /// A folder with an image and a font inside, a folder outside, and a link leaving the spec's
  /// folder; removed by the caller.
  static func folder() throws -> (root: URL, spec: URL) {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "segue-spec-files-\(UUID().uuidString)")
    let spec = root.appendingPathComponent("spec")
    try FileManager.default.createDirectory(
      at: spec.appendingPathComponent("shots"), withIntermediateDirectories: true)
    try Data(repeating: 7, count: 100).write(to: spec.appendingPathComponent("shots/a.png"))
    try Data(repeating: 1, count: 40).write(to: spec.appendingPathComponent("f.ttf"))
    try Data(repeating: 9, count: 10).write(to: root.appendingPathComponent("secret.png"))
    try FileManager.default.createSymbolicLink(
      atPath: spec.appendingPathComponent("link.png").path, withDestinationPath: "../secret.png")
    return (root, spec)
  }

  static func files(_ layers: String) -> String {
    #"{"version": 1, "duration": 1, "layers": ["# + layers + "]}"
  }

  /// The files a spec names are listed with their JSON paths and found in its folder.
  @Test func filesResolveInTheSpecsFolder() throws {
    let (root, spec) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let text = Self.files(
      #"{"id": "a", "contents": "shots/a.png"}, {"id": "b", "contents": {"named": "x"}},"#
        + #"{"id": "c", "text": {"font": {"file": "./f.ttf"}}}, {"id": "d", "contents": {"file": "shots/a.png"}}"#
    )
    let parsed = try loadSpec(text)
    #expect(
      parsed.files.map(\.jsonPath) == [
        "$.layers[0].contents", "$.layers[2].text.font.file", "$.layers[3].contents.file",
      ])
    #expect(parsed.files.map(\.kind) == [.image, .font, .image])
    let document = try SpecFile.decode(text: text, directory: spec.path)
    #expect(
      document.files.map(\.location) == [
        spec.path + "/shots/a.png", spec.path + "/./f.ttf", spec.path + "/shots/a.png",
      ])
    #expect(document.scene.model[id: "a"]?.contents == .file(spec.path + "/shots/a.png"))
    guard case .text(let properties)? = document.scene.model[id: "c"]?.kind else {
      Issue.record("text")
      return
    }
    #expect(properties.font == .file(path: spec.path + "/./f.ttf", faceIndex: 0))
    // The same file twice counts once against the total budget (100 + 40 bytes).
    _ = try SpecFile.decode(text: text, directory: spec.path)
      .resolvingFiles(in: spec.path, maximumFileSize: 100, maximumTotalSize: 140)
  }

  /// A missing file or a directory is unreadable (exit 66); a link out of the folder and a file
  /// over a budget are content errors (exit 65); each names the JSON path.
  @Test func fileProblemsAreTypedErrors() throws {
    let (root, spec) = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    func error(
      _ layers: String, fileLimit: Int = SpecFile.maximumFileSize,
      totalLimit: Int = SpecFile.maximumTotalFileSize
    ) -> SpecError? {
      do {
        _ = try loadSpec(Self.files(layers)).resolvingFiles(
          in: spec.path, maximumFileSize: fileLimit, maximumTotalSize: totalLimit)
        Issue.record("expected an error for \(layers)")
        return nil
      } catch { return error }
    }
    let missing = error(#"{"id": "a", "contents": "shots/none.png"}"#)
    #expect(missing?.category == .unreadableFile && missing?.path == "$.layers[0].contents")
    #expect(missing?.message.contains("no such file") == true)
    let directory = error(#"{"id": "a", "text": {"font": {"file": "shots"}}}"#)
    #expect(directory?.category == .unreadableFile)
    #expect(directory?.path == "$.layers[0].text.font.file")
    #expect(directory?.message.contains("directory") == true)
    let link = error(#"{"id": "a", "contents": "link.png"}"#)
    #expect(
      link?.category == .content && link?.message.contains("leaves the spec's folder") == true)
    let big = error(#"{"id": "a", "contents": "shots/a.png"}"#, fileLimit: 99)
    #expect(big?.category == .content && big?.message.contains("over the budget") == true)
    let total = error(
      #"{"id": "a", "contents": "shots/a.png"}, {"id": "b", "text": {"font": {"file": "f.ttf"}}}"#,
      totalLimit: 139)
    #expect(total?.path == "$.layers[1].text.font.file")
    #expect(total?.message.contains("add up to 140 bytes") == true)
  }

  /// The content document validates against the schema, and the schema rejects a layer with two
  /// kinds and an absolute contents path.
  @Test(.enabled(if: SpecTestSupport.hasJSONSchema, SpecTestSupport.jsonSchemaHint))
  func schemaAcceptsContentLayers() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "segue-content-schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let good = directory.appendingPathComponent("good.json")
    try Self.document.write(to: good, atomically: true, encoding: .utf8)
    var bad: [String] = []
    for (i, layer) in [
      #"{"id": "a", "text": {}, "gradient": {}}"#, #"{"id": "a", "contents": "/abs.png"}"#,
      #"{"id": "a", "shape": {"lineCap": "flat"}}"#,
    ].enumerated() {
      let url = directory.appendingPathComponent("bad\(i).json")
      try Self.files(layer).write(to: url, atomically: true, encoding: .utf8)
      bad.append(url.path)
    }
    let script = """
      import json, sys
      import jsonschema
      v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
      good = list(v.iter_errors(json.load(open(sys.argv[2]))))
      rejected = [p for p in sys.argv[3:] if list(v.iter_errors(json.load(open(p))))]
      print([e.message for e in good], len(rejected))
      """
    let output = try SpecTestSupport.runPython(
      script, [SpecTestSupport.schemaURL.path, good.path] + bad)
    #expect(output == "[] \(bad.count)\n", "\(output)")
  }
}
