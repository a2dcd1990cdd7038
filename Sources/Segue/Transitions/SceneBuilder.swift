/// Builds a ``TransitionScene`` the way an animator's `animateTransition(using:)` does with UIView
/// animation blocks: add layers, then animate properties to new model values.
///
/// ``animate(_:of:from:to:beginTime:duration:timingParameters:)`` sets the model value to the
/// target at once (as a UIView animation block does) and adds an animation from the previous value
/// that fills backwards, so the layer shows the old value until the animation begins, its curve
/// while it runs, and the model value from its end on.
public struct SceneBuilder: Sendable {
  /// The model tree built so far.
  public internal(set) var model = LayerTree()
  /// The animations added so far, in order.
  public internal(set) var animations = AnimationSet()
  /// Timeline events added so far.
  public private(set) var events: [TimelineEvent] = []
  /// Changes applied when the transition finishes.
  public var finishChanges: [ModelChange] = []
  /// Changes applied when the transition is cancelled.
  public var cancelChanges: [ModelChange] = []
  /// Layers that blend other than "over" while the transition runs.
  public var blendModes: [String: BlendMode] = [:]
  /// The animations of the container's own layer (``AnimationBlock/setContainer(_:to:)`` in
  /// ``animate(withDuration:delay:timingParameters:animations:)``), in order.
  public internal(set) var containerAnimations: [LayerAnimation] = []

  /// An empty builder.
  public init() {}

  /// Adds `layer` under `parent` (nil: the container), above its existing siblings.
  public mutating func add(_ layer: Layer, parent: String? = nil) throws(ValidationError) {
    try model.add(layer, parent: parent)
  }

  /// Adds every layer of `view` (a view's layer tree) under `parent`, keeping its hierarchy.
  public mutating func add(view: LayerTree, parent: String? = nil) throws(ValidationError) {
    for (index, layer) in view.layers.enumerated() {
      let parentID = try view.parentIndex(at: index).map { view.layers[$0].id } ?? parent
      try model.add(layer, parent: parentID)
    }
    model.ninePartSnapshots.merge(view.ninePartSnapshots) { _, added in added }
  }

  /// `containerView.addSubview(view)`: adds `view` to the container above everything in it
  /// (``add(view:parent:)`` with no parent).
  public mutating func addSubview(_ view: LayerTree) throws(ValidationError) {
    try add(view: view)
  }

  /// `insertSubview(view, aboveSubview: sibling)`: adds `view` next to the layer `sibling` (same
  /// parent), directly above it.
  ///
  /// - Throws: ``ValidationError``: `"layer"` ``ValidationError/Reason/unknown(_:)`` for an
  ///   unknown sibling; the errors of ``add(view:parent:)``.
  public mutating func insertSubview(_ view: LayerTree, aboveSubview sibling: String)
    throws(ValidationError)
  {
    try insert(view, next: sibling, below: false)
  }

  /// `insertSubview(view, aboveSubview: siblingView)`, the sibling given by its view (its root
  /// layer).
  public mutating func insertSubview(_ view: LayerTree, aboveSubview sibling: LayerTree)
    throws(ValidationError)
  {
    try insert(view, next: try Self.rootID(of: sibling), below: false)
  }

  /// `insertSubview(view, belowSubview: sibling)`: adds `view` next to the layer `sibling` (same
  /// parent), directly below it.
  ///
  /// - Throws: as the `aboveSubview` form.
  public mutating func insertSubview(_ view: LayerTree, belowSubview sibling: String)
    throws(ValidationError)
  {
    try insert(view, next: sibling, below: true)
  }

  /// `insertSubview(view, belowSubview: siblingView)`, the sibling given by its view.
  public mutating func insertSubview(_ view: LayerTree, belowSubview sibling: LayerTree)
    throws(ValidationError)
  {
    try insert(view, next: try Self.rootID(of: sibling), below: true)
  }

  private static func rootID(of view: LayerTree) throws(ValidationError) -> String {
    guard let root = view.layers.first else {
      throw ValidationError(field: "subview", reason: .tooFew(minimum: 1, actual: 0))
    }
    return root.id
  }

  /// Adds `view` under `sibling`'s parent, then moves the siblings that must stay above it
  /// (`sibling` itself when inserting below, and every later sibling) to the top, in order.
  private mutating func insert(_ view: LayerTree, next sibling: String, below: Bool)
    throws(ValidationError)
  {
    guard let index = model.index(of: sibling) else {
      throw ValidationError(field: "layer", reason: .unknown(sibling))
    }
    let parentIndex = try model.parentIndex(at: index)
    let parent = parentIndex.map { model.layers[$0].id }
    let siblings = try model.children(of: parent).map { model.layers[$0].id }
    try add(view: view, parent: parent)
    guard let position = siblings.firstIndex(of: sibling) else { return }
    for id in siblings[(below ? position : position + 1)...] {
      try model.move(id, toParent: parent)
    }
  }

