import Segue

// Reading and writing what a layer draws: `contents` and its placement, and the properties of
// text, shape and gradient layers (keys `text`, `shape`, `gradient`).

extension SpecDecoder {
  /// The layer keys of this file.
  static let contentKeys = [
    "contents", "contentsGravity", "contentsRect", "contentsCenter", "contentsScale",
    "minificationFilter", "magnificationFilter", "text", "shape", "gradient",
  ]
  static let textKeys = [
    "string", "font", "fontSize", "foregroundColor", "alignmentMode", "isWrapped",
    "truncationMode",
  ]
  static let shapeKeys = [
    "path", "fillColor", "fillRule", "strokeColor", "lineWidth", "lineCap", "lineJoin",
    "miterLimit", "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd",
  ]
  static let gradientKeys = ["type", "colors", "locations", "startPoint", "endPoint"]

  /// Reads the contents keys and the layer's kind (`text`, `shape` or `gradient`, at most one)
  /// into `layer`; each kind is checked at its own path.
  func readContent(_ o: Members, into layer: inout Layer) throws(SpecError) {
    if let v = o["contents"] { layer.contents = try SpecFile.readContentsImage(v) }
    if let v = o["contentsGravity"] {
      layer.contentsGravity = try SpecFile.readName(v, SpecFile.gravityNames, what: "gravity")
    }
    if let v = o["contentsRect"] { layer.contentsRect = try SpecFile.readRect(v) }
    if let v = o["contentsCenter"] { layer.contentsCenter = try SpecFile.readRect(v) }
    if let v = o["contentsScale"] { layer.contentsScale = try v.number() }
    if let v = o["minificationFilter"] {
      layer.minificationFilter = try SpecFile.readName(v, SpecFile.filterNames, what: "filter")
    }
    if let v = o["magnificationFilter"] {
      layer.magnificationFilter = try SpecFile.readName(v, SpecFile.filterNames, what: "filter")
    }
    let kinds = ["text", "shape", "gradient"].filter { o.has($0) }
    if kinds.count > 1 {
      throw SpecError(
        path: JSONPath.member(o.path, kinds[1]),
        message: "a layer is one of a text, shape or gradient layer: '\(kinds[1])' cannot be "
          + "combined with '\(kinds[0])'")
    }
    if let v = o["text"] { layer.kind = .text(try readText(v)) }
    if let v = o["shape"] { layer.kind = .shape(try readShape(v)) }
    if let v = o["gradient"] { layer.kind = .gradient(try readGradient(v)) }
    if let kind = kinds.first, let node = o[kind] {
      let checked = layer.kind
      try building(node.path) { () throws(ValidationError) in try checked.validate() }
    }
  }

  /// A `text` object (`CATextLayer`'s properties).
  func readText(_ node: Node) throws(SpecError) -> TextLayerProperties {
    let o = try node.object(allowed: Self.textKeys)
    var text = TextLayerProperties()
    if let v = o["string"] { text.string = try v.string() }
    if let v = o["font"] { text.font = try SpecFile.readFont(v) }
    if let v = o["fontSize"] { text.fontSize = try v.number() }
    if let v = o["foregroundColor"] { text.foregroundColor = try SpecFile.readColor(v) }
    if let v = o["alignmentMode"] {
      text.alignmentMode = try SpecFile.readName(v, SpecFile.alignmentNames, what: "alignment")
    }
    if let v = o["isWrapped"] { text.isWrapped = try v.bool() }
    if let v = o["truncationMode"] {
      text.truncationMode = try SpecFile.readName(
        v, SpecFile.truncationNames, what: "truncation mode")
    }
    return text
  }

