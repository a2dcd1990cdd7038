import Foundation
import Segue
import SegueRender
import SegueSpec

// The data `segue preview` embeds in its page: for each scene the render lists of
// `SceneRenderer.renderItems(for:presentation:)` (what `segue render` draws, in draw order,
// cross-dissolves grouped) at animation times k/fps, at the duration, and in the finished and
// cancelled end states; the gesture rules and the completion curve from the library.

/// One scene of the page: a preset's operation, or the spec's scene.
struct PreviewSceneSource {
  /// `push`, `pop`, … or `spec`.
  var name: String
  /// The scene, with its interaction (only the scene the events belong to has one).
  var transition: LoadedTransition
}

/// The little-endian Float32 stream of a scene's frames (decoded by the page's `decodeFrames`).
///
/// Frame: its item count, its clip count and clips, then per item `[0, layer]` or `[1, snapshot
/// count, per snapshot: weight, layer count, layers]`. A clip is `[outer, x, y, width, height,
/// radius, maskedCorners, h0 … h8]`: the rounded bounds of a layer with `masksToBounds`
/// (``ClipShape``) through its homography, inside clip `outer` of the frame (−1 for none), so a
/// chain of masking ancestors is written once per frame however many layers it clips. A layer
/// is `[snapshot index, opacity, bounds x, y, width, height, h0 … h8, clip, n, x1, y1 … xn,
/// yn]` with `h` the plane homography `(m11, m12, m14, m21, m22, m24, m41, m42, m44)` of the
/// layer's matrix to the container (points), `clip` its innermost clip (−1 for none) and
/// `n = 0` for a layer drawn whole, else the `n` vertices (layer coordinates) of the part of
/// its plane drawn at this step (``RasterLayer/region`` over the bounds and the shadow's
/// extent: a piece of a depth-sorted layer, `n ≥ 3`). A snapshot (the table beside the stream)
/// is the layer's id, fill colour, corner radius and the parts it draws (``PreviewLook``).
struct PreviewFrameStream {
  /// The floats written so far, as bytes.
  private(set) var bytes: [UInt8] = []
  /// The snapshot table.
  private(set) var snapshots: [JSONValue] = []
  /// The page's images (shared by its scenes: the caller passes them from scene to scene).
  var images = PreviewImages()
  private var snapshotIndex: [SnapshotKey: Int] = [:]

  /// What identifies a table entry: everything of a snapshot except its bounds.
  private struct SnapshotKey: Hashable {
    var id: String
    var color: RGBAColor
    var paint: PreviewPaintKey?
    /// Whether the fill is drawn (a layer with a clear background draws only its paint).
    var hasBody: Bool
    var look: PreviewLook
  }

  /// The plane homography of a layer matrix: the rows and columns of x, y and w.
  static func homography(_ m: Transform3D) -> [Double] {
    [m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44]
  }

  /// Whether the rasteriser skips a layer with this homography: singular by the transition
  /// catalog's relative test (`|det| ≤ 1e-12·max|hᵢⱼ|³`), as ``Rasterizer`` tests it before
  /// drawing.
  static func isSingular(_ h: [Double]) -> Bool {
    let det =
      h[0] * (h[4] * h[8] - h[5] * h[7]) + h[1] * (h[5] * h[6] - h[3] * h[8])
      + h[2] * (h[3] * h[7] - h[4] * h[6])
    let largest = h.reduce(0) { Swift.max($0, abs($1)) }
    return Transform3D.isSingular(determinant: det, maxMagnitude: largest, order: 3)
  }

  /// Appends one frame.
  ///
  /// - Throws: ``CLIError`` (`describe` names the frame; the caller sets the argument) when a
  ///   value does not fit a Float32, or internal when the renderer produced a snapshot the page
  ///   cannot draw (a gradient).
  mutating func append(_ items: [SceneRenderItem], _ describe: () -> String) throws(CLIError) {
    var body: [Float] = []
    var clips = PreviewClipTable()
    var count = 0
    for item in items {
      switch item {
      case .layer(let layer):
        guard Self.draws(layer) else { continue }
        body.append(0)
        try appendLayer(layer, clips: &clips, into: &body, describe)
        count += 1
      case .crossDissolve(let dissolve):
        body += [1, Float(dissolve.count)]
        for snapshot in dissolve {
          let drawn = snapshot.layers.filter(Self.draws)
          body += [try checked(snapshot.weight, describe), Float(drawn.count)]
          for layer in drawn { try appendLayer(layer, clips: &clips, into: &body, describe) }
        }
        count += 1
      }
    }
    append(Float(count))
    append(Float(clips.count))
    for value in clips.values { append(try checked(value, describe)) }
    for value in body { append(value) }
  }

