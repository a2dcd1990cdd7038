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

  /// Runs `segue-bench` with `arguments` and waits for it (see ``run(_:stdin:stdout:environment:)``).
  static func runBench(_ arguments: [String]) throws -> Result {
    let binary = try #require(SegueProcess.benchBinary, "the segue-bench executable was not found")
    return try start(arguments, executable: binary).wait()
  }

  /// Where the child's stdout goes.
  enum Destination {
    /// A temporary file, read back into ``Result/stdout``.
    case capture
    /// A file opened for writing (`/dev/full`).
    case path(String)
    /// A pipe whose read end is closed before the child starts (writes fail with `EPIPE`).
    case closedPipe
  }

  /// Runs `segue` with `arguments` and waits for it. stdout and stderr go to temporary files (no
  /// pipe can fill up and block the child) unless `stdout` says otherwise; `stdin` is written to
  /// a file the child reads (default: `/dev/null`); `environment` is added to the child's.
  static func run(
    _ arguments: [String], stdin: Data? = nil, stdout: Destination = .capture,
    environment: [String: String] = [:]
  ) throws -> Result {
    try start(arguments, stdin: stdin, stdout: stdout, environment: environment).wait()
  }

  /// A child started with ``start(_:stdin:stdout:environment:stderr:executable:)``.
  struct Running {
    let process: Process
    let outPath: String?
    let errPath: String?
    let handles: [FileHandle]
    /// The scratch directory (stdout, stderr, stdin files), kept until the child is waited for.
    let directory: TemporaryDirectory

    /// Waits for the child and collects what it wrote.
    func wait() throws -> Result {
      process.waitUntilExit()
      for handle in handles { try handle.close() }
      let stdout = try outPath.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } ?? Data()
      let stderr = try errPath.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } ?? Data()
      let status =
        process.terminationReason == .uncaughtSignal
        ? 128 + process.terminationStatus : process.terminationStatus
      return Result(
        status: status, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }
  }

  /// Starts `segue` without waiting (see ``run(_:stdin:stdout:environment:)``). `stderr`, when
  /// given, receives the child's stderr instead of a file. The status of a child killed by a
  /// signal is reported as `128 + signal`, as a shell does.
  static func start(
    _ arguments: [String], stdin: Data? = nil, stdout: Destination = .capture,
    environment: [String: String] = [:], stderr: FileHandle? = nil, executable: String? = nil
  ) throws -> Running {
    let binary = try #require(
      executable ?? SegueProcess.binary, "the segue executable was not found")
    let directory = try TemporaryDirectory()
    let scratch = directory.path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    process.environment = merged
    var handles: [FileHandle] = []
    var outPath: String?
    switch stdout {
    case .capture:
      outPath = scratch + "/stdout"
      _ = FileManager.default.createFile(atPath: outPath!, contents: nil)
      let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath!))
      handles.append(out)
      process.standardOutput = out
    case .path(let path):
      let out = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      handles.append(out)
      process.standardOutput = out
    case .closedPipe:
      let pipe = Pipe()
      try pipe.fileHandleForReading.close()
      process.standardOutput = pipe.fileHandleForWriting
    }
    var errPath: String?
    if let stderr {
      process.standardError = stderr
    } else {
      errPath = scratch + "/stderr"
      _ = FileManager.default.createFile(atPath: errPath!, contents: nil)
      let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath!))
      handles.append(err)
      process.standardError = err
    }
    if let stdin {
      let inPath = scratch + "/stdin"
      try stdin.write(to: URL(fileURLWithPath: inPath))
      let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
      handles.append(input)
      process.standardInput = input
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    try process.run()
    return Running(
      process: process, outPath: outPath, errPath: errPath, handles: handles,
      directory: directory)
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
  var pieces: [SampledPiece]?
  var blend: String
  var behindEye: [Bool]?
  var backgroundColor: [Double]
  var cornerRadius: Double
  var masksToBounds: Bool
  var maskedCorners: [String]
  var borderWidth: Double
  var borderColor: [Double]
  var shadowOpacity: Double
  var shadowRadius: Double
  var shadowOffset: [Double]
  var shadowColor: [Double]
}

/// One piece of a layer cut by depth sorting: its draw position and the part of its bounds.
struct SampledPiece: Decodable, Equatable {
  var order: Int
  var polygon: [[Double]]
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
  #expect(
    frame.completed == sample.isCompleted, "\(what) completed", sourceLocation: sourceLocation)
  #expect(
    frame.cancelled == sample.isCancelled, "\(what) cancelled", sourceLocation: sourceLocation)
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
    let pieces = expected.pieces.map { piece in
      SampledPiece(order: piece.order, polygon: piece.polygon.map { [$0.x, $0.y] })
    }
    #expect(
      layer.pieces == (pieces.isEmpty ? nil : pieces), "\(place) pieces",
      sourceLocation: sourceLocation)
    #expect(
      layer.blend == expected.blend.rawValue, "\(place) blend", sourceLocation: sourceLocation)
    let behind = expected.corners.map(\.isBehindEye)
    #expect(
      layer.behindEye == (behind.contains(true) ? behind : nil), "\(place) behindEye",
      sourceLocation: sourceLocation)
    let appearance =
      layer.backgroundColor == expected.backgroundColor.channels
      && layer.cornerRadius == expected.cornerRadius
      && layer.masksToBounds == expected.masksToBounds && layer.borderWidth == expected.borderWidth
      && layer.borderColor == expected.borderColor.channels
      && layer.shadowOpacity == expected.shadowOpacity
      && layer.shadowRadius == expected.shadowRadius
      && layer.shadowOffset == [expected.shadowOffset.width, expected.shadowOffset.height]
      && layer.shadowColor == expected.shadowColor.channels
    #expect(appearance, "\(place) appearance", sourceLocation: sourceLocation)
  }
}
