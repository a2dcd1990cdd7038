import Testing
import XCTest

/// Records a test failure where the assertion was called: through Swift Testing's
/// `Issue.record` when a Swift Testing test is running (`Test.current` is set), through
/// `XCTFail` otherwise — as swift-snapshot-testing does.
func recordFailure(
  _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
) {
  if Test.current != nil {
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(
        fileID: fileID.description, filePath: filePath.description, line: Int(line),
        column: Int(column)))
  } else {
    XCTFail(message, file: filePath, line: line)
  }
}
