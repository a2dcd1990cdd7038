import Testing

@testable import Segue

private func sample(
  location: Double = 0, translation: Double = 0, velocity: Double = 0
) throws -> GestureSample {
  try GestureSample(
    location: Point(x: location, y: 400), translation: Point(x: translation, y: -7),
    velocity: Point(x: velocity, y: 3))
}

@Suite("GestureDrivers")
struct GestureDriversTests {
  // MARK: fade-slide (percent = translation.x / W, W = 390)

  /// 195/390 = 0.5 is not > 0.5 → cancel; 196/390 ≈ 0.5026 → finish.
  @Test func fadeSlidePercentAndThreshold() throws {
    let driver = try FadeSlideEdgeSwipe(containerWidth: 390)
    #expect(driver.percent(for: try sample(translation: 195)) == 0.5)
    #expect(driver.percent(for: try sample(translation: 97.5)) == 0.25)
    #expect(driver.release(try sample(translation: 195)) == .cancel)
    #expect(driver.release(try sample(translation: 196)) == .finish)
    #expect(driver.begins(with: try sample(location: 300)))
  }

  /// Negative translation (swiping back past the start) gives 0; more than a width gives 1.
  @Test func fadeSlideClamps() throws {
    let driver = try FadeSlideEdgeSwipe()
    #expect(driver.percent(for: try sample(translation: -50)) == 0)
    #expect(driver.percent(for: try sample(translation: 500)) == 1)
  }

  /// This project's choice: a cancelled recognizer cancels, whatever the percent.
  @Test func fadeSlideCancelledGestureCancels() throws {
    let driver = try FadeSlideEdgeSwipe()
    #expect(driver.release(try sample(translation: 300), cancelled: true) == .cancel)
  }

  // MARK: cross-dissolve (percent = clamp(location.x / 300, 0, 0.99))

  /// 150/300 = 0.5 → cancel; 151/300 ≈ 0.5033 → finish; 60/300 = 0.2.
  @Test func crossDissolvePercentAndThreshold() throws {
    let driver = try CrossDissolvePan()
    #expect(driver.percent(for: try sample(location: 60)) == 0.2)
    #expect(driver.release(try sample(location: 150)) == .cancel)
    #expect(driver.release(try sample(location: 151)) == .finish)
  }

  /// 400/300 > 0.99 → 0.99 (the cap); negative x → 0.
  @Test func crossDissolveClamps() throws {
    let driver = try CrossDissolvePan()
    #expect(driver.percent(for: try sample(location: 400)) == 0.99)
    #expect(driver.percent(for: try sample(location: -10)) == 0)
  }

  /// The percent decides on `.cancelled` too: 200/300 ≈ 0.667 → finish.
  @Test func crossDissolveCancelledGestureUsesPercent() throws {
    let driver = try CrossDissolvePan()
    #expect(driver.release(try sample(location: 200), cancelled: true) == .finish)
    #expect(driver.release(try sample(location: 100), cancelled: true) == .cancel)
  }

  // MARK: depth (begins if location.x ≤ 50; percent = clamp(translation.x / 200, 0, 1))

  @Test func depthBeginsOnlyNearTheEdge() throws {
    let driver = try DepthPan()
    #expect(driver.begins(with: try sample(location: 0)))
    #expect(driver.begins(with: try sample(location: 50)))
    #expect(!driver.begins(with: try sample(location: 50.5)))
  }

  /// 100/200 = 0.5 → cancel; 101/200 = 0.505 → finish; 50/200 = 0.25.
  @Test func depthPercentAndThreshold() throws {
    let driver = try DepthPan()
    #expect(driver.percent(for: try sample(translation: 50)) == 0.25)
    #expect(driver.release(try sample(translation: 100)) == .cancel)
    #expect(driver.release(try sample(translation: 101)) == .finish)
  }

  @Test func depthClamps() throws {
    let driver = try DepthPan()
    #expect(driver.percent(for: try sample(translation: -20)) == 0)
    #expect(driver.percent(for: try sample(translation: 300)) == 1)
  }

  @Test func depthCancelledGestureCancels() throws {
    let driver = try DepthPan()
    #expect(driver.release(try sample(translation: 180), cancelled: true) == .cancel)
  }

