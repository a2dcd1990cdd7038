import ArgumentParser
import Foundation
import Segue
import SegueSpec

/// The transition a command samples or renders: a preset's scene or a spec file's, with its
/// interactive history, if any.
struct LoadedTransition {
  /// The scene.
  var scene: TransitionScene
  /// The percent-driven history (`--events`, or the spec's `interaction`), or `nil`.
  var interaction: InteractionTimeline?
  /// The preset's name (preset sources only).
  var preset: String?
  /// The operation (preset sources only).
  var operation: String?
  /// The spec file's path (spec sources only).
  var spec: String?
  /// The spec's `sampleTimes` (spec sources only).
  var specTimes: [Double]?

  /// The transition at wall-clock `time` seconds: ``TransitionScene/sample(at:interaction:)``
  /// with a history, else ``TransitionScene/sample(at:)``.
  func sample(at time: Double) throws(Segue.ValidationError) -> TransitionSample {
    if let interaction { return try scene.sample(at: time, interaction: interaction) }
    return try scene.sample(at: time)
  }

  /// The last moment worth sampling: the duration, or with a history the latest of the
  /// duration, the last event and the moment the completion fires.
  var endTime: Double {
    guard let interaction, let last = interaction.events.last else { return scene.duration }
    var end = max(scene.duration, last.time)
    if let completion = try? interaction.state(at: last.time).completionTime {
      end = max(end, completion)
    }
    return end
  }
}

/// The options that choose the transition and its times, shared by `sample` and `render`: a
/// preset (``PresetOptions``) or `--spec FILE`, an optional `--events FILE`, and `--times` or
/// `--fps`.
struct TransitionInput: ParsableArguments {
  @OptionGroup var presetOptions: PresetOptions

  @Option(
    help: ArgumentHelp(
      "A spec file (JSON, see 'Spec files' in the README) instead of a preset.",
      valueName: "file"))
  var spec: String?

  @Option(
    help: ArgumentHelp(
      "An interactive events script (JSON); replaces a spec's interaction.", valueName: "file"))
  var events: String?

  @Option(help: ArgumentHelp("Comma-separated times in seconds.", valueName: "t1,t2,…"))
  var times: String?

  @Option(help: ArgumentHelp("Frames per second from 0 to the end.", valueName: "N"))
  var fps: Double?

  /// The most samples one run produces.
  static let maximumSampleCount = 1_000_000

  func validate() throws {
    if times != nil && fps != nil {
      throw ArgumentParser.ValidationError("give either --times or --fps, not both")
    }
  }

  /// Reads the preset or the spec file, and the events script.
  ///
  /// - Throws: ``CLIError``: usage for a preset option given with `--spec` or neither given; no
  ///   input (66) for a missing or unreadable file; data error (65) naming `--spec` or `--events`
  ///   and the JSON path for a file whose content is wrong.
  func load() throws(CLIError) -> LoadedTransition {
    var loaded: LoadedTransition
    if let spec {
      if let option = presetOptions.givenOptions.first {
        throw CLIError(.usage, option, "cannot be combined with --spec (a spec file is the scene)")
      }
      let text = try readInputText(spec, argument: "--spec")
      let document: SpecDocument
      do { document = try SpecFile.decode(text: text) } catch {
        throw CLIError.spec("--spec", error)
      }
      loaded = LoadedTransition(
        scene: document.scene, interaction: document.interaction, spec: spec,
        specTimes: document.sampleTimes)
    } else {
      let setup = try presetOptions.setup()
      loaded = LoadedTransition(
        scene: try setup.scene(), preset: setup.animator.preset.rawValue,
        operation: setup.operation.rawValue)
    }
    if let events {
      let text = try readInputText(events, argument: "--events")
      do {
        loaded.interaction = try SpecFile.decodeInteraction(
          text: text, duration: loaded.scene.duration)
      } catch {
        throw CLIError.spec("--events", error)
      }
    }
    return loaded
  }

