import Foundation
import Segue
import Testing

// Porting an interruptible swipe-back, line by line (the second example of the
// PortingAnAnimator article).
//
// The UIKit pattern: the navigation delegate returns an animator that vends a
// `UIViewPropertyAnimator` from `interruptibleAnimator(using:)`, and an interaction controller
// (`UIViewControllerInteractiveTransitioning`) that pauses it when the pan begins, scrubs its
// `fractionComplete` with the pan's translation, and on release finishes or cancels the
// transition and continues the animator with a spring whose initial velocity is the pan's
// velocity over the distance left. The UIKit code is quoted in the comments; each Segue line
// does what the line above it does, with the time of each call made explicit.

/// The animator: a pop where **from** slides off to the right and **to** comes in from a
/// parallax offset of −30 % of the width, on an ease-out curve over 0.35 s.
///
///     final class SwipeBackAnimator: NSObject, UIViewControllerAnimatedTransitioning {
struct SwipeBackAnimator: TransitionAnimator {
  // func transitionDuration(using ctx: UIViewControllerContextTransitioning?) -> TimeInterval {
  //   0.35
  // }
  func transitionDuration(using context: TransitionContext) -> Double { 0.35 }

  // func animateTransition(using ctx: UIViewControllerContextTransitioning) {
  //   interruptibleAnimator(using: ctx).startAnimation()
  // }
  func animateTransition(using context: TransitionContext) throws(ValidationError)
    -> TransitionScene
  {
    // The uninterrupted run, as a scene (sampling it equals starting the animator at 0).
    guard let animator = try interruptibleAnimator(using: context) else {
      throw ValidationError(field: "animator", reason: .invalidState("no animator"))
    }
    return try animator.scene(containerSize: context.containerSize)
  }

  // func interruptibleAnimator(using ctx: UIViewControllerContextTransitioning)
  //   -> UIViewImplicitlyAnimating {
  func interruptibleAnimator(using context: TransitionContext) throws(ValidationError)
    -> ViewPropertyAnimator?
  {
    // let fromView = ctx.view(forKey: .from)!
    // let toView = ctx.view(forKey: .to)!
    let fromView = context.view(forKey: .from)
    let toView = context.view(forKey: .to)
    let (fromID, toID) = (context.fromID, context.toID)
    // let container = ctx.containerView
    var container = context.containerView
    // let width = container.bounds.width
    let width = context.containerBounds.width
    // container.insertSubview(toView, belowSubview: fromView)
    try container.insertSubview(toView, belowSubview: fromView)
    // toView.transform = CGAffineTransform(translationX: -0.3 * width, y: 0)
    try container.set(.transformComponent(.translationX), of: toID, to: .number(-0.3 * width))
    // let animator = UIViewPropertyAnimator(duration: transitionDuration(using: ctx),
    //                                       curve: .easeOut) {
    var animator = try ViewPropertyAnimator(
      duration: transitionDuration(using: context), curve: .easeOut, container: container
    ) { views throws(ValidationError) in
      // fromView.transform = CGAffineTransform(translationX: width, y: 0)
      try views.set(.transformComponent(.translationX), of: fromID, to: .number(width))
      // toView.transform = .identity
      try views.set(.transformComponent(.translationX), of: toID, to: .number(0))
    }  // }
    // animator.addCompletion { position in
    //   ctx.completeTransition(!ctx.transitionWasCancelled)   // (the driver does this below)
    // }  // and UIKit's container then removes the view that is no longer shown:
    try animator.addCompletion { position in
      position == .end ? [.remove(layerID: fromID)] : [.remove(layerID: toID)]
    }
    // return animator
    return animator
  }
}

/// The pan's state, as `UIGestureRecognizer.State`.
enum PanState { case began, changed, ended, cancelled }

/// The interaction controller.
///
///     final class SwipeBackInteraction: NSObject, UIViewControllerInteractiveTransitioning {
///       var ctx: UIViewControllerContextTransitioning?
///       var animator: UIViewPropertyAnimator?
struct SwipeBackInteraction {
  var context: TransitionContext
  var animator: ViewPropertyAnimator

  // func startInteractiveTransition(_ ctx: UIViewControllerContextTransitioning) {
  //   self.ctx = ctx
  //   animator = transitionAnimator.interruptibleAnimator(using: ctx) as? UIViewPropertyAnimator
  //   animator?.pauseAnimation()
  // }
  init(
    startingWith animator: SwipeBackAnimator, context: TransitionContext, at time: Double
  ) throws(ValidationError) {
    self.context = context
    guard let property = try animator.interruptibleAnimator(using: context) else {
      throw ValidationError(field: "animator", reason: .invalidState("not interruptible"))
    }
    self.animator = property
    try self.animator.pauseAnimation(at: time)
  }

