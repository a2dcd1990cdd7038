import Foundation
import Testing

/// The SVG filmstrip in a real browser: headless Chromium draws `segue render --filmstrip
/// FILE.svg` and each frame of it is compared with the same frame of `--filmstrip FILE.png`
/// (the captions, SVG text against the block font, are left out).
///
/// Tolerance: the tests of the preview page (``PreviewBrowserTests``): per frame a mean
/// absolute channel difference of at most 1 (of 255), at most 0.5 % of the pixels off by more
/// than 24. The browser antialiases the same polygons and glyph outlines differently and
/// resamples embedded images with its own filter; a wrong matrix, gradient geometry, stop or
/// image placement moves whole regions. Measured with Chromium 156 (Debian 12): means 0.06 (the
/// spec) and 0.20–0.49 (the default views), at most 0.31 % of the pixels off by more than 24.
///
/// Skipped, saying so, when no browser is installed (`apt-get install chromium`).
@Suite(
  .enabled(
    if: Browser.path != nil, "no chromium on PATH: apt-get install chromium, or make setup-test"))
struct FilmstripSVGBrowserTests {
  /// A 160 × 120 spec: an image with rounded corners and `masksToBounds`, the same image
  /// rotated about y under perspective (drawn by the renderer into the SVG), and an axial, a
  /// radial (translucent end) and a conic gradient layer, in a view sliding right.
  static let spec = """
    {"version": 1, "duration": 1, "container": [160, 120], "layers": [
      {"id": "bg", "bounds": [0, 0, 160, 120], "position": [80, 60],
       "backgroundColor": [0.95, 0.95, 0.97, 1],
       "animations": [{"keyPath": "position.x", "type": "basic", "fromValue": 80,
                       "toValue": 95, "duration": 1}]},
      {"id": "photo", "parent": "bg", "bounds": [0, 0, 60, 40], "position": [40, 30],
       "contents": "photo.png", "cornerRadius": 8, "masksToBounds": true},
      {"id": "tilted", "parent": "bg", "bounds": [0, 0, 60, 40], "position": [115, 30],
       "contents": "photo.png",
       "transform": [{"perspective": 150}, {"rotate": {"angle": 0.7, "axis": [0, 1, 0]}}]},
      {"id": "axial", "parent": "bg", "bounds": [0, 0, 40, 30], "position": [25, 90],
       "gradient": {"colors": [[1, 0, 0, 1], [0, 0, 1, 1]], "startPoint": [0, 0],
                    "endPoint": [1, 1]}},
      {"id": "radial", "parent": "bg", "bounds": [0, 0, 40, 30], "position": [70, 90],
       "gradient": {"type": "radial", "colors": [[1, 0.8, 0, 1], [0, 0.5, 0, 0.5]],
                    "startPoint": [0.5, 0.5], "endPoint": [1, 1]}},
      {"id": "conic", "parent": "bg", "bounds": [0, 0, 40, 30], "position": [115, 90],
       "gradient": {"type": "conic", "colors": [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]],
                    "startPoint": [0.5, 0.5], "endPoint": [1, 0.5]}}
    ]}
    """

  /// A 200 × 150 spec of layer appearance: a rotating card with rounded corners, a border and
  /// `masksToBounds` clipping a sublayer; a tag with two rounded corners (`maskedCorners`)
  /// casting a shadow; a layer scaled 1.5 × 1 at opacity 0.8 casting a shadow (the blur
  /// stretched with the layer); a rounded, bordered layer under perspective casting a shadow.
  static let appearanceSpec = """
    {"version": 1, "duration": 1, "container": [200, 150], "layers": [
      {"id": "bg", "bounds": [0, 0, 200, 150], "position": [100, 75],
       "backgroundColor": [0.95, 0.95, 0.97, 1]},
      {"id": "card", "parent": "bg", "bounds": [0, 0, 80, 60], "position": [60, 50],
       "cornerRadius": 12, "masksToBounds": true, "borderWidth": 3,
       "borderColor": [0.9, 0.1, 0.1, 1], "backgroundColor": [0.2, 0.5, 0.9, 1],
       "animations": [{"keyPath": "transform.rotation.z", "type": "basic", "fromValue": 0,
                       "toValue": 0.5, "duration": 1}]},
      {"id": "chip", "parent": "card", "bounds": [0, 0, 50, 30], "position": [70, 50],
       "backgroundColor": [0.9, 0.8, 0.1, 1]},
      {"id": "tag", "parent": "bg", "bounds": [0, 0, 50, 30], "position": [150, 40],
       "cornerRadius": 10, "maskedCorners": ["layerMinXMinYCorner", "layerMaxXMaxYCorner"],
       "backgroundColor": [0.3, 0.8, 0.3, 1], "shadowOpacity": 0.6, "shadowRadius": 6,
       "shadowOffset": [3, 4]},
      {"id": "wide", "parent": "bg", "bounds": [0, 0, 40, 20], "position": [55, 120],
       "opacity": 0.8, "backgroundColor": [1, 1, 1, 1], "cornerRadius": 6,
       "shadowOpacity": 0.5, "shadowRadius": 8, "shadowOffset": [0, 3],
       "transform": [{"scale": [1.5, 1, 1]}]},
      {"id": "tilted", "parent": "bg", "bounds": [0, 0, 50, 30], "position": [150, 110],
       "backgroundColor": [0.8, 0.3, 0.6, 1], "cornerRadius": 6, "borderWidth": 2,
       "borderColor": [0, 0, 0, 1], "shadowOpacity": 0.5, "shadowRadius": 4,
       "shadowOffset": [0, 3],
       "transform": [{"perspective": 150}, {"rotate": {"angle": 0.6, "axis": [0, 1, 0]}}]}
    ]}
    """

