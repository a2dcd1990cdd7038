import PropertyBased
import Segue
import Testing

/// `fade-slide` (the transition catalog): 0.2 s, one UIView keyframe animation, cubic
/// calculation mode, linear overall pacing, so the track parameter is `u = t / 0.2`.
///
/// Tracks (transition catalog: UIView keyframe animations):
/// - **to** opacity `[o0, 1, 1]` at `[0, 0.5, 1]` (o0 = 1 on push, 0 on pop: the view below was
///   left transparent by the push that covered it);
/// - push **from** opacity `[1, 0, 0]` at `[0, 0.5, 1]`;
/// - x tracks and pop **from** opacity: two keys at `[0, 1]`.
///
/// Cubic = Kochanek–Bartels with t = c = b = 0 (Catmull–Rom) by key index, end keys duplicated
/// (transition catalog: Cubic keyframes), so on segment i → i+1 with local s, tangents
/// `m_i = (p_{i+1} − p_{i−1})/2`,
///
///     p(s) = h00·p_i + h10·m_i + h01·p_{i+1} + h11·m_{i+1}
///     h00 = 2s³ − 3s² + 1, h10 = s³ − 2s² + s, h01 = −2s³ + 3s², h11 = s³ − s².
///
/// Two keys `[a, b]`: both tangents are `(b − a)/2`, so `p = a + (b − a)·g(u)` with
/// `g(u) = h01 + (h10 + h11)/2 = −u³ + 1.5u² + 0.5u`: g(0.1) = 0.064, g(0.25) = 0.203125,
/// g(0.5) = 0.5, g(0.6) = 0.624, g(0.75) = 0.796875, g(0.9995) = 0.999749625125.
///
/// Three keys `[0, 1, 1]` (pop **to** opacity): segment 0 (u ∈ [0, 0.5], s = 2u) has
/// m0 = (1 − 0)/2 = 0.5, m1 = (1 − 0)/2 = 0.5: p = h01 + 0.5·(h10 + h11), at s = 0.2:
/// 0.104 + 0.5·(0.128 − 0.032) = 0.152; at s = 0.5: 0.5. Segment 1 (s = 2u − 1) has m1 = 0.5,
/// m2 = (1 − 1)/2 = 0: p = 1 + 0.5·h10 = 1 + 0.5·s(1 − s)², at s = 0.2: 1.064, s = 0.5: 1.0625
/// (the overshoot), s = 0.999: 1.0000004995. `[1, 0, 0]` (push **from** opacity) is 1 minus
/// that: 0.848, 0.5, 0, −0.064, −0.0625, −4.995e-7; presented opacity clamps these to [0, 1].
///
/// Positions: push **to** x = W·(1 − g), **from** x = −W·g; pop **to** x = −W·(1 − g),
/// **from** x = W·g, pop **from** opacity 1 − g. W = 390. The same values were printed by an
/// independent mpmath evaluation of the Hermite form:
/// `0.1: 365.04, 24.96, 0.152, 0.848; 0.25: 310.78125, 79.21875; 0.6: 146.64, 243.36, 1.064;
/// 0.75: 79.21875, 310.78125, 1.0625; 0.9995: 0.09764620125, 389.90235379875, 1.0000004995`.
@Suite("Preset fade-slide")
struct FadeSlidePresetTests {
  typealias H = PresetsAHarness

  @Test func durationIsTheBarDuration() throws {
    #expect(try H.scene(.fadeSlide, .push).duration == 0.2)
    #expect(try H.scene(.fadeSlide, .pop).duration == 0.2)
  }

