import ArgumentParser
import Foundation
import Segue

/// Where the transition to sample comes from. One case per kind of input, so that a spec file
/// source can be added beside the presets: each case only has to produce a ``TransitionScene``
/// and its description.
enum SampleSource {
  /// A catalog preset with its parameters.
  case preset(PresetSetup)

  /// Builds the scene.
  func scene() throws(CLIError) -> TransitionScene {
    switch self {
    case .preset(let setup): try setup.scene()
    }
  }

  /// Keys describing the source in the JSON output.
  var preset: String? {
    switch self {
    case .preset(let setup): setup.animator.preset.rawValue
    }
  }

  /// The operation, when the source has one.
  var operation: String? {
    switch self {
    case .preset(let setup): setup.operation.rawValue
    }
  }
}

/// One layer of a sample in the output.
struct LayerRecord: Encodable {
  var id: String
  var opacity: Double
  /// `m11 … m44` in CATransform3D field order.
  var transform: [Double]
  /// The bounds corners in the container (top-left, top-right, bottom-right, bottom-left).
  var corners: [[Double]]
  var order: Int
  var blend: String
  /// Present only when some corner is at or behind the eye: one flag per corner.
  var behindEye: [Bool]?

  init(_ layer: LayerSample) {
    id = layer.id
    opacity = layer.opacity
    transform = layer.matrix.fields
    corners = layer.corners.map { [$0.point.x, $0.point.y] }
    order = layer.order
    blend = layer.blend.rawValue
    behindEye = layer.corners.contains { $0.isBehindEye } ? layer.corners.map(\.isBehindEye) : nil
  }
}

/// One sample in the output.
struct SampleRecord: Encodable {
  var time: Double
  var progress: Double
  var completed: Bool
  var cancelled: Bool
  /// The interaction phase (interactive samples only).
  var phase: String?
  var layers: [LayerRecord]
}

/// The whole JSON document.
struct SampleDocument: Encodable {
  var preset: String?
  var operation: String?
  var duration: Double
  var container: [Double]
  var interactive: Bool
  var samples: [SampleRecord]
}

