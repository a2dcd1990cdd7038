import Foundation
import Testing

/// One rejected command line: what to run, the exit code Sources/segue/ExitCodes.md documents
/// for it, and what the message on stderr must name.
struct BadInput: Sendable, CustomTestStringConvertible {
  var name: String
  /// The arguments; `$DIR` is replaced by a fresh temporary directory.
  var arguments: [String]
  /// Input files to create in `$DIR` first (name, content).
  var files: [String: String] = [:]
  var status: Int32
  /// Substrings stderr must contain.
  var mentions: [String]

  var testDescription: String { name }
}

/// Every bad input exits with its documented code, names the argument, and leaves no output
/// file (nor a temporary one) behind.
@Suite struct BadInputTests {
  static let usage: Int32 = 64
  static let data: Int32 = 65
  static let noInput: Int32 = 66
  static let cannotCreate: Int32 = 73

  /// `segue sample` writing to `$DIR/out.json`, plus `extra`.
  static func sample(_ extra: [String]) -> [String] {
    ["sample", "--output", "$DIR/out.json"] + extra
  }

  /// `segue sample --spec $DIR/spec.json` writing to `$DIR/out.json`, the spec being `text`.
  static func spec(_ name: String, _ text: String, _ mentions: [String], status: Int32 = data)
    -> BadInput
  {
    BadInput(
      name: name, arguments: sample(["--spec", "$DIR/spec.json"]), files: ["spec.json": text],
      status: status, mentions: ["--spec"] + mentions)
  }

  /// A valid spec with layers `a` and `b` (child of `a`), into which a case splices a fault.
  static func specText(layers: String = validLayers, extra: String = "") -> String {
    #"{"version": 1, "duration": 1, "container": [20, 10], "layers": ["# + layers + "]" + extra
      + "}"
  }

  static let validLayers =
    #"{"id": "a", "bounds": [0, 0, 20, 10], "backgroundColor": [1, 0, 0, 1]}, {"id": "b", "parent": "a"}"#

  /// `segue render` of a small preset into `$DIR`, plus `extra`.
  static func render(_ extra: [String]) -> [String] {
    [
      "render", "--preset", "ca-fade", "--container", "20,10", "--times", "0,0.1", "--output-dir",
      "$DIR",
    ] + extra
  }

