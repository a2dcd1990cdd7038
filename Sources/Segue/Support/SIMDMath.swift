import SegueSIMDSupport

/// The batch kernels' lane vector: 16 `Float` lanes, one per layer (or animation, spring, curve).
///
/// Why 16 and why `Float` lanes everywhere: the standard library has concrete, builtin-backed
/// operations up to `SIMD16` (`SIMD32` falls back to generic per-lane code); one `SIMD16<Float>` is
/// one AVX-512 register or two AVX registers. Integer SIMD comparisons and
/// `replacing(with:where:)` are lowered to per-lane loops by the standard library, so the kernels
/// keep indices and flags in `Float` lanes, compare in `Float`, and blend through
/// `SIMDMath.select` (the C shim's vector select).
@usableFromInline package typealias Lanes = SIMD16<Float>

/// A lane mask, the result of comparing two ``Lanes`` (each lane 0 or −1 as `Int32`).
@usableFromInline package typealias LaneMask = SIMDMask<SIMD16<Int32>>

/// Branch-free elementary functions on ``Lanes`` for the batch kernels, each with a scalar `Float`
/// twin where a kernel has a scalar path that must agree bit for bit.
///
/// Accuracy (measured against `Double` through swift-numerics in `SIMDMathTests`, 16 384 random
/// lanes per range): `sin`/`cos` ≤ 9.1e-8 absolute for `|x| ≤ 1000`, ≤ 2.6e-7 for `|x| ≤ 2¹⁴`;
/// `exp` ≤ 1.05 ulp relative over `[−86.9, 88.72]`; `expm1` ≤ 1.5 ulp relative (also for tiny
/// `x`); `acos` ≤ 2.9e-7 absolute (1.2 ulp); `atan2` ≤ 2.6e-7 absolute.
@usableFromInline package enum SIMDMath {
  // MARK: Constants

  /// 1.5·2²³: adding it rounds a `Float` of magnitude `< 2²²` to an integer held in the low
  /// mantissa bits (round to nearest even); subtracting it again gives that integer as a `Float`.
  @usableFromInline package static let roundingMagic: Float = 12_582_912
  /// 2²³: every `Float` of at least this magnitude is an integer.
  @usableFromInline package static let integerThreshold: Float = 8_388_608

  // Cody–Waite split of π/2 (Cephes DP1…DP3 times 2): halfPi1 has 8 significant bits, so k·halfPi1
  // is exact for |k| < 2¹⁶.
  @usableFromInline package static let twoOverPi: Float = 0.636_619_77
  @usableFromInline package static let halfPi1: Float = 1.570_312_5
  @usableFromInline package static let halfPi2: Float = 4.837_512_969_970_703_125e-4
  @usableFromInline package static let halfPi3: Float = 7.549_789_954_891_882_16e-8
  // Cephes sinf / cosf minimax coefficients on [−π/4, π/4].
  @usableFromInline package static let s1: Float = -1.666_665_461_1e-1
  @usableFromInline package static let s2: Float = 8.332_160_873_6e-3
  @usableFromInline package static let s3: Float = -1.951_529_589_1e-4
  @usableFromInline package static let c1: Float = 4.166_664_568_298_827e-2
  @usableFromInline package static let c2: Float = -1.388_731_625_493_765e-3
  @usableFromInline package static let c3: Float = 2.443_315_711_809_948e-5

  // exp: Cody–Waite split of ln 2 (Cephes C1, C2) and the expf minimax polynomial on
  // [−ln2/2, ln2/2]: exp(r) = 1 + r + r²·P(r).
  @usableFromInline package static let log2e: Float = 1.442_695_04
  @usableFromInline package static let ln2Hi: Float = 0.693_359_375
  @usableFromInline package static let ln2Lo: Float = -2.121_944_4e-4
  @usableFromInline package static let e0: Float = 1.987_569_150_0e-4
  @usableFromInline package static let e1: Float = 1.398_199_950_7e-3
  @usableFromInline package static let e2: Float = 8.333_451_907_3e-3
  @usableFromInline package static let e3: Float = 4.166_579_589_4e-2
  @usableFromInline package static let e4: Float = 1.666_666_545_9e-1
  @usableFromInline package static let e5: Float = 5.000_000_120_1e-1
  /// Above this `exp` overflows: `ln(Float.greatestFiniteMagnitude)`.
  @usableFromInline package static let expOverflow: Float = 88.722_839
  /// Below this `exp` is flushed to 0 (`e^−86.9 ≈ 1.9e-38`, just above the smallest normal
  /// `Float`, 1.18e-38), which keeps the scale factor `2ⁿ⁻¹` a normal number.
  @usableFromInline package static let expUnderflow: Float = -86.9

  // asinf minimax polynomial (Cephes) on [0, 0.5]: asin(x) = x + x·z·Q(z), z = x².
  @usableFromInline package static let a0: Float = 4.216_319_904_8e-2
  @usableFromInline package static let a1: Float = 2.418_131_104_9e-2
  @usableFromInline package static let a2: Float = 4.547_002_599_8e-2
  @usableFromInline package static let a3: Float = 7.495_300_268_6e-2
  @usableFromInline package static let a4: Float = 1.666_675_242_2e-1
  // atanf minimax polynomial (Cephes) on [0, tan(π/8)]: atan(x) = x + x·z·T(z).
  @usableFromInline package static let t0: Float = 8.053_744_495_38e-2
  @usableFromInline package static let t1: Float = -1.387_768_560_32e-1
  @usableFromInline package static let t2: Float = 1.997_771_064_78e-1
  @usableFromInline package static let t3: Float = -3.333_294_915_39e-1
  @usableFromInline package static let tanPiOver8: Float = 0.414_213_562_373_095_0
  @usableFromInline package static let pi: Float = 3.141_592_653_589_793
  /// `π − Float(π)`, the low part of a two-term π.
  @usableFromInline package static let piLo: Float = -8.742_278e-8
  @usableFromInline package static let halfPi: Float = 1.570_796_326_794_896_6
  /// `π/2 − Float(π/2)`.
  @usableFromInline package static let halfPiLo: Float = -4.371_139e-8
  @usableFromInline package static let quarterPi: Float = 0.785_398_163_397_448_3

  // MARK: Select, floor, clamp

  /// `mask ? whenTrue : whenFalse` lane by lane, through the C shim's vector select (the standard
  /// library's `replacing(with:where:)` is a per-lane loop that LLVM does not always turn into a
  /// blend).
  @inlinable @inline(__always)
  package static func select(_ mask: LaneMask, _ whenTrue: Lanes, _ whenFalse: Lanes) -> Lanes {
    segue_select_f32x16(unsafeBitCast(mask, to: SIMD16<Int32>.self), whenTrue, whenFalse)
  }

  /// Whether any lane of `mask` is set: one OR reduction in the C shim (the standard library's
  /// `any(_:)` on a 16-lane mask is an out-of-line generic `min` call).
  @inlinable @inline(__always)
  package static func any(_ mask: LaneMask) -> Bool {
    segue_any_i32x16(unsafeBitCast(mask, to: SIMD16<Int32>.self)) != 0
  }

  /// Sixteen bytes (for example curve indices) as integer-valued `Float` lanes, through the C
  /// shim's vector conversion (the standard library's converting initialiser is a generic loop).
  @inlinable @inline(__always)
  package static func lanes(_ bytes: SIMD16<UInt8>) -> Lanes {
    segue_u8x16_to_f32x16(bytes)
  }

  /// `mask ? whenTrue : whenFalse` with a scalar `whenTrue` broadcast to every lane.
  @inlinable @inline(__always)
  package static func select(_ mask: LaneMask, _ whenTrue: Float, _ whenFalse: Lanes) -> Lanes {
    select(mask, Lanes(repeating: whenTrue), whenFalse)
  }

  /// `⌊x⌋` lane by lane by the rounding trick: `r = (x + m) − m` with `m = ±2²³` (the sign of
  /// `x`) rounds to nearest, then `r − 1` where `r > x`. Exact for every finite `x` (lanes with
  /// `|x| ≥ 2²³` are already integers and pass through); NaN stays NaN, `±∞` stay `±∞`.
  @inlinable @inline(__always)
  package static func floor(_ x: Lanes) -> Lanes {
    let m = select(x .< 0, -integerThreshold, Lanes(repeating: integerThreshold))
    var r = (x + m) - m
    r = select(r .> x, r - 1, r)
    let large = (x .>= integerThreshold) .| (x .<= -integerThreshold)
    return select(large, x, r)
  }

  /// `min(max(x, lower), upper)` lane by lane with NaN mapped to `lower`.
  @inlinable @inline(__always)
  package static func clamp(_ x: Lanes, _ lower: Float, _ upper: Float) -> Lanes {
    let low = select(.!(x .>= lower), lower, x)
    return select(low .> upper, upper, low)
  }

  // MARK: Fused and single-instruction operations

  /// Whether the including code is compiled for hardware FMA (``fma(_:_:_:)`` rounds once): a
  /// constant after inlining (the C shim's predefined-macro test), so a kernel can pick the
  /// cheaper formula of the two.
  @inlinable @inline(__always)
  package static var fusedMultiplyAdd: Bool { SEGUE_HAS_FMA != 0 }

  /// `a·b + c` lane by lane with one rounding (a fused multiply-add, `vfmadd…ps`) when the build
  /// targets FMA (x86 `-target-cpu` with FMA3 or AVX-512, ARM64), otherwise with two roundings.
  /// Swift never contracts `a * b + c` on SIMD vectors into an FMA by itself, so kernels that
  /// want the fused form (half the instructions and one rounding instead of two) spell it with
  /// this helper (the C shim's `segue_fma_f32x16`). `fma(-a, b, c)` is `c − a·b` in one
  /// instruction (`vfnmadd`), `fma(a, b, -c)` is `a·b − c` (`vfmsub`).
  @inlinable @inline(__always)
  package static func fma(_ a: Lanes, _ b: Lanes, _ c: Lanes) -> Lanes {
    segue_fma_f32x16(a, b, c)
  }

  /// `(table[i], table[i + 1])` for each lane's integer-valued `index` `i ≥ 0` (the C shim's
  /// `segue_gather_pair_f32x16`: each pair one 64-bit gather element with AVX2 or AVX-512, a
  /// plain loop otherwise). The caller guarantees `i + 1` is inside `table`.
  @inlinable @inline(__always)
  package static func gatherPair(_ table: UnsafePointer<Float>, _ index: Lanes) -> (
    lo: Lanes, hi: Lanes
  ) {
    var hi = Lanes()
    let lo = withUnsafeMutablePointer(to: &hi) {
      segue_gather_pair_f32x16(table, index, OpaquePointer($0))
    }
    return (lo, hi)
  }

  // MARK: sin and cos

  /// `(sin x, cos x)` lane by lane: Cody–Waite reduction modulo π/2 with a three-part constant
  /// (`k = round(x·2/π)`, `r = x − k·π/2`), the Cephes `sinf`/`cosf` minimax polynomials on
  /// `[−π/4, π/4]`, and the quadrant `k mod 4` applied by blends. Within 9.1e-8 absolute for
  /// `|x| ≤ 1000` rad and 2.6e-7 for `|x| ≤ 2¹⁴` (the reduction's residual grows with `|x|`);
  /// meaningless for `|x| ≥ 2²²`. NaN gives NaN.
  @inlinable @inline(__always)
  package static func sinCos(_ x: Lanes) -> (sin: Lanes, cos: Lanes) {
    let kr = x * twoOverPi + roundingMagic
    let k = kr - roundingMagic
    return sinCos(reduced: ((x - k * halfPi1) - k * halfPi2) - k * halfPi3, quadrant: k)
  }

  /// The polynomial and quadrant stage of `sinCos(_:)`: `(sin, cos)` of `r + k·π/2`,
  /// for `|r| ≤ π/4` (a little more is harmless) and `k` an integer-valued `Float` with
  /// `|k| < 2²²`. Kernels that reduce more precisely (for example a compensated phase `ω·t`)
  /// call this directly.
  @inlinable @inline(__always)
  package static func sinCos(reduced r: Lanes, quadrant k: Lanes) -> (sin: Lanes, cos: Lanes) {
    // Quadrant q = k mod 4 in Float lanes: k − 4·floor(k/4).
    let k4 = k * 0.25
    var floor4 = (k4 + roundingMagic) - roundingMagic
    floor4 = select(floor4 .> k4, floor4 - 1, floor4)
    let quadrant = k - 4 * floor4
    let z = r * r
    let ps = r + r * z * (s1 + z * (s2 + z * s3))
    let pc = 1 - 0.5 * z + z * z * (c1 + z * (c2 + z * c3))
    let swap = (quadrant .== 1) .| (quadrant .== 3)
    var sine = select(swap, pc, ps)
    var cosine = select(swap, ps, pc)
    sine = select(quadrant .>= 2, -sine, sine)
    cosine = select((quadrant .== 1) .| (quadrant .== 2), -cosine, cosine)
    return (sine, cosine)
  }

  /// `sin x` lane by lane (`sinCos(_:)`).
  @inlinable @inline(__always)
  package static func sin(_ x: Lanes) -> Lanes { sinCos(x).sin }

  /// `cos x` lane by lane (`sinCos(_:)`).
  @inlinable @inline(__always)
  package static func cos(_ x: Lanes) -> Lanes { sinCos(x).cos }

  /// The scalar twin of `sinCos(_:)`: the same operations in the same order, so the
  /// result is bitwise equal to any lane of the vector version.
  @inlinable @inline(__always)
  package static func sinCos(_ x: Float) -> (sin: Float, cos: Float) {
    let kr = x * twoOverPi + roundingMagic
    let quadrant = Int32(bitPattern: kr.bitPattern) & 3
    let k = kr - roundingMagic
    let r = ((x - k * halfPi1) - k * halfPi2) - k * halfPi3
    let z = r * r
    let ps = r + r * z * (s1 + z * (s2 + z * s3))
    let pc = 1 - 0.5 * z + z * z * (c1 + z * (c2 + z * c3))
    var sine = quadrant & 1 != 0 ? pc : ps
    var cosine = quadrant & 1 != 0 ? ps : pc
    if quadrant & 2 != 0 { sine = -sine }
    if (quadrant + 1) & 2 != 0 { cosine = -cosine }
    return (sine, cosine)
  }

  // MARK: sin and cos scaled, reduced modulo π

  // Minimax polynomials (absolute error) on [−π/2, π/2], computed for Segue by a Remez exchange in
  // 40-digit arithmetic: sin r ≈ r + r³·(h1 + z·(h2 + z·(h3 + z·h4))) with z = r² (max error
  // 4.6e-9), cos r ≈ 1 + z·(g1 + z·(g2 + z·(g3 + z·(g4 + z·g5)))) (max error 2.4e-10); both far
  // below the 6e-8 of a `Float` ulp at 1.
  @usableFromInline package static let h1: Float = -0.166_666_570_965_143_42
  @usableFromInline package static let h2: Float = 8.333_017_291_768_291_8e-3
  @usableFromInline package static let h3: Float = -1.980_661_521_444_232_2e-4
  @usableFromInline package static let h4: Float = 2.600_054_793_371_227e-6
  @usableFromInline package static let g1: Float = -0.499_999_995_495_572_34
  @usableFromInline package static let g2: Float = 4.166_664_072_805_775_8e-2
  @usableFromInline package static let g3: Float = -1.388_840_350_818_584_9e-3
  @usableFromInline package static let g4: Float = 2.476_188_624_663_736_3e-5
  @usableFromInline package static let g5: Float = -2.607_710_532_379_368_5e-7
  /// `1/π` in `Float`.
  @usableFromInline package static let inversePi: Float = 0.318_309_886_183_790_7

  /// `(σ·sin x, σ·cos x)` lane by lane, for kernels that scale a rotation (a matrix
  /// `σ·[cos −sin; sin cos]`): one reduction modulo π, `n = round(x/π)` (the rounding trick),
  /// `r = x − n·π ∈ [−π/2, π/2]` (Cody–Waite: with FMA a two-part π, `n·π` being exact inside
  /// the fused operation; without, the three-part π of ``sinCos(_:)`` doubled, whose first part
  /// has 8 significant bits so that `n·π₁` is exact), `sin r` and `cos r` by odd degree-9 and even
  /// degree-10 minimax polynomials, and the sign `(−1)ⁿ` that `sin x` and `cos x` share folded into
  /// `σ` by one exclusive or. 18 vector instructions with FMA where ``sinCos(_:)`` needs about 30
  /// (no quadrant blends). Within 2e-7·|σ| absolute for `|x| ≤ 1000` rad (measured 1.5e-7 without
  /// FMA, `SIMDMathFusedTests`), meaningless for `|x| ≥ 2²²`. NaN gives NaN.
  @inlinable @inline(__always)
  package static func scaledSinCos<V: LaneVector>(_ x: V, scale: V) -> (sin: V, cos: V) {
    let kr = V.fma(x, V(repeating: inversePi), V(repeating: roundingMagic))
    let n = V.sub(kr, V(repeating: roundingMagic))
    var r: V
    if fusedMultiplyAdd {
      // n·π exact inside the fused operation: two parts suffice.
      r = V.fma(n, V(repeating: -pi), x)
      r = V.fma(n, V(repeating: -piLo), r)
    } else {
      r = V.fma(n, V(repeating: -2 * halfPi1), x)
      r = V.fma(n, V(repeating: -2 * halfPi2), r)
      r = V.fma(n, V(repeating: -2 * halfPi3), r)
    }
    let z = V.mul(r, r)
    var ps = V.fma(V(repeating: h4), z, V(repeating: h3))
    ps = V.fma(ps, z, V(repeating: h2))
    ps = V.fma(ps, z, V(repeating: h1))
    let sine = V.fma(V.mul(r, z), ps, r)
    var pc = V.fma(V(repeating: g5), z, V(repeating: g4))
    pc = V.fma(pc, z, V(repeating: g3))
    pc = V.fma(pc, z, V(repeating: g2))
    pc = V.fma(pc, z, V(repeating: g1))
    let cosine = V.fma(z, pc, V(repeating: 1))
    // n's parity is the low mantissa bit of kr: it flips the sign of σ.
    let signed = V.flipSign(scale, whereOdd: kr)
    return (V.mul(signed, sine), V.mul(signed, cosine))
  }

  /// The scalar twin of ``scaledSinCos(_:scale:)``: the same operations in the same order
  /// (`segue_fma_f32` where the vector version fuses), so the result is bitwise equal to any lane.
  @inlinable @inline(__always)
  package static func scaledSinCos(_ x: Float, scale: Float) -> (sin: Float, cos: Float) {
    let kr = segue_fma_f32(x, inversePi, roundingMagic)
    let n = kr - roundingMagic
    var r: Float
    if fusedMultiplyAdd {
      r = segue_fma_f32(n, -pi, x)
      r = segue_fma_f32(n, -piLo, r)
    } else {
      r = segue_fma_f32(n, -2 * halfPi1, x)
      r = segue_fma_f32(n, -2 * halfPi2, r)
      r = segue_fma_f32(n, -2 * halfPi3, r)
    }
    let z = r * r
    var ps = segue_fma_f32(h4, z, h3)
    ps = segue_fma_f32(ps, z, h2)
    ps = segue_fma_f32(ps, z, h1)
    let sine = segue_fma_f32(r * z, ps, r)
    var pc = segue_fma_f32(g5, z, g4)
    pc = segue_fma_f32(pc, z, g3)
    pc = segue_fma_f32(pc, z, g2)
    pc = segue_fma_f32(pc, z, g1)
    let cosine = segue_fma_f32(z, pc, 1)
    let signed = Float(bitPattern: scale.bitPattern ^ (kr.bitPattern << 31))
    return (signed * sine, signed * cosine)
  }

  // MARK: exp and expm1

  /// The shared reduction of ``exp(_:)`` and ``expm1(_:)``: `x = n·ln2 + r` with
  /// `n = round(x·log₂e)` and `|r| ≲ ln2/2` (Cody–Waite, two-part ln 2), `q = r + r²·P(r)`
  /// (so `eʳ = 1 + q`, with `q` accurate relative to itself), and `half = 2ⁿ⁻¹` built from the
  /// exponent bits (half the scale, so that `n = 128` does not overflow before the final `·2`).
  /// `x` must already be clamped to `[expUnderflow, expOverflow]`.
  @inlinable @inline(__always)
  package static func expParts(_ x: Lanes) -> (q: Lanes, half: Lanes) {
    let n = (x * log2e + roundingMagic) - roundingMagic
    let r = (x - n * ln2Hi) - n * ln2Lo
    let z = r * r
    let p = ((((e0 * r + e1) * r + e2) * r + e3) * r + e4) * r + e5
    let q = r + z * p
    // 2^(n−1) from the exponent field: (n + 126) sits in the low mantissa bits of
    // (n + 126) + 2²³; shifting the pattern left by 23 moves it into the exponent field (the
    // bits of 2²³ itself shift out). n ∈ [−125, 128] keeps n + 126 in [1, 254] (a normal number).
    let biased = (n + 126) + integerThreshold
    let bits = unsafeBitCast(biased, to: SIMD16<UInt32>.self) &<< 23
    return (q, unsafeBitCast(bits, to: Lanes.self))
  }

  /// `eˣ` lane by lane: Cody–Waite reduction by ln 2, the Cephes `expf` minimax polynomial, and
  /// scaling by `2ⁿ` through the exponent bits. About 1 ulp relative (1.05 ulp measured) for
  /// `x ∈ [−86.9, 88.72]`; `x > 88.7228` (overflow) gives `+∞`, `x < −86.9` (results below
  /// about 1.9e-38, at the bottom of the normal range) gives 0; `exp(0) = 1` exactly; NaN gives
  /// NaN.
  @inlinable @inline(__always)
  package static func exp(_ x: Lanes) -> Lanes {
    let clamped = clamp(x, expUnderflow, expOverflow)
    let (q, half) = expParts(clamped)
    var y = (half + half * q) * 2
    y = select(x .> expOverflow, Float.infinity, y)
    y = select(x .< expUnderflow, 0, y)
    return select(x .!= x, x, y)
  }

  /// `eˣ − 1` lane by lane, accurate relative to the result also for tiny `|x|` (where
  /// `exp(x) − 1` cancels): `2ⁿ·q + (2ⁿ − 1)`, computed as `2·(h·q + (h − ½))` with
  /// `h = 2ⁿ⁻¹` from the parts of ``exp(_:)`` (for `n = 0` this is exactly the polynomial
  /// `q = r + r²·P(r)`). Within 1.5 ulp relative (measured) for `x ∈ [−86.9, 88.72]`;
  /// `x > 88.7228` gives `+∞`, `x < −86.9` gives −1; NaN gives NaN.
  @inlinable @inline(__always)
  package static func expm1(_ x: Lanes) -> Lanes {
    let clamped = clamp(x, expUnderflow, expOverflow)
    let (q, half) = expParts(clamped)
    var y = (half * q + (half - 0.5)) * 2
    y = select(x .> expOverflow, Float.infinity, y)
    y = select(x .< expUnderflow, -1, y)
    return select(x .!= x, x, y)
  }

  // MARK: acos and atan2

  /// `asin s` for `s ∈ [0, 0.5]` (lane by lane): the Cephes `asinf` polynomial.
  @inlinable @inline(__always)
  package static func asinKernel(_ s: Lanes, _ z: Lanes) -> Lanes {
    s + s * z * ((((a0 * z + a1) * z + a2) * z + a3) * z + a4)
  }

  /// `acos x` in radians, `[0, π]`, lane by lane (Cephes `acosf`): for `|x| ≤ 0.5`,
  /// `π/2 − asin x`; otherwise `2·asin √((1 − |x|)/2)`, mirrored to `π − …` for `x < 0`. Inputs are
  /// clamped to `[−1, 1]` first (so a dot product that rounds to `1 + ε` gives 0, not NaN); NaN
  /// gives NaN. Within 2.9e-7 absolute (1.2 ulp, measured) over `[−1, 1]`.
  @inlinable @inline(__always)
  package static func acos(_ x: Lanes) -> Lanes {
    let c = select(x .> 1, 1, select(x .< -1, -1, x))
    let negative = c .< 0
    let a = select(negative, -c, c)
    let big = a .> 0.5
    let zBig = 0.5 * (1 - a)
    let z = select(big, zBig, a * a)
    let s = select(big, zBig.squareRoot(), a)
    let p = asinKernel(s, z)
    // |x| > 0.5: acos|x| = 2p; acos(−|x|) = π − 2p.  |x| ≤ 0.5: acos x = π/2 − asin x.
    let twoP = p + p
    // π and π/2 as two-term constants: the low parts carry the 1e-7 the Float constants miss.
    let bigResult = select(negative, (pi - twoP) + piLo, twoP)
    let smallResult = select(negative, (halfPi + p) + halfPiLo, (halfPi - p) + halfPiLo)
    return select(big, bigResult, smallResult)
  }

  /// `atan2(y, x)` in radians, `(−π, π]`, lane by lane: the angle of the point `(x, y)`.
  /// `a = min(|x|, |y|)/max(|x|, |y|) ∈ [0, 1]`, folded to `[0, tan(π/8)]` by
  /// `atan a = π/4 + atan((a − 1)/(a + 1))`, the Cephes `atanf` polynomial, then the octant
  /// fix-ups `π/2 − θ` (`|y| > |x|`), `π − θ` (`x < 0`) and the sign of `y`. `(0, 0)` gives 0
  /// (whatever the signs of the zeros); infinite arguments are not supported. Within 2.6e-7
  /// absolute (measured, about 1 ulp of π) over finite inputs.
  @inlinable @inline(__always)
  package static func atan2(y: Lanes, x: Lanes) -> Lanes {
    let ax = select(x .< 0, -x, x)
    let ay = select(y .< 0, -y, y)
    let steep = ay .> ax
    let hi = select(steep, ay, ax)
    let lo = select(steep, ax, ay)
    var a = lo / select(hi .== 0, 1, hi)
    let fold = a .> tanPiOver8
    a = select(fold, (a - 1) / (a + 1), a)
    let z = a * a
    var theta = a + a * z * (((t0 * z + t1) * z + t2) * z + t3)
    theta = select(fold, theta + quarterPi, theta)
    theta = select(steep, halfPi - theta, theta)
    theta = select(x .< 0, pi - theta, theta)
    return select(y .< 0, -theta, theta)
  }
}
