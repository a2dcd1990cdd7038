import ArgumentParser
import Foundation
import Segue
import SegueRender
import SegueSnapshot
import SegueSpec

/// `segue snapshot record|verify`: snapshot tests of spec files and presets without Swift tests.
struct SnapshotCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "snapshot",
    abstract: "Record or verify snapshots of spec files and presets (for CI without Swift tests).",
    discussion: """
      Each transition (a spec file, named after its file without .json, or a preset with \
      --presets, named PRESET-OPERATION) is rendered as SegueTesting's assertTransitionSnapshot \
      renders it and stored in --snapshots as NAME.frame-K.png (frames), NAME.png (filmstrip, \
      animation) or NAME.txt (curves). 'verify' writes no snapshot; it exits 1 when a snapshot \
      is missing, unreadable or different, and writes an HTML report of those (--report). \
      --shard I/N checks the I-th of N shares (a stable split by name, for a CI matrix).

      Exit codes of verify: 0 every snapshot matches, 1 a snapshot is missing, unreadable or \
      different; the codes below otherwise.
      """ + "\n\n" + exitCodesHelp,
    subcommands: [Record.self, Verify.self])

  /// `segue snapshot record`.
  struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "record", abstract: "Render the transitions and write their snapshots.")

    @OptionGroup var options: SnapshotOptions

    func run() throws {
      try reportingErrors("snapshot record") {
        let plan = try options.plan()
        let commit = FileCommit()
        var files = 0
        do throws(CLIError) {
          for transition in plan.transitions {
            let strategy = plan.strategy(for: transition)
            let parts = try SnapshotOptions.data(transition.argument) {
              () throws(Segue.ValidationError) in
              try strategy.snapshot(of: transition.scene, interaction: transition.interaction)
            }
            for part in parts {
              let bytes = try SnapshotOptions.data(transition.argument) {
                () throws(Segue.ValidationError) in try part.encoded()
              }
              let path = plan.directory + "/" + transition.name + "." + part.suffix
              try commit.add(bytes, to: path, argument: "--snapshots")
              files += 1
            }
          }
          try commit.commit()
        } catch {
          commit.discard()
          throw error
        }
        if !options.quiet {
          printError(
            "segue snapshot record: wrote \(files) files of \(plan.transitions.count) "
              + "transitions in \(plan.directory)\(plan.shardNote)")
        }
      }
    }
  }

  /// `segue snapshot verify`.
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "verify",
      abstract: "Compare the transitions with their snapshots (exit 1 when one differs).")

    @OptionGroup var options: SnapshotOptions

    @Option(help: ArgumentHelp("Write an HTML report of the differences.", valueName: "file.html"))
    var report: String?

    @Option(
      help: ArgumentHelp(
        "Also write each differing file's new image and diff into this folder.",
        valueName: "dir"))
    var artifacts: String?

    func run() throws {
      var failed = false
      try reportingErrors("snapshot verify") {
        let plan = try options.plan()
        try SnapshotOptions.requireDirectory(plan.directory, "--snapshots", status: .noInput)
        if let artifacts {
          try SnapshotOptions.requireDirectory(artifacts, "--artifacts", status: .cannotCreate)
        }
        var entries: [SnapshotReport.Entry] = []
        for transition in plan.transitions {
          let verification = SnapshotVerification(
            scene: transition.scene, interaction: transition.interaction,
            strategy: plan.strategy(for: transition),
            reference: SnapshotReference(
              directory: URL(fileURLWithPath: plan.directory), baseName: transition.name),
            record: .never, artifacts: artifacts.map { URL(fileURLWithPath: $0) },
            keepsBytes: report != nil)
          let outcome = verification.run()
          if let error = outcome.error {
            throw CLIError(.dataError, transition.argument, error)
          }
          entries.append(SnapshotReport.Entry(name: transition.name, files: outcome.files))
          for file in outcome.files where file.isFailure { print(file.message) }
        }
        let failing = entries.filter { $0.files.contains(where: \.isFailure) }
        failed = !failing.isEmpty
        if let report {
          let page = SnapshotReport(title: "Segue snapshots: \(plan.directory)", entries: entries)
          try OutputTarget(report).write(page.html, argument: "--report")
        }
        if !options.quiet {
          let summary =
            failed
            ? "\(failing.count) of \(entries.count) transitions differ from their snapshots"
            : "\(entries.count) transitions match their snapshots"
          printError(
            "segue snapshot verify: \(summary)\(plan.shardNote)"
              + (report.map { "; report \($0)" } ?? ""))
        }
      }
      if failed { throw ExitCode(1) }
    }
  }
}

/// The options `record` and `verify` share: the transitions, the strategy, the folder, the
/// shard.
struct SnapshotOptions: ParsableArguments {
  @Argument(help: ArgumentHelp("Spec files (JSON).", valueName: "spec"))
  var specs: [String] = []

