import Segue

/// A presented quantity of a layer sample that the continuity check follows.
struct ContinuityChannel: Hashable, Sendable {
  /// What it is part of: the layer's geometry, its opacity, or one appearance property.
  enum Group: Hashable, Sendable {
    case geometry
    case opacity
    case own(LayerProperty)
    case presence
  }

  /// The index in ``ContinuityProbe/values(of:)``.
  var index: Int
  /// E.g. `corner 2 y`.
  var name: String
  /// Points (else a fraction).
  var isPoints: Bool
  var group: Group

  /// Whether a change of the ancestors' properties moves it (geometry, opacity, presence).
  var reachesSublayers: Bool {
    switch group {
    case .geometry, .opacity, .presence: true
    case .own: false
    }
  }

  /// Whether a change of `property` can change it.
  func isAffected(by property: LayerProperty) -> Bool {
    switch group {
    case .presence: false
    case .opacity: property == .opacity
    case .own(let own): property == own
    case .geometry:
      switch property {
      case .position, .positionX, .positionY, .zPosition, .bounds, .boundsSize, .anchorPoint,
        .transform, .sublayerTransform, .transformComponent:
        true
      default: false
      }
    }
  }

  /// The jump size that counts for it.
  func tolerance(_ t: ContinuityTolerance) -> Double { isPoints ? t.points : t.fraction }

  /// The pseudo-channel of a layer's presence.
  static let presence = ContinuityChannel(
    index: -1, name: "presence", isPoints: false, group: .presence)

  /// The quantities, in the order of ``ContinuityProbe/values(of:)``.
  static let all: [ContinuityChannel] = {
    var channels: [ContinuityChannel] = []
    func add(_ name: String, _ points: Bool, _ group: Group) {
      channels.append(
        ContinuityChannel(index: channels.count, name: name, isPoints: points, group: group))
    }
    for corner in 0..<4 {
      add("corner \(corner) x", true, .geometry)
      add("corner \(corner) y", true, .geometry)
    }
    add("opacity", false, .opacity)
    add("cornerRadius", true, .own(.cornerRadius))
    add("borderWidth", true, .own(.borderWidth))
    add("shadowOpacity", false, .own(.shadowOpacity))
    add("shadowRadius", true, .own(.shadowRadius))
    add("shadowOffset width", true, .own(.shadowOffset))
    add("shadowOffset height", true, .own(.shadowOffset))
    for (property, name) in [
      (LayerProperty.backgroundColor, "backgroundColor"), (.borderColor, "borderColor"),
      (.shadowColor, "shadowColor"),
    ] {
      for component in ["red", "green", "blue", "alpha"] {
        add("\(name) \(component)", false, .own(property))
      }
    }
    return channels
  }()
}

/// A jump before the scene is asked about it.
struct ProbeJump {
  var kind: ContinuityJump.Kind
  var layerID: String
  var channel: ContinuityChannel
  /// The narrowed interval `(start, end]` holding it.
  var start: Double
  var end: Double
  var before: Double
  var after: Double
  var frame: Int
}

/// Samples a run on demand (each time once) and narrows frame intervals down to their jumps.
struct ContinuityProbe {
  let scene: TransitionScene
  let interaction: InteractionTimeline?
  private var memo: [Double: [String: [Double]]] = [:]

  /// The width a value jump is narrowed to, seconds.
  static let valueWidth = 1e-8
  /// The width a velocity jump is narrowed to, seconds.
  static let velocityWidth = 1e-5
  /// The step of the one-sided difference that measures a velocity, seconds.
  static let velocityStep = 1e-7

  init(scene: TransitionScene, interaction: InteractionTimeline?) {
    self.scene = scene
    self.interaction = interaction
  }

  /// Each present layer's quantities at `t` (corners behind the eye as NaN).
  mutating func values(at t: Double) throws(ValidationError) -> [String: [Double]] {
    if let known = memo[t] { return known }
    let sample: TransitionSample
    if let interaction {
      sample = try scene.sample(at: t, interaction: interaction)
    } else {
      sample = try scene.sample(at: t)
    }
    var out: [String: [Double]] = [:]
    for layer in sample.layers { out[layer.id] = Self.values(of: layer) }
    memo[t] = out
    return out
  }

  static func values(of layer: LayerSample) -> [Double] {
    var v: [Double] = []
    v.reserveCapacity(ContinuityChannel.all.count)
    for corner in layer.corners {
      v += corner.isBehindEye ? [.nan, .nan] : [corner.point.x, corner.point.y]
    }
    while v.count < 8 { v.append(.nan) }
    v += [
      layer.opacity, layer.cornerRadius, layer.borderWidth, layer.shadowOpacity,
      layer.shadowRadius, layer.shadowOffset.width, layer.shadowOffset.height,
    ]
    v += layer.backgroundColor.channels + layer.borderColor.channels + layer.shadowColor.channels
    return v
  }

