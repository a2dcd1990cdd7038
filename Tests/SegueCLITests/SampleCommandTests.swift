import Foundation
import Segue
import SegueSpec
import Testing

/// `segue sample` against the library: the JSON and CSV outputs hold exactly the values that
/// `PresetAnimator` … `scene.sample(at:)` computes in-process.
@Suite struct SampleCommandTests {
  /// Before, inside and after every preset's duration (0.2 … 2 s): 0, 0.05, 0.13, 0.3, 0.45,
  /// 1.1, 2.5 seconds.
  static let times: [Double] = [0, 0.05, 0.13, 0.3, 0.45, 1.1, 2.5]
  static let timesArgument = "0,0.05,0.13,0.3,0.45,1.1,2.5"

  /// Every preset, push and pop.
  static let cases: [(TransitionPreset, TransitionOperation)] = TransitionPreset.allCases.flatMap {
    preset in [(preset, .push), (preset, .pop)]
  }

  /// The library's scene for a preset with the default views.
  static func scene(
    _ preset: TransitionPreset, _ operation: TransitionOperation,
    parameters: PresetParameters = PresetParameters(),
    container: Size = Size(width: 390, height: 844)
  ) throws -> TransitionScene {
    let animator = PresetAnimator(preset, parameters: parameters)
    let context = try animator.defaultContext(operation: operation, containerSize: container)
    return try animator.animateTransition(using: context)
  }

