import Foundation
import Segue
import SegueRender
import Testing

/// `segue render`: the PNG frames and filmstrips, decoded by an independent Python decoder
/// (``PNGDecoding``), show the pixels worked out by hand.
///
/// Colours by hand: the default views are **from** RGB (0.25, 0.47, 0.85) and **to** RGB
/// (0.96, 0.62, 0.24) (DefaultViews.swift), opaque over white. Bytes are `round(255·c)`:
/// from = (63.75, 119.85, 216.75) → (64, 120, 217); to = (244.8, 158.1, 61.2) → (245, 158, 61).
@Suite struct RenderCommandTests {
  @Test func crossDissolveFramesAndFilmstrip() throws {
    let directory = try TemporaryDirectory()
    let strip = directory.path + "/strip.png"
    // CATransition fade, 0.25 s, no timing function (linear): at 0.125 s q = 0.5, so the true
    // cross-dissolve is 0.5·from + 0.5·to = (0.605, 0.545, 0.545) → (154.275, 138.975,
    // 138.975) → (154, 139, 139). Drawing both at opacity 0.5 "over" white instead would mix in
    // white: 0.5·to + 0.25·from + 0.25·white = (0.7925, 0.6775, 0.5825) → (202, 173, 149).
    let result = try SegueProcess.run([
      "render", "--preset", "ca-fade", "--views", "bare", "--container", "40,30", "--times",
      "0,0.125,0.25",
      "--output-dir", directory.path, "--filmstrip", strip, "--columns", "2",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let names = ["frame-0000.png", "frame-0001.png", "frame-0002.png", "strip.png"]
    #expect(try directory.contents() == names)
    #expect(result.text.contains("wrote 3 frames of 40×30 px"))
    let frame = { (k: Int) in directory.path + "/frame-000\(k).png" }
    // Filmstrip by hand (Filmstrip's layout): fw = 40, fh = 30, caption strip
    // ch = ⌈1.6·11⌉ = 18, gap 4, c = 2 columns, r = 2 rows: width 2·40 + 3·4 = 92, height
    // 2·(30 + 18) + 3·4 = 108. Frame 1 sits at (4 + 44, 4) = (48, 4), frame 2 at
    // (4, 4 + 48 + 4) = (4, 56); the sheet
    // colour is 0.92 → 234.6 → 235.
    let images = try PNGDecoding.decode([
      (frame(0), [(0, 0), (39, 29)]), (frame(1), [(20, 15), (0, 29)]), (frame(2), [(20, 15)]),
      (strip, [(0, 0), (10, 10), (50, 10), (10, 60), (60, 60)]),
    ])
    #expect(images[0].width == 40 && images[0].height == 30)
    #expect(images[0].pixels == [[64, 120, 217, 255], [64, 120, 217, 255]])
    #expect(images[1].pixels == [[154, 139, 139, 255], [154, 139, 139, 255]])
    #expect(images[2].pixels == [[245, 158, 61, 255]])
    #expect(images[3].width == 92 && images[3].height == 108)
    #expect(
      images[3].pixels == [
        [235, 235, 235, 255], [64, 120, 217, 255], [154, 139, 139, 255], [245, 158, 61, 255],
        [235, 235, 235, 255],
      ])
  }

  @Test func specFramesAtScaleTwo() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("spec.json", TestSpecs.plain)
    let out = directory.path + "/frames"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
    let result = try SegueProcess.run([
      "render", "--spec", spec, "--times", "0.25", "--scale", "2", "--output-dir", out,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // By hand at 0.25 s, scale 2 (80 × 60 pixels): point (5, 5) → pixel (10, 10) is the box at
    // opacity 0.25 over blue: 0.25·(1, 0, 0) + 0.75·(0, 0, 1) → (63.75, 0, 191.25) → (64, 0, 191).
    // The mover spans x 7.5…17.5, y 20…30: point (12, 25) → pixel (24, 50) is green; point
    // (3, 25) → pixel (6, 50) and point (30, 5) → pixel (60, 10) are the blue background.
    let images = try PNGDecoding.decode([
      (out + "/frame-0000.png", [(10, 10), (24, 50), (6, 50), (60, 10)])
    ])
    #expect(images[0].width == 80 && images[0].height == 60)
    let (red, green, blue) = ([64, 0, 191, 255], [0, 255, 0, 255], [0, 0, 255, 255])
    #expect(images[0].pixels == [red, green, blue, blue])
  }

  @Test func interactiveSpecFramesEndCancelled() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("spec.json", TestSpecs.interactive)
    let strip = directory.path + "/strip.png"
    let result = try SegueProcess.run([
      "render", "--spec", spec, "--times", "0.05,1", "--output-dir", directory.path,
      "--filmstrip", strip,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // 0.05 s: interacting at percent 0.25, so box opacity 0.25 → (64, 0, 191) at point (5, 5),
    // and the mover at x 5 + 0.25·30 = 12.5 → green at (12, 25).
    // 1 s: cancelled at 0.35 s, so the model: box opacity 0 → blue at (5, 5); the mover at its
    // model position x 5 (x 0…10) → green at (3, 25), blue at (12, 25).
    // Filmstrip: two cells in one row, frame 1 at x = 4 + 44 = 48.
    let images = try PNGDecoding.decode([
      (directory.path + "/frame-0000.png", [(5, 5), (12, 25)]),
      (directory.path + "/frame-0001.png", [(5, 5), (3, 25), (12, 25)]),
      (strip, [(4 + 5, 4 + 5), (48 + 5, 4 + 5), (48 + 3, 4 + 25)]),
    ])
    #expect(images[0].pixels == [[64, 0, 191, 255], [0, 255, 0, 255]])
    #expect(images[1].pixels == [[0, 0, 255, 255], [0, 255, 0, 255], [0, 0, 255, 255]])
    #expect(images[2].pixels == [[64, 0, 191, 255], [0, 0, 255, 255], [0, 255, 0, 255]])
  }

  @Test func svgFilmstripOnly() throws {
    let directory = try TemporaryDirectory()
    let strip = directory.path + "/sheet.svg"
    let result = try SegueProcess.run([
      "render", "--preset", "system", "--views", "bare", "--container", "40,30", "--times", "0,0.5",
      "--no-frames",
      "--filmstrip", strip, "--output-dir", directory.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try directory.contents() == ["sheet.svg"])
    let text = try String(contentsOfFile: strip, encoding: .utf8)
    // By hand: two 40 × 30 cells in a row with 18-pixel caption strips and 4-pixel gaps:
    // 2·40 + 3·4 = 92 by 30 + 18 + 2·4 = 56.
    #expect(text.contains(#"width="92" height="56""#))
    // At 0 s the from view fills the first cell: a polygon through its corners in from's colour
    // (64, 120, 217) = #4078d9.
    #expect(text.contains(##"<polygon points="0,0 40,0 40,30 0,30" fill="#4078d9"/>"##))
    #expect(text.contains("0.500s"))
  }

  /// A 2000 × 1000-point spec whose only layer is a 10-point red square, at `--fps 8` over 1 s:
  /// 9 frames of 2000 × 1000 = 2000000 pixels. Their contact sheet would be 6 columns by 2 rows:
  /// 6·2000 + 7·4 = 12028 by 2·(1000 + 18) + 3·4 = 2048 pixels, 24633344 in all, above the
  /// 2²⁴ = 16777216 a sheet may have. Without --filmstrip the frames are written (the sheet
  /// limit does not apply); with it the refusal names the frame count, columns, scale and what
  /// to change.
  @Test func framesOnlyRenderIgnoresTheSheetLimit() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write(
      "spec.json",
      #"{"version": 1, "duration": 1, "container": [2000, 1000], "layers": [{"id": "a", "#
        + #""bounds": [0, 0, 10, 10], "position": [5, 5], "backgroundColor": [1, 0, 0, 1]}]}"#)
    let out = directory.path + "/frames"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
    let sheet = try SegueProcess.run([
      "render", "--spec", spec, "--fps", "8", "--output-dir", out, "--filmstrip",
      directory.path + "/sheet.png",
    ])
    #expect(sheet.status == 65)
    for text in [
      "segue render: --filmstrip:", "9 frames", "6 columns", "scale 1", "12028×2048",
      "24633344 pixels", "16777216", "fewer frames", "smaller --scale", "leave out --filmstrip",
    ] {
      #expect(sheet.stderr.contains(text), "stderr lacks '\(text)': \(sheet.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    let frames = try SegueProcess.run(["render", "--spec", spec, "--fps", "8", "--output-dir", out])
    #expect(frames.status == 0, "\(frames.stderr)")
    #expect(frames.text == "segue render: wrote 9 frames of 2000×1000 px in \(out)\n")
    let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(names == (0..<9).map { "frame-000\($0).png" })
    // The square covers pixels 0…9 of each frame; (5, 5) is red, (1500, 500) white.
    let images = try PNGDecoding.decode([(out + "/frame-0008.png", [(5, 5), (1500, 500)])])
    #expect(images[0].width == 2000 && images[0].height == 1000)
    #expect(images[0].pixels == [[255, 0, 0, 255], [255, 255, 255, 255]])
  }

  /// Screens with text and shape layers render without fault in a small container, on two
  /// threads.
  @Test func screensInASmallContainer() throws {
    let directory = try TemporaryDirectory()
    let result = try SegueProcess.run([
      "render", "--preset", "system", "--container", "60,40", "--times", "0,0.2,0.4",
      "--threads", "2", "--quiet", "--output-dir", directory.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 3)
  }

  /// A spec whose layer shows a PNG next to it (`contents` relative to the spec's folder,
  /// written by the project's own encoder): a 2 × 2 image, red, green / blue, white (opaque),
  /// on a 40 × 40-point layer filling the container, magnified 20× with the default linear
  /// filter. A pixel centre within 10 pixels of a corner maps to within half a texel of that
  /// corner's texel, where the edge texels repeat: pixel (5, 5) is red, (34, 5) green,
  /// (5, 34) blue and (34, 34) white, exactly; the centre (20, 20) mixes all four.
  @Test func specImageLayerIsDrawn() throws {
    let directory = try TemporaryDirectory()
    var image = try PixelBufferRGBA8(width: 2, height: 2)
    image[0, 0] = SIMD4(255, 0, 0, 255)
    image[1, 0] = SIMD4(0, 255, 0, 255)
    image[0, 1] = SIMD4(0, 0, 255, 255)
    image[1, 1] = SIMD4(255, 255, 255, 255)
    try FileManager.default.createDirectory(
      atPath: directory.path + "/shots", withIntermediateDirectories: true)
    try Data(PNG.encode(image)).write(to: URL(fileURLWithPath: directory.path + "/shots/a.png"))
    let spec = try directory.write(
      "spec.json",
      #"{"version": 1, "duration": 1, "container": [40, 40], "layers": [{"id": "shot", "#
        + #""bounds": [0, 0, 40, 40], "position": [20, 20], "contents": "shots/a.png"}]}"#)
    let out = directory.path + "/frames"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
    let result = try SegueProcess.run([
      "render", "--spec", spec, "--times", "0", "--output-dir", out, "--quiet",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let frame = try PNGDecoding.decode([
      (out + "/frame-0000.png", [(5, 5), (34, 5), (5, 34), (34, 34), (20, 20)])
    ])[0]
    #expect(frame.width == 40 && frame.height == 40)
    #expect(
      Array(frame.pixels[0..<4]) == [
        [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255],
      ])
    // Pixel centre (20.5, 20.5) → texel (1.025, 1.025): weights 0.475 and 0.525 each way
    // between the four texels, so each channel lies strictly between 0 and 255.
    let centre = frame.pixels[4]
    #expect(centre[0] > 40 && centre[0] < 215 && centre[1] > 40 && centre[2] > 40)
  }

  /// PNG frames are encoded on --threads threads, several frames at once: the files are the
  /// same bytes with 1, 2 and 5 threads (7 frames: the last batch of 2 and of 5 is partial).
  @Test func framesAreTheSameBytesAtAnyThreadCount() throws {
    let directory = try TemporaryDirectory()
    var files: [[Data]] = []
    for threads in [1, 2, 5] {
      let out = directory.path + "/t\(threads)"
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      let result = try SegueProcess.run([
        "render", "--preset", "hero", "--scale", "0.25", "--times", "0,0.2,0.4,0.6,0.8,1,1.2",
        "--threads", String(threads), "--quiet", "--output-dir", out,
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
      #expect(names.count == 7, "\(names)")
      files.append(try names.map { try Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)) })
    }
    #expect(files[1] == files[0])
    #expect(files[2] == files[0])
  }
}
