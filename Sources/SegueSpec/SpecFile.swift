import Segue

/// A decoded spec: the scene, the interactive history if any, and the times worth sampling.
public struct SpecDocument: Sendable {
  /// The transition as data.
  public var scene: TransitionScene
  /// The percent-driven history of `"interaction"`, whose duration is the scene's; `nil` for a
  /// non-interactive transition.
  public var interaction: InteractionTimeline?
  /// The spec's `"sampleTimes"` (seconds, at least one, non-decreasing), or the default: seven
  /// evenly spaced times from 0 to the end, where the end is the scene's duration without
  /// interaction, or with interaction the moment its completion fires (when the history decides
  /// it) or the last event time plus the duration (when it does not).
  public var sampleTimes: [Double]

  /// The image and font files the layers name, in the order of the spec's `layers` list, each
  /// with the JSON path that names it (``SpecFileReference``).
  public var files: [SpecFileReference]

  /// Creates a document.
  public init(
    scene: TransitionScene, interaction: InteractionTimeline?, sampleTimes: [Double],
    files: [SpecFileReference] = []
  ) {
    self.scene = scene
    self.interaction = interaction
    self.sampleTimes = sampleTimes
    self.files = files
  }

  /// Samples the transition at `time` seconds: with ``interaction`` through
  /// ``/Segue/TransitionScene/sample(at:interaction:)`` (wall-clock time), else
  /// ``/Segue/TransitionScene/sample(at:)``.
  ///
  /// - Throws: ``SpecError`` at path `$` wrapping the library's error for a non-finite or negative
  ///   time.
  public func sample(at time: Double) throws(SpecError) -> TransitionSample {
    try building("$") { () throws(ValidationError) in
      if let interaction {
        return try scene.sample(at: time, interaction: interaction)
      }
      return try scene.sample(at: time)
    }
  }

  /// The samples at every time of ``sampleTimes``.
  public func samples() throws(SpecError) -> [TransitionSample] {
    var out: [TransitionSample] = []
    for t in sampleTimes { out.append(try sample(at: t)) }
    return out
  }
}

/// Parses and decodes a spec file: ``SpecFile/decode(text:)``.
///
/// - Parameter text: the JSON text of a spec (format: <doc:SpecFormat>).
/// - Returns: the scene, interaction and suggested sample times.
/// - Throws: ``SpecError``: malformed JSON with its line and column, or an invalid spec with the
///   JSON path of the offending value and what is wrong.
public func loadSpec(_ text: String) throws(SpecError) -> SpecDocument {
  try SpecFile.decode(text: text)
}

/// Spec files: a transition scene as JSON, with Core Animation's names.
///
/// A spec holds the model layer tree, the `CAAnimation`s on its layers, model changes during and
/// after the transition, blend modes and an optional percent-driven interaction. Every key, its
/// type, default and meaning is in <doc:SpecFormat>; the JSON Schema (draft 2020-12) is
/// `Sources/SegueSpec/Schema/segue-spec.schema.json`, and one example per preset is
/// `Sources/SegueSpec/Examples/<preset>-push.json`.
public enum SpecFile {
  /// The only format version.
  public static let version = 1
  /// The container size used when a spec gives none: 390 × 844 points.
  public static let defaultContainer = Size(width: 390, height: 844)
  /// The largest container side a spec may give: 2²⁴ = 16777216 points. Beyond it a `Float`
  /// (the precision of the batch kernels and of the rasteriser) no longer resolves a point, and no
  /// screen comes near it.
  public static let maximumContainerSide = Double(1 << 24)

  /// Parses `text` and decodes it (``decode(_:)``).
  public static func decode(text: String) throws(SpecError) -> SpecDocument {
    try decode(JSONValue.parse(text))
  }

  /// Decodes a parsed spec (format: <doc:SpecFormat>).
  ///
  /// - Throws: ``SpecError`` with the JSON path of the first problem: an unknown key, a missing
  ///   required key, a value of the wrong type, an unknown key path or name, a value of the wrong
  ///   kind for its key path, a duplicate id, a missing or cyclic parent, events or interaction
  ///   events out of time order, or a library ``/Segue/ValidationError`` (wrapped with the path of the
  ///   object being built).
  public static func decode(_ json: JSONValue) throws(SpecError) -> SpecDocument {
    var decoder = SpecDecoder()
    var document = try decoder.document(Node(value: json, path: "$"))
    document.files = fileReferences(in: document.scene.model, json: json)
    return document
  }

