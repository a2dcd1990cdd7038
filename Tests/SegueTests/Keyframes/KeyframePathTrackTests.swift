import Foundation
import PropertyBased
import Testing

@testable import Segue

@Suite("KeyframePathTrack")
struct KeyframePathTrackTests {
  /// (0, 0) → (100, 0) → (100, 50): lengths 100 and 50.
  static func elbow() throws -> BezierPath {
    try BezierPath(elements: [
      .move(to: .zero), .line(to: Point(x: 100, y: 0)), .line(to: Point(x: 100, y: 50)),
    ])
  }

  static func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
  }

  /// Linear: key times per vertex (even: 0, ½, 1); u = ¼ is half way along the first line,
  /// ¾ half way down the second.
  @Test func linearUsesKeyTimesPerVertex() throws {
    let track = try KeyframePathTrack(path: try Self.elbow())
    #expect(track.vertices == [.zero, Point(x: 100, y: 0), Point(x: 100, y: 50)])
    #expect(track.segmentLengths.map { ($0 * 1e9).rounded() / 1e9 } == [100, 50])
    #expect(Self.close(track.position(at: 0.25), Point(x: 50, y: 0)))
    #expect(Self.close(track.position(at: 0.75), Point(x: 100, y: 25)))
    #expect(track.position(at: 1) == Point(x: 100, y: 50))
    // Beyond the ends (an overshooting curve) the end segments extrapolate their curves.
    #expect(Self.close(track.position(at: -0.1), Point(x: -20, y: 0)))
    #expect(Self.close(track.position(at: 1.1), Point(x: 100, y: 60)))
    let paced = try KeyframePathTrack(path: try Self.elbow(), calculationMode: .paced)
    #expect(paced.position(at: -0.1) == .zero && paced.position(at: 1.1) == Point(x: 100, y: 50))
    // Explicit key times and a per-segment timing function (easeIn on the second segment).
    let timed = try KeyframePathTrack(
      path: try Self.elbow(), keyTimes: [0, 0.2, 1], timingFunctions: [.linear, .easeIn])
    #expect(Self.close(timed.position(at: 0.1), Point(x: 50, y: 0)))
    let e = TimingFunction.easeIn.transform(0.5)
    #expect(Self.close(timed.position(at: 0.6), Point(x: 100, y: 50 * e)))
  }

  /// Paced: constant speed over the 150-point length: u = ½ is 75 points in, u = 0.8 is 120.
  @Test func pacedMovesAtConstantSpeed() throws {
    let track = try KeyframePathTrack(path: try Self.elbow(), calculationMode: .paced)
    #expect(abs(track.length - 150) <= 1e-12)
    #expect(Self.close(track.position(at: 0.5), Point(x: 75, y: 0)))
    #expect(Self.close(track.position(at: 0.8), Point(x: 100, y: 20)))
    // Key times and timing functions are ignored (but checked).
    let ignoring = try KeyframePathTrack(
      path: try Self.elbow(), keyTimes: [0, 0.9, 1], calculationMode: .paced,
      timingFunctions: [.easeIn, .easeOut])
    #expect(ignoring.position(at: 0.8) == track.position(at: 0.8))
  }

  /// Paced along a curve: equal steps in u cover equal arc lengths (each 1/100 of the length,
  /// measured by fine chords), on a strongly curved cubic.
  @Test func pacedCurveHasConstantSpeed() throws {
    let path = try BezierPath(elements: [
      .move(to: .zero),
      .curve(
        to: Point(x: 200, y: 0), control1: Point(x: 0, y: 300), control2: Point(x: 250, y: -50)),
    ])
    let track = try KeyframePathTrack(path: path, calculationMode: .paced)
    let steps = 100
    for k in 0..<steps {
      let a = Double(k) / Double(steps)
      let b = Double(k + 1) / Double(steps)
      let arc = chordLength(
        { track.position(at: a + (b - a) * $0) }, steps: 32)
      #expect(abs(arc - track.length / Double(steps)) <= 1e-7 * track.length, "step \(k)")
    }
  }

  /// rotateAuto on the usual quarter-circle cubic from (100, 0) to (0, 100), y-down: it starts
  /// heading down (π/2), is at 3π/4 half way along its arc (by symmetry, t = ½) and arrives
  /// heading left (π); rotateAutoReverse adds π; no mode, no rotation.
  @Test func rotationFollowsTheTangent() throws {
    let k = 4.0 / 3 * (2.0.squareRoot() - 1)
    let path = try BezierPath(elements: [
      .move(to: Point(x: 100, y: 0)),
      .curve(
        to: Point(x: 0, y: 100), control1: Point(x: 100, y: 100 * k),
        control2: Point(x: 100 * k, y: 100)),
    ])
    let auto = try KeyframePathTrack(path: path, calculationMode: .paced, rotationMode: .rotateAuto)
    #expect(abs(auto.rotation(at: 0)! - Double.pi / 2) <= 1e-12)
    #expect(abs(auto.rotation(at: 0.5)! - 3 * Double.pi / 4) <= 1e-9)
    #expect(abs(auto.rotation(at: 1)! - Double.pi) <= 1e-12)
    let reverse = try KeyframePathTrack(
      path: path, calculationMode: .paced, rotationMode: .rotateAutoReverse)
    #expect(abs(reverse.rotation(at: 0.5)! - 7 * Double.pi / 4) <= 1e-9)
    #expect(try KeyframePathTrack(path: path).rotation(at: 0.5) == nil)
    let mid = auto.position(at: 0.5)
    let r = 0.5.squareRoot() * 100
    // The midpoint of the cubic, B(½) = (p0 + 3c1 + 3c2 + p3)/8 = (50 + 37.5k)·(1, 1): on the
    // circle to ~3e-4 of the radius.
    #expect(abs(mid.x - mid.y) <= 1e-9)
    #expect(abs(mid.x - (50 + 37.5 * k)) <= 1e-9 && abs(mid.x - r) < 0.03)
  }

  /// Discrete: the vertices at their key times, each turned to its incoming segment.
  @Test func discreteShowsVertices() throws {
    let track = try KeyframePathTrack(
      path: try Self.elbow(), calculationMode: .discrete, rotationMode: .rotateAuto)
    #expect(track.position(at: 0.2) == .zero && track.rotation(at: 0.2) == 0)
    #expect(track.position(at: 0.4) == Point(x: 100, y: 0) && track.rotation(at: 0.4) == 0)
    #expect(track.position(at: 0.7) == Point(x: 100, y: 50))
    #expect(abs(track.rotation(at: 0.7)! - Double.pi / 2) <= 1e-15)
    let single = try KeyframePathTrack(
      path: try BezierPath(elements: [.move(to: Point(x: 3, y: 4))]), calculationMode: .discrete,
      rotationMode: .rotateAuto)
    #expect(single.position(at: 0.5) == Point(x: 3, y: 4) && single.rotation(at: 0.5) == 0)
  }

  /// A second subpath: the jump takes no length in paced mode (jump at u = ½ exactly) and holds
  /// the old end point for its key-time interval in linear mode.
  @Test func jumpsBetweenSubpaths() throws {
    let path = try BezierPath(elements: [
      .move(to: .zero), .line(to: Point(x: 10, y: 0)), .move(to: Point(x: 50, y: 50)),
      .line(to: Point(x: 50, y: 60)),
    ])
    let paced = try KeyframePathTrack(
      path: path, calculationMode: .paced, rotationMode: .rotateAuto)
    #expect(paced.segmentLengths[1] == 0)
    #expect(Self.close(paced.position(at: 0.49), Point(x: 9.8, y: 0)))
    #expect(paced.position(at: 0.5) == Point(x: 50, y: 50))
    #expect(Self.close(paced.position(at: 0.75), Point(x: 50, y: 55)))
    #expect(abs(paced.rotation(at: 0.5)! - Double.pi / 2) <= 1e-15)
    let linear = try KeyframePathTrack(path: path, rotationMode: .rotateAuto)
    #expect(linear.position(at: 0.5) == Point(x: 10, y: 0))
    #expect(linear.rotation(at: 0.5) == 0)
    #expect(linear.position(at: 2.0 / 3) == Point(x: 50, y: 50))
  }

  /// closeSubpath draws the line back: half way back along it at u = ¾ (paced), heading left.
  @Test func closeSubpathReturns() throws {
    let path = try BezierPath(elements: [
      .move(to: .zero), .line(to: Point(x: 10, y: 0)), .closeSubpath,
    ])
    let track = try KeyframePathTrack(
      path: path, calculationMode: .paced, rotationMode: .rotateAuto)
    #expect(Self.close(track.position(at: 0.75), Point(x: 5, y: 0)))
    #expect(abs(track.rotation(at: 0.75)! - Double.pi) <= 1e-15)
    #expect(track.position(at: 1) == .zero)
  }

  /// cubic and cubicPaced behave as linear and paced (the path's own curves are the spline).
  @Test func cubicModesFollowThePath() throws {
    let path = try Self.elbow()
    let linear = try KeyframePathTrack(path: path)
    let cubic = try KeyframePathTrack(path: path, calculationMode: .cubic)
    let paced = try KeyframePathTrack(path: path, calculationMode: .paced)
    let cubicPaced = try KeyframePathTrack(path: path, calculationMode: .cubicPaced)
    for u in stride(from: 0.0, through: 1, by: 0.05) {
      #expect(linear.position(at: u) == cubic.position(at: u))
      #expect(paced.position(at: u) == cubicPaced.position(at: u))
    }
  }

  /// A path that stays at one point: constant position, angle 0, even pacing.
  @Test func degeneratePath() throws {
    let p = Point(x: 7, y: 7)
    let track = try KeyframePathTrack(
      path: try BezierPath(elements: [.move(to: p), .line(to: p), .line(to: p)]),
      calculationMode: .paced, rotationMode: .rotateAuto)
    #expect(track.length == 0 && track.position(at: 0.3) == p && track.rotation(at: 0.3) == 0)
  }

  @Test func rejections() throws {
    #expect(throws: ValidationError(field: "path", reason: .tooFew(minimum: 2, actual: 0))) {
      try KeyframePathTrack(path: BezierPath())
    }
    #expect(throws: ValidationError(field: "path", reason: .tooFew(minimum: 2, actual: 1))) {
      try KeyframePathTrack(path: try BezierPath(elements: [.move(to: .zero)]))
    }
    #expect(
      throws: ValidationError(field: "keyTimes", reason: .countMismatch(expected: 3, actual: 2))
    ) {
      try KeyframePathTrack(path: try Self.elbow(), keyTimes: [0, 1])
    }
    #expect(throws: ValidationError(field: "keyTimes", index: 0, reason: .mustEqual(0))) {
      try KeyframePathTrack(path: try Self.elbow(), keyTimes: [0.1, 0.5, 1])
    }
    #expect(
      throws: ValidationError(field: "keyTimes", index: 1, reason: .outOfRange(lower: 0, upper: 1))
    ) {
      try KeyframePathTrack(path: try Self.elbow(), keyTimes: [0, 1.5, 1], calculationMode: .paced)
    }
    #expect(
      throws: ValidationError(
        field: "timingFunctions", reason: .countMismatch(expected: 2, actual: 1))
    ) {
      try KeyframePathTrack(path: try Self.elbow(), timingFunctions: [.easeIn])
    }
  }

  /// A path animates a point property only.
  @Test func animationNeedsAPointProperty() throws {
    let track = try KeyframePathTrack(path: try Self.elbow())
    #expect(
      throws: ValidationError(
        field: "path", reason: .invalidState("moves a point, but opacity holds a number"))
    ) {
      try LayerAnimation(
        property: .opacity, content: .path(track), timing: MediaTiming(duration: 1))
    }
    let anchor = try LayerAnimation(
      property: .anchorPoint, content: .path(track), timing: MediaTiming(duration: 1))
    #expect(CompiledAnimation(anchor).value(atEased: 0.25) == .point(Point(x: 50, y: 0)))
  }

  /// In a scene: position follows the path; rotateAuto turns the presented transform after the
  /// layer's own (`transform · Rz(θ)`); the model ends at the last vertex with its own transform;
  /// the batch rejects path animations.
  @Test func inAScene() throws {
    var b = SceneBuilder()
    try b.add(
      Layer(
        id: "icon", bounds: Rect(x: 0, y: 0, width: 20, height: 10),
        transform: .makeScale(x: 2, y: 2, z: 1))
    )
    let track = try KeyframePathTrack(
      path: try Self.elbow(), calculationMode: .paced, rotationMode: .rotateAuto)
    try b.animate(.position, of: "icon", path: track, duration: 1.5)
    #expect(b.model[id: "icon"]!.position == Point(x: 100, y: 50))
    let scene = try b.scene(duration: 1.5, containerSize: Size(width: 200, height: 200))
    let presented = scene.presentation(at: 1.2)[id: "icon"]!  // u = 0.8: (100, 20), heading down
    #expect(Self.close(presented.position, Point(x: 100, y: 20)))
    let expected = Transform3D.makeScale(x: 2, y: 2, z: 1).concatenating(
      .makeRotation(by: Double.pi / 2, x: 0, y: 0, z: 1))
    #expect(zip(presented.transform.fields, expected.fields).allSatisfy { abs($0 - $1) <= 1e-12 })
    #expect(scene.presentation(at: 1.5)[id: "icon"]!.transform == .makeScale(x: 2, y: 2, z: 1))
    #expect(throws: ValidationError.self) {
      try SceneBatch([.init(scene: scene, clock: .timed(start: 0, speed: 1))])
    }
  }
}
