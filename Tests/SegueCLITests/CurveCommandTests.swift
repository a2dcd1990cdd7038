import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The elements of an SVG file that the curve tests look at, collected by `XMLParser` (which also
/// checks that the file is well-formed XML).
final class SVGElements: NSObject, XMLParserDelegate {
  struct Polyline {
    var points: [(x: Double, y: Double)]
    var stroke: String
  }

  var root: String?
  var polylines: [Polyline] = []
  /// `<rect>` fills with their centres.
  var rects: [(fill: String, x: Double, y: Double)] = []
  var texts: [String] = []
  private var inText = false

  static func parse(_ data: Data) throws -> SVGElements {
    let elements = SVGElements()
    let parser = XMLParser(data: data)
    parser.delegate = elements
    #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
    return elements
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    if root == nil { root = name }
    switch name {
    case "polyline":
      let points = (attributes["points"] ?? "").split(separator: " ").map { pair in
        let xy = pair.split(separator: ",").map { Double($0) ?? .nan }
        return (x: xy.first ?? .nan, y: xy.count > 1 ? xy[1] : .nan)
      }
      polylines.append(Polyline(points: points, stroke: attributes["stroke"] ?? ""))
    case "rect":
      let v = ["x", "y", "width", "height"].map { Double(attributes[$0] ?? "") ?? .nan }
      rects.append((fill: attributes["fill"] ?? "", x: v[0] + v[2] / 2, y: v[1] + v[3] / 2))
    case "text":
      inText = true
      texts.append("")
    default: break
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if inText { texts[texts.count - 1] += string }
  }

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
  ) {
    if name == "text" { inText = false }
  }

  /// The single polyline stroked `colour`.
  func only(_ colour: String) throws -> Polyline {
    let matches = polylines.filter { $0.stroke == colour }
    try #require(matches.count == 1, "expected one polyline stroked \(colour)")
    return matches[0]
  }
}

/// `segue curve`: a well-formed SVG whose blue polyline is the curve, placed on the black x axis
/// (value 0) and the grey target line (value 1) as the command's help documents.
@Suite struct CurveCommandTests {
  static let blue = "#1f77b4"
  static let red = "#d62728"
  static let grey = "#999999"
  static let black = "#000000"

  /// Checks the curve runs from (0, 0) to (1, 1) in data space: its first point is the x axis's
  /// left end, its last point is above the x axis's right end, on the target line.
  static func expectUnitCurve(_ svg: SVGElements) throws {
    let curve = try svg.only(Self.blue)
    let target = try svg.only(Self.grey)
    let axes = svg.polylines.filter { $0.stroke == Self.black }
    let xAxis = try #require(
      axes.first { $0.points.count == 2 && $0.points[0].y == $0.points[1].y })
    let first = try #require(curve.points.first)
    let last = try #require(curve.points.last)
    #expect(abs(first.x - xAxis.points[0].x) < 1e-9)
    #expect(abs(first.y - xAxis.points[0].y) < 1e-9)
    #expect(abs(last.x - xAxis.points[1].x) < 1e-9)
    #expect(abs(last.y - target.points[0].y) < 1e-9)
    // y is up: the target line lies above the axis.
    #expect(target.points[0].y < xAxis.points[0].y)
  }

  @Test(arguments: ["easeIn", "easeInEaseOut", "cubic-bezier(0.3,-0.4,0.6,1.5)", "0.25,0.1,0.25,1"])
  func bezierCurveRunsFromOriginToOne(timing: String) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/curve.svg"
    let result = try SegueProcess.run(["curve", "--timing", timing, "--output", path])
    #expect(result.status == 0, "\(result.stderr)")
    let svg = try SVGElements.parse(Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(svg.root == "svg")
    try Self.expectUnitCurve(svg)
    #expect(try svg.only(Self.blue).points.count == 201)
    // The four control points are red squares; P0 and P3 sit on the curve's ends.
    let squares = svg.rects.filter { $0.fill == Self.red }
    #expect(squares.count == 4)
    let curve = try svg.only(Self.blue)
    if squares.count == 4 {
      #expect(abs(squares[0].x - curve.points[0].x) < 1e-9)
      #expect(abs(squares[0].y - curve.points[0].y) < 1e-9)
      #expect(abs(squares[3].x - curve.points[200].x) < 1e-9)
      #expect(abs(squares[3].y - curve.points[200].y) < 1e-9)
    }
    #expect(svg.polylines.filter { $0.stroke == Self.red }.count == 2)
  }

  @Test func springShowsSettlingTimeAndPeak() throws {
    // Apple documents settlingDuration ≈ 2.853 s for mass 1, stiffness 100, damping 5. The peak
    // of that underdamped spring (ζ = 0.25, ω0 = 10, v0 = 0) is at t = π/ωd,
    // ωd = 10·√(1 − 0.0625), where x = 1 + exp(−ζ·ω0·t): mpmath (30 digits) gives
    // t = 0.324462294077888951756236861624 and x = 1.44434422508848875365416114442.
    let result = try SegueProcess.run(["curve", "--spring", "1,100,5"])
    #expect(result.status == 0, "\(result.stderr)")
    let svg = try SVGElements.parse(result.stdout)
    #expect(svg.texts.contains("settling 2.853 s"))
    #expect(svg.texts.contains("peak 1.4443 at 0.324 s"))
    let curve = try svg.only(Self.blue)
    let xAxis = try #require(
      svg.polylines.first { $0.stroke == Self.black && $0.points[0].y == $0.points[1].y })
    #expect(abs(curve.points[0].x - xAxis.points[0].x) < 1e-9)
    #expect(abs(curve.points[0].y - xAxis.points[0].y) < 1e-9)
    // The settling line is red and vertical.
    let markers = svg.polylines.filter { $0.stroke == Self.red }
    #expect(markers.count == 1 && markers[0].points[0].x == markers[0].points[1].x)
  }

  @Test func systemSpringSettlesWithoutOvershoot() throws {
    // UIKit's curve 7 is critically damped (transition catalog: Spring damping and settling):
    // 0.578 s, no peak above 1.
    let result = try SegueProcess.run(["curve", "--spring", "system"])
    #expect(result.status == 0, "\(result.stderr)")
    let svg = try SVGElements.parse(result.stdout)
    #expect(svg.texts.contains("settling 0.578 s"))
    #expect(!svg.texts.contains { $0.hasPrefix("peak") })
  }

  @Test(arguments: [
    // UIView spring, D = 0.5 s, ζ = 0.75 (transition catalog: Duration-based springs): ω0 = ln(1/(0.001·√(1 − ζ²)))/(ζ·D), the
    // peak at π/ωd with x = 1 + exp(−ζ·ω0·t). mpmath (30 digits): ω0 = 19.52291884153165604889,
    // t = 0.243285427012627697798, x = 1.02837544174570505274.
    (["--spring-uiview", "0.5,0.75"], "peak 1.0284 at 0.243 s"),
    // SwiftUI response T = 0.4 s, ζ = 0.5: ω0 = 2π/T; mpmath: t = 0.230940107675850305804,
    // x = 1.16303353482158046486.
    (["--spring-response", "0.4,0.5"], "peak 1.1630 at 0.231 s"),
  ])
  func springParameterisationsPeak(arguments: [String], label: String) throws {
    let result = try SegueProcess.run(["curve"] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    let svg = try SVGElements.parse(result.stdout)
    #expect(svg.texts.contains(label), "\(svg.texts)")
    #expect(svg.texts.contains { $0.hasPrefix("settling ") })
  }

  // MARK: Values

  /// The CSV rows after the header, as numbers.
  static func csvRows(_ result: SegueProcess.Result, header: String) throws -> [[Double]] {
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.text.split(separator: "\n").map(String.init)
    try #require(lines.first == header, "\(lines.first ?? "")")
    return lines.dropFirst().map { $0.split(separator: ",").map { Double($0) ?? .nan } }
  }

  /// CSS steps(4, jump-start) (CSS Easing 2): the output is ⌊4x⌋ + 1 quarters, capped at 1;
  /// with the before flag, an input exactly at a jump takes one step less, so 0 gives 0 (and 1,
  /// 5 − 1 = 4 steps, is still capped at 1).
  @Test func stepsWithAndWithoutTheBeforeFlag() throws {
    let inputs = ["--inputs", "0,0.1,0.25,0.5,0.99,1"]
    let after = try Self.csvRows(
      SegueProcess.run(
        ["curve", "--timing", "steps(4, jump-start)", "--format", "csv"] + inputs),
      header: "input,progress")
    #expect(after.map { $0[1] } == [0.25, 0.25, 0.5, 0.75, 1, 1])
    let before = try Self.csvRows(
      SegueProcess.run(
        ["curve", "--timing", "steps(4, jump-start)", "--format", "csv", "--before"] + inputs),
      header: "input,progress")
    #expect(before.map { $0[1] } == [0, 0.25, 0.25, 0.5, 1, 1])
    #expect(before.map { $0[0] } == [0, 0.1, 0.25, 0.5, 0.99, 1])
    // The spec's JSON form and step-end are the same functions as their CSS spellings.
    let json = try Self.csvRows(
      SegueProcess.run(
        ["curve", "--timing", #"{"steps": 4, "position": "jumpStart"}"#, "--format", "csv"]
          + inputs),
      header: "input,progress")
    #expect(json == after)
    let stepEnd = try Self.csvRows(
      SegueProcess.run(["curve", "--timing", "step-end", "--format", "csv", "--samples", "3"]),
      header: "input,progress")
    #expect(stepEnd == [[0, 0], [0.5, 0], [1, 1]])
  }

  /// CSS linear(0, 0.25 75%, 1): points (0, 0), (0.75, 0.25), (1, 1), linear between them; by
  /// hand, 0.5 → 0.25·0.5/0.75 = 1/6 and 0.9 → 0.25 + 0.75·0.15/0.25 = 0.7.
  @Test func linearStopsAsJSON() throws {
    let result = try SegueProcess.run([
      "curve", "--timing", "linear(0, 0.25 75%, 1)", "--format", "json", "--inputs",
      "0,0.5,0.75,0.9,1",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
    #expect(json?["kind"] as? String == "timing")
    #expect(json?["beforeFlag"] as? Bool == false)
    #expect(json?["curve"] as? String == "linear(0, 0.25 75%, 1)")
    let samples = try #require(json?["samples"] as? [[String: Double]])
    #expect(samples.map { $0["input"]! } == [0, 0.5, 0.75, 0.9, 1])
    let expected = [0, 1.0 / 6, 0.25, 0.7, 1]
    for (sample, value) in zip(samples, expected) {
      #expect(abs(sample["progress"]! - value) < 1e-15, "\(sample)")
    }
  }

  /// An underdamped spring against its closed form: m = 1, k = 100, c = 5 gives ω0 = 10,
  /// ζ = 0.25, ωd = ω0·√(1 − ζ²); from rest, x(t) = 1 − e^(−ζω0t)·(cos ωd t + ζω0/ωd·sin ωd t)
  /// and x′(t) = e^(−ζω0t)·ω0²/ωd·sin ωd t.
  @Test func springValuesFollowTheClosedForm() throws {
    let rows = try Self.csvRows(
      SegueProcess.run(["curve", "--spring", "1,100,5", "--format", "csv", "--inputs", "0,0.3,1"]),
      header: "time,progress,velocity")
    let (zeta, w0) = (0.25, 10.0)
    let wd = w0 * (1 - zeta * zeta).squareRoot()
    for row in rows {
      let t = row[0]
      let e = Foundation.exp(-zeta * w0 * t)
      let x = 1 - e * (Foundation.cos(wd * t) + zeta * w0 / wd * Foundation.sin(wd * t))
      let v = e * w0 * w0 / wd * Foundation.sin(wd * t)
      #expect(abs(row[1] - x) < 1e-12 && abs(row[2] - v) < 1e-11, "\(row)")
    }
    #expect(rows.map { $0[0] } == [0, 0.3, 1])
    // --samples spreads the times over 1.2 × the settling duration (JSON reports it).
    let result = try SegueProcess.run(["curve", "--spring", "1,100,5", "--format", "json"])
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
    let settle = try #require(json?["settlingDuration"] as? Double)
    let samples = try #require(json?["samples"] as? [[String: Double]])
    let last = try #require(samples.last?["time"])
    #expect(samples.count == 201 && abs(last - 1.2 * settle) < 1e-12 * settle)
  }

  /// The plot takes the same functions: a steps plot has --samples points and no key point, a
  /// linear() plot marks its points in [0, 1].
  @Test func stepsAndLinearPlots() throws {
    let steps = try SegueProcess.run(["curve", "--timing", "steps(3, jump-both)", "--samples", "9"])
    #expect(steps.status == 0, "\(steps.stderr)")
    let stepsSVG = try SVGElements.parse(steps.stdout)
    #expect(try stepsSVG.only(Self.blue).points.count == 9)
    #expect(stepsSVG.rects.filter { $0.fill == Self.red }.isEmpty)
    let linear = try SegueProcess.run(["curve", "--timing", "linear(0, 0.25 75%, 1)"])
    #expect(linear.status == 0, "\(linear.stderr)")
    let linearSVG = try SVGElements.parse(linear.stdout)
    try Self.expectUnitCurve(linearSVG)
    #expect(linearSVG.rects.filter { $0.fill == Self.red }.count == 3)
  }
}
