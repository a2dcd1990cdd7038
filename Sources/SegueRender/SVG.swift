import Segue

/// A tiny SVG 1.1 writer for curve plots and filmstrips: rectangles, polylines, polygons and
/// text, in a y-down user space of `width × height` (the same orientation as UIKit).
///
/// Elements are drawn in the order they are added (later on top). Numbers are written with
/// Swift's shortest round-trip `Double` formatting (`12`, `0.5`, `1e-05`, all valid SVG
/// numbers); colours as `#rrggbb` plus an opacity attribute when alpha is below 1. Text is
/// XML-escaped. Every coordinate is validated: NaN or infinity is an error, never written.
public struct SVGDocument: Hashable, Sendable {
  /// The width of the canvas, in user units (points).
  public let width: Double
  /// The height of the canvas, in user units (points).
  public let height: Double
  /// The elements, one per line, in draw order.
  var elements: [String] = []
  /// The `<defs>` children (embedded images, gradients, clip paths), each once by id: a nested
  /// document's definitions move up to the root when it is embedded.
  var definitions: [String] = []
  /// The id of each definition, in the same order.
  private var definitionIDs: [String] = []
  private var definedIDs: Set<String> = []
  /// Whether an element links with `xlink:href` (the root then declares the namespace).
  private var usesXLink = false

  /// Creates an empty canvas.
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notPositive`` or ``/Segue/ValidationError/Reason/notFinite``
  ///   naming `width` or `height` unless it is finite and `> 0`.
  public init(width: Double, height: Double) throws(ValidationError) {
    try Validate.positive(width, "width")
    try Validate.positive(height, "height")
    self.width = width
    self.height = height
  }