  /// The jumps between frames `a` and `b` (frame interval `frame`): one per layer, kind and
  /// group of quantities (the first quantity of the group found jumping).
  mutating func jumps(
    from a: Double, to b: Double, frame: Int, tolerance: ContinuityTolerance, fps: Double
  ) throws(ValidationError) -> [ProbeJump] {
    let va = try values(at: a)
    let vb = try values(at: b)
    var found: [ProbeJump] = []
    for id in Set(va.keys).symmetricDifference(vb.keys).sorted() {
      if let jump = try presenceJump(id, a, b, frame) { found.append(jump) }
    }
    for id in va.keys.sorted() {
      guard let x = va[id], let y = vb[id] else { continue }
      var jumped = Set<ContinuityChannel.Group>()
      for channel in ContinuityChannel.all where !jumped.contains(channel.group) {
        let limit = channel.tolerance(tolerance)
        let (p, q) = (x[channel.index], y[channel.index])
        guard p.isFinite, q.isFinite, abs(q - p) > limit else { continue }
        if var jump = try valueJump(id, channel, a, b, limit) {
          jump.frame = frame
          found.append(jump)
          jumped.insert(channel.group)
        }
      }
      for channel in ContinuityChannel.all where !jumped.contains(channel.group) {
        let limit = channel.tolerance(tolerance)
        if var jump = try velocityJump(id, channel, a, b, limit: limit, speed: limit * fps) {
          jump.frame = frame
          found.append(jump)
          jumped.insert(channel.group)
        }
      }
    }
    return found
  }

  /// Narrows `(a, b]` to where `id` appears or disappears.
  private mutating func presenceJump(_ id: String, _ a: Double, _ b: Double, _ frame: Int)
    throws(ValidationError) -> ProbeJump?
  {
    var (lo, hi) = (a, b)
    let startPresent = try values(at: a)[id] != nil
    while hi - lo > Self.valueWidth {
      let m = lo + (hi - lo) / 2
      guard m > lo && m < hi else { break }
      if try (values(at: m)[id] != nil) == startPresent { lo = m } else { hi = m }
    }
    return ProbeJump(
      kind: .presence, layerID: id, channel: .presence, start: lo, end: hi,
      before: startPresent ? 1 : 0, after: startPresent ? 0 : 1, frame: frame)
  }

  /// Narrows `(a, b]` to an instant where the channel jumps by more than `limit`, or `nil`
  /// when the change spreads out (the value is continuous there).
  private mutating func valueJump(
    _ id: String, _ channel: ContinuityChannel, _ a: Double, _ b: Double, _ limit: Double
  ) throws(ValidationError) -> ProbeJump? {
    func value(_ t: Double) throws(ValidationError) -> Double? {
      try values(at: t)[id].map { $0[channel.index] }
    }
    guard var low = try value(a), var high = try value(b) else { return nil }
    var (lo, hi) = (a, b)
    while hi - lo > Self.valueWidth {
      let m = lo + (hi - lo) / 2
      guard m > lo && m < hi, let vm = try value(m), vm.isFinite else { break }
      if abs(vm - low) >= abs(high - vm) { (hi, high) = (m, vm) } else { (lo, low) = (m, vm) }
      guard abs(high - low) > limit else { return nil }
    }
    return ProbeJump(
      kind: .value, layerID: id, channel: channel, start: lo, end: hi, before: low, after: high,
      frame: 0)
  }

  /// The one-sided velocity `(v(t + h) − v(t)) / h`, `nil` where the layer or value is missing.
  private mutating func velocity(_ id: String, _ channel: ContinuityChannel, _ t: Double)
    throws(ValidationError) -> Double?
  {
    guard let v0 = try values(at: t)[id]?[channel.index],
      let v1 = try values(at: t + Self.velocityStep)[id]?[channel.index], v0.isFinite,
      v1.isFinite
    else { return nil }
    return (v1 - v0) / Self.velocityStep
  }

  /// Narrows `(a, b]` to an instant where the channel's velocity jumps by more than `speed`
  /// while its value stays within `limit`, or `nil`.
  private mutating func velocityJump(
    _ id: String, _ channel: ContinuityChannel, _ a: Double, _ b: Double, limit: Double,
    speed: Double
  ) throws(ValidationError) -> ProbeJump? {
    guard var low = try velocity(id, channel, a), var high = try velocity(id, channel, b),
      abs(high - low) > speed
    else { return nil }
    var (lo, hi) = (a, b)
    while hi - lo > Self.velocityWidth {
      let m = lo + (hi - lo) / 2
      guard let vm = try velocity(id, channel, m) else { return nil }
      if abs(vm - low) >= abs(high - vm) { (hi, high) = (m, vm) } else { (lo, low) = (m, vm) }
      guard abs(high - low) > speed else { return nil }
    }
    // A value jump inside the interval (or just after it) shows as a velocity spike: it is
    // reported as a value jump, not here.
    guard let x = try values(at: lo)[id]?[channel.index],
      let y = try values(at: hi + Self.velocityStep)[id]?[channel.index],
      abs(y - x) <= limit + Swift.min(abs(low), abs(high)) * (hi + Self.velocityStep - lo)
    else { return nil }
    // The velocity at `hi` looks ahead to `hi + h`: the change may lie up to there.
    return ProbeJump(
      kind: .velocity, layerID: id, channel: channel, start: lo, end: hi + Self.velocityStep,
      before: low, after: high, frame: 0)
  }
}
