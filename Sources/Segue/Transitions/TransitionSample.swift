/// One layer of a sampled transition, in container space.
public struct LayerSample: Hashable, Sendable {
  /// The layer's id (`to`, `from`, `dimming`, `image`, …).
  public var id: String
  /// The 4×4 matrix from the layer's coordinates to the container (row vectors, CA field order).
  public var matrix: Transform3D
  /// The presented opacity: each layer's own opacity clamped to [0, 1], multiplied down the tree.
  public var opacity: Double
  /// The bounds corners (top-left, top-right, bottom-right, bottom-left) in the container, after
  /// the homogeneous divide; points at or behind the eye are flagged (``ProjectedPoint``).
  public var corners: [ProjectedPoint]
  /// Position in the draw order (0 is drawn first, at the bottom) of the layer's first step.
  public var order: Int
  /// Every step at which the layer is drawn, in draw order, when depth sorting cut it or a layer
  /// it is flattened into (``LayerPiece``: the step's position, and the region and polygon of
  /// the layer drawn there); empty for a layer drawn once, whole, at ``order``.
  public var pieces: [LayerPiece] = []
  /// How the layer blends with what is below it.
  public var blend: BlendMode
  /// The presented `backgroundColor` (straight RGBA).
  public var backgroundColor: RGBAColor
  /// The presented `cornerRadius`, points in the layer's own space, `≥ 0` (a negative value, from
  /// a spring overshooting for example, is presented as 0).
  public var cornerRadius: Double
  /// `masksToBounds`: whether the layer clips its sublayers to its (rounded) bounds.
  public var masksToBounds: Bool
  /// `maskedCorners`: the corners ``cornerRadius`` rounds.
  public var maskedCorners: CornerMask
  /// The presented `borderWidth`, points, `≥ 0`.
  public var borderWidth: Double
  /// The presented `borderColor`.
  public var borderColor: RGBAColor
  /// The presented `shadowOpacity`, clamped to `[0, 1]` (the layer's own, not multiplied by
  /// ``opacity``).
  public var shadowOpacity: Double
  /// The presented `shadowRadius`, points, `≥ 0`.
  public var shadowRadius: Double
  /// The presented `shadowOffset`, points in the layer's own space.
  public var shadowOffset: Size
  /// The presented `shadowColor`.
  public var shadowColor: RGBAColor
  /// The presented `bounds`: the layer's own coordinate space (points), which ``matrix`` maps to
  /// the container; contents, text, shapes and gradients are laid out in it.
  public var bounds: Rect
  /// `contents`: the image the layer shows, or `nil`.
  public var contents: ContentsImage?
  /// `contentsGravity`.
  public var contentsGravity: ContentsGravity
  /// The presented `contentsRect`.
  public var contentsRect: Rect
  /// The presented `contentsCenter`.
  public var contentsCenter: Rect
  /// The presented `contentsScale`, `≥ 0` (a value `≤ 0`, from a spring overshooting for example,
  /// is presented as 0: no contents are drawn).
  public var contentsScale: Double
  /// `minificationFilter`.
  public var minificationFilter: ContentsFilter
  /// `magnificationFilter`.
  public var magnificationFilter: ContentsFilter
  /// The layer's class with its presented properties (animated values written, then clamped:
  /// `fontSize` and `lineWidth` at least 0, `strokeStart` and `strokeEnd` in `[0, 1]`, gradient
  /// `locations` dropped when their count is not the colours').
  public var kind: LayerKind
}

/// A transition sampled at one moment.
public struct TransitionSample: Hashable, Sendable {
  /// The sample time in seconds from the start of the transition (wall-clock for interactive
  /// samples).
  public var time: Double
  /// The timeline position in [0, 1]: `t / duration` clamped, or the interactive position.
  public var progress: Double
  /// Whether the completion has fired (the `completed` field of `segue sample` output).
  public var isCompleted: Bool
  /// Whether the transition was cancelled, meaningful once ``isCompleted`` (the `cancelled` field
  /// of `segue sample` output).
  public var isCancelled: Bool
  /// The layers present in the container, in insertion order (``LayerSample/order`` gives the
  /// draw order).
  public var layers: [LayerSample]

  /// Samples `tree` (a presentation) with the scene's blend modes.
  init(
    time: Double, progress: Double, completed: Bool, cancelled: Bool, tree: LayerTree,
    blendModes: [String: BlendMode]
  ) {
    self.time = time
    self.progress = progress
    self.isCompleted = completed
    self.isCancelled = cancelled
    self.layers = zip(tree.evaluate(), tree.layers).map { geometry, layer in
      LayerSample(
        id: geometry.id, matrix: geometry.matrix, opacity: geometry.opacity,
        corners: geometry.corners, order: geometry.drawIndex, pieces: geometry.pieces,
        blend: blendModes[geometry.id] ?? .over, backgroundColor: layer.backgroundColor,
        cornerRadius: Swift.max(layer.cornerRadius, 0), masksToBounds: layer.masksToBounds,
        maskedCorners: layer.maskedCorners,
        borderWidth: Swift.max(layer.borderWidth, 0), borderColor: layer.borderColor,
        shadowOpacity: Swift.min(Swift.max(layer.shadowOpacity, 0), 1),
        shadowRadius: Swift.max(layer.shadowRadius, 0), shadowOffset: layer.shadowOffset,
        shadowColor: layer.shadowColor, bounds: layer.bounds, contents: layer.contents,
        contentsGravity: layer.contentsGravity, contentsRect: layer.contentsRect,
        contentsCenter: layer.contentsCenter, contentsScale: Swift.max(layer.contentsScale, 0),
        minificationFilter: layer.minificationFilter,
        magnificationFilter: layer.magnificationFilter, kind: layer.kind.presented)
    }
  }

