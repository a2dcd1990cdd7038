import ArgumentParser
import Foundation
import Segue
import SegueSpec

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
      behind the eye)}]}]}.
      CSV output: a header, then one row per sample and layer: time, progress, completed, \
      cancelled, id, order, opacity, blend, m11…m44, x0, y0 … x3, y3.
      """ + "\n\n" + exitCodesHelp)

  @OptionGroup var input: TransitionInput

  @Option(help: "Output format: json or csv.")
  var format: DataFormat = .json

  @Option(
    help: ArgumentHelp(
      "Write to this file instead of stdout (- for stdout).", valueName: "file"))
  var output: String?

  @Flag(name: .shortAndLong, help: "Print no informational messages on stderr.")
  var quiet = false

  func run() throws {
    try reportingErrors("sample") {
      let transition = try input.load()
      let times = try input.sampleTimes(for: transition, defaultFPS: 60)
      try Budget.checkSamples(times.count, of: transition, argument: input.timesArgument)
      // First pass: every sample is computed and checked before any byte is written, so a bad
      // value never leaves a partial document on stdout.
      for (i, t) in times.enumerated() {
        try transition.checkFinite(sample(transition, at: t, index: i), index: i)
      }
      let note: (String) -> Void = { text in if !quiet { printError("segue sample: " + text) } }
      try OutputTarget(output).stream(note: note) { writer throws(CLIError) in
        let encoder = SampleEncoder(format: format, transition: transition)
        try writer.write(encoder.header())
        for (i, t) in times.enumerated() {
          let sample = try sample(transition, at: t, index: i)
          let phase = try? transition.interaction?.state(at: t).phase.rawValue
          try writer.write(encoder.record(sample, phase: phase, first: i == 0))
        }
        try writer.write(encoder.footer())
      }
    }
  }

  /// The sample at `time`, item `index` of the times.
  private func sample(_ transition: LoadedTransition, at time: Double, index: Int)
    throws(CLIError) -> TransitionSample
  {
    do { return try transition.sample(at: time) } catch {
      throw CLIError.data(input.timesArgument, error, prefix: "item \(index): ")
    }
  }
}

/// The text of `segue sample`'s output, one sample at a time (the document is streamed).
///
/// JSON: the keys of every object in sorted order, numbers in Swift's shortest round-trip form
/// (``decimal(_:)``), no spaces: `{"container":[W,H],"duration":D,"interactive":B,
/// "operation":…,"preset":…,"samples":[…],"spec":…}` and a newline. CSV: the header, then one
/// row per sample and layer.
struct SampleEncoder {
  var format: DataFormat
  var transition: LoadedTransition

  /// Everything before the first sample.
  func header() -> String {
    switch format {
    case .csv:
      var header = [
        "time", "progress", "completed", "cancelled", "id", "order", "opacity", "blend",
      ]
      for r in 1...4 { for c in 1...4 { header.append("m\(r)\(c)") } }
      for k in 0..<4 { header += ["x\(k)", "y\(k)"] }
      return header.joined(separator: ",") + "\n"
    case .json:
      let size = transition.scene.containerSize
      var text = "{\"container\":[\(decimal(size.width)),\(decimal(size.height))]"
      text += ",\"duration\":\(decimal(transition.scene.duration))"
      text += ",\"interactive\":\(transition.interaction != nil)"
      if let operation = transition.operation { text += ",\"operation\":" + jsonString(operation) }
      if let preset = transition.preset { text += ",\"preset\":" + jsonString(preset) }
      return text + ",\"samples\":["
    }
  }

  /// One sample (preceded by a comma in JSON unless `first`).
  func record(_ sample: TransitionSample, phase: String?, first: Bool) -> String {
    switch format {
    case .csv:
      let prefix =
        "\(decimal(sample.time)),\(decimal(sample.progress)),\(sample.completed),"
        + "\(sample.cancelled),"
      var out = ""
      for layer in sample.layers {
        var row = [
          csvField(layer.id), "\(layer.order)", decimal(layer.opacity), layer.blend.rawValue,
        ]
        row += layer.matrix.fields.map(decimal)
        for corner in layer.corners { row += [decimal(corner.point.x), decimal(corner.point.y)] }
        out += prefix + row.joined(separator: ",") + "\n"
      }
      return out
    case .json:
      var text = first ? "{" : ",{"
      text += "\"cancelled\":\(sample.cancelled),\"completed\":\(sample.completed),\"layers\":["
      for (k, layer) in sample.layers.enumerated() {
        if k > 0 { text += "," }
        text += "{"
        if layer.corners.contains(where: \.isBehindEye) {
          text +=
            "\"behindEye\":[" + layer.corners.map { "\($0.isBehindEye)" }.joined(separator: ",")
          text += "],"
        }
        text += "\"blend\":" + jsonString(layer.blend.rawValue) + ",\"corners\":["
        text += layer.corners.map { "[\(decimal($0.point.x)),\(decimal($0.point.y))]" }
          .joined(separator: ",")
        text += "],\"id\":" + jsonString(layer.id) + ",\"opacity\":\(decimal(layer.opacity))"
        text += ",\"order\":\(layer.order),\"transform\":["
        text += layer.matrix.fields.map(decimal).joined(separator: ",") + "]}"
      }
      text += "]"
      if let phase { text += ",\"phase\":" + jsonString(phase) }
      text += ",\"progress\":\(decimal(sample.progress)),\"time\":\(decimal(sample.time))}"
      return text
    }
  }

  /// Everything after the last sample.
  func footer() -> String {
    switch format {
    case .csv: return ""
    case .json:
      var text = "]"
      if let spec = transition.spec { text += ",\"spec\":" + jsonString(spec) }
      return text + "}\n"
    }
  }
}

/// A JSON string literal: `"` and `\\` escaped, control characters as `\\n`, `\\t`, … or
/// `\\u00XX`; everything else (including `/` and non-ASCII) as is.
func jsonString(_ s: String) -> String {
  var out = "\""
  for scalar in s.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case "\u{08}": out += "\\b"
    case "\u{0C}": out += "\\f"
    default:
      if scalar.value < 0x20 {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}

/// An RFC 4180 field: quoted when it holds a comma, quote or line break.
func csvField(_ s: String) -> String {
  guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
    return s
  }
  var quoted = "\""
  for ch in s { quoted += ch == "\"" ? "\"\"" : String(ch) }
  return quoted + "\""
}