  /// Whether the page draws `layer`: it draws one of its parts (``PreviewLook/drawnParts(_:)``),
  /// its homography is not singular, and its region holds some of what it draws.
  static func draws(_ layer: RasterLayer) -> Bool {
    !PreviewLook.drawnParts(layer).isEmpty
      && !isSingular(homography(layer.matrix))
      && (layer.region.isWholePlane
        || !layer.region.polygon(clipping: PreviewLook.extent(layer)).isEmpty)
  }

  private mutating func append(_ value: Float) {
    appendLittleEndian(value, to: &bytes)
  }

  private func checked(_ value: Double, _ describe: () -> String) throws(CLIError) -> Float {
    let single = Float(value)
    guard single.isFinite else {
      throw CLIError(
        .dataError, "",
        "\(describe()): \(decimal(value)) does not fit the page's 32-bit floats (at most "
          + "\(decimal(Double(Float.greatestFiniteMagnitude))) in magnitude)")
    }
    return single
  }

  private mutating func appendLayer(
    _ layer: RasterLayer, clips: inout PreviewClipTable, into body: inout [Float],
    _ describe: () -> String
  ) throws(CLIError) {
    let snapshot = layer.snapshot
    guard case .solid(let color) = snapshot.fill else {
      throw CLIError(.internalError, "", "\(describe()): a layer without a solid fill")
    }
    let key = SnapshotKey(
      id: layer.id, color: color, paint: PreviewPaintKey(layer),
      hasBody: layer.parts.contains(.body), look: PreviewLook(layer))
    let index: Int
    if let known = snapshotIndex[key] {
      index = known
    } else {
      index = snapshots.count
      snapshotIndex[key] = index
      var members: [(String, JSONValue)] = [
        ("id", .string(key.id)), ("color", .array(color.channels.map(JSONValue.number))),
      ]
      if let paint = key.paint { members.append(("paint", try paint.json(images: &images))) }
      if !key.hasBody { members.append(("body", .bool(false))) }
      members += key.look.json
      snapshots.append(.object(members))
    }
    let bounds = snapshot.bounds
    var values = [Double(index), layer.opacity, bounds.minX, bounds.minY, bounds.width]
    values.append(bounds.height)
    values += Self.homography(layer.matrix)
    values.append(Double(clips.index(of: layer.clips)))
    let piece =
      layer.region.isWholePlane ? [] : layer.region.polygon(clipping: PreviewLook.extent(layer))
    values.append(Double(piece.count))
    values += piece.flatMap { [$0.x, $0.y] }
    for value in values { body.append(try checked(value, describe)) }
  }
}

/// One frame's clips (``PreviewFrameStream``): each masking ancestor's rounded bounds once, with
/// the clip outside it, so a layer names its innermost clip.
struct PreviewClipTable {
  /// The clips' floats, 16 each.
  private(set) var values: [Double] = []
  private(set) var count = 0
  private var indices: [Node: Int] = [:]

  private struct Node: Hashable {
    var clip: ClipShape
    var outer: Int
  }

  /// The index of the innermost clip of `clips` (nearest first, as ``RasterLayer/clips``),
  /// adding the chain's clips not yet in the table; −1 for none.
  mutating func index(of clips: [ClipShape]) -> Int {
    var outer = -1
    for clip in clips.reversed() {
      let node = Node(clip: clip, outer: outer)
      if let known = indices[node] {
        outer = known
        continue
      }
      indices[node] = count
      let b = clip.bounds
      values += [Double(outer), b.minX, b.minY, b.width, b.height, clip.cornerRadius]
      values.append(Double(clip.maskedCorners.rawValue))
      values += PreviewFrameStream.homography(clip.matrix)
      outer = count
      count += 1
    }
    return outer
  }
}

/// How a layer looks beyond its fill and paint, as the page reads it from the snapshot table:
/// `shape` `[cornerRadius, maskedCorners]` (the radius clamped by the page to half of each side
/// of the bounds, as ``LayerSnapshot``), `border` `[width, r, g, b, a]` for the raster layer of
/// the border alone (drawn after the sublayers), `shadow` `[r, g, b, a·shadowOpacity, σ, dx,
/// dy]` with `σ = shadowRadius/2` (``LayerSnapshot/Shadow``).
struct PreviewLook: Hashable {
  var shape: [Double]?
  var border: [Double]?
  var shadow: [Double]?

