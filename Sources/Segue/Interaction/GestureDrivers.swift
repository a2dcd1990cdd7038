/// One sample of a pan gesture, as `UIPanGestureRecognizer` reports it, in the container's
/// coordinates (points, y-down).
public struct GestureSample: Hashable, Sendable {
  /// `location(in:)`: the touch, in points.
  public var location: Point
  /// `translation(in:)`: the displacement since the gesture began, in points.
  public var translation: Point
  /// `velocity(in:)`: points per second.
  public var velocity: Point

  /// Creates a sample.
  ///
  /// - Throws: ``ValidationError`` with ``ValidationError/Reason/notFinite`` on `"location.x"`,
  ///   `"location.y"`, `"translation.x"`, `"translation.y"`, `"velocity.x"` or `"velocity.y"`.
  public init(
    location: Point, translation: Point = .zero, velocity: Point = .zero
  ) throws(ValidationError) {
    try Validate.finite(location.x, "location.x")
    try Validate.finite(location.y, "location.y")
    try Validate.finite(translation.x, "translation.x")
    try Validate.finite(translation.y, "translation.y")
    try Validate.finite(velocity.x, "velocity.x")
    try Validate.finite(velocity.y, "velocity.y")
    self.location = location
    self.translation = translation
    self.velocity = velocity
  }
}

/// What to do with the interactive transition when the gesture ends.
public enum ReleaseDecision: String, Hashable, Sendable, CaseIterable {
  /// Call `finish()`.
  case finish
  /// Call `cancel()`.
  case cancel
}

/// How a release is decided.
public enum ReleaseRule: String, Hashable, Sendable, CaseIterable {
  /// The preset's own rule: finish if the percent is above the threshold, 0.5 (with the preset's
  /// handling of a cancelled gesture, ``GestureDriver/cancelsCancelledGestures``).
  case threshold
  /// The velocity rule of <doc:TransitionCatalog>: a horizontal velocity of at least one container
  /// width per second decides by its sign (`> 0`, towards completing, finishes; `< 0` cancels);
  /// otherwise the threshold decides. A cancelled gesture is handled as by ``threshold``.
  case velocity
}

/// Maps pan-gesture samples to a percent for `update(_:)` and a release decision, for one of the
/// interactive presets (`fade-slide`, `cross-dissolve`, `depth`).
///
/// All three complete towards `+x` (a swipe or drag to the right), so a positive `velocity.x` is
/// "towards completing".
public protocol GestureDriver: Sendable {
  /// The container width `W`, points, `> 0` (used by the velocity rule and the edge swipe).
  var containerWidth: Double { get }
  /// Whether a gesture whose first sample is `sample` starts an interactive transition.
  func begins(with sample: GestureSample) -> Bool
  /// The percent to pass to `update(_:)`, unitless in `[0, 1]`.
  func percent(for sample: GestureSample) -> Double
  /// The decision by the percent threshold (``ReleaseRule/threshold``) for a gesture that ended
  /// (`cancelled == false`, the recognizer's `.ended`) or was cancelled (`.cancelled`) with last
  /// sample `sample`.
  func thresholdDecision(for sample: GestureSample, cancelled: Bool) -> ReleaseDecision
  /// Whether a cancelled gesture cancels whatever its percent (the velocity rule then cancels it
  /// too).
  var cancelsCancelledGestures: Bool { get }
}

extension GestureDriver {
  /// The release decision under `rule`.
  ///
  /// With ``ReleaseRule/velocity``: when `|velocity.x| ≥ containerWidth` (one width per second),
  /// `velocity.x > 0` finishes and `velocity.x < 0` cancels, unless the driver cancels every
  /// cancelled gesture (then cancel); otherwise ``thresholdDecision(for:cancelled:)``.
  public func release(
    _ sample: GestureSample, cancelled: Bool = false, rule: ReleaseRule = .threshold
  ) -> ReleaseDecision {
    switch rule {
    case .threshold:
      return thresholdDecision(for: sample, cancelled: cancelled)
    case .velocity:
      if cancelled && cancelsCancelledGestures { return .cancel }
      let v = sample.velocity.x
      if abs(v) >= containerWidth { return v > 0 ? .finish : .cancel }
      return thresholdDecision(for: sample, cancelled: cancelled)
    }
  }

}

/// Validates a container width.
private func checkedWidth(_ width: Double) throws(ValidationError) -> Double {
  try Validate.positive(width, "containerWidth")
  return width
}

