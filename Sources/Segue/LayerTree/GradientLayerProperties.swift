/// What a `CAGradientLayer` adds to a layer: a colour gradient over its background, filling its
/// (rounded) bounds, with Core Animation's defaults.
///
/// `startPoint` and `endPoint` are in the unit space of the bounds, `(0, 0)` the top-left corner
/// and `(1, 1)` the bottom-right (y-down, as UIKit shows a gradient layer); ``GradientType`` says
/// what they mean for each shape.
public struct GradientLayerProperties: Hashable, Sendable {
  /// `type`; default ``GradientType/axial``.
  public var type: GradientType
  /// `colors`, straight RGBA, one per stop; default empty (Core Animation's `nil`: nothing
  /// drawn). Animatable between lists of the same length.
  public var colors: [RGBAColor]
  /// `locations`, one per colour, or `nil` (the default) for stops spread evenly over
  /// `[0, 1]`. Animatable between lists of the same length.
  public var locations: [Double]?
  /// `startPoint`, unit space of the bounds; default `(0.5, 0)`, the middle of the top edge.
  /// Animatable.
  public var startPoint: Point
  /// `endPoint`; default `(0.5, 1)`, the middle of the bottom edge. Animatable.
  public var endPoint: Point

  /// `CAGradientLayer`'s default `startPoint`.
  public static let defaultStartPoint = Point(x: 0.5, y: 0)
  /// `CAGradientLayer`'s default `endPoint`.
  public static let defaultEndPoint = Point(x: 0.5, y: 1)

  /// Gradient layer properties; what is not given has `CAGradientLayer`'s default.
  public init(
    type: GradientType = .axial, colors: [RGBAColor] = [], locations: [Double]? = nil,
    startPoint: Point = defaultStartPoint, endPoint: Point = defaultEndPoint
  ) {
    self.type = type
    self.colors = colors
    self.locations = locations
    self.startPoint = startPoint
    self.endPoint = endPoint
  }

  /// Throws the first unusable value: `locations` (``ValidationError/Reason/countMismatch(expected:actual:)``
  /// unless it has one entry per colour; ``ValidationError/Reason/notFinite`` with the index),
  /// `startPoint` and `endPoint` (``ValidationError/Reason/notFinite``, index 0 for x, 1 for y).
  ///
  /// Locations need not increase (Core Animation asks for it; renderers sort the stops).
  public func validate() throws(ValidationError) {
    if let locations {
      guard locations.count == colors.count else {
        throw ValidationError(
          field: "locations",
          reason: .countMismatch(expected: colors.count, actual: locations.count))
      }
      for (index, location) in locations.enumerated() {
        try Validate.finite(location, "locations", index: index)
      }
    }
    for (point, field) in [(startPoint, "startPoint"), (endPoint, "endPoint")] {
      try Validate.finite(point.x, field, index: 0)
      try Validate.finite(point.y, field, index: 1)
    }
  }

  /// The locations of the stops as drawn: ``locations`` when it has one entry per colour, else
  /// (`nil`, or a list an animation or a model change left at another length) `i / (n − 1)` for
  /// `n` colours (`[0]` for one colour, empty for none).
  public var effectiveLocations: [Double] {
    if let locations, locations.count == colors.count { return locations }
    let n = colors.count
    return (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
  }
}

extension GradientLayerProperties {
  /// The presented form: `locations` dropped (`nil`, evenly spaced) when an animation or a model
  /// change left it at another length than `colors`.
  var presented: GradientLayerProperties {
    var p = self
    if let locations, locations.count != colors.count { p.locations = nil }
    return p
  }
}
