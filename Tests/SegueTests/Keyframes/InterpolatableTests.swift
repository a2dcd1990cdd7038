import PropertyBased
import Segue
import Testing

/// The `Interpolatable` conformances and `Color`: channel layouts, lerp, distance, clamping.
@Suite("Interpolatable and Color")
struct InterpolatableTests {
  /// 2 → 10 at 0.25: 2·0.75 + 10·0.25 = 4; ends exact; |2 − 10| = 8.
  @Test func doubleLerpAndDistance() {
    #expect(Double.interpolate(2, 10, fraction: 0.25) == 4)
    #expect(Double.interpolate(0.1, 0.7, fraction: 0) == 0.1)
    #expect(Double.interpolate(0.1, 0.7, fraction: 1) == 0.7)
    #expect(Double.distance(2, 10) == 8)
    #expect(Double.channelCount == 1)
  }

  /// Point (0, 0) → (4, 8) at 0.75: (3, 6); distance to (3, 4) is 5 (3-4-5 triangle).
  @Test func pointLerpAndDistance() {
    #expect(Point.interpolate(.zero, Point(x: 4, y: 8), fraction: 0.75) == Point(x: 3, y: 6))
    #expect(Point.distance(.zero, Point(x: 3, y: 4)) == 5)
    #expect(Point(x: 1, y: 2).channels == [1, 2])
  }

  /// Size 10×20 → 30×40 at 0.5: 20×30.
  @Test func sizeLerp() {
    let a = Size(width: 10, height: 20)
    let b = Size(width: 30, height: 40)
    #expect(Size.interpolate(a, b, fraction: 0.5) == Size(width: 20, height: 30))
    #expect(Size(channels: [5, 6][...]) == Size(width: 5, height: 6))
  }

