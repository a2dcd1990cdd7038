import Segue

/// One snapshot of a cross-dissolve: a layer and its sublayers rendered alone onto a cleared image,
/// then added to the other snapshots with a weight.
///
/// For CATransition `fade` the two snapshots are **old** at weight `1 − q` and **new** at weight
/// `q` (`q` the eased progress), so their sum is `(1 − q)·old + q·new` wherever both cover a
/// pixel (the sampling rules of Segue's transition catalog).
public struct DissolveSnapshot: Hashable, Sendable {
  /// The id of the snapshot's root layer (the layer marked "add").
  public var id: String
  /// The weight `w` in `[0, 1]`: the root layer's presented opacity (its own opacity times its
  /// ancestors').
  public var weight: Double
  /// The root and its visible sublayers in draw order, each with its opacity **relative to the
  /// root** (the root itself at opacity 1), all blending "over".
  public var layers: [RasterLayer]

  /// Creates a snapshot.
  public init(id: String, weight: Double, layers: [RasterLayer]) {
    self.id = id
    self.weight = weight
    self.layers = layers
  }
}

extension DissolveSnapshot {
  /// For a one-layer snapshot, that layer at opacity `w·o` blending "add": adding it to the sum
  /// gives the same as rendering it alone and adding the image with weight `w`, without an
  /// extra image. `nil` for any other snapshot.
  ///
  /// - Throws: ``ValidationError`` naming `opacity` unless the layer's opacity is in `[0, 1]`.
  func directLayer() throws(ValidationError) -> RasterLayer? {
    guard layers.count == 1, var layer = layers.first else { return nil }
    try Validate.inRange(layer.opacity, 0, 1, "opacity")
    layer.opacity *= weight
    layer.blendMode = .add
    return layer
  }
}

/// An entry of a scene's render list: an ordinary layer, or a true cross-dissolve.
public enum SceneRenderItem: Hashable, Sendable {
  /// A layer drawn directly onto what lies below with ``Rasterizer/draw(_:into:)`` ("over", or
  /// "add" onto what is below when its blend mode says so).
  case layer(RasterLayer)
  /// A cross-dissolve: each snapshot `Sₖ` is rendered alone onto a cleared image, the images are
  /// summed with their weights, `D = clamp(Σ wₖ·Sₖ, 0, 1)` (premultiplied), and `D` is
  /// composited "over" what lies below. Two opaque snapshots covering the same pixel with
  /// weights `1 − q` and `q` give the opaque colour `(1 − q)·old + q·new` there, whatever lies
  /// below.
  case crossDissolve([DissolveSnapshot])
}

/// Renders transition scenes to pixels: every visible layer of a sampled transition drawn as its
/// snapshot through its full 3D matrix, perspective-correct (``Rasterizer``), composited with
/// premultiplied alpha in draw order over a background colour, at ``scale`` pixels per point
/// (`M_pixels = M_container · S(scale, scale, 1)`). Layers that blend "add" (CATransition `fade`)
/// are summed as a true cross-dissolve, `(1 − q)·old + q·new`. What each layer is drawn as, which
/// layers draw nothing, and the cross-dissolve are in <doc:Rendering>.
public struct SceneRenderer: Hashable, Sendable {
  /// The largest image, `2²⁴` pixels (e.g. 4096 × 4096; a Float working image of that size
  /// takes 256 MiB). Larger outputs are rejected, naming `pixelCount`.
  public static let maximumPixelCount = 1 << 24

  /// Pixels per point, finite and `> 0` (2 for a "@2x" image).
  public var scale: Double
  /// The output width in pixels, `1…2²⁴`, or `nil` for `round(scale·containerWidth)`.
  public var width: Int?
  /// The output height in pixels, `1…2²⁴`, or `nil` for `round(scale·containerHeight)`.
  public var height: Int?
  /// The colour the image is cleared to before the first layer (straight RGBA).
  public var background: RGBAColor
  /// Fill each layer with a vertical gradient from its colour (top) to the colour's RGB × 0.7
  /// (bottom), same alpha, instead of a solid colour.
  public var gradient: Bool
  /// Snapshots replacing the generated fill, by layer id.
  public var snapshots: [String: LayerSnapshot]
  /// The decoded images layers' `contents` name (``ContentsImages``); a layer whose image is
  /// not here draws no contents.
  public var images: ContentsImages

