/// The animator of a catalog preset (<doc:TransitionCatalog>), for any operation.
///
/// `push`, `present` and `tab-switch` run a preset forwards; `pop` and `dismiss` run its reverse
/// (the preset's "pop"). Every preset reports `completeTransition(!cancelled)`; when finished
/// only **to** (with its sublayers) stays in the container, when cancelled only **from**.
public struct PresetAnimator: TransitionAnimator {
  /// The preset.
  public var preset: TransitionPreset
  /// Its parameters.
  public var parameters: PresetParameters

  /// The animator of `preset` with `parameters` (checked when the transition is set up).
  public init(_ preset: TransitionPreset, parameters: PresetParameters = PresetParameters()) {
    self.preset = preset
    self.parameters = parameters
  }

  /// The preset's duration in seconds: system 0.5, fade-slide 0.2, cross-dissolve 0.35, hero
  /// `0.8 + 0.2·cellCount` on push and 0.4 on pop, depth 2.0, slide-over 0.2, CATransition
  /// presets `caDuration` (0.25 by default).
  public func transitionDuration(using context: TransitionContext) -> Double {
    switch preset {
    case .system: 0.5
    case .fadeSlide: 0.2
    case .crossDissolve: 0.35
    case .hero: context.operation.isForward ? parameters.hero.pushDuration : 0.4
    case .depth: 2.0
    case .slideOver: 0.2
    case .caFade, .caMoveIn, .caPush, .caReveal: parameters.caDuration
    }
  }

  /// Builds the preset's scene for `context`.
  ///
  /// - Throws: ``ValidationError`` for invalid parameters, or when a layer the preset animates is
  ///   missing from the context's views (hero needs **title**, **table**, **header**, **back**,
  ///   **cell0…**; see ``defaultViews(operation:containerSize:content:)``).
  public func animateTransition(using context: TransitionContext) throws(ValidationError)
    -> TransitionScene
  {
    try parameters.validate()
    var b = SceneBuilder()
    let duration = transitionDuration(using: context)
    let forward = context.operation.isForward
    switch preset {
    case .system: try addSystem(&b, context: context, duration: duration)
    case .fadeSlide: try addFadeSlide(&b, context: context)
    case .crossDissolve: try addCrossDissolve(&b, context: context, duration: duration)
    case .hero: try addHero(&b, context: context, forward: forward)
    case .depth: try addDepth(&b, context: context, duration: duration)
    case .slideOver: try addSlideOver(&b, context: context, duration: duration)
    case .caFade, .caMoveIn, .caPush, .caReveal:
      try addCATransition(&b, context: context, duration: duration)
    }
    return try b.scene(duration: duration, containerSize: context.containerSize)
  }

  /// The completion changes of a transition between two views: finished, the from view is
  /// removed; cancelled, the to view.
  private static func removeOnCompletion(_ b: inout SceneBuilder, from: String, to: String) {
    b.finishChanges = [.remove(layerID: from)]
    b.cancelChanges = [.remove(layerID: to)]
  }

  /// `system`: the navigation push with the system spring, the from view moving to `0.2·w` under
  /// a black dimming layer at opacity 0.1.
  private func addSystem(
    _ b: inout SceneBuilder, context: TransitionContext, duration: Double
  ) throws(ValidationError) {
    let (w, h) = (context.containerSize.width, context.containerSize.height)
    let (from, to) = (context.fromID, context.toID)
    let forward = context.operation.isForward
    let spring = TimingCurveProvider.springAnimation(.systemCurve7)
    b.blendModes = [:]
    let dimming = Layer(
      id: "dimming", bounds: context.containerBounds, position: Point(x: w / 2, y: h / 2),
      opacity: forward ? 0 : 0.1, backgroundColor: .black)
    if forward {
      try b.add(view: context.fromView)
      try b.add(dimming)
      try b.add(view: context.toView)
      try b.set(.positionX, of: to, to: .number(w + w / 2))
      try b.animate(
        .positionX, of: to, to: .number(w / 2), duration: duration, timingParameters: spring)
      try b.animate(
        .positionX, of: from, to: .number(0.2 * w), duration: duration, timingParameters: spring)
      try b.animate(
        .opacity, of: "dimming", to: .number(0.1), duration: duration, timingParameters: spring)
    } else {
      try b.add(view: context.toView)
      try b.add(dimming)
      try b.add(view: context.fromView)
      try b.set(.positionX, of: to, to: .number(0.2 * w))
      try b.animate(
        .positionX, of: from, to: .number(w + w / 2), duration: duration, timingParameters: spring
      )
      try b.animate(
        .positionX, of: to, to: .number(w / 2), duration: duration, timingParameters: spring)
      try b.animate(
        .opacity, of: "dimming", to: .number(0), duration: duration, timingParameters: spring)
    }
    b.finishChanges = [.remove(layerID: from), .remove(layerID: "dimming")]
    b.cancelChanges = [.remove(layerID: to), .remove(layerID: "dimming")]
  }

