import PropertyBased
import Testing

@testable import Segue

private let running = ValidationError(
  field: "navigationStack", reason: .invalidState("a transition is running"))

@Suite("NavigationStack")
struct NavigationStackTests {
  @Test func operationRawValues() {
    #expect(TransitionOperation.push.rawValue == "push")
    #expect(TransitionOperation.pop.rawValue == "pop")
    #expect(TransitionOperation.present.rawValue == "present")
    #expect(TransitionOperation.dismiss.rawValue == "dismiss")
    #expect(TransitionOperation.tabSwitch.rawValue == "tab-switch")
    #expect(TransitionOperation(rawValue: "tab-switch") == .tabSwitch)
    #expect(TransitionOperation.allCases.count == 5)
  }

  @Test func pushFinishedLeavesToOnTop() throws {
    var stack = NavigationControllerStack(root: "list")
    let transition = try stack.push("detail")
    #expect(transition.operation == .push && transition.from == "list" && transition.to == "detail")
    #expect(stack.viewControllers == ["list"] && stack.isTransitioning)
    #expect(try stack.complete(finished: true) == ["list", "detail"])
    #expect(stack.topViewController == "detail" && !stack.isTransitioning)
  }

  @Test func pushCancelledLeavesStackUnchanged() throws {
    var stack = try NavigationControllerStack(["a", "b"])
    let before = stack
    try stack.push("c")
    try stack.complete(finished: false)
    #expect(stack == before)
  }

  @Test func popFinishedRemovesOldTop() throws {
    var stack = try NavigationControllerStack(["a", "b", "c"])
    let transition = try stack.pop()
    #expect(transition.operation == .pop && transition.from == "c" && transition.to == "b")
    try stack.complete(finished: true)
    #expect(stack.viewControllers == ["a", "b"])
  }

  @Test func popCancelledLeavesStackUnchanged() throws {
    var stack = try NavigationControllerStack(["a", "b", "c"])
    let before = stack
    try stack.pop()
    try stack.complete(with: TransitionCompletionEvent(isFinished: false, time: 1))
    #expect(stack == before)
  }

  @Test func popToRoot() throws {
    var stack = try NavigationControllerStack(["a", "b", "c", "d"])
    let transition = try stack.popToRoot()
    #expect(transition.operation == .pop && transition.from == "d" && transition.to == "a")
    #expect(transition.stackBefore == ["a", "b", "c", "d"] && transition.stackAfter == ["a"])
    try stack.complete(finished: true)
    #expect(stack.viewControllers == ["a"] && stack.rootViewController == "a")
  }

  /// setStack: same top → replaced at once, no transition; top inside the old stack → pop;
  /// new top → push.
  @Test func setStackChoosesOperation() throws {
    var stack = try NavigationControllerStack(["a", "b", "c"])
    #expect(try stack.setStack(["x", "c"]) == nil)
    #expect(stack.viewControllers == ["x", "c"] && !stack.isTransitioning)

    let pop = try stack.setStack(["x"])
    #expect(pop?.operation == .pop && pop?.from == "c" && pop?.to == "x")
    try stack.complete(finished: true)
    #expect(stack.viewControllers == ["x"])

    let push = try stack.setStack(["y", "z"])
    #expect(push?.operation == .push && push?.from == "x" && push?.to == "z")
    try stack.complete(finished: false)
    #expect(stack.viewControllers == ["x"])
  }

  // MARK: Rejections

