import ArgumentParser
import Segue
import SegueMallocCounter
import SegueRender
import SegueToolSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// MARK: - Rendering workload (render)
//
// `render`: the frames of a preset's transition (its default views, 390 × 844 points) at
// `--scale` pixels per point, F = `--frames` frames at k·duration/(F − 1), k = 0…F − 1. One pass
// renders every frame into one preallocated RGBA8 image:
//
// * `--path simd` (default): `SceneRenderer.render(scene, at:, into:, context:)` with a
//   `RenderContext(threads:)`: evaluating the scene (sample, presentation tree, render list),
//   rasterising every layer through its full 3D matrix with 4×4-sample edge coverage,
//   compositing (opacity, "over", cross-dissolve sums) and quantising to RGBA8, in bands on
//   `--threads` threads. Also timed separately: the same frames from precomputed render lists
//   ("rasterise only": compile, rasterise, composite, quantise).
// * `--path reference`: the reference rasteriser (`SceneRenderer.referenceRender`: every
//   pixel of every layer's box sampled 16 times in Double, full-size Float images, then
//   quantised) — the renderer before the fast one.
//
// Not timed: building the scene, allocating the image and context, encoding. After one untimed
// warm-up pass, `repeats` passes are timed (or until `--seconds`). Reported per preset:
// Mpixel/s (output pixels per second of wall time, median and best pass), ms per frame,
// allocation calls per frame, CPU seconds per wall second (how many cores were busy), and with
// `--check` the largest channel difference of any frame against the reference.

/// The options of the `render` workload.
struct RenderOptions: ParsableArguments {
  @Option(help: "render: the preset (see 'segue presets'), or all.")
  var preset: String = "all"

  @Option(help: "render: pixels per point, > 0.")
  var scale: Double = 2

  @Option(help: "render: the operation, push or pop.")
  var operation: String = "push"

  @Flag(help: "render: fill layers with gradients instead of solid colours.")
  var gradient = false

  @Option(
    help: ArgumentHelp(
      "render: what the default views draw: screens (iOS screens) or bare (only the animated "
        + "layers, one flat colour each).", valueName: "content"))
  var views: DefaultViewContent = .screens

  @Flag(
    help:
      "render: also render every frame with the reference rasteriser and print the largest channel difference (slow)."
  )
  var check = false

  @Flag(help: "render: also time encoding the frames as PNG, APNG and GIF (not part of Mpixel/s).")
  var encode = false

  @Flag(
    help:
      "render: every layer with a background shows a generated image as its contents (screen-sized at 2x, linear filter)."
  )
  var contents = false
}

extension SegueBench {
  /// The presets the render workload runs.
  var renderPresets: [TransitionPreset] {
    let name = renderOptions.preset
    return name == "all"
      ? TransitionPreset.allCases : TransitionPreset.allCases.filter { $0.rawValue == name }
  }

  /// Checks the options of `render` (called from `validate()`).
  func validateRenderWorkload() throws {
    let o = renderOptions
    guard !renderPresets.isEmpty else {
      throw ValidationError(
        "unknown preset '\(o.preset)'; available: all, "
          + TransitionPreset.allCases.map(\.rawValue).joined(separator: ", "))
    }
    guard o.scale.isFinite && o.scale > 0 && o.scale <= 8 else {
      throw ValidationError("--scale must be in (0, 8] (got \(o.scale))")
    }
    guard o.operation == "push" || o.operation == "pop" else {
      throw ValidationError("--operation must be push or pop (got '\(o.operation)')")
    }
    guard frames >= 2 && frames <= 10_000 else {
      throw ValidationError("--frames must be in 2…10000 (got \(frames))")
    }
    guard threads <= 64 else {
      throw ValidationError("--threads must be in 1…64 for 'render' (got \(threads))")
    }
    guard path == .simd || path == .reference else {
      throw ValidationError(
        "--path \(path.rawValue) does not apply to 'render' (simd or reference)")
    }
    if path == .reference && threads != 1 {
      throw ValidationError("--path reference runs on one thread (got --threads \(threads))")
    }
    if time != nil || times != nil {
      throw ValidationError("--t/--times do not apply to 'render' (see --frames)")
    }
  }

