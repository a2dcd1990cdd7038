import ArgumentParser
import Foundation
import Segue
import SegueRender
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
  /// The spec file's path (spec sources only; `-` for standard input).
  var spec: String?
  /// The spec's `sampleTimes` (spec sources only).
  var specTimes: [Double]?
  /// The index in the spec's `layers` list of each layer id (spec sources only).
  var specLayerIndex: [String: Int] = [:]
  /// The numeric preset options given that shape the geometry (`--container`, `--hero-…`).
  var geometryOptions: [String] = []
  /// The decoded images the layers' `contents` name (spec sources only).
  var images = ContentsImages()

  /// The transition at wall-clock `time` seconds: ``TransitionScene/sample(at:interaction:)``
  /// with a history, else ``TransitionScene/sample(at:)``, without the library's overflow check:
  /// every caller passes the sample to `FiniteCheck.checkFinite`, which names the spec path or
  /// option to blame.
  func sample(at time: Double) throws(Segue.ValidationError) -> TransitionSample {
    if let interaction { return try scene.sampleUnchecked(at: time, interaction: interaction) }
    return try scene.sampleUnchecked(at: time)
  }

  /// The last moment worth sampling: the duration, or with a history the latest of the
  /// duration, the last event and the moment the completion fires.
  var endTime: Double { scene.endTime(interaction: interaction) }

  /// The work of evaluating the scene once, in items: layers + animations + model changes +
  /// interaction events (each sample visits every one of them).
  var sceneItems: Int {
    scene.model.count + scene.animations.entries.count + scene.events.count
      + scene.finishChanges.count + scene.cancelChanges.count + (interaction?.events.count ?? 0)
  }

  /// `3 layers, 2 animations, 1 event` for messages.
  var sceneDescription: String {
    func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
    var parts = [
      count(scene.model.count, "layer"), count(scene.animations.entries.count, "animation"),
    ]
    let changes = scene.events.count + scene.finishChanges.count + scene.cancelChanges.count
    if changes > 0 { parts.append(count(changes, "model change")) }
    if let interaction { parts.append(count(interaction.events.count, "interaction event")) }
    return parts.joined(separator: ", ")
  }
}

/// The options that choose the transition and its times, shared by `sample` and `render`: a
/// preset (``PresetOptions``) or `--spec FILE`, an optional `--events FILE`, and `--times` or
/// `--fps`.
struct TransitionInput: ParsableArguments {
  @OptionGroup var presetOptions: PresetOptions

  @Option(
    help: ArgumentHelp(
      "A spec file (JSON; see 'Spec files' in Segue's documentation) instead of a preset; - "
        + "reads standard input.",
      valueName: "file"))
  var spec: String?

  @Option(
    help: ArgumentHelp(
      "An interactive events script (JSON); replaces a spec's interaction; - reads standard "
        + "input.", valueName: "file"))
  var events: String?

  @Option(help: ArgumentHelp("Comma-separated times in seconds.", valueName: "t1,t2,…"))
  var times: String?

  @Option(help: ArgumentHelp("Frames per second from 0 to the end.", valueName: "N"))
  var fps: Double?