  /// Creates a renderer.
  ///
  /// - Parameters:
  ///   - scale: pixels per point, `> 0`.
  ///   - width: output width in pixels, or `nil` for the scaled container width.
  ///   - height: output height in pixels, or `nil` for the scaled container height.
  ///   - background: the clear colour (default white).
  ///   - gradient: draw gradients instead of solid fills.
  ///   - snapshots: per-id replacements of the generated snapshot.
  ///   - images: the decoded `contents` images.
  public init(
    scale: Double = 1, width: Int? = nil, height: Int? = nil, background: RGBAColor = .white,
    gradient: Bool = false, snapshots: [String: LayerSnapshot] = [:],
    images: ContentsImages = ContentsImages()
  ) {
    self.scale = scale
    self.width = width
    self.height = height
    self.background = background
    self.gradient = gradient
    self.snapshots = snapshots
    self.images = images
  }

  /// Throws unless the settings are usable.
  ///
  /// - Throws: ``/Segue/ValidationError`` naming `scale` (not finite or `≤ 0`), `width` or `height`
  ///   (set and outside `1…2²⁴`: `.outOfRange`), `pixelCount` when both are set and their
  ///   product exceeds ``maximumPixelCount`` (`.outOfRange(lower: 1, upper: 2²⁴)`), and
  ///   `snapshots.<id>.…` for an override that fails
  ///   ``LayerSnapshot/validate()``.
  public func validate() throws(ValidationError) {
    try Validate.positive(scale, "scale")
    if let width { try Self.checkSide(Double(width), "width") }
    if let height { try Self.checkSide(Double(height), "height") }
    if let width, let height { try Self.checkCount(Double(width) * Double(height)) }
    for id in snapshots.keys.sorted() {
      do { try snapshots[id]?.validate() } catch {
        throw ValidationError(
          field: "snapshots.\(id).\(error.field)", index: error.index, reason: error.reason)
      }
    }
  }

  /// The output size in pixels for a container of `containerSize` points: ``width`` and
  /// ``height`` when set, else `round(scale·containerSize)` (ties away from zero).
  ///
  /// - Throws: the errors of ``validate()``; ``/Segue/ValidationError`` naming `width` or `height`
  ///   when the computed side is not finite, below 1 pixel (`.outOfRange(lower: 1, …)`) or above
  ///   `2²⁴`; `pixelCount` when `width·height > 2²⁴` (the cap, ``maximumPixelCount``).
  public func outputSize(for containerSize: Size) throws(ValidationError) -> (
    width: Int, height: Int
  ) {
    try validate()
    var w = Double(width ?? 0)
    if width == nil { w = try Self.scaledSide(containerSize.width, scale, "width") }
    var h = Double(height ?? 0)
    if height == nil { h = try Self.scaledSide(containerSize.height, scale, "height") }
    try Self.checkCount(w * h)
    return (Int(w), Int(h))
  }

  // MARK: - Adapter

  /// The snapshot a layer is drawn as (<doc:Rendering>), with the layer's presented
  /// bounds, or `nil` when it draws nothing by itself (zero-area bounds, or a clear background
  /// and no override).
  public func snapshot(for layer: Layer) -> LayerSnapshot? {
    let bounds = Rect(
      x: layer.bounds.minX, y: layer.bounds.minY, width: layer.bounds.width,
      height: layer.bounds.height)
    guard bounds.width > 0 && bounds.height > 0 else { return nil }
    let c = layer.backgroundColor
    var border: LayerSnapshot.Border?
    if layer.borderWidth > 0 && layer.borderColor.alpha > 0 {
      border = .init(width: layer.borderWidth, color: layer.borderColor)
    }
    // The shadow is cast by the rounded bounds; a layer that masks to its bounds clips it away
    // (as in Core Animation), and a clear layer casts none here.
    let opacity = Swift.min(Swift.max(layer.shadowOpacity, 0), 1)
    let contents = self.contents(of: layer)
    var shadow: LayerSnapshot.Shadow?
    if opacity > 0 && layer.shadowColor.alpha > 0 && !layer.masksToBounds
      && (c.alpha > 0 || snapshots[layer.id] != nil || contents != nil)
    {
      shadow = .init(
        color: layer.shadowColor, opacity: opacity, radius: Swift.max(layer.shadowRadius, 0),
        offset: layer.shadowOffset)
    }
    if var override = snapshots[layer.id] {
      override.bounds = bounds
      override.cornerRadius = layer.cornerRadius
      override.maskedCorners = layer.maskedCorners
      override.border = border
      override.shadow = shadow
      override.contents = contents
      override.gradient = layerGradient(of: layer, bounds: bounds)
      override.paths = cachedPaths(of: layer)
      return override
    }
    let layerGradient = layerGradient(of: layer, bounds: bounds)
    let paths = cachedPaths(of: layer)
    guard c.alpha > 0 || border != nil || contents != nil || layerGradient != nil || !paths.isEmpty
    else {
      return nil
    }
    let fill: LayerSnapshot.Fill
    if gradient {
      fill = .linearGradient(
        top: c, bottom: RGBAColor(clamping: 0.7 * c.red, 0.7 * c.green, 0.7 * c.blue, c.alpha))
    } else {
      fill = .solid(c)
    }
    return LayerSnapshot(
      bounds: bounds, fill: fill, cornerRadius: layer.cornerRadius,
      maskedCorners: layer.maskedCorners, border: border, shadow: shadow, contents: contents,
      gradient: layerGradient, paths: paths)
  }