  /// The times: `--times`, else `--fps` (0…end inclusive), else the spec's `sampleTimes`, else
  /// `defaultFPS` frames per second.
  func sampleTimes(for transition: LoadedTransition, defaultFPS: Double) throws(CLIError)
    -> [Double]
  {
    if let times {
      let values = try parseNumberList(times, argument: "--times")
      for (i, t) in values.enumerated() { try requireNonNegative(t, "--times", index: i) }
      guard values.count <= Self.maximumSampleCount else {
        throw CLIError(
          .dataError, "--times", "more than \(Self.maximumSampleCount) times (\(values.count))")
      }
      return values
    }
    if fps == nil, let specTimes = transition.specTimes { return specTimes }
    let rate = fps ?? defaultFPS
    let end = transition.endTime
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

  /// The argument the sample times came from, for errors about one of them.
  var timesArgument: String {
    times != nil ? "--times" : fps != nil || spec == nil ? "--fps" : "--spec"
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
  /// Appearance (presented values; colours `[r, g, b, a]`, offset `[width, height]`).
  var backgroundColor: [Double]
  var cornerRadius: Double
  var masksToBounds: Bool
  var borderWidth: Double
  var borderColor: [Double]
  var shadowOpacity: Double
  var shadowRadius: Double
  var shadowOffset: [Double]
  var shadowColor: [Double]

  init(_ layer: LayerSample) {
    id = layer.id
    opacity = layer.opacity
    transform = layer.matrix.fields
    corners = layer.corners.map { [$0.point.x, $0.point.y] }
    order = layer.order
    blend = layer.blend.rawValue
    behindEye = layer.corners.contains { $0.isBehindEye } ? layer.corners.map(\.isBehindEye) : nil
    backgroundColor = layer.backgroundColor.channels
    cornerRadius = layer.cornerRadius
    masksToBounds = layer.masksToBounds
    borderWidth = layer.borderWidth
    borderColor = layer.borderColor.channels
    shadowOpacity = layer.shadowOpacity
    shadowRadius = layer.shadowRadius
    shadowOffset = [layer.shadowOffset.width, layer.shadowOffset.height]
    shadowColor = layer.shadowColor.channels
  }

  /// The CSV columns after the corners, in order.
  static let appearanceColumns =
    ["backgroundR", "backgroundG", "backgroundB", "backgroundA", "cornerRadius", "masksToBounds"]
    + ["borderWidth", "borderR", "borderG", "borderB", "borderA", "shadowOpacity", "shadowRadius"]
    + ["shadowOffsetWidth", "shadowOffsetHeight", "shadowR", "shadowG", "shadowB", "shadowA"]

  /// The appearance fields as CSV cells, in ``appearanceColumns`` order.
  var appearanceCells: [String] {
    backgroundColor.map(decimal) + [decimal(cornerRadius), "\(masksToBounds)"]
      + [decimal(borderWidth)] + borderColor.map(decimal)
      + [decimal(shadowOpacity), decimal(shadowRadius)] + shadowOffset.map(decimal)
      + shadowColor.map(decimal)
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
  var spec: String?
  var duration: Double
  var container: [Double]
  var interactive: Bool
  var samples: [SampleRecord]
}

/// `segue sample`.
struct SampleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sample",
    abstract: "Sample a transition preset or spec file at given times, optionally interactively.",
    discussion: """
      Source: --preset NAME with its options, or --spec FILE (a spec file; no preset option \
      applies). Times: --times t1,t2,… (seconds, finite, ≥ 0) or --fps N (frames k/N for k = 0, \
      1, … up to the end, and the end itself); by default a spec's sampleTimes, else --fps 60. \
      The end is the duration, or with an interaction the latest of the duration, the last \
      event and the moment the completion fires.

      --events FILE: an interaction in the spec format: a JSON array of {"time": t, ACTION} \
      with ACTION one of "update": p, "pause": true, "finish": SETTINGS, "cancel": SETTINGS; \
      SETTINGS is true or {"completionSpeed": s, "completionCurve": c} with c a timing function \
      ("easeOut", "cubic-bezier(x1, y1, x2, y2)", [x1, y1, x2, y2], {"controlPoints": […]}, …). \
      Or an object {"events": [...], "wantsInteractiveStart": false, "completionSpeed": s, \
      "completionCurve": c}. Times are wall-clock seconds and must not decrease. It replaces \
      the interaction of a spec.

      JSON output: {"preset", "operation" (presets) or "spec" (the file), "duration", \
      "container": [W, H], "interactive", "samples": [{"time", "progress", "completed", \
      "cancelled", "phase" (interactive only), "layers": [{"id", "opacity", "transform": \
      [m11…m44], "corners": [[x, y] × 4], "order", "blend", "behindEye" (only when a corner is \
      behind the eye), "backgroundColor": [r, g, b, a], "cornerRadius", "masksToBounds", \
      "borderWidth", "borderColor", "shadowOpacity", "shadowRadius", "shadowOffset": [w, h], \
      "shadowColor"}]}]}.
      CSV output: a header, then one row per sample and layer: time, progress, completed, \
      cancelled, id, order, opacity, blend, m11…m44, x0, y0 … x3, y3, backgroundR…A, \
      cornerRadius, masksToBounds, borderWidth, borderR…A, shadowOpacity, shadowRadius, \
      shadowOffsetWidth, shadowOffsetHeight, shadowR…A.
      """ + "\n\n" + exitCodesHelp)

  @OptionGroup var input: TransitionInput

  @Option(help: "Output format: json or csv.")
  var format: DataFormat = .json

  @Option(help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"))
  var output: String?

  func run() throws {
    try reportingErrors("sample") {
      let bytes = try render(input.load())
      try OutputTarget(output).write(bytes)
    }
  }

  /// Samples `transition` and encodes the result.
  func render(_ transition: LoadedTransition) throws -> [UInt8] {
    let scene = transition.scene
    let timeline = transition.interaction
    let sampleTimes = try input.sampleTimes(for: transition, defaultFPS: 60)
    var records: [SampleRecord] = []
    records.reserveCapacity(sampleTimes.count)
    for (i, t) in sampleTimes.enumerated() {
      do {
        let sample = try transition.sample(at: t)
        let phase = try timeline?.state(at: t).phase.rawValue
        records.append(
          SampleRecord(
            time: sample.time, progress: sample.progress, completed: sample.completed,
            cancelled: sample.cancelled, phase: phase, layers: sample.layers.map(LayerRecord.init)))
      } catch {
        throw CLIError.data(input.timesArgument, error, prefix: "item \(i): ")
      }
    }
    let document = SampleDocument(
      preset: transition.preset, operation: transition.operation, spec: transition.spec,
      duration: scene.duration,
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

  /// The CSV text: header, then a row per sample and layer.
  static func csv(_ document: SampleDocument) -> String {
    var header = ["time", "progress", "completed", "cancelled", "id", "order", "opacity", "blend"]
    for r in 1...4 { for c in 1...4 { header.append("m\(r)\(c)") } }
    for k in 0..<4 { header += ["x\(k)", "y\(k)"] }
    header += LayerRecord.appearanceColumns
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
        row += layer.appearanceCells
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