  /// Parses `text` as the value of a spec's `"interaction"` on its own (<doc:SpecFormat>):
  /// an array of events, or an object with `events` and the completion settings. Paths in errors
  /// start at the text's root, `$` (`$[2].time`, `$.events[0].finish.completionSpeed`).
  ///
  /// - Parameters:
  ///   - text: the JSON text.
  ///   - duration: the transition's duration in seconds, `> 0` (the timeline's
  ///     ``/Segue/InteractionTimeline/duration``).
  /// - Returns: the percent-driven history, every event appended in order.
  /// - Throws: ``SpecError``: malformed JSON with its line and column; an unknown key, a value of
  ///   the wrong type, a missing `time` or action, more than one action, events out of time
  ///   order, a negative time; and the library's rejections (a non-positive completion speed, an
  ///   event after a finish or cancel, …) at the event's path.
  public static func decodeInteraction(text: String, duration: Double) throws(SpecError)
    -> InteractionTimeline
  {
    try decodeInteraction(JSONValue.parse(text), duration: duration)
  }

  /// Decodes a parsed interaction (``decodeInteraction(text:duration:)``).
  public static func decodeInteraction(_ json: JSONValue, duration: Double) throws(SpecError)
    -> InteractionTimeline
  {
    try SpecDecoder().readInteraction(Node(value: json, path: "$"), duration: duration)
  }
}

/// The `layers` of a spec as listed: each layer with its parent reference and node, and the list
/// index of each id.
struct SpecLayerList {
  var entries: [(layer: Layer, parent: (id: String, node: Node)?, node: Node)] = []
  var index: [String: Int] = [:]
}

/// Where a layer is in the walk of ``SpecDecoder/additionOrder(_:)``.
enum SpecWalkState {
  case new
  case onPath
  case placed
}

/// The state of one decode: the layers read so far, for defaults and references.
struct SpecDecoder {
  /// The layers by id, as listed (model values before any event).
  var layersByID: [String: Layer] = [:]

  static let topKeys = [
    "version", "description", "duration", "container", "layers", "events", "finish", "cancel",
    "blendModes", "interaction", "sampleTimes",
  ]
  static let layerKeys =
    [
      "id", "parent", "bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "opacity",
      "backgroundColor", "isTransformLayer", "transform", "sublayerTransform", "cornerRadius",
      "masksToBounds", "maskedCorners", "borderWidth", "borderColor", "shadowOpacity",
      "shadowRadius",
      "shadowOffset", "shadowColor", "animations",
    ] + contentKeys
  static let timingKeys = [
    "keyPath", "type", "beginTime", "duration", "speed", "timeOffset", "repeatCount",
    "repeatDuration", "autoreverses", "fillMode",
  ]
  static let basicKeys = timingKeys + ["fromValue", "toValue", "timingFunction"]
  static let keyframeKeys =
    timingKeys + [
      "values", "keyTimes", "calculationMode", "timingFunction", "timingFunctions",
      "tensionValues", "continuityValues", "biasValues", "keyframeTimingFunction", "path",
      "rotationMode",
    ]
  /// Keys only a keyframe animation with `values` takes, and only one with `path`.
  static let valuesOnlyKeys = [
    "tensionValues", "continuityValues", "biasValues", "keyframeTimingFunction",
  ]
  static let pathOnlyKeys = ["rotationMode"]
  static let springKeys =
    timingKeys + [
      "fromValue", "toValue", "mass", "stiffness", "damping", "initialVelocity",
      "allowsOverdamping", "dampingRatio",
    ]

