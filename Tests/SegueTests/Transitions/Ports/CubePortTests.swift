import Foundation
import Segue
import Testing

// A cube push, ported line by line: perspective on the container's own layer, the two views as
// two faces hinged on their shared edge (anchor points on it), the edge sliding from the right
// side of the container to the left while the face being left turns away (−π/2 about y) and the
// face being shown turns in (from π/2 to 0), in one UIView animation block.

/// The cube animator, ported.
struct CubeAnimator: TransitionAnimator {
  /// The eye distance of the container's perspective, points.
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
    // var perspective = CATransform3DIdentity; perspective.m34 = -1 / 500
    // container.layer.sublayerTransform = perspective
    try b.setContainer(
      .sublayerTransform, to: .transform(.makePerspective(distance: Self.eyeDistance)))
    // container.addSubview(toView)
    try b.addSubview(context.view(forKey: .to))
    // fromView.layer.anchorPoint = CGPoint(x: 1, y: 0.5)
    // fromView.layer.position = CGPoint(x: bounds.maxX, y: bounds.midY)
    try b.set(.anchorPoint, of: from, to: .point(Point(x: 1, y: 0.5)))
    try b.set(.position, of: from, to: .point(Point(x: bounds.maxX, y: bounds.midY)))
    // toView.layer.anchorPoint = CGPoint(x: 0, y: 0.5)
    // toView.layer.position = CGPoint(x: bounds.maxX, y: bounds.midY)
    // toView.layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
    try b.set(.anchorPoint, of: to, to: .point(Point(x: 0, y: 0.5)))
    try b.set(.position, of: to, to: .point(Point(x: bounds.maxX, y: bounds.midY)))
    try b.set(.transform, of: to, to: .transform(.makeRotation(by: .pi / 2, x: 0, y: 1, z: 0)))
    // UIView.animate(withDuration: 1, delay: 0, options: .curveEaseInOut) {
    try b.animate(withDuration: transitionDuration(using: context)) {
      views throws(ValidationError) in
      //   fromView.layer.position.x = bounds.minX
      //   fromView.layer.transform = CATransform3DMakeRotation(-.pi / 2, 0, 1, 0)
      try views.set(.position, of: from, to: .point(Point(x: bounds.minX, y: bounds.midY)))
      try views.set(
        .transform, of: from, to: .transform(.makeRotation(by: -.pi / 2, x: 0, y: 1, z: 0)))
      //   toView.layer.position.x = bounds.minX
      //   toView.layer.transform = CATransform3DIdentity
      try views.set(.position, of: to, to: .point(Point(x: bounds.minX, y: bounds.midY)))
      try views.set(.transform, of: to, to: .transform(.identity))
    }  // } completion: { _ in
    //   fromView.removeFromSuperview(); container.layer.sublayerTransform = CATransform3DIdentity
    //   ctx.completeTransition(!ctx.transitionWasCancelled) }
    b.finishChanges = [.remove(layerID: from)]
    b.cancelChanges = [.remove(layerID: to)]
    return try b.scene(duration: 1, containerSize: context.containerSize)
  }
}

@Suite("Ported: cube")
struct CubePortTests {
  static let size = Size(width: 390, height: 844)

  static func scene() throws -> TransitionScene {
    var from = LayerTree()
    try from.add(TransitionContext.viewLayer("from", containerSize: size, color: .white))
    var to = LayerTree()
    try to.add(TransitionContext.viewLayer("to", containerSize: size, color: .black))
    let context = try TransitionContext(
      operation: .push, containerSize: size, fromView: from, toView: to)
    return try CubeAnimator().animateTransition(using: context)
  }

  /// Where Core Animation puts a point of a face hinged on the shared edge at `edge`, turned by
  /// `θ` about y: the point `dx` points from the edge (positive rightwards) and `dy` from the
  /// middle row goes to `(edge + dx·cos θ, dy, −dx·sin θ)` (a rotation about y, row vectors),
  /// then the container's perspective, about its centre (195, 422), divides by
  /// `w = 1 − z/500`.
  static func projected(edge: Double, dx: Double, dy: Double, angle θ: Double) -> Point {
    let x = edge + dx * cos(θ)
    let z = -dx * sin(θ)
    let w = 1 - z / CubeAnimator.eyeDistance
    return Point(x: 195 + (x - 195) / w, y: 422 + dy / w)
  }

