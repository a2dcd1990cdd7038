import Foundation
import Segue
import SegueRender
import Testing

@testable import segue

/// `segue preview`: the data its page embeds (read back independently by
/// ``PreviewPageReading``) equals the library's samples, the page loads nothing, the page's gesture
/// and interaction functions (run in Node when it is installed) equal the library's, and every
/// rejected input gets the tool's error style and exit code.
@Suite struct PreviewCommandTests {
  /// Runs `segue preview ARGS --output page.html` and reads the page.
  static func page(_ arguments: [String]) throws -> PreviewPageReading {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/page.html"
    let result = try SegueProcess.run(["preview"] + arguments + ["--output", path, "--quiet"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty && result.stderr.isEmpty)
    return try PreviewPageReading(String(contentsOfFile: path, encoding: .utf8))
  }

  /// The transition the tool loads for these options (the same parser).
  static func loaded(_ arguments: [String]) throws -> LoadedTransition {
    try TransitionInput.parse(arguments).load()
  }

  /// The plane homography `(m11, m12, m14, m21, m22, m24, m41, m42, m44)` in Float, the page's
  /// precision.
  static func homography(_ m: Transform3D) -> [Float] {
    [m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44].map { Float($0) }
  }

  /// Expects the decoded frame `items` to be `sample`'s layers: every layer that draws (a
  /// background that is not clear or paint of its own, positive bounds, opacity > 0) in draw
  /// order, each with the sample's
  /// matrix and opacity and the presentation tree's bounds, to Float precision (the page stores
  /// Float32: the values must be the library's Doubles rounded once).
  static func expect(
    _ items: [PreviewPageReading.Item], equal sample: TransitionSample, tree: LayerTree,
    _ what: String
  ) {
    let drawn = sample.layers.sorted { $0.order < $1.order }.filter { layer in
      guard let i = tree.index(of: layer.id) else { return false }
      let bounds = tree.layers[i].bounds
      return (layer.backgroundColor.alpha > 0 || paints(tree.layers[i])) && layer.opacity > 0
        && bounds.width > 0 && bounds.height > 0
    }
    let decoded = items.flatMap(\.layers)
    #expect(decoded.map(\.id) == drawn.map(\.id), "\(what)")
    for (layer, expected) in zip(decoded, drawn) {
      #expect(layer.h == homography(expected.matrix), "\(what) \(layer.id)")
      #expect(layer.opacity == Float(expected.opacity), "\(what) \(layer.id)")
      let b = tree.layers[tree.index(of: layer.id)!].bounds
      #expect(layer.bounds == [b.minX, b.minY, b.width, b.height].map { Float($0) })
    }
  }

  /// Whether `layer` draws paint of its own over its background: a text layer with text in a
  /// visible colour, a shape layer with a path and a visible fill or stroke, a gradient layer
  /// with colours, or contents.
  static func paints(_ layer: Layer) -> Bool {
    if layer.contents != nil { return true }
    switch layer.kind {
    case .plain: return false
    case .text(let text): return !text.string.isEmpty && text.foregroundColor.alpha > 0
    case .shape(let shape):
      guard let path = shape.path, !path.elements.isEmpty else { return false }
      let stroked = (shape.strokeColor?.alpha ?? 0) > 0 && shape.lineWidth > 0
      return (shape.fillColor?.alpha ?? 0) > 0 || stroked
    case .gradient(let gradient): return !gradient.colors.isEmpty
    }
  }

  /// depth (perspective) push and pop at 30 samples per second: running frame k is
  /// `sample(at: k/30)`, the last one the duration (held at position 1), then the finished and
  /// cancelled end states.
  @Test(arguments: ["push", "pop"]) func framesAreTheLibrarySamples(operation: String) throws {
    let options = ["--preset", "depth", "--container", "100,200", "--operation", operation]
    let page = try Self.page(options + ["--fps", "30"])
    let scene = try Self.loaded(options).scene
    let data = try page.scene(operation)
    let frames = try page.frames(data)
    let running = try #require(data["runningFrameCount"] as? Int)
    #expect(data["duration"] as? Double == scene.duration)
    // ⌊30·D⌋ + 1 frames k/30, and the duration when it is not one of them.
    let steps = (scene.duration * 30).rounded(.down)
    let expected = Int(steps) + 1 + (steps / 30 == scene.duration ? 0 : 1)
    #expect(running == expected && frames.count == running + 2)
    for k in 0..<running {
      let a = k == running - 1 ? scene.duration : Double(k) / 30
      let sample: TransitionSample
      if a < scene.duration {
        sample = try scene.sample(at: a)
      } else {
        let held = try InteractionTimeline(
          duration: scene.duration, events: [.update(time: 0, percent: 1)])
        sample = try scene.sample(at: 0, interaction: held)
      }
      Self.expect(frames[k], equal: sample, tree: scene.presentation(at: a), "frame \(k)")
    }
    let finished = try scene.sample(at: scene.duration)
    Self.expect(
      frames[running], equal: finished,
      tree: scene.presentation(at: scene.duration, completion: .finished), "finished")
    let cancelled = try scene.sample(at: 0, completion: .cancelled)
    Self.expect(
      frames[running + 1], equal: cancelled,
      tree: scene.presentation(at: 0, completion: .cancelled),
      "cancelled")
  }

  /// Layer paint in the page: the one image two layers show embedded once (a PNG `data:` URI);
  /// the image layer's piece is its whole 60 × 40 image onto its 60 × 40 bounds, clipped to
  /// its rounded bounds (`masksToBounds`, radius 8); the three gradient types with the stops
  /// over [0, 1] and the end points in layer coordinates (bounds 40 × 30, `S = (0, 0)`,
  /// `E = (40, 30)` for the axial one).
  @Test func paintIsInTheSnapshots() throws {
    let directory = try TemporaryDirectory()
    let spec = try FilmstripSVGBrowserTests.writeSpec(in: directory)
    let page = directory.path + "/page.html"
    let made = try SegueProcess.run(["preview", "--spec", spec, "--output", page, "--quiet"])
    try #require(made.status == 0, "\(made.stderr)")
    let data = try PreviewPageReading(String(contentsOfFile: page, encoding: .utf8)).data
    let images = try #require(data["images"] as? [String])
    #expect(images.count == 1 && images[0].hasPrefix("data:image/png;base64,"))
    let scenes = try #require(data["scenes"] as? [[String: Any]])
    let snapshots = try #require(scenes.first?["snapshots"] as? [[String: Any]])
    var paints: [String: [String: Any]] = [:]
    for snapshot in snapshots {
      if let id = snapshot["id"] as? String, let paint = snapshot["paint"] as? [String: Any] {
        paints[id] = paint
      }
    }
    let photo = try #require(paints["photo"]?["contents"] as? [String: Any])
    #expect(photo["image"] as? Int == 0 && photo["clip"] as? Bool == true)
    #expect(photo["pieces"] as? [[Double]] == [[0, 0, 60, 40, 0, 0, 60, 40]])
    #expect(paints["photo"]?["body"] as? [Double] == [0, 0, 60, 40, 8, 15])
    let tilted = try #require(paints["tilted"]?["contents"] as? [String: Any])
    #expect(tilted["image"] as? Int == 0)
    let axial = try #require(paints["axial"]?["gradient"] as? [String: Any])
    #expect(axial["type"] as? String == "axial")
    #expect(axial["start"] as? [Double] == [0, 0] && axial["end"] as? [Double] == [40, 30])
    #expect(
      axial["stops"] as? [[Double]] == [
        [0, 1, 0, 0, 1], [0, 1, 0, 0, 1], [1, 0, 0, 1, 1], [1, 0, 0, 1, 1],
      ])
    #expect((paints["radial"]?["gradient"] as? [String: Any])?["type"] as? String == "radial")
    #expect((paints["conic"]?["gradient"] as? [String: Any])?["type"] as? String == "conic")
    #expect(snapshots.first { $0["id"] as? String == "photo" }?["body"] as? Bool == false)
  }

