import Foundation
import Segue
import Testing

// A page-turn flip, ported line by line: half-view snapshots, perspective on a stage layer,
// anchor points on the spine, and a keyframe animation (`UIView.animateKeyframes` with two
// `addKeyframe` blocks). The right half of the page being left turns about the spine to stand
// edge-on at half time; then the left half of the page being shown turns down from edge-on.
//
// One stand-in remains: UIKit code puts the perspective on `containerView.layer.sublayerTransform`;
// the container has no layer here, so a full-container stage layer carries it.

/// The page-flip animator, ported.
struct PageFlipAnimator: TransitionAnimator {
  /// The eye distance of the perspective, points.
  static let eyeDistance = 500.0

  /// `func transitionDuration(using:) -> TimeInterval { 1 }`
  func transitionDuration(using context: TransitionContext) -> Double { 1 }

  /// `func animateTransition(using ctx:)`
  func animateTransition(using context: TransitionContext) throws(ValidationError)
    -> TransitionScene
  {
    let (from, to) = (context.fromID, context.toID)
    let bounds = context.containerBounds
    // let container = ctx.containerView
    var b = context.containerView
    // container.insertSubview(toView, belowSubview: fromView)
    try b.insertSubview(context.view(forKey: .to), belowSubview: from)
    // let (left, right) = container.bounds.divided(atDistance: bounds.width / 2, from: .minXEdge)
    let (left, right) = bounds.divided(atDistance: bounds.width / 2, from: .minXEdge)
    // let page = fromView.resizableSnapshotView(from: right, afterScreenUpdates: false,
    //                                           withCapInsets: .zero)!
    let page = try b.resizableSnapshotView(
      of: from, from: right, afterScreenUpdates: false, withCapInsets: .zero, named: "page")
    // let back = toView.resizableSnapshotView(from: left, afterScreenUpdates: true,
    //                                         withCapInsets: .zero)!
    let back = try b.resizableSnapshotView(
      of: to, from: left, afterScreenUpdates: true, withCapInsets: .zero, named: "back")
    // let fromLeft = fromView.resizableSnapshotView(from: left, …)!
    let fromLeft = try b.resizableSnapshotView(
      of: from, from: left, afterScreenUpdates: false, withCapInsets: .zero, named: "fromLeft")
    // fromView.removeFromSuperview()
    try b.removeFromSuperview(from)
    // container.addSubview(fromLeft); fromLeft.frame = left
    try b.addSubview(fromLeft)
    try b.setFrame(left, of: "fromLeft")
    // var perspective = CATransform3DIdentity; perspective.m34 = -1 / 500
    // container.layer.sublayerTransform = perspective
    try b.add(
      Layer(
        id: "stage", bounds: bounds, position: Point(x: bounds.midX, y: bounds.midY),
        sublayerTransform: .makePerspective(distance: Self.eyeDistance)))
    // container.addSubview(page); page.layer.anchorPoint = CGPoint(x: 0, y: 0.5)
    // page.frame = right
    try b.add(view: page, parent: "stage")
    try b.set(.anchorPoint, of: "page", to: .point(Point(x: 0, y: 0.5)))
    try b.setFrame(right, of: "page")
    // container.addSubview(back); back.layer.anchorPoint = CGPoint(x: 1, y: 0.5)
    // back.frame = left
    // back.layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
    try b.add(view: back, parent: "stage")
    try b.set(.anchorPoint, of: "back", to: .point(Point(x: 1, y: 0.5)))
    try b.setFrame(left, of: "back")
    try b.set(.transform, of: "back", to: .transform(.makeRotation(by: .pi / 2, x: 0, y: 1, z: 0)))
    // UIView.animateKeyframes(withDuration: 1, delay: 0, options: .calculationModeLinear) {
    try b.animateKeyframes(
      withDuration: transitionDuration(using: context), options: .calculationModeLinear
    ) { keyframes throws(ValidationError) in
      //   UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
      //     page.layer.transform = CATransform3DMakeRotation(-.pi / 2, 0, 1, 0) }
      try keyframes.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
        views throws(ValidationError) in
        try views.set(
          .transform, of: "page", to: .transform(.makeRotation(by: -.pi / 2, x: 0, y: 1, z: 0)))
      }
      //   UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) {
      //     back.layer.transform = CATransform3DIdentity }
      try keyframes.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) {
        views throws(ValidationError) in
        try views.set(.transform, of: "back", to: .transform(.identity))
      }
    }  // } completion: { _ in ctx.completeTransition(true) }
    // The completion: the snapshots go, the page being shown stays.
    b.finishChanges = ["stage", "fromLeft"].map { .remove(layerID: $0) }
    return try b.scene(duration: 1, containerSize: context.containerSize)
  }
}

