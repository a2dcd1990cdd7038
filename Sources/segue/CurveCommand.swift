import ArgumentParser
import Foundation
import Segue
import SegueRender
import SegueSpec

/// What `segue curve` plots.
enum CurveSubject {
  /// A timing function over input progress `[0, 1]`.
  case timing(TimingFunction, label: String)
  /// A spring's progress over time.
  case spring(DampedSpring, label: String)
}

/// `segue curve`.
struct CurveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "curve",
    abstract: "Plot a timing function or a spring as SVG (value against time, with key points).",
    discussion: """
      Give exactly one of --timing, --spring, --spring-response, --spring-uiview.

      The plot maps data linearly into a plot area with y up. Axes are black: the x axis at \
      value 0 from time 0 to the end of the plot, the y axis at time 0. The target value 1 is a \
      grey (#999999) line across the plot. The curve is the blue (#1f77b4) polyline, sampled at \
      --points evenly spaced times including both ends. Key points are red (#d62728): for a \
      Bézier its four control points (squares) with the two control arms; for a spring the \
      settling time (a vertical line, CASpringAnimation.settlingDuration) and, when it \
      overshoots, the peak (a square), each labelled.
      """ + "\n\n" + exitCodesHelp)

  @Option(
    help: ArgumentHelp(
      "A timing function: \(SpecFile.timingFunctionNames.joined(separator: ", ")), "
        + "cubic-bezier(x1,y1,x2,y2) or x1,y1,x2,y2.", valueName: "timing"))
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
      "Spring plots: the time axis length in seconds (default 1.2 × the settling duration).",
      valueName: "seconds"))
  var duration: Double?

  @Option(help: ArgumentHelp("Number of curve samples, 2…100000.", valueName: "count"))
  var points: Int = 201

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
  /// - Throws: ``CLIError`` ``ExitStatus/usage``: not exactly one subject, or `--duration` with
  ///   `--timing`.
  func checkOptions() throws(CLIError) {
    let given = [timing, spring, springResponse, springUIView].compactMap { $0 }.count
    guard given == 1 else {
      throw CLIError(
        .usage, given == 0 ? "--timing" : subjectArgument,
        "give exactly one of --timing, --spring, --spring-response, --spring-uiview (got \(given))"
      )
    }
    if duration != nil && timing != nil {
      throw CLIError(.usage, "--duration", "applies only to spring plots")
    }
  }

  func run() throws {
    try reportingErrors("curve") {
      try checkOptions()
      let svg = try plot(subject())
      let note: (String) -> Void = { text in if !quiet { printError("segue curve: " + text) } }
      try OutputTarget(output).stream(note: note) { writer throws(CLIError) in
        try writer.write(svg)
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
      return .timing(try parseTimingOption(timing, argument: "--timing"), label: timing)
    }
    do {
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
  }

  private func wrapping<T>(_ argument: String, _ body: () throws(Segue.ValidationError) -> T)
    throws(CLIError) -> T
  {
    do { return try body() } catch { throw CLIError.data(argument, error) }
  }

  /// The SVG text of the plot.
  func plot(_ subject: CurveSubject) throws -> String {
    guard (2...100_000).contains(points) else {
      throw CLIError(.dataError, "--points", "must be in 2…100000 (got \(points))")
    }
    try requirePositive(width, "--width")
    try requirePositive(height, "--height")
    guard width >= 200 && height >= 150 && width <= 100_000 && height <= 100_000 else {
      throw CLIError(
        .dataError, width >= 200 && width <= 100_000 ? "--height" : "--width",
        "the plot needs 200…100000 × 150…100000 points")
    }
    if let duration { try requirePositive(duration, "--duration") }

    // Data: the curve samples and the key points.
    var samples: [(Double, Double)] = []
    var keyPoints: [(Double, Double, String)] = []
    var arms: [[(Double, Double)]] = []
    var settling: Double?
    let xMax: Double
    let title: String
    switch subject {
    case .timing(let function, let label):
      xMax = 1
      title = "timing \(label)"
      for i in 0..<points {
        let x = i == points - 1 ? 1 : Double(i) / Double(points - 1)
        samples.append((x, function.transform(x)))
      }
      if case .cubicBezier(let b) = function {
        let p = [(0.0, 0.0), (b.x1, b.y1), (b.x2, b.y2), (1.0, 1.0)]
        keyPoints = [
          (p[0].0, p[0].1, "P0"), (p[1].0, p[1].1, "P1 (\(decimal(b.x1)), \(decimal(b.y1)))"),
          (p[2].0, p[2].1, "P2 (\(decimal(b.x2)), \(decimal(b.y2)))"), (p[3].0, p[3].1, "P3"),
        ]
        arms = [[p[0], p[1]], [p[3], p[2]]]
      }
    case .spring(let spring, let label):
      let settle = spring.settlingDuration
      guard let end = duration ?? (settle.isFinite ? 1.2 * settle : nil) else {
        throw CLIError(
          .dataError, "--spring", "an undamped spring never settles; give --duration")
      }
      xMax = end
      title = label
      if settle.isFinite && settle <= end { settling = settle }
      for i in 0..<points {
        let t = i == points - 1 ? end : end * Double(i) / Double(points - 1)
        samples.append((t, spring.value(at: t)))
      }
      if let peak = Self.overshootPeak(spring, samples: samples) {
        keyPoints.append(
          (peak.0, peak.1, "peak \(fixed(peak.1, 4)) at \(fixed(peak.0, 3)) s"))
      }
    }
    for (i, s) in samples.enumerated() where !s.1.isFinite {
      throw CLIError(.dataError, subjectArgument, "the curve is not finite at sample \(i)")
    }

    // Ranges and the mapping into the plot area (y up).
    var yMin = 0.0
    var yMax = 1.0
    for (_, y) in samples {
      yMin = min(yMin, y)
      yMax = max(yMax, y)
    }
    for (_, y, _) in keyPoints {
      yMin = min(yMin, y)
      yMax = max(yMax, y)
    }
    let pad = 0.05 * (yMax - yMin)
    yMin -= pad
    yMax += pad
    let left = 60.0
    let right = width - 20
    let top = 40.0
    let bottom = height - 40
    func sx(_ x: Double) -> Double { left + x / xMax * (right - left) }
    func sy(_ y: Double) -> Double { bottom - (y - yMin) / (yMax - yMin) * (bottom - top) }
    func point(_ p: (Double, Double)) -> Point { Point(x: sx(p.0), y: sy(p.1)) }

    let black = RGBAColor.black
    let grey = Self.rgb(0x99, 0x99, 0x99)
    let blue = Self.rgb(0x1f, 0x77, 0xb4)
    let red = Self.rgb(0xd6, 0x27, 0x28)
    var svg = try SVGDocument(width: width, height: height)
    try svg.rect(Rect(x: 0, y: 0, width: width, height: height), fill: .white)
    try svg.text(title, at: Point(x: left, y: 24), fontSize: 14)
    // Axes, the target line, labels.
    try svg.polyline([point((0, 0)), point((xMax, 0))], stroke: black)
    try svg.polyline([point((0, yMin)), point((0, yMax))], stroke: black)
    try svg.polyline([point((0, 1)), point((xMax, 1))], stroke: grey)
    try svg.text("0", at: Point(x: left - 16, y: sy(0) + 4), fontSize: 11)
    try svg.text("1", at: Point(x: left - 16, y: sy(1) + 4), fontSize: 11)
    try svg.text(
      xMax == 1 ? "1" : fixed(xMax, 3), at: Point(x: right - 10, y: bottom + 16), fontSize: 11)
    let xLabel: String
    if case .timing = subject { xLabel = "input progress" } else { xLabel = "time (s)" }
    try svg.text(xLabel, at: Point(x: (left + right) / 2 - 30, y: bottom + 28), fontSize: 11)
    // The curve.
    try svg.polyline(samples.map(point), stroke: blue, lineWidth: 2)
    // Key points.
    for arm in arms { try svg.polyline(arm.map(point), stroke: red) }
    if let settling {
      try svg.polyline([point((settling, yMin)), point((settling, yMax))], stroke: red)
      try svg.text(
        "settling \(fixed(settling, 3)) s", at: Point(x: sx(settling) + 4, y: top + 12),
        fontSize: 11, fill: red)
    }
    for (x, y, label) in keyPoints {
      let p = point((x, y))
      try svg.rect(Rect(x: p.x - 3, y: p.y - 3, width: 6, height: 6), fill: red)
      try svg.text(label, at: Point(x: p.x + 6, y: p.y - 6), fontSize: 11, fill: red)
    }
    return svg.text
  }

  /// The highest point of an overshooting spring: the sample maximum above 1, refined by
  /// bisection on the sign change of the velocity around it. `nil` when it never exceeds 1.
  static func overshootPeak(_ spring: DampedSpring, samples: [(Double, Double)]) -> (
    Double, Double
  )? {
    guard let best = samples.indices.max(by: { samples[$0].1 < samples[$1].1 }),
      samples[best].1 > 1
    else { return nil }
    var lo = samples[max(best - 1, 0)].0
    var hi = samples[min(best + 1, samples.count - 1)].0
    if spring.velocity(at: lo) > 0 && spring.velocity(at: hi) < 0 {
      for _ in 0..<100 {
        let mid = (lo + hi) / 2
        if mid <= lo || mid >= hi { break }
        if spring.velocity(at: mid) > 0 { lo = mid } else { hi = mid }
      }
      let t = (lo + hi) / 2
      return (t, spring.value(at: t))
    }
    return samples[best]
  }

  private static func rgb(_ r: Int, _ g: Int, _ b: Int) -> RGBAColor {
    (try? RGBAColor(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255)) ?? .black
  }
}