  /// Sets `property` of layer `id` to `value` now, with no animation (what a line before the
  /// animation block does): `try builder.set(.opacity, of: "to", to: .number(0))`.
  ///
  /// - Throws: ``ValidationError``: `"layer"` for an unknown id; the value's errors (named by
  ///   the key path); the property's (``LayerProperty/set(_:in:)``: a value of another kind, a
  ///   property of another layer class); the layer's own checks on the result
  ///   (``Layer/validate()``: a `contentsScale` of 0, gradient `locations` of another length
  ///   than its `colors`); for `bounds` or `bounds.size` of a resizable snapshot with cap
  ///   insets, which re-lays out its parts, ``ValidationError/Reason/invalidState(_:)`` when it
  ///   is not larger than its cap insets.
  public mutating func set(_ property: LayerProperty, of id: String, to value: AnimationValue)
    throws(ValidationError)
  {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    try value.validate(field: property.keyPath)
    var updated = model
    try updated.set(property, to: value, at: index)
    if property == .bounds || property == .boundsSize {
      try updated.layOutNineParts(of: id, field: property.keyPath)
    }
    model = updated
  }

  /// `containerView.layer.sublayerTransform = value` outside an animation block: sets the
  /// container layer's model value (``LayerTree/container``), which applies to every top-level
  /// layer about the container's centre:
  /// `try builder.setContainer(.sublayerTransform, to: .transform(.makePerspective(distance: 500)))`.
  ///
  /// - Throws: ``ValidationError``: as ``ContainerLayer/sublayerTransform(_:_:)``.
  public mutating func setContainer(_ property: LayerProperty, to value: AnimationValue)
    throws(ValidationError)
  {
    model.container.sublayerTransform = try ContainerLayer.sublayerTransform(property, value)
  }

  /// Animates `property` of layer `id` from `from` to `to` over `[beginTime, beginTime + duration)`
  /// seconds paced by `timingParameters`, and sets the model value to `to`:
  ///
  ///     try builder.animate(
  ///       .opacity, of: "to", to: .number(1), duration: 0.3, timingParameters: .easeInEaseOut)
  ///
  /// - Parameters:
  ///   - property: the animated property.
  ///   - id: the layer.
  ///   - from: the start value; `nil` (the default) starts from the current model value.
  ///   - to: the end value, which becomes the model value at once.
  ///   - beginTime: seconds from the start of the transition (default 0).
  ///   - duration: seconds, `> 0`.
  ///   - timingParameters: the curve (``TimingCurveProvider``). `nil` is no timing function, so
  ///     linear pacing, as a `CAAnimation` without one; a UIView animation's default curve is
  ///     ``TimingCurveProvider/easeInEaseOut``. A physical ``TimingCurveProvider/spring(_:)``
  ///     lasts its settling duration instead of `duration`, as in UIKit; a
  ///     ``TimingCurveProvider/springAnimation(_:)`` is shown for `duration` whatever its settling
  ///     duration, as a `CASpringAnimation`.
  /// - Throws: ``ValidationError``: `"layer"` for an unknown id; `"duration"` when no spring fits
  ///   a run of `duration` seconds; the animation's errors (``LayerAnimation/validate()``: a
  ///   path or list whose layout differs from `from`'s); the errors of
  ///   ``set(_:of:to:)`` for the new model value. Animating `bounds` or `bounds.size` of a
  ///   resizable snapshot with cap insets animates its parts on the same timing.
  public mutating func animate(
    _ property: LayerProperty, of id: String, from: AnimationValue? = nil, to: AnimationValue,
    beginTime: Double = 0, duration: Double, timingParameters: TimingCurveProvider?
  ) throws(ValidationError) {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    let start = from ?? property.value(in: model.layers[index])
    let animation = try Self.animation(
      property, from: start, to: to, beginTime: beginTime, duration: duration,
      timingParameters: timingParameters)
    var updated = model
    try updated.set(property, to: to, at: index)
    var added = AnimationSet()
    added.add(animation, to: id)
    if property == .bounds || property == .boundsSize, model.ninePartSnapshots[id] != nil {
      // A resizable snapshot's parts animate with it, on the same timing.
      var first = model
      try first.set(property, to: start, at: index)
      let starts = try first.ninePartLayout(of: id, field: property.keyPath)
      let ends = try updated.ninePartLayout(of: id, field: property.keyPath)
      try updated.layOutNineParts(of: id, field: property.keyPath)
      for (a, b) in zip(starts, ends) where a.value != b.value {
        added.add(
          try Self.animation(
            b.property, from: a.value, to: b.value, beginTime: beginTime, duration: duration,
            timingParameters: timingParameters), to: b.id)
      }
    }
    model = updated
    animations.append(contentsOf: added)
  }

