/// An animatable layer property, named by its Core Animation key path.
///
/// The appearance properties (`cornerRadius`, `borderWidth`, `borderColor`, `shadowOpacity`,
/// `shadowRadius`, `shadowOffset`, `shadowColor`) change neither matrices nor opacities: they
/// reach the sampled output (``LayerSample``) for renderers, and ``SceneBatch``, which computes
/// matrices and opacities, rejects animations and changes of them (as it does for the transform
/// sub-paths it cannot batch) and ignores their static values.
///
/// `masksToBounds` and `maskedCorners` are layer properties Core Animation does not animate: they
/// can be set (``SceneBuilder/set(_:of:to:)``, model changes, inside animation blocks, where they
/// take effect at once) but not animated (``isAnimatable``).
///
/// Every property holds one ``AnimationValue/Kind``. Sub-paths into a transform
/// (`transform.rotation.z`, `transform.scale`, …) animate the **scalar** component: the
/// presented transform is the model transform with that component replaced
/// (``TransformKeyPath/applying(_:to:)``), so a rotation from 0 to 2π spins a full turn.
public enum LayerProperty: Hashable, Sendable, CustomStringConvertible {
  /// `opacity`, a number in [0, 1] (presented values are clamped).
  case opacity
  /// `position`, a point in the superlayer's coordinates (points).
  case position
  /// `position.x` (points).
  case positionX
  /// `position.y` (points).
  case positionY
  /// `zPosition` (points; also orders siblings).
  case zPosition
  /// `bounds`, a rectangle in the layer's own coordinates (points).
  case bounds
  /// `bounds.size` (points).
  case boundsSize
  /// `anchorPoint`, in unit coordinates of the bounds.
  case anchorPoint
  /// `transform`, interpolated by decomposition (``TransformInterpolator``).
  case transform
  /// `sublayerTransform`, interpolated by decomposition.
  case sublayerTransform
  /// A scalar component of `transform` (`transform.rotation.z`, `transform.scale.x`, …).
  case transformComponent(TransformKeyPath)
  /// `backgroundColor`, an RGBA colour (components in [0, 1]).
  case backgroundColor
  /// `cornerRadius` (points).
  case cornerRadius
  /// `borderWidth` (points).
  case borderWidth
  /// `borderColor`, an RGBA colour.
  case borderColor
  /// `shadowOpacity` (unitless; presented clamped to [0, 1]).
  case shadowOpacity
  /// `shadowRadius` (points).
  case shadowRadius
  /// `shadowOffset`, a size (points).
  case shadowOffset
  /// `shadowColor`, an RGBA colour.
  case shadowColor
  /// `masksToBounds` (UIView's `clipsToBounds`), a boolean. Not animatable.
  case masksToBounds
  /// `maskedCorners`, a ``CornerMask``. Not animatable.
  case maskedCorners

  /// Parses a Core Animation key path.
  ///
  /// - Throws: ``ValidationError`` on field `"keyPath"` with ``ValidationError/Reason/unknown(_:)``
  ///   for a key path this library does not know.
  public init(keyPath: String) throws(ValidationError) {
    switch keyPath {
    case "opacity": self = .opacity
    case "position": self = .position
    case "position.x": self = .positionX
    case "position.y": self = .positionY
    case "zPosition": self = .zPosition
    case "bounds": self = .bounds
    case "bounds.size": self = .boundsSize
    case "anchorPoint": self = .anchorPoint
    case "transform": self = .transform
    case "sublayerTransform": self = .sublayerTransform
    case "backgroundColor": self = .backgroundColor
    case "cornerRadius": self = .cornerRadius
    case "borderWidth": self = .borderWidth
    case "borderColor": self = .borderColor
    case "shadowOpacity": self = .shadowOpacity
    case "shadowRadius": self = .shadowRadius
    case "shadowOffset": self = .shadowOffset
    case "shadowColor": self = .shadowColor
    case "masksToBounds": self = .masksToBounds
    case "maskedCorners": self = .maskedCorners
    default:
      guard let component = TransformKeyPath(rawValue: keyPath) else {
        throw ValidationError(field: "keyPath", reason: .unknown(keyPath))
      }
      self = .transformComponent(component)
    }
  }

  /// The Core Animation key path, e.g. `"position.x"` or `"transform.rotation.z"`.
  public var keyPath: String {
    switch self {
    case .opacity: "opacity"
    case .position: "position"
    case .positionX: "position.x"
    case .positionY: "position.y"
    case .zPosition: "zPosition"
    case .bounds: "bounds"
    case .boundsSize: "bounds.size"
    case .anchorPoint: "anchorPoint"
    case .transform: "transform"
    case .sublayerTransform: "sublayerTransform"
    case .transformComponent(let component): component.rawValue
    case .backgroundColor: "backgroundColor"
    case .cornerRadius: "cornerRadius"
    case .borderWidth: "borderWidth"
    case .borderColor: "borderColor"
    case .shadowOpacity: "shadowOpacity"
    case .shadowRadius: "shadowRadius"
    case .shadowOffset: "shadowOffset"
    case .shadowColor: "shadowColor"
    case .masksToBounds: "masksToBounds"
    case .maskedCorners: "maskedCorners"
    }
  }

