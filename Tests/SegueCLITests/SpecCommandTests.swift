import Foundation
import Segue
import SegueSpec
import Testing

/// A small spec whose frames can be worked out by hand: a 40 × 30 container, a blue background
/// layer, a red 10 × 10 box fading in (opacity 0 → 1 over 1 s, linear) and a green 10 × 10
/// "mover" sliding right (position.x 5 → 35 over 1 s, linear).
enum TestSpecs {
  static let layers = """
    "layers": [
      {"id": "bg", "bounds": [0, 0, 40, 30], "position": [20, 15], "backgroundColor": [0, 0, 1, 1]},
      {"id": "box", "bounds": [0, 0, 10, 10], "position": [5, 5], "backgroundColor": [1, 0, 0, 1],
       "opacity": 0,
       "animations": [{"keyPath": "opacity", "type": "basic", "fromValue": 0, "toValue": 1,
                       "duration": 1, "fillMode": "both"}]},
      {"id": "mover", "bounds": [0, 0, 10, 10], "position": [5, 25],
       "backgroundColor": [0, 1, 0, 1],
       "animations": [{"keyPath": "position.x", "type": "basic", "fromValue": 5, "toValue": 35,
                       "duration": 1, "fillMode": "both"}]}
    ]
    """

  /// Non-interactive, with its own sample times.
  static let plain = """
    {"version": 1, "duration": 1, "container": [40, 30], \(layers),
     "sampleTimes": [0, 0.25, 1]}
    """

  /// Interactive: an update to 0.25 at 0 s, a cancel at 0.1 s (it runs 0.25·1 s, completing at
  /// 0.35 s).
  static let interactive = """
    {"version": 1, "duration": 1, "container": [40, 30], \(layers),
     "interaction": [{"time": 0, "update": 0.25}, {"time": 0.1, "cancel": true}]}
    """
}

