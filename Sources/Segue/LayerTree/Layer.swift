/// The model values of one `CALayer`: those that matter for geometry and opacity, and those a
/// renderer draws (background, corners, border, shadow, contents, and the text, shape or gradient
/// of its ``kind``). No sublayers inside: ``LayerTree`` holds the hierarchy.
///
/// A renderer draws a layer as its shadow, its background, its `contents` image, what its kind
/// adds (a gradient, a shape's fill then stroke, or text), its sublayers, then its border.
///
/// Lengths are in points in the layer's superlayer space (`position`, `zPosition`) or in its own
/// space (`bounds`, `anchorPointZ`); `anchorPoint` is in unit coordinates of the bounds; opacity is
/// a unitless fraction.
public struct Layer: Hashable, Sendable {
  /// The layer's name, unique within a ``LayerTree``.
  public var id: String
  /// The layer's own coordinate space (`CALayer.bounds`), default `.zero`. A negative size is
  /// read standardised (via `minX`, `width`, …), as Core Graphics' rectangle functions do.
  public var bounds: Rect
  /// Where the anchor point sits in the superlayer (`CALayer.position`), in points.
  public var position: Point
  /// The anchor in unit coordinates of the bounds (`CALayer.anchorPoint`), default `(0.5, 0.5)`;
  /// `(0, 0)` is the top-left corner in y-down space.
  public var anchorPoint: Point
  /// The z of the anchor point in the layer's own space (`CALayer.anchorPointZ`), points.
  public var anchorPointZ: Double
  /// The z of the position in the superlayer (`CALayer.zPosition`), points; also the first
  /// draw-order key among siblings.
  public var zPosition: Double
  /// Applied about the anchor point (`CALayer.transform`).
  public var transform: Transform3D
  /// Applied to every sublayer about this layer's anchor point (`CALayer.sublayerTransform`),
  /// typically a perspective.
  public var sublayerTransform: Transform3D
  /// The layer's own opacity (`CALayer.opacity`), default 1. Any finite value is stored; it is
  /// clamped to `[0, 1]` when presented.
  public var opacity: Double
  /// Whether this is a `CATransformLayer`: it does not flatten its sublayers into its plane.
  public var isTransformLayer: Bool
  /// The layer's fill (`CALayer.backgroundColor`), straight RGBA, default clear. Renderers draw it
  /// as the layer's snapshot; geometry ignores it.
  public var backgroundColor: RGBAColor
  /// `CALayer.cornerRadius`: the radius of the rounded corners of the background and border, in
  /// points of the layer's own space; default 0. Any finite value is stored; a negative one is
  /// presented as 0.
  public var cornerRadius: Double
  /// `CALayer.masksToBounds` (UIView's `clipsToBounds`): whether sublayers are clipped to the
  /// (rounded) bounds; default `false`. Not animatable: a change takes effect at once.
  public var masksToBounds: Bool
  /// `CALayer.maskedCorners`: the corners `cornerRadius` rounds (for the background, the border
  /// and the `masksToBounds` clip); default ``CornerMask/all``. Not animatable. `SegueRender`'s
  /// rasterisers and the SVG filmstrip's fill round only these corners (the preview page draws
  /// no corner radius).
  public var maskedCorners: CornerMask
  /// `CALayer.borderWidth`: the border's width in points, drawn inside the bounds; default 0.
  /// Presented at `max(0, borderWidth)`.
  public var borderWidth: Double
  /// `CALayer.borderColor`, straight RGBA; default opaque black.
  public var borderColor: RGBAColor
  /// `CALayer.shadowOpacity`, unitless; default 0 (no shadow). Any finite value is stored; it is
  /// presented clamped to `[0, 1]`.
  public var shadowOpacity: Double
  /// `CALayer.shadowRadius`: the shadow's blur radius in points; default 3. Presented at
  /// `max(0, shadowRadius)`.
  public var shadowRadius: Double
  /// `CALayer.shadowOffset` in points of the layer's own space; default `(0, −3)` (Core
  /// Animation's default, which in y-down coordinates places the shadow above the layer).
  public var shadowOffset: Size
  /// `CALayer.shadowColor`, straight RGBA; default opaque black.
  public var shadowColor: RGBAColor
  /// `CALayer.contents`: the image the layer shows, or `nil` (the default). Not animatable: Core
  /// Animation cross-fades a change of contents, which Segue leaves to two layers' opacities.
  public var contents: ContentsImage?
  /// `CALayer.contentsGravity`: how the image is placed in the bounds; default
  /// ``ContentsGravity/resize``.
  public var contentsGravity: ContentsGravity
  /// `CALayer.contentsRect`: the part of the image shown, in its unit space; default
  /// ``Rect/unit``. Animatable.
  public var contentsRect: Rect
  /// `CALayer.contentsCenter`: the stretchable middle of the image's nine parts, in the unit
  /// space of the `contentsRect` part; default ``Rect/unit``. Animatable.
  public var contentsCenter: Rect
  /// `CALayer.contentsScale`: image pixels per point, `> 0`; default 1. Animatable; a presented
  /// value `≤ 0` (a spring overshooting) draws no contents.
  public var contentsScale: Double
  /// `CALayer.minificationFilter`; default ``ContentsFilter/linear``.
  public var minificationFilter: ContentsFilter
  /// `CALayer.magnificationFilter`; default ``ContentsFilter/linear``.
  public var magnificationFilter: ContentsFilter
  /// The layer's class and the properties it adds (`CATextLayer`, `CAShapeLayer`,
  /// `CAGradientLayer`); default ``LayerKind/plain``.
  public var kind: LayerKind

