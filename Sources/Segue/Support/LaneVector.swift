import SegueSIMDSupport

/// A vector of `Float` lanes that the batch kernels are written over, so that one kernel source
/// runs either on ``Lanes`` (16 lanes: one AVX-512 register, two AVX registers) or on a
/// ``LanePair`` of them (32 lanes processed in lock step).
///
/// Why pairs: a kernel's dependency chain per lane is long (a division, a gather, Newton steps,
/// polynomials: a few hundred cycles), longer than the out-of-order core can look ahead. With a
/// pair every operation is issued for both halves back to back, so the core always has two
/// independent chains to work on — the same as writing each line twice, without writing it twice.
/// On AVX2 a `Lanes` value is already two registers in lock step; on AVX-512 a `LanePair` is.
///
/// Every requirement is one instruction or a short fixed sequence per 16 lanes, always inlined;
/// the fused and single-instruction ones come from the C shim (`SegueSIMDSupport`), because Swift
/// neither fuses `a * b + c` on SIMD vectors nor spells `vmaxps`, `vrcp14ps` or gathers.
@usableFromInline package protocol LaneVector {
  /// The result of a lane-wise comparison.
  associatedtype Mask
  /// Number of lanes (16 or a multiple).
  static var laneCount: Int { get }
  /// Every lane `value`.
  init(repeating value: Float)
  // Arithmetic as named functions: operator requirements (and a pair type's operators) would add
  // candidates to every `+` and `*` the type checker solves in the package.
  /// `a + b` lane by lane.
  static func add(_ a: Self, _ b: Self) -> Self
  /// `a − b` lane by lane.
  static func sub(_ a: Self, _ b: Self) -> Self
  /// `a · b` lane by lane.
  static func mul(_ a: Self, _ b: Self) -> Self
  /// `a / b` lane by lane.
  static func div(_ a: Self, _ b: Self) -> Self
  /// `−a` lane by lane.
  static func neg(_ a: Self) -> Self
  /// `a·b + c` with one rounding where the build targets FMA (``SIMDMath/fma(_:_:_:)``).
  static func fma(_ a: Self, _ b: Self, _ c: Self) -> Self
  /// `a > b ? a : b` lane by lane (`b` where either is NaN).
  static func maximum(_ a: Self, _ b: Self) -> Self
  /// `a < b ? a : b` lane by lane (`b` where either is NaN).
  static func minimum(_ a: Self, _ b: Self) -> Self
  /// Rounded toward zero (``SIMDMath/truncate(_:)``).
  static func truncate(_ x: Self) -> Self
  /// `√x`, correctly rounded.
  static func squareRoot(_ x: Self) -> Self
  /// About `1/x` (``SIMDMath/approximateReciprocal(_:)``).
  static func approximateReciprocal(_ x: Self) -> Self
  /// `x` with its sign flipped in the lanes where the integer held in the low mantissa bits of
  /// `k` (a value produced by the rounding trick, `y + 1.5·2²³`) is odd.
  static func flipSign(_ x: Self, whereOdd k: Self) -> Self
  /// `mask ? whenTrue : whenFalse` lane by lane.
  static func select(_ mask: Mask, _ whenTrue: Self, _ whenFalse: Self) -> Self
  /// `a < b` lane by lane.
  static func less(_ a: Self, _ b: Self) -> Mask
  /// `a ≤ b` lane by lane.
  static func lessOrEqual(_ a: Self, _ b: Self) -> Mask
  /// `a == b` lane by lane.
  static func equal(_ a: Self, _ b: Self) -> Mask
  /// Both masks.
  static func and(_ a: Mask, _ b: Mask) -> Mask
  /// Either mask.
  static func or(_ a: Mask, _ b: Mask) -> Mask
  /// Not `a`.
  static func not(_ a: Mask) -> Mask
  /// Whether any lane of the mask is set.
  static func any(_ mask: Mask) -> Bool
  /// `(table[i], table[i + 1])` per lane (``SIMDMath/gatherPair(_:_:)``).
  static func gatherPair(_ table: UnsafePointer<Float>, _ index: Self) -> (lo: Self, hi: Self)
  /// `table[i]` per lane, `i` an integer-valued lane `≥ 0` inside the table (an AVX-512 or AVX2
  /// gather, a plain loop otherwise).
  static func gather(_ table: UnsafePointer<Float>, _ index: Self) -> Self
  /// `laneCount` floats from `p` (any alignment).
  static func load(_ p: UnsafePointer<Float>) -> Self
  /// `laneCount` bytes from `p` as integer-valued lanes (for example curve indices).
  static func load(bytes p: UnsafePointer<UInt8>) -> Self
  /// `laneCount` 16-bit integers from `p` as integer-valued lanes.
  static func load(halfwords p: UnsafePointer<UInt16>) -> Self
  /// The 16 lanes `16·i ..< 16·i + 16`.
  func piece(_ i: Int) -> Lanes
}

