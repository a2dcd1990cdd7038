import Foundation
import Testing

/// `segue snapshot record|verify`: recording, verifying, the report, shards, the exit codes,
/// and snapshots that verify whichever dispatch path (`SEGUE_CPU`) rendered them.
@Suite("segue snapshot")
struct SnapshotCommandTests {
  /// A fresh temporary folder.
  static func folder(_ name: String = #function) throws -> String {
    let path =
      NSTemporaryDirectory() + "segue-snapshot-cli-\(getpid())-"
      + name.filter(\.isLetter) + "-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Small and fast: two frames at a tenth of the scale.
  static let small = ["--frames", "2", "--scale", "0.1"]

  @Test func recordThenVerifyPresets() throws {
    let dir = try Self.folder()
    let record = try SegueProcess.run(
      ["snapshot", "record", "--presets", "--snapshots", dir] + Self.small)
    #expect(record.status == 0, "\(record.stderr)")
    #expect(record.stderr.contains("wrote 40 files of 20 transitions"))
    let files = try FileManager.default.contentsOfDirectory(atPath: dir)
    #expect(files.contains("system-push.frame-1.png") && files.count == 40)
    let verify = try SegueProcess.run(
      ["snapshot", "verify", "--presets", "--snapshots", dir] + Self.small)
    #expect(verify.status == 0, "\(verify.stderr)")
    #expect(verify.stderr.contains("20 transitions match their snapshots"))
  }

  /// A different snapshot: exit 1, one line per file on stdout, and an HTML report with the
  /// snapshot, the new image, the diff and a slider; the snapshot itself is left alone.
  @Test func verifyReportsADifference() throws {
    let dir = try Self.folder()
    _ = try SegueProcess.run(["snapshot", "record", "--presets", "--snapshots", dir] + Self.small)
    let target = dir + "/system-push.frame-1.png"
    try FileManager.default.removeItem(atPath: target)
    try FileManager.default.copyItem(atPath: dir + "/hero-push.frame-1.png", toPath: target)
    let before = try Data(contentsOf: URL(fileURLWithPath: target))
    let report = dir + "/report.html"
    let result = try SegueProcess.run(
      ["snapshot", "verify", "--presets", "--snapshots", dir, "--report", report] + Self.small)
    #expect(result.status == 1)
    #expect(result.text.hasPrefix("Snapshot \(target) does not match: "))
    #expect(result.text.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("1 of 20 transitions differ from their snapshots"))
    let html = try String(contentsOfFile: report, encoding: .utf8)
    #expect(html.contains("<h2>system-push</h2>"))
    #expect(html.components(separatedBy: "data:image/png;base64,").count - 1 == 5)
    #expect(html.contains("<input type=range"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
  }

  /// Missing and unreadable snapshots fail verification (exit 1) and are not written.
  @Test func missingAndCorruptSnapshotsFail() throws {
    let dir = try Self.folder()
    let args = ["snapshot", "verify", "--presets", "--snapshots", dir] + Self.small
    let missing = try SegueProcess.run(args)
    #expect(missing.status == 1)
    #expect(missing.text.contains("No snapshot at \(dir)/system-push.frame-0.png"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    _ = try SegueProcess.run(["snapshot", "record", "--presets", "--snapshots", dir] + Self.small)
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: dir + "/hero-pop.frame-0.png"))
    let corrupt = try SegueProcess.run(args)
    #expect(corrupt.status == 1)
    #expect(
      corrupt.text.contains(
        "Cannot read the snapshot \(dir)/hero-pop.frame-0.png: not a PNG file (no PNG signature)"))
  }

  /// The shards split the transitions without overlap, the same way every time.
  @Test func shardsSplitStably() throws {
    let dir = try Self.folder()
    var recorded: [Set<String>] = []
    for i in 1...3 {
      let shard = try Self.folder("shard\(i)")
      let result = try SegueProcess.run(
        ["snapshot", "record", "--presets", "--snapshots", shard, "--shard", "\(i)/3"]
          + Self.small)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.contains("(shard \(i)/3: "))
      recorded.append(Set(try FileManager.default.contentsOfDirectory(atPath: shard)))
    }
    #expect(recorded.reduce(0) { $0 + $1.count } == 40)
    #expect(recorded[0].isDisjoint(with: recorded[1]) && recorded[1].isDisjoint(with: recorded[2]))
    let again = try SegueProcess.run(
      ["snapshot", "record", "--presets", "--snapshots", dir, "--shard", "2/3"] + Self.small)
    #expect(again.status == 0)
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir)) == recorded[1])
  }

  /// Spec files, named after their files, as curves.
  @Test func specFilesAsCurves() throws {
    let dir = try Self.folder()
    let examples = SegueProcess.packageRoot + "/Sources/SegueSpec/Examples"
    let specs = try FileManager.default.contentsOfDirectory(atPath: examples).sorted().map {
      examples + "/" + $0
    }
    let args = ["--snapshots", dir, "--strategy", "curves"] + specs
    #expect(try SegueProcess.run(["snapshot", "record"] + args).status == 0)
    #expect(
      FileManager.default.fileExists(atPath: dir + "/hero-push.txt"))
    let verify = try SegueProcess.run(["snapshot", "verify"] + args)
    #expect(verify.status == 0, "\(verify.stderr)")
  }

  /// Each rejected input: its message and exit code; nothing is written.
  @Test func rejectsBadInput() throws {
    let dir = try Self.folder()
    let cases: [([String], Int32, String)] = [
      (
        ["--presets", "--snapshots", dir, "--shard", "0/2"], 65, "--shard: I must be in 1…2 (got 0)"
      ),
      (
        ["--presets", "--snapshots", dir, "--shard", "3/2"], 65, "--shard: I must be in 1…2 (got 3)"
      ),
      (["--presets", "--snapshots", dir, "--shard", "1/0"], 65, "--shard: N must be at least 1"),
      (["--presets", "--snapshots", dir, "--shard", "half"], 64, "--shard: expected I/N"),
      (["--snapshots", dir], 64, "give spec files, --presets, or both"),
      (
        ["--presets", "--snapshots", dir, "--precision", "2"], 65, "--precision: must be in [0, 1]"
      ),
      (["--presets", "--snapshots", dir, "--frames", "0"], 65, "--frames: must be in 1…10000"),
      (["--presets", "--snapshots", dir, "--scale", "nan"], 65, "--scale: nan is not finite"),
      (["--presets", "--snapshots", dir, "--times", "0,-1"], 65, "--times: item 1 -1 is negative"),
      (["--presets", "--snapshots", dir, "--strategy", "movie"], 64, "--strategy"),
      ([dir + "/none.json", "--snapshots", dir], 66, "no such file"),
      (
        ["--presets", "--snapshots", dir + "/nowhere"], 66,
        "--snapshots: '\(dir)/nowhere': no such directory"
      ),
    ]
    for (arguments, status, message) in cases {
      let result = try SegueProcess.run(["snapshot", "verify"] + arguments)
      #expect(result.status == status, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    let file = dir + "/plain"
    try Data().write(to: URL(fileURLWithPath: file))
    let unwritable = try SegueProcess.run(
      ["snapshot", "record", "--presets", "--snapshots", file] + Self.small)
    #expect(unwritable.status == 73, "\(unwritable.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["plain"])
  }

  /// Recorded on the AVX-512 path, the snapshots verify on the AVX2 and baseline paths at
  /// precision 1 (every frame byte for byte), forced with `SEGUE_CPU`.
  @Test func snapshotsVerifyOnEveryDispatchPath() throws {
    let dir = try Self.folder()
    let args = ["--presets", "--snapshots", dir, "--frames", "3", "--scale", "0.25"]
    let record = try SegueProcess.run(
      ["snapshot", "record"] + args, environment: ["SEGUE_CPU": "avx512"])
    #expect(record.status == 0, "\(record.stderr)")
    for path in ["avx2", "baseline"] {
      let verify = try SegueProcess.run(
        ["snapshot", "verify"] + args, environment: ["SEGUE_CPU": path])
      #expect(verify.status == 0, "\(path): \(verify.text)")
    }
  }

  /// `SEGUE_CPU` limits what the run-time dispatch sees.
  @Test func segueCPULimitsTheRuntimeFeatures() throws {
    let arguments = [
      "--workload", "snapshot", "--snapshot-transitions", "1", "--snapshot-frames", "1",
      "--snapshot-scale", "0.1", "--repeats", "1",
    ]
    let binary = try #require(SegueProcess.benchBinary)
    let baseline = try SegueProcess.start(
      arguments, environment: ["SEGUE_CPU": "baseline"], executable: binary
    ).wait()
    #expect(baseline.status == 0, "\(baseline.stderr)")
    #expect(baseline.text.contains("(none)"), "\(baseline.text)")
    let avx2 = try SegueProcess.start(
      arguments, environment: ["SEGUE_CPU": "avx2"], executable: binary
    ).wait()
    #expect(!avx2.text.contains("avx512"), "\(avx2.text)")
  }
}
