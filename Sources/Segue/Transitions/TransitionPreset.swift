/// The catalog of preset transitions (<doc:TransitionCatalog>), by name.
public enum TransitionPreset: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// UIKit's default push/pop: curve-7 spring over 0.5 s, parallax −0.3·W, dimming 0 → 0.1.
  case system
  /// The new view fades in while both slide: a 0.2 s cubic keyframe animation of x and opacity.
  case fadeSlide = "fade-slide"
  /// **to** fades in over 0.35 s, ease-in-ease-out.
  case crossDissolve = "cross-dissolve"
  /// A list cell's image grows into a post header (spring, then phases and a cascade).
  case hero
  /// A 2 s perspective depth swap, ease-out, interpolated by decomposition.
  case depth
  /// **to** slides over (push) or **from** slides away (pop), 0.2 s.
  case slideOver = "slide-over"
  /// CATransition `fade`: a cross-dissolve of two snapshots (added, not "over").
  case caFade = "ca-fade"
  /// CATransition `moveIn`: the new content slides over the still old content.
  case caMoveIn = "ca-move-in"
  /// CATransition `push`: the new content pushes the old one out.
  case caPush = "ca-push"
  /// CATransition `reveal`: the old content slides away, uncovering the still new content.
  case caReveal = "ca-reveal"

  /// Parses a preset name.
  ///
  /// - Throws: ``ValidationError/Reason/unknown(_:)`` on field `"preset"`.
  public init(name: String) throws(ValidationError) {
    guard let preset = TransitionPreset(rawValue: name) else {
      throw ValidationError(field: "preset", reason: .unknown(name))
    }
    self = preset
  }

  /// The preset's name as the command line and spec files spell it.
  public var description: String { rawValue }

  /// Whether this is one of the CATransition presets (layers **old** and **new**).
  public var isCATransition: Bool {
    switch self {
    case .caFade, .caMoveIn, .caPush, .caReveal: true
    default: false
    }
  }
}

/// CATransition's `subtype`: the edge the new content comes from, on screen (y-down).
public enum TransitionSubtype: String, Hashable, Sendable, CaseIterable {
  /// `fromRight` (the default).
  case fromRight = "from-right"
  /// `fromLeft`.
  case fromLeft = "from-left"
  /// `fromTop`: enters from the top edge.
  case fromTop = "from-top"
  /// `fromBottom`: enters from the bottom edge.
  case fromBottom = "from-bottom"

  /// Parses a subtype name.
  ///
  /// - Throws: ``ValidationError/Reason/unknown(_:)`` on field `"subtype"`.
  public init(name: String) throws(ValidationError) {
    guard let subtype = TransitionSubtype(rawValue: name) else {
      throw ValidationError(field: "subtype", reason: .unknown(name))
    }
    self = subtype
  }

  /// The offset of fully "incoming" content for a container of `size`: `(+W, 0)` from the right,
  /// `(−W, 0)` from the left, `(0, −H)` from the top, `(0, +H)` from the bottom.
  public func offset(in size: Size) -> Point {
    switch self {
    case .fromRight: Point(x: size.width, y: 0)
    case .fromLeft: Point(x: -size.width, y: 0)
    case .fromTop: Point(x: 0, y: -size.height)
    case .fromBottom: Point(x: 0, y: size.height)
    }
  }
}

/// The `hero` preset's scene: a category list and the post list it opens. Lengths in points.
public struct HeroScene: Hashable, Sendable {
  /// The tapped row of the category list (default 2).
  public var selectedRow: Int
  /// Height of a list row (default 120).
  public var rowHeight: Double
  /// Top of the list's table (default 100).
  public var listTop: Double
  /// Height of the post header (default 240).
  public var headerHeight: Double
  /// Number of visible post cells (default 5).
  public var cellCount: Int
  /// Height of a post cell (default 100).
  public var cellHeight: Double

  /// The catalog's scene; each parameter has the default listed on its property.
  public init(
    selectedRow: Int = 2, rowHeight: Double = 120, listTop: Double = 100,
    headerHeight: Double = 240, cellCount: Int = 5, cellHeight: Double = 100
  ) {
    self.selectedRow = selectedRow
    self.rowHeight = rowHeight
    self.listTop = listTop
    self.headerHeight = headerHeight
    self.cellCount = cellCount
    self.cellHeight = cellHeight
  }

  /// Throws on a negative row or cell count, or non-finite or non-positive lengths.
  public func validate() throws(ValidationError) {
    guard selectedRow >= 0 else {
      throw ValidationError(field: "selectedRow", reason: .negative)
    }
    guard cellCount >= 0 else { throw ValidationError(field: "cellCount", reason: .negative) }
    try Validate.positive(rowHeight, "rowHeight")
    try Validate.nonNegative(listTop, "listTop")
    try Validate.positive(headerHeight, "headerHeight")
    try Validate.positive(cellHeight, "cellHeight")
  }

  /// The tapped cell's frame in the container: `(0, listTop + row·rowHeight, W, rowHeight)`.
  public func cellFrame(width: Double) -> Rect {
    Rect(x: 0, y: listTop + Double(selectedRow) * rowHeight, width: width, height: rowHeight)
  }

  /// The push duration: `0.8 + 0.2·cellCount` seconds (1.8 s by default), computed as
  /// `(8 + 2·cellCount) / 10` so that it is the double nearest the decimal value (`0.8 + 0.2·3`
  /// in floating point is 1.4000000000000001, which would leave a sample at 1.4 s incomplete).
  public var pushDuration: Double { (8 + 2 * Double(cellCount)) / 10 }
}

/// The parameters of every preset, each with the catalog's default.
public struct PresetParameters: Hashable, Sendable {
  /// The hero scene.
  public var hero: HeroScene
  /// CATransition subtype (default from-right).
  public var subtype: TransitionSubtype
  /// CATransition duration in seconds (default 0.25, CATransition's own default; the article
  /// that shows these presets beside `slide-over` uses 0.5).
  public var caDuration: Double
  /// CATransition timing function (default `nil`, linear; that article uses ease-in-ease-out).
  public var caTimingFunction: TimingFunction?

  /// The defaults.
  public init(
    hero: HeroScene = HeroScene(), subtype: TransitionSubtype = .fromRight,
    caDuration: Double = 0.25, caTimingFunction: TimingFunction? = nil
  ) {
    self.hero = hero
    self.subtype = subtype
    self.caDuration = caDuration
    self.caTimingFunction = caTimingFunction
  }

  /// Throws when a parameter is out of range (`caDuration` ≤ 0, hero lengths).
  public func validate() throws(ValidationError) {
    try hero.validate()
    try Validate.positive(caDuration, "caDuration")
  }
}
