import Foundation
import Segue

/// Where a snapshot's files live: `<directory>/<baseName>.<suffix>` for each part, e.g.
/// `__Snapshots__/PresetTests/push.frames.frame-0.png`.
public struct SnapshotReference: Hashable, Sendable {
  /// The folder holding the files.
  public var directory: URL
  /// The name before each part's suffix, e.g. `push.frames` (`<test>.<name>`).
  public var baseName: String

  /// A reference.
  public init(directory: URL, baseName: String) {
    self.directory = directory
    self.baseName = baseName
  }

  /// The file of the part with `suffix`.
  public func url(suffix: String) -> URL {
    directory.appendingPathComponent(baseName + "." + suffix)
  }
}

/// What happened to one snapshot file.
public struct SnapshotFileResult: Sendable {
  /// The outcome.
  public enum Status: Sendable, Equatable {
    /// It matched.
    case matched
    /// It did not exist and was written now (record mode `missing`, `failed` or `all`).
    case recordedMissing
    /// It existed and was written again (record mode `all`, or `failed` after a mismatch or an
    /// unreadable file).
    case rerecorded
    /// It does not exist and was not written (record mode `never`, or `segue snapshot verify`).
    case missing
    /// It exists but cannot be read (the reason).
    case unreadable(String)
    /// It differs (the summary).
    case mismatch(String)
    /// It could not be written (the reason).
    case writeFailed(String)
  }

  /// The snapshot file.
  public var reference: URL
  /// What happened.
  public var status: Status
  /// What was compared and found different (`mismatch` and `rerecorded` after one), or `nil`.
  public var difference: String?
  /// The new content, written beside the diff when the file did not match (`nil` otherwise).
  public var actualArtifact: URL?
  /// The diff image (a PNG, an APNG for animations), when there is one.
  public var diffArtifact: URL?
  /// For a report: the recorded file's bytes, the new file's bytes and the diff's bytes, kept
  /// only for files that did not match.
  public var expectedBytes: [UInt8]?
  public var actualBytes: [UInt8]?
  public var diffBytes: [UInt8]?

  /// Whether this fails the assertion: anything but a match (a recording fails it too, so a
  /// run that records never passes unnoticed).
  public var isFailure: Bool { status != .matched }

  /// One line saying what happened, naming the files.
  public var message: String {
    let path = reference.path
    var line: String
    switch status {
    case .matched: return "\(path): matches"
    case .recordedMissing:
      return "No snapshot at \(path): recorded it; run the test again to compare against it."
    case .rerecorded:
      line = "Recorded \(path) again"
      if let difference { line += " (it differed: \(difference))" }
    case .missing: return "No snapshot at \(path) (record mode never: nothing was recorded)."
    case .unreadable(let reason): line = "Cannot read the snapshot \(path): \(reason)"
    case .mismatch(let summary): line = "Snapshot \(path) does not match: \(summary)"
    case .writeFailed(let reason): return "Cannot write the snapshot \(path): \(reason)"
    }
    var files: [String] = []
    if let actualArtifact { files.append("actual \(actualArtifact.path)") }
    if let diffArtifact { files.append("diff \(diffArtifact.path)") }
    if !files.isEmpty { line += ". " + files.joined(separator: ", ") }
    return line
  }
}

/// The outcome of checking one snapshot (all its files).
public struct SnapshotOutcome: Sendable {
  /// Why nothing was compared (a strategy or scene that was rejected), or `nil`.
  public var error: String?
  /// One result per file.
  public var files: [SnapshotFileResult] = []

  /// An outcome: an error, or the files' results.
  public init(error: String? = nil, files: [SnapshotFileResult] = []) {
    self.error = error
    self.files = files
  }

  /// Whether the assertion fails.
  public var isFailure: Bool { error != nil || files.contains(where: \.isFailure) }

  /// The failure message: one line per file that failed (the curves' rows follow theirs).
  public var message: String {
    if let error { return error }
    return files.filter(\.isFailure).map(\.message).joined(separator: "\n")
  }
}

/// Checks a transition against its recorded snapshot, recording it as `record` says: the work
/// behind `assertTransitionSnapshot` and `segue snapshot`.
///
/// A file is written only when recording (a missing file; every file with ``SnapshotRecordMode/all``;
/// one that does not match or cannot be read with ``SnapshotRecordMode/failed``), atomically
/// (a temporary file renamed over it), so an unreadable or different snapshot is never
/// overwritten otherwise. When a file does not match, the new content and a diff image are
/// written to ``artifacts`` (when set) as `<baseName>.<part>.actual.<ext>` and
/// `<baseName>.<part>.diff.png`.
public struct SnapshotVerification: Sendable {
  /// The transition.
  public var scene: TransitionScene
  /// Its interactive run, if any.
  public var interaction: InteractionTimeline?
  /// The strategy.
  public var strategy: TransitionSnapshotting
  /// Where the snapshot lives.
  public var reference: SnapshotReference
  /// When to write it.
  public var record: SnapshotRecordMode
  /// Where to write the new content and the diff of a file that does not match (`nil`: not
  /// written).
  public var artifacts: URL?
  /// Keep the bytes of files that do not match in the results (for a report).
  public var keepsBytes: Bool

  /// The largest snapshot file read, 256 MiB.
  public static let maximumFileSize = 1 << 28

