/// What a layer draws besides the `CALayer` basics (background, contents, border, shadow): Core
/// Animation's layer class, with the properties that class adds. One layer has one kind, fixed
/// when it is made.
public enum LayerKind: Hashable, Sendable {
  /// `CALayer`: background, contents, border and shadow only.
  case plain
  /// `CATextLayer`: text laid out in the bounds.
  case text(TextLayerProperties)
  /// `CAShapeLayer`: a filled and stroked path.
  case shape(ShapeLayerProperties)
  /// `CAGradientLayer`: a colour gradient filling the bounds.
  case gradient(GradientLayerProperties)

  /// The Core Animation class name: `CALayer`, `CATextLayer`, `CAShapeLayer` or
  /// `CAGradientLayer`.
  public var className: String { tag.className }

  /// The kind without its properties.
  var tag: LayerKindTag {
    switch self {
    case .plain: .plain
    case .text: .text
    case .shape: .shape
    case .gradient: .gradient
    }
  }

  /// Throws the properties' first unusable value (``TextLayerProperties/validate()``,
  /// ``ShapeLayerProperties/validate()``, ``GradientLayerProperties/validate()``).
  public func validate() throws(ValidationError) {
    switch self {
    case .plain: break
    case .text(let properties): try properties.validate()
    case .shape(let properties): try properties.validate()
    case .gradient(let properties): try properties.validate()
    }
  }

  /// The presented form: each kind's values clamped as documented on its properties.
  var presented: LayerKind {
    switch self {
    case .plain: .plain
    case .text(let properties): .text(properties.presented)
    case .shape(let properties): .shape(properties.presented)
    case .gradient(let properties): .gradient(properties.presented)
    }
  }
}

/// A ``LayerKind`` without its properties: which class a key path belongs to.
enum LayerKindTag: Hashable, Sendable {
  case plain, text, shape, gradient

  var className: String {
    switch self {
    case .plain: "CALayer"
    case .text: "CATextLayer"
    case .shape: "CAShapeLayer"
    case .gradient: "CAGradientLayer"
    }
  }
}

extension Layer {
  /// The text layer properties, or `CATextLayer`'s defaults for another kind.
  var textProperties: TextLayerProperties {
    if case .text(let properties) = kind { properties } else { TextLayerProperties() }
  }

  /// The shape layer properties, or `CAShapeLayer`'s defaults for another kind.
  var shapeProperties: ShapeLayerProperties {
    if case .shape(let properties) = kind { properties } else { ShapeLayerProperties() }
  }

  /// The gradient layer properties, or `CAGradientLayer`'s defaults for another kind.
  var gradientProperties: GradientLayerProperties {
    if case .gradient(let properties) = kind { properties } else { GradientLayerProperties() }
  }
}