  /// The layer's gradient when it is a `CAGradientLayer` with colours, or `nil` (also for
  /// values a validated layer cannot hold). `locations` of another length than `colors` (left
  /// by an animation) are presented evenly spaced.
  func layerGradient(of layer: Layer, bounds: Rect) -> LayerSnapshot.Gradient? {
    guard case .gradient(let g) = layer.kind, !g.colors.isEmpty else { return nil }
    return try? LayerSnapshot.Gradient(
      GradientPaint(
        type: g.type, colors: g.colors,
        locations: g.locations?.count == g.colors.count ? g.locations : nil,
        startPoint: g.startPoint,
        endPoint: g.endPoint, bounds: bounds))
  }

  /// The layer's `contents` with its placement and filters, when its image is in ``images``.
  func contents(of layer: Layer) -> LayerSnapshot.Contents? {
    guard let image = layer.contents, let texture = images[image] else { return nil }
    return LayerSnapshot.Contents(
      texture: texture, gravity: layer.contentsGravity, contentsRect: layer.contentsRect,
      contentsCenter: layer.contentsCenter, contentsScale: Swift.max(layer.contentsScale, 0),
      minificationFilter: layer.minificationFilter,
      magnificationFilter: layer.magnificationFilter, clipsToBounds: layer.masksToBounds)
  }

  /// The render list of a sampled transition: each layer of `sample` that draws something, in
  /// draw order (``/Segue/LayerSample/order``), as a ``RasterLayer`` with its snapshot (from the layer
  /// of the same id in `tree`), its matrix to the container times `S(scale, scale, 1)` and its
  /// presented opacity; "add" layers grouped into cross-dissolves (<doc:Rendering>).
  ///
  /// - Parameters:
  ///   - sample: the sampled transition (matrices, opacities, draw order, blend modes).
  ///   - tree: the presentation tree the sample was taken from (bounds, colours, hierarchy), e.g.
  ///     ``/Segue/TransitionScene/presentation(at:completion:)``.
  /// - Throws: the errors of ``validate()``; ``/Segue/ValidationError`` naming `presentation` with
  ///   `.countMismatch` when the tree and the sample hold different numbers of layers, or
  ///   `.unknown(id)` for a sampled layer the tree lacks.
  public func renderItems(for sample: TransitionSample, presentation tree: LayerTree)
    throws(ValidationError) -> [SceneRenderItem]
  {
    let pixels = Transform3D.makeScale(x: scale, y: scale, z: 1)
    func raster(_ p: PlannedLayer) -> RasterLayer {
      RasterLayer(
        id: p.sample.id, snapshot: p.snapshot, matrix: p.sample.matrix.concatenating(pixels),
        opacity: p.opacity,
        parts: p.parts,
        clips: p.clips.map {
          ClipShape(
            bounds: $0.bounds, cornerRadius: $0.cornerRadius, maskedCorners: $0.maskedCorners,
            matrix: $0.matrix.concatenating(pixels))
        }, region: p.region)
    }
    return try plan(for: sample, presentation: tree).map { step in
      switch step {
      case .layer(let p): .layer(raster(p))
      case .dissolve(let snapshots):
        .crossDissolve(
          snapshots.map {
            DissolveSnapshot(id: $0.id, weight: $0.weight, layers: $0.layers.map(raster))
          })
      }
    }
  }