  mutating func document(_ root: Node) throws(SpecError) -> SpecDocument {
    let top = try root.object(allowed: Self.topKeys)
    let versionNode = try top.required("version")
    guard try versionNode.number() == Double(SpecFile.version) else {
      throw versionNode.fail("unsupported version (this reader knows version 1)")
    }
    if let d = top["description"] { _ = try d.string() }
    let container = try readContainer(top["container"])
    let layers = try readLayerList(try top.required("layers"))
    let tree = try layerTree(layers)
    let animations = try readAnimations(layers)
    let events = try readEvents(top["events"])
    let finish = try readCompletionChanges(top["finish"])
    let cancel = try readCompletionChanges(top["cancel"])
    let blendModes = try readBlendModes(top["blendModes"])
    let duration = try readDuration(top["duration"], animations: animations, root: root)
    let scene = try building("$") { () throws(ValidationError) in
      try TransitionScene(
        duration: duration, containerSize: container, model: tree, animations: animations,
        events: events, finishChanges: finish, cancelChanges: cancel, blendModes: blendModes)
    }
    var interaction: InteractionTimeline?
    if let i = top["interaction"] {
      interaction = try readInteraction(i, duration: duration)
    }
    let sampleTimes: [Double]
    if let s = top["sampleTimes"] {
      sampleTimes = try readSampleTimes(s)
    } else {
      sampleTimes = try suggestedSampleTimes(duration: duration, interaction: interaction)
    }
    return SpecDocument(scene: scene, interaction: interaction, sampleTimes: sampleTimes)
  }

  /// `container`: a size `[width, height]` in points, each in `0…maximumContainerSide`; the
  /// default container when absent.
  func readContainer(_ node: Node?) throws(SpecError) -> Size {
    guard let c = node else { return SpecFile.defaultContainer }
    let v = try c.numbers(count: [2], what: "a size [width, height] in points")
    guard v[0] >= 0, v[1] >= 0 else { throw c.fail("the container size must not be negative") }
    guard v[0] <= SpecFile.maximumContainerSide, v[1] <= SpecFile.maximumContainerSide else {
      throw c.fail(
        "the container size must be at most \(Int(SpecFile.maximumContainerSide)) points a side")
    }
    return Size(width: v[0], height: v[1])
  }

  /// `layers`, in list order: each layer read (and kept in ``layersByID``), its id unique, its
  /// parent the id of a listed layer.
  mutating func readLayerList(_ node: Node) throws(SpecError) -> SpecLayerList {
    var list = SpecLayerList()
    for (i, node) in try node.array().enumerated() {
      let (layer, parent) = try readLayer(node)
      if let previous = list.index[layer.id] {
        throw SpecError(
          path: JSONPath.member(node.path, "id"),
          message: "duplicate layer id '\(layer.id)' (also at $.layers[\(previous)])")
      }
      list.index[layer.id] = i
      layersByID[layer.id] = layer
      list.entries.append((layer, parent, node))
    }
    for entry in list.entries {
      guard let parent = entry.parent else { continue }
      guard list.index[parent.id] != nil else {
        throw parent.node.fail("no layer has the id '\(parent.id)'")
      }
    }
    return list
  }

  /// The model tree: the listed layers added ancestors first (``additionOrder(_:)``).
  func layerTree(_ list: SpecLayerList) throws(SpecError) -> LayerTree {
    var tree = LayerTree()
    for index in try additionOrder(list) {
      let entry = list.entries[index]
      try building(entry.node.path) { () throws(ValidationError) in
        try tree.add(entry.layer, parent: entry.parent?.id)
      }
    }
    return tree
  }

  /// The order of addition, checking for cycles, in one iterative walk up the parent links
  /// (O(layers), no recursion, so chains of any depth): from each layer in list order, follow
  /// parents until a layer already placed, a top-level layer or a layer on the current path (a
  /// cycle); then place the path top-down, so every layer comes after its ancestors and siblings
  /// keep their list order. The cycle reported is the one whose earliest-listed member comes
  /// first, named from that member.
  // swift-format-ignore: NeverForceUnwrap
  func additionOrder(_ list: SpecLayerList) throws(SpecError) -> [Int] {
    let entries = list.entries
    var state = [SpecWalkState](repeating: .new, count: entries.count)
    var order: [Int] = []
    order.reserveCapacity(entries.count)
    var cycle: (first: Int, chain: [Int])? = nil
    var path: [Int] = []
    for i in entries.indices where state[i] == .new {
      path.removeAll(keepingCapacity: true)
      var current = i
      while state[current] != .placed {
        if state[current] == .onPath {
          // `current` is on the path: path[k...] is the cycle, child → parent.
          let members = path[path.lastIndex(of: current)!...]
          let first = members.min()!
          if cycle == nil || first < cycle!.first {
            let k = members.firstIndex(of: first)!
            cycle = (first, Array(members[k...] + members[..<k]))
          }
          break
        }
        state[current] = .onPath
        path.append(current)
        guard let parent = entries[current].parent, let next = list.index[parent.id] else { break }
        current = next
      }
      for j in path.reversed() {
        state[j] = .placed
        order.append(j)
      }
    }
    if let (first, chain) = cycle {
      let names = (chain + [first]).map { "'\(entries[$0].layer.id)'" }.joined(separator: " → ")
      throw entries[first].parent!.node.fail("the parent chain forms a cycle: \(names)")
    }
    return order
  }