@Suite("Ported: page flip")
struct PageFlipPortTests {
  static let size = Size(width: 390, height: 844)

  static func scene() throws -> TransitionScene {
    var from = LayerTree()
    try from.add(TransitionContext.viewLayer("from", containerSize: size, color: .white))
    var to = LayerTree()
    try to.add(TransitionContext.viewLayer("to", containerSize: size, color: .black))
    let context = try TransitionContext(
      operation: .push, containerSize: size, fromView: from, toView: to)
    return try PageFlipAnimator().animateTransition(using: context)
  }

  /// Where Core Animation puts a point of a half page turned by `θ` about the spine (x = 195):
  /// the point `dx` points from the spine (positive rightwards) and `dy` from the middle row goes
  /// to `(dx·cos θ, dy, −dx·sin θ)` relative to the stage's centre (a rotation about y, row-vector
  /// convention), then the stage's perspective (eye at 500) divides by `w = 1 − z/500`.
  static func projected(dx: Double, dy: Double, angle θ: Double) -> Point {
    let x = dx * cos(θ)
    let z = -dx * sin(θ)
    let w = 1 - z / PageFlipAnimator.eyeDistance
    return Point(x: 195 + x / w, y: 422 + dy / w)
  }

  static func expectCorner(_ sample: TransitionSample, _ id: String, near p: Point) {
    let corners = sample[id]!.corners.map(\.point)
    let hit = corners.contains { abs($0.x - p.x) < 1e-6 && abs($0.y - p.y) < 1e-6 }
    #expect(hit, "\(id): \(corners) has no corner at \(p)")
  }

  /// At t = 0.25 the page is a quarter turn of the way, θ = −π/4 (linear keys (0, 0),
  /// (0.5, −π/2), linear pacing): its outer top corner (dx = 195, dy = −422) comes towards the
  /// viewer, z = 137.89, and lands at (195 + 137.89/0.72423, 422 − 422/0.72423) =
  /// (385.39, −160.68). The back half still stands edge-on.
  @Test func firstHalfTurnsThePage() throws {
    let sample = try Self.scene().sample(at: 0.25)
    let corner = Self.projected(dx: 195, dy: -422, angle: -.pi / 4)
    #expect(abs(corner.x - 385.39) < 0.01 && abs(corner.y + 160.68) < 0.01)
    Self.expectCorner(sample, "page", near: corner)
    // Drawn over the page being shown and the static left half.
    #expect(sample["page"]!.order > sample["to"]!.order)
    #expect(sample["page"]!.order > sample["fromLeft"]!.order)
  }

  /// At t = 0.75 the back half has turned from π/2 half way down, θ = π/4 (keys (0, π/2) held to
  /// 0.5, then to 0 at 1): its outer top corner (dx = −195) is towards the viewer too and lands
  /// at (195 − 190.39, −160.68) = (4.61, −160.68); the page stands edge-on at θ = −π/2.
  @Test func secondHalfLaysTheBackDown() throws {
    let sample = try Self.scene().sample(at: 0.75)
    let corner = Self.projected(dx: -195, dy: -422, angle: .pi / 4)
    #expect(abs(corner.x - 4.61) < 0.01)
    Self.expectCorner(sample, "back", near: corner)
    Self.expectCorner(sample, "page", near: Self.projected(dx: 195, dy: -422, angle: -.pi / 2))
    #expect(sample["back"]!.order > sample["fromLeft"]!.order)
  }

  /// At the end the snapshots are gone and the page being shown fills the container.
  @Test func completionLeavesThePageBeingShown() throws {
    let end = try Self.scene().sample(at: 1)
    #expect(end.isCompleted)
    #expect(end.layers.map(\.id) == ["to"])
  }
}
