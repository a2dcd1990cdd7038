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
  /// The seed's own rule: finish if the percent is `> 0.5` (with the seed's handling of a
  /// cancelled gesture).
  case seedThreshold
  /// The velocity rule of <doc:TransitionCatalog>: a horizontal velocity of at least one container
  /// width per second decides by its sign (`> 0`, towards completing, finishes; `< 0` cancels);
  /// otherwise the seed's threshold decides. A cancelled gesture is handled as by the seed.
  case velocity
}

/// Maps pan-gesture samples to a percent for `update(_:)` and a release decision, for one of the
/// seeds' interactive transitions.
///
/// All three seeds complete towards `+x` (a swipe or drag to the right), so a positive
/// `velocity.x` is "towards completing".
public protocol GestureDriver: Sendable {
  /// The container width `W`, points, `> 0` (used by the velocity rule and the edge swipe).
  var containerWidth: Double { get }
  /// Whether a gesture whose first sample is `sample` starts an interactive transition.
  func begins(with sample: GestureSample) -> Bool
  /// The percent to pass to `update(_:)`, unitless in `[0, 1]`.
  func percent(for sample: GestureSample) -> Double
  /// The seed's decision for a gesture that ended (`cancelled == false`, the recognizer's
  /// `.ended`) or was cancelled (`.cancelled`) with last sample `sample`.
  func seedDecision(for sample: GestureSample, cancelled: Bool) -> ReleaseDecision
  /// Whether the seed cancels a cancelled gesture whatever its percent (the velocity rule then
  /// cancels it too).
  var cancelsCancelledGestures: Bool { get }
}

extension GestureDriver {
  /// The release decision under `rule`.
  ///
  /// With ``ReleaseRule/velocity``: when `|velocity.x| ≥ containerWidth` (one width per second),
  /// `velocity.x > 0` finishes and `velocity.x < 0` cancels, unless the seed cancels every
  /// cancelled gesture (then cancel); otherwise ``seedDecision(for:cancelled:)``.
  public func release(
    _ sample: GestureSample, cancelled: Bool = false, rule: ReleaseRule = .seedThreshold
  ) -> ReleaseDecision {
    switch rule {
    case .seedThreshold:
      return seedDecision(for: sample, cancelled: cancelled)
    case .velocity:
      if cancelled && cancelsCancelledGestures { return .cancel }
      let v = sample.velocity.x
      if abs(v) >= containerWidth { return v > 0 ? .finish : .cancel }
      return seedDecision(for: sample, cancelled: cancelled)
    }
  }

}

/// Validates a container width.
private func checkedWidth(_ width: Double) throws(ValidationError) -> Double {
  try Validate.positive(width, "containerWidth")
  return width
}

/// `fade-slide` (seed 000): the left-edge swipe of `UIScreenEdgePanGestureRecognizer` drives an
/// interactive pop.
///
/// - percent `= clamp(translation.x / W, 0, 1)`: a swipe back to the left of where it began
///   (negative translation) gives 0, not a negative percent; past a full width gives 1.
/// - begins: always; the edge recognizer has already decided that the touch began at the left
///   edge (its edge region is UIKit's and undocumented).
/// - release: finish if percent `> 0.5`, else cancel. The seed names no rule for a cancelled
///   gesture; this project cancels it (a cancelled recognizer is not a user's release).
public struct FadeSlideEdgeSwipe: GestureDriver, Hashable {
  /// `W`, points.
  public let containerWidth: Double

  /// - Throws: ``ValidationError`` on `"containerWidth"` (not finite, not positive).
  public init(containerWidth: Double = 390) throws(ValidationError) {
    self.containerWidth = try checkedWidth(containerWidth)
  }

  /// `true`.
  public var cancelsCancelledGestures: Bool { true }

  /// Always `true`.
  public func begins(with sample: GestureSample) -> Bool { true }

  /// `clamp(translation.x / W, 0, 1)`.
  public func percent(for sample: GestureSample) -> Double {
    Swift.min(Swift.max(sample.translation.x / containerWidth, 0), 1)
  }

  /// `.finish` iff not cancelled and percent `> 0.5`.
  public func seedDecision(for sample: GestureSample, cancelled: Bool) -> ReleaseDecision {
    !cancelled && percent(for: sample) > 0.5 ? .finish : .cancel
  }
}

/// `cross-dissolve` (seed 001): a pan anywhere.
///
/// - percent `= clamp(location.x / 300, 0, 0.99)` (the seed's constants; the 0.99 cap keeps the
///   paused animations from reaching their end).
/// - begins: always.
/// - release: on `.ended` **or** `.cancelled`, finish if percent `> 0.5`, else cancel.
public struct CrossDissolvePan: GestureDriver, Hashable {
  /// `W`, points (used only by the velocity rule).
  public let containerWidth: Double
  /// The seed's divisor, 300 points.
  public static let span = 300.0
  /// The seed's cap, 0.99.
  public static let cap = 0.99

  /// - Throws: ``ValidationError`` on `"containerWidth"`.
  public init(containerWidth: Double = 390) throws(ValidationError) {
    self.containerWidth = try checkedWidth(containerWidth)
  }

  /// `false`: the seed decides by percent on `.cancelled` too.
  public var cancelsCancelledGestures: Bool { false }

  /// Always `true`.
  public func begins(with sample: GestureSample) -> Bool { true }

  /// `clamp(location.x / 300, 0, 0.99)`.
  public func percent(for sample: GestureSample) -> Double {
    Swift.min(Swift.max(sample.location.x / Self.span, 0), Self.cap)
  }

  /// `.finish` iff percent `> 0.5`, whether the gesture ended or was cancelled.
  public func seedDecision(for sample: GestureSample, cancelled: Bool) -> ReleaseDecision {
    percent(for: sample) > 0.5 ? .finish : .cancel
  }
}

/// `depth` (seed 003): a pan that starts a pop only near the left edge.
///
/// - begins: only when the first sample's `location.x ≤ 50`; otherwise the gesture starts
///   nothing (no transition, so no percent or release applies).
/// - percent `= clamp(translation.x / 200, 0, 1)` (negative translation gives 0).
/// - release: finish if percent `> 0.5` and the gesture was not cancelled, else cancel.
public struct DepthPan: GestureDriver, Hashable {
  /// `W`, points (used only by the velocity rule).
  public let containerWidth: Double
  /// The seed's edge limit, 50 points.
  public static let edgeLimit = 50.0
  /// The seed's divisor, 200 points.
  public static let span = 200.0

  /// - Throws: ``ValidationError`` on `"containerWidth"`.
  public init(containerWidth: Double = 390) throws(ValidationError) {
    self.containerWidth = try checkedWidth(containerWidth)
  }

  /// `true`.
  public var cancelsCancelledGestures: Bool { true }

  /// `location.x ≤ 50`.
  public func begins(with sample: GestureSample) -> Bool { sample.location.x <= Self.edgeLimit }

  /// `clamp(translation.x / 200, 0, 1)`.
  public func percent(for sample: GestureSample) -> Double {
    Swift.min(Swift.max(sample.translation.x / Self.span, 0), 1)
  }

  /// `.finish` iff not cancelled and percent `> 0.5`.
  public func seedDecision(for sample: GestureSample, cancelled: Bool) -> ReleaseDecision {
    !cancelled && percent(for: sample) > 0.5 ? .finish : .cancel
  }
}
