import RealModule
import Segue

/// One evaluated layer of the `stack` workload: its transform `M` and clamped opacity.
public struct StackLayerValues: Hashable, Sendable {
  /// `M = T(−a) · S(σ, σ, 1) · Rz(rot) · T(tx, ty, tz) · P · T(a)` (row vectors, apply left first).
  public var transform: Transform3D
  /// The opacity channel clamped to `[0, 1]` (unitless).
  public var opacity: Double

  /// Creates the value pair.
  public init(transform: Transform3D, opacity: Double) {
    self.transform = transform
    self.opacity = opacity
  }

  /// The 17 output values in workload order: `m11, m12, …, m44`, then the opacity.
  public var values: [Double] { transform.fields + [opacity] }

  /// The layer's checksum term: the sum of the 16 entries plus the opacity.
  public var checksumTerm: Double { values.reduce(0, +) }
}

extension StackBatch {
  /// Evaluates layer `j` at global time `time` (seconds) in `Double`, straight from the workload's
  /// definition: progress clamp, the library's bezier solve
  /// (``/Segue/CubicBezier/parameter(forX:)``, |X(s) − x| ≤ 1e-7 guaranteed), segment by
  /// comparison with ``keyTimes``, Catmull–Rom by key index with duplicated end points, and the
  /// transform as a product of elementary ``/Segue/Transform3D`` matrices (not the closed form).
  ///
  /// This is the reference every other path is compared with. `j` must be in `0..<count` and
  /// `time` finite (checked by the public entry points that call it).
  public func referenceLayer(_ j: Int, time: Double) -> StackLayerValues {
    precondition(j >= 0 && j < count, "layer index out of range")
    let x = min(max((time - startDouble[j]) / durationDouble[j], 0), 1)
    let curve = Self.curves[Int(curveIndex[j])]
    let y = curve.sampleY(curve.parameter(forX: x))
    let kt = Self.keyTimes
    var i = 0
    if y >= kt[1] { i = 1 }
    if y >= kt[2] { i = 2 }
    let v = (y - kt[i]) / (kt[i + 1] - kt[i])
    let v2 = v * v
    let v3 = v2 * v
    let h00 = 2 * v3 - 3 * v2 + 1
    let h10 = v3 - 2 * v2 + v
    let h01 = -2 * v3 + 3 * v2
    let h11 = v3 - v2
    var channel = [Double](repeating: 0, count: 6)
    for c in 0..<6 {
      func p(_ k: Int) -> Double { keysDouble[(c * 4 + min(max(k, 0), 3)) * count + j] }
      let mi = (p(i + 1) - p(i - 1)) / 2
      let mi1 = (p(i + 2) - p(i)) / 2
      channel[c] = h00 * p(i) + h10 * mi + h01 * p(i + 1) + h11 * mi1
    }
    let (tx, ty, tz, scale, rot, opacity) = (
      channel[0], channel[1], channel[2], channel[3], channel[4], channel[5]
    )
    let ax = Self.width / 2
    let ay = Self.height / 2
    let c = Double.cos(rot)
    let n = Double.sin(rot)
    var s = Transform3D.identity
    s.m11 = scale
    s.m22 = scale
    var r = Transform3D.identity
    r.m11 = c
    r.m12 = n
    r.m21 = -n
    r.m22 = c
    var t = Transform3D.identity
    (t.m41, t.m42, t.m43) = (tx, ty, tz)
    var p = Transform3D.identity
    p.m34 = Self.perspective
    var toAnchor = Transform3D.identity
    (toAnchor.m41, toAnchor.m42) = (-ax, -ay)
    var fromAnchor = Transform3D.identity
    (fromAnchor.m41, fromAnchor.m42) = (ax, ay)
    let transform = toAnchor * s * r * t * p * fromAnchor
    return StackLayerValues(transform: transform, opacity: min(max(opacity, 0), 1))
  }

  /// Evaluates layers `range` at `time` (seconds) in `Double` into `output`, 17 values per layer
  /// (interleaved: value `k` of layer `j` at `output[17·j + k]`).
  ///
  /// - Throws: ``/Segue/ValidationError``: `"time"` not finite; `"range"` outside `0…count`
  ///   (``/Segue/ValidationError/Reason/outOfRange(lower:upper:)``); `"output"` shorter than
  ///   `17·range.upperBound` (``/Segue/ValidationError/Reason/tooFew(minimum:actual:)``).
  public func evaluateReference(
    time: Double, range: Range<Int>, into output: UnsafeMutableBufferPointer<Double>
  ) throws(ValidationError) {
    try Validate.finite(time, "time")
    try Validate.subrange(range, of: count, "range")
    try Validate.count(output.count, atLeast: Self.valuesPerLayer * range.upperBound, "output")
    for j in range {
      let values = referenceLayer(j, time: time).values
      for k in 0..<Self.valuesPerLayer { output[Self.valuesPerLayer * j + k] = values[k] }
    }
  }

  /// The workload checksum at `time` (seconds) from the `Double` reference: the sum over all layers
  /// of the 16 matrix entries plus the opacity, accumulated in `Double` in layer order.
  ///
  /// - Throws: ``/Segue/ValidationError`` `"time"` ``/Segue/ValidationError/Reason/notFinite``.
  public func referenceChecksum(time: Double) throws(ValidationError) -> Double {
    try Validate.finite(time, "time")
    var sum = 0.0
    for j in 0..<count { sum += referenceLayer(j, time: time).checksumTerm }
    return sum
  }
}
