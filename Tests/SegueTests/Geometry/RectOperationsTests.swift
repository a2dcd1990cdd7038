import PropertyBased
import Segue
import Testing

/// Core Graphics' rectangle operations on ``Rect``: standardisation, the null rectangle, offsets,
/// insets (CGRectInset's null result and UIEdgeInsetsInsetRect's raw arithmetic) and
/// CGRectDivide's clamping, with values worked out by hand.
@Suite("Rect operations")
struct RectOperationsTests {
  /// (10, 20) with size (−30, −40) covers x 10−30 … 10 and y 20−40 … 20: standardised it is
  /// (−20, −20, 30, 40); a positive size is unchanged; null stays null.
  @Test func standardizedFlipsNegativeSizes() {
    #expect(
      Rect(x: 10, y: 20, width: -30, height: -40).standardized
        == Rect(x: -20, y: -20, width: 30, height: 40))
    #expect(
      Rect(x: 1, y: 2, width: 3, height: 4).standardized == Rect(x: 1, y: 2, width: 3, height: 4))
    #expect(Rect.null.standardized.isNull)
  }

  /// Null is origin (+∞, +∞) and size 0: null and empty; a zero width is empty but not null.
  @Test func nullAndEmpty() {
    #expect(Rect.null.isNull && Rect.null.isEmpty)
    #expect(Rect.null.origin.x == .infinity && Rect.null.size == .zero)
    #expect(!Rect.zero.isNull && Rect.zero.isEmpty)
    #expect(Rect(x: 0, y: 0, width: 0, height: 5).isEmpty)
    #expect(!Rect(x: 0, y: 0, width: -1, height: 5).isEmpty)
  }

  /// `offsetBy`: (10, 20, −30, −40) moved by (5, −5) is its standard form (−20, −20, 30, 40)
  /// moved: (−15, −25, 30, 40). Null does not move.
  @Test func offsetByStandardises() {
    #expect(
      Rect(x: 10, y: 20, width: -30, height: -40).offsetBy(dx: 5, dy: -5)
        == Rect(x: -15, y: -25, width: 30, height: 40))
    #expect(Rect.null.offsetBy(dx: 1, dy: 1).isNull)
  }

  /// `insetBy`: (0, 0, 100, 50) inset by (10, 5) is (10, 5, 80, 40); by (−10, 0) it grows to
  /// (−10, 0, 120, 50); by (60, 0) the width would be −20, so the result is null; (50, 25) gives
  /// the empty (50, 25, 0, 0), not null. A negative size is standardised first: (100, 50, −100,
  /// −50) inset by (10, 5) is also (10, 5, 80, 40).
  @Test func insetByReturnsNullPastTheMiddle() {
    let r = Rect(x: 0, y: 0, width: 100, height: 50)
    #expect(r.insetBy(dx: 10, dy: 5) == Rect(x: 10, y: 5, width: 80, height: 40))
    #expect(r.insetBy(dx: -10, dy: 0) == Rect(x: -10, y: 0, width: 120, height: 50))
    #expect(r.insetBy(dx: 60, dy: 0).isNull)
    #expect(r.insetBy(dx: 0, dy: 26).isNull)
    #expect(r.insetBy(dx: 50, dy: 25) == Rect(x: 50, y: 25, width: 0, height: 0))
    #expect(
      Rect(x: 100, y: 50, width: -100, height: -50).insetBy(dx: 10, dy: 5)
        == Rect(x: 10, y: 5, width: 80, height: 40))
    #expect(Rect.null.insetBy(dx: -5, dy: -5).isNull)
  }

  /// `inset(by:)`: (0, 0, 100, 50) with top 1, left 2, bottom 3, right 4 is (2, 1, 94, 46); an
  /// inset larger than the rectangle leaves a negative size (UIKit's inline arithmetic, no null).
  @Test func insetByEdgeInsetsIsRawArithmetic() {
    let r = Rect(x: 0, y: 0, width: 100, height: 50)
    let insets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
    #expect(r.inset(by: insets) == Rect(x: 2, y: 1, width: 94, height: 46))
    #expect(
      r.inset(by: EdgeInsets(top: 30, left: 60, bottom: 30, right: 60))
        == Rect(x: 60, y: 30, width: -20, height: -10))
    #expect(r.inset(by: .zero) == r)
  }

  /// `divided`: (0, 0, 100, 50) at 30 from each edge. minX: slice (0, 0, 30, 50), remainder
  /// (30, 0, 70, 50); maxX: slice (70, 0, 30, 50), remainder (0, 0, 70, 50); minY: slice
  /// (0, 0, 100, 30), remainder (0, 30, 100, 20); maxY: slice (0, 20, 100, 30), remainder
  /// (0, 0, 100, 20).
  @Test func dividedFromEachEdge() {
    let r = Rect(x: 0, y: 0, width: 100, height: 50)
    let minX = r.divided(atDistance: 30, from: .minXEdge)
    #expect(minX.slice == Rect(x: 0, y: 0, width: 30, height: 50))
    #expect(minX.remainder == Rect(x: 30, y: 0, width: 70, height: 50))
    let maxX = r.divided(atDistance: 30, from: .maxXEdge)
    #expect(maxX.slice == Rect(x: 70, y: 0, width: 30, height: 50))
    #expect(maxX.remainder == Rect(x: 0, y: 0, width: 70, height: 50))
    let minY = r.divided(atDistance: 30, from: .minYEdge)
    #expect(minY.slice == Rect(x: 0, y: 0, width: 100, height: 30))
    #expect(minY.remainder == Rect(x: 0, y: 30, width: 100, height: 20))
    let maxY = r.divided(atDistance: 30, from: .maxYEdge)
    #expect(maxY.slice == Rect(x: 0, y: 20, width: 100, height: 30))
    #expect(maxY.remainder == Rect(x: 0, y: 0, width: 100, height: 20))
  }

  /// The distance is clamped to [0, width]: −10 from minX gives an empty slice at the left,
  /// 500 an empty remainder at the right; a negative size is standardised first; null divides
  /// into two nulls.
  @Test func dividedClampsAndStandardises() {
    let r = Rect(x: 0, y: 0, width: 100, height: 50)
    let none = r.divided(atDistance: -10, from: .minXEdge)
    #expect(none.slice == Rect(x: 0, y: 0, width: 0, height: 50))
    #expect(none.remainder == r)
    let all = r.divided(atDistance: 500, from: .maxXEdge)
    #expect(all.slice == r)
    #expect(all.remainder == Rect(x: 0, y: 0, width: 0, height: 50))
    let flipped = Rect(x: 100, y: 50, width: -100, height: -50).divided(
      atDistance: 30, from: .minXEdge)
    #expect(flipped.slice == Rect(x: 0, y: 0, width: 30, height: 50))
    let null = Rect.null.divided(atDistance: 1, from: .minYEdge)
    #expect(null.slice.isNull && null.remainder.isNull)
  }

  /// For any rectangle, edge and distance the slice and remainder tile the standardised
  /// rectangle: sizes add up along the cut, both are standard, and the slice touches the edge.
  @Test func divideTilesTheRectangle() async {
    await propertyCheck(
      count: 300, input: Gen.double(in: -100...100), Gen.double(in: -100...100),
      Gen.double(in: -200...200), Gen.int(in: 0...3)
    ) { width, height, distance, e in
      let edge = RectEdge.allCases[e]
      let r = Rect(x: 7, y: -3, width: width, height: height)
      let (slice, remainder) = r.divided(atDistance: distance, from: edge)
      let s = r.standardized
      #expect(slice.size.width >= 0 && slice.size.height >= 0)
      #expect(remainder.size.width >= 0 && remainder.size.height >= 0)
      switch edge {
      case .minXEdge, .maxXEdge:
        #expect(abs(slice.size.width + remainder.size.width - s.size.width) < 1e-9)
        #expect(slice.size.height == s.size.height && remainder.size.height == s.size.height)
        let touching = edge == .minXEdge ? slice.minX == s.minX : abs(slice.maxX - s.maxX) < 1e-9
        #expect(touching)
      case .minYEdge, .maxYEdge:
        #expect(abs(slice.size.height + remainder.size.height - s.size.height) < 1e-9)
        #expect(slice.size.width == s.size.width && remainder.size.width == s.size.width)
        let touching = edge == .minYEdge ? slice.minY == s.minY : abs(slice.maxY - s.maxY) < 1e-9
        #expect(touching)
      }
    }
  }

  /// Offsetting and insetting by zero standardise and change nothing else; insetting by `d` and
  /// then by `−d` is the identity while the first result is not null.
  @Test func insetRoundTrip() async {
    await propertyCheck(
      count: 300, input: Gen.double(in: -100...100), Gen.double(in: -100...100),
      Gen.double(in: -60...60), Gen.double(in: -60...60)
    ) { width, height, dx, dy in
      let r = Rect(x: 1, y: 2, width: width, height: height)
      #expect(r.offsetBy(dx: 0, dy: 0) == r.standardized)
      #expect(r.insetBy(dx: 0, dy: 0) == r.standardized)
      let inset = r.insetBy(dx: dx, dy: dy)
      if !inset.isNull {
        let back = inset.insetBy(dx: -dx, dy: -dy)
        #expect(abs(back.origin.x - r.minX) < 1e-9 && abs(back.size.width - r.width) < 1e-9)
        #expect(abs(back.origin.y - r.minY) < 1e-9 && abs(back.size.height - r.height) < 1e-9)
      } else {
        #expect(r.width - 2 * dx < 0 || r.height - 2 * dy < 0)
      }
    }
  }
}
