extension SceneBatch {
  /// The velocity of every layer instance `id` presents at wall time `t` (seconds on the batch
  /// clock), in the order of its sample's layers: the time derivatives of each layer's matrix to
  /// the container (entries per second) and presented opacity (per second).
  ///
  /// `d/dt = dτ/dt · d/dτ`: the instance's scene time `τ` and rate from ``time(of:at:)`` (the
  /// animator's analytic `dq/dt`, a percent-driven completion run's, a timed clock's speed), then
  /// ``TransitionScene/velocity(atSceneTime:timeRate:completion:)`` on the instance's scene with
  /// its retargets added, as ``TransitionScene/retarget(_:of:to:at:duration:timingParameters:)``
  /// adds them. Computed on the `Double` path for this one instance, so it allocates; a held or
  /// completed instance does not move (every velocity 0).
  ///
  /// - Throws: ``ValidationError``: `"instance"` ``ValidationError/Reason/unknown(_:)``; `"time"`
  ///   ``ValidationError/Reason/notFinite``; what
  ///   ``TransitionScene/velocity(atSceneTime:timeRate:completion:)`` throws (`"animations"` for a
  ///   path animation showing at `τ`, `"layers"` for a velocity that overflows `Double`).
  public func velocity(of id: Int, at t: Double) throws(ValidationError) -> [LayerVelocity] {
    let (g, k) = try location(id)
    return try velocity(group: g, slot: k, at: try time(of: id, at: t))
  }

  /// The velocities of instance `(g, k)` at its time `now`.
  func velocity(group g: Int, slot k: Int, at now: SceneInstanceTime)
    throws(ValidationError) -> [LayerVelocity]
  {
    try retargetedScene(group: g, slot: k).velocity(
      atSceneTime: now.time, timeRate: now.rate, completion: now.completion)
  }

  /// The scene of instance `(g, k)` with its additive animations (retargets) added to their
  /// layers in the order they were made.
  func retargetedScene(group g: Int, slot k: Int) -> TransitionScene {
    var scene = templates[g].scene
    var e = groups[g].additiveHeads[k]
    while e >= 0, let entry = additive.entries[Int(e)] {
      scene.animations.add(
        entry.animation.animation, to: scene.model.layers[Int(entry.layer)].id)
      e = entry.next
    }
    return scene
  }

  /// Writes ``velocity(of:at:)`` of every instance at `t` into its rows: 16 matrix entries per
  /// row into `matrices`, one opacity into `opacities`, 0 for the layers an instance does not
  /// present. An instance whose scene time does not move at `t` (held, paused, completed: rate
  /// 0) moves no layer, so its rows are 0 without the `Double` path.
  func writeVelocities(
    at t: Double, matrices: inout [Double], opacities: inout [Double]
  ) throws(ValidationError) {
    let fields = LaneMatrix.fieldCount
    for row in opacities.indices { opacities[row] = 0 }
    for i in matrices.indices { matrices[i] = 0 }
    for (g, group) in groups.enumerated() {
      let template = templates[g]
      for k in 0..<group.count {
        let now = group.time(k, at: t, duration: template.scene.duration)
        guard now.rate != 0, now.completion == nil else { continue }
        let first = groupRows[g] + k * template.layerCount
        for v in try velocity(group: g, slot: k, at: now) {
          guard let i = template.scene.model.index(of: v.id) else { continue }
          opacities[first + i] = v.opacity
          for (f, value) in v.matrix.fields.enumerated() {
            matrices[fields * (first + i) + f] = value
          }
        }
      }
    }
  }
}