extension SIMD16: LaneVector where Scalar == Float {
  @usableFromInline package typealias Mask = LaneMask
  @inlinable package static var laneCount: Int { 16 }
  @inlinable @inline(__always)
  package static func add(_ a: Self, _ b: Self) -> Self { a + b }
  @inlinable @inline(__always)
  package static func sub(_ a: Self, _ b: Self) -> Self { a - b }
  @inlinable @inline(__always)
  package static func mul(_ a: Self, _ b: Self) -> Self { a * b }
  @inlinable @inline(__always)
  package static func div(_ a: Self, _ b: Self) -> Self { a / b }
  @inlinable @inline(__always)
  package static func neg(_ a: Self) -> Self { -a }
  @inlinable @inline(__always)
  package static func fma(_ a: Self, _ b: Self, _ c: Self) -> Self { segue_fma_f32x16(a, b, c) }
  @inlinable @inline(__always)
  package static func maximum(_ a: Self, _ b: Self) -> Self { segue_max_f32x16(a, b) }
  @inlinable @inline(__always)
  package static func minimum(_ a: Self, _ b: Self) -> Self { segue_min_f32x16(a, b) }
  @inlinable @inline(__always)
  package static func truncate(_ x: Self) -> Self { segue_trunc_f32x16(x) }
  @inlinable @inline(__always)
  package static func squareRoot(_ x: Self) -> Self { segue_sqrt_f32x16(x) }
  @inlinable @inline(__always)
  package static func approximateReciprocal(_ x: Self) -> Self { segue_rcp_f32x16(x) }
  @inlinable @inline(__always)
  package static func flipSign(_ x: Self, whereOdd k: Self) -> Self {
    let parity = unsafeBitCast(k, to: SIMD16<UInt32>.self) &<< 31
    return unsafeBitCast(unsafeBitCast(x, to: SIMD16<UInt32>.self) ^ parity, to: Self.self)
  }
  @inlinable @inline(__always)
  package static func select(_ mask: Mask, _ whenTrue: Self, _ whenFalse: Self) -> Self {
    SIMDMath.select(mask, whenTrue, whenFalse)
  }
  @inlinable @inline(__always)
  package static func less(_ a: Self, _ b: Self) -> Mask { a .< b }
  @inlinable @inline(__always)
  package static func lessOrEqual(_ a: Self, _ b: Self) -> Mask { a .<= b }
  @inlinable @inline(__always)
  package static func equal(_ a: Self, _ b: Self) -> Mask { a .== b }
  @inlinable @inline(__always)
  package static func and(_ a: Mask, _ b: Mask) -> Mask { a .& b }
  @inlinable @inline(__always)
  package static func or(_ a: Mask, _ b: Mask) -> Mask { a .| b }
  @inlinable @inline(__always)
  package static func not(_ a: Mask) -> Mask { .!a }
  @inlinable @inline(__always)
  package static func any(_ mask: Mask) -> Bool { SIMDMath.any(mask) }
  @inlinable @inline(__always)
  package static func gatherPair(_ table: UnsafePointer<Float>, _ index: Self) -> (
    lo: Self, hi: Self
  ) {
    SIMDMath.gatherPair(table, index)
  }
  @inlinable @inline(__always)
  package static func gather(_ table: UnsafePointer<Float>, _ index: Self) -> Self {
    segue_gather_f32x16(table, index)
  }
  @inlinable @inline(__always)
  package static func load(_ p: UnsafePointer<Float>) -> Self {
    UnsafeRawPointer(p).loadUnaligned(as: Self.self)
  }
  @inlinable @inline(__always)
  package static func load(bytes p: UnsafePointer<UInt8>) -> Self {
    segue_u8x16_to_f32x16(UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self))
  }
  @inlinable @inline(__always)
  package static func load(halfwords p: UnsafePointer<UInt16>) -> Self {
    segue_u16x16_to_f32x16(UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt16>.self))
  }
  @inlinable @inline(__always)
  package func piece(_ i: Int) -> Lanes { self }
}

