import Segue
import Testing

/// `KeyframeBuilder`: UIView keyframe construction (transition catalog: UIView keyframe
/// animations), with `fade-slide`'s keyframes.
@Suite("KeyframeBuilder")
struct KeyframeBuilderTests {
  static let width = 390.0

  /// fade-slide push (the transition catalog): to opacity starts at 1 (a new view), from at 1; to x
  /// starts at +W, from x at 0. Keyframe A (0, 0.5): to opacity → 1, from opacity → 0. Keyframe B
  /// (0, 1): to x → 0, from x → −W. Cubic mode. The UIView keyframe rule by hand: to opacity: (0,
  /// 1); A starts at 0, not after 0, no hold; (0.5, 1); then (1, 1) → [1, 1, 1] at [0, 0.5, 1].
  /// from opacity → [1, 0, 0]. x tracks: (0, start), (1, end).
  @Test func fadeSlidePush() throws {
    var builder = try KeyframeBuilder<Double>(
      startValues: ["to.opacity": 1, "from.opacity": 1, "to.x": Self.width, "from.x": 0],
      calculationMode: .cubic)
    try builder.addKeyframe(
      relativeStartTime: 0, relativeDuration: 0.5, changes: ["to.opacity": 1, "from.opacity": 0])
    try builder.addKeyframe(
      relativeStartTime: 0, relativeDuration: 1, changes: ["to.x": 0, "from.x": -Self.width])
    let tracks = try builder.tracks()
    #expect(Set(tracks.keys) == ["to.opacity", "from.opacity", "to.x", "from.x"])
    #expect(tracks["to.opacity"]?.values == [1, 1, 1])
    #expect(tracks["to.opacity"]?.keyTimes == [0, 0.5, 1])
    #expect(tracks["from.opacity"]?.values == [1, 0, 0])
    #expect(tracks["from.opacity"]?.keyTimes == [0, 0.5, 1])
    #expect(tracks["to.x"]?.values == [Self.width, 0])
    #expect(tracks["to.x"]?.keyTimes == [0, 1])
    #expect(tracks["from.x"]?.values == [0, -Self.width])
    #expect(tracks["from.x"]?.keyTimes == [0, 1])
    for track in tracks.values {
      #expect(track.calculationMode == .cubic)
      #expect(track.timingFunction == nil && track.timingFunctions == nil)
    }
  }

  /// fade-slide pop: to opacity 0 → [0, 1, 1] at [0, 0.5, 1]; from opacity is set in B →
  /// [1, 0] at [0, 1]; from x [0, W]; to x [−W, 0]. The cubic to-opacity track overshoots in
  /// the flat half: m₁ = (1 − 0)/2, m₂ = 0, so at u = 0.75: 0.5 + 0.0625 + 0.5 = 1.0625.
  /// The x track (two keys, tangents W/2 at both ends): at u = 0.5, −W + W·(h01 + (h10 + h11)/2)
  /// = −W + W·(0.5 + 0) = −W/2.
  @Test func fadeSlidePop() throws {
    var builder = try KeyframeBuilder<Double>(
      startValues: ["to.opacity": 0, "from.opacity": 1, "to.x": -Self.width, "from.x": 0],
      calculationMode: .cubic)
    try builder.addKeyframe(relativeStartTime: 0, relativeDuration: 0.5, changes: ["to.opacity": 1])
    try builder.addKeyframe(
      relativeStartTime: 0, relativeDuration: 1,
      changes: ["to.x": 0, "from.x": Self.width, "from.opacity": 0])
    let tracks = try builder.tracks()
    #expect(tracks["to.opacity"]?.values == [0, 1, 1])
    #expect(tracks["to.opacity"]?.keyTimes == [0, 0.5, 1])
    #expect(tracks["from.opacity"]?.values == [1, 0])
    #expect(tracks["from.opacity"]?.keyTimes == [0, 1])
    #expect(tracks["from.x"]?.values == [0, Self.width])
    #expect(tracks["to.x"]?.values == [-Self.width, 0])
    #expect(tracks["to.opacity"]?.value(at: 0.75) == 1.0625)
    #expect(tracks["to.x"]?.value(at: 0.5) == -Self.width / 2)
  }

