import Foundation
import Testing

/// A failed write to standard output or to a file exits 73 with a message naming the output:
/// `/dev/full` (ENOSPC) and a pipe whose reader has gone (EPIPE; SIGPIPE is ignored, so the
/// process is not killed silently).
@Suite struct OutputErrorTests {
  /// Commands that print their result on stdout, with enough output to need more than one write
  /// for the larger ones.
  static let stdoutCommands: [[String]] = [
    ["sample", "--preset", "system", "--times", "0.25"],
    ["sample", "--preset", "hero", "--fps", "600", "--format", "csv"],
    ["sample", "--preset", "system", "--times", "0", "--output", "-"],
    ["curve", "--timing", "easeIn"],
    ["presets"],
    ["presets", "--format", "json"],
    ["profile", "--workload", "preset", "--n", "2", "--seconds", "0.01"],
    ["help", "sample"],
    ["--version"],
    ["--generate-completion-script", "bash"],
  ]

  @Test(arguments: stdoutCommands)
  func fullDiskOnStdout(_ arguments: [String]) throws {
    let result = try SegueProcess.run(arguments, stdout: .path("/dev/full"))
    #expect(result.status == 73, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains("standard output: cannot write: No space left on device"))
    #expect(!result.stderr.contains("Fatal error"))
  }

  @Test(arguments: stdoutCommands)
  func closedPipeOnStdout(_ arguments: [String]) throws {
    let result = try SegueProcess.run(arguments, stdout: .closedPipe)
    #expect(result.status == 73, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains("standard output: cannot write: Broken pipe"))
  }

  /// A closed stdout (`>&-`) is an error too (EBADF), and does not capture the output file: the
  /// output file opened in its place would otherwise receive what is meant for stdout.
  @Test func closedStdout() throws {
    let binary = try #require(SegueProcess.binary)
    let directory = try TemporaryDirectory()
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = [
      "-c",
      "'\(binary)' sample --preset system --times 0 >&- 2>'\(directory.path)/err'; "
        + "echo $? > '\(directory.path)/status'; '\(binary)' render --preset system "
        + "--container 8,8 --times 0 --output-dir '\(directory.path)' >&- 2>>'\(directory.path)/err'",
    ]
    try shell.run()
    shell.waitUntilExit()
    #expect(shell.terminationStatus == 73)
    let status = try String(contentsOfFile: directory.path + "/status", encoding: .utf8)
    #expect(status == "73\n")
    let errors = try String(contentsOfFile: directory.path + "/err", encoding: .utf8)
    #expect(errors.contains("segue sample: standard output: cannot write: Bad file descriptor"))
    // The frame was written in full (its file did not take stdout's descriptor).
    let images = try PNGDecoding.decode([(directory.path + "/frame-0000.png", [(0, 0)])])
    #expect(images[0].width == 8)
  }

  /// `render`'s summary line is its only stdout.
  @Test func renderSummaryOnAFullDisk() throws {
    let directory = try TemporaryDirectory()
    let result = try SegueProcess.run(
      [
        "render", "--preset", "system", "--container", "8,8", "--times", "0", "--output-dir",
        directory.path,
      ], stdout: .path("/dev/full"))
    #expect(result.status == 73, "\(result.stderr)")
    #expect(result.stderr.contains("standard output: cannot write"))
  }

  /// A symbolic link in a fresh directory to the device `device`: the tests write through it, so
  /// a tool that wrongly renamed a file over its output would replace the link, never the device.
  static func link(to device: String, in directory: TemporaryDirectory) throws -> String {
    let path = directory.path + "/" + (device as NSString).lastPathComponent
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: device)
    return path
  }

  /// `--output` naming `/dev/full` (through a link): the device is written in place (never
  /// replaced by a file), and the failure is reported naming `--output`.
  @Test func outputFileOnAFullDisk() throws {
    let directory = try TemporaryDirectory()
    let full = try Self.link(to: "/dev/full", in: directory)
    for arguments in [
      ["sample", "--preset", "system", "--output", full],
      ["curve", "--timing", "linear", "--output", full],
    ] {
      let result = try SegueProcess.run(arguments)
      #expect(result.status == 73, "\(result.stderr)")
      #expect(
        result.stderr.contains("--output: cannot write '\(full)': No space left on device"),
        "\(result.stderr)")
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: full) == "/dev/full")
    #expect(try directory.contents() == ["full"])
  }

  /// `--output` naming `/dev/null` (through a link) writes into the device: the link stays, no
  /// file appears.
  @Test func outputToADeviceKeepsTheDevice() throws {
    let directory = try TemporaryDirectory()
    let null = try Self.link(to: "/dev/null", in: directory)
    let result = try SegueProcess.run([
      "sample", "--preset", "system", "--times", "0", "--output", null,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: null) == "/dev/null")
    #expect(try directory.contents() == ["null"])
  }

  /// A named pipe is written in place too: its reader gets the document.
  @Test func outputToANamedPipe() throws {
    let directory = try TemporaryDirectory()
    let fifo = directory.path + "/pipe"
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = Process()
    reader.executableURL = URL(fileURLWithPath: "/bin/cat")
    reader.arguments = [fifo]
    let output = Pipe()
    reader.standardOutput = output
    try reader.run()
    let result = try SegueProcess.run([
      "sample", "--preset", "system", "--times", "0", "--output", fifo,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    reader.waitUntilExit()
    #expect(text.hasPrefix(#"{"container":[390,844]"#))
    #expect(try directory.contents() == ["pipe"])
  }

  /// `--output LINK` replaces the file the symbolic link points to and keeps the link.
  @Test func outputThroughASymbolicLink() throws {
    let directory = try TemporaryDirectory()
    let target = try directory.write("target.json", "old\n")
    let link = directory.path + "/link.json"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.json")
    let result = try SegueProcess.run([
      "sample", "--preset", "system", "--times", "0", "--output", link,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.json")
    let text = try String(contentsOfFile: target, encoding: .utf8)
    #expect(text.hasPrefix(#"{"container":[390,844]"#))
    #expect(try directory.contents() == ["link.json", "target.json"])
  }
}