/// An interactive preset's gesture rules as data: which coordinate drives the percent, its divisor
/// and cap, where a gesture may begin, and how a release is decided.
///
/// - percent `= clamp(v / span, 0, cap)`, `v` = `translation.x` or `location.x` (``input``);
/// - begins: always, or only when the first sample's `location.x ≤ edgeLimit`;
/// - threshold decision: cancel a cancelled gesture when ``cancelsCancelledGestures``, otherwise
///   finish iff percent `> threshold`;
/// - the velocity rule (``GestureDriver/release(_:cancelled:rule:)``) compares `|velocity.x|`
///   with ``containerWidth`` (one width per second).
///
/// The presets' drivers (``FadeSlideEdgeSwipe``, ``CrossDissolvePan``, ``DepthPan``) are defined by
/// their `rules` (``DepthPan/rules``, …): each evaluates its rules, so a re-implementation that reads these values (the
/// command line tool's web preview writes them into its page) follows the same constants.
public struct GestureRules: GestureDriver, Hashable {
  /// The sample coordinate that drives the percent.
  public enum Input: String, Hashable, Sendable, CaseIterable {
    /// `translation(in:).x`: the displacement since the gesture began.
    case translationX = "translation.x"
    /// `location(in:).x`: where the touch is.
    case locationX = "location.x"
  }

  /// `W`, points, `> 0`: the velocity rule's threshold, one width per second.
  public let containerWidth: Double
  /// The coordinate divided by ``span``.
  public let input: Input
  /// The divisor, points, `> 0`.
  public let span: Double
  /// The largest percent, in `[0, 1]`.
  public let cap: Double
  /// A gesture begins only when its first sample's `location.x ≤ edgeLimit` (points); `nil`:
  /// always.
  public let edgeLimit: Double?
  /// The release threshold: finish iff percent `> threshold` (0.5 for every preset).
  public let threshold: Double
  /// Whether a cancelled gesture cancels whatever its percent.
  public let cancelsCancelledGestures: Bool

  /// Creates rules.
  ///
  /// - Throws: ``ValidationError`` on `"containerWidth"` or `"span"` (not finite, not positive),
  ///   `"cap"` or `"threshold"` (outside `[0, 1]`), `"edgeLimit"` (not finite).
  public init(
    containerWidth: Double, input: Input, span: Double, cap: Double = 1,
    edgeLimit: Double? = nil, threshold: Double = 0.5, cancelsCancelledGestures: Bool
  ) throws(ValidationError) {
    self.containerWidth = try checkedWidth(containerWidth)
    try Validate.positive(span, "span")
    try Validate.inRange(cap, 0, 1, "cap")
    try Validate.inRange(threshold, 0, 1, "threshold")
    if let edgeLimit { try Validate.finite(edgeLimit, "edgeLimit") }
    self.input = input
    self.span = span
    self.cap = cap
    self.edgeLimit = edgeLimit
    self.threshold = threshold
    self.cancelsCancelledGestures = cancelsCancelledGestures
  }

  /// `edgeLimit == nil || location.x ≤ edgeLimit`.
  public func begins(with sample: GestureSample) -> Bool {
    guard let edgeLimit else { return true }
    return sample.location.x <= edgeLimit
  }

  /// `clamp(v / span, 0, cap)`.
  public func percent(for sample: GestureSample) -> Double {
    let v = input == .translationX ? sample.translation.x : sample.location.x
    return Swift.min(Swift.max(v / span, 0), cap)
  }

  /// `.cancel` for a cancelled gesture when ``cancelsCancelledGestures``; otherwise `.finish` iff
  /// percent `> threshold`.
  public func thresholdDecision(for sample: GestureSample, cancelled: Bool) -> ReleaseDecision {
    if cancelled && cancelsCancelledGestures { return .cancel }
    return percent(for: sample) > threshold ? .finish : .cancel
  }
}

/// A gesture driver defined by its ``GestureRules``: every member of ``GestureDriver`` is the
/// rules' own (``FadeSlideEdgeSwipe``, ``CrossDissolvePan``, ``DepthPan``).
public protocol GestureRulesDriver: GestureDriver {
  /// The rules the driver evaluates.
  var rules: GestureRules { get }
}

extension GestureRulesDriver {
  /// `W`, points: ``GestureRules/containerWidth``.
  public var containerWidth: Double { rules.containerWidth }

  /// ``GestureRules/cancelsCancelledGestures``.
  public var cancelsCancelledGestures: Bool { rules.cancelsCancelledGestures }

  /// ``GestureRules/begins(with:)``.
  public func begins(with sample: GestureSample) -> Bool { rules.begins(with: sample) }

