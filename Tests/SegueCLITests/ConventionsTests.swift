import Foundation
import Testing

/// Command-line conventions: progress on stderr when it is a terminal, `--quiet`, `--version`,
/// `-` for standard input and output, one error style for every error, help texts that name no
/// file outside the binary, shell completion scripts.
@Suite struct ConventionsTests {
  /// A pseudo-terminal: the child writes to `follower`, the test reads `leader`.
  final class PseudoTerminal {
    let leader: Int32
    let follower: FileHandle

    /// Linux's `TIOCSPTLCK` (unlock the follower) and `TIOCGPTN` (its number), which Swift
    /// does not import: `_IOW('T', 0x31, int)` and `_IOR('T', 0x30, unsigned int)`.
    static let unlock: UInt = 0x4004_5431
    static let number: UInt = 0x8004_5430

    /// `posix_openpt`, `unlockpt` and `ptsname` (not imported by Swift's Glibc) through
    /// `/dev/ptmx` and its ioctls; `grantpt` is a no-op with devpts.
    init() throws {
      leader = open("/dev/ptmx", O_RDWR | O_NOCTTY)
      try #require(leader >= 0)
      var unlocked: Int32 = 0
      try #require(ioctl(leader, Self.unlock, &unlocked) == 0)
      var index: UInt32 = 0
      try #require(ioctl(leader, Self.number, &index) == 0)
      let fd = open("/dev/pts/\(index)", O_RDWR | O_NOCTTY)
      try #require(fd >= 0)
      follower = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
      // Non-blocking reads: the test drains whatever is there.
      _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
    }