  static let smallestWindow = 500

  /// Writes both filmstrips of `source` at `times`, screenshots the SVG and compares each
  /// frame (frames of `size` points at scale 1; the default sheet: gap 4, 6 columns).
  func compare(_ source: [String], times: [Double], size: (Int, Int), in directory: String)
    throws
  {
    let list = times.map { "\($0)" }.joined(separator: ",")
    for format in ["svg", "png"] {
      let made = try SegueProcess.run(
        ["render"] + source + [
          "--times", list, "--no-frames", "--filmstrip", "\(directory)/strip.\(format)",
          "--quiet",
        ])
      try #require(made.status == 0, "\(made.stderr)")
    }
    let sheet = try RasterImage(path: directory + "/strip.png")
    let shot = directory + "/shot.png"
    // Chromium draws only the top of a page in a window much smaller than 500 × 500.
    try Browser.screenshot(
      "file://\(directory)/strip.svg", width: max(sheet.width, Self.smallestWindow),
      height: max(sheet.height, Self.smallestWindow), to: shot, profile: directory)
    let screen = try RasterImage(path: shot)
    let (w, h) = size
    for (k, t) in times.enumerated() {
      let x = 4 + k * (w + 4)
      let d = screen.crop(x: x, y: 4, width: w, height: h)
        .difference(sheet.crop(x: x, y: 4, width: w, height: h), threshold: 24)
      if ProcessInfo.processInfo.environment["SEGUE_PREVIEW_REPORT"] != nil {
        print("svg filmstrip \(source) \(t) s: mean \(d.mean), fraction \(d.fraction)")
      }
      #expect(
        d.mean <= 1 && d.fraction <= 0.005,
        "\(source) at \(t) s: mean \(d.mean), \(100 * d.fraction) % of pixels off")
    }
  }

  /// Images (embedded, clipped to rounded bounds; under perspective from the renderer) and
  /// the three gradient types.
  @Test func contentsAndGradientsMatchThePNG() throws {
    let directory = try TemporaryDirectory()
    let spec = try Self.writeSpec(in: directory)
    try compare(["--spec", spec], times: [0, 0.6], size: (160, 120), in: directory.path)
  }

  /// Rounded corners, borders, `masksToBounds` and shadows (``appearanceSpec``).
  @Test func appearanceMatchesThePNG() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("spec.json", Self.appearanceSpec)
    try compare(["--spec", spec], times: [0, 0.6], size: (200, 150), in: directory.path)
  }

  /// Writes ``spec`` and its image into `directory` and returns the spec's path. The image is
  /// a frame `segue render` wrote (`system` on bare views: two coloured screens, one sliding
  /// over the other).
  static func writeSpec(in directory: TemporaryDirectory) throws -> String {
    let made = try SegueProcess.run([
      "render", "--preset", "system", "--views", "bare", "--container", "60,40", "--times", "0.2",
      "--output-dir", directory.path, "--quiet",
    ])
    try #require(made.status == 0, "\(made.stderr)")
    try FileManager.default.moveItem(
      atPath: directory.path + "/frame-0000.png", toPath: directory.path + "/photo.png")
    return try directory.write("spec.json", spec)
  }

  /// The default iOS screens: text as glyph outlines, shapes, gradients, under `depth`'s
  /// scaling and `system`'s parallax.
  @Test(arguments: ["system", "depth"])
  func defaultViewsMatchThePNG(preset: String) throws {
    let directory = try TemporaryDirectory()
    try compare(
      ["--preset", preset, "--container", "390,844"], times: [0.15, 0.4], size: (390, 844),
      in: directory.path)
  }
}
