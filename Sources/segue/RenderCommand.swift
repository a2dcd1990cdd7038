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

/// `segue render`.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Render frames of a preset or spec file as PNG files, plus a filmstrip.",
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
      with its time. --filmstrip FILE.svg: the same sheet with each layer as a polygon through \
      its projected corners (not available for interactive runs).

      All files are written to temporary names first and renamed into place only when every \
      frame succeeded; on failure nothing is left behind. A progress bar is drawn on stdout \
      when it is a terminal; a one-line summary is printed at the end.
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

  @Option(help: ArgumentHelp("Filmstrip frames per row, ≥ 1 (default 6).", valueName: "n"))
  var columns: Int = 6

  @Flag(help: "Draw each layer's id on it.")
  var labels = false

  func validate() throws {
    if !frames && filmstrip == nil {
      throw ArgumentParser.ValidationError("--no-frames without --filmstrip writes nothing")
    }
    if let filmstrip, FilmstripFormat(path: filmstrip) == nil {
      throw ArgumentParser.ValidationError(
        "--filmstrip '\(filmstrip)' must end in .png or .svg")
    }
  }

  func run() throws {
    try reportingErrors("render") {
      let transition = try input.load()
      let times = try input.sampleTimes(for: transition, defaultFPS: 10)
      try requirePositive(scale, "--scale")
      guard columns >= 1 else {
        throw CLIError(.dataError, "--columns", "must be at least 1 (got \(columns))")
      }
      let format = filmstrip.flatMap { FilmstripFormat(path: $0) }
      if format == .svg && transition.interaction != nil {
        throw CLIError(
          .usage, "--filmstrip",
          "an SVG filmstrip is not available for interactive runs (--events or a spec's "
            + "interaction); use a .png file")
      }
      if frames { try Self.requireDirectory(outputDirectory) }
      let sheet = Filmstrip(
        renderer: SceneRenderer(scale: scale, labels: labels), columns: columns)
      let layout: Filmstrip.Layout
      do throws(Segue.ValidationError) {
        layout = try sheet.layout(
          frameCount: times.count, containerSize: transition.scene.containerSize)
      } catch {
        throw CLIError.data(error.field == "columns" ? "--columns" : "--scale", error)
      }
      let summary = try write(transition, times: times, sheet: sheet, layout: layout, format)
      print(summary)
    }
  }

  /// Renders every frame and writes the files as one ``FileBatch``; returns the summary line.
  private func write(
    _ transition: LoadedTransition, times: [Double], sheet: Filmstrip, layout: Filmstrip.Layout,
    _ format: FilmstripFormat?
  ) throws(CLIError) -> String {
    var batch = FileBatch()
    var progress = ProgressBar(total: times.count)
    var contactSheet: PixelBufferRGBA8?
    if format == .png {
      contactSheet = try Self.data("--filmstrip") { () throws(Segue.ValidationError) in
        try Self.blankSheet(sheet, layout)
      }
    }
    let digits = max(4, String(max(times.count - 1, 0)).count)
    do throws(CLIError) {
      for (k, time) in times.enumerated() {
        let image: PixelBufferRGBA8
        do {
          if let interaction = transition.interaction {
            image = try sheet.renderer.render(transition.scene, at: time, interaction: interaction)
          } else {
            image = try sheet.renderer.render(transition.scene, at: time)
          }
        } catch {
          let argument = error.field == "time" ? input.timesArgument : "--scale"
          throw CLIError.data(argument, error, prefix: "frame \(k): ")
        }
        if frames {
          let number = String(k)
          let name = "frame-" + String(repeating: "0", count: digits - number.count) + number
          let png = try Self.data("--scale") { () throws(Segue.ValidationError) in
            try PNG.encode(image)
          }
          try batch.add(png, to: outputDirectory + "/" + name + ".png", argument: "--output-dir")
        }
        if contactSheet != nil {
          try Self.data("--filmstrip") { () throws(Segue.ValidationError) in
            try Self.place(image, caption: time, k, sheet, layout, into: &contactSheet!)
          }
        }
        progress.advance()
      }
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
        try batch.add(bytes, to: filmstrip, argument: "--filmstrip")
      }
      try batch.commit()
    } catch {
      batch.discard()
      progress.abandon()
      throw error
    }
    progress.finish()
    var parts: [String] = []
    if frames {
      parts.append(
        "\(times.count) frame\(times.count == 1 ? "" : "s") of \(layout.frameWidth)×"
          + "\(layout.frameHeight) px in \(outputDirectory)")
    }
    if let filmstrip {
      parts.append("filmstrip \(filmstrip) (\(layout.width)×\(layout.height) px)")
    }
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

  /// The contact sheet before any frame: ``Filmstrip/background`` everywhere.
  private static func blankSheet(_ sheet: Filmstrip, _ layout: Filmstrip.Layout)
    throws(Segue.ValidationError) -> PixelBufferRGBA8
  {
    let blank = try Rasterizer.render(
      [], width: layout.width, height: layout.height, background: sheet.background)
    return PixelBufferRGBA8(blank)
  }

  /// Copies frame `k` into its cell of the contact sheet and draws its caption below it, with
  /// the geometry and caption style of ``Filmstrip/render(_:times:)`` (so a non-interactive
  /// sheet equals the library's).
  private static func place(
    _ image: PixelBufferRGBA8, caption time: Double, _ k: Int, _ sheet: Filmstrip,
    _ layout: Filmstrip.Layout, into target: inout PixelBufferRGBA8
  ) throws(Segue.ValidationError) {
    let (x, y) = layout.frameOrigin(k)
    blit(image, into: &target, x: x, y: y)
    guard sheet.captions else { return }
    let cell = Double(sheet.captionCellSize)
    let label = LayerSnapshot.Label(
      text: Filmstrip.caption(for: time), origin: Point(x: cell, y: cell), cellSize: cell,
      color: sheet.captionColor)
    let strip = LayerSnapshot(
      bounds: Rect(
        x: 0, y: 0, width: Double(layout.frameWidth), height: Double(layout.captionHeight)),
      fill: .solid(.clear), label: label)
    let rendered = try Rasterizer.render(
      [.layer(RasterLayer(snapshot: strip))], width: layout.frameWidth,
      height: layout.captionHeight, background: sheet.background)
    blit(PixelBufferRGBA8(rendered), into: &target, x: x, y: y + layout.frameHeight)
  }

  /// Copies `image` row by row into `target` at `(x, y)` (it fits by the layout's construction).
  private static func blit(
    _ image: PixelBufferRGBA8, into target: inout PixelBufferRGBA8, x: Int, y: Int
  ) {
    for row in 0..<image.height {
      let from = row * image.stride
      let to = (y + row) * target.stride + 4 * x
      for i in 0..<(4 * image.width) { target.components[to + i] = image.components[from + i] }
    }
  }
}

/// A progress bar on stdout, drawn only when stdout is a terminal:
/// `[#########...........]  9/20 frames`, redrawn in place with a carriage return.
struct ProgressBar {
  /// The number of steps.
  let total: Int
  /// Steps done.
  private(set) var done = 0
  /// Whether stdout is a terminal.
  private let isTerminal = isatty(STDOUT_FILENO) == 1

  init(total: Int) { self.total = total }

  /// One more step done.
  mutating func advance() {
    done += 1
    guard isTerminal else { return }
    let width = 30
    let filled = total > 0 ? done * width / total : width
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    draw("\r[\(bar)] \(done)/\(total) frames")
  }

  /// Ends the bar's line.
  func finish() { if isTerminal { draw("\n") } }

  /// Erases the bar (before an error message).
  func abandon() { if isTerminal { draw("\r\u{1B}[K") } }

  private func draw(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