  /// Runs the render workload and prints one block per preset, or one JSON object.
  func runRenderWorkload() throws {
    let o = renderOptions
    let header =
      "workload render  scale \(o.scale)  frames \(frames)  threads \(threads)  path "
      + "\(path.rawValue)  operation \(o.operation)"
      + "\(o.gradient ? "  gradient" : "")"
    if format == .text {
      print(header)
      print("CPU \(cpuModelName())  (\(CPUFeatures.runtime.description))")
    }
    var totalPixels = 0.0
    var totalSeconds = 0.0
    var rows: [String] = []
    for preset in renderPresets {
      let row = try renderPreset(preset)
      totalPixels += row.pixels
      totalSeconds += row.seconds
      if format == .json { rows.append(row.json) } else { print(row.text) }
    }
    let overall = totalPixels / totalSeconds / 1e6
    if format == .json {
      let fields: [(String, String)] = [
        ("workload", "\"render\""), ("scale", "\(o.scale)"), ("frames", "\(frames)"),
        ("threads", "\(threads)"), ("path", "\"\(path.rawValue)\""),
        ("operation", "\"\(o.operation)\""),
        ("gradient", "\(o.gradient)"), ("mpixelsPerSecond", "\(overall)"),
        ("cpu", "\"\(cpuModelName())\""),
        ("cpuRuntime", "\"\(CPUFeatures.runtime.description)\""),
        ("swiftCompiledFor", "\"\(CPUFeatures.compiled.description)\""),
        ("presets", "[" + rows.joined(separator: ",") + "]"),
      ]
      print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    } else if renderPresets.count > 1 {
      print("all presets  \(fixed(overall, 1)) Mpixel/s (median passes)")
    }
  }

  /// Gives every layer of `scene` with a background a generated image as its `contents`
  /// (`named("screen")`, the container's size at 2x, opaque: smooth colour ramps under a
  /// splitmix64 noise, seeded), registered with `renderer`.
  static func showScreenshots(in scene: inout TransitionScene, renderer: inout SceneRenderer)
    throws
  {
    let width = Int(scene.containerSize.width * 2)
    let height = Int(scene.containerSize.height * 2)
    var bytes = [UInt8](repeating: 255, count: 4 * width * height)
    var state: UInt64 = 42
    for y in 0..<height {
      for x in 0..<width {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        let noise = Int((z ^ (z >> 31)) & 31)
        let at = 4 * (y * width + x)
        bytes[at] = UInt8(min(255, 40 + 180 * x / width + noise))
        bytes[at + 1] = UInt8(min(255, 60 + 150 * y / height + noise))
        bytes[at + 2] = UInt8(min(255, 200 - 120 * x / width + noise))
      }
    }
    let image = try BitmapImage(
      pixels: PixelBufferRGBA8(width: width, height: height, components: bytes), scale: 2)
    renderer.images.insert(image, for: .named("screen"))
    for var layer in scene.model.layers where layer.backgroundColor.alpha > 0 {
      layer.contents = .named("screen")
      try scene.model.update(layer)
    }
  }