  /// Rect channels are x, y, width, height (not min/max): (0, 340, 390, 120) → (0, 0, 390, 240)
  /// at 0.5 is (0, 170, 390, 180), the hero preset's image frame half-way. Distance between
  /// (0, 0, 0, 0) and (1, 2, 2, 4): √(1 + 4 + 4 + 16) = 5. Negative sizes keep their sign.
  @Test func rectLerpDistanceAndLayout() {
    let cell = Rect(x: 0, y: 340, width: 390, height: 120)
    let header = Rect(x: 0, y: 0, width: 390, height: 240)
    #expect(
      Rect.interpolate(cell, header, fraction: 0.5) == Rect(x: 0, y: 170, width: 390, height: 180))
    #expect(Rect.distance(.zero, Rect(x: 1, y: 2, width: 2, height: 4)) == 5)
    #expect(Rect(x: 1, y: 2, width: -3, height: 4).channels == [1, 2, -3, 4])
  }

  /// Channels round-trip for every conformance, for random values.
  @Test func channelsRoundTrip() async {
    await propertyCheck(count: 100, input: Gen.double(in: -1000...1000).array(of: 4)) { v in
      #expect(Double(channels: v[0].channels[...]) == v[0])
      let p = Point(x: v[0], y: v[1])
      #expect(Point(channels: p.channels[...]) == p)
      let r = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
      #expect(Rect(channels: r.channels[...]) == r)
      // A slice that does not start at index 0 reads from its own start.
      let padded = [99] + r.channels
      #expect(Rect(channels: padded[1...]) == r)
    }
  }

  /// Point, size, rectangle and colour interpolate field by field with the channel-wise
  /// formula `aᵢ·(1 − f) + bᵢ·f` on their channels, to the bit (fractions inside, outside and at
  /// the ends of `[0, 1]`; colours clamped as `init(channels:)` clamps).
  @Test func fixedSizeTypesMatchTheChannelWiseFormula() async {
    func channelWise<T: Interpolatable>(_ a: T, _ b: T, _ f: Double) -> T {
      if f == 0 { return a }
      if f == 1 { return b }
      return T(channels: zip(a.channels, b.channels).map { $0 * (1 - f) + $1 * f }[...])
    }
    func bits(_ values: [Double]) -> [UInt64] { values.map(\.bitPattern) }
    await propertyCheck(
      count: 200, input: Gen.double(in: -1e3...1e3).array(of: 8), Gen.double(in: -0.5...1.5)
    ) { v, fraction in
      for f in [fraction, 0, 1] {
        let (p, q) = (Point(x: v[0], y: v[1]), Point(x: v[2], y: v[3]))
        #expect(
          bits(Point.interpolate(p, q, fraction: f).channels) == bits(channelWise(p, q, f).channels)
        )
        let (s, t) = (Size(width: v[0], height: v[1]), Size(width: v[2], height: v[3]))
        #expect(
          bits(Size.interpolate(s, t, fraction: f).channels) == bits(channelWise(s, t, f).channels))
        let r = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        let w = Rect(x: v[4], y: v[5], width: v[6], height: v[7])
        #expect(
          bits(Rect.interpolate(r, w, fraction: f).channels) == bits(channelWise(r, w, f).channels))
        let c = RGBAColor(channels: v[0..<4].map { $0 / 1e3 }[...])
        let d = RGBAColor(channels: v[4..<8].map { $0 / 1e3 }[...])
        #expect(
          bits(RGBAColor.interpolate(c, d, fraction: f).channels)
            == bits(channelWise(c, d, f).channels))
      }
    }
  }

  /// The default lerp is exact at 0 and 1 and stays between the ends for f in [0, 1].
  @Test func lerpIsExactAtEndsAndBounded() async {
    await propertyCheck(
      count: 200, input: Gen.double(in: -1e6...1e6), Gen.double(in: -1e6...1e6),
      Gen.double(in: 0...1)
    ) { a, b, f in
      let pa = Point(x: a, y: b)
      let pb = Point(x: b, y: a)
      #expect(Point.interpolate(pa, pb, fraction: 0) == pa)
      #expect(Point.interpolate(pa, pb, fraction: 1) == pb)
      let m = Point.interpolate(pa, pb, fraction: f)
      #expect(m.x >= min(a, b) - 1e-9 && m.x <= max(a, b) + 1e-9)
    }
  }

  /// Named colours, and clamping of out-of-range components: 1.5 → 1, −0.2 → 0.
  @Test func colorConstantsAndClamping() throws {
    #expect(RGBAColor.black.channels == [0, 0, 0, 1])
    #expect(RGBAColor.white.channels == [1, 1, 1, 1])
    #expect(RGBAColor.clear.channels == [0, 0, 0, 0])
    let c = try RGBAColor(red: 1.5, green: -0.2, blue: 0.25, alpha: 2)
    #expect(c.channels == [1, 0, 0.25, 1])
    #expect(RGBAColor(channels: [2, -1, 0.5, 0.5][...]).channels == [1, 0, 0.5, 0.5])
    #expect(RGBAColor(channels: [Double.nan, 0, 0, 1][...]).red == 0)
  }

  /// Black → white at 0.25: grey 0.25, alpha 1; distance black–white √3.
  @Test func colorInterpolatesStraightComponents() throws {
    let grey = RGBAColor.interpolate(.black, .white, fraction: 0.25)
    #expect(grey == (try RGBAColor(red: 0.25, green: 0.25, blue: 0.25, alpha: 1)))
    #expect(RGBAColor.distance(.black, .white) == (3.0).squareRoot())
    // Clear → white at 0.5: straight (not premultiplied) components (0.5, 0.5, 0.5, 0.5).
    #expect(RGBAColor.interpolate(.clear, .white, fraction: 0.5).channels == [0.5, 0.5, 0.5, 0.5])
  }

  @Test func colorRejectsNonFiniteRed() {
    #expect(throws: ValidationError(field: "red", reason: .notFinite)) {
      try RGBAColor(red: .nan, green: 0, blue: 0)
    }
  }

  @Test func colorRejectsNonFiniteGreen() {
    #expect(throws: ValidationError(field: "green", reason: .notFinite)) {
      try RGBAColor(red: 0, green: .infinity, blue: 0)
    }
  }

  @Test func colorRejectsNonFiniteBlue() {
    #expect(throws: ValidationError(field: "blue", reason: .notFinite)) {
      try RGBAColor(red: 0, green: 0, blue: -.infinity)
    }
  }

  @Test func colorRejectsNonFiniteAlpha() {
    #expect(throws: ValidationError(field: "alpha", reason: .notFinite)) {
      try RGBAColor(red: 0, green: 0, blue: 0, alpha: .nan)
    }
  }
}
