import Foundation
import Segue
@_exported import SegueSnapshot
import Synchronization

/// Asserts that a transition matches its recorded snapshot, in the shape of swift-snapshot-testing's
/// `assertSnapshot(of:as:named:record:)`; works from Swift Testing and XCTest.
///
/// The snapshot lives next to the test file, in `__Snapshots__/<TestFile>/<test>.<name>.<ext>`
/// (`<name>` is `named`, or a counter 1, 2, … per test when `nil`; a strategy with several
/// files adds the part, as `frame-2.png`). A missing snapshot is recorded and the test fails
/// once, saying so. When a file does not match, the new content and a diff image (the pixels
/// that differ in red over a faded copy) are written to the artefacts folder, and the one-line
/// failure message names them.
///
/// ```swift
/// @Test func push() throws {
///   let animator = PresetAnimator(.system)
///   let scene = try animator.animateTransition(using: animator.defaultContext(operation: .push))
///   assertTransitionSnapshot(of: scene, as: .frames(times: [0, 0.1, 0.25], scale: 0.25))
///   assertTransitionSnapshot(of: scene, as: .curves(times: [0, 0.1, 0.25]))
/// }
/// ```
///
/// - Parameters:
///   - scene: the transition.
///   - interaction: its percent-driven run, if any (times are then wall-clock seconds).
///   - strategy: what to record and compare (``/SegueSnapshot/TransitionSnapshotting``).
///   - name: names the snapshot; needed for several snapshots in a parameterized test.
///   - record: when to write the snapshot; `nil` reads `SEGUE_RECORD` (`all`, `missing`,
///     `failed`, `never`; default `missing`).
///   - snapshotDirectory: a folder instead of `__Snapshots__/<TestFile>` next to the test file.
///   - fileID: the test file's ID, for the failure's location.
///   - filePath: the test file's path, which places `__Snapshots__`.
///   - testName: the test's name (sanitised into the file name).
///   - line: the line, for the failure's location.
///   - column: the column, for the failure's location.
public func assertTransitionSnapshot(
  of scene: TransitionScene,
  interaction: InteractionTimeline? = nil,
  as strategy: TransitionSnapshotting,
  named name: String? = nil,
  record: SnapshotRecordMode? = nil,
  snapshotDirectory: String? = nil,
  fileID: StaticString = #fileID,
  file filePath: StaticString = #filePath,
  testName: String = #function,
  line: UInt = #line,
  column: UInt = #column
) {
  let outcome = verifyTransitionSnapshot(
    of: scene, interaction: interaction, as: strategy, named: name, record: record,
    snapshotDirectory: snapshotDirectory, file: filePath, testName: testName)
  guard outcome.isFailure else { return }
  recordFailure(
    outcome.message, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The check behind ``assertTransitionSnapshot(of:interaction:as:named:record:snapshotDirectory:fileID:file:testName:line:column:)``,
/// returning its outcome instead of failing a test.
public func verifyTransitionSnapshot(
  of scene: TransitionScene,
  interaction: InteractionTimeline? = nil,
  as strategy: TransitionSnapshotting,
  named name: String? = nil,
  record: SnapshotRecordMode? = nil,
  snapshotDirectory: String? = nil,
  file filePath: StaticString = #filePath,
  testName: String = #function
) -> SnapshotOutcome {
  let mode: SnapshotRecordMode
  do {
    mode = try record ?? SnapshotRecordMode(environment: ProcessInfo.processInfo.environment)
  } catch {
    return SnapshotOutcome(error: "\(error)")
  }
  let testFile = URL(fileURLWithPath: "\(filePath)", isDirectory: false)
  let fileName = testFile.deletingPathExtension().lastPathComponent
  let directory =
    snapshotDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
    ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    .appendingPathComponent(fileName)
  let test = SnapshotNaming.sanitize(testName)
  let identifier =
    name.map(SnapshotNaming.sanitize)
    ?? String(SnapshotNaming.counter.next(directory.appendingPathComponent(test).path))
  let verification = SnapshotVerification(
    scene: scene, interaction: interaction, strategy: strategy,
    reference: SnapshotReference(directory: directory, baseName: test + "." + identifier),
    record: mode, artifacts: SnapshotNaming.artifacts(for: fileName))
  return verification.run()
}

/// File names and folders of the assertions.
enum SnapshotNaming {
  /// The environment variable naming the folder for failure artefacts; default
  /// `<temporary folder>/segue-snapshot-artifacts`.
  static let artifactsVariable = "SEGUE_SNAPSHOT_ARTIFACTS"

  /// The folder of a test file's failure artefacts.
  static func artifacts(for testFile: String) -> URL {
    let environment = ProcessInfo.processInfo.environment
    let root =
      environment[artifactsVariable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("segue-snapshot-artifacts")
    return root.appendingPathComponent(testFile)
  }

  /// A test's name for file names: without its argument list, runs of other characters than
  /// letters, digits and `_` as `-`, none at either end: `preset(_:_:)` → `preset`,
  /// `testPush()` → `testPush`, `a b/c` → `a-b-c`.
  static func sanitize(_ name: String) -> String {
    var base = Substring(name)
    if base.hasSuffix(")"), let open = base.firstIndex(of: "(") { base = base[..<open] }
    var out = ""
    var pendingDash = false
    for scalar in base.unicodeScalars {
      let word =
        scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
      if word {
        if pendingDash && !out.isEmpty { out += "-" }
        pendingDash = false
        out.unicodeScalars.append(scalar)
      } else {
        pendingDash = true
      }
    }
    return out
  }

  /// Counts the unnamed snapshots of each test (by folder and test name).
  static let counter = Counter()

  final class Counter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// 1 for the first call with `key`, then 2, 3, …
    func next(_ key: String) -> Int {
      counts.withLock { counts in
        counts[key, default: 0] += 1
        return counts[key]!
      }
    }
  }
}