  /// Every layer's `animations`, in list order of layers, then of each layer's list.
  func readAnimations(_ list: SpecLayerList) throws(SpecError) -> AnimationSet {
    var animations = AnimationSet()
    for entry in list.entries {
      let o = try entry.node.object()
      guard let list = o["animations"] else { continue }
      for node in try list.array() {
        animations.add(try readAnimation(node, layer: entry.layer), to: entry.layer.id)
      }
    }
    return animations
  }

  /// `events`: model changes at times `≥ 0` in time order.
  func readEvents(_ node: Node?) throws(SpecError) -> [TimelineEvent] {
    guard let list = node else { return [] }
    var events: [TimelineEvent] = []
    var previous = 0.0
    for node in try list.array() {
      let o = try node.object(allowed: ["time", "layer", "keyPath", "value", "remove"])
      let time = try Self.readEventTime(o, after: &previous, events: "events")
      events.append(TimelineEvent(time: time, change: try readChange(o)))
    }
    return events
  }

  /// The `time` of an event in a list of `events` (seconds `≥ 0`, not before `previous`, the
  /// time of the event before it, which becomes `time`).
  static func readEventTime(_ o: Members, after previous: inout Double, events: String)
    throws(SpecError) -> Double
  {
    let timeNode = try o.required("time")
    let time = try timeNode.number()
    guard time >= 0 else { throw timeNode.fail("must not be negative (seconds)") }
    guard time >= previous else {
      throw timeNode.fail(
        "\(events) must be in time order: \(time) is earlier than the event before it (\(previous))"
      )
    }
    previous = time
    return time
  }

  /// `finish` or `cancel`: the model changes of a completion.
  func readCompletionChanges(_ node: Node?) throws(SpecError) -> [ModelChange] {
    guard let list = node else { return [] }
    var changes: [ModelChange] = []
    for node in try list.array() {
      changes.append(
        try readChange(try node.object(allowed: ["layer", "keyPath", "value", "remove"])))
    }
    return changes
  }

  /// `blendModes`: a known blend mode per listed layer id.
  // swift-format-ignore: NeverForceUnwrap
  func readBlendModes(_ node: Node?) throws(SpecError) -> [String: BlendMode] {
    guard let b = node else { return [:] }
    var blendModes: [String: BlendMode] = [:]
    let o = try b.object()
    for key in o.keys {
      let node = o[key]!
      guard layersByID[key] != nil else {
        throw node.fail("no layer has the id '\(key)'")
      }
      let name = try node.string()
      guard let mode = BlendMode(rawValue: name) else {
        let list = BlendMode.allCases.map(\.rawValue).joined(separator: ", ")
        throw node.fail("unknown blend mode '\(name)' (known: \(list))")
      }
      blendModes[key] = mode
    }
    return blendModes
  }

  /// `duration` (seconds, `> 0`), or the animations' end time when absent.
  func readDuration(_ node: Node?, animations: AnimationSet, root: Node) throws(SpecError)
    -> Double
  {
    if let d = node {
      let duration = try d.number()
      guard duration > 0 else { throw d.fail("must be greater than 0 (seconds)") }
      return duration
    }
    let duration = animations.endTime
    guard duration > 0 else {
      throw root.fail(
        "missing required key 'duration' (the animations give no positive end time to use)")
    }
    return duration
  }

  /// `sampleTimes`: at least one time, times `≥ 0` that do not decrease.
  func readSampleTimes(_ node: Node) throws(SpecError) -> [Double] {
    var sampleTimes: [Double] = []
    let nodes = try node.array()
    // Every command that reads the times draws or prints one frame per time: a list with no
    // time asks for nothing (a contact sheet of no frames has no columns).
    guard !nodes.isEmpty else {
      throw node.fail("must hold at least one time (leave it out for the default times)")
    }
    var previous = 0.0
    for node in nodes {
      let t = try node.number()
      guard t >= 0 else { throw node.fail("must not be negative (seconds)") }
      guard t >= previous else {
        throw node.fail("sample times must not decrease (\(t) after \(previous))")
      }
      previous = t
      sampleTimes.append(t)
    }
    return sampleTimes
  }