  /// A layer that draws: its sample, snapshot and opacity (presented, or relative to its
  /// dissolve snapshot's root).
  struct PlannedLayer {
    var sample: LayerSample
    var snapshot: LayerSnapshot
    var opacity: Double
    /// The parts drawn at this step (the border comes after the layer's sublayers).
    var parts: LayerParts = .all
    /// The rounded bounds of the ancestors with `masksToBounds`, with matrices to the container.
    var clips: [ClipShape] = []
    /// The part of the layer's plane drawn at this step (a piece of a depth-sorted layer).
    var region: ConvexRegion = .wholePlane
  }

  /// A step of the draw plan shared by the pixel and SVG outputs.
  enum PlanStep {
    case layer(PlannedLayer)
    case dissolve([(id: String, weight: Double, layers: [PlannedLayer])])
  }

  /// The draw plan of ``renderItems(for:presentation:)`` before the pixel scale is applied.
  func plan(for sample: TransitionSample, presentation tree: LayerTree) throws(ValidationError)
    -> [PlanStep]
  {
    try validate()
    guard tree.count == sample.layers.count else {
      throw ValidationError(
        field: "presentation",
        reason: .countMismatch(expected: sample.layers.count, actual: tree.count))
    }
    var treeIndex: [Int] = []
    for layer in sample.layers {
      guard let i = tree.index(of: layer.id) else {
        throw ValidationError(field: "presentation", reason: .unknown(layer.id))
      }
      treeIndex.append(i)
    }
    let layers = tree.layers
    let ancestry = Ancestry(sample: sample, tree: tree, treeIndex: treeIndex)
    var steps: [PlanStep] = []
    var open: [(id: String, weight: Double, layers: [PlannedLayer])] = []
    func closeDissolve() {
      let visible = open.filter { $0.weight > 0 && !$0.layers.isEmpty }
      if !visible.isEmpty { steps.append(.dissolve(visible)) }
      open = []
    }
    /// Adds a step to the open cross-dissolve's last snapshot, or to the plan.
    func emit(_ planned: PlannedLayer, inDissolve: Bool) {
      if inDissolve {
        if !open.isEmpty { open[open.count - 1].layers.append(planned) }
      } else {
        if !open.isEmpty { closeDissolve() }
        steps.append(.layer(planned))
      }
    }
    /// Borders waiting for the end of their layer's subtree (subtrees are contiguous in draw
    /// order: a depth-first walk).
    var pending: [(tree: Int, planned: PlannedLayer, inDissolve: Bool)] = []
    for (s, region) in Self.drawSteps(sample) {
      let entry = sample.layers[s]
      let t = treeIndex[s]
      while let last = pending.last, !ancestry.isInside(t, last.tree) {
        emit(last.planned, inDissolve: last.inDissolve)
        pending.removeLast()
      }
      let dissolve = ancestry.dissolveRoot(t)
      if let dissolve, dissolve.root == t { open.append((entry.id, entry.opacity, [])) }
      guard var snapshot = snapshot(for: layers[t]) else { continue }
      let own = layers[t]
      let clips = ancestry.clips[t]
      var parts: LayerParts = [.shadow]
      if own.backgroundColor.alpha > 0 || snapshots[own.id] != nil { parts.insert(.body) }
      if snapshot.contents != nil { parts.insert(.contents) }
      if snapshot.gradient != nil { parts.insert(.gradient) }
      if !snapshot.paths.isEmpty { parts.insert(.paths) }
      let border = snapshot.border
      snapshot.border = nil
      let opacity: Double
      let inDissolve: Bool
      if let dissolve {
        guard dissolve.relative > 0, !open.isEmpty else { continue }
        (opacity, inDissolve) = (dissolve.relative, true)
      } else {
        guard entry.opacity > 0 else { continue }
        (opacity, inDissolve) = (entry.opacity, false)
      }
      emit(
        PlannedLayer(
          sample: entry, snapshot: snapshot, opacity: opacity, parts: parts, clips: clips,
          region: region),
        inDissolve: inDissolve)
      if let border {
        snapshot.border = border
        pending.append(
          (
            t,
            PlannedLayer(
              sample: entry, snapshot: snapshot, opacity: opacity, parts: [.border],
              clips: clips, region: region), inDissolve
          ))
      }
    }
    while let last = pending.popLast() { emit(last.planned, inDissolve: last.inDissolve) }
    if !open.isEmpty { closeDissolve() }
    return steps
  }

