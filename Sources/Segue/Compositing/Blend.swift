/// How a layer's colour combines with what is already drawn below it.
///
/// The raw values are the `"blend"` strings of the transition samples (see the sampling
/// rules in <doc:TransitionCatalog>).
public enum BlendMode: String, Hashable, Sendable, CaseIterable {
  /// Porter–Duff source-over with the layer opacity `o`:
  /// `out = src·o + (1 − α_src·o)·dst` (premultiplied). Every ordinary layer.
  case over
  /// Weighted sum ("plus"): `out = dst + src·o` (premultiplied), saturating at 1. The two layers
  /// of a cross-dissolve (CATransition `fade`) are drawn this way with weights `1 − q` and `q`
  /// into a cleared offscreen image, so that they sum to `(1 − q)·old + q·new`; that sum is then
  /// composited "over" what lies below.
  case add
}

/// The scalar reference rules for premultiplied alpha compositing, in `Double`.
///
/// These define what the SIMD kernels (``BlendKernels``) and the rasteriser compute: the kernels
/// are tested against them. All colours are premultiplied RGBA as `SIMD4<Double>` =
/// `(R, G, B, A)`, unitless fractions; a valid premultiplied colour has `0 ≤ R, G, B ≤ A ≤ 1`, and
/// for valid inputs every rule below yields a valid colour.
///
/// The 8-bit rules fix their rounding exactly (``overRGBA8(_:onto:opacity:)``,
/// ``crossDissolveRGBA8(_:_:weight:)``), so two implementations agree to the bit.
public enum Blend {
  /// Source-over with a layer opacity: `out = src·o + (1 − α_src·o)·dst`.
  ///
  /// Porter–Duff "over" of the premultiplied `source` scaled by `opacity`: the source covers
  /// `α_src·o` of the pixel and lets `1 − α_src·o` of the destination show through. Properties:
  /// `o = 0` returns `destination`; an opaque source (`α = 1`) at `o = 1` returns `source`; over a
  /// transparent destination the result is `source·o`; the result alpha is
  /// `α_src·o + α_dst − α_src·o·α_dst`.
  ///
  /// - Parameters:
  ///   - source: premultiplied colour, components finite.
  ///   - destination: premultiplied colour, components finite.
  ///   - opacity: the layer opacity `o` in `[0, 1]`.
  /// - Throws: ``ValidationError`` ``ValidationError/Reason/notFinite`` naming `source` or
  ///   `destination` (with the component index), or naming `opacity`; and
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` naming `opacity` outside `[0, 1]`.
  public static func over(
    _ source: SIMD4<Double>, onto destination: SIMD4<Double>, opacity: Double = 1
  ) throws(ValidationError) -> SIMD4<Double> {
    try checkFinite(source, "source")
    try checkFinite(destination, "destination")
    try Validate.inRange(opacity, 0, 1, "opacity")
    let s = source * opacity
    return s + (1 - s[3]) * destination
  }

  /// Additive blend (the "add" of a cross-dissolve): `out = dst + src·o`, unclamped.
  ///
  /// Summing `old` with `o = 1 − q` and `new` with `o = q` onto transparent black gives
  /// ``crossDissolve(_:_:fraction:)``. The result may exceed 1 when the weights sum to more
  /// than 1; quantisers clamp.
  ///
  /// - Throws: as ``over(_:onto:opacity:)``.
  public static func add(
    _ source: SIMD4<Double>, onto destination: SIMD4<Double>, opacity: Double = 1
  ) throws(ValidationError) -> SIMD4<Double> {
    try checkFinite(source, "source")
    try checkFinite(destination, "destination")
    try Validate.inRange(opacity, 0, 1, "opacity")
    return destination + source * opacity
  }

  /// Cross-dissolve (CATransition `fade`): `out = (1 − q)·from + q·to`.
  ///
  /// A true cross-dissolve is the weighted sum of the two premultiplied snapshots, not `to` at
  /// opacity `q` "over" `from` (which would show `from` through a half-transparent `to` and
  /// darken or lighten the midpoint when both are translucent). At `q = 0` it is `from`, at
  /// `q = 1` it is `to`; two opaque images stay opaque at every `q`.
  ///
  /// - Parameters:
  ///   - from: the old content (premultiplied, finite).
  ///   - to: the new content (premultiplied, finite).
  ///   - fraction: the eased progress `q` in `[0, 1]`.
  /// - Throws: ``ValidationError/Reason/notFinite`` naming `from` or `to` (with the component
  ///   index) or `fraction`; ``ValidationError/Reason/outOfRange(lower:upper:)`` naming
  ///   `fraction` outside `[0, 1]`.
  public static func crossDissolve(
    _ from: SIMD4<Double>, _ to: SIMD4<Double>, fraction: Double
  ) throws(ValidationError) -> SIMD4<Double> {
    try checkFinite(from, "from")
    try checkFinite(to, "to")
    try Validate.inRange(fraction, 0, 1, "fraction")
    return (1 - fraction) * from + fraction * to
  }

  /// One layer of an opacity group: its premultiplied colour at this pixel, its own opacity and
  /// its blend mode.
  public struct GroupMember: Hashable, Sendable {
    /// Premultiplied colour (finite).
    public var color: SIMD4<Double>
    /// The member's own opacity in `[0, 1]`.
    public var opacity: Double
    /// How it combines with the members below it inside the group.
    public var mode: BlendMode

    /// Creates a member.
    public init(color: SIMD4<Double>, opacity: Double = 1, mode: BlendMode = .over) {
      self.color = color
      self.opacity = opacity
      self.mode = mode
    }
  }

  /// An opacity group (`allowsGroupOpacity`): the members are composited
  /// bottom to top onto transparent black off-screen, and that result is composited "over"
  /// `destination` with the group's `opacity`.
  ///
  /// With two overlapping opaque members and `opacity = 0.5` the overlap shows at alpha 0.5,
  /// where drawing each member at 0.5 separately would give `0.5 + 0.5·0.5 = 0.75`. With
  /// `opacity = 1` the group is the same as drawing the members directly.
  ///
  /// - Throws: as ``over(_:onto:opacity:)``, with the member's fields named `members.color`
  ///   and `members.opacity` and the member's index.
  public static func group(
    _ members: [GroupMember], opacity: Double, onto destination: SIMD4<Double>
  ) throws(ValidationError) -> SIMD4<Double> {
    try checkFinite(destination, "destination")
    try Validate.inRange(opacity, 0, 1, "opacity")
    var offscreen = SIMD4<Double>.zero
    for (i, member) in members.enumerated() {
      for c in 0..<4 where !member.color[c].isFinite {
        throw ValidationError(field: "members.color", index: i, reason: .notFinite)
      }
      try Validate.inRange(member.opacity, 0, 1, "members.opacity", index: i)
      let s = member.color * member.opacity
      switch member.mode {
      case .over: offscreen = s + (1 - s[3]) * offscreen
      case .add: offscreen += s
      }
    }
    let s = offscreen * opacity
    return s + (1 - s[3]) * destination
  }

  /// The 8-bit opacity byte for `opacity`: `round(255·o)`, ties away from zero (0.5 → 128).
  ///
  /// - Throws: ``ValidationError/Reason/notFinite`` or
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` naming `opacity` unless it is in
  ///   `[0, 1]`.
  public static func opacityByte(_ opacity: Double) throws(ValidationError) -> UInt8 {
    try Validate.inRange(opacity, 0, 1, "opacity")
    return UInt8((opacity * 255).rounded(.toNearestOrAwayFromZero))
  }

