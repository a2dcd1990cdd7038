import PropertyBased
import Segue
import SegueRender
import Testing

private func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
  Rect(x: x, y: y, width: w, height: h)
}

@Suite("ContentsLayout: contentsGravity, contentsRect, contentsCenter, contentsScale")
struct ContentsLayoutTests {
  /// A 40 × 20 pixel image at scale 2 (20 × 10 points) in 100 × 50 bounds at (10, 5).
  let bounds = rect(10, 5, 100, 50)

  func layout(_ gravity: ContentsGravity, scale: Double = 2) -> ContentsLayout {
    ContentsLayout(
      imageWidth: 40, imageHeight: 20, bounds: bounds, gravity: gravity, contentsScale: scale)
  }

  @Test(
    "the nine positional gravities: natural size, placed by alignment (top = smallest y)",
    arguments: [
      (ContentsGravity.center, 50.0, 25.0), (.top, 50, 5), (.bottom, 50, 45), (.left, 10, 25),
      (.right, 90, 25), (.topLeft, 10, 5), (.topRight, 90, 5), (.bottomLeft, 10, 45),
      (.bottomRight, 90, 45),
    ])
  func positional(gravity: ContentsGravity, x: Double, y: Double) throws {
    let pieces = try layout(gravity).pieces()
    #expect(pieces == [ContentsPiece(source: rect(0, 0, 40, 20), destination: rect(x, y, 20, 10))])
  }

  @Test("resize stretches onto the bounds; contentsScale does not matter")
  func resize() throws {
    for scale in [0.5, 1, 3] {
      #expect(
        try layout(.resize, scale: scale).pieces()
          == [ContentsPiece(source: rect(0, 0, 40, 20), destination: bounds)])
    }
  }

  @Test("resizeAspect fits, resizeAspectFill covers, both centred")
  func aspect() throws {
    // Image aspect 2:1 in 100 × 50 bounds: both fill exactly.
    #expect(try layout(.resizeAspect).pieces()[0].destination == bounds)
    var tall = layout(.resizeAspect)
    tall.bounds = rect(0, 0, 100, 100)
    #expect(try tall.pieces()[0].destination == rect(0, 25, 100, 50))
    tall.gravity = .resizeAspectFill
    #expect(try tall.pieces()[0].destination == rect(-50, 0, 200, 100))
  }

  @Test("a natural size larger than the bounds overhangs on both sides")
  func overhang() throws {
    var big = layout(.center, scale: 0.1)  // 400 × 200 points
    big.bounds = rect(0, 0, 100, 100)
    #expect(try big.pieces()[0].destination == rect(-150, -50, 400, 200))
  }

  @Test("contentsRect selects texels; its natural size follows")
  func contentsRect() throws {
    var l = layout(.topLeft)
    l.contentsRect = rect(0.5, 0, 0.5, 0.5)
    #expect(
      try l.pieces() == [
        ContentsPiece(source: rect(20, 0, 20, 10), destination: rect(10, 5, 10, 5))
      ])
    // Beyond the unit square: more texels than the image has (samplers repeat the edge).
    l.contentsRect = rect(-0.5, 0, 2, 1)
    #expect(try l.pieces()[0].source == rect(-20, 0, 80, 20))
    l.contentsRect = rect(0.2, 0.2, 0, 0.5)
    #expect(try l.pieces().isEmpty)
  }

  @Test("contentsCenter: nine pieces, corners at natural size, centre stretched")
  func nineParts() throws {
    var l = layout(.resize)
    l.contentsCenter = rect(0.25, 0.25, 0.5, 0.5)  // corners 10 × 5 texels = 5 × 2.5 points
    let pieces = try l.pieces()
    #expect(pieces.count == 9)
    #expect(pieces[0] == ContentsPiece(source: rect(0, 0, 10, 5), destination: rect(10, 5, 5, 2.5)))
    #expect(
      pieces[4] == ContentsPiece(source: rect(10, 5, 20, 10), destination: rect(15, 7.5, 90, 45)))
    #expect(
      pieces[8] == ContentsPiece(source: rect(30, 15, 10, 5), destination: rect(105, 52.5, 5, 2.5)))
    let area = pieces.reduce(0) { $0 + $1.destination.width * $1.destination.height }
    #expect(abs(area - 100 * 50) < 1e-9)
  }

  @Test("contentsCenter with fixed edges wider than the bounds: they shrink, the centre vanishes")
  func nineShrink() throws {
    var l = layout(.resize, scale: 0.1)  // corners 100 × 50 points each
    l.contentsCenter = rect(0.25, 0.25, 0.5, 0.5)
    let pieces = try l.pieces()
    #expect(pieces.count == 4)
    #expect(pieces[0].destination == rect(10, 5, 50, 25))
    #expect(pieces[3].destination == rect(60, 30, 50, 25))
  }

  @Test("a zero-size contentsCenter stretches one line of texels; positional gravities ignore it")
  func zeroCenter() throws {
    var l = layout(.resize)
    l.contentsCenter = rect(0.5, 0.5, 0, 0)
    let centre = try l.pieces().first { $0.source.size.width == 0 && $0.source.size.height == 0 }
    #expect(centre?.source.origin == Point(x: 20, y: 10))
    l.gravity = .center
    #expect(try l.pieces().count == 1)
  }

  @Test("the piece map: texel(at:) sends the destination corners to the source corners")
  func pieceMap() throws {
    let piece = ContentsPiece(source: rect(4, 2, 8, 6), destination: rect(10, 20, 4, 12))
    #expect(piece.texel(at: Point(x: 10, y: 20)) == Point(x: 4, y: 2))
    #expect(piece.texel(at: Point(x: 14, y: 32)) == Point(x: 12, y: 8))
    #expect(piece.texelsPerPoint == (2, 0.5))
  }

  @Test("pieces tile the gravity's rectangle exactly for any contentsCenter (property)")
  func tiling() async {
    await propertyCheck(input: Gen.double(in: 0...1).array(of: 4)) { v in
      var l = layout(.resize)
      l.contentsCenter = rect(v[0], v[1], v[2], v[3])
      let pieces = (try? l.pieces()) ?? []
      let area = pieces.reduce(0) { $0 + $1.destination.width * $1.destination.height }
      #expect(abs(area - 5000) < 1e-6)
      for p in pieces {
        #expect(p.destination.minX >= 10 - 1e-9 && p.destination.maxX <= 110 + 1e-9)
      }
    }
  }

  @Test("rejected inputs")
  func rejected() {
    var l = layout(.resize)
    l.contentsScale = 0
    #expect(throws: ValidationError(field: "contentsScale", reason: .notPositive)) {
      try l.pieces()
    }
    l = layout(.resize)
    l.contentsRect = rect(0, .nan, 1, 1)
    #expect(throws: ValidationError(field: "contentsRect", index: 1, reason: .notFinite)) {
      try l.pieces()
    }
    l = layout(.resize)
    l.imageWidth = -1
    #expect(throws: ValidationError(field: "imageWidth", reason: .negative)) { try l.pieces() }
    l = layout(.resize)
    l.bounds = rect(0, 0, .infinity, 1)
    #expect(throws: ValidationError(field: "bounds", index: 2, reason: .notFinite)) {
      try l.pieces()
    }
  }
}
