import Testing

@testable import Segue

/// ``GestureRules``: the interactive presets' gesture constants as data (what `segue preview`
/// writes into its page), checked against the catalog's formulas worked by hand, and every
/// rejected value.
@Suite("GestureRules")
struct GestureRulesTests {
  private func sample(location: Double = 0, translation: Double = 0) throws -> GestureSample {
    try GestureSample(
      location: Point(x: location, y: 10), translation: Point(x: translation, y: 0))
  }

  /// The three interactive presets' rules: fade-slide `translation.x / W` (W = 390), cross-dissolve
  /// `location.x / 300` capped at 0.99, depth `translation.x / 200` from `location.x ≤ 50`.
  @Test func defaultGesturesAreTheCatalogConstants() throws {
    let fade = try #require(try TransitionPreset.fadeSlide.defaultGesture(containerWidth: 390))
    #expect(fade.input == .translationX && fade.span == 390 && fade.cap == 1)
    #expect(fade.edgeLimit == nil && fade.threshold == 0.5 && fade.cancelsCancelledGestures)
    let cross = try #require(try TransitionPreset.crossDissolve.defaultGesture(containerWidth: 390))
    #expect(cross.input == .locationX && cross.span == 300 && cross.cap == 0.99)
    #expect(cross.edgeLimit == nil && !cross.cancelsCancelledGestures)
    let depth = try #require(try TransitionPreset.depth.defaultGesture(containerWidth: 320))
    #expect(depth.input == .translationX && depth.span == 200 && depth.cap == 1)
    #expect(depth.edgeLimit == 50 && depth.cancelsCancelledGestures)
    #expect(depth.containerWidth == 320)
    for preset in [
      TransitionPreset.system, .hero, .slideOver, .caFade, .caMoveIn, .caPush, .caReveal,
    ] {
      #expect(try preset.defaultGesture(containerWidth: 390) == nil)
    }
  }

  /// By hand: depth at translation 150 → 150/200 = 0.75 (finish); 100 → 0.5 (not > 0.5: cancel);
  /// −20 → 0; 260 → 1.3 → 1. Cross-dissolve at location 297 → 0.99 exactly, 330 → capped 0.99,
  /// and a cancelled gesture at 0.99 still finishes (the percent decides).
  @Test func percentsAndDecisionsByHand() throws {
    let depth = try DepthPan().rules
    #expect(depth.percent(for: try sample(translation: 150)) == 0.75)
    #expect(depth.thresholdDecision(for: try sample(translation: 150), cancelled: false) == .finish)
    #expect(depth.thresholdDecision(for: try sample(translation: 150), cancelled: true) == .cancel)
    #expect(depth.thresholdDecision(for: try sample(translation: 100), cancelled: false) == .cancel)
    #expect(depth.percent(for: try sample(translation: -20)) == 0)
    #expect(depth.percent(for: try sample(translation: 260)) == 1)
    #expect(depth.begins(with: try sample(location: 50)))
    #expect(!depth.begins(with: try sample(location: 50.5)))
    let cross = try CrossDissolvePan().rules
    #expect(cross.percent(for: try sample(location: 297)) == 0.99)
    #expect(cross.percent(for: try sample(location: 330)) == 0.99)
    #expect(cross.thresholdDecision(for: try sample(location: 330), cancelled: true) == .finish)
  }

  /// Each preset's driver evaluates exactly its rules (the page relies on it), over a grid of
  /// locations and translations.
  @Test func driversAreTheirRules() throws {
    let drivers: [any GestureDriver] = [
      try FadeSlideEdgeSwipe(containerWidth: 300), try CrossDissolvePan(), try DepthPan(),
    ]
    let rules = [
      try FadeSlideEdgeSwipe(containerWidth: 300).rules, try CrossDissolvePan().rules,
      try DepthPan().rules,
    ]
    for (driver, rule) in zip(drivers, rules) {
      for x in stride(from: -40.0, through: 420, by: 7.5) {
        let s = try sample(location: x, translation: x - 30)
        #expect(driver.percent(for: s) == rule.percent(for: s))
        #expect(driver.begins(with: s) == rule.begins(with: s))
        for cancelled in [false, true] {
          #expect(driver.release(s, cancelled: cancelled) == rule.release(s, cancelled: cancelled))
        }
      }
    }
  }

  @Test func rejectsBadValues() {
    #expect(throws: ValidationError(field: "containerWidth", reason: .notPositive)) {
      try GestureRules(
        containerWidth: 0, input: .translationX, span: 1, cancelsCancelledGestures: true)
    }
    #expect(throws: ValidationError(field: "span", reason: .notPositive)) {
      try GestureRules(
        containerWidth: 390, input: .translationX, span: 0, cancelsCancelledGestures: true)
    }
    #expect(throws: ValidationError(field: "span", reason: .notFinite)) {
      try GestureRules(
        containerWidth: 390, input: .translationX, span: .infinity, cancelsCancelledGestures: true)
    }
    #expect(throws: ValidationError(field: "cap", reason: .outOfRange(lower: 0, upper: 1))) {
      try GestureRules(
        containerWidth: 390, input: .locationX, span: 1, cap: 1.5, cancelsCancelledGestures: true)
    }
    #expect(throws: ValidationError(field: "threshold", reason: .outOfRange(lower: 0, upper: 1))) {
      try GestureRules(
        containerWidth: 390, input: .locationX, span: 1, threshold: -0.1,
        cancelsCancelledGestures: true)
    }
    #expect(throws: ValidationError(field: "edgeLimit", reason: .notFinite)) {
      try GestureRules(
        containerWidth: 390, input: .locationX, span: 1, edgeLimit: .nan,
        cancelsCancelledGestures: true)
    }
    #expect(throws: ValidationError(field: "containerWidth", reason: .notFinite)) {
      try TransitionPreset.hero.defaultGesture(containerWidth: .nan)
    }
  }
}