  /// `fade-slide`: the incoming view one width to the side, then its keyframes.
  private func addFadeSlide(_ b: inout SceneBuilder, context: TransitionContext)
    throws(ValidationError)
  {
    let w = context.containerSize.width
    let (from, to) = (context.fromID, context.toID)
    let forward = context.operation.isForward
    if forward {
      try b.add(view: context.fromView)
      try b.add(view: context.toView)
    } else {
      try b.add(view: context.toView)
      try b.add(view: context.fromView)
    }
    try b.set(.positionX, of: to, to: .number((forward ? w : -w) + w / 2))
    try addFadeSlideKeyframes(&b, from: from, to: to, width: w, forward: forward)
    Self.removeOnCompletion(&b, from: from, to: to)
  }

  /// `cross-dissolve`: the incoming view's opacity from 0 to 1, ease in–ease out.
  private func addCrossDissolve(
    _ b: inout SceneBuilder, context: TransitionContext, duration: Double
  ) throws(ValidationError) {
    let (from, to) = (context.fromID, context.toID)
    let ease = TimingCurveProvider.easeInEaseOut
    try b.add(view: context.fromView)
    try b.add(view: context.toView)
    try b.set(.opacity, of: to, to: .number(0))
    try b.animate(.opacity, of: to, to: .number(1), duration: duration, timingParameters: ease)
    Self.removeOnCompletion(&b, from: from, to: to)
  }

  /// `depth`: both views at `z = ±300` under a perspective of 500 points, the outgoing one moving
  /// 150 points in depth and fading out while the incoming one comes to the identity, ease out.
  private func addDepth(
    _ b: inout SceneBuilder, context: TransitionContext, duration: Double
  ) throws(ValidationError) {
    let (from, to) = (context.fromID, context.toID)
    let reverse = !context.operation.isForward
    let perspective = Transform3D.makePerspective(distance: 500)
    try b.add(view: context.toView)
    try b.add(view: context.fromView)
    // "The one that should be behind is sent to the back": from if reverse, else to.
    if reverse { try b.bringSubviewToFront(to) }
    try b.set(.zPosition, of: from, to: .number(reverse ? -300 : 300))
    try b.set(.zPosition, of: to, to: .number(reverse ? 300 : -300))
    try b.set(
      .transform, of: to,
      to: .transform(
        Transform3D.makeTranslation(x: 0, y: 0, z: reverse ? 150 : -150) * perspective))
    try b.set(.opacity, of: to, to: .number(0))
    let curve = TimingCurveProvider.easeOut
    try b.animate(
      .transform, of: from,
      to: .transform(
        Transform3D.makeTranslation(x: 0, y: 0, z: reverse ? -150 : 150) * perspective),
      duration: duration, timingParameters: curve)
    try b.animate(.opacity, of: from, to: .number(0), duration: duration, timingParameters: curve)
    try b.animate(
      .transform, of: to, to: .transform(.identity), duration: duration, timingParameters: curve)
    try b.animate(.opacity, of: to, to: .number(1), duration: duration, timingParameters: curve)
    Self.removeOnCompletion(&b, from: from, to: to)
  }

  /// `slide-over`: the incoming view slides in over the outgoing one (pop: the outgoing one
  /// slides off), ease in–ease out.
  private func addSlideOver(
    _ b: inout SceneBuilder, context: TransitionContext, duration: Double
  ) throws(ValidationError) {
    let w = context.containerSize.width
    let (from, to) = (context.fromID, context.toID)
    let ease = TimingCurveProvider.easeInEaseOut
    if context.operation.isForward {
      try b.add(view: context.fromView)
      try b.add(view: context.toView)
      try b.set(.positionX, of: to, to: .number(w + w / 2))
      try b.animate(
        .positionX, of: to, to: .number(w / 2), duration: duration, timingParameters: ease)
    } else {
      try b.add(view: context.toView)
      try b.add(view: context.fromView)
      try b.animate(
        .positionX, of: from, to: .number(w + w / 2), duration: duration, timingParameters: ease)
    }
    Self.removeOnCompletion(&b, from: from, to: to)
  }

