/// One property animation as plain data: Core Animation's `CABasicAnimation`,
/// `CAKeyframeAnimation` and `CASpringAnimation`, with their `CAMediaTiming`.
///
/// An animation is a description, not an object graph of closures: the scalar evaluator here and
/// the batch kernels read the same fields. Evaluating at a parent time `t` goes
///
///     t ──MediaTiming──▶ iteration progress p ∈ [0, 1] ──timingFunction──▶ eased e
///       ──content──▶ value
///
/// where the content is `from + (to − from)·e` for a basic animation, the keyframe track at `e`
/// for a keyframe animation (or the point on its path, ``KeyframePathTrack``), and `from + (to − from)·x(e·duration)` for a spring whose progress
/// `x(τ)` runs on the spring's own clock (seconds; CA's `duration` only decides how long it is
/// shown). Transforms interpolate by decomposition, everything else channel by channel.
public struct LayerAnimation: Equatable, Sendable {
  /// What the animation computes from its eased progress.
  public enum Content: Equatable, Sendable {
    /// `CABasicAnimation`: `fromValue` to `toValue`.
    case basic(from: AnimationValue, to: AnimationValue)
    /// `CAKeyframeAnimation`: a keyframe track over the eased progress.
    case keyframes(KeyframeValues)
    /// `CASpringAnimation`: `fromValue` to `toValue` along the spring's progress (which may
    /// overshoot 1).
    case spring(DampedSpring, from: AnimationValue, to: AnimationValue)
    /// `CAKeyframeAnimation` with a `path` (and `rotationMode`): a point property along the
    /// path at the eased progress; with a rotation mode the layer also turns with the path
    /// (``AnimationSet/presentation(of:at:)`` applies the rotation).
    case path(KeyframePathTrack)
  }

  /// The animated property (`keyPath`).
  public var property: LayerProperty
  /// What is animated and how.
  public var content: Content
  /// `beginTime`, `duration`, `speed`, `timeOffset`, repeats, `autoreverses`, `fillMode`.
  public var timing: MediaTiming
  /// `CAAnimation.timingFunction`; `nil` means linear pacing, as in Core Animation
  /// (<doc:TransitionCatalog#Default-timing-curves>).
  public var timingFunction: TimingFunction?
  /// `CAPropertyAnimation.isAdditive`: the animation's value is added to the value presented
  /// beneath it (the model and the animations before it) instead of replacing it: channel by
  /// channel for numbers, points, sizes and rectangles, concatenated before it for transforms
  /// (`value · beneath`, ``AnimationValue/additive(_:over:)``). Basic and spring content only.
  /// ``TransitionScene/retarget(_:of:to:at:duration:timingParameters:)`` makes such animations.
  public var isAdditive: Bool

  /// Creates an animation and checks it.
  ///
  /// - Throws: ``ValidationError`` on `"keyPath"` for a property that is not animatable
  ///   (``LayerProperty/isAnimatable``); when a value is not finite (`fromValue`, `toValue`), a value's
  ///   kind does not match the property (`fromValue`/`toValue`/`values`, or `path` on a property
  ///   that is not a point), two paths or lists cannot be interpolated (`toValue`: another
  ///   element count or length, ``ValidationError/Reason/countMismatch(expected:actual:)``;
  ///   another element kind at an index, ``ValidationError/Reason/invalidState(_:)``), or the
  ///   media timing is
  ///   invalid (see ``MediaTiming/validate()``), or its duration is not positive; on `"isAdditive"`
  ///   for an additive animation of another kind than a number, point, size, rectangle or
  ///   transform, or with keyframe or path content.
  public init(
    property: LayerProperty, content: Content, timing: MediaTiming,
    timingFunction: TimingFunction? = nil, isAdditive: Bool = false
  ) throws(ValidationError) {
    self.property = property
    self.content = content
    self.timing = timing
    self.timingFunction = timingFunction
    self.isAdditive = isAdditive
    try validate()
  }

  /// A `CABasicAnimation` from `from` to `to` over `duration` seconds starting at `beginTime`.
  public static func basic(
    _ property: LayerProperty, from: AnimationValue, to: AnimationValue,
    beginTime: Double = 0, duration: Double, timingFunction: TimingFunction? = nil,
    fillMode: MediaTiming.FillMode = .both
  ) throws(ValidationError) -> LayerAnimation {
    var timing = MediaTiming()
    timing.beginTime = beginTime
    timing.duration = duration
    timing.fillMode = fillMode
    return try LayerAnimation(
      property: property, content: .basic(from: from, to: to), timing: timing,
      timingFunction: timingFunction)
  }

  /// Checks the fields; see ``init(property:content:timing:timingFunction:isAdditive:)``.
  public func validate() throws(ValidationError) {
    guard property.isAnimatable else {
      throw ValidationError(
        field: "keyPath", reason: .invalidState("\(property.keyPath) is not animatable"))
    }
    if isAdditive { try validateAdditive() }
    try timing.validate()
    try Validate.positive(timing.duration, "duration")
    let kind = property.valueKind
    func check(_ value: AnimationValue, _ field: String) throws(ValidationError) {
      try value.validate(field: field)
      guard value.kind == kind else {
        throw ValidationError(
          field: field,
          reason: .invalidState(
            "is a \(value.kind.rawValue) but \(property.keyPath) holds a \(kind.rawValue)"))
      }
    }
    func checkLayouts(_ from: AnimationValue, _ to: AnimationValue) throws(ValidationError) {
      if let (index, reason) = from.layoutMismatch(with: to) {
        throw ValidationError(field: "toValue", index: index, reason: reason)
      }
    }
    switch content {
    case .basic(let from, let to), .spring(_, let from, let to):
      try check(from, "fromValue")
      try check(to, "toValue")
      try checkLayouts(from, to)
    case .path:
      guard kind == .point else {
        throw ValidationError(
          field: "path",
          reason: .invalidState(
            "moves a point, but \(property.keyPath) holds a \(kind.rawValue)"))
      }
    case .keyframes(let values):
      guard values.kind == kind else {
        throw ValidationError(
          field: "values",
          reason: .invalidState(
            "are \(values.kind.rawValue) values but \(property.keyPath) holds a \(kind.rawValue)"))
      }
    }
  }
}
