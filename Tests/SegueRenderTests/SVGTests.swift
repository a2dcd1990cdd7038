import Segue
import SegueRender
import Testing

/// The SVG writer: exact output for a small document, number and colour formatting, escaping,
/// and rejected input.
@Suite("SVG")
struct SVGTests {
  /// A 100×50 canvas with one element of each kind, written out by hand. Colours: red is
  /// #ff0000; (0, 0.5, 1) is #0080ff (0.5·255 = 127.5 → 128 = 0x80); alpha 0.25 adds an
  /// opacity attribute. Numbers drop a trailing ".0" (12.0 → 12) and keep fractions (0.5).
  @Test func documentByHand() throws {
    var svg = try SVGDocument(width: 100, height: 50)
    let red = try RGBAColor(red: 1, green: 0, blue: 0)
    let azure = try RGBAColor(red: 0, green: 0.5, blue: 1, alpha: 0.25)
    try svg.rect(Rect(x: 0, y: 0, width: 100, height: 50), fill: .white)
    try svg.polyline(
      [Point(x: 0, y: 50), Point(x: 12, y: 0.5), Point(x: 100, y: 0)], stroke: red, lineWidth: 2)
    try svg.polygon(
      [Point(x: 1, y: 1), Point(x: 9, y: 1), Point(x: 5, y: 8)], fill: azure, stroke: .black)
    try svg.text("push <0.5 s> & \"pop\"", at: Point(x: 4, y: 45), fontSize: 10)
    let expected = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">
      <rect x="0" y="0" width="100" height="50" fill="#ffffff"/>
      <polyline points="0,50 12,0.5 100,0" fill="none" stroke="#ff0000" stroke-width="2" \
      stroke-linejoin="round"/>
      <polygon points="1,1 9,1 5,8" fill="#0080ff" fill-opacity="0.25" stroke="#000000" \
      stroke-width="1"/>
      <text x="4" y="45" font-family="sans-serif" font-size="10" fill="#000000">push &lt;0.5 \
      s&gt; &amp; &quot;pop&quot;</text>
      </svg>

      """
    #expect(svg.text == expected)
  }

  /// Negative and tiny coordinates keep their sign and use exponent form (valid SVG numbers);
  /// negative zero is written as 0. A rectangle with a negative size is standardised.
  @Test func numberFormatting() throws {
    var svg = try SVGDocument(width: 1, height: 1)
    try svg.polyline([Point(x: -2.5, y: 1e-05), Point(x: -0.0, y: 3)], stroke: .black)
    try svg.rect(Rect(x: 10, y: 10, width: -4, height: -2), fill: .black)
    #expect(svg.text.contains("points=\"-2.5,1e-05 0,3\""))
    #expect(svg.text.contains("<rect x=\"6\" y=\"8\" width=\"4\" height=\"2\""))
  }

  // MARK: Rejected input

  @Test func rejectsNonPositiveWidth() {
    #expect(throws: ValidationError(field: "width", reason: .notPositive)) {
      try SVGDocument(width: 0, height: 10)
    }
  }

  @Test func rejectsNonFiniteHeight() {
    #expect(throws: ValidationError(field: "height", reason: .notFinite)) {
      try SVGDocument(width: 10, height: .infinity)
    }
  }

  @Test func polylineRejectsOnePoint() throws {
    var svg = try SVGDocument(width: 10, height: 10)
    #expect(throws: ValidationError(field: "points", reason: .tooFew(minimum: 2, actual: 1))) {
      try svg.polyline([.zero], stroke: .black)
    }
  }

  @Test func polygonRejectsTwoPoints() throws {
    var svg = try SVGDocument(width: 10, height: 10)
    #expect(throws: ValidationError(field: "points", reason: .tooFew(minimum: 3, actual: 2))) {
      try svg.polygon([.zero, Point(x: 1, y: 1)], fill: .black)
    }
  }

  @Test func rejectsNaNPoint() throws {
    var svg = try SVGDocument(width: 10, height: 10)
    #expect(throws: ValidationError(field: "points", index: 1, reason: .notFinite)) {
      try svg.polyline([.zero, Point(x: .nan, y: 1)], stroke: .black)
    }
  }

  @Test func rejectsNonPositiveLineWidth() throws {
    var svg = try SVGDocument(width: 10, height: 10)
    #expect(throws: ValidationError(field: "lineWidth", reason: .notPositive)) {
      try svg.polyline([.zero, Point(x: 1, y: 1)], stroke: .black, lineWidth: -1)
    }
  }

  @Test func rejectsNonFiniteRect() throws {
    var svg = try SVGDocument(width: 10, height: 10)
    #expect(throws: ValidationError(field: "rect", index: 1, reason: .notFinite)) {
      try svg.rect(Rect(x: 0, y: .nan, width: 1, height: 1), fill: .black)
    }
  }

  @Test func rejectsNonFiniteTextPosition() throws {
    var svg = try SVGDocument(width: 10, height: 10)
    #expect(throws: ValidationError(field: "position", index: 0, reason: .notFinite)) {
      try svg.text("a", at: Point(x: .infinity, y: 0))
    }
  }

  @Test func rejectsNonPositiveFontSize() throws {
    var svg = try SVGDocument(width: 10, height: 10)
    #expect(throws: ValidationError(field: "fontSize", reason: .notPositive)) {
      try svg.text("a", at: .zero, fontSize: 0)
    }
  }

  /// Nothing is appended when an element is rejected.
  @Test func rejectedElementLeavesDocumentUnchanged() throws {
    var svg = try SVGDocument(width: 10, height: 10)
    let before = svg.text
    _ = try? svg.polyline([.zero, Point(x: .nan, y: 0)], stroke: .black)
    #expect(svg.text == before)
  }
}
