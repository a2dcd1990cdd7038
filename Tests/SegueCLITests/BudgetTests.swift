import Foundation
import Testing

/// Requests beyond the documented budgets are refused before any work, with their size; inputs
/// beyond the input limit are refused before they are read.
@Suite struct BudgetTests {
  /// A spec of `count` layers (a root and its children), each child with one animation, over a
  /// `duration`-second transition.
  static func manyLayers(_ count: Int, duration: Double = 1) -> String {
    var layers = [#"{"id": "root", "bounds": [0, 0, 390, 844], "backgroundColor": [1, 1, 1, 1]}"#]
    for i in 1..<count {
      layers.append(
        #"{"id": "l\#(i)", "parent": "root", "bounds": [0, 0, 50, 20], "position": [100, 200], "#
          + #""backgroundColor": [0.5, 0.2, 0.1, 1], "animations": [{"keyPath": "position.x", "#
          + #""type": "basic", "fromValue": 0, "toValue": 300, "duration": 1}]}"#)
    }
    return #"{"version": 1, "duration": \#(duration), "layers": ["#
      + layers.joined(separator: ", ") + "]}"
  }

  /// 200 layers and 199 animations are 399 scene items; `--fps 10000` over 2 s is 20001 samples:
  /// 20001 · 399 = 7980399 scene samples, above 2²² = 4194304. The message states the sizes.
  @Test func sampleRefusesSamplesTimesLayers() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("spec.json", Self.manyLayers(200, duration: 2))
    for command in ["sample", "render"] {
      let extra = command == "render" ? ["--output-dir", directory.path] : []
      let result = try SegueProcess.run([command, "--spec", spec, "--fps", "10000"] + extra)
      #expect(result.status == 65, "\(command): \(result.stderr)")
      for text in [
        "--fps", "20001 samples", "399 items", "200 layers, 199 animations", "7980399",
        "4194304",
      ] {
        #expect(
          result.stderr.contains(text), "\(command): stderr lacks '\(text)': \(result.stderr)")
      }
      #expect(result.stdout.isEmpty)
    }
    #expect(try directory.contents() == ["spec.json"])
  }

  /// The same spec at `--fps 100` (201 samples · 399 = 80199 scene samples) is within the budget:
  /// the number of samples is not what is limited, samples × scene size is.
  @Test func sampleWithinTheBudgetRuns() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("spec.json", Self.manyLayers(200, duration: 2))
    let result = try SegueProcess.run([
      "sample", "--spec", spec, "--fps", "100", "--format", "csv",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    // A header and one row per sample and layer: 1 + 201 · 200.
    #expect(result.text.split(separator: "\n").count == 1 + 201 * 200)
  }

  /// 61 frames of the system preset at scale 4 are 1560 × 3376 px each (390·4 × 844·4): 61 ·
  /// 5266560 = 321260160 frame pixels, within 2³⁰; with its three layers drawn over them the
  /// drawn pixels exceed 2³⁰ = 1073741824, so the render is refused after the samples are
  /// checked and before any frame is drawn.
  @Test func renderRefusesDrawnPixels() throws {
    let directory = try TemporaryDirectory()
    let result = try SegueProcess.run([
      "render", "--preset", "system", "--fps", "120", "--scale", "4", "--output-dir",
      directory.path,
    ])
    #expect(result.status == 65, "\(result.stderr)")
    for text in ["--fps", "61 frames of 1560×3376 px", "321260160 frame pixels", "1073741824"] {
      #expect(result.stderr.contains(text), "stderr lacks '\(text)': \(result.stderr)")
    }
    #expect(try directory.contents().isEmpty)
  }

  /// Frames × pixels alone: 1001 frames (`--fps 2000` over 0.5 s) of 1560 × 3376 px are
  /// 5271826560 pixels, refused before any sampling.
  @Test func renderRefusesFramesTimesPixels() throws {
    let directory = try TemporaryDirectory()
    let result = try SegueProcess.run([
      "render", "--preset", "system", "--fps", "2000", "--scale", "4", "--output-dir",
      directory.path,
    ])
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains("1001 frames of 1560×3376 px"), "\(result.stderr)")
    #expect(result.stderr.contains("5271826560 frame pixels"), "\(result.stderr)")
    #expect(try directory.contents().isEmpty)
  }

  /// The hero preset's cells are layers: more than 10000 are refused before the scene is built.
  @Test func heroCellCountIsBounded() throws {
    let result = try SegueProcess.run([
      "sample", "--preset", "hero", "--hero-cell-count", "100000000", "--times", "0",
    ])
    #expect(result.status == 65)
    #expect(result.stderr.contains("--hero-cell-count: must be at most 10000"), "\(result.stderr)")
  }

  /// A spec's own sampleTimes count against the sample limit too.
  @Test func specSampleTimesAreBounded() throws {
    let directory = try TemporaryDirectory()
    let times = (0...1_000_000).map { _ in "0" }.joined(separator: ",")
    let spec = try directory.write(
      "spec.json",
      #"{"version": 1, "duration": 1, "layers": [{"id": "a"}], "sampleTimes": [\#(times)]}"#)
    let result = try SegueProcess.run(["sample", "--spec", spec])
    #expect(result.status == 65)
    #expect(result.stderr.contains("$.sampleTimes: 1000001 times"), "\(result.stderr)")
  }

  /// An input file above 32 MiB is refused from its size, before it is read; standard input is
  /// read up to the limit and refused past it.
  @Test func inputFilesAreBounded() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/spec.json"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: UInt64(32 << 20) + 1)
    try handle.close()
    let file = try SegueProcess.run(["sample", "--spec", path])
    #expect(file.status == 65)
    #expect(file.stderr.contains("--spec: '\(path)' is 33554433 bytes"), "\(file.stderr)")
    #expect(file.stderr.contains("limited to 33554432 bytes"))
    let piped = try SegueProcess.run(
      ["sample", "--preset", "system", "--events", "-"],
      stdin: Data(repeating: UInt8(ascii: " "), count: (32 << 20) + 100))
    #expect(piped.status == 65)
    #expect(piped.stderr.contains("--events: standard input is more than 33554432"))
  }
}
