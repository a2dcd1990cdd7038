/// One additive animation of a batch instance, made by
/// ``SceneBatch/retarget(_:of:in:to:at:duration:timingParameters:)``.
struct SceneAdditiveAnimation: Sendable {
  /// The animation (an offset from none to `Δ`), evaluated per lane by the scalar `Double` code.
  var animation: CompiledAnimation
  /// Its value once over (the finished state adds it, and so does every scene time from
  /// ``end`` on: a forwards fill holds it).
  var settled: AnimationValue
  /// The scene times its active interval starts and ends (before ``begin`` it adds nothing).
  var begin: Double
  var end: Double
  /// The layer's model index.
  var layer: Int32
  /// The first dynamic slot it adds to, and how many (16 for a transform).
  var slot: Int32
  var channels: Int32
  /// Bit `c`: channel `c` keeps the settled offset in the finished state (no finish change of
  /// the layer writes its plane).
  var finishedChannels: UInt16
  /// The next entry of the same instance in the pool, −1 at the end.
  var next: Int32
}

/// The additive animations of a batch's instances: a fixed number of entries allocated on the
/// first retarget, a free list, and per instance a list in the order the entries were added.
/// Adding is `O(1)` plus the instance's own list; nothing is allocated once the entries exist.
struct SceneAdditivePool: Sendable {
  /// The entries (`nil` when free); empty until the first retarget.
  var entries: [SceneAdditiveAnimation?] = []
  /// Free entry indices, taken from the end.
  var free: [Int32] = []
  /// The number of entries the pool holds once allocated.
  var capacity: Int

  init(capacity: Int) { self.capacity = capacity }

  /// The number of entries in use.
  var count: Int { entries.count - free.count }

  /// Allocates the entries (once).
  mutating func prepare() {
    guard entries.isEmpty, capacity > 0 else { return }
    entries = [SceneAdditiveAnimation?](repeating: nil, count: capacity)
    free = (0..<Int32(capacity)).reversed()
  }

  /// Frees the list that starts at `head`.
  mutating func release(_ head: Int32) {
    var e = head
    while e >= 0 {
      let next = entries[Int(e)]?.next ?? -1
      entries[Int(e)] = nil
      free.append(e)
      e = next
    }
  }
}

extension SceneBatch {
  /// The default number of additive animations a batch holds at once (``additiveCapacity``).
  public static let defaultAdditiveCapacity = 4096

  /// The number of additive animations (retargets) the batch holds at once, over all its
  /// instances; a retarget beyond it is rejected. The entries are allocated on the first
  /// retarget (about 1 KiB each); an instance's entries are freed when it is removed or its
  /// clock replaced.
  public var additiveCapacity: Int { additive.capacity }

  /// The number of additive animations the batch holds now.
  public var additiveAnimationCount: Int { additive.count }

  /// Sets ``additiveCapacity`` (allocating the entries now when some are in use).
  ///
  /// - Throws: ``ValidationError`` `"additiveCapacity"`: ``ValidationError/Reason/negative``, or
  ///   ``ValidationError/Reason/invalidState(_:)`` while the batch holds additive animations.
  public mutating func setAdditiveCapacity(_ capacity: Int) throws(ValidationError) {
    guard capacity >= 0 else {
      throw ValidationError(field: "additiveCapacity", reason: .negative)
    }
    guard additive.count == 0 else {
      throw ValidationError(
        field: "additiveCapacity", reason: .invalidState("the batch holds additive animations"))
    }
    additive = SceneAdditivePool(capacity: capacity)
  }

