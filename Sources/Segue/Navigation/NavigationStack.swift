/// A `UINavigationController`'s stack of view controllers (by id), with the transition a request
/// starts and its commit or roll-back.
///
/// **Model.** ``viewControllers`` is the committed stack, bottom (root) first, top last; it is
/// never empty and its ids are unique. ``push(_:)``, ``pop()``, ``popToRoot()`` and
/// ``setStack(_:)`` do not change it: each validates the request and starts a transition
/// (``pendingTransition``) from the current top to the new one. ``complete(finished:)`` ends that
/// transition, as the animator's `completeTransition(_:)` does:
/// - `finished == true` commits the new stack: a push leaves `to` on top, a pop removes the old
///   top (and, for pop to root, everything above the root);
/// - `finished == false` (cancelled) rolls back: the stack is left exactly as it was.
///
/// **Requests while a transition runs** are rejected with a typed error
/// (`"navigationStack"`, ``ValidationError/Reason/invalidState(_:)`` `"a transition is running"`)
/// and change nothing; they are neither queued nor merged. (UIKit drops or defers such requests
/// with a console warning; rejecting makes the dropped request visible.) Complete the running
/// transition first, then repeat the request.
public struct NavigationControllerStack: Hashable, Sendable {
  /// A transition started by a request and not yet completed.
  public struct Transition: Hashable, Sendable {
    /// ``TransitionOperation/push`` or ``TransitionOperation/pop``.
    public var operation: TransitionOperation
    /// The view controller being left (the top before).
    public var from: String
    /// The view controller being shown (the top after).
    public var to: String
    /// The stack before the transition (what a cancel keeps).
    public var stackBefore: [String]
    /// The stack a finish commits.
    public var stackAfter: [String]
  }

  /// The committed stack, root first, top last; never empty, ids unique.
  public private(set) var viewControllers: [String]
  /// The running transition, if any.
  public private(set) var pendingTransition: Transition?

  /// Creates a stack.
  ///
  /// - Throws: ``ValidationError`` on `"viewControllers"`: ``ValidationError/Reason/tooFew(minimum:actual:)``
  ///   when empty; ``ValidationError/Reason/duplicate(_:)`` (with the index of the second
  ///   occurrence) when an id repeats.
  public init(_ viewControllers: [String]) throws(ValidationError) {
    try Self.validate(viewControllers)
    self.viewControllers = viewControllers
    pendingTransition = nil
  }

  /// A stack holding only `root`.
  public init(root: String) {
    viewControllers = [root]
    pendingTransition = nil
  }

  /// The top view controller (`topViewController`).
  public var topViewController: String { viewControllers[viewControllers.count - 1] }
  /// The bottom view controller.
  public var rootViewController: String { viewControllers[0] }
  /// `true` while a transition is pending.
  public var isTransitioning: Bool { pendingTransition != nil }

  /// `pushViewController(_:animated:)`: starts a push from the top to `id`.
  ///
  /// - Throws: ``ValidationError``: `"navigationStack"` ``ValidationError/Reason/invalidState(_:)``
  ///   while a transition runs; `"viewController"` ``ValidationError/Reason/duplicate(_:)`` when
  ///   `id` is already on the stack.
  @discardableResult
  public mutating func push(_ id: String) throws(ValidationError) -> Transition {
    try requireIdle()
    guard !viewControllers.contains(id) else {
      throw ValidationError(field: "viewController", reason: .duplicate(id))
    }
    return begin(.push, to: viewControllers + [id])
  }

  /// `popViewController(animated:)`: starts a pop of the top.
  ///
  /// - Throws: ``ValidationError``: `"navigationStack"` while a transition runs;
  ///   `"viewControllers"` ``ValidationError/Reason/tooFew(minimum:actual:)`` (minimum 2) when
  ///   only the root is left.
  @discardableResult
  public mutating func pop() throws(ValidationError) -> Transition {
    try requireIdle()
    try requireAboveRoot()
    return begin(.pop, to: Array(viewControllers.dropLast()))
  }

  /// `popToRootViewController(animated:)`: starts a pop from the top straight to the root.
  ///
  /// - Throws: as ``pop()``: at the root, ``ValidationError/Reason/tooFew(minimum:actual:)``.
  @discardableResult
  public mutating func popToRoot() throws(ValidationError) -> Transition {
    try requireIdle()
    try requireAboveRoot()
    return begin(.pop, to: [viewControllers[0]])
  }

  /// `setViewControllers(_:animated:)`: replaces the whole stack.
  ///
  /// As UIKit decides: when the new top is the current top, nothing is animated and the stack is
  /// replaced at once (returns `nil`); when the new top is elsewhere in the current stack, a pop
  /// transition starts; when it is not on the stack, a push transition starts.
  ///
  /// - Throws: ``ValidationError``: `"navigationStack"` while a transition runs; the errors of
  ///   ``init(_:)`` for `ids`.
  @discardableResult
  public mutating func setStack(_ ids: [String]) throws(ValidationError) -> Transition? {
    try requireIdle()
    try Self.validate(ids)
    let newTop = ids[ids.count - 1]
    if newTop == topViewController {
      viewControllers = ids
      return nil
    }
    return begin(viewControllers.contains(newTop) ? .pop : .push, to: ids)
  }

  /// `completeTransition(finished)`: commits the pending transition when `finished`, else
  /// leaves the stack exactly as it was; either way the stack is idle afterwards.
  ///
  /// - Returns: the stack after completion.
  /// - Throws: ``ValidationError`` `"navigationStack"` ``ValidationError/Reason/invalidState(_:)``
  ///   `"no transition is running"`.
  @discardableResult
  public mutating func complete(finished: Bool) throws(ValidationError) -> [String] {
    guard let transition = pendingTransition else {
      throw ValidationError(
        field: "navigationStack", reason: .invalidState("no transition is running"))
    }
    if finished { viewControllers = transition.stackAfter }
    pendingTransition = nil
    return viewControllers
  }

  /// Completes with an interaction's completion event (`event.finished`).
  ///
  /// - Throws: as ``complete(finished:)``.
  @discardableResult
  public mutating func complete(with event: TransitionCompletionEvent) throws(ValidationError)
    -> [String]
  {
    try complete(finished: event.isFinished)
  }

  private mutating func begin(_ operation: TransitionOperation, to stack: [String]) -> Transition {
    let transition = Transition(
      operation: operation, from: topViewController, to: stack[stack.count - 1],
      stackBefore: viewControllers, stackAfter: stack)
    pendingTransition = transition
    return transition
  }

  private func requireIdle() throws(ValidationError) {
    guard pendingTransition == nil else {
      throw ValidationError(
        field: "navigationStack", reason: .invalidState("a transition is running"))
    }
  }

  private func requireAboveRoot() throws(ValidationError) {
    guard viewControllers.count >= 2 else {
      throw ValidationError(
        field: "viewControllers", reason: .tooFew(minimum: 2, actual: viewControllers.count))
    }
  }

  private static func validate(_ ids: [String]) throws(ValidationError) {
    guard !ids.isEmpty else {
      throw ValidationError(field: "viewControllers", reason: .tooFew(minimum: 1, actual: 0))
    }
    var seen = Set<String>()
    for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
      throw ValidationError(field: "viewControllers", index: index, reason: .duplicate(id))
    }
  }
}
