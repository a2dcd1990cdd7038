import Segue
import SegueSpec

/// A transition's curves as text: one row per sample time and layer, with the layer's presence,
/// draw order, presented opacity, the four projected corners of its bounds (points) and its
/// matrix to the container — a snapshot that reads and diffs well in review.
///
/// **Format.** Two comment lines (`#`), then one row per time and layer, times in the order
/// sampled, layers in the order they first appear:
///
///     time "id" 1 order opacity x0 y0 x1 y1 x2 y2 x3 y3 m11 m12 … m44
///     time "id" 0
///
/// The second form is a layer that is not in the tree at that time (removed, or after the
/// completion). Ids are JSON strings; numbers are Swift's shortest round-trip decimal form
/// (`-0` written as `0`), so a table that did not change re-records to the same bytes. Corners
/// are top-left, top-right, bottom-right, bottom-left (``/Segue/LayerSample/corners``).
public struct CurvesTable: Hashable, Sendable {
  /// One layer at one time.
  public struct Row: Hashable, Sendable {
    /// The sample time, seconds.
    public var time: Double
    /// The layer's id.
    public var layerID: String
    /// The layer's sample, or `nil` when the layer is not in the tree at that time.
    public var layer: Presented?

    /// Creates a row.
    public init(time: Double, layerID: String, layer: Presented?) {
      self.time = time
      self.layerID = layerID
      self.layer = layer
    }
  }

  /// What a row records of a present layer.
  public struct Presented: Hashable, Sendable {
    /// Position in the draw order.
    public var order: Int
    /// Presented opacity.
    public var opacity: Double
    /// The projected corners, points.
    public var corners: [Point]
    /// The matrix to the container.
    public var matrix: Transform3D

    /// Creates a record.
    public init(order: Int, opacity: Double, corners: [Point], matrix: Transform3D) {
      self.order = order
      self.opacity = opacity
      self.corners = corners
      self.matrix = matrix
    }
  }

  /// The rows, time by time.
  public var rows: [Row]

  /// A table of `rows`.
  public init(rows: [Row]) { self.rows = rows }

  /// Samples `scene` at `times` (seconds; wall-clock times of `interaction` when given).
  ///
  /// - Throws: the errors of ``/Segue/TransitionScene/sample(at:)`` and
  ///   ``/Segue/TransitionScene/sample(at:interaction:)``.
  public init(
    scene: TransitionScene, interaction: InteractionTimeline?, times: [Double]
  ) throws(ValidationError) {
    var samples: [TransitionSample] = []
    var ids: [String] = []
    var known = Set<String>()
    for time in times {
      let sample: TransitionSample
      if let interaction {
        sample = try scene.sample(at: time, interaction: interaction)
      } else {
        sample = try scene.sample(at: time)
      }
      for layer in sample.layers where known.insert(layer.id).inserted { ids.append(layer.id) }
      samples.append(sample)
    }
    rows = []
    for (time, sample) in zip(times, samples) {
      let byID = Dictionary(sample.layers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
      for id in ids {
        let presented = byID[id].map {
          Presented(
            order: $0.order, opacity: $0.opacity, corners: $0.corners.map(\.point),
            matrix: $0.matrix)
        }
        rows.append(Row(time: time, layerID: id, layer: presented))
      }
    }
  }

  /// The header of the text form.
  static let header = """
    # Segue curves: one row per time and layer (points; corners top-left, top-right, bottom-right, bottom-left)
    # time "layer" present order opacity x0 y0 x1 y1 x2 y2 x3 y3 m11 m12 m13 m14 m21 m22 m23 m24 m31 m32 m33 m34 m41 m42 m43 m44
    """

  /// The text form (see the type's documentation), ending in a newline.
  public var text: String {
    var out = Self.header + "\n"
    for row in rows { out += Self.line(row) + "\n" }
    return out
  }

  /// One row's line.
  static func line(_ row: Row) -> String {
    var fields = [number(row.time), jsonString(row.layerID)]
    guard let layer = row.layer else { return (fields + ["0"]).joined(separator: " ") }
    fields += ["1", String(layer.order), number(layer.opacity)]
    for corner in layer.corners { fields += [number(corner.x), number(corner.y)] }
    fields += layer.matrix.fields.map(number)
    return fields.joined(separator: " ")
  }

  /// Swift's shortest round-trip form, `0` for `-0`.
  static func number(_ v: Double) -> String { v == 0 ? "0" : "\(v)" }

  /// `s` as a JSON string literal.
  static func jsonString(_ s: String) -> String { JSONValue.string(s).serialized() }
}

/// Why a curves snapshot could not be read.
public struct CurvesFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The 1-based line.
  public var line: Int
  /// What is wrong there.
  public var message: String

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}