  /// Retargets `property` of layer `layerID` of instance `id` mid-flight at wall time `time`:
  /// the scalar ``TransitionScene/retarget(_:of:to:at:duration:timingParameters:)`` at the
  /// instance's scene time then (``time(of:at:)``), kept per instance: the instance's rows equal
  /// its scene retargeted by the same calls, sampled on the same clock, within the batch's
  /// `Float` tolerance. The additive animation runs on the instance's scene time (it pauses,
  /// scrubs and reverses with the instance; `duration` is in seconds of scene time), and lasts
  /// until the instance is removed or its clock replaced. `O(1)` plus the instance's earlier
  /// retargets; no allocation once the pool exists (<doc:DrivingAUserInterface#Retargeting-mid-flight>).
  ///
  /// - Parameters:
  ///   - property: a property the batch writes whose planes the scene animates (`position`,
  ///     `opacity`, `bounds`, `transform`, …; not a transform sub-path).
  ///   - layerID: the layer of the instance's scene.
  ///   - id: the instance.
  ///   - value: the new target, of the property's kind.
  ///   - time: wall time of the call, seconds; not before the instance's latest call.
  ///   - duration: seconds of scene time, ending by the scene's end; `nil`: the rest of the scene.
  ///   - timingParameters: the curve of the offset from the old target to the new one.
  /// - Throws: ``ValidationError``: `"instance"` ``ValidationError/Reason/unknown(_:)``, or
  ///   ``ValidationError/Reason/invalidState(_:)`` when the instance shows a completion state;
  ///   `"time"` not finite or ``ValidationError/Reason/decreasing``; `"layer"` unknown;
  ///   `"keyPath"` for a property the batch does not write or the scene does not animate on
  ///   that layer; `"additive"` ``ValidationError/Reason/invalidState(_:)`` when the pool is
  ///   full (``additiveCapacity``); `"toValue"` ``ValidationError/Reason/outOfRange(lower:upper:)``
  ///   when the target or its offset from the old one does not fit in `Float`; what the scalar
  ///   retarget throws (`"time"`, `"toValue"`, `"duration"`). The batch is unchanged on error.
  public mutating func retarget(
    _ property: LayerProperty, of layerID: String, in id: Int, to value: AnimationValue,
    at time: Double, duration: Double? = nil,
    timingParameters: TimingCurveProvider = .easeInEaseOut
  ) throws(ValidationError) {
    let (g, k) = try location(id)
    try checkCallTime(time, group: g, slot: k)
    let template = templates[g]
    let scene = template.scene
    guard let layer = scene.model.index(of: layerID) else {
      throw ValidationError(field: "layer", reason: .unknown(layerID))
    }
    try property.checkApplies(to: scene.model.storage[layer])
    let slot = try template.dynamicSlot(of: property, layer: layer, layerID: layerID)
    let now = groups[g].time(k, at: time, duration: scene.duration)
    guard now.completion == nil else {
      throw ValidationError(
        field: "instance", reason: .invalidState("instance \(id) shows a completion state"))
    }
    guard now.time < scene.duration else {
      throw ValidationError(field: "time", reason: .outOfRange(lower: 0, upper: scene.duration))
    }
    let old = settledValue(of: property, layer: layer, group: g, slot: k)
    let animation = try LayerAnimation.retargeting(
      property, from: old, to: value, at: now.time,
      duration: duration ?? (scene.duration - now.time),
      timingParameters: timingParameters, sceneDuration: scene.duration)
    try Self.checkFitsFloat(value, offsetOf: animation)
    additive.prepare()
    guard let e = additive.free.popLast() else {
      throw ValidationError(
        field: "additive",
        reason: .invalidState("the batch holds \(additive.capacity) additive animations already"))
    }
    let compiled = CompiledAnimation(animation)
    let timing = animation.timing
    additive.entries[Int(e)] = SceneAdditiveAnimation(
      animation: compiled, settled: compiled.settledValue ?? old.additiveIdentity,
      begin: timing.beginTime,
      end: timing.beginTime + (timing.activeDuration - timing.timeOffset) / timing.speed,
      layer: Int32(layer), slot: slot.slot, channels: slot.channels,
      finishedChannels: template.finishedChannels(layerID: layerID, property: property), next: -1)
    appendAdditive(e, group: g, slot: k)
    groups[g].lastCall[k] = time
  }

