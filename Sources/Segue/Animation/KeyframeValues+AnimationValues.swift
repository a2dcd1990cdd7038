extension KeyframeValues {
  /// The track of `kind` whose keys are `values` (each of that kind), with the parameters of
  /// ``KeyframeTrack``'s initialiser: what a `CAKeyframeAnimation`'s type-erased `values` become.
  ///
  /// - Throws: ``ValidationError`` on `"values"`: ``ValidationError/Reason/invalidState(_:)`` for a
  ///   kind that does not animate (``AnimationValue/Kind/boolean``,
  ///   ``AnimationValue/Kind/cornerMask``) or, with the key's index, a value of another kind; then
  ///   the errors of ``KeyframeTrack``'s initialiser.
  public init(
    kind: AnimationValue.Kind, values: [AnimationValue], keyTimes: [Double]? = nil,
    calculationMode: CalculationMode = .linear, timingFunctions: [TimingFunction]? = nil,
    timingFunction: TimingFunction? = nil, tensionValues: [Double]? = nil,
    continuityValues: [Double]? = nil, biasValues: [Double]? = nil
  ) throws(ValidationError) {
    for (i, value) in values.enumerated() where value.kind != kind {
      throw ValidationError(
        field: "values", index: i,
        reason: .invalidState("is a \(value.kind.rawValue), not a \(kind.rawValue)"))
    }
    func track<V: Interpolatable>(_ keys: [V]) throws(ValidationError) -> KeyframeTrack<V> {
      try KeyframeTrack(
        values: keys, keyTimes: keyTimes, calculationMode: calculationMode,
        timingFunctions: timingFunctions, timingFunction: timingFunction,
        tensionValues: tensionValues, continuityValues: continuityValues, biasValues: biasValues)
    }
    func listTrack<V: InterpolatableList>(_ keys: [V]) throws(ValidationError)
      -> KeyframeListTrack<V>
    {
      try KeyframeListTrack(
        values: keys, keyTimes: keyTimes, calculationMode: calculationMode,
        timingFunctions: timingFunctions, timingFunction: timingFunction,
        tensionValues: tensionValues, continuityValues: continuityValues, biasValues: biasValues)
    }
    switch kind {
    case .number: self = .numbers(try track(values.compactMap(\.number)))
    case .point: self = .points(try track(values.compactMap(\.point)))
    case .size: self = .sizes(try track(values.compactMap(\.size)))
    case .rect: self = .rects(try track(values.compactMap(\.rect)))
    case .transform: self = .transforms(try track(values.compactMap(\.transform)))
    case .color: self = .colors(try track(values.compactMap(\.color)))
    case .path: self = .paths(try listTrack(values.compactMap(\.path)))
    case .colorList: self = .colorLists(try listTrack(values.compactMap(\.colorList)))
    case .numberList: self = .numberLists(try listTrack(values.compactMap(\.numberList)))
    case .boolean, .cornerMask:
      throw ValidationError(
        field: "values", reason: .invalidState("\(kind.rawValue) values do not animate"))
    }
  }
}

extension AnimationValue {
  /// The payload of ``number(_:)``, else `nil`.
  var number: Double? { if case .number(let v) = self { v } else { nil } }
  /// The payload of ``point(_:)``, else `nil`.
  var point: Point? { if case .point(let v) = self { v } else { nil } }
  /// The payload of ``size(_:)``, else `nil`.
  var size: Size? { if case .size(let v) = self { v } else { nil } }
  /// The payload of ``rect(_:)``, else `nil`.
  var rect: Rect? { if case .rect(let v) = self { v } else { nil } }
  /// The payload of ``transform(_:)``, else `nil`.
  var transform: Transform3D? { if case .transform(let v) = self { v } else { nil } }
  /// The payload of ``color(_:)``, else `nil`.
  var color: RGBAColor? { if case .color(let v) = self { v } else { nil } }
  /// The payload of ``path(_:)``, else `nil`.
  var path: BezierPath? { if case .path(let v) = self { v } else { nil } }
  /// The payload of ``colorList(_:)``, else `nil`.
  var colorList: [RGBAColor]? { if case .colorList(let v) = self { v } else { nil } }
  /// The payload of ``numberList(_:)``, else `nil`.
  var numberList: [Double]? { if case .numberList(let v) = self { v } else { nil } }
}