/// Two lane vectors processed in lock step (see ``LaneVector``): lanes `0 ..< H.laneCount` are
/// ``a``, the next ``b``. Each operation is the operation on `a` followed by the same on `b`.
@frozen @usableFromInline package struct LanePair<Half: LaneVector>: LaneVector {
  @usableFromInline package var a: Half
  @usableFromInline package var b: Half

  /// The pair `(a, b)`.
  @inlinable @inline(__always)
  package init(_ a: Half, _ b: Half) {
    self.a = a
    self.b = b
  }

  /// A pair of masks.
  @frozen @usableFromInline package struct Mask {
    @usableFromInline package var a: Half.Mask
    @usableFromInline package var b: Half.Mask
    @inlinable @inline(__always)
    package init(_ a: Half.Mask, _ b: Half.Mask) {
      self.a = a
      self.b = b
    }
  }

  @inlinable package static var laneCount: Int { 2 * Half.laneCount }
  @inlinable @inline(__always)
  package init(repeating value: Float) {
    self.init(Half(repeating: value), Half(repeating: value))
  }
  @inlinable @inline(__always)
  package static func add(_ l: Self, _ r: Self) -> Self {
    Self(Half.add(l.a, r.a), Half.add(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func sub(_ l: Self, _ r: Self) -> Self {
    Self(Half.sub(l.a, r.a), Half.sub(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func mul(_ l: Self, _ r: Self) -> Self {
    Self(Half.mul(l.a, r.a), Half.mul(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func div(_ l: Self, _ r: Self) -> Self {
    Self(Half.div(l.a, r.a), Half.div(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func neg(_ x: Self) -> Self { Self(Half.neg(x.a), Half.neg(x.b)) }
  @inlinable @inline(__always)
  package static func fma(_ x: Self, _ y: Self, _ z: Self) -> Self {
    Self(Half.fma(x.a, y.a, z.a), Half.fma(x.b, y.b, z.b))
  }
  @inlinable @inline(__always)
  package static func maximum(_ l: Self, _ r: Self) -> Self {
    Self(Half.maximum(l.a, r.a), Half.maximum(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func minimum(_ l: Self, _ r: Self) -> Self {
    Self(Half.minimum(l.a, r.a), Half.minimum(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func truncate(_ x: Self) -> Self { Self(Half.truncate(x.a), Half.truncate(x.b)) }
  @inlinable @inline(__always)
  package static func squareRoot(_ x: Self) -> Self {
    Self(Half.squareRoot(x.a), Half.squareRoot(x.b))
  }
  @inlinable @inline(__always)
  package static func approximateReciprocal(_ x: Self) -> Self {
    Self(Half.approximateReciprocal(x.a), Half.approximateReciprocal(x.b))
  }
  @inlinable @inline(__always)
  package static func flipSign(_ x: Self, whereOdd k: Self) -> Self {
    Self(Half.flipSign(x.a, whereOdd: k.a), Half.flipSign(x.b, whereOdd: k.b))
  }
  @inlinable @inline(__always)
  package static func select(_ m: Mask, _ t: Self, _ f: Self) -> Self {
    Self(Half.select(m.a, t.a, f.a), Half.select(m.b, t.b, f.b))
  }
  @inlinable @inline(__always)
  package static func less(_ l: Self, _ r: Self) -> Mask {
    Mask(Half.less(l.a, r.a), Half.less(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func lessOrEqual(_ l: Self, _ r: Self) -> Mask {
    Mask(Half.lessOrEqual(l.a, r.a), Half.lessOrEqual(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func equal(_ l: Self, _ r: Self) -> Mask {
    Mask(Half.equal(l.a, r.a), Half.equal(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func and(_ l: Mask, _ r: Mask) -> Mask {
    Mask(Half.and(l.a, r.a), Half.and(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func or(_ l: Mask, _ r: Mask) -> Mask {
    Mask(Half.or(l.a, r.a), Half.or(l.b, r.b))
  }
  @inlinable @inline(__always)
  package static func not(_ m: Mask) -> Mask { Mask(Half.not(m.a), Half.not(m.b)) }
  @inlinable @inline(__always)
  package static func any(_ m: Mask) -> Bool { Half.any(Half.or(m.a, m.b)) }
  @inlinable @inline(__always)
  package static func gatherPair(_ table: UnsafePointer<Float>, _ index: Self) -> (
    lo: Self, hi: Self
  ) {
    let x = Half.gatherPair(table, index.a)
    let y = Half.gatherPair(table, index.b)
    return (Self(x.lo, y.lo), Self(x.hi, y.hi))
  }
  @inlinable @inline(__always)
  package static func gather(_ table: UnsafePointer<Float>, _ index: Self) -> Self {
    Self(Half.gather(table, index.a), Half.gather(table, index.b))
  }
  @inlinable @inline(__always)
  package static func load(_ p: UnsafePointer<Float>) -> Self {
    Self(Half.load(p), Half.load(p + Half.laneCount))
  }
  @inlinable @inline(__always)
  package static func load(bytes p: UnsafePointer<UInt8>) -> Self {
    Self(Half.load(bytes: p), Half.load(bytes: p + Half.laneCount))
  }
  @inlinable @inline(__always)
  package static func load(halfwords p: UnsafePointer<UInt16>) -> Self {
    Self(Half.load(halfwords: p), Half.load(halfwords: p + Half.laneCount))
  }
  @inlinable @inline(__always)
  package func piece(_ i: Int) -> Lanes {
    let halfPieces = Half.laneCount / 16
    return i < halfPieces ? a.piece(i) : b.piece(i - halfPieces)
  }
}

extension LaneVector {
  /// Whether every lane of `a` equals the same lane of `b`.
  @inlinable @inline(__always)
  package static func allEqual(_ a: Self, _ b: Self) -> Bool { !any(not(equal(a, b))) }
}
