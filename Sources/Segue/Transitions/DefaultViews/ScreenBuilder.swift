/// A default view under construction: a root layer filling the container and its sublayers,
/// each kept only when its frame lies inside its superlayer's bounds (so a small container gets
/// the parts that fit, never layers spilling out of the view).
struct ScreenBuilder {
  /// The view's layers.
  private(set) var tree = LayerTree()
  /// The root layer's id: the view's id, and the prefix of its chrome's ids.
  let root: String
  /// The container (and root layer) size, points.
  let size: Size
  /// Whether the view draws its contents (``DefaultViewContent/screens``) or only the layers a
  /// preset animates (``DefaultViewContent/bare``: ``add(_:to:)`` adds nothing).
  let content: DefaultViewContent
  /// The sizes of the layers added so far, by id: where each one's sublayers must fit.
  private var sizes: [String: Size] = [:]

  /// The height of the status bar, points (a notched iPhone's).
  static let statusBarHeight = 44.0
  /// The height of a navigation bar without a large title.
  static let navigationBarHeight = 44.0
  /// The height a large title adds below the navigation bar.
  static let largeTitleHeight = 52.0
  /// The leading and trailing margin of bars and lists.
  static let margin = 16.0

  /// A view named `id` of `size` filled with `color`, at `opacity`, drawing `content`.
  init(
    root id: String, size: Size, color: RGBAColor, opacity: Double = 1,
    content: DefaultViewContent
  ) throws(ValidationError) {
    root = id
    self.size = size
    self.content = content
    var layer = TransitionContext.viewLayer(id, containerSize: size, color: color)
    layer.opacity = opacity
    try tree.add(layer)
    sizes[id] = size
  }

  /// Adds `layer` to `parent` (the root by default) when the view draws its contents and the
  /// layer's frame fits in the parent's bounds (within a hundredth of a point); returns whether
  /// it was added.
  @discardableResult
  mutating func add(_ layer: Layer, to parent: String? = nil) throws(ValidationError) -> Bool {
    let parent = parent ?? root
    guard content == .screens, let bounds = sizes[parent] else { return false }
    let (w, h) = (layer.bounds.width, layer.bounds.height)
    let (x, y) = (layer.position.x - w / 2, layer.position.y - h / 2)
    let slack = 0.01
    guard w > 0, h > 0, x >= -slack, y >= -slack, x + w <= bounds.width + slack,
      y + h <= bounds.height + slack
    else { return false }
    try tree.add(layer, parent: parent)
    sizes[layer.id] = Size(width: w, height: h)
    return true
  }

  /// Adds `layer` to `parent` (the root by default) wherever it lies: a layer a preset
  /// animates, which must be there.
  mutating func addPart(_ layer: Layer, to parent: String? = nil) throws(ValidationError) {
    try tree.add(layer, parent: parent ?? root)
    sizes[layer.id] = Size(width: layer.bounds.width, height: layer.bounds.height)
  }

  /// Adds a plain layer of `color` at `frame`, rounded by `cornerRadius`.
  @discardableResult
  mutating func addBox(
    _ id: String, _ frame: Rect, color: RGBAColor, cornerRadius: Double = 0,
    to parent: String? = nil
  ) throws(ValidationError) -> Bool {
    var layer = Layer(id: id, frame: frame)
    layer.backgroundColor = color
    layer.cornerRadius = cornerRadius
    return try add(layer, to: parent)
  }

  /// Adds a line of text in `style` and `color`, its box `width` wide from `x` and vertically
  /// centred on `centreY`, truncated at the end when it does not fit.
  @discardableResult
  mutating func addText(
    _ id: String, _ string: String, style: TextStyle, color: RGBAColor, x: Double,
    centreY: Double, width: Double, alignment: TextAlignmentMode = .left,
    to parent: String? = nil
  ) throws(ValidationError) -> Bool {
    let height = style.lineHeight
    return try addText(
      id, string, style: style, color: color,
      frame: Rect(x: x, y: centreY - height / 2, width: width, height: height),
      alignment: alignment, to: parent)
  }

  /// Adds text in `style` and `color` laid out in `frame` (wrapped when `isWrapped`),
  /// truncated at the end when it does not fit.
  @discardableResult
  mutating func addText(
    _ id: String, _ string: String, style: TextStyle, color: RGBAColor, frame: Rect,
    alignment: TextAlignmentMode = .left, isWrapped: Bool = false, to parent: String? = nil
  ) throws(ValidationError) -> Bool {
    try add(
      Layer.textLayer(
        id: id, frame: frame, string: string, font: style.font, fontSize: style.fontSize,
        foregroundColor: color, alignmentMode: alignment, isWrapped: isWrapped,
        truncationMode: .end),
      to: parent)
  }

  /// Adds a chevron (``ScreenPaths/chevron(in:pointsRight:)``) stroked `lineWidth` wide with
  /// round caps, its stroke inside `frame`.
  @discardableResult
  mutating func addChevron(
    _ id: String, _ frame: Rect, color: RGBAColor, lineWidth: Double, pointsRight: Bool,
    to parent: String? = nil
  ) throws(ValidationError) -> Bool {
    let inset = lineWidth / 2
    let path = try ScreenPaths.chevron(
      in: Rect(
        x: inset, y: inset, width: frame.width - lineWidth, height: frame.height - lineWidth),
      pointsRight: pointsRight)
    return try add(
      Layer.shapeLayer(
        id: id, frame: frame, path: path, fillColor: nil, strokeColor: color,
        lineWidth: lineWidth, lineCap: .round, lineJoin: .round),
      to: parent)
  }
}

/// The text styles of the default views (UIKit's Dynamic Type sizes at the default setting),
/// drawn with the system font (the renderer's default font).
enum TextStyle {
  /// 34-point bold: a large navigation title.
  case largeTitle
  /// 28-point bold.
  case title1
  /// 22-point bold: a card's caption.
  case title2
  /// 17-point semibold: a navigation title, a row's heading.
  case headline
  /// 17-point regular: a row's text.
  case body
  /// 15-point regular.
  case subheadline

  /// The point size.
  var fontSize: Double {
    switch self {
    case .largeTitle: 34
    case .title1: 28
    case .title2: 22
    case .headline, .body: 17
    case .subheadline: 15
    }
  }

  /// The system font in this style's weight.
  var font: FontDescriptor {
    let weight: FontWeight =
      switch self {
      case .largeTitle, .title1, .title2: .bold
      case .headline: .semibold
      case .body, .subheadline: .regular
      }
    return .family("SF Pro", weight: weight, isItalic: false)
  }

  /// The height of one line's box, points: 1.25 em, rounded up.
  var lineHeight: Double { (fontSize * 1.25).rounded(.up) }
}
