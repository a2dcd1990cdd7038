import Segue
import SegueSpec

/// Every timing function `segue curve` accepts, as text: what a spec's `timingFunction` accepts
/// (a name, `cubic-bezier(x1,y1,x2,y2)`, and its JSON forms `[x1, y1, x2, y2]`,
/// `{"steps": n, "position": p}`, `{"linear": [stop, …]}`), the four numbers `x1,y1,x2,y2`, and the
/// CSS spellings of the steps and piecewise-linear functions: `steps(n)`, `steps(n, position)`
/// with `jump-start`, `jump-end`, `jump-none`, `jump-both`, `start` or `end` (or the spec's
/// `jumpStart` …), the keywords `step-start` and `step-end`, and `linear(stop, …)` with each stop
/// an output followed by up to two input percentages (`linear(0, 0.25 75%, 1)`).
enum TimingFunctionText {
  /// The accepted forms, for help texts.
  static let forms =
    timingFunctionForms
    + ", steps(n[, jump-start|jump-end|jump-none|jump-both|start|end]), step-start, step-end, "
    + "linear(output [input% [input%]], …), or a spec's JSON form ([x1,y1,x2,y2], "
    + "{\"steps\": n, \"position\": p}, {\"linear\": [stops]})"

  /// The step positions by their CSS and spec names.
  static let positions: [String: StepsEasing.JumpPosition] = [
    "jump-start": .jumpStart, "jump-end": .jumpEnd, "jump-none": .jumpNone,
    "jump-both": .jumpBoth, "start": .jumpStart, "end": .jumpEnd, "jumpStart": .jumpStart,
    "jumpEnd": .jumpEnd, "jumpNone": .jumpNone, "jumpBoth": .jumpBoth,
  ]

  /// Parses `text` (see the type's description).
  ///
  /// - Throws: ``CLIError`` naming `argument`: ``ExitStatus/usage`` for text of none of these
  ///   forms, ``ExitStatus/dataError`` for values the library rejects (a Bézier `x` outside
  ///   `[0, 1]`, 0 steps, `jump-none` with one step, fewer than two linear stops).
  static func parse(_ text: String, argument: String) throws(CLIError) -> TimingFunction {
    let trimmed = String(Substring(text).trimmingSpaces())
    if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return try json(trimmed, argument) }
    if trimmed == "step-start" { return .steps(.stepStart) }
    if trimmed == "step-end" { return .steps(.stepEnd) }
    if let body = arguments(of: "steps", in: trimmed) { return try steps(body, argument) }
    if let body = arguments(of: "linear", in: trimmed) { return try linear(body, argument) }
    return try parseTimingOption(text, argument: argument)
  }

  /// The text between `name(` and the closing `)`, or `nil`.
  private static func arguments(of name: String, in text: String) -> Substring? {
    guard text.hasPrefix(name + "("), text.hasSuffix(")") else { return nil }
    return text.dropFirst(name.count + 1).dropLast()
  }

  private static func json(_ text: String, _ argument: String) throws(CLIError) -> TimingFunction {
    do {
      return try SpecFile.timingFunction(json: text)
    } catch {
      if let validation = error.validation { throw CLIError.data(argument, validation) }
      throw CLIError(.usage, argument, "\(error.path): \(error.message)")
    }
  }

  private static func steps(_ body: Substring, _ argument: String) throws(CLIError)
    -> TimingFunction
  {
    let items = body.split(separator: ",", omittingEmptySubsequences: false).map {
      String($0.trimmingSpaces())
    }
    guard (1...2).contains(items.count), let n = Int(items[0]) else {
      throw CLIError(
        .usage, argument, "expected steps(n) or steps(n, position) with a whole number n")
    }
    var position = StepsEasing.JumpPosition.jumpEnd
    if items.count == 2 {
      guard let found = positions[items[1]] else {
        throw CLIError(
          .usage, argument,
          "unknown step position '\(items[1])' (known: jump-start, jump-end, jump-none, "
            + "jump-both, start, end)")
      }
      position = found
    }
    do throws(Segue.ValidationError) {
      return .steps(try StepsEasing(steps: n, position: position))
    } catch {
      throw CLIError.data(argument, error)
    }
  }

  private static func linear(_ body: Substring, _ argument: String) throws(CLIError)
    -> TimingFunction
  {
    var stops: [LinearEasing.Stop] = []
    for (i, item) in body.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
      let words = item.split(separator: " ")
      guard (1...3).contains(words.count), let output = Double(words[0]) else {
        throw CLIError(
          .usage, argument,
          "linear() stop \(i) '\(item.trimmingSpaces())': expected an output "
            + "number and up to two input percentages (0.5 25% 75%)")
      }
      var inputs: [Double] = []
      for word in words.dropFirst() {
        guard word.hasSuffix("%"), let percent = Double(word.dropLast()) else {
          throw CLIError(
            .usage, argument, "linear() stop \(i): '\(word)' is not a percentage (25%)")
        }
        inputs.append(percent / 100)
      }
      switch inputs.count {
      case 0: stops.append(LinearEasing.Stop(output))
      case 1: stops.append(LinearEasing.Stop(output, at: inputs[0]))
      default: stops.append(LinearEasing.Stop(output, from: inputs[0], to: inputs[1]))
      }
    }
    do throws(Segue.ValidationError) {
      return .linearPoints(try LinearEasing(stops))
    } catch {
      throw CLIError.data(argument, error)
    }
  }
}
