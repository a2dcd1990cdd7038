import Foundation
import Testing

/// The output files of a run appear together or not at all, and never at the cost of a file that
/// existed before: a failure at any rename restores the directory exactly; SIGINT and SIGTERM
/// leave no temporary file; what SIGKILL leaves is removed by the next run.
@Suite struct FileCommitTests {
  /// Every file of `directory` (hidden ones included) with its bytes.
  static func snapshot(_ directory: TemporaryDirectory) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try directory.contents() {
      files[name] = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + name))
    }
    return files
  }

  /// An earlier run (at scale 2) left frames 0–2 and a filmstrip; a new run (at scale 1, so
  /// every file differs) of four frames and a filmstrip commits five files. Failing the k-th
  /// rename (k = 1…5, `SEGUE_TEST_FAIL_RENAME`) exits 73 naming the file and leaves every
  /// earlier file byte for byte (and no other file); the run without a failure replaces them.
  @Test func failedRenameAtEveryStepRestoresTheDirectory() throws {
    let directory = try TemporaryDirectory()
    let strip = directory.path + "/strip.png"
    let earlier = try SegueProcess.run([
      "render", "--preset", "ca-fade", "--container", "40,30", "--times", "0,0.1,0.2",
      "--output-dir", directory.path, "--filmstrip", strip, "--quiet", "--scale", "2",
    ])
    #expect(earlier.status == 0, "\(earlier.stderr)")
    let before = try Self.snapshot(directory)
    #expect(
      before.keys.sorted() == ["frame-0000.png", "frame-0001.png", "frame-0002.png", "strip.png"])
    let arguments = [
      "render", "--preset", "ca-push", "--container", "40,30", "--times", "0,0.1,0.2,0.25",
      "--output-dir", directory.path, "--filmstrip", strip,
    ]
    let names = [
      "frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png", "strip.png",
    ]
    for k in 1...5 {
      let result = try SegueProcess.run(
        arguments, environment: ["SEGUE_TEST_FAIL_RENAME": "\(k)"])
      #expect(result.status == 73, "rename \(k): \(result.stderr)")
      #expect(result.stderr.contains("cannot create"), "rename \(k): \(result.stderr)")
      #expect(result.stderr.contains(names[k - 1]), "rename \(k): \(result.stderr)")
      #expect(result.stdout.isEmpty)
      #expect(try Self.snapshot(directory) == before, "rename \(k) changed the directory")
    }
    let success = try SegueProcess.run(arguments)
    #expect(success.status == 0, "\(success.stderr)")
    let after = try Self.snapshot(directory)
    #expect(after.keys.sorted() == names)
    for name in before.keys { #expect(after[name] != before[name], "\(name) was not replaced") }
  }

  /// `sample --output` over an existing file: a failed rename keeps the old file.
  @Test func failedRenameKeepsAnExistingOutput() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("out.json", "previous\n")
    let result = try SegueProcess.run(
      ["sample", "--preset", "system", "--times", "0", "--output", path],
      environment: ["SEGUE_TEST_FAIL_RENAME": "1"])
    #expect(result.status == 73)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous\n")
    #expect(try directory.contents() == ["out.json"])
  }

  /// The arguments of a render that runs long enough in a debug build to be interrupted: 31
  /// frames of 200 × 200 pixels.
  static func longRender(_ directory: TemporaryDirectory) -> [String] {
    [
      "render", "--preset", "system", "--container", "200,200", "--fps", "60", "--output-dir",
      directory.path, "--quiet",
    ]
  }

  /// Waits until `directory` holds a temporary file of a run (or `process` ends); `true` when
  /// one appeared.
  static func waitForTemporary(_ directory: TemporaryDirectory, _ process: Process) throws -> Bool {
    let deadline = Date().addingTimeInterval(120)
    while process.isRunning && Date() < deadline {
      if try directory.contents().contains(where: { $0.contains(".segue-") }) { return true }
      usleep(2000)
    }
    return false
  }

  /// SIGINT and SIGTERM at random moments after the first temporary file appeared: the process
  /// ends by the signal (130, 143) — or has finished (0) — and the directory holds no temporary
  /// file, and no frame unless the run completed. Repeated to catch races with the writes and
  /// the commit.
  @Test(arguments: [SIGINT, SIGTERM])
  func interruptedRenderLeavesNoTemporaries(_ signal: Int32) throws {
    var interrupted = 0
    for round in 0..<6 {
      let directory = try TemporaryDirectory()
      let running = try SegueProcess.start(Self.longRender(directory))
      let appeared = try Self.waitForTemporary(directory, running.process)
      usleep(UInt32.random(in: 0...300_000))
      kill(running.process.processIdentifier, signal)
      let result = try running.wait()
      let names = try directory.contents()
      #expect(
        !names.contains { $0.hasPrefix(".") }, "round \(round): left behind \(names)")
      if result.status == 128 + signal {
        interrupted += 1
        // Nothing, or — when the signal came during the commit, which completes first — all.
        #expect(names.isEmpty || names.count == 31, "round \(round): \(names)")
      } else {
        #expect(result.status == 0, "round \(round): \(result.status) \(result.stderr)")
        #expect(names.count == 31, "round \(round)")
      }
      #expect(appeared || result.status == 0)
    }
    #expect(interrupted > 0, "no round was interrupted mid-run")
  }

  /// SIGKILL cannot be handled: its temporaries stay, named `.NAME.segue-PID.XXXXXX`; the next
  /// run into the directory removes them (the process is gone) and says so. A temporary of a
  /// process that is still running (this test's own id) is kept.
  @Test func killedRenderIsCleanedUpByTheNextRun() throws {
    let directory = try TemporaryDirectory()
    let running = try SegueProcess.start(Self.longRender(directory))
    #expect(try Self.waitForTemporary(directory, running.process))
    kill(running.process.processIdentifier, SIGKILL)
    let killed = try running.wait()
    #expect(killed.status == 128 + SIGKILL)
    let pid = running.process.processIdentifier
    let left = try directory.contents().filter { $0.hasPrefix(".") }
    #expect(!left.isEmpty)
    for name in left { #expect(name.contains(".segue-\(pid).")) }
    let alive = try directory.write(".frame-9999.png.segue-\(getpid()).AbC123", "")
    let next = try SegueProcess.run([
      "render", "--preset", "system", "--container", "8,8", "--times", "0", "--output-dir",
      directory.path,
    ])
    #expect(next.status == 0, "\(next.stderr)")
    #expect(
      next.stderr.contains(
        "removed \(left.count) stale temporary file\(left.count == 1 ? "" : "s")"),
      "\(next.stderr)")
    let names = try directory.contents()
    #expect(names.filter { $0.hasPrefix(".") } == [(alive as NSString).lastPathComponent])
    #expect(names.contains("frame-0000.png"))
  }
}
