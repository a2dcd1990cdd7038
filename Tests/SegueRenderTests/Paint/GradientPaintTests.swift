import PropertyBased
import RealModule
import Segue
import SegueRender
import Testing

private let red = try! RGBAColor(red: 1, green: 0, blue: 0)
private let blue = try! RGBAColor(red: 0, green: 0, blue: 1)
private let white = RGBAColor.white
private let bounds = Rect(x: 0, y: 0, width: 200, height: 100)

private func close(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ tolerance: Double = 1e-12) -> Bool {
  ((a - b) * (a - b)).sum().squareRoot() <= tolerance
}

@Suite("GradientPaint: CAGradientLayer's colour at a point")
struct GradientPaintTests {
  @Test("axial: the default runs from the top (t = 0) to the bottom (t = 1)")
  func axialDefault() {
    let g = GradientPaint(colors: [red, blue], bounds: bounds)
    #expect(g.parameter(at: Point(x: 37, y: 0)) == 0)
    #expect(g.parameter(at: Point(x: 150, y: 25)) == 0.25)
    #expect(g.parameter(at: Point(x: 0, y: 100)) == 1)
    #expect(close(g.premultipliedColor(at: Point(x: 5, y: 25)), SIMD4(0.75, 0, 0.25, 1)))
    // Clamped beyond the ends.
    #expect(close(g.premultipliedColor(at: Point(x: 5, y: -50)), SIMD4(1, 0, 0, 1)))
    #expect(close(g.premultipliedColor(at: Point(x: 5, y: 150)), SIMD4(0, 0, 1, 1)))
  }

  @Test("axial along a diagonal: t is the projection onto start → end, in points")
  func axialDiagonal() {
    let g = GradientPaint(
      colors: [red, blue], startPoint: Point(x: 0, y: 0), endPoint: Point(x: 1, y: 1),
      bounds: bounds)
    // E − S = (200, 100); p = (100, 0): (100·200)/(200² + 100²) = 0.4.
    #expect(abs(g.parameter(at: Point(x: 100, y: 0)) - 0.4) < 1e-15)
  }

  @Test("radial: an ellipse centred at startPoint through endPoint's x and y")
  func radial() {
    let g = GradientPaint(
      type: .radial, colors: [red, blue], startPoint: Point(x: 0.5, y: 0.5),
      endPoint: Point(x: 1, y: 1), bounds: bounds)
    // Half-axes 100 and 50 points around (100, 50).
    #expect(g.parameter(at: Point(x: 100, y: 50)) == 0)
    #expect(g.parameter(at: Point(x: 200, y: 50)) == 1)
    #expect(g.parameter(at: Point(x: 100, y: 0)) == 1)
    #expect(abs(g.parameter(at: Point(x: 130, y: 90)) - (0.09 + 0.64).squareRoot()) < 1e-15)
  }

  @Test("conic: 0 towards endPoint, a quarter turn clockwise on screen (towards +y) is 0.25")
  func conic() {
    let g = GradientPaint(
      type: .conic, colors: [red, blue], startPoint: Point(x: 0.5, y: 0.5),
      endPoint: Point(x: 0.5, y: 0), bounds: bounds)
    #expect(abs(g.parameter(at: Point(x: 100, y: 10))) < 1e-15)  // up: 0
    #expect(abs(g.parameter(at: Point(x: 150, y: 50)) - 0.25) < 1e-15)  // right
    #expect(abs(g.parameter(at: Point(x: 100, y: 90)) - 0.5) < 1e-15)  // down
    #expect(abs(g.parameter(at: Point(x: 50, y: 50)) - 0.75) < 1e-15)  // left
    let t = g.parameter(at: Point(x: 99.999_999, y: 10))
    #expect(t >= 0 && t < 1 && t > 0.99)
  }

