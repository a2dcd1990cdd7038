import PropertyBased
import RealModule
import SegueBenchSupport
import Testing

@testable import Segue

/// Evaluates `f` on `count` deterministic pseudo-random lanes drawn uniformly from `range` (plus
/// the range's ends) and returns the largest `error(approximation, x)` found.
func simdSweep(
  _ range: ClosedRange<Double>, count: Int = 16_384, seed: UInt64 = 7,
  _ f: (Lanes) -> Lanes, error: (Float, Double) -> Double
) -> (worst: Double, at: Double) {
  var rng = SplitMix64(state: seed)
  var worst = 0.0
  var at = 0.0
  var i = 0
  while i < count {
    var x = Lanes()
    for l in 0..<16 {
      let u = i + l == 0 ? 0 : (i + l == 1 ? 1 : rng.nextUnit())
      x[l] = Float(range.lowerBound + (range.upperBound - range.lowerBound) * u)
    }
    let y = f(x)
    for l in 0..<16 {
      let e = error(y[l], Double(x[l]))
      if e > worst || e.isNaN {
        worst = e
        at = Double(x[l])
      }
    }
    i += 16
  }
  return (worst, at)
}

/// The error of `approx` in units of the `Float` spacing (ulp) at the exact value.
func ulpError(_ approx: Float, _ exact: Double) -> Double {
  let ulp = Double(Float(exact).ulp)
  return abs(Double(approx) - exact) / ulp
}

/// The batch kernels' vector math against `Double` libm (swift-numerics `RealModule`, which is
/// correctly rounded to within ~1 ulp of `Double`, i.e. exact at `Float` precision). Each bound
/// below is the maximum measured over the sweep (16 384 lanes per range, splitmix64 seed 7),
/// rounded up; the comments give the measured figures.
@Suite("SIMDMath: vector sin, cos, exp, expm1, acos, atan2, floor")
struct SIMDMathTests {
  /// sin and cos absolute error, measured max: [−π, π] sin 7.9e-8, cos 9.1e-8; [−1000, 1000]
  /// sin 7.9e-8, cos 8.0e-8; [−2¹⁴, 2¹⁴] sin 2.3e-7, cos 2.6e-7 (the three-part reduction's
  /// residual grows with |x|).
  @Test func sinCosAbsoluteError() {
    for (range, bound) in [
      (-Double.pi...Double.pi, 1.0e-7), (-1000.0...1000.0, 1.0e-7), (-16384.0...16384.0, 3e-7),
    ] {
      let s = simdSweep(range, { SIMDMath.sin($0) }, error: { abs(Double($0) - .sin($1)) })
      let c = simdSweep(range, { SIMDMath.cos($0) }, error: { abs(Double($0) - .cos($1)) })
      #expect(s.worst <= bound, "sin \(range) worst \(s.worst) at \(s.at)")
      #expect(c.worst <= bound, "cos \(range) worst \(c.worst) at \(c.at)")
    }
  }

  /// The scalar twin agrees with every lane bit for bit, and sin² + cos² stays within 4e-7 of 1.
  @Test func sinCosScalarTwinIsBitwiseEqual() async {
    await propertyCheck(count: 300, input: Gen.float(in: -100...100)) { r in
      var v = Lanes(repeating: 0.25)
      v[5] = r
      let (s, c) = SIMDMath.sinCos(v)
      let scalar = SIMDMath.sinCos(r)
      #expect(s[5].bitPattern == scalar.sin.bitPattern)
      #expect(c[5].bitPattern == scalar.cos.bitPattern)
      #expect(abs(s[5] * s[5] + c[5] * c[5] - 1) <= 4e-7)
    }
  }

  /// Exact values: sin 0 = 0, cos 0 = 1 (the polynomials are exact at r = 0).
  @Test func sinCosAtZero() {
    let (s, c) = SIMDMath.sinCos(Lanes(repeating: 0))
    #expect(s == Lanes(repeating: 0))
    #expect(c == Lanes(repeating: 1))
  }

  /// exp relative error, measured max: 1.05 ulp over its whole range [−86.9, 88.72], 0.83 ulp on
  /// [−1, 1].
  @Test func expRelativeError() {
    for range in [-86.9...88.72, -1.0...1.0] {
      let r = simdSweep(range, { SIMDMath.exp($0) }, error: { ulpError($0, .exp($1)) })
      #expect(r.worst <= 2, "exp \(range) worst \(r.worst) ulp at \(r.at)")
    }
  }

  /// exp's edges: exp(0) = 1 exactly; overflow above ln(FLT_MAX) = 88.7228 gives +∞; below −86.9
  /// it flushes to 0; −∞ gives 0; NaN gives NaN; the largest finite result stays finite.
  @Test func expEdges() {
    var x = Lanes(repeating: 0)
    x[1] = 89
    x[2] = .infinity
    x[3] = -87
    x[4] = -.infinity
    x[5] = .nan
    x[6] = 88.72
    x[7] = -86.8
    let y = SIMDMath.exp(x)
    #expect(y[0] == 1)
    #expect(y[1] == .infinity && y[2] == .infinity)
    #expect(y[3] == 0 && y[4] == 0)
    #expect(y[5].isNaN)
    #expect(y[6].isFinite && abs(Double(y[6]) / Double.exp(Double(Float(88.72))) - 1) < 3e-7)
    // e^−86.8 = 2.0829e-38 (Double.exp), still a normal Float.
    #expect(y[7] > 0 && abs(Double(y[7]) / Double.exp(Double(Float(-86.8))) - 1) < 3e-7)
  }