  /// The 8-bit cross-dissolve weight for `fraction`: `k = round(256·q)` in `0…256`, ties away
  /// from zero, so `q = 0.5` gives exactly 128.
  ///
  /// - Throws: ``ValidationError/Reason/notFinite`` or
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` naming `fraction` unless it is in
  ///   `[0, 1]`.
  public static func dissolveWeight(_ fraction: Double) throws(ValidationError) -> Int {
    try Validate.inRange(fraction, 0, 1, "fraction")
    return Int((fraction * 256).rounded(.toNearestOrAwayFromZero))
  }

  /// The 8-bit "over" rule that ``BlendKernels/overRGBA8(_:opacity:onto:)`` implements, computed
  /// in `Double` arithmetic as the reference.
  ///
  /// With bytes `s` (source), `d` (destination) and opacity byte `o` (see ``opacityByte(_:)``),
  /// and `⟦x⟧ = round(x)` to the nearest integer (a quotient `t/255` is never exactly half-way,
  /// since `2t = 255·odd` has no solution, so no tie rule is needed):
  ///
  ///     s′ = ⟦s·o / 255⟧                       (every channel, alpha included)
  ///     out = min(255, s′ + ⟦d·(255 − s′_A) / 255⟧)
  ///
  /// This is the premultiplied rule `src·o + (1 − α_src·o)·dst` with the source scaled by the
  /// opacity and rounded first, as pixman and Skia do. Properties, checked over all inputs:
  /// at `o = 255` it equals the correctly rounded `255·(s/255 + (1 − s_A/255)·d/255)`; for other
  /// opacities and valid premultiplied inputs (`s ≤ s_A`) it is within 1 of the correctly rounded
  /// Double formula; `o = 0` returns `d`; a valid premultiplied input gives a valid output
  /// (`out ≤ out_A ≤ 255`). The `min` only acts on invalid input (a colour byte above its alpha).
  @inlinable
  public static func overRGBA8(_ s: SIMD4<UInt8>, onto d: SIMD4<UInt8>, opacity o: UInt8)
    -> SIMD4<UInt8>
  {
    func round255(_ t: Double) -> Double { (t / 255).rounded(.toNearestOrAwayFromZero) }
    var scaled = SIMD4<Double>.zero
    for c in 0..<4 { scaled[c] = round255(Double(s[c]) * Double(o)) }
    var out = SIMD4<UInt8>.zero
    for c in 0..<4 {
      let v = scaled[c] + round255(Double(d[c]) * (255 - scaled[3]))
      out[c] = UInt8(Swift.min(255, v))
    }
    return out
  }

  /// The 8-bit cross-dissolve rule that ``BlendKernels/crossDissolveRGBA8(_:_:fraction:into:)``
  /// implements: with weight `k` in `0…256` (``dissolveWeight(_:)``),
  /// `out = ⌊(a·(256 − k) + b·k + 128) / 256⌋`, i.e. the weighted sum `(1 − k/256)·a + (k/256)·b`
  /// rounded to nearest with ties **up**.
  ///
  /// The weights always sum to exactly 1, so two opaque images stay at alpha 255, and `k = 0`
  /// returns `a`, `k = 256` returns `b`. Example: red `(255, 0, 0, 255)` and blue
  /// `(0, 0, 255, 255)` at `q = 0.5` (`k = 128`) give `(127.5, 0, 127.5, 255)` rounded up,
  /// `(128, 0, 128, 255)`. `k` outside `0…256` is clamped into it.
  @inlinable
  public static func crossDissolveRGBA8(_ a: SIMD4<UInt8>, _ b: SIMD4<UInt8>, weight k: Int)
    -> SIMD4<UInt8>
  {
    let k = Double(Swift.min(Swift.max(k, 0), 256))
    var out = SIMD4<UInt8>.zero
    for c in 0..<4 {
      let sum = (Double(a[c]) * (256 - k) + Double(b[c]) * k) / 256
      out[c] = UInt8((sum + 0.5).rounded(.down))
    }
    return out
  }

  private static func checkFinite(_ v: SIMD4<Double>, _ field: String) throws(ValidationError) {
    for c in 0..<4 where !v[c].isFinite {
      throw ValidationError(field: field, index: c, reason: .notFinite)
    }
  }
}