  @Flag(help: "Also every preset, push and pop (named PRESET-OPERATION).")
  var presets = false

  @Option(help: ArgumentHelp("The snapshot folder.", valueName: "dir"))
  var snapshots: String

  @Option(help: "What to record (default frames).")
  var strategy: SnapshotStrategyName?

  @Option(
    help: ArgumentHelp(
      "Comma-separated times in seconds (default: --frames evenly spaced times).",
      valueName: "t1,t2,…"))
  var times: String?

  @Option(
    help: ArgumentHelp(
      "Frames from the start to the end of each run, both included, 1…10000 (default 5).",
      valueName: "n"))
  var frames: Int?

  @Option(help: ArgumentHelp("animation: frames per second, > 0 (default 30).", valueName: "n"))
  var fps: Double?

  @Option(help: ArgumentHelp("Pixels per point, > 0 (default 0.5).", valueName: "scale"))
  var scale: Double?

  @Option(help: ArgumentHelp("filmstrip: frames per row, ≥ 1 (default 6).", valueName: "n"))
  var columns: Int?

  @Option(help: ArgumentHelp("Share of pixels that must match, 0…1 (default 1).", valueName: "p"))
  var precision: Double?

  @Option(
    help: ArgumentHelp(
      "How much a pixel's colour may differ, 0…1: (1 − p)·100 CIEDE2000 units (default 1).",
      valueName: "p"))
  var perceptualPrecision: Double?

  @Option(
    help: ArgumentHelp(
      "Check only share I of N (1 ≤ I ≤ N), split by a hash of each transition's name.",
      valueName: "I/N"))
  var shard: String?

  @Flag(name: .shortAndLong, help: "Print no summary.")
  var quiet = false

  /// What a run does.
  struct Plan {
    var directory: String
    /// The strategy; without times when they are evenly spaced per transition.
    var strategy: TransitionSnapshotting
    /// The evenly spaced frames per transition when the strategy has no times.
    var frameCount: Int
    var transitions: [SnapshotTransition]
    var shardNote: String

    /// The strategy for `transition`: with `frameCount` times from 0 to the end of its run
    /// (``/Segue/TransitionScene/endTime(interaction:)``) when none were given.
    func strategy(for transition: SnapshotTransition) -> TransitionSnapshotting {
      let end = transition.scene.endTime(interaction: transition.interaction)
      let n = frameCount
      let times = n == 1 ? [0] : (0..<n).map { end * Double($0) / Double(n - 1) }
      var result = strategy
      switch strategy.format {
      case .frames(let given, let renderer, let tolerance) where given.isEmpty:
        result.format = .frames(times: times, renderer: renderer, tolerance: tolerance)
      case .filmstrip(let given, let renderer, let columns, let tolerance) where given.isEmpty:
        result.format = .filmstrip(
          times: times, renderer: renderer, columns: columns, tolerance: tolerance)
      case .curves(let given, let tolerance) where given.isEmpty:
        result.format = .curves(times: times, tolerance: tolerance)
      default:
        break
      }
      return result
    }
  }

  /// Reads the transitions, picks this shard's and builds the strategy.
  ///
  /// - Throws: ``CLIError``: usage for no transitions, duplicate names or a bad `--shard`
  ///   form; data errors for bad values and spec files; no input for missing spec files.
  func plan() throws(CLIError) -> Plan {
    guard !specs.isEmpty || presets else {
      throw CLIError(.usage, "spec", "give spec files, --presets, or both")
    }
    let split = try shard.map { s throws(CLIError) in try SnapshotShard(parsing: s) }
    var all: [SnapshotTransition] = []
    for path in specs { all.append(try SnapshotTransition(spec: path)) }
    if presets { all += try SnapshotTransition.presets() }
    var seen: [String: String] = [:]
    for t in all {
      if let other = seen.updateValue(t.argument, forKey: t.name) {
        throw CLIError(
          .usage, t.argument, "has the snapshot name '\(t.name)' of \(other); rename one")
      }
    }
    let chosen = split.map { s in all.filter { s.contains($0.name) } } ?? all
    var plan = Plan(
      directory: snapshots, strategy: try makeStrategy(), frameCount: frames ?? 5,
      transitions: chosen, shardNote: "")
    if let split {
      plan.shardNote = " (shard \(split.index)/\(split.count): \(chosen.count) of \(all.count))"
    }
    return plan
  }

