/// What a preset's default views draw (``PresetAnimator/defaultViews(operation:containerSize:content:)``).
public enum DefaultViewContent: String, Hashable, Sendable, CaseIterable {
  /// Two iOS screens in the light appearance: a status bar, a navigation bar with a large
  /// title or a back button, inset grouped lists of text rows, system colours; for hero, a list
  /// of photo cards and the post a card opens.
  case screens
  /// Only the layers the preset animates, each one flat colour: the view being left blue
  /// `(0.25, 0.47, 0.85)`, the view shown orange `(0.96, 0.62, 0.24)`, the hero's photo purple
  /// `(0.55, 0.35, 0.75)`. For tests and measurements of the motion alone.
  case bare
}

/// The views the presets are sampled with when the caller brings none: two iOS screens in the
/// light appearance, each a full-container layer with the id the transition catalog names and
/// the status bar, navigation bar and list drawn by its sublayers (text, shape and plain
/// layers); and the hero scene's views (``HeroViews``).
enum DefaultViews {
  /// The fill of the view being left in a bare view.
  static let bareFromColor = RGBAColor(clamping: 0.25, 0.47, 0.85, 1)
  /// The fill of the view being shown in a bare view.
  static let bareToColor = RGBAColor(clamping: 0.96, 0.62, 0.24, 1)

  /// A bare view: one full-container layer named `id` of `color`.
  static func bare(_ id: String, size: Size, color: RGBAColor, opacity: Double = 1)
    throws(ValidationError) -> LayerTree
  {
    try ScreenBuilder(root: id, size: size, color: color, opacity: opacity, content: .bare).tree
  }

  /// The screen being left on push: a large title and an inset grouped list with icons (a
  /// Settings screen).
  static func rootScreen(_ id: String, size: Size, opacity: Double = 1)
    throws(ValidationError) -> LayerTree
  {
    var screen = try ScreenBuilder(
      root: id, size: size, color: SystemColor.systemGroupedBackground, opacity: opacity,
      content: .screens)
    try screen.addStatusBar(color: SystemColor.label)
    try screen.addLargeTitle("Settings")
    let top =
      ScreenBuilder.statusBarHeight + ScreenBuilder.navigationBarHeight
      + ScreenBuilder.largeTitleHeight - 20
    try screen.addGroupedList(rootRows, top: top)
    return screen.tree
  }

  /// The screen shown on push: a navigation bar with a back button and an inline title, and
  /// an inset grouped list (a Settings detail screen).
  static func detailScreen(_ id: String, size: Size, opacity: Double = 1)
    throws(ValidationError) -> LayerTree
  {
    var screen = try ScreenBuilder(
      root: id, size: size, color: SystemColor.systemGroupedBackground, opacity: opacity,
      content: .screens)
    try screen.addStatusBar(color: SystemColor.label)
    try screen.addNavigationBar(title: "General", backTitle: "Settings")
    let top = ScreenBuilder.statusBarHeight + ScreenBuilder.navigationBarHeight - 15
    try screen.addGroupedList(detailRows, top: top)
    return screen.tree
  }

  /// The root screen's sections.
  static let rootRows: [[ScreenBuilder.ListRow]] = [
    [
      .init(text: "Airplane Mode", icon: SystemColor.systemOrange),
      .init(text: "Wi-Fi", icon: SystemColor.systemBlue, detail: "Home"),
      .init(text: "Bluetooth", icon: SystemColor.systemBlue, detail: "On"),
      .init(text: "Cellular", icon: SystemColor.systemGreen),
    ],
    [
      .init(text: "Notifications", icon: SystemColor.systemRed),
      .init(text: "Sounds & Haptics", icon: SystemColor.systemPink),
      .init(text: "Focus", icon: SystemColor.systemIndigo),
      .init(text: "Screen Time", icon: SystemColor.systemIndigo),
    ],
    [
      .init(text: "General", icon: SystemColor.systemGray),
      .init(text: "Control Center", icon: SystemColor.systemGray),
      .init(text: "Display & Brightness", icon: SystemColor.systemBlue),
      .init(text: "Accessibility", icon: SystemColor.systemBlue),
    ],
  ]

  /// The detail screen's sections.
  static let detailRows: [[ScreenBuilder.ListRow]] = [
    [.init(text: "About"), .init(text: "Software Update")],
    [
      .init(text: "AirDrop"), .init(text: "AirPlay & Handoff"),
      .init(text: "Picture in Picture"), .init(text: "CarPlay"),
    ],
    [.init(text: "iPhone Storage"), .init(text: "Background App Refresh")],
    [
      .init(text: "Date & Time"), .init(text: "Keyboard"), .init(text: "Fonts"),
      .init(text: "Language & Region"),
    ],
  ]
}

extension PresetAnimator {
  /// The views the preset is sampled with by default: **from** and **to** (or **old** and
  /// **new** for the CATransition presets) filling the container, drawn as two iOS screens
  /// (a Settings list with a large title being left, a detail list with a back button being
  /// shown); for hero, the list and post views with their sublayers (the list's table left
  /// moved down on pop, as the push left it); for fade-slide's pop, **to** at opacity 0, as the
  /// push that covered it left it. Pop swaps the screens: the detail screen is left.
  ///
  /// With `content` ``DefaultViewContent/bare``, only the layers the preset animates, in flat
  /// colours (the same ids, frames and opacities).
  public func defaultViews(
    operation: TransitionOperation, containerSize size: Size,
    content: DefaultViewContent = .screens
  ) throws(ValidationError) -> (from: LayerTree, to: LayerTree) {
    let (fromID, toID) = preset.isCATransition ? ("old", "new") : ("from", "to")
    let forward = operation.isForward
    switch preset {
    case .hero:
      let scene = parameters.hero
      try scene.validate()
      if forward {
        return (
          try HeroViews.list(
            fromID, size: size, scene: scene, tableY: scene.listTop, content: content),
          try HeroViews.post(toID, size: size, scene: scene, content: content)
        )
      }
      return (
        try HeroViews.post(fromID, size: size, scene: scene, content: content),
        try HeroViews.list(
          toID, size: size, scene: scene, tableY: scene.listTop + scene.headerHeight / 2,
          content: content)
      )
    default:
      let toOpacity = preset == .fadeSlide && !forward ? 0.0 : 1
      if content == .bare {
        return (
          try DefaultViews.bare(fromID, size: size, color: DefaultViews.bareFromColor),
          try DefaultViews.bare(
            toID, size: size, color: DefaultViews.bareToColor, opacity: toOpacity)
        )
      }
      let screens = { (id: String, isRoot: Bool, opacity: Double) throws(ValidationError) in
        isRoot
          ? try DefaultViews.rootScreen(id, size: size, opacity: opacity)
          : try DefaultViews.detailScreen(id, size: size, opacity: opacity)
      }
      return (
        try screens(fromID, forward, 1),
        try screens(toID, !forward, toOpacity)
      )
    }
  }

  /// The context for `operation` with the ``defaultViews(operation:containerSize:content:)``.
  public func defaultContext(
    operation: TransitionOperation, containerSize: Size = Size(width: 390, height: 844),
    content: DefaultViewContent = .screens
  ) throws(ValidationError) -> TransitionContext {
    let views = try defaultViews(
      operation: operation, containerSize: containerSize, content: content)
    return try TransitionContext(
      operation: operation, containerSize: containerSize, fromView: views.from, toView: views.to)
  }
}
