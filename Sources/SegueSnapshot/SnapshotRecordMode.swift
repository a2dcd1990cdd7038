/// When an assertion writes its snapshot, as swift-snapshot-testing's record modes.
public enum SnapshotRecordMode: String, CaseIterable, Hashable, Sendable {
  /// Record every snapshot, whether it matches or not (and fail, so a run in record mode never
  /// passes unnoticed).
  case all
  /// Record snapshots that do not exist yet, and fail once saying so (the default).
  case missing
  /// Record the snapshots that do not match (and fail, naming them).
  case failed
  /// Record nothing: a missing snapshot fails (for CI, so a retried job cannot pass on a
  /// snapshot it just wrote).
  case never

  /// The environment variable that sets the mode of every assertion that does not pass one:
  /// `SEGUE_RECORD=all|missing|failed|never`.
  public static let environmentVariable = "SEGUE_RECORD"

  /// The mode `environment` sets: ``missing`` when ``environmentVariable`` is unset or empty.
  ///
  /// - Throws: ``SnapshotSetupError/badRecordMode(_:)`` for any other value than the four
  ///   names.
  public init(environment: [String: String]) throws(SnapshotSetupError) {
    guard let value = environment[Self.environmentVariable], !value.isEmpty else {
      self = .missing
      return
    }
    guard let mode = SnapshotRecordMode(rawValue: value) else { throw .badRecordMode(value) }
    self = mode
  }
}

/// A setting of the snapshot run that cannot be used.
public enum SnapshotSetupError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `SEGUE_RECORD` holds something other than `all`, `missing`, `failed` or `never`.
  case badRecordMode(String)

  /// In words.
  public var description: String {
    switch self {
    case .badRecordMode(let value):
      "\(SnapshotRecordMode.environmentVariable)='\(value)' is not a record mode (use "
        + SnapshotRecordMode.allCases.map(\.rawValue).joined(separator: ", ") + ")"
    }
  }
}
