/// The animations attached to the layers of a tree, in the order they were added, and the
/// presentation they produce: Core Animation's render tree.
///
/// `presentation(of:at:)` starts from the model values and writes each animation's presented
/// value over them in the order they were added, so a later animation of the same property wins,
/// as a later entry in a layer's animation list does in Core Animation; only a backwards fill
/// (the `before` phase) never covers an earlier animation of that property that already shows. Animations of layers that
/// are not in the tree at that time are skipped (a transition may remove a layer mid-way);
/// ``validate(against:)`` checks every layer id once up front. An additive animation
/// (``LayerAnimation/isAdditive``) adds its value to what is presented beneath it when it is
/// written, in the same order.
public struct AnimationSet: Sendable {
  /// One animation and the id of the layer it animates.
  public struct Entry: Equatable, Sendable {
    /// The animated layer's id.
    public var layerID: String
    /// The animation.
    public var animation: LayerAnimation

    /// Attaches `animation` to the layer `layerID`.
    public init(layerID: String, animation: LayerAnimation) {
      self.layerID = layerID
      self.animation = animation
    }
  }

  /// The animations in the order they were added.
  public private(set) var entries: [Entry] = []
  private var compiled: [CompiledAnimation] = []

  /// An empty set.
  public init() {}

  /// A set holding `entries` in order.
  public init(_ entries: [Entry]) {
    for entry in entries { add(entry.animation, to: entry.layerID) }
  }

  /// Adds `animation` for the layer `layerID` (CALayer `add(_:forKey:)`), after the others.
  public mutating func add(_ animation: LayerAnimation, to layerID: String) {
    entries.append(Entry(layerID: layerID, animation: animation))
    compiled.append(CompiledAnimation(animation))
  }

  /// Removes every animation of the layers in `layerIDs` (CALayer `removeAllAnimations()` on
  /// each), keeping the others in order.
  public mutating func removeAll(ofLayers layerIDs: Set<String>) {
    let keep = entries.indices.filter { !layerIDs.contains(entries[$0].layerID) }
    entries = keep.map { entries[$0] }
    compiled = keep.map { compiled[$0] }
  }

  /// Appends every animation of `other`, after these.
  public mutating func append(contentsOf other: AnimationSet) {
    entries += other.entries
    compiled += other.compiled
  }

  /// The latest parent time at which an animation's active interval ends, in seconds; 0 when
  /// empty.
  ///
  /// With speed `s > 0` the local time `(t − beginTime)·s + timeOffset` reaches the active
  /// duration `D` at `t = beginTime + (D − timeOffset)/s`. Animations that never end in parent
  /// time (an infinite duration, speed ≤ 0, which runs backwards or stands still) are skipped.
  public var endTime: Double {
    var end = 0.0
    for entry in entries {
      let t = entry.animation.timing
      guard t.speed > 0 else { continue }
      let finish = t.beginTime + (t.activeDuration - t.timeOffset) / t.speed
      if finish.isFinite { end = max(end, finish) }
    }
    return end
  }

  /// Throws ``ValidationError/Reason/unknown(_:)`` on field `"animations.layer"` (with the entry
  /// index) for an animation whose layer id is not in `tree`, and
  /// ``ValidationError/Reason/invalidState(_:)`` on `"animations.keyPath"` for one that animates
  /// a property of another layer class (``LayerProperty/checkApplies(to:)``: `strokeEnd` of a
  /// text layer).
  public func validate(against tree: LayerTree) throws(ValidationError) {
    for (i, entry) in entries.enumerated() {
      guard let index = tree.index(of: entry.layerID) else {
        throw ValidationError(field: "animations.layer", index: i, reason: .unknown(entry.layerID))
      }
      do { try entry.animation.property.checkApplies(to: tree.storage[index]) } catch {
        throw ValidationError(field: "animations.keyPath", index: i, reason: error.reason)
      }
    }
  }

