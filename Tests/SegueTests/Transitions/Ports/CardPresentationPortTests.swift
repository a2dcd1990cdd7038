import Foundation
import Segue
import Testing

// An iOS 13-style card presentation, ported line by line: a `UIViewPropertyAnimator` with a
// mass/stiffness/damping spring (duration 0, as UIKit code writes it) animating the presented
// view's frame and corner radius and the presenting view's alpha, started inside
// `animateTransition(using:)`. The UIKit lines are quoted beside their Segue lines; the article
// "Ported animators" shows them side by side.

/// The card presentation animator, ported.
struct CardPresentationAnimator: TransitionAnimator {
  /// The gap above the card, points.
  static let topInset = 40.0

  /// `func transitionDuration(using:) -> TimeInterval { 0.5 }` (the spring ignores it).
  func transitionDuration(using context: TransitionContext) -> Double { 0.5 }

  /// `func interruptibleAnimator(using ctx:) -> UIViewImplicitlyAnimating`
  func interruptibleAnimator(using context: TransitionContext) throws(ValidationError)
    -> ViewPropertyAnimator?
  {
    // let container = ctx.containerView
    var container = context.containerView
    // let toView = ctx.view(forKey: .to)!; container.addSubview(toView)
    try container.addSubview(context.view(forKey: .to))
    let (from, to) = (context.fromID, context.toID)
    // let final = ctx.finalFrame(for: ctx.viewController(forKey: .to)!)
    let final = context.finalFrame(for: context.viewController(forKey: .to))
    // toView.frame = final.offsetBy(dx: 0, dy: final.height)
    try container.setFrame(final.offsetBy(dx: 0, dy: final.height), of: to)
    // toView.clipsToBounds = true
    try container.set(.masksToBounds, of: to, to: .boolean(true))
    // toView.layer.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
    try container.set(
      .maskedCorners, of: to, to: .cornerMask([.layerMinXMinYCorner, .layerMaxXMinYCorner]))
    // let spring = UISpringTimingParameters(mass: 1, stiffness: 300, damping: 30,
    //                                       initialVelocity: .zero)
    let spring = try SpringTimingParameters(mass: 1, stiffness: 300, damping: 30)
    // let animator = UIViewPropertyAnimator(duration: 0, timingParameters: spring)
    var animator = try ViewPropertyAnimator(
      duration: 0, timingParameters: .spring(spring), container: container)
    // animator.addAnimations {
    try animator.addAnimations { views throws(ValidationError) in
      //   toView.frame = final.inset(by: UIEdgeInsets(top: 40, left: 0, bottom: 0, right: 0))
      try views.setFrame(
        final.inset(by: EdgeInsets(top: Self.topInset, left: 0, bottom: 0, right: 0)), of: to)
      //   toView.layer.cornerRadius = 10
      try views.set(.cornerRadius, of: to, to: .number(10))
      //   fromView.alpha = 0.8
      try views.set(.opacity, of: from, to: .number(0.8))
    }  // }
    // animator.addCompletion { _ in ctx.completeTransition(!ctx.transitionWasCancelled) }
    // (the completion leaves both views in place: a card presentation keeps the presenter)
    return animator
  }

  /// `func animateTransition(using ctx:) { interruptibleAnimator(using: ctx).startAnimation() }`
  func animateTransition(using context: TransitionContext) throws(ValidationError)
    -> TransitionScene
  {
    guard var animator = try interruptibleAnimator(using: context) else {
      throw ValidationError(field: "animator", reason: .invalidState("none"))
    }
    try animator.startAnimation(at: 0)
    return try animator.scene(containerSize: context.containerSize)
  }
}

@Suite("Ported: card presentation")
struct CardPresentationPortTests {
  static let size = Size(width: 390, height: 844)

  static func context() throws -> TransitionContext {
    var from = LayerTree()
    try from.add(TransitionContext.viewLayer("from", containerSize: size))
    var to = LayerTree()
    try to.add(TransitionContext.viewLayer("to", containerSize: size))
    return try TransitionContext(
      operation: .present, containerSize: size, fromView: from, toView: to)
  }

  /// The spring from first principles: m = 1, k = 300, c = 30 give ω0 = √300 rad/s and
  /// ζ = c/(2√(mk)) = √3/2 (underdamped), so with ωd = ω0·√(1 − ζ²) and zero initial velocity
  /// x(t) = 1 − e^(−ζω0·t)·(cos ωd·t + (ζω0/ωd)·sin ωd·t).
  static func x(_ t: Double) -> Double {
    let omega0 = 300.0.squareRoot()
    let zeta = 30 / (2 * omega0)
    let decay = zeta * omega0
    let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
    return 1 - exp(-decay * t) * (cos(omegaD * t) + decay / omegaD * sin(omegaD * t))
  }

  /// The card's frame goes from (0, 844, 390, 844) to (0, 40, 390, 804): its centre y from
  /// 844 + 422 = 1266 to 40 + 402 = 442, its height from 844 to 804; the corner radius from 0 to
  /// 10; the presenter's opacity from 1 to 0.8; each at the spring's progress x(t).
  @Test func sampledValuesFollowTheSpring() throws {
    let scene = try CardPresentationAnimator().animateTransition(using: try Self.context())
    for t in [0.05, 0.1, 0.2, 0.35] {
      let p = Self.x(t)
      let tree = scene.presentation(at: t)
      let card = try #require(tree[id: "to"])
      #expect(abs(card.position.y - (1266 - 824 * p)) < 0.01, "t = \(t)")
      #expect(abs(card.bounds.height - (844 - 40 * p)) < 0.01)
      #expect(abs(card.cornerRadius - 10 * p) < 1e-4)
      #expect(abs(tree[id: "from"]!.opacity - (1 - 0.2 * p)) < 1e-4)
      #expect(
        card.masksToBounds && card.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMinYCorner])
    }
    // x(0.1) by hand: e^(−1.5) = 0.223130, ωd·0.1 = 0.866025, so
    // x = 1 − 0.223130·(0.647859 + 1.732051·0.761760) = 0.561044.
    #expect(abs(Self.x(0.1) - 0.561044) < 1e-6)
    let end = scene.presentation(at: scene.duration)[id: "to"]!
    #expect(end.frame == Rect(x: 0, y: 40, width: 390, height: 804))
    // The card is drawn above the presenter at every moment.
    let sample = try scene.sample(at: 0.1)
    #expect(sample["to"]!.order > sample["from"]!.order)
  }

  /// The scene lasts the spring's settling duration, whatever `transitionDuration` says.
  @Test func theSpringSetsTheDuration() throws {
    let context = try Self.context()
    let animator = try #require(
      try CardPresentationAnimator().interruptibleAnimator(using: context))
    let scene = try CardPresentationAnimator().animateTransition(using: context)
    #expect(scene.duration == animator.duration)
    #expect(animator.duration != 0.5 && animator.duration > 0.3)
  }
}
