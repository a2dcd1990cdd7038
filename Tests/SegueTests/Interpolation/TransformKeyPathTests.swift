import PropertyBased
import Segue
import Testing

@Suite("TransformKeyPath")
struct TransformKeyPathTests {
  typealias Support = InterpolationTestSupport

  /// Rx(α) · Ry(β) · Rz(γ), built with Transform3D constructors.
  static func euler(_ a: Double, _ b: Double, _ c: Double) -> Transform3D {
    Transform3D.makeRotation(by: a, x: 1, y: 0, z: 0)
      * Transform3D.makeRotation(by: b, x: 0, y: 1, z: 0)
      * Transform3D.makeRotation(by: c, x: 0, y: 0, z: 1)
  }

  /// Every documented key path parses to its case (Apple documents eleven scalars).
  @Test func parsesEveryKeyPath() throws {
    let names = [
      "transform.rotation.x", "transform.rotation.y", "transform.rotation.z", "transform.rotation",
      "transform.scale.x", "transform.scale.y", "transform.scale.z", "transform.scale",
      "transform.translation.x", "transform.translation.y", "transform.translation.z",
    ]
    #expect(TransformKeyPath.allCases.map(\.rawValue) == names)
    for name in names { #expect(try TransformKeyPath(keyPath: name).rawValue == name) }
  }

  /// An unknown key path is rejected on field "keyPath".
  @Test func rejectsUnknownKeyPath() {
    #expect(throws: ValidationError(field: "keyPath", reason: .unknown("transform.rotation.w"))) {
      try TransformKeyPath(keyPath: "transform.rotation.w")
    }
  }

