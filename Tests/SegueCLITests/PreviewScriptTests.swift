import Foundation
import Segue
import Testing

/// The page's own functions, run in Node (skipped, saying so, when `node` is not installed): its
/// gesture rules, drag recording and interaction timeline give what the library's
/// ``GestureDriver`` and ``InteractionTimeline`` give for the same inputs.
@Suite(
  .enabled(
    if: Node.path != nil, "no node on PATH: apt-get install nodejs, or make setup-test"))
struct PreviewScriptTests {
  /// Runs `body` (JavaScript with `P` = the page's functions, `input` = `input`'s JSON) in Node
  /// after the core script of `page`; returns what it printed as JSON, numbers as strings (see
  /// ``number(_:)``).
  static func run(_ page: PreviewPageReading, _ body: String, input: Any) throws -> Any {
    let directory = try TemporaryDirectory()
    let core = try directory.write("core.js", try page.coreScript())
    let json = try JSONSerialization.data(withJSONObject: input)
    let inputPath = directory.path + "/input.json"
    try json.write(to: URL(fileURLWithPath: inputPath))
    let harness = try directory.write(
      "harness.js",
      """
      const fs = require('fs');
      require('vm').runInThisContext(fs.readFileSync(\(Self.quoted(core)), 'utf8'));
      const P = globalThis.SeguePreview;
      const input = JSON.parse(fs.readFileSync(\(Self.quoted(inputPath)), 'utf8'));
      const output = (() => { \(body) })();
      // Numbers as their shortest round-trip text (read back with Double(_:), exactly).
      process.stdout.write(JSON.stringify(output, (k, v) => typeof v === 'number' ? String(v) : v));
      """)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Node.path))
    process.arguments = [harness]
    let out = directory.path + "/out"
    try Data().write(to: URL(fileURLWithPath: out))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    process.standardOutput = handle
    try process.run()
    process.waitUntilExit()
    try handle.close()
    try #require(process.terminationStatus == 0, "node exited \(process.terminationStatus)")
    return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out)))
  }

  /// A number the harness printed: JavaScript's shortest round-trip text, parsed exactly.
  static func number(_ value: Any?) -> Double? {
    (value as? String).flatMap { Double($0) }
  }

  static func quoted(_ text: String) -> String {
    "'"
      + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
      + "'"
  }

  /// For the three interactive presets, a grid of samples (locations, translations, velocities
  /// around the thresholds): begins, percent and the release under both rules, ended and cancelled,
  /// equal the library driver's.
  @Test(arguments: ["fade-slide", "cross-dissolve", "depth"]) func gestureRulesEqualTheDriver(
    preset: String
  ) throws {
    let page = try PreviewCommandTests.page(["--preset", preset, "--fps", "5"])
    let width = 390.0
    let driver: any GestureDriver =
      switch preset {
      case "fade-slide": try FadeSlideEdgeSwipe(containerWidth: width)
      case "cross-dissolve": try CrossDissolvePan(containerWidth: width)
      default: try DepthPan(containerWidth: width)
      }
    var samples: [GestureSample] = []
    for x in [-30.0, 0, 49.5, 50, 50.5, 100, 148.5, 150, 195, 195.5, 297, 299, 330, 400] {
      for v in [-400.0, -389, 0, 389.9, 390, 1000] {
        samples.append(
          try GestureSample(
            location: Point(x: x, y: 20), translation: Point(x: x - 5, y: 3),
            velocity: Point(x: v, y: 0)))
      }
    }
    let input: [String: Any] = [
      "gesture": try #require(page.data["gesture"]),
      "samples": samples.map { s in
        [
          "location": ["x": s.location.x, "y": s.location.y],
          "translation": ["x": s.translation.x, "y": s.translation.y],
          "velocity": ["x": s.velocity.x, "y": s.velocity.y],
        ]
      },
    ]
    let output = try Self.run(
      page,
      """
      const r = input.gesture;
      return input.samples.map((s) => [P.gestureBegins(r, s), P.gesturePercent(r, s),
        P.gestureRelease(r, s, false, 'threshold'), P.gestureRelease(r, s, true, 'threshold'),
        P.gestureRelease(r, s, false, 'velocity'), P.gestureRelease(r, s, true, 'velocity')]);
      """, input: input)
    let rows = try #require(output as? [[Any]])
    #expect(rows.count == samples.count)
    for (row, s) in zip(rows, samples) {
      #expect(row[0] as? Bool == driver.begins(with: s))
      #expect(Self.number(row[1]) == driver.percent(for: s), "\(s)")
      let expected: [ReleaseDecision] = [
        driver.release(s, cancelled: false, rule: .threshold),
        driver.release(s, cancelled: true, rule: .threshold),
        driver.release(s, cancelled: false, rule: .velocity),
        driver.release(s, cancelled: true, rule: .velocity),
      ]
      #expect(row[2...].compactMap { $0 as? String } == expected.map(\.rawValue), "\(s)")
    }
  }

  /// A drag recorded by the page (depth: press at x = 20, moves, release) gives updates to the
  /// driver's percent of each translation and its release decision; the page's timeline state
  /// of that history equals ``InteractionTimeline/state(at:)`` (position within 1e-6: the page
  /// interpolates the completion curve from a table of 1025 values; phases and completion
  /// exactly).
  @Test(arguments: [(130.0, false), (80.0, false), (150.0, true)])
  func dragRecordingEqualsTheLibrary(releaseX: Double, cancelled: Bool) throws {
    let page = try PreviewCommandTests.page(["--preset", "depth", "--fps", "5"])
    let driver = try DepthPan()
    let moves: [(Double, Double)] = [(0.05, 40), (0.12, 90), (0.3, releaseX)]
    let times = stride(from: 0.0, through: 2.5, by: 0.01).map { $0 }
    let output = try Self.run(
      page,
      """
      const tl = { duration: 2, completionSpeed: 1.5, wantsInteractiveStart: true, events: [],
        curve: P.decodeFloats(input.table, 8) };
      const drag = P.beginDrag(input.gesture, 'threshold', tl, { x: 20, y: 100 }, 0);
      for (const [t, x] of input.moves.slice(0, -1)) P.moveDrag(drag, { x, y: 100 }, t);
      const [t, x] = input.moves[input.moves.length - 1];
      P.endDrag(drag, { x, y: 100 }, t, input.cancelled);
      return { events: tl.events, states: input.times.map((s) => P.interactionState(tl, s)) };
      """,
      input: [
        "gesture": try #require(page.data["gesture"]),
        "table": try #require((page.data["completion"] as? [String: Any])?["table"]),
        "moves": moves.map { [$0.0, $0.1] }, "times": times, "cancelled": cancelled,
      ])
    let result = try #require(output as? [String: Any])
    let events = try #require(result["events"] as? [[String: Any]])
    // The library's events for the same samples.
    var expected: [InteractionEvent] = []
    var last = try GestureSample(location: Point(x: 20, y: 100))
    for (t, x) in moves where !(cancelled && t == moves.last!.0) {
      last = try GestureSample(location: Point(x: x, y: 100), translation: Point(x: x - 20, y: 0))
      expected.append(.update(time: t, percent: driver.percent(for: last)))
    }
    let end = moves.last!.0
    let decision = driver.release(last, cancelled: cancelled)
    expected.append(decision == .finish ? .finish(time: end) : .cancel(time: end))
    #expect(events.count == expected.count)
    for (event, e) in zip(events, expected) {
      #expect(Self.number(event["time"]) == e.time)
      switch e {
      case .update(_, let percent):
        #expect(event["type"] as? String == "update" && Self.number(event["percent"]) == percent)
      case .finish: #expect(event["type"] as? String == "finish")
      case .cancel: #expect(event["type"] as? String == "cancel")
      case .pause: Issue.record("no pause expected")
      }
    }
    let timeline = try InteractionTimeline(
      duration: 2, completionSpeed: 1.5, completionCurve: .easeInEaseOut, events: expected)
    let states = try #require(result["states"] as? [[String: Any]])
    for (state, t) in zip(states, times) {
      let reference = try timeline.state(at: t)
      let position = try #require(Self.number(state["position"]))
      #expect(abs(position - reference.position) <= 1e-6, "t = \(t)")
      #expect(state["phase"] as? String == "\(reference.phase)", "t = \(t)")
      #expect((state["finished"] as? Bool) == reference.isFinished, "t = \(t)")
    }
  }
}

/// Node.js.
enum Node {
  /// `node` or `nodejs` on PATH.
  static let path = executableOnPath(["node", "nodejs"])
}