  /// Renders one preset's frames: the row of the report, with the pixels of one pass and its
  /// median seconds.
  private func renderPreset(_ preset: TransitionPreset) throws -> RenderRow {
    let r = try PresetRendering(preset, renderOptions, frames: frames, threads: threads, path: path)
    var image = try PixelBufferRGBA8(width: r.size.width, height: r.size.height)
    let pass: () throws -> Void
    if r.isReference {
      pass = { for t in r.times { image = try r.referenceImage(at: t) } }
    } else {
      pass = {
        for t in r.times { try r.renderer.render(r.scene, at: t, into: &image, context: r.context) }
      }
    }
    try pass()
    let (wall, cpu, _) = try timed(pass)
    let (checksum, allocationsPerFrame) = try r.checksumFrames(&image)
    let counted = segue_allocation_counting_available() != 0
    let pixels = Double(frames * r.size.width * r.size.height)
    let median = wall.sorted()[wall.count / 2]
    let best = wall.min()!
    var row = RenderRow(
      preset: preset.rawValue, width: r.size.width, height: r.size.height, pixels: pixels,
      seconds: median, bestSeconds: best, frames: frames, cpuSeconds: cpu,
      allocationsPerFrame: counted ? Int(allocationsPerFrame) : nil, checksum: checksum)
    var line =
      "\(preset.rawValue.padding(14)) \(r.size.width)×\(r.size.height)  "
      + "\(fixed(pixels / median / 1e6, 1)) Mpixel/s (best \(fixed(pixels / best / 1e6, 1)))  "
      + "\(fixed(median / Double(frames) * 1e3, 2)) ms/frame  "
      + "CPU \(fixed(cpu / median, 2)) s/s (\(fixed(pixels / cpu / 1e6, 1)) Mpixel per CPU-s)  "
      + "allocations \(row.allocationsPerFrame.map { "\($0)/frame (most in one frame)" } ?? "not counted")"
    if path == .simd { line += try rasteriseOnly(r, image: &image, row: &row) }
    line += "  checksum \(String(checksum, radix: 16)) (FNV-1a of every byte of every frame)"
    if renderOptions.encode { line += try r.encodingLine(&image) }
    if renderOptions.check {
      let worst = try r.maxDifference(&image)
      line += "\n\(String().padding(14)) max channel difference vs reference \(worst)/255"
      row.maxDifference = worst
    }
    row.text = line
    return row
  }

  /// The same frames from precomputed render lists, timed: the rasteriser alone. Fills the
  /// row's rasterise figures and returns the report line.
  private func rasteriseOnly(
    _ r: PresetRendering, image: inout PixelBufferRGBA8, row: inout RenderRow
  ) throws -> String {
    let lists = try r.renderLists()
    func rasterise() throws {
      for items in lists { try r.renderer.render(items, into: &image, context: r.context) }
    }
    try rasterise()
    let (rasterWall, _, _) = try timed(rasterise)
    let rasterMedian = rasterWall.sorted()[rasterWall.count / 2]
    var rasterAllocations: UInt64 = 0
    for items in lists {
      let before = segue_allocation_count()
      try r.renderer.render(items, into: &image, context: r.context)
      rasterAllocations = max(rasterAllocations, segue_allocation_count() &- before)
    }
    row.rasteriseSeconds = rasterMedian
    row.rasteriseAllocationsPerFrame =
      segue_allocation_counting_available() != 0 ? Int(rasterAllocations) : nil
    return "\n\(String().padding(14)) rasterise only \(fixed(row.pixels / rasterMedian / 1e6, 1)) "
      + "Mpixel/s  \(fixed(rasterMedian / Double(frames) * 1e3, 2)) ms/frame  allocations "
      + "\(row.rasteriseAllocationsPerFrame.map { "\($0)/frame (most in one frame)" } ?? "not counted")"
  }

  /// Times `pass` as ``timedPasses(_:)`` does, also returning the CPU seconds of the median
  /// pass (all threads of the process) and the most allocation calls of a pass (nil when not
  /// counted).
  private func timed(_ pass: () throws -> Void) throws -> (
    wall: [Double], cpu: Double, allocations: Int?
  ) {
    var cpuSeconds: [Double] = []
    let (wall, maxAllocations) = try timedPasses {
      let c0 = processCPUSeconds()
      try pass()
      cpuSeconds.append(processCPUSeconds() - c0)
    }
    let allocations =
      segue_allocation_counting_available() != 0 ? Int(maxAllocations) : nil
    return (wall, cpuSeconds.sorted()[cpuSeconds.count / 2], allocations)
  }
}