  @Test func rejectsEmptyStack() {
    #expect(
      throws: ValidationError(field: "viewControllers", reason: .tooFew(minimum: 1, actual: 0))
    ) { try NavigationControllerStack([]) }
  }

  @Test func rejectsDuplicateIds() {
    #expect(
      throws: ValidationError(field: "viewControllers", index: 2, reason: .duplicate("a"))
    ) { try NavigationControllerStack(["a", "b", "a"]) }
  }

  @Test func rejectsPushOfIdOnStack() throws {
    var stack = try NavigationControllerStack(["a", "b"])
    #expect(throws: ValidationError(field: "viewController", reason: .duplicate("a"))) {
      try stack.push("a")
    }
    #expect(!stack.isTransitioning)
  }

  @Test func rejectsPopAtRoot() {
    var stack = NavigationControllerStack(root: "a")
    #expect(
      throws: ValidationError(field: "viewControllers", reason: .tooFew(minimum: 2, actual: 1))
    ) { try stack.pop() }
  }

  @Test func rejectsPopToRootAtRoot() {
    var stack = NavigationControllerStack(root: "a")
    #expect(
      throws: ValidationError(field: "viewControllers", reason: .tooFew(minimum: 2, actual: 1))
    ) { try stack.popToRoot() }
  }

  @Test func rejectsSetStackEmpty() throws {
    var stack = NavigationControllerStack(root: "a")
    #expect(
      throws: ValidationError(field: "viewControllers", reason: .tooFew(minimum: 1, actual: 0))
    ) { try stack.setStack([]) }
  }

  @Test func rejectsSetStackDuplicates() throws {
    var stack = NavigationControllerStack(root: "a")
    #expect(
      throws: ValidationError(field: "viewControllers", index: 1, reason: .duplicate("b"))
    ) { try stack.setStack(["b", "b"]) }
  }

  @Test func rejectsPushWhileTransitioning() throws {
    var stack = NavigationControllerStack(root: "a")
    try stack.push("b")
    let before = stack
    #expect(throws: running) { try stack.push("c") }
    #expect(stack == before)
  }

  @Test func rejectsPopWhileTransitioning() throws {
    var stack = try NavigationControllerStack(["a", "b"])
    try stack.push("c")
    #expect(throws: running) { try stack.pop() }
  }

  @Test func rejectsPopToRootWhileTransitioning() throws {
    var stack = try NavigationControllerStack(["a", "b", "c"])
    try stack.pop()
    #expect(throws: running) { try stack.popToRoot() }
  }

  @Test func rejectsSetStackWhileTransitioning() throws {
    var stack = try NavigationControllerStack(["a", "b"])
    try stack.pop()
    #expect(throws: running) { try stack.setStack(["a", "b"]) }
  }

  @Test func rejectsCompleteWithoutTransition() {
    var stack = NavigationControllerStack(root: "a")
    #expect(
      throws: ValidationError(
        field: "navigationStack", reason: .invalidState("no transition is running"))
    ) { try stack.complete(finished: true) }
  }

  // MARK: Properties

  /// Random request/complete sequences against an independent reference (a plain array with the
  /// rules written out again): the committed stack always matches it, is non-empty and unique;
  /// a cancelled transition leaves it exactly as it was; a request while a transition runs is
  /// rejected and changes nothing. Each transition is driven by a percent-driven interaction
  /// with a random update, finish or cancel, and committed with the completion it delivers.
  @Test func randomSequencesKeepStackConsistent() async {
    await propertyCheck(
      count: 200,
      input: Gen.int(in: 0...5).array(of: 1...30), Gen.int(in: 0...7).array(of: 30),
      Gen.double(in: 0...1).array(of: 30)
    ) { kinds, names, percents in
      var stack = NavigationControllerStack(root: "v0")
      var model = ["v0"]
      var pendingModel: [String]?
      for (i, kind) in kinds.enumerated() {
        let before = stack
        let id = "v\(names[i])"
        do throws(ValidationError) {
          switch kind {
          case 0:
            try stack.push(id)
            #expect(pendingModel == nil && !model.contains(id))
            pendingModel = model + [id]
          case 1:
            try stack.pop()
            #expect(pendingModel == nil && model.count >= 2)
            pendingModel = Array(model.dropLast())
          case 2:
            try stack.popToRoot()
            #expect(pendingModel == nil && model.count >= 2)
            pendingModel = [model[0]]
          case 3:
            let ids = (0...(names[i] % 3)).map { "v\((names[i] + $0) % 8)" }
            let transition = try stack.setStack(ids)
            #expect(pendingModel == nil)
            if transition == nil {
              #expect(ids.last == model.last)
              model = ids
            } else {
              pendingModel = ids
            }
          default:
            // Drive the running transition interactively and commit its completion.
            var interaction = try PercentDrivenInteraction(duration: 0.35)
            try interaction.update(percents[i], at: 0.1)
            if kind == 4 {
              try interaction.finish(at: 0.2)
            } else {
              try interaction.cancel(at: 0.2)
            }
            guard let event = try interaction.advance(to: 1) else {
              Issue.record("no completion")
              return
            }
            #expect(event.isFinished == (kind == 4))
            try stack.complete(with: event)
            #expect(pendingModel != nil)
            if event.isFinished, let next = pendingModel { model = next }
            pendingModel = nil
          }
        } catch {
          #expect(stack == before)
          let expectedRejection =
            (kind < 4 && pendingModel != nil)
            || (kind >= 4 && pendingModel == nil)
            || (kind == 0 && model.contains(id))
            || ((kind == 1 || kind == 2) && model.count < 2)
          #expect(expectedRejection)
        }
        #expect(stack.viewControllers == model)
        #expect(!stack.viewControllers.isEmpty)
        #expect(Set(stack.viewControllers).count == stack.viewControllers.count)
        #expect(stack.isTransitioning == (pendingModel != nil))
      }
    }
  }
}
