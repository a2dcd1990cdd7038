import Segue
import SegueSpec
import SegueToolSupport

/// Parses a comma-separated list of numbers (`"390,844"`, `"0,0.1,0.25"`); spaces around items
/// are ignored. `nan` and `inf` parse (as Swift's `Double(_:)` reads them) and are left for the
/// caller's value checks.
///
/// - Throws: ``CLIError`` ``ExitStatus/usage`` naming `argument` when an item is not a number, the
///   list is empty, or it does not have `count` items.
func parseNumberList(_ text: String, argument: String, count: ClosedRange<Int>? = nil)
  throws(CLIError) -> [Double]
{
  let items = text.split(separator: ",", omittingEmptySubsequences: false).map {
    $0.trimmingSpaces()
  }
  guard !(items.count == 1 && items[0].isEmpty) else {
    throw CLIError(.usage, argument, "expected a comma-separated list of numbers, got ''")
  }
  var values: [Double] = []
  for (i, item) in items.enumerated() {
    guard let value = Double(item) else {
      throw CLIError(.usage, argument, "item \(i) '\(item)' is not a number")
    }
    values.append(value)
  }
  if let count, !count.contains(values.count) {
    let expected =
      count.lowerBound == count.upperBound
      ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
    throw CLIError(
      .usage, argument, "expected \(expected) comma-separated numbers, got \(values.count)")
  }
  return values
}

/// Checks that `value` (item `index` of a list, if given) is finite and `≥ 0`.
///
/// - Throws: ``CLIError`` ``ExitStatus/dataError`` naming `argument`.
func requireNonNegative(_ value: Double, _ argument: String, index: Int? = nil) throws(CLIError) {
  let place = index.map { "item \($0) " } ?? ""
  guard value.isFinite else {
    throw CLIError(.dataError, argument, "\(place)\(value) is not finite")
  }
  guard value >= 0 else {
    throw CLIError(.dataError, argument, "\(place)\(decimal(value)) is negative")
  }
}

/// Checks that `value` is finite and `> 0`.
///
/// - Throws: ``CLIError`` ``ExitStatus/dataError`` naming `argument`.
func requirePositive(_ value: Double, _ argument: String) throws(CLIError) {
  guard value.isFinite else { throw CLIError(.dataError, argument, "\(value) is not finite") }
  guard value > 0 else {
    throw CLIError(.dataError, argument, "must be greater than 0 (got \(decimal(value)))")
  }
}

/// Parses a timing function option with SegueSpec's text form
/// (``SpecFile/timingFunction(text:allowsBareNumbers:)``): a name, `cubic-bezier(x1,y1,x2,y2)`,
/// or the four numbers `x1,y1,x2,y2`. A malformed value is a usage error; control points the
/// library rejects are a data error naming the control point.
func parseTimingOption(_ text: String, argument: String) throws(CLIError) -> TimingFunction {
  do {
    return try SpecFile.timingFunction(text: text, allowsBareNumbers: true)
  } catch {
    if let validation = error.validation { throw CLIError.data(argument, validation) }
    throw CLIError(.usage, argument, error.message)
  }
}

/// The accepted timing function forms, for help texts.
let timingFunctionForms =
  SpecFile.timingFunctionNames.joined(separator: ", ") + " or cubic-bezier(x1,y1,x2,y2)"

/// Shortest round-trip decimal text of a double (Swift's `description`: `0.5`, `1e-05`, `nan`),
/// without a trailing `.0` (`1`, `390`); `-0.0` stays `-0`.
func decimal(_ value: Double) -> String {
  var bytes: [UInt8] = []
  bytes.append(decimal: value)
  return String(decoding: bytes, as: UTF8.self)
}

/// `value` with `digits` digits after the point (no Foundation formatting; rounds half away).
func fixed(_ value: Double, _ digits: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let negative = value < 0
  let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
  guard scaled < 9e15 else { return "\(value)" }
  let integer = Int(scaled)
  var text = String(integer)
  if digits > 0 {
    while text.count <= digits { text = "0" + text }
    text.insert(".", at: text.index(text.endIndex, offsetBy: -digits))
  }
  return (negative && integer != 0 ? "-" : "") + text
}