  /// Creates a layer; every parameter but `id` has `CALayer`'s default.
  public init(
    id: String,
    bounds: Rect = .zero,
    position: Point = .zero,
    anchorPoint: Point = Point(x: 0.5, y: 0.5),
    anchorPointZ: Double = 0,
    zPosition: Double = 0,
    transform: Transform3D = .identity,
    sublayerTransform: Transform3D = .identity,
    opacity: Double = 1,
    isTransformLayer: Bool = false,
    backgroundColor: RGBAColor = .clear,
    cornerRadius: Double = 0,
    masksToBounds: Bool = false,
    maskedCorners: CornerMask = .all,
    borderWidth: Double = 0,
    borderColor: RGBAColor = .black,
    shadowOpacity: Double = 0,
    shadowRadius: Double = 3,
    shadowOffset: Size = Size(width: 0, height: -3),
    shadowColor: RGBAColor = .black,
    contents: ContentsImage? = nil,
    contentsGravity: ContentsGravity = .resize,
    contentsRect: Rect = .unit,
    contentsCenter: Rect = .unit,
    contentsScale: Double = 1,
    minificationFilter: ContentsFilter = .linear,
    magnificationFilter: ContentsFilter = .linear,
    kind: LayerKind = .plain
  ) {
    self.id = id
    self.bounds = bounds
    self.position = position
    self.anchorPoint = anchorPoint
    self.anchorPointZ = anchorPointZ
    self.zPosition = zPosition
    self.transform = transform
    self.sublayerTransform = sublayerTransform
    self.opacity = opacity
    self.isTransformLayer = isTransformLayer
    self.backgroundColor = backgroundColor
    self.cornerRadius = cornerRadius
    self.masksToBounds = masksToBounds
    self.maskedCorners = maskedCorners
    self.borderWidth = borderWidth
    self.borderColor = borderColor
    self.shadowOpacity = shadowOpacity
    self.shadowRadius = shadowRadius
    self.shadowOffset = shadowOffset
    self.shadowColor = shadowColor
    self.contents = contents
    self.contentsGravity = contentsGravity
    self.contentsRect = contentsRect
    self.contentsCenter = contentsCenter
    self.contentsScale = contentsScale
    self.minificationFilter = minificationFilter
    self.magnificationFilter = magnificationFilter
    self.kind = kind
  }

  /// The anchor point in the layer's own coordinates:
  /// `A = (bounds.minX + anchorPoint.x·width, bounds.minY + anchorPoint.y·height, anchorPointZ)`,
  /// which is `bounds.origin + anchorPoint·bounds.size` for a non-negative size.
  @inlinable
  public var anchor: Vector3 {
    Vector3(
      x: bounds.minX + anchorPoint.x * bounds.width,
      y: bounds.minY + anchorPoint.y * bounds.height,
      z: anchorPointZ)
  }

  /// The matrix from this layer's space to its superlayer's, before the superlayer's
  /// `sublayerTransform`: `T(−A) · transform · T(position.x, position.y, zPosition)`.
  @inlinable
  public var matrixInSuperlayer: Transform3D {
    let a = anchor
    return transform.translated(x: -a.x, y: -a.y, z: -a.z)
      .concatenating(.makeTranslation(x: position.x, y: position.y, z: zPosition))
  }

  /// This layer's `sublayerTransform` applied about its anchor point:
  /// `C = T(−A) · sublayerTransform · T(A)`; exactly the identity when `sublayerTransform` is.
  ///
  /// The pivot includes `bounds.origin` and `anchorPointZ` (GNUstep's pivot omits the bounds
  /// origin; the two agree when the origin is zero).
  @inlinable
  public var sublayerMatrix: Transform3D {
    if sublayerTransform.isIdentity { return .identity }
    let a = anchor
    return sublayerTransform.translated(x: -a.x, y: -a.y, z: -a.z)
      .concatenating(.makeTranslation(x: a.x, y: a.y, z: a.z))
  }