  static func expectCorner(_ sample: TransitionSample, _ id: String, near p: Point) {
    let corners = sample[id]!.corners.map(\.point)
    let hit = corners.contains { abs($0.x - p.x) < 1e-6 && abs($0.y - p.y) < 1e-6 }
    #expect(hit, "\(id): \(corners) has no corner at \(p)")
  }

  /// At half time the ease-in-ease-out curve is at exactly 0.5 (it is symmetric), so the edge is
  /// at x = 195, the face being left has turned by −π/4 and the face being shown by π/4. The
  /// left face's outer top corner (dx = −390, dy = −422) goes to x = 195 − 275.77, z = −275.77:
  /// w = 1.55154, drawn at (17.26, 150.01); the right face's outer top corner mirrors it at
  /// (372.74, 150.01); the shared edge stays in the plane, at (195, 0).
  @Test func halfTimeValues() throws {
    let sample = try Self.scene().sample(at: 0.5)
    let left = Self.projected(edge: 195, dx: -390, dy: -422, angle: -.pi / 4)
    #expect(abs(left.x - 17.26) < 0.01 && abs(left.y - 150.01) < 0.01)
    Self.expectCorner(sample, "from", near: left)
    Self.expectCorner(sample, "from", near: Point(x: 195, y: 0))
    let right = Self.projected(edge: 195, dx: 390, dy: -422, angle: .pi / 4)
    #expect(abs(right.x - 372.74) < 0.01)
    Self.expectCorner(sample, "to", near: right)
    Self.expectCorner(sample, "to", near: Point(x: 195, y: 0))
  }

  /// The cube at time `t`, in the curve's fraction: the edge at `390·(1 − e)`, the faces at
  /// `−π/2·e` and `π/2·(1 − e)`.
  @Test(arguments: [0.2, 0.35, 0.65, 0.8])
  func valuesFollowTheCurve(_ t: Double) throws {
    let e = TimingFunction.easeInEaseOut.transform(t)
    let sample = try Self.scene().sample(at: t)
    let edge = 390 * (1 - e)
    Self.expectCorner(
      sample, "from",
      near: Self.projected(edge: edge, dx: -390, dy: 422, angle: -.pi / 2 * e))
    Self.expectCorner(
      sample, "to", near: Self.projected(edge: edge, dx: 390, dy: 422, angle: .pi / 2 * (1 - e)))
  }

  /// Where one face's projection covers the other's (the far part of the face turned deep
  /// behind the plane shows past the edge), the nearer face is drawn on top: early, the face
  /// being left over the face being shown although the latter was added above it; late, the
  /// face being shown.
  @Test(arguments: [0.05, 0.1, 0.9, 0.95])
  func nearerFaceIsDrawnOnTop(_ t: Double) throws {
    let sample = try Self.scene().sample(at: t)
    let (near, far) = t < 0.5 ? ("from", "to") : ("to", "from")
    #expect(Self.overlap(sample, far: far) != nil, "the faces overlap at t = \(t)")
    #expect(sample[near]!.order > sample[far]!.order)
  }

  /// The screen interval of the middle row where the face `far` (turned deep behind the plane)
  /// shows past the shared edge: between the edge and its outer edge, when they cross.
  static func overlap(_ sample: TransitionSample, far: String) -> ClosedRange<Double>? {
    let corners = sample[far]!.corners.map(\.point)
    // TL, TR, BR, BL: the face being left is hinged on its right edge, the face being shown on
    // its left edge.
    let (edge, outer) = far == "from" ? (corners[1].x, corners[0].x) : (corners[0].x, corners[1].x)
    let range = min(edge, outer)...max(edge, outer)
    let crosses = far == "from" ? outer > edge : outer < edge
    return crosses ? range : nil
  }

  /// Completing leaves the face being shown, flat, filling the container.
  @Test func completionLeavesThePageBeingShown() throws {
    let end = try Self.scene().sample(at: 1)
    #expect(end.isCompleted)
    #expect(end.layers.map(\.id) == ["to"])
    Self.expectCorner(end, "to", near: Point(x: 0, y: 0))
    Self.expectCorner(end, "to", near: Point(x: 390, y: 844))
  }
}
