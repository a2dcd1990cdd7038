import Segue
import Testing

/// Names as the command line and spec files spell them, and their rejections.
@Suite("Preset, subtype and operation names")
struct PresetNamesTests {
  @Test func presetNamesRoundTrip() throws {
    let names = [
      "system", "fade-slide", "cross-dissolve", "hero", "depth", "slide-over", "ca-fade",
      "ca-move-in", "ca-push", "ca-reveal",
    ]
    #expect(TransitionPreset.allCases.map(\.rawValue) == names)
    for name in names { #expect(try TransitionPreset(name: name).description == name) }
  }

  @Test func unknownPresetIsRejected() {
    #expect(throws: ValidationError(field: "preset", reason: .unknown("zoom"))) {
      try TransitionPreset(name: "zoom")
    }
  }

  @Test func subtypes() throws {
    let size = Size(width: 390, height: 844)
    #expect(try TransitionSubtype(name: "from-right").offset(in: size) == Point(x: 390, y: 0))
    #expect(try TransitionSubtype(name: "from-left").offset(in: size) == Point(x: -390, y: 0))
    #expect(try TransitionSubtype(name: "from-top").offset(in: size) == Point(x: 0, y: -844))
    #expect(try TransitionSubtype(name: "from-bottom").offset(in: size) == Point(x: 0, y: 844))
    #expect(throws: ValidationError(field: "subtype", reason: .unknown("fromRight"))) {
      try TransitionSubtype(name: "fromRight")
    }
  }

  @Test func operations() throws {
    for operation in TransitionOperation.allCases {
      #expect(try TransitionOperation(name: operation.rawValue) == operation)
    }
    #expect(try TransitionOperation(name: "tab-switch") == .tabSwitch)
    #expect(throws: ValidationError(field: "operation", reason: .unknown("replace"))) {
      try TransitionOperation(name: "replace")
    }
  }

  /// `present` and `tab-switch` run a preset forwards like push; `dismiss` backwards like pop.
  @Test func modalOperationsFollowPushAndPop() throws {
    let animator = PresetAnimator(.slideOver)
    for (operation, like) in [
      (TransitionOperation.present, TransitionOperation.push), (.tabSwitch, .push),
      (.dismiss, .pop),
    ] {
      let a = try animator.animateTransition(using: animator.defaultContext(operation: operation))
      let b = try animator.animateTransition(using: animator.defaultContext(operation: like))
      #expect(try a.sample(at: 0.1) == b.sample(at: 0.1))
    }
  }

  @Test func invalidParametersAreRejected() throws {
    let animator = PresetAnimator(.caPush, parameters: PresetParameters(caDuration: 0))
    let context = try animator.defaultContext(operation: .push)
    #expect(throws: ValidationError(field: "caDuration", reason: .notPositive)) {
      try animator.animateTransition(using: context)
    }
    // The hero list's table must have a positive height: listTop < H (844).
    let hero = PresetAnimator(.hero, parameters: PresetParameters(hero: HeroScene(listTop: 844)))
    let heroContext = try PresetAnimator(.hero).defaultContext(operation: .push)
    #expect(throws: ValidationError(field: "listTop", reason: .outOfRange(lower: 0, upper: 844))) {
      try hero.animateTransition(using: heroContext)
    }
  }
}
