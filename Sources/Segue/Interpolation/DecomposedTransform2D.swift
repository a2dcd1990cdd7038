import RealModule

/// An affine 2D transform split into translation, scale, rotation angle and a residual 2×2, as CSS
/// Transforms Level 1 decomposes matrices for animation.
///
/// With `a = m11, b = m12, c = m21, d = m22` (CGAffineTransform's a, b, c, d) and row vectors, the
/// linear part is rebuilt as
///
///     L = S(scaleX, scaleY) · R(angle) · Residual
///
/// (applied to a point: scale, then rotate, then the residual), with the translation in `m41, m42`.
/// `R(angle)` is `Rz(angle)` of Core Animation: rows `(cos, sin)`, `(−sin, cos)`. There is no
/// separate skew: any shear stays in the residual, as in the spec, WebKit and Servo.
///
/// The angle is stored in **radians** (CSS works in degrees; its 180° and 360° become π and 2π).
public struct DecomposedTransform2D: Hashable, Sendable {
  /// The translation along x (`m41`), in points.
  public var translationX: Double
  /// The translation along y (`m42`), in points.
  public var translationY: Double
  /// The scale factor along x, `±|(a, b)|` (unitless).
  public var scaleX: Double
  /// The scale factor along y, `±|(c, d)|` (unitless).
  public var scaleY: Double
  /// The rotation angle in radians, `atan2` of the normalised first row, in `(−π, π]` after a
  /// decomposition.
  public var angle: Double
  /// The residual 2×2 `(m11', m12', m21', m22')` left after removing scale and rotation; the
  /// identity `(1, 0, 0, 1)` for a matrix without shear.
  public var residual11: Double
  /// Residual entry row 1, column 2.
  public var residual12: Double
  /// Residual entry row 2, column 1.
  public var residual21: Double
  /// Residual entry row 2, column 2.
  public var residual22: Double

  /// Creates a decomposition from its components (angle in radians). The defaults give the identity.
  public init(
    translationX: Double = 0, translationY: Double = 0,
    scaleX: Double = 1, scaleY: Double = 1,
    angle: Double = 0,
    residual11: Double = 1, residual12: Double = 0, residual21: Double = 0, residual22: Double = 1
  ) {
    self.translationX = translationX
    self.translationY = translationY
    self.scaleX = scaleX
    self.scaleY = scaleY
    self.angle = angle
    self.residual11 = residual11
    self.residual12 = residual12
    self.residual21 = residual21
    self.residual22 = residual22
  }

  /// Decomposes the affine part of `m` (`a = m11, b = m12, c = m21, d = m22, tx = m41, ty = m42`;
  /// the other fields are ignored, so call it on matrices that are affine), CSS Transforms 1:
  ///
  /// - `translation = (tx, ty)`, `scaleX = |(a, b)|`, `scaleY = |(c, d)|`;
  /// - if `ad − bc < 0`: negate `scaleX` when `a < d`, else `scaleY`;
  /// - divide row 0 by `scaleX` and row 1 by `scaleY`;
  /// - `angle = atan2(row0.y, row0.x)`;
  /// - `Residual = R(−angle) · rows`.
  ///
  /// Returns `nil` when one of those six fields is not finite or the 2×2 linear part is singular by
  /// <doc:TransitionCatalog#Singular-matrices> with n = 2:
  /// `|ad − bc| ≤ 1e-12 · max(|a|, |b|, |c|, |d|)²`.
  public init?(_ m: Transform3D) {
    let (a, b, c, d) = (m.m11, m.m12, m.m21, m.m22)
    for v in [a, b, c, d, m.m41, m.m42] where !v.isFinite { return nil }
    let det = a * d - b * c
    let largest = Swift.max(abs(a), abs(b), abs(c), abs(d))
    guard !Transform3D.isSingular(determinant: det, maxMagnitude: largest, order: 2) else {
      return nil
    }
    var sx = (a * a + b * b).squareRoot()
    var sy = (c * c + d * d).squareRoot()
    if det < 0 {
      if a < d { sx = -sx } else { sy = -sy }
    }
    // Not singular, so neither row is zero.
    let (n0x, n0y) = (a / sx, b / sx)
    let (n1x, n1y) = (c / sy, d / sy)
    let angle = Double.atan2(y: n0y, x: n0x)
    // R(−angle) has rows (cos, −sin), (sin, cos) with (cos, sin) = (n0x, n0y).
    let (cs, sn) = (n0x, n0y)
    self.init(
      translationX: m.m41, translationY: m.m42, scaleX: sx, scaleY: sy, angle: angle,
      residual11: cs * n0x - sn * n1x, residual12: cs * n0y - sn * n1y,
      residual21: sn * n0x + cs * n1x, residual22: sn * n0y + cs * n1y)
  }

