import RealModule
import Segue

/// Helpers shared by the interpolation suites (namespaced so they do not clash with other suites).
enum InterpolationTestSupport {
  /// Largest absolute field difference between two transforms.
  static func maxDifference(_ a: Transform3D, _ b: Transform3D) -> Double {
    zip(a.fields, b.fields).map { abs($0 - $1) }.max()!
  }

  /// Whether all sixteen fields agree within `tolerance` (absolute).
  static func close(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-12) -> Bool {
    maxDifference(a, b) <= tolerance
  }

  /// `m` with every field divided by `m.m44`.
  static func normalised(_ m: Transform3D) -> Transform3D {
    matrix(m.fields.map { $0 / m.m44 })
  }

  /// A transform from 16 literal fields in `m11, m12, …, m44` order (not validated, so NaN works).
  static func matrix(_ f: [Double]) -> Transform3D {
    Transform3D(
      m11: f[0], m12: f[1], m13: f[2], m14: f[3], m21: f[4], m22: f[5], m23: f[6], m24: f[7],
      m31: f[8], m32: f[9], m33: f[10], m34: f[11], m41: f[12], m42: f[13], m43: f[14], m44: f[15])
  }

  /// A skew matrix: the identity with field (row, column) (one-based) set to `k`.
  static func shear(row: Int, column: Int, _ k: Double) -> Transform3D {
    var m = Transform3D.identity
    m[row - 1, column - 1] = k
    return m
  }

  /// The identity with its fourth column set to `p` (CSS's perspective matrix).
  static func perspectiveColumn(_ p: Vector4) -> Transform3D {
    var m = Transform3D.identity
    m.m14 = p.x
    m.m24 = p.y
    m.m34 = p.z
    m.m44 = p.w
    return m
  }

  /// Parameters of a random well-conditioned 3D transform, drawn from 17 unit-interval numbers `u`.
  struct Parts {
    var scale: Vector3
    var skew: (xy: Double, xz: Double, yz: Double)
    var angle: Double
    var axis: Vector3
    var translation: Vector3
    var perspective: Vector3

    init(_ u: [Double]) {
      func range(_ v: Double, _ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * v }
      scale = Vector3(x: range(u[0], 0.2, 3), y: range(u[1], 0.2, 3), z: range(u[2], 0.2, 3))
      skew = (range(u[3], -1, 1), range(u[4], -1, 1), range(u[5], -1, 1))
      angle = range(u[6], -3.1, 3.1)
      axis = Vector3(x: range(u[7], -1, 1), y: range(u[8], -1, 1), z: range(u[9], -1, 1))
      if axis.length < 0.1 { axis = Vector3(x: 0, y: 0, z: 1) }
      translation = Vector3(
        x: range(u[10], -500, 500), y: range(u[11], -500, 500), z: range(u[12], -500, 500))
      perspective = Vector3(
        x: range(u[13], -0.002, 0.002), y: range(u[14], -0.002, 0.002),
        z: range(u[15], -0.004, 0.004))
    }

    /// The fourth column `(px, py, pz, 1 − t·p)`, chosen so the product has `m44 = 1`.
    var perspectiveVector: Vector4 {
      Vector4(
        x: perspective.x, y: perspective.y, z: perspective.z, w: 1 - translation.dot(perspective))
    }

    /// The expected quaternion: `(sin(θ/2)·u, cos(θ/2))` for the unit axis `u`, so `w > 0`.
    var quaternion: Quaternion {
      let n = axis.length
      let s = Double.sin(angle / 2)
      return Quaternion(
        x: s * axis.x / n, y: s * axis.y / n, z: s * axis.z / n, w: Double.cos(angle / 2))
    }

    /// `S · K_xy · K_xz · K_yz · R · T · P`, built from Transform3D constructors only.
    var matrix: Transform3D {
      Transform3D.makeScale(x: scale.x, y: scale.y, z: scale.z)
        * InterpolationTestSupport.shear(row: 2, column: 1, skew.xy)
        * InterpolationTestSupport.shear(row: 3, column: 1, skew.xz)
        * InterpolationTestSupport.shear(row: 3, column: 2, skew.yz)
        * Transform3D.makeRotation(by: angle, x: axis.x, y: axis.y, z: axis.z)
        * Transform3D.makeTranslation(x: translation.x, y: translation.y, z: translation.z)
        * InterpolationTestSupport.perspectiveColumn(perspectiveVector)
    }
  }
}