  // @objc func handlePan(_ pan: UIScreenEdgePanGestureRecognizer) {
  mutating func handlePan(_ pan: GestureSample, state: PanState, at time: Double)
    throws(ValidationError)
  {
    // let width = ctx.containerView.bounds.width
    let width = context.containerBounds.width
    // let percent = min(max(pan.translation(in: pan.view).x / width, 0), 1)
    let percent = min(max(pan.translation.x / width, 0), 1)
    switch state {
    case .began:
      break  // navigationController.popViewController(animated: true) started the transition
    case .changed:
      // animator.fractionComplete = percent
      try animator.setFractionComplete(percent, at: time)
      // ctx.updateInteractiveTransition(percent)
      try context.updateInteractiveTransition(percent)
    case .ended, .cancelled:
      // let velocity = pan.velocity(in: pan.view).x
      let velocity = pan.velocity.x
      // let finish = pan.state == .ended &&
      //   (abs(velocity) >= width ? velocity > 0 : percent > 0.5)
      let finish = state == .ended && (abs(velocity) >= width ? velocity > 0 : percent > 0.5)
      if finish {
        // ctx.finishInteractiveTransition()
        try context.finishInteractiveTransition()
      } else {
        // animator.isReversed = true
        try animator.setReversed(true, at: time)
        // ctx.cancelInteractiveTransition()
        try context.cancelInteractiveTransition()
      }
      // let remaining = finish ? 1 - percent : percent
      let remaining = finish ? 1 - percent : percent
      // let toTarget = finish ? velocity : -velocity        // points per second
      let toTarget = finish ? velocity : -velocity
      // let dx = remaining > 0 ? toTarget / (remaining * width) : 0
      let dx = remaining > 0 ? toTarget / (remaining * width) : 0
      // let timing = UISpringTimingParameters(dampingRatio: 1,
      //                                       initialVelocity: CGVector(dx: dx, dy: 0))
      let timing = try SpringTimingParameters(
        dampingRatio: 1, initialVelocity: Vector2(dx: dx, dy: 0))
      // animator.continueAnimation(withTimingParameters: timing,
      //                            durationFactor: max(remaining, 0.1))
      try animator.continueAnimation(
        withTimingParameters: .spring(timing), durationFactor: max(remaining, 0.1), at: time)
    }
  }  // }

  /// The display link: moves the clock, and when the animator's completion fires, does what
  /// its completion block does: `ctx.completeTransition(!ctx.transitionWasCancelled)`.
  mutating func tick(to time: Double) throws(ValidationError) {
    if try animator.advance(to: time) != nil {
      try context.completeTransition(!context.transitionWasCancelled)
    }
  }
}

@Suite("Ported interruptible swipe-back")
struct InterruptibleSwipeBackTests {
  static let width = 390.0

  static func context() throws -> TransitionContext {
    let plain = try PresetAnimator(.slideOver).defaultContext(
      operation: .pop, containerSize: Size(width: width, height: 844), content: .bare)
    return try TransitionContext(
      operation: .pop, containerSize: plain.containerSize, fromView: plain.fromView,
      toView: plain.toView, isInteractive: true)
  }

  static func pan(_ translation: Double, velocity: Double = 0) throws -> GestureSample {
    try GestureSample(
      location: Point(x: translation, y: 400), translation: Point(x: translation, y: 0),
      velocity: Point(x: velocity, y: 0))
  }

  /// The x translation of a layer's matrix (its corners move with it).
  static func tx(_ sample: TransitionSample, _ id: String) -> Double? {
    sample[id].map { $0.matrix.m41 }
  }

