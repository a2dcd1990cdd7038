import ArgumentParser
import Segue
import SegueSpec

/// `segue preview`.
struct PreviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview",
    abstract:
      "Write a self-contained HTML page that plays a preset or spec file and lets a drag drive "
      + "its interaction.",
    discussion: """
      Source: --preset NAME with its options (the page holds push and pop, or present and \
      dismiss; --operation chooses the one shown first), or --spec FILE (its scene). --events \
      FILE (or a spec's interaction) adds a scripted interaction to the first scene.

      The page is one HTML file with its styles, scripts and data inline: no network, no \
      external fonts. It holds each scene's render lists (what 'segue render' draws) \
      at animation times k/N for --fps N (default 120) up to the duration, and the finished and \
      cancelled end states; it plays them on a canvas, interpolating between samples. Each \
      layer is drawn as 'segue render' draws it, through its matrix: its shadow (the rounded \
      bounds blurred by the browser's Gaussian of the same standard deviation), its fill with \
      rounded corners (cornerRadius, maskedCorners), its contents image (each image embedded \
      once, as PNG), its gradient (axial, radial or conic), its paths (a shape's fill and \
      stroke, a text layer's glyph outlines from the renderer's text layout, so the page needs \
      no fonts), and after its sublayers its border; sublayers of a layer with masksToBounds \
      are clipped to its rounded bounds. Images, gradients and shadows under perspective are \
      drawn through a mesh of small triangles. Controls: play/pause (Space), a time scrubber (arrows step one sample), speed 0.1×–4× \
      ([ and ]), loop (L), reset (R), the operation, and the timeline: the animation, \
      the scripted interaction, or your last drag. A drag on the stage drives the \
      percent-driven interaction with the preset's gesture rules (its own for fade-slide, \
      cross-dissolve and depth; the fade-slide edge swipe's otherwise) and, on release, runs \
      finish or cancel with completionSpeed and the completion curve, as the library's \
      InteractionTimeline does.

      Seek hook: PAGE?t=T1,T2,…&op=push,pop&scale=S&timeline=animation|events \
      draws those moments; with chrome=0 (or more than one moment) the controls are hidden \
      and the page is a grid of frames from its top-left corner, one row per operation, each \
      round(S·W) × round(S·H) pixels as 'segue render --scale S' writes them. \
      timeline=drag&drag=T:X,Y;T:X,Y;… (seconds, container points; ;cancel at the end: a \
      cancelled gesture) replays a drag as the stage records one (rule=velocity, \
      completionSpeed=K). The page sets the data-ready attribute of the html element when \
      drawn, or data-error.

      Budgets: as 'segue sample' for the samples (each scene's frames × scene items at most \
      2^22), and the page at most 32 MiB (2^25 bytes), estimated from frames × layers before \
      any sampling; a larger request is refused with its size. The page is written through a \
      temporary file and renamed into place; --output - (or no --output) writes it to stdout.
      """ + "\n\n" + exitCodesHelp)

  @OptionGroup var input: TransitionInput

  @Option(
    help: ArgumentHelp(
      "Write the page to this file instead of stdout (- for stdout).", valueName: "file"))
  var output: String?

  @Flag(name: .shortAndLong, help: "Print no summary and no informational messages.")
  var quiet = false

  /// Samples per second of animation time when --fps is not given.
  static let defaultFPS = 120.0

  func run() throws {
    try reportingErrors("preview") {
      if input.times != nil {
        throw CLIError(
          .usage, "--times",
          "preview samples each scene's whole timeline; give --fps N (default 120)")
      }
      let transition = try input.load()
      let sources = try scenes(transition)
      let builder = PreviewDataBuilder(fps: input.fps ?? Self.defaultFPS)
      try checkBudgets(sources, builder)
      var sceneData: [JSONValue] = []
      var images = PreviewImages()
      for source in sources {
        sceneData.append(
          try builder.sceneData(source, images: &images))
      }
      let html = try page(transition, sources, builder, sceneData, images)
      let bytes = Array(html.utf8)
      guard bytes.count <= Budget.maximumPreviewBytes else {
        throw CLIError(
          .dataError, "--fps",
          "the page would be \(bytes.count) bytes, above the budget of "
            + "\(Budget.maximumPreviewBytes) (2^25, 32 MiB); use a lower --fps")
      }
      let note: (String) -> Void = { text in if !quiet { printError("segue preview: " + text) } }
      let target = OutputTarget(output)
      try target.stream(note: note) { writer throws(CLIError) in try writer.write(bytes) }
      if case .file(let path) = target, !quiet {
        let frames = sceneData.compactMap { scene -> String? in
          guard case .string(let name)? = scene["name"],
            case .number(let count)? = scene["runningFrameCount"]
          else { return nil }
          return "\(name) \(Int(count)) samples"
        }
        try OutputTarget.standardOutput.write(
          "segue preview: wrote \(path) (\(bytes.count) bytes; \(frames.joined(separator: ", ")))\n"
        )
      }
    }
  }

  /// The page's scenes: a preset's operation and its reverse (push and pop, present and
  /// dismiss; tab-switch alone), or the spec's scene.
  private func scenes(_ transition: LoadedTransition) throws(CLIError) -> [PreviewSceneSource] {
    guard let operationName = transition.operation else {
      return [PreviewSceneSource(name: "spec", transition: transition)]
    }
    let setup = try input.presetOptions.setup()
    let pair: [TransitionOperation]
    switch setup.operation {
    case .push, .pop: pair = [.push, .pop]
    case .present, .dismiss: pair = [.present, .dismiss]
    case .tabSwitch: pair = [.tabSwitch]
    }
    var sources: [PreviewSceneSource] = []
    for operation in pair {
      if operation.rawValue == operationName {
        sources.append(PreviewSceneSource(name: operationName, transition: transition))
        continue
      }
      var other = setup
      other.operation = operation
      var loaded = transition
      loaded.scene = try other.scene()
      loaded.operation = operation.rawValue
      loaded.interaction = nil
      sources.append(PreviewSceneSource(name: operation.rawValue, transition: loaded))
    }
    return sources
  }

  /// Checks every scene's samples against ``Budget/maximumSceneSamples`` and the estimated page
  /// size against ``Budget/maximumPreviewBytes``, before any sampling.
  private func checkBudgets(_ sources: [PreviewSceneSource], _ builder: PreviewDataBuilder)
    throws(CLIError)
  {
    var floats = 0.0
    var frames = 0
    for source in sources {
      let count = try builder.frameTimes(source.transition.scene).count + 2
      try Budget.checkSamples(count, of: source.transition, argument: "--fps")
      frames += count
      floats += Double(count) * Double(Budget.previewFloatsPerFrame(source.transition.scene))
    }
    try Budget.checkPreviewSize(frames: frames, floats: floats, argument: "--fps")
  }

  /// The whole page.
  private func page(
    _ transition: LoadedTransition, _ sources: [PreviewSceneSource],
    _ builder: PreviewDataBuilder, _ sceneData: [JSONValue], _ images: PreviewImages
  ) throws(CLIError) -> String {
    let initial = sources.firstIndex { $0.name == (transition.operation ?? "spec") } ?? 0
    let first = sources[initial].transition
    let size = first.scene.containerSize
    let gesture: JSONValue
    do throws(Segue.ValidationError) {
      if let name = transition.preset, let preset = TransitionPreset(rawValue: name),
        let rules = try preset.defaultGesture(containerWidth: size.width)
      {
        gesture = PreviewDataBuilder.gesture(rules, isPresetGesture: true)
      } else {
        let fallback = try FadeSlideEdgeSwipe(containerWidth: size.width).rules
        gesture = PreviewDataBuilder.gesture(fallback, isPresetGesture: false)
      }
    } catch {
      throw CLIError.data(transition.sourceArgument, error)
    }
    // The completion settings: the scripted interaction's, else InteractionTimeline's defaults.
    var interaction: JSONValue = .null
    let timeline: InteractionTimeline
    if let scripted = transition.interaction {
      timeline = scripted
      interaction = .object([
        ("scene", .number(Double(initial))), ("duration", .number(scripted.duration)),
        ("completionSpeed", .number(scripted.completionSpeed)),
        ("wantsInteractiveStart", .bool(scripted.wantsInteractiveStart)),
        ("events", PreviewDataBuilder.events(scripted)),
      ])
    } else {
      do throws(Segue.ValidationError) {
        timeline = try InteractionTimeline(duration: first.scene.duration)
      } catch {
        throw CLIError.data(transition.sourceArgument, error)
      }
    }
    let completion: JSONValue = .object([
      ("curve", .string(PreviewDataBuilder.describe(timeline.completionCurve))),
      ("completionSpeed", .number(timeline.completionSpeed)),
      ("table", .string(base64(PreviewDataBuilder.curveTable(timeline.completionCurve)))),
    ])
    let title = transition.preset ?? transition.spec.map { $0 == "-" ? "standard input" : $0 } ?? ""
    let durations = sources.map { "\($0.name) \(decimal($0.transition.scene.duration)) s" }
    let subtitle =
      durations.joined(separator: " · ") + " · \(decimal(builder.fps)) samples/s · container "
      + "\(decimal(size.width)) × \(decimal(size.height)) pt"
    let data: JSONValue = .object([
      ("format", .number(1)), ("generator", .string("segue \(segueVersion)")),
      ("title", .string(title)), ("subtitle", .string(subtitle)),
      ("container", .array([.number(size.width), .number(size.height)])),
      ("fps", .number(builder.fps)), ("minimumW", .number(Transform3D.minimumW)),
      ("initialScene", .number(Double(initial))), ("scenes", .array(sceneData)),
      ("images", .array(images.uris.map(JSONValue.string))),
      ("gesture", gesture), ("completion", completion), ("interaction", interaction),
    ])
    return PreviewPage.html(data: data.serialized(), generator: "segue \(segueVersion)")
  }
}