  @Test("degenerate geometry paints the last colour (axial, radial); conic measures from +x")
  func degenerate() {
    let axial = GradientPaint(
      colors: [red, blue], startPoint: Point(x: 0.3, y: 0.3), endPoint: Point(x: 0.3, y: 0.3),
      bounds: bounds)
    #expect(axial.parameter(at: Point(x: 1, y: 2)) == 1)
    let radial = GradientPaint(
      type: .radial, colors: [red, blue], startPoint: Point(x: 0, y: 0.5),
      endPoint: Point(x: 1, y: 0.5), bounds: bounds)
    #expect(radial.parameter(at: Point(x: 0, y: 50)) == 1)
    let conic = GradientPaint(
      type: .conic, colors: [red, blue], startPoint: Point(x: 0.5, y: 0.5),
      endPoint: Point(x: 0.5, y: 0.5), bounds: bounds)
    #expect(abs(conic.parameter(at: Point(x: 100, y: 100)) - 0.25) < 1e-15)
  }

  @Test("straight interpolation: white to clear passes through translucent grey")
  func straight() {
    let g = GradientPaint(colors: [white, .clear], bounds: bounds)
    let mid = g.premultipliedColor(at: Point(x: 0, y: 50))
    // Straight midpoint (0.5, 0.5, 0.5, 0.5), premultiplied (0.25, 0.25, 0.25, 0.5).
    #expect(close(mid, SIMD4(0.25, 0.25, 0.25, 0.5)))
  }

  func same(_ a: RGBAColor?, _ b: RGBAColor) -> Bool {
    guard let a else { return false }
    return abs(a.red - b.red) + abs(a.green - b.green) + abs(a.blue - b.blue)
      + abs(a.alpha - b.alpha) < 1e-12
  }

  @Test("locations: given, sorted, hard edges at equal locations, ends extended")
  func locations() throws {
    var g = GradientPaint(colors: [red, white, blue], locations: [0.2, 0.5, 0.5], bounds: bounds)
    #expect(g.color(atParameter: 0.1) == red)
    #expect(same(g.color(atParameter: 0.35), RGBAColor(clamping: 1, 0.5, 0.5, 1)))
    #expect(g.color(atParameter: 0.5) == blue)
    #expect(g.color(atParameter: 0.9) == blue)
    g.locations = [1, 0, 0.5]  // sorted: white at 0, blue at 0.5, red at 1
    #expect(g.color(atParameter: 0) == white)
    #expect(same(g.color(atParameter: 0.75), RGBAColor(clamping: 0.5, 0, 0.5, 1)))
    g.locations = nil  // evenly spaced: 0, 0.5, 1
    #expect(same(g.color(atParameter: 0.25), RGBAColor(clamping: 1, 0.5, 0.5, 1)))
    g.colors = []
    g.locations = nil
    #expect(g.color(atParameter: 0.5) == nil)
    #expect(g.premultipliedColor(at: .zero) == .zero)
    g.colors = [red]
    #expect(g.color(atParameter: 0.7) == red)
  }

