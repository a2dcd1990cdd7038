import Segue

/// The `stack` benchmark workload (v1): N independent layers, each with one six-channel keyframe
/// animation, evaluated at one global time into a `CATransform3D`-style 4×4 matrix and an opacity.
///
/// The definition is Segue's DocC article "Benchmark workloads"; this file holds the generation
/// and the structure-of-arrays storage every evaluation path reads. Per layer `j`:
///
/// * start offset `s_j = 0.5·u` (seconds) and duration `d_j = [0.2, 0.35, 0.5][j mod 3]` (seconds);
/// * 24 key values `p_{c,k}` for channels `c` in `tx, ty, tz, scale, rot, opacity` and keys
///   `k = 0…3` at ``keyTimes`` (`tx, ty, tz` in points, `scale` unitless, `rot` in radians,
///   `opacity` a unitless fraction);
/// * the timing curve `[easeIn, easeOut, easeInEaseOut, default][j mod 4]` (``curves``).
///
/// Random draws come from splitmix64 seeded with 42, 25 per layer, mapped in `Double`. The
/// `Double` arrays keep those values exactly; the `Float` arrays round them once, as the
/// workload prescribes for float32 implementations.
///
/// Storage layout (structure of arrays): the `Double` values in planes of `count` values (key `k`
/// of channel `c` of layer `j` at `keysDouble[(c·4 + k)·count + j]`); the `Float` values the SIMD
/// kernel reads in one 64-byte aligned allocation of 26 planes (start, duration, then the 24 key
/// planes `2 + c·4 + k`), each ``planeStride`` floats long: `count` rounded up to 16, plus 16. The
/// padding keeps consecutive planes from being a power of two bytes apart (at `count = 16 384`
/// they would be exactly 64 KiB apart, and the 26 input and 17 output streams of a block would
/// compete for the same cache sets), and lets a SIMD block read 16 layers from any start without
/// leaving its plane (padding layers have `s = 0`, `d = 1`, keys 0).
public struct StackBatch: Sendable {
  /// The screen width `W` in points (390).
  public static let width: Double = 390
  /// The screen height `H` in points (844).
  public static let height: Double = 844
  /// The key times shared by every layer and channel: `[0, 0.3, 0.7, 1]` (unitless fractions of
  /// the curve's output `y`).
  public static let keyTimes: [Double] = [0, 0.3, 0.7, 1]
  /// The perspective entry `m34 = −1/500` of `P`.
  public static let perspective: Double = -1.0 / 500.0
  /// The three durations `d_j = durations[j mod 3]`, in seconds.
  public static let durations: [Double] = [0.2, 0.35, 0.5]
  /// Number of animated channels per layer (`tx, ty, tz, scale, rot, opacity`).
  public static let channelCount = 6
  /// Number of keys per channel.
  public static let keyCount = 4
  /// Number of values written per layer: the 16 matrix entries `m11…m44`, then the opacity.
  public static let valuesPerLayer = 17
  /// The largest batch ``init(count:)`` accepts (10⁸ layers ≈ 10 GB of inputs).
  public static let maximumCount = 100_000_000

  /// The four timing curves, indexed by ``curveIndex``: `easeIn`, `easeOut`, `easeInEaseOut`,
  /// `default` (Core Animation's `CAMediaTimingFunctionName` control points).
  public static let curves: [CubicBezier] = [
    .easeIn, .easeOut, .easeInEaseOut, .systemDefault,
  ]

  /// Number of layers `N`.
  public let count: Int

  /// Floats from one `Float` input plane to the next (see the type's description): `count`
  /// rounded up to 16, plus 16.
  public let planeStride: Int
  /// The 26 `Float` planes (64-byte aligned, ``planeStride`` apart).
  let floatPlanes: StackFloatPlanes
  /// The `Float` plane of the start offsets.
  public static let startPlane = 0
  /// The `Float` plane of the durations.
  public static let durationPlane = 1
  /// The `Float` plane of key `k` of channel `c`: `2 + c·4 + k`.
  public static func keyPlane(channel c: Int, key k: Int) -> Int { 2 + 4 * c + k }
  /// Number of `Float` planes (start, duration, 24 keys).
  public static let planeCount = 26

  /// The stride of a padded plane for `count` layers: `count` rounded up to 16, plus 16 (so that
  /// planes are 64 bytes more than a multiple of 64 apart, never a power of two; see the type's
  /// description). Also the planar output stride segue-bench uses.
  public static func paddedStride(count: Int) -> Int { (count + 15) / 16 * 16 + 16 }

  /// Start offset `s_j` in seconds, rounded to `Float`.
  public func start(_ j: Int) -> Float { floatPlanes.value(Self.startPlane, j) }
  /// Duration `d_j` in seconds, rounded to `Float`.
  public func duration(_ j: Int) -> Float { floatPlanes.value(Self.durationPlane, j) }
  /// Key `k` of channel `c` of layer `j`, rounded to `Float`.
  public func key(channel c: Int, key k: Int, layer j: Int) -> Float {
    floatPlanes.value(Self.keyPlane(channel: c, key: k), j)
  }
  /// Calls `body` with the `Float` planes: value `p` of layer `j` at `planes[p·planeStride + j]`
  /// (``startPlane``, ``durationPlane``, ``keyPlane(channel:key:)``), `26·planeStride` floats.
  public func withFloatPlanes<R>(_ body: (UnsafePointer<Float>) throws -> R) rethrows -> R {
    try withExtendedLifetime(floatPlanes) { try body(UnsafePointer(floatPlanes.base)) }
  }
  /// Per-layer timing curve, an index into ``curves`` (`j mod 4`).
  public let curveIndex: [UInt8]

