/// The changes a UIView animation block makes: inside `addAnimations { … }`, each assignment to a
/// view property becomes ``set(_:of:to:)``.
///
/// The block sees the model as it is when the block runs (earlier blocks' targets included) and
/// its own changes as it makes them; for each property it changes, the animation runs from the
/// value before the block to the last value the block sets.
public struct AnimationBlock: Sendable {
  /// The model: the values before the block, with the block's changes so far.
  public private(set) var model: LayerTree
  /// The changed properties in the order first set: layer id, property, value before the block.
  var changed: [(layerID: String, property: LayerProperty, from: AnimationValue)] = []
  /// The container's `sublayerTransform` before the block, once the block set it.
  var containerFrom: Transform3D?

  init(model: LayerTree) {
    self.model = model
  }

  /// Sets `property` of layer `id` to `value` inside the block: `view.alpha = 0` is
  /// `try block.set(.opacity, of: "view", to: .scalar(0))`.
  ///
  /// - Throws: ``ValidationError``: `"layer"` ``ValidationError/Reason/unknown(_:)`` for an
  ///   unknown id; the value's ``AnimationValue/validate(field:)`` error on the key path;
  ///   `"keyPath"` when the value's kind is not the property's or the property belongs to
  ///   another layer class; the layer's ``Layer/validate()`` error on the result; for `bounds`
  ///   or `bounds.size` of a resizable snapshot with cap insets, which re-lays out its parts,
  ///   ``ValidationError/Reason/invalidState(_:)`` when it is not larger than its cap insets.
  public mutating func set(_ property: LayerProperty, of id: String, to value: AnimationValue)
    throws(ValidationError)
  {
    guard let index = model.index(of: id) else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    try value.validate(field: property.keyPath)
    let before = property.value(in: model.layers[index])
    try model.set(property, to: value, at: index)
    if !changed.contains(where: { $0.layerID == id && $0.property == property }) {
      changed.append((id, property, before))
    }
    guard property == .bounds || property == .boundsSize else { return }
    // A resizable snapshot with cap insets: its parts follow, so they animate with it.
    for part in try model.ninePartLayout(of: id, field: property.keyPath)
    where self.value(part.property, of: part.id) != part.value {
      try set(part.property, of: part.id, to: part.value)
    }
  }

  /// `view.frame = frame` inside the block: animates `bounds.size` and `position` to the values
  /// ``Layer/frame``'s setter gives (and, for a resizable snapshot with cap insets, its parts:
  /// ``SceneBuilder/resizableSnapshotView(of:from:afterScreenUpdates:withCapInsets:named:)``).
  ///
  /// - Throws: ``ValidationError``: `"layer"` ``ValidationError/Reason/unknown(_:)`` for an
  ///   unknown id; `"frame"` ``ValidationError/Reason/notFinite`` (with the channel index) for a
  ///   coordinate that is not finite, the null rectangle included; `"bounds.size"`
  ///   ``ValidationError/Reason/invalidState(_:)`` for a resizable snapshot not larger than its
  ///   cap insets.
  public mutating func setFrame(_ frame: Rect, of id: String) throws(ValidationError) {
    guard var layer = model[id: id] else {
      throw ValidationError(field: "layer", reason: .unknown(id))
    }
    try AnimationValue.rect(frame).validate(field: "frame")
    layer.frame = frame
    try set(.boundsSize, of: id, to: .size(layer.bounds.size))
    try set(.position, of: id, to: .point(layer.position))
  }

  /// `containerView.layer.sublayerTransform = value` inside the block (``ContainerLayer``):
  /// `property` must be ``LayerProperty/sublayerTransform``. A UIView animation block animates
  /// it from its value before the block (``SceneBuilder/animate(withDuration:delay:timingParameters:animations:)``);
  /// keyframe blocks and property animators refuse it.
  ///
  /// - Throws: ``ValidationError``: as ``ContainerLayer/sublayerTransform(_:_:)``.
  public mutating func setContainer(_ property: LayerProperty, to value: AnimationValue)
    throws(ValidationError)
  {
    let transform = try ContainerLayer.sublayerTransform(property, value)
    if containerFrom == nil { containerFrom = model.container.sublayerTransform }
    model.container.sublayerTransform = transform
  }

