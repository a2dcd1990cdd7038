import PropertyBased
import Segue
import Testing

/// `system` (the transition catalog): 0.5 s, curve-7 spring (mass 3, stiffness 1000, damping 500)
/// run critically damped at ω0 = √(1000/3) (transition catalog: Spring damping and settling),
/// initial velocity 0, so the progress is
///
///     x(t) = 1 − e^(−ω0·t)·(1 + ω0·t),   ω0 = 18.257418583505537…
///
/// Push: **to** x = W·(1 − x(t)), **from** x = −0.3·W·x(t), **dimming** opacity 0.1·x(t);
/// draw order from, dimming, to. Pop: **from** x = W·x(t), **to** x = −0.3·W·(1 − x(t)),
/// **dimming** opacity 0.1·(1 − x(t)); draw order to, dimming, from. W = 390, H = 844.
///
/// Reference values: mpmath at 40 digits evaluating the formulas above (direct evaluation of x(t)
/// with `mp.exp`), printed as
///
///     t       x(t)                    W(1−x)                  −0.3·W·x                0.1·x
///     0.05    0.2322304925343014002   299.43010791162245392   −27.170967626513263823  0.02322304925343014002
///     0.125   0.66501526079373265988  130.64404829044426265   −77.806785512866721206  0.066501526079373265988
///     0.25    0.94203834654818648785  22.605044846207269738   −110.21848654613781908  0.094203834654818648785
///     0.4999  0.99889916899420904408  0.42932409225847280988  −116.87120277232245816  0.099889916899420904408
///
///     t       W·x                     −0.3·W·(1−x)            0.1·(1−x)
///     0.05    90.569892088377546077   −89.829032373486736177  0.07677695074656985998
///     0.125   259.35595170955573735   −39.193214487133278794  0.033498473920626734012
///     0.25    367.39495515379273026   −6.7815134538621809215  0.0057961653451813512149
///     0.4999  389.57067590774152719   −0.12879722767754184296 0.00011008310057909559228
@Suite("Preset system")
struct SystemPresetTests {
  typealias H = PresetsAHarness

  @Test func durationIsHalfASecond() throws {
    #expect(try H.scene(.system, .push).duration == 0.5)
    #expect(try H.scene(.system, .pop).duration == 0.5)
  }

  @Test func pushFollowsTheCriticallyDampedSpring() throws {
    let scene = try H.scene(.system, .push)
    // t = 0: x(0) = 0: to at x = W, from at 0, dimming transparent.
    try H.checkRunning(
      scene, at: 0,
      [
        ExpectedLayer(id: "from", x: 0, order: 0),
        ExpectedLayer(id: "dimming", x: 0, opacity: 0, order: 1),
        ExpectedLayer(id: "to", x: 390, order: 2),
      ])
    let rows: [(t: Double, to: Double, from: Double, dim: Double)] = [
      (0.05, 299.43010791162245392, -27.170967626513263823, 0.02322304925343014002),
      (0.125, 130.64404829044426265, -77.806785512866721206, 0.066501526079373265988),
      (0.25, 22.605044846207269738, -110.21848654613781908, 0.094203834654818648785),
      (0.4999, 0.42932409225847280988, -116.87120277232245816, 0.099889916899420904408),
    ]
    for row in rows {
      try H.checkRunning(
        scene, at: row.t,
        [
          ExpectedLayer(id: "from", x: row.from, order: 0),
          ExpectedLayer(id: "dimming", x: 0, opacity: row.dim, order: 1),
          ExpectedLayer(id: "to", x: row.to, order: 2),
        ])
    }
    // t ≥ 0.5: completed: the target, only **to** at x = 0 (not the spring's 0.9989).
    try H.checkCompleted(scene, toID: "to")
  }

  @Test func popFollowsTheCriticallyDampedSpring() throws {
    let scene = try H.scene(.system, .pop)
    // t = 0: from at 0 on top, to at −0.3·W = −117 below the dimming at 0.1.
    try H.checkRunning(
      scene, at: 0,
      [
        ExpectedLayer(id: "to", x: -117, order: 0),
        ExpectedLayer(id: "dimming", x: 0, opacity: 0.1, order: 1),
        ExpectedLayer(id: "from", x: 0, order: 2),
      ])
    let rows: [(t: Double, from: Double, to: Double, dim: Double)] = [
      (0.05, 90.569892088377546077, -89.829032373486736177, 0.07677695074656985998),
      (0.125, 259.35595170955573735, -39.193214487133278794, 0.033498473920626734012),
      (0.25, 367.39495515379273026, -6.7815134538621809215, 0.0057961653451813512149),
      (0.4999, 389.57067590774152719, -0.12879722767754184296, 0.00011008310057909559228),
    ]
    for row in rows {
      try H.checkRunning(
        scene, at: row.t,
        [
          ExpectedLayer(id: "to", x: row.to, order: 0),
          ExpectedLayer(id: "dimming", x: 0, opacity: row.dim, order: 1),
          ExpectedLayer(id: "from", x: row.from, order: 2),
        ])
    }
    try H.checkCompleted(scene, toID: "to")
  }

  @Test(arguments: [TransitionOperation.push, .pop])
  func cancelLeavesFromAtItsStart(operation: TransitionOperation) throws {
    try H.checkCancelled(try H.scene(.system, operation), fromID: "from")
  }

  /// Invariants while running, for any t in [0, 0.5): on push **to** and **from** keep the
  /// parallax ratio `from.x = −0.3·(W − to.x)` (both are the same spring progress), and the
  /// dimming is `0.1·(W − to.x)/W`; on pop `to.x = −0.3·(W − from.x)` and dimming
  /// `0.1·(W − from.x)/W`. The spring is critically damped from rest, so x(t) is increasing and
  /// stays in [0, 1]: every moving layer lies between its start and end.
  @Test func springProgressIsSharedAndMonotone() async throws {
    let push = try H.scene(.system, .push)
    let pop = try H.scene(.system, .pop)
    await propertyCheck(count: 150, input: Gen.double(in: 0...0.4999), Gen.double(in: 0...0.4999)) {
      a, b in
      let (t0, t1) = (min(a, b), max(a, b))
      guard let p0 = try? push.sample(at: t0), let p1 = try? push.sample(at: t1),
        let q0 = try? pop.sample(at: t0), let q1 = try? pop.sample(at: t1),
        let to = p1["to"], let from = p1["from"], let dim = p1["dimming"],
        let popTo = q1["to"], let popFrom = q1["from"], let popDim = q1["dimming"],
        let to0 = p0["to"], let popFrom0 = q0["from"]
      else {
        Issue.record("sampling failed")
        return
      }
      let x = (390 - to.matrix.m41) / 390
      #expect(abs(from.matrix.m41 - -0.3 * 390 * x) <= 1e-9)
      #expect(abs(dim.opacity - 0.1 * x) <= 1e-12)
      #expect(x >= 0 && x <= 1)
      let y = popFrom.matrix.m41 / 390
      #expect(abs(popTo.matrix.m41 - -0.3 * 390 * (1 - y)) <= 1e-9)
      #expect(abs(popDim.opacity - 0.1 * (1 - y)) <= 1e-12)
      #expect(abs(x - y) <= 1e-12)
      #expect(to.matrix.m41 <= to0.matrix.m41)
      #expect(popFrom.matrix.m41 >= popFrom0.matrix.m41)
    }
  }
}