  /// A `shape` object (`CAShapeLayer`'s properties).
  func readShape(_ node: Node) throws(SpecError) -> ShapeLayerProperties {
    let o = try node.object(allowed: Self.shapeKeys)
    var shape = ShapeLayerProperties()
    if let v = o["path"], v.value != .null { shape.path = try SpecFile.readPath(v) }
    if let v = o["fillColor"] {
      shape.fillColor = v.value == .null ? nil : try SpecFile.readColor(v)
    }
    if let v = o["fillRule"] {
      shape.fillRule = try SpecFile.readName(v, SpecFile.fillRuleNames, what: "fill rule")
    }
    if let v = o["strokeColor"] {
      shape.strokeColor = v.value == .null ? nil : try SpecFile.readColor(v)
    }
    if let v = o["lineWidth"] { shape.lineWidth = try v.number() }
    if let v = o["lineCap"] {
      shape.lineCap = try SpecFile.readName(v, SpecFile.lineCapNames, what: "line cap")
    }
    if let v = o["lineJoin"] {
      shape.lineJoin = try SpecFile.readName(v, SpecFile.lineJoinNames, what: "line join")
    }
    if let v = o["miterLimit"] { shape.miterLimit = try v.number() }
    if let v = o["lineDashPattern"], v.value != .null {
      shape.lineDashPattern = try v.numberList()
    }
    if let v = o["lineDashPhase"] { shape.lineDashPhase = try v.number() }
    if let v = o["strokeStart"] { shape.strokeStart = try v.number() }
    if let v = o["strokeEnd"] { shape.strokeEnd = try v.number() }
    return shape
  }

  /// A `gradient` object (`CAGradientLayer`'s properties).
  func readGradient(_ node: Node) throws(SpecError) -> GradientLayerProperties {
    let o = try node.object(allowed: Self.gradientKeys)
    var gradient = GradientLayerProperties()
    if let v = o["type"] {
      gradient.type = try SpecFile.readName(v, SpecFile.gradientTypeNames, what: "gradient type")
    }
    if let v = o["colors"] {
      var colors: [RGBAColor] = []
      for item in try v.array() { colors.append(try SpecFile.readColor(item)) }
      gradient.colors = colors
    }
    if let v = o["locations"], v.value != .null { gradient.locations = try v.numberList() }
    if let v = o["startPoint"] { gradient.startPoint = try SpecFile.readPoint(v) }
    if let v = o["endPoint"] { gradient.endPoint = try SpecFile.readPoint(v) }
    return gradient
  }
}

extension SpecFile {
  // MARK: Names

  /// `(name, case)` for every case: its raw value and Core Animation's constant, `prefix`
  /// followed by the raw value with its first letter in capitals (`kCAGravityTopLeft`).
  static func caseNames<T: RawRepresentable & CaseIterable>(_ type: T.Type, prefix: String)
    -> [(String, T)] where T.RawValue == String
  {
    let short = T.allCases.map { ($0.rawValue, $0) }
    let constants = T.allCases.map {
      (prefix + $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst(), $0)
    }
    return short + constants
  }

  static let gravityNames = caseNames(ContentsGravity.self, prefix: "kCAGravity")
  static let filterNames = caseNames(ContentsFilter.self, prefix: "kCAFilter")
  static let alignmentNames = caseNames(TextAlignmentMode.self, prefix: "kCAAlignment")
  static let truncationNames = caseNames(TextTruncationMode.self, prefix: "kCATruncation")
  static let fillRuleNames = caseNames(FillRule.self, prefix: "kCAFillRule")
  static let lineCapNames = caseNames(LineCap.self, prefix: "kCALineCap")
  static let lineJoinNames = caseNames(LineJoin.self, prefix: "kCALineJoin")
  static let gradientTypeNames = caseNames(GradientType.self, prefix: "kCAGradientLayer")
  /// UIKit's weight names (`UIFont.Weight`).
  static let weightNames: [(String, FontWeight)] = [
    ("ultraLight", .ultraLight), ("thin", .thin), ("light", .light), ("regular", .regular),
    ("medium", .medium), ("semibold", .semibold), ("bold", .bold), ("heavy", .heavy),
    ("black", .black),
  ]

  // MARK: Values

  /// A point `[x, y]`.
  static func readPoint(_ node: Node) throws(SpecError) -> Point {
    let p = try node.numbers(count: [2], what: "a point [x, y]")
    return Point(x: p[0], y: p[1])
  }

  /// A rectangle `[x, y, width, height]`.
  static func readRect(_ node: Node) throws(SpecError) -> Rect {
    let r = try node.numbers(count: [4], what: "a rectangle [x, y, width, height]")
    return Rect(x: r[0], y: r[1], width: r[2], height: r[3])
  }

