/// A keyframe track of one of the value kinds a layer property can hold: the type-erased
/// `values` of a `CAKeyframeAnimation`.
public enum KeyframeValues: Equatable, Sendable {
  /// Scalars (opacity, `position.x`, `transform.rotation.z`, …).
  case numbers(KeyframeTrack<Double>)
  /// Points (`position`, `anchorPoint`).
  case points(KeyframeTrack<Point>)
  /// Sizes (`bounds.size`).
  case sizes(KeyframeTrack<Size>)
  /// Rectangles (`bounds`).
  case rects(KeyframeTrack<Rect>)
  /// Transforms (`transform`, `sublayerTransform`), interpolated by decomposition.
  case transforms(KeyframeTrack<Transform3D>)
  /// Colours (`backgroundColor`, `fillColor`, …).
  case colors(KeyframeTrack<RGBAColor>)
  /// Paths (`path`), all with the elements of the first.
  case paths(KeyframeListTrack<BezierPath>)
  /// Colour lists (`colors`), all of one length.
  case colorLists(KeyframeListTrack<[RGBAColor]>)
  /// Number lists (`locations`), all of one length.
  case numberLists(KeyframeListTrack<[Double]>)

  /// The kind of the track's values.
  public var kind: AnimationValue.Kind {
    switch self {
    case .numbers: .number
    case .points: .point
    case .sizes: .size
    case .rects: .rect
    case .transforms: .transform
    case .colors: .color
    case .paths: .path
    case .colorLists: .colorList
    case .numberLists: .numberList
    }
  }

  /// The track's value at eased progress `u` (see ``KeyframeTrack/value(at:beforeFlag:)``).
  ///
  /// - Parameters:
  ///   - u: the animation's eased progress, unitless.
  ///   - beforeFlag: `true` in the animation's before phase (CSS's before flag for the track's
  ///     `steps()` timing functions).
  public func value(at u: Double, beforeFlag: Bool = false) -> AnimationValue {
    switch self {
    case .numbers(let track): .number(track.value(at: u, beforeFlag: beforeFlag))
    case .points(let track): .point(track.value(at: u, beforeFlag: beforeFlag))
    case .sizes(let track): .size(track.value(at: u, beforeFlag: beforeFlag))
    case .rects(let track): .rect(track.value(at: u, beforeFlag: beforeFlag))
    case .transforms(let track): .transform(track.value(at: u, beforeFlag: beforeFlag))
    case .colors(let track): .color(track.value(at: u, beforeFlag: beforeFlag))
    case .paths(let track): .path(track.value(at: u, beforeFlag: beforeFlag))
    case .colorLists(let track): .colorList(track.value(at: u, beforeFlag: beforeFlag))
    case .numberLists(let track): .numberList(track.value(at: u, beforeFlag: beforeFlag))
    }
  }
}
