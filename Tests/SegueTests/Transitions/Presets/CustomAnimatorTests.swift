import PropertyBased
import Segue
import Testing

// Porting a UIKit animator to Segue, line by line.
//
// This file doubles as documentation. It ports the "slide over" animator of the article "Modern
// Implementation of Custom Push and Pop Animations" (the transition catalog, `slide-over`) as a
// user would: a struct conforming to `TransitionAnimator` whose `animateTransition(using:)`
// describes, with a `SceneBuilder`, what the UIKit version does with views and `UIView.animate`.
// The article's UIKit lines are quoted in the comments next to each ported line (as the transition
// catalog restates them: 0.20 s, `to` inserted above `from` on push and below it on pop, frames
// offset by the view's width, the default UIView curve, `completeTransition(true)`). The tests
// then check that the port samples like the built-in `slide-over` preset.
//
// The translation rules used:
// - `containerView.addSubview(v)` / `insertSubview(v, aboveSubview: w)` → `b.add(view:)` in
//   bottom-to-top order (later adds are drawn on top).
// - `v.frame = r` before the animation block → `b.set(.position, of: id, to: …)` with the frame's
//   centre (a full-container view keeps its bounds; the anchor point is the centre).
// - `UIView.animate(withDuration: d) { v.frame = r }` → `b.animate(.position, of: id, to: …,
//   duration: d, timingParameters: .easeInEaseOut)`: UIView's default curve is ease-in-ease-out
//   (transition catalog: Default timing curves). `animate` sets the model value at once and adds
//   an animation from the old value, exactly like a UIView animation block.
// - `completion: { transitionContext.completeTransition(…) }` → `finishChanges` /
//   `cancelChanges`: what UIKit does to the container when the transition finishes (removes the
//   view that was left) or is cancelled (removes the view that was being shown).

/// The slide-over animator, ported.
///
///     class SimpleOver: NSObject, UIViewControllerAnimatedTransitioning {
///         var popStyle: Bool = false
///         …
///     }
struct SimpleOverAnimator: TransitionAnimator {
  /// `var popStyle: Bool = false`: the navigation delegate sets it from the operation.
  var popStyle: Bool

  /// `func transitionDuration(using:) -> TimeInterval { return 0.20 }`
  func transitionDuration(using context: TransitionContext) -> Double { 0.20 }

  /// `func animateTransition(using transitionContext:)`
  func animateTransition(using context: TransitionContext) throws(ValidationError)
    -> TransitionScene
  {
    // if popStyle { animatePop(using: transitionContext); return }
    if popStyle { return try animatePop(using: context) }

    var b = SceneBuilder()
    // let fz = transitionContext.viewController(forKey: .from)!
    // let tz = transitionContext.viewController(forKey: .to)!
    let (fz, tz) = (context.fromID, context.toID)

    // let f = transitionContext.finalFrame(for: tz)
    let f = context.containerBounds
    // let fOff = f.offsetBy(dx: f.width, dy: 0)
    let fOff = Rect(x: f.minX + f.width, y: f.minY, width: f.width, height: f.height)

    // (fz.view is already in the container.)
    try b.add(view: context.fromView)
    // transitionContext.containerView.insertSubview(tz.view, aboveSubview: fz.view)
    try b.add(view: context.toView)
    // tz.view.frame = fOff
    try b.set(.position, of: tz, to: .point(Point(x: fOff.midX, y: fOff.midY)))

    // UIView.animate(withDuration: transitionDuration(using: transitionContext),
    //                animations: { tz.view.frame = f },
    try b.animate(
      .position, of: tz, to: .point(Point(x: f.midX, y: f.midY)),
      duration: transitionDuration(using: context), timingParameters: .easeInEaseOut)

    //                completion: { _ in transitionContext.completeTransition(true) })
    // The article's animator always reports `true`; Segue reports `!cancelled`, and UIKit's
    // container then removes the view that is no longer shown.
    b.finishChanges = [.remove(layerID: fz)]
    b.cancelChanges = [.remove(layerID: tz)]
    return try b.scene(
      duration: transitionDuration(using: context), containerSize: context.containerSize)
  }

  /// `func animatePop(using transitionContext:)`
  private func animatePop(using context: TransitionContext) throws(ValidationError)
    -> TransitionScene
  {
    var b = SceneBuilder()
    // let fz = transitionContext.viewController(forKey: .from)!
    // let tz = transitionContext.viewController(forKey: .to)!
    let (fz, tz) = (context.fromID, context.toID)

    // let f = transitionContext.initialFrame(for: fz)
    let f = context.containerBounds
    // let fOffPop = f.offsetBy(dx: f.width, dy: 0)
    let fOffPop = Rect(x: f.minX + f.width, y: f.minY, width: f.width, height: f.height)

    // transitionContext.containerView.insertSubview(tz.view, belowSubview: fz.view)
    try b.add(view: context.toView)
    try b.add(view: context.fromView)

    // UIView.animate(withDuration: transitionDuration(using: transitionContext),
    //                animations: { fz.view.frame = fOffPop },
    try b.animate(
      .position, of: fz, to: .point(Point(x: fOffPop.midX, y: fOffPop.midY)),
      duration: transitionDuration(using: context), timingParameters: .easeInEaseOut)

    //                completion: { _ in transitionContext.completeTransition(true) })
    b.finishChanges = [.remove(layerID: fz)]
    b.cancelChanges = [.remove(layerID: tz)]
    return try b.scene(
      duration: transitionDuration(using: context), containerSize: context.containerSize)
  }
}

