import PropertyBased
import Segue
import Testing

func close(_ p: Point, _ x: Double, _ y: Double, relative: Double = 1e-12) -> Bool {
  abs(p.x - x) <= relative * Swift.max(1, abs(x)) && abs(p.y - y) <= relative * Swift.max(1, abs(y))
}

/// Homogeneous mapping, the eye-plane clamp and quad clipping.
@Suite("Transform3D+Mapping")
struct Transform3DMappingTests {
  /// apply(to: Vector4) is the row-vector product: with (1,…,16) as fields and v = (1, 0, 0, 0)
  /// the result is row 1, (1, 2, 3, 4); v = (0, 0, 0, 1) gives row 4, (13, 14, 15, 16);
  /// v = (1, 1, 1, 1) gives the column sums (28, 32, 36, 40).
  @Test func applyToVector4() throws {
    let m = try Transform3D(fields: (1...16).map(Double.init))
    #expect(m.apply(to: Vector4(x: 1, y: 0, z: 0, w: 0)) == Vector4(x: 1, y: 2, z: 3, w: 4))
    #expect(m.apply(to: Vector4(x: 0, y: 0, z: 0, w: 1)) == Vector4(x: 13, y: 14, z: 15, w: 16))
    #expect(m.apply(to: Vector4(x: 1, y: 1, z: 1, w: 1)) == Vector4(x: 28, y: 32, z: 36, w: 40))
  }

  /// Homogeneous divide by hand: m44 = 2 halves everything: (4, 6, 8) → (2, 3), z = 4.
  @Test func projectDividesByW() {
    var m = Transform3D.identity
    m.m44 = 2
    let p = m.project(Vector3(x: 4, y: 6, z: 8))
    #expect(p.point == Point(x: 2, y: 3) && p.z == 4 && p.w == 2 && !p.isBehindEye)
  }

  /// P(100): a point at z = 100 sits in the eye plane (w = 0) and one at z = 200 behind it
  /// (w = 1 − 2 = −1). Both are flagged, clamped to w = 1e-6 and stay finite:
  /// (10, −20, 200) → (10/1e-6, −20/1e-6) = (1e7, −2e7), z = 2e8.
  @Test func behindTheEyeIsFlaggedAndFinite() {
    let p = Transform3D.makePerspective(distance: 100)
    let inPlane = p.project(Vector3(x: 3, y: 4, z: 100))
    #expect(inPlane.isBehindEye && inPlane.w == 0)
    #expect(inPlane.point.x.isFinite && inPlane.point.y.isFinite && inPlane.z.isFinite)
    let behind = p.project(Vector3(x: 10, y: -20, z: 200))
    #expect(behind.isBehindEye && behind.w == -1)
    #expect(close(behind.point, 1e7, -2e7) && abs(behind.z - 2e8) < 1e-4)
    #expect(Transform3D.minimumW == 1e-6)
  }

  /// Just in front of the threshold is divided normally: P(100) at z = 99.99 has w = 1e-4 > 1e-6,
  /// so (1, 1) → (1e4, 1e4) (to the rounding of 1 − 99.99/100).
  @Test func justInFrontIsDivided() {
    let p = Transform3D.makePerspective(distance: 100).project(Vector3(x: 1, y: 1, z: 99.99))
    #expect(!p.isBehindEye && close(p.point, 1e4, 1e4, relative: 1e-9))
  }

  /// No NaN or infinity for any finite point through any finite perspective matrix, whatever w.
  @Test func projectionIsAlwaysFinite() async {
    await propertyCheck(
      count: 300, input: Gen.double(in: -1000...1000).array(of: 3), Gen.double(in: 1...1000)
    ) { v, d in
      let m = Transform3D.makeRotation(by: v[0], x: 1, y: 1, z: 0) * .makePerspective(distance: d)
      let p = m.project(Vector3(x: v[0], y: v[1], z: v[2]))
      #expect(p.point.x.isFinite && p.point.y.isFinite && p.z.isFinite && p.w.isFinite)
      #expect(p.isBehindEye == !(p.w > Transform3D.minimumW))
      for q in m.mapQuad(Quad(Rect(x: v[0], y: v[1], width: v[2], height: d))) {
        #expect(q.x.isFinite && q.y.isFinite)
      }
    }
  }