  /// `fade-slide`'s keyframes: the UIView keyframe rule's per-property tracks, cubic mode, linear
  /// overall pacing.
  private func addFadeSlideKeyframes(
    _ b: inout SceneBuilder, from: String, to: String, width w: Double, forward: Bool
  ) throws(ValidationError) {
    let model = b.model
    guard let fromLayer = model[id: from], let toLayer = model[id: to] else {
      throw ValidationError(field: "layer", reason: .unknown(model[id: from] == nil ? from : to))
    }
    var builder = try KeyframeBuilder<Double>(
      startValues: [
        "to.opacity": toLayer.opacity, "from.opacity": fromLayer.opacity,
        "to.x": toLayer.position.x, "from.x": fromLayer.position.x,
      ],
      calculationMode: .cubic)
    var a: [String: Double] = ["to.opacity": 1]
    if forward { a["from.opacity"] = 0 }
    try builder.addKeyframe(relativeStartTime: 0, relativeDuration: 0.5, changes: a)
    var c: [String: Double] = ["to.x": w / 2, "from.x": (forward ? -w : w) + w / 2]
    if !forward { c["from.opacity"] = 0 }
    try builder.addKeyframe(relativeStartTime: 0, relativeDuration: 1, changes: c)
    let tracks = try builder.tracks()
    let targets: [(String, String, LayerProperty)] = [
      ("to.opacity", to, .opacity), ("from.opacity", from, .opacity),
      ("to.x", to, .positionX), ("from.x", from, .positionX),
    ]
    for (name, id, property) in targets {
      guard let track = tracks[name] else { continue }
      try b.animate(property, of: id, keyframes: .numbers(track), duration: 0.2)
    }
  }

  /// `hero`: the spring phase, the second phase and the cascade on push; one ease on pop.
  private func addHero(_ b: inout SceneBuilder, context: TransitionContext, forward: Bool)
    throws(ValidationError)
  {
    let scene = parameters.hero
    let (w, h) = (context.containerSize.width, context.containerSize.height)
    let (from, to) = (context.fromID, context.toID)
    guard scene.listTop < h else {
      throw ValidationError(field: "listTop", reason: .outOfRange(lower: 0, upper: h))
    }
    let tableHeight = h - scene.listTop
    let tableY = { (y: Double) in AnimationValue.number(y + tableHeight / 2) }
    let cell = scene.cellFrame(width: w)
    let header = Rect(x: 0, y: 0, width: w, height: scene.headerHeight)
    func imageBounds(_ r: Rect) -> AnimationValue {
      .rect(Rect(x: 0, y: 0, width: r.size.width, height: r.size.height))
    }
    func imagePosition(_ r: Rect) -> AnimationValue { .point(Point(x: r.midX, y: r.midY)) }
    // The flying image is a snapshot of the post's header: its fill and its kind's contents.
    let post = forward ? context.toView : context.fromView
    let snapshot = post[id: "header"]
    let image = { (frame: Rect, opacity: Double) in
      var layer = Layer(
        id: "image", bounds: Rect(x: 0, y: 0, width: frame.size.width, height: frame.size.height),
        position: Point(x: frame.midX, y: frame.midY), opacity: opacity,
        backgroundColor: snapshot?.backgroundColor ?? .clear)
      layer.kind = snapshot?.kind ?? .plain
      layer.contents = snapshot?.contents
      return layer
    }
    if forward {
      try b.add(view: context.fromView)
      try b.add(view: context.toView)
      try b.add(image(cell, 0))
      try b.set(.opacity, of: to, to: .number(0))
      try b.set(.opacity, of: "header", to: .number(0))
      for i in 0..<scene.cellCount { try b.set(.opacity, of: "cell\(i)", to: .number(0)) }
      let backX = HeroViews.back.midX
      try b.set(.positionX, of: "back", to: .number(backX - 70))
      let spring = TimingCurveProvider.spring(
        try SpringTimingParameters(dampingRatio: 0.75, initialVelocity: Vector2(dx: 1, dy: 0)))
      try b.animate(.opacity, of: "title", to: .number(0), duration: 0.5, timingParameters: spring)
      try b.animate(
        .positionY, of: "table", from: tableY(scene.listTop),
        to: tableY(scene.listTop + scene.headerHeight / 2), duration: 0.5, timingParameters: spring)
      try b.animate(
        .bounds, of: "image", to: imageBounds(header), duration: 0.5, timingParameters: spring)
      try b.animate(
        .position, of: "image", to: imagePosition(header), duration: 0.5, timingParameters: spring)
      try b.animate(.opacity, of: "image", to: .number(1), duration: 0.5, timingParameters: spring)
      try b.animate(.opacity, of: to, to: .number(1), duration: 0.5, timingParameters: spring)
      let ease = TimingCurveProvider.easeInEaseOut
      try b.animate(
        .opacity, of: "header", to: .number(1), beginTime: 0.5, duration: 0.3,
        timingParameters: ease)
      try b.animate(
        .positionX, of: "back", to: .number(backX), beginTime: 0.5, duration: 0.3,
        timingParameters: ease)
      b.at(0.8, .set(layerID: "title", property: .opacity, value: .number(1)))
      b.at(0.8, .remove(layerID: "image"))
      for i in 0..<scene.cellCount {
        try b.animate(
          .opacity, of: "cell\(i)", to: .number(1), beginTime: Double(8 + 2 * i) / 10,
          duration: 0.2,
          timingParameters: ease)
      }
      b.finishChanges = [.remove(layerID: from), .remove(layerID: "image")]
      b.cancelChanges = [.remove(layerID: to), .remove(layerID: "image")]
    } else {
      try b.add(view: context.toView)
      try b.add(view: context.fromView)
      try b.add(image(header, 1))
      let ease = TimingCurveProvider.easeInEaseOut
      try b.animate(.opacity, of: from, to: .number(0), duration: 0.4, timingParameters: ease)
      try b.animate(
        .transform, of: from, to: .transform(.makeScale(x: 0.9, y: 0.9, z: 1)), duration: 0.4,
        timingParameters: ease)
      try b.set(.opacity, of: to, to: .number(0))
      try b.animate(.opacity, of: to, to: .number(1), duration: 0.4, timingParameters: ease)
      try b.animate(
        .positionY, of: "table", from: tableY(scene.listTop + scene.headerHeight / 2),
        to: tableY(scene.listTop), duration: 0.4, timingParameters: ease)
      try b.animate(
        .bounds, of: "image", to: imageBounds(cell), duration: 0.4, timingParameters: ease)
      try b.animate(
        .position, of: "image", to: imagePosition(cell), duration: 0.4, timingParameters: ease)
      try b.animate(.opacity, of: "image", to: .number(0), duration: 0.4, timingParameters: ease)
      let reset = ModelChange.set(layerID: from, property: .transform, value: .transform(.identity))
      b.finishChanges = [reset, .remove(layerID: from), .remove(layerID: "image")]
      b.cancelChanges = [reset, .remove(layerID: to), .remove(layerID: "image")]
    }
  }

