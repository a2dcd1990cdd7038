import PropertyBased
import Segue
import Testing

private func near(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ tolerance: Double = 1e-12) -> Bool {
  (0..<4).allSatisfy { abs(a[$0] - b[$0]) <= tolerance }
}

/// The scalar reference rules: over, add, cross-dissolve, opacity groups, and the 8-bit rules
/// with their rounding, all by hand.
@Suite("Blend reference rules")
struct BlendTests {
  /// Half-transparent red (0.5, 0, 0, 0.5) over opaque blue at o = 1:
  /// (0.5, 0, 0, 0.5) + (1 − 0.5)·(0, 0, 1, 1) = (0.5, 0, 0.5, 1).
  /// At o = 0.5 the source is (0.25, 0, 0, 0.25): + 0.75·blue = (0.25, 0, 0.75, 1).
  @Test func overByHand() throws {
    let red = SIMD4<Double>(0.5, 0, 0, 0.5)
    let blue = SIMD4<Double>(0, 0, 1, 1)
    #expect(try Blend.over(red, onto: blue) == SIMD4(0.5, 0, 0.5, 1))
    #expect(try Blend.over(red, onto: blue, opacity: 0.5) == SIMD4(0.25, 0, 0.75, 1))
  }

  /// o = 0 leaves the destination; an opaque source at o = 1 replaces it; over transparent black
  /// the result is src·o: (0.2, 0.4, 0.6, 0.8)·0.25 = (0.05, 0.1, 0.15, 0.2).
  @Test func overIdentities() throws {
    let s = SIMD4<Double>(0.2, 0.4, 0.6, 0.8)
    let d = SIMD4<Double>(0.1, 0.2, 0.3, 0.9)
    #expect(try Blend.over(s, onto: d, opacity: 0) == d)
    #expect(try Blend.over(SIMD4(0.3, 0.2, 0.1, 1), onto: d) == SIMD4(0.3, 0.2, 0.1, 1))
    #expect(near(try Blend.over(s, onto: .zero, opacity: 0.25), SIMD4(0.05, 0.1, 0.15, 0.2)))
  }

  /// add: (0.2, 0.1, 0, 0.3) + 0.5·(0.4, 0.4, 0.4, 0.4) = (0.4, 0.3, 0.2, 0.5), unclamped:
  /// white + white = 2.
  @Test func addByHand() throws {
    let r = try Blend.add(SIMD4(0.4, 0.4, 0.4, 0.4), onto: SIMD4(0.2, 0.1, 0, 0.3), opacity: 0.5)
    #expect(near(r, SIMD4(0.4, 0.3, 0.2, 0.5)))
    #expect(try Blend.add(SIMD4(repeating: 1), onto: SIMD4(repeating: 1)) == SIMD4(repeating: 2))
  }

  /// Cross-dissolve red → blue at q = 0.25: 0.75·red + 0.25·blue = (0.75, 0, 0.25, 1); the ends
  /// are the inputs; the midpoint is (0.5, 0, 0.5, 1), opaque.
  @Test func crossDissolveByHand() throws {
    let red = SIMD4<Double>(1, 0, 0, 1)
    let blue = SIMD4<Double>(0, 0, 1, 1)
    #expect(try Blend.crossDissolve(red, blue, fraction: 0.25) == SIMD4(0.75, 0, 0.25, 1))
    #expect(try Blend.crossDissolve(red, blue, fraction: 0.5) == SIMD4(0.5, 0, 0.5, 1))
    #expect(try Blend.crossDissolve(red, blue, fraction: 0) == red)
    #expect(try Blend.crossDissolve(red, blue, fraction: 1) == blue)
  }

