import Foundation
import Segue
import Testing

/// The page in a real browser: headless Chromium screenshots the seek hook's frames
/// (`?t=…&op=…&chrome=0`, a grid of frames from the page's top-left corner) and they are compared
/// with `segue render` frames of the same moments.
///
/// Tolerance: the page draws the same projected quads with the browser's
/// antialiasing, so edges differ by a few levels; an error in a matrix, an opacity, a weight or a
/// colour moves whole regions. Per frame the mean absolute channel difference must be at most
/// 1 (of 255), and at most 0.5 % of the pixels may differ by more than 24 in some channel.
/// Measured with Chromium 156 (Debian 12): every frame of these tests has a mean of at most 0.45
/// and at most 0.40 % of its pixels off by more than 24 (the image spec's layer under
/// perspective); the appearance spec's frames 0.27–0.37 and 0.16 % (rounded and bordered edges),
/// while leaving its shadows out moves them by a mean of 3.6 with 4.0 % of the pixels off.
///
/// Skipped, saying so, when no browser is installed (`apt-get install chromium`); `$SEGUE_CHROMIUM`
/// names one explicitly.
@Suite(
  .enabled(
    if: Browser.path != nil, "no chromium on PATH: apt-get install chromium, or make setup-test"))
struct PreviewBrowserTests {
  static let meanLimit = 1.0
  static let channelThreshold = 24
  static let fractionLimit = 0.005

