import Segue

extension SpecFile {
  /// Writes `scene` (and `interaction`, if given) as a spec, so that
  /// `decode(encode(scene:interaction:))` samples exactly as `scene` does.
  ///
  /// Layers are written in the model tree's order (parents before children) with their `parent`
  /// id and every property that differs from `CALayer`'s default (`bounds` and `position`
  /// always); each layer's animations follow in the order they were added (the order that
  /// decides which of two animations of one property shows). Transforms are written as 16
  /// numbers; numbers in the shortest form that reads back to the same `Double`, so values are
  /// exact. Timing fields are written when they differ from `CAMediaTiming`'s defaults
  /// (`duration` always); `repeatCount`/`repeatDuration` of `+infinity` as `"infinity"`. Blend
  /// modes are written sorted by layer id. The document has `"version": 1`, the scene's
  /// `duration` and `container`, and no `sampleTimes`.
  ///
  /// A ``/Segue/TransitionScene`` is always representable; the result has unique keys and finite numbers.
  public static func encode(scene: TransitionScene, interaction: InteractionTimeline? = nil)
    -> JSONValue
  {
    var top: [(String, JSONValue)] = [
      ("version", .number(Double(version))),
      ("duration", .number(scene.duration)),
      ("container", numbers([scene.containerSize.width, scene.containerSize.height])),
    ]
    var byLayer: [String: [LayerAnimation]] = [:]
    for entry in scene.animations.entries {
      byLayer[entry.layerID, default: []].append(entry.animation)
    }
    var layers: [JSONValue] = []
    let model = scene.model
    for (index, layer) in model.layers.enumerated() {
      let parent = (try? model.parentIndex(at: index)).flatMap { $0 }.map { model.layers[$0].id }
      layers.append(writeLayer(layer, parent: parent, animations: byLayer[layer.id] ?? []))
    }
    top.append(("layers", .array(layers)))
    if !scene.events.isEmpty {
      top.append(
        (
          "events",
          .array(scene.events.map { writeChange($0.change, time: $0.time) })
        ))
    }
    if !scene.finishChanges.isEmpty {
      top.append(("finish", .array(scene.finishChanges.map { writeChange($0, time: nil) })))
    }
    if !scene.cancelChanges.isEmpty {
      top.append(("cancel", .array(scene.cancelChanges.map { writeChange($0, time: nil) })))
    }
    if !scene.blendModes.isEmpty {
      top.append(
        (
          "blendModes",
          .object(
            scene.blendModes.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value.rawValue)) }
          )
        ))
    }
    if let interaction { top.append(("interaction", writeInteraction(interaction))) }
    return .object(top)
  }

  static func writeLayer(_ layer: Layer, parent: String?, animations: [LayerAnimation]) -> JSONValue
  {
    let defaults = Layer(id: layer.id)
    var o: [(String, JSONValue)] = [("id", .string(layer.id))]
    if let parent { o.append(("parent", .string(parent))) }
    o.append(("bounds", writeValue(.rect(layer.bounds))))
    o.append(("position", writeValue(.point(layer.position))))
    if layer.anchorPoint != defaults.anchorPoint {
      o.append(("anchorPoint", writeValue(.point(layer.anchorPoint))))
    }
    if layer.anchorPointZ != 0 { o.append(("anchorPointZ", .number(layer.anchorPointZ))) }
    if layer.zPosition != 0 { o.append(("zPosition", .number(layer.zPosition))) }
    if layer.opacity != 1 { o.append(("opacity", .number(layer.opacity))) }
    if layer.backgroundColor != defaults.backgroundColor {
      o.append(("backgroundColor", writeValue(.color(layer.backgroundColor))))
    }
    if layer.isTransformLayer { o.append(("isTransformLayer", .bool(true))) }
    if layer.cornerRadius != defaults.cornerRadius {
      o.append(("cornerRadius", .number(layer.cornerRadius)))
    }
    if layer.masksToBounds { o.append(("masksToBounds", .bool(true))) }
    if layer.maskedCorners != defaults.maskedCorners {
      o.append(("maskedCorners", SpecFile.writeValue(.cornerMask(layer.maskedCorners))))
    }
    if layer.borderWidth != defaults.borderWidth {
      o.append(("borderWidth", .number(layer.borderWidth)))
    }
    if layer.borderColor != defaults.borderColor {
      o.append(("borderColor", writeValue(.color(layer.borderColor))))
    }
    if layer.shadowOpacity != defaults.shadowOpacity {
      o.append(("shadowOpacity", .number(layer.shadowOpacity)))
    }
    if layer.shadowRadius != defaults.shadowRadius {
      o.append(("shadowRadius", .number(layer.shadowRadius)))
    }
    if layer.shadowOffset != defaults.shadowOffset {
      o.append(("shadowOffset", writeValue(.size(layer.shadowOffset))))
    }
    if layer.shadowColor != defaults.shadowColor {
      o.append(("shadowColor", writeValue(.color(layer.shadowColor))))
    }
    if layer.transform != .identity {
      o.append(("transform", writeValue(.transform(layer.transform))))
    }
    if layer.sublayerTransform != .identity {
      o.append(("sublayerTransform", writeValue(.transform(layer.sublayerTransform))))
    }
    o += writeContent(layer)
    if !animations.isEmpty { o.append(("animations", .array(animations.map(writeAnimation)))) }
    return .object(o)
  }

  static func writeAnimation(_ a: LayerAnimation) -> JSONValue {
    var o: [(String, JSONValue)] = [("keyPath", .string(a.property.keyPath))]
    switch a.content {
    case .basic(let from, let to):
      o.append(("type", .string("basic")))
      o.append(("fromValue", writeValue(from)))
      o.append(("toValue", writeValue(to)))
    case .spring(let spring, let from, let to):
      o.append(("type", .string("spring")))
      o.append(("fromValue", writeValue(from)))
      o.append(("toValue", writeValue(to)))
      o.append(("mass", .number(spring.mass)))
      o.append(("stiffness", .number(spring.stiffness)))
      o.append(("damping", .number(spring.damping)))
      o.append(("initialVelocity", .number(spring.initialVelocity)))
      if spring.allowsOverdamping { o.append(("allowsOverdamping", .bool(true))) }
    case .keyframes(let values):
      o.append(("type", .string("keyframe")))
      o += writeKeyframes(values)
    case .path(let track):
      o.append(("type", .string("keyframe")))
      o += writePathTrack(track)
    }
    if let f = a.timingFunction { o.append(("timingFunction", writeTimingFunction(f))) }
    if a.isAdditive { o.append(("additive", .bool(true))) }
    let t = a.timing
    if t.beginTime != 0 { o.append(("beginTime", .number(t.beginTime))) }
    o.append(("duration", .number(t.duration)))
    if t.speed != 1 { o.append(("speed", .number(t.speed))) }
    if t.timeOffset != 0 { o.append(("timeOffset", .number(t.timeOffset))) }
    func forever(_ x: Double) -> JSONValue { x == .infinity ? .string("infinity") : .number(x) }
    if t.repeatCount != 0 { o.append(("repeatCount", forever(t.repeatCount))) }
    if t.repeatDuration != 0 { o.append(("repeatDuration", forever(t.repeatDuration))) }
    if t.autoreverses { o.append(("autoreverses", .bool(true))) }
    if t.fillMode != .removed { o.append(("fillMode", .string(t.fillMode.rawValue))) }
    return .object(o)
  }

  static func writeKeyframes(_ values: KeyframeValues) -> [(String, JSONValue)] {
    func fields<V: Interpolatable>(_ track: KeyframeTrack<V>, _ wrap: (V) -> AnimationValue)
      -> [(String, JSONValue)]
    {
      trackFields(
        values: track.values.map { writeValue(wrap($0)) }, keyTimes: track.keyTimes,
        calculationMode: track.calculationMode, timingFunctions: track.timingFunctions,
        tension: track.tensionValues, continuity: track.continuityValues,
        bias: track.biasValues, trackFunction: track.timingFunction)
    }
    switch values {
    case .numbers(let t): return fields(t) { .number($0) }
    case .points(let t): return fields(t) { .point($0) }
    case .sizes(let t): return fields(t) { .size($0) }
    case .rects(let t): return fields(t) { .rect($0) }
    case .transforms(let t): return fields(t) { .transform($0) }
    case .colors(let t): return fields(t) { .color($0) }
    case .paths(let t): return listFields(t) { .path($0) }
    case .colorLists(let t): return listFields(t) { .colorList($0) }
    case .numberLists(let t): return listFields(t) { .numberList($0) }
    }
  }

  /// The keys of a list track (paths, colour lists, number lists): as a fixed-size track's.
  static func listFields<V: InterpolatableList>(
    _ track: KeyframeListTrack<V>, _ wrap: (V) -> AnimationValue
  ) -> [(String, JSONValue)] {
    trackFields(
      values: track.values.map { writeValue(wrap($0)) }, keyTimes: track.keyTimes,
      calculationMode: track.calculationMode, timingFunctions: track.timingFunctions,
      tension: track.tensionValues, continuity: track.continuityValues, bias: track.biasValues,
      trackFunction: track.timingFunction)
  }

  /// The keys of a keyframe track with `values`, those that differ from the defaults.
  static func trackFields(
    values: [JSONValue], keyTimes: [Double]?, calculationMode: CalculationMode,
    timingFunctions: [TimingFunction]?, tension: [Double]?, continuity: [Double]?,
    bias: [Double]?, trackFunction: TimingFunction?
  ) -> [(String, JSONValue)] {
    var o: [(String, JSONValue)] = [("values", .array(values))]
    if let k = keyTimes { o.append(("keyTimes", numbers(k))) }
    if calculationMode != .linear {
      o.append(("calculationMode", .string(calculationMode.rawValue)))
    }
    if let fs = timingFunctions {
      o.append(("timingFunctions", .array(fs.map(writeTimingFunction))))
    }
    if let v = tension { o.append(("tensionValues", numbers(v))) }
    if let v = continuity { o.append(("continuityValues", numbers(v))) }
    if let v = bias { o.append(("biasValues", numbers(v))) }
    if let f = trackFunction { o.append(("keyframeTimingFunction", writeTimingFunction(f))) }
    return o
  }

  static func writePathTrack(_ track: KeyframePathTrack) -> [(String, JSONValue)] {
    var o: [(String, JSONValue)] = [("path", writePath(track.path))]
    if let k = track.keyTimes { o.append(("keyTimes", numbers(k))) }
    if track.calculationMode != .linear {
      o.append(("calculationMode", .string(track.calculationMode.rawValue)))
    }
    if let fs = track.timingFunctions {
      o.append(("timingFunctions", .array(fs.map(writeTimingFunction))))
    }
    if let r = track.rotationMode { o.append(("rotationMode", .string(r.rawValue))) }
    return o
  }

  static func writeChange(_ change: ModelChange, time: Double?) -> JSONValue {
    var o: [(String, JSONValue)] = []
    if let time { o.append(("time", .number(time))) }
    switch change {
    case .set(let id, let property, let value):
      o.append(("layer", .string(id)))
      o.append(("keyPath", .string(property.keyPath)))
      o.append(("value", writeValue(value)))
    case .remove(let id):
      o.append(("remove", .string(id)))
    }
    return .object(o)
  }

  static func writeInteraction(_ timeline: InteractionTimeline) -> JSONValue {
    var o: [(String, JSONValue)] = []
    if !timeline.wantsInteractiveStart { o.append(("wantsInteractiveStart", .bool(false))) }
    if timeline.completionSpeed != 1 {
      o.append(("completionSpeed", .number(timeline.completionSpeed)))
    }
    if timeline.completionCurve != .easeInEaseOut {
      o.append(("completionCurve", writeTimingFunction(timeline.completionCurve)))
    }
    let events: [JSONValue] = timeline.events.map { event in
      let action: (String, JSONValue)
      switch event {
      case .update(_, let p): action = ("update", .number(p))
      case .pause: action = ("pause", .bool(true))
      case .finish: action = ("finish", .object([]))
      case .cancel: action = ("cancel", .object([]))
      }
      return .object([("time", .number(event.time)), action])
    }
    o.append(("events", .array(events)))
    return .object(o)
  }
}