  /// Locations −1, 0.5, 0.5, 2 of red, green, blue, white: the colour at 0 is two thirds of the
  /// way from red to green ((0 + 1)/(0.5 + 1)), at 1 a third of the way from blue to white
  /// ((1 − 0.5)/(2 − 0.5)); the hard edge at 0.5 is kept in order. Interpolating these stops over
  /// [0, 1] gives the paint's colour at every t.
  @Test("unitIntervalStops: the colours at 0 and 1, the stops inside, in order")
  func unitIntervalStops() throws {
    let green = try RGBAColor(red: 0, green: 1, blue: 0)
    let g = GradientPaint(
      colors: [red, green, blue, white], locations: [-1, 0.5, 0.5, 2], bounds: bounds)
    let stops = g.unitIntervalStops
    #expect(stops.map(\.location) == [0, 0.5, 0.5, 1])
    #expect(stops[1].color == green && stops[2].color == blue)
    let third = 1.0 / 3
    #expect(
      abs(stops[0].color.red - third) < 1e-12 && abs(stops[0].color.green - 2 * third) < 1e-12)
    #expect(abs(stops[3].color.red - third) < 1e-12 && abs(stops[3].color.blue - 1) < 1e-12)
    for k in 0...20 {
      let t = Double(k) / 20
      let i = stops.lastIndex { $0.location <= t } ?? 0
      let a = stops[i]
      let b = i + 1 < stops.count && stops[i + 1].location > a.location ? stops[i + 1] : a
      let f = b.location > a.location ? (t - a.location) / (b.location - a.location) : 0
      let expected = try #require(g.color(atParameter: t))
      #expect(abs(a.color.red + (b.color.red - a.color.red) * f - expected.red) < 1e-12, "\(t)")
      #expect(abs(a.color.blue + (b.color.blue - a.color.blue) * f - expected.blue) < 1e-12)
    }
    #expect(GradientPaint(colors: [], bounds: bounds).unitIntervalStops.isEmpty)
  }

  @Test("rejected inputs")
  func rejected() {
    var g = GradientPaint(colors: [red, blue], locations: [0], bounds: bounds)
    #expect(
      throws: ValidationError(field: "locations", reason: .countMismatch(expected: 2, actual: 1))
    ) {
      try g.validate()
    }
    g.locations = [0, .nan]
    #expect(throws: ValidationError(field: "locations", index: 1, reason: .notFinite)) {
      try g.validate()
    }
    g.locations = nil
    g.endPoint = Point(x: .infinity, y: 0)
    #expect(throws: ValidationError(field: "endPoint", index: 0, reason: .notFinite)) {
      try g.validate()
    }
    g.endPoint = Point(x: 1, y: 1)
    g.bounds = Rect(x: 0, y: 0, width: 1, height: .nan)
    #expect(throws: ValidationError(field: "bounds", index: 3, reason: .notFinite)) {
      try GradientSpanShader(g)
    }
  }
}

@Suite("GradientSpanShader: the Float runs against the Double reference")
struct GradientSpanShaderTests {
  static let colors = [
    red, try! RGBAColor(red: 0.2, green: 0.9, blue: 0.1, alpha: 0.5), .clear, blue,
  ]

  /// Fills `count` pixels of a row under `span` and compares each with the reference.
  func compare(_ g: GradientPaint, _ span: ProjectiveSpan, count: Int) throws {
    let shader = try GradientSpanShader(g)
    var out = [UInt8](repeating: 0, count: 4 * count)
    out.withUnsafeMutableBufferPointer { shader.fill(span, count: count, into: $0.baseAddress!) }
    for k in 0..<count {
      let (x, y) = span.point(k)
      let reference = g.premultipliedColor(at: Point(x: x, y: y)) * 255
      for c in 0..<4 {
        let difference = abs(Double(out[4 * k + c]) - reference[c])
        // Away from the conic seam (where t jumps from 1 to 0), within one level plus rounding.
        #expect(difference <= 1.5, "pixel \(k) channel \(c): \(out[4 * k + c]) vs \(reference[c])")
      }
    }
  }

  @Test("each type, affine and perspective runs", arguments: GradientType.allCases)
  func matchesReference(type: GradientType) throws {
    let g = GradientPaint(
      type: type, colors: Self.colors, locations: [0, 0.3, 0.6, 1],
      startPoint: Point(x: 0.3, y: 0.4),
      endPoint: Point(x: 0.9, y: 0.8), bounds: bounds)
    try compare(g, ProjectiveSpan(x: 0.25, y: 70.5, dx: 1, dy: 0, rowDX: 0, rowDY: 1), count: 200)
    try compare(
      g,
      ProjectiveSpan(
        x: -20, y: 30, w: 1, dx: 1.3, dy: 0.2, dw: 0.002, rowDX: 0, rowDY: 1, rowDW: 0),
      count: 150)
  }

  @Test("no colours: transparent")
  func empty() throws {
    let shader = try GradientSpanShader(GradientPaint(colors: [], bounds: bounds))
    var out = [UInt8](repeating: 9, count: 12)
    out.withUnsafeMutableBufferPointer {
      shader.fill(
        ProjectiveSpan(x: 0, y: 0, dx: 1, dy: 0, rowDX: 0, rowDY: 1), count: 3,
        into: $0.baseAddress!)
    }
    #expect(out == [UInt8](repeating: 0, count: 12))
  }
}