/// CPU seconds used by every thread of this process so far.
func processCPUSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// The CPU's model name from /proc/cpuinfo ("unknown" elsewhere).
func cpuModelName() -> String {
  guard let file = fopen("/proc/cpuinfo", "r") else { return "unknown" }
  defer { fclose(file) }
  var line = [CChar](repeating: 0, count: 512)
  while fgets(&line, Int32(line.count), file) != nil {
    let bytes = line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    let text = String(decoding: bytes, as: UTF8.self)
    if text.hasPrefix("model name"), let colon = text.firstIndex(of: ":") {
      return String(text[text.index(after: colon)...].trimmingSpaces().filter { $0 != "\n" })
    }
  }
  return "unknown"
}

extension String {
  /// Padded with spaces to at least `width` characters.
  func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}

/// One preset's figures in the render workload's report.
struct RenderRow {
  var preset: String
  var width: Int
  var height: Int
  /// Output pixels of one pass (every frame).
  var pixels: Double
  /// The median and best pass, seconds of wall time.
  var seconds: Double
  var bestSeconds: Double
  var frames: Int
  /// CPU seconds of the median pass (all threads).
  var cpuSeconds: Double
  /// The most allocation calls of one frame (counted frame by frame, untimed), nil when not
  /// counted.
  var allocationsPerFrame: Int?
  /// FNV-1a of every byte of every frame, in order.
  var checksum: UInt64
  var rasteriseSeconds: Double?
  var rasteriseAllocationsPerFrame: Int?
  var maxDifference: Int?
  /// The text block.
  var text = ""

  var json: String {
    func optional(_ v: Int?) -> String { v.map { "\($0)" } ?? "null" }
    var fields: [(String, String)] = [
      ("preset", "\"\(preset)\""), ("width", "\(width)"), ("height", "\(height)"),
      ("frames", "\(frames)"), ("medianSeconds", "\(seconds)"), ("bestSeconds", "\(bestSeconds)"),
      ("mpixelsPerSecond", "\(pixels / seconds / 1e6)"),
      ("bestMpixelsPerSecond", "\(pixels / bestSeconds / 1e6)"),
      ("msPerFrame", "\(seconds / Double(frames) * 1e3)"),
      ("cpuSecondsPerSecond", "\(cpuSeconds / seconds)"),
      ("allocationsPerFrame", optional(allocationsPerFrame)),
      ("checksum", "\"\(String(checksum, radix: 16))\""),
    ]
    if let rasteriseSeconds {
      fields.append(("rasteriseMpixelsPerSecond", "\(pixels / rasteriseSeconds / 1e6)"))
      fields.append(("rasteriseAllocationsPerFrame", optional(rasteriseAllocationsPerFrame)))
    }
    if let maxDifference { fields.append(("maxChannelDifference", "\(maxDifference)")) }
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }
}

/// One preset's scene in the render workload, with its renderer, frame times and context.
struct PresetRendering {
  let scene: TransitionScene
  let renderer: SceneRenderer
  let size: (width: Int, height: Int)
  /// The frame times `k·duration/(F − 1)`.
  let times: [Double]
  let context: RenderContext
  /// Whether frames are rendered by the reference rasteriser (`--path reference`).
  let isReference: Bool

  init(
    _ preset: TransitionPreset, _ o: RenderOptions, frames: Int, threads: Int, path: BenchPath
  ) throws {
    let animator = PresetAnimator(preset)
    let operation: TransitionOperation = o.operation == "pop" ? .pop : .push
    var scene = try animator.animateTransition(
      using: animator.defaultContext(operation: operation, content: o.views))
    var renderer = SceneRenderer(scale: o.scale, gradient: o.gradient)
    if o.contents { try SegueBench.showScreenshots(in: &scene, renderer: &renderer) }
    self.scene = scene
    self.renderer = renderer
    size = try renderer.outputSize(for: scene.containerSize)
    let duration = scene.duration
    times = (0..<frames).map { duration * Double($0) / Double(frames - 1) }
    context = try RenderContext(threads: threads)
    isReference = path == .reference
  }

