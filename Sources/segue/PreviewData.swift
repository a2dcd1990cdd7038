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

/// The layer appearance properties the page does not draw, with the layers that use them in the
/// render lists (first use first): `segue preview` notes each kind on stderr and in the page.
struct PreviewAppearanceUse: Equatable {
  /// A kind of appearance property.
  enum Kind: Int, CaseIterable, Comparable {
    case cornerRadius, border, masksToBounds, shadow

    static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

    /// The note's text after the layer list: the property, and what the page draws instead.
    var consequence: String {
      switch self {
      case .cornerRadius:
        "cornerRadius is not drawn (square corners here; 'segue render' rounds them)"
      case .border: "the border (borderWidth) is not drawn ('segue render' draws it)"
      case .masksToBounds:
        "masksToBounds is not drawn (sublayers unclipped here; 'segue render' clips them)"
      case .shadow: "the shadow (shadowOpacity) is not drawn ('segue render' draws it)"
      }
    }
  }

  /// Layer ids by kind, in first-use order.
  private(set) var layers: [Kind: [String]] = [:]
  /// The same ids as sets, so that recording stays O(1) however many layers use a kind.
  private var recorded: [Kind: Set<String>] = [:]

  /// Records that `id` uses `kind`.
  mutating func record(_ kind: Kind, _ id: String) {
    if recorded[kind, default: []].insert(id).inserted { layers[kind, default: []].append(id) }
  }

  /// One note per kind used, in ``Kind`` order: `layer 'a': …` or `layers 'a', 'b': …`.
  var notes: [String] {
    Kind.allCases.compactMap { kind in
      guard let ids = layers[kind], !ids.isEmpty else { return nil }
      let names = ids.map { "'\($0)'" }.joined(separator: ", ")
      return "\(ids.count == 1 ? "layer" : "layers") \(names): \(kind.consequence)"
    }
  }
}

/// The little-endian Float32 stream of a scene's frames (decoded by the page's `decodeFrames`).
///
/// Frame: its item count, then per item `[0, layer]` or `[1, snapshot count, per snapshot:
/// weight, layer count, layers]`; a layer is `[snapshot index, opacity, bounds x, y, width,
/// height, h0 … h8, n, x1, y1 … xn, yn]` with `h` the plane homography `(m11, m12, m14, m21,
/// m22, m24, m41, m42, m44)` of the layer's matrix to the container (points) and `n = 0` for a
/// layer drawn whole, else the `n` vertices (layer coordinates) of the part of its bounds drawn
/// at this step (``RasterLayer/region``: a piece of a depth-sorted layer, `n ≥ 3`). A snapshot
/// (the table beside the stream) is the layer's id and fill colour.
struct PreviewFrameStream {
  /// The floats written so far, as bytes.
  private(set) var bytes: [UInt8] = []
  /// The snapshot table.
  private(set) var snapshots: [JSONValue] = []
  /// The appearance properties of the layers appended that the page does not draw.
  private(set) var appearance = PreviewAppearanceUse()
  /// The page's images (shared by its scenes: the caller passes them from scene to scene).
  var images = PreviewImages()
  /// The ids of the layers that clip their descendants (``RasterLayer/clips`` carries their
  /// shapes, not their ids), not yet returned for this frame: read from the presentation tree by
  /// the builder (``ClipOwners``).
  var clipOwners: (RasterLayer) -> [String] = { _ in [] }
  private var snapshotIndex: [SnapshotKey: Int] = [:]

  /// What identifies a table entry: everything of a snapshot except its bounds.
  private struct SnapshotKey: Hashable {
    var id: String
    var color: RGBAColor
    var paint: PreviewPaintKey?
    /// Whether the fill is drawn (a layer with a clear background draws only its paint).
    var hasBody: Bool
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
    var count = 0
    for item in items {
      switch item {
      case .layer(let layer):
        note(layer)
        guard Self.drawsBody(layer) else { continue }
        body.append(0)
        try appendLayer(layer, opacity: layer.opacity, into: &body, describe)
        count += 1
      case .crossDissolve(let dissolve):
        body += [1, Float(dissolve.count)]
        for snapshot in dissolve {
          for layer in snapshot.layers { note(layer) }
          let drawn = snapshot.layers.filter(Self.drawsBody)
          body += [try checked(snapshot.weight, describe), Float(drawn.count)]
          for layer in drawn {
            try appendLayer(layer, opacity: layer.opacity, into: &body, describe)
          }
        }
        count += 1
      }
    }
    append(Float(count))
    for value in body { append(value) }
  }