  /// `CALayer.frame`: the layer's rectangle in its superlayer, in points.
  ///
  /// Get: the bounding box of the four bounds corners mapped through ``matrixInSuperlayer`` with
  /// the homogeneous divide, z dropped (``Transform3D/mapRect(_:)``, clipped at the eye plane). With
  /// the identity transform this is `(position.x − anchorPoint.x·width,
  /// position.y − anchorPoint.y·height, width, height)`. If the whole layer is behind the eye the
  /// frame is the empty rectangle at `position`.
  ///
  /// Set: as `CALayer`, changes `position` and `bounds.size` and nothing else:
  /// `bounds.size = (|width|, |height|)` of the new frame and
  /// `position = (minX + anchorPoint.x·|width|, minY + anchorPoint.y·|height|)`. The transform is
  /// not consulted (Apple calls the frame undefined when the transform is not the identity), so
  /// reading the frame back returns the rectangle that was set only when the transform is the
  /// identity (or, more generally, maps the anchor-centred bounds onto themselves).
  public var frame: Rect {
    get {
      matrixInSuperlayer.mapRect(bounds)
        ?? Rect(origin: position, size: .zero)
    }
    set {
      let width = newValue.width
      let height = newValue.height
      bounds.size = Size(width: width, height: height)
      position = Point(
        x: newValue.minX + anchorPoint.x * width, y: newValue.minY + anchorPoint.y * height)
    }
  }

  /// Throws the first non-finite value, naming its field: `"bounds.origin.x"`, `"bounds.origin.y"`,
  /// `"bounds.size.width"`, `"bounds.size.height"`, `"position.x"`, `"position.y"`,
  /// `"anchorPoint.x"`, `"anchorPoint.y"`, `"anchorPointZ"`, `"zPosition"`, `"transform"` and
  /// `"sublayerTransform"` (with the field index 0…15 in `m11 … m44` order), `"opacity"`,
  /// `"cornerRadius"`, `"borderWidth"`, `"shadowOpacity"`, `"shadowRadius"`,
  /// `"shadowOffset.width"`, `"shadowOffset.height"`; `"contents"` (an empty path or name, or
  /// one holding a NUL character), `"contentsRect"` and `"contentsCenter"` (with the index 0…3
  /// of x, y, width, height), `"contentsScale"` (not finite or `≤ 0`); then the kind's fields
  /// (``LayerKind/validate()``: `"fontSize"`, `"font"`, `"lineWidth"`, `"locations"`, …).
  ///
  /// An opacity or shadow opacity outside `[0, 1]`, or a negative corner radius, border width or
  /// shadow radius, is not an error (they are clamped when presented); an empty `id` is allowed.
  /// Colours are always finite (``RGBAColor`` clamps its components).
  public func validate() throws(ValidationError) {
    try Validate.finite(bounds.origin.x, "bounds.origin.x")
    try Validate.finite(bounds.origin.y, "bounds.origin.y")
    try Validate.finite(bounds.size.width, "bounds.size.width")
    try Validate.finite(bounds.size.height, "bounds.size.height")
    try Validate.finite(position.x, "position.x")
    try Validate.finite(position.y, "position.y")
    try Validate.finite(anchorPoint.x, "anchorPoint.x")
    try Validate.finite(anchorPoint.y, "anchorPoint.y")
    try Validate.finite(anchorPointZ, "anchorPointZ")
    try Validate.finite(zPosition, "zPosition")
    // Index loops: no per-layer generic iterator (the spec decoder validates every layer of a
    // 100 000-layer document twice).
    let fields = transform.fields
    for i in 0..<fields.count { try Validate.finite(fields[i], "transform", index: i) }
    let sublayerFields = sublayerTransform.fields
    for i in 0..<sublayerFields.count {
      try Validate.finite(sublayerFields[i], "sublayerTransform", index: i)
    }
    try Validate.finite(opacity, "opacity")
    try Validate.finite(cornerRadius, "cornerRadius")
    try Validate.finite(borderWidth, "borderWidth")
    try Validate.finite(shadowOpacity, "shadowOpacity")
    try Validate.finite(shadowRadius, "shadowRadius")
    try Validate.finite(shadowOffset.width, "shadowOffset.width")
    try Validate.finite(shadowOffset.height, "shadowOffset.height")
    try validateContents()
    try kind.validate()
  }

  /// The contents checks of ``validate()``.
  private func validateContents() throws(ValidationError) {
    try contents?.validate(field: "contents")
    try Validate.finite(contentsRect, "contentsRect")
    try Validate.finite(contentsCenter, "contentsCenter")
    try Validate.positive(contentsScale, "contentsScale")
  }
}