  static let specCases: [BadInput] = [
    spec("malformed spec JSON", #"{"version": 1, "layers": [}"#, ["malformed JSON", "line 1"]),
    spec("NaN in a spec", specText(extra: #", "sampleTimes": [NaN]"#), ["malformed JSON"]),
    spec(
      "missing image", specText(layers: #"{"id": "a", "contents": "shots/none.png"}"#),
      ["$.layers[0].contents", "no such file"], status: noInput),
    spec(
      "font file is a directory",
      specText(layers: #"{"id": "a", "text": {"font": {"file": "."}}}"#),
      ["$.layers[0].text.font.file", "directory"], status: noInput),
    BadInput(
      name: "corrupt image", arguments: sample(["--spec", "$DIR/spec.json"]),
      files: [
        "spec.json": specText(layers: #"{"id": "a", "contents": "shots/a.png"}"#),
        "shots/a.png": "not a PNG",
      ], status: data, mentions: ["--spec", "$.layers[0].contents", "cannot be decoded"]),
    BadInput(
      name: "corrupt font", arguments: sample(["--spec", "$DIR/spec.json"]),
      files: [
        "spec.json": specText(layers: #"{"id": "a", "text": {"font": {"file": "f.ttf"}}}"#),
        "f.ttf": "not a font",
      ], status: data, mentions: ["--spec", "$.layers[0].text.font.file", "cannot be used"]),
    spec(
      "image outside the spec's folder",
      specText(layers: #"{"id": "a", "contents": "../elsewhere.png"}"#),
      ["$.layers[0].contents", "leaves the spec's folder"]),
    spec(
      "strokeEnd of a plain layer",
      specText(
        layers:
          #"{"id": "a", "animations": [{"keyPath": "strokeEnd", "type": "basic", "toValue": 1}]}"#
      ), ["$.layers[0].animations[0].keyPath", "CAShapeLayer"]),
    spec(
      "unknown spec key", specText(extra: #", "colour": 1"#), ["$.colour", "unknown key 'colour'"]),
    spec(
      "unknown key path",
      specText(
        layers: #"{"id": "a", "animations": [{"keyPath": "wobble", "type": "basic"}]}"#),
      ["$.layers[0].animations[0].keyPath", "unknown key path 'wobble'"]),
    spec(
      "wrong type in a spec", #"{"version": 1, "duration": "long", "layers": [{"id": "a"}]}"#,
      ["$.duration", "expected a number, found a string"]),
    spec(
      "missing parent", specText(layers: #"{"id": "a"}, {"id": "b", "parent": "nobody"}"#),
      ["$.layers[1].parent", "no layer has the id 'nobody'"]),
    spec(
      "cyclic parents",
      specText(layers: #"{"id": "a", "parent": "b"}, {"id": "b", "parent": "a"}"#),
      ["$.layers[0].parent", "cycle"]),
    spec(
      "duplicate ids", specText(layers: #"{"id": "a"}, {"id": "a"}"#),
      ["$.layers[1].id", "duplicate layer id 'a'"]),
    spec(
      "spec events out of order",
      specText(
        extra:
          #", "events": [{"time": 0.5, "remove": "b"}, {"time": 0.2, "layer": "a", "keyPath": "opacity", "value": 0}]"#
      ), ["$.events[1].time", "time order"]),
    spec(
      "spec interaction out of order",
      specText(
        extra: #", "interaction": [{"time": 0.5, "update": 0.2}, {"time": 0.2, "pause": true}]"#),
      ["$.interaction[1].time", "time order"]),
    spec(
      "spec of the wrong version", #"{"version": 2, "layers": []}"#,
      ["$.version", "unsupported version"]),
    BadInput(
      name: "missing spec file", arguments: sample(["--spec", "$DIR/nowhere.json"]),
      status: noInput, mentions: ["--spec", "nowhere.json"]),
    BadInput(
      name: "preset option with a spec",
      arguments: sample(["--spec", "$DIR/spec.json", "--container", "20,10"]),
      files: ["spec.json": specText()], status: usage, mentions: ["--container", "--spec"]),
    BadInput(
      name: "render into a missing directory",
      arguments: ["render", "--preset", "system", "--times", "0", "--output-dir", "$DIR/missing"],
      status: cannotCreate, mentions: ["--output-dir", "missing"]),
    BadInput(
      name: "render filmstrip in a missing directory",
      arguments: render(["--filmstrip", "$DIR/missing/strip.png"]), status: cannotCreate,
      mentions: ["--filmstrip", "missing"]),
    BadInput(
      name: "render filmstrip is a directory", arguments: render(["--filmstrip", "$DIR/sub.png"]),
      files: ["sub.png/keep": ""], status: cannotCreate, mentions: ["--filmstrip", "directory"]),
    BadInput(
      name: "render scale 0", arguments: render(["--scale", "0"]), status: data,
      mentions: ["--scale", "greater than 0"]),
    BadInput(
      name: "render too many pixels", arguments: render(["--scale", "1000"]), status: data,
      mentions: ["--scale", "20000×10000-pixel frames", "smaller --scale"]),
    BadInput(
      name: "render columns 0", arguments: render(["--columns", "0", "--filmstrip", "$DIR/s.png"]),
      status: data, mentions: ["--columns"]),
    BadInput(
      name: "render NaN time",
      arguments: ["render", "--preset", "system", "--times", "0,nan", "--output-dir", "$DIR"],
      status: data, mentions: ["--times", "not finite"]),
    BadInput(
      name: "render filmstrip of another format", arguments: render(["--filmstrip", "$DIR/s.gif"]),
      status: usage, mentions: ["--filmstrip", ".png or .svg"]),
    BadInput(
      name: "render nothing", arguments: render(["--no-frames"]), status: usage,
      mentions: ["--no-frames", "--filmstrip"]),
    BadInput(
      name: "render SVG filmstrip of an interactive run",
      arguments: render(["--events", "$DIR/events.json", "--filmstrip", "$DIR/s.svg"]),
      files: ["events.json": #"[{"time": 0, "update": 0.5}]"#], status: usage,
      mentions: ["--filmstrip", "interactive"]),
    BadInput(
      name: "render empty sampleTimes into an SVG filmstrip",
      arguments: [
        "render", "--spec", "$DIR/spec.json", "--no-frames", "--filmstrip", "$DIR/s.svg",
      ],
      files: ["spec.json": specText(extra: #", "sampleTimes": []"#)], status: data,
      mentions: ["segue render: --spec: $.sampleTimes", "at least one time"]),
    BadInput(
      name: "render empty sampleTimes into a PNG filmstrip",
      arguments: [
        "render", "--spec", "$DIR/spec.json", "--no-frames", "--filmstrip", "$DIR/s.png",
      ],
      files: ["spec.json": specText(extra: #", "sampleTimes": []"#)], status: data,
      mentions: ["$.sampleTimes"]),
    BadInput(
      name: "render empty sampleTimes into frames",
      arguments: ["render", "--spec", "$DIR/spec.json", "--output-dir", "$DIR"],
      files: ["spec.json": specText(extra: #", "sampleTimes": []"#)], status: data,
      mentions: ["$.sampleTimes"]),
    BadInput(
      name: "preview of empty sampleTimes",
      arguments: ["preview", "--spec", "$DIR/spec.json", "--output", "$DIR/p.html"],
      files: ["spec.json": specText(extra: #", "sampleTimes": []"#)], status: data,
      mentions: ["segue preview: --spec: $.sampleTimes"]),
    spec(
      "sample of empty sampleTimes", specText(extra: #", "sampleTimes": []"#),
      ["$.sampleTimes", "at least one time"]),
    BadInput(
      name: "render bad spec",
      arguments: ["render", "--spec", "$DIR/spec.json", "--output-dir", "$DIR"],
      files: ["spec.json": specText(layers: #"{"id": "a"}, {"id": "a"}"#)], status: data,
      mentions: ["segue render: --spec: $.layers[1].id"]),
  ]

  static let cases: [BadInput] = [
    BadInput(
      name: "unknown preset", arguments: sample(["--preset", "wobble"]), status: usage,
      mentions: ["--preset", "wobble"]),
    BadInput(
      name: "missing preset", arguments: sample(["--times", "0"]), status: usage,
      mentions: ["--preset"]),
    BadInput(
      name: "bad operation", arguments: sample(["--preset", "system", "--operation", "sideways"]),
      status: usage, mentions: ["--operation", "sideways"]),
    BadInput(
      name: "unknown option", arguments: sample(["--preset", "system", "--speed", "2"]),
      status: usage, mentions: ["--speed"]),
    BadInput(
      name: "NaN time", arguments: sample(["--preset", "system", "--times", "0,nan"]),
      status: data, mentions: ["--times", "not finite"]),
    BadInput(
      name: "negative time", arguments: sample(["--preset", "system", "--times", "0.1,-0.5"]),
      status: data, mentions: ["--times", "-0.5 is negative"]),
    BadInput(
      name: "time not a number", arguments: sample(["--preset", "system", "--times", "0,soon"]),
      status: usage, mentions: ["--times", "'soon'"]),
    BadInput(
      name: "fps 0", arguments: sample(["--preset", "system", "--fps", "0"]), status: data,
      mentions: ["--fps", "greater than 0"]),
    BadInput(
      name: "fps NaN", arguments: sample(["--preset", "system", "--fps", "nan"]), status: data,
      mentions: ["--fps"]),
    BadInput(
      name: "times and fps",
      arguments: sample(["--preset", "system", "--fps", "2", "--times", "0"]),
      status: usage, mentions: ["--times", "--fps"]),
    BadInput(
      name: "negative CA duration", arguments: sample(["--preset", "ca-fade", "--ca-duration=-1"]),
      status: data, mentions: ["--ca-duration"]),
    BadInput(
      name: "Bézier x out of range",
      arguments: sample(["--preset", "ca-fade", "--ca-timing", "cubic-bezier(1.5,0,1,1)"]),
      status: data, mentions: ["--ca-timing", "controlPoint1.x"]),
    BadInput(
      name: "unknown timing name",
      arguments: sample(["--preset", "ca-fade", "--ca-timing", "bouncy"]),
      status: usage, mentions: ["--ca-timing", "bouncy"]),
    BadInput(
      name: "option for another preset",
      arguments: sample(["--preset", "hero", "--subtype", "from-left"]),
      status: usage, mentions: ["--subtype"]),
    BadInput(
      name: "zero container", arguments: sample(["--preset", "system", "--container", "0,844"]),
      status: data, mentions: ["--container"]),
    BadInput(
      name: "hero list below the container",
      arguments: sample(["--preset", "hero", "--hero-list-top", "900"]), status: data,
      mentions: ["--hero-list-top"]),
    BadInput(
      name: "malformed events JSON",
      arguments: sample(["--preset", "system", "--events", "$DIR/events.json"]),
      files: ["events.json": #"[{"time": 0, "update": 0.5"#], status: data,
      mentions: ["--events", "malformed JSON"]),
    BadInput(
      name: "unknown event key",
      arguments: sample(["--preset", "system", "--events", "$DIR/events.json"]),
      files: ["events.json": #"[{"time": 0, "update": 0.5}, {"time": 1, "jump": 1}]"#],
      status: data, mentions: ["--events: $[1].jump", "unknown key"]),
    BadInput(
      name: "event time of the wrong type",
      arguments: sample(["--preset", "system", "--events", "$DIR/events.json"]),
      files: ["events.json": #"[{"time": "0", "update": 0.5}]"#], status: data,
      mentions: ["--events: $[0].time", "expected a number, found a string"]),
    BadInput(
      name: "events out of order",
      arguments: sample(["--preset", "system", "--events", "$DIR/events.json"]),
      files: [
        "events.json":
          #"[{"time": 0, "update": 0.1}, {"time": 0.3, "update": 0.2}, {"time": 0.1, "finish": true}]"#
      ], status: data,
      mentions: ["--events: $[2].time", "0.1 is earlier than the event before it (0.3)"]),
    BadInput(
      name: "negative event time",
      arguments: sample(["--preset", "system", "--events", "$DIR/events.json"]),
      files: ["events.json": #"[{"time": -1, "update": 0.1}]"#], status: data,
      mentions: ["--events: $[0].time", "negative"]),
    BadInput(
      name: "update after finish",
      arguments: sample(["--preset", "system", "--events", "$DIR/events.json"]),
      files: ["events.json": #"[{"time": 0, "finish": true}, {"time": 0.1, "update": 0.5}]"#],
      status: data, mentions: ["--events: $[1]", "already finished"]),
    BadInput(
      name: "zero completion speed",
      arguments: sample(["--preset", "system", "--events", "$DIR/events.json"]),
      files: ["events.json": #"[{"time": 0, "cancel": {"completionSpeed": 0}}]"#], status: data,
      mentions: ["--events: $[0].cancel.completionSpeed"]),
    BadInput(
      name: "missing events file",
      arguments: sample(["--preset", "system", "--events", "$DIR/nowhere.json"]),
      status: noInput, mentions: ["--events", "nowhere.json"]),
    BadInput(
      name: "events path is a directory",
      arguments: sample(["--preset", "system", "--events", "$DIR"]), status: noInput,
      mentions: ["--events", "directory"]),
    BadInput(
      name: "output in a missing directory",
      arguments: ["sample", "--preset", "system", "--output", "$DIR/missing/out.json"],
      status: cannotCreate, mentions: ["--output", "missing"]),
    BadInput(
      name: "output is a directory",
      arguments: ["sample", "--preset", "system", "--output", "$DIR/sub"],
      files: ["sub/keep": ""], status: cannotCreate, mentions: ["--output"]),
    BadInput(
      name: "unknown timing for curve",
      arguments: ["curve", "--timing", "wobbly", "--output", "$DIR/out.svg"], status: usage,
      mentions: ["--timing", "wobbly"]),
    BadInput(
      name: "curve Bézier x out of range",
      arguments: ["curve", "--timing", "cubic-bezier(0.2,0,1.2,1)", "--output", "$DIR/out.svg"],
      status: data, mentions: ["--timing", "controlPoint2.x"]),
    BadInput(
      name: "undamped spring without duration",
      arguments: ["curve", "--spring", "1,100,0", "--output", "$DIR/out.svg"], status: data,
      mentions: ["--spring", "--duration"]),
    BadInput(
      name: "spring with negative damping",
      arguments: ["curve", "--spring", "1,100,-3", "--output", "$DIR/out.svg"], status: data,
      mentions: ["--spring", "damping"]),
    BadInput(
      name: "curve without a subject", arguments: ["curve", "--output", "$DIR/out.svg"],
      status: usage, mentions: ["--timing"]),
    BadInput(
      name: "curve of zero steps",
      arguments: ["curve", "--timing", "steps(0)", "--format", "csv", "--output", "$DIR/out"],
      status: data, mentions: ["--timing", "steps"]),
    BadInput(
      name: "curve steps of no number",
      arguments: ["curve", "--timing", "steps(four)", "--output", "$DIR/out.svg"],
      status: usage, mentions: ["--timing", "steps(n)"]),
    BadInput(
      name: "curve steps at an unknown position",
      arguments: ["curve", "--timing", "steps(2, middle)", "--output", "$DIR/out.svg"],
      status: usage, mentions: ["--timing", "'middle'"]),
    BadInput(
      name: "curve linear of one stop",
      arguments: ["curve", "--timing", "linear(0.5)", "--output", "$DIR/out.svg"],
      status: data, mentions: ["--timing", "stops"]),
    BadInput(
      name: "curve linear stop without a percentage",
      arguments: ["curve", "--timing", "linear(0, 0.5 50, 1)", "--output", "$DIR/out.svg"],
      status: usage, mentions: ["--timing", "percentage"]),
    BadInput(
      name: "curve of malformed JSON",
      arguments: ["curve", "--timing", #"{"steps": }"#, "--output", "$DIR/out.svg"],
      status: usage, mentions: ["--timing"]),
    BadInput(
      name: "curve before flag of a spring",
      arguments: ["curve", "--spring", "1,100,5", "--before", "--output", "$DIR/out.svg"],
      status: usage, mentions: ["--before"]),
    BadInput(
      name: "curve inputs in a plot",
      arguments: ["curve", "--timing", "easeIn", "--inputs", "0.5", "--output", "$DIR/out.svg"],
      status: usage, mentions: ["--inputs"]),
    BadInput(
      name: "curve inputs and samples",
      arguments: [
        "curve", "--timing", "easeIn", "--format", "csv", "--inputs", "0.5", "--samples", "3",
        "--output", "$DIR/out.csv",
      ], status: usage, mentions: ["--samples"]),
    BadInput(
      name: "curve NaN input",
      arguments: [
        "curve", "--timing", "easeIn", "--format", "csv", "--inputs", "0,nan", "--output",
        "$DIR/out.csv",
      ], status: data, mentions: ["--inputs", "not finite"]),
    BadInput(
      name: "curve negative spring time",
      arguments: [
        "curve", "--spring", "1,100,5", "--format", "json", "--inputs=-1", "--output",
        "$DIR/out.json",
      ], status: data, mentions: ["--inputs", "negative"]),
    BadInput(
      name: "curve one sample",
      arguments: ["curve", "--timing", "easeIn", "--samples", "1", "--output", "$DIR/out.svg"],
      status: data, mentions: ["--samples"]),
    BadInput(
      name: "profile seconds 0", arguments: ["profile", "--seconds", "0"], status: data,
      mentions: ["--seconds"]),
    BadInput(
      name: "profile n 0", arguments: ["profile", "--n", "0", "--seconds", "0.1"], status: data,
      mentions: ["--n"]),
    BadInput(
      name: "profile unknown workload", arguments: ["profile", "--workload", "everything"],
      status: usage, mentions: ["--workload"]),
  ]

  @Test(arguments: cases + specCases)
  func rejected(_ input: BadInput) throws {
    let directory = try TemporaryDirectory()
    for (name, content) in input.files {
      let path = directory.path + "/" + name
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(content.utf8).write(to: URL(fileURLWithPath: path))
    }
    let before = try directory.contents()
    let arguments = input.arguments.map {
      $0.replacingOccurrences(of: "$DIR", with: directory.path)
    }
    let result = try SegueProcess.run(arguments)
    #expect(result.status == input.status, "stderr: \(result.stderr)")
    for text in input.mentions {
      #expect(result.stderr.contains(text), "stderr lacks '\(text)': \(result.stderr)")
    }
    #expect(result.stdout.isEmpty, "stdout: \(result.text)")
    #expect(try directory.contents() == before, "files were left behind")
  }

  /// A spec naming a valid PNG next to it (a 1 × 1 image) is accepted.
  @Test func specWithAnImageNextToItIsAccepted() throws {
    let directory = try TemporaryDirectory()
    let png = try #require(
      Data(
        base64Encoded:
          "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
      ))
    try FileManager.default.createDirectory(
      atPath: directory.path + "/shots", withIntermediateDirectories: true)
    try png.write(to: URL(fileURLWithPath: directory.path + "/shots/a.png"))
    let spec = try directory.write(
      "spec.json", Self.specText(layers: #"{"id": "a", "contents": "shots/a.png"}"#))
    let result = try SegueProcess.run(["sample", "--spec", spec, "--times", "0"])
    #expect(result.status == 0, "stderr: \(result.stderr)")
  }

  @Test func failedRunLeavesAnExistingOutputUntouched() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("out.json", "previous\n")
    let events = try directory.write("events.json", #"[{"time": 1}]"#)
    let result = try SegueProcess.run([
      "sample", "--preset", "system", "--events", events, "--output", path,
    ])
    #expect(result.status == Self.data)
    #expect(result.stderr.contains("--events: $[0]"))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous\n")
    #expect(try directory.contents() == ["events.json", "out.json"])
  }

  @Test func helpDocumentsTheExitCodes() throws {
    let result = try SegueProcess.run(["help", "sample"])
    #expect(result.status == 0)
    for code in ["64", "65", "66", "70", "73"] {
      #expect(result.text.contains("  \(code)  "), "exit code \(code) missing from help")
    }
  }
}
