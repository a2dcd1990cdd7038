import Segue

/// How large a jump between consecutive frames must be to count.
///
/// A **value jump** is a presented value that changes by more than the tolerance across an
/// instant (not merely fast: the check narrows the frame interval down to `10⁻⁸` s and the
/// change must stay). A **velocity jump** is a speed that changes at an instant by more than
/// the tolerance times the frame rate — a kink that bends the value's path by more than the
/// tolerance within one frame.
public struct ContinuityTolerance: Hashable, Sendable {
  /// For positions and lengths (the corners of each layer, corner radius, border width, shadow
  /// radius and offset), points, `> 0` (default 0.5).
  public var points: Double
  /// For opacities and colour components (unitless, in `[0, 1]`), `> 0` (default 0.01).
  public var fraction: Double

  /// A tolerance.
  public init(points: Double = 0.5, fraction: Double = 0.01) {
    self.points = points
    self.fraction = fraction
  }
}

/// One abrupt change found by a ``ContinuityCheck``.
public struct ContinuityJump: Hashable, Sendable {
  /// What jumped.
  public enum Kind: Hashable, Sendable {
    /// The value.
    case value
    /// The velocity (the value stayed continuous).
    case velocity
    /// The layer appeared or disappeared.
    case presence
  }

  /// What jumped.
  public var kind: Kind
  /// The layer.
  public var layerID: String
  /// The quantity, e.g. `corner 0 x`, `opacity`, `backgroundColor alpha`.
  public var quantity: String
  /// The instant, seconds (wall-clock for an interactive run), to within `10⁻⁸` s for a value
  /// and `10⁻⁵` s for a velocity.
  public var time: Double
  /// The value (or velocity, per second) just before and just after.
  public var before: Double
  public var after: Double
  /// The frame interval it lies in: between frame `frame` and `frame + 1`.
  public var frame: Int
  /// Why the scene allows it, or empty when it does not.
  public var declaredBy: [TransitionDiscontinuity.Cause]

  /// Whether the scene declares it.
  public var isDeclared: Bool { !declaredBy.isEmpty }

  /// In words, e.g. `'to' corner 0 x jumps from 195.3 to 0 at t = 0.5 s (between frames 29 and
  /// 30)`.
  public var description: String {
    let what: String
    switch kind {
    case .value: what = "\(quantity) jumps from \(before) to \(after)"
    case .velocity: what = "\(quantity) changes speed from \(before) to \(after) per second"
    case .presence: what = after == 1 ? "appears" : "disappears"
    }
    return "'\(layerID)' \(what) at t = \(time) s (between frames \(frame) and \(frame + 1))"
  }
}

/// The result of a ``ContinuityCheck``.
public struct ContinuityReport: Hashable, Sendable {
  /// The frames sampled.
  public var frameCount: Int
  /// Every jump found, declared or not, in time order.
  public var jumps: [ContinuityJump]

  /// The jumps the scene does not declare: each one fails the check.
  public var undeclared: [ContinuityJump] { jumps.filter { !$0.isDeclared } }

  /// The failure message (the first ten undeclared jumps), or `nil` when there is none.
  public var failureMessage: String? {
    let bad = undeclared
    guard !bad.isEmpty else { return nil }
    var lines = [
      "\(bad.count) undeclared jump\(bad.count == 1 ? "" : "s") in \(frameCount) frames:"
    ]
    lines += bad.prefix(10).map { "  " + $0.description }
    if bad.count > 10 { lines.append("  … and \(bad.count - 10) more") }
    return lines.joined(separator: "\n")
  }
}

/// Samples a transition frame by frame and finds where a presented value or its velocity jumps
/// (``ContinuityTolerance``), then asks the scene whether it declares the jump
/// (``/Segue/TransitionScene/discontinuities(after:through:)``; for an interactive run also its
/// events and its completion).
///
/// Quantities: each layer's four projected corners (points), presented opacity, corner radius,
/// border width, shadow opacity, radius and offset, and the components of its background,
/// border and shadow colours; and its presence in the tree. A corner behind the eye is not
/// compared.
public struct ContinuityCheck: Sendable {
  /// The transition.
  public var scene: TransitionScene
  /// Its interactive run, if any: the frames then run in wall-clock time to its completion.
  public var interaction: InteractionTimeline?
  /// Frames per second, `> 0` (the frames are at `k/fps` up to the end, and the end).
  public var fps: Double
  /// The tolerance.
  public var tolerance: ContinuityTolerance

