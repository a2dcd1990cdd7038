/// A change to the model layer tree: what a transition does at a moment of its timeline
/// (hero's reset of **title** and removal of **image**) and when it completes.
public enum ModelChange: Hashable, Sendable {
  /// Sets a property's model value.
  case set(layerID: String, property: LayerProperty, value: AnimationValue)
  /// Removes a layer and its sublayers (`removeFromSuperlayer`).
  case remove(layerID: String)

  /// Applies the change to `tree`; a change to a layer that is no longer there does nothing.
  func apply(to tree: inout LayerTree) {
    switch self {
    case .set(let id, let property, let value):
      guard let index = tree.index(of: id) else { return }
      try? property.set(value, in: &tree.storage[index])
    case .remove(let id):
      _ = try? tree.remove(id: id)
    }
  }

  func validate(against tree: LayerTree, field: String, index: Int) throws(ValidationError) {
    switch self {
    case .set(let id, let property, let value):
      guard let layer = tree.index(of: id) else {
        throw ValidationError(field: field, index: index, reason: .unknown(id))
      }
      do { try property.checkApplies(to: tree.storage[layer]) } catch {
        throw ValidationError(field: field, index: index, reason: error.reason)
      }
      // Name the change's index in the list, not the value's channel.
      do { try value.validate(field: field) } catch {
        throw ValidationError(field: field, index: index, reason: error.reason)
      }
      guard value.kind == property.valueKind else {
        throw ValidationError(
          field: field, index: index,
          reason: .invalidState("\(property.keyPath) holds a \(property.valueKind.rawValue)"))
      }
    case .remove(let id):
      guard tree.index(of: id) != nil else {
        throw ValidationError(field: field, index: index, reason: .unknown(id))
      }
    }
  }
}

/// A model change at a time of the transition's timeline (seconds from its start).
public struct TimelineEvent: Hashable, Sendable {
  /// When the change happens, in seconds from the start of the transition.
  public var time: Double
  /// The change.
  public var change: ModelChange

  /// A change at `time` seconds.
  public init(time: Double, change: ModelChange) {
    self.time = time
    self.change = change
  }
}

/// How a transition ended, once it has.
public enum TransitionCompletion: Hashable, Sendable {
  /// `completeTransition(true)`: the new state stays.
  case finished
  /// `completeTransition(false)`: everything is as before the transition.
  case cancelled
}

/// Everything needed to evaluate one transition at any moment, as data: what an animator sets up
/// in `animateTransition(using:)`.
///
/// The model tree holds the layers' **model** values as UIView animation blocks leave them (the
/// targets); each animation fills backwards, so before and during its interval it shows its own
/// curve and from its end on the model value shows through ("an animation over `[b, b + d)` shows
/// its curve there and its model value from `b + d` on"). Every layer's state is a pure function
/// of the time and of the completion:
///
/// - running, at `t`: the model with every event at `τ ≤ t` applied, then the animations at `t`;
/// - finished: the model with every event applied, then ``finishChanges``;
/// - cancelled: the state at `t = 0`, then ``cancelChanges``.
public struct TransitionScene: Sendable {
  /// The transition's duration in seconds (`transitionDuration(using:)`).
  public var duration: Double
  /// Container size in points.
  public var containerSize: Size
  /// The model layer tree (target values), with every layer present at the start.
  public var model: LayerTree
  /// The animations, with begin times in seconds from the start of the transition.
  public var animations: AnimationSet
  /// Model changes during the transition, in time order.
  public var events: [TimelineEvent]
  /// Model changes when the transition finishes (remove **from**, transition-only layers, …).
  public var finishChanges: [ModelChange]
  /// Model changes when it is cancelled (remove **to**, transition-only layers, …).
  public var cancelChanges: [ModelChange]
  /// Layers drawn with a mode other than ``BlendMode/over`` (a cross-dissolve's two snapshots)
  /// while the transition runs; once complete every remaining layer is "over".
  public var blendModes: [String: BlendMode]
  /// Animations of the container's own layer (`containerView.layer`), all of
  /// ``LayerProperty/sublayerTransform``, in the order added; its model value is
  /// ``LayerTree/container`` of ``model``. They are written over it as a layer's animations are
  /// (<doc:PortedAnimators#The-containers-own-layer>).
  public var containerAnimations: [LayerAnimation] {
    didSet { compiledContainerAnimations = containerAnimations.map(CompiledAnimation.init) }
  }
  var compiledContainerAnimations: [CompiledAnimation]

  /// Creates a scene and checks it.
  ///
  /// - Throws: ``ValidationError``: `duration` not positive; an event time not finite or negative
  ///   (`events.time`, index) or out of order (`events.time`, `.decreasing`); an animation, event
  ///   or completion change naming a layer that is not in `model` (`animations.layer`,
  ///   `events`, `finishChanges`, `cancelChanges`, with the index), or a property of another
  ///   layer class than the layer's (`animations.keyPath`, or the change's list); a container
  ///   animation of another property than `sublayerTransform` (`containerAnimations.keyPath`,
  ///   with the index).
  public init(
    duration: Double, containerSize: Size, model: LayerTree, animations: AnimationSet,
    events: [TimelineEvent] = [], finishChanges: [ModelChange] = [],
    cancelChanges: [ModelChange] = [], blendModes: [String: BlendMode] = [:],
    containerAnimations: [LayerAnimation] = []
  ) throws(ValidationError) {
    try Validate.positive(duration, "duration")
    try Validate.finite(containerSize.width, "containerSize.width")
    try Validate.finite(containerSize.height, "containerSize.height")
    try animations.validate(against: model)
    var previous = 0.0
    for (i, event) in events.enumerated() {
      try Validate.nonNegative(event.time, "events.time", index: i)
      guard event.time >= previous else {
        throw ValidationError(field: "events.time", index: i, reason: .decreasing)
      }
      previous = event.time
      try event.change.validate(against: model, field: "events", index: i)
    }
    for (i, change) in finishChanges.enumerated() {
      try change.validate(against: model, field: "finishChanges", index: i)
    }
    for (i, change) in cancelChanges.enumerated() {
      try change.validate(against: model, field: "cancelChanges", index: i)
    }
    for id in blendModes.keys where model.index(of: id) == nil {
      throw ValidationError(field: "blendModes", reason: .unknown(id))
    }
    try Self.validateContainer(containerAnimations)
    self.duration = duration
    self.containerSize = containerSize
    self.model = model
    self.animations = animations
    self.events = events
    self.finishChanges = finishChanges
    self.cancelChanges = cancelChanges
    self.blendModes = blendModes
    self.containerAnimations = containerAnimations
    self.compiledContainerAnimations = containerAnimations.map(CompiledAnimation.init)
  }

  /// The presented layer tree at animation time `t` (seconds; clamped to `[0, duration]`), or
  /// after completion when `completion` is set.
  public func presentation(at t: Double, completion: TransitionCompletion? = nil) -> LayerTree {
    switch completion {
    case .finished:
      var tree = model
      for event in events { event.change.apply(to: &tree) }
      for change in finishChanges { change.apply(to: &tree) }
      presentContainer(in: &tree, at: duration)
      return tree
    case .cancelled:
      var tree = presentation(at: 0)
      for change in cancelChanges { change.apply(to: &tree) }
      return tree
    case nil:
      let time = min(max(t, 0), duration)
      var tree = model
      for event in events where event.time <= time { event.change.apply(to: &tree) }
      presentContainer(in: &tree, at: time)
      return animations.presentation(of: tree, at: time)
    }
  }
}
