/// One value of a transform animation interpolated by decomposition, as Core Animation animates
/// `transform` (<doc:TransitionCatalog#Transform-interpolation> and the sampling rules of
/// <doc:TransitionCatalog>).
///
/// - Both ends affine (`CATransform3DIsAffine`) → the 2D decomposition of CSS Transforms 1
///   (``DecomposedTransform2D``), path ``Path/affine2D``.
/// - Otherwise both ends decomposed in 3D (``DecomposedTransform3D``) with shortest-path slerp,
///   path ``Path/decomposed3D``.
/// - An end that cannot be decomposed (non-finite fields, `m44 == 0`, or a singular linear part,
///   <doc:TransitionCatalog#Singular-matrices>) → a discrete switch: the start below fraction 0.5, the end from 0.5 on, path
///   ``Path/discrete``.
///
/// A fraction of exactly 0 or 1 returns that end matrix unchanged (field for field). In between, the
/// value is the recomposed matrix as CSS Transforms 2 rebuilds it, not divided by its `m44`: `m44`
/// is `translation · (px, py, pz) + pw` of the interpolated components, so it differs from 1 when
/// the ends have perspective and translation, and is negative when an extrapolation carries the
/// perspective far enough. Its sign is meaningful: a negative `m44` puts the origin behind the
/// eye (`w < 0`), as in browsers. Between the ends the value is that of the ends divided by their
/// `m44` (the decomposition works on `M / m44`), so compare an end with `m44 ≠ 1` up to that
/// factor, or compare mapped points.
///
/// Because both ends are decomposed, identity → `Rz(2π)` does not move (both decompose to the same
/// rotation), as observed on Core Animation; animate ``TransformKeyPath/rotationZ`` to spin.
public struct TransformInterpolation: Hashable, Sendable {
  /// How the value was computed.
  public enum Path: Hashable, Sendable {
    /// Both ends affine: CSS Transforms 1 (2D) decomposition and lerp.
    case affine2D
    /// CSS Transforms 2 (3D) decomposition, lerp and shortest-path slerp.
    case decomposed3D
    /// An end could not be decomposed; the value jumps from the start to the end at fraction 0.5.
    case discrete
  }

  /// The interpolated transform.
  public var value: Transform3D
  /// Which rule produced ``value``.
  public var path: Path

  /// Creates a result from its parts.
  public init(value: Transform3D, path: Path) {
    self.value = value
    self.path = path
  }

  /// Interpolates `a` → `b` at fraction `f` by decomposition (see the type's description).
  ///
  /// Decomposes both ends on every call; when the same pair is sampled repeatedly, build a
  /// ``TransformInterpolator`` once instead (the results are identical).
  ///
  /// Extrapolation (`f < 0` or `f > 1`, e.g. an overshooting spring): every lerped component
  /// (translation, scale, skew, perspective, 2D angle and residual) continues linearly with `f`, and
  /// the 3D rotation continues along the slerp arc (`sin(fθ)` weights), so the rotation stays a unit
  /// quaternion. On the discrete path `f < 0.5` gives `a` and `f ≥ 0.5` gives `b`.
  ///
  /// - Parameters:
  ///   - a: The start transform (`fromValue`).
  ///   - b: The end transform (`toValue`).
  ///   - f: The unitless fraction, usually the eased progress in `[0, 1]`; any finite value.
  /// - Throws: ``ValidationError`` on field `"fraction"`: ``ValidationError/Reason/notFinite`` for a
  ///   NaN or infinite `f`, and ``ValidationError/Reason/invalidState(_:)`` if extrapolating that far
  ///   overflows (a non-finite result).
  public static func interpolate(from a: Transform3D, to b: Transform3D, fraction f: Double)
    throws(ValidationError) -> TransformInterpolation
  {
    try TransformInterpolator(from: a, to: b).interpolation(at: f)
  }
}

/// A transform interpolation with both ends decomposed once, for evaluators that sample the same
/// `fromValue`/`toValue` pair every frame. ``value(at:)`` gives exactly
/// `TransformInterpolation.interpolate(from:to:fraction:).value`.
public struct TransformInterpolator: Hashable, Sendable {
  /// The start transform, returned unchanged at fraction 0.
  public let from: Transform3D
  /// The end transform, returned unchanged at fraction 1.
  public let to: Transform3D
  /// The rule used between the ends (fixed by the pair).
  public let path: TransformInterpolation.Path

  enum Ends: Hashable, Sendable {
    case affine2D(DecomposedTransform2D, DecomposedTransform2D)
    case decomposed3D(DecomposedTransform3D, DecomposedTransform3D)
    case discrete
  }
  let ends: Ends

  /// Decomposes both ends: 2D when both are affine (GNUstep's `CATransform3DIsAffine` test: `m13,
  /// m14, m23, m24, m31, m32, m34, m43` all 0 and `m33 == m44 == 1`), 3D otherwise, discrete when
  /// either decomposition fails. The 2D angle rules (flip, 0 → 2π, shortest way) are applied here.
  ///
  /// - Parameters:
  ///   - from: The start transform.
  ///   - to: The end transform.
  public init(from: Transform3D, to: Transform3D) {
    self.from = from
    self.to = to
    if from.isAffine && to.isAffine {
      if let a = DecomposedTransform2D(from), let b = DecomposedTransform2D(to) {
        let (a2, b2) = DecomposedTransform2D.aligned(from: a, to: b)
        ends = .affine2D(a2, b2)
        path = .affine2D
        return
      }
    } else if let a = DecomposedTransform3D(from), let b = DecomposedTransform3D(to) {
      ends = .decomposed3D(a, b)
      path = .decomposed3D
      return
    }
    ends = .discrete
    path = .discrete
  }

  /// The transform at fraction `f`; see
  /// ``TransformInterpolation/interpolate(from:to:fraction:)`` for the rules and the errors.
  ///
  /// - Parameter f: The unitless fraction (finite; outside `[0, 1]` it extrapolates).
  /// - Throws: ``ValidationError`` on field `"fraction"` for a non-finite `f` or an overflowing
  ///   extrapolation.
  public func value(at f: Double) throws(ValidationError) -> Transform3D {
    try interpolation(at: f).value
  }

  /// The transform at fraction `f` together with ``path``.
  ///
  /// - Throws: as ``value(at:)``.
  public func interpolation(at f: Double) throws(ValidationError) -> TransformInterpolation {
    try Validate.finite(f, "fraction")
    if f == 0 { return TransformInterpolation(value: from, path: path) }
    if f == 1 { return TransformInterpolation(value: to, path: path) }
    let recomposed: Transform3D
    switch ends {
    case .discrete:
      return TransformInterpolation(value: f < 0.5 ? from : to, path: .discrete)
    case .affine2D(let a, let b):
      recomposed = a.lerped(to: b, fraction: f).recomposed()
    case .decomposed3D(let a, let b):
      recomposed = a.interpolated(to: b, fraction: f).recomposed()
    }
    guard recomposed.hasFiniteFields else {
      throw ValidationError(
        field: "fraction",
        reason: .invalidState("extrapolating to \(f) overflows the transform"))
    }
    return TransformInterpolation(value: recomposed, path: path)
  }
}