  /// The strategy the options describe, with its times resolved per transition later
  /// (``SnapshotTransition/parts(_:)``) when `--times` is not given.
  func makeStrategy() throws(CLIError) -> TransitionSnapshotting {
    if times != nil && frames != nil {
      throw CLIError(.usage, "--times", "give either --times or --frames, not both")
    }
    let scale = scale ?? 0.5
    try requirePositive(scale, "--scale")
    let precision = precision ?? 1
    let perceptual = perceptualPrecision ?? 1
    for (value, name) in [(precision, "--precision"), (perceptual, "--perceptual-precision")]
    where !(value >= 0 && value <= 1) {
      throw CLIError(.dataError, name, "must be in [0, 1] (got \(value))")
    }
    let columns = columns ?? 6
    guard columns >= 1 else { throw CLIError(.dataError, "--columns", "must be at least 1") }
    if let frames, !(1...TransitionSnapshotting.maximumFrames).contains(frames) {
      throw CLIError(.dataError, "--frames", "must be in 1…10000 (got \(frames))")
    }
    let tolerance = ImageTolerance(precision: precision, perceptualPrecision: perceptual)
    let renderer = SceneRenderer(scale: scale)
    var list: [Double] = []
    if let times {
      list = try parseNumberList(times, argument: "--times")
      for (i, t) in list.enumerated() { try requireNonNegative(t, "--times", index: i) }
    }
    switch strategy ?? .frames {
    case .frames: return .frames(times: list, renderer: renderer, tolerance: tolerance)
    case .filmstrip:
      return .filmstrip(times: list, renderer: renderer, columns: columns, tolerance: tolerance)
    case .curves: return .curves(times: list)
    case .animation:
      let rate = fps ?? 30
      try requirePositive(rate, "--fps")
      return .animation(fps: rate, renderer: renderer, tolerance: tolerance)
    }
  }

  /// Runs `body`, reporting a library error as bad data on `argument`.
  static func data<T>(_ argument: String, _ body: () throws(Segue.ValidationError) -> T)
    throws(CLIError) -> T
  {
    do { return try body() } catch { throw CLIError.data(argument, error) }
  }

  /// Throws `status` unless `path` is an existing directory.
  static func requireDirectory(_ path: String, _ argument: String, status: ExitStatus)
    throws(CLIError)
  {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CLIError(status, argument, "'\(path)': no such directory")
    }
    guard isDirectory.boolValue else {
      throw CLIError(status, argument, "'\(path)' is not a directory")
    }
  }
}

/// The strategies by name.
enum SnapshotStrategyName: String, ExpressibleByArgument, CaseIterable {
  case frames, filmstrip, animation, curves
}

/// `--shard I/N`: the transitions whose name hashes to `I − 1` modulo `N`.
struct SnapshotShard {
  var index: Int
  var count: Int

  /// Parses `I/N`.
  ///
  /// - Throws: ``CLIError``: usage for another form; data error for `N < 1` or `I` outside
  ///   `1…N`.
  init(parsing text: String) throws(CLIError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
      throw CLIError(.usage, "--shard", "expected I/N such as 2/4, got '\(text)'")
    }
    guard n >= 1 else { throw CLIError(.dataError, "--shard", "N must be at least 1 (got \(n))") }
    guard i >= 1 && i <= n else {
      throw CLIError(.dataError, "--shard", "I must be in 1…\(n) (got \(i))")
    }
    (index, count) = (i, n)
  }

  /// Whether the transition `name` is in this shard: FNV-1a (64-bit) of its UTF-8 bytes,
  /// modulo the shard count — a split that does not move the others when one is added.
  func contains(_ name: String) -> Bool {
    Int(Self.hash(name) % UInt64(count)) == index - 1
  }

  static func hash(_ name: String) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return h
  }
}

/// One transition of a snapshot run.
struct SnapshotTransition {
  var name: String
  /// What to name in errors: the spec's path, or `--presets`.
  var argument: String
  var scene: TransitionScene
  var interaction: InteractionTimeline?

  /// A spec file's transition.
  init(spec path: String) throws(CLIError) {
    let text = try readInputText(path, argument: path)
    let document: SpecDocument
    do { document = try SpecFile.decode(text: text) } catch { throw CLIError.spec(path, error) }
    var base = URL(fileURLWithPath: path).lastPathComponent
    if base.hasSuffix(".json") { base.removeLast(5) }
    name = base
    argument = path
    scene = document.scene
    interaction = document.interaction
  }

  init(name: String, scene: TransitionScene) {
    self.name = name
    self.argument = "--presets"
    self.scene = scene
  }

  /// Every preset, push and pop, in the default container.
  static func presets() throws(CLIError) -> [SnapshotTransition] {
    var out: [SnapshotTransition] = []
    for preset in TransitionPreset.allCases {
      for operation in [TransitionOperation.push, .pop] {
        let setup = PresetSetup(
          animator: PresetAnimator(preset), operation: operation,
          containerSize: SpecFile.defaultContainer)
        out.append(
          SnapshotTransition(
            name: "\(preset.rawValue)-\(operation.rawValue)", scene: try setup.scene()))
      }
    }
    return out
  }
}
