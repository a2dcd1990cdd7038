import ArgumentParser
import Segue

/// The options that choose a preset, its operation, its container and its parameters
/// (``PresetParameters``); shared by `sample` and `profile`.
struct PresetOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The preset (see 'segue presets').",
      valueName: "name"))
  var preset: TransitionPreset?

  @Option(
    help: ArgumentHelp(
      "The operation; pop and dismiss run the preset in reverse (default push).",
      valueName: "operation"))
  var operation: TransitionOperation?

  @Option(
    help: ArgumentHelp(
      "Container width and height in points, each in (0, 16777216] (default 390,844).",
      valueName: "W,H"))
  var container: String?

  @Option(
    help: ArgumentHelp(
      "CATransition presets: the edge the new content comes from (default from-right).",
      valueName: "subtype"))
  var subtype: TransitionSubtype?

  @Option(
    name: .customLong("ca-duration"),
    help: ArgumentHelp(
      "CATransition presets: the duration in seconds, > 0 (default 0.25).", valueName: "seconds"))
  var caDuration: Double?

  @Option(
    name: .customLong("ca-timing"),
    help: ArgumentHelp(
      "CATransition presets: the timing function: \(timingFunctionForms) "
        + "(default: none, linear).", valueName: "timing"))
  var caTiming: String?

  @Option(
    name: .customLong("hero-selected-row"),
    help: ArgumentHelp("hero: the tapped list row, 0…16777216 (default 2).", valueName: "row"))
  var heroSelectedRow: Int?

  @Option(
    name: .customLong("hero-row-height"),
    help: ArgumentHelp(
      "hero: list row height in points, in (0, 16777216] (default 120).", valueName: "points"))
  var heroRowHeight: Double?

  @Option(
    name: .customLong("hero-list-top"),
    help: ArgumentHelp(
      "hero: top of the list's table in points, in [0, H) (default 100).", valueName: "points"))
  var heroListTop: Double?

  @Option(
    name: .customLong("hero-header-height"),
    help: ArgumentHelp(
      "hero: post header height in points, in (0, 16777216] (default 240).",
      valueName: "points"))
  var heroHeaderHeight: Double?

  @Option(
    name: .customLong("hero-cell-count"),
    help: ArgumentHelp("hero: visible post cells, 0…10000 (default 5).", valueName: "count"))
  var heroCellCount: Int?

  @Option(
    name: .customLong("hero-cell-height"),
    help: ArgumentHelp(
      "hero: post cell height in points, in (0, 16777216] (default 100).", valueName: "points"))
  var heroCellHeight: Double?

  @Option(
    help: ArgumentHelp(
      "What the default views draw: screens (iOS screens: status bar, navigation bar, lists, "
        + "photos) or bare (only the animated layers, one flat colour each) (default screens).",
      valueName: "content"))
  var views: DefaultViewContent?

  /// The library field each option sets, for naming the option in errors.
  static let optionForField: [String: String] = [
    "caDuration": "--ca-duration", "duration": "--ca-duration",
    "selectedRow": "--hero-selected-row", "rowHeight": "--hero-row-height",
    "listTop": "--hero-list-top", "headerHeight": "--hero-header-height",
    "cellCount": "--hero-cell-count", "cellHeight": "--hero-cell-height",
    "containerSize.width": "--container", "containerSize.height": "--container",
    "subtype": "--subtype", "preset": "--preset", "operation": "--operation",
  ]

  /// The names of the options given on the command line (none of them applies to a spec file).
  var givenOptions: [String] {
    let given: [(String, Bool)] = [
      ("--preset", preset != nil), ("--operation", operation != nil),
      ("--container", container != nil), ("--subtype", subtype != nil),
      ("--ca-duration", caDuration != nil), ("--ca-timing", caTiming != nil),
      ("--hero-selected-row", heroSelectedRow != nil), ("--hero-row-height", heroRowHeight != nil),
      ("--hero-list-top", heroListTop != nil), ("--hero-header-height", heroHeaderHeight != nil),
      ("--hero-cell-count", heroCellCount != nil), ("--hero-cell-height", heroCellHeight != nil),
      ("--views", views != nil),
    ]
    return given.filter(\.1).map(\.0)
  }

  /// The chosen preset, or `fallback` when `--preset` was not given (`nil`: it is required).
  func chosenPreset(fallback: TransitionPreset? = nil) throws(CLIError) -> TransitionPreset {
    guard let preset = preset ?? fallback else {
      throw CLIError(
        .usage, "--preset",
        "missing; give --spec FILE or choose one of "
          + TransitionPreset.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return preset
  }

  /// The numeric options given that shape the scene's geometry, for naming the input behind a
  /// value that overflows.
  var givenGeometryOptions: [String] {
    let given: [(String, Bool)] = [
      ("--container", container != nil), ("--hero-selected-row", heroSelectedRow != nil),
      ("--hero-row-height", heroRowHeight != nil), ("--hero-list-top", heroListTop != nil),
      ("--hero-header-height", heroHeaderHeight != nil),
      ("--hero-cell-count", heroCellCount != nil), ("--hero-cell-height", heroCellHeight != nil),
    ]
    return given.filter(\.1).map(\.0)
  }

  /// The largest length in points a preset option accepts (container sides, hero lengths):
  /// 2²⁴ = 16777216. Beyond it a `Float` (the batch kernels' and the rasteriser's precision) no
  /// longer resolves a point, and no screen comes near it; with it no preset's geometry can
  /// overflow.
  static let maximumLength = Double(1 << 24)

  /// The most hero post cells (each is four layers: the cell, its heading, text and separator):
  /// 10000.
  static let maximumHeroCells = 10_000

  /// The container size from `--container`.
  ///
  /// - Throws: usage for a malformed list, data error unless both are in `(0, 2²⁴]`.
  func containerSize() throws(CLIError) -> Size {
    let values = try parseNumberList(
      container ?? "390,844", argument: "--container", count: 2...2)
    for (i, v) in values.enumerated() {
      guard v.isFinite && v > 0 && v <= Self.maximumLength else {
        throw CLIError(
          .dataError, "--container",
          "\(i == 0 ? "width" : "height") must be greater than 0 and at most "
            + "\(decimal(Self.maximumLength)) points (got \(decimal(v)))")
      }
    }
    return Size(width: values[0], height: values[1])
  }

  /// Checks the hero options' ranges (the library checks the rest: positive lengths, the list
  /// inside the container).
  ///
  /// - Throws: data error naming the option: a length above 2²⁴ points, a row or cell count
  ///   above its maximum.
  func checkHeroRanges() throws(CLIError) {
    let lengths: [(String, Double?)] = [
      ("--hero-row-height", heroRowHeight), ("--hero-list-top", heroListTop),
      ("--hero-header-height", heroHeaderHeight), ("--hero-cell-height", heroCellHeight),
    ]
    for (name, value) in lengths {
      if let value, value.isFinite, abs(value) > Self.maximumLength {
        throw CLIError(
          .dataError, name,
          "must be at most \(decimal(Self.maximumLength)) points (got \(decimal(value)))")
      }
    }
    if let heroSelectedRow, heroSelectedRow > 1 << 24 {
      throw CLIError(
        .dataError, "--hero-selected-row", "must be at most \(1 << 24) (got \(heroSelectedRow))")
    }
    if let heroCellCount, heroCellCount > Self.maximumHeroCells {
      throw CLIError(
        .dataError, "--hero-cell-count",
        "must be at most \(Self.maximumHeroCells) (got \(heroCellCount))")
    }
  }

  /// The preset parameters from the options (defaults for those not given).
  ///
  /// - Throws: usage when an option does not apply to `preset` (a CATransition option on another
  ///   preset, a hero option on another preset) or a timing function is malformed.
  func parameters(for preset: TransitionPreset) throws(CLIError) -> PresetParameters {
    var parameters = PresetParameters()
    let caOptions: [(String, Bool)] = [
      ("--subtype", subtype != nil), ("--ca-duration", caDuration != nil),
      ("--ca-timing", caTiming != nil),
    ]
    for (name, given) in caOptions where given && !preset.isCATransition {
      throw CLIError(
        .usage, name,
        "applies only to the CATransition presets (ca-fade, ca-move-in, ca-push, ca-reveal), "
          + "not to \(preset)")
    }
    let heroOptions: [(String, Bool)] = [
      ("--hero-selected-row", heroSelectedRow != nil), ("--hero-row-height", heroRowHeight != nil),
      ("--hero-list-top", heroListTop != nil), ("--hero-header-height", heroHeaderHeight != nil),
      ("--hero-cell-count", heroCellCount != nil), ("--hero-cell-height", heroCellHeight != nil),
    ]
    for (name, given) in heroOptions where given && preset != .hero {
      throw CLIError(.usage, name, "applies only to the hero preset, not to \(preset)")
    }
    try checkHeroRanges()
    if let subtype { parameters.subtype = subtype }
    if let caDuration { parameters.caDuration = caDuration }
    if let caTiming {
      parameters.caTimingFunction = try parseTimingOption(caTiming, argument: "--ca-timing")
    }
    if let heroSelectedRow { parameters.hero.selectedRow = heroSelectedRow }
    if let heroRowHeight { parameters.hero.rowHeight = heroRowHeight }
    if let heroListTop { parameters.hero.listTop = heroListTop }
    if let heroHeaderHeight { parameters.hero.headerHeight = heroHeaderHeight }
    if let heroCellCount { parameters.hero.cellCount = heroCellCount }
    if let heroCellHeight { parameters.hero.cellHeight = heroCellHeight }
    return parameters
  }

  /// A library error while setting the preset up, naming the option that set the field.
  static func presetError(_ error: Segue.ValidationError) -> CLIError {
    let option = optionForField[error.field] ?? "--preset"
    return CLIError.data(option, error)
  }
}

/// A preset with everything needed to build its scene.
struct PresetSetup {
  /// The animator (preset and parameters).
  var animator: PresetAnimator
  /// The operation.
  var operation: TransitionOperation
  /// The container size in points.
  var containerSize: Size
  /// What the default views draw.
  var views: DefaultViewContent = .screens

  /// Builds the scene: the default views in a context, then `animateTransition(using:)`.
  ///
  /// - Throws: ``CLIError`` (data error) naming the option behind the rejected field.
  func scene() throws(CLIError) -> TransitionScene {
    do {
      let context = try animator.defaultContext(
        operation: operation, containerSize: containerSize, content: views)
      return try animator.animateTransition(using: context)
    } catch {
      throw PresetOptions.presetError(error)
    }
  }
}

extension PresetOptions {
  /// The setup these options describe.
  func setup(fallbackPreset: TransitionPreset? = nil) throws(CLIError) -> PresetSetup {
    let preset = try chosenPreset(fallback: fallbackPreset)
    let parameters = try parameters(for: preset)
    return PresetSetup(
      animator: PresetAnimator(preset, parameters: parameters), operation: operation ?? .push,
      containerSize: try containerSize(), views: views ?? .screens)
  }
}
