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
  /// Position in the draw order (0 is drawn first, at the bottom).
  public var order: Int
  /// How the layer blends with what is below it.
  public var blend: BlendMode
  /// The presented `backgroundColor` (straight RGBA).
  public var backgroundColor: Color
  /// The presented `cornerRadius`, points in the layer's own space, `≥ 0` (a negative value, from
  /// a spring overshooting for example, is presented as 0).
  public var cornerRadius: Double
  /// `masksToBounds`: whether the layer clips its sublayers to its (rounded) bounds.
  public var masksToBounds: Bool
  /// The presented `borderWidth`, points, `≥ 0`.
  public var borderWidth: Double
  /// The presented `borderColor`.
  public var borderColor: Color
  /// The presented `shadowOpacity`, clamped to `[0, 1]` (the layer's own, not multiplied by
  /// ``opacity``).
  public var shadowOpacity: Double
  /// The presented `shadowRadius`, points, `≥ 0`.
  public var shadowRadius: Double
  /// The presented `shadowOffset`, points in the layer's own space.
  public var shadowOffset: Size
  /// The presented `shadowColor`.
  public var shadowColor: Color
}

/// A transition sampled at one moment.
public struct TransitionSample: Hashable, Sendable {
  /// The sample time in seconds from the start of the transition (wall-clock for interactive
  /// samples).
  public var time: Double
  /// The timeline position in [0, 1]: `t / duration` clamped, or the interactive position.
  public var progress: Double
  /// Whether the completion has fired.
  public var completed: Bool
  /// Whether the transition was cancelled (meaningful once `completed`).
  public var cancelled: Bool
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
    self.completed = completed
    self.cancelled = cancelled
    self.layers = zip(tree.evaluate(), tree.layers).map { geometry, layer in
      LayerSample(
        id: geometry.id, matrix: geometry.matrix, opacity: geometry.opacity,
        corners: geometry.corners, order: geometry.drawIndex,
        blend: blendModes[geometry.id] ?? .over, backgroundColor: layer.backgroundColor,
        cornerRadius: Swift.max(layer.cornerRadius, 0), masksToBounds: layer.masksToBounds,
        borderWidth: Swift.max(layer.borderWidth, 0), borderColor: layer.borderColor,
        shadowOpacity: Swift.min(Swift.max(layer.shadowOpacity, 0), 1),
        shadowRadius: Swift.max(layer.shadowRadius, 0), shadowOffset: layer.shadowOffset,
        shadowColor: layer.shadowColor)
    }
  }

  /// The sampled layer named `id`, if present.
  public subscript(id: String) -> LayerSample? { layers.first { $0.id == id } }
}

extension TransitionScene {
  /// Samples the (non-interactive) transition at `t` seconds from its start.
  ///
  /// At `t ≥ duration` it is complete and finished: model values and the finish changes, every
  /// layer blending "over" (``blendModes`` apply only while the transition runs).
  /// - Throws: ``ValidationError/Reason/notFinite`` or ``ValidationError/Reason/negative`` on
  ///   field `"time"`.
  public func sample(at t: Double) throws(ValidationError) -> TransitionSample {
    try Validate.nonNegative(t, "time")
    let completed = t >= duration
    let tree = presentation(at: t, completion: completed ? .finished : nil)
    return TransitionSample(
      time: t, progress: min(t / duration, 1), completed: completed, cancelled: false, tree: tree,
      blendModes: completed ? [:] : blendModes)
  }
}

extension TransitionScene {
  /// Samples the transition after it ended with `completion`: finished, only **to** remains with
  /// its model values; cancelled, only **from**, exactly as at progress 0. Every layer blends
  /// "over". `time` is reported as given (seconds; finite and ≥ 0).
  ///
  /// - Throws: ``ValidationError`` on field `"time"` when `time` is not finite or negative.
  public func sample(at time: Double, completion: TransitionCompletion) throws(ValidationError)
    -> TransitionSample
  {
    try Validate.nonNegative(time, "time")
    return TransitionSample(
      time: time, progress: completion == .finished ? 1 : 0, completed: true,
      cancelled: completion == .cancelled, tree: presentation(at: 0, completion: completion),
      blendModes: [:])
  }

  /// Samples an interactive (percent-driven) transition at wall time `time` (seconds), given its
  /// event history (updates, pause, finish, cancel with their times; Decision 7).
  ///
  /// The layers are the scene at animation time `p · duration`, where `p` is the timeline
  /// position ``InteractionState/position`` at `time`; once the completion has fired, the
  /// finished or cancelled state. `progress` is `p`.
  ///
  /// - Throws: ``ValidationError``: `time` not finite or negative (`"time"`), or the timeline's
  ///   duration differs from the scene's (`"interaction.duration"`, `.mustEqual(duration)`).
  public func sample(at time: Double, interaction: InteractionTimeline) throws(ValidationError)
    -> TransitionSample
  {
    try Validate.nonNegative(time, "time")
    guard interaction.duration == duration else {
      throw ValidationError(field: "interaction.duration", reason: .mustEqual(duration))
    }
    let state = try interaction.state(at: time)
    let completion: TransitionCompletion? =
      state.completed ? (state.finished == true ? .finished : .cancelled) : nil
    return TransitionSample(
      time: time, progress: state.position, completed: state.completed,
      cancelled: completion == .cancelled,
      tree: presentation(at: state.position * duration, completion: completion),
      blendModes: completion == nil ? blendModes : [:])
  }
}
