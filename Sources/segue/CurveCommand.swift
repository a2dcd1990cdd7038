import ArgumentParser
import Foundation
import Segue
import SegueRender
import SegueSpec

/// What `segue curve` plots or prints.
enum CurveSubject {
  /// A timing function over input progress.
  case timing(TimingFunction, label: String)
  /// A spring's progress over time.
  case spring(DampedSpring, label: String)
}

/// `segue curve`'s output formats.
enum CurveFormat: String, ExpressibleByArgument, CaseIterable {
  case svg, csv, json
}

/// `segue curve`.
struct CurveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "curve",
    abstract:
      "Plot a timing function or a spring as SVG, or print its values as CSV or JSON.",
    discussion: """
      Give exactly one of --timing, --spring, --spring-response, --spring-uiview. --timing \
      takes every timing function a spec accepts: \(TimingFunctionText.forms).

      --format csv and --format json print the values: a timing function's progress at \
      --samples evenly spaced inputs from 0 to 1 (both ends included) or at the --inputs given \
      (any finite numbers), with CSS's before flag when --before is given (a steps function \
      then takes the lower value at a jump, as in an animation's before phase); a spring's \
      progress and velocity at --samples evenly spaced times from 0 to --duration or at the \
      --inputs times (seconds, ≥ 0). CSV has the header input,progress (timing) or \
      time,progress,velocity (spring); JSON is {"curve", "kind": "timing" or "spring", \
      "beforeFlag" (timing) or "settlingDuration" (spring), "samples": [{"input", "progress"} \
      or {"time", "progress", "velocity"}, …]}. Numbers are shortest round-trip decimals.

      --format svg (the default) plots the curve. The plot maps data linearly into a plot area \
      with y up. Axes are black: the x axis at value 0 from time 0 to the end of the plot, the \
      y axis at time 0. The target value 1 is a grey (#999999) line across the plot. The curve \
      is the blue (#1f77b4) polyline through the --samples values. Key points are red \
      (#d62728): for a Bézier its four control points (squares) with the two control arms; for \
      linear() its points (squares); for a spring the settling time (a vertical line, \
      CASpringAnimation.settlingDuration) and, when it overshoots, the peak (a square), each \
      labelled.
      """ + "\n\n" + exitCodesHelp)

  @Option(
    help: ArgumentHelp(
      "A timing function: a name, cubic-bezier(x1,y1,x2,y2), x1,y1,x2,y2, steps(n[, position]), "
        + "step-start, step-end, linear(stops), or a spec's JSON form.", valueName: "timing"))
  var timing: String?

  @Option(
    help: ArgumentHelp(
      "A CASpringAnimation: mass,stiffness,damping[,initialVelocity], or 'system' (UIKit's "
        + "curve 7: 3,1000,500).", valueName: "m,k,c[,v]"))
  var spring: String?

  @Option(
    name: .customLong("spring-response"),
    help: ArgumentHelp(
      "SwiftUI's spring(response:dampingFraction:): response,dampingRatio[,initialVelocity].",
      valueName: "T,ζ[,v]"))
  var springResponse: String?

  @Option(
    name: .customLong("spring-uiview"),
    help: ArgumentHelp(
      "UIView's usingSpringWithDamping: duration,dampingRatio[,initialVelocity].",
      valueName: "D,ζ[,v]"))
  var springUIView: String?

  @Option(
    help: ArgumentHelp(
      "Spring: the time axis length in seconds (default 1.2 × the settling duration).",
      valueName: "seconds"))
  var duration: Double?

  @Option(help: ArgumentHelp("Output format: svg, csv or json.", valueName: "format"))
  var format: CurveFormat = .svg

  @Option(
    help: ArgumentHelp(
      "Number of evenly spaced samples, both ends included, 2…100000 (default 201).",
      valueName: "count"))
  var samples: Int?

  @Option(
    help: ArgumentHelp(
      "CSV and JSON: the inputs to evaluate instead of --samples (comma-separated; for a spring, "
        + "times in seconds).", valueName: "x,…"))
  var inputs: String?

  @Flag(help: "Timing functions: evaluate with CSS's before flag (an animation's before phase).")
  var before = false

  @Option(help: ArgumentHelp("SVG width in points.", valueName: "points"))
  var width: Double = 640

  @Option(help: ArgumentHelp("SVG height in points.", valueName: "points"))
  var height: Double = 400

  @Option(
    help: ArgumentHelp(
      "Write to this file instead of stdout (- for stdout).", valueName: "file"))
  var output: String?

  @Flag(name: .shortAndLong, help: "Print no informational messages on stderr.")
  var quiet = false

  /// The checks of the option combination.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/usage``: not exactly one subject, `--duration` or
  ///   `--inputs` with what they do not apply to, `--before` with a spring.
  func checkOptions() throws(CLIError) {
    let given = [timing, spring, springResponse, springUIView].compactMap { $0 }.count
    guard given == 1 else {
      throw CLIError(
        .usage, given == 0 ? "--timing" : subjectArgument,
        "give exactly one of --timing, --spring, --spring-response, --spring-uiview (got \(given))"
      )
    }
    if duration != nil && timing != nil {
      throw CLIError(.usage, "--duration", "applies only to springs")
    }
    if before && timing == nil {
      throw CLIError(.usage, "--before", "applies only to timing functions (--timing)")
    }
    if inputs != nil && format == .svg {
      throw CLIError(
        .usage, "--inputs", "applies to --format csv and json (the plot samples evenly)")
    }
    if inputs != nil && duration != nil {
      throw CLIError(.usage, "--duration", "the --inputs times replace the time axis")
    }
    if inputs != nil && samples != nil {
      throw CLIError(.usage, "--samples", "give --samples or --inputs, not both")
    }
  }

  func run() throws {
    try reportingErrors("curve") {
      try checkOptions()
      let subject = try subject()
      let text: String
      switch format {
      case .svg: text = try plot(subject)
      case .csv, .json: text = try valuesText(subject)
      }
      let note: (String) -> Void = { text in if !quiet { printError("segue curve: " + text) } }
      try OutputTarget(output).stream(note: note) { writer throws(CLIError) in
        try writer.write(text)
      }
    }
  }

  /// The option that chose the subject.
  var subjectArgument: String {
    if timing != nil { return "--timing" }
    if spring != nil { return "--spring" }
    return springResponse != nil ? "--spring-response" : "--spring-uiview"
  }

  /// The subject from the options.
  func subject() throws(CLIError) -> CurveSubject {
    if let timing {
      return .timing(try TimingFunctionText.parse(timing, argument: "--timing"), label: timing)
    }
    if let spring {
      if spring == "system" { return .spring(.systemCurve7, label: "system spring (curve 7)") }
      let v = try parseNumberList(spring, argument: "--spring", count: 3...4)
      let s = try wrapping("--spring") { () throws(Segue.ValidationError) in
        try DampedSpring(
          mass: v[0], stiffness: v[1], damping: v[2], initialVelocity: v.count > 3 ? v[3] : 0)
      }
      return .spring(s, label: "spring \(spring)")
    }
    if let springResponse {
      let v = try parseNumberList(springResponse, argument: "--spring-response", count: 2...3)
      let s = try wrapping("--spring-response") { () throws(Segue.ValidationError) in
        try DampedSpring.response(
          v[0], dampingRatio: v[1], initialVelocity: v.count > 2 ? v[2] : 0)
      }
      return .spring(s, label: "response \(springResponse)")
    }
    let text = springUIView ?? ""
    let v = try parseNumberList(text, argument: "--spring-uiview", count: 2...3)
    let s = try wrapping("--spring-uiview") { () throws(Segue.ValidationError) in
      try DampedSpring.uiViewSpring(
        duration: v[0], dampingRatio: v[1], initialVelocity: v.count > 2 ? v[2] : 0)
    }
    return .spring(s, label: "UIView spring \(text)")
  }

  private func wrapping<T>(_ argument: String, _ body: () throws(Segue.ValidationError) -> T)
    throws(CLIError) -> T
  {
    do { return try body() } catch { throw CLIError.data(argument, error) }
  }

  // MARK: Values

  /// The inputs: `--inputs`, else `--samples` evenly spaced points of `[0, end]` (both ends).
  ///
  /// - Throws: ``CLIError`` naming `--samples` (outside 2…100000) or `--inputs` (not finite; a
  ///   negative spring time; more than 100000).
  func sampleInputs(end: Double) throws(CLIError) -> [Double] {
    if let inputs {
      let values = try parseNumberList(inputs, argument: "--inputs")
      guard values.count <= 100_000 else {
        throw CLIError(.dataError, "--inputs", "\(values.count) inputs: at most 100000")
      }
      for (i, x) in values.enumerated() {
        if timing == nil {
          try requireNonNegative(x, "--inputs", index: i)
        } else if !x.isFinite {
          throw CLIError(.dataError, "--inputs", "item \(i) \(x) is not finite")
        }
      }
      return values
    }
    let count = samples ?? 201
    guard (2...100_000).contains(count) else {
      throw CLIError(.dataError, "--samples", "must be in 2…100000 (got \(count))")
    }
    return (0..<count).map { i in
      i == count - 1 ? end : end * Double(i) / Double(count - 1)
    }
  }

  /// The end of a spring's time axis: `--duration`, else 1.2 × its settling duration.
  func springEnd(_ spring: DampedSpring) throws(CLIError) -> Double {
    if let duration {
      try requirePositive(duration, "--duration")
      return duration
    }
    let settle = spring.settlingDuration
    guard settle.isFinite else {
      throw CLIError(
        .dataError, subjectArgument, "an undamped spring never settles; give --duration")
    }
    return 1.2 * settle
  }

  /// The curve's `(input, progress)` pairs at `xs`; a spring's velocities too.
  ///
  /// - Throws: ``CLIError`` naming the subject when a value is not finite.
  func values(_ subject: CurveSubject, at xs: [Double]) throws(CLIError) -> (
    points: [(Double, Double)], velocities: [Double]
  ) {
    var points: [(Double, Double)] = []
    var velocities: [Double] = []
    points.reserveCapacity(xs.count)
    switch subject {
    case .timing(let function, _):
      for x in xs { points.append((x, function.transform(x, beforeFlag: before))) }
    case .spring(let spring, _):
      for t in xs {
        points.append((t, spring.value(at: t)))
        velocities.append(spring.velocity(at: t))
      }
    }
    for (i, p) in points.enumerated() where !p.1.isFinite {
      throw CLIError(.dataError, subjectArgument, "the curve is not finite at sample \(i)")
    }
    for (i, v) in velocities.enumerated() where !v.isFinite {
      throw CLIError(.dataError, subjectArgument, "the velocity is not finite at sample \(i)")
    }
    return (points, velocities)
  }

  /// The CSV or JSON text of the values (see the command's discussion).
  func valuesText(_ subject: CurveSubject) throws(CLIError) -> String {
    let xs: [Double]
    let label: String
    var header: [(String, JSONValue)]
    switch subject {
    case .timing(_, let name):
      xs = try sampleInputs(end: 1)
      label = name
      header = [("kind", .string("timing")), ("beforeFlag", .bool(before))]
    case .spring(let spring, let name):
      xs = try sampleInputs(end: inputs == nil ? try springEnd(spring) : 0)
      label = name
      let settle = spring.settlingDuration
      header = [
        ("kind", .string("spring")),
        ("settlingDuration", settle.isFinite ? .number(settle) : .null),
      ]
    }
    let (points, velocities) = try values(subject, at: xs)
    let isSpring = timing == nil
    if format == .csv {
      var text = isSpring ? "time,progress,velocity\n" : "input,progress\n"
      for (i, p) in points.enumerated() {
        text += decimal(p.0) + "," + decimal(p.1)
        if isSpring { text += "," + decimal(velocities[i]) }
        text += "\n"
      }
      return text
    }
    let rows: [JSONValue] = points.enumerated().map { i, p in
      isSpring
        ? .object([
          ("time", .number(p.0)), ("progress", .number(p.1)),
          ("velocity", .number(velocities[i])),
        ])
        : .object([("input", .number(p.0)), ("progress", .number(p.1))])
    }
    header.insert(("curve", .string(label)), at: 0)
    return JSONValue.object(header + [("samples", .array(rows))]).serialized() + "\n"
  }
}