  /// Scrub to 20 %, 50 %, 60 %, release at 0.3 s with 600 pt/s (≥ one width per second:
  /// finish). While scrubbing the animator is linear: at 50 % **from** is at 195 and **to** at
  /// −0.3·390·0.5 = −58.5. The release continues from q₀ = 0.6 with a critical spring fitted to
  /// 0.4·0.35 = 0.14 s and v0 = 600/(0.4·390) remaining distances per second: at 0.37 s
  /// (half the run) q = 0.6 + 0.4·x(0.07), from at 390·q. The completion fires at 0.44 s at the
  /// end; the context completes finished and only **to** remains, untranslated.
  @Test func releaseFinishes() throws {
    var i = try SwipeBackInteraction(
      startingWith: SwipeBackAnimator(), context: try Self.context(), at: 0)
    try i.handlePan(try Self.pan(0), state: .began, at: 0)
    try i.handlePan(try Self.pan(78), state: .changed, at: 0.1)
    try i.handlePan(try Self.pan(195), state: .changed, at: 0.2)
    let scrubbed = try i.animator.sample(at: 0.2)
    #expect(abs(Self.tx(scrubbed, "from")! - 195) <= 1e-9)
    #expect(abs(Self.tx(scrubbed, "to")! + 58.5) <= 1e-9)
    #expect(scrubbed["to"]!.order < scrubbed["from"]!.order)
    try i.handlePan(try Self.pan(234), state: .changed, at: 0.25)
    #expect(abs(i.context.percentComplete - 0.6) <= 1e-15)
    try i.handlePan(try Self.pan(234, velocity: 600), state: .ended, at: 0.3)
    #expect(!i.context.isInteractive && !i.context.transitionWasCancelled)

    let omega0 = SpringReference.criticalRoot / 0.14
    let v0 = 600 / (0.4 * Self.width)
    let q = 0.6 + 0.4 * SpringReference.critical(omega0: omega0, v0: v0, t: 0.07)
    let mid = try i.animator.sample(at: 0.37)
    #expect(abs(Self.tx(mid, "from")! - Self.width * q) <= 1e-9)
    #expect(abs(Self.tx(mid, "to")! + 0.3 * Self.width * (1 - q)) <= 1e-9)

    try i.tick(to: 0.4)
    #expect(i.context.completion == nil)
    try i.tick(to: 0.5)
    #expect(i.context.completion == .finished)
    let end = try i.animator.sample(at: 0.5)
    #expect(end.isCompleted && !end.isCancelled)
    #expect(end.layers.map(\.id) == ["to"])
    #expect(Self.tx(end, "to") == 0)
    #expect(
      try i.animator.timing.sample(at: 0.5).completionTime.map { abs($0 - 0.44) < 1e-12 } == true)
  }

  /// Scrub to 100/390, release slowly leftwards (−50 pt/s, below one width per second, percent
  /// ≤ 0.5): cancel. The animator runs back from q₀ = 100/390 over max(q₀, 0.1)·0.35 s with
  /// v0 = 50/100 towards the start; it completes at `.start`, the context is cancelled, and only
  /// **from** remains where it began.
  @Test func releaseCancels() throws {
    var i = try SwipeBackInteraction(
      startingWith: SwipeBackAnimator(), context: try Self.context(), at: 0)
    try i.handlePan(try Self.pan(100), state: .changed, at: 0.1)
    try i.handlePan(try Self.pan(100, velocity: -50), state: .ended, at: 0.2)
    #expect(i.context.transitionWasCancelled && i.animator.isReversed)
    let p = 100 / Self.width
    let length = p * 0.35
    let omega0 = SpringReference.criticalRoot / length
    let q = p - p * SpringReference.critical(omega0: omega0, v0: 0.5, t: length / 2)
    let mid = try i.animator.sample(at: 0.2 + length / 2)
    #expect(abs(Self.tx(mid, "from")! - Self.width * q) <= 1e-9)
    try i.tick(to: 1)
    #expect(i.context.completion == .cancelled)
    let end = try i.animator.sample(at: 1)
    #expect(end.isCancelled && end.layers.map(\.id) == ["from"])
    #expect(Self.tx(end, "from") == 0)
  }

  /// A cancelled gesture cancels whatever its velocity.
  @Test func cancelledGestureCancels() throws {
    var i = try SwipeBackInteraction(
      startingWith: SwipeBackAnimator(), context: try Self.context(), at: 0)
    try i.handlePan(try Self.pan(300), state: .changed, at: 0.1)
    try i.handlePan(try Self.pan(300, velocity: 2000), state: .cancelled, at: 0.2)
    try i.tick(to: 2)
    #expect(i.context.completion == .cancelled)
  }

  /// Not interrupted, the animator's scene (`animateTransition`) samples like the animator
  /// started at 0: from x = 390·easeOut(t/0.35).
  @Test func uninterruptedRun() throws {
    let context = try Self.context()
    let scene = try SwipeBackAnimator().animateTransition(using: context)
    var animator = try #require(try SwipeBackAnimator().interruptibleAnimator(using: context))
    try animator.startAnimation(at: 0)
    for t in [0.0, 0.1, 0.2, 0.3, 0.35] {
      let a = try scene.sample(at: t)
      let b = try animator.sample(at: t)
      #expect(a.layers.map(\.id) == b.layers.map(\.id))
      for id in ["from", "to"] {
        guard let x = Self.tx(a, id), let y = Self.tx(b, id) else { continue }
        #expect(abs(x - y) <= 1e-9)
      }
    }
    let q = TimingFunction.easeOut.transform(0.1 / 0.35)
    #expect(abs(Self.tx(try scene.sample(at: 0.1), "from")! - Self.width * q) <= 1e-9)
  }
}