  /// A verification.
  public init(
    scene: TransitionScene, interaction: InteractionTimeline? = nil,
    strategy: TransitionSnapshotting, reference: SnapshotReference,
    record: SnapshotRecordMode = .missing, artifacts: URL? = nil, keepsBytes: Bool = false
  ) {
    self.scene = scene
    self.interaction = interaction
    self.strategy = strategy
    self.reference = reference
    self.record = record
    self.artifacts = artifacts
    self.keepsBytes = keepsBytes
  }

  /// Renders the snapshot and checks (or records) each of its files.
  public func run() -> SnapshotOutcome {
    var files: [SnapshotFileResult] = []
    // Decoded snapshots reuse one buffer, as the rendered frames do.
    var scratch = PixelBufferRGBA8.empty
    do {
      try strategy.forEachPart(of: scene, interaction: interaction) { part in
        files.append(check(part, scratch: &scratch))
      }
    } catch {
      return SnapshotOutcome(error: "Cannot take the snapshot \(reference.baseName): \(error)")
    }
    return SnapshotOutcome(files: files)
  }

  /// Checks one part against its file.
  func check(_ part: SnapshotPart, scratch: inout PixelBufferRGBA8) -> SnapshotFileResult {
    let url = reference.url(suffix: part.suffix)
    var result = SnapshotFileResult(reference: url, status: .matched)
    let recorded: [UInt8]
    switch Self.read(url) {
    case .missing:
      guard record != .never else {
        result.status = .missing
        return result
      }
      return write(part, to: url, status: .recordedMissing, result)
    case .unreadable(let reason):
      return unreadable(part, reason, result)
    case .bytes(let bytes):
      recorded = bytes
    }
    let tolerance = strategy.imageTolerance ?? .exact
    var curves = CurvesTolerance()
    if case .curves(_, let t) = strategy.format { curves = t }
    switch part.compare(
      toRecorded: recorded, images: tolerance, curves: curves, scratch: &scratch)
    {
    case .match:
      return record == .all ? write(part, to: url, status: .rerecorded, result) : result
    case .unreadable(let reason):
      return unreadable(part, reason, result)
    case .mismatch(let summary, let expected, let diff):
      result.difference = summary
      result = artifact(part, diff: diff, expected: expected, result)
      guard record == .failed || record == .all else {
        result.status = .mismatch(summary)
        return result
      }
      return write(part, to: url, status: .rerecorded, result)
    }
  }

  /// A file that cannot be read: reported, or written again when recording failures.
  private func unreadable(_ part: SnapshotPart, _ reason: String, _ result: SnapshotFileResult)
    -> SnapshotFileResult
  {
    var result = result
    guard record == .failed || record == .all else {
      result.status = .unreadable(reason)
      return result
    }
    result.difference = "it could not be read: \(reason)"
    return write(part, to: result.reference, status: .rerecorded, result)
  }

  /// Writes the new content and the diff beside each other in ``artifacts``.
  private func artifact(
    _ part: SnapshotPart, diff: [UInt8]?, expected: [UInt8]?, _ result: SnapshotFileResult
  ) -> SnapshotFileResult {
    var result = result
    guard let actual = try? part.encoded() else { return result }
    if keepsBytes {
      result.expectedBytes = expected
      result.actualBytes = actual
      result.diffBytes = diff
    }
    guard let artifacts else { return result }
    let (stem, ext) = Self.split(part.suffix)
    let base = reference.baseName + (stem.isEmpty ? "" : "." + stem)
    let actualURL = artifacts.appendingPathComponent(base + ".actual." + ext)
    if (try? Self.writeAtomically(actual, to: actualURL)) != nil {
      result.actualArtifact = actualURL
    }
    if let diff {
      let diffURL = artifacts.appendingPathComponent(base + ".diff.png")
      if (try? Self.writeAtomically(diff, to: diffURL)) != nil { result.diffArtifact = diffURL }
    }
    return result
  }

  private func write(
    _ part: SnapshotPart, to url: URL, status: SnapshotFileResult.Status,
    _ result: SnapshotFileResult
  ) -> SnapshotFileResult {
    var result = result
    do {
      let bytes: [UInt8]
      do { bytes = try part.encoded() } catch { throw SnapshotWriteError(message: "\(error)") }
      try Self.writeAtomically(bytes, to: url)
      result.status = status
    } catch {
      result.status = .writeFailed("\(error)")
    }
    return result
  }

  /// `frame-0.png` → (`frame-0`, `png`); `png` → (``, `png`).
  static func split(_ suffix: String) -> (stem: String, ext: String) {
    guard let dot = suffix.lastIndex(of: ".") else { return ("", suffix) }
    return (String(suffix[..<dot]), String(suffix[suffix.index(after: dot)...]))
  }

  /// A file's bytes, or why there are none.
  enum ReadResult {
    case bytes([UInt8])
    case missing
    case unreadable(String)
  }

  static func read(_ url: URL) -> ReadResult {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      return .missing
    }
    guard !isDirectory.boolValue else { return .unreadable("it is a directory") }
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    guard size <= maximumFileSize else {
      return .unreadable("\(size) bytes is more than a snapshot may be (\(maximumFileSize))")
    }
    do { return .bytes([UInt8](try Data(contentsOf: url))) } catch {
      return .unreadable(Self.reason(error))
    }
  }

  /// Writes `bytes` to a temporary file beside `url` and renames it over `url`, creating the
  /// folders on the way.
  static func writeAtomically(_ bytes: [UInt8], to url: URL) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url, options: .atomic)
  }

  /// A Foundation error's reason without its framework noise.
  static func reason(_ error: any Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError {
      return underlying.localizedDescription
    }
    return ns.localizedDescription
  }
}

/// A snapshot that could not be encoded for writing.
struct SnapshotWriteError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
