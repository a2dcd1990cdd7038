/// How a UIView-style animation paces its progress.
public enum AnimationCurve: Hashable, Sendable {
  /// A timing function over the animation's duration (`nil` = linear).
  case timing(TimingFunction?)
  /// A spring on its own clock; the animation shows it for its duration, then the target.
  case spring(DampedSpring)
}

/// Builds a ``TransitionScene`` the way an animator's `animateTransition(using:)` does with UIView
/// animation blocks: add layers, then animate properties to new model values.
///
/// ``animate(_:of:from:to:beginTime:duration:curve:)`` sets the model value to the target at once
/// (as a UIView animation block does) and adds an animation from the previous value that fills
/// backwards, so the layer shows the old value until the animation begins, its curve while it
/// runs, and the model value from its end on.
public struct SceneBuilder: Sendable {
  /// The model tree built so far.
  public private(set) var model = LayerTree()
  /// The animations added so far, in order.
  public private(set) var animations = AnimationSet()
  /// Timeline events added so far.
  public private(set) var events: [TimelineEvent] = []
  /// Changes applied when the transition finishes.
  public var finishChanges: [ModelChange] = []
  /// Changes applied when the transition is cancelled.
  public var cancelChanges: [ModelChange] = []
  /// Layers that blend other than "over" while the transition runs.
  public var blendModes: [String: BlendMode] = [:]

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

  /// Moves layer `id` above its siblings (`bringSubviewToFront`).
  public mutating func bringToFront(_ id: String) throws(ValidationError) {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    let parent = try model.parentIndex(at: index).map { model.layers[$0].id }
    try model.move(id, toParent: parent)
  }

  /// Sets `property` of layer `id` to `value` now, with no animation (what a line before the
  /// animation block does): `try builder.set(.opacity, of: "to", to: .scalar(0))`.
  public mutating func set(_ property: LayerProperty, of id: String, to value: AnimationValue)
    throws(ValidationError)
  {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    try value.validate(field: property.keyPath)
    try property.set(value, in: &model.storage[index])
  }

  /// Animates `property` of layer `id` from `from` (default: its current model value) to `to`
  /// over `[beginTime, beginTime + duration)` seconds with `curve`, and sets the model value to
  /// `to`: `try builder.animate(.opacity, of: "to", to: .scalar(1), duration: 0.3, curve: …)`.
  public mutating func animate(
    _ property: LayerProperty, of id: String, from: AnimationValue? = nil, to: AnimationValue,
    beginTime: Double = 0, duration: Double, curve: AnimationCurve
  ) throws(ValidationError) {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    let start = from ?? property.value(in: model.layers[index])
    let timing = MediaTiming(beginTime: beginTime, duration: duration, fillMode: .backwards)
    let animation: LayerAnimation
    switch curve {
    case .timing(let function):
      animation = try LayerAnimation(
        property: property, content: .basic(from: start, to: to), timing: timing,
        timingFunction: function)
    case .spring(let spring):
      animation = try LayerAnimation(
        property: property, content: .spring(spring, from: start, to: to), timing: timing)
    }
    try property.set(to, in: &model.storage[index])
    animations.add(animation, to: id)
  }

  /// Adds a keyframe animation of `property` on layer `id` and sets the model value to the
  /// track's last value.
  public mutating func animate(
    _ property: LayerProperty, of id: String, keyframes: KeyframeValues, beginTime: Double = 0,
    duration: Double, timingFunction: TimingFunction? = nil
  ) throws(ValidationError) {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    let timing = MediaTiming(beginTime: beginTime, duration: duration, fillMode: .backwards)
    let animation = try LayerAnimation(
      property: property, content: .keyframes(keyframes), timing: timing,
      timingFunction: timingFunction)
    try property.set(keyframes.value(at: 1), in: &model.storage[index])
    animations.add(animation, to: id)
  }

  /// Adds a path animation (`CAKeyframeAnimation.path`, ``KeyframePathTrack``) of the point
  /// property `property` (`position` usually) on layer `id`, and sets the model value to the
  /// path's end point (its last vertex).
  ///
  /// - Throws: ``ValidationError``: `"layer"` for an unknown id; the animation's errors (`path`
  ///   on a property that is not a point, the timing's).
  public mutating func animate(
    _ property: LayerProperty, of id: String, path: KeyframePathTrack, beginTime: Double = 0,
    duration: Double, timingFunction: TimingFunction? = nil
  ) throws(ValidationError) {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    let timing = MediaTiming(beginTime: beginTime, duration: duration, fillMode: .backwards)
    let animation = try LayerAnimation(
      property: property, content: .path(path), timing: timing, timingFunction: timingFunction)
    try property.set(.point(path.position(at: 1)), in: &model.storage[index])
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
      cancelChanges: cancelChanges, blendModes: blendModes)
  }
}
