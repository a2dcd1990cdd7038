import Segue
import Testing

/// `AnimationSet`: order (a later animation of the same property wins), composition of different
/// properties, layers missing from the tree, `validate(against:)`, `endTime`, building and
/// appending.
@Suite("AnimationSet")
struct AnimationSetTests {
  static func tree() throws -> LayerTree {
    var tree = LayerTree()
    try tree.add(Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10), opacity: 1))
    try tree.add(Layer(id: "b", position: Point(x: 5, y: 5)), parent: "a")
    return tree
  }

  static func opacity(_ from: Double, _ to: Double, begin: Double = 0, duration: Double = 1)
    throws -> LayerAnimation
  {
    try LayerAnimation.basic(
      .opacity, from: .number(from), to: .number(to), beginTime: begin, duration: duration,
      fillMode: .removed)
  }

  /// An empty set presents the model unchanged and ends at 0.
  @Test func emptySet() throws {
    let set = AnimationSet()
    #expect(set.entries.isEmpty)
    #expect(set.endTime == 0)
    let model = try Self.tree()
    #expect(set.presentation(of: model, at: 0.5).layers == model.layers)
  }

  /// Two animations of `a.opacity` over [0, 1): 0 → 1 then 1 → 0. At 0.25 the later one shows,
  /// 1 − 0.25 = 0.75; in the other order 0.25.
  @Test func laterWins() throws {
    let up = try Self.opacity(0, 1)
    let down = try Self.opacity(1, 0)
    var set = AnimationSet()
    set.add(up, to: "a")
    set.add(down, to: "a")
    #expect(set.presentation(of: try Self.tree(), at: 0.25)[id: "a"]!.opacity == 0.75)
    let reversed = AnimationSet([
      .init(layerID: "a", animation: down), .init(layerID: "a", animation: up),
    ])
    #expect(reversed.presentation(of: try Self.tree(), at: 0.25)[id: "a"]!.opacity == 0.25)
  }

  /// Where the later animation has no effect (before its begin, fill removed), the earlier shows:
  /// 0 → 1 over [0, 1) and 1 → 0 over [0.5, 1.5); at 0.25 only the first is active (0.25), at
  /// 0.75 the second (1 − 0.25 = 0.75); at 3 neither: the model value 1.
  @Test func inactiveAnimationLetsEarlierShow() throws {
    var set = AnimationSet()
    set.add(try Self.opacity(0, 1), to: "a")
    set.add(try Self.opacity(1, 0, begin: 0.5), to: "a")
    let model = try Self.tree()
    #expect(set.presentation(of: model, at: 0.25)[id: "a"]!.opacity == 0.25)
    #expect(set.presentation(of: model, at: 0.75)[id: "a"]!.opacity == 0.75)
    #expect(set.presentation(of: model, at: 3)[id: "a"]!.opacity == 1)
  }

  /// Different properties and layers compose: `a.opacity` 0 → 1 and `b.position.x` 5 → 15 at
  /// 0.5 give 0.5 and 10, the rest of the model unchanged.
  @Test func differentPropertiesCompose() throws {
    var set = AnimationSet()
    set.add(try Self.opacity(0, 1), to: "a")
    set.add(
      try LayerAnimation.basic(.positionX, from: .number(5), to: .number(15), duration: 1), to: "b")
    let p = set.presentation(of: try Self.tree(), at: 0.5)
    #expect(p[id: "a"]!.opacity == 0.5)
    #expect(p[id: "b"]!.position == Point(x: 10, y: 5))
    #expect(p[id: "a"]!.bounds == Rect(x: 0, y: 0, width: 10, height: 10))
  }

  /// A sub-path animation after a whole-transform animation changes one component of the
  /// animated transform: transform T(0) → T(20, 0, 0) at ½ is T(10, 0, 0); then
  /// `transform.rotation.z` 0 → π at ½ is π/2, giving Rz(π/2) followed by T(10, 0, 0):
  /// m11 = 0, m12 = 1, m21 = −1, m22 = 0, m41 = 10.
  @Test func subPathAfterWholeTransform() throws {
    var set = AnimationSet()
    set.add(
      try LayerAnimation.basic(
        .transform, from: .transform(.identity),
        to: .transform(.makeTranslation(x: 20, y: 0, z: 0)),
        duration: 1), to: "a")
    set.add(
      try LayerAnimation.basic(
        .transformComponent(.rotationZ), from: .number(0), to: .number(.pi), duration: 1), to: "a")
    let m = set.presentation(of: try Self.tree(), at: 0.5)[id: "a"]!.transform
    let expected: [Double] = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1]
    for (x, y) in zip(m.fields, expected) { #expect(abs(x - y) < 1e-14) }
  }

  /// Animations of layers that are not in the tree are skipped; the others still apply.
  @Test func skipsMissingLayers() throws {
    var set = AnimationSet()
    set.add(try Self.opacity(0, 1), to: "b")
    set.add(try Self.opacity(0, 1), to: "a")
    var model = try Self.tree()
    try model.remove(id: "b")
    let p = set.presentation(of: model, at: 0.5)
    #expect(p.count == 1)
    #expect(p[id: "b"] == nil)
    #expect(p[id: "a"]!.opacity == 0.5)
  }

  /// `validate(against:)` passes when every layer exists.
  @Test func validatePasses() throws {
    var set = AnimationSet()
    set.add(try Self.opacity(0, 1), to: "a")
    set.add(try Self.opacity(0, 1), to: "b")
    try set.validate(against: try Self.tree())
    // The same set against a tree without "b" is rejected: the check looks at the layers.
    var tree = LayerTree()
    try tree.add(Layer(id: "a"))
    #expect(throws: ValidationError.self) { try set.validate(against: tree) }
  }

  /// An unknown layer is rejected on "animations.layer" with the entry's index.
  @Test func validateRejectsUnknownLayer() throws {
    var set = AnimationSet()
    set.add(try Self.opacity(0, 1), to: "a")
    set.add(try Self.opacity(0, 1), to: "ghost")
    #expect(
      throws: ValidationError(field: "animations.layer", index: 1, reason: .unknown("ghost"))
    ) {
      try set.validate(against: try Self.tree())
    }
  }

  /// Entries keep insertion order; `init(_:)` equals adding one by one; `append(contentsOf:)`
  /// puts the other set's entries after these, and they keep evaluating (later wins).
  @Test func buildingAndAppending() throws {
    let e1 = AnimationSet.Entry(layerID: "a", animation: try Self.opacity(0, 1))
    let e2 = AnimationSet.Entry(layerID: "b", animation: try Self.opacity(1, 0))
    let e3 = AnimationSet.Entry(layerID: "a", animation: try Self.opacity(1, 0.5))
    #expect(e1.layerID == "a")
    var first = AnimationSet([e1, e2])
    #expect(first.entries == [e1, e2])
    first.append(contentsOf: AnimationSet([e3]))
    #expect(first.entries == [e1, e2, e3])
    // e3 wins on a: 1 → 0.5 at ½ is 0.75; b: 1 → 0 at ½ is 0.5.
    let p = first.presentation(of: try Self.tree(), at: 0.5)
    #expect(p[id: "a"]!.opacity == 0.75)
    #expect(p[id: "b"]!.opacity == 0.5)
  }

  /// With a time offset the local clock starts ahead: a 2 s animation beginning at 1 with
  /// timeOffset 0.5 reaches its end when (t − 1) + 0.5 = 2, at t = 2.5 (by hand). Running
  /// backwards (speed −1) it never ends in parent time and is skipped.
  @Test func endTimeWithOffsetAndReverseSpeed() throws {
    var set = AnimationSet()
    let offset = MediaTiming(beginTime: 1, duration: 2, timeOffset: 0.5)
    set.add(
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: offset),
      to: "a")
    #expect(set.endTime == 2.5)
    let backwards = MediaTiming(beginTime: 1, duration: 5, speed: -1)
    set.add(
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: backwards),
      to: "a")
    #expect(set.endTime == 2.5)
  }

  /// `endTime` is the latest end of an active interval (forward speed, no time offset):
  /// [0.5, 1.5) ends at 1.5; a 2 s animation at speed 2 beginning at 1 ends at 2 (its local time
  /// (t − 1)·2 reaches 2 at t = 2); repeating 3 times × 1 s from 0 ends at 3; an infinite repeat
  /// and a frozen (speed 0) animation are ignored.
  @Test func endTime() throws {
    var set = AnimationSet()
    set.add(try Self.opacity(0, 1, begin: 0.5), to: "a")
    #expect(set.endTime == 1.5)

    var fast = MediaTiming(beginTime: 1, duration: 2, speed: 2)
    fast.fillMode = .both
    set.add(
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: fast),
      to: "a")
    #expect(set.endTime == 2)

    var repeated = MediaTiming(duration: 1)
    repeated.repeatCount = 3
    set.add(
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: repeated),
      to: "a")
    #expect(set.endTime == 3)

    var forever = MediaTiming(duration: 1)
    forever.repeatCount = .infinity
    set.add(
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: forever),
      to: "a")
    var frozen = MediaTiming(beginTime: 10, duration: 1, speed: 0)
    frozen.fillMode = .both
    set.add(
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: frozen),
      to: "a")
    #expect(set.endTime == 3)
  }
}

