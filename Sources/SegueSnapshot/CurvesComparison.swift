import Foundation
import Segue

/// How closely a ``CurvesTable`` must match its snapshot.
///
/// Rows are matched by time and layer. Presence and draw order must be equal; a corner
/// coordinate may differ by ``points``, the opacity by ``opacity``, and the matrix by a relative
/// error `max|Aᵢⱼ − Bᵢⱼ| / max(1, max|Aᵢⱼ|)` (A the snapshot's) of ``matrix``.
public struct CurvesTolerance: Hashable, Sendable {
  /// Largest corner difference, points, `≥ 0` (default `10⁻⁶`).
  public var points: Double
  /// Largest opacity difference, `≥ 0` (default `10⁻⁹`).
  public var opacity: Double
  /// Largest relative matrix error, `≥ 0` (default `10⁻⁹`).
  public var matrix: Double

  /// A tolerance; the defaults absorb the last-digit differences of another machine's `libm`.
  public init(points: Double = 1e-6, opacity: Double = 1e-9, matrix: Double = 1e-9) {
    self.points = points
    self.opacity = opacity
    self.matrix = matrix
  }

  /// Throws ``/Segue/ValidationError`` naming `points`, `opacity` or `matrix` unless each is
  /// finite and `≥ 0`.
  public func validate() throws(ValidationError) {
    try Validate.nonNegative(points, "points")
    try Validate.nonNegative(opacity, "opacity")
    try Validate.nonNegative(matrix, "matrix")
  }

  /// Compares `actual` with the snapshot `expected`.
  public func compare(_ expected: CurvesTable, _ actual: CurvesTable) -> CurvesDifference {
    var result = CurvesDifference(rowCount: max(expected.rows.count, actual.rows.count))
    let expectedTimes = Self.times(expected)
    let actualTimes = Self.times(actual)
    guard expectedTimes == actualTimes else {
      result.structure =
        "the snapshot has \(expectedTimes.count) times \(Self.list(expectedTimes)), the test "
        + "samples \(actualTimes.count) \(Self.list(actualTimes))"
      return result
    }
    var index: [Key: Int] = [:]
    for (i, row) in actual.rows.enumerated() { index[Key(row)] = i }
    var seen = Set<Key>()
    for row in expected.rows {
      let key = Key(row)
      seen.insert(key)
      guard let i = index[key] else {
        result.add(CurvesDifference.Row(expected: row, actual: nil, what: "missing"))
        continue
      }
      if let what = differences(row, actual.rows[i], into: &result) {
        result.add(CurvesDifference.Row(expected: row, actual: actual.rows[i], what: what))
      }
    }
    for row in actual.rows where !seen.contains(Key(row)) {
      result.add(CurvesDifference.Row(expected: nil, actual: row, what: "new layer"))
    }
    return result
  }

  private struct Key: Hashable {
    var time: Double
    var id: String
    init(_ row: CurvesTable.Row) { (time, id) = (row.time, row.layerID) }
  }

  private static func times(_ table: CurvesTable) -> [Double] {
    var out: [Double] = []
    for row in table.rows where out.last != row.time { out.append(row.time) }
    return out
  }

  private static func list(_ times: [Double]) -> String {
    let shown = times.prefix(6).map(CurvesTable.number).joined(separator: ", ")
    return "[" + shown + (times.count > 6 ? ", …]" : "]")
  }

  /// What differs beyond the tolerance between two rows of the same time and layer, or `nil`;
  /// updates the largest differences.
  private func differences(
    _ e: CurvesTable.Row, _ a: CurvesTable.Row, into result: inout CurvesDifference
  ) -> String? {
    switch (e.layer, a.layer) {
    case (nil, nil): return nil
    case (nil, _?): return "present, absent in the snapshot"
    case (_?, nil): return "absent, present in the snapshot"
    case (let x?, let y?):
      var what: [String] = []
      if x.order != y.order { what.append("draw order \(x.order) → \(y.order)") }
      let dOpacity = abs(x.opacity - y.opacity)
      result.largestOpacity = max(result.largestOpacity, dOpacity)
      if !(dOpacity <= opacity) { what.append("opacity Δ \(CurvesDifference.short(dOpacity))") }
      var dPoints = 0.0
      for (p, q) in zip(x.corners, y.corners) {
        dPoints = max(dPoints, abs(p.x - q.x), abs(p.y - q.y))
      }
      result.largestPoints = max(result.largestPoints, dPoints)
      if !(dPoints <= points) { what.append("corners Δ \(CurvesDifference.short(dPoints)) pt") }
      let scale = max(1, x.matrix.fields.map(abs).max() ?? 0)
      let dMatrix =
        zip(x.matrix.fields, y.matrix.fields).map { abs($0 - $1) }.max().map { $0 / scale } ?? 0
      result.largestMatrix = max(result.largestMatrix, dMatrix)
      if !(dMatrix <= matrix) {
        what.append("matrix Δ \(CurvesDifference.short(dMatrix)) relative")
      }
      return what.isEmpty ? nil : what.joined(separator: ", ")
    }
  }
}

/// How a ``CurvesTable`` differs from its snapshot (``CurvesTolerance/compare(_:_:)``).
public struct CurvesDifference: Sendable {
  /// A row that differs.
  public struct Row: Sendable {
    /// The snapshot's row (`nil` for a layer the snapshot does not have).
    public var expected: CurvesTable.Row?
    /// The new row (`nil` for a row the new table lacks).
    public var actual: CurvesTable.Row?
    /// What differs, in words.
    public var what: String
  }

  /// The number of rows compared (the larger table's).
  public var rowCount: Int
  /// A difference of the tables' shape (their times), which stops the row comparison.
  public var structure: String?
  /// The differing rows, in the snapshot's order.
  public private(set) var rows: [Row] = []
  /// The largest corner difference of any row, points.
  public var largestPoints = 0.0
  /// The largest opacity difference.
  public var largestOpacity = 0.0
  /// The largest relative matrix error.
  public var largestMatrix = 0.0

  init(rowCount: Int) { self.rowCount = rowCount }

  mutating func add(_ row: Row) { rows.append(row) }

  /// `v` with six significant digits.
  static func short(_ v: Double) -> String { String(format: "%.6g", v) }

  /// Whether the table matches its snapshot.
  public var matches: Bool { structure == nil && rows.isEmpty }

  /// The failure message: the count, the largest differences, and the first `limit` differing
  /// rows with both lines.
  public func message(limit: Int = 3) -> String {
    if let structure { return "curves differ from the snapshot: \(structure)" }
    var out =
      "\(rows.count) of \(rowCount) curve rows differ (largest differences: corners "
      + "\(Self.short(largestPoints)) pt, opacity \(Self.short(largestOpacity)), matrix "
      + "\(Self.short(largestMatrix)) relative)"
    for row in rows.prefix(limit) {
      let any = row.expected ?? row.actual
      out += "\n  t = \(CurvesTable.number(any?.time ?? 0)) \"\(any?.layerID ?? "")\": \(row.what)"
      out += "\n    − " + (row.expected.map(CurvesTable.line) ?? "(none)")
      out += "\n    + " + (row.actual.map(CurvesTable.line) ?? "(none)")
    }
    if rows.count > limit { out += "\n  … and \(rows.count - limit) more" }
    return out
  }
}