  /// Seven evenly spaced times from 0 to the end: the duration, or with an interaction the time
  /// its last event completes the transition (its last event's time plus the duration when it
  /// does not complete it).
  func suggestedSampleTimes(duration: Double, interaction: InteractionTimeline?)
    throws(SpecError) -> [Double]
  {
    var end = duration
    if let interaction, let last = interaction.events.last {
      let state = try building("$.interaction") { () throws(ValidationError) in
        try interaction.state(at: last.time)
      }
      end = state.completionTime ?? (last.time + duration)
      // A last event near the largest Double: keep the suggested times finite.
      if !end.isFinite { end = .greatestFiniteMagnitude }
    }
    return (0...6).map { end * (Double($0) / 6) }
  }

  // MARK: Layers

  func readLayer(_ node: Node) throws(SpecError) -> (Layer, (id: String, node: Node)?) {
    let o = try node.object(allowed: Self.layerKeys)
    var layer = Layer(id: try o.required("id").string())
    var parent: (id: String, node: Node)?
    if let p = o["parent"], p.value != .null {
      parent = (try p.string(), p)
      if parent!.id == layer.id { throw p.fail("a layer cannot be its own parent (cycle)") }
    }
    if let v = o["bounds"] {
      let r = try v.numbers(count: [4], what: "a rectangle [x, y, width, height]")
      layer.bounds = Rect(x: r[0], y: r[1], width: r[2], height: r[3])
    }
    if let v = o["position"] {
      let p = try v.numbers(count: [2], what: "a point [x, y]")
      layer.position = Point(x: p[0], y: p[1])
    }
    if let v = o["anchorPoint"] {
      let p = try v.numbers(count: [2], what: "a point [x, y] in unit coordinates")
      layer.anchorPoint = Point(x: p[0], y: p[1])
    }
    if let v = o["anchorPointZ"] { layer.anchorPointZ = try v.number() }
    if let v = o["zPosition"] { layer.zPosition = try v.number() }
    if let v = o["opacity"] { layer.opacity = try v.number() }
    func color(_ v: Node) throws(SpecError) -> RGBAColor {
      guard case .color(let c) = try SpecFile.readValue(v, kind: .color) else {
        throw v.fail("expected a colour")
      }
      return c
    }
    if let v = o["backgroundColor"] { layer.backgroundColor = try color(v) }
    if let v = o["cornerRadius"] { layer.cornerRadius = try v.number() }
    if let v = o["masksToBounds"] { layer.masksToBounds = try v.bool() }
    if let v = o["maskedCorners"] { layer.maskedCorners = try SpecFile.readCornerMask(v) }
    if let v = o["borderWidth"] { layer.borderWidth = try v.number() }
    if let v = o["borderColor"] { layer.borderColor = try color(v) }
    if let v = o["shadowOpacity"] { layer.shadowOpacity = try v.number() }
    if let v = o["shadowRadius"] { layer.shadowRadius = try v.number() }
    if let v = o["shadowOffset"] {
      let p = try v.numbers(count: [2], what: "a size [width, height] in points")
      layer.shadowOffset = Size(width: p[0], height: p[1])
    }
    if let v = o["shadowColor"] { layer.shadowColor = try color(v) }
    if let v = o["isTransformLayer"] { layer.isTransformLayer = try v.bool() }
    if let v = o["transform"] { layer.transform = try SpecFile.readTransform(v) }
    if let v = o["sublayerTransform"] { layer.sublayerTransform = try SpecFile.readTransform(v) }
    if let v = o["animations"] { _ = try v.array() }
    try readContent(o, into: &layer)
    try building(node.path) { () throws(ValidationError) in try layer.validate() }
    return (layer, parent)
  }

  // MARK: Animations

