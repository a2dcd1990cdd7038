import Foundation
import Segue
import Testing

private struct DissolveDelegate: NavigationControllerDelegate {
  func animator(for operation: TransitionOperation, from: String, to: String)
    -> (any TransitionAnimator)?
  {
    operation == .push ? PresetAnimator(.crossDissolve) : nil
  }
}

@Suite("NavigationController")
struct NavigationControllerTests {
  let size = Size(width: 390, height: 844)

  func view(_ id: String) throws -> LayerTree {
    var tree = LayerTree()
    try tree.add(TransitionContext.viewLayer(id, containerSize: size))
    return tree
  }

  /// No delegate: the system preset (0.5 s) animates the push; finishing commits the stack.
  @Test func pushWithoutDelegateUsesTheSystemPreset() throws {
    var nav = try NavigationController(root: "list", view: view("list"))
    let transition = try nav.push("detail", view: view("detail"))
    #expect(transition.scene.duration == 0.5)
    #expect(transition.scene.model.index(of: "dimming") != nil)
    #expect(try nav.complete(finished: true) == ["list", "detail"])
    #expect(nav.active == nil)
  }

  /// The delegate's animator is used; cancelling leaves the stack and the views as they were.
  @Test func cancelledPushLeavesEverythingAsItWas() throws {
    var nav = try NavigationController(
      root: "list", view: view("list"), delegate: DissolveDelegate())
    let before = nav.views
    let transition = try nav.push("detail", view: view("detail"))
    #expect(transition.scene.duration == 0.35)
    #expect(try nav.complete(finished: false) == ["list"])
    #expect(nav.stack.viewControllers == ["list"])
    #expect(nav.views == before)
  }

  /// A second request while a transition runs is rejected and changes nothing.
  @Test func requestsWhileATransitionRunsAreRejected() throws {
    var nav = try NavigationController(root: "list", view: view("list"))
    try nav.push("detail", view: view("detail"))
    #expect(throws: ValidationError.self) { try nav.push("more", view: view("more")) }
    #expect(throws: ValidationError.self) { try nav.pop() }
    #expect(nav.views["more"] == nil)
    try nav.complete(finished: true)
    try nav.pop()
    #expect(try nav.complete(finished: true) == ["list"])
    #expect(nav.views["detail"] == nil)
  }

  @Test func rejectsBadInput() throws {
    #expect(throws: ValidationError(field: "view", reason: .tooFew(minimum: 1, actual: 0))) {
      try NavigationController(root: "list", view: LayerTree())
    }
    var nav = try NavigationController(root: "list", view: view("list"))
    #expect(throws: ValidationError.self) { try nav.pop() }
    #expect(throws: ValidationError.self) { try nav.complete(finished: true) }
    #expect(throws: ValidationError.self) { try nav.push("x", view: LayerTree()) }
  }
}

/// An animator that records `animationEnded(_:)` calls (a class behind a lock: the protocol's
/// method is non-mutating, as UIKit's is on a reference type).
private final class RecordingAnimator: TransitionAnimator, @unchecked Sendable {
  private let lock = NSLock()
  private var ended: [Bool] = []
  var calls: [Bool] { lock.withLock { ended } }

  func transitionDuration(using context: TransitionContext) -> Double { 0.2 }
  func animateTransition(using context: TransitionContext) throws(ValidationError)
    -> TransitionScene
  {
    try PresetAnimator(.slideOver).animateTransition(using: context)
  }
  func animationEnded(_ transitionCompleted: Bool) {
    lock.withLock { ended.append(transitionCompleted) }
  }
}

private struct RecordingDelegate: NavigationControllerDelegate {
  let animator: RecordingAnimator
  func animator(for operation: TransitionOperation, from: String, to: String)
    -> (any TransitionAnimator)?
  { animator }
}

@Suite("NavigationController, animationEnded")
struct NavigationControllerAnimationEndedTests {
  /// `complete(finished:)` tells the animator once, with the flag; the context names the view
  /// controllers by their stack ids.
  @Test func completeCallsAnimationEnded() throws {
    let recorder = RecordingAnimator()
    let size = Size(width: 390, height: 844)
    func view(_ id: String) throws -> LayerTree {
      var tree = LayerTree()
      try tree.add(TransitionContext.viewLayer(id + ".root", containerSize: size))
      return tree
    }
    var nav = try NavigationController(
      root: "list", view: view("list"), delegate: RecordingDelegate(animator: recorder))
    let transition = try nav.push("detail", view: view("detail"))
    #expect(transition.context.fromViewController.identifier == "list")
    #expect(transition.context.toViewController.identifier == "detail")
    #expect(transition.context.toID == "detail.root")
    #expect(recorder.calls.isEmpty)
    try nav.complete(finished: false)
    #expect(recorder.calls == [false])
    try nav.push("detail", view: view("detail"))
    try nav.complete(finished: true)
    #expect(recorder.calls == [false, true])
  }
}
