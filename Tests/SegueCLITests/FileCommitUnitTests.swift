import Foundation
import Testing

@testable import segue

/// ``FileCommit`` used directly (the type the CLI's outputs go through), and the small pure
/// pieces of the tool: temporary-file names, the progress line, the error formatter, JSON
/// strings. Serialized: the tests share the process's registry of temporary files.
@Suite(.serialized) struct FileCommitUnitTests {
  /// The files of `directory` with their text.
  static func snapshot(_ directory: TemporaryDirectory) throws -> [String: String] {
    var files: [String: String] = [:]
    for name in try directory.contents() {
      files[name] = try String(contentsOfFile: directory.path + "/" + name, encoding: .utf8)
    }
    return files
  }

  /// Two files exist (`a`, `b`); a commit writes `a`, `c`, `b` (one new between two replaced).
  /// Failing rename k (1…3) throws naming that file and leaves the directory as it was; no
  /// temporary or backup stays registered. Without a failure all three are replaced.
  @Test func rollbackAtEveryRename() throws {
    let directory = try TemporaryDirectory()
    _ = try directory.write("a", "old a")
    _ = try directory.write("b", "old b")
    let before = try Self.snapshot(directory)
    let names = ["a", "c", "b"]
    for k in 1...3 {
      let commit = FileCommit()
      commit.failingRename = k
      for name in names {
        try commit.add(Array("new \(name)".utf8), to: directory.path + "/" + name, argument: name)
      }
      #expect(try directory.contents().count == 5, "three temporaries beside a and b")
      #expect(throws: CLIError.self) { try commit.commit() }
      #expect(try Self.snapshot(directory) == before, "rename \(k)")
      #expect(Interruption.registry.withLock { $0.isEmpty })
    }
    let commit = FileCommit()
    for name in names {
      try commit.add(Array("new \(name)".utf8), to: directory.path + "/" + name, argument: name)
    }
    try commit.commit()
    #expect(try Self.snapshot(directory) == ["a": "new a", "b": "new b", "c": "new c"])
    #expect(Interruption.registry.withLock { $0.isEmpty })
  }

  /// The error of a failed rename names the argument and the file.
  @Test func failedRenameNamesTheFile() throws {
    let directory = try TemporaryDirectory()
    let commit = FileCommit()
    commit.failingRename = 2
    try commit.add([1], to: directory.path + "/x.png", argument: "--output-dir")
    try commit.add([2], to: directory.path + "/y.png", argument: "--filmstrip")
    do {
      try commit.commit()
      Issue.record("the commit succeeded")
    } catch {
      #expect(error.status == .cannotCreate)
      #expect(error.argument == "--filmstrip")
      #expect(error.message == "cannot create '\(directory.path)/y.png': Input/output error")
    }
    #expect(try directory.contents().isEmpty)
  }

  /// A commit released without ``FileCommit/commit()`` removes its temporary files.
  @Test func uncommittedFilesAreDiscarded() throws {
    let directory = try TemporaryDirectory()
    do {
      let commit = FileCommit()
      try commit.add([1, 2, 3], to: directory.path + "/out.bin", argument: "--output")
      #expect(try directory.contents().count == 1)
    }
    #expect(try directory.contents().isEmpty)
    #expect(Interruption.registry.withLock { $0.isEmpty })
  }

  /// Temporary names carry the writing process's id; backups add `-old`; anything else is not
  /// one.
  @Test func temporaryNames() {
    #expect(FileCommit.stalePID(".frame-0001.png.segue-1234.AbC123") == 1234)
    #expect(FileCommit.stalePID(".out.json.segue-7-old.zzzzzz") == 7)
    #expect(FileCommit.stalePID(".a.segue-2147483647.000000") == 2_147_483_647)
    for name in [
      "frame-0001.png", ".frame-0001.png", ".x.segue-12.AbC12", ".x.segue-12.AbC12!",
      ".x.segue-.AbC123", ".x.segue-12-new.AbC123", "x.segue-12.AbC123", ".x.segue-0.AbC123",
      ".x.segue-99999999999.AbC123", ".segue-12.AbC123", ".x.seguE-12.AbC123",
    ] {
      #expect(FileCommit.stalePID(name) == nil, "\(name)")
    }
  }

  /// The sweep removes the files of a process that has exited and keeps those of running ones.
  @Test func sweepRemovesOnlyFilesOfDeadProcesses() throws {
    let directory = try TemporaryDirectory()
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    let dead = finished.processIdentifier
    let stale = [".f.png.segue-\(dead).AAAAAA", ".f.png.segue-\(dead)-old.BBBBBB"]
    let live = [".f.png.segue-\(getpid()).CCCCCC", ".f.png.segue-1.DDDDDD", "keep.png"]
    for name in stale + live { _ = try directory.write(name, "") }
    #expect(FileCommit.sweep(directory.path) == stale.sorted())
    #expect(try directory.contents() == live.sorted())
  }

  /// By hand: 12 of 55 frames after 1.5 s is 12 / 1.5 = 8 frames/s; the 43 left take 43 / 8 =
  /// 5.375 s, shown rounded up; ⌊12·20/55⌋ = 4 of the 20 cells are filled.
  @Test func progressLine() {
    #expect(
      Progress.line(done: 12, total: 55, unit: "frames", elapsed: 1.5)
        == "[####................] 12/55 frames  8.0 frames/s  ETA 6 s")
    #expect(
      Progress.line(done: 0, total: 3, unit: "frames", elapsed: 0)
        == "[....................] 0/3 frames")
    // 300 of 1000 in 12 s: 25 frames/s, 700 / 25 = 28 s left.
    #expect(
      Progress.line(done: 300, total: 1000, unit: "frames", elapsed: 12)
        == "[######..............] 300/1000 frames  25 frames/s  ETA 28 s")
    #expect(Progress.duration(59.2) == "1 min 00 s")
    #expect(Progress.duration(125) == "2 min 05 s")
    #expect(Progress.duration(3599.5) == "1 h 00 min")
    #expect(Progress.duration(7 * 3600 + 7 * 60) == "7 h 07 min")
  }

  /// ArgumentParser's messages in the tool's style.
  @Test func usageErrorLines() {
    #expect(
      SegueCommand.usageErrorLine("Unknown option '--speed'", command: "sample")
        == "segue sample: --speed: unknown option '--speed'")
    #expect(
      SegueCommand.usageErrorLine(
        "The value 'x' is invalid for '--preset <name>'. Please provide one of the following:\n"
          + "  - system\n  - hero", command: "render")
        == "segue render: --preset: the value 'x' is invalid for '--preset <name>'. Choose one "
        + "of: system, hero.")
    #expect(
      SegueCommand.usageErrorLine("Unexpected argument 'frob'", command: nil)
        == "segue: frob: unexpected argument 'frob'")
    #expect(
      SegueCommand.usageErrorLine("Something went wrong", command: "curve")
        == "segue curve: something went wrong")
  }

  /// JSON strings decode back to the original text, control characters included.
  @Test func jsonStrings() throws {
    for text in ["plain", "quote \" and \\ slash /", "tab\tline\nreturn\r\u{1}\u{1F}", "é→🙂"] {
      let literal = jsonString(text)
      let decoded = try JSONDecoder().decode([String].self, from: Data("[\(literal)]".utf8))
      #expect(decoded == [text], "\(literal)")
    }
    #expect(jsonString("a\u{1}") == #""a\u0001""#)
  }
}