  /// Reads the preset or the spec file, and the events script.
  ///
  /// - Throws: ``CLIError``: usage for a preset option given with `--spec`, neither given,
  ///   `--times` with `--fps`, or both files on standard input; no input (66) for a missing or
  ///   unreadable file, and for an image or font file the spec names that is missing or
  ///   unreadable (relative to the spec's folder, the working directory for standard input);
  ///   data error (65) naming `--spec` or `--events` and the JSON path for a file whose content
  ///   is wrong or that is too large, and for an image or font the spec names that cannot be
  ///   decoded.
  func load() throws(CLIError) -> LoadedTransition {
    if times != nil && fps != nil {
      throw CLIError(.usage, "--times", "give either --times or --fps, not both")
    }
    if spec == "-" && events == "-" {
      throw CLIError(
        .usage, "--events", "--spec and --events cannot both read standard input (-)")
    }
    var loaded: LoadedTransition
    if let spec {
      if let option = presetOptions.givenOptions.first {
        throw CLIError(.usage, option, "cannot be combined with --spec (a spec file is the scene)")
      }
      let text = try readInputText(spec, argument: "--spec")
      let document: SpecDocument
      do { document = try SpecFile.decode(text: text, directory: Self.folder(of: spec)) } catch {
        throw CLIError.spec("--spec", error)
      }
      let images = try document.checkFileContents(argument: "--spec")
      loaded = LoadedTransition(
        scene: document.scene, interaction: document.interaction, spec: spec,
        specTimes: document.sampleTimes)
      loaded.images = images
      // The decoder accepted the text, so it parses; the list gives the JSON path of each layer.
      if let json = try? JSONValue.parse(text), case .array(let layers)? = json["layers"] {
        for (k, layer) in layers.enumerated() {
          if case .string(let id)? = layer["id"], loaded.specLayerIndex[id] == nil {
            loaded.specLayerIndex[id] = k
          }
        }
      }
    } else {
      let setup = try presetOptions.setup()
      loaded = LoadedTransition(
        scene: try setup.scene(), preset: setup.animator.preset.rawValue,
        operation: setup.operation.rawValue)
      loaded.geometryOptions = presetOptions.givenGeometryOptions
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

  /// The folder of the spec file `path`, against which the files it names are found: its
  /// directory part, or `.` for a bare name and for standard input (`-`).
  static func folder(of path: String) -> String {
    guard path != "-", let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The times: `--times`, else `--fps` (0…end inclusive), else the spec's `sampleTimes`, else
  /// `defaultFPS` frames per second; at most ``Budget/maximumSamples``.
  func sampleTimes(for transition: LoadedTransition, defaultFPS: Double) throws(CLIError)
    -> [Double]
  {
    let limit = Budget.maximumSamples
    if let times {
      let values = try parseNumberList(times, argument: "--times")
      for (i, t) in values.enumerated() { try requireNonNegative(t, "--times", index: i) }
      guard values.count <= limit else {
        throw CLIError(.dataError, "--times", "\(values.count) times: at most \(limit) are allowed")
      }
      return values
    }
    if fps == nil, let specTimes = transition.specTimes {
      guard specTimes.count <= limit else {
        throw CLIError(
          .dataError, "--spec",
          "$.sampleTimes: \(specTimes.count) times: at most \(limit) are allowed; give --fps or "
            + "--times")
      }
      return specTimes
    }
    return try Self.frameTimes(rate: fps ?? defaultFPS, end: transition.endTime)
  }

  /// The frames `k/rate` for `k = 0, 1, …` up to `end`, and `end` itself when it is not one of
  /// them; at most ``Budget/maximumSamples``.
  ///
  /// - Throws: ``CLIError`` naming `--fps`: a rate that is not finite or not positive, or too
  ///   many frames.
  static func frameTimes(rate: Double, end: Double) throws(CLIError) -> [Double] {
    let limit = Budget.maximumSamples
    try requirePositive(rate, "--fps")
    let frames = (end * rate).rounded(.down)
    guard frames < Double(limit) else {
      throw CLIError(
        .dataError, "--fps",
        "\(decimal(rate)) frames per second over \(decimal(end)) s is "
          + "\(frames.isFinite ? decimal(frames + 1) : "too many") samples: at most \(limit) "
          + "are allowed")
    }
    do { return try TransitionScene.frameTimes(fps: rate, end: end, maximum: limit) } catch {
      throw CLIError.data("--fps", error)
    }
  }

  /// The argument the sample times came from, for errors about one of them.
  var timesArgument: String {
    times != nil ? "--times" : fps != nil || spec == nil ? "--fps" : "--spec"
  }
}
