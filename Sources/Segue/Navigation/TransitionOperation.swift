/// The kind of view-controller transition an animator is asked for (UIKit's
/// `UINavigationController.Operation` `push`/`pop`, plus the modal and tab-bar cases).
///
/// The raw values are the spellings used by the command line tool and sample files.
public enum TransitionOperation: String, Hashable, Sendable, CaseIterable {
  /// A new view controller is pushed on top of the navigation stack.
  case push
  /// The top view controller is popped, revealing the one below (or several: pop to root).
  case pop
  /// A view controller is presented modally.
  case present
  /// A presented view controller is dismissed.
  case dismiss
  /// A tab bar controller switches tabs.
  case tabSwitch = "tab-switch"

  /// Parses an operation name (`push`, `pop`, `present`, `dismiss`, `tab-switch`).
  ///
  /// - Throws: ``ValidationError/Reason/unknown(_:)`` on field `"operation"`.
  public init(name: String) throws(ValidationError) {
    guard let operation = TransitionOperation(rawValue: name) else {
      throw ValidationError(field: "operation", reason: .unknown(name))
    }
    self = operation
  }
}
