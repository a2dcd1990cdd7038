import Segue

// Reading and writing the value types of a spec: animation values, transforms (16 numbers or a
// list of operations), timing functions, calculation and fill modes.

extension SpecFile {
  // MARK: Values

  /// Reads a value of `kind` (see ``SpecFile`` for the JSON form of each kind).
  static func readValue(_ node: Node, kind: AnimationValue.Kind) throws(SpecError)
    -> AnimationValue
  {
    switch kind {
    case .number:
      return .number(try node.number())
    case .point:
      let v = try node.numbers(count: [2], what: "a point [x, y]")
      return .point(Point(x: v[0], y: v[1]))
    case .size:
      let v = try node.numbers(count: [2], what: "a size [width, height]")
      return .size(Size(width: v[0], height: v[1]))
    case .rect:
      let v = try node.numbers(count: [4], what: "a rectangle [x, y, width, height]")
      return .rect(Rect(x: v[0], y: v[1], width: v[2], height: v[3]))
    case .transform:
      return .transform(try readTransform(node))
    case .color:
      return .color(try readColor(node))
    case .path:
      return .path(try readPath(node))
    case .colorList:
      var colors: [RGBAColor] = []
      for item in try node.array() { colors.append(try readColor(item)) }
      return .colorList(colors)
    case .numberList:
      return .numberList(try node.numberList())
    case .boolean:
      return .boolean(try node.bool())
    case .cornerMask:
      return .cornerMask(try readCornerMask(node))
    }
  }

  /// Reads a colour `[red, green, blue, alpha]` (components clamped to `[0, 1]`).
  static func readColor(_ node: Node) throws(SpecError) -> RGBAColor {
    let v = try node.numbers(count: [4], what: "a colour [red, green, blue, alpha]")
    return try building(node.path) { () throws(ValidationError) in
      try RGBAColor(red: v[0], green: v[1], blue: v[2], alpha: v[3])
    }
  }

  /// Reads a path: an array of `CGPath` elements, each an object with exactly one key (`move`,
  /// `line`, `quadCurve`, `curve`, `close`); a drawing element needs a `move` before it.
  static func readPath(_ node: Node) throws(SpecError) -> BezierPath {
    var path = BezierPath()
    for item in try node.array() {
      let element = try readPathElement(item)
      do throws(ValidationError) {
        switch element {
        case .move(let p): try path.move(to: p)
        case .line(let p): try path.addLine(to: p)
        case .quadCurve(let p, let c): try path.addQuadCurve(to: p, control: c)
        case .curve(let p, let c1, let c2): try path.addCurve(to: p, control1: c1, control2: c2)
        case .closeSubpath: try path.closeSubpath()
        }
      } catch {
        throw SpecError(wrapping: ValidationError(field: "", reason: error.reason), at: item.path)
      }
    }
    return path
  }

  /// One path element object.
  static func readPathElement(_ node: Node) throws(SpecError) -> BezierPath.Element {
    let e = try node.object(allowed: ["move", "line", "quadCurve", "curve", "close"])
    guard e.keys.count == 1, let key = e.keys.first, let v = e[key] else {
      throw node.fail("a path element has exactly one of move, line, quadCurve, curve, close")
    }
    func point(_ n: Node) throws(SpecError) -> Point {
      let p = try n.numbers(count: [2], what: "a point [x, y]")
      return Point(x: p[0], y: p[1])
    }
    switch key {
    case "move": return .move(to: try point(v))
    case "line": return .line(to: try point(v))
    case "quadCurve":
      let c = try v.object(allowed: ["to", "control"])
      return .quadCurve(
        to: try point(try c.required("to")), control: try point(try c.required("control")))
    case "curve":
      let c = try v.object(allowed: ["to", "control1", "control2"])
      return .curve(
        to: try point(try c.required("to")), control1: try point(try c.required("control1")),
        control2: try point(try c.required("control2")))
    default:
      guard try v.bool() else { throw v.fail("expected true") }
      return .closeSubpath
    }
  }

