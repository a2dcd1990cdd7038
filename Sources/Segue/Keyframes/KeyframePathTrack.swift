/// `CAAnimationRotationMode`: how a layer moving along a path turns with it.
public enum RotationMode: String, Hashable, Sendable, CaseIterable {
  /// `.rotateAuto` (`kCAAnimationRotateAuto`, "auto"): the layer is rotated about z to the angle
  /// of the path's tangent.
  case rotateAuto = "auto"
  /// `.rotateAutoReverse` (`kCAAnimationRotateAutoReverse`, "autoReverse"): the tangent's angle
  /// plus π.
  case rotateAutoReverse = "autoReverse"
}

/// A `CAKeyframeAnimation` whose values come from a ``BezierPath`` (`path`), with its
/// `rotationMode`.
///
/// Segment `i` runs from vertex `i` to vertex `i + 1` (the end points of the path's elements);
/// in the linear and discrete modes the key times are per vertex, in the paced modes the layer
/// moves at constant speed along the arc length (positions within about `1e-13·L` of the exact
/// ones). With a rotation mode the layer turns with the direction of motion, `atan2(dy, dx)` of
/// the tangent (plus π for ``RotationMode/rotateAutoReverse``). The rules are in
/// <doc:KeyframeEvaluation>.
public struct KeyframePathTrack: Equatable, Sendable {
  /// The path.
  public let path: BezierPath
  /// `keyTimes` as given (linear and discrete: per vertex).
  public let keyTimes: [Double]?
  /// `calculationMode`.
  public let calculationMode: CalculationMode
  /// `timingFunctions` as given (one per segment).
  public let timingFunctions: [TimingFunction]?
  /// `rotationMode`; `nil`: no rotation.
  public let rotationMode: RotationMode?
  /// The path's vertices.
  public let vertices: [Point]
  /// Each segment's arc length in points (0 for a jump).
  public let segmentLengths: [Double]
  let segments: [BezierSegment]
  /// Finds the segment and its local fraction: over the given key times (linear, discrete) or
  /// over the cumulative arc length (paced).
  let locator: KeyframeTrack<Double>

  /// Validates and prepares a path animation.
  ///
  /// - Parameters:
  ///   - path: at least two vertices (one for ``CalculationMode/discrete``).
  ///   - keyTimes: per vertex, as a keyframe track's for `n` = the vertex count.
  ///   - calculationMode: default ``CalculationMode/linear``.
  ///   - timingFunctions: one per segment (`n − 1`).
  ///   - rotationMode: `nil` (no rotation), `.rotateAuto` or `.rotateAutoReverse`.
  /// - Throws: ``ValidationError``: `"path"` ``ValidationError/Reason/tooFew(minimum:actual:)``
  ///   for too few vertices; otherwise the errors of ``KeyframeTrack``'s initialiser for the
  ///   vertex count (`keyTimes`, `timingFunctions`, with indices).
  public init(
    path: BezierPath, keyTimes: [Double]? = nil, calculationMode: CalculationMode = .linear,
    timingFunctions: [TimingFunction]? = nil, rotationMode: RotationMode? = nil
  ) throws(ValidationError) {
    let segments = path.segments
    var vertices: [Point] = []
    if let first = path.elements.first, case .move(let p) = first { vertices.append(p) }
    for segment in segments { vertices.append(segment.p3) }
    let n = vertices.count
    let minimum = calculationMode == .discrete ? 1 : 2
    guard n >= minimum else {
      throw ValidationError(field: "path", reason: .tooFew(minimum: minimum, actual: n))
    }
    let indices = (0..<n).map(Double.init)
    // Checks keyTimes and timingFunctions as a track of n values in the requested mode.
    let given: KeyframeTrack<Double>
    do {
      given = try KeyframeTrack(
        values: indices, keyTimes: keyTimes, calculationMode: calculationMode,
        timingFunctions: timingFunctions)
    } catch {
      throw error.field == "values"
        ? ValidationError(field: "path", index: error.index, reason: error.reason) : error
    }
    let lengths = segments.map(\.length)
    switch calculationMode {
    case .linear, .cubic:
      locator = try KeyframeTrack(
        values: indices, keyTimes: keyTimes, calculationMode: .linear,
        timingFunctions: timingFunctions)
    case .discrete:
      locator = given
    case .paced, .cubicPaced:
      let total = lengths.reduce(0, +)
      var times: [Double]?
      if total > 0 && total.isFinite {
        var running = 0.0
        var list = [0.0]
        for length in lengths.dropLast() {
          running += length
          list.append(Swift.min(running / total, 1))
        }
        list.append(1)
        times = list
      }
      locator = try KeyframeTrack(values: indices, keyTimes: times, calculationMode: .linear)
    }
    self.path = path
    self.keyTimes = keyTimes
    self.calculationMode = calculationMode
    self.timingFunctions = timingFunctions
    self.rotationMode = rotationMode
    self.vertices = vertices
    self.segmentLengths = lengths
    self.segments = segments
  }

