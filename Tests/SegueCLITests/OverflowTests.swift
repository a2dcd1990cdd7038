import Foundation
import Testing

/// Finite input whose result overflows: rejected with 65 naming the input (the option, or the
/// spec's JSON path of the layer), in every output format, before anything is written; no
/// non-finite number is ever printed.
@Suite struct OverflowTests {
  /// A spec whose layer `b` has a finite transform scaling x by 10²⁰⁰, as does its parent `a`:
  /// `b`'s matrix to the container has m11 = 10²⁰⁰ · 10²⁰⁰ = 10⁴⁰⁰, beyond the largest Double
  /// (≈ 1.8·10³⁰⁸), so it is +∞ although every input number is finite.
  static let composedOverflow = """
    {"version": 1, "duration": 1, "container": [20, 10], "layers": [
      {"id": "a", "bounds": [0, 0, 20, 10], "backgroundColor": [1, 0, 0, 1],
       "transform": [1e200,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]},
      {"id": "b", "parent": "a", "bounds": [0, 0, 5, 5], "backgroundColor": [0, 1, 0, 1],
       "transform": [1e200,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]},
      {"id": "c", "parent": "b", "bounds": [0, 0, 5, 5]}]}
    """

  /// A layer whose matrix is finite but whose corners overflow in the homogeneous divide: with
  /// anchor point (0, 0) and position 0 the matrix is its transform, m41 = 10³⁰³ and m44 = 2·10⁻⁶,
  /// so the top-left corner (0, 0) maps to (10³⁰³, 0, 0, w = 2·10⁻⁶) and x / w = 5·10³⁰⁸ = +∞.
  static let divideOverflow = """
    {"version": 1, "duration": 1, "container": [20, 10], "layers": [
      {"id": "a", "bounds": [0, 0, 20, 10], "backgroundColor": [1, 0, 0, 1],
       "anchorPoint": [0, 0], "transform": [1,0,0,0, 0,1,0,0, 0,0,1,0, 1e303,0,0,2e-6]}]}
    """

  /// An underdamped spring (mass 1, stiffness 100, damping 1: ζ = 1 / (2·√100) = 0.05) from 0 to
  /// 1.7·10³⁰⁸ overshoots its target by almost 85 % in its first swing, past the largest Double:
  /// the presented position.x, and with it the matrix, is +∞ at some sample times.
  static let animatedOverflow = """
    {"version": 1, "duration": 1, "container": [20, 10], "layers": [
      {"id": "a", "bounds": [0, 0, 20, 10], "backgroundColor": [1, 0, 0, 1],
       "animations": [{"keyPath": "position.x", "type": "spring", "fromValue": 0,
                       "toValue": 1.7e308, "damping": 1, "duration": 1}]}]}
    """

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: [String]
    var spec: String?
    var mentions: [String]
    var testDescription: String { name }
  }

  static let sources: [Case] = [
    Case(
      name: "huge container", arguments: ["--preset", "system", "--container", "1e308,1e308"],
      mentions: ["--container", "at most 16777216"]),
    Case(
      name: "composed transform", arguments: ["--spec", "$DIR/spec.json"],
      spec: composedOverflow,
      mentions: ["--spec: $.layers[1] ('b')", "composed", "ancestors"]),
    Case(
      name: "homogeneous divide", arguments: ["--spec", "$DIR/spec.json"], spec: divideOverflow,
      mentions: ["--spec: $.layers[0] ('a')", "corners", "homogeneous divide"]),
    Case(
      name: "animated value", arguments: ["--spec", "$DIR/spec.json"], spec: animatedOverflow,
      mentions: ["--spec: $.layers[0] ('a')", "animations"]),
    Case(
      name: "hero row height", arguments: ["--preset", "hero", "--hero-row-height", "1e308"],
      mentions: ["--hero-row-height", "at most 16777216"]),
  ]

  /// Every source, in JSON, in CSV, to a file, and rendered: exit 65, the input named, nothing on
  /// stdout and no file left.
  @Test(arguments: sources, ["json", "csv", "json-file", "render"])
  func rejected(_ source: Case, _ output: String) throws {
    let directory = try TemporaryDirectory()
    if let spec = source.spec { _ = try directory.write("spec.json", spec) }
    let before = try directory.contents()
    var arguments = source.arguments.map {
      $0.replacingOccurrences(of: "$DIR", with: directory.path)
    }
    switch output {
    case "render":
      arguments = ["render"] + arguments + ["--fps", "10", "--output-dir", directory.path]
    case "json-file":
      arguments = ["sample"] + arguments + ["--fps", "10", "--output", directory.path + "/o.json"]
    default:
      arguments = ["sample"] + arguments + ["--fps", "10", "--format", output]
    }
    let result = try SegueProcess.run(arguments)
    #expect(result.status == 65, "\(result.stderr)")
    for text in source.mentions {
      #expect(result.stderr.contains(text), "stderr lacks '\(text)': \(result.stderr)")
    }
    #expect(!result.stderr.contains("internal error"))
    #expect(result.stdout.isEmpty, "stdout: \(result.text)")
    #expect(try directory.contents() == before)
  }

  /// The largest container accepted, 2²⁴ points a side, samples without any non-finite number:
  /// every field of the CSV parses as a finite number (or is a name or a flag).
  @Test func largestContainerPrintsOnlyFiniteNumbers() throws {
    let result = try SegueProcess.run([
      "sample", "--preset", "system", "--views", "bare", "--container", "16777216,16777216",
      "--fps", "10",
      "--format", "csv",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // Times 0, 0.1, …, 0.5: three layers while the 0.5 s transition runs, only `to` once it
    // has finished (at 0.5 s).
    let rows = result.text.split(separator: "\n").dropFirst()
    #expect(rows.count == 5 * 3 + 1)
    for row in rows {
      for field in row.split(separator: ",") {
        if let value = Double(field) {
          #expect(value.isFinite, "\(row)")
        } else {
          #expect(!field.lowercased().contains("inf") && !field.lowercased().contains("nan"))
        }
      }
    }
  }
}