  /// expm1 relative to its own size, also for tiny arguments where exp(x) − 1 would cancel:
  /// measured max 0.50 ulp on [−1e-4, 1e-4], 1.48 ulp on [−0.4, 0.4], 1.42 ulp on [−20, 20].
  @Test func expm1RelativeError() {
    for range in [-1e-4...1e-4, -0.4...0.4, -20.0...20.0] {
      let r = simdSweep(range, { SIMDMath.expm1($0) }, error: { ulpError($0, .expMinusOne($1)) })
      #expect(r.worst <= 2, "expm1 \(range) worst \(r.worst) ulp at \(r.at)")
    }
  }

  /// expm1's edges: 0 → 0, overflow → +∞, far below → −1, NaN → NaN.
  @Test func expm1Edges() {
    var x = Lanes(repeating: 0)
    x[1] = 100
    x[2] = -100
    x[3] = .nan
    let y = SIMDMath.expm1(x)
    #expect(y[0] == 0 && y[1] == .infinity && y[2] == -1 && y[3].isNaN)
  }

  /// acos over [−1, 1]: measured max 2.87e-7 absolute = 1.20 ulp (at x = −0.514, result 2.11).
  @Test func acosAbsoluteError() {
    let r = simdSweep(-1...1, { SIMDMath.acos($0) }, error: { abs(Double($0) - .acos($1)) })
    #expect(r.worst <= 3e-7, "acos worst \(r.worst) at \(r.at)")
  }

  /// acos edges: acos 1 = 0 exactly, acos(−1) = Float(π), acos 0 = Float(π/2), inputs just
  /// outside [−1, 1] are clamped (no NaN), NaN stays NaN.
  @Test func acosEdges() {
    var x = Lanes(repeating: 0)
    x[1] = 1
    x[2] = -1
    x[3] = 1.000_001
    x[4] = -1.000_001
    x[5] = .nan
    let y = SIMDMath.acos(x)
    #expect(y[0] == Float(Double.pi / 2))
    #expect(y[1] == 0 && y[3] == 0)
    #expect(y[2] == Float(Double.pi) && y[4] == Float(Double.pi))
    #expect(y[5].isNaN)
  }

  /// atan2 on random points of [−10, 10]²: within 3e-7 absolute of Double atan2 (measured max
  /// 2.6e-7 over 32 000 random points, about 1 ulp of π), including the diagonal and the axes.
  @Test func atan2AbsoluteError() async {
    await propertyCheck(
      count: 300, input: Gen.float(in: -10...10), Gen.float(in: -10...10)
    ) { y, x in
      var ly = Lanes(repeating: 1)
      var lx = Lanes(repeating: 1)
      ly[0] = y
      lx[0] = x
      ly[1] = y
      lx[1] = y  // the diagonal |x| = |y|
      ly[2] = 0
      lx[2] = x  // the x axis
      ly[3] = y
      lx[3] = 0  // the y axis
      let a = SIMDMath.atan2(y: ly, x: lx)
      for l in 0..<4 {
        let exact = Double.atan2(y: Double(ly[l]), x: Double(lx[l]))
        #expect(abs(Double(a[l]) - exact) <= 3e-7, "atan2(\(ly[l]), \(lx[l]))")
      }
    }
    let origin = SIMDMath.atan2(y: Lanes(repeating: 0), x: Lanes(repeating: 0))
    #expect(origin == Lanes(repeating: 0))
  }

  /// floor equals `Float.rounded(.down)` bit for bit, for small, half-integer, negative and huge
  /// values, and keeps ±∞.
  @Test func floorIsExact() async {
    await propertyCheck(count: 200, input: Gen.float(in: -1e9...1e9), Gen.float(in: -4...4)) {
      big, small in
      var x = Lanes(repeating: -2.5)
      x[0] = big
      x[1] = small
      x[2] = small.rounded()
      x[3] = -small.rounded() - 0.5
      x[4] = .infinity
      x[5] = -.infinity
      x[6] = 8_388_607.5
      x[7] = -8_388_607.5
      let f = SIMDMath.floor(x)
      for l in 0..<16 { #expect(f[l] == x[l].rounded(.down), "floor(\(x[l]))") }
    }
  }

  /// clamp maps NaN to the lower bound and limits both ends.
  @Test func clampLimitsAndMapsNaN() {
    var x = Lanes(repeating: 0.5)
    x[0] = .nan
    x[1] = -3
    x[2] = 7
    let c = SIMDMath.clamp(x, 0, 1)
    #expect(c[0] == 0 && c[1] == 0 && c[2] == 1 && c[3] == 0.5)
  }
}
