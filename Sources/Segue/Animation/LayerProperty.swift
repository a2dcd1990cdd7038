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
/// The content properties (`contentsRect`, `contentsCenter`, `contentsScale`, and those of text,
/// shape and gradient layers: `fontSize`, `strokeEnd`, `path`, `colors`, …) likewise reach
/// ``LayerSample`` only; ``SceneBatch`` skips their animations and changes (as it does
/// `backgroundColor`'s). A property of `CATextLayer`, `CAShapeLayer` or `CAGradientLayer` applies
/// only to a layer of that ``LayerKind``: setting or animating it on another layer is an error.
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

  /// `contentsRect`, a rectangle in the unit space of the contents image.
  case contentsRect
  /// `contentsCenter`, a rectangle in the unit space of the `contentsRect` part.
  case contentsCenter
  /// `contentsScale` (image pixels per point).
  case contentsScale
  /// `CATextLayer.fontSize` (points).
  case fontSize
  /// `CATextLayer.foregroundColor`, an RGBA colour.
  case foregroundColor
  /// `CAShapeLayer.path`, a path (interpolated point by point; same elements at both ends).
  case path
  /// `CAShapeLayer.fillColor`, an RGBA colour (a `nil` fill reads as clear).
  case fillColor
  /// `CAShapeLayer.strokeColor`, an RGBA colour (a `nil` stroke reads as clear).
  case strokeColor
  /// `CAShapeLayer.lineWidth` (points).
  case lineWidth
  /// `CAShapeLayer.miterLimit` (a multiple of the line width).
  case miterLimit
  /// `CAShapeLayer.lineDashPhase` (points).
  case lineDashPhase
  /// `CAShapeLayer.strokeStart` (a fraction of the path's length).
  case strokeStart
  /// `CAShapeLayer.strokeEnd` (a fraction of the path's length): the drawing-on animation.
  case strokeEnd
  /// `CAGradientLayer.colors`, a list of colours (same length at both ends).
  case colors
  /// `CAGradientLayer.locations`, a list of numbers (same length at both ends; `nil` reads as
  /// the evenly spaced stops).
  case locations
  /// `CAGradientLayer.startPoint`, unit space of the bounds.
  case startPoint
  /// `CAGradientLayer.endPoint`, unit space of the bounds.
  case endPoint

  /// Parses a Core Animation key path.
  ///
  /// - Throws: ``ValidationError`` on field `"keyPath"`: ``ValidationError/Reason/unknown(_:)``
  ///   for a key path this library does not animate; ``ValidationError/Reason/invalidState(_:)``
  ///   for a layer property Segue does not model (`contentsGravity`, `lineCap`, `string`, …:
  ///   not animatable in Core Animation) and for `contents`, whose cross-fade Segue leaves to two layers.
  public init(keyPath: String) throws(ValidationError) {
    if let property = Self.byKeyPath[keyPath] {
      self = property
      return
    }
    if keyPath == "contents" {
      throw ValidationError(
        field: "keyPath",
        reason: .invalidState(
          "contents is not animated: cross-fade two layers' opacities instead"))
    }
    if Self.notAnimatable.contains(keyPath) {
      throw ValidationError(
        field: "keyPath", reason: .invalidState("\(keyPath) is not animatable"))
    }
    guard let component = TransformKeyPath(rawValue: keyPath) else {
      throw ValidationError(field: "keyPath", reason: .unknown(keyPath))
    }
    self = .transformComponent(component)
  }

  /// Every property but the transform components, by key path.
  private static let byKeyPath: [String: LayerProperty] = {
    let all: [LayerProperty] = [
      .opacity, .position, .positionX, .positionY, .zPosition, .bounds, .boundsSize,
      .anchorPoint, .transform, .sublayerTransform, .backgroundColor, .cornerRadius,
      .borderWidth, .borderColor, .shadowOpacity, .shadowRadius, .shadowOffset, .shadowColor,
      .contentsRect, .contentsCenter, .contentsScale, .fontSize, .foregroundColor, .path,
      .fillColor, .strokeColor, .lineWidth, .miterLimit, .lineDashPhase, .strokeStart,
      .strokeEnd, .colors, .locations, .startPoint, .endPoint, .masksToBounds, .maskedCorners,
    ]
    return Dictionary(uniqueKeysWithValues: all.map { ($0.keyPath, $0) })
  }()

  /// Layer properties Core Animation does not animate.
  private static let notAnimatable: Set<String> = [
    "contentsGravity", "minificationFilter", "magnificationFilter", "string",
    "font", "alignmentMode", "wrapped", "isWrapped", "truncationMode", "fillRule", "lineCap",
    "lineJoin", "lineDashPattern", "type",
  ]

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
    case .contentsRect: "contentsRect"
    case .contentsCenter: "contentsCenter"
    case .contentsScale: "contentsScale"
    case .fontSize: "fontSize"
    case .foregroundColor: "foregroundColor"
    case .path: "path"
    case .fillColor: "fillColor"
    case .strokeColor: "strokeColor"
    case .lineWidth: "lineWidth"
    case .miterLimit: "miterLimit"
    case .lineDashPhase: "lineDashPhase"
    case .strokeStart: "strokeStart"
    case .strokeEnd: "strokeEnd"
    case .colors: "colors"
    case .locations: "locations"
    case .startPoint: "startPoint"
    case .endPoint: "endPoint"
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
      .borderWidth, .shadowOpacity, .shadowRadius, .contentsScale, .fontSize, .lineWidth,
      .miterLimit, .lineDashPhase, .strokeStart, .strokeEnd:
      .number
    case .position, .anchorPoint, .startPoint, .endPoint: .point
    case .bounds, .contentsRect, .contentsCenter: .rect
    case .boundsSize, .shadowOffset: .size
    case .transform, .sublayerTransform: .transform
    case .backgroundColor, .borderColor, .shadowColor, .foregroundColor, .fillColor,
      .strokeColor:
      .color
    case .path: .path
    case .colors: .colorList
    case .locations: .numberList
    case .masksToBounds: .boolean
    case .maskedCorners: .cornerMask
    }
  }

  /// The property's current (model) value on `layer`. A property of another layer class than
  /// the layer's reads as that class's default (`strokeEnd` of a plain layer is 1).
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
    case .contentsRect: .rect(layer.contentsRect)
    case .contentsCenter: .rect(layer.contentsCenter)
    case .contentsScale: .number(layer.contentsScale)
    case .fontSize: .number(layer.textProperties.fontSize)
    case .foregroundColor: .color(layer.textProperties.foregroundColor)
    case .path: .path(layer.shapeProperties.path ?? BezierPath())
    case .fillColor: .color(layer.shapeProperties.fillColor ?? .clear)
    case .strokeColor: .color(layer.shapeProperties.strokeColor ?? .clear)
    case .lineWidth: .number(layer.shapeProperties.lineWidth)
    case .miterLimit: .number(layer.shapeProperties.miterLimit)
    case .lineDashPhase: .number(layer.shapeProperties.lineDashPhase)
    case .strokeStart: .number(layer.shapeProperties.strokeStart)
    case .strokeEnd: .number(layer.shapeProperties.strokeEnd)
    case .colors: .colorList(layer.gradientProperties.colors)
    case .locations: .numberList(layer.gradientProperties.effectiveLocations)
    case .startPoint: .point(layer.gradientProperties.startPoint)
    case .endPoint: .point(layer.gradientProperties.endPoint)
    }
  }

  /// The layer class the property belongs to, when it is not every `CALayer`'s.
  var owner: LayerKindTag {
    switch self {
    case .fontSize, .foregroundColor: .text
    case .path, .fillColor, .strokeColor, .lineWidth, .miterLimit, .lineDashPhase, .strokeStart,
      .strokeEnd:
      .shape
    case .colors, .locations, .startPoint, .endPoint: .gradient
    default: .plain
    }
  }

  /// Throws unless the property applies to `layer`: a text, shape or gradient property needs a
  /// layer of that kind.
  ///
  /// - Throws: ``ValidationError/Reason/invalidState(_:)`` on field `"keyPath"`, naming the class
  ///   the property belongs to and the layer's.
  public func checkApplies(to layer: Layer) throws(ValidationError) {
    let owner = owner
    guard owner != .plain, owner != layer.kind.tag else { return }
    throw ValidationError(
      field: "keyPath",
      reason: .invalidState(
        "\(keyPath) is a \(owner.className) property; layer '\(layer.id)' is a "
          + layer.kind.className))
  }

  /// Writes `value` into the property of `layer`.
  ///
  /// - Throws: ``ValidationError/Reason/invalidState(_:)`` on field `"keyPath"` when the value's
  ///   kind is not the property's ``valueKind``, or the property belongs to another layer class
  ///   (``checkApplies(to:)``).
  public func set(_ value: AnimationValue, in layer: inout Layer) throws(ValidationError) {
    try checkApplies(to: layer)
    guard value.kind == valueKind else {
      throw ValidationError(
        field: "keyPath",
        reason: .invalidState(
          "\(keyPath) holds a \(valueKind.rawValue), not a \(value.kind.rawValue)"))
    }
    switch owner {
    case .plain: try setLayerValue(value, in: &layer)
    case .text:
      guard case .text(var text) = layer.kind else { return }
      setTextValue(value, in: &text)
      layer.kind = .text(text)
    case .shape:
      guard case .shape(var shape) = layer.kind else { return }
      setShapeValue(value, in: &shape)
      layer.kind = .shape(shape)
    case .gradient:
      guard case .gradient(var gradient) = layer.kind else { return }
      setGradientValue(value, in: &gradient)
      layer.kind = .gradient(gradient)
    }
  }

  /// ``set(_:in:)`` for a property every `CALayer` has (the value's kind already checked).
  private func setLayerValue(_ value: AnimationValue, in layer: inout Layer)
    throws(ValidationError)
  {
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
    case (.contentsRect, .rect(let r)): layer.contentsRect = r
    case (.contentsCenter, .rect(let r)): layer.contentsCenter = r
    case (.contentsScale, .number(let v)): layer.contentsScale = v
    default: break
    }
  }

  private func setTextValue(_ value: AnimationValue, in text: inout TextLayerProperties) {
    switch (self, value) {
    case (.fontSize, .number(let v)): text.fontSize = v
    case (.foregroundColor, .color(let c)): text.foregroundColor = c
    default: break
    }
  }

  private func setShapeValue(_ value: AnimationValue, in shape: inout ShapeLayerProperties) {
    switch (self, value) {
    case (.path, .path(let p)): shape.path = p
    case (.fillColor, .color(let c)): shape.fillColor = c
    case (.strokeColor, .color(let c)): shape.strokeColor = c
    case (.lineWidth, .number(let v)): shape.lineWidth = v
    case (.miterLimit, .number(let v)): shape.miterLimit = v
    case (.lineDashPhase, .number(let v)): shape.lineDashPhase = v
    case (.strokeStart, .number(let v)): shape.strokeStart = v
    case (.strokeEnd, .number(let v)): shape.strokeEnd = v
    default: break
    }
  }

  private func setGradientValue(
    _ value: AnimationValue, in gradient: inout GradientLayerProperties
  ) {
    switch (self, value) {
    case (.colors, .colorList(let list)): gradient.colors = list
    case (.locations, .numberList(let list)): gradient.locations = list
    case (.startPoint, .point(let p)): gradient.startPoint = p
    case (.endPoint, .point(let p)): gradient.endPoint = p
    default: break
    }
  }
}
