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
/// **Vertices.** The path's vertices are the end points of its elements (the first move's point
/// first); segment `i` runs from vertex `i` to vertex `i + 1` along its line or curve (a later
/// move is a *jump*: no length, the position stays at the old subpath's end until the jump's
/// time, then moves to the new subpath's start).
///
/// **Where the layer is at animation progress `u`** (after the animation's own timing
/// function), by ``calculationMode``:
///
/// - ``CalculationMode/linear`` (the default): `keyTimes` are per vertex (Core Animation's "one
///   per control point of the path"; first 0, last 1; `nil` spaces the vertices evenly), and
///   `timingFunctions` per segment, exactly as for values. Within segment `i` the local
///   fraction `s` (after its timing function) is the curve's parameter: `B(s)`. So each segment
///   takes its key-time interval; the speed along a curve varies with its parameterisation.
/// - ``CalculationMode/paced``: constant speed along the whole path: the layer is at the point
///   whose arc length from the start is `u · L` (`L` the path's length, jumps excluded);
///   `keyTimes` and `timingFunctions` are ignored (but still checked). Arc length is integrated by
///   adaptive 8-node Gauss–Legendre quadrature (a panel is accepted when it agrees with its two
///   halves to within its share of `1e-13` times the segment's control-polygon length, which
///   bounds the arc length from above; depth at most 30) and inverted by Newton's method with
///   bisection safeguards, so positions are within about `1e-13·L` of the exact ones; the tests
///   check lines, a quadratic's closed form, a quarter-circle cubic and a cusp against
///   independent integrations.
/// - ``CalculationMode/discrete``: the vertices themselves, each from its key time (`n` or
///   `n + 1` key times, as for values).
/// - ``CalculationMode/cubic`` and ``CalculationMode/cubicPaced``: the path's own curves are the
///   curve Core Animation moves along (its documentation describes no second spline through a
///   path's vertices), so they behave as linear and paced.
///
/// **Rotation.** With a ``rotationMode`` the layer's presented transform is its transform
/// followed by a rotation about z (about its anchor point) by the angle of the direction of
/// motion, `atan2(dy, dx)` of `B'` (y-down: positive angles turn clockwise on screen; where `B'`
/// vanishes, the direction of `B''`, or of `−B''` at a segment's end, then the chord), plus π for
/// ``RotationMode/rotateAutoReverse``. At a vertex shown by the discrete mode, or while holding
/// before a jump, the angle is the incoming segment's at its end (the outgoing one's at its start
/// for the first vertex and after a jump). A path that does not move at all has angle 0.
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
