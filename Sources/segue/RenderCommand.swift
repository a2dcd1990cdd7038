import ArgumentParser
import Foundation
import Segue
import SegueRender
import SegueSpec

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The filmstrip formats, chosen by the file name's extension.
enum FilmstripFormat: String, CaseIterable {
  case png, svg

  /// The format of `path` (`.png` or `.svg`, any case), or `nil`.
  init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    self.init(rawValue: path[path.index(after: dot)...].lowercased())
  }
}

/// The animation formats of `--animation`, chosen by the file name's extension.
enum AnimationFormat: String, CaseIterable {
  /// Animated PNG (``APNGEncoder``).
  case png
  /// GIF89a (``GIFEncoder``).
  case gif

  /// The format of `path` (`.png` or `.gif`, any case), or `nil`.
  init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    self.init(rawValue: path[path.index(after: dot)...].lowercased())
  }
}

/// `segue render`.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract:
      "Render frames of a preset or spec file as PNG files, a filmstrip, an animation or a video.",
    discussion: """
      The source and times are those of 'segue sample' (--preset with its options or --spec \
      FILE; --events FILE; --times or --fps), except that the default is a spec's sampleTimes, \
      else --fps 10.

      Each frame is the transition's layers drawn through their full 3D matrices \
      (perspective-correct, 4×4 supersampled) over white, with CATransition fade as a true \
      cross-dissolve: the old and new snapshots weighted (1 − q) and q. Frame k is written as \
      OUTPUT-DIR/frame-NNNN.png (k zero-padded to 4 digits or more), each image \
      round(scale·W) × round(scale·H) pixels for a W × H point container (at most 2^24 pixels).

      --filmstrip FILE.png: a contact sheet of the frames, --columns per row, each captioned \
      with its time; the whole sheet is at most 2^24 pixels. --filmstrip FILE.svg: the same \
      sheet in SVG: each layer's fill as a polygon through its projected corners, its contents \
      image (embedded once, as PNG) and axial or radial gradient as SVG under its 2D matrix, \
      its shape paths and text as the renderer's outlines (no fonts needed), and what SVG \
      cannot draw (perspective, conic gradients) as PNG images from the renderer, borders as \
      projected outlines; shadows are not drawn (not available for interactive runs).

      --animation FILE.png: the frames as one animated PNG (APNG; viewers without APNG show the \
      first frame); --animation FILE.gif: as a GIF (256 colours per frame). Each frame lasts \
      until the next sample time (the last as long as the one before; 0.1 s for a single \
      frame); both loop forever. --video FILE.mp4: the frames piped to ffmpeg (found on PATH; \
      exit 69 without it) as an MP4 (yuv420p, sides padded to even), which needs equally \
      spaced times (--fps). --no-frames writes only these and the filmstrip.

      Frames are drawn, and PNG frames encoded, on --threads threads (default: every core); \
      the files are the same bytes whatever the thread count.

      Budgets: at most 1000000 frames; frames × scene items (layers + animations + model \
      changes + interaction events) at most 2^22 (4194304); drawn pixels at most 2^30 \
      (1073741824), counting each frame's pixels plus, for each layer drawn in it, the pixels \
      of its on-screen bounding box (so frames × pixels per frame is at most 2^30). A larger \
      request is refused before any frame is drawn, with its size.

      All files are written to temporary names (.NAME.segue-PID.XXXXXX) and renamed into place \
      only when every frame succeeded; on failure, or when interrupted (SIGINT, SIGTERM, \
      SIGHUP), nothing is left behind and files from an earlier run are kept as they were. \
      Temporary files left by a run killed with SIGKILL are removed by the next run into the \
      same directory. When stderr is a terminal a progress line (frames done, frames per \
      second, time left) is drawn there; a one-line summary is printed on stdout at the end. \
      --quiet prints neither.
      """ + "\n\n" + exitCodesHelp)

  @OptionGroup var input: TransitionInput

  @Option(help: ArgumentHelp("Pixels per point, > 0 (default 1).", valueName: "s"))
  var scale: Double = 1

  @Option(
    name: .customLong("output-dir"),
    help: ArgumentHelp(
      "An existing directory for the frame PNGs (default: the current directory).",
      valueName: "dir"))
  var outputDirectory: String = "."

  @Flag(
    inversion: .prefixedNo,
    help: "Write the frame PNGs (--no-frames: only the filmstrip).")
  var frames = true

  @Option(help: ArgumentHelp("Also write a filmstrip: FILE.png or FILE.svg.", valueName: "file"))
  var filmstrip: String?

  @Option(
    help: ArgumentHelp(
      "Also write the frames as an animation: FILE.png (APNG) or FILE.gif.", valueName: "file"))
  var animation: String?

  @Option(
    help: ArgumentHelp(
      "Also write the frames as an MP4 video through ffmpeg: FILE.mp4.", valueName: "file"))
  var video: String?

  @Option(
    help: ArgumentHelp(
      "Threads to draw and encode the frames on, 1…64 (default: the number of cores).",
      valueName: "n"))
  var threads: Int = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 64)

  @Option(help: ArgumentHelp("Filmstrip frames per row, ≥ 1 (default 6).", valueName: "n"))
  var columns: Int = 6

  @Flag(name: .shortAndLong, help: "No progress line, no summary, no informational messages.")
  var quiet = false

  func run() throws {
    try reportingErrors("render") {
      if !frames && filmstrip == nil && animation == nil && video == nil {
        throw CLIError(
          .usage, "--no-frames", "without --filmstrip, --animation or --video writes nothing")
      }
      let animationFormat = try animation.map { path throws(CLIError) in
        guard let format = AnimationFormat(path: path) else {
          throw CLIError(.usage, "--animation", "'\(path)' must end in .png or .gif")
        }
        return format
      }
      if let video, !video.lowercased().hasSuffix(".mp4") {
        throw CLIError(.usage, VideoPipe.argument, "'\(video)' must end in .mp4")
      }
      guard threads >= 1 && threads <= 64 else {
        throw CLIError(.dataError, "--threads", "must be in 1…64 (got \(threads))")
      }
      let format = try filmstrip.map { path throws(CLIError) in
        guard let format = FilmstripFormat(path: path) else {
          throw CLIError(.usage, "--filmstrip", "'\(path)' must end in .png or .svg")
        }
        return format
      }
      let transition = try input.load()
      let times = try input.sampleTimes(for: transition, defaultFPS: 10)
      var delays: [Double] = []
      if animation != nil {
        do throws(Segue.ValidationError) { delays = try FrameTiming.delays(for: times) } catch {
          throw CLIError.data(input.timesArgument, error, prefix: "an animation: ")
        }
      }
      let rate = try video.map { _ throws(CLIError) in
        try VideoPipe.frameRate(for: times, timesArgument: input.timesArgument)
      }
      // Once the request is valid and before any frame is drawn: a video needs ffmpeg.
      let ffmpeg = try video.map { _ throws(CLIError) in try VideoPipe.locateFFmpeg() }
      try requirePositive(scale, "--scale")
      guard columns >= 1 else {
        throw CLIError(.dataError, "--columns", "must be at least 1 (got \(columns))")
      }
      if format == .svg && transition.interaction != nil {
        throw CLIError(
          .usage, "--filmstrip",
          "an SVG filmstrip is not available for interactive runs (--events or a spec's "
            + "interaction); use a .png file")
      }
      if frames { try Self.requireDirectory(outputDirectory) }
      let renderer = SceneRenderer(scale: scale, images: transition.images)
      let frameSize = try frameSize(renderer, transition.scene.containerSize)
      try Budget.checkSamples(times.count, of: transition, argument: input.timesArgument)
      // Frames × pixels first (a lower bound of the drawn pixels), before any sampling.
      var cost = RenderCost(width: frameSize.width, height: frameSize.height)
      cost.frames = times.count
      cost.drawnPixels = Double(times.count) * Double(frameSize.width * frameSize.height)
      try Budget.checkDrawnPixels(cost, scale: scale, argument: input.timesArgument)
      cost = RenderCost(width: frameSize.width, height: frameSize.height)
      let sheet = Filmstrip(renderer: renderer, columns: columns)
      var layout: Filmstrip.Layout?
      if format != nil {
        layout = try sheetLayout(sheet, frames: times.count, transition.scene.containerSize)
      }
      // Every frame's sample is checked before the first is drawn.
      for (k, time) in times.enumerated() {
        let sample: TransitionSample
        do throws(Segue.ValidationError) { sample = try transition.sample(at: time) } catch {
          throw CLIError.data(input.timesArgument, error, prefix: "frame \(k): ")
        }
        try transition.checkFinite(sample, index: k, scale: scale)
        cost.add(sample, scale: scale)
      }
      try Budget.checkDrawnPixels(cost, scale: scale, argument: input.timesArgument)
      let outputs = Outputs(
        filmstrip: format, layout: layout, animation: animationFormat, delays: delays,
        ffmpeg: ffmpeg, rate: rate)
      let summary = try write(transition, times: times, sheet: sheet, outputs)
      if !quiet { try OutputTarget.standardOutput.write(summary + "\n") }
    }
  }

  /// The size of one frame in pixels.
  ///
  /// - Throws: ``CLIError`` naming `--scale`, with the container and the frame size, when a side
  ///   is below 1 or above 2²⁴ pixels or the frame has more than 2²⁴ pixels.
  private func frameSize(_ renderer: SceneRenderer, _ container: Size) throws(CLIError) -> (
    width: Int, height: Int
  ) {
    do throws(Segue.ValidationError) {
      return try renderer.outputSize(for: container)
    } catch {
      let w = (container.width * scale).rounded(.toNearestOrAwayFromZero)
      let h = (container.height * scale).rounded(.toNearestOrAwayFromZero)
      let limit = SceneRenderer.maximumPixelCount
      let change = w < 1 || h < 1 ? "a larger --scale" : "a smaller --scale"
      throw CLIError(
        .dataError, "--scale",
        "a \(decimal(container.width))×\(decimal(container.height))-point container at scale "
          + "\(decimal(scale)) makes \(decimal(w))×\(decimal(h))-pixel frames; each side must be "
          + "at least 1 pixel and a frame at most \(limit) pixels (2^24): use \(change)")
    }
  }

  /// The contact sheet's layout.
  ///
  /// - Throws: ``CLIError`` naming `--filmstrip` (or `--columns`) with the frame count, columns
  ///   and scale and what to change, when the sheet exceeds 2²⁴ pixels or 2²⁴ pixels a side.
  private func sheetLayout(_ sheet: Filmstrip, frames count: Int, _ container: Size)
    throws(CLIError) -> Filmstrip.Layout
  {
    do throws(Segue.ValidationError) {
      return try sheet.layout(frameCount: count, containerSize: container)
    } catch {
      if error.field == "columns" { throw CLIError.data("--columns", error) }
      if error.field == "frameCount" {
        throw CLIError(.dataError, input.timesArgument, "a contact sheet needs at least one time")
      }
      let frame = (try? sheet.renderer.outputSize(for: container)) ?? (width: 0, height: 0)
      let c = min(columns, count)
      let r = (count + c - 1) / c
      let caption = sheet.captionHeight
      let gap = Double(sheet.gap)
      let w: Double = Double(c) * Double(frame.width) + Double(c + 1) * gap
      let cell: Double = Double(frame.height) + caption
      let h: Double = Double(r) * cell + Double(r + 1) * gap
      let limit = SceneRenderer.maximumPixelCount
      let columnsText = "\(c) column\(c == 1 ? "" : "s") (\(r) row\(r == 1 ? "" : "s"))"
      throw CLIError(
        .dataError, "--filmstrip",
        "a contact sheet of \(count) frames in \(columnsText) of \(frame.width)×\(frame.height) "
          + "px at scale \(decimal(scale)) is \(decimal(w))×\(decimal(h)) = \(decimal(w * h)) "
          + "pixels, above the sheet limit of \(limit) pixels (2^24): use fewer frames (a lower "
          + "--fps, or --times) or a smaller --scale, or leave out --filmstrip to write only the "
          + "frames")
    }
  }

  /// What to write besides the frames, checked before any frame is drawn.
  private struct Outputs {
    var filmstrip: FilmstripFormat?
    var layout: Filmstrip.Layout?
    var animation: AnimationFormat?
    /// The animation's frame delays (``FrameTiming/delays(for:single:)``).
    var delays: [Double]
    /// The `ffmpeg` executable and the frame rate, for `--video`.
    var ffmpeg: String?
    var rate: String?
  }

  /// The animation being encoded.
  private enum AnimationEncoder {
    case png(APNGEncoder)
    case gif(GIFEncoder)

    init(_ format: AnimationFormat, width: Int, height: Int, frames: Int)
      throws(Segue.ValidationError)
    {
      switch format {
      case .png: self = .png(try APNGEncoder(width: width, height: height, frameCount: frames))
      case .gif: self = .gif(try GIFEncoder(width: width, height: height))
      }
    }

    mutating func add(_ image: PixelBufferRGBA8, delay: Double) throws(Segue.ValidationError) {
      switch self {
      case .png(var encoder):
        try encoder.add(image, delay: delay)
        self = .png(encoder)
      case .gif(var encoder):
        try encoder.add(image, delay: delay)
        self = .gif(encoder)
      }
    }

    func finish() throws(Segue.ValidationError) -> [UInt8] {
      switch self {
      case .png(let encoder): try encoder.finish()
      case .gif(let encoder): try encoder.finish()
      }
    }
  }

  /// Renders every frame and writes the files as one ``FileCommit``; returns the summary line.
  private func write(
    _ transition: LoadedTransition, times: [Double], sheet: Filmstrip, _ outputs: Outputs
  ) throws(CLIError) -> String {
    let format = outputs.filmstrip
    let layout = outputs.layout
    let note: (String) -> Void = { text in if !quiet { printError("segue render: " + text) } }
    let commit = FileCommit(note: note)
    var progress = Progress(total: times.count, unit: "frames", quiet: quiet)
    let context = try Self.data("--threads") { () throws(Segue.ValidationError) in
      try RenderContext(threads: threads)
    }
    let size = try Self.data("--scale") { () throws(Segue.ValidationError) in
      try sheet.renderer.outputSize(for: transition.scene.containerSize)
    }
    var encoder = try outputs.animation.map { format throws(CLIError) in
      try Self.data("--animation") { () throws(Segue.ValidationError) in
        try AnimationEncoder(format, width: size.width, height: size.height, frames: times.count)
      }
    }
    var videoPipe: VideoPipe?
    var image = try Self.data("--scale") { () throws(Segue.ValidationError) in
      try PixelBufferRGBA8(width: size.width, height: size.height)
    }
    var contactSheet: PixelBufferRGBA8?
    if format == .png, let layout {
      contactSheet = try Self.data("--filmstrip") { () throws(Segue.ValidationError) in
        try sheet.blankSheet(layout)
      }
    }
    let pngWriter =
      frames
      ? try Self.data("--scale") { () throws(Segue.ValidationError) in
        try FramePNGWriter(
          threads: threads, width: size.width, height: size.height,
          argument: transition.sourceArgument)
      } : nil
    let digits = max(4, String(max(times.count - 1, 0)).count)
    var frameSize = (width: 0, height: 0)
    do throws(CLIError) {
      if let video, let ffmpeg = outputs.ffmpeg, let rate = outputs.rate {
        videoPipe = try VideoPipe(
          ffmpeg: ffmpeg, path: video, width: size.width, height: size.height, rate: rate,
          commit: commit)
      }
      for (k, time) in times.enumerated() {
        do {
          if let interaction = transition.interaction {
            try sheet.renderer.render(
              transition.scene, at: time, interaction: interaction, into: &image,
              context: context)
          } else {
            try sheet.renderer.render(transition.scene, at: time, into: &image, context: context)
          }
        } catch {
          let argument = error.field == "time" ? input.timesArgument : transition.sourceArgument
          throw CLIError.data(argument, error, prefix: "frame \(k): ")
        }
        frameSize = (image.width, image.height)
        if let pngWriter {
          let number = String(k)
          let name = "frame-" + String(repeating: "0", count: digits - number.count) + number
          try pngWriter.add(image, to: outputDirectory + "/" + name + ".png", commit: commit)
        }
        if contactSheet != nil, let layout {
          try Self.data("--filmstrip") { () throws(Segue.ValidationError) in
            try sheet.place(image, at: k, time: time, layout: layout, into: &contactSheet!)
          }
        }
        if encoder != nil {
          try Self.data("--animation") { () throws(Segue.ValidationError) in
            try encoder!.add(image, delay: outputs.delays[k])
          }
        }
        try videoPipe?.add(image)
        progress.advance()
      }
      try pngWriter?.flush(commit: commit)
      if let animation, let encoder {
        let bytes = try Self.data("--animation") { () throws(Segue.ValidationError) in
          try encoder.finish()
        }
        try commit.add(bytes, to: animation, argument: "--animation")
      }
      try videoPipe?.finish(commit: commit)
      videoPipe = nil
      if let filmstrip, let format {
        let bytes: [UInt8]
        switch format {
        case .png:
          bytes = try Self.data("--filmstrip") { () throws(Segue.ValidationError) in
            try PNG.encode(contactSheet!)
          }
        case .svg:
          let document = try Self.data("--filmstrip") { () throws(Segue.ValidationError) in
            try sheet.svg(transition.scene, times: times)
          }
          bytes = Array(document.text.utf8)
        }
        try commit.add(bytes, to: filmstrip, argument: "--filmstrip")
      }
      try commit.commit()
    } catch {
      videoPipe?.cancel()
      commit.discard()
      progress.finish()
      throw error
    }
    progress.finish()
    var parts: [String] = []
    if frames {
      parts.append(
        "\(times.count) frame\(times.count == 1 ? "" : "s") of \(frameSize.width)×"
          + "\(frameSize.height) px in \(outputDirectory)")
    }
    if let filmstrip, let layout {
      parts.append("filmstrip \(filmstrip) (\(layout.width)×\(layout.height) px)")
    }
    if let animation, let kind = outputs.animation {
      parts.append(
        "animation \(animation) (\(kind == .png ? "APNG" : "GIF"), \(times.count) frames)")
    }
    if let video { parts.append("video \(video) (\(times.count) frames)") }
    return "segue render: wrote " + parts.joined(separator: ", ")
  }

  /// Runs `body`, reporting a library error as bad data on `argument`.
  private static func data<T>(
    _ argument: String, _ body: () throws(Segue.ValidationError) -> T
  ) throws(CLIError) -> T {
    do { return try body() } catch { throw CLIError.data(argument, error) }
  }

  /// Throws unless `path` is an existing directory.
  private static func requireDirectory(_ path: String) throws(CLIError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CLIError(.cannotCreate, "--output-dir", "'\(path)': no such directory")
    }
    guard isDirectory.boolValue else {
      throw CLIError(.cannotCreate, "--output-dir", "'\(path)' is not a directory")
    }
  }
}