  /// `view.frame` as the block sees it (``Layer/frame``), or `nil` for an unknown id.
  public func frame(of id: String) -> Rect? { model[id: id]?.frame }

  /// The current value of `property` on layer `id`, or `nil` for an unknown id.
  public func value(_ property: LayerProperty, of id: String) -> AnimationValue? {
    model[id: id].map { property.value(in: $0) }
  }

  /// Throws ``ValidationError/Reason/invalidState(_:)`` on `"container"` when the block set the
  /// container's layer, which `caller` does not animate.
  func refuseContainerChange(_ caller: String) throws(ValidationError) {
    guard containerFrom == nil else {
      throw ValidationError(
        field: "container",
        reason: .invalidState(
          "\(caller) does not animate the container's layer; set it outside, or in UIView.animate"))
    }
  }

}

/// `UIViewPropertyAnimator`: animation blocks paced by a ``PropertyAnimator`` (``timing``), with
/// explicit wall-clock times (seconds, finite, `≥ 0`, never before the previous call);
/// ``advance(to:)`` moves the clock and reports the completion once, ``sample(at:)`` evaluates the
/// layers at any time. A block added at fraction `f` with `delayFactor` `δ` eases over
/// `[f + δ·(1 − f), 1]`; blocks on one property add up, except whole transforms. The rules are in
/// <doc:PropertyAnimatorTiming>.
public struct ViewPropertyAnimator: Sendable {
  /// One added block: when, where it starts, and its changes.
  struct Block: Sendable {
    var time: Double
    var start: Double
    var entries: [Entry]
  }

  /// One animated property of one block.
  struct Entry: Sendable {
    var layerID: String
    var property: LayerProperty
    var from: AnimationValue
    var to: AnimationValue
  }

  /// The timing state machine: fraction, progress map, state, completion.
  public private(set) var timing: PropertyAnimator
  /// The container's layers before any block (the views as they were when the animator was made).
  public let container: LayerTree
  /// Layers that blend other than "over" while the animator runs.
  public let blendModes: [String: BlendMode]
  /// The model now: ``container`` with every block's targets.
  public private(set) var model: LayerTree
  var blocks: [Block] = []
  private var completions: [@Sendable (AnimatingPosition) -> [ModelChange]] = []

  /// `UIViewPropertyAnimator(duration:timingParameters:)` animating the layers of `container`
  /// (its model and blend modes; a builder as ``TransitionContext/containerView`` gives it).
  ///
  /// - Parameters:
  ///   - duration: seconds, finite and `> 0`; a physical spring uses its settling duration and
  ///     accepts 0, as UIKit does (``PropertyAnimator/init(duration:timingParameters:pausesOnCompletion:scrubsLinearly:)``).
  ///   - timingParameters: the curve (default ease-in-ease-out).
  ///   - container: the layers; it must hold no time-based animations, events or completion
  ///     changes (the animator makes its own).
  /// - Throws: ``ValidationError``: as ``PropertyAnimator``'s initialiser; `"container"`
  ///   ``ValidationError/Reason/invalidState(_:)`` when the builder holds animations, events or
  ///   completion changes.
  public init(
    duration: Double, timingParameters: TimingCurveProvider = .easeInEaseOut,
    container: SceneBuilder
  ) throws(ValidationError) {
    guard container.animations.entries.isEmpty, container.events.isEmpty,
      container.finishChanges.isEmpty, container.cancelChanges.isEmpty
    else {
      throw ValidationError(
        field: "container",
        reason: .invalidState(
          "holds animations, events or completion changes; a property animator makes its own"))
    }
    timing = try PropertyAnimator(duration: duration, timingParameters: timingParameters)
    self.container = container.model
    self.model = container.model
    self.blendModes = container.blendModes
  }

  /// `UIViewPropertyAnimator(duration:curve:animations:)`.
  ///
  /// - Throws: as ``init(duration:timingParameters:container:)``, then the block's errors.
  public init(
    duration: Double, curve: ViewAnimationCurve, container: SceneBuilder,
    animations: ((inout AnimationBlock) throws(ValidationError) -> Void)? = nil
  ) throws(ValidationError) {
    try self.init(
      duration: duration, timingParameters: .cubic(animationCurve: curve), container: container)
    if let animations { try addAnimations(animations) }
  }