  /// Two overlapping opaque red members in a group of opacity 0.5 over transparent black: the
  /// overlap is red at 0.5, (0.5, 0, 0, 0.5). Drawn separately at 0.5 each:
  /// first (0.5, 0, 0, 0.5), then (0.5, 0, 0, 0.5) + 0.5·that = (0.75, 0, 0, 0.75).
  /// A group of two "add" members at 0.5 (a cross-dissolve) over white gives red/blue
  /// (0.5, 0, 0.5, 1), opaque, hiding the white.
  @Test func groupOpacityByHand() throws {
    let red = SIMD4<Double>(1, 0, 0, 1)
    let members = [Blend.GroupMember(color: red), Blend.GroupMember(color: red)]
    #expect(try Blend.group(members, opacity: 0.5, onto: .zero) == SIMD4(0.5, 0, 0, 0.5))
    let first = try Blend.over(red, onto: .zero, opacity: 0.5)
    #expect(try Blend.over(red, onto: first, opacity: 0.5) == SIMD4(0.75, 0, 0, 0.75))
    let dissolve = [
      Blend.GroupMember(color: red, opacity: 0.5, mode: .add),
      Blend.GroupMember(color: SIMD4(0, 0, 1, 1), opacity: 0.5, mode: .add),
    ]
    #expect(
      try Blend.group(dissolve, opacity: 1, onto: SIMD4(repeating: 1)) == SIMD4(0.5, 0, 0.5, 1))
  }

  /// Opacity bytes: round(255·o) with ties away: 0.5 → 127.5 → 128; 0.2 → 51; 1 → 255.
  /// Dissolve weights: round(256·q): 0.5 → 128, 0.3 → 76.8 → 77, 1 → 256.
  @Test func quantisedOpacityAndWeight() throws {
    #expect(try Blend.opacityByte(0.5) == 128)
    #expect(try Blend.opacityByte(0.2) == 51)
    #expect(try Blend.opacityByte(1) == 255)
    #expect(try Blend.opacityByte(0) == 0)
    #expect(try Blend.dissolveWeight(0.5) == 128)
    #expect(try Blend.dissolveWeight(0.3) == 77)
    #expect(try Blend.dissolveWeight(1) == 256)
  }

  /// 8-bit over by hand. s = (128, 0, 0, 128), d = opaque blue (0, 0, 255, 255):
  /// o = 255: s′ = s; B = 0 + ⟦255·127/255⟧ = 127; A = 128 + 127 = 255 → (128, 0, 127, 255).
  /// o = 128: s′_R = s′_A = ⟦128·128/255⟧ = ⟦64.25⟧ = 64; B = ⟦255·191/255⟧ = 191;
  /// A = 64 + 191 = 255 → (64, 0, 191, 255).
  /// o = 0 returns d.
  @Test func overRGBA8ByHand() {
    let s = SIMD4<UInt8>(128, 0, 0, 128)
    let d = SIMD4<UInt8>(0, 0, 255, 255)
    #expect(Blend.overRGBA8(s, onto: d, opacity: 255) == SIMD4(128, 0, 127, 255))
    #expect(Blend.overRGBA8(s, onto: d, opacity: 128) == SIMD4(64, 0, 191, 255))
    #expect(Blend.overRGBA8(s, onto: d, opacity: 0) == d)
    // d = (10, 20, 30, 40), s = (1, 2, 3, 4), o = 255: inverse alpha 251;
    // ⟦10·251/255⟧ = ⟦9.84⟧ = 10, ⟦20·251/255⟧ = ⟦19.69⟧ = 20, ⟦30·251/255⟧ = ⟦29.53⟧ = 30,
    // ⟦40·251/255⟧ = ⟦39.37⟧ = 39 → (11, 22, 33, 43).
    #expect(
      Blend.overRGBA8(SIMD4(1, 2, 3, 4), onto: SIMD4(10, 20, 30, 40), opacity: 255)
        == SIMD4(11, 22, 33, 43))
  }

  /// Invalid premultiplied input (colour above alpha) saturates: s = (255, 0, 0, 0) over white:
  /// R = 255 + 255 = 510 → 255, the rest 0 + 255.
  @Test func overRGBA8Saturates() {
    let r = Blend.overRGBA8(SIMD4(255, 0, 0, 0), onto: SIMD4(repeating: 255), opacity: 255)
    #expect(r == SIMD4(repeating: 255))
  }

  /// 8-bit cross-dissolve: red/blue at k = 128 is (127.5, 0, 127.5, 255) rounded up →
  /// (128, 0, 128, 255). At k = 64 (q = 0.25): R = ⌊(255·192 + 128)/256⌋ = ⌊191.75⌋ = 191
  /// (exact 191.25), B = ⌊(255·64 + 128)/256⌋ = ⌊64.25⌋ = 64 (exact 63.75); A stays 255.
  @Test func crossDissolveRGBA8ByHand() {
    let red = SIMD4<UInt8>(255, 0, 0, 255)
    let blue = SIMD4<UInt8>(0, 0, 255, 255)
    #expect(Blend.crossDissolveRGBA8(red, blue, weight: 128) == SIMD4(128, 0, 128, 255))
    #expect(Blend.crossDissolveRGBA8(red, blue, weight: 64) == SIMD4(191, 0, 64, 255))
    #expect(Blend.crossDissolveRGBA8(red, blue, weight: 0) == red)
    #expect(Blend.crossDissolveRGBA8(red, blue, weight: 256) == blue)
  }

  /// The staged 8-bit rule against the unrounded Double formula
  /// ⟦255·(s/255·o/255 + (1 − s_A/255·o/255)·d/255)⟧: equal at o = 255 and within 1 otherwise,
  /// for valid premultiplied sources (s ≤ s_A). (numpy over all 256³ (s, s_A, d) at o ∈ {255,
  /// 192, 128, 51, 1} found the maximum difference 0 at o = 255 and 1 elsewhere.)
  @Test func staged8BitRuleStaysWithinOneOfExact() async {
    await propertyCheck(
      count: 300, input: Gen.int(in: 0...255).array(of: 4), Gen.int(in: 0...255)
    ) { v, o in
      let alpha = v[0]
      let colour = Swift.min(v[1], alpha)
      let d = v[2]
      let s = SIMD4<UInt8>(UInt8(colour), 0, 0, UInt8(alpha))
      let dst = SIMD4<UInt8>(UInt8(d), 0, 0, 255)
      for opacity in [255, o] {
        let r = Blend.overRGBA8(s, onto: dst, opacity: UInt8(opacity))
        let f = Double(opacity) / 255
        let exact =
          255 * (Double(colour) / 255 * f + (1 - Double(alpha) / 255 * f) * Double(d) / 255)
        let rounded = Int((exact + 0.5).rounded(.down))
        if opacity == 255 {
          #expect(Int(r[0]) == rounded)
        } else {
          #expect(abs(Int(r[0]) - rounded) <= 1)
        }
      }
    }
  }

  /// Valid premultiplied inputs give a valid output and the alpha rule
  /// α = α_s·o + α_d − α_s·o·α_d.
  @Test func overKeepsPremultipliedValidity() async {
    await propertyCheck(count: 300, input: Gen.double(in: 0...1).array(of: 9)) { v in
      let s = SIMD4(v[0] * v[3], v[1] * v[3], v[2] * v[3], v[3])
      let d = SIMD4(v[4] * v[7], v[5] * v[7], v[6] * v[7], v[7])
      let o = v[8]
      let r = try Blend.over(s, onto: d, opacity: o)
      #expect(abs(r[3] - (s[3] * o + d[3] - s[3] * o * d[3])) < 1e-12)
      for c in 0..<3 { #expect(r[c] >= 0 && r[c] <= r[3] + 1e-12) }
      #expect(r[3] <= 1 + 1e-12)
    }
  }

  // MARK: Rejected input, one test per condition

  @Test func overRejectsNonFiniteSource() {
    #expect(throws: ValidationError(field: "source", index: 2, reason: .notFinite)) {
      try Blend.over(SIMD4(0, 0, .nan, 1), onto: .zero)
    }
  }

  @Test func overRejectsNonFiniteDestination() {
    #expect(throws: ValidationError(field: "destination", index: 3, reason: .notFinite)) {
      try Blend.over(.zero, onto: SIMD4(0, 0, 0, .infinity))
    }
  }

  @Test func overRejectsNaNOpacity() {
    #expect(throws: ValidationError(field: "opacity", reason: .notFinite)) {
      try Blend.over(.zero, onto: .zero, opacity: .nan)
    }
  }

  @Test func overRejectsOpacityOutOfRange() {
    #expect(throws: ValidationError(field: "opacity", reason: .outOfRange(lower: 0, upper: 1))) {
      try Blend.over(.zero, onto: .zero, opacity: 1.5)
    }
  }

  @Test func addRejectsNegativeOpacity() {
    #expect(throws: ValidationError(field: "opacity", reason: .outOfRange(lower: 0, upper: 1))) {
      try Blend.add(.zero, onto: .zero, opacity: -0.1)
    }
  }

  @Test func addRejectsNonFiniteSource() {
    #expect(throws: ValidationError(field: "source", index: 0, reason: .notFinite)) {
      try Blend.add(SIMD4(.nan, 0, 0, 0), onto: .zero)
    }
  }

  @Test func crossDissolveRejectsNonFiniteFrom() {
    #expect(throws: ValidationError(field: "from", index: 1, reason: .notFinite)) {
      try Blend.crossDissolve(SIMD4(0, -.infinity, 0, 0), .zero, fraction: 0.5)
    }
  }

  @Test func crossDissolveRejectsNonFiniteTo() {
    #expect(throws: ValidationError(field: "to", index: 0, reason: .notFinite)) {
      try Blend.crossDissolve(.zero, SIMD4(.nan, 0, 0, 0), fraction: 0.5)
    }
  }

  @Test func crossDissolveRejectsFractionOutOfRange() {
    #expect(throws: ValidationError(field: "fraction", reason: .outOfRange(lower: 0, upper: 1))) {
      try Blend.crossDissolve(.zero, .zero, fraction: 2)
    }
  }

  @Test func groupRejectsNonFiniteMemberColour() {
    let members = [Blend.GroupMember(color: .zero), Blend.GroupMember(color: SIMD4(.nan, 0, 0, 0))]
    #expect(throws: ValidationError(field: "members.color", index: 1, reason: .notFinite)) {
      try Blend.group(members, opacity: 1, onto: .zero)
    }
  }

  @Test func groupRejectsMemberOpacityOutOfRange() {
    let members = [Blend.GroupMember(color: .zero, opacity: 3)]
    let error = ValidationError(
      field: "members.opacity", index: 0, reason: .outOfRange(lower: 0, upper: 1))
    #expect(throws: error) { try Blend.group(members, opacity: 1, onto: .zero) }
  }

  @Test func groupRejectsGroupOpacityOutOfRange() {
    #expect(throws: ValidationError(field: "opacity", reason: .outOfRange(lower: 0, upper: 1))) {
      try Blend.group([], opacity: -1, onto: .zero)
    }
  }

  @Test func groupRejectsNonFiniteDestination() {
    #expect(throws: ValidationError(field: "destination", index: 0, reason: .notFinite)) {
      try Blend.group([], opacity: 1, onto: SIMD4(.nan, 0, 0, 0))
    }
  }

  @Test func opacityByteRejectsOutOfRange() {
    #expect(throws: ValidationError(field: "opacity", reason: .outOfRange(lower: 0, upper: 1))) {
      try Blend.opacityByte(1.01)
    }
  }

  @Test func dissolveWeightRejectsNaN() {
    #expect(throws: ValidationError(field: "fraction", reason: .notFinite)) {
      try Blend.dissolveWeight(.nan)
    }
  }

  /// The blend mode strings are the samples' `"blend"` values.
  @Test func blendModeRawValues() {
    #expect(BlendMode.over.rawValue == "over" && BlendMode.add.rawValue == "add")
    #expect(BlendMode(rawValue: "add") == .add && BlendMode(rawValue: "plus") == nil)
  }
}
