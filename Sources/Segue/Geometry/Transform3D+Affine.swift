extension Transform3D {
  /// `CATransform3DIsAffine`: whether the matrix is exactly a 2D affine transform.
  ///
  /// GNUstep's exact test: `m13, m14, m23, m24, m31, m32, m34, m43` are all 0 and
  /// `m33 == m44 == 1`. A rotation about z is affine; a rotation about x, any z scale, any z
  /// translation and any non-zero `m34` are not. No tolerance is applied.
  @inlinable
  public var isAffine: Bool {
    m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m34 == 0
      && m43 == 0 && m33 == 1 && m44 == 1
  }

  /// `CATransform3DMakeAffineTransform`: embeds `(a, b, c, d, tx, ty)` as
  /// `m11 = a, m12 = b, m21 = c, m22 = d, m41 = tx, m42 = ty`, the other fields from the identity.
  /// The result satisfies ``isAffine`` and maps `(x, y, 0)` exactly as the affine transform maps
  /// `(x, y)`, keeping z.
  @inlinable
  public init(_ affine: AffineTransform) {
    self.init(
      m11: affine.a, m12: affine.b, m13: 0, m14: 0,
      m21: affine.c, m22: affine.d, m23: 0, m24: 0,
      m31: 0, m32: 0, m33: 1, m34: 0,
      m41: affine.tx, m42: affine.ty, m43: 0, m44: 1)
  }

  /// The 2D affine transform this matrix is, or `nil` unless ``isAffine``.
  @inlinable
  public var affineTransform: AffineTransform? {
    isAffine ? uncheckedAffineTransform : nil
  }

  /// `CATransform3DGetAffineTransform`: `(a, b, c, d, tx, ty) = (m11, m12, m21, m22, m41, m42)`,
  /// read regardless of the other fields (Apple leaves the result undefined when the matrix is not
  /// affine; here it is always these six fields).
  @inlinable
  public var uncheckedAffineTransform: AffineTransform {
    AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
  }

  /// `CATransform3DIsIdentity`: whether every field equals the identity's exactly (no tolerance).
  @inlinable
  public var isIdentity: Bool { self == .identity }

  /// Whether `self` and `other` agree to a tolerance, in the sense of swift-numerics'
  /// `isApproximatelyEqual` with the max-norm over the sixteen fields:
  ///
  ///     max |selfᵢⱼ − otherᵢⱼ| ≤ max(absoluteTolerance,
  ///                                  relativeTolerance · max(self.maxMagnitude, other.maxMagnitude))
  ///
  /// The relation is symmetric and reflexive for finite matrices. When either matrix has a
  /// non-finite field the result is exact equality (so NaN is never approximately equal to anything).
  /// Negative or NaN tolerances are treated as 0 (never a crash).
  ///
  /// - Parameters:
  ///   - other: the matrix to compare with.
  ///   - absoluteTolerance: the largest field difference always accepted (default 0).
  ///   - relativeTolerance: the accepted difference as a fraction of the larger matrix's largest
  ///     field (default `√ulpOfOne ≈ 1.49e-8`, as swift-numerics).
  public func isApproximatelyEqual(
    to other: Transform3D,
    absoluteTolerance: Double = 0,
    relativeTolerance: Double = Double.ulpOfOne.squareRoot()
  ) -> Bool {
    let mine = fields
    let theirs = other.fields
    var difference = 0.0
    for i in 0..<16 {
      guard mine[i].isFinite, theirs[i].isFinite else { return self == other }
      difference = Swift.max(difference, abs(mine[i] - theirs[i]))
    }
    let absolute = absoluteTolerance > 0 ? absoluteTolerance : 0
    let relative = relativeTolerance > 0 ? relativeTolerance : 0
    let scale = Swift.max(maxMagnitude, other.maxMagnitude)
    return difference <= Swift.max(absolute, relative * scale)
  }
}
