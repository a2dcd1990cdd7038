/// The hero scene's views: a list of photo cards (**title** and **table**) and the post the
/// tapped card opens (**header**, **back**, **cell0…**).
///
/// The photos are `CAGradientLayer` artwork (a sky, a horizon and the ground below it), so the
/// default views need no image file; the post's **header** shows the tapped card's photo, and
/// the preset's flying **image** layer is a snapshot of the header.
enum HeroViews {
  /// The back button's frame in the post view before its constant x offset: `(16, 52, 44, 44)`.
  static let back = Rect(x: 16, y: 52, width: 44, height: 44)

  /// A photo: its caption and its gradient (top to bottom).
  struct Photo {
    var name: String
    var colors: [RGBAColor]
    var locations: [Double]

    /// The gradient filling the photo's layer, whatever its size.
    var gradient: GradientLayerProperties {
      GradientLayerProperties(colors: colors, locations: locations)
    }
  }

  /// The cards' photos, repeating down the list: skies over horizons at 55–70 % of the height.
  static let photos: [Photo] = [
    Photo(
      name: "Ocean",
      colors: [hex(0x1C5FA8), hex(0x5AA9E6), hex(0xBFE3F7), hex(0x1F7FB8), hex(0x0B3C6B)],
      locations: [0, 0.45, 0.6, 0.6, 1]),
    Photo(
      name: "Forest",
      colors: [hex(0x9CCFE8), hex(0xE4F2E6), hex(0x3E7D4A), hex(0x1D4A2B), hex(0x0F2A18)],
      locations: [0, 0.5, 0.5, 0.75, 1]),
    Photo(
      name: "Sunset",
      colors: [
        hex(0x2B1B4D), hex(0x8C3B73), hex(0xF0737A), hex(0xFFC16B), hex(0x3A2548), hex(0x140D22),
      ],
      locations: [0, 0.3, 0.55, 0.66, 0.66, 1]),
    Photo(
      name: "Desert",
      colors: [hex(0x4D9DE0), hex(0xCDE7F7), hex(0xF2C27D), hex(0xD9893E), hex(0x9C5524)],
      locations: [0, 0.58, 0.58, 0.8, 1]),
    Photo(
      name: "Glacier",
      colors: [hex(0x7FB2D9), hex(0xDDEFF8), hex(0xFFFFFF), hex(0xA9C6D6), hex(0x5E7F93)],
      locations: [0, 0.55, 0.55, 0.8, 1]),
  ]

  /// The photo of list row `row`.
  static func photo(row: Int) -> Photo { photos[row % photos.count] }

  /// The colour of a 24-bit sRGB value.
  static func hex(_ value: Int) -> RGBAColor {
    SystemColor.rgb(
      Double((value >> 16) & 0xFF), Double((value >> 8) & 0xFF), Double(value & 0xFF))
  }

  /// A sublayer whose frame (in the view, which fills the container) is `frame`.
  static func sublayer(_ id: String, _ frame: Rect, _ color: RGBAColor) -> Layer {
    Layer(
      id: id, bounds: Rect(x: 0, y: 0, width: frame.size.width, height: frame.size.height),
      position: Point(x: frame.midX, y: frame.midY), backgroundColor: color)
  }

  /// The photo's fill in bare views.
  static let bareImageColor = RGBAColor(clamping: 0.55, 0.35, 0.75, 1)

  /// A layer at `frame` showing the photo of list row `row`: its gradient, or in bare views
  /// the flat ``bareImageColor``.
  static func photoLayer(_ id: String, _ frame: Rect, row: Int, content: DefaultViewContent)
    -> Layer
  {
    guard content == .screens else { return sublayer(id, frame, bareImageColor) }
    var layer = sublayer(id, frame, .clear)
    layer.kind = .gradient(photo(row: row).gradient)
    return layer
  }

