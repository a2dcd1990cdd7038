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
  /// A colour: `backgroundColor`.
  case color(RGBAColor)
  /// A flag: `masksToBounds`. Not animatable: a model change only.
  case boolean(Bool)
  /// Corners: `maskedCorners`. Not animatable: a model change only.
  case cornerMask(CornerMask)

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
    }
  }

  /// The kinds of ``AnimationValue``; each ``LayerProperty`` holds exactly one kind.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// ``AnimationValue/number(_:)``, and so on for each case of the same name.
    case number, point, size, rect, transform, color
    /// ``AnimationValue/boolean(_:)`` and ``AnimationValue/cornerMask(_:)``: the kinds of the
    /// properties that change without animating.
    case boolean, cornerMask
  }

  /// Throws ``ValidationError/Reason/notFinite`` (naming `field` and the channel index) when any
  /// component is NaN or infinite.
  public func validate(field: String) throws(ValidationError) {
    let channels: [Double]
    switch self {
    case .number(let v): channels = [v]
    case .point(let p): channels = p.channels
    case .size(let s): channels = s.channels
    case .rect(let r): channels = r.channels
    case .transform(let t): channels = t.fields
    case .color(let c): channels = c.channels
    case .boolean, .cornerMask: channels = []
    }
    for (i, v) in channels.enumerated() { try Validate.finite(v, field, index: i) }
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
    }
  }
}