  init(_ layer: RasterLayer) {
    let snapshot = layer.snapshot
    let parts = Self.drawnParts(layer)
    let radius = Swift.max(snapshot.cornerRadius, 0)
    if radius > 0 && snapshot.maskedCorners != [] {
      shape = [radius, Double(snapshot.maskedCorners.rawValue)]
    }
    if parts.contains(.border), let b = snapshot.border {
      border = [b.width] + b.color.channels
    }
    if parts.contains(.shadow), let s = snapshot.shadow {
      let c = s.color
      shadow = [
        c.red, c.green, c.blue, c.alpha * s.opacity, s.radius / 2, s.offset.width,
        s.offset.height,
      ]
    }
  }

  /// The members of the snapshot table's entry.
  var json: [(String, JSONValue)] {
    let named: [(String, [Double]?)] = [("shape", shape), ("border", border), ("shadow", shadow)]
    return named.compactMap { name, values in
      values.map { (name, .array($0.map(JSONValue.number))) }
    }
  }

  /// The parts of `layer` that draw something: its body, contents, gradient and paths when
  /// among its parts, its shadow when visible, its border when wider than 0.
  static func drawnParts(_ layer: RasterLayer) -> LayerParts {
    let snapshot = layer.snapshot
    var parts = layer.parts.intersection(.body)
    if snapshot.contents != nil { parts.insert(.contents) }
    if snapshot.gradient != nil { parts.insert(.gradient) }
    if !snapshot.paths.isEmpty { parts.insert(.paths) }
    if let s = snapshot.shadow, s.opacity * s.color.alpha > 0 { parts.insert(.shadow) }
    if let b = snapshot.border, b.width > 0 { parts.insert(.border) }
    return parts.intersection(layer.parts)
  }

  /// The layer rectangle holding what `layer` draws of its bounds and its shadow: the bounds,
  /// and the shadow's bounds moved by its offset and grown by `5σ` (where its coverage ends).
  static func extent(_ layer: RasterLayer) -> Rect {
    let b = layer.snapshot.bounds
    guard drawnParts(layer).contains(.shadow), let s = layer.snapshot.shadow else { return b }
    let reach = 5 * s.radius / 2
    let shadow = Rect(
      x: b.minX + s.offset.width - reach, y: b.minY + s.offset.height - reach,
      width: b.width + 2 * reach, height: b.height + 2 * reach)
    return Rect(boundingBoxOf: Quad(b).points + Quad(shadow).points)
  }
}

/// Builds the page's data.
struct PreviewDataBuilder {
  /// Samples per second of animation time.
  var fps: Double

  /// The renderer whose render lists the page draws: scale 1 (points), solid fills, the
  /// transition's images: `segue render`'s settings.
  static func renderer(_ transition: LoadedTransition) -> SceneRenderer {
    SceneRenderer(scale: 1, images: transition.images)
  }

  /// The animation times of a scene's running frames: `k/fps` up to the duration, and the
  /// duration (``TransitionInput/frameTimes(rate:end:)``).
  func frameTimes(_ scene: TransitionScene) throws(CLIError) -> [Double] {
    try TransitionInput.frameTimes(rate: fps, end: scene.duration)
  }

  /// One scene's JSON: name, duration, fps, running frame count, frames (base64), snapshots.
  func sceneData(_ source: PreviewSceneSource, images: inout PreviewImages) throws(CLIError)
    -> JSONValue
  {
    let transition = source.transition
    let scene = transition.scene
    let times = try frameTimes(scene)
    var stream = PreviewFrameStream()
    stream.images = images
    defer { images = stream.images }
    for (k, a) in times.enumerated() {
      let sample: TransitionSample
      let tree: LayerTree
      do throws(Segue.ValidationError) {
        if a < scene.duration {
          sample = try scene.sample(at: a)
          tree = scene.presentation(at: a)
        } else {
          // The end of the running timeline: an interaction held at position 1.
          let held = try InteractionTimeline(
            duration: scene.duration, events: [.update(time: 0, percent: 1)])
          sample = try scene.sample(at: 0, interaction: held)
          tree = scene.presentation(at: sample.progress * scene.duration)
        }
      } catch {
        throw CLIError.data("--fps", error, prefix: "\(source.name) frame \(k): ")
      }
      try append(sample, tree, k, "\(source.name) at \(decimal(a)) s", transition, &stream)
    }
    let ends: [(TransitionCompletion, String)] = [
      (.finished, "finished"), (.cancelled, "cancelled"),
    ]
    for (completion, name) in ends {
      let sample: TransitionSample
      do throws(Segue.ValidationError) {
        sample = try scene.sample(at: 0, completion: completion)
      } catch {
        throw CLIError.data(transition.sourceArgument, error, prefix: "\(source.name) \(name): ")
      }
      let tree = scene.presentation(at: 0, completion: completion)
      try append(sample, tree, times.count, "\(source.name) \(name)", transition, &stream)
    }
    return .object([
      ("name", .string(source.name)), ("duration", .number(scene.duration)),
      ("fps", .number(fps)), ("runningFrameCount", .number(Double(times.count))),
      ("frames", .string(base64(stream.bytes))), ("snapshots", .array(stream.snapshots)),
    ])
  }