  /// What the draw plan needs from each layer's ancestors, gathered in one pass over the tree
  /// (a parent's index is below its children's), so that planning is linear in the tree size
  /// however deep it is.
  struct Ancestry {
    /// The parent's tree index of each layer.
    var parents: [Int?]
    /// The outermost "add" ancestor-or-self of each layer, and its opacity relative to it (the
    /// clamped opacities from the layer up to, not including, that root).
    var dissolve: [(root: Int, relative: Double)?]
    /// The rounded bounds of the ancestors that mask to their bounds, nearest first, with their
    /// sampled matrices. A clip that covers the same pixels as the nearest one already in the
    /// list is not repeated (nested layers of the same geometry clip once), so unmasked and
    /// evenly masked chains share one list.
    var clips: [[ClipShape]]
    /// Each layer's position in a depth-first walk and the number of its descendants: `a` is a
    /// proper ancestor of `t` when `t`'s position lies in `(order[a], order[a] + size[a]]`.
    var order: [Int]
    var size: [Int]

    init(sample: TransitionSample, tree: LayerTree, treeIndex: [Int]) {
      let n = tree.count
      let layers = tree.layers
      var blendsAdd = [Bool](repeating: false, count: n)
      var matrix = [Transform3D](repeating: .identity, count: n)
      for (s, t) in treeIndex.enumerated() {
        blendsAdd[t] = sample.layers[s].blend == .add
        matrix[t] = sample.layers[s].matrix
      }
      parents = (0..<n).map { (try? tree.parentIndex(at: $0)) ?? nil }
      dissolve = []
      dissolve.reserveCapacity(n)
      clips = []
      clips.reserveCapacity(n)
      size = [Int](repeating: 0, count: n)
      for t in 0..<n {
        guard let p = parents[t] else {
          dissolve.append(blendsAdd[t] ? (t, 1) : nil)
          clips.append([])
          continue
        }
        if let above = dissolve[p] {
          let own = Swift.min(Swift.max(layers[t].opacity, 0), 1)
          dissolve.append((above.root, above.relative * own))
        } else {
          dissolve.append(blendsAdd[t] ? (t, 1) : nil)
        }
        var list = clips[p]
        if layers[p].masksToBounds {
          let clip = ClipShape(
            bounds: layers[p].bounds, cornerRadius: layers[p].cornerRadius,
            maskedCorners: layers[p].maskedCorners, matrix: matrix[p])
          if !(list.first.map { $0.coincides(with: clip) } ?? false) { list.insert(clip, at: 0) }
        }
        clips.append(list)
      }
      // Subtree sizes bottom-up, then depth-first positions top-down (children in index order).
      for t in stride(from: n - 1, through: 0, by: -1) {
        if let p = parents[t] { size[p] += size[t] + 1 }
      }
      order = [Int](repeating: 0, count: n)
      var next = [Int](repeating: 0, count: n)  // the position of a layer's next child
      var roots = 0
      for t in 0..<n {
        if let p = parents[t] {
          order[t] = next[p]
        } else {
          order[t] = roots
          roots += size[t] + 1
        }
        next[t] = order[t] + 1
        if let p = parents[t] { next[p] += size[t] + 1 }
      }
    }

    /// The outermost "add" ancestor-or-self of `t` and the opacity relative to it.
    func dissolveRoot(_ t: Int) -> (root: Int, relative: Double)? {
      guard let d = dissolve[t] else { return nil }
      return d.root == t ? (t, 1) : d
    }

    /// Whether `ancestor` is a proper ancestor of `t`.
    func isInside(_ t: Int, _ ancestor: Int) -> Bool {
      order[t] > order[ancestor] && order[t] <= order[ancestor] + size[ancestor]
    }
  }

  /// The draw steps of `sample`, bottom first: each layer at its ``/Segue/LayerSample/order``,
  /// or at each of its pieces with the piece's region.
  static func drawSteps(_ sample: TransitionSample) -> [(layer: Int, region: ConvexRegion)] {
    var steps: [(order: Int, layer: Int, region: ConvexRegion)] = []
    steps.reserveCapacity(sample.layers.count)
    for (s, layer) in sample.layers.enumerated() {
      if layer.pieces.isEmpty {
        steps.append((layer.order, s, .wholePlane))
      } else {
        for piece in layer.pieces { steps.append((piece.order, s, piece.region)) }
      }
    }
    steps.sort { $0.order < $1.order }
    return steps.map { ($0.layer, $0.region) }
  }