  /// The sampled layer named `id`, if present.
  public subscript(id: String) -> LayerSample? { layers.first { $0.id == id } }

  /// Throws unless every layer's matrix, opacity, corners and appearance numbers are finite:
  /// validated scenes can still overflow `Double` (a chain of large scales, an overshooting curve
  /// extrapolating huge values), and an overflow is reported, never returned as infinity or NaN.
  ///
  /// - Throws: ``ValidationError`` on field `"layers"` with the layer's index in ``layers`` and
  ///   ``ValidationError/Reason/invalidState(_:)`` naming the layer, the quantity and the time.
  func checkFinite() throws(ValidationError) {
    for (i, layer) in layers.enumerated() {
      var what: String? = nil
      if !layer.opacity.isFinite {
        what = "opacity"
      } else if !layer.matrix.fields.allSatisfy({ $0.isFinite }) {
        what = "matrix to the container"
      } else if !layer.corners.allSatisfy({
        $0.point.x.isFinite && $0.point.y.isFinite && $0.z.isFinite && $0.w.isFinite
      }) {
        what = "corners"
      } else if let name = layer.nonFiniteAppearance {
        what = name
      }
      if let what {
        throw ValidationError(
          field: "layers", index: i,
          reason: .invalidState(
            "layer '\(layer.id)': its \(what) overflows Double at t = \(time) s (the "
              + "transforms, positions or animated values are too large)"))
      }
    }
  }
}

extension TransitionScene {
  /// Samples the (non-interactive) transition at `t` seconds from its start.
  ///
  /// At `t ≥ duration` it is complete and finished: model values and the finish changes, every
  /// layer blending "over" (``blendModes`` apply only while the transition runs).
  /// - Throws: ``ValidationError/Reason/notFinite`` or ``ValidationError/Reason/negative`` on
  ///   field `"time"`; on `"layers"` (with the layer's index) when a layer's matrix, opacity or
  ///   corners overflow `Double`.
  public func sample(at t: Double) throws(ValidationError) -> TransitionSample {
    let sample = try sampleUnchecked(at: t)
    try sample.checkFinite()
    return sample
  }

  /// ``sample(at:)`` without the overflow check, for callers that diagnose an overflow in their
  /// own terms (the command line names the spec path or option to blame).
  package func sampleUnchecked(at t: Double) throws(ValidationError) -> TransitionSample {
    try Validate.nonNegative(t, "time")
    let completed = t >= duration
    let tree = presentation(at: t, completion: completed ? .finished : nil)
    let sample = TransitionSample(
      time: t, progress: min(t / duration, 1), completed: completed, cancelled: false, tree: tree,
      blendModes: completed ? [:] : blendModes)
    return sample
  }
}

extension TransitionScene {
  /// Samples the transition after it ended with `completion`: finished, only **to** remains with
  /// its model values; cancelled, only **from**, exactly as at progress 0. Every layer blends
  /// "over". `time` is reported as given (seconds; finite and ≥ 0).
  ///
  /// - Throws: ``ValidationError`` on field `"time"` when `time` is not finite or negative; on
  ///   `"layers"` when a layer's geometry overflows `Double`.
  public func sample(at time: Double, completion: TransitionCompletion) throws(ValidationError)
    -> TransitionSample
  {
    try Validate.nonNegative(time, "time")
    let sample = TransitionSample(
      time: time, progress: completion == .finished ? 1 : 0, completed: true,
      cancelled: completion == .cancelled, tree: presentation(at: 0, completion: completion),
      blendModes: [:])
    try sample.checkFinite()
    return sample
  }

  /// Samples an interactive (percent-driven) transition at wall time `time` (seconds), given its
  /// event history (updates, pause, finish, cancel with their times;
  /// <doc:TransitionCatalog#Interactive-transitions>).
  ///
  /// The layers are the scene at animation time `p · duration`, where `p` is the timeline
  /// position ``InteractionState/position`` at `time`; once the completion has fired, the
  /// finished or cancelled state. `progress` is `p`.
  ///
  /// - Throws: ``ValidationError``: `time` not finite or negative (`"time"`), or the timeline's
  ///   duration differs from the scene's (`"interaction.duration"`, `.mustEqual(duration)`), or a
  ///   layer's geometry overflows `Double` (`"layers"`).
  public func sample(at time: Double, interaction: InteractionTimeline) throws(ValidationError)
    -> TransitionSample
  {
    let sample = try sampleUnchecked(at: time, interaction: interaction)
    try sample.checkFinite()
    return sample
  }

