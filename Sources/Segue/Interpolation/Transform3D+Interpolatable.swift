extension Transform3D: Interpolatable {
  /// Sixteen channels, the fields in `CATransform3D` order (`m11, m12, …, m44`).
  public static var channelCount: Int { 16 }

  /// The sixteen fields in `CATransform3D` order.
  public var channels: [Double] { fields }

  /// Rebuilds a transform from sixteen channels in field order.
  ///
  /// - Precondition: `channels.count == 16`.
  public init(channels: ArraySlice<Double>) {
    precondition(channels.count == 16, "Transform3D has 16 channels")
    self.init(unchecked: Array(channels))
  }

  /// Interpolation by decomposition (Decision 3, ``TransformInterpolation``): exact ends at 0
  /// and 1, the 2D path when both ends are affine, the 3D path otherwise, and a discrete switch
  /// at 0.5 when an end cannot be decomposed. A fraction whose extrapolation cannot be
  /// represented (it overflows) also takes the discrete rule, so the result is always finite for
  /// finite ends.
  ///
  /// Keyframe tracks use this in the linear and paced modes; the cubic modes evaluate their
  /// Hermite curves on the sixteen fields (Core Animation does not document what it does there;
  /// this is the choice of this library).
  public static func interpolate(_ a: Transform3D, _ b: Transform3D, fraction f: Double)
    -> Transform3D
  {
    (try? TransformInterpolation.interpolate(from: a, to: b, fraction: f).value)
      ?? (f < 0.5 ? a : b)
  }

  /// `false`: transforms interpolate by decomposition, not field by field.
  public static var interpolatesChannelWise: Bool { false }
}