  @Test func pushSlidesToInAndFadesFromOutByTheHalfway() throws {
    let scene = try H.scene(.fadeSlide, .push)
    // (t, to.x, from.x, from opacity presented): to opacity stays 1 ([1, 1, 1]).
    let rows: [(t: Double, to: Double, from: Double, fromOpacity: Double)] = [
      (0, 390, 0, 1),
      (0.02, 365.04, -24.96, 0.848),
      (0.05, 310.78125, -79.21875, 0.5),
      (0.1, 195, -195, 0),  // end of keyframe A
      (0.12, 146.64, -243.36, 0),  // −0.064 clamped
      (0.15, 79.21875, -310.78125, 0),  // −0.0625 clamped
      (0.1999, 0.09764620125, -389.90235379875, 0),  // −4.995e-7 clamped
    ]
    for row in rows {
      try H.checkRunning(
        scene, at: row.t,
        [
          ExpectedLayer(id: "from", x: row.from, opacity: row.fromOpacity, order: 0),
          ExpectedLayer(id: "to", x: row.to, opacity: 1, order: 1),
        ])
    }
    try H.checkCompleted(scene, toID: "to")
  }

  @Test func popSlidesFromAwayOverTheFadingInTo() throws {
    let scene = try H.scene(.fadeSlide, .pop)
    // (t, to.x, to opacity presented, from.x, from opacity = 1 − g).
    let rows: [(t: Double, to: Double, toOpacity: Double, from: Double, fromOpacity: Double)] = [
      (0, -390, 0, 0, 1),
      (0.02, -365.04, 0.152, 24.96, 0.936),
      (0.05, -310.78125, 0.5, 79.21875, 0.796875),
      (0.1, -195, 1, 195, 0.5),  // end of keyframe A
      (0.12, -146.64, 1, 243.36, 0.376),  // 1.064 clamped
      (0.15, -79.21875, 1, 310.78125, 0.203125),  // 1.0625 clamped
      (0.1999, -0.09764620125, 1, 389.90235379875, 0.000250374875),
    ]
    for row in rows {
      try H.checkRunning(
        scene, at: row.t,
        [
          ExpectedLayer(id: "to", x: row.to, opacity: row.toOpacity, order: 0),
          ExpectedLayer(id: "from", x: row.from, opacity: row.fromOpacity, order: 1),
        ])
    }
    try H.checkCompleted(scene, toID: "to")
  }

  /// The presentation tree keeps the cubic overshoot (1 + 0.5·s(1 − s)² = 1.0625 at s = 0.5,
  /// t = 0.15 on pop; its mirror −0.0625 for push **from**); only the sample clamps it.
  @Test func overshootIsInTheTrackAndClampedInTheSample() throws {
    let pop = try H.scene(.fadeSlide, .pop)
    let raw = pop.presentation(at: 0.15)[id: "to"]?.opacity ?? .nan
    #expect(abs(raw - 1.0625) <= 1e-12)
    #expect(try pop.sample(at: 0.15)["to"]?.opacity == 1)
    let push = try H.scene(.fadeSlide, .push)
    let rawFrom = push.presentation(at: 0.15)[id: "from"]?.opacity ?? .nan
    #expect(abs(rawFrom - -0.0625) <= 1e-12)
    #expect(try push.sample(at: 0.15)["from"]?.opacity == 0)
  }

  @Test(arguments: [TransitionOperation.push, .pop])
  func cancelLeavesFromAtItsStart(operation: TransitionOperation) throws {
    try H.checkCancelled(try H.scene(.fadeSlide, operation), fromID: "from")
  }

  /// For any t in [0, 0.2): the two views move together, one container width apart
  /// (push: to.x − from.x = W; pop: from.x − to.x = W), both tracks being the same g(u); and
  /// pop **from**'s opacity is 1 − from.x / W.
  @Test func viewsStayOneWidthApart() async throws {
    let push = try H.scene(.fadeSlide, .push)
    let pop = try H.scene(.fadeSlide, .pop)
    await propertyCheck(count: 150, input: Gen.double(in: 0...0.1999)) { t in
      let a = try push.sample(at: t)
      let b = try pop.sample(at: t)
      guard let to = a["to"], let from = a["from"], let popTo = b["to"], let popFrom = b["from"]
      else {
        Issue.record("missing layer")
        return
      }
      #expect(abs(to.matrix.m41 - from.matrix.m41 - 390) <= 1e-9)
      #expect(abs(popFrom.matrix.m41 - popTo.matrix.m41 - 390) <= 1e-9)
      #expect(abs(popFrom.opacity - (1 - popFrom.matrix.m41 / 390)) <= 1e-12)
    }
  }
}
