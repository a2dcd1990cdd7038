import Segue
import Testing

/// `slide-over` (the transition catalog): 0.2 s, ease-in-ease-out = cubic Bézier
/// (0.42, 0, 0.58, 1). Push: **to** inserted above **from**, x = W·(1 − e); **from** still.
/// Pop: **to** inserted below **from** and still; **from** x = W·e. W = 390.
///
/// e at t / 0.2 from an independent mpmath bisection of the Bézier:
///
///     t = 0.05    e = 0.12916193104731981165  W·e = 50.373153108454726542  W·(1−e) = 339.62684689154527346
///     t = 0.1     e = 0.5                     W·e = 195                    W·(1−e) = 195
///     t = 0.15    e = 0.87083806895268018835  W·e = 339.62684689154527346  W·(1−e) = 50.373153108454726542
///     t = 0.1999  e = 0.99999952748170158565  W·e = 389.9998157178636184   W·(1−e) = 0.00018428213638159641986
@Suite("Preset slide-over")
struct SlideOverPresetTests {
  typealias H = PresetsAHarness

  static let rows: [(t: Double, we: Double, wOneMinusE: Double)] = [
    (0, 0, 390),
    (0.05, 50.373153108454726542, 339.62684689154527346),
    (0.1, 195, 195),
    (0.15, 339.62684689154527346, 50.373153108454726542),
    (0.1999, 389.9998157178636184, 0.00018428213638159641986),
  ]

  @Test func pushSlidesToOverFrom() throws {
    let scene = try H.scene(.slideOver, .push)
    #expect(scene.duration == 0.2)
    for row in Self.rows {
      try H.checkRunning(
        scene, at: row.t,
        [
          ExpectedLayer(id: "from", x: 0, order: 0),
          ExpectedLayer(id: "to", x: row.wOneMinusE, order: 1),
        ])
    }
    try H.checkCompleted(scene, toID: "to")
  }

  @Test func popSlidesFromAwayUncoveringTo() throws {
    let scene = try H.scene(.slideOver, .pop)
    #expect(scene.duration == 0.2)
    for row in Self.rows {
      try H.checkRunning(
        scene, at: row.t,
        [
          ExpectedLayer(id: "to", x: 0, order: 0),
          ExpectedLayer(id: "from", x: row.we, order: 1),
        ])
    }
    try H.checkCompleted(scene, toID: "to")
  }

  @Test(arguments: [TransitionOperation.push, .pop])
  func cancelLeavesFromAtItsStart(operation: TransitionOperation) throws {
    try H.checkCancelled(try H.scene(.slideOver, operation), fromID: "from")
  }
}
