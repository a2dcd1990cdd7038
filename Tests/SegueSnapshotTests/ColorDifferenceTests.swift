import SegueSnapshot
import Testing

/// CIEDE2000 against the test data of Sharma, Wu and Dalal ("The CIEDE2000 Color-Difference
/// Formula: Implementation Notes, Supplementary Test Data, and Mathematical Observations",
/// Color Research & Application 30(1), 2005, Table 1), four decimals as published; and sRGB to
/// CIELAB against the textbook values of the primaries (D65).
@Suite("CIEDE2000")
struct ColorDifferenceTests {
  /// (L1, a1, b1, L2, a2, b2, ΔE00): pairs 1–3, 7, 13–17, 19, 20, 25 and 34 of the table.
  static let sharma: [(Double, Double, Double, Double, Double, Double, Double)] = [
    (50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425),
    (50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615),
    (50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412),
    (50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195),
    (50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000),
    (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
    (2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
  ]

  @Test func sharmaPairs() {
    for (l1, a1, b1, l2, a2, b2, expected) in Self.sharma {
      let first = LabColor(l: l1, a: a1, b: b1)
      let second = LabColor(l: l2, a: a2, b: b2)
      let delta = LabColor.deltaE2000(first, second)
      #expect(abs(delta - expected) < 5e-5, "\(first) \(second): \(delta) ≠ \(expected)")
      // Symmetric, and zero for a colour with itself.
      #expect(abs(LabColor.deltaE2000(second, first) - delta) < 1e-12)
      #expect(LabColor.deltaE2000(first, first) == 0)
    }
  }

  /// sRGB primaries, white and black in CIELAB (D65): the widely tabulated values, e.g. red
  /// (53.2408, 80.0925, 67.2032).
  @Test func srgbToLab() {
    let cases: [((UInt8, UInt8, UInt8), (Double, Double, Double))] = [
      ((255, 255, 255), (100, 0, 0)),
      ((0, 0, 0), (0, 0, 0)),
      ((255, 0, 0), (53.2408, 80.0925, 67.2032)),
      ((0, 255, 0), (87.7347, -86.1827, 83.1793)),
      ((0, 0, 255), (32.2970, 79.1875, -107.8602)),
    ]
    for ((r, g, b), (l, a, bb)) in cases {
      let lab = LabColor(red: r, green: g, blue: b)
      #expect(abs(lab.l - l) < 0.01 && abs(lab.a - a) < 0.01 && abs(lab.b - bb) < 0.01, "\(lab)")
    }
  }

  /// Black against white is the largest lightness difference: ΔE00 = 100 exactly in `L`, as
  /// `S_L = 1` at `L̄ = 50`.
  @Test func blackAgainstWhiteIsAHundred() {
    let delta = LabColor.deltaE2000(
      LabColor(red: 0, green: 0, blue: 0), LabColor(red: 255, green: 255, blue: 255))
    #expect(abs(delta - 100) < 0.01)
  }
}
