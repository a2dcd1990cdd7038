import PropertyBased
import Segue
import Testing

/// `cross-dissolve` (the transition catalog): 0.35 s, UIView default curve ease-in-ease-out = cubic
/// Bézier (0.42, 0, 0.58, 1) (transition catalog: Default timing curves). Push and pop are the
/// same: **from** stays at x = 0, opacity 1, drawn first; **to** is added on top at opacity 0 and
/// fades to 1: opacity e(t / 0.35).
///
/// Reference e(x): an independent mpmath bisection (200 halvings at 40 digits) of the Bézier's
/// x polynomial `3(1−s)²s·0.42 + 3(1−s)s²·0.58 + s³ = x`, then `y(s) = 3(1−s)s² + s³`,
/// printed as
///
///     x = 0.25                  e = 0.12916193104731981165
///     x = 0.5                   e = 0.5 (the curve is symmetric about (0.5, 0.5))
///     x = 0.75                  e = 0.87083806895268018835
///     x = 1 − 0.0001/0.35       e = 0.99999984572329923538   (t = 0.3499)
@Suite("Preset cross-dissolve")
struct CrossDissolvePresetTests {
  typealias H = PresetsAHarness

  @Test(arguments: [TransitionOperation.push, .pop])
  func toFadesInOverAStillFrom(operation: TransitionOperation) throws {
    let scene = try H.scene(.crossDissolve, operation)
    #expect(scene.duration == 0.35)
    let rows: [(t: Double, opacity: Double)] = [
      (0, 0),
      (0.0875, 0.12916193104731981165),
      (0.175, 0.5),
      (0.2625, 0.87083806895268018835),
      (0.3499, 0.99999984572329923538),
    ]
    for row in rows {
      try H.checkRunning(
        scene, at: row.t,
        [
          ExpectedLayer(id: "from", x: 0, order: 0),
          ExpectedLayer(id: "to", x: 0, opacity: row.opacity, order: 1),
        ])
    }
    try H.checkCompleted(scene, toID: "to")
  }

  @Test(arguments: [TransitionOperation.push, .pop])
  func cancelLeavesFromAtItsStart(operation: TransitionOperation) throws {
    try H.checkCancelled(try H.scene(.crossDissolve, operation), fromID: "from")
  }

  /// The eased opacity is non-decreasing in t and symmetric: e(x) + e(1 − x) = 1 for the
  /// symmetric control points (0.42, 0) and (0.58, 1).
  @Test func opacityIsMonotoneAndSymmetric() async throws {
    let scene = try H.scene(.crossDissolve, .push)
    await propertyCheck(count: 150, input: Gen.double(in: 0...0.35), Gen.double(in: 0...0.35)) {
      a, b in
      let (t0, t1) = (min(a, b), max(a, b))
      guard t1 < 0.35 else { return }
      let o0 = try scene.sample(at: t0)["to"]?.opacity ?? .nan
      let o1 = try scene.sample(at: t1)["to"]?.opacity ?? .nan
      let mirror = try scene.sample(at: 0.35 - t0)["to"]?.opacity ?? .nan
      #expect(o0 <= o1 + 1e-12)
      if t0 > 0 { #expect(abs(o0 + mirror - 1) <= 1e-9) }
    }
  }
}
