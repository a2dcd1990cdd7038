import Segue
import Testing

/// `Animation`: construction (`init`, `basic`) and one test per rejected input of `validate()`.
@Suite("Animation")
struct AnimationTests {
  static func timing(duration: Double = 1) -> MediaTiming {
    MediaTiming(duration: duration, fillMode: .both)
  }

  static func spring() throws -> DampedSpring {
    try DampedSpring(mass: 1, stiffness: 100, damping: 20)
  }

  /// `basic` fills in beginTime, duration, fill mode (default both) and the timing function.
  @Test func basicFactory() throws {
    let a = try LayerAnimation.basic(
      .opacity, from: .number(0), to: .number(1), beginTime: 0.5, duration: 2,
      timingFunction: .easeIn, fillMode: .backwards)
    #expect(a.property == .opacity)
    #expect(a.content == .basic(from: .number(0), to: .number(1)))
    #expect(
      a.timing == MediaTiming(beginTime: 0.5, duration: 2, fillMode: .backwards))
    #expect(a.timingFunction == .easeIn)

    let d = try LayerAnimation.basic(.opacity, from: .number(0), to: .number(1), duration: 1)
    #expect(d.timing == MediaTiming(beginTime: 0, duration: 1, fillMode: .both))
    #expect(d.timingFunction == nil)
  }

  /// The memberwise initialiser keeps its fields, for every kind of content.
  @Test func initKeepsFields() throws {
    let spring = try Self.spring()
    let track = try KeyframeTrack<Point>(values: [.zero, Point(x: 1, y: 1)])
    let contents: [(LayerProperty, LayerAnimation.Content)] = [
      (.position, .basic(from: .point(.zero), to: .point(Point(x: 1, y: 2)))),
      (.position, .keyframes(.points(track))),
      (.positionX, .spring(spring, from: .number(0), to: .number(5))),
    ]
    for (property, content) in contents {
      let a = try LayerAnimation(
        property: property, content: content, timing: Self.timing(), timingFunction: .easeOut)
      #expect(a.property == property)
      #expect(a.content == content)
      #expect(a.timing == Self.timing())
      #expect(a.timingFunction == .easeOut)
      try a.validate()
    }
  }

  /// `KeyframeValues` reports the kind of its track and evaluates it: two keys a → b, linear, at
  /// u = ¼ give a + (b − a)/4, channel by channel (transforms by decomposition: I → T(8, 0, 0) is
  /// T(2, 0, 0)).
  @Test func keyframeValuesKindsAndValues() throws {
    let cases: [(KeyframeValues, AnimationValue.Kind, AnimationValue)] = [
      (.numbers(try KeyframeTrack(values: [0.0, 8])), .number, .number(2)),
      (
        .points(try KeyframeTrack(values: [Point.zero, Point(x: 8, y: -4)])), .point,
        .point(Point(x: 2, y: -1))
      ),
      (
        .sizes(try KeyframeTrack(values: [Size.zero, Size(width: 4, height: 8)])), .size,
        .size(Size(width: 1, height: 2))
      ),
      (
        .rects(try KeyframeTrack(values: [Rect.zero, Rect(x: 4, y: 8, width: 12, height: 16)])),
        .rect, .rect(Rect(x: 1, y: 2, width: 3, height: 4))
      ),
      (
        .transforms(
          try KeyframeTrack(values: [Transform3D.identity, .makeTranslation(x: 8, y: 0, z: 0)])),
        .transform, .transform(.makeTranslation(x: 2, y: 0, z: 0))
      ),
      (
        .colors(try KeyframeTrack(values: [RGBAColor.clear, .white])), .color,
        .color(try RGBAColor(red: 0.25, green: 0.25, blue: 0.25, alpha: 0.25))
      ),
    ]
    for (values, kind, quarter) in cases {
      #expect(values.kind == kind)
      let value = values.value(at: 0.25)
      if case .transform(let m) = value, case .transform(let e) = quarter {
        // The 2D path lerps the angle 2π → 2π (CSS turns a 0 angle into 360°), which leaves a
        // rounding residue of sin 2π ≈ −2.4e-16 in m12, m21.
        #expect(zip(m.fields, e.fields).allSatisfy { abs($0 - $1) < 1e-15 })
      } else {
        #expect(value == quarter, "\(kind)")
      }
    }
  }

  /// Duration 0 is rejected (an animation here must last; CA's 0 → 0.25 s default is
  /// `MediaTiming.resolvedForAnimation`, applied by the caller).
  @Test func rejectsZeroDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notPositive)) {
      try LayerAnimation.basic(.opacity, from: .number(0), to: .number(1), duration: 0)
    }
  }

  /// A negative duration is rejected (by the media timing check).
  @Test func rejectsNegativeDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .negative)) {
      try LayerAnimation.basic(.opacity, from: .number(0), to: .number(1), duration: -1)
    }
  }

  /// An infinite duration is rejected.
  @Test func rejectsInfiniteDuration() {
    #expect(throws: ValidationError(field: "duration", reason: .notFinite)) {
      try LayerAnimation.basic(.opacity, from: .number(0), to: .number(1), duration: .infinity)
    }
  }

  /// A NaN fromValue is rejected with its channel index.
  @Test func rejectsNaNFrom() {
    #expect(throws: ValidationError(field: "fromValue", index: 0, reason: .notFinite)) {
      try LayerAnimation.basic(.opacity, from: .number(.nan), to: .number(1), duration: 1)
    }
  }

  /// A NaN toValue is rejected with its channel index (a point's y is channel 1).
  @Test func rejectsNaNTo() {
    #expect(throws: ValidationError(field: "toValue", index: 1, reason: .notFinite)) {
      try LayerAnimation.basic(
        .position, from: .point(.zero), to: .point(Point(x: 0, y: .nan)), duration: 1)
    }
  }

  /// A spring's NaN fromValue is rejected too.
  @Test func rejectsNaNSpringFrom() throws {
    let spring = try Self.spring()
    #expect(throws: ValidationError(field: "fromValue", index: 0, reason: .notFinite)) {
      try LayerAnimation(
        property: .opacity, content: .spring(spring, from: .number(.infinity), to: .number(1)),
        timing: Self.timing())
    }
  }

  /// A spring's infinite toValue is rejected.
  @Test func rejectsInfiniteSpringTo() throws {
    let spring = try Self.spring()
    #expect(throws: ValidationError(field: "toValue", index: 0, reason: .notFinite)) {
      try LayerAnimation(
        property: .opacity, content: .spring(spring, from: .number(0), to: .number(-.infinity)),
        timing: Self.timing())
    }
  }

  /// A fromValue of another kind than the property holds is rejected.
  @Test func rejectsFromKindMismatch() {
    #expect(
      throws: ValidationError(
        field: "fromValue",
        reason: .invalidState("is a point but opacity holds a number"))
    ) {
      try LayerAnimation.basic(.opacity, from: .point(.zero), to: .number(1), duration: 1)
    }
  }

  /// A toValue of another kind than the property holds is rejected.
  @Test func rejectsToKindMismatch() {
    #expect(
      throws: ValidationError(
        field: "toValue",
        reason: .invalidState("is a number but transform holds a transform"))
    ) {
      try LayerAnimation.basic(.transform, from: .transform(.identity), to: .number(1), duration: 1)
    }
  }

  /// A spring's value of the wrong kind is rejected.
  @Test func rejectsSpringKindMismatch() throws {
    let spring = try Self.spring()
    #expect(
      throws: ValidationError(
        field: "toValue", reason: .invalidState("is a size but position holds a point"))
    ) {
      try LayerAnimation(
        property: .position, content: .spring(spring, from: .point(.zero), to: .size(.zero)),
        timing: Self.timing())
    }
  }

  /// Keyframe values of the wrong kind are rejected on field "values".
  @Test func rejectsKeyframeKindMismatch() throws {
    let track = try KeyframeTrack<Double>(values: [0, 1])
    #expect(
      throws: ValidationError(
        field: "values", reason: .invalidState("are number values but bounds holds a rect"))
    ) {
      try LayerAnimation(
        property: .bounds, content: .keyframes(.numbers(track)), timing: Self.timing())
    }
  }

  /// An invalid media timing is rejected: NaN beginTime.
  @Test func rejectsNaNBeginTime() {
    #expect(throws: ValidationError(field: "beginTime", reason: .notFinite)) {
      try LayerAnimation.basic(
        .opacity, from: .number(0), to: .number(1), beginTime: .nan, duration: 1)
    }
  }

  /// An invalid media timing is rejected: infinite speed.
  @Test func rejectsInfiniteSpeed() {
    var timing = Self.timing()
    timing.speed = .infinity
    #expect(throws: ValidationError(field: "speed", reason: .notFinite)) {
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: timing)
    }
  }

  /// An invalid media timing is rejected: NaN timeOffset.
  @Test func rejectsNaNTimeOffset() {
    var timing = Self.timing()
    timing.timeOffset = .nan
    #expect(throws: ValidationError(field: "timeOffset", reason: .notFinite)) {
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: timing)
    }
  }

  /// An invalid media timing is rejected: negative repeatCount.
  @Test func rejectsNegativeRepeatCount() {
    var timing = Self.timing()
    timing.repeatCount = -1
    #expect(throws: ValidationError(field: "repeatCount", reason: .negative)) {
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: timing)
    }
  }

  /// An invalid media timing is rejected: NaN repeatDuration.
  @Test func rejectsNaNRepeatDuration() {
    var timing = Self.timing()
    timing.repeatDuration = .nan
    #expect(throws: ValidationError(field: "repeatDuration", reason: .notFinite)) {
      try LayerAnimation(
        property: .opacity, content: .basic(from: .number(0), to: .number(1)), timing: timing)
    }
  }

  /// `validate()` re-checks an animation whose fields were edited after construction.
  @Test func validateAfterEditing() throws {
    var a = try LayerAnimation.basic(.opacity, from: .number(0), to: .number(1), duration: 1)
    a.property = .position
    #expect(
      throws: ValidationError(
        field: "fromValue", reason: .invalidState("is a number but position holds a point"))
    ) {
      try a.validate()
    }
  }
}