  func readProperty(_ node: Node) throws(SpecError) -> LayerProperty {
    let keyPath = try node.string()
    do {
      return try LayerProperty(keyPath: keyPath)
    } catch {
      if case .invalidState(let why) = error.reason { throw node.fail(why) }
      throw node.fail(
        "unknown key path '\(keyPath)' (known: opacity, position, position.x, position.y, zPosition, bounds, bounds.size, anchorPoint, transform, sublayerTransform, backgroundColor, cornerRadius, borderWidth, borderColor, shadowOpacity, shadowRadius, shadowOffset, shadowColor, contentsRect, contentsCenter, contentsScale, fontSize, foregroundColor, path, fillColor, strokeColor, lineWidth, miterLimit, lineDashPhase, strokeStart, strokeEnd, colors, locations, startPoint, endPoint, transform.rotation/scale/translation sub-paths, and in model changes masksToBounds and maskedCorners)"
      )
    }
  }

  func readAnimation(_ node: Node, layer: Layer) throws(SpecError) -> LayerAnimation {
    let o = try node.object()
    let typeNode = try o.required("type")
    let type = try typeNode.string()
    let allowed: [String]
    switch type {
    case "basic": allowed = Self.basicKeys
    case "keyframe": allowed = Self.keyframeKeys
    case "spring": allowed = Self.springKeys
    default:
      throw typeNode.fail("unknown animation type '\(type)' (known: basic, keyframe, spring)")
    }
    try o.check(allowed: allowed, context: "for a \(type) animation")
    let keyPathNode = try o.required("keyPath")
    let property = try readProperty(keyPathNode)
    guard property.isAnimatable else {
      throw keyPathNode.fail(
        "\(property.keyPath) is not animatable (set it on the layer, or change it with an event)")
    }
    do { try property.checkApplies(to: layer) } catch {
      if case .invalidState(let why) = error.reason { throw keyPathNode.fail(why) }
      throw SpecError(wrapping: error, at: keyPathNode.path)
    }
    let kind = property.valueKind
    let timing = try readTiming(o)
    let model = property.value(in: layer)
    func value(_ key: String) throws(SpecError) -> AnimationValue {
      guard let v = o[key] else { return model }
      return try SpecFile.readValue(v, kind: kind)
    }
    let content: LayerAnimation.Content
    var timingFunction: TimingFunction?
    if let f = o["timingFunction"] { timingFunction = try SpecFile.readTimingFunction(f) }
    switch type {
    case "basic":
      content = .basic(from: try value("fromValue"), to: try value("toValue"))
    case "spring":
      content = .spring(
        try readSpring(o, duration: timing.duration), from: try value("fromValue"),
        to: try value("toValue"))
    default:
      if o.has("path") {
        content = .path(try readPathTrack(o, kind: kind))
      } else {
        content = .keyframes(try readKeyframes(o, kind: kind))
      }
    }
    return try building(node.path) { () throws(ValidationError) in
      try LayerAnimation(
        property: property, content: content, timing: timing, timingFunction: timingFunction)
    }
  }

  func readTiming(_ o: Members) throws(SpecError) -> MediaTiming {
    var t = MediaTiming()
    if let v = o["beginTime"] { t.beginTime = try v.number() }
    if let v = o["duration"] {
      t.duration = try v.number()
      guard t.duration >= 0 else { throw v.fail("must not be negative (seconds)") }
    }
    if let v = o["speed"] { t.speed = try v.number() }
    if let v = o["timeOffset"] { t.timeOffset = try v.number() }
    func forever(_ node: Node) throws(SpecError) -> Double {
      if case .string(let s) = node.value {
        guard s == "infinity" else {
          throw node.fail("expected a number or \"infinity\", found the string '\(s)'")
        }
        return .infinity
      }
      let x = try node.number()
      guard x >= 0 else { throw node.fail("must not be negative") }
      return x
    }
    if let v = o["repeatCount"] { t.repeatCount = try forever(v) }
    if let v = o["repeatDuration"] { t.repeatDuration = try forever(v) }
    if let v = o["autoreverses"] { t.autoreverses = try v.bool() }
    if let v = o["fillMode"] {
      t.fillMode = try SpecFile.readName(v, SpecFile.fillModeNames, what: "fill mode")
    }
    return t.resolvedForAnimation()
  }