  /// `UIViewPropertyAnimator(duration:controlPoint1:controlPoint2:animations:)`.
  ///
  /// - Throws: the control points' errors (``CubicBezier/init(x1:y1:x2:y2:)``), then as
  ///   ``init(duration:curve:container:animations:)``.
  public init(
    duration: Double, controlPoint1: Point, controlPoint2: Point, container: SceneBuilder,
    animations: ((inout AnimationBlock) throws(ValidationError) -> Void)? = nil
  ) throws(ValidationError) {
    try self.init(
      duration: duration,
      timingParameters: .cubic(controlPoint1: controlPoint1, controlPoint2: controlPoint2),
      container: container)
    if let animations { try addAnimations(animations) }
  }

  /// `UIViewPropertyAnimator(duration:dampingRatio:animations:)`: a spring with damping ratio
  /// `ratio` fitted to `duration` (``SpringTimingParameters/init(dampingRatio:initialVelocity:)``).
  ///
  /// - Throws: `"dampingRatio"` not finite or `≤ 0`, then as
  ///   ``init(duration:curve:container:animations:)``.
  public init(
    duration: Double, dampingRatio ratio: Double, container: SceneBuilder,
    animations: ((inout AnimationBlock) throws(ValidationError) -> Void)? = nil
  ) throws(ValidationError) {
    try self.init(
      duration: duration,
      timingParameters: .spring(try SpringTimingParameters(dampingRatio: ratio)),
      container: container)
    if let animations { try addAnimations(animations) }
  }

  // MARK: State

  /// `duration`, seconds.
  public var duration: Double { timing.duration }
  /// `timingParameters`.
  public var timingParameters: TimingCurveProvider { timing.timingParameters }
  /// `state` now (at ``currentTime``).
  public var state: AnimatingState { timing.state }
  /// `isRunning` now.
  public var isRunning: Bool { timing.isRunning }
  /// `isReversed` now.
  public var isReversed: Bool { timing.isReversed }
  /// `fractionComplete` now: the time fraction in `[0, 1]`.
  public var fractionComplete: Double { timing.fractionComplete }
  /// `scrubsLinearly` as last set (default `true`).
  public var scrubsLinearly: Bool { timing.scrubsLinearly }
  /// `pausesOnCompletion` as last set (default `false`).
  public var pausesOnCompletion: Bool { timing.pausesOnCompletion }
  /// `delay`: the delay of the latest `startAnimation(afterDelay:)`, seconds.
  public var delay: Double { timing.delay }
  /// The clock, seconds.
  public var currentTime: Double { timing.currentTime }

  // MARK: Animations and completions

  /// `addAnimations(_:delayFactor:)` at `time` (default: ``currentTime``): runs `animations` on the
  /// model and animates its changes from the values before it.
  ///
  /// - Parameters:
  ///   - animations: the block; its changes become model values at once.
  ///   - delayFactor: unitless in `[0, 1]`: the block starts after `delayFactor` times the
  ///     remaining duration.
  ///   - time: when the block is added, seconds (not before ``currentTime``).
  /// - Throws: ``ValidationError``: `"delayFactor"` not finite or outside `[0, 1]`; `"time"`
  ///   (not finite, negative, decreasing); `"animator"` ``ValidationError/Reason/invalidState(_:)``
  ///   when stopped or over (UIKit: a programmer error); `"container"` when the block sets the
  ///   container's layer (``AnimationBlock/setContainer(_:to:)``); the block's own errors. A
  ///   block that throws adds nothing.
  public mutating func addAnimations(
    _ animations: (inout AnimationBlock) throws(ValidationError) -> Void,
    delayFactor: Double = 0, at time: Double? = nil
  ) throws(ValidationError) {
    try Validate.inRange(delayFactor, 0, 1, "delayFactor")
    let t = time ?? currentTime
    try timing.requireOpen(at: t, for: "addAnimations")
    let now = try timing.sample(at: t)
    let f = now.state == .inactive ? 0 : now.fractionComplete
    let start = Swift.min(f + delayFactor * (1 - f), 1)
    var block = AnimationBlock(model: try modelTree(at: t))
    try animations(&block)
    try block.refuseContainerChange("a property animator")
    let presented = try presentation(at: t)
    var entries: [Entry] = []
    for change in block.changed {
      guard let layer = block.model[id: change.layerID] else { continue }
      let to = change.property.value(in: layer)
      var from = change.from
      if change.property.valueKind == .transform,
        let shown = presented[id: change.layerID]
      {
        from = change.property.value(in: shown)
      }
      entries.append(Entry(layerID: change.layerID, property: change.property, from: from, to: to))
    }
    _ = try timing.advance(to: t)
    blocks.append(Block(time: t, start: start, entries: entries))
    model = try modelTree(at: t)
  }