  /// The category list: the status bar, **title** `(0, 44, W, 56)` (a large title) and
  /// **table** `(0, top, W, H − top)`, the table at `tableY` (the list top, or lower when a
  /// push left it moved down) holding a captioned photo card per row.
  static func list(
    _ id: String, size: Size, scene: HeroScene, tableY: Double, content: DefaultViewContent
  ) throws(ValidationError) -> LayerTree {
    let w = size.width
    let bare = content == .bare
    var screen = try ScreenBuilder(
      root: id, size: size,
      color: bare ? DefaultViews.bareFromColor : SystemColor.systemBackground, content: content)
    try screen.addStatusBar(color: SystemColor.label)
    let title = Rect(x: 0, y: 44, width: w, height: 56)
    try screen.addPart(sublayer("title", title, SystemColor.systemBackground))
    try screen.addText(
      "title.text", "Explore", style: .largeTitle, color: SystemColor.label,
      x: ScreenBuilder.margin, centreY: title.height / 2, width: w - 2 * ScreenBuilder.margin,
      to: "title")
    let table = Rect(x: 0, y: tableY, width: w, height: size.height - scene.listTop)
    try screen.addPart(
      sublayer(
        "table", table,
        bare ? RGBAColor(clamping: 0.85, 0.88, 0.93, 1) : SystemColor.systemBackground))
    var row = 0
    while Double(row + 1) * scene.rowHeight <= table.height + 0.01 {
      let card = Rect(x: 0, y: Double(row) * scene.rowHeight, width: w, height: scene.rowHeight)
      let id = "table.row\(row)"
      guard try screen.add(photoLayer(id, card, row: row, content: content), to: "table")
      else { break }
      try screen.addText(
        "\(id).caption", photo(row: row).name, style: .title2, color: .white,
        x: ScreenBuilder.margin, centreY: card.height - 26, width: w - 2 * ScreenBuilder.margin,
        to: id)
      row += 1
    }
    return screen.tree
  }

  /// The post view, in this order: **header** `(0, 0, W, header)` (the photo, captioned), **back**
  /// `(16, 52, 44, 44)` (a round button with a chevron), **cell0…** at
  /// `(0, header + i·cellHeight, W, cellHeight)` (a heading, two lines of text and a
  /// separator each), and the status bar in white over the photo.
  static func post(
    _ id: String, size: Size, scene: HeroScene, content: DefaultViewContent
  ) throws(ValidationError) -> LayerTree {
    let w = size.width
    let margin = ScreenBuilder.margin
    let bare = content == .bare
    var screen = try ScreenBuilder(
      root: id, size: size, color: bare ? DefaultViews.bareToColor : SystemColor.systemBackground,
      content: content)
    let header = Rect(x: 0, y: 0, width: w, height: scene.headerHeight)
    try screen.addPart(photoLayer("header", header, row: scene.selectedRow, content: content))
    let photo = photo(row: scene.selectedRow)
    try screen.addText(
      "header.caption", photo.name, style: .title1, color: .white, x: margin,
      centreY: header.height - 30, width: w - 2 * margin, to: "header")
    var backLayer = sublayer("back", back, bare ? .white : RGBAColor(clamping: 0, 0, 0, 0.3))
    backLayer.cornerRadius = bare ? 0 : back.width / 2
    try screen.addPart(backLayer)
    try screen.addChevron(
      "back.chevron", Rect(x: 15, y: 12, width: 11, height: 20), color: .white, lineWidth: 3,
      pointsRight: false, to: "back")
    for i in 0..<scene.cellCount {
      let frame = Rect(
        x: 0, y: scene.headerHeight + Double(i) * scene.cellHeight, width: w,
        height: scene.cellHeight)
      try screen.addPart(
        sublayer(
          "cell\(i)", frame,
          bare ? RGBAColor(clamping: 1, 0.97, 0.92, 1) : SystemColor.systemBackground))
      try addPostCell(i, &screen, size: frame.size)
    }
    try screen.addStatusBar(color: .white)
    return screen.tree
  }

  /// The texts of the post's cells, repeating.
  static let postCells: [(heading: String, text: String)] = [
    ("Golden hour", "The light turns warm an hour before the sun sets behind the ridge."),
    ("Where to stand", "The north shore faces the sunset; arrive early for the best spot."),
    ("What to bring", "A light jacket, water and a tripod for the long exposures."),
    ("After dark", "Stay for the blue hour, when the sky glows long after sunset."),
    ("Getting there", "A short walk from the parking area along the lakeside trail."),
  ]

  /// Cell `i` of the post: its heading, text and a separator.
  private static func addPostCell(_ i: Int, _ screen: inout ScreenBuilder, size: Size)
    throws(ValidationError)
  {
    let margin = ScreenBuilder.margin
    let cell = postCells[i % postCells.count]
    let width = size.width - 2 * margin
    try screen.addText(
      "cell\(i).heading", cell.heading, style: .headline, color: SystemColor.label,
      frame: Rect(x: margin, y: 12, width: width, height: TextStyle.headline.lineHeight),
      to: "cell\(i)")
    try screen.addText(
      "cell\(i).text", cell.text, style: .subheadline, color: SystemColor.secondaryLabel,
      frame: Rect(x: margin, y: 38, width: width, height: 2 * TextStyle.subheadline.lineHeight),
      isWrapped: true, to: "cell\(i)")
    try screen.addBox(
      "cell\(i).separator",
      Rect(x: margin, y: size.height - 0.5, width: size.width - margin, height: 0.5),
      color: SystemColor.separator, to: "cell\(i)")
  }
}