  // MARK: - Rendering

  /// Renders `items` bottom to top onto a `width × height` image cleared to ``background``
  /// (premultiplied Float; quantise with ``/Segue/PixelBufferRGBA8/init(_:)``), with the fast
  /// ``Rasterizer`` (the pixels of ``referenceRender(_:width:height:)`` to within 2/255).
  ///
  /// - Throws: the errors of ``Rasterizer/draw(_:into:)`` for each layer; ``/Segue/ValidationError``
  ///   naming `crossDissolve.weight` (with the snapshot index) outside `[0, 1]`; and the size
  ///   errors of ``/Segue/PixelBufferRGBAFloat/init(width:height:stride:fill:)``.
  public func render(_ items: [SceneRenderItem], width: Int, height: Int)
    throws(ValidationError) -> PixelBufferRGBAFloat
  {
    let fill = SIMD4<Float>(LayerSnapshot.premultiplied(background))
    var buffer = try PixelBufferRGBAFloat(width: width, height: height, fill: fill)
    let context = try RenderContext()
    context.program.reset()
    try context.program.compile(items, width: width, height: height)
    context.run(onto: &buffer)
    return buffer
  }

  /// Renders `items` into `image` (premultiplied RGBA8), cleared to ``background``: the pixels
  /// of ``render(_:width:height:)`` quantised, rendered in bands on the context's threads with
  /// no full-size Float image. `image` keeps its size and storage.
  ///
  /// - Throws: as ``render(_:width:height:)`` (before any pixel is written).
  public func render(
    _ items: [SceneRenderItem], into image: inout PixelBufferRGBA8, context: RenderContext
  ) throws(ValidationError) {
    context.program.reset()
    try context.program.compile(items, width: image.width, height: image.height)
    context.run(into: &image, background: SIMD4<Float>(LayerSnapshot.premultiplied(background)))
  }

  /// Renders `scene` at `t` seconds (as ``render(_:at:)``) into `image`, which is replaced by
  /// a new buffer only when its size is not ``outputSize(for:)`` of the container: a render
  /// loop reusing one image and one context allocates nothing in the rasteriser (evaluating
  /// the scene still builds its sample and render list).
  ///
  /// - Throws: the errors of ``render(_:at:)``.
  public func render(
    _ scene: TransitionScene, at t: Double, into image: inout PixelBufferRGBA8,
    context: RenderContext
  ) throws(ValidationError) {
    let sample = try scene.sample(at: t)
    let tree = scene.presentation(at: t, completion: sample.isCompleted ? .finished : nil)
    try render(
      sample, presentation: tree, containerSize: scene.containerSize, into: &image,
      context: context)
  }

  /// Renders a sampled transition into `image` (resized when needed, as
  /// ``render(_:at:into:context:)``).
  ///
  /// - Throws: the errors of ``render(_:presentation:containerSize:)``.
  public func render(
    _ sample: TransitionSample, presentation tree: LayerTree, containerSize: Size,
    into image: inout PixelBufferRGBA8, context: RenderContext
  ) throws(ValidationError) {
    let size = try outputSize(for: containerSize)
    let items = try renderItems(for: sample, presentation: tree)
    if image.width != size.width || image.height != size.height {
      image = try PixelBufferRGBA8(width: size.width, height: size.height)
    }
    try render(items, into: &image, context: context)
  }

  /// Renders a sampled transition: ``renderItems(for:presentation:)`` drawn onto an image of
  /// ``outputSize(for:)`` for `containerSize` and quantised to 8 bits.
  ///
  /// - Throws: the errors of ``outputSize(for:)``, ``renderItems(for:presentation:)`` and
  ///   ``render(_:width:height:)``.
  public func render(
    _ sample: TransitionSample, presentation tree: LayerTree, containerSize: Size
  ) throws(ValidationError) -> PixelBufferRGBA8 {
    var image = try PixelBufferRGBA8(width: 0, height: 0)
    try render(
      sample, presentation: tree, containerSize: containerSize, into: &image,
      context: try RenderContext())
    return image
  }

