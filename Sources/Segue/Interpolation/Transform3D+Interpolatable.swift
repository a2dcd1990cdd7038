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
    // Read the slice in place: a copy into an Array would allocate on every keyframe sample.
    let i = channels.startIndex
    let f = channels
    self.init(
      m11: f[i], m12: f[i + 1], m13: f[i + 2], m14: f[i + 3],
      m21: f[i + 4], m22: f[i + 5], m23: f[i + 6], m24: f[i + 7],
      m31: f[i + 8], m32: f[i + 9], m33: f[i + 10], m34: f[i + 11],
      m41: f[i + 12], m42: f[i + 13], m43: f[i + 14], m44: f[i + 15])
  }

  /// Interpolation by decomposition (<doc:TransitionCatalog#Transform-interpolation>,
  /// ``TransformInterpolation``): exact ends at 0 and 1, the 2D path when both ends are affine, the
  /// 3D path otherwise, and a discrete switch at 0.5 when an end cannot be decomposed. A fraction
  /// whose extrapolation cannot be represented (it overflows) also takes the discrete rule, so the
  /// result is always finite for finite ends.
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