  /// The animation of ``animate(_:of:from:to:beginTime:duration:timingParameters:)``: a basic
  /// animation with the cubic curve as its timing function, or spring content over the run.
  static func animation(
    _ property: LayerProperty, from: AnimationValue, to: AnimationValue, beginTime: Double,
    duration: Double, timingParameters: TimingCurveProvider?
  ) throws(ValidationError) -> LayerAnimation {
    let timing = MediaTiming(beginTime: beginTime, duration: duration, fillMode: .backwards)
    switch timingParameters {
    case nil:
      return try LayerAnimation(
        property: property, content: .basic(from: from, to: to), timing: timing)
    case .cubic(let function)?:
      return try LayerAnimation(
        property: property, content: .basic(from: from, to: to), timing: timing,
        timingFunction: function)
    case .springAnimation(let spring)?:
      return try LayerAnimation(
        property: property, content: .spring(spring, from: from, to: to), timing: timing)
    case .spring(let parameters)?:
      let length = parameters.runLength(forDuration: duration)
      try Validate.positive(length, "duration")
      guard let spring = parameters.spring(forRunLength: length) else {
        throw ValidationError(
          field: "duration", reason: .invalidState("no spring fits a run of \(length) s"))
      }
      return try LayerAnimation(
        property: property, content: .spring(spring, from: from, to: to),
        timing: MediaTiming(beginTime: beginTime, duration: length, fillMode: .backwards))
    }
  }

  /// Adds a keyframe animation of `property` on layer `id` and sets the model value to the
  /// track's last value.
  ///
  /// - Parameters:
  ///   - property: the animated property.
  ///   - id: the layer.
  ///   - keyframes: the keyframe track.
  ///   - beginTime: seconds from the start of the transition (default 0).
  ///   - duration: seconds, `> 0`.
  ///   - timingParameters: the overall pacing, a timing function (a keyframe animation has no
  ///     spring form); `nil`, the default, paces linearly, as UIView keyframe animations and
  ///     `CAKeyframeAnimation` do.
  /// - Throws: ``ValidationError``: `"layer"` for an unknown id; `"keyPath"`
  ///   ``ValidationError/Reason/invalidState(_:)`` for `bounds` or `bounds.size` of a resizable
  ///   snapshot with cap insets (its parts need tracks of their own:
  ///   ``animateKeyframes(withDuration:delay:options:animations:)`` makes them); the animation's
  ///   errors (values of another kind than the property's, the timing's).
  public mutating func animate(
    _ property: LayerProperty, of id: String, keyframes: KeyframeValues, beginTime: Double = 0,
    duration: Double, timingParameters: TimingFunction? = nil
  ) throws(ValidationError) {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    if model.ninePartSnapshots[id] != nil, property == .bounds || property == .boundsSize {
      throw ValidationError(
        field: "keyPath",
        reason: .invalidState(
          "keyframes on the bounds of a resizable snapshot with cap insets; use animateKeyframes"))
    }
    let timing = MediaTiming(beginTime: beginTime, duration: duration, fillMode: .backwards)
    let animation = try LayerAnimation(
      property: property, content: .keyframes(keyframes), timing: timing,
      timingFunction: timingParameters)
    try model.set(property, to: keyframes.value(at: 1), at: index)
    animations.add(animation, to: id)
  }

  /// Adds a path animation (`CAKeyframeAnimation.path`, ``KeyframePathTrack``) of the point
  /// property `property` (`position` usually) on layer `id`, and sets the model value to the
  /// path's end point (its last vertex).
  ///
  /// - Parameters:
  ///   - property: the animated point property.
  ///   - id: the layer.
  ///   - path: the path track.
  ///   - beginTime: seconds from the start of the transition (default 0).
  ///   - duration: seconds, `> 0`.
  ///   - timingParameters: the overall pacing, as for keyframes: a timing function, or `nil` (the
  ///     default) for linear pacing.
  /// - Throws: ``ValidationError``: `"layer"` for an unknown id; the animation's errors (`path`
  ///   on a property that is not a point, the timing's).
  public mutating func animate(
    _ property: LayerProperty, of id: String, path: KeyframePathTrack, beginTime: Double = 0,
    duration: Double, timingParameters: TimingFunction? = nil
  ) throws(ValidationError) {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    let timing = MediaTiming(beginTime: beginTime, duration: duration, fillMode: .backwards)
    let animation = try LayerAnimation(
      property: property, content: .path(path), timing: timing, timingFunction: timingParameters)
    try model.set(property, to: .point(path.position(at: 1)), at: index)
    animations.add(animation, to: id)
  }

  /// Adds a model change at `time` seconds.
  public mutating func at(_ time: Double, _ change: ModelChange) {
    events.append(TimelineEvent(time: time, change: change))
  }

  /// The finished scene.
  public func scene(duration: Double, containerSize: Size) throws(ValidationError)
    -> TransitionScene
  {
    try TransitionScene(
      duration: duration, containerSize: containerSize, model: model, animations: animations,
      events: events.enumerated().sorted {
        ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
      }.map(\.element), finishChanges: finishChanges,
      cancelChanges: cancelChanges, blendModes: blendModes,
      containerAnimations: containerAnimations)
  }
}