  /// "transform.translation" is a size: not a scalar case, but two channels x and y.
  @Test func translationSizeKeyPath() throws {
    #expect(throws: ValidationError(field: "keyPath", reason: .unknown("transform.translation"))) {
      try TransformKeyPath(keyPath: "transform.translation")
    }
    #expect(
      try TransformKeyPath.channels(forKeyPath: "transform.translation") == [
        .translationX, .translationY,
      ])
    #expect(try TransformKeyPath.channels(forKeyPath: "transform.scale") == [.scale])
    let m = Transform3D.makeTranslation(x: 3, y: 4, z: 5)
    #expect(TransformKeyPath.translation(in: m) == Size(width: 3, height: 4))
    #expect(
      try TransformKeyPath.applyingTranslation(Size(width: -1, height: 2), to: m)
        == .makeTranslation(x: -1, y: 2, z: 5))
  }

  /// `channels(forKeyPath:)` rejects unknown names too.
  @Test func channelsRejectUnknownKeyPath() {
    #expect(throws: ValidationError(field: "keyPath", reason: .unknown("transform"))) {
      try TransformKeyPath.channels(forKeyPath: "transform")
    }
  }

  /// Reading, by hand: T(10, 20, 30) · … has translation (10, 20, 30) in m41…m43; S(2, 3, 4) has
  /// scales 2, 3, 4 and transform.scale (2 + 3 + 4)/3 = 3; a rotation about one axis reads its angle.
  @Test func readsComponents() throws {
    let t =
      Transform3D.makeScale(x: 2, y: 3, z: 4) * Transform3D.makeTranslation(x: 10, y: 20, z: 30)
    #expect(try TransformKeyPath.translationX.value(in: t) == 10)
    #expect(try TransformKeyPath.translationY.value(in: t) == 20)
    #expect(try TransformKeyPath.translationZ.value(in: t) == 30)
    #expect(try TransformKeyPath.scaleX.value(in: t) == 2)
    #expect(try TransformKeyPath.scaleY.value(in: t) == 3)
    #expect(try TransformKeyPath.scaleZ.value(in: t) == 4)
    #expect(try TransformKeyPath.scale.value(in: t) == 3)
    #expect(
      abs(try TransformKeyPath.rotationX.value(in: .makeRotation(by: 0.3, x: 1, y: 0, z: 0)) - 0.3)
        < 1e-15)
    #expect(
      abs(try TransformKeyPath.rotationY.value(in: .makeRotation(by: 0.4, x: 0, y: 1, z: 0)) - 0.4)
        < 1e-15)
    #expect(
      abs(try TransformKeyPath.rotationZ.value(in: .makeRotation(by: -2.5, x: 0, y: 0, z: 1)) + 2.5)
        < 1e-15)
    #expect(
      abs(try TransformKeyPath.rotation.value(in: .makeRotation(by: -2.5, x: 0, y: 0, z: 1)) + 2.5)
        < 1e-15)
    #expect(
      try TransformKeyPath.rotationX.value(in: .makeRotation(by: -2.5, x: 0, y: 0, z: 1)) == 0)
  }

  /// The Euler convention: Rx(α) · Ry(β) · Rz(γ) (row vectors, x applied first) reads back as
  /// (α, β, γ) for α, γ in (−π, π) and β in (−π/2, π/2); `rotation(eulerAngles:)` builds that matrix.
  @Test func eulerConvention() async {
    await propertyCheck(
      count: 200, input: Gen.double(in: -3.1...3.1), Gen.double(in: -1.5...1.5),
      Gen.double(in: -3.1...3.1)
    ) { a, b, c in
      let m = Self.euler(a, b, c)
      let e = TransformKeyPath.eulerAngles(of: Quaternion(rotationMatrix: m))
      #expect(abs(e.x - a) < 1e-9 && abs(e.y - b) < 1e-9 && abs(e.z - c) < 1e-9)
      let q = TransformKeyPath.rotation(eulerAngles: Vector3(x: a, y: b, z: c))
      #expect(Support.close(q.rotationMatrix, m, 1e-14))
    }
  }

  /// At gimbal lock (β = π/2) only α − γ is determined; the angles read still rebuild the matrix.
  @Test func gimbalLockRebuildsTheMatrix() {
    let m = Self.euler(0.3, Double.pi / 2, 0.2)
    let e = TransformKeyPath.eulerAngles(of: Quaternion(rotationMatrix: m))
    #expect(e.z == 0)
    #expect(abs(e.y - Double.pi / 2) < 1e-7)
    #expect(Support.close(Self.euler(e.x, e.y, e.z), m, 1e-7))
  }

  /// Writing, by hand: rotation.z = π/2 on the identity is Rz(π/2); transform.scale = 2 on
  /// Rz(0.5) · T(5, 0, 0) replaces the unit scales: S(2, 2, 2) · Rz(0.5) · T(5, 0, 0).
  @Test func writesComponents() throws {
    let spun = try TransformKeyPath.rotationZ.applying(Double.pi / 2, to: .identity)
    #expect(Support.close(spun, .makeRotation(by: Double.pi / 2, x: 0, y: 0, z: 1), 1e-15))
    let model =
      Transform3D.makeRotation(by: 0.5, x: 0, y: 0, z: 1)
      * Transform3D.makeTranslation(x: 5, y: 0, z: 0)
    let scaled = try TransformKeyPath.scale.applying(2, to: model)
    #expect(Support.close(scaled, Transform3D.makeScale(x: 2, y: 2, z: 2) * model, 1e-14))
    let moved = try TransformKeyPath.translationY.applying(-7, to: model)
    #expect(
      moved == Transform3D.makeRotation(by: 0.5, x: 0, y: 0, z: 1)
        * Transform3D.makeTranslation(x: 5, y: -7, z: 0))
  }

  /// The scalar animates through the whole turn: writing 2π·k/8 gives Rz(2π·k/8) — at k = 4 the
  /// half turn Rz(π) — unlike a matrix animation from identity to Rz(2π), which does not move.
  @Test func rotationKeyPathSpins() throws {
    for k in 0...8 {
      let angle = 2 * Double.pi * Double(k) / 8
      let m = try TransformKeyPath.rotation.applying(angle, to: .identity)
      #expect(Support.close(m, .makeRotation(by: angle, x: 0, y: 0, z: 1), 1e-14))
    }
  }

  /// Read-after-write round trips on random well-conditioned models: translations exactly, scales
  /// (positive values) and rotation angles (inside the Euler ranges, away from gimbal lock) to
  /// rounding; writing one Euler angle keeps the other two.
  @Test func readWriteRoundTrip() async {
    await propertyCheck(
      count: 150, input: Gen.double(in: 0...1).array(of: 16), Gen.double(in: 0...1)
    ) { u, v in
      let model = Support.Parts(u).matrix
      for path in [TransformKeyPath.translationX, .translationY, .translationZ] {
        let value = -400 + 800 * v
        #expect(try path.value(in: path.applying(value, to: model)) == value)
      }
      for path in [TransformKeyPath.scaleX, .scaleY, .scaleZ, .scale] {
        let value = 0.1 + 3 * v
        let written = try path.applying(value, to: model)
        #expect(abs(try path.value(in: written) - value) < 1e-9)
      }
      let before = TransformKeyPath.eulerAngles(
        of: Quaternion(rotationMatrix: Support.normalised(model)))
      guard abs(before.y) < 1.3 else { return }
      for path in [TransformKeyPath.rotationX, .rotationY, .rotationZ, .rotation] {
        let value = path == .rotationY ? -1.3 + 2.6 * v : -3.1 + 6.2 * v
        let written = try path.applying(value, to: model)
        #expect(abs(try path.value(in: written) - value) < 1e-9)
        let others: [TransformKeyPath] = [.rotationX, .rotationY, .rotationZ].filter {
          $0 != path && !(path == .rotation && $0 == .rotationZ)
        }
        for other in others {
          #expect(abs(try other.value(in: written) - other.value(in: model)) < 1e-9)
        }
      }
    }
  }

  /// Writes keep the homogeneous factor: the depth preset's T(0, 0, −150) · P(500) has m44 = 1.3;
  /// writing the scale it already has (1/1.3, see the decomposition test) and rotation 0 leaves it
  /// unchanged, so transform.translation.z still reads the stored −150.
  @Test func writesKeepTheHomogeneousFactor() throws {
    let model =
      Transform3D.makeTranslation(x: 0, y: 0, z: -150) * Transform3D.makePerspective(distance: 500)
    let sameScale = try TransformKeyPath.scale.applying(1 / 1.3, to: model)
    #expect(Support.close(sameScale, model, 1e-13))
    #expect(abs(try TransformKeyPath.translationZ.value(in: sameScale) - -150) < 1e-12)
    let sameRotation = try TransformKeyPath.rotationY.applying(0, to: model)
    #expect(Support.close(sameRotation, model, 1e-13))
  }

  /// Singular models use the best-effort decomposition. By hand: S(0, 0, 1) has row scales
  /// (0, 0, 1), so transform.scale reads 1/3, and writing 0.5 gives S(0.5, 0.5, 0.5).
  @Test func singularModelScale() throws {
    let model = Transform3D.makeScale(x: 0, y: 0, z: 1)
    #expect(abs(try TransformKeyPath.scale.value(in: model) - 1.0 / 3) < 1e-15)
    let written = try TransformKeyPath.scale.applying(0.5, to: model)
    #expect(Support.close(written, .makeScale(x: 0.5, y: 0.5, z: 0.5), 1e-15))
  }

  /// S(0, 1, 1) · Rz(0.5) · T(7, 8, 9): row 0 is zero, rows 1 and 2 are (−sin, cos, 0) and (0, 0, 1);
  /// completing the frame with their cross product (cos, sin, 0) recovers Rz(0.5). So rotation.z
  /// reads 0.5, scale.x reads 0, and writing scale.x = 1 gives Rz(0.5) · T(7, 8, 9).
  @Test func singularModelKeepsRotation() throws {
    let rz = Transform3D.makeRotation(by: 0.5, x: 0, y: 0, z: 1)
    let t = Transform3D.makeTranslation(x: 7, y: 8, z: 9)
    let model = Transform3D.makeScale(x: 0, y: 1, z: 1) * rz * t
    #expect(abs(try TransformKeyPath.rotationZ.value(in: model) - 0.5) < 1e-15)
    #expect(try TransformKeyPath.scaleX.value(in: model) == 0)
    let written = try TransformKeyPath.scaleX.applying(1, to: model)
    #expect(Support.close(written, rz * t, 1e-14))
  }

  /// A zero linear part reads scale 0 and rotation 0, and writing scale 1 gives the identity linear
  /// part with the translation kept.
  @Test func zeroLinearPart() throws {
    let model =
      Transform3D.makeScale(x: 0, y: 0, z: 0) * Transform3D.makeTranslation(x: 1, y: 2, z: 3)
    #expect(try TransformKeyPath.scale.value(in: model) == 0)
    #expect(try TransformKeyPath.rotationZ.value(in: model) == 0)
    #expect(try TransformKeyPath.scale.applying(1, to: model) == .makeTranslation(x: 1, y: 2, z: 3))
  }

  /// A NaN value is rejected on the key path's own name.
  @Test func rejectsNaNValue() {
    #expect(throws: ValidationError(field: "transform.scale.x", reason: .notFinite)) {
      try TransformKeyPath.scaleX.applying(.nan, to: .identity)
    }
  }

  /// An infinite value is rejected too.
  @Test func rejectsInfiniteValue() {
    #expect(throws: ValidationError(field: "transform.translation.x", reason: .notFinite)) {
      try TransformKeyPath.translationX.applying(.infinity, to: .identity)
    }
  }

  /// A model with a NaN field is rejected with the field's index, when reading and when writing.
  @Test func rejectsNonFiniteModel() {
    var model = Transform3D.identity
    model.m32 = .nan
    #expect(throws: ValidationError(field: "transform", index: 9, reason: .notFinite)) {
      try TransformKeyPath.rotationZ.value(in: model)
    }
    #expect(throws: ValidationError(field: "transform", index: 9, reason: .notFinite)) {
      try TransformKeyPath.translationX.applying(1, to: model)
    }
  }

  /// m44 = 0 has no decomposition: scale and rotation key paths reject it (index 15); translation
  /// key paths still read and write m41…m43.
  @Test func rejectsZeroM44ForDecomposedKeyPaths() throws {
    var model = Transform3D.identity
    model.m44 = 0
    #expect {
      try TransformKeyPath.scale.value(in: model)
    } throws: { error in
      guard let e = error as? ValidationError, case .invalidState = e.reason else { return false }
      return e.field == "transform" && e.index == 15
    }
    #expect(try TransformKeyPath.translationZ.applying(4, to: model).m43 == 4)
  }

  /// A NaN width for transform.translation names index 0.
  @Test func rejectsNaNTranslationWidth() {
    #expect(throws: ValidationError(field: "transform.translation", index: 0, reason: .notFinite)) {
      try TransformKeyPath.applyingTranslation(Size(width: .nan, height: 0), to: .identity)
    }
  }

  /// An infinite height for transform.translation names index 1.
  @Test func rejectsInfiniteTranslationHeight() {
    #expect(throws: ValidationError(field: "transform.translation", index: 1, reason: .notFinite)) {
      try TransformKeyPath.applyingTranslation(Size(width: 0, height: -.infinity), to: .identity)
    }
  }
}
