import Segue

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

/// Why a timing function specification was rejected.
enum TimingParseError: Error {
  /// Not a known name nor a `cubic-bezier(…)` form; the text lists what is accepted.
  case malformed(String)
  /// Well formed, but the library rejects the control points.
  case invalid(Segue.ValidationError)
}

/// The names accepted for timing functions (Core Animation's `CAMediaTimingFunctionName` raw
/// values).
let timingFunctionNames = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"]

/// Parses a timing function: a name of ``timingFunctionNames``, `cubic-bezier(x1,y1,x2,y2)`, or the
/// four numbers `x1,y1,x2,y2`.
func parseTimingFunction(_ text: String) throws(TimingParseError) -> TimingFunction {
  let trimmed = String(Substring(text).trimmingSpaces())
  if timingFunctionNames.contains(trimmed) {
    do { return try TimingFunction.named(trimmed) } catch { throw .invalid(error) }
  }
  var body = Substring(trimmed)
  if body.hasPrefix("cubic-bezier(") && body.hasSuffix(")") {
    body = body.dropFirst("cubic-bezier(".count).dropLast()
  }
  let items = body.split(separator: ",", omittingEmptySubsequences: false)
  let numbers = items.compactMap { Double($0.trimmingSpaces()) }
  guard items.count == 4, numbers.count == 4 else {
    throw .malformed(
      "'\(text)' is not a timing function; expected one of "
        + timingFunctionNames.joined(separator: ", ") + ", or cubic-bezier(x1,y1,x2,y2)")
  }
  do {
    return try TimingFunction.cubicBezier(numbers[0], numbers[1], numbers[2], numbers[3])
  } catch {
    throw .invalid(error)
  }
}

/// ``parseTimingFunction(_:)`` for a command line option: a malformed value is a usage error, a
/// rejected one a data error.
func parseTimingOption(_ text: String, argument: String) throws(CLIError) -> TimingFunction {
  do {
    return try parseTimingFunction(text)
  } catch {
    switch error {
    case .malformed(let message): throw CLIError(.usage, argument, message)
    case .invalid(let error): throw CLIError.data(argument, error)
    }
  }
}

/// Shortest round-trip decimal text of a double (Swift's `description`: `0.5`, `1e-05`, `nan`),
/// without a trailing `.0` (`1`, `390`); `-0.0` stays `-0`.
func decimal(_ value: Double) -> String {
  var text = "\(value)"
  if text.hasSuffix(".0") { text.removeLast(2) }
  return text
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

extension Substring {
  /// Without leading and trailing spaces.
  func trimmingSpaces() -> Substring {
    var s = self
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return s
  }
}