  private func append(
    _ sample: TransitionSample, _ tree: LayerTree, _ index: Int, _ what: String,
    _ transition: LoadedTransition, _ stream: inout PreviewFrameStream
  ) throws(CLIError) {
    try transition.checkFinite(sample, index: index)
    let items: [SceneRenderItem]
    do throws(Segue.ValidationError) {
      items = try Self.renderer(transition).renderItems(for: sample, presentation: tree)
    } catch {
      throw CLIError.data(transition.sourceArgument, error, prefix: "\(what): ")
    }
    do {
      try stream.append(items) { what }
    } catch {
      var located = error
      located.argument = transition.sourceArgument
      throw located
    }
  }

  /// A timeline's events as the page reads them.
  static func events(_ timeline: InteractionTimeline) -> JSONValue {
    .array(
      timeline.events.map { event in
        var members: [(String, JSONValue)] = [("time", .number(event.time))]
        switch event {
        case .update(_, let percent):
          members += [("type", .string("update")), ("percent", .number(percent))]
        case .pause: members.append(("type", .string("pause")))
        case .finish: members.append(("type", .string("finish")))
        case .cancel: members.append(("type", .string("cancel")))
        }
        return .object(members)
      })
  }

  /// The completion curve as a table of `c(i/n)`, `i = 0…n`, little-endian Float64.
  static func curveTable(_ curve: TimingFunction, intervals n: Int = 1024) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(8 * (n + 1))
    for i in 0...n {
      let bits = curve.transform(Double(i) / Double(n)).bitPattern.littleEndian
      for shift in stride(from: 0, to: 64, by: 8) {
        bytes.append(UInt8(truncatingIfNeeded: bits >> shift))
      }
    }
    return bytes
  }

  /// `cubic-bezier(x1, y1, x2, y2)`, `steps(n)` or `linear(…)`.
  static func describe(_ curve: TimingFunction) -> String {
    switch curve {
    case .cubicBezier(let c):
      let named: [(String, TimingFunction)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
        ("easeInEaseOut", .easeInEaseOut), ("default", .systemDefault),
      ]
      let points = [c.x1, c.y1, c.x2, c.y2].map(decimal).joined(separator: ", ")
      let name = named.first { $0.1 == curve }.map { $0.0 + ", " } ?? ""
      return name + "cubic-bezier(\(points))"
    case .steps(let s): return "steps(\(s.steps))"
    case .linearPoints(let l): return "linear() with \(l.outputs.count) points"
    }
  }

  /// The gesture rules as the page reads them; `isPresetGesture` is false for the fallback rules
  /// of a preset without a gesture of its own.
  static func gesture(_ rules: GestureRules, isPresetGesture: Bool) -> JSONValue {
    .object([
      ("presetGesture", .bool(isPresetGesture)), ("input", .string(rules.input.rawValue)),
      ("span", .number(rules.span)), ("cap", .number(rules.cap)),
      ("edgeLimit", rules.edgeLimit.map(JSONValue.number) ?? .null),
      ("threshold", .number(rules.threshold)),
      ("cancelsCancelledGestures", .bool(rules.cancelsCancelledGestures)),
      ("containerWidth", .number(rules.containerWidth)),
    ])
  }
}

/// Appends the four little-endian bytes of a Float32.
func appendLittleEndian(_ value: Float, to bytes: inout [UInt8]) {
  let bits = value.bitPattern.littleEndian
  for shift in stride(from: 0, to: 32, by: 8) {
    bytes.append(UInt8(truncatingIfNeeded: bits >> shift))
  }
}

/// Standard base64 (RFC 4648, with padding).
func base64(_ bytes: [UInt8]) -> String {
  Data(bytes).base64EncodedString()
}
