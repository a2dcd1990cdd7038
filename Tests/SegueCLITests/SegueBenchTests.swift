import Foundation
import SegueToolSupport
import Testing

@testable import segue_bench

/// segue-bench's command line: every workload's `--format json`, and the memory budget that
/// turns an unallocatable product of in-range options into a usage error.
@Suite("segue-bench: JSON reports and the memory budget")
struct SegueBenchTests {
  /// Each workload, run small (debug builds are slow) with `--format json`, prints one JSON
  /// object naming the workload with a positive rate.
  @Test(arguments: [
    ["--workload", "stack"], ["--workload", "stack", "--path", "scalar"],
    ["--workload", "bezier"], ["--workload", "spring"], ["--workload", "presets"],
    ["--workload", "bake", "--frames", "4"], ["--workload", "children"],
    ["--workload", "dissolve", "--frames", "4"],
    ["--workload", "blend", "--width", "100"],
    ["--workload", "render", "--preset", "ca-fade", "--scale", "0.1", "--frames", "2"],
  ])
  func everyWorkloadPrintsJSON(arguments: [String]) throws {
    let n = arguments.contains("render") ? [] : ["--n", "1000"]
    let result = try SegueProcess.runBench(
      arguments + n + ["--repeats", "1", "--format", "json"])
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
      "\(arguments): \(result.text)")
    #expect(object["workload"] as? String == arguments[1])
    let rate =
      (object["layerEvalsPerSecond"] ?? object["pixelsPerSecond"] ?? object["mpixelsPerSecond"])
      as? Double
    #expect((rate ?? 0) > 0, "\(arguments)")
  }

  /// The workloads with a report of their own (text only) run their own measurement: the first
  /// line names the workload, not the default `stack`.
  @Test(arguments: [
    ["--workload", "paint", "--width", "1000", "--n", "1000"],
    ["--workload", "text", "--n", "1000"],
    [
      "--workload", "snapshot", "--snapshot-transitions", "1", "--snapshot-frames", "1",
      "--snapshot-scale", "0.1",
    ],
  ])
  func ownReportWorkloadsRunTheirMeasurement(arguments: [String]) throws {
    let result = try SegueProcess.runBench(arguments + ["--repeats", "1"])
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    let first = result.text.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix("workload \(arguments[1])"), "\(arguments): \(result.text)")
    #expect(!result.text.contains("layer-evals/s"), "\(arguments): \(result.text)")
  }

  /// Workloads reject the options they would ignore.
  @Test(arguments: [
    ["--workload", "bezier", "--threads", "2"], ["--workload", "spring", "--path", "scalar"],
    ["--workload", "presets", "--path", "scalar", "--threads", "2"],
    ["--workload", "presets", "--path", "naive"],
  ])
  func ignoredOptionsAreRejected(arguments: [String]) throws {
    let result = try SegueProcess.runBench(arguments + ["--n", "1000", "--repeats", "1"])
    #expect(result.status == 64, "\(arguments): \(result.stderr)")
  }

  /// `--chunk-size` splits a two-thread run into that many layers (stack) or lane groups
  /// (presets) per chunk; the checksum does not depend on the split. Below 1 it is a usage error
  /// naming the option.
  @Test func chunkSizeSplitsRunsAndIsChecked() throws {
    for workload in ["stack", "presets"] {
      var checksums: [Double] = []
      for chunk in [nil, "1", "7"] as [String?] {
        let result = try SegueProcess.runBench(
          ["--workload", workload, "--n", "1000", "--repeats", "1", "--threads", "2"]
            + (chunk.map { ["--chunk-size", $0] } ?? []) + ["--format", "json"])
        #expect(result.status == 0, "\(workload) \(chunk ?? "default"): \(result.stderr)")
        let object = try #require(
          try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        checksums.append(try #require(object["checksum"] as? Double))
      }
      #expect(Set(checksums).count == 1, "\(workload): \(checksums)")
    }
    let result = try SegueProcess.runBench(["--chunk-size", "0", "--repeats", "1"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--chunk-size must be at least 1 (got 0)"), "\(result.stderr)")
  }

  /// The JSON report of a small `live` run with `options`, which must succeed.
  static func liveReport(_ options: [String]) throws -> [String: Any] {
    let result = try SegueProcess.runBench(
      ["--workload", "live", "--n", "1000"] + options + ["--format", "json"])
    #expect(result.status == 0, "\(options): \(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
  }

  /// `live` writes its rows as `--streaming` says and names the choice in its report; the
  /// frames' results (the checksum) do not depend on it.
  @Test func liveStreamingChoiceIsReportedAndChangesNoResult() throws {
    var checksums: [Double] = []
    for choice in ["auto", "on", "off"] {
      let object = try Self.liveReport(["--frames", "3", "--streaming", choice])
      #expect(object["streaming"] as? String == choice)
      checksums.append(try #require(object["checksum"] as? Double))
    }
    #expect(Set(checksums).count == 1, "\(checksums)")
  }

  /// `live` evaluates its last frame with and without velocities, and counts the instances
  /// whose velocities take the `Double` path (some move: 1 % start every frame).
  @Test func liveReportsTheLastFrameWithVelocities() throws {
    let object = try Self.liveReport(["--frames", "3"])
    let with = try #require(object["evaluationWithVelocitiesSeconds"] as? Double)
    let without = try #require(object["evaluationWithoutVelocitiesSeconds"] as? Double)
    let moving = try #require(object["movingInstancesAtEnd"] as? Int)
    #expect(with > 0 && without > 0, "\(with), \(without)")
    #expect(moving > 0 && moving <= 1000, "\(moving)")
  }

  /// `live --alternate` switches its choice every block of frames and reports the evaluation's
  /// median under each setting (both measured: 45 timed frames span three blocks); the results
  /// do not depend on either choice. It is rejected on other workloads and, for `streaming`,
  /// beside `--streaming`.
  @Test func liveAlternationReportsBothSettings() throws {
    var checksums: [Double] = []
    for (choice, settings) in [
      ("prefetch", ["on", "off"]), ("streaming", ["cached", "streaming"]),
    ] {
      let object = try Self.liveReport(["--frames", "45", "--alternate", choice])
      #expect(object["alternate"] as? String == choice)
      #expect(object["alternateSettings"] as? [String] == settings)
      let medians = try #require(object["alternateEvaluationSecondsP50"] as? [Double])
      #expect(medians.count == 2 && medians.allSatisfy { $0 > 0 }, "\(choice): \(medians)")
      checksums.append(try #require(object["checksum"] as? Double))
    }
    #expect(Set(checksums).count == 1, "\(checksums)")
    for arguments in [
      ["--workload", "presets", "--alternate", "prefetch"],
      ["--workload", "live", "--alternate", "streaming", "--streaming", "on"],
    ] {
      let result = try SegueProcess.runBench(arguments + ["--n", "1000", "--repeats", "1"])
      #expect(result.status == 64, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("--alternate"), "\(arguments): \(result.stderr)")
    }
  }

  /// A request far beyond memory: 100 000 frames of a 10⁷-pixel dissolve is 4·10¹² floats (about
  /// 14.6 TB of output), every option in range: exit 64 with the size in the message, before any
  /// allocation.
  @Test func unallocatableProductIsAUsageError() throws {
    let result = try SegueProcess.runBench([
      "--workload", "dissolve", "--frames", "100000", "--n", "10000000",
    ])
    #expect(result.status == 64)
    #expect(result.stderr.contains("needs about 14.6 TB of memory"), "\(result.stderr)")
    #expect(result.stderr.contains("budget"))
  }

  /// The estimate itself: the dissolve output is frames × 4 × n floats plus two 4n-float
  /// images (2·8n floats counted for the image and its packed copy); a bake at the largest
  /// options; a product that overflows `Int` is unbounded.
  @Test func estimatesFromTheOptions() throws {
    var bench = try SegueBench.parse(["--workload", "dissolve", "--frames", "30", "--n", "1000"])
    #expect(bench.memoryEstimate.bytes == 30 * 4 * 1000 * 4 + 2 * 8 * 1000 * 4)
    bench = try SegueBench.parse([
      "--workload", "bake", "--frames", "60", "--keys", "4", "--channels", "2", "--n", "1000",
    ])
    #expect(bench.memoryEstimate.bytes == 2 * 4 * 2000 * 4 + 60 * 2000 * 4)
    #expect(checkedProduct(Int.max / 2, 3) == nil)
    #expect(checkedSum(1, nil) == nil)
    #expect(byteText(nil) == "more than 9.2 EB")
    #expect(byteText(1536) == "1.5 KB")
    #expect(byteText(100) == "100 bytes")
    #expect(fits(nil, within: .max) == false && fits(10, within: 10))
  }

  /// The budget is three quarters of the physical memory: positive, and the default stack run
  /// (N = 10⁶, about 300 MB) fits in it.
  @Test func defaultRunFitsTheBudget() throws {
    #expect(physicalMemoryBudget > 0)
    let bench = try SegueBench.parse([])
    let bytes = try #require(bench.memoryEstimate.bytes)
    #expect(bytes < physicalMemoryBudget)
    #expect(bytes > 26 * 12 * 1_000_000)
  }
}