  /// Writes a path as its element objects.
  static func writePath(_ path: BezierPath) -> JSONValue {
    func point(_ p: Point) -> JSONValue { numbers([p.x, p.y]) }
    return .array(
      path.elements.map { element in
        switch element {
        case .move(let p): .object([("move", point(p))])
        case .line(let p): .object([("line", point(p))])
        case .quadCurve(let p, let c):
          .object([("quadCurve", .object([("to", point(p)), ("control", point(c))]))])
        case .curve(let p, let c1, let c2):
          .object([
            (
              "curve",
              .object([("to", point(p)), ("control1", point(c1)), ("control2", point(c2))])
            )
          ])
        case .closeSubpath: .object([("close", .bool(true))])
        }
      })
  }

  /// Reads a `maskedCorners` value: a list of `CACornerMask` names, each at most once.
  static func readCornerMask(_ node: Node) throws(SpecError) -> CornerMask {
    var mask: CornerMask = []
    for item in try node.array() {
      let name = try item.string()
      guard let corner = CornerMask(name: name) else {
        let known = CornerMask.named.map(\.name).joined(separator: ", ")
        throw item.fail("unknown corner '\(name)' (known: \(known))")
      }
      guard !mask.contains(corner) else { throw item.fail("the corner '\(name)' is listed twice") }
      mask.insert(corner)
    }
    return mask
  }

  /// Writes a value; transforms as 16 numbers.
  static func writeValue(_ value: AnimationValue) -> JSONValue {
    switch value {
    case .number(let x): .number(x)
    case .point(let p): numbers([p.x, p.y])
    case .size(let s): numbers([s.width, s.height])
    case .rect(let r): numbers([r.origin.x, r.origin.y, r.size.width, r.size.height])
    case .transform(let t): numbers(t.fields)
    case .color(let c): numbers([c.red, c.green, c.blue, c.alpha])
    case .boolean(let b): .bool(b)
    case .cornerMask(let m): .array(m.names.map { .string($0) })
    case .path(let p): writePath(p)
    case .colorList(let list): .array(list.map { numbers([$0.red, $0.green, $0.blue, $0.alpha]) })
    case .numberList(let list): numbers(list)
    }
  }

  static func numbers(_ values: [Double]) -> JSONValue { .array(values.map { .number($0) }) }

  // MARK: Transforms

  /// Reads a transform: 16 numbers in `CATransform3D` order (`m11, m12, …, m44`), or a list of
  /// operations, each folded into the transform so far as Core Animation's
  /// `CATransform3DTranslate/Scale/Rotate(t, …)` do (the operation is applied to a point first:
  /// `t ← op · t`). `[]` is the identity.
  static func readTransform(_ node: Node) throws(SpecError) -> Transform3D {
    let items = try node.array()
    let allNumbers = items.allSatisfy { if case .number = $0.value { true } else { false } }
    if allNumbers && !items.isEmpty {
      guard items.count == 16 else {
        throw node.fail(
          "expected 16 numbers (CATransform3D m11 … m44) or a list of operations, found \(items.count) numbers"
        )
      }
      let fields = try node.numberList()
      return try building(node.path) { () throws(ValidationError) in
        try Transform3D(fields: fields)
      }
    }
    var t = Transform3D.identity
    for item in items {
      t = try readOperation(item, onto: t)
    }
    // A long list can overflow; report it instead of producing infinity.
    for (i, v) in t.fields.enumerated() where !v.isFinite {
      throw node.fail("the operations overflow: field \(i) of the product is not finite")
    }
    return t
  }

