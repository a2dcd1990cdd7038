/// A piecewise-linear easing, CSS `linear(…)` (CSS Easing Level 2).
///
/// Built from a list of ``Stop``s, each an output value with zero, one or two input positions.
/// The inputs are resolved once, at creation, by CSS's "create a linear easing function":
///
/// 1. a stop with inputs gets each of them raised to the largest input so far (so inputs never
///    decrease); a stop with two inputs becomes two points with the same output;
/// 2. a first stop without input gets 0; a last stop without input gets `max(1, largest so far)`;
/// 3. runs of stops still without input are spaced evenly between their known neighbours.
///
/// The resolved points are ``inputs`` and ``outputs``; ``value(at:)`` interpolates between them.
public struct LinearEasing: Hashable, Sendable {
  /// One CSS `<linear-stop>`: an output value and zero, one or two input positions.
  ///
  /// Inputs are unitless fractions of the timeline (CSS percentages divided by 100: `25%` is
  /// 0.25); they may lie outside `[0, 1]`. Outputs are unitless progress values.
  public struct Stop: Hashable, Sendable {
    /// The output value (CSS `<number>`), unitless.
    public let output: Double
    /// The input positions given for this stop: none, one or two (fractions, not percentages).
    public let inputs: [Double]

    /// A stop without input: its position is filled in (CSS `linear(…, 0.5, …)`).
    public init(_ output: Double) {
      self.output = output
      self.inputs = []
    }

    /// A stop at one input (CSS `0.5 25%` is `Stop(0.5, at: 0.25)`).
    public init(_ output: Double, at input: Double) {
      self.output = output
      self.inputs = [input]
    }

    /// A stop holding its output from `start` to `end` (CSS `0.5 25% 75%` is
    /// `Stop(0.5, from: 0.25, to: 0.75)`): two points with the same output.
    public init(_ output: Double, from start: Double, to end: Double) {
      self.output = output
      self.inputs = [start, end]
    }
  }

  /// The resolved input of every point, non-decreasing (unitless fractions).
  public let inputs: [Double]
  /// The output of every point (unitless), in the same order as ``inputs``.
  public let outputs: [Double]

  /// Creates CSS `linear(stops…)`, resolving the inputs as described on the type.
  ///
  /// - Parameter stops: at least two stops (CSS rejects fewer); every output and input finite
  ///   and within `±1e100` (a bound that only keeps the arithmetic finite).
  /// - Throws: ``ValidationError`` with field `"stops"` and
  ///   ``ValidationError/Reason/tooFew(minimum:actual:)`` for fewer than two stops; field
  ///   `"stops.output"` or `"stops.input"` with the stop's index and
  ///   ``ValidationError/Reason/notFinite`` for NaN or infinity,
  ///   ``ValidationError/Reason/outOfRange(lower:upper:)`` beyond `±1e100`.
  public init(_ stops: [Stop]) throws(ValidationError) {
    guard stops.count >= 2 else {
      throw ValidationError(field: "stops", reason: .tooFew(minimum: 2, actual: stops.count))
    }
    for (i, stop) in stops.enumerated() {
      try Validate.inRange(stop.output, -1e100, 1e100, "stops.output", index: i)
      for input in stop.inputs {
        try Validate.inRange(input, -1e100, 1e100, "stops.input", index: i)
      }
    }

    var resolvedInputs: [Double?] = []
    var resolvedOutputs: [Double] = []
    var largest = -Double.infinity
    for (i, stop) in stops.enumerated() {
      if !stop.inputs.isEmpty {
        for input in stop.inputs {
          let value = max(input, largest)
          largest = value
          resolvedInputs.append(value)
          resolvedOutputs.append(stop.output)
        }
      } else if i == 0 {
        largest = 0
        resolvedInputs.append(0)
        resolvedOutputs.append(stop.output)
      } else if i == stops.count - 1 {
        resolvedInputs.append(max(1, largest))
        resolvedOutputs.append(stop.output)
      } else {
        resolvedInputs.append(nil)
        resolvedOutputs.append(stop.output)
      }
    }
    // Runs of missing inputs: evenly spaced between the known neighbours (the first and last
    // points are always known).
    var filled = [Double](repeating: 0, count: resolvedInputs.count)
    var lastKnown = 0
    filled[0] = resolvedInputs[0] ?? 0
    for j in 1..<resolvedInputs.count {
      guard let known = resolvedInputs[j] else { continue }
      filled[j] = known
      let gap = j - lastKnown
      if gap > 1 {
        let start = filled[lastKnown]
        for k in 1..<gap {
          filled[lastKnown + k] = start + (known - start) * Double(k) / Double(gap)
        }
      }
      lastKnown = j
    }
    self.inputs = filled
    self.outputs = resolvedOutputs
  }

  /// Creates `linear(o₀, o₁, …, oₙ₋₁)`: the outputs at evenly spaced inputs `i/(n − 1)`.
  ///
  /// - Throws: as ``init(_:)``: fewer than two outputs, or a non-finite output.
  public init(outputs: [Double]) throws(ValidationError) {
    try self.init(outputs.map { Stop($0) })
  }

  /// The output for input progress `x` (unitless), exactly as CSS Easing's "calculate linear
  /// easing output progress":
  ///
  /// 1. `a` = the index of the last point with input `≤ x`, or 0 if there is none; if `a` is the
  ///    last point, `a −= 1`;
  /// 2. with `A = points[a]` and `B = points[a + 1]`: if their inputs are equal, the output is
  ///    `B.output`;
  /// 3. else `A.output + (x − A.input)/(B.input − A.input) · (B.output − A.output)`.
  ///
  /// So an `x` equal to the input of several points takes the last of them, and inputs before
  /// the first point or after the last extrapolate along the first two or last two points.
  /// NaN in gives NaN out (per-frame function, no validation).
  public func value(at x: Double) -> Double {
    if x.isNaN { return x }
    let (a, b) = segment(at: x)
    let inputA = inputs[a]
    let inputB = inputs[b]
    if inputA == inputB { return outputs[b] }
    let fraction = (x - inputA) / (inputB - inputA)
    return outputs[a] + fraction * (outputs[b] - outputs[a])
  }

  /// The points `A`, `B = A + 1` that ``value(at:)`` interpolates between for `x` (steps 1–2).
  func segment(at x: Double) -> (Int, Int) {
    // Binary search: the first index whose input is > x.
    var low = 0
    var high = inputs.count
    while low < high {
      let mid = (low + high) / 2
      if inputs[mid] <= x { low = mid + 1 } else { high = mid }
    }
    var a = max(low - 1, 0)
    if a == inputs.count - 1 { a -= 1 }
    return (a, a + 1)
  }
}