  /// `addCompletion(_:)`: a handler run once when the animator completes, with the position it
  /// ended at; it returns the model changes to make then (in UIKit, what the completion block
  /// does to the views: remove the view that is no longer shown, restore a transform, …).
  ///
  /// - Throws: ``ValidationError`` on `"animator"` (``ValidationError/Reason/invalidState(_:)``)
  ///   when the animator is over or stopped at ``currentTime``.
  public mutating func addCompletion(
    _ completion: @escaping @Sendable (AnimatingPosition) -> [ModelChange]
  ) throws(ValidationError) {
    try timing.requireOpen(at: currentTime, for: "addCompletion")
    completions.append(completion)
  }

  // MARK: Calls (UIViewAnimating, with the time made explicit)

  /// `startAnimation()` at `time`; see ``PropertyAnimator/startAnimation(at:)``.
  public mutating func startAnimation(at time: Double) throws(ValidationError) {
    try timing.startAnimation(at: time)
  }

  /// `startAnimation(afterDelay:)` at `time`; see
  /// ``PropertyAnimator/startAnimation(afterDelay:at:)``.
  public mutating func startAnimation(afterDelay delay: Double, at time: Double)
    throws(ValidationError)
  {
    try timing.startAnimation(afterDelay: delay, at: time)
  }

  /// `pauseAnimation()` at `time`.
  public mutating func pauseAnimation(at time: Double) throws(ValidationError) {
    try timing.pauseAnimation(at: time)
  }

  /// `stopAnimation(_ withoutFinishing:)` at `time`: the views keep their current values.
  public mutating func stopAnimation(withoutFinishing: Bool, at time: Double)
    throws(ValidationError)
  {
    try timing.stopAnimation(withoutFinishing: withoutFinishing, at: time)
  }

  /// `finishAnimation(at:)` at `time`, on a stopped animator.
  public mutating func finishAnimation(at position: AnimatingPosition, time: Double)
    throws(ValidationError)
  {
    try timing.finishAnimation(at: position, time: time)
  }

  /// `fractionComplete = fraction` at `time` (paused only).
  public mutating func setFractionComplete(_ fraction: Double, at time: Double)
    throws(ValidationError)
  {
    try timing.setFractionComplete(fraction, at: time)
  }

  /// `isReversed = reversed` at `time`.
  public mutating func setReversed(_ reversed: Bool, at time: Double) throws(ValidationError) {
    try timing.setReversed(reversed, at: time)
  }

  /// `pausesOnCompletion = value` at `time`.
  public mutating func setPausesOnCompletion(_ value: Bool, at time: Double)
    throws(ValidationError)
  {
    try timing.setPausesOnCompletion(value, at: time)
  }

  /// `scrubsLinearly = value` at `time`.
  public mutating func setScrubsLinearly(_ value: Bool, at time: Double) throws(ValidationError) {
    try timing.setScrubsLinearly(value, at: time)
  }

  /// `continueAnimation(withTimingParameters:durationFactor:)` at `time`; see
  /// `PropertyAnimator.continueAnimation(withTimingParameters:durationFactor:at:)`.
  public mutating func continueAnimation(
    withTimingParameters timing: TimingCurveProvider?, durationFactor: Double, at time: Double
  ) throws(ValidationError) {
    try self.timing.continueAnimation(
      withTimingParameters: timing, durationFactor: durationFactor, at: time)
  }