  /// The path's length in points, jumps excluded.
  public var length: Double { segmentLengths.reduce(0, +) }

  /// Where progress `u` lands: a vertex (discrete, or a jump not yet made), or a segment and the
  /// curve parameter on it.
  private enum Place {
    case vertex(Int)
    case onSegment(Int, Double)
  }

  private func place(at u: Double, beforeFlag: Bool) -> Place {
    let location = locator.compiled.locate(u, beforeFlag: beforeFlag)
    switch calculationMode {
    case .discrete:
      return .vertex(location.segment)
    case .linear, .cubic:
      let i = location.segment
      if segments[i].isJump { return .vertex(location.fraction >= 1 ? i + 1 : i) }
      return .onSegment(i, location.fraction)
    case .paced, .cubicPaced:
      let i = location.segment
      if segments[i].isJump { return .vertex(location.fraction >= 1 ? i + 1 : i) }
      let s = location.fraction
      if s <= 0 { return .onSegment(i, 0) }
      if s >= 1 { return .onSegment(i, 1) }
      return .onSegment(i, segments[i].parameter(atLength: s * segmentLengths[i]))
    }
  }

  /// The position at progress `u` (unitless, NaN counts as 0). A `u` outside `[0, 1]` (from an
  /// overshooting timing curve) extrapolates the first or last segment's curve in the linear
  /// modes, as a keyframe track does, and holds the path's ends in the paced modes (the
  /// arc-length parameterisation ends with the path) and the discrete one.
  ///
  /// - Parameters:
  ///   - u: the animation's eased progress, unitless.
  ///   - beforeFlag: `true` in the animation's before phase (CSS's before flag for `steps()`
  ///     per-segment timing functions).
  public func position(at u: Double, beforeFlag: Bool = false) -> Point {
    switch place(at: u, beforeFlag: beforeFlag) {
    case .vertex(let v): vertices[v]
    case .onSegment(let i, let t): segments[i].point(at: t)
    }
  }

  /// The rotation about z at progress `u`, radians: the tangent's angle (plus π for
  /// ``RotationMode/rotateAutoReverse``); `nil` without a ``rotationMode``.
  public func rotation(at u: Double, beforeFlag: Bool = false) -> Double? {
    guard let rotationMode else { return nil }
    let angle: Double
    switch place(at: u, beforeFlag: beforeFlag) {
    case .vertex(let v): angle = vertexAngle(v)
    case .onSegment(let i, let t): angle = segments[i].tangentAngle(at: t) ?? vertexAngle(i)
    }
    return rotationMode == .rotateAutoReverse ? angle + Double.pi : angle
  }

  /// The angle at vertex `v`: the incoming segment's at its end, else the outgoing one's at its
  /// start, else 0.
  private func vertexAngle(_ v: Int) -> Double {
    if v > 0, let angle = segments[v - 1].tangentAngle(at: 1) { return angle }
    if v < segments.count, let angle = segments[v].tangentAngle(at: 0) { return angle }
    return 0
  }
}