  /// Throws `"toValue"` ``ValidationError/Reason/outOfRange(lower:upper:)`` unless the new target
  /// and the offset the retargeting `animation` runs to (its `toValue`) fit in `Float`, which the
  /// batch evaluates them in (the range a template's values have).
  static func checkFitsFloat(_ value: AnimationValue, offsetOf animation: LayerAnimation)
    throws(ValidationError)
  {
    let limit = Double(Float.greatestFiniteMagnitude)
    let fits = { (v: Double) in abs(v) <= limit }
    let offset: AnimationValue? =
      switch animation.content {
      case .basic(_, let to), .spring(_, _, let to): to
      case .keyframes, .path: nil
      }
    guard value.allAdditiveComponents(fits), offset?.allAdditiveComponents(fits) ?? true else {
      throw ValidationError(field: "toValue", reason: .outOfRange(lower: -limit, upper: limit))
    }
  }

  /// Links entry `e` at the end of the list of instance `(g, k)`.
  private mutating func appendAdditive(_ e: Int32, group g: Int, slot k: Int) {
    let head = groups[g].additiveHeads[k]
    if head < 0 {
      groups[g].additiveHeads[k] = e
    } else {
      var last = head
      while let next = additive.entries[Int(last)]?.next, next >= 0 { last = next }
      additive.entries[Int(last)]?.next = e
    }
    groups[g].additiveCount += 1
  }

  /// The target `property` of model layer `layer` of instance `(g, k)` heads for: the
  /// template's settled model with the instance's additive animations settled, in order (as
  /// ``TransitionScene/settledModel()`` for the retargeted scene).
  private func settledValue(of property: LayerProperty, layer: Int, group g: Int, slot k: Int)
    -> AnimationValue
  {
    var settled = templates[g].settledModel.storage[layer]
    var e = groups[g].additiveHeads[k]
    while e >= 0, let entry = additive.entries[Int(e)] {
      if Int(entry.layer) == layer {
        entry.animation.animation.property.add(entry.settled, to: &settled)
      }
      e = entry.next
    }
    return property.value(in: settled)
  }
}

extension SceneTemplate {
  /// Throws ``ValidationError`` `"scene"` ``ValidationError/Reason/invalidState(_:)`` when the
  /// scene holds an additive animation (a batch adds those per instance).
  static func checkNoAdditive(_ scene: TransitionScene) throws(ValidationError) {
    for entry in scene.animations.entries where entry.animation.isAdditive {
      throw ValidationError(
        field: "scene",
        reason: .invalidState(
          "\(entry.layerID).\(entry.animation.property.keyPath) is additive; a batch adds "
            + "additive animations per instance (SceneBatch.retarget)"))
    }
  }

  /// The first dynamic slot and channel count of `property` on model layer `layer`.
  ///
  /// - Throws: ``ValidationError`` `"keyPath"` ``ValidationError/Reason/invalidState(_:)`` when
  ///   the batch does not write the property or the scene does not animate its planes.
  func dynamicSlot(of property: LayerProperty, layer: Int, layerID: String)
    throws(ValidationError) -> (slot: Int32, channels: Int32)
  {
    guard let target = planeTarget(property) else {
      throw ValidationError(
        field: "keyPath",
        reason: .invalidState("a batch does not retarget \(property.keyPath)"))
    }
    let base = layer * LayerPlanes.count + target.plane
    let first = program.planeSlots[base]
    for c in 0..<target.channels where program.planeSlots[base + c] != first + Int32(c) {
      throw ValidationError(
        field: "keyPath",
        reason: .invalidState("the scene does not animate \(layerID).\(property.keyPath)"))
    }
    guard first >= 0 else {
      throw ValidationError(
        field: "keyPath",
        reason: .invalidState("the scene does not animate \(layerID).\(property.keyPath)"))
    }
    return (first, Int32(target.channels))
  }

