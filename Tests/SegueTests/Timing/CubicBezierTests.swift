import PropertyBased
import Testing

@testable import Segue

/// The Bézier coordinate in Bernstein form, `3(1−s)²s·p1 + 3(1−s)s²·p2 + s³`: written
/// independently of the polynomial coefficients the library stores.
private func bernstein(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
  let u = 1 - s
  return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
}

/// Maps a selector to an extreme control-point x (0, 1, 1e-9, 1 − 1e-9) or keeps `random`.
private func extremeOr(_ selector: Int, _ random: Double) -> Double {
  switch selector {
  case 0: return 0
  case 1: return 1
  case 2: return 1e-9
  case 3: return 1 - 1e-9
  default: return random
  }
}

@Suite("CubicBezier")
struct CubicBezierTests {
  /// Reference values: python3 + mpmath at 50 digits, by this method: the control
  /// points converted exactly from their doubles, X(s) in Bernstein form bisected 200 times on
  /// [0, 1] for X(s) = x, then Y(s) in Bernstein form, printed to 17 digits.
  static let namedReferences: [(CubicBezier, Double, Double)] = [
    (.linear, 0.1, 0.1), (.linear, 0.25, 0.25), (.linear, 0.9, 0.9),
    (.easeIn, 0.1, 0.017026609651562943), (.easeIn, 0.25, 0.093464650718824863),
    (.easeIn, 0.5, 0.31535681257253931), (.easeIn, 0.75, 0.62186186917489021),
    (.easeIn, 0.9, 0.83942784576246653),
    (.easeOut, 0.1, 0.16057215423753348), (.easeOut, 0.25, 0.37813813082510981),
    (.easeOut, 0.5, 0.68464318742746071), (.easeOut, 0.75, 0.90653534928117515),
    (.easeOut, 0.9, 0.98297339034843706),
    (.easeInEaseOut, 0.1, 0.019722453548311197), (.easeInEaseOut, 0.25, 0.12916193104731982),
    (.easeInEaseOut, 0.5, 0.50000000000000004), (.easeInEaseOut, 0.75, 0.87083806895268021),
    (.easeInEaseOut, 0.9, 0.98027754645168881),
    (.systemDefault, 0.1, 0.094796305716043248), (.systemDefault, 0.25, 0.40851059135539587),
    (.systemDefault, 0.5, 0.80240338758485699), (.systemDefault, 0.75, 0.96045897834897408),
    (.systemDefault, 0.9, 0.99431647748455637),
  ]

  @Test func namedCurvesMatchHighPrecisionReference() {
    for (curve, x, expected) in Self.namedReferences {
      #expect(abs(curve.solve(x) - expected) <= 1e-10, "\(curve) at \(x)")
    }
  }

  /// Parameters s* from the same mpmath computation.
  @Test func parameterMatchesHighPrecisionReference() {
    #expect(abs(CubicBezier.easeIn.parameter(forX: 0.5) - 0.37425343553525774) <= 1e-11)
    #expect(abs(CubicBezier.systemDefault.parameter(forX: 0.25) - 0.40945856318612393) <= 1e-11)
    #expect(abs(CubicBezier.linear.parameter(forX: 0.1) - 0.19580010565909172) <= 1e-11)
  }