  /// Moves the clock to `time`; returns the completion once, the first time the clock passes it.
  public mutating func advance(to time: Double) throws(ValidationError) -> AnimatorCompletionEvent?
  {
    try timing.advance(to: time)
  }

  // MARK: Sampling

  /// The model at `time`: ``container`` with the targets of the blocks added at `τ ≤ time`.
  func modelTree(at time: Double) throws(ValidationError) -> LayerTree {
    var tree = container
    for block in blocks where block.time <= time {
      for entry in block.entries {
        guard let index = tree.index(of: entry.layerID) else { continue }
        try entry.property.set(entry.to, in: &tree.storage[index])
      }
    }
    return tree
  }

  /// The presented layer tree at wall-clock `time` (seconds): the model, each animated property
  /// at its blocks' progress (see the type's notes), then — once the completion has fired — the
  /// completion handlers' changes.
  ///
  /// - Throws: ``ValidationError``: `"time"` not finite or negative; `"completion"` (with the
  ///   change's index) when a handler's change names a layer that is not there or a value of the
  ///   wrong kind.
  public func presentation(at time: Double) throws(ValidationError) -> LayerTree {
    let animatorSample = try timing.sample(at: time)
    var tree = try modelTree(at: time)
    let live = blocks.filter { $0.time <= time }
    var progress: [Double] = []
    for block in live { progress.append(try timing.progress(at: time, startingAt: block.start)) }
    // Contributions per (layer, key path), in order of first appearance.
    var order: [String] = []
    var groups: [String: [(entry: Entry, q: Double)]] = [:]
    for (block, q) in zip(live, progress) {
      for entry in block.entries {
        let key = "\(entry.layerID)\u{0}\(entry.property.keyPath)"
        if groups[key] == nil { order.append(key) }
        groups[key, default: []].append((entry, q))
      }
    }
    for key in order {
      guard let contributions = groups[key], let first = contributions.first,
        let index = tree.index(of: first.entry.layerID)
      else { continue }
      let property = first.entry.property
      let value: AnimationValue
      if contributions.count == 1 || property.valueKind == .transform || !property.isAnimatable {
        let last = contributions[contributions.count - 1]
        value = AnimationValue.interpolate(last.entry.from, last.entry.to, fraction: last.q)
      } else {
        value = Self.additive(
          model: property.value(in: tree.layers[index]),
          contributions: contributions.map { ($0.entry.from, $0.entry.to, $0.q) })
      }
      try property.set(value, in: &tree.storage[index])
    }
    if let position = animatorSample.completion {
      var index = 0
      for handler in completions {
        for change in handler(position) {
          try change.validate(against: tree, field: "completion", index: index)
          change.apply(to: &tree)
          index += 1
        }
      }
    }
    return tree
  }

  /// The layers at wall-clock `time` (seconds) as a ``TransitionSample``: `progress` is the
  /// animator's `fractionComplete`, `completed` whether its completion has fired, `cancelled`
  /// whether it fired at `.start`; blend modes apply until completion.
  ///
  /// - Throws: as ``presentation(at:)``.
  public func sample(at time: Double) throws(ValidationError) -> TransitionSample {
    let s = try timing.sample(at: time)
    let tree = try presentation(at: time)
    let completed = s.completion != nil
    return TransitionSample(
      time: time, progress: s.fractionComplete, completed: completed,
      cancelled: s.completion == .start, tree: tree, blendModes: completed ? [:] : blendModes)
  }

  /// `model + Σ (from − to)·(1 − q)` channel by channel.
  static func additive(
    model: AnimationValue, contributions: [(AnimationValue, AnimationValue, Double)]
  ) -> AnimationValue {
    var channels = model.channels
    for (from, to, q) in contributions where q != 1 {
      let a = from.channels
      let b = to.channels
      guard a.count == channels.count, b.count == channels.count else { continue }
      for i in channels.indices { channels[i] += (a[i] - b[i]) * (1 - q) }
    }
    return model.withChannels(channels)
  }

  // MARK: The plain run as a scene

