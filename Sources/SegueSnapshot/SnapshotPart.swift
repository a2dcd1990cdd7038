import Segue
import SegueRender

/// One file of a snapshot: its name after the snapshot's base name (`txt`, `png`,
/// `frame-3.png`) and what it holds.
public struct SnapshotPart: Sendable {
  /// What a snapshot file holds.
  public enum Content: Sendable {
    /// A curves table (text).
    case curves(CurvesTable)
    /// An image (PNG).
    case image(PixelBufferRGBA8)
    /// An animation (APNG), its delays as the file stores them.
    case animation(SnapshotAnimation)
  }

  /// The file name's end after `<base>.`, e.g. `frame-0.png`.
  public var suffix: String
  /// The content.
  public var content: Content

  /// A part.
  public init(suffix: String, content: Content) {
    self.suffix = suffix
    self.content = content
  }

  /// The file's bytes: the table's text, a PNG, or an APNG that plays once per loop forever.
  ///
  /// - Throws: the encoders' errors (``/SegueRender/PNG/encode(_:compression:filter:)``,
  ///   ``/SegueRender/APNGEncoder``).
  public func encoded() throws(ValidationError) -> [UInt8] {
    switch content {
    case .curves(let table): return Array(table.text.utf8)
    case .image(let image): return try PNG.encode(image)
    case .animation(let animation): return try Self.apng(animation)
    }
  }

  /// An APNG of `animation`'s frames and delays.
  static func apng(_ animation: SnapshotAnimation) throws(ValidationError) -> [UInt8] {
    guard let first = animation.frames.first else {
      throw ValidationError(field: "frames", reason: .tooFew(minimum: 1, actual: 0))
    }
    var encoder = try APNGEncoder(
      width: first.width, height: first.height, frameCount: animation.frames.count)
    for (frame, delay) in zip(animation.frames, animation.delays) {
      try encoder.add(frame, delay: delay)
    }
    return try encoder.finish()
  }
}

extension TransitionSnapshotting {
  /// The snapshot of `scene` (run by `interaction` when given): its files' contents.
  ///
  /// - Throws: the errors of ``validate()``, of sampling and rendering the scene
  ///   (``/SegueRender/SceneRenderer``, ``/SegueRender/Filmstrip``), naming the time's index
  ///   as `times`.
  public func snapshot(of scene: TransitionScene, interaction: InteractionTimeline? = nil)
    throws(ValidationError) -> [SnapshotPart]
  {
    var parts: [SnapshotPart] = []
    try forEachPart(of: scene, interaction: interaction) { parts.append($0) }
    return parts
  }

  /// Renders the snapshot part by part and hands each to `body` as soon as it is complete: the
  /// frames of ``Format/frames(times:renderer:tolerance:)`` share one image buffer, so a
  /// verification holds one frame at a time (a part kept beyond `body` is copied when the next
  /// frame is drawn).
  ///
  /// - Throws: as ``snapshot(of:interaction:)``.
  func forEachPart(
    of scene: TransitionScene, interaction: InteractionTimeline?,
    _ body: (SnapshotPart) -> Void
  ) throws(ValidationError) {
    try validate()
    switch format {
    case .curves(let times, _):
      let table = try CurvesTable(scene: scene, interaction: interaction, times: times)
      body(SnapshotPart(suffix: "txt", content: .curves(table)))
    case .frames(let times, let renderer, _):
      try Self.renderFrames(scene, interaction, times: times, renderer: renderer) { k, frame in
        body(SnapshotPart(suffix: "frame-\(k).png", content: .image(frame)))
      }
    case .filmstrip(let times, let renderer, let columns, _):
      let sheet = Filmstrip(renderer: renderer, columns: columns)
      let layout = try sheet.layout(frameCount: times.count, containerSize: scene.containerSize)
      var image = try sheet.blankSheet(layout)
      try Self.renderFrames(scene, interaction, times: times, renderer: renderer) {
        (k, frame) throws(ValidationError) in
        try sheet.place(frame, at: k, time: times[k], layout: layout, into: &image)
      }
      body(SnapshotPart(suffix: "png", content: .image(image)))
    case .animation(let fps, let renderer, _):
      let times = try TransitionScene.frameTimes(
        fps: fps, end: scene.endTime(interaction: interaction), maximum: Self.maximumFrames)
      var frames: [PixelBufferRGBA8] = []
      try Self.renderFrames(scene, interaction, times: times, renderer: renderer) {
        frames.append($1)
      }
      // The delays as the file stores them (APNG's 16-bit fractions), so a decoded snapshot
      // compares equal.
      let delays = try FrameTiming.delays(for: times).map { d in
        let (n, q) = APNGEncoder.delayFraction(d)
        return Double(n) / Double(q)
      }
      body(
        SnapshotPart(
          suffix: "png", content: .animation(SnapshotAnimation(frames: frames, delays: delays))))
    }
  }

  /// Renders the frames at `times` into one buffer with one context, handing each to `body`.
  static func renderFrames(
    _ scene: TransitionScene, _ interaction: InteractionTimeline?, times: [Double],
    renderer: SceneRenderer, _ body: (Int, PixelBufferRGBA8) throws(ValidationError) -> Void
  ) throws(ValidationError) {
    let context = try RenderContext()
    var image = try PixelBufferRGBA8(width: 0, height: 0)
    for (k, time) in times.enumerated() {
      do {
        if let interaction {
          try renderer.render(
            scene, at: time, interaction: interaction, into: &image, context: context)
        } else {
          try renderer.render(scene, at: time, into: &image, context: context)
        }
      } catch {
        throw error.field == "time"
          ? ValidationError(field: "times", index: k, reason: error.reason) : error
      }
      try body(k, image)
    }
  }
}