  /// Start offsets `s_j` in seconds, exact (`Double`).
  public let startDouble: [Double]
  /// Durations `d_j` in seconds, exact (`Double`).
  public let durationDouble: [Double]
  /// The 24 key planes in `Double`, unpadded: key `k` of channel `c` of layer `j` at
  /// `(4c + k)·count + j`.
  public let keysDouble: [Double]

  /// The per-curve inverse tables used for the `Float` solver's first guess (see
  /// ``StackCurveTables``).
  public let curveTables: StackCurveTables

  /// Generates the workload's first `count` layers, as the workload definition draws them.
  ///
  /// Deterministic: the same `count` always gives the same layers, and layer `j` does not depend on
  /// `count` (the stream is drawn layer by layer).
  ///
  /// - Parameter count: `N`, from 1 through ``maximumCount``.
  /// - Throws: ``/Segue/ValidationError`` with `field` `"count"`:
  ///   ``/Segue/ValidationError/Reason/notPositive`` when `count ≤ 0`,
  ///   ``/Segue/ValidationError/Reason/outOfRange(lower:upper:)`` above ``maximumCount``.
  public init(count: Int) throws(ValidationError) {
    guard count > 0 else { throw ValidationError(field: "count", reason: .notPositive) }
    guard count <= Self.maximumCount else {
      throw ValidationError(
        field: "count", reason: .outOfRange(lower: 1, upper: Double(Self.maximumCount)))
    }
    self.count = count
    var rng = SplitMix64(state: 42)
    var startD = [Double](repeating: 0, count: count)
    var durationD = [Double](repeating: 0, count: count)
    var keysD = [Double](repeating: 0, count: 24 * count)
    var curve = [UInt8](repeating: 0, count: count)
    let twoPi = 2 * Double.pi
    for j in 0..<count {
      startD[j] = 0.5 * rng.nextUnit()
      for c in 0..<6 {
        for k in 0..<4 {
          let u = rng.nextUnit()
          let value: Double
          switch c {
          case 0: value = (u - 0.5) * 2 * Self.width
          case 1: value = (u - 0.5) * 2 * Self.height
          case 2: value = (u - 0.5) * 300
          case 3: value = 0.5 + u
          case 4: value = (u - 0.5) * twoPi
          default: value = u
          }
          keysD[(c * 4 + k) * count + j] = value
        }
      }
      durationD[j] = Self.durations[j % 3]
      curve[j] = UInt8(j % 4)
    }
    self.startDouble = startD
    self.durationDouble = durationD
    self.keysDouble = keysD
    self.curveIndex = curve
    let stride = Self.paddedStride(count: count)
    let planes = StackFloatPlanes(count: Self.planeCount * stride)
    for j in 0..<stride {
      planes.base[Self.durationPlane * stride + j] = 1
    }
    for j in 0..<count {
      planes.base[Self.startPlane * stride + j] = Float(startD[j])
      planes.base[Self.durationPlane * stride + j] = Float(durationD[j])
    }
    for p in 0..<24 {
      for j in 0..<count { planes.base[(2 + p) * stride + j] = Float(keysD[p * count + j]) }
    }
    self.planeStride = stride
    self.floatPlanes = planes
    self.curveTables = StackCurveTables(curves: Self.curves)
  }
}

/// The `Float` planes of a ``StackBatch``: one 64-byte aligned allocation, written only while the
/// batch is created (then shared read-only, hence `@unchecked Sendable`).
final class StackFloatPlanes: @unchecked Sendable {
  let base: UnsafeMutablePointer<Float>
  let stride: Int

  /// `count` floats, zeroed.
  init(count: Int) {
    let capacity = Swift.max(count, 1)
    base = UnsafeMutableRawPointer.allocate(
      byteCount: MemoryLayout<Float>.stride * capacity, alignment: CacheLine.bytes
    ).bindMemory(to: Float.self, capacity: capacity)
    base.initialize(repeating: 0, count: capacity)
    stride = count / StackBatch.planeCount
  }

  deinit { base.deallocate() }

  /// Value `plane` of layer `j`.
  func value(_ plane: Int, _ j: Int) -> Float { base[plane * stride + j] }
}

/// Per-curve lookup tables for a vectorised first guess of the bezier solve: the workload's name
/// for ``/Segue/CubicBezierBatch`` (its ``/Segue/CubicBezierBatch/inverse`` table holds, per curve,
/// ``/Segue/CubicBezierBatch/segments`` + 1 samples of the inverse `s(x)` at `x = i / segments`). This is
/// the "per-curve lookup table" the workload allows to precompute.
public typealias StackCurveTables = CubicBezierBatch

/// splitmix64 (Steele, Lea & Flood 2014) as the workload definition uses it.
public struct SplitMix64: Sendable {
  /// The generator's state; the first draw advances it before mixing.
  public var state: UInt64

  /// A generator whose first draw is the workload's first draw for seed `state`.
  public init(state: UInt64) { self.state = state }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The next double in `[0, 1)`: the top 53 bits times 2⁻⁵³.
  public mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }
}