  /// Frame `t` by the reference rasteriser.
  func referenceImage(at t: Double) throws -> PixelBufferRGBA8 {
    let sample = try scene.sample(at: t)
    let tree = scene.presentation(at: t, completion: sample.isCompleted ? .finished : nil)
    return try renderer.referenceRender(
      sample, presentation: tree, containerSize: scene.containerSize)
  }

  /// Untimed, after the timed passes: every frame once more, its allocation calls counted on
  /// its own, and every byte of it hashed (FNV-1a over the frames in order), so a wrong pixel
  /// anywhere changes the checksum. Returns the hash and the most allocation calls of a frame.
  func checksumFrames(_ image: inout PixelBufferRGBA8) throws -> (UInt64, UInt64) {
    var checksum: UInt64 = 0xCBF2_9CE4_8422_2325
    var allocationsPerFrame: UInt64 = 0
    for t in times {
      let before = segue_allocation_count()
      if isReference {
        image = try referenceImage(at: t)
      } else {
        try renderer.render(scene, at: t, into: &image, context: context)
      }
      allocationsPerFrame = max(allocationsPerFrame, segue_allocation_count() &- before)
      for byte in image.components { checksum = (checksum ^ UInt64(byte)) &* 0x100_0000_01B3 }
    }
    return (checksum, allocationsPerFrame)
  }

  /// The render list of every frame.
  func renderLists() throws -> [[SceneRenderItem]] {
    var lists: [[SceneRenderItem]] = []
    for t in times {
      let sample = try scene.sample(at: t)
      let tree = scene.presentation(at: t, completion: sample.isCompleted ? .finished : nil)
      lists.append(try renderer.renderItems(for: sample, presentation: tree))
    }
    return lists
  }

  /// Encoding, timed separately: every frame as a PNG, as one APNG, as one GIF; the report line.
  func encodingLine(_ image: inout PixelBufferRGBA8) throws -> String {
    let frames = times.count
    var frameImages: [PixelBufferRGBA8] = []
    for t in times {
      try renderer.render(scene, at: t, into: &image, context: context)
      frameImages.append(image)
    }
    let delay = scene.duration / Double(frames - 1)
    var pngBytes = 0
    let pngEncoder = try PNGEncoder()
    var file: [UInt8] = []
    var t0 = monotonicSeconds()
    for frame in frameImages {
      try pngEncoder.encode(frame, into: &file)
      pngBytes += file.count
    }
    let png = monotonicSeconds() - t0
    t0 = monotonicSeconds()
    var apng = try APNGEncoder(width: size.width, height: size.height, frameCount: frames)
    for frame in frameImages { try apng.add(frame, delay: delay) }
    let apngBytes = try apng.finish().count
    let apngSeconds = monotonicSeconds() - t0
    t0 = monotonicSeconds()
    var gif = try GIFEncoder(width: size.width, height: size.height)
    for frame in frameImages { try gif.add(frame, delay: delay) }
    let gifBytes = try gif.finish().count
    let gifSeconds = monotonicSeconds() - t0
    return "\n\(String().padding(14)) encode: PNG \(fixed(png / Double(frames) * 1e3, 1)) ms/frame "
      + "(\(pngBytes / frames) B/frame)  APNG \(fixed(apngSeconds / Double(frames) * 1e3, 1)) "
      + "ms/frame (\(apngBytes) B)  GIF \(fixed(gifSeconds / Double(frames) * 1e3, 1)) ms/frame "
      + "(\(gifBytes) B)"
  }

  /// The largest channel difference of any frame between the fast renderer and the reference.
  func maxDifference(_ image: inout PixelBufferRGBA8) throws -> Int {
    var worst = 0
    for t in times {
      let reference = try referenceImage(at: t)
      try renderer.render(scene, at: t, into: &image, context: context)
      for i in 0..<image.components.count {
        worst = max(worst, abs(Int(image.components[i]) - Int(reference.components[i])))
      }
    }
    return worst
  }
}

extension DefaultViewContent: ExpressibleByArgument {}