  /// The scene of a plain run started at time 0 and never interrupted: each block's properties
  /// as animations over `[start·D, D)` (fill backwards), with the animator's curve (a cubic curve
  /// as their timing function, a spring as spring content over the block's length), the
  /// completion handlers' changes at `.end` as ``TransitionScene/finishChanges`` and at `.start` as
  /// ``TransitionScene/cancelChanges``. Sampling it at `t` gives the same layers as
  /// ``sample(at:)`` after `startAnimation(at: 0)` (this is what `animateTransition(using:)` returns
  /// for an animator that starts its interruptible animator).
  ///
  /// An animator already started at time 0 and driven no further (`startAnimation()` or
  /// `startAnimation(afterDelay:)` inside `animateTransition(using:)`, as UIKit code does) gives
  /// the same scene, its delay `δ` moving every animation `δ` seconds later and lengthening the
  /// scene by `δ`.
  ///
  /// - Throws: ``ValidationError``: `"animator"` ``ValidationError/Reason/invalidState(_:)`` when
  ///   the animator has been driven other than by one start at time 0; `"animations"` when two blocks animate
  ///   the same property of the same layer (their additive sum has no single-animation form:
  ///   sample the animator instead); the scene's own errors.
  public func scene(containerSize: Size) throws(ValidationError) -> TransitionScene {
    let delay = try plainRunDelay()
    let d = timing.duration
    var animations = AnimationSet()
    var seen = Set<String>()
    for block in blocks {
      let begin = delay + block.start * d
      let length = d - block.start * d
      // A property that does not animate is in the model from the start, as the block set it.
      for entry in block.entries where entry.property.isAnimatable {
        let key = "\(entry.layerID)\u{0}\(entry.property.keyPath)"
        guard seen.insert(key).inserted else {
          throw ValidationError(
            field: "animations",
            reason: .invalidState(
              "\(entry.layerID).\(entry.property.keyPath) is animated by two blocks"))
        }
        let animation: LayerAnimation
        if length > 0 {
          let timing = MediaTiming(beginTime: begin, duration: length, fillMode: .backwards)
          switch timingParameters {
          case .cubic(let function):
            animation = try LayerAnimation(
              property: entry.property, content: .basic(from: entry.from, to: entry.to),
              timing: timing, timingFunction: function)
          case .spring(let parameters):
            guard let spring = parameters.spring(forRunLength: length) else {
              throw ValidationError(
                field: "duration", reason: .invalidState("no spring fits a run of \(length) s"))
            }
            animation = try LayerAnimation(
              property: entry.property,
              content: .spring(spring, from: entry.from, to: entry.to), timing: timing)
          case .springAnimation(let spring):
            animation = try LayerAnimation(
              property: entry.property,
              content: .spring(spring, from: entry.from, to: entry.to), timing: timing)
          }
        } else {
          // A block delayed to the very end: the old value until the end, then the model's.
          animation = try LayerAnimation(
            property: entry.property, content: .basic(from: entry.from, to: entry.from),
            timing: MediaTiming(beginTime: delay, duration: d, fillMode: .backwards))
        }
        animations.add(animation, to: entry.layerID)
      }
    }
    var finish: [ModelChange] = []
    var cancel: [ModelChange] = []
    for handler in completions {
      finish += handler(.end)
      cancel += handler(.start)
    }
    return try TransitionScene(
      duration: delay + d, containerSize: containerSize, model: model, animations: animations,
      finishChanges: finish, cancelChanges: cancel, blendModes: blendModes)
  }

  /// The delay of a plain run: 0 for an animator never driven, `δ` for one whose only call is a
  /// start at time 0 (after `δ` seconds); any other history throws as ``scene(containerSize:)``.
  private func plainRunDelay() throws(ValidationError) -> Double {
    let events = timing.events
    if events.isEmpty { return 0 }
    if events.count == 1 {
      switch events[0] {
      case .start(time: 0): return 0
      case .startAfterDelay(time: 0, let delay): return delay
      default: break
      }
    }
    throw ValidationError(
      field: "animator",
      reason: .invalidState(
        "has been driven beyond a start at time 0; the scene describes a plain run"))
  }
}