/// `segue sample --spec`: the samples equal the library's for the decoded spec.
@Suite struct SpecCommandTests {
  @Test func specSamplesEqualTheLibrary() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("spec.json", TestSpecs.plain)
    let result = try SegueProcess.run(["sample", "--spec", path])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try decodeSamples(result)
    #expect(document.preset == nil && document.operation == nil)
    #expect(document.duration == 1)
    #expect(document.container == [40, 30])
    #expect(!document.interactive)
    // Without --times or --fps, the spec's own sampleTimes.
    #expect(document.samples.map(\.time) == [0, 0.25, 1])
    let scene = try SpecFile.decode(text: TestSpecs.plain).scene
    for frame in document.samples {
      expectFrame(frame, equals: try scene.sample(at: frame.time), "t=\(frame.time)")
    }
    // By hand at 0.25 s: box opacity 0 + 0.25·(1 − 0) = 0.25; mover position.x 5 + 0.25·30 =
    // 12.5, so its 10-point bounds span x 7.5…17.5 and y 20…30.
    let quarter = document.samples[1]
    let box = try #require(quarter.layers.first { $0.id == "box" })
    #expect(box.opacity == 0.25)
    let mover = try #require(quarter.layers.first { $0.id == "mover" })
    #expect(mover.corners == [[7.5, 20], [17.5, 20], [17.5, 30], [7.5, 30]])
  }

  @Test func specInteractionDrivesTheSamples() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("spec.json", TestSpecs.interactive)
    let result = try SegueProcess.run(["sample", "--spec", path, "--fps", "20"])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try decodeSamples(result)
    #expect(document.interactive)
    let scene = try SpecFile.decode(text: TestSpecs.interactive).scene
    let timeline = try InteractionTimeline(
      duration: 1, events: [.update(time: 0, percent: 0.25), .cancel(time: 0.1)])
    // The end is the duration (1 s), later than the completion (0.35 s): frames k/20, k = 0…20.
    #expect(document.samples.map(\.time) == (0...20).map { Double($0) / 20 })
    for frame in document.samples {
      expectFrame(
        frame, equals: try scene.sample(at: frame.time, interaction: timeline), "t=\(frame.time)")
    }
    #expect(document.samples[6].completed == false)  // 0.3 s < 0.35 s
    #expect(document.samples[8].completed && document.samples[8].cancelled)  // 0.4 s
  }

  @Test func eventsReplaceTheSpecInteraction() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("spec.json", TestSpecs.interactive)
    let events = try directory.write(
      "events.json", #"[{"time": 0, "update": 0.5}, {"time": 0.2, "finish": true}]"#)
    let times = [0, 0.1, 0.2, 0.4, 0.7, 0.8]
    let result = try SegueProcess.run([
      "sample", "--spec", path, "--events", events, "--times",
      times.map { "\($0)" }.joined(separator: ","),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try decodeSamples(result)
    let scene = try SpecFile.decode(text: TestSpecs.interactive).scene
    let timeline = try InteractionTimeline(
      duration: 1, events: [.update(time: 0, percent: 0.5), .finish(time: 0.2)])
    for (frame, t) in zip(document.samples, times) {
      expectFrame(frame, equals: try scene.sample(at: t, interaction: timeline), "t=\(t)")
    }
    // By hand: the finish at p0 = 0.5 runs (1 − 0.5)·1 s = 0.5 s, completing at 0.7 s.
    #expect(!document.samples[3].completed)
    #expect(document.samples[4].completed && !document.samples[4].cancelled)
  }

  @Test(arguments: [TransitionPreset.system, .caFade])
  func exampleSpecSamplesLikeItsPreset(_ preset: TransitionPreset) throws {
    let example =
      SegueProcess.packageRoot + "/Sources/SegueSpec/Examples/\(preset.rawValue)-push.json"
    let times = "0,0.05,0.1,0.2,0.25,0.3"
    let fromSpec = try SegueProcess.run(["sample", "--spec", example, "--times", times])
    let fromPreset = try SegueProcess.run([
      "sample", "--preset", preset.rawValue, "--views", "bare", "--times", times,
    ])
    #expect(fromSpec.status == 0, "\(fromSpec.stderr)")
    #expect(fromPreset.status == 0, "\(fromPreset.stderr)")
    let a = try decodeSamples(fromSpec)
    let b = try decodeSamples(fromPreset)
    #expect(a.duration == b.duration)
    for (x, y) in zip(a.samples, b.samples) {
      #expect(x.progress == y.progress)
      #expect(x.layers.map(\.id) == y.layers.map(\.id))
      #expect(x.layers.map(\.transform) == y.layers.map(\.transform))
      #expect(x.layers.map(\.opacity) == y.layers.map(\.opacity))
      #expect(x.layers.map(\.blend) == y.layers.map(\.blend))
    }
  }

  /// Appearance properties reach `segue sample`: a card whose corner radius animates 0 → 20 over
  /// 1 s (linear) shows 5 at 0.25 s in JSON and CSV, with its border and shadow.
  @Test func appearanceReachesTheOutput() throws {
    let spec = """
      {"version": 1, "duration": 1, "container": [40, 30], "layers": [
        {"id": "card", "bounds": [0, 0, 20, 10], "position": [20, 15], "cornerRadius": 0,
         "masksToBounds": true, "borderWidth": 2, "borderColor": [1, 0, 0, 1],
         "shadowOpacity": 0.5, "shadowRadius": 4, "shadowOffset": [1, 2],
         "shadowColor": [0, 0, 1, 0.5],
         "animations": [{"keyPath": "cornerRadius", "type": "basic", "toValue": 20,
                         "duration": 1, "fillMode": "both"}]}
      ], "sampleTimes": [0.25]}
      """
    let directory = try TemporaryDirectory()
    let path = try directory.write("card.json", spec)
    let json = try decodeSamples(SegueProcess.run(["sample", "--spec", path]))
    let card = try #require(json.samples.first?.layers.first)
    #expect(card.cornerRadius == 5 && card.masksToBounds && card.borderWidth == 2)
    #expect(card.borderColor == [1, 0, 0, 1] && card.shadowColor == [0, 0, 1, 0.5])
    #expect(card.shadowOpacity == 0.5 && card.shadowRadius == 4 && card.shadowOffset == [1, 2])
    #expect(card.backgroundColor == [0, 0, 0, 0])
    let library = try loadSpec(spec).sample(at: 0.25)
    expectFrame(try #require(json.samples.first), equals: library, "card")
    let csv = try SegueProcess.run(["sample", "--spec", path, "--format", "csv"])
    #expect(csv.status == 0, "\(csv.stderr)")
    let lines = csv.text.split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: ",").map(String.init)
    let row = lines[1].split(separator: ",").map(String.init)
    #expect(row[header.firstIndex(of: "cornerRadius")!] == "5")
    #expect(row[header.firstIndex(of: "masksToBounds")!] == "true")
    #expect(row[header.firstIndex(of: "shadowOffsetHeight")!] == "2")
  }
}