  /// The presentation tree at parent time `t` (seconds): `model` with every animation's presented
  /// value written over the animated property.
  ///
  /// A path animation with a rotation mode (``KeyframePathTrack/rotationMode``) also turns its
  /// layer: once every animation is written, the layer's presented transform is followed by
  /// `Rz(θ)` about its anchor point (`transform · Rz(θ)`, row vectors), θ the path's angle; when
  /// several such animations show on one layer, the last one's angle is used.
  public func presentation(of model: LayerTree, at t: Double) -> LayerTree {
    var rates: PresentationRates? = nil
    return presentation(of: model, at: t, rates: &rates)
  }

  /// ``presentation(of:at:)``, and when `rates` is set, every written geometry property's time
  /// derivative (``CompiledAnimation/rate(atParentTime:)``) recorded in it, per layer index.
  func presentation(of model: LayerTree, at t: Double, rates: inout PresentationRates?)
    -> LayerTree
  {
    var tree = model
    var written = Set<Written>()
    var rotations: [(index: Int, angle: Double)] = []
    for (number, (entry, animation)) in zip(entries, compiled).enumerated() {
      guard let index = tree.index(of: entry.layerID),
        let (eased, phase) = animation.eased(atParentTime: t)
      else { continue }
      if entry.animation.isAdditive {
        addAdditive(animation, number: number, eased: eased, to: &tree, at: index, rates: &rates, t)
        continue
      }
      // A backwards fill does not cover an earlier animation of the same property that is
      // already showing: chained UIView animations (x 0 → 100 over [0, 0.5), then 100 → 200
      // from 0.5) show each curve in its own interval, as UIKit's additive animations do.
      let key = Written(layer: index, keyPath: entry.animation.property.keyPath)
      if phase == .before, written.contains(key) { continue }
      written.insert(key)
      // A validated animation's value kind always matches its property, so this cannot throw.
      let before = phase == .before
      // The layer before this animation's value, which its rate reads (copied only for rates).
      let base = rates == nil ? nil : tree.storage[index]
      try? entry.animation.property.set(
        animation.value(atEased: eased, beforeFlag: before), in: &tree.storage[index])
      if let base {
        rates?.record(animation, number: number, of: base, at: index, time: t)
      }
      if let angle = animation.rotation(atEased: eased, beforeFlag: before) {
        rates?.markUnsupported(number, "the rotation of a path animation")
        rotations.removeAll { $0.index == index }
        rotations.append((index, angle))
      }
    }
    for (index, angle) in rotations {
      tree.storage[index].transform = tree.storage[index].transform.concatenating(
        .makeRotation(by: angle, x: 0, y: 0, z: 1))
    }
    return tree
  }
}

extension AnimationSet {
  /// Adds additive animation `animation`'s value at eased progress `eased` to the presented
  /// property of layer `index` (``AnimationValue/additive(_:over:)``), and its rate to `rates`.
  private func addAdditive(
    _ animation: CompiledAnimation, number: Int, eased: Double, to tree: inout LayerTree,
    at index: Int, rates: inout PresentationRates?, _ t: Double
  ) {
    let property = animation.animation.property
    let base = property.value(in: tree.storage[index])
    let offset = animation.value(atEased: eased)
    property.add(offset, to: &tree.storage[index])
    if rates != nil {
      rates?.recordAdditive(
        animation, number: number, offset: offset, base: base, at: index, time: t)
    }
  }

  /// `model` with every additive animation's settled value (``CompiledAnimation/settledValue``)
  /// added, in order: what the additive animations leave once they are all over.
  func settling(_ model: LayerTree) -> LayerTree {
    var tree = model
    for (entry, animation) in zip(entries, compiled) where entry.animation.isAdditive {
      guard let index = tree.index(of: entry.layerID), let offset = animation.settledValue
      else { continue }
      entry.animation.property.add(offset, to: &tree.storage[index])
    }
    return tree
  }

  /// Whether any animation is additive.
  var hasAdditive: Bool { entries.contains { $0.animation.isAdditive } }
}

/// A (layer, key path) pair an animation has written in one presentation.
private struct Written: Hashable {
  var layer: Int
  var keyPath: String
}