/// `segue sample`.
struct SampleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sample",
    abstract: "Sample a transition preset at given times, optionally driven by an events script.",
    discussion: """
      Times: --times t1,t2,… (seconds, finite, ≥ 0) or --fps N (frames k/N for k = 0, 1, … up \
      to the end, and the end itself; default 60). The end is the duration, or with --events \
      the latest of the duration, the last event and the moment the completion fires.

      --events FILE: a JSON array of {"time": t, ACTION} with ACTION one of "update": p, \
      "pause": true, "finish": SETTINGS, "cancel": SETTINGS; SETTINGS is true or \
      {"completionSpeed": s, "completionCurve": "easeOut" | "cubic-bezier(…)" | [x1,y1,x2,y2]}. \
      Or an object {"events": [...], "wantsInteractiveStart": false, "completionSpeed": s, \
      "completionCurve": c}. Times are wall-clock seconds and must not decrease.

      JSON output: {"preset", "operation", "duration", "container": [W, H], "interactive", \
      "samples": [{"time", "progress", "completed", "cancelled", "phase" (interactive only), \
      "layers": [{"id", "opacity", "transform": [m11…m44], "corners": [[x, y] × 4], "order", \
      "blend", "behindEye" (only when a corner is behind the eye)}]}]}.
      CSV output: a header, then one row per sample and layer: time, progress, completed, \
      cancelled, id, order, opacity, blend, m11…m44, x0, y0 … x3, y3.
      """ + "\n\n" + exitCodesHelp)

  @OptionGroup var presetOptions: PresetOptions

  @Option(help: ArgumentHelp("Comma-separated sample times in seconds.", valueName: "t1,t2,…"))
  var times: String?

  @Option(help: ArgumentHelp("Samples per second from 0 to the end (default 60).", valueName: "N"))
  var fps: Double?

  @Option(help: ArgumentHelp("An interactive events script (JSON).", valueName: "file"))
  var events: String?

  @Option(help: "Output format: json or csv.")
  var format: DataFormat = .json

  @Option(help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"))
  var output: String?

  /// The most samples one run produces.
  static let maximumSampleCount = 1_000_000

  func validate() throws {
    if times != nil && fps != nil {
      throw ArgumentParser.ValidationError("give either --times or --fps, not both")
    }
  }

  func run() throws {
    try reportingErrors("sample") {
      let source = SampleSource.preset(try presetOptions.setup())
      let bytes = try render(source: source)
      try OutputTarget(output).write(bytes)
    }
  }

  /// Samples `source` and encodes the result.
  func render(source: SampleSource) throws -> [UInt8] {
    let scene = try source.scene()
    let script: EventsScript? = try events.map { path throws(CLIError) in
      try EventsScript(json: readInputFile(path, argument: "--events"))
    }
    let timeline = try script?.timeline(duration: scene.duration)
    let sampleTimes = try self.sampleTimes(end: Self.endTime(scene: scene, timeline: timeline))
    var records: [SampleRecord] = []
    records.reserveCapacity(sampleTimes.count)
    for (i, t) in sampleTimes.enumerated() {
      do {
        let sample: TransitionSample
        var phase: String?
        if let timeline {
          sample = try scene.sample(at: t, interaction: timeline)
          phase = try timeline.state(at: t).phase.rawValue
        } else {
          sample = try scene.sample(at: t)
        }
        records.append(
          SampleRecord(
            time: sample.time, progress: sample.progress, completed: sample.completed,
            cancelled: sample.cancelled, phase: phase, layers: sample.layers.map(LayerRecord.init)))
      } catch {
        throw CLIError.data(times != nil ? "--times" : "--fps", error, prefix: "item \(i): ")
      }
    }
    let document = SampleDocument(
      preset: source.preset, operation: source.operation, duration: scene.duration,
      container: [scene.containerSize.width, scene.containerSize.height],
      interactive: timeline != nil, samples: records)
    switch format {
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      var data = try encoder.encode(document)
      data.append(UInt8(ascii: "\n"))
      return Array(data)
    case .csv:
      return Array(Self.csv(document).utf8)
    }
  }

  /// The last moment worth sampling: the duration, or for an interactive run the latest of the
  /// duration, the last event and the completion time.
  static func endTime(scene: TransitionScene, timeline: InteractionTimeline?) -> Double {
    guard let timeline, let last = timeline.events.last else { return scene.duration }
    var end = max(scene.duration, last.time)
    if let completion = try? timeline.state(at: last.time).completionTime {
      end = max(end, completion)
    }
    return end
  }

  /// The sample times from `--times` or `--fps` (0…`end` inclusive).
  func sampleTimes(end: Double) throws(CLIError) -> [Double] {
    if let times {
      let values = try parseNumberList(times, argument: "--times")
      for (i, t) in values.enumerated() { try requireNonNegative(t, "--times", index: i) }
      guard values.count <= Self.maximumSampleCount else {
        throw CLIError(
          .dataError, "--times", "more than \(Self.maximumSampleCount) times (\(values.count))")
      }
      return values
    }
    let rate = fps ?? 60
    try requirePositive(rate, "--fps")
    let frames = (end * rate).rounded(.down)
    guard frames < Double(Self.maximumSampleCount) else {
      throw CLIError(
        .dataError, "--fps",
        "\(decimal(rate)) frames per second over \(decimal(end)) s is more than "
          + "\(Self.maximumSampleCount) samples")
    }
    // k/N is correctly rounded, so a frame that lands on the end equals it exactly.
    var last = Int(frames)
    if Double(last + 1) / rate <= end { last += 1 }
    while last > 0 && Double(last) / rate > end { last -= 1 }
    var result = (0...last).map { Double($0) / rate }
    if result[result.count - 1] < end { result.append(end) }
    return result
  }

  /// The CSV text: header, then a row per sample and layer.
  static func csv(_ document: SampleDocument) -> String {
    var header = ["time", "progress", "completed", "cancelled", "id", "order", "opacity", "blend"]
    for r in 1...4 { for c in 1...4 { header.append("m\(r)\(c)") } }
    for k in 0..<4 { header += ["x\(k)", "y\(k)"] }
    var out = header.joined(separator: ",") + "\n"
    for sample in document.samples {
      let prefix = [
        decimal(sample.time), decimal(sample.progress), "\(sample.completed)",
        "\(sample.cancelled)",
      ]
      for layer in sample.layers {
        var row = prefix
        row += [csvField(layer.id), "\(layer.order)", decimal(layer.opacity), layer.blend]
        row += layer.transform.map(decimal)
        row += layer.corners.flatMap { $0.map(decimal) }
        out += row.joined(separator: ",") + "\n"
      }
    }
    return out
  }

  /// An RFC 4180 field: quoted when it holds a comma, quote or line break.
  static func csvField(_ s: String) -> String {
    guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
      return s
    }
    var quoted = "\""
    for ch in s { quoted += ch == "\"" ? "\"\"" : String(ch) }
    return quoted + "\""
  }
}