  /// Renders `scene` at `t` seconds from its start, as ``/Segue/TransitionScene/sample(at:)`` samples
  /// it (complete and finished from `t ≥ duration` on).
  ///
  /// - Throws: the errors of ``/Segue/TransitionScene/sample(at:)`` (`time`) and of
  ///   ``render(_:presentation:containerSize:)``.
  public func render(_ scene: TransitionScene, at t: Double) throws(ValidationError)
    -> PixelBufferRGBA8
  {
    let sample = try scene.sample(at: t)
    let tree = scene.presentation(at: t, completion: sample.isCompleted ? .finished : nil)
    return try render(sample, presentation: tree, containerSize: scene.containerSize)
  }

  /// Renders `scene` after it ended with `completion` (``/Segue/TransitionScene/sample(at:completion:)``):
  /// finished shows only **to**, cancelled only **from**.
  ///
  /// - Throws: as ``render(_:at:)``.
  public func render(
    _ scene: TransitionScene, at time: Double, completion: TransitionCompletion
  ) throws(ValidationError) -> PixelBufferRGBA8 {
    let sample = try scene.sample(at: time, completion: completion)
    let tree = scene.presentation(at: 0, completion: completion)
    return try render(sample, presentation: tree, containerSize: scene.containerSize)
  }

  /// Renders an interactive transition at wall time `time` seconds given its event history
  /// (``/Segue/TransitionScene/sample(at:interaction:)``): the scene at animation time
  /// `position·duration`, or its finished or cancelled state once the completion fired.
  ///
  /// - Throws: the errors of ``/Segue/TransitionScene/sample(at:interaction:)`` and of
  ///   ``render(_:presentation:containerSize:)``.
  public func render(
    _ scene: TransitionScene, at time: Double, interaction: InteractionTimeline
  ) throws(ValidationError) -> PixelBufferRGBA8 {
    var image = try PixelBufferRGBA8(width: 0, height: 0)
    try render(
      scene, at: time, interaction: interaction, into: &image, context: try RenderContext())
    return image
  }

  /// Renders an interactive transition (as ``render(_:at:interaction:)``) into `image`, resized
  /// only when needed, with `context`'s threads (as ``render(_:at:into:context:)``).
  ///
  /// - Throws: the errors of ``render(_:at:interaction:)``.
  public func render(
    _ scene: TransitionScene, at time: Double, interaction: InteractionTimeline,
    into image: inout PixelBufferRGBA8, context: RenderContext
  ) throws(ValidationError) {
    let sample = try scene.sample(at: time, interaction: interaction)
    let completion: TransitionCompletion? =
      sample.isCompleted ? (sample.isCancelled ? .cancelled : .finished) : nil
    let tree = scene.presentation(at: sample.progress * scene.duration, completion: completion)
    try render(
      sample, presentation: tree, containerSize: scene.containerSize, into: &image,
      context: context)
  }

  // MARK: - Private helpers

  private static func checkSide(_ v: Double, _ field: String) throws(ValidationError) {
    let upper = Double(PixelBufferLimits.maximumSide)
    try Validate.inRange(v, 1, upper, field)
  }

  private static func checkCount(_ count: Double) throws(ValidationError) {
    guard count <= Double(maximumPixelCount) else {
      throw ValidationError(
        field: "pixelCount", reason: .outOfRange(lower: 1, upper: Double(maximumPixelCount)))
    }
  }

  private static func scaledSide(_ points: Double, _ scale: Double, _ field: String)
    throws(ValidationError) -> Double
  {
    let v = (points * scale).rounded(.toNearestOrAwayFromZero)
    try checkSide(v, field)
    return v
  }
}

extension ClipShape {
  /// Whether `other` clips exactly the same pixels: the same bounds and corner radius through the
  /// same plane homography (the fields `m11, m12, m14, m21, m22, m24, m41, m42, m44` that map the
  /// layer's plane z = 0; the others only move z, which a clip does not use).
  func coincides(with other: ClipShape) -> Bool {
    let (a, b) = (matrix, other.matrix)
    return bounds == other.bounds && cornerRadius == other.cornerRadius
      && maskedCorners == other.maskedCorners && a.m11 == b.m11
      && a.m12 == b.m12 && a.m14 == b.m14 && a.m21 == b.m21 && a.m22 == b.m22 && a.m24 == b.m24
      && a.m41 == b.m41 && a.m42 == b.m42 && a.m44 == b.m44
  }
}