  /// A layer cut by depth sorting (``SampleCommandTests/crossingSpec``): the page draws `b`'s
  /// left half, then `a`, then `b`'s right half, each piece with the polygon of the sample's piece
  /// (Float precision); `P` (clear) draws nothing.
  @Test func cutLayerPiecesAreInTheFrames() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("crossing.json", SampleCommandTests.crossingSpec)
    let page = try Self.page(["--spec", spec, "--fps", "1"])
    let frames = try page.frames(try page.scene("spec"))
    let layers = frames[0].flatMap(\.layers)
    #expect(layers.map(\.id) == ["b", "a", "b"])
    let sample = try Self.loaded(["--spec", spec]).scene.sample(at: 0)
    let pieces = try #require(sample["b"]?.pieces)
    #expect(layers[0].piece == pieces[0].polygon.flatMap { [Float($0.x), Float($0.y)] })
    #expect(layers[2].piece == pieces[1].polygon.flatMap { [Float($0.x), Float($0.y)] })
    #expect(layers[1].piece.isEmpty)
  }

  /// ca-fade (0.25 s, linear) is a true cross-dissolve: at 8 samples per second frame 1 is
  /// 0.125 s, q = 0.5, two snapshots weighted 1 − q = 0.5 and q = 0.5; frame 0 is the old
  /// snapshot alone, weight 1.
  @Test func crossDissolveWeights() throws {
    let page = try Self.page(["--preset", "ca-fade", "--container", "40,30", "--fps", "8"])
    let frames = try page.frames(try page.scene("push"))
    guard case .dissolve(let start)? = frames[0].last, case .dissolve(let middle)? = frames[1].last
    else {
      Issue.record("no cross-dissolve in \(frames[0]), \(frames[1])")
      return
    }
    // The new snapshot's weight is 0 at the start: the renderer leaves it out.
    #expect(start.map(\.weight) == [1])
    #expect(middle.map(\.weight) == [0.5, 0.5])
  }

  /// The page names no other resource: no URL scheme, no src or href attribute, no fetch, no
  /// request, no module import, no stylesheet link, no CSS url().
  @Test(arguments: TransitionPreset.allCases) func pageIsSelfContained(preset: TransitionPreset)
    throws
  {
    let page = try Self.page(["--preset", preset.rawValue, "--fps", "10"])
    let html = page.html.lowercased()
    for needle in [
      "http:", "https:", "file:", "ftp:", "ws://", "wss://", "//cdn", "src=", "href=", "fetch(",
      "xmlhttprequest",
      "import(", "importscripts", "<link", "@import", "url(", "websocket", "eventsource",
      "sendbeacon", "<iframe", "<img", "@font-face", "srcset",
    ] {
      #expect(!html.contains(needle), "\(preset.rawValue): the page contains '\(needle)'")
    }
    // The only scripts are the three inline ones.
    #expect(html.components(separatedBy: "<script").count == 4)
  }

  /// The page's gesture rules are the preset's own (depth), or fade-slide's edge swipe for a preset
  /// without a gesture of its own (hero); the completion table is ease-in-ease-out at i/1024.
  @Test func gestureAndCompletionData() throws {
    let depth = try Self.page(["--preset", "depth", "--fps", "10", "--container", "320,480"])
    let gesture = try #require(depth.data["gesture"] as? [String: Any])
    #expect(gesture["presetGesture"] as? Bool == true)
    #expect(gesture["input"] as? String == "translation.x")
    #expect(gesture["span"] as? Double == 200 && gesture["edgeLimit"] as? Double == 50)
    #expect(gesture["cap"] as? Double == 1 && gesture["threshold"] as? Double == 0.5)
    #expect(gesture["containerWidth"] as? Double == 320)
    #expect(gesture["cancelsCancelledGestures"] as? Bool == true)
    let hero = try Self.page(["--preset", "hero", "--fps", "10"])
    let fallback = try #require(hero.data["gesture"] as? [String: Any])
    #expect(fallback["presetGesture"] as? Bool == false && fallback["span"] as? Double == 390)
    #expect(fallback["edgeLimit"] is NSNull)
    let completion = try #require(depth.data["completion"] as? [String: Any])
    #expect(completion["completionSpeed"] as? Double == 1)
    let text = try #require(completion["table"] as? String)
    let table = try #require(Data(base64Encoded: text))
    #expect(table.count == 8 * 1025)
    for i in [0, 1, 256, 512, 900, 1024] {
      var bits: UInt64 = 0
      for k in 0..<8 { bits |= UInt64(table[8 * i + k]) << (8 * k) }
      #expect(Double(bitPattern: bits) == TimingFunction.easeInEaseOut.transform(Double(i) / 1024))
    }
  }

  /// A spec from standard input (`--spec -`) and an events script from standard input with a
  /// preset (`--events -`): the page holds the spec's scene, and the script's events and settings.
  @Test func standardInput() throws {
    let spec = try Self.pageFromStdin(["--spec", "-", "--fps", "4"], TestSpecs.plain)
    let scene = try spec.scene("spec")
    #expect(scene["duration"] as? Double == 1 && scene["runningFrameCount"] as? Int == 5)
    #expect(spec.data["container"] as? [Double] == [40, 30])
    let events = try Self.pageFromStdin(
      ["--preset", "system", "--events", "-", "--fps", "10"],
      #"[{"time": 0, "update": 0.25}, {"time": 0.2, "finish": {"completionSpeed": 2}}]"#)
    let interaction = try #require(events.data["interaction"] as? [String: Any])
    #expect(interaction["completionSpeed"] as? Double == 2)
    let list = try #require(interaction["events"] as? [[String: Any]])
    #expect(list.count == 2 && list[0]["percent"] as? Double == 0.25)
    #expect(list[1]["type"] as? String == "finish" && list[1]["time"] as? Double == 0.2)
  }

  /// A spec using every layer appearance property: 'card' (rounded, bordered, rotating) masks
  /// 'chip' to its bounds, 'tag' is rounded and casts a shadow.
  static let appearanceSpec = """
    {"version": 1, "duration": 1, "container": [80, 60], "layers": [
      {"id": "card", "bounds": [0, 0, 50, 40], "position": [40, 30], "cornerRadius": 8,
       "masksToBounds": true, "borderWidth": 3, "borderColor": [1, 0, 0, 1],
       "backgroundColor": [0.2, 0.5, 0.9, 1],
       "animations": [{"keyPath": "transform.rotation.z", "type": "basic", "fromValue": 0,
                       "toValue": 0.5, "duration": 1}]},
      {"id": "chip", "parent": "card", "bounds": [0, 0, 30, 20], "position": [45, 35],
       "backgroundColor": [0.9, 0.8, 0.1, 1]},
      {"id": "tag", "bounds": [0, 0, 20, 12], "position": [15, 12], "cornerRadius": 4,
       "backgroundColor": [0.3, 0.8, 0.3, 1], "shadowOpacity": 0.6, "shadowRadius": 4,
       "shadowOffset": [2, 3]}
    ]}
    """

  /// The page draws every appearance property, so it notes none: the snapshot table gives
  /// 'card' its corner radius and, for the raster layer of its border alone (after 'chip', its
  /// sublayer), the border; 'tag' its shadow (`σ = shadowRadius/2`, alpha × `shadowOpacity`).
  /// Each frame has one clip, 'card''s rounded bounds through its matrix, and 'chip' names it.
  @Test func appearanceIsInTheData() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("spec.json", Self.appearanceSpec)
    let path = directory.path + "/page.html"
    let result = try SegueProcess.run(
      ["preview", "--spec", spec, "--fps", "4", "--output", path])
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    let page = try PreviewPageReading(String(contentsOfFile: path, encoding: .utf8))
    #expect(page.data["notes"] == nil)
    let scene = try page.scene("spec")
    let table = try #require(scene["snapshots"] as? [[String: Any]])
    let frames = try page.framesAndClips(scene)
    try #require(frames.count == 7)
    for (items, clips) in frames {
      let layers = items.flatMap(\.layers)
      try #require(layers.map(\.id) == ["card", "chip", "card", "tag"])
      try #require(clips.count == 1)
      #expect(clips[0].outer == -1 && clips[0].bounds == [0, 0, 50, 40])
      #expect(clips[0].radius == 8 && clips[0].mask == 15 && clips[0].h == layers[0].h)
      #expect(layers.map(\.clip) == [-1, 0, -1, -1])
      let (card, border, tag) = (
        table[layers[0].snapshot], table[layers[2].snapshot], table[layers[3].snapshot]
      )
      #expect(card["shape"] as? [Double] == [8, 15] && card["border"] == nil)
      #expect(border["body"] as? Bool == false && border["shape"] as? [Double] == [8, 15])
      #expect(border["border"] as? [Double] == [3, 1, 0, 0, 1])
      #expect(tag["shape"] as? [Double] == [4, 15])
      let shadow = try #require(tag["shadow"] as? [Double])
      #expect(shadow.count == 7 && shadow[0...2] == [0, 0, 0] && shadow[4...] == [2, 2, 3])
      #expect(abs(shadow[3] - 0.6) < 1e-12)
      #expect(table[layers[1].snapshot]["shadow"] == nil)
    }
  }

  /// A frame's clips: a chain of masking ancestors is written once, outermost first, however
  /// many layers it clips; a layer names its innermost clip, and no clip is −1.
  @Test func clipChainsAreSharedWithinAFrame() {
    let outer = ClipShape(bounds: Rect(x: 0, y: 0, width: 10, height: 10), matrix: .identity)
    let inner = ClipShape(
      bounds: Rect(x: 0, y: 0, width: 4, height: 4), cornerRadius: 1, matrix: .identity)
    var table = PreviewClipTable()
    #expect(table.index(of: []) == -1)
    #expect(table.index(of: [inner, outer]) == 1)
    #expect(table.index(of: [outer]) == 0)
    #expect(table.index(of: [inner, outer]) == 1)
    #expect(table.index(of: [inner]) == 2)
    #expect(table.count == 3 && table.values.count == 48)
    #expect(Array(table.values[0..<7]) == [-1, 0, 0, 10, 10, 0, 15])
    #expect(Array(table.values[16..<23]) == [0, 0, 0, 4, 4, 1, 15])
    #expect(table.values[32] == -1)
  }

  static func pageFromStdin(_ arguments: [String], _ input: String) throws -> PreviewPageReading {
    let result = try SegueProcess.run(["preview"] + arguments, stdin: Data(input.utf8))
    #expect(result.status == 0, "\(result.stderr)")
    return try PreviewPageReading(result.text)
  }

  /// Rejected inputs: the tool's one error style (`segue preview: ARGUMENT: …`) and exit code;
  /// an earlier page is never touched.
  @Test(
    arguments: [
      (["--preset", "depth", "--times", "0.1"], 64, "--times"),
      (["--preset", "nope"], 64, "nope"),
      (["--preset", "depth", "--fps", "0"], 65, "--fps"),
      (["--preset", "depth", "--fps", "nan"], 65, "--fps"),
      (["--preset", "depth", "--fps", "1e7"], 65, "--fps"),
      (["--preset", "depth", "--container", "0,10"], 65, "--container"),
      (["--spec", "/nonexistent/spec.json"], 66, "/nonexistent/spec.json"),
      (["--preset", "depth", "--events", "/nonexistent/events.json"], 66, "events.json"),
    ] as [([String], Int32, String)])
  func rejected(arguments: [String], status: Int32, names: String) throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("page.html", "earlier page")
    let result = try SegueProcess.run(["preview"] + arguments + ["--output", path])
    #expect(result.status == status, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("segue preview: ") || status == 64, "\(result.stderr)")
    #expect(result.stderr.contains(names), "\(result.stderr)")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "earlier page")
    #expect(try directory.contents() == ["page.html"])
  }

  /// A spec that is not JSON is bad data (65), naming `--spec`.
  @Test func malformedSpec() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("spec.json", "{not json")
    let result = try SegueProcess.run(["preview", "--spec", spec])
    #expect(
      result.status == 65 && result.stderr.hasPrefix("segue preview: --spec: malformed JSON"),
      "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  /// Writes that fail exit 73: a directory that does not exist, a full stdout.
  @Test func unwritableOutput() throws {
    let missing = try SegueProcess.run([
      "preview", "--preset", "depth", "--fps", "5", "--output", "/nonexistent/dir/page.html",
    ])
    #expect(missing.status == 73, "\(missing.stderr)")
    #expect(missing.stderr.hasPrefix("segue preview: "), "\(missing.stderr)")
    let full = try SegueProcess.run(
      ["preview", "--preset", "depth", "--fps", "5"], stdout: .path("/dev/full"))
    #expect(full.status == 73, "\(full.stderr)")
  }

  /// The page's size budget is checked from frames × layers before sampling: the estimate
  /// `⌈16/3 · floats⌉` bytes against 2^25.
  @Test func pageBudget() {
    #expect(throws: Never.self) {
      try Budget.checkPreviewSize(frames: 10, floats: 6_291_456, argument: "--fps")
    }
    #expect(throws: CLIError.self) {
      try Budget.checkPreviewSize(frames: 10, floats: 6_291_457, argument: "--fps")
    }
  }
}