  /// `contents`: a file path relative to the spec's folder (a string, or `{"file": path}`), or
  /// `{"named": name}`, an image the application registers with the renderer.
  static func readContentsImage(_ node: Node) throws(SpecError) -> ContentsImage {
    if case .string = node.value { return .file(try readRelativePath(node)) }
    guard case .object = node.value else {
      throw node.wrongType("a file path or an object with 'file' or 'named'")
    }
    let o = try node.object(allowed: ["file", "named"])
    guard o.keys.count == 1, let key = o.keys.first, let v = o[key] else {
      throw node.fail("an image is exactly one of 'file' or 'named'")
    }
    if key == "file" { return .file(try readRelativePath(v)) }
    let name = try v.string()
    guard !name.isEmpty else { throw v.fail("an image name must not be empty") }
    return .named(name)
  }

  /// `font`: a name (PostScript, full or family name), `{"family": f, "weight": w, "italic": b}`
  /// or `{"file": path, "faceIndex": i}` with the path relative to the spec's folder.
  static func readFont(_ node: Node) throws(SpecError) -> FontDescriptor {
    if case .string(let name) = node.value { return .name(name) }
    guard case .object = node.value else {
      throw node.wrongType("a font name or an object with 'family' or 'file'")
    }
    let o = try node.object(allowed: ["family", "weight", "italic", "file", "faceIndex"])
    if let file = o["file"] {
      try o.check(allowed: ["file", "faceIndex"], context: "with 'file'")
      var index = 0
      if let v = o["faceIndex"] {
        let x = try v.number()
        guard x == x.rounded(), x >= 0, x < Double(Int32.max) else {
          throw v.fail("expected a face index: a whole number ≥ 0")
        }
        index = Int(x)
      }
      return .file(path: try readRelativePath(file), faceIndex: index)
    }
    try o.check(allowed: ["family", "weight", "italic"], context: "with 'family'")
    let family = try o.required("family").string()
    var weight = FontWeight.regular
    if let v = o["weight"] { weight = try readWeight(v) }
    let italic = try o["italic"]?.bool() ?? false
    return .family(family, weight: weight, isItalic: italic)
  }

  /// A weight: `1…1000` (OpenType's scale) or a UIKit name (`bold`).
  static func readWeight(_ node: Node) throws(SpecError) -> FontWeight {
    if case .string = node.value { return try readName(node, weightNames, what: "font weight") }
    let x = try node.number()
    guard x == x.rounded(), let weight = FontWeight(rawValue: Int(exactly: x) ?? 0) else {
      throw node.fail("expected a weight: a whole number in 1…1000 or a name (regular, bold, …)")
    }
    return weight
  }

  // MARK: Writing

  /// The content keys of `layer` that differ from `CALayer`'s defaults, and its kind's object.
  static func writeContent(_ layer: Layer) -> [(String, JSONValue)] {
    var o: [(String, JSONValue)] = []
    switch layer.contents {
    case .file(let path)?: o.append(("contents", .string(path)))
    case .named(let name)?: o.append(("contents", .object([("named", .string(name))])))
    case nil: break
    }
    if layer.contentsGravity != .resize {
      o.append(("contentsGravity", .string(layer.contentsGravity.rawValue)))
    }
    if layer.contentsRect != .unit {
      o.append(("contentsRect", writeValue(.rect(layer.contentsRect))))
    }
    if layer.contentsCenter != .unit {
      o.append(("contentsCenter", writeValue(.rect(layer.contentsCenter))))
    }
    if layer.contentsScale != 1 { o.append(("contentsScale", .number(layer.contentsScale))) }
    if layer.minificationFilter != .linear {
      o.append(("minificationFilter", .string(layer.minificationFilter.rawValue)))
    }
    if layer.magnificationFilter != .linear {
      o.append(("magnificationFilter", .string(layer.magnificationFilter.rawValue)))
    }
    switch layer.kind {
    case .plain: break
    case .text(let text): o.append(("text", writeText(text)))
    case .shape(let shape): o.append(("shape", writeShape(shape)))
    case .gradient(let gradient): o.append(("gradient", writeGradient(gradient)))
    }
    return o
  }

