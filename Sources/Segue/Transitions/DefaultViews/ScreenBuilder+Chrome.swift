/// The system chrome of the default views: the status bar, navigation bars and inset grouped
/// lists, at the sizes of an iPhone with a notch (points).
extension ScreenBuilder {
  /// A row of an inset grouped list: its text, an optional icon colour (a Settings-style
  /// rounded square before the text) and an optional value shown before the disclosure
  /// indicator.
  struct ListRow {
    var text: String
    var icon: RGBAColor? = nil
    var detail: String? = nil
  }

  /// The height of a list row.
  static let rowHeight = 44.0
  /// The space above each section of an inset grouped list.
  static let sectionSpacing = 35.0

  /// The narrowest view with a status bar: room for the time and the right-hand icons.
  static let statusBarMinimumWidth = 200.0

  /// The status bar in `color`: the time on the left; cellular signal, Wi-Fi and battery on the
  /// right. Nothing in a view narrower than ``statusBarMinimumWidth``.
  mutating func addStatusBar(color: RGBAColor) throws(ValidationError) {
    let mid = Self.statusBarHeight / 2 + 1
    let w = size.width
    guard w >= Self.statusBarMinimumWidth else { return }
    try addText(
      "\(root).time", "9:41", style: .headline, color: color, x: 18, centreY: mid, width: 76,
      alignment: .center)
    try add(
      Layer.shapeLayer(
        id: "\(root).signal", frame: Rect(x: w - 93, y: mid - 6, width: 18, height: 12),
        path: try ScreenPaths.signalBars(width: 18, height: 12), fillColor: color))
    try add(
      Layer.shapeLayer(
        id: "\(root).wifi", frame: Rect(x: w - 68, y: mid - 6, width: 17, height: 12),
        path: try ScreenPaths.wifi(width: 17, height: 12), fillColor: color))
    try addBattery(color: color, frame: Rect(x: w - 44, y: mid - 6.5, width: 27.5, height: 13))
  }

  /// The battery: a ring with a nub at 35 % of `color`, a full level inside.
  private mutating func addBattery(color: RGBAColor, frame: Rect) throws(ValidationError) {
    let body = Rect(x: 0, y: 0, width: 25, height: frame.height)
    var shell = BezierPath()
    try ScreenPaths.roundedRect(body, radius: 4, into: &shell)
    try ScreenPaths.roundedRect(
      Rect(x: 1, y: 1, width: body.width - 2, height: body.height - 2), radius: 3, into: &shell)
    try ScreenPaths.roundedRect(
      Rect(x: 26, y: frame.height / 2 - 2, width: 1.5, height: 4), radius: 0.75, into: &shell)
    let faint = RGBAColor(clamping: color.red, color.green, color.blue, 0.35 * color.alpha)
    try add(
      Layer.shapeLayer(
        id: "\(root).battery", frame: frame, path: shell, fillColor: faint, fillRule: .evenOdd))
    var level = BezierPath()
    try ScreenPaths.roundedRect(
      Rect(x: 2, y: 2, width: body.width - 4, height: body.height - 4), radius: 2, into: &level)
    try add(
      Layer.shapeLayer(id: "\(root).batteryLevel", frame: frame, path: level, fillColor: color))
  }

  /// A navigation bar below the status bar: a back button (chevron and `backTitle` in
  /// `systemBlue`) and `title` centred.
  mutating func addNavigationBar(title: String, backTitle: String) throws(ValidationError) {
    let mid = Self.statusBarHeight + Self.navigationBarHeight / 2
    try addChevron(
      "\(root).backChevron", Rect(x: 8, y: mid - 10.5, width: 12.5, height: 21),
      color: SystemColor.systemBlue, lineWidth: 3, pointsRight: false)
    try addText(
      "\(root).backTitle", backTitle, style: .body, color: SystemColor.systemBlue, x: 26,
      centreY: mid, width: 84)
    let titleX = 112.0
    try addText(
      "\(root).title", title, style: .headline, color: SystemColor.label, x: titleX,
      centreY: mid, width: size.width - 2 * titleX, alignment: .center)
  }

  /// A large title below an empty navigation bar.
  mutating func addLargeTitle(_ title: String) throws(ValidationError) {
    let mid = Self.statusBarHeight + Self.navigationBarHeight + Self.largeTitleHeight / 2
    try addText(
      "\(root).largeTitle", title, style: .largeTitle, color: SystemColor.label, x: Self.margin,
      centreY: mid, width: size.width - 2 * Self.margin)
  }

  /// An inset grouped list from `top`: each section a rounded white card, each row its text,
  /// icon, value, disclosure indicator and a separator below all but the last; the sections
  /// and rows that fit above the bottom margin.
  mutating func addGroupedList(_ sections: [[ListRow]], top: Double) throws(ValidationError) {
    var y = top
    for (s, rows) in sections.enumerated() {
      y += Self.sectionSpacing
      let fitting = Int(((size.height - Self.margin - y) / Self.rowHeight).rounded(.down))
      let count = Swift.min(rows.count, fitting)
      guard count > 0 else { return }
      let section = "\(root).section\(s)"
      let frame = Rect(
        x: Self.margin, y: y, width: size.width - 2 * Self.margin,
        height: Double(count) * Self.rowHeight)
      guard try addBox(section, frame, color: SystemColor.systemBackground, cornerRadius: 10)
      else { return }
      for (i, row) in rows.prefix(count).enumerated() {
        try addRow(row, index: i, isLast: i == count - 1, in: section, width: frame.width)
      }
      y += frame.height
    }
  }

  /// Row `index` of `section`, a card `width` wide.
  private mutating func addRow(
    _ row: ListRow, index: Int, isLast: Bool, in section: String, width: Double
  ) throws(ValidationError) {
    let id = "\(section).row\(index)"
    let y = Double(index) * Self.rowHeight
    let mid = y + Self.rowHeight / 2
    var textX = Self.margin
    if let icon = row.icon {
      try addBox(
        "\(id).icon", Rect(x: Self.margin, y: mid - 14.5, width: 29, height: 29), color: icon,
        cornerRadius: 6.5, to: section)
      textX += 29 + Self.margin
    }
    let trailing = 36.0
    let detailWidth = row.detail == nil ? 0 : 90.0
    try addText(
      "\(id).text", row.text, style: .body, color: SystemColor.label, x: textX, centreY: mid,
      width: width - textX - trailing - detailWidth, to: section)
    if let detail = row.detail {
      try addText(
        "\(id).detail", detail, style: .body, color: SystemColor.secondaryLabel,
        x: width - trailing - detailWidth, centreY: mid, width: detailWidth - 4,
        alignment: .right, to: section)
    }
    try addChevron(
      "\(id).chevron", Rect(x: width - Self.margin - 8, y: mid - 7, width: 8, height: 14),
      color: SystemColor.tertiaryLabel, lineWidth: 2, pointsRight: true, to: section)
    if !isLast {
      try addBox(
        "\(id).separator",
        Rect(x: textX, y: y + Self.rowHeight - 0.5, width: width - textX, height: 0.5),
        color: SystemColor.separator, to: section)
    }
  }
}