/// The ported animator samples like the built-in `slide-over` preset.
@Suite("Custom animator (ported slide-over)")
struct CustomAnimatorTests {
  /// The same default context for both, so only the animators differ.
  private static func scenes(_ operation: TransitionOperation) throws -> (
    ported: TransitionScene, preset: TransitionScene
  ) {
    let preset = PresetAnimator(.slideOver)
    let context = try preset.defaultContext(operation: operation, content: .bare)
    let ported = SimpleOverAnimator(popStyle: !operation.isForward)
    #expect(ported.transitionDuration(using: context) == preset.transitionDuration(using: context))
    return (
      try ported.animateTransition(using: context), try preset.animateTransition(using: context)
    )
  }

  /// Two samples agree: same layers in the same order, draw order, blend, opacity, completion, and
  /// matrices and corners to rounding (the port animates `position`, the preset `position.x`; the
  /// constant y is interpolated as `y·(1 − e) + y·e`, which may differ from y in the last bit).
  private static func expectSame(
    _ a: TransitionSample, _ b: TransitionSample,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(a.isCompleted == b.isCompleted, sourceLocation: sourceLocation)
    #expect(a.progress == b.progress, sourceLocation: sourceLocation)
    #expect(a.layers.map(\.id) == b.layers.map(\.id), sourceLocation: sourceLocation)
    for (x, y) in zip(a.layers, b.layers) {
      #expect(x.order == y.order && x.blend == y.blend, sourceLocation: sourceLocation)
      #expect(x.opacity == y.opacity, sourceLocation: sourceLocation)
      let fields = zip(x.matrix.fields, y.matrix.fields).allSatisfy { abs($0 - $1) <= 1e-9 }
      #expect(fields, "\(x.id) at \(a.time)", sourceLocation: sourceLocation)
      for (p, q) in zip(x.corners, y.corners) {
        let same = abs(p.point.x - q.point.x) <= 1e-9 && abs(p.point.y - q.point.y) <= 1e-9
        #expect(same, "\(x.id) at \(a.time): \(p) ≠ \(q)", sourceLocation: sourceLocation)
      }
    }
  }

  @Test(arguments: [TransitionOperation.push, .pop])
  func samplesLikeThePreset(operation: TransitionOperation) throws {
    let (ported, preset) = try Self.scenes(operation)
    #expect(ported.duration == 0.2)
    for time in [0, 0.02, 0.05, 0.1, 0.15, 0.199, 0.2, 0.5] {
      Self.expectSame(try ported.sample(at: time), try preset.sample(at: time))
    }
    for completion in [TransitionCompletion.finished, .cancelled] {
      let a = ported.presentation(at: 0.1, completion: completion).evaluate()
      let b = preset.presentation(at: 0.1, completion: completion).evaluate()
      #expect(a.map(\.id) == b.map(\.id))
      #expect(a.map(\.matrix) == b.map(\.matrix))
    }
  }

  @Test func samplesLikeThePresetAtAnyTime() async {
    await propertyCheck(count: 150, input: Gen.double(in: 0...0.25), Gen.bool) { time, push in
      let (ported, preset) = try Self.scenes(push ? .push : .pop)
      Self.expectSame(try ported.sample(at: time), try preset.sample(at: time))
    }
  }

  @Test func portedPushByHand() throws {
    // Independent of the preset: at t = 0.1 the eased progress is ease-in-ease-out(0.5) = 0.5
    // (the curve is symmetric), so to's frame origin x is 390·(1 − 0.5) = 195 and from is still.
    let (ported, _) = try Self.scenes(.push)
    let s = try ported.sample(at: 0.1)
    let to = try #require(s["to"])
    #expect(abs(to.corners[0].point.x - 195) <= 1e-9)
    #expect(abs(to.corners[0].point.y) <= 1e-9)
    #expect(abs(to.corners[2].point.x - 585) <= 1e-9)
    #expect(s["from"]?.corners[0].point.x == 0)
    #expect(s["from"]?.order == 0 && to.order == 1)
    // Finished: only to, at x = 0.
    let end = try ported.sample(at: 0.2)
    #expect(end.layers.map(\.id) == ["to"])
    #expect(end["to"]?.corners[0].point.x == 0)
  }

  @Test func portedPopByHand() throws {
    // Pop: to below from; from's x = 390·e: 195 at t = 0.1.
    let (ported, _) = try Self.scenes(.pop)
    let s = try ported.sample(at: 0.1)
    #expect(s["to"]?.order == 0 && s["from"]?.order == 1)
    #expect(abs((s["from"]?.corners[0].point.x ?? -1) - 195) <= 1e-9)
    #expect(s["to"]?.corners[0].point.x == 0)
    let cancelled = ported.presentation(at: 0.1, completion: .cancelled).evaluate()
    #expect(cancelled.map(\.id) == ["from"])
    #expect(cancelled.first?.corners[0].point.x == 0)
  }
}