  /// The most frames a check samples.
  public static let maximumFrames = 100_000

  /// A check.
  public init(
    scene: TransitionScene, interaction: InteractionTimeline? = nil, fps: Double = 60,
    tolerance: ContinuityTolerance = ContinuityTolerance()
  ) {
    self.scene = scene
    self.interaction = interaction
    self.fps = fps
    self.tolerance = tolerance
  }

  /// Throws ``/Segue/ValidationError`` naming `fps`, `tolerance.points` or
  /// `tolerance.fraction` unless each is finite and `> 0`, `fps` (`.invalidState`) when the run
  /// would take more than ``maximumFrames`` frames, and `interaction.duration` when the
  /// interaction's duration is not the scene's.
  public func validate() throws(ValidationError) {
    try Validate.positive(fps, "fps")
    try Validate.positive(tolerance.points, "tolerance.points")
    try Validate.positive(tolerance.fraction, "tolerance.fraction")
    if let interaction, interaction.duration != scene.duration {
      throw ValidationError(field: "interaction.duration", reason: .mustEqual(scene.duration))
    }
    _ = try frameTimes()
  }

  /// Runs the check.
  ///
  /// - Throws: the errors of ``validate()`` and of sampling the scene.
  public func run() throws(ValidationError) -> ContinuityReport {
    try validate()
    let times = try frameTimes()
    var probe = ContinuityProbe(scene: scene, interaction: interaction)
    var jumps: [ContinuityJump] = []
    for k in 0..<(times.count - 1) {
      let found = try probe.jumps(
        from: times[k], to: times[k + 1], frame: k, tolerance: tolerance, fps: fps)
      jumps += found.map(declare)
    }
    return ContinuityReport(frameCount: times.count, jumps: jumps)
  }

  private func frameTimes() throws(ValidationError) -> [Double] {
    try TransitionScene.frameTimes(
      fps: fps, end: scene.endTime(interaction: interaction), maximum: Self.maximumFrames)
  }

  /// The jump with the causes the scene gives for it.
  private func declare(_ found: ProbeJump) -> ContinuityJump {
    let allowed = declaredDiscontinuities(after: found.start, through: found.end)
    let affecting = ancestry(of: found.layerID, reach: found.channel.reachesSublayers)
    let causes = allowed.filter { d in
      affecting.contains(d.layerID)
        && (d.property.map(found.channel.isAffected(by:)) ?? true)
        && (d.kind == .value || found.kind == .velocity)
    }.map(\.cause)
    var unique: [TransitionDiscontinuity.Cause] = []
    for cause in causes where !unique.contains(cause) { unique.append(cause) }
    return ContinuityJump(
      kind: found.kind, layerID: found.layerID, quantity: found.channel.name, time: found.end,
      before: found.before, after: found.after, frame: found.frame, declaredBy: unique)
  }

  /// The layer and, for geometry, opacity and presence, its ancestors in the model tree.
  private func ancestry(of id: String, reach: Bool) -> Set<String> {
    var ids: Set<String> = [id]
    guard reach, var index = scene.model.index(of: id) else { return ids }
    while let parent = (try? scene.model.parentIndex(at: index)) ?? nil {
      ids.insert(scene.model.layers[parent].id)
      index = parent
    }
    return ids
  }

  /// The discontinuities declared between wall-clock times `a` and `b`.
  private func declaredDiscontinuities(after a: Double, through b: Double)
    -> [TransitionDiscontinuity]
  {
    guard let interaction else { return scene.discontinuities(after: a, through: b) }
    guard let sa = try? interaction.state(at: a), let sb = try? interaction.state(at: b) else {
      return []
    }
    let d = scene.duration
    var found = scene.discontinuities(
      after: Swift.min(sa.position, sb.position) * d,
      through: Swift.max(sa.position, sb.position) * d)
    for event in interaction.events where event.time > a && event.time <= b {
      let kind: TransitionDiscontinuity.Kind
      if case .update = event { kind = .value } else { kind = .velocity }
      for layer in scene.model.layers {
        found.append(
          TransitionDiscontinuity(
            layerID: layer.id, property: nil, kind: kind, cause: .interaction))
      }
    }
    if !sa.isCompleted, sb.isCompleted {
      found += scene.completionDiscontinuities(sb.isFinished == true ? .finished : .cancelled)
    }
    return found
  }
}
