extension AnimationValue {
  /// The kinds an additive animation (``LayerAnimation/isAdditive``) can animate: numbers,
  /// points, sizes, rectangles (channel by channel) and transforms (by concatenation).
  public static let additiveKinds: Set<Kind> = [.number, .point, .size, .rect, .transform]

  /// `offset` added to `base` (two values of one kind, ``additiveKinds``): `base + offset`
  /// channel by channel, and for transforms `offset · base` (`offset.concatenating(base)`, row
  /// vectors: the offset is applied first, in the layer's own space, then the value beneath).
  /// Other kinds, or kinds that differ, give `base`.
  public static func additive(_ offset: AnimationValue, over base: AnimationValue)
    -> AnimationValue
  {
    switch (offset, base) {
    case (.number(let d), .number(let b)): .number(b + d)
    case (.point(let d), .point(let b)): .point(Point(x: b.x + d.x, y: b.y + d.y))
    case (.size(let d), .size(let b)):
      .size(Size(width: b.width + d.width, height: b.height + d.height))
    case (.rect(let d), .rect(let b)):
      .rect(
        Rect(
          x: b.origin.x + d.origin.x, y: b.origin.y + d.origin.y,
          width: b.size.width + d.size.width, height: b.size.height + d.size.height))
    case (.transform(let d), .transform(let b)): .transform(d.concatenating(b))
    default: base
    }
  }

  /// The offset that takes `old` to `new` under ``additive(_:over:)``: `new − old` channel by
  /// channel, `new · old⁻¹` for transforms.
  ///
  /// - Throws: ``ValidationError`` on `field`: ``ValidationError/Reason/singular`` when `old` is
  ///   a transform with no inverse; ``ValidationError/Reason/invalidState(_:)`` for kinds that
  ///   differ or are not in ``additiveKinds``.
  public static func additiveOffset(
    from old: AnimationValue, to new: AnimationValue, field: String = "toValue"
  ) throws(ValidationError) -> AnimationValue {
    guard old.kind == new.kind, additiveKinds.contains(old.kind) else {
      throw ValidationError(
        field: field,
        reason: .invalidState(
          "\(new.kind.rawValue) values do not add to \(old.kind.rawValue) values"))
    }
    if case .transform(let a) = old, case .transform(let b) = new {
      guard let inverse = a.inverted() else {
        throw ValidationError(field: field, reason: .singular)
      }
      return .transform(b.concatenating(inverse))
    }
    return difference(new, old)
  }

  /// The offset that changes nothing under ``additive(_:over:)``, of this value's kind: zero
  /// channels, the identity transform.
  public var additiveIdentity: AnimationValue {
    if case .transform = self { return .transform(.identity) }
    return AnimationValue.difference(self, self)
  }
}

extension LayerProperty {
  /// Adds `offset` to this property of `layer` (``AnimationValue/additive(_:over:)``); an offset
  /// of another kind than the property's changes nothing.
  func add(_ offset: AnimationValue, to layer: inout Layer) {
    guard offset.kind == valueKind else { return }
    // The kinds match, so setting cannot fail.
    try? set(AnimationValue.additive(offset, over: value(in: layer)), in: &layer)
  }
}

extension LayerAnimation {
  /// The additive animation's own checks (``isAdditive``).
  func validateAdditive() throws(ValidationError) {
    guard AnimationValue.additiveKinds.contains(property.valueKind) else {
      throw ValidationError(
        field: "isAdditive",
        reason: .invalidState(
          "\(property.keyPath) holds a \(property.valueKind.rawValue), which does not add"))
    }
    switch content {
    case .basic, .spring: break
    case .keyframes, .path:
      throw ValidationError(
        field: "isAdditive",
        reason: .invalidState("additive animations have basic or spring content"))
    }
  }
}

extension CompiledAnimation {
  /// The value an additive animation keeps once its active interval is over (the end of its
  /// last iteration, as a forwards fill shows it), or `nil` when it never ends in parent time
  /// (an infinite duration, a speed `≤ 0`) or shows nothing then (fill mode without
  /// `forwards`).
  var settledValue: AnimationValue? {
    let timing = animation.timing
    guard timing.speed > 0 else { return nil }
    let end = timing.beginTime + (timing.activeDuration - timing.timeOffset) / timing.speed
    guard end.isFinite else { return nil }
    return value(atParentTime: end)
  }
}
