import Segue
import SegueSpec
import Testing

/// What accepted specs decode to: defaults, names, transform operations, springs, layer order
/// and interaction.
@Suite("Spec decode")
struct SpecDecodeTests {
  private func layer(_ json: String) throws -> Layer {
    let document = try loadSpec(#"{"version": 1, "duration": 1, "layers": ["# + json + "]}")
    return document.scene.model.layers[0]
  }

  private func animation(_ json: String, layer: String = #""id": "a""#) throws -> LayerAnimation {
    let text =
      #"{"version": 1, "duration": 1, "layers": [{"# + layer + #", "animations": ["# + json + "]}]}"
    return try loadSpec(text).scene.animations.entries[0].animation
  }

  private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-15) -> Bool {
    abs(a - b) <= tolerance
  }

  @Test func layerDefaultsAreCALayerDefaults() throws {
    let l = try layer(#"{"id": "a"}"#)
    #expect(l == Layer(id: "a"))
    #expect(l.anchorPoint == Point(x: 0.5, y: 0.5) && l.opacity == 1)
    let document = try loadSpec(#"{"version": 1, "duration": 1, "layers": []}"#)
    #expect(document.scene.containerSize == Size(width: 390, height: 844))
  }

  @Test func layerFields() throws {
    let l = try layer(
      #"{"id": "a", "parent": null, "bounds": [1, 2, 3, 4], "position": [5, 6], "anchorPoint": [0, 1], "anchorPointZ": 7, "zPosition": 8, "opacity": 0.5, "backgroundColor": [0.1, 0.2, 0.3, 0.4], "isTransformLayer": true}"#
    )
    #expect(l.bounds == Rect(x: 1, y: 2, width: 3, height: 4))
    #expect(l.position == Point(x: 5, y: 6) && l.anchorPoint == Point(x: 0, y: 1))
    #expect(l.anchorPointZ == 7 && l.zPosition == 8 && l.opacity == 0.5 && l.isTransformLayer)
    #expect(l.backgroundColor.channels == [0.1, 0.2, 0.3, 0.4])
  }

  /// `[translate(10, 0, 0), rotate(π/2)]` folds as CATransform3DRotate(CATransform3DTranslate(I,
  /// 10, 0, 0), π/2) = R · T: a point is rotated first, then moved. With c = cos(π/2) ≈ 6.1e-17,
  /// s = 1: rows (c, s, 0, 0), (−s, c, 0, 0), (0, 0, 1, 0), (10, 0, 0, 1). The reverse list gives
  /// T · R, whose last row is the translation rotated: (10c, 10s, 0, 1) = (≈0, 10, 0, 1).
  @Test func transformOperationsFoldInCoreAnimationOrder() throws {
    let a = try layer(
      #"{"id": "a", "transform": [{"translate": [10, 0, 0]}, {"rotate": 1.5707963267948966}]}"#
    ).transform
    #expect(close(a.m11, 0) && close(a.m12, 1) && close(a.m21, -1) && close(a.m22, 0))
    #expect(a.m41 == 10 && a.m42 == 0 && a.m43 == 0 && a.m44 == 1)
    let b = try layer(
      #"{"id": "a", "transform": [{"rotate": 1.5707963267948966}, {"translate": [10, 0]}]}"#
    ).transform
    #expect(close(b.m41, 0, 1e-14) && close(b.m42, 10))
  }

  /// `[perspective(500), rotate(π/6 about y)]` = R_y · P. R_y (from the rotation formula with
  /// axis (0, 1, 0)) has m11 = c, m13 = −s, m31 = s, m33 = c; P is I with m34 = −1/500. The
  /// product's last column is R's third column times −1/500: m14 = s/500 = 0.001,
  /// m34 = −c/500 = −0.8660254037844386/500 = −0.0017320508075688772.
  @Test func perspectiveListedFirstIsAppliedLast() throws {
    let t = try layer(
      #"{"id": "a", "transform": [{"perspective": 500}, {"rotate": {"angle": 0.5235987755982988, "axis": [0, 1, 0]}}]}"#
    ).transform
    #expect(close(t.m14, 0.001) && close(t.m34, -0.0017320508075688772))
    #expect(close(t.m11, 0.8660254037844386) && close(t.m13, -0.5) && t.m44 == 1)
  }

  @Test func scaleAndTranslateWithTwoComponents() throws {
    let t = try layer(#"{"id": "a", "transform": [{"scale": [2, 3]}, {"translate": [4, 5]}]}"#)
      .transform
    // S · … with the translation applied first: T(4, 5, 0) · S(2, 3, 1), last row (8, 15, 0, 1).
    #expect(t.fields == [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 8, 15, 0, 1])
    let empty = try layer(#"{"id": "a", "transform": []}"#).transform
    #expect(empty == .identity)
    let fields = (1...16).map(Double.init)
    let raw = try layer(#"{"id": "a", "transform": "# + "\(fields.map { Int($0) })" + "}").transform
    #expect(raw.fields == fields)
  }

  @Test func timingFunctionForms() throws {
    func function(_ json: String) throws -> TimingFunction? {
      try animation(#"{"keyPath": "opacity", "type": "basic", "timingFunction": "# + json + "}")
        .timingFunction
    }
    #expect(try function(#""linear""#) == .linear)
    #expect(try function(#""kCAMediaTimingFunctionEaseIn""#) == .easeIn)
    #expect(try function(#""easeOut""#) == .easeOut)
    #expect(try function(#""kCAMediaTimingFunctionEaseInEaseOut""#) == .easeInEaseOut)
    #expect(try function(#""default""#) == .systemDefault)
    #expect(
      try function(#"{"controlPoints": [0.1, -0.2, 0.3, 1.4]}"#)
        == .cubicBezier(0.1, -0.2, 0.3, 1.4))
    #expect(
      try function(#"{"steps": 4, "position": "start"}"#)
        == .steps(try StepsEasing(steps: 4, position: .jumpStart)))
    #expect(
      try function(#"{"linear": [0, [0.8, 0.25], [0.9, 0.5, 0.75], 1]}"#)
        == .linearPoints(
          try LinearEasing([
            .init(0), .init(0.8, at: 0.25), .init(0.9, from: 0.5, to: 0.75), .init(1),
          ])))
    #expect(try animation(#"{"keyPath": "opacity", "type": "basic"}"#).timingFunction == nil)
  }

  @Test func mediaTimingFieldsAndDefaults() throws {
    let plain = try animation(#"{"keyPath": "opacity", "type": "basic"}"#)
    // CA's defaults, with duration 0 resolved to 0.25 s.
    #expect(plain.timing == MediaTiming(duration: 0.25))
    let a = try animation(
      #"{"keyPath": "opacity", "type": "basic", "beginTime": 0.1, "duration": 0.4, "speed": -2, "timeOffset": 0.3, "repeatCount": "infinity", "repeatDuration": 5, "autoreverses": true, "fillMode": "kCAFillModeBoth"}"#
    )
    #expect(
      a.timing
        == MediaTiming(
          beginTime: 0.1, duration: 0.4, speed: -2, timeOffset: 0.3, repeatCount: .infinity,
          repeatDuration: 5, autoreverses: true, fillMode: .both))
  }

  @Test func basicValuesDefaultToTheModelValue() throws {
    let a = try animation(
      #"{"keyPath": "position", "type": "basic", "toValue": [1, 2]}"#,
      layer: #""id": "a", "position": [30, 40]"#)
    #expect(a.content == .basic(from: .point(Point(x: 30, y: 40)), to: .point(Point(x: 1, y: 2))))
    let b = try animation(
      #"{"keyPath": "transform.rotation.z", "type": "basic", "fromValue": 1}"#)
    #expect(b.content == .basic(from: .number(1), to: .number(0)))
  }

  @Test func casSpringDefaults() throws {
    let a = try animation(#"{"keyPath": "opacity", "type": "spring", "toValue": 0}"#)
    #expect(a.content == .spring(try DampedSpring(), from: .number(1), to: .number(0)))
  }

  /// UIKit's duration-based spring: ζ = 0.75, D = 0.5 s (the hero preset). By hand,
  /// ω0 = ln(1/(0.001·√(1 − 0.75²)))/(0.75·0.5) = ln(1511.857)/0.375 = 7.321096/0.375 =
  /// 19.52292 rad/s, so stiffness ω0² ≈ 381.144 and damping 2ζω0 ≈ 29.284.
  @Test func uiKitDampingRatioSpring() throws {
    let a = try animation(
      #"{"keyPath": "opacity", "type": "spring", "dampingRatio": 0.75, "initialVelocity": 1, "duration": 0.5}"#
    )
    guard case .spring(let spring, _, _) = a.content else {
      Issue.record("not a spring")
      return
    }
    #expect(spring.mass == 1 && spring.initialVelocity == 1)
    #expect(abs(spring.stiffness - 381.144) < 1e-3 && abs(spring.damping - 29.284) < 1e-3)
  }

  @Test func keyframeFields() throws {
    let a = try animation(
      #"{"keyPath": "transform", "type": "keyframe", "values": [[], [{"scale": [2, 2]}], [{"translate": [1, 1]}]], "keyTimes": [0, 0.25, 1], "calculationMode": "kCAAnimationCubic", "timingFunctions": ["easeIn", "easeOut"], "tensionValues": [0, 0.5, 0], "continuityValues": [0, 0, 0], "biasValues": [0, 0, -0.5], "timingFunction": "default", "keyframeTimingFunction": "linear"}"#
    )
    guard case .keyframes(.transforms(let track)) = a.content else {
      Issue.record("not a transform track")
      return
    }
    #expect(
      track.values == [.identity, .makeScale(x: 2, y: 2, z: 1), .makeTranslation(x: 1, y: 1, z: 0)])
    #expect(track.keyTimes == [0, 0.25, 1] && track.calculationMode == .cubic)
    #expect(track.timingFunctions == [.easeIn, .easeOut])
    #expect(track.tensionValues == [0, 0.5, 0] && track.biasValues == [0, 0, -0.5])
    #expect(track.continuityValues == [0, 0, 0] && track.timingFunction == .linear)
    #expect(a.timingFunction == .systemDefault)
  }

  @Test func layersAreAddedAncestorsFirstKeepingSiblingOrder() throws {
    let document = try loadSpec(
      #"{"version": 1, "duration": 1, "layers": [{"id": "c1", "parent": "p"}, {"id": "p"}, {"id": "c2", "parent": "p"}, {"id": "q"}]}"#
    )
    let tree = document.scene.model
    #expect(tree.layers.map(\.id) == ["p", "c1", "c2", "q"])
    #expect(try tree.children(of: "p").map { tree.layers[$0].id } == ["c1", "c2"])
  }

  @Test func durationDefaultsToTheAnimationsEnd() throws {
    // beginTime 0.5 + the default 0.25 s duration.
    let document = try loadSpec(
      #"{"version": 1, "layers": [{"id": "a", "animations": [{"keyPath": "opacity", "type": "basic", "beginTime": 0.5}]}]}"#
    )
    #expect(document.scene.duration == 0.75)
  }

  @Test func modelChangesAndBlendModes() throws {
    let document = try loadSpec(
      #"{"version": 1, "duration": 1, "layers": [{"id": "a"}, {"id": "b"}], "events": [{"time": 0.5, "layer": "a", "keyPath": "opacity", "value": 0}, {"time": 0.5, "remove": "b"}], "finish": [{"remove": "a"}], "cancel": [{"layer": "b", "keyPath": "bounds.size", "value": [1, 2]}], "blendModes": {"a": "add", "b": "over"}}"#
    )
    let scene = document.scene
    #expect(
      scene.events == [
        TimelineEvent(time: 0.5, change: .set(layerID: "a", property: .opacity, value: .number(0))),
        TimelineEvent(time: 0.5, change: .remove(layerID: "b")),
      ])
    #expect(scene.finishChanges == [.remove(layerID: "a")])
    #expect(
      scene.cancelChanges == [
        .set(layerID: "b", property: .boundsSize, value: .size(Size(width: 1, height: 2)))
      ])
    #expect(scene.blendModes == ["a": .add, "b": .over])
  }

  @Test func interactionObjectForm() throws {
    let document = try loadSpec(
      #"{"version": 1, "duration": 2, "layers": [{"id": "a"}], "interaction": {"wantsInteractiveStart": false, "completionCurve": "linear", "events": [{"time": 0.5, "pause": true}, {"time": 0.6, "update": 0.5}, {"time": 1, "finish": {"completionSpeed": 2, "completionCurve": "easeOut"}}]}}"#
    )
    let expected = try InteractionTimeline(
      duration: 2, completionSpeed: 2, completionCurve: .easeOut, wantsInteractiveStart: false,
      events: [.pause(time: 0.5), .update(time: 0.6, percent: 0.5), .finish(time: 1)])
    #expect(document.interaction == expected)
    // Finish at 1 s from p = 0.5: the run lasts (1 − 0.5)·2/2 = 0.5 s, so it completes at 1.5;
    // the default sample times are 0, 0.25, …, 1.5.
    let times = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5]
    #expect(document.sampleTimes.count == 7 && document.sampleTimes.last == 1.5)
    for (t, e) in zip(document.sampleTimes, times) { #expect(close(t, e)) }
    let sample = try document.sample(at: 0.7)
    #expect(sample.progress == 0.5 && !sample.isCompleted)
    #expect(try document.sample(at: 1.5).isCompleted)
  }

  @Test func interactionListFormAndGivenSampleTimes() throws {
    let document = try loadSpec(
      #"{"version": 1, "duration": 1, "layers": [{"id": "a"}], "interaction": [{"time": 0.2, "update": 0.3}, {"time": 0.4, "cancel": true}], "sampleTimes": [0, 0.3, 0.3, 2]}"#
    )
    #expect(document.interaction?.events == [.update(time: 0.2, percent: 0.3), .cancel(time: 0.4)])
    #expect(document.interaction?.wantsInteractiveStart == true)
    #expect(document.sampleTimes == [0, 0.3, 0.3, 2])
    let samples = try document.samples()
    #expect(samples.map(\.progress) == [0, 0.3, 0.3, 0])
    #expect(samples[3].isCompleted && samples[3].isCancelled)
  }
}

/// The public entry points shared with the command line: the text form of timing functions and
/// an interaction on its own.
@Suite("Spec text entry points")
struct SpecTextEntryPointTests {
  @Test func timingFunctionNamesAndBezierForms() throws {
    #expect(
      SpecFile.timingFunctionNames == ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"])
    #expect(try SpecFile.timingFunction(text: "easeOut") == .easeOut)
    #expect(try SpecFile.timingFunction(text: " kCAMediaTimingFunctionEaseIn ") == .easeIn)
    #expect(
      try SpecFile.timingFunction(text: "cubic-bezier(0.25, 0.1, 0.25, 1)")
        == .cubicBezier(0.25, 0.1, 0.25, 1))
    #expect(
      try SpecFile.timingFunction(text: "0.1,0.2,0.3,0.4", allowsBareNumbers: true)
        == .cubicBezier(0.1, 0.2, 0.3, 0.4))
  }

  @Test func bareNumbersNeedTheFlag() {
    #expect(throws: SpecError.self) { try SpecFile.timingFunction(text: "0.1,0.2,0.3,0.4") }
  }

  @Test func unknownTimingTextIsNotAValidationError() throws {
    do {
      _ = try SpecFile.timingFunction(text: "cubic-bezier(0.1, 0.2, 0.3)")
      Issue.record("accepted three numbers")
    } catch {
      #expect(error.validation == nil)
      #expect(error.message.contains("unknown timing function"))
    }
  }

  @Test func rejectedControlPointWrapsTheLibraryError() throws {
    do {
      _ = try SpecFile.timingFunction(text: "cubic-bezier(0.1, 0, 1.5, 1)")
      Issue.record("accepted x2 = 1.5")
    } catch {
      #expect(error.validation?.field == "controlPoint2.x")
      #expect(error.path == "$.controlPoint2.x")
    }
  }

  @Test func specStringsAndArraysAreTimingFunctions() throws {
    // A layer with a basic animation whose timingFunction is given as a CSS string, and one as
    // an array; both must decode to the same curve as the object form.
    func document(_ f: String) -> String {
      #"{"version": 1, "layers": [{"id": "a", "animations": [{"keyPath": "opacity", "type": "basic", "fromValue": 0, "toValue": 1, "duration": 1, "timingFunction": "#
        + f + "}]}]}"
    }
    let reference = try SpecFile.decode(text: document(#"{"controlPoints": [0.3, 0, 0.7, 1]}"#))
    for form in [#""cubic-bezier(0.3, 0, 0.7, 1)""#, "[0.3, 0, 0.7, 1]"] {
      let other = try SpecFile.decode(text: document(form))
      for t in [0.2, 0.5, 0.8] {
        #expect(try other.sample(at: t) == reference.sample(at: t), "\(form) at \(t)")
      }
    }
  }

  @Test func specArrayControlPointErrorNamesTheEntry() {
    let text =
      #"{"version": 1, "duration": 1, "layers": [{"id": "a", "animations": [{"keyPath": "opacity", "type": "basic", "timingFunction": [0, 0, 2, 1]}]}]}"#
    #expect {
      try SpecFile.decode(text: text)
    } throws: { error in
      (error as? SpecError)?.path == "$.layers[0].animations[0].timingFunction[2]"
    }
  }

  @Test func decodeInteractionEqualsTheTimelineBuiltByHand() throws {
    let timeline = try SpecFile.decodeInteraction(
      text: """
        {"completionSpeed": 2, "events": [{"time": 0, "update": 0.25},
         {"time": 0.1, "finish": {"completionCurve": "easeOut"}}]}
        """, duration: 0.5)
    var expected = try InteractionTimeline(duration: 0.5, completionSpeed: 2)
    try expected.append(.update(time: 0, percent: 0.25))
    try expected.setCompletionCurve(.easeOut)
    try expected.append(.finish(time: 0.1))
    for t in [0, 0.05, 0.1, 0.15, 0.2, 0.3] {
      #expect(try timeline.state(at: t) == expected.state(at: t), "t = \(t)")
    }
  }

  @Test func decodeInteractionReportsPathsFromItsRoot() {
    #expect {
      try SpecFile.decodeInteraction(
        text: #"[{"time": 0.2, "update": 0.1}, {"time": 0.1, "pause": true}]"#, duration: 1)
    } throws: { error in
      (error as? SpecError)?.path == "$[1].time"
    }
  }

  @Test func decodeInteractionReportsMalformedJSON() {
    #expect {
      try SpecFile.decodeInteraction(text: "[{\"time\": 0,", duration: 1)
    } throws: { error in
      (error as? SpecError)?.line == 1
    }
  }
}
