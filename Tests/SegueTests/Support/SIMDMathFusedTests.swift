import PropertyBased
import RealModule
import SegueBenchSupport
import Testing

@testable import Segue

/// The fused and single-instruction helpers of `SIMDMath` (FMA, min/max, truncation, approximate
/// reciprocal, pair gathers) and the scaled sine/cosine built on them, against first principles
/// and `Double` references.
@Suite("SIMDMath: fused operations, pair gather, scaled sin/cos")
struct SIMDMathFusedTests {
  /// Whether the test module (which inlines the helpers) is compiled for hardware FMA.
  static let fused =
    CPUFeatures.compiled.contains(.fma) || CPUFeatures.compiled.contains(.avx512f)
    || CPUFeatures.compiled.contains(.neon)

  /// (1 + 2⁻¹²)² − (1 + 2⁻¹¹) = 2⁻²⁴ exactly. Rounded to `Float` first, the square is
  /// 1 + 2⁻¹¹ (2⁻²⁴ is half an ulp of 1 and the tie goes to the even neighbour), so the unfused
  /// form gives 0 and only a fused multiply-add keeps the 2⁻²⁴.
  @Test func fmaRoundsOnce() {
    let a = Lanes(repeating: 1 + 0x1p-12)
    let r = SIMDMath.fma(a, a, Lanes(repeating: -(1 + 0x1p-11)))
    let expected: Float = Self.fused ? 0x1p-24 : 0
    #expect(r == Lanes(repeating: expected))
  }

  /// max/min are x86's `maxps`/`minps`: the second operand where either is NaN, so
  /// `max(x, 0)` maps NaN to 0; ordinary lanes give the larger / smaller value.
  @Test func maxMinNaNGoesToSecondOperand() {
    var x = Lanes(repeating: 2)
    x[3] = .nan
    x[4] = -5
    let hi = Lanes.maximum(x, Lanes(repeating: 0))
    let lo = Lanes.minimum(x, Lanes(repeating: 1))
    #expect(hi[3] == 0 && hi[4] == 0 && hi[0] == 2)
    #expect(lo[3] == 1 && lo[4] == -5 && lo[0] == 1)
  }

  /// Truncation toward zero on both signs and at integers.
  @Test func truncateTowardZero() {
    let x = Lanes(0, 0.5, 0.999, 1, 1.5, 63.99, 64, -0.5, -1.5, -2, 1e6 + 0.5, 7, 3.25, -3.25, 2, 0)
    let expected = Lanes(0, 0, 0, 1, 1, 63, 64, 0, -1, -2, 1e6, 7, 3, -3, 2, 0)
    #expect(Lanes.truncate(x) == expected)
  }

  /// The approximate reciprocal is within its documented bound (2⁻¹⁴ with AVX-512, 1.5·2⁻¹²
  /// with AVX; exact otherwise) of 1/x over five binades of both signs.
  @Test func approximateReciprocalBound() async {
    await propertyCheck(count: 200, input: Gen.float(in: 0.05...2)) { v in
      for x in [v, -v, 16 * v] {
        let r = Lanes.approximateReciprocal(Lanes(repeating: x))[7]
        let relative = abs(Double(r) * Double(x) - 1)
        #expect(relative <= 1.5 * 0x1p-12, "x = \(x): \(relative)")
      }
    }
  }

  /// The pair gather returns `table[i]` and `table[i + 1]` for every lane, including the last
  /// pair of the table and repeated indices.
  @Test func gatherPairMatchesScalarLookups() async {
    let table = (0..<130).map { Float($0) * 0.5 + 0.25 }
    await propertyCheck(count: 100, input: Gen.int(in: 0...128)) { seed in
      var index = Lanes()
      for l in 0..<16 { index[l] = Float((seed + 37 * l) % 129) }
      index[15] = 128
      index[14] = index[13]
      let (lo, hi) = table.withUnsafeBufferPointer {
        SIMDMath.gatherPair($0.baseAddress!, index)
      }
      for l in 0..<16 {
        #expect(lo[l] == table[Int(index[l])] && hi[l] == table[Int(index[l]) + 1])
      }
    }
  }

  /// σ·sin and σ·cos against `Double` (absolute error, σ = 1), measured max over 16 384 lanes in
  /// a build without FMA (the debug test build): [−π, π] sin 1.0e-7, cos 1.2e-7; [−1000, 1000]
  /// sin 9.7e-8, cos 1.5e-7; bound 2e-7.
  @Test func scaledSinCosAbsoluteError() {
    for range in [-Double.pi...Double.pi, -1000.0...1000.0] {
      let s = simdSweep(
        range, { SIMDMath.scaledSinCos($0, scale: Lanes(repeating: 1)).sin },
        error: { abs(Double($0) - .sin($1)) })
      let c = simdSweep(
        range, { SIMDMath.scaledSinCos($0, scale: Lanes(repeating: 1)).cos },
        error: { abs(Double($0) - .cos($1)) })
      #expect(s.worst <= 2e-7, "sin \(range) worst \(s.worst) at \(s.at)")
      #expect(c.worst <= 2e-7, "cos \(range) worst \(c.worst) at \(c.at)")
    }
  }

  /// The sign (−1)ⁿ folded into σ: negative and zero scales, and the scalar twin bit for bit.
  @Test func scaledSinCosSignsAndScalarTwin() async {
    await propertyCheck(count: 300, input: Gen.float(in: -50...50), Gen.float(in: -3...3)) {
      r, sigma in
      var x = Lanes(repeating: 0.5)
      x[9] = r
      let v = SIMDMath.scaledSinCos(x, scale: Lanes(repeating: sigma))
      let scalar = SIMDMath.scaledSinCos(r, scale: sigma)
      #expect(v.sin[9].bitPattern == scalar.sin.bitPattern)
      #expect(v.cos[9].bitPattern == scalar.cos.bitPattern)
      let s = Double(sigma)
      // (plus the rounding of σ·sin to Float when σ is subnormal-small)
      #expect(abs(Double(v.sin[9]) - s * Double.sin(Double(r))) <= 2e-7 * abs(s) + 1e-44)
      #expect(abs(Double(v.cos[9]) - s * Double.cos(Double(r))) <= 2e-7 * abs(s) + 1e-44)
    }
    let zero = SIMDMath.scaledSinCos(Lanes(repeating: 0), scale: Lanes(repeating: 2))
    #expect(zero.sin == Lanes(repeating: 0) && zero.cos == Lanes(repeating: 2))
  }
}
