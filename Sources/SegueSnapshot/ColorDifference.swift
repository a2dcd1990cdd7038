#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A colour in CIELAB (D65 white): lightness `L` in `[0, 100]`, and the opponent axes `a`
/// (green–red) and `b` (blue–yellow), unbounded but within about ±128 for sRGB colours.
public struct LabColor: Hashable, Sendable {
  /// Lightness `L*`.
  public var l: Double
  /// `a*`.
  public var a: Double
  /// `b*`.
  public var b: Double

  /// A colour from its coordinates.
  public init(l: Double, a: Double, b: Double) {
    self.l = l
    self.a = a
    self.b = b
  }

  /// The CIELAB coordinates of an 8-bit sRGB colour (IEC 61966-2-1 transfer function, the
  /// sRGB-to-XYZ matrix for D65, and CIE 1976 `L*a*b*` relative to the D65 white
  /// `(0.95047, 1, 1.08883)`).
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    let r = Self.linear[Int(red)]
    let g = Self.linear[Int(green)]
    let bl = Self.linear[Int(blue)]
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * bl) / 0.950_47
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175_0 * bl
    let z = (0.019_333_9 * r + 0.119_192_0 * g + 0.950_304_1 * bl) / 1.088_83
    let (fx, fy, fz) = (Self.f(x), Self.f(y), Self.f(z))
    self.init(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
  }

  /// The sRGB transfer function undone for each 8-bit value: `c/12.92` up to `c = 0.04045`,
  /// `((c + 0.055)/1.055)^2.4` above (`c = v/255`).
  private static let linear: [Double] = (0..<256).map { v in
    let c = Double(v) / 255
    return c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
  }

  /// CIELAB's `f(t)`: `∛t` above `(6/29)³`, the linear segment `t/(3·(6/29)²) + 4/29` below.
  private static func f(_ t: Double) -> Double {
    let delta = 6.0 / 29
    return t > delta * delta * delta ? cbrt(t) : t / (3 * delta * delta) + 4.0 / 29
  }

  /// The CIEDE2000 colour difference `ΔE₀₀` between two colours (Sharma, Wu and Dalal, "The
  /// CIEDE2000 Color-Difference Formula", 2005, with `k_L = k_C = k_H = 1`): about 1 is a
  /// difference an observer just notices, 100 the difference between black and white.
  public static func deltaE2000(_ first: LabColor, _ second: LabColor) -> Double {
    let c1 = (first.a * first.a + first.b * first.b).squareRoot()
    let c2 = (second.a * second.a + second.b * second.b).squareRoot()
    let cBar7 = seventhPower((c1 + c2) / 2)
    let g = 0.5 * (1 - (cBar7 / (cBar7 + twentyFive7)).squareRoot())
    let a1 = (1 + g) * first.a
    let a2 = (1 + g) * second.a
    let c1p = (a1 * a1 + first.b * first.b).squareRoot()
    let c2p = (a2 * a2 + second.b * second.b).squareRoot()
    let h1 = hueDegrees(first.b, a1)
    let h2 = hueDegrees(second.b, a2)
    let product = c1p * c2p
    var dh = 0.0
    if product != 0 {
      dh = h2 - h1
      if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
    }
    let dL = second.l - first.l
    let dC = c2p - c1p
    let dH = 2 * product.squareRoot() * sin(radians(dh / 2))
    let lBar = (first.l + second.l) / 2
    let cBarP = (c1p + c2p) / 2
    var hBar = h1 + h2
    if product != 0 {
      if abs(h1 - h2) <= 180 {
        hBar /= 2
      } else {
        hBar = hBar < 360 ? (hBar + 360) / 2 : (hBar - 360) / 2
      }
    }
    let t =
      1 - 0.17 * cos(radians(hBar - 30)) + 0.24 * cos(radians(2 * hBar))
      + 0.32 * cos(radians(3 * hBar + 6)) - 0.20 * cos(radians(4 * hBar - 63))
    let z = (hBar - 275) / 25
    let dTheta = 30 * exp(-z * z)
    let cBarP7 = seventhPower(cBarP)
    let rC = 2 * (cBarP7 / (cBarP7 + twentyFive7)).squareRoot()
    let lShift = (lBar - 50) * (lBar - 50)
    let sL = 1 + 0.015 * lShift / (20 + lShift).squareRoot()
    let sC = 1 + 0.045 * cBarP
    let sH = 1 + 0.015 * cBarP * t
    let rT = -sin(radians(2 * dTheta)) * rC
    let (l, c, h) = (dL / sL, dC / sC, dH / sH)
    return Swift.max(0, l * l + c * c + h * h + rT * c * h).squareRoot()
  }

  /// `25⁷`.
  private static let twentyFive7 = 6_103_515_625.0

  /// `x⁷`.
  private static func seventhPower(_ x: Double) -> Double {
    let x2 = x * x
    return x2 * x2 * x2 * x
  }

  /// `atan2(b, a)` in degrees in `[0, 360)`; 0 for the neutral axis.
  private static func hueDegrees(_ b: Double, _ a: Double) -> Double {
    guard a != 0 || b != 0 else { return 0 }
    let h = atan2(b, a) * 180 / Double.pi
    return h < 0 ? h + 360 : h
  }

  private static func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }
}
