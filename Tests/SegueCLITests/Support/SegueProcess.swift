import Foundation
import Segue
import Testing

/// Runs the built `segue` executable.
///
/// The binary is found, in order: `$SEGUE_BINARY`; beside the running test executable
/// (`/proc/self/exe` is `.build/<triple>/debug/SeguePackageTests.xctest`, and SwiftPM puts the
/// `segue` product in the same directory, which it builds first because the test target depends on
/// it); beside each loaded bundle; and `.build/debug/segue` under the package root (found from this
/// file's path).
enum SegueProcess {
  /// What a run produced.
  struct Result {
    /// The exit status.
    var status: Int32
    /// Everything written to stdout.
    var stdout: Data
    /// Everything written to stderr, as text.
    var stderr: String
    /// stdout as text.
    var text: String { String(decoding: stdout, as: UTF8.self) }
  }

  /// The package root (found from this file's path).
  static let packageRoot: String = {
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { root.deleteLastPathComponent() }
    return root.path
  }()

  /// The path of the `segue` executable, or `nil` if none was found.
  static let binary: String? = locate()

  /// The path of the `segue-bench` executable (found like `segue`, `$SEGUE_BENCH_BINARY` first),
  /// or `nil` if none was found.
  static let benchBinary: String? = locate("segue-bench", environment: "SEGUE_BENCH_BINARY")

  static func locate(_ name: String = "segue", environment: String = "SEGUE_BINARY") -> String? {
    let fm = FileManager.default
    var candidates: [String] = []
    if let env = ProcessInfo.processInfo.environment[environment] { candidates.append(env) }
    if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      candidates.append((exe as NSString).deletingLastPathComponent + "/" + name)
    }
    for bundle in Bundle.allBundles {
      candidates.append((bundle.bundlePath as NSString).deletingLastPathComponent + "/" + name)
    }
    // #filePath = <root>/Tests/SegueCLITests/Support/SegueProcess.swift
    candidates.append(packageRoot + "/.build/debug/" + name)
    return candidates.first { fm.isExecutableFile(atPath: $0) }
  }

  /// Runs `segue-bench` with `arguments` and waits for it (see ``run(_:)``).
  static func runBench(_ arguments: [String]) throws -> Result {
    let binary = try #require(SegueProcess.benchBinary, "the segue-bench executable was not found")
    return try run(binary: binary, arguments)
  }

  /// Runs `segue` with `arguments` and waits for it. stdout and stderr go to temporary files (no
  /// pipe can fill up and block the child).
  static func run(_ arguments: [String]) throws -> Result {
    let binary = try #require(SegueProcess.binary, "the segue executable was not found")
    return try run(binary: binary, arguments)
  }

  /// Runs the executable at `binary` with `arguments` and waits for it.
  static func run(binary: String, _ arguments: [String]) throws -> Result {
    let directory = try TemporaryDirectory()
    let outPath = directory.path + "/stdout"
    let errPath = directory.path + "/stderr"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    let stdout = try Data(contentsOf: URL(fileURLWithPath: outPath))
    let stderr = try Data(contentsOf: URL(fileURLWithPath: errPath))
    return Result(
      status: process.terminationStatus, stdout: stdout,
      stderr: String(decoding: stderr, as: UTF8.self))
  }
}

/// A fresh directory under the system temporary directory, removed when released.
final class TemporaryDirectory {
  let path: String

  init() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "segue-cli-tests-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    path = base.path
  }

  /// The names in the directory (including hidden ones).
  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes `text` to `name` in the directory and returns its path.
  func write(_ name: String, _ text: String) throws -> String {
    let file = path + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    return file
  }
}

/// The sample document as the tests read it (independent of the tool's own types).
struct SampledDocument: Decodable {
  var preset: String?
  var operation: String?
  var duration: Double
  var container: [Double]
  var interactive: Bool
  var samples: [SampledFrame]
}

/// One sample.
struct SampledFrame: Decodable {
  var time: Double
  var progress: Double
  var completed: Bool
  var cancelled: Bool
  var phase: String?
  var layers: [SampledLayer]
}

/// One layer of a sample.
struct SampledLayer: Decodable {
  var id: String
  var opacity: Double
  var transform: [Double]
  var corners: [[Double]]
  var order: Int
  var blend: String
  var behindEye: [Bool]?
}

/// Decodes the JSON output of `segue sample`.
func decodeSamples(_ result: SegueProcess.Result) throws -> SampledDocument {
  try JSONDecoder().decode(SampledDocument.self, from: result.stdout)
}

/// Expects `frame` (from the tool) to equal `sample` (from the library) exactly: every number
/// survives JSON's shortest round-trip form bit for bit.
func expectFrame(
  _ frame: SampledFrame, equals sample: TransitionSample, _ what: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(frame.time == sample.time, "\(what) time", sourceLocation: sourceLocation)
  #expect(frame.progress == sample.progress, "\(what) progress", sourceLocation: sourceLocation)
  #expect(frame.completed == sample.completed, "\(what) completed", sourceLocation: sourceLocation)
  #expect(frame.cancelled == sample.cancelled, "\(what) cancelled", sourceLocation: sourceLocation)
  #expect(
    frame.layers.map(\.id) == sample.layers.map(\.id), "\(what) layer ids",
    sourceLocation: sourceLocation)
  for (layer, expected) in zip(frame.layers, sample.layers) {
    let place = "\(what) layer \(expected.id)"
    #expect(layer.opacity == expected.opacity, "\(place) opacity", sourceLocation: sourceLocation)
    #expect(
      layer.transform == expected.matrix.fields, "\(place) transform",
      sourceLocation: sourceLocation)
    #expect(
      layer.corners == expected.corners.map { [$0.point.x, $0.point.y] }, "\(place) corners",
      sourceLocation: sourceLocation)
    #expect(layer.order == expected.order, "\(place) order", sourceLocation: sourceLocation)
    #expect(
      layer.blend == expected.blend.rawValue, "\(place) blend", sourceLocation: sourceLocation)
    let behind = expected.corners.map(\.isBehindEye)
    #expect(
      layer.behindEye == (behind.contains(true) ? behind : nil), "\(place) behindEye",
      sourceLocation: sourceLocation)
  }
}