  /// `DecomposedTransform2D(m)`: the decomposition of `m`, or `nil` (see ``init(_:)``).
  public static func decompose(_ m: Transform3D) -> DecomposedTransform2D? {
    DecomposedTransform2D(m)
  }

  /// Rebuilds the affine matrix: the linear part `L = S(scaleX, scaleY) · R(angle) · Residual`
  /// in `m11, m12, m21, m22`, the translation in `m41, m42`, and the identity elsewhere
  /// (`m33 = m44 = 1`).
  public func recomposed() -> Transform3D {
    let cs = Double.cos(angle)
    let sn = Double.sin(angle)
    // R · Residual: row 0 = cs·res0 + sn·res1, row 1 = −sn·res0 + cs·res1.
    let r00 = cs * residual11 + sn * residual21
    let r01 = cs * residual12 + sn * residual22
    let r10 = -sn * residual11 + cs * residual21
    let r11 = -sn * residual12 + cs * residual22
    var t = Transform3D.identity
    t.m11 = scaleX * r00
    t.m12 = scaleX * r01
    t.m21 = scaleY * r10
    t.m22 = scaleY * r11
    t.m41 = translationX
    t.m42 = translationY
    return t
  }

  /// The two ends made ready for lerping by CSS Transforms 1's angle rules
  /// (<doc:TransitionCatalog#Transform-interpolation>):
  ///
  /// 1. Flip: if one end has its x axis flipped and the other its y axis (`a.scaleX < 0 &&
  ///    b.scaleY < 0`, or `a.scaleY < 0 && b.scaleX < 0`), negate both of `a`'s scales and add π to
  ///    `a.angle` when it is negative, else subtract π (the same matrix).
  /// 2. Each angle that is exactly 0 becomes 2π.
  /// 3. If `|a.angle − b.angle| > π`, subtract 2π from the larger one, so the rotation does not go the
  ///    long way round.
  ///
  /// Each returned end recomposes to the same matrix as before (to rounding).
  public static func aligned(from a: DecomposedTransform2D, to b: DecomposedTransform2D)
    -> (from: DecomposedTransform2D, to: DecomposedTransform2D)
  {
    var a = a
    var b = b
    if (a.scaleX < 0 && b.scaleY < 0) || (a.scaleY < 0 && b.scaleX < 0) {
      a.scaleX = -a.scaleX
      a.scaleY = -a.scaleY
      a.angle += a.angle < 0 ? Double.pi : -Double.pi
    }
    if a.angle == 0 { a.angle = 2 * Double.pi }
    if b.angle == 0 { b.angle = 2 * Double.pi }
    if abs(a.angle - b.angle) > Double.pi {
      if a.angle > b.angle { a.angle -= 2 * Double.pi } else { b.angle -= 2 * Double.pi }
    }
    return (a, b)
  }

  /// Lerps every field, `(1 − t)·self + t·other`, without the angle rules (use on ``aligned(from:to:)``
  /// ends). `t` outside `[0, 1]` extrapolates linearly.
  func lerped(to o: DecomposedTransform2D, fraction t: Double) -> DecomposedTransform2D {
    let u = 1 - t
    return DecomposedTransform2D(
      translationX: u * translationX + t * o.translationX,
      translationY: u * translationY + t * o.translationY,
      scaleX: u * scaleX + t * o.scaleX, scaleY: u * scaleY + t * o.scaleY,
      angle: u * angle + t * o.angle,
      residual11: u * residual11 + t * o.residual11, residual12: u * residual12 + t * o.residual12,
      residual21: u * residual21 + t * o.residual21, residual22: u * residual22 + t * o.residual22)
  }

  /// CSS Transforms 1 interpolation: ``aligned(from:to:)`` then a lerp of every field with fraction `t`
  /// (unitless; outside `[0, 1]` it extrapolates linearly, e.g. for spring overshoot).
  ///
  /// Rotation 0 → π/2 at `t = 0.5` gives π/4; ±170° ends meet through 180°, not through 0.
  public func interpolated(to other: DecomposedTransform2D, fraction t: Double)
    -> DecomposedTransform2D
  {
    let (a, b) = DecomposedTransform2D.aligned(from: self, to: other)
    return a.lerped(to: b, fraction: t)
  }
}
