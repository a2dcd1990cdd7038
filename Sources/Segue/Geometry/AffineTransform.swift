import RealModule

/// A 2D affine transform with `CGAffineTransform`'s layout and semantics.
///
/// Points are **row vectors** `[x y 1]` multiplied by the 3×3 matrix
///
///     | a  b  0 |
///     | c  d  0 |
///     | tx ty 1 |
///
/// so `x' = a·x + c·y + tx` and `y' = b·x + d·y + ty` (points). As with ``Transform3D``, "apply A,
/// then B" is the product `A · B`, spelled ``concatenating(_:)`` (`CGAffineTransformConcat`).
///
/// Equality (`==`) compares the six fields exactly, as `CGAffineTransformEqualToTransform`.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
  /// Row 1, column 1: the x-to-x factor (unitless).
  public var a: Double
  /// Row 1, column 2: the x-to-y factor (unitless).
  public var b: Double
  /// Row 2, column 1: the y-to-x factor (unitless).
  public var c: Double
  /// Row 2, column 2: the y-to-y factor (unitless).
  public var d: Double
  /// Translation along x, in points.
  public var tx: Double
  /// Translation along y, in points.
  public var ty: Double

  /// `CGAffineTransformMake(a, b, c, d, tx, ty)`.
  @inlinable
  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
    self.tx = tx
    self.ty = ty
  }

  /// `CGAffineTransformIdentity`: `a = d = 1`, all other fields 0.
  public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

  /// A translation by `(x, y)` points: `x' = x₀ + x`, `y' = y₀ + y`.
  ///
  /// Core Graphics: `CGAffineTransform(translationX:y:)` (`CGAffineTransformMakeTranslation`).
  @inlinable
  public static func makeTranslation(x: Double, y: Double) -> AffineTransform {
    AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
  }

  /// A scale by the unitless factors `(x, y)`: `x' = x·x₀`, `y' = y·y₀`.
  ///
  /// Core Graphics: `CGAffineTransform(scaleX:y:)` (`CGAffineTransformMakeScale`).
  @inlinable
  public static func makeScale(x: Double, y: Double) -> AffineTransform {
    AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
  }

  /// A rotation of `angle` radians: `a = cos θ`, `b = sin θ`, `c = −sin θ`, `d = cos θ`, so
  /// `x' = x·cos θ − y·sin θ` and `y' = x·sin θ + y·cos θ`.
  ///
  /// Core Graphics: `CGAffineTransform(rotationAngle:)` (`CGAffineTransformMakeRotation`).
  ///
  /// This is the same sense as ``Transform3D/makeRotation(by:x:y:z:)`` about `(0, 0, 1)`:
  /// counter-clockwise in y-up space, clockwise on a y-down (UIKit) screen for positive angles.
  @inlinable
  public static func makeRotation(by angle: Double) -> AffineTransform {
    let cosine = Double.cos(angle)
    let sine = Double.sin(angle)
    return AffineTransform(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
  }

  /// Whether this is exactly the identity (`CGAffineTransformIsIdentity`); no tolerance.
  @inlinable
  public var isIdentity: Bool { self == .identity }

  /// `CGAffineTransformConcat(self, other)`: the product `self · other`, "apply self, then other".
  ///
  ///     a' = a·o.a + b·o.c          b' = a·o.b + b·o.d
  ///     c' = c·o.a + d·o.c          d' = c·o.b + d·o.d
  ///     tx' = tx·o.a + ty·o.c + o.tx   ty' = tx·o.b + ty·o.d + o.ty
  @inlinable
  public func concatenating(_ o: AffineTransform) -> AffineTransform {
    AffineTransform(
      a: a * o.a + b * o.c, b: a * o.b + b * o.d,
      c: c * o.a + d * o.c, d: c * o.b + d * o.d,
      tx: tx * o.a + ty * o.c + o.tx, ty: tx * o.b + ty * o.d + o.ty)
  }

  /// `lhs · rhs` (apply `lhs`, then `rhs`); the same as `lhs.concatenating(rhs)`.
  @inlinable
  public static func * (lhs: AffineTransform, rhs: AffineTransform) -> AffineTransform {
    lhs.concatenating(rhs)
  }

  /// `T(x, y) · self`: the translation by `(x, y)` points applied first, in this transform's local
  /// space.
  ///
  /// Core Graphics: `CGAffineTransform.translatedBy(x:y:)` (`CGAffineTransformTranslate`).
  @inlinable
  public func translated(x: Double, y: Double) -> AffineTransform {
    AffineTransform.makeTranslation(x: x, y: y).concatenating(self)
  }

  /// `S(x, y) · self`: the scale by the unitless factors `(x, y)` applied first.
  ///
  /// Core Graphics: `CGAffineTransform.scaledBy(x:y:)` (`CGAffineTransformScale`).
  @inlinable
  public func scaled(x: Double, y: Double) -> AffineTransform {
    AffineTransform.makeScale(x: x, y: y).concatenating(self)
  }

  /// `R(angle) · self`: the rotation of `angle` radians applied first.
  ///
  /// Core Graphics: `CGAffineTransform.rotated(by:)` (`CGAffineTransformRotate`).
  @inlinable
  public func rotated(by angle: Double) -> AffineTransform {
    AffineTransform.makeRotation(by: angle).concatenating(self)
  }

  /// The determinant of the linear part, `a·d − b·c` (the area scale factor, unitless).
  @inlinable
  public var determinant: Double { a * d - b * c }

  /// The inverse, or `nil` when the linear part is singular or a field is not finite.
  ///
  /// Singular follows <doc:TransitionCatalog#Singular-matrices> with n = 2 on the linear part:
  /// `Transform3D.isSingular(determinant: a·d − b·c, maxMagnitude: max(|a|, |b|, |c|, |d|), order: 2)`.
  /// Otherwise, with `det = a·d − b·c`:
  ///
  ///     a' = d/det     b' = −b/det     c' = −c/det     d' = a/det
  ///     tx' = (c·ty − d·tx)/det        ty' = (b·tx − a·ty)/det
  ///
  /// and `self · inverted()! ≈ inverted()! · self ≈ identity`.
  public func inverted() -> AffineTransform? {
    let det = determinant
    let maxMagnitude = Swift.max(Swift.max(abs(a), abs(b)), Swift.max(abs(c), abs(d)))
    guard tx.isFinite, ty.isFinite,
      !Transform3D.isSingular(determinant: det, maxMagnitude: maxMagnitude, order: 2)
    else { return nil }
    let inverse = AffineTransform(
      a: d / det, b: -b / det, c: -c / det, d: a / det,
      tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    guard inverse.a.isFinite, inverse.b.isFinite, inverse.c.isFinite, inverse.d.isFinite,
      inverse.tx.isFinite, inverse.ty.isFinite
    else { return nil }
    return inverse
  }

  /// `CGAffineTransformInvert`: the inverse, or `self` unchanged when it has none (see
  /// ``inverted()``), as Core Graphics does.
  @inlinable
  public func invertedOrSelf() -> AffineTransform { inverted() ?? self }

  /// `CGPointApplyAffineTransform`: `(a·x + c·y + tx, b·x + d·y + ty)`, in points.
  @inlinable
  public func apply(to p: Point) -> Point {
    Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
  }

  /// `CGSizeApplyAffineTransform`: the linear part only (no translation),
  /// `(a·width + c·height, b·width + d·height)`. The result may be negative, as in Core Graphics.
  @inlinable
  public func apply(to s: Size) -> Size {
    Size(width: a * s.width + c * s.height, height: b * s.width + d * s.height)
  }

  /// `CGRectApplyAffineTransform`: the bounding box of the four transformed corners of `r`
  /// (for a rotation this is larger than `r`). The result has a non-negative size.
  @inlinable
  public func apply(to r: Rect) -> Rect {
    Rect(boundingBoxOf: [
      apply(to: Point(x: r.minX, y: r.minY)), apply(to: Point(x: r.maxX, y: r.minY)),
      apply(to: Point(x: r.maxX, y: r.maxY)), apply(to: Point(x: r.minX, y: r.maxY)),
    ])
  }

  /// `"[a, b, c, d, tx, ty]"`.
  public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
}