    /// Everything written so far.
    func drain() -> String {
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(leader, $0.baseAddress, $0.count) }
        guard n > 0 else { break }
        bytes += buffer[..<n]
      }
      return String(decoding: bytes, as: UTF8.self)
    }

    deinit { close(leader) }
  }

  /// Runs `arguments` with stderr on a terminal and returns stdout, the status and what the
  /// terminal received.
  static func runOnTerminal(_ arguments: [String]) throws -> (SegueProcess.Result, String) {
    let terminal = try PseudoTerminal()
    let running = try SegueProcess.start(arguments, stderr: terminal.follower)
    var screen = ""
    while running.process.isRunning {
      screen += terminal.drain()
      usleep(10_000)
    }
    let result = try running.wait()
    screen += terminal.drain()
    return (result, screen)
  }

  /// With stderr a terminal, `render` draws a progress line there — frames done out of the total,
  /// frames per second and the time left — redrawn with carriage returns and erased at the end;
  /// stdout gets only the summary.
  @Test func renderDrawsProgressOnAStderrTerminal() throws {
    let directory = try TemporaryDirectory()
    let (result, screen) = try Self.runOnTerminal([
      "render", "--preset", "system", "--container", "40,40", "--fps", "20", "--output-dir",
      directory.path,
    ])
    #expect(result.status == 0, "\(screen)")
    #expect(screen.contains("/11 frames"), "\(screen.debugDescription)")
    #expect(screen.contains("11/11 frames"), "\(screen.debugDescription)")
    #expect(screen.contains("frames/s"), "\(screen.debugDescription)")
    #expect(screen.contains("ETA"), "\(screen.debugDescription)")
    #expect(screen.contains("\r"))
    #expect(screen.hasSuffix("\r\u{1B}[K"), "the line is erased at the end")
    #expect(result.text == "segue render: wrote 11 frames of 40×40 px in \(directory.path)\n")
  }

  /// `--quiet`: nothing on the terminal and no summary.
  @Test func quietRenderPrintsNothing() throws {
    let directory = try TemporaryDirectory()
    let (result, screen) = try Self.runOnTerminal([
      "render", "--preset", "system", "--container", "40,40", "--fps", "20", "--output-dir",
      directory.path, "--quiet",
    ])
    #expect(result.status == 0)
    #expect(screen.isEmpty, "\(screen.debugDescription)")
    #expect(result.stdout.isEmpty)
    #expect(try directory.contents().count == 11)
  }

  /// When stderr is not a terminal (a file here) no progress is written.
  @Test func noProgressWhenStderrIsAFile() throws {
    let directory = try TemporaryDirectory()
    let result = try SegueProcess.run([
      "render", "--preset", "system", "--container", "40,40", "--fps", "20", "--output-dir",
      directory.path,
    ])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  /// Every progress line drawn has the documented form: a 20-cell bar with ⌊done·20/total⌋
  /// cells filled, `done/total frames`, and once a frame is done the rate and the time left.
  @Test func progressLineText() throws {
    let directory = try TemporaryDirectory()
    let (_, screen) = try Self.runOnTerminal([
      "render", "--preset", "system", "--container", "40,40", "--fps", "20", "--output-dir",
      directory.path,
    ])
    let lines = screen.split(separator: "\r").map(String.init).filter { $0.hasPrefix("[") }
    try #require(!lines.isEmpty)
    for line in lines {
      // [####................] 4/11 frames  8.3 frames/s  ETA 1 s
      let pattern =
        #/^\[(#*)(\.*)\] (\d+)/11 frames(  [0-9.]+ frames/s  ETA \d+ (s|min \d\d s|h \d\d min))?\x1B\[K$/#
      let match = try #require(line.wholeMatch(of: pattern), "\(line.debugDescription)")
      let done = try #require(Int(match.output.3))
      #expect(match.output.1.count == done * 20 / 11)
      #expect(match.output.1.count + match.output.2.count == 20)
    }
  }

  /// `--version` prints the version written once in Sources/segue/Version.swift.
  @Test func versionComesFromOnePlace() throws {
    let source = try String(
      contentsOfFile: SegueProcess.packageRoot + "/Sources/segue/Version.swift", encoding: .utf8)
    let match = try #require(source.firstMatch(of: #/let segueVersion = "([^"]+)"/#))
    let result = try SegueProcess.run(["--version"])
    #expect(result.status == 0)
    #expect(result.text == String(match.output.1) + "\n")
    #expect(result.text.wholeMatch(of: #/\d+\.\d+\.\d+\n/#) != nil)
  }

  /// `--spec -` and `--events -` read standard input; `--output -` is standard output. The
  /// results equal those from files.
  @Test func dashMeansStandardInputAndOutput() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("spec.json", TestSpecs.plain)
    let fromFile = try SegueProcess.run(["sample", "--spec", spec])
    let fromStdin = try SegueProcess.run(
      ["sample", "--spec", "-", "--output", "-"], stdin: Data(TestSpecs.plain.utf8))
    #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
    // The document names its spec: the path, or '-'.
    #expect(
      fromStdin.text
        == fromFile.text.replacingOccurrences(of: #""spec":"\#(spec)""#, with: #""spec":"-""#))
    let events = #"[{"time": 0, "update": 0.2}, {"time": 0.1, "finish": true}]"#
    let eventsFile = try directory.write("events.json", events)
    let a = try SegueProcess.run(["sample", "--preset", "system", "--events", eventsFile])
    let b = try SegueProcess.run(
      ["sample", "--preset", "system", "--events", "-"], stdin: Data(events.utf8))
    #expect(b.status == 0, "\(b.stderr)")
    #expect(a.stdout == b.stdout)
    let both = try SegueProcess.run(["sample", "--spec", "-", "--events", "-"])
    #expect(both.status == 64)
    #expect(both.stderr.contains("cannot both read standard input"))
    let badStdin = try SegueProcess.run(
      ["sample", "--spec", "-"], stdin: Data(#"{"version": 1, "layers": [}"#.utf8))
    #expect(badStdin.status == 65)
    #expect(badStdin.stderr.contains("segue sample: --spec: malformed JSON"))
  }

  /// ArgumentParser's own errors use the tool's style: `segue SUBCOMMAND: ARGUMENT: what is
  /// wrong`, exit 64, then the usage; no `Error:` prefix.
  @Test(arguments: [
    (["sample", "--preset", "system", "--speed", "2"], "segue sample: --speed: unknown option"),
    (["sample", "--preset", "wobble"], "segue sample: --preset: the value 'wobble' is invalid"),
    (["sample", "--times"], "segue sample: --times: missing value"),
    (["render", "--columns", "many"], "segue render: --columns: the value 'many' is invalid"),
    (["frobnicate"], "segue: frobnicate: unexpected argument"),
    (["curve"], "segue curve: --timing: give exactly one of"),
    (["render", "--preset", "system", "--no-frames"], "segue render: --no-frames: without"),
    (["sample", "--preset", "system", "--times", "0", "--fps", "1"], "segue sample: --times:"),
  ])
  func usageErrorsHaveOneStyle(_ arguments: [String], _ first: String) throws {
    let result = try SegueProcess.run(arguments)
    #expect(result.status == 64, "\(result.stderr)")
    let line = String(result.stderr.prefix { $0 != "\n" })
    #expect(line.hasPrefix(first), "\(result.stderr)")
    #expect(!result.stderr.contains("Error:"), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  /// The help texts name no file outside the installed binary: no README, no source path.
  @Test(arguments: ["", "presets", "sample", "render", "curve", "profile", "snapshot"])
  func helpNamesNoOutsideFile(_ subcommand: String) throws {
    let result = try SegueProcess.run(["help"] + (subcommand.isEmpty ? [] : [subcommand]))
    #expect(result.status == 0)
    #expect(!result.text.isEmpty)
    for text in ["README", "Sources/", ".swift", ".md", ".build", "ExitCodes"] {
      #expect(!result.text.contains(text), "help \(subcommand) names '\(text)'")
    }
  }

  /// `--generate-completion-script SHELL` prints a completion script naming the subcommands.
  @Test(arguments: ["bash", "zsh", "fish"])
  func completionScripts(_ shell: String) throws {
    let result = try SegueProcess.run(["--generate-completion-script", shell])
    #expect(result.status == 0, "\(result.stderr)")
    for name in ["segue", "render", "sample", "output-dir"] {
      #expect(result.text.contains(name), "\(shell) script lacks \(name)")
    }
  }
}