  // MARK: velocity rule (|v| ≥ W per second decides by sign; else the threshold)

  /// W = 390: v = +390 at percent 0.1 finishes; v = −390 at percent 0.9 cancels;
  /// v = ±389 is below one width per second, so the percent decides.
  @Test func velocityRuleDecidesBySign() throws {
    let driver = try FadeSlideEdgeSwipe(containerWidth: 390)
    let slowFar = try sample(translation: 351, velocity: -389)  // 0.9
    let slowNear = try sample(translation: 39, velocity: 389)  // 0.1
    #expect(driver.release(try sample(translation: 39, velocity: 390), rule: .velocity) == .finish)
    #expect(
      driver.release(try sample(translation: 351, velocity: -390), rule: .velocity) == .cancel)
    #expect(driver.release(slowFar, rule: .velocity) == .finish)
    #expect(driver.release(slowNear, rule: .velocity) == .cancel)
    // The threshold rule ignores velocity.
    #expect(driver.release(try sample(translation: 39, velocity: 5000)) == .cancel)
  }

  /// A driver that cancels cancelled gestures keeps doing so under the velocity rule; the
  /// cross-dissolve driver, which decides by percent on cancel, lets a fast fling decide.
  @Test func velocityRuleAndCancelledGestures() throws {
    let depth = try DepthPan()
    #expect(
      depth.release(try sample(translation: 10, velocity: 1000), cancelled: true, rule: .velocity)
        == .cancel)
    let dissolve = try CrossDissolvePan()
    #expect(
      dissolve.release(try sample(location: 290, velocity: -500), cancelled: true, rule: .velocity)
        == .cancel)
    #expect(
      dissolve.release(try sample(location: 10, velocity: 500), cancelled: true, rule: .velocity)
        == .finish)
  }

  /// The velocity threshold scales with the container: W = 100 makes 100 pt/s enough.
  @Test func velocityThresholdIsOneWidthPerSecond() throws {
    let driver = try DepthPan(containerWidth: 100)
    #expect(driver.release(try sample(translation: 0, velocity: 100), rule: .velocity) == .finish)
    #expect(driver.release(try sample(translation: 0, velocity: 99.9), rule: .velocity) == .cancel)
  }

  // MARK: Rejections

  @Test func rejectsNaNLocationX() {
    #expect(throws: ValidationError(field: "location.x", reason: .notFinite)) {
      try GestureSample(location: Point(x: .nan, y: 0))
    }
  }

  @Test func rejectsInfiniteLocationY() {
    #expect(throws: ValidationError(field: "location.y", reason: .notFinite)) {
      try GestureSample(location: Point(x: 0, y: .infinity))
    }
  }

  @Test func rejectsNaNTranslationX() {
    #expect(throws: ValidationError(field: "translation.x", reason: .notFinite)) {
      try GestureSample(location: .zero, translation: Point(x: .nan, y: 0))
    }
  }

  @Test func rejectsNaNTranslationY() {
    #expect(throws: ValidationError(field: "translation.y", reason: .notFinite)) {
      try GestureSample(location: .zero, translation: Point(x: 0, y: .nan))
    }
  }

  @Test func rejectsInfiniteVelocityX() {
    #expect(throws: ValidationError(field: "velocity.x", reason: .notFinite)) {
      try GestureSample(location: .zero, velocity: Point(x: -.infinity, y: 0))
    }
  }

  @Test func rejectsNaNVelocityY() {
    #expect(throws: ValidationError(field: "velocity.y", reason: .notFinite)) {
      try GestureSample(location: .zero, velocity: Point(x: 0, y: .nan))
    }
  }

  @Test func rejectsZeroContainerWidth() {
    #expect(throws: ValidationError(field: "containerWidth", reason: .notPositive)) {
      try FadeSlideEdgeSwipe(containerWidth: 0)
    }
  }

  @Test func rejectsNegativeContainerWidth() {
    #expect(throws: ValidationError(field: "containerWidth", reason: .notPositive)) {
      try DepthPan(containerWidth: -390)
    }
  }

  @Test func rejectsNaNContainerWidth() {
    #expect(throws: ValidationError(field: "containerWidth", reason: .notFinite)) {
      try CrossDissolvePan(containerWidth: .nan)
    }
  }
}
