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
      [m11…m44], "corners": [[x, y] × 4], "order", "pieces" (only for a layer drawn in \
      pieces), "blend", "behindEye" (only when a corner is behind the eye), "backgroundColor": \
      [r, g, b, a], "cornerRadius", "maskedCorners": [corner names], "masksToBounds", \
      "borderWidth", "borderColor", "shadowOpacity", "shadowRadius", "shadowOffset": [w, h], \
      "shadowColor"}]}]}.
      CSV output: a header, then one row per sample and layer: time, progress, completed, \
      cancelled, id, order, opacity, blend, m11…m44, x0, y0 … x3, y3, backgroundR…A, \
      cornerRadius, masksToBounds, borderWidth, borderR…A, shadowOpacity, shadowRadius, \
      shadowOffsetWidth, shadowOffsetHeight, shadowR…A, maskedCorners (CACornerMask bits: 1 \
      top-left, 2 top-right, 4 bottom-left, 8 bottom-right).

      Depth order: "order" is the layer's position in the draw order (0 at the bottom). Where \
      layers leave their parent's plane and intersect, depth sorting cuts them (as Core \
      Animation does); a cut layer, and every layer inside it, is drawn once per piece: \
      "pieces": [{"order", "polygon": [[x, y], …]}] lists each draw position with the part of \
      the layer's bounds drawn there, a convex polygon in the layer's own coordinates (map it \
      with "transform"), possibly empty; "order" is then the first piece's. In CSV, when some \
      layer has pieces, every row gets two more columns, piece (its index) and polygon (x y \
      pairs separated by spaces), and such a layer one row per piece with that piece's order.

      Every sample is computed and checked (no number may overflow) before the first byte is \
      written; the output is then streamed. Budgets: at most 1000000 times, and samples × \
      scene items (layers + animations + model changes + interaction events) at most 2^22 \
      (4194304), about 150–700 bytes of JSON per layer and sample; a larger request is refused \
      before any work, with its size. --spec - and --events - read standard input.
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
      var pieces = false
      for (i, t) in times.enumerated() {
        let sample = try sample(transition, at: t, index: i)
        try transition.checkFinite(sample, index: i)
        pieces = pieces || sample.layers.contains { !$0.pieces.isEmpty }
      }
      let note: (String) -> Void = { text in if !quiet { printError("segue sample: " + text) } }
      try OutputTarget(output).stream(note: note) { writer throws(CLIError) in
        let encoder = SampleEncoder(format: format, transition: transition, pieces: pieces)
        try writer.write(encoder.header())
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 17)
        for (i, t) in times.enumerated() {
          let sample = try sample(transition, at: t, index: i)
          let phase = try? transition.interaction?.state(at: t).phase.rawValue
          encoder.record(sample, phase: phase, first: i == 0, into: &bytes)
          if bytes.count >= 1 << 16 {
            try writer.write(bytes)
            bytes.removeAll(keepingCapacity: true)
          }
        }
        try writer.write(bytes)
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
  /// Whether some layer of some sample is drawn in pieces: the CSV then has the columns
  /// `piece` and `polygon`, and one row per piece.
  var pieces = false

  /// Everything before the first sample.
  func header() -> String {
    switch format {
    case .csv:
      var header = [
        "time", "progress", "completed", "cancelled", "id", "order", "opacity", "blend",
      ]
      for r in 1...4 { for c in 1...4 { header.append("m\(r)\(c)") } }
      for k in 0..<4 { header += ["x\(k)", "y\(k)"] }
      header += ["backgroundR", "backgroundG", "backgroundB", "backgroundA", "cornerRadius"]
      header += ["masksToBounds", "borderWidth", "borderR", "borderG", "borderB", "borderA"]
      header += ["shadowOpacity", "shadowRadius", "shadowOffsetWidth", "shadowOffsetHeight"]
      header += ["shadowR", "shadowG", "shadowB", "shadowA", "maskedCorners"]
      if pieces { header += ["piece", "polygon"] }
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

  /// Appends one sample (preceded by a comma in JSON unless `first`) to `out`.
  func record(_ sample: TransitionSample, phase: String?, first: Bool, into out: inout [UInt8]) {
    switch format {
    case .csv:
      var prefix: [UInt8] = []
      prefix.append(decimal: sample.time)
      prefix.append(ascii: ",")
      prefix.append(decimal: sample.progress)
      prefix.append(ascii: sample.isCompleted ? ",true," : ",false,")
      prefix.append(ascii: sample.isCancelled ? "true," : "false,")
      for layer in sample.layers {
        guard pieces else {
          csvRow(layer, order: layer.order, prefix: prefix, into: &out)
          continue
        }
        guard !layer.pieces.isEmpty else {
          csvRow(layer, order: layer.order, prefix: prefix, suffix: Array(",,".utf8), into: &out)
          continue
        }
        for (k, piece) in layer.pieces.enumerated() {
          var suffix: [UInt8] = []
          suffix.append(text: ",\(k),")
          for (v, p) in piece.polygon.enumerated() {
            if v > 0 { suffix.append(ascii: " ") }
            suffix.append(decimal: p.x)
            suffix.append(ascii: " ")
            suffix.append(decimal: p.y)
          }
          csvRow(layer, order: piece.order, prefix: prefix, suffix: suffix, into: &out)
        }
      }
    case .json:
      out.append(ascii: first ? "{" : ",{")
      out.append(ascii: "\"cancelled\":")
      out.append(ascii: sample.isCancelled ? "true" : "false")
      out.append(ascii: ",\"completed\":")
      out.append(ascii: sample.isCompleted ? "true" : "false")
      out.append(ascii: ",\"layers\":[")
      for (k, layer) in sample.layers.enumerated() {
        out.append(ascii: k > 0 ? ",{" : "{")
        out.append(ascii: "\"backgroundColor\":")
        out.append(channels: layer.backgroundColor.channels)
        if layer.corners.contains(where: \.isBehindEye) {
          out.append(ascii: ",\"behindEye\":[")
          for (c, corner) in layer.corners.enumerated() {
            if c > 0 { out.append(ascii: ",") }
            out.append(ascii: corner.isBehindEye ? "true" : "false")
          }
          out.append(ascii: "]")
        }
        out.append(ascii: ",\"blend\":")
        out.append(text: jsonString(layer.blend.rawValue))
        out.append(ascii: ",\"borderColor\":")
        out.append(channels: layer.borderColor.channels)
        out.append(ascii: ",\"borderWidth\":")
        out.append(decimal: layer.borderWidth)
        out.append(ascii: ",\"cornerRadius\":")
        out.append(decimal: layer.cornerRadius)
        out.append(ascii: ",\"corners\":[")
        for (c, corner) in layer.corners.enumerated() {
          out.append(ascii: c > 0 ? ",[" : "[")
          out.append(decimal: corner.point.x)
          out.append(ascii: ",")
          out.append(decimal: corner.point.y)
          out.append(ascii: "]")
        }
        out.append(ascii: "],\"id\":")
        out.append(text: jsonString(layer.id))
        out.append(ascii: ",\"maskedCorners\":[")
        for (c, name) in layer.maskedCorners.names.enumerated() {
          if c > 0 { out.append(ascii: ",") }
          out.append(text: jsonString(name))
        }
        out.append(ascii: "],\"masksToBounds\":")
        out.append(ascii: layer.masksToBounds ? "true" : "false")
        out.append(ascii: ",\"opacity\":")
        out.append(decimal: layer.opacity)
        out.append(ascii: ",\"order\":")
        out.append(text: String(layer.order))
        if !layer.pieces.isEmpty {
          out.append(ascii: ",\"pieces\":[")
          for (k, piece) in layer.pieces.enumerated() {
            out.append(ascii: k > 0 ? ",{\"order\":" : "{\"order\":")
            out.append(text: String(piece.order))
            out.append(ascii: ",\"polygon\":[")
            for (v, p) in piece.polygon.enumerated() {
              out.append(ascii: v > 0 ? ",[" : "[")
              out.append(decimal: p.x)
              out.append(ascii: ",")
              out.append(decimal: p.y)
              out.append(ascii: "]")
            }
            out.append(ascii: "]}")
          }
          out.append(ascii: "]")
        }
        out.append(ascii: ",\"shadowColor\":")
        out.append(channels: layer.shadowColor.channels)
        out.append(ascii: ",\"shadowOffset\":")
        out.append(channels: [layer.shadowOffset.width, layer.shadowOffset.height])
        out.append(ascii: ",\"shadowOpacity\":")
        out.append(decimal: layer.shadowOpacity)
        out.append(ascii: ",\"shadowRadius\":")
        out.append(decimal: layer.shadowRadius)
        out.append(ascii: ",\"transform\":[")
        for (f, value) in layer.matrix.fields.enumerated() {
          if f > 0 { out.append(ascii: ",") }
          out.append(decimal: value)
        }
        out.append(ascii: "]}")
      }
      out.append(ascii: "]")
      if let phase {
        out.append(ascii: ",\"phase\":")
        out.append(text: jsonString(phase))
      }
      out.append(ascii: ",\"progress\":")
      out.append(decimal: sample.progress)
      out.append(ascii: ",\"time\":")
      out.append(decimal: sample.time)
      out.append(ascii: "}")
    }
  }

  /// One CSV row of `layer` at draw position `order`, after `prefix` (the sample's columns) and
  /// before `suffix` (the piece columns, when the document has them) and the line break.
  private func csvRow(
    _ layer: LayerSample, order: Int, prefix: [UInt8], suffix: [UInt8] = [],
    into out: inout [UInt8]
  ) {
    out.append(contentsOf: prefix)
    out.append(text: csvField(layer.id))
    out.append(ascii: ",")
    out.append(text: String(order))
    out.append(ascii: ",")
    out.append(decimal: layer.opacity)
    out.append(ascii: ",")
    out.append(text: layer.blend.rawValue)
    for value in layer.matrix.fields {
      out.append(ascii: ",")
      out.append(decimal: value)
    }
    for corner in layer.corners {
      out.append(ascii: ",")
      out.append(decimal: corner.point.x)
      out.append(ascii: ",")
      out.append(decimal: corner.point.y)
    }
    let appearance = layer.backgroundColor.channels + [layer.cornerRadius]
    for value in appearance {
      out.append(ascii: ",")
      out.append(decimal: value)
    }
    out.append(ascii: layer.masksToBounds ? ",true" : ",false")
    let rest =
      [layer.borderWidth] + layer.borderColor.channels + [layer.shadowOpacity, layer.shadowRadius]
      + [layer.shadowOffset.width, layer.shadowOffset.height] + layer.shadowColor.channels
    for value in rest {
      out.append(ascii: ",")
      out.append(decimal: value)
    }
    out.append(ascii: ",")
    out.append(text: String(layer.maskedCorners.rawValue))
    out.append(contentsOf: suffix)
    out.append(ascii: "\n")
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

/// A JSON string literal, as SegueSpec writes it (``JSONValue/serialized(pretty:)``): `"` and
/// `\\` escaped, control characters as `\\n`, `\\t`, … or `\\u00XX`; everything else (including
/// `/` and non-ASCII) as is — the same text as `JSONEncoder` with `.withoutEscapingSlashes`.
func jsonString(_ s: String) -> String {
  JSONValue.string(s).serialized()
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

extension [UInt8] {
  /// Appends the bytes of an ASCII literal.
  mutating func append(ascii text: StaticString) {
    append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends `[v0,v1,…]` (colour channels, an offset) in ``decimal(_:)`` form.
  mutating func append(channels values: [Double]) {
    append(ascii: "[")
    for (i, value) in values.enumerated() {
      if i > 0 { append(ascii: ",") }
      append(decimal: value)
    }
    append(ascii: "]")
  }

  /// Appends `text` as UTF-8.
  mutating func append(text: String) {
    var text = text
    text.withUTF8 { append(contentsOf: $0) }
  }

  /// Appends Swift's shortest round-trip form of `value` without a trailing `.0` (the bytes of
  /// ``decimal(_:)``).
  mutating func append(decimal value: Double) {
    var text = value.description
    text.withUTF8 { utf8 in
      let n = utf8.count
      let trailingZero =
        n >= 2 && utf8[n - 2] == UInt8(ascii: ".") && utf8[n - 1] == UInt8(ascii: "0")
      append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<(trailingZero ? n - 2 : n)]))
    }
  }
}