  /// mapPoint is nil behind the eye and the projected point in front.
  @Test func mapPointNilBehindEye() {
    var m = Transform3D.identity
    m.m14 = -0.01  // w = 1 − x/100
    #expect(m.mapPoint(Point(x: 100, y: 0)) == nil)
    #expect(m.mapPoint(Point(x: 150, y: 0)) == nil)
    #expect(m.mapPoint(Point(x: 50, y: 10)) == Point(x: 100, y: 20))  // w = 0.5
  }

  /// Nothing clipped: an affine matrix maps a quad to its four corners in order.
  @Test func quadWithoutClipping() {
    let q = Transform3D.makeTranslation(x: 5, y: 6, z: 0).mapQuad(
      Quad(Rect(x: 0, y: 0, width: 10, height: 20)))
    #expect(q == [Point(x: 5, y: 6), Point(x: 15, y: 6), Point(x: 15, y: 26), Point(x: 5, y: 26)])
  }

  /// Two corners behind the eye. m14 = −0.01 gives w = 1 − x/100; the rect (0, 0, 200, 100) has
  /// TL, BL at w = 1 and TR, BR at w = −1. Clipping at w = 1e-6 by hand:
  /// TL→TR: t = (1 − 1e-6)/2, X = 200t = 99.9999, Y = 0 → (99.9999/1e-6, 0) = (99999900, 0);
  /// BR→BL: t = (1 + 1e-6)/2, X = 200 − 200t = 99.9999, Y = 100 → (99999900, 1e8);
  /// so the polygon is TL (0, 0), (99999900, 0), (99999900, 1e8), BL (0, 100).
  @Test func quadClippedAtEyePlaneTwoCorners() {
    var m = Transform3D.identity
    m.m14 = -0.01
    let polygon = m.mapQuad(Quad(Rect(x: 0, y: 0, width: 200, height: 100)))
    #expect(polygon.count == 4)
    guard polygon.count == 4 else { return }
    #expect(close(polygon[0], 0, 0))
    #expect(close(polygon[1], 99_999_900, 0, relative: 1e-9))
    #expect(close(polygon[2], 99_999_900, 1e8, relative: 1e-9))
    #expect(close(polygon[3], 0, 100))
    let box = m.mapRect(Rect(x: 0, y: 0, width: 200, height: 100))!
    #expect(abs(box.size.width - 99_999_900) < 1e-1 && abs(box.size.height - 1e8) < 1e-1)
  }

  /// One corner behind: w = 1 − (x + y)/150 on (0, 0, 100, 100) gives TL 1, TR 1/3, BR −1/3,
  /// BL 1/3. By hand: TR → (100·3, 0) = (300, 0); BL → (0, 300); TR→BR is cut at
  /// t = (1/3 − 1e-6)/(2/3) = 0.5 − 1.5e-6, Y = 50 − 1.5e-4 → (1e8, 4.999985e7); BR→BL at
  /// t = (1/3 + 1e-6)/(2/3), X = 100 − 100t = 50 − 1.5e-4 → (4.999985e7, 1e8). Five vertices.
  @Test func quadClippedAtEyePlaneOneCorner() {
    var m = Transform3D.identity
    m.m14 = -1.0 / 150
    m.m24 = -1.0 / 150
    let polygon = m.mapQuad(Quad(Rect(x: 0, y: 0, width: 100, height: 100)))
    #expect(polygon.count == 5)
    guard polygon.count == 5 else { return }
    #expect(close(polygon[0], 0, 0))
    #expect(close(polygon[1], 300, 0))
    #expect(close(polygon[2], 1e8, 4.999985e7, relative: 1e-8))
    #expect(close(polygon[3], 4.999985e7, 1e8, relative: 1e-8))
    #expect(close(polygon[4], 0, 300))
  }

  /// Wholly behind the eye: empty polygon, nil rect.
  @Test func quadFullyBehindIsEmpty() {
    var m = Transform3D.identity
    m.m44 = -1
    #expect(m.mapQuad(Quad(Rect(x: 0, y: 0, width: 10, height: 10))).isEmpty)
    #expect(m.mapRect(Rect(x: 0, y: 0, width: 10, height: 10)) == nil)
  }

  /// Quad corner order from a rect is TL, TR, BR, BL (y-down) and standardises negative sizes.
  @Test func quadFromRect() {
    let q = Quad(Rect(x: 10, y: 20, width: -4, height: 6))
    #expect(
      q.points == [
        Point(x: 6, y: 20), Point(x: 10, y: 20), Point(x: 10, y: 26), Point(x: 6, y: 26),
      ])
    #expect(q.boundingBox == Rect(x: 6, y: 20, width: 4, height: 6))
  }
}