  /// Writes the page, screenshots `query`'s grid (rows `ops`, columns `times`) and compares each
  /// frame with `segue render` run with `renderOptions(op)`. Returns the (screenshot, render)
  /// pairs, row by row. `$SEGUE_PREVIEW_REPORT` set: prints each frame's figures.
  @discardableResult func compare(
    preset: [String], ops: [String], times: [Double], query: String = "",
    size: (Int, Int)? = nil,
    renderOptions: (String) throws -> [String] = { ["--operation", $0] }
  ) throws -> [(RasterImage, RasterImage)] {
    var pairs: [(RasterImage, RasterImage)] = []
    let directory = try TemporaryDirectory()
    let page = directory.path + "/page.html"
    let made = try SegueProcess.run(["preview"] + preset + ["--output", page, "--quiet"])
    try #require(made.status == 0, "\(made.stderr)")
    let (w, h) = try size ?? Self.size(preset)
    let list = times.map { "\($0)" }.joined(separator: ",")
    let shot = directory.path + "/shot.png"
    // Chromium draws only the top of a page in a window much smaller than 500 × 500; the grid
    // starts at the top-left corner, so a larger window changes nothing else.
    let smallest = FilmstripSVGBrowserTests.smallestWindow
    try Browser.screenshot(
      "file://\(page)?t=\(list)&op=\(ops.joined(separator: ","))&chrome=0\(query)",
      width: max(w * times.count, smallest), height: max(h * ops.count, smallest), to: shot,
      profile: directory.path)
    let screen = try RasterImage(path: shot)
    for (row, op) in ops.enumerated() {
      let frames = directory.path + "/" + op
      try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: false)
      let rendered = try SegueProcess.run(
        ["render"] + preset + (try renderOptions(op)) + [
          "--times", list, "--output-dir", frames, "--quiet",
        ])
      try #require(rendered.status == 0, "\(rendered.stderr)")
      for (column, t) in times.enumerated() {
        let frame = try RasterImage(path: frames + String(format: "/frame-%04d.png", column))
        let cell = screen.crop(x: column * w, y: row * h, width: w, height: h)
        let d = cell.difference(frame, threshold: Self.channelThreshold)
        if ProcessInfo.processInfo.environment["SEGUE_PREVIEW_REPORT"] != nil {
          print("preview \(preset[1]) \(op) \(t) s: mean \(d.mean), fraction \(d.fraction)")
        }
        pairs.append((cell, frame))
        #expect(
          d.mean <= Self.meanLimit && d.fraction <= Self.fractionLimit,
          "\(preset) \(op) at \(t) s: mean \(d.mean), \(100 * d.fraction) % of pixels off")
      }
    }
    return pairs
  }

  /// The container `--container W,H` of `options`.
  static func size(_ options: [String]) throws -> (Int, Int) {
    let i = try #require(options.firstIndex(of: "--container"))
    let parts = options[i + 1].split(separator: ",").compactMap { Int($0) }
    return (parts[0], parts[1])
  }

  /// depth: perspective (projected quads with w ≠ 1), push and pop. The comparison can fail: the
  /// screenshot at 0.9 s against the render at 0.3 s is far outside the tolerance.
  @Test func depthMatchesRender() throws {
    let pairs = try compare(
      preset: ["--preset", "depth", "--views", "bare", "--container", "200,300"],
      ops: ["push", "pop"],
      times: [0.3, 0.9, 1.55])
    try #require(pairs.count == 6)
    let wrong = pairs[1].0.difference(pairs[0].1, threshold: Self.channelThreshold)
    #expect(wrong.mean > 4 * Self.meanLimit && wrong.fraction > 4 * Self.fractionLimit)
  }

  /// Layers cut by depth sorting: two layers crossing like an X, `b` drawn in two pieces with
  /// `a` between them (``SampleCommandTests/crossingSpec``).
  @Test func cutLayersMatchRender() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("crossing.json", SampleCommandTests.crossingSpec)
    try compare(
      preset: ["--spec", spec], ops: ["spec"], times: [0], size: (400, 400),
      renderOptions: { _ in [] })
  }

  /// ca-fade: a true cross-dissolve (snapshots summed with weights); hero: many layers moving
  /// at once.
  @Test func dissolveAndHeroMatchRender() throws {
    try compare(
      preset: ["--preset", "ca-fade", "--views", "bare", "--container", "200,300"], ops: ["push"],
      times: [0.1])
    try compare(
      preset: ["--preset", "hero", "--views", "bare", "--container", "240,420"],
      ops: ["push", "pop"],
      times: [0.2, 0.6])
  }

  /// Layer contents and gradients (``FilmstripSVGBrowserTests/spec``: an image clipped to
  /// rounded bounds, the image under perspective, axial, radial and conic gradients).
  @Test func contentsAndGradientsMatchRender() throws {
    let directory = try TemporaryDirectory()
    let spec = try FilmstripSVGBrowserTests.writeSpec(in: directory)
    try compare(
      preset: ["--spec", spec], ops: ["spec"], times: [0, 0.6], size: (160, 120),
      renderOptions: { _ in [] })
  }

  /// The default iOS screens: text as glyph outlines, shapes and gradients (`hero`'s cards).
  @Test func defaultViewsMatchRender() throws {
    try compare(
      preset: ["--preset", "system", "--container", "390,844"], ops: ["push"],
      times: [0.15, 0.4])
    try compare(
      preset: ["--preset", "hero", "--container", "390,844"], ops: ["push"], times: [0.1, 0.3])
  }

  /// Rounded corners, borders, `masksToBounds` and shadows
  /// (``FilmstripSVGBrowserTests/appearanceSpec``: a rotating card clipping its sublayer,
  /// shadows under a rotation-free, a stretched and a perspective matrix).
  @Test func appearanceMatchesRender() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("spec.json", FilmstripSVGBrowserTests.appearanceSpec)
    try compare(
      preset: ["--spec", spec], ops: ["spec"], times: [0, 0.6], size: (200, 150),
      renderOptions: { _ in [] })
  }

  /// A drag replayed by the page (depth's interactive pop: the press at x = 10 ≤ 50, moves to
  /// x = 60 and 130 at 0.1 s and 0.2 s, released there) against `segue render --events` with the
  /// events the library's ``DepthPan`` gives for the same samples: updates to
  /// `percent(translation)` and its release decision (finish: 120/200 = 0.6 > 0.5) at 0.2 s.
  @Test func dragMatchesTheLibraryDriver() throws {
    let driver = try DepthPan(containerWidth: 200)
    let presses: [(Double, Double)] = [(0, 10), (0.1, 60), (0.2, 130)]
    let first = try GestureSample(location: Point(x: 10, y: 150))
    #expect(driver.begins(with: first))
    var events: [String] = []
    var last = first
    for (time, x) in presses.dropFirst() {
      last = try GestureSample(
        location: Point(x: x, y: 150), translation: Point(x: x - 10, y: 0))
      events.append(#"{"time": \#(time), "update": \#(driver.percent(for: last))}"#)
    }
    let decision = driver.release(last)
    #expect(decision == .finish)
    events.append(#"{"time": 0.2, "\#(decision.rawValue)": true}"#)
    let directory = try TemporaryDirectory()
    let script = try directory.write("events.json", "[" + events.joined(separator: ",") + "]")
    let drag = presses.map { "\($0.0):\($0.1),150" }.joined(separator: ";")
    try compare(
      preset: ["--preset", "depth", "--views", "bare", "--container", "200,300"], ops: ["pop"],
      times: [0.05, 0.15, 0.3, 0.5, 1.2], query: "&timeline=drag&drag=\(drag)",
      renderOptions: { ["--operation", $0, "--events", script] })
  }
}

/// Headless Chromium.
enum Browser {
  /// `$SEGUE_CHROMIUM`, else the first of chromium, chromium-browser, google-chrome on PATH.
  static let path: String? =
    ProcessInfo.processInfo.environment["SEGUE_CHROMIUM"]
    ?? executableOnPath(["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"])

  /// Screenshots `url` in a `width × height` window at one device pixel per CSS pixel.
  static func screenshot(
    _ url: String, width: Int, height: Int, to file: String, profile: String
  ) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(path))
    process.arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--mute-audio",
      "--no-first-run", "--force-device-scale-factor=1", "--user-data-dir=\(profile)/chromium",
      "--window-size=\(width),\(height)", "--screenshot=\(file)", url,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "chromium exited \(process.terminationStatus)")
    try #require(FileManager.default.fileExists(atPath: file), "chromium wrote no screenshot")
  }

  /// The DOM of `url` after its scripts ran (`--dump-dom`).
  static func dumpDOM(_ url: String, profile: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(path))
    process.arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
      "--user-data-dir=\(profile)/chromium", "--dump-dom", url,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "chromium exited \(process.terminationStatus)")
    return String(decoding: data, as: UTF8.self)
  }
}

/// The first of `names` found in a directory of `$PATH`, or `nil`.
func executableOnPath(_ names: [String]) -> String? {
  let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(
    separator: ":")
  for name in names {
    for directory in directories {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
  }
  return nil
}