  /// ``GestureRules/percent(for:)``.
  public func percent(for sample: GestureSample) -> Double { rules.percent(for: sample) }

  /// ``GestureRules/thresholdDecision(for:cancelled:)``.
  public func thresholdDecision(for sample: GestureSample, cancelled: Bool) -> ReleaseDecision {
    rules.thresholdDecision(for: sample, cancelled: cancelled)
  }
}

/// `fade-slide`: the left-edge swipe of `UIScreenEdgePanGestureRecognizer` drives an
/// interactive pop.
///
/// - percent `= clamp(translation.x / W, 0, 1)`: a swipe back to the left of where it began
///   (negative translation) gives 0, not a negative percent; past a full width gives 1.
/// - begins: always; the edge recognizer has already decided that the touch began at the left
///   edge (its edge region is UIKit's and undocumented).
/// - release: finish if percent `> 0.5`, else cancel. The animator this preset reproduces names no
///   rule for a cancelled gesture; Segue cancels it (a cancelled recognizer is not a user's
///   release).
public struct FadeSlideEdgeSwipe: GestureRulesDriver, Hashable {
  /// The rules above, with `span = W`.
  public let rules: GestureRules

  /// - Throws: ``ValidationError`` on `"containerWidth"` (not finite, not positive).
  public init(containerWidth: Double = 390) throws(ValidationError) {
    let width = try checkedWidth(containerWidth)
    rules = try GestureRules(
      containerWidth: width, input: .translationX, span: width, cancelsCancelledGestures: true)
  }
}

/// `cross-dissolve`: a pan anywhere.
///
/// - percent `= clamp(location.x / 300, 0, 0.99)` (the preset's constants; the 0.99 cap keeps the
///   paused animations from reaching their end).
/// - begins: always.
/// - release: on `.ended` **or** `.cancelled`, finish if percent `> 0.5`, else cancel.
public struct CrossDissolvePan: GestureRulesDriver, Hashable {
  /// The divisor, 300 points.
  public static let span = 300.0
  /// The cap, 0.99.
  public static let cap = 0.99
  /// The rules above.
  public let rules: GestureRules

  /// - Throws: ``ValidationError`` on `"containerWidth"`.
  public init(containerWidth: Double = 390) throws(ValidationError) {
    rules = try GestureRules(
      containerWidth: checkedWidth(containerWidth), input: .locationX, span: Self.span,
      cap: Self.cap, cancelsCancelledGestures: false)
  }
}

/// `depth`: a pan that starts a pop only near the left edge.
///
/// - begins: only when the first sample's `location.x ≤ 50`; otherwise the gesture starts
///   nothing (no transition, so no percent or release applies).
/// - percent `= clamp(translation.x / 200, 0, 1)` (negative translation gives 0).
/// - release: finish if percent `> 0.5` and the gesture was not cancelled, else cancel.
public struct DepthPan: GestureRulesDriver, Hashable {
  /// The edge limit, 50 points.
  public static let edgeLimit = 50.0
  /// The divisor, 200 points.
  public static let span = 200.0
  /// The rules above.
  public let rules: GestureRules

  /// - Throws: ``ValidationError`` on `"containerWidth"`.
  public init(containerWidth: Double = 390) throws(ValidationError) {
    rules = try GestureRules(
      containerWidth: checkedWidth(containerWidth), input: .translationX, span: Self.span,
      edgeLimit: Self.edgeLimit, cancelsCancelledGestures: true)
  }
}

extension TransitionPreset {
  /// The rules of the gesture that drives the preset's interactive transition, for a container
  /// `containerWidth` points wide, or `nil` when the preset has none of its own:
  /// `fade-slide` ``FadeSlideEdgeSwipe`` (its interactive pop), `cross-dissolve`
  /// ``CrossDissolvePan`` (push and pop alike), `depth` ``DepthPan`` (pop).
  ///
  /// - Throws: ``ValidationError`` on `"containerWidth"` (not finite, not positive).
  public func defaultGesture(containerWidth: Double) throws(ValidationError) -> GestureRules? {
    switch self {
    case .fadeSlide: return try FadeSlideEdgeSwipe(containerWidth: containerWidth).rules
    case .crossDissolve: return try CrossDissolvePan(containerWidth: containerWidth).rules
    case .depth: return try DepthPan(containerWidth: containerWidth).rules
    case .system, .hero, .slideOver, .caFade, .caMoveIn, .caPush, .caReveal:
      _ = try checkedWidth(containerWidth)
      return nil
    }
  }
}