  /// Bit `c` set for each channel of `property` on `layerID` that no finish change writes (the
  /// finished state keeps a retarget's settled offset there, as the scalar finished state
  /// applies the finish changes after it).
  func finishedChannels(layerID: String, property: LayerProperty) -> UInt16 {
    guard let target = planeTarget(property) else { return 0 }
    var mask = UInt16((1 << target.channels) - 1)
    for change in scene.finishChanges {
      guard case .set(let id, let p, _) = change, id == layerID else { continue }
      let written: (plane: Int, channels: Int)?
      if case .transformComponent = p {
        written = (LayerPlanes.transform, 16)
      } else {
        written = planeTarget(p)
      }
      guard let written else { continue }
      for c in 0..<target.channels
      where target.plane + c >= written.plane && target.plane + c < written.plane + written.channels
      {
        mask &= ~(UInt16(1) << c)
      }
    }
    return mask
  }
}

extension SceneLaneGroup {
  /// Adds the instances' additive animations to the dynamic planes: in running lanes each
  /// animation's value at the lane's scene time, in finished lanes its settled value on the
  /// channels no finish change writes, nothing in cancelled lanes (which show the scene at 0,
  /// before any retarget).
  func addAdditive(clocks: SceneLaneClocks, state: Lanes) {
    let additive = clocks.additive
    for l in 0..<valid {
      var e = clocks.group.additiveHeads[first + l]
      guard e >= 0, state[l] != Self.cancelled else { continue }
      let finished = state[l] == Self.finished
      let tau = slot.times[l]
      while e >= 0, let entry = additive.entries[Int(e)] {
        if finished {
          add(entry.settled, entry, lane: l, mask: entry.finishedChannels)
        } else if tau >= entry.end {
          add(entry.settled, entry, lane: l, mask: UInt16.max)
        } else if tau >= entry.begin, let value = entry.animation.value(atParentTime: tau) {
          add(value, entry, lane: l, mask: UInt16.max)
        }
        e = entry.next
      }
    }
  }

  /// Adds `offset` to lane `l` of the entry's planes (``AnimationValue/additive(_:over:)``):
  /// channel `c` when bit `c` of `mask` is set; a transform as a whole.
  @inline(__always)
  private func add(
    _ offset: AnimationValue, _ entry: SceneAdditiveAnimation, lane l: Int, mask: UInt16
  ) {
    let p = slot.dynamic + 16 * Int(entry.slot) + l
    @inline(__always) func bump(_ c: Int, _ v: Double) {
      if mask & (UInt16(1) << c) != 0 { p[16 * c] = Float(Double(p[16 * c]) + v) }
    }
    switch offset {
    case .number(let v): bump(0, v)
    case .point(let v):
      bump(0, v.x)
      bump(1, v.y)
    case .size(let v):
      bump(0, v.width)
      bump(1, v.height)
    case .rect(let v):
      bump(0, v.origin.x)
      bump(1, v.origin.y)
      bump(2, v.size.width)
      bump(3, v.size.height)
    case .transform(let d):
      guard mask & 1 != 0 else { return }
      var b = Transform3D.identity
      for f in 0..<16 { b[f / 4, f % 4] = Double(p[16 * f]) }
      let m = d.concatenating(b)
      for f in 0..<16 { p[16 * f] = Float(m[f / 4, f % 4]) }
    default: break
    }
  }
}

extension SceneBatch {
  /// Frees the additive animations of instance `(g, k)`.
  mutating func releaseAdditive(group g: Int, slot k: Int) {
    // A group without additive animations has no head to read (a cache line saved per call).
    guard groups[g].additiveCount > 0 else { return }
    var e = groups[g].additiveHeads[k]
    guard e >= 0 else { return }
    var n = 0
    while e >= 0 {
      n += 1
      e = additive.entries[Int(e)]?.next ?? -1
    }
    additive.release(groups[g].additiveHeads[k])
    groups[g].additiveHeads[k] = -1
    groups[g].additiveCount -= n
  }
}
