/// A value a layer property holds and an animation interpolates: the `fromValue`, `toValue` and
/// `values` of Core Animation's property animations.
public enum AnimationValue: Hashable, Sendable, CustomStringConvertible {
  /// A scalar: opacity, zPosition, `position.x`, `transform.rotation.z` (radians), …
  case number(Double)
  /// A point: `position`, `anchorPoint`.
  case point(Point)
  /// A size: `bounds.size`.
  case size(Size)
  /// A rectangle: `bounds`.
  case rect(Rect)
  /// A 4×4 transform: `transform`, `sublayerTransform` (interpolated by decomposition).
  case transform(Transform3D)
  /// A colour: `backgroundColor`, `fillColor`, `foregroundColor`, …
  case color(RGBAColor)
  /// A flag: `masksToBounds`. Not animatable: a model change only.
  case boolean(Bool)
  /// Corners: `maskedCorners`. Not animatable: a model change only.
  case cornerMask(CornerMask)
  /// A path: `CAShapeLayer.path` (interpolated point by point between paths of the same
  /// elements).
  case path(BezierPath)
  /// A list of colours: `CAGradientLayer.colors` (interpolated colour by colour between lists
  /// of the same length).
  case colorList([RGBAColor])
  /// A list of numbers: `CAGradientLayer.locations` (interpolated entry by entry between lists of
  /// the same length).
  case numberList([Double])

  /// The kind of value, without its payload.
  public var kind: Kind {
    switch self {
    case .number: .number
    case .point: .point
    case .size: .size
    case .rect: .rect
    case .transform: .transform
    case .color: .color
    case .boolean: .boolean
    case .cornerMask: .cornerMask
    case .path: .path
    case .colorList: .colorList
    case .numberList: .numberList
    }
  }

  /// The kinds of ``AnimationValue``; each ``LayerProperty`` holds exactly one kind.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// ``AnimationValue/number(_:)``, and so on for each case of the same name.
    case number, point, size, rect, transform, color, path, colorList, numberList
    /// ``AnimationValue/boolean(_:)`` and ``AnimationValue/cornerMask(_:)``: the kinds of the
    /// properties that change without animating.
    case boolean, cornerMask
  }

  /// Throws ``ValidationError/Reason/notFinite`` (naming `field` and the channel index) when any
  /// component is NaN or infinite.
  public func validate(field: String) throws(ValidationError) {
    for (i, v) in channels.enumerated() { try Validate.finite(v, field, index: i) }
  }

  /// The value's numbers: a number's one, a point's `x, y`, a size's `width, height`, a
  /// rectangle's `x, y, width, height`, a transform's 16 fields (`m11 … m44`), a colour's
  /// `r, g, b, a`, a path's or a list's ``InterpolatableList/channels``.
  package var channels: [Double] {
    switch self {
    case .number(let v): [v]
    case .point(let p): p.channels
    case .size(let s): s.channels
    case .rect(let r): r.channels
    case .transform(let t): t.fields
    case .color(let c): c.channels
    case .path(let p): p.channels
    case .colorList(let list): list.channels
    case .numberList(let list): list
    case .boolean(let b): [b ? 1 : 0]
    case .cornerMask(let m): [Double(m.rawValue)]
    }
  }

  /// A value of this kind (and layout) from `channels` in ``channels``' layout (a colour is
  /// clamped); this value when they make none (a wrong count, a path point not finite).
  package func withChannels(_ channels: [Double]) -> AnimationValue {
    switch self {
    case .number: .number(channels[0])
    case .point: .point(Point(channels: channels[...]))
    case .size: .size(Size(channels: channels[...]))
    case .rect: .rect(Rect(channels: channels[...]))
    case .transform: .transform((try? Transform3D(fields: channels)) ?? .identity)
    case .color: .color(RGBAColor(channels: channels[...]))
    case .path(let p): p.replacingChannels(channels[...]).map { .path($0) } ?? self
    case .colorList(let l): l.replacingChannels(channels[...]).map { .colorList($0) } ?? self
    case .numberList(let l): l.replacingChannels(channels[...]).map { .numberList($0) } ?? self
    case .boolean: .boolean(channels[0] != 0)
    case .cornerMask:
      .cornerMask(
        CornerMask(rawValue: channels[0] >= 0 && channels[0] <= 15 ? UInt(channels[0]) : 0))
    }
  }

  /// Why `other` cannot be interpolated with this value (the element index, when one element
  /// differs, and the reason): for two paths or two lists whose layouts differ
  /// (``InterpolatableList/layoutMismatch(with:)``); `nil` for every other pair.
  public func layoutMismatch(with other: AnimationValue) -> (
    index: Int?, reason: ValidationError.Reason
  )? {
    switch (self, other) {
    case (.path(let a), .path(let b)): a.layoutMismatch(with: b)
    case (.colorList(let a), .colorList(let b)): a.layoutMismatch(with: b)
    case (.numberList(let a), .numberList(let b)): a.layoutMismatch(with: b)
    default: nil
    }
  }

  /// The value as text, for messages.
  public var description: String {
    switch self {
    case .number(let v): "\(v)"
    case .point(let p): "\(p)"
    case .size(let s): "\(s)"
    case .rect(let r): "\(r)"
    case .transform(let t): "\(t.fields)"
    case .color(let c): "\(c)"
    case .boolean(let b): "\(b)"
    case .cornerMask(let m): "\(m)"
    case .path(let p): "path of \(p.elements.count) elements"
    case .colorList(let list): "\(list)"
    case .numberList(let list): "\(list)"
    }
  }
}
