import Segue
import SegueSIMDSupport

/// ``GradientPaint`` prepared for filling runs of pixels in `Float` (the fast path; within
/// 1/255 per channel of the Double reference, see the tests).
///
/// Prepare one per layer and frame (it copies the sorted stops), then call
/// ``fill(_:count:into:)`` for each run; filling allocates nothing.
public struct GradientSpanShader: Sendable {
  let type: GradientType
  let start: SIMD2<Float>
  /// Axial: `(E − S)/|E − S|²`; radial: `(1/rx, 1/ry)`; conic: unused.
  let axis: SIMD2<Float>
  /// Conic: the angle of `E − S` in turns.
  let referenceTurns: Float
  /// The whole gradient is one colour (degenerate geometry).
  let constantT: Float?
  let locations: [Float]
  /// Straight colours of the stops.
  let colors: [SIMD4<Float>]

  /// Prepares `paint`.
  ///
  /// - Throws: what ``GradientPaint/validate()`` throws.
  public init(_ paint: GradientPaint) throws(ValidationError) {
    try paint.validate()
    type = paint.type
    let (s, e) = paint.endPoints
    start = SIMD2(Float(s.x), Float(s.y))
    let ex = e.x - s.x
    let ey = e.y - s.y
    var axis = SIMD2<Float>.zero
    var constantT: Float? = nil
    var reference: Float = 0
    switch paint.type {
    case .axial:
      let length2 = ex * ex + ey * ey
      if length2 > 0 {
        axis = SIMD2(Float(ex / length2), Float(ey / length2))
      } else {
        constantT = 1
      }
    case .radial:
      if ex != 0 && ey != 0 {
        axis = SIMD2(Float(1 / abs(ex)), Float(1 / abs(ey)))
      } else {
        constantT = 1
      }
    case .conic:
      reference = ex == 0 && ey == 0 ? 0 : FastMath.turns(y: Float(ey), x: Float(ex))
    }
    self.axis = axis
    self.constantT = constantT
    referenceTurns = reference
    let stops = paint.stops
    locations = stops.map { Float($0.location) }
    colors = stops.map {
      SIMD4(Float($0.color.red), Float($0.color.green), Float($0.color.blue), Float($0.color.alpha))
    }
  }

  /// Writes the premultiplied RGBA8 colour of pixels `0..<count` of `span` to `out`
  /// (`4·count` bytes), each channel `round(255·c)`. Without colours the pixels are transparent.
  public func fill(_ span: ProjectiveSpan, count: Int, into out: UnsafeMutablePointer<UInt8>) {
    guard !colors.isEmpty else {
      out.initialize(repeating: 0, count: 4 * count)
      return
    }
    locations.withUnsafeBufferPointer { locations in
      colors.withUnsafeBufferPointer { colors in
        let stops = Stops(locations: locations, colors: colors)
        var hint = 0
        let x0 = Float(span.x)
        let y0 = Float(span.y)
        let w0 = Float(span.w)
        let dx = Float(span.dx)
        let dy = Float(span.dy)
        let dw = Float(span.dw)
        let affine = dw == 0
        let inverseW0 = 1 / w0
        for k in 0..<count {
          let kf = Float(k)
          let inverse = affine ? inverseW0 : 1 / (w0 + kf * dw)
          let p = SIMD2((x0 + kf * dx) * inverse, (y0 + kf * dy) * inverse)
          let c = stops.premultiplied(at: parameter(p), hint: &hint)
          Self.store(c, out + 4 * k)
        }
      }
    }
  }

  /// `t` at layer point `p` (unclamped).
  @inline(__always)
  func parameter(_ p: SIMD2<Float>) -> Float {
    if let constantT { return constantT }
    let d = p - start
    switch type {
    case .axial:
      return d.x * axis.x + d.y * axis.y
    case .radial:
      let q = d * axis
      return (q.x * q.x + q.y * q.y).squareRoot()
    case .conic:
      // Both angles are in (−½, ½] turns: the difference is in (−1, 1).
      let turns = FastMath.turns(y: d.y, x: d.x) - referenceTurns
      let t = turns < 0 ? turns + 1 : turns
      return t < 1 ? t : 0
    }
  }

  /// Stores `round(255·c)` per channel (`c` in `[0, 1]`): adding `1.5·2²³` leaves the rounded
  /// integer in the low mantissa bits (no conversion check).
  @inline(__always)
  static func store(_ c: SIMD4<Float>, _ out: UnsafeMutablePointer<UInt8>) {
    let v = c * 255 + 12_582_912
    out[0] = UInt8(truncatingIfNeeded: v.x.bitPattern)
    out[1] = UInt8(truncatingIfNeeded: v.y.bitPattern)
    out[2] = UInt8(truncatingIfNeeded: v.z.bitPattern)
    out[3] = UInt8(truncatingIfNeeded: v.w.bitPattern)
  }

  /// The sorted stops, looked up from the interval of the previous pixel.
  struct Stops {
    let locations: UnsafeBufferPointer<Float>
    let colors: UnsafeBufferPointer<SIMD4<Float>>

    /// The premultiplied colour at `t` (clamped to `[0, 1]`; NaN counts as 0); `hint` is the
    /// index of the first stop above `t` last time, updated.
    @inline(__always)
    func premultiplied(at t: Float, hint: inout Int) -> SIMD4<Float> {
      let t = t > 0 ? Swift.min(t, 1) : 0
      let n = locations.count
      var i = Swift.min(Swift.max(hint, 0), n)
      while i > 0 && locations[i - 1] > t { i -= 1 }
      while i < n && locations[i] <= t { i += 1 }
      hint = i
      let straight: SIMD4<Float>
      if i == 0 {
        straight = colors[0]
      } else if i == n {
        straight = colors[n - 1]
      } else {
        let a = locations[i - 1]
        let f = (t - a) / (locations[i] - a)
        straight = colors[i - 1] + (colors[i] - colors[i - 1]) * f
      }
      // The header's clamp: the standard library's `clamped` is two out-of-line scalar loops.
      let clamped = segue_clamp01_f32x4(straight)
      return SIMD4(clamped.x * clamped.w, clamped.y * clamped.w, clamped.z * clamped.w, clamped.w)
    }
  }
}

/// Fast `Float` approximations for the span kernels.
enum FastMath {
  /// `atan2(y, x) / 2π` in turns, `(−½, ½]`, within `2e-6` turns (a degree-7 odd polynomial
  /// for `atan` on `[0, 1]`, reflected by octant); `0` at the origin.
  @inline(__always)
  static func turns(y: Float, x: Float) -> Float {
    let ax = abs(x)
    let ay = abs(y)
    let big = Swift.max(ax, ay)
    guard big > 0 else { return 0 }
    let a = Swift.min(ax, ay) / big
    let s = a * a
    var r = ((-0.046_496_474_9 * s + 0.159_314_22) * s - 0.327_622_764) * s * a + a
    if ay > ax { r = Float.pi / 2 - r }
    if x < 0 { r = Float.pi - r }
    if y < 0 { r = -r }
    return r * (0.5 / Float.pi)
  }
}
