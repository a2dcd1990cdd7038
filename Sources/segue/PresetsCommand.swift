import ArgumentParser
import Foundation
import Segue
import SegueSpec

/// One preset parameter as listed by `segue presets`.
struct ParameterInfo: Encodable {
  /// The command line option.
  var option: String
  /// The library's field name.
  var name: String
  /// The default, as the option would be written.
  var `default`: String
  /// Accepted values or range, in words.
  var accepts: String
}

/// One preset as listed by `segue presets`.
struct PresetInfo: Encodable {
  /// Per-operation facts.
  struct Operation: Encodable {
    /// `transitionDuration` in seconds with the default parameters and container.
    var duration: Double
    /// The layer ids of the scene, in insertion order.
    var layers: [String]
  }

  var name: String
  var catransition: Bool
  var push: Operation
  var pop: Operation
  var parameters: [ParameterInfo]
}

/// `segue presets`.
struct PresetsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "presets",
    abstract: "List the transition presets with their durations, layers and parameters.",
    discussion: """
      Durations and layers are those of the default parameters in the default 390 × 844 \
      container. Each parameter is a 'segue sample' option.
      """ + "\n\n" + exitCodesHelp)

  @Option(help: "Output format: text or json.")
  var format: ReportFormat = .text

  func run() throws {
    try reportingErrors("presets") {
      let infos = try Self.presetInfos()
      switch format {
      case .json:
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(["presets": infos])
        data.append(UInt8(ascii: "\n"))
        try OutputTarget.standardOutput.write(Array(data))
      case .text:
        try OutputTarget.standardOutput.write(Self.table(infos))
      }
    }
  }

  /// The parameters that apply to `preset`, with the library's defaults.
  static func parameters(of preset: TransitionPreset) -> [ParameterInfo] {
    let d = PresetParameters()
    if preset.isCATransition {
      return [
        ParameterInfo(
          option: "--subtype", name: "subtype", default: d.subtype.rawValue,
          accepts: TransitionSubtype.allCases.map(\.rawValue).joined(separator: "|")),
        ParameterInfo(
          option: "--ca-duration", name: "caDuration", default: decimal(d.caDuration),
          accepts: "seconds > 0"),
        ParameterInfo(
          option: "--ca-timing", name: "caTimingFunction",
          default: d.caTimingFunction == nil ? "none (linear)" : "set",
          accepts: SpecFile.timingFunctionNames.joined(separator: "|")
            + "|cubic-bezier(x1,y1,x2,y2)"),
      ]
    }
    if preset == .hero {
      let h = d.hero
      return [
        ParameterInfo(
          option: "--hero-selected-row", name: "selectedRow", default: "\(h.selectedRow)",
          accepts: "integer 0…16777216"),
        ParameterInfo(
          option: "--hero-row-height", name: "rowHeight", default: decimal(h.rowHeight),
          accepts: "points in (0, 16777216]"),
        ParameterInfo(
          option: "--hero-list-top", name: "listTop", default: decimal(h.listTop),
          accepts: "points in [0, H)"),
        ParameterInfo(
          option: "--hero-header-height", name: "headerHeight", default: decimal(h.headerHeight),
          accepts: "points in (0, 16777216]"),
        ParameterInfo(
          option: "--hero-cell-count", name: "cellCount", default: "\(h.cellCount)",
          accepts: "integer 0…10000"),
        ParameterInfo(
          option: "--hero-cell-height", name: "cellHeight", default: decimal(h.cellHeight),
          accepts: "points in (0, 16777216]"),
      ]
    }
    return []
  }

  /// Every preset, described from the library.
  static func presetInfos() throws(CLIError) -> [PresetInfo] {
    var infos: [PresetInfo] = []
    for preset in TransitionPreset.allCases {
      func operation(_ op: TransitionOperation) throws(CLIError) -> PresetInfo.Operation {
        let setup = PresetSetup(
          animator: PresetAnimator(preset), operation: op,
          containerSize: Size(width: 390, height: 844))
        let scene = try setup.scene()
        return PresetInfo.Operation(
          duration: scene.duration, layers: scene.model.layers.map(\.id))
      }
      infos.append(
        PresetInfo(
          name: preset.rawValue, catransition: preset.isCATransition,
          push: try operation(.push), pop: try operation(.pop),
          parameters: parameters(of: preset)))
    }
    return infos
  }

  /// The text table.
  static func table(_ infos: [PresetInfo]) -> String {
    func pad(_ s: String, _ width: Int) -> String {
      s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
    var out =
      pad("PRESET", 16) + pad("PUSH s", 8) + pad("POP s", 8) + "LAYERS (push)\n"
    for info in infos {
      out +=
        pad(info.name, 16) + pad(decimal(info.push.duration), 8)
        + pad(decimal(info.pop.duration), 8) + info.push.layers.joined(separator: ", ") + "\n"
      for p in info.parameters {
        out += "    " + pad(p.option, 22) + pad("default " + p.default, 22) + p.accepts + "\n"
      }
    }
    return out
  }
}