  /// Overshooting and degenerate curves, same mpmath method.
  @Test func overshootingAndDegenerateCurvesMatchReference() throws {
    let cases: [((Double, Double, Double, Double), Double, Double)] = [
      ((0.5, -1.5, 0.5, 2.5), 0.3, -0.25989324107264334),
      ((0.5, -1.5, 0.5, 2.5), 0.7, 1.2598932410726433),
      ((0, 1, 0, 1), 0.3, 0.96387742627935915),
      ((0, 1, 0, 1), 0.7, 0.99859145629622928),
      ((1, 0, 1, 1), 0.3, 0.034879451068427154),
      ((1, 0, 1, 1), 0.7, 0.25557857603285059),
      ((1, 0, 0, 1), 0.3, 0.047395275203942009),
      ((1, 0, 0, 1), 0.7, 0.95260472479605799),
      ((0.1, 2.5, 0.9, -1.5), 0.3, 0.79604104458115598),
      ((0.1, 2.5, 0.9, -1.5), 0.7, 0.20395895541884404),
    ]
    for ((x1, y1, x2, y2), x, expected) in cases {
      let curve = try CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2)
      #expect(abs(curve.solve(x) - expected) <= 1e-9, "\(curve) at \(x)")
    }
  }

  /// The end points are exact: Y(0) = 0 and Y(1) = 1 for any curve.
  @Test func endPointsAreExact() throws {
    let curve = try CubicBezier(x1: 0.3, y1: -2, x2: 0.7, y2: 3)
    #expect(curve.solve(0) == 0)
    #expect(curve.solve(1) == 1)
    #expect(curve.parameter(forX: 0) == 0)
    #expect(curve.parameter(forX: 1) == 1)
  }

  /// Coefficients by hand for easeInEaseOut (0.42, 0, 0.58, 1): cx = 1.26, bx = 3·0.16 − 1.26
  /// = −0.78, ax = 1 − 1.26 + 0.78 = 0.52; cy = 0, by = 3, ay = −2.
  @Test func coefficientsByHand() {
    let c = CubicBezier.easeInEaseOut
    #expect(abs(c.cx - 1.26) < 1e-15)
    #expect(abs(c.bx + 0.78) < 1e-15)
    #expect(abs(c.ax - 0.52) < 1e-15)
    #expect(c.cy == 0 && c.by == 3 && c.ay == -2)
    #expect(CubicBezier.sampleIntervals == 10 && c.sample(0) == 0 && c.sample(10) == 1)
    // X(0.5) = 0.52/8 − 0.78/4 + 1.26/2 = 0.065 − 0.195 + 0.63 = 0.5.
    #expect(abs(c.sample(5) - 0.5) < 1e-15)
    // X(0.3) = 0.52·0.027 − 0.78·0.09 + 1.26·0.3 = 0.01404 − 0.0702 + 0.378 = 0.32184.
    #expect(abs(c.sample(3) - 0.32184) < 1e-15)
  }

  /// Extrapolation outside [0, 1], worked by hand from WebKit's gradient rules:
  /// * easeIn (0.42, 0, 1, 1): start 0/0.42 = 0 → 0; end (0 − 1)/(0.42 − 1) = 1/0.58, so at 1.5:
  ///   1 + 0.5/0.58 = 1.8620689655172413.
  /// * easeOut (0, 0, 0.58, 1): start y2/x2 = 1/0.58, at −0.5: −0.8620689655172413; end
  ///   (1 − 1)/(0.58 − 1) = 0 → 1.
  /// * default (0.25, 0.1, 0.25, 1): start 0.4, at −1: −0.4; end 0 → 1 at 2.
  /// * (0, 0, 0, 0): start 1 (y1 = y2 = 0, x2 = 0), at −2: −2; end (0 − 1)/(0 − 1) = 1, at 3: 3.
  /// * (0, 0.5, 1, 0.5): start 0 → 0 at −1; end 0 → 1 at 2.
  /// * (0.5, −1.5, 0.5, 2.5): start −3, at −0.1: 0.3; end (1.5)/(−0.5) = −3, at 1.1: 0.7.
  /// * (1, 1, 1, 1): x2 = 1 and x1 = 1, y1 = y2 = 1 → end gradient 1, at 2: 2; start 1/1 = 1.
  @Test func extrapolationByHand() throws {
    #expect(CubicBezier.easeIn.solve(-0.5) == 0)
    #expect(abs(CubicBezier.easeIn.solve(1.5) - 1.8620689655172413) < 1e-14)
    #expect(abs(CubicBezier.easeOut.solve(-0.5) + 0.8620689655172413) < 1e-14)
    #expect(CubicBezier.easeOut.solve(1.5) == 1)
    #expect(abs(CubicBezier.systemDefault.solve(-1) + 0.4) < 1e-15)
    #expect(CubicBezier.systemDefault.solve(2) == 1)
    let zero = try CubicBezier(x1: 0, y1: 0, x2: 0, y2: 0)
    #expect(zero.solve(-2) == -2)
    #expect(zero.solve(3) == 3)
    let flat = try CubicBezier(x1: 0, y1: 0.5, x2: 1, y2: 0.5)
    #expect(flat.solve(-1) == 0)
    #expect(flat.solve(2) == 1)
    let back = try CubicBezier(x1: 0.5, y1: -1.5, x2: 0.5, y2: 2.5)
    #expect(abs(back.solve(-0.1) - 0.3) < 1e-15)
    #expect(abs(back.solve(1.1) - 0.7) < 1e-14)
    let corner = try CubicBezier(x1: 1, y1: 1, x2: 1, y2: 1)
    #expect(corner.endGradient == 1 && corner.startGradient == 1)
    #expect(corner.solve(2) == 2)
    #expect(CubicBezier.easeIn.solve(-.infinity) == 0)
    #expect(CubicBezier.easeOut.solve(.infinity) == 1)
  }

  /// NaN in gives NaN out and does not hang or crash.
  @Test func nanPropagates() {
    #expect(CubicBezier.easeIn.solve(.nan).isNaN)
    #expect(CubicBezier.easeIn.parameter(forX: .nan).isNaN)
  }

  /// A diagonal curve (x1 = y1, x2 = y2) is the identity, exactly.
  @Test func diagonalCurvesAreExactIdentity() throws {
    let curve = try CubicBezier(x1: 0.3, y1: 0.3, x2: 0.8, y2: 0.8)
    for x in stride(from: 0.0, through: 1.0, by: 0.01) {
      #expect(curve.solve(x) == x)
      #expect(CubicBezier.linear.solve(x) == x)
    }
  }

  /// The solver contract: |X(s) − x| ≤ 1e-7 for every valid curve over a dense grid of x,
  /// with X evaluated independently in Bernstein form. Control-point x values include the
  /// extremes 0, 1, 1e-9 and 1 − 1e-9 about two times in three.
  @Test func solverReachesToleranceForRandomCurves() async {
    await propertyCheck(
      count: 150,
      input: Gen.int(in: 0...5), Gen.double(in: 0...1), Gen.int(in: 0...5),
      Gen.double(in: 0...1), Gen.double(in: -2...3), Gen.double(in: -2...3)
    ) { k1, u1, k2, u2, y1, y2 in
      let x1 = extremeOr(k1, u1)
      let x2 = extremeOr(k2, u2)
      guard let curve = try? CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2) else {
        Issue.record("valid curve rejected: \(x1), \(y1), \(x2), \(y2)")
        return
      }
      var worst = 0.0
      for i in 0...1000 {
        let x = Double(i) / 1000
        let s = curve.parameter(forX: x)
        #expect(s >= 0 && s <= 1)
        worst = max(worst, abs(bernstein(s, x1, x2) - x))
      }
      #expect(worst <= 1e-7, "curve \(x1), \(y1), \(x2), \(y2): worst \(worst)")
    }
  }

  /// Every combination of extreme control points, plus x near the ends and near the flat point
  /// of (1, ·, 0, ·) at x = 0.5.
  @Test func solverReachesToleranceForExtremeGrid() throws {
    let extremes = [0, 1e-9, 1e-3, 0.5, 1 - 1e-9, 1]
    let xs = [1e-15, 1e-9, 1e-4, 0.3, 0.5 - 1e-12, 0.5, 0.5 + 1e-12, 0.7, 1 - 1e-9, 1 - 1e-15]
    for x1 in extremes {
      for x2 in extremes {
        let curve = try CubicBezier(x1: x1, y1: 0, x2: x2, y2: 1)
        for x in xs {
          let s = curve.parameter(forX: x)
          #expect(abs(bernstein(s, x1, x2) - x) <= 1e-7, "(\(x1), \(x2)) at \(x)")
        }
      }
    }
  }

  /// For y1, y2 in [0, 1] Y is non-decreasing in s, and s* in x, so the output is monotone
  /// (up to the solver's 1e-12 tolerance on X, which is far below the 1e-9 allowance).
  @Test func monotoneCurvesGiveMonotoneOutput() async {
    await propertyCheck(
      count: 150,
      input: Gen.double(in: 0...1), Gen.double(in: 0...1), Gen.double(in: 0...1),
      Gen.double(in: 0...1)
    ) { x1, y1, x2, y2 in
      guard let curve = try? CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2) else {
        Issue.record("valid curve rejected")
        return
      }
      var previous = curve.solve(0)
      for i in 1...400 {
        let y = curve.solve(Double(i) / 400)
        #expect(y >= previous - 1e-9, "\(x1), \(y1), \(x2), \(y2) at \(Double(i) / 400)")
        #expect(y >= -1e-12 && y <= 1 + 1e-12)
        previous = y
      }
    }
  }

  @Test func equalityUsesControlPoints() throws {
    #expect(try CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1) == .easeInEaseOut)
    #expect(CubicBezier.easeIn != .easeOut)
    #expect(Set([CubicBezier.easeIn, .easeIn, .easeOut]).count == 2)
  }

  // MARK: Rejected input, one test per condition.

  @Test func rejectsNonFiniteX1() {
    #expect(throws: ValidationError(field: "controlPoint1.x", reason: .notFinite)) {
      try CubicBezier(x1: .nan, y1: 0, x2: 1, y2: 1)
    }
  }
  @Test func rejectsX1BelowZero() {
    #expect(
      throws: ValidationError(field: "controlPoint1.x", reason: .outOfRange(lower: 0, upper: 1))
    ) { try CubicBezier(x1: -0.01, y1: 0, x2: 1, y2: 1) }
  }
  @Test func rejectsX1AboveOne() {
    #expect(
      throws: ValidationError(field: "controlPoint1.x", reason: .outOfRange(lower: 0, upper: 1))
    ) { try CubicBezier(x1: 1.01, y1: 0, x2: 1, y2: 1) }
  }
  @Test func rejectsNonFiniteY1() {
    #expect(throws: ValidationError(field: "controlPoint1.y", reason: .notFinite)) {
      try CubicBezier(x1: 0.5, y1: .infinity, x2: 1, y2: 1)
    }
  }
  @Test func rejectsNonFiniteX2() {
    #expect(throws: ValidationError(field: "controlPoint2.x", reason: .notFinite)) {
      try CubicBezier(x1: 0.5, y1: 0, x2: -.infinity, y2: 1)
    }
  }
  @Test func rejectsX2BelowZero() {
    #expect(
      throws: ValidationError(field: "controlPoint2.x", reason: .outOfRange(lower: 0, upper: 1))
    ) { try CubicBezier(x1: 0.5, y1: 0, x2: -1e-12, y2: 1) }
  }
  @Test func rejectsX2AboveOne() {
    #expect(
      throws: ValidationError(field: "controlPoint2.x", reason: .outOfRange(lower: 0, upper: 1))
    ) { try CubicBezier(x1: 0.5, y1: 0, x2: 2, y2: 1) }
  }
  @Test func rejectsNonFiniteY2() {
    #expect(throws: ValidationError(field: "controlPoint2.y", reason: .notFinite)) {
      try CubicBezier(x1: 0.5, y1: 0, x2: 0.5, y2: .nan)
    }
  }
  @Test func rejectsHugeY1() {
    #expect(
      throws: ValidationError(
        field: "controlPoint1.y", reason: .outOfRange(lower: -1e100, upper: 1e100))
    ) { try CubicBezier(x1: 0.5, y1: -1e300, x2: 0.5, y2: 1) }
  }
  @Test func rejectsHugeY2() {
    #expect(
      throws: ValidationError(
        field: "controlPoint2.y", reason: .outOfRange(lower: -1e100, upper: 1e100))
    ) { try CubicBezier(x1: 0.5, y1: 0, x2: 0.5, y2: 1e101) }
  }
}
