import Segue
import SegueToolSupport

/// The size limits of one run, checked before any work is done, so that no request grows
/// without bound in time, memory or output (documented in ExitCodes.md, the DocC article "The
/// command line" and `--help`).
enum Budget {
  /// The most sample times one run takes (`--times`, `--fps`, a spec's `sampleTimes`): 10⁶.
  static let maximumSamples = 1_000_000

  /// The most scene evaluations one `sample` or `render` run makes, counted as samples × scene
  /// items (layers + animations + model changes + interaction events, ``LoadedTransition/
  /// sceneItems``): 2²² = 4194304. Every sample visits every item, and `sample` writes one
  /// record of about 150–700 bytes of JSON (a little less as CSV) per layer and sample, so this
  /// bounds both the time and the output: `segue sample --preset hero --fps 75000` (135001
  /// samples × 31 items = 4185031) writes 249 MB of JSON in about 20 s in a release build on
  /// the development machine.
  static let maximumSceneSamples = 1 << 22

  /// The most pixels one `render` run draws: 2³⁰ = 1073741824, counted as each frame's pixels
  /// (cleared, encoded, written) plus, for every layer drawn in it, the pixels of its
  /// on-screen bounding box (each rasterised with 16 supersamples), plus a frame's pixels again
  /// for a cross-dissolve's off-screen image (``RenderCost``). It bounds frames × pixels — the
  /// output — and the rasteriser's work: about four minutes in a release build on the
  /// development machine, which draws `segue render --preset system --fps 120` (61 frames, 70
  /// million drawn pixels) in about 15 s.
  static let maximumDrawnPixels = 1 << 30

  /// Throws unless `count` samples of `transition` stay within ``maximumSceneSamples``.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/dataError`` naming `argument` (where the times came
  ///   from), stating the size of the request.
  static func checkSamples(_ count: Int, of transition: LoadedTransition, argument: String)
    throws(CLIError)
  {
    let items = transition.sceneItems
    let product = checkedProduct(count, items)
    if fits(product, within: maximumSceneSamples) { return }
    throw CLIError(
      .dataError, argument,
      "\(count) samples of a scene of \(items) items (\(transition.sceneDescription)) is "
        + "\(product.map { "\($0)" } ?? "too many") scene samples, above the budget of "
        + "\(maximumSceneSamples); use fewer times (a lower --fps, or --times)")
  }

  /// Throws unless `cost` stays within ``maximumDrawnPixels``.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/dataError`` naming `argument`, stating the size.
  static func checkDrawnPixels(_ cost: RenderCost, scale: Double, argument: String)
    throws(CLIError)
  {
    guard cost.drawnPixels > Double(maximumDrawnPixels) else { return }
    let framePixels = Double(cost.frames) * Double(cost.width) * Double(cost.height)
    let layers =
      cost.drawnPixels > framePixels
      ? " and \(decimal(cost.drawnPixels)) drawn pixels with their layers" : ""
    throw CLIError(
      .dataError, argument,
      "\(cost.frames) frames of \(cost.width)×\(cost.height) px (scale \(decimal(scale))) are "
        + "\(decimal(framePixels)) frame pixels\(layers), above the budget of "
        + "\(maximumDrawnPixels) (2^30); use fewer frames (a lower --fps, or --times) or a "
        + "smaller --scale")
  }
}

/// What a `render` run will draw, added up from the samples before any frame is drawn.
struct RenderCost {
  /// Frames and their size in pixels.
  var frames = 0
  var width: Int
  var height: Int
  /// Σ over frames of the frame's pixels, plus each drawn layer's on-screen bounding box in
  /// pixels, plus the frame's pixels again when it holds a cross-dissolve.
  var drawnPixels = 0.0

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// Adds one frame: its pixels, and for each layer with a positive opacity the bounding box of
  /// its projected corners × `scale`, clipped to the frame (the whole frame when a corner is
  /// behind the eye).
  mutating func add(_ sample: TransitionSample, scale: Double) {
    frames += 1
    let w = Double(width)
    let h = Double(height)
    var total = w * h
    var dissolves = false
    for layer in sample.layers where layer.opacity > 0 {
      if layer.blend == .add { dissolves = true }
      if layer.corners.contains(where: \.isBehindEye) {
        total += w * h
        continue
      }
      let xs = layer.corners.map { $0.point.x * scale }
      let ys = layer.corners.map { $0.point.y * scale }
      let x0 = Swift.max((xs.min() ?? 0).rounded(.down), 0)
      let x1: Double = Swift.min((xs.max() ?? 0).rounded(.up) + 1, w)
      let y0 = Swift.max((ys.min() ?? 0).rounded(.down), 0)
      let y1: Double = Swift.min((ys.max() ?? 0).rounded(.up) + 1, h)
      if x1 > x0 && y1 > y0 { total += (x1 - x0) * (y1 - y0) }
    }
    if dissolves { total += w * h }
    drawnPixels += total
  }
}

extension Budget {
  /// The largest page `segue preview` writes: 2²⁵ bytes (32 MiB). The default page of `depth`
  /// (push and pop on the iOS screens at 120 samples per second) is 5 082 754 bytes (`segue
  /// preview --preset depth --output depth.html`); browsers
  /// parse tens of megabytes of inline data slowly, so a page above this is not a preview.
  static let maximumPreviewBytes = 1 << 25

  /// An upper bound of the Float32 values one frame of `scene` takes in the page, depth-sorted
  /// pieces aside: 2 (the item and clip counts) + 56 per layer: two items (the layer, and its
  /// border drawn after its sublayers) of 17 values each and at most 4 more when it is its own
  /// cross-dissolve snapshot (kind, snapshot count, weight, layer count), and its clip when it
  /// masks to its bounds (16 values).
  static func previewFloatsPerFrame(_ scene: TransitionScene) -> Int {
    2 + 56 * scene.model.count
  }

  /// Throws unless `floats` Float32 values (base64: 16/3 bytes each) stay within
  /// ``maximumPreviewBytes``.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/dataError`` naming `argument`, stating the size.
  static func checkPreviewSize(frames: Int, floats: Double, argument: String) throws(CLIError) {
    let bytes = (floats * 16 / 3).rounded(.up)
    guard bytes > Double(maximumPreviewBytes) else { return }
    throw CLIError(
      .dataError, argument,
      "\(frames) frames are up to \(decimal(bytes)) bytes of page data, above the budget of "
        + "\(maximumPreviewBytes) (2^25, 32 MiB); use a lower --fps")
  }
}