  /// ``sample(at:interaction:)`` without the overflow check (see ``sampleUnchecked(at:)``).
  package func sampleUnchecked(at time: Double, interaction: InteractionTimeline)
    throws(ValidationError) -> TransitionSample
  {
    let (state, completion) = try interactionState(at: time, interaction: interaction)
    let sample = TransitionSample(
      time: time, progress: state.position, completed: state.isCompleted,
      cancelled: completion == .cancelled,
      tree: presentation(at: state.position * duration, completion: completion),
      blendModes: completion == nil ? blendModes : [:])
    return sample
  }
}

extension TransitionScene {
  /// The interaction's state at wall time `time` and the completion it has fired with, if any.
  ///
  /// - Throws: ``ValidationError``: `time` not finite or negative (`"time"`), or the timeline's
  ///   duration differs from the scene's (`"interaction.duration"`, `.mustEqual(duration)`).
  func interactionState(at time: Double, interaction: InteractionTimeline)
    throws(ValidationError) -> (InteractionState, TransitionCompletion?)
  {
    try Validate.nonNegative(time, "time")
    guard interaction.duration == duration else {
      throw ValidationError(field: "interaction.duration", reason: .mustEqual(duration))
    }
    let state = try interaction.state(at: time)
    let completion: TransitionCompletion? =
      state.isCompleted ? (state.isFinished == true ? .finished : .cancelled) : nil
    return (state, completion)
  }
}

extension LayerSample {
  /// The name of the first appearance or content number (corner radius, border, shadow,
  /// colours, contents rectangles and scale, text, shape and gradient numbers) that is not
  /// finite (an animation extrapolating beyond `Double`), or `nil` when all are finite.
  package var nonFiniteAppearance: String? {
    let values: [(String, Double)] =
      [
        ("cornerRadius", cornerRadius), ("borderWidth", borderWidth),
        ("shadowOpacity", shadowOpacity), ("shadowRadius", shadowRadius),
        ("shadowOffset", shadowOffset.width), ("shadowOffset", shadowOffset.height),
        ("contentsScale", contentsScale),
      ] + contentsRect.channels.map { ("contentsRect", $0) }
      + contentsCenter.channels.map { ("contentsCenter", $0) } + kind.numbersToCheck
    if let name = values.first(where: { !$0.1.isFinite })?.0 { return name }
    let colors = [
      ("backgroundColor", backgroundColor), ("borderColor", borderColor),
      ("shadowColor", shadowColor),
    ]
    return colors.first { !$0.1.channels.allSatisfy(\.isFinite) }?.0
  }
}

extension LayerKind {
  /// The animatable numbers of the kind, by key path, for the overflow check.
  fileprivate var numbersToCheck: [(String, Double)] {
    switch self {
    case .plain: return []
    case .text(let text): return [("fontSize", text.fontSize)]
    case .shape(let shape):
      return [
        ("lineWidth", shape.lineWidth), ("miterLimit", shape.miterLimit),
        ("lineDashPhase", shape.lineDashPhase), ("strokeStart", shape.strokeStart),
        ("strokeEnd", shape.strokeEnd),
      ]
    case .gradient(let gradient):
      return [
        ("startPoint", gradient.startPoint.x), ("startPoint", gradient.startPoint.y),
        ("endPoint", gradient.endPoint.x), ("endPoint", gradient.endPoint.y),
      ] + (gradient.locations ?? []).map { ("locations", $0) }
    }
  }
}

extension TransitionScene {
  /// Samples the transition driven by `animator` (a ``PropertyAnimator`` of this scene's
  /// duration; its calls are on the same clock as `time`, seconds, finite, `≥ 0`).
  ///
  /// The layers are the scene at `τ = clamp(q, 0, 1) · duration` for the animator's eased
  /// progress `q` at `time`; once the animator has completed at `.end`, the finished state, at
  /// `.start` the cancelled state (at `.current` the scene where it stopped). `progress` is
  /// `clamp(q, 0, 1)`. ``SceneClock/animator(timingParameters:pausesOnCompletion:scrubsLinearly:)``
  /// instances of a ``SceneBatch`` equal this for the same calls.
  ///
  /// - Throws: ``ValidationError``: `time` not finite or negative (`"time"`); a layer's geometry
  ///   overflows `Double` (`"layers"`).
  public func sample(at time: Double, animator: PropertyAnimator) throws(ValidationError)
    -> TransitionSample
  {
    let state = try animator.sample(at: time)
    let completion: TransitionCompletion? =
      switch state.completion {
      case .end: .finished
      case .start: .cancelled
      case .current, nil: nil
      }
    let q = min(max(state.progress, 0), 1)
    let sample = TransitionSample(
      time: time, progress: q, completed: completion != nil, cancelled: completion == .cancelled,
      tree: presentation(at: completion == nil ? q * duration : 0, completion: completion),
      blendModes: completion == nil ? blendModes : [:])
    try sample.checkFinite()
    return sample
  }
}