  static func writeText(_ text: TextLayerProperties) -> JSONValue {
    let defaults = TextLayerProperties()
    var o: [(String, JSONValue)] = []
    if text.string != defaults.string { o.append(("string", .string(text.string))) }
    if text.font != defaults.font { o.append(("font", writeFont(text.font))) }
    if text.fontSize != defaults.fontSize { o.append(("fontSize", .number(text.fontSize))) }
    if text.foregroundColor != defaults.foregroundColor {
      o.append(("foregroundColor", writeValue(.color(text.foregroundColor))))
    }
    if text.alignmentMode != defaults.alignmentMode {
      o.append(("alignmentMode", .string(text.alignmentMode.rawValue)))
    }
    if text.isWrapped { o.append(("isWrapped", .bool(true))) }
    if text.truncationMode != defaults.truncationMode {
      o.append(("truncationMode", .string(text.truncationMode.rawValue)))
    }
    return .object(o)
  }

  static func writeFont(_ font: FontDescriptor) -> JSONValue {
    switch font {
    case .name(let name): .string(name)
    case .family(let family, let weight, let isItalic):
      .object([
        ("family", .string(family)), ("weight", .number(Double(weight.rawValue))),
        ("italic", .bool(isItalic)),
      ])
    case .file(let path, let faceIndex):
      .object([("file", .string(path)), ("faceIndex", .number(Double(faceIndex)))])
    }
  }

  static func writeShape(_ shape: ShapeLayerProperties) -> JSONValue {
    let defaults = ShapeLayerProperties()
    var o: [(String, JSONValue)] = []
    if let path = shape.path { o.append(("path", writePath(path))) }
    if shape.fillColor != defaults.fillColor {
      o.append(("fillColor", shape.fillColor.map { writeValue(.color($0)) } ?? .null))
    }
    if shape.fillRule != defaults.fillRule {
      o.append(("fillRule", .string(shape.fillRule.rawValue)))
    }
    if let stroke = shape.strokeColor { o.append(("strokeColor", writeValue(.color(stroke)))) }
    let numbers: [(String, Double, Double)] = [
      ("lineWidth", shape.lineWidth, defaults.lineWidth),
      ("miterLimit", shape.miterLimit, defaults.miterLimit),
    ]
    for (key, value, standard) in numbers where value != standard {
      o.append((key, .number(value)))
    }
    if shape.lineCap != defaults.lineCap { o.append(("lineCap", .string(shape.lineCap.rawValue))) }
    if shape.lineJoin != defaults.lineJoin {
      o.append(("lineJoin", .string(shape.lineJoin.rawValue)))
    }
    if !shape.lineDashPattern.isEmpty {
      o.append(("lineDashPattern", self.numbers(shape.lineDashPattern)))
    }
    let stroke: [(String, Double, Double)] = [
      ("lineDashPhase", shape.lineDashPhase, defaults.lineDashPhase),
      ("strokeStart", shape.strokeStart, defaults.strokeStart),
      ("strokeEnd", shape.strokeEnd, defaults.strokeEnd),
    ]
    for (key, value, standard) in stroke where value != standard {
      o.append((key, .number(value)))
    }
    return .object(o)
  }

  static func writeGradient(_ gradient: GradientLayerProperties) -> JSONValue {
    var o: [(String, JSONValue)] = []
    if gradient.type != .axial { o.append(("type", .string(gradient.type.rawValue))) }
    if !gradient.colors.isEmpty { o.append(("colors", writeValue(.colorList(gradient.colors)))) }
    if let locations = gradient.locations { o.append(("locations", numbers(locations))) }
    if gradient.startPoint != GradientLayerProperties.defaultStartPoint {
      o.append(("startPoint", writeValue(.point(gradient.startPoint))))
    }
    if gradient.endPoint != GradientLayerProperties.defaultEndPoint {
      o.append(("endPoint", writeValue(.point(gradient.endPoint))))
    }
    return .object(o)
  }
}