  @Test(arguments: cases)
  func jsonEqualsLibrary(preset: TransitionPreset, operation: TransitionOperation) throws {
    let result = try SegueProcess.run([
      "sample", "--preset", preset.rawValue, "--operation", operation.rawValue, "--times",
      Self.timesArgument,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try decodeSamples(result)
    let scene = try Self.scene(preset, operation)
    #expect(document.preset == preset.rawValue)
    #expect(document.operation == operation.rawValue)
    #expect(document.duration == scene.duration)
    #expect(document.container == [390, 844])
    #expect(document.interactive == false)
    #expect(document.samples.count == Self.times.count)
    for (frame, t) in zip(document.samples, Self.times) {
      expectFrame(frame, equals: try scene.sample(at: t), "\(preset) \(operation) t=\(t)")
      #expect(frame.phase == nil)
    }
  }

  @Test func caParametersAndContainerReachTheLibrary() throws {
    let result = try SegueProcess.run([
      "sample", "--preset", "ca-push", "--operation", "pop", "--subtype", "from-top",
      "--ca-duration", "0.5", "--ca-timing", "easeInEaseOut", "--container", "320,480",
      "--times", "0,0.1,0.25,0.4,0.5",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try decodeSamples(result)
    let parameters = PresetParameters(
      subtype: .fromTop, caDuration: 0.5, caTimingFunction: .easeInEaseOut)
    let scene = try Self.scene(
      .caPush, .pop, parameters: parameters, container: Size(width: 320, height: 480))
    #expect(document.duration == 0.5)
    #expect(document.container == [320, 480])
    for (frame, t) in zip(document.samples, [0, 0.1, 0.25, 0.4, 0.5]) {
      expectFrame(frame, equals: try scene.sample(at: t), "ca-push from-top t=\(t)")
    }
    // Hand check: from-top at q = 1/2 of a 0.5 s ease-in-ease-out run (t = 0.25, symmetric
    // curve) puts new's top edge at y = −H/2 = −240.
    let half = try #require(document.samples[2].layers.first { $0.id == "new" })
    #expect(abs(half.corners[0][1] - -240) < 1e-9)
  }

  @Test func cubicBezierTimingOption() throws {
    let result = try SegueProcess.run([
      "sample", "--preset", "ca-fade", "--ca-timing", "cubic-bezier(0.3,0.1,0.2,1)",
      "--times", "0.1",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try decodeSamples(result)
    let curve = try TimingFunction.cubicBezier(0.3, 0.1, 0.2, 1)
    let scene = try Self.scene(
      .caFade, .push, parameters: PresetParameters(caTimingFunction: curve))
    expectFrame(document.samples[0], equals: try scene.sample(at: 0.1), "ca-fade bezier")
  }

  @Test func heroParametersReachTheLibrary() throws {
    let result = try SegueProcess.run([
      "sample", "--preset", "hero", "--hero-selected-row", "1", "--hero-cell-count", "3",
      "--hero-row-height", "90", "--times", "0,0.3,0.9,1.4",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try decodeSamples(result)
    let hero = HeroScene(selectedRow: 1, rowHeight: 90, cellCount: 3)
    let scene = try Self.scene(.hero, .push, parameters: PresetParameters(hero: hero))
    // (8 + 2·3)/10 = 1.4 s.
    #expect(document.duration == 1.4)
    for (frame, t) in zip(document.samples, [0, 0.3, 0.9, 1.4]) {
      expectFrame(frame, equals: try scene.sample(at: t), "hero t=\(t)")
    }
    #expect(document.samples[3].completed)
  }

  @Test func fpsSamplesFromZeroToTheDurationInclusive() throws {
    // cross-dissolve lasts 0.35 s. At 20 fps the frames are k/20 for k = 0…7 (7/20 = 0.35 lands
    // on the end); at 10 fps k/10 for k = 0…3, then the end 0.35 itself.
    let at20 = try decodeSamples(
      SegueProcess.run(["sample", "--preset", "cross-dissolve", "--fps", "20"]))
    #expect(at20.samples.map(\.time) == [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35])
    let at10 = try decodeSamples(
      SegueProcess.run(["sample", "--preset", "cross-dissolve", "--fps", "10"]))
    #expect(at10.samples.map(\.time) == [0, 0.1, 0.2, 0.3, 0.35])
    #expect(at10.samples.last?.completed == true)
    #expect(at10.samples.dropLast().allSatisfy { !$0.completed })
  }

  @Test func csvAgreesWithJSON() throws {
    // depth pop: perspective matrices, so every column carries information.
    let arguments = ["sample", "--preset", "depth", "--operation", "pop", "--times", "0,0.7,1.3,2"]
    let json = try decodeSamples(SegueProcess.run(arguments + ["--format", "json"]))
    let csv = try SegueProcess.run(arguments + ["--format", "csv"])
    #expect(csv.status == 0, "\(csv.stderr)")
    var lines = csv.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.last == "")
    lines.removeLast()
    var header = ["time", "progress", "completed", "cancelled", "id", "order", "opacity", "blend"]
    for r in 1...4 { for c in 1...4 { header.append("m\(r)\(c)") } }
    for k in 0..<4 { header += ["x\(k)", "y\(k)"] }
    header += ["backgroundR", "backgroundG", "backgroundB", "backgroundA", "cornerRadius"]
    header += ["masksToBounds", "borderWidth", "borderR", "borderG", "borderB", "borderA"]
    header += ["shadowOpacity", "shadowRadius", "shadowOffsetWidth", "shadowOffsetHeight"]
    header += ["shadowR", "shadowG", "shadowB", "shadowA", "maskedCorners"]
    #expect(lines.first == header.joined(separator: ","))
    let rows = lines.dropFirst().map { $0.split(separator: ",").map(String.init) }
    let expected = json.samples.flatMap { s in s.layers.map { (s, $0) } }
    #expect(rows.count == expected.count)
    for (row, (sample, layer)) in zip(rows, expected) {
      #expect(row.count == header.count)
      guard row.count == header.count else { continue }
      #expect(Double(row[0]) == sample.time)
      #expect(Double(row[1]) == sample.progress)
      #expect(row[2] == "\(sample.completed)")
      #expect(row[3] == "\(sample.cancelled)")
      #expect(row[4] == layer.id)
      #expect(Int(row[5]) == layer.order)
      #expect(Double(row[6]) == layer.opacity)
      #expect(row[7] == layer.blend)
      #expect(row[8..<24].map { Double($0) } == layer.transform.map { Optional($0) })
      #expect(row[24..<32].map { Double($0) } == layer.corners.flatMap { $0 }.map { Optional($0) })
      let numbers =
        layer.backgroundColor + [layer.cornerRadius] + [layer.borderWidth] + layer.borderColor
        + [layer.shadowOpacity, layer.shadowRadius] + layer.shadowOffset + layer.shadowColor
      let cells = row[32..<37] + row[38..<51]
      #expect(cells.map { Double($0) } == numbers.map { Optional($0) })
      #expect(row[37] == "\(layer.masksToBounds)")
      // CACornerMask bits: every corner named in the JSON, 1 + 2 + 4 + 8 = 15 for all four.
      let bits = [
        "layerMinXMinYCorner": 1, "layerMaxXMinYCorner": 2, "layerMinXMaxYCorner": 4,
        "layerMaxXMaxYCorner": 8,
      ]
      #expect(Int(row[51]) == layer.maskedCorners.compactMap { bits[$0] }.reduce(0, +))
      #expect(layer.maskedCorners.count == 4)
    }
  }

  /// Two 200 × 200 layers crossing like an X under a perspective stage (turned ±0.5 rad about
  /// y, one centre): `b` is cut in two (``LayerTree/drawOrder()``).
  static let crossingSpec: String = {
    let (c, s) = (Double.cos(0.5), Double.sin(0.5))
    func turned(_ sign: Double) -> String {
      "[\(c), 0, \(-sign * s), 0, 0, 1, 0, 0, \(sign * s), 0, \(c), 0, 0, 0, 0, 1]"
    }
    return """
      {"version": 1, "duration": 1, "container": [400, 400], "layers": [
        {"id": "P", "bounds": [0, 0, 400, 400], "position": [200, 200],
         "sublayerTransform": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1]},
        {"id": "a", "parent": "P", "bounds": [0, 0, 200, 200], "position": [200, 200],
         "transform": \(turned(1)), "backgroundColor": [1, 0, 0, 1]},
        {"id": "b", "parent": "P", "bounds": [0, 0, 200, 200], "position": [200, 200],
         "transform": \(turned(-1)), "backgroundColor": [0, 0, 1, 1]}
      ]}
      """
  }()

  /// A cut layer in the JSON output: `b` lists its two pieces (its left half drawn at 1, behind
  /// `a`, its right half at 3), `order` is the first; the library's numbers exactly. In CSV the
  /// header gains piece and polygon, and `b` has one row per piece.
  @Test func piecesOfACutLayer() throws {
    let directory = try TemporaryDirectory()
    let spec = try directory.write("crossing.json", Self.crossingSpec)
    let json = try decodeSamples(try SegueProcess.run(["sample", "--spec", spec, "--times", "0"]))
    let scene = try loadSpec(Self.crossingSpec).scene
    expectFrame(json.samples[0], equals: try scene.sample(at: 0), "crossing")
    let b = try #require(json.samples[0].layers.first { $0.id == "b" })
    #expect(b.order == 1 && b.pieces?.map(\.order) == [1, 3])
    #expect(b.pieces?[0].polygon.allSatisfy { $0[0] <= 100 + 1e-9 } == true)
    #expect(json.samples[0].layers.filter { $0.pieces != nil }.map(\.id) == ["b"])
    let csv = try SegueProcess.run(["sample", "--spec", spec, "--times", "0", "--format", "csv"])
    let lines = csv.text.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    #expect(lines[0].suffix(4) == ["shadowA", "maskedCorners", "piece", "polygon"])
    let rows = lines.dropFirst().map { ($0[4], $0[5], $0[$0.count - 2], $0[$0.count - 1]) }
    #expect(rows.map(\.0) == ["P", "a", "b", "b"])
    #expect(rows.map(\.1) == ["0", "2", "1", "3"])
    #expect(rows.map(\.2) == ["", "", "0", "1"])
    let polygon = rows[2].3.split(separator: " ").compactMap { Double($0) }
    #expect(polygon == b.pieces?[0].polygon.flatMap { $0 })
  }

  @Test func outputFileHoldsWhatStdoutWouldAndNothingElseIsLeft() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/samples.json"
    let arguments = ["sample", "--preset", "slide-over", "--times", "0,0.1,0.2"]
    let toFile = try SegueProcess.run(arguments + ["--output", path])
    #expect(toFile.status == 0, "\(toFile.stderr)")
    #expect(toFile.stdout.isEmpty)
    let toStdout = try SegueProcess.run(arguments)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == toStdout.stdout)
    #expect(try directory.contents() == ["samples.json"])
  }
}
