import Segue
import SegueRender

/// What `segue curve` draws besides the curve: the key points (labelled squares), the control
/// arms of a Bézier, a spring's settling time.
struct CurveFigure {
  var samples: [(Double, Double)]
  var keyPoints: [(Double, Double, String)] = []
  var arms: [[(Double, Double)]] = []
  var settling: Double?
  var xMax: Double
  var title: String
}

extension CurveCommand {
  /// The SVG text of the plot (see the command's discussion).
  func plot(_ subject: CurveSubject) throws -> String {
    try requirePositive(width, "--width")
    try requirePositive(height, "--height")
    guard width >= 200 && height >= 150 && width <= 100_000 && height <= 100_000 else {
      throw CLIError(
        .dataError, width >= 200 && width <= 100_000 ? "--height" : "--width",
        "the plot needs 200…100000 × 150…100000 points")
    }
    return try draw(try figure(subject), isTiming: timing != nil)
  }

  /// The samples and key points of `subject`.
  func figure(_ subject: CurveSubject) throws(CLIError) -> CurveFigure {
    switch subject {
    case .timing(let function, let label):
      var figure = CurveFigure(
        samples: try values(subject, at: sampleInputs(end: 1)).points, xMax: 1,
        title: "timing \(label)")
      switch function {
      case .cubicBezier(let b):
        let p = [(0.0, 0.0), (b.x1, b.y1), (b.x2, b.y2), (1.0, 1.0)]
        figure.keyPoints = [
          (p[0].0, p[0].1, "P0"), (p[1].0, p[1].1, "P1 (\(decimal(b.x1)), \(decimal(b.y1)))"),
          (p[2].0, p[2].1, "P2 (\(decimal(b.x2)), \(decimal(b.y2)))"), (p[3].0, p[3].1, "P3"),
        ]
        figure.arms = [[p[0], p[1]], [p[3], p[2]]]
      case .linearPoints(let l):
        figure.keyPoints = zip(l.inputs, l.outputs).filter { (0...1).contains($0.0) }.map {
          ($0.0, $0.1, "")
        }
      case .steps: break
      }
      return figure
    case .spring(let spring, let label):
      let end = try springEnd(spring)
      let settle = spring.settlingDuration
      var figure = CurveFigure(
        samples: try values(subject, at: sampleInputs(end: end)).points, xMax: end, title: label)
      if settle.isFinite && settle <= end { figure.settling = settle }
      if let peak = Self.overshootPeak(spring, samples: figure.samples) {
        figure.keyPoints.append(
          (peak.0, peak.1, "peak \(fixed(peak.1, 4)) at \(fixed(peak.0, 3)) s"))
      }
      return figure
    }
  }

  /// The SVG of `figure` (see the command's discussion).
  func draw(_ figure: CurveFigure, isTiming: Bool) throws -> String {
    // Ranges and the mapping into the plot area (y up).
    var yMin = 0.0
    var yMax = 1.0
    for y in figure.samples.map(\.1) + figure.keyPoints.map(\.1) {
      yMin = min(yMin, y)
      yMax = max(yMax, y)
    }
    let pad = 0.05 * (yMax - yMin)
    yMin -= pad
    yMax += pad
    let (left, right, top, bottom) = (60.0, width - 20, 40.0, height - 40)
    let xMax = figure.xMax
    func sx(_ x: Double) -> Double { left + x / xMax * (right - left) }
    func sy(_ y: Double) -> Double { bottom - (y - yMin) / (yMax - yMin) * (bottom - top) }
    func point(_ p: (Double, Double)) -> Point { Point(x: sx(p.0), y: sy(p.1)) }

    let (black, grey) = (RGBAColor.black, Self.rgb(0x99, 0x99, 0x99))
    let (blue, red) = (Self.rgb(0x1f, 0x77, 0xb4), Self.rgb(0xd6, 0x27, 0x28))
    var svg = try SVGDocument(width: width, height: height)
    try svg.rect(Rect(x: 0, y: 0, width: width, height: height), fill: .white)
    try svg.text(figure.title, at: Point(x: left, y: 24), fontSize: 14)
    // Axes, the target line, labels.
    try svg.polyline([point((0, 0)), point((xMax, 0))], stroke: black)
    try svg.polyline([point((0, yMin)), point((0, yMax))], stroke: black)
    try svg.polyline([point((0, 1)), point((xMax, 1))], stroke: grey)
    try svg.text("0", at: Point(x: left - 16, y: sy(0) + 4), fontSize: 11)
    try svg.text("1", at: Point(x: left - 16, y: sy(1) + 4), fontSize: 11)
    try svg.text(
      xMax == 1 ? "1" : fixed(xMax, 3), at: Point(x: right - 10, y: bottom + 16), fontSize: 11)
    try svg.text(
      isTiming ? "input progress" : "time (s)",
      at: Point(x: (left + right) / 2 - 30, y: bottom + 28), fontSize: 11)
    try svg.polyline(figure.samples.map(point), stroke: blue, lineWidth: 2)
    for arm in figure.arms { try svg.polyline(arm.map(point), stroke: red) }
    if let settling = figure.settling {
      try svg.polyline([point((settling, yMin)), point((settling, yMax))], stroke: red)
      try svg.text(
        "settling \(fixed(settling, 3)) s", at: Point(x: sx(settling) + 4, y: top + 12),
        fontSize: 11, fill: red)
    }
    for (x, y, label) in figure.keyPoints {
      let p = point((x, y))
      try svg.rect(Rect(x: p.x - 3, y: p.y - 3, width: 6, height: 6), fill: red)
      if !label.isEmpty {
        try svg.text(label, at: Point(x: p.x + 6, y: p.y - 6), fontSize: 11, fill: red)
      }
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