  func readSpring(_ o: Members, duration: Double) throws(SpecError) -> DampedSpring {
    let velocity = try o["initialVelocity"]?.number() ?? 0
    if let ratio = o["dampingRatio"] {
      for key in ["mass", "stiffness", "damping", "allowsOverdamping"] where o.has(key) {
        throw SpecError(
          path: JSONPath.member(o.path, key),
          message: "'\(key)' cannot be combined with 'dampingRatio' (UIKit's duration-based spring)"
        )
      }
      let zeta = try ratio.number()
      return try building(o.path) { () throws(ValidationError) in
        try DampedSpring.uiViewSpring(
          duration: duration, dampingRatio: zeta, initialVelocity: velocity)
      }
    }
    let mass = try o["mass"]?.number() ?? 1
    let stiffness = try o["stiffness"]?.number() ?? 100
    let damping = try o["damping"]?.number() ?? 10
    let overdamping = try o["allowsOverdamping"]?.bool() ?? false
    return try building(o.path) { () throws(ValidationError) in
      try DampedSpring(
        mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity,
        allowsOverdamping: overdamping)
    }
  }

  /// A keyframe animation's `keyTimes`, `calculationMode` (default linear) and
  /// `timingFunctions`.
  func readKeyframeTiming(_ o: Members) throws(SpecError) -> (
    [Double]?, CalculationMode, [TimingFunction]?
  ) {
    let keyTimes = try o["keyTimes"]?.numberList()
    var mode = CalculationMode.linear
    if let m = o["calculationMode"] {
      mode = try SpecFile.readName(m, SpecFile.calculationModeNames, what: "calculation mode")
    }
    var functions: [TimingFunction]?
    if let list = o["timingFunctions"] {
      var fs: [TimingFunction] = []
      for node in try list.array() { fs.append(try SpecFile.readTimingFunction(node)) }
      functions = fs
    }
    return (keyTimes, mode, functions)
  }

  func readKeyframes(_ o: Members, kind: AnimationValue.Kind) throws(SpecError) -> KeyframeValues {
    for key in Self.pathOnlyKeys where o.has(key) {
      throw SpecError(
        path: JSONPath.member(o.path, key),
        message: "'\(key)' needs a 'path' (it turns the layer with the path)")
    }
    let valueNodes = try o.required("values").array()
    var values: [AnimationValue] = []
    for node in valueNodes { values.append(try SpecFile.readValue(node, kind: kind)) }
    let (keyTimes, mode, functions) = try readKeyframeTiming(o)
    var trackFunction: TimingFunction?
    if let f = o["keyframeTimingFunction"] { trackFunction = try SpecFile.readTimingFunction(f) }
    let tension = try o["tensionValues"]?.numberList()
    let continuity = try o["continuityValues"]?.numberList()
    let bias = try o["biasValues"]?.numberList()
    return try building(o.path) { () throws(ValidationError) in
      try KeyframeValues(
        kind: kind, values: values, keyTimes: keyTimes, calculationMode: mode,
        timingFunctions: functions, timingFunction: trackFunction, tensionValues: tension,
        continuityValues: continuity, biasValues: bias)
    }
  }

  /// A keyframe animation along a `path`: its elements, `keyTimes` per vertex,
  /// `calculationMode`, `timingFunctions` per segment and `rotationMode`.
  func readPathTrack(_ o: Members, kind: AnimationValue.Kind) throws(SpecError)
    -> KeyframePathTrack
  {
    let pathNode = try o.required("path")
    for key in ["values"] + Self.valuesOnlyKeys where o.has(key) {
      throw SpecError(
        path: JSONPath.member(o.path, key), message: "'\(key)' cannot be combined with 'path'")
    }
    guard kind == .point else {
      throw pathNode.fail(
        "a path moves a point property (position, anchorPoint), not a \(kind.rawValue)")
    }
    let path = try SpecFile.readPath(pathNode)
    let (keyTimes, mode, functions) = try readKeyframeTiming(o)
    var rotation: RotationMode?
    if let r = o["rotationMode"] {
      rotation = try SpecFile.readName(r, SpecFile.rotationModeNames, what: "rotation mode")
    }
    return try building(o.path) { () throws(ValidationError) in
      try KeyframePathTrack(
        path: path, keyTimes: keyTimes, calculationMode: mode, timingFunctions: functions,
        rotationMode: rotation)
    }
  }

  // MARK: Model changes

