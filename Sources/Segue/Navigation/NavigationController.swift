/// Picks the animator for a navigation transition (`UINavigationControllerDelegate`'s
/// `navigationController(_:animationControllerFor:from:to:)`).
public protocol NavigationControllerDelegate: Sendable {
  /// The animator for `operation` from view controller `from` to `to`, or `nil` for the system
  /// transition (the `system` preset).
  func animator(for operation: TransitionOperation, from: String, to: String)
    -> (any TransitionAnimator)?
}

/// A headless `UINavigationController`: a ``NavigationControllerStack`` of view-controller ids, each with a
/// view (a layer tree), a delegate that picks animators, and the transition in flight as a
/// ``TransitionScene``.
///
/// `push`, `pop`, `popToRoot` and `setStack` start a transition (rejected while one runs, see
/// ``NavigationControllerStack``); ``complete(finished:)`` ends it: finished commits the stack change,
/// cancelled leaves the stack and every view exactly as they were.
public struct NavigationController: Sendable {
  /// The transition in flight.
  public struct ActiveTransition: Sendable {
    /// The stack change it makes when it finishes.
    public var change: NavigationControllerStack.Transition
    /// Its context (views, container, `completeTransition`).
    public var context: TransitionContext
    /// The scene the animator set up, to sample.
    public var scene: TransitionScene
    /// The animator (told `animationEnded(_:)` when the transition completes).
    public var animator: any TransitionAnimator
  }

  /// The stack of view-controller ids, bottom first.
  public private(set) var stack: NavigationControllerStack
  /// Each view controller's view: a layer tree whose first layer is the view's own layer.
  public private(set) var views: [String: LayerTree]
  /// Container size in points.
  public let containerSize: Size
  /// Picks animators; `nil` (or a `nil` answer) means the `system` preset.
  public var delegate: (any NavigationControllerDelegate)?
  /// The transition in flight, if any.
  public private(set) var active: ActiveTransition?

  /// A controller showing `root` with its `view`.
  ///
  /// - Throws: ``ValidationError`` when the view is empty (`"view"`) or the container size is not
  ///   positive.
  public init(
    root: String, view: LayerTree, containerSize: Size = Size(width: 390, height: 844),
    delegate: (any NavigationControllerDelegate)? = nil
  ) throws(ValidationError) {
    try Validate.positive(containerSize.width, "containerSize.width")
    try Validate.positive(containerSize.height, "containerSize.height")
    guard view.count > 0 else {
      throw ValidationError(field: "view", reason: .tooFew(minimum: 1, actual: 0))
    }
    self.stack = NavigationControllerStack(root: root)
    self.views = [root: view]
    self.containerSize = containerSize
    self.delegate = delegate
  }

  /// `pushViewController(_:animated: true)`: starts a push of `id` showing `view`.
  ///
  /// - Throws: the stack's errors (a transition is running, duplicate id), an empty view, or the
  ///   animator's errors.
  @discardableResult
  public mutating func push(_ id: String, view: LayerTree) throws(ValidationError)
    -> ActiveTransition
  {
    guard view.count > 0 else {
      throw ValidationError(field: "view", reason: .tooFew(minimum: 1, actual: 0))
    }
    var candidate = self
    candidate.views[id] = view
    let change = try candidate.stack.push(id)
    try candidate.start(change)
    self = candidate
    return candidate.active!
  }

  /// `popViewController(animated: true)`.
  @discardableResult
  public mutating func pop() throws(ValidationError) -> ActiveTransition {
    var candidate = self
    try candidate.start(try candidate.stack.pop())
    self = candidate
    return candidate.active!
  }

  /// `popToRootViewController(animated: true)`.
  @discardableResult
  public mutating func popToRoot() throws(ValidationError) -> ActiveTransition {
    var candidate = self
    try candidate.start(try candidate.stack.popToRoot())
    self = candidate
    return candidate.active!
  }

  /// Ends the transition in flight: `completeTransition(finished)`.
  ///
  /// - Returns: the stack afterwards.
  /// - Throws: `.invalidState` on `"navigationStack"` when no transition runs.
  @discardableResult
  public mutating func complete(finished: Bool) throws(ValidationError) -> [String] {
    guard var transition = active else {
      throw ValidationError(field: "navigationStack", reason: .invalidState("no transition runs"))
    }
    try transition.context.completeTransition(finished)
    let ids = try stack.complete(finished: finished)
    transition.animator.animationEnded(finished)
    if finished, transition.change.operation == .pop || transition.change.operation == .dismiss {
      for id in transition.change.stackBefore where !ids.contains(id) { views[id] = nil }
    }
    if !finished, transition.change.operation == .push {
      views[transition.change.to] = nil
    }
    active = nil
    return ids
  }

  private mutating func start(_ change: NavigationControllerStack.Transition)
    throws(ValidationError)
  {
    guard let fromView = views[change.from], let toView = views[change.to] else {
      throw ValidationError(
        field: "view", reason: .unknown(views[change.from] == nil ? change.from : change.to))
    }
    let context = try TransitionContext(
      operation: change.operation, containerSize: containerSize,
      from: try ViewController(identifier: change.from, view: fromView),
      to: try ViewController(identifier: change.to, view: toView))
    let animator =
      delegate?.animator(for: change.operation, from: change.from, to: change.to)
      ?? PresetAnimator(.system)
    let scene = try animator.animateTransition(using: context)
    active = ActiveTransition(change: change, context: context, scene: scene, animator: animator)
  }
}
