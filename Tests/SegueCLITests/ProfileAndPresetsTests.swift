import Foundation
import Segue
import SegueBenchSupport
import Testing

/// `segue profile`: short runs print every stage.
@Suite struct ProfileCommandTests {
  @Test func stackPrintsEveryStage() throws {
    let result = try SegueProcess.run([
      "profile", "--workload", "stack", "--n", "1000", "--seconds", "0.2",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.text.split(separator: "\n").map(String.init)
    for stage in ["generate", "timing", "channels", "frame", "curve", "keyframes", "compose"] {
      #expect(lines.contains { $0.hasPrefix(stage + " ") }, "stage \(stage) missing")
    }
  }

  /// The columns line up whatever the stage names (the presets workload has `decomposition`,
  /// longer than the other names): in every table each column starts at the same character as
  /// its header.
  @Test func tableColumnsLineUp() throws {
    let result = try SegueProcess.run([
      "profile", "--workload", "presets", "--n", "200", "--seconds", "0.1",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.text.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("decomposition ") })
    var header: [Int] = []
    var rows = 0
    for line in lines {
      if line.hasPrefix("stage ") {
        header = ["stage", "passes", "total s", "ms/pass", "ns/item", "covers"].map {
          line.distance(from: line.startIndex, to: line.range(of: $0)!.lowerBound)
        }
        continue
      }
      let words = line.split(separator: " ")
      guard header.count == 6, words.count >= 6 else { continue }
      let starts = words.prefix(6).map { line.distance(from: line.startIndex, to: $0.startIndex) }
      #expect(starts == header, "\(line)")
      rows += 1
    }
    #expect(rows >= 18)
  }

  struct Report: Decodable {
    struct Stage: Decodable {
      var name: String
      var passes: Int
      var totalSeconds: Double
    }
    var workload: String
    var n: Int
    var stages: [Stage]
    var checksum: Double
  }

  @Test func stackJSONRunsTheRealKernel() throws {
    let result = try SegueProcess.run([
      "profile", "--n", "1000", "--seconds", "0.2", "--threads", "2", "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let report = try JSONDecoder().decode(Report.self, from: result.stdout)
    #expect(report.workload == "stack" && report.n == 1000)
    #expect(report.stages.map(\.name) == ["generate", "timing", "channels", "frame"])
    #expect(report.stages.allSatisfy { $0.passes >= 1 && $0.totalSeconds > 0 })
    // The last pass is a full frame at t = 0.3 s; its checksum is the Double reference's to
    // Float accuracy (17 values per layer, each within a few ulps).
    let reference = try StackBatch(count: 1000).referenceChecksum(time: 0.3)
    #expect(abs(report.checksum - reference) <= 1e-5 * abs(reference))
  }

  /// The live workload times the control phase of each frame beside every stage of the scene
  /// batch, and its last pass is a real evaluation (a positive checksum of opacities and
  /// translations).
  @Test func livePrintsControlAndEveryStage() throws {
    let result = try SegueProcess.run([
      "profile", "--workload", "live", "--n", "200", "--seconds", "0.2", "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let report = try JSONDecoder().decode(Report.self, from: result.stdout)
    #expect(report.workload == "live" && report.n > 200)
    let names = ["control"] + SceneBatchStage.allCases.map { "\($0)" }
    #expect(report.stages.map(\.name) == names)
    #expect(report.stages.allSatisfy { $0.passes >= 1 && $0.totalSeconds > 0 })
    #expect(report.checksum > 0)
  }

  @Test func liveRejectsOutOfRangeCounts() throws {
    for n in ["0", "1000001"] {
      let result = try SegueProcess.run(["profile", "--workload", "live", "--n", n])
      #expect(result.status == 65, "\(n): \(result.stderr)")
      #expect(result.stderr.contains("--n"))
    }
  }

  @Test func presetPrintsEveryStage() throws {
    let result = try SegueProcess.run([
      "profile", "--workload", "preset", "--preset", "hero", "--n", "5", "--seconds", "0.2",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.text.hasPrefix("workload preset hero"))
    for stage in ["build", "present", "project"] {
      #expect(result.text.contains("\n\(stage) "), "stage \(stage) missing")
    }
  }
}

/// `segue presets`: the catalog as the library defines it.
@Suite struct PresetsCommandTests {
  struct Listing: Decodable {
    struct Preset: Decodable {
      struct Operation: Decodable {
        var duration: Double
        var layers: [String]
      }
      struct Parameter: Decodable {
        var option: String
        var `default`: String
      }
      var name: String
      var catransition: Bool
      var push: Operation
      var pop: Operation
      var parameters: [Parameter]
    }
    var presets: [Preset]
  }

  @Test func jsonListsEveryPresetWithTheLibrarysDurations() throws {
    let result = try SegueProcess.run(["presets", "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let listing = try JSONDecoder().decode(Listing.self, from: result.stdout)
    #expect(listing.presets.map(\.name) == TransitionPreset.allCases.map(\.rawValue))
    for info in listing.presets {
      let animator = PresetAnimator(try TransitionPreset(name: info.name))
      let push = try animator.defaultContext(operation: .push)
      let pop = try animator.defaultContext(operation: .pop)
      #expect(info.push.duration == animator.transitionDuration(using: push))
      #expect(info.pop.duration == animator.transitionDuration(using: pop))
      #expect(
        info.push.layers == (try animator.animateTransition(using: push)).model.layers.map(\.id))
      #expect(info.catransition == animator.preset.isCATransition)
    }
    // Values by hand: hero push 0.8 + 0.2·5 = 1.8 s, pop 0.4 s; CATransition default 0.25 s.
    let hero = try #require(listing.presets.first { $0.name == "hero" })
    #expect(hero.push.duration == 1.8 && hero.pop.duration == 0.4)
    #expect(hero.parameters.first { $0.option == "--hero-selected-row" }?.default == "2")
    let fade = try #require(listing.presets.first { $0.name == "ca-fade" })
    #expect(fade.parameters.map(\.option) == ["--subtype", "--ca-duration", "--ca-timing"])
    #expect(fade.parameters[0].default == "from-right" && fade.parameters[1].default == "0.25")
  }

  @Test func textListsEveryPreset() throws {
    let result = try SegueProcess.run(["presets"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.text.split(separator: "\n")
    for preset in TransitionPreset.allCases {
      #expect(lines.contains { $0.hasPrefix(preset.rawValue + " ") }, "\(preset) missing")
    }
  }
}