  /// Adds a rectangle filled with `fill` and optionally outlined with `stroke`.
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notFinite`` naming `rect` (index 0…3: x, y, width,
  ///   height) and errors naming `lineWidth` as ``polyline(_:stroke:lineWidth:)``.
  public mutating func rect(
    _ rect: Rect, fill: RGBAColor, stroke: RGBAColor? = nil, lineWidth: Double = 1
  ) throws(ValidationError) {
    let values = [rect.minX, rect.minY, rect.width, rect.height]
    for (i, v) in values.enumerated() { try Validate.finite(v, "rect", index: i) }
    try Validate.positive(lineWidth, "lineWidth")
    elements.append(
      "<rect x=\"\(SVGDocument.number(values[0]))\" y=\"\(SVGDocument.number(values[1]))\" "
        + "width=\"\(SVGDocument.number(values[2]))\" height=\"\(SVGDocument.number(values[3]))\""
        + SVGDocument.paint("fill", fill) + strokeAttributes(stroke, lineWidth) + "/>")
  }

  /// Adds an open polyline through `points`, stroked with `stroke` and not filled.
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/tooFew(minimum:actual:)`` naming `points` with fewer than
  ///   2 points, ``/Segue/ValidationError/Reason/notFinite`` naming `points` with the index of a
  ///   non-finite point, and ``/Segue/ValidationError/Reason/notPositive`` or
  ///   ``/Segue/ValidationError/Reason/notFinite`` naming `lineWidth` unless it is finite and `> 0`.
  public mutating func polyline(_ points: [Point], stroke: RGBAColor, lineWidth: Double = 1)
    throws(ValidationError)
  {
    let list = try SVGDocument.pointList(points, minimum: 2)
    try Validate.positive(lineWidth, "lineWidth")
    elements.append(
      "<polyline points=\"\(list)\" fill=\"none\"" + strokeAttributes(stroke, lineWidth)
        + " stroke-linejoin=\"round\"/>")
  }

  /// Adds a closed polygon through `points`, filled with `fill` and optionally outlined.
  ///
  /// `blendMode` ``/Segue/BlendMode/add`` writes `style="mix-blend-mode:plus-lighter"` (CSS Compositing
  /// Level 2: `out = dst + src`, premultiplied, saturating), the "add" of a cross-dissolve; put
  /// such polygons in an isolated ``embed(_:at:isolated:)`` so that they sum onto a transparent
  /// backdrop rather than onto what is below.
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/tooFew(minimum:actual:)`` naming `points` with fewer than
  ///   3 points, and the other errors of ``polyline(_:stroke:lineWidth:)``.
  public mutating func polygon(
    _ points: [Point], fill: RGBAColor, stroke: RGBAColor? = nil, lineWidth: Double = 1,
    blendMode: BlendMode = .over
  ) throws(ValidationError) {
    let list = try SVGDocument.pointList(points, minimum: 3)
    try Validate.positive(lineWidth, "lineWidth")
    let blend = blendMode == .add ? " style=\"mix-blend-mode:plus-lighter\"" : ""
    elements.append(
      "<polygon points=\"\(list)\"" + SVGDocument.paint("fill", fill)
        + strokeAttributes(stroke, lineWidth) + blend + "/>")
  }

  /// Adds a filled path of closed `contours` (each at least 3 points; shorter ones are left
  /// out): a `<path>` of `M … L … Z` per contour with `fill-rule` `nonzero` or `evenodd`.
  /// `blendMode` as ``polygon(_:fill:stroke:lineWidth:blendMode:)``.
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notFinite`` naming `points` with the index of a
  ///   non-finite point.
  public mutating func path(
    _ contours: [[Point]], fillRule: FillRule, fill: RGBAColor, blendMode: BlendMode = .over
  ) throws(ValidationError) {
    var d: [String] = []
    for contour in contours {
      if let data = try SVGDocument.pathData(contour) { d.append(data) }
    }
    guard !d.isEmpty else { return }
    let rule = fillRule == .evenOdd ? "evenodd" : "nonzero"
    let blend = blendMode == .add ? " style=\"mix-blend-mode:plus-lighter\"" : ""
    elements.append(
      "<path d=\"\(d.joined(separator: " "))\" fill-rule=\"\(rule)\""
        + SVGDocument.paint("fill", fill) + blend + "/>")
  }

  /// Adds `document` as a nested viewport whose top-left corner is at `origin`: an `<svg>`
  /// element with `x`, `y`, `width`, `height` and `viewBox="0 0 width height"` of the nested
  /// document, holding its elements in its own coordinates. A nested `<svg>` clips its content
  /// to its viewport (SVG 1.1 §14.3.3: `overflow: hidden` on non-root `svg` elements), so a
  /// filmstrip cell shows only what lies inside it. `isolated` adds `style="isolation:isolate"`
  /// (CSS Compositing: the content is composited onto a transparent backdrop, then "over" what is
  /// below).
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notFinite`` naming `origin` (index 0 or 1).
  public mutating func embed(_ document: SVGDocument, at origin: Point, isolated: Bool = false)
    throws(ValidationError)
  {
    try Validate.finite(origin.x, "origin", index: 0)
    try Validate.finite(origin.y, "origin", index: 1)
    let w = SVGDocument.number(document.width)
    let h = SVGDocument.number(document.height)
    var open = "<svg x=\"\(SVGDocument.number(origin.x))\" y=\"\(SVGDocument.number(origin.y))\" "
    open += "width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\""
    if isolated { open += " style=\"isolation:isolate\"" }
    elements.append(open + ">")
    elements.append(contentsOf: document.elements)
    elements.append("</svg>")
    for (id, definition) in zip(document.definitionIDs, document.definitions) {
      define(id, definition)
    }
    usesXLink = usesXLink || document.usesXLink
  }

  /// Adds a line of text with its baseline starting at `position` (sans-serif, `fontSize` user
  /// units). `<`, `>`, `&`, `"` and `'` are escaped.
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notFinite`` naming `position` (index 0 or 1), and
  ///   ``/Segue/ValidationError/Reason/notPositive`` or ``/Segue/ValidationError/Reason/notFinite`` naming
  ///   `fontSize`.
  public mutating func text(
    _ string: String, at position: Point, fontSize: Double = 12, fill: RGBAColor = .black
  ) throws(ValidationError) {
    try Validate.finite(position.x, "position", index: 0)
    try Validate.finite(position.y, "position", index: 1)
    try Validate.positive(fontSize, "fontSize")
    elements.append(
      "<text x=\"\(SVGDocument.number(position.x))\" y=\"\(SVGDocument.number(position.y))\" "
        + "font-family=\"sans-serif\" font-size=\"\(SVGDocument.number(fontSize))\""
        + SVGDocument.paint("fill", fill) + ">" + SVGDocument.escape(string) + "</text>")
  }

  /// The complete document: an XML declaration, the `<svg>` element with `width`, `height` and
  /// `viewBox="0 0 width height"`, one element per line, and `</svg>`.
  public var text: String {
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let w = SVGDocument.number(width)
    let h = SVGDocument.number(height)
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" "
    if usesXLink { out += "xmlns:xlink=\"http://www.w3.org/1999/xlink\" " }
    out += "width=\"\(w)\" height=\"\(h)\" "
    out += "viewBox=\"0 0 \(w) \(h)\">\n"
    if !definitions.isEmpty {
      out += "<defs>\n"
      for definition in definitions { out += definition + "\n" }
      out += "</defs>\n"
    }
    for element in elements { out += element + "\n" }
    out += "</svg>\n"
    return out
  }

  /// Shortest round-trip decimal form of a finite `v`, without a trailing `.0`; `-0` is `0`.
  static func number(_ v: Double) -> String {
    if v == 0 { return "0" }
    var s = v.description
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
  }

  /// `#rrggbb` of a colour (components rounded to bytes).
  static func hex(_ c: RGBAColor) -> String {
    let digits = Array("0123456789abcdef")
    var s = "#"
    for v in [c.red, c.green, c.blue] {
      let byte = Int((v * 255).rounded(.toNearestOrAwayFromZero))
      s.append(digits[byte >> 4])
      s.append(digits[byte & 15])
    }
    return s
  }

  /// ` name="#rrggbb"` plus ` name-opacity="a"` when alpha < 1.
  static func paint(_ name: String, _ c: RGBAColor) -> String {
    var s = " \(name)=\"\(hex(c))\""
    if c.alpha < 1 { s += " \(name)-opacity=\"\(number(c.alpha))\"" }
    return s
  }

  private func strokeAttributes(_ stroke: RGBAColor?, _ lineWidth: Double) -> String {
    guard let stroke else { return "" }
    return SVGDocument.paint("stroke", stroke)
      + " stroke-width=\"\(SVGDocument.number(lineWidth))\""
  }

  static func escape(_ s: String) -> String {
    var out = ""
    for ch in s {
      switch ch {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.append(ch)
      }
    }
    return out
  }

  static func pointList(_ points: [Point], minimum: Int) throws(ValidationError) -> String {
    guard points.count >= minimum else {
      throw ValidationError(
        field: "points", reason: .tooFew(minimum: minimum, actual: points.count))
    }
    var parts: [String] = []
    for (i, p) in points.enumerated() {
      guard p.x.isFinite && p.y.isFinite else {
        throw ValidationError(field: "points", index: i, reason: .notFinite)
      }
      parts.append("\(number(p.x)),\(number(p.y))")
    }
    return parts.joined(separator: " ")
  }
}

extension SVGDocument {
  /// Appends one element's markup, built by the caller from validated numbers (``number(_:)``)
  /// and escaped text.
  mutating func append(markup: String) {
    usesXLink = usesXLink || markup.contains("xlink:href")
    elements.append(markup)
  }

  /// Adds `definition` to the document's `<defs>` under `id`, unless `id` is defined already
  /// (the first definition wins: callers derive ids from what they define).
  mutating func define(_ id: String, _ definition: String) {
    guard definedIDs.insert(id).inserted else { return }
    usesXLink = usesXLink || definition.contains("xlink:href")
    definitionIDs.append(id)
    definitions.append(definition)
  }

  /// The path data `M x,y L x,y … Z` of a closed contour of at least 3 points, or `nil` when it
  /// has fewer.
  ///
  /// - Throws: ``/Segue/ValidationError/Reason/notFinite`` naming `points` with the index of a
  ///   non-finite point.
  static func pathData(_ contour: [Point]) throws(ValidationError) -> String? {
    guard contour.count >= 3 else { return nil }
    let list = try pointList(contour, minimum: 3)
    return "M" + list.split(separator: " ").joined(separator: " L") + " Z"
  }
}