  /// The CATransition presets: q is the eased progress.
  private func addCATransition(
    _ b: inout SceneBuilder, context: TransitionContext, duration: Double
  ) throws(ValidationError) {
    let (old, new) = (context.fromID, context.toID)
    let size = context.containerSize
    let centre = Point(x: size.width / 2, y: size.height / 2)
    let d = parameters.subtype.offset(in: size)
    let curve = parameters.caTimingFunction.map { TimingCurveProvider.cubic($0) }
    if preset == .caReveal {
      try b.add(view: context.toView)
      try b.add(view: context.fromView)
    } else {
      try b.add(view: context.fromView)
      try b.add(view: context.toView)
    }
    switch preset {
    case .caFade:
      try b.set(.opacity, of: new, to: .number(0))
      try b.animate(.opacity, of: new, to: .number(1), duration: duration, timingParameters: curve)
      try b.animate(.opacity, of: old, to: .number(0), duration: duration, timingParameters: curve)
      b.blendModes = [old: .add, new: .add]
    case .caMoveIn, .caPush:
      try b.set(.position, of: new, to: .point(Point(x: centre.x + d.x, y: centre.y + d.y)))
      try b.animate(
        .position, of: new, to: .point(centre), duration: duration, timingParameters: curve)
      if preset == .caPush {
        try b.animate(
          .position, of: old, to: .point(Point(x: centre.x - d.x, y: centre.y - d.y)),
          duration: duration, timingParameters: curve)
      }
    default:
      try b.animate(
        .position, of: old, to: .point(Point(x: centre.x - d.x, y: centre.y - d.y)),
        duration: duration, timingParameters: curve)
    }
    b.finishChanges = [.remove(layerID: old)]
    b.cancelChanges = [.remove(layerID: new)]
  }
}

extension TransitionOperation {
  /// Whether the operation runs a preset forwards (push, present, tab switch) rather than in
  /// reverse (pop, dismiss).
  public var isForward: Bool {
    switch self {
    case .push, .present, .tabSwitch: true
    case .pop, .dismiss: false
    }
  }
}
