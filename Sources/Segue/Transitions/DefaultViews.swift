/// The views the presets are sampled with when the caller brings none: full-container layers
/// with the ids the transition catalog names, and the hero scene's sublayers.
enum DefaultViews {
  /// The fill of the view being left (a blue).
  static let fromColor = RGBAColor(clamping: 0.25, 0.47, 0.85, 1)
  /// The fill of the view being shown (an orange).
  static let toColor = RGBAColor(clamping: 0.96, 0.62, 0.24, 1)

  /// A one-layer view: a full-container layer named `id`.
  static func plain(_ id: String, size: Size, color: RGBAColor, opacity: Double = 1)
    throws(ValidationError) -> LayerTree
  {
    var tree = LayerTree()
    var layer = TransitionContext.viewLayer(id, containerSize: size, color: color)
    layer.opacity = opacity
    try tree.add(layer)
    return tree
  }
}

/// The hero scene's views: the category list and the post list.
enum HeroViews {
  /// The snapshot image's fill.
  static let imageColor = RGBAColor(clamping: 0.55, 0.35, 0.75, 1)
  /// The back button's frame in the post view before its constant x offset: `(16, 52, 44, 44)`.
  static let back = Rect(x: 16, y: 52, width: 44, height: 44)

  /// A sublayer whose frame (in the view, which fills the container) is `frame`.
  static func sublayer(_ id: String, _ frame: Rect, _ color: RGBAColor) -> Layer {
    Layer(
      id: id, bounds: Rect(x: 0, y: 0, width: frame.size.width, height: frame.size.height),
      position: Point(x: frame.midX, y: frame.midY), backgroundColor: color)
  }

  /// The category list: **title** `(0, 44, W, 56)` and **table** `(0, top, W, H − top)`, the
  /// table at `tableY` (the list top, or lower when a push left it moved down).
  static func list(_ id: String, size: Size, scene: HeroScene, tableY: Double)
    throws(ValidationError) -> LayerTree
  {
    var tree = LayerTree()
    try tree.add(
      TransitionContext.viewLayer(id, containerSize: size, color: DefaultViews.fromColor))
    try tree.add(
      sublayer("title", Rect(x: 0, y: 44, width: size.width, height: 56), .white), parent: id)
    try tree.add(
      sublayer(
        "table",
        Rect(x: 0, y: tableY, width: size.width, height: size.height - scene.listTop),
        RGBAColor(clamping: 0.85, 0.88, 0.93, 1)), parent: id)
    return tree
  }

  /// The post view: **header** `(0, 0, W, header)`, **back** `(16, 52, 44, 44)`, and
  /// **cell0…** at `(0, header + i·cellHeight, W, cellHeight)`.
  static func post(_ id: String, size: Size, scene: HeroScene) throws(ValidationError)
    -> LayerTree
  {
    var tree = LayerTree()
    try tree.add(TransitionContext.viewLayer(id, containerSize: size, color: DefaultViews.toColor))
    try tree.add(
      sublayer(
        "header", Rect(x: 0, y: 0, width: size.width, height: scene.headerHeight), imageColor),
      parent: id)
    try tree.add(sublayer("back", back, .white), parent: id)
    for i in 0..<scene.cellCount {
      let frame = Rect(
        x: 0, y: scene.headerHeight + Double(i) * scene.cellHeight, width: size.width,
        height: scene.cellHeight)
      try tree.add(sublayer("cell\(i)", frame, RGBAColor(clamping: 1, 0.97, 0.92, 1)), parent: id)
    }
    return tree
  }
}

extension PresetAnimator {
  /// The views the preset is sampled with by default: **from** and **to** (or **old** and
  /// **new** for the CATransition presets) filling the container; for hero, the list and post
  /// views with their sublayers (the list's table left moved down on pop, as the push left it);
  /// for fade-slide's pop, **to** at opacity 0, as the push that covered it left it.
  public func defaultViews(operation: TransitionOperation, containerSize size: Size)
    throws(ValidationError) -> (from: LayerTree, to: LayerTree)
  {
    let (fromID, toID) = preset.isCATransition ? ("old", "new") : ("from", "to")
    switch preset {
    case .hero:
      let scene = parameters.hero
      try scene.validate()
      if operation.isForward {
        return (
          try HeroViews.list(fromID, size: size, scene: scene, tableY: scene.listTop),
          try HeroViews.post(toID, size: size, scene: scene)
        )
      }
      return (
        try HeroViews.post(fromID, size: size, scene: scene),
        try HeroViews.list(
          toID, size: size, scene: scene, tableY: scene.listTop + scene.headerHeight / 2)
      )
    case .fadeSlide where !operation.isForward:
      return (
        try DefaultViews.plain(fromID, size: size, color: DefaultViews.fromColor),
        try DefaultViews.plain(toID, size: size, color: DefaultViews.toColor, opacity: 0)
      )
    default:
      return (
        try DefaultViews.plain(fromID, size: size, color: DefaultViews.fromColor),
        try DefaultViews.plain(toID, size: size, color: DefaultViews.toColor)
      )
    }
  }

  /// The context for `operation` with the ``defaultViews(operation:containerSize:)``.
  public func defaultContext(
    operation: TransitionOperation, containerSize: Size = Size(width: 390, height: 844)
  ) throws(ValidationError) -> TransitionContext {
    let views = try defaultViews(operation: operation, containerSize: containerSize)
    return try TransitionContext(
      operation: operation, containerSize: containerSize, fromView: views.from, toView: views.to)
  }
}