  /// Whether the page draws `layer`: its fill, or its contents, gradient or paths are among its
  /// parts (a layer's border comes after its sublayers as a second raster layer of the border
  /// alone), its homography is not singular, and its region holds some of its bounds.
  static func drawsBody(_ layer: RasterLayer) -> Bool {
    !layer.parts.isDisjoint(with: [.body, .contents, .gradient, .paths])
      && !isSingular(homography(layer.matrix))
      && (layer.region.isWholePlane
        || !layer.region.polygon(clipping: layer.snapshot.bounds).isEmpty)
  }

  /// Records the appearance properties `layer` draws with.
  private mutating func note(_ layer: RasterLayer) {
    let snapshot = layer.snapshot
    let id = layer.id
    let radius = Swift.min(
      snapshot.cornerRadius, snapshot.bounds.width / 2, snapshot.bounds.height / 2)
    if radius > 0 && !layer.parts.isDisjoint(with: [.body, .border]) {
      appearance.record(.cornerRadius, id)
    }
    if layer.parts.contains(.border), let border = snapshot.border, border.width > 0 {
      appearance.record(.border, id)
    }
    if layer.parts.contains(.shadow), let shadow = snapshot.shadow,
      shadow.opacity * shadow.color.alpha > 0
    {
      appearance.record(.shadow, id)
    }
    if !layer.clips.isEmpty {
      for owner in clipOwners(layer) { appearance.record(.masksToBounds, owner) }
    }
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
    _ layer: RasterLayer, opacity: Double, into body: inout [Float], _ describe: () -> String
  ) throws(CLIError) {
    let snapshot = layer.snapshot
    guard case .solid(let color) = snapshot.fill else {
      throw CLIError(.internalError, "", "\(describe()): a layer without a solid fill")
    }
    let key = SnapshotKey(
      id: layer.id, color: color, paint: PreviewPaintKey(layer),
      hasBody: layer.parts.contains(.body))
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
      snapshots.append(.object(members))
    }
    let bounds = snapshot.bounds
    var values = [Double(index), opacity, bounds.minX, bounds.minY, bounds.width, bounds.height]
    values += Self.homography(layer.matrix)
    let piece = layer.region.isWholePlane ? [] : layer.region.polygon(clipping: bounds)
    values.append(Double(piece.count))
    values += piece.flatMap { [$0.x, $0.y] }
    for value in values { body.append(try checked(value, describe)) }
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
  func sceneData(
    _ source: PreviewSceneSource, appearance: inout PreviewAppearanceUse,
    images: inout PreviewImages
  ) throws(CLIError) -> JSONValue {
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
    for (kind, ids) in stream.appearance.layers.sorted(by: { $0.key < $1.key }) {
      for id in ids { appearance.record(kind, id) }
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
    let owners = ClipOwners(tree)
    stream.clipOwners = { layer in owners.newOwners(of: layer.id) }
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

/// The masking ancestors of a frame's layers, each walked once: ``newOwners(of:)`` returns the
/// ancestors of a layer (by id: a render list's layer carries it, ``RasterLayer/id``) that mask to
/// their bounds and were not returned for an earlier layer of the frame, outermost first. A walk
/// stops at the first ancestor an earlier walk passed (whose
/// masking ancestors were all returned then), so a frame costs one visit per layer however deep
/// its tree is.
final class ClipOwners {
  private let tree: LayerTree
  private var visited: [Bool]

  init(_ tree: LayerTree) {
    self.tree = tree
    visited = [Bool](repeating: false, count: tree.count)
  }

  /// The not yet returned masking ancestors of the layer named `id` (none for an unknown id).
  func newOwners(of id: String) -> [String] {
    guard var index = tree.index(of: id) else { return [] }
    var owners: [String] = []
    while let parent = (try? tree.parentIndex(at: index)) ?? nil, !visited[parent] {
      visited[parent] = true
      if tree.layers[parent].masksToBounds { owners.append(tree.layers[parent].id) }
      index = parent
    }
    return owners.reversed()
  }
}