  /// Gaps get hold keys: start 0; (0.25, 0.25) → 5; (0.75, 0.25) → 7:
  /// (0, 0), hold (0.25, 0), (0.5, 5), hold (0.75, 5), (1, 7). Linear mode at 0.625 holds 5.
  @Test func holdKeysFillGaps() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["v": 0])
    try builder.addKeyframe(relativeStartTime: 0.75, relativeDuration: 0.25, changes: ["v": 7])
    try builder.addKeyframe(relativeStartTime: 0.25, relativeDuration: 0.25, changes: ["v": 5])
    let keys = try #require(builder.keys(for: "v"))
    #expect(keys.keyTimes == [0, 0.25, 0.5, 0.75, 1])
    #expect(keys.values == [0, 0, 5, 5, 7])
    let track = try #require(try builder.tracks()["v"])
    #expect(track.value(at: 0.625) == 5)
    #expect(track.value(at: 0.375) == 2.5)
  }

  /// A last keyframe ending before 1 gets a final hold: (0.2, 0.3) → 1 gives (0, 0), (0.2, 0),
  /// (0.5, 1), (1, 1).
  @Test func finalHoldKey() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["v": 0])
    try builder.addKeyframe(relativeStartTime: 0.2, relativeDuration: 0.3, changes: ["v": 1])
    let keys = try #require(builder.keys(for: "v"))
    #expect(keys.keyTimes == [0, 0.2, 0.5, 1])
    #expect(keys.values == [0, 0, 1, 1])
  }

  /// Touching keyframes do not overlap: (0, 0.5) → 1 then (0.5, 0.5) → 2 gives
  /// (0, 0), (0.5, 1), (1, 2) with no hold at 0.5 (not after the previous key).
  @Test func touchingKeyframesChain() throws {
    var builder = try KeyframeBuilder<Point>(startValues: ["p": .zero])
    try builder.addKeyframe(
      relativeStartTime: 0.5, relativeDuration: 0.5, changes: ["p": Point(x: 2, y: 2)])
    try builder.addKeyframe(
      relativeStartTime: 0, relativeDuration: 0.5, changes: ["p": Point(x: 1, y: 1)])
    let keys = try #require(builder.keys(for: "p"))
    #expect(keys.keyTimes == [0, 0.5, 1])
    #expect(keys.values == [.zero, Point(x: 1, y: 1), Point(x: 2, y: 2)])
  }

  /// An instantaneous keyframe at the start of a longer one, added after it, is ordered first
  /// so key times never decrease: (0.2, 0.6) → 5 then (0.2, 0) → 3 gives (0, 0), (0.2, 0),
  /// (0.2, 3), (0.8, 5), (1, 5). Linear: at 0.2 the jump to 3 has happened; at 0.5, 4.
  @Test func instantAtTheStartOfAnInterval() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["v": 0])
    try builder.addKeyframe(relativeStartTime: 0.2, relativeDuration: 0.6, changes: ["v": 5])
    try builder.addKeyframe(relativeStartTime: 0.2, relativeDuration: 0, changes: ["v": 3])
    let keys = try #require(builder.keys(for: "v"))
    #expect(keys.keyTimes == [0, 0.2, 0.2, 0.8, 1])
    #expect(keys.values == [0, 0, 3, 5, 5])
    let track = try #require(try builder.tracks()["v"])
    #expect(track.value(at: 0.2) == 3)
    #expect(track.value(at: 0.5) == 4)
  }

  /// 0.7 + 0.3 rounds to 1 within the tolerance and is accepted; properties no keyframe sets
  /// get no track.
  @Test func roundingToleranceAndUntouchedProperties() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["a": 0, "b": 1])
    try builder.addKeyframe(relativeStartTime: 0.7, relativeDuration: 0.3, changes: ["a": 1])
    let tracks = try builder.tracks()
    #expect(tracks["b"] == nil)
    #expect(tracks["a"]?.keyTimes?.last == 1)
    #expect(builder.keys(for: "b") == nil)
  }

  // MARK: rejected input, one condition each

  @Test func rejectsNonFiniteStartValue() {
    #expect(throws: ValidationError(field: "startValues.a", reason: .notFinite)) {
      try KeyframeBuilder<Double>(startValues: ["a": .nan])
    }
  }

  @Test func rejectsStartTimeOutOfRange() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["a": 0])
    #expect(
      throws: ValidationError(
        field: "relativeStartTime", index: 0, reason: .outOfRange(lower: 0, upper: 1))
    ) {
      try builder.addKeyframe(relativeStartTime: -0.1, relativeDuration: 0.5, changes: ["a": 1])
    }
  }

  @Test func rejectsNaNStartTime() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["a": 0])
    #expect(throws: ValidationError(field: "relativeStartTime", index: 0, reason: .notFinite)) {
      try builder.addKeyframe(relativeStartTime: .nan, relativeDuration: 0.5, changes: ["a": 1])
    }
  }

  @Test func rejectsDurationOutOfRange() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["a": 0])
    #expect(
      throws: ValidationError(
        field: "relativeDuration", index: 0, reason: .outOfRange(lower: 0, upper: 1))
    ) {
      try builder.addKeyframe(relativeStartTime: 0, relativeDuration: 1.5, changes: ["a": 1])
    }
  }

  @Test func rejectsStartPlusDurationAboveOne() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["a": 0])
    #expect(
      throws: ValidationError(
        field: "relativeDuration", index: 0, reason: .outOfRange(lower: 0, upper: 0.4))
    ) {
      try builder.addKeyframe(relativeStartTime: 0.6, relativeDuration: 0.5, changes: ["a": 1])
    }
    #expect(builder.keyframes.isEmpty)
  }

  @Test func rejectsUnknownProperty() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["a": 0])
    #expect(throws: ValidationError(field: "changes.b", index: 0, reason: .unknown("b"))) {
      try builder.addKeyframe(relativeStartTime: 0, relativeDuration: 1, changes: ["b": 1])
    }
  }

  @Test func rejectsNonFiniteNewValue() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["a": 0])
    #expect(throws: ValidationError(field: "changes.a", index: 0, reason: .notFinite)) {
      try builder.addKeyframe(relativeStartTime: 0, relativeDuration: 1, changes: ["a": .infinity])
    }
  }

  /// (0, 0.6) and (0.5, 0.5) both set "a": the open intervals (0, 0.6) and (0.5, 1) intersect.
  @Test func rejectsOverlappingKeyframes() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["a": 0, "b": 0])
    try builder.addKeyframe(relativeStartTime: 0, relativeDuration: 0.6, changes: ["a": 1])
    // A different property may overlap.
    try builder.addKeyframe(relativeStartTime: 0.5, relativeDuration: 0.5, changes: ["b": 1])
    #expect(throws: ValidationError(field: "keyframes.a", index: 2, reason: .overlapping)) {
      try builder.addKeyframe(relativeStartTime: 0.5, relativeDuration: 0.5, changes: ["a": 2])
    }
  }

  /// An instantaneous keyframe strictly inside another's interval on the same property.
  @Test func rejectsInstantInsideAnInterval() throws {
    var builder = try KeyframeBuilder<Double>(startValues: ["a": 0])
    try builder.addKeyframe(relativeStartTime: 0.2, relativeDuration: 0.6, changes: ["a": 1])
    #expect(throws: ValidationError(field: "keyframes.a", index: 1, reason: .overlapping)) {
      try builder.addKeyframe(relativeStartTime: 0.5, relativeDuration: 0, changes: ["a": 2])
    }
  }
}
