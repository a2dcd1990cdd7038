import Foundation
import Segue
import Testing

// Porting a keyframe path animation, line by line (the third example of the PortingAnAnimator
// article): an "add to cart" icon flies from the product to the cart along a quadratic curve,
// turning with the path (`rotationMode = .rotateAuto`) at constant speed (`.paced`), eased in,
// while a scale keyframe animation grows it and shrinks it into the cart; when it lands, it is
// removed. The Core Animation code is in the comments.

/// The animation, for an icon at `start` flying to `cart` in a container of `size`.
struct FlyToCart {
  var start = Point(x: 80, y: 600)
  var cart = Point(x: 340, y: 60)
  var size = Size(width: 390, height: 844)

  /// The curve's control point: above the start, level with the cart.
  var control: Point { Point(x: start.x, y: cart.y) }

  func scene() throws(ValidationError) -> TransitionScene {
    var b = SceneBuilder()
    // let icon = CALayer(); icon.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
    // icon.position = start; container.addSublayer(icon)
    try b.add(
      Layer(
        id: "icon", bounds: Rect(x: 0, y: 0, width: 40, height: 40), position: start,
        backgroundColor: .black, cornerRadius: 8))

    // let path = CGMutablePath()
    var path = BezierPath()
    // path.move(to: start)
    try path.move(to: start)
    // path.addQuadCurve(to: cart, control: CGPoint(x: start.x, y: cart.y))
    try path.addQuadCurve(to: cart, control: control)

    // let move = CAKeyframeAnimation(keyPath: "position")
    // move.path = path
    // move.calculationMode = .paced
    // move.rotationMode = .rotateAuto
    let move = try KeyframePathTrack(path: path, calculationMode: .paced, rotationMode: .rotateAuto)
    // move.duration = 0.8
    // move.timingFunction = CAMediaTimingFunction(name: .easeIn)
    // icon.add(move, forKey: "move"); icon.position = cart
    try b.animate(.position, of: "icon", path: move, duration: 0.8, timingParameters: .easeIn)

    // let scale = CAKeyframeAnimation(keyPath: "transform.scale")
    // scale.values = [1, 1.4, 0.25]
    // scale.keyTimes = [0, 0.3, 1]
    let scale = try KeyframeTrack<Double>(values: [1, 1.4, 0.25], keyTimes: [0, 0.3, 1])
    // scale.duration = 0.8
    // icon.add(scale, forKey: "scale"); icon.transform = CATransform3DMakeScale(0.25, 0.25, 1)
    try b.animate(
      .transformComponent(.scale), of: "icon", keyframes: .numbers(scale), duration: 0.8)

    // CATransaction.setCompletionBlock { icon.removeFromSuperlayer() }
    b.finishChanges = [.remove(layerID: "icon")]
    return try b.scene(duration: 0.8, containerSize: size)
  }
}

@Suite("Ported fly-to-cart keyframe path")
struct FlyToCartTests {
  /// At t = 0.4 s: the move's eased progress is easeIn(0.5) = 0.31535681257253930426 (mpmath,
  /// as in the PropertyAnimator tests), so the icon is that fraction of the arc length along the
  /// curve, turned to the tangent there; the scale track is at u = 0.5, 2/7 of the way from 1.4
  /// to 0.25: 1.4 − 1.15·2/7. The top-left corner is `position + Rz(θ)·S(v)·(−20, −20)`.
  @Test func midFlightByHand() throws {
    let fly = FlyToCart()
    let scene = try fly.scene()
    let reference = QuadraticReference(p0: fly.start, p1: fly.control, p2: fly.cart)
    let e = 0.31535681257253930426
    let t = reference.parameter(atLength: e * reference.length(1))
    let position = reference.point(t)
    let theta = reference.angle(t)
    let v = 1.4 - 1.15 * 2 / 7
    let sample = try scene.sample(at: 0.4)
    let icon = try #require(sample["icon"])
    #expect(abs(icon.matrix.m41 - (position.x - v * (20 * cos(theta) - 20 * sin(theta)))) <= 1e-9)
    let corner = icon.corners[0].point
    let x = position.x + v * (-20 * cos(theta) + 20 * sin(theta))
    let y = position.y + v * (-20 * sin(theta) - 20 * cos(theta))
    #expect(abs(corner.x - x) <= 1e-9 && abs(corner.y - y) <= 1e-9, "\(corner) vs (\(x), \(y))")
    #expect(icon.cornerRadius == 8)
  }

  /// At the start the icon faces straight up (the curve leaves the start towards the control
  /// point above it: θ = −π/2) at full size; it lands at the cart facing right (θ = 0), then is
  /// removed.
  @Test func startAndEnd() throws {
    let fly = FlyToCart()
    let scene = try fly.scene()
    let start = try #require(try scene.sample(at: 0)["icon"])
    #expect(abs(start.corners[0].point.x - (fly.start.x - 20)) <= 1e-9)
    #expect(abs(start.corners[0].point.y - (fly.start.y + 20)) <= 1e-9)
    let landing = scene.presentation(at: 0.8 - 1e-9)[id: "icon"]!
    #expect(
      abs(landing.position.x - fly.cart.x) <= 1e-4 && abs(landing.position.y - fly.cart.y) <= 1e-4)
    #expect(abs(landing.transform.m12) <= 1e-6 && abs(landing.transform.m11 - 0.25) <= 1e-6)
    let end = try scene.sample(at: 0.8)
    #expect(end.isCompleted && end["icon"] == nil)
  }
}