  func readChange(_ o: Members) throws(SpecError) -> ModelChange {
    if let r = o["remove"] {
      for key in ["layer", "keyPath", "value"] where o.has(key) {
        throw SpecError(
          path: JSONPath.member(o.path, key),
          message: "'\(key)' cannot be combined with 'remove'")
      }
      let id = try r.string()
      guard layersByID[id] != nil else { throw r.fail("no layer has the id '\(id)'") }
      return .remove(layerID: id)
    }
    let layerNode = try o.required("layer")
    let id = try layerNode.string()
    guard layersByID[id] != nil else { throw layerNode.fail("no layer has the id '\(id)'") }
    let property = try readProperty(try o.required("keyPath"))
    let value = try SpecFile.readValue(try o.required("value"), kind: property.valueKind)
    return .set(layerID: id, property: property, value: value)
  }

  // MARK: Interaction

  func readInteraction(_ node: Node, duration: Double) throws(SpecError) -> InteractionTimeline {
    var eventsNode = node
    var wantsInteractiveStart = true
    var speed = 1.0
    var curve = TimingFunction.easeInEaseOut
    if case .object = node.value {
      let o = try node.object(
        allowed: ["wantsInteractiveStart", "completionSpeed", "completionCurve", "events"])
      if let v = o["wantsInteractiveStart"] { wantsInteractiveStart = try v.bool() }
      if let v = o["completionSpeed"] {
        speed = try v.number()
        guard speed > 0 else { throw v.fail("must be greater than 0") }
      }
      if let v = o["completionCurve"] { curve = try SpecFile.readTimingFunction(v) }
      eventsNode = try o.required("events")
    } else if case .array = node.value {
    } else {
      throw node.wrongType("an array of events or an object with 'events'")
    }
    var timeline = try building(node.path) { () throws(ValidationError) in
      try InteractionTimeline(
        duration: duration, completionSpeed: speed, completionCurve: curve,
        wantsInteractiveStart: wantsInteractiveStart)
    }
    var previous = 0.0
    for item in try eventsNode.array() {
      try appendInteractionEvent(item, after: &previous, to: &timeline)
    }
    return timeline
  }

  /// One interaction event (`time` and one of `update`, `pause`, `finish`, `cancel`; a finish or
  /// cancel may set the completion speed and curve), appended to `timeline`.
  func appendInteractionEvent(
    _ item: Node, after previous: inout Double, to timeline: inout InteractionTimeline
  ) throws(SpecError) {
    let o = try item.object(allowed: ["time", "update", "pause", "finish", "cancel"])
    let time = try SpecDecoder.readEventTime(o, after: &previous, events: "interaction events")
    let actions = o.keys.filter { $0 != "time" }
    guard actions.count == 1, let action = actions.first, let a = o[action] else {
      throw item.fail(
        "an interaction event has 'time' and exactly one of update, pause, finish, cancel")
    }
    let event: InteractionEvent
    switch action {
    case "update":
      event = .update(time: time, percent: try a.number())
    case "pause":
      guard try a.bool() else { throw a.fail("expected true") }
      event = .pause(time: time)
    default:
      try readCompletion(a, into: &timeline)
      event = action == "finish" ? .finish(time: time) : .cancel(time: time)
    }
    do throws(ValidationError) { try timeline.append(event) } catch {
      // The library names the event's index, which the path already holds.
      var e = error
      e.index = nil
      e.field = e.field == "time" ? "time" : e.field == "percentComplete" ? action : ""
      throw SpecError(wrapping: e, at: item.path)
    }
  }

  /// A finish or cancel: `true`, or an object that sets the completion speed and curve.
  func readCompletion(_ a: Node, into timeline: inout InteractionTimeline) throws(SpecError) {
    if case .bool(let flag) = a.value {
      guard flag else { throw a.fail("expected true or an object") }
      return
    }
    let c = try a.object(allowed: ["completionSpeed", "completionCurve"])
    if let v = c["completionSpeed"] {
      let k = try v.number()
      do throws(ValidationError) { try timeline.setCompletionSpeed(k) } catch {
        throw SpecError(wrapping: ValidationError(field: "", reason: error.reason), at: v.path)
      }
    }
    if let v = c["completionCurve"] {
      let f = try SpecFile.readTimingFunction(v)
      try building(v.path) { () throws(ValidationError) in
        try timeline.setCompletionCurve(f)
      }
    }
  }
}