extension CurvesTable {
  /// Reads the text form.
  ///
  /// - Throws: ``CurvesFileError`` naming the line: a row with too few or too many fields, a
  ///   field that is not a number, a number that is not finite (NaN, infinity), a presence
  ///   other than 0 or 1, an id that is not a JSON string.
  public init(parsing text: String) throws(CurvesFileError) {
    rows = []
    var number = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      let trimmed = line.trimmingSuffix(while: \.isWhitespace)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      do { rows.append(try Self.row(trimmed)) } catch {
        throw CurvesFileError(line: number, message: error.message)
      }
    }
  }

  private struct LineError: Error { var message: String }

  private static func row(_ line: Substring) throws(LineError) -> Row {
    var rest = line[...]
    let time = try value(next(&rest), "time")
    let id = try parseString(&rest)
    let present = next(&rest)
    if present == "0" {
      guard next(&rest).isEmpty else { throw LineError(message: "an absent layer has no values") }
      return Row(time: time, layerID: id, layer: nil)
    }
    guard present == "1" else {
      throw LineError(message: "presence must be 0 or 1 (got '\(present)')")
    }
    let orderText = next(&rest)
    guard let order = Int(orderText) else {
      throw LineError(message: "draw order '\(orderText)' is not an integer")
    }
    var numbers: [Double] = []
    while true {
      let field = next(&rest)
      if field.isEmpty { break }
      numbers.append(try value(field, "value \(numbers.count + 1)"))
    }
    guard numbers.count == 1 + 8 + 16 else {
      throw LineError(
        message: "a present layer needs 25 numbers after its draw order (got \(numbers.count))")
    }
    let corners = (0..<4).map { Point(x: numbers[1 + 2 * $0], y: numbers[2 + 2 * $0]) }
    guard let matrix = try? Transform3D(fields: Array(numbers[9...])) else {
      throw LineError(message: "not a matrix")
    }
    return Row(
      time: time, layerID: id,
      layer: Presented(order: order, opacity: numbers[0], corners: corners, matrix: matrix))
  }

  /// The next space-separated field (empty at the end).
  private static func next(_ rest: inout Substring) -> Substring {
    rest = rest.drop(while: { $0 == " " })
    let field = rest.prefix(while: { $0 != " " })
    rest = rest.dropFirst(field.count)
    return field
  }

  private static func value(_ field: Substring, _ what: String) throws(LineError) -> Double {
    guard let v = Double(field) else {
      throw LineError(message: "\(what): '\(field)' is not a number")
    }
    guard v.isFinite else { throw LineError(message: "\(what) is \(field) (must be finite)") }
    return v
  }

  /// A JSON string literal at the start of `rest` (after spaces), read by SegueSpec's parser.
  private static func parseString(_ rest: inout Substring) throws(LineError) -> String {
    rest = rest.drop(while: { $0 == " " })
    guard rest.first == "\"" else { throw LineError(message: "the layer id must be a JSON string") }
    // The closing quote: the first one not escaped by a backslash.
    var escaped = false
    var end = rest.index(after: rest.startIndex)
    while end < rest.endIndex && (escaped || rest[end] != "\"") {
      escaped = !escaped && rest[end] == "\\"
      end = rest.index(after: end)
    }
    guard end < rest.endIndex else {
      throw LineError(message: "the layer id's string is not closed")
    }
    let literal = rest[...end]
    rest = rest[rest.index(after: end)...]
    guard case .string(let id)? = try? JSONValue.parse(String(literal)) else {
      throw LineError(message: "the layer id \(literal) is not a JSON string")
    }
    return id
  }

}

extension Substring {
  fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
    var s = self
    while let last = s.last, predicate(last) { s.removeLast() }
    return s
  }
}