  /// Whether Core Animation animates the property: `false` for ``masksToBounds`` and
  /// ``maskedCorners``, whose changes take effect at once (an animation of them is rejected).
  public var isAnimatable: Bool {
    switch self {
    case .masksToBounds, .maskedCorners: false
    default: true
    }
  }

  /// The key path.
  public var description: String { keyPath }

  /// The kind of value the property holds.
  public var valueKind: AnimationValue.Kind {
    switch self {
    case .opacity, .positionX, .positionY, .zPosition, .transformComponent, .cornerRadius,
      .borderWidth, .shadowOpacity, .shadowRadius:
      .number
    case .position, .anchorPoint: .point
    case .bounds: .rect
    case .boundsSize, .shadowOffset: .size
    case .transform, .sublayerTransform: .transform
    case .backgroundColor, .borderColor, .shadowColor: .color
    case .masksToBounds: .boolean
    case .maskedCorners: .cornerMask
    }
  }

  /// The property's current (model) value on `layer`.
  public func value(in layer: Layer) -> AnimationValue {
    switch self {
    case .opacity: .number(layer.opacity)
    case .position: .point(layer.position)
    case .positionX: .number(layer.position.x)
    case .positionY: .number(layer.position.y)
    case .zPosition: .number(layer.zPosition)
    case .bounds: .rect(layer.bounds)
    case .boundsSize: .size(layer.bounds.size)
    case .anchorPoint: .point(layer.anchorPoint)
    case .transform: .transform(layer.transform)
    case .sublayerTransform: .transform(layer.sublayerTransform)
    case .transformComponent(let component):
      .number((try? component.value(in: layer.transform)) ?? 0)
    case .backgroundColor: .color(layer.backgroundColor)
    case .cornerRadius: .number(layer.cornerRadius)
    case .borderWidth: .number(layer.borderWidth)
    case .borderColor: .color(layer.borderColor)
    case .shadowOpacity: .number(layer.shadowOpacity)
    case .shadowRadius: .number(layer.shadowRadius)
    case .shadowOffset: .size(layer.shadowOffset)
    case .shadowColor: .color(layer.shadowColor)
    case .masksToBounds: .boolean(layer.masksToBounds)
    case .maskedCorners: .cornerMask(layer.maskedCorners)
    }
  }

  /// Writes `value` into the property of `layer`.
  ///
  /// - Throws: ``ValidationError/Reason/invalidState(_:)`` on field `"keyPath"` when the value's
  ///   kind is not the property's ``valueKind``.
  public func set(_ value: AnimationValue, in layer: inout Layer) throws(ValidationError) {
    switch (self, value) {
    case (.opacity, .number(let v)): layer.opacity = v
    case (.position, .point(let p)): layer.position = p
    case (.positionX, .number(let v)): layer.position.x = v
    case (.positionY, .number(let v)): layer.position.y = v
    case (.zPosition, .number(let v)): layer.zPosition = v
    case (.bounds, .rect(let r)): layer.bounds = r
    case (.boundsSize, .size(let s)): layer.bounds.size = s
    case (.anchorPoint, .point(let p)): layer.anchorPoint = p
    case (.transform, .transform(let t)): layer.transform = t
    case (.sublayerTransform, .transform(let t)): layer.sublayerTransform = t
    case (.transformComponent(let component), .number(let v)):
      layer.transform = try component.applying(v, to: layer.transform)
    case (.backgroundColor, .color(let c)): layer.backgroundColor = c
    case (.cornerRadius, .number(let v)): layer.cornerRadius = v
    case (.borderWidth, .number(let v)): layer.borderWidth = v
    case (.borderColor, .color(let c)): layer.borderColor = c
    case (.shadowOpacity, .number(let v)): layer.shadowOpacity = v
    case (.shadowRadius, .number(let v)): layer.shadowRadius = v
    case (.shadowOffset, .size(let v)): layer.shadowOffset = v
    case (.shadowColor, .color(let c)): layer.shadowColor = c
    case (.masksToBounds, .boolean(let b)): layer.masksToBounds = b
    case (.maskedCorners, .cornerMask(let m)): layer.maskedCorners = m
    default:
      throw ValidationError(
        field: "keyPath",
        reason: .invalidState(
          "\(keyPath) holds a \(valueKind.rawValue), not a \(value.kind.rawValue)"))
    }
  }
}
