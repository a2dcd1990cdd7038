import RealModule
import Segue

/// The `stack` workload written the way typical app code writes animations: one object per
/// layer, a protocol for "an animation" whose interpolation is a stored closure, `Double`
/// everywhere, dynamic dispatch per layer and per channel, a dictionary of animations by key path,
/// and the transform built as `CATransform3D`-style products through a generic 4×4 multiply on
/// nested arrays. It is the baseline the fast paths are measured against; it allocates freely
/// (arrays per matrix product) and produces the same numbers as the `Double` reference within
/// the timing solver's tolerance.
///
/// The scene is built once from a ``StackBatch`` (not timed); ``evaluate(time:range:into:layout:)``
/// is the timed part.
public final class StackNaiveScene {
  /// One animated layer.
  final class Layer {
    var animations: [String: any NaiveAnimation] = [:]
    init() {}

    /// The presentation values at `time`: key path → value.
    func presentationValue(_ keyPath: String, at time: Double) -> Double {
      animations[keyPath]?.value(at: time) ?? 0
    }
  }

  private let layers: [Layer]

  /// Number of layers.
  public var count: Int { layers.count }

  /// Builds one ``/Segue/Layer`` object per layer of `batch`, each with six keyframe animations
  /// (`transform.translation.x`, `…y`, `…z`, `transform.scale`, `transform.rotation.z`, `opacity`)
  /// sharing the layer's timing function object.
  public init(batch: StackBatch) {
    let names = [
      "transform.translation.x", "transform.translation.y", "transform.translation.z",
      "transform.scale", "transform.rotation.z", "opacity",
    ]
    var layers: [Layer] = []
    for j in 0..<batch.count {
      let layer = Layer()
      let curve = StackBatch.curves[Int(batch.curveIndex[j])]
      let timing = NaiveTimingFunction(
        controlPoints: curve.x1, curve.y1, curve.x2, curve.y2)
      for c in 0..<6 {
        let values = (0..<4).map { batch.keysDouble[(c * 4 + $0) * batch.count + j] }
        layer.animations[names[c]] = NaiveKeyframeAnimation(
          values: values, keyTimes: StackBatch.keyTimes, beginTime: batch.startDouble[j],
          duration: batch.durationDouble[j], timingFunction: timing,
          interpolate: { p0, p1, p2, p3, v in
            let m1 = (p2 - p0) / 2
            let m2 = (p3 - p1) / 2
            let v2 = v * v
            let v3 = v2 * v
            return (2 * v3 - 3 * v2 + 1) * p1 + (v3 - 2 * v2 + v) * m1 + (-2 * v3 + 3 * v2) * p2
              + (v3 - v2) * m2
          })
      }
      layers.append(layer)
    }
    self.layers = layers
  }

  /// Evaluates layers `range` at `time` (seconds) into `output` (rounded to `Float`), the same
  /// values and layout as ``StackEvaluationJob``.
  ///
  /// - Throws: ``/Segue/ValidationError``: `"time"` not finite; `"range"` outside `0…count`;
  ///   `"layout.stride"` smaller than `count`; `"output"` too short.
  public func evaluate(
    time: Double, range: Range<Int>, into output: UnsafeMutableBufferPointer<Float>,
    layout: StackOutputLayout
  ) throws(ValidationError) {
    try Validate.finite(time, "time")
    try Validate.subrange(range, of: count, "range")
    if case .planar(let stride) = layout {
      try Validate.stride(stride, atLeast: count, "layout.stride")
    }
    if !range.isEmpty {
      let needed = layout.requiredCount(upperBound: range.upperBound) ?? Int.max
      try Validate.count(output.count, atLeast: needed, "output")
    }
    let w = StackBatch.width
    let h = StackBatch.height
    for j in range {
      let layer = layers[j]
      let tx = layer.presentationValue("transform.translation.x", at: time)
      let ty = layer.presentationValue("transform.translation.y", at: time)
      let tz = layer.presentationValue("transform.translation.z", at: time)
      let scale = layer.presentationValue("transform.scale", at: time)
      let rot = layer.presentationValue("transform.rotation.z", at: time)
      let opacity = layer.presentationValue("opacity", at: time)
      var transform = NaiveMatrix.identity
      transform = transform.concat(NaiveMatrix.scale(scale, scale, 1))
      transform = transform.concat(NaiveMatrix.rotationZ(rot))
      transform = transform.concat(NaiveMatrix.translation(tx, ty, tz))
      transform = transform.concat(NaiveMatrix.perspective(500))
      let m = NaiveMatrix.translation(-w / 2, -h / 2, 0).concat(transform).concat(
        NaiveMatrix.translation(w / 2, h / 2, 0))
      var k = 0
      for row in m.rows {
        for value in row {
          output[layout.index(layer: j, value: k)] = Float(value)
          k += 1
        }
      }
      output[layout.index(layer: j, value: 16)] = Float(min(max(opacity, 0), 1))
    }
  }
}

/// "An animation": something with a value at a time.
protocol NaiveAnimation: AnyObject {
  func value(at time: Double) -> Double
}