  /// One operation object: `{"translate": [tx, ty, tz?]}`, `{"scale": [sx, sy, sz?]}`,
  /// `{"rotate": angle}` or `{"rotate": {"angle": a, "axis": [x, y, z]}}`,
  /// `{"perspective": d}`.
  static func readOperation(_ node: Node, onto t: Transform3D) throws(SpecError) -> Transform3D {
    guard case .object(let members) = node.value else {
      throw node.wrongType("a transform operation object ({\"translate\": …}, …)")
    }
    let o = try node.object(allowed: ["translate", "scale", "rotate", "perspective"])
    guard members.count == 1, let (key, _) = members.first, let op = o[key] else {
      throw node.fail(
        "a transform operation has exactly one key: translate, scale, rotate or perspective")
    }
    switch key {
    case "translate":
      let v = try op.numbers(count: [2, 3], what: "[tx, ty] or [tx, ty, tz] (points)")
      return t.translated(x: v[0], y: v[1], z: v.count == 3 ? v[2] : 0)
    case "scale":
      let v = try op.numbers(count: [2, 3], what: "[sx, sy] or [sx, sy, sz]")
      return t.scaled(x: v[0], y: v[1], z: v.count == 3 ? v[2] : 1)
    case "rotate":
      if case .number = op.value {
        return t.rotated(by: try op.number(), x: 0, y: 0, z: 1)
      }
      let r = try op.object(allowed: ["angle", "axis"])
      let angle = try r.required("angle").number()
      var axis = [0.0, 0, 1]
      if let a = r["axis"] {
        axis = try a.numbers(count: [3], what: "an axis [x, y, z]")
        guard axis.contains(where: { $0 != 0 }) else {
          throw a.fail("the rotation axis must not be zero")
        }
        let length = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).squareRoot()
        guard length.isFinite else { throw a.fail("the rotation axis is too long") }
      }
      return t.rotated(by: angle, x: axis[0], y: axis[1], z: axis[2])
    default:
      let d = try op.number()
      guard d > 0 else { throw op.fail("the perspective distance must be greater than 0 (points)") }
      return Transform3D.makePerspective(distance: d).concatenating(t)
    }
  }

  // MARK: Timing functions

  /// The names accepted for timing functions, and their functions.
  static let namedTimingFunctions: [(String, TimingFunction)] = [
    ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
    ("easeInEaseOut", .easeInEaseOut), ("default", .systemDefault),
    ("kCAMediaTimingFunctionLinear", .linear), ("kCAMediaTimingFunctionEaseIn", .easeIn),
    ("kCAMediaTimingFunctionEaseOut", .easeOut),
    ("kCAMediaTimingFunctionEaseInEaseOut", .easeInEaseOut),
    ("kCAMediaTimingFunctionDefault", .systemDefault),
  ]

  /// The short names of the five named timing functions, Core Animation's
  /// `CAMediaTimingFunctionName` raw values: `linear`, `easeIn`, `easeOut`, `easeInEaseOut`,
  /// `default`. Each is also accepted as its `kCAMediaTimingFunction…` constant name.
  public static let timingFunctionNames = namedTimingFunctions.prefix(5).map(\.0)

  static let stepPositions: [(String, StepsEasing.JumpPosition)] = [
    ("jumpStart", .jumpStart), ("jumpEnd", .jumpEnd), ("jumpNone", .jumpNone),
    ("jumpBoth", .jumpBoth), ("start", .jumpStart), ("end", .jumpEnd),
  ]

  /// Parses a timing function written as text, the form used in spec strings and on the command
  /// line:
  ///
  /// - a name of ``timingFunctionNames`` or its `kCAMediaTimingFunction…` constant;
  /// - `cubic-bezier(x1, y1, x2, y2)` (CSS), the control points of
  ///   ``/Segue/TimingFunction/cubicBezier(_:_:_:_:)`` with `x1, x2 ∈ [0, 1]`;
  /// - when `allowsBareNumbers` is `true`, also the four numbers `x1,y1,x2,y2` alone (the
  ///   command line's short form; not accepted in spec files).
  ///
  /// Spaces around the text and around each number are ignored.
  ///
  /// - Throws: ``SpecError`` at path `$`: without ``SpecError/validation`` when the text is not
  ///   one of these forms (unknown name, wrong count, a non-number); with it, wrapping the
  ///   library's error naming `controlPoint1.x` … `controlPoint2.y`, when the control points are
  ///   rejected (an `x` outside `[0, 1]`, a non-finite value).
  public static func timingFunction(text: String, allowsBareNumbers: Bool = false)
    throws(SpecError) -> TimingFunction
  {
    let trimmed = trimmingSpaces(Substring(text))
    if let f = namedTimingFunctions.first(where: { $0.0 == trimmed })?.1 { return f }
    var body = trimmed
    let isFunction = body.hasPrefix("cubic-bezier(") && body.hasSuffix(")")
    if isFunction { body = body.dropFirst("cubic-bezier(".count).dropLast() }
    let items = body.split(separator: ",", omittingEmptySubsequences: false)
    let numbers = items.compactMap { Double(trimmingSpaces($0)) }
    guard isFunction || allowsBareNumbers, items.count == 4, numbers.count == 4 else {
      throw SpecError(
        path: "$",
        message: "unknown timing function '\(text)' (known: "
          + timingFunctionNames.joined(separator: ", ")
          + ", their kCAMediaTimingFunction names, or cubic-bezier(x1, y1, x2, y2))")
    }
    return try building("$") { () throws(ValidationError) in
      try TimingFunction.cubicBezier(numbers[0], numbers[1], numbers[2], numbers[3])
    }
  }

  /// `text` without leading and trailing spaces.
  private static func trimmingSpaces(_ text: Substring) -> Substring {
    var s = text
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return s
  }

  /// The cubic Bézier of four control-point numbers read from `node`, an array; an error names
  /// the offending entry of the array rather than CubicBezier's field.
  static func controlPoints(_ node: Node) throws(SpecError) -> TimingFunction {
    let v = try node.numbers(count: [4], what: "[x1, y1, x2, y2]")
    do throws(ValidationError) {
      return try TimingFunction.cubicBezier(v[0], v[1], v[2], v[3])
    } catch {
      let fields = ["controlPoint1.x", "controlPoint1.y", "controlPoint2.x", "controlPoint2.y"]
      var e = error
      e.field = ""
      e.index = nil
      let path = fields.firstIndex(of: error.field).map { JSONPath.element(node.path, $0) }
      throw SpecError(wrapping: e, at: path ?? node.path)
    }
  }

  /// Parses a timing function written as a spec's JSON `timingFunction`: a string (a name or
  /// `"cubic-bezier(x1, y1, x2, y2)"`), an array `[x1, y1, x2, y2]`, or an object with
  /// `controlPoints`, `steps` (and `position`) or `linear`, as in a spec file.
  ///
  /// - Throws: ``SpecError`` with a JSON path from `$`: malformed JSON, or what a spec's
  ///   `timingFunction` rejects.
  public static func timingFunction(json text: String) throws(SpecError) -> TimingFunction {
    try readTimingFunction(Node(value: try JSONValue.parse(text), path: "$"))
  }

  /// Reads a timing function: a string (``timingFunction(text:allowsBareNumbers:)``: a name or
  /// `cubic-bezier(x1, y1, x2, y2)`), an array `[x1, y1, x2, y2]` of control points,
  /// `{"controlPoints": [x1, y1, x2, y2]}`, `{"steps": n, "position": "jumpEnd"}` or
  /// `{"linear": [stop, …]}` with each stop a number (output) or `[output, input]` or
  /// `[output, start, end]`.
  static func readTimingFunction(_ node: Node) throws(SpecError) -> TimingFunction {
    if case .string(let text) = node.value {
      do {
        return try timingFunction(text: text)
      } catch {
        var e = error
        e.path = node.path + (error.path == "$" ? "" : String(error.path.dropFirst()))
        throw e
      }
    }
    if case .array = node.value { return try controlPoints(node) }
    guard case .object = node.value else {
      throw node.wrongType("a timing function name, [x1, y1, x2, y2] or object")
    }
    let o = try node.object(allowed: ["controlPoints", "steps", "position", "linear"])
    if let cp = o["controlPoints"] {
      try o.check(allowed: ["controlPoints"], context: "with 'controlPoints'")
      return try controlPoints(cp)
    }
    if let s = o["steps"] {
      try o.check(allowed: ["steps", "position"], context: "with 'steps'")
      let n = try s.number()
      guard n == n.rounded(), abs(n) < 1e15 else {
        throw s.fail("expected a whole number of steps")
      }
      var position = StepsEasing.JumpPosition.jumpEnd
      if let p = o["position"] {
        let name = try p.string()
        guard let found = stepPositions.first(where: { $0.0 == name })?.1 else {
          throw p.fail(
            "unknown step position '\(name)' (known: jumpStart, jumpEnd, jumpNone, jumpBoth, start, end)"
          )
        }
        position = found
      }
      return .steps(
        try building(o.path) { () throws(ValidationError) in
          try StepsEasing(steps: Int(n), position: position)
        })
    }
    if let l = o["linear"] {
      try o.check(allowed: ["linear"], context: "with 'linear'")
      var stops: [LinearEasing.Stop] = []
      for item in try l.array() {
        if case .number(let out) = item.value {
          stops.append(LinearEasing.Stop(out))
          continue
        }
        let v = try item.numbers(
          count: [2, 3], what: "a stop: output, [output, input] or [output, start, end]")
        stops.append(
          v.count == 2
            ? LinearEasing.Stop(v[0], at: v[1]) : LinearEasing.Stop(v[0], from: v[1], to: v[2]))
      }
      return .linearPoints(
        try building(l.path) { () throws(ValidationError) in try LinearEasing(stops) })
    }
    throw node.fail("a timing function object needs 'controlPoints', 'steps' or 'linear'")
  }

  /// Writes a timing function: the short Core Animation name when it is one of the five named
  /// curves, else its object form.
  static func writeTimingFunction(_ f: TimingFunction) -> JSONValue {
    for (name, named) in namedTimingFunctions.prefix(5) where named == f { return .string(name) }
    switch f {
    case .cubicBezier(let c):
      return .object([("controlPoints", numbers([c.x1, c.y1, c.x2, c.y2]))])
    case .steps(let s):
      let name = stepPositions.first { $0.1 == s.position }!.0
      return .object([("steps", .number(Double(s.steps))), ("position", .string(name))])
    case .linearPoints(let l):
      return .object([
        ("linear", .array(zip(l.outputs, l.inputs).map { numbers([$0.0, $0.1]) }))
      ])
    }
  }

  // MARK: Modes

  static let calculationModeNames: [(String, CalculationMode)] = [
    ("linear", .linear), ("discrete", .discrete), ("paced", .paced), ("cubic", .cubic),
    ("cubicPaced", .cubicPaced), ("kCAAnimationLinear", .linear),
    ("kCAAnimationDiscrete", .discrete), ("kCAAnimationPaced", .paced),
    ("kCAAnimationCubic", .cubic), ("kCAAnimationCubicPaced", .cubicPaced),
  ]

  static let rotationModeNames: [(String, RotationMode)] = [
    ("auto", .rotateAuto), ("autoReverse", .rotateAutoReverse), ("rotateAuto", .rotateAuto),
    ("rotateAutoReverse", .rotateAutoReverse), ("kCAAnimationRotateAuto", .rotateAuto),
    ("kCAAnimationRotateAutoReverse", .rotateAutoReverse),
  ]

  static let fillModeNames: [(String, MediaTiming.FillMode)] = [
    ("removed", .removed), ("forwards", .forwards), ("backwards", .backwards), ("both", .both),
    ("kCAFillModeRemoved", .removed), ("kCAFillModeForwards", .forwards),
    ("kCAFillModeBackwards", .backwards), ("kCAFillModeBoth", .both),
  ]

  /// Reads one of `names` from a string node.
  static func readName<T>(_ node: Node, _ names: [(String, T)], what: String) throws(SpecError)
    -> T
  {
    let name = try node.string()
    guard let found = names.first(where: { $0.0 == name })?.1 else {
      let list = names.map(\.0).joined(separator: ", ")
      throw node.fail("unknown \(what) '\(name)' (known: \(list))")
    }
    return found
  }
}