/// Chained animations of one property: x 0 → 100 over [0, 0.5), then 100 → 200 over [0.5, 1),
/// both linear and filling backwards (as `SceneBuilder.animate` adds them). Each shows its own
/// curve in its interval: at 0.25 the first gives 0 + 100·0.5 = 50 (the second's backwards fill
/// must not cover it), at 0.75 the second gives 100 + 100·0.5 = 150.
@Suite("AnimationSet chaining")
struct AnimationSetChainingTests {
  @Test func chainedAnimationsShowEachCurveInItsInterval() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "a", bounds: Rect(x: 0, y: 0, width: 10, height: 10)))
    var set = AnimationSet()
    set.add(
      try .basic(
        .positionX, from: .number(0), to: .number(100), duration: 0.5, fillMode: .backwards),
      to: "a")
    set.add(
      try .basic(
        .positionX, from: .number(100), to: .number(200), beginTime: 0.5, duration: 0.5,
        fillMode: .backwards), to: "a")
    #expect(set.presentation(of: tree, at: 0.25)[id: "a"]?.position.x == 50)
    #expect(set.presentation(of: tree, at: 0.75)[id: "a"]?.position.x == 150)
    // Before the first begins (it starts at 0, so use a delayed copy): the first's fill shows.
    var delayed = AnimationSet()
    delayed.add(
      try .basic(
        .positionX, from: .number(0), to: .number(100), beginTime: 0.2, duration: 0.3,
        fillMode: .backwards), to: "a")
    delayed.add(
      try .basic(
        .positionX, from: .number(100), to: .number(200), beginTime: 0.5, duration: 0.5,
        fillMode: .backwards), to: "a")
    #expect(delayed.presentation(of: tree, at: 0.1)[id: "a"]?.position.x == 0)
  }
}