/// A keyframe animation with `fillMode = .both`, a timing function over the whole duration and a
/// pluggable interpolation closure `(p_{i−1}, p_i, p_{i+1}, p_{i+2}, v) -> value`.
final class NaiveKeyframeAnimation: NaiveAnimation {
  let values: [Double]
  let keyTimes: [Double]
  let beginTime: Double
  let duration: Double
  let timingFunction: NaiveTimingFunction
  let interpolate: (Double, Double, Double, Double, Double) -> Double

  init(
    values: [Double], keyTimes: [Double], beginTime: Double, duration: Double,
    timingFunction: NaiveTimingFunction,
    interpolate: @escaping (Double, Double, Double, Double, Double) -> Double
  ) {
    self.values = values
    self.keyTimes = keyTimes
    self.beginTime = beginTime
    self.duration = duration
    self.timingFunction = timingFunction
    self.interpolate = interpolate
  }

  func value(at time: Double) -> Double {
    let x = min(max((time - beginTime) / duration, 0), 1)
    let y = timingFunction.solve(x)
    var i = 0
    while i + 2 < keyTimes.count && keyTimes[i + 1] <= y { i += 1 }
    let v = (y - keyTimes[i]) / (keyTimes[i + 1] - keyTimes[i])
    func p(_ k: Int) -> Double { values[min(max(k, 0), values.count - 1)] }
    return interpolate(p(i - 1), p(i), p(i + 1), p(i + 2), v)
  }
}

/// WebKit's `UnitBezier`, as articles port it: 11 samples, Newton (at most 4 steps, ε = 1e-7),
/// then bisection until `|X(s) − x| < 1e-7` or 64 halvings.
final class NaiveTimingFunction {
  let cx: Double
  let bx: Double
  let ax: Double
  let cy: Double
  let by: Double
  let ay: Double
  var samples: [Double] = []

  init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    cx = 3 * x1
    bx = 3 * (x2 - x1) - cx
    ax = 1 - cx - bx
    cy = 3 * y1
    by = 3 * (y2 - y1) - cy
    ay = 1 - cy - by
    samples = (0...10).map { sampleX(Double($0) / 10) }
  }

  func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
  func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
  func slopeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

  func solve(_ x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    var i = 0
    while i < 9 && samples[i + 1] < x { i += 1 }
    let span = samples[i + 1] - samples[i]
    var s = (Double(i) + (span > 0 ? (x - samples[i]) / span : 0)) / 10
    for _ in 0..<4 {
      let e = sampleX(s) - x
      if abs(e) < 1e-7 { return sampleY(s) }
      let d = slopeX(s)
      if abs(d) < 1e-7 { break }
      s -= e / d
    }
    var lo = 0.0
    var hi = 1.0
    s = x
    for _ in 0..<64 {
      let e = sampleX(s) - x
      if abs(e) < 1e-7 { break }
      if e < 0 { lo = s } else { hi = s }
      s = (lo + hi) / 2
    }
    return sampleY(s)
  }
}

/// A 4×4 matrix as nested arrays, multiplied through a generic routine (row vectors, `CATransform3D`
/// layout).
struct NaiveMatrix {
  var rows: [[Double]]

  static var identity: NaiveMatrix {
    NaiveMatrix(rows: (0..<4).map { r in (0..<4).map { c in r == c ? 1 : 0 } })
  }

  static func translation(_ x: Double, _ y: Double, _ z: Double) -> NaiveMatrix {
    var m = identity
    m.rows[3][0] = x
    m.rows[3][1] = y
    m.rows[3][2] = z
    return m
  }

  static func scale(_ x: Double, _ y: Double, _ z: Double) -> NaiveMatrix {
    var m = identity
    m.rows[0][0] = x
    m.rows[1][1] = y
    m.rows[2][2] = z
    return m
  }

  static func rotationZ(_ angle: Double) -> NaiveMatrix {
    var m = identity
    m.rows[0][0] = Double.cos(angle)
    m.rows[0][1] = Double.sin(angle)
    m.rows[1][0] = -Double.sin(angle)
    m.rows[1][1] = Double.cos(angle)
    return m
  }

  static func perspective(_ distance: Double) -> NaiveMatrix {
    var m = identity
    m.rows[2][3] = -1 / distance
    return m
  }

  /// `self · other`: apply `self`, then `other`.
  func concat(_ other: NaiveMatrix) -> NaiveMatrix {
    NaiveMatrix(rows: naiveMultiply(rows, other.rows))
  }
}

/// The textbook triple loop on nested arrays, generic over the scalar.
func naiveMultiply<T: FloatingPoint>(_ a: [[T]], _ b: [[T]]) -> [[T]] {
  var c = [[T]](repeating: [T](repeating: 0, count: b[0].count), count: a.count)
  for i in 0..<a.count {
    for j in 0..<b[0].count {
      var sum: T = 0
      for k in 0..<b.count { sum += a[i][k] * b[k][j] }
      c[i][j] = sum
    }
  }
  return c
}
