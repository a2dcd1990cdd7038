import Segue
import SegueSnapshot
import Testing

/// A 100 × 100 container with one layer `box` (60 × 40 at position (50, 50)) whose `position.x`
/// runs from `from` to `to` over `[0, 1)` linearly, and a layer `gone` removed at 0.5 s.
func slidingScene(from: Double = 20, to: Double = 80) throws -> TransitionScene {
  var tree = LayerTree()
  var box = Layer(id: "box")
  box.bounds = Rect(x: 0, y: 0, width: 60, height: 40)
  box.position = Point(x: to, y: 50)
  box.backgroundColor = RGBAColor(clamping: 0.2, 0.4, 0.8, 1)
  var gone = Layer(id: "gone")
  gone.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
  gone.position = Point(x: 5, y: 5)
  gone.backgroundColor = .black
  try tree.add(gone)
  try tree.add(box)
  var animations = AnimationSet()
  animations.add(
    try .basic(.positionX, from: .number(from), to: .number(to), duration: 1), to: "box")
  return try TransitionScene(
    duration: 1, containerSize: Size(width: 100, height: 100), model: tree,
    animations: animations, events: [TimelineEvent(time: 0.5, change: .remove(layerID: "gone"))])
}

@Suite("Curves table")
struct CurvesTableTests {
  @Test func rowsPerTimeAndLayer() throws {
    let table = try CurvesTable(scene: slidingScene(), interaction: nil, times: [0, 0.5, 1])
    #expect(table.rows.count == 6)
    #expect(table.rows.map(\.layerID) == ["gone", "box", "gone", "box", "gone", "box"])
    #expect(table.rows[2].layer == nil)
    let box = try #require(table.rows[3].layer)
    // x = 20 + 60·0.5 = 50; the bounds' top-left corner is at x − 30, y − 20.
    #expect(box.corners[0] == Point(x: 20, y: 30))
    #expect(box.corners[2] == Point(x: 80, y: 70))
    #expect(box.opacity == 1)
  }

  @Test func textRoundTrips() throws {
    let table = try CurvesTable(
      scene: slidingScene(), interaction: nil, times: [0, 0.1, 0.5, 1])
    let text = table.text
    #expect(text.hasPrefix("# Segue curves"))
    #expect(text.contains("0.5 \"gone\" 0\n"))
    #expect(try CurvesTable(parsing: text) == table)
  }

  @Test func idsAreJSONStrings() throws {
    let id = "a \"quoted\" id\\with\ttab\u{1}"
    let row = CurvesTable.Row(
      time: 0, layerID: id,
      layer: .init(
        order: 0, opacity: 0.5, corners: Array(repeating: Point(x: 1, y: 2), count: 4),
        matrix: .identity))
    let table = CurvesTable(rows: [row])
    #expect(table.text.contains(#""a \"quoted\" id\\with\ttab\u0001""#))
    #expect(try CurvesTable(parsing: table.text) == table)
  }

  /// Bad files name their line: NaN, infinity, text where a number goes, a missing value, a
  /// bad presence or id.
  @Test func rejectsBadFiles() throws {
    let good = try CurvesTable(scene: slidingScene(), interaction: nil, times: [0]).text
    var lines = good.split(separator: "\n").map(String.init)
    let row = lines[3].split(separator: " ").map(String.init)
    func replacing(_ index: Int, _ value: String) -> String {
      var fields = row
      fields[index] = value
      var copy = lines
      copy[3] = fields.joined(separator: " ")
      return copy.joined(separator: "\n")
    }
    let cases: [(String, String)] = [
      (replacing(4, "nan"), "line 4: value 1 is nan (must be finite)"),
      (replacing(6, "inf"), "line 4: value 3 is inf (must be finite)"),
      (replacing(0, "zero"), "line 4: time: 'zero' is not a number"),
      (replacing(2, "2"), "line 4: presence must be 0 or 1 (got '2')"),
      (replacing(3, "x"), "line 4: draw order 'x' is not an integer"),
      (replacing(1, "box"), "line 4: the layer id must be a JSON string"),
      (
        lines.joined(separator: "\n") + "\n0 \"box\" 1 0 1 2",
        "line 5: a present layer needs 25 numbers after its draw order (got 2)"
      ),
      ("0 \"open", "line 1: the layer id's string is not closed"),
      ("0 \"x\" 0 1", "line 1: an absent layer has no values"),
    ]
    for (text, message) in cases {
      #expect(throws: CurvesFileError.self) { try CurvesTable(parsing: text) }
      do {
        _ = try CurvesTable(parsing: text)
      } catch {
        #expect(error.description == message)
      }
    }
    lines.removeAll()
  }

  @Test func comparesWithTolerances() throws {
    let times = [0, 0.25, 0.5, 0.75]
    let expected = try CurvesTable(scene: slidingScene(), interaction: nil, times: times)
    let same = CurvesTolerance().compare(expected, expected)
    #expect(same.matches)
    // Moving the end by 10⁻⁹ points: within the default tolerances.
    let nudged = try CurvesTable(
      scene: slidingScene(to: 80 + 1e-9), interaction: nil, times: times)
    #expect(CurvesTolerance().compare(expected, nudged).matches)
    // Moving the end by 4 points moves x by 4·t: 1, 2 and 3 points at t = 0.25, 0.5, 0.75
    // (the matrix's m41 = x − 30 by as much: 3/38 relative at most).
    let moved = try CurvesTable(scene: slidingScene(to: 84), interaction: nil, times: times)
    let difference = CurvesTolerance().compare(expected, moved)
    #expect(!difference.matches)
    #expect(difference.rows.count == 3)
    #expect(abs(difference.largestPoints - 3) < 1e-9)
    #expect(CurvesTolerance(points: 3.5, matrix: 0.1).compare(expected, moved).matches)
    #expect(!CurvesTolerance(points: 3.5).compare(expected, moved).matches)
    let message = difference.message(limit: 2)
    #expect(message.hasPrefix("3 of 8 curve rows differ (largest differences: corners 3 pt"))
    #expect(message.contains("t = 0.25 \"box\": corners Δ 1 pt"))
    #expect(message.contains("… and 1 more"))
  }

  @Test func differentTimesAreAStructuralDifference() throws {
    let a = try CurvesTable(scene: slidingScene(), interaction: nil, times: [0, 0.5])
    let b = try CurvesTable(scene: slidingScene(), interaction: nil, times: [0, 0.25])
    let difference = CurvesTolerance().compare(a, b)
    #expect(!difference.matches)
    #expect(
      difference.message()
        == "curves differ from the snapshot: the snapshot has 2 times [0, 0.5], the test samples "
        + "2 [0, 0.25]")
  }

  @Test(arguments: [Double.nan, -1, .infinity])
  func rejectsABadTolerance(_ value: Double) {
    #expect(throws: ValidationError.self) { try CurvesTolerance(points: value).validate() }
    #expect(throws: ValidationError.self) { try CurvesTolerance(opacity: value).validate() }
    #expect(throws: ValidationError.self) { try CurvesTolerance(matrix: value).validate() }
  }
}
