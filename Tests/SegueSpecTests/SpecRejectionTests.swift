import Segue
import SegueSpec
import Testing

/// One test per rejected spec condition: each checks the JSON path and the gist of the message.
@Suite("Spec rejections")
struct SpecRejectionTests {
  /// A valid document with one layer `a` (and child `b`), into which each test splices a fault.
  static func doc(
    layers: String = #"{"id": "a", "bounds": [0, 0, 10, 10]}, {"id": "b", "parent": "a"}"#,
    extra: String = ""
  ) -> String {
    #"{"version": 1, "duration": 1, "layers": ["# + layers + "]" + extra + "}"
  }

  static func anim(_ body: String) -> String {
    doc(layers: #"{"id": "a", "animations": ["# + body + "]}")
  }

  @Test func theBaseDocumentIsValid() throws {
    let document = try loadSpec(Self.doc())
    #expect(document.scene.model.layers.map(\.id) == ["a", "b"])
  }

  // MARK: Malformed JSON

  @Test func malformedJSONReportsLineAndColumn() throws {
    let error = try #require(SpecTestSupport.specError("{\"version\": 1,\n  \"layers\": [,]}"))
    #expect(error.line == 2 && error.column == 14)
    #expect(error.description.hasPrefix("line 2, column 14: expected a JSON value"))
  }

  @Test func nanIsMalformed() throws {
    let error = try #require(
      SpecTestSupport.specError(Self.doc(extra: #", "container": [NaN, 1]"#)))
    #expect(error.line == 1 && error.message.contains("NaN"))
  }

  // MARK: Document

  @Test func topLevelMustBeAnObject() {
    expectError("[]", path: "$", "expected an object, found an array")
  }

  @Test func unknownTopLevelKey() {
    expectError(Self.doc(extra: #", "layer": []"#), path: "$.layer", "unknown key 'layer'")
  }

  @Test func missingVersion() {
    expectError(#"{"layers": []}"#, path: "$", "missing required key 'version'")
  }

  @Test func unsupportedVersion() {
    expectError(#"{"version": 2, "layers": []}"#, path: "$.version", "unsupported version")
  }

  @Test func missingLayers() {
    expectError(#"{"version": 1, "duration": 1}"#, path: "$", "missing required key 'layers'")
  }

  @Test func durationNotPositive() {
    expectError(
      #"{"version": 1, "duration": 0, "layers": []}"#, path: "$.duration", "greater than 0")
  }

  @Test func missingDurationWithoutAnimations() {
    expectError(#"{"version": 1, "layers": []}"#, path: "$", "missing required key 'duration'")
  }

  @Test func containerWrongCount() {
    expectError(Self.doc(extra: #", "container": [1]"#), path: "$.container", "found an array of 1")
  }

  @Test func containerNegative() {
    expectError(Self.doc(extra: #", "container": [-1, 5]"#), path: "$.container", "negative")
  }

  /// Each container side is at most 2²⁴ points; 2²⁴ itself is accepted, the next double above it
  /// and an overflowing size are not.
  @Test func containerTooLarge() throws {
    expectError(
      Self.doc(extra: #", "container": [16777217, 5]"#), path: "$.container", "at most 16777216")
    expectError(
      Self.doc(extra: #", "container": [5, 1e308]"#), path: "$.container", "at most 16777216")
    let document = try SpecFile.decode(text: Self.doc(extra: #", "container": [16777216, 1]"#))
    #expect(document.scene.containerSize == Size(width: 16_777_216, height: 1))
  }

  @Test func wrongTypeNamesTheExpectedType() {
    expectError(
      Self.doc(extra: #", "duration2": 1"#), path: "$.duration2", "unknown key")
    expectError(
      #"{"version": 1, "duration": "1", "layers": []}"#, path: "$.duration",
      "expected a number, found a string")
  }

  /// An empty list asks for no frame: every command would draw or print nothing (and a contact
  /// sheet of no frames has no columns), so it is rejected; leaving the key out gives the default.
  @Test func sampleTimesEmpty() throws {
    expectError(
      Self.doc(extra: #", "sampleTimes": []"#), path: "$.sampleTimes", "at least one time")
    #expect(try SpecFile.decode(text: Self.doc(extra: #", "sampleTimes": [0]"#)).sampleTimes == [0])
  }

  @Test func sampleTimesDecreasing() {
    expectError(
      Self.doc(extra: #", "sampleTimes": [0, 0.5, 0.25]"#), path: "$.sampleTimes[2]",
      "must not decrease")
  }

  // MARK: Layers

  @Test func unknownLayerKey() {
    expectError(
      Self.doc(layers: #"{"id": "a", "colour": [0, 0, 0, 1]}"#), path: "$.layers[0].colour",
      "unknown key 'colour'")
  }

  @Test func layerWithoutID() {
    expectError(Self.doc(layers: #"{"bounds": [0, 0, 1, 1]}"#), path: "$.layers[0]", "'id'")
  }

  @Test func duplicateIDs() {
    expectError(
      Self.doc(layers: #"{"id": "a"}, {"id": "b"}, {"id": "a"}"#), path: "$.layers[2].id",
      "duplicate layer id 'a' (also at $.layers[0])")
  }

  @Test func missingParent() {
    expectError(
      Self.doc(layers: #"{"id": "a"}, {"id": "b", "parent": "zz"}"#), path: "$.layers[1].parent",
      "no layer has the id 'zz'")
  }

  @Test func cyclicParents() {
    expectError(
      Self.doc(
        layers:
          #"{"id": "a", "parent": "c"}, {"id": "b", "parent": "a"}, {"id": "c", "parent": "b"}"#),
      path: "$.layers[0].parent", "cycle: 'a' → 'c' → 'b' → 'a'")
  }

  @Test func ownParent() {
    expectError(
      Self.doc(layers: #"{"id": "a", "parent": "a"}"#), path: "$.layers[0].parent", "own parent")
  }

  @Test func boundsWrongCount() {
    expectError(
      Self.doc(layers: #"{"id": "a", "bounds": [0, 0, 1]}"#), path: "$.layers[0].bounds",
      "expected a rectangle [x, y, width, height], found an array of 3")
  }

  @Test func numberInsideArrayHasItsIndex() {
    expectError(
      Self.doc(layers: #"{"id": "a", "position": [0, "1"]}"#), path: "$.layers[0].position[1]",
      "expected a number, found a string")
  }

  @Test func opacityWrongType() {
    expectError(
      Self.doc(layers: #"{"id": "a", "opacity": true}"#), path: "$.layers[0].opacity",
      "expected a number, found a boolean")
  }

  @Test func transformWrongCount() {
    expectError(
      Self.doc(layers: #"{"id": "a", "transform": [1, 0, 0, 1]}"#), path: "$.layers[0].transform",
      "expected 16 numbers")
  }

  @Test func transformOperationUnknown() {
    expectError(
      Self.doc(layers: #"{"id": "a", "transform": [{"skew": 1}]}"#),
      path: "$.layers[0].transform[0].skew", "unknown key 'skew'")
  }

  @Test func transformOperationWithTwoKeys() {
    expectError(
      Self.doc(layers: #"{"id": "a", "transform": [{"scale": [1, 1], "rotate": 1}]}"#),
      path: "$.layers[0].transform[0]", "exactly one key")
  }

  @Test func rotationAxisZero() {
    expectError(
      Self.doc(layers: #"{"id": "a", "transform": [{"rotate": {"angle": 1, "axis": [0, 0, 0]}}]}"#),
      path: "$.layers[0].transform[0].rotate.axis", "must not be zero")
  }

  @Test func perspectiveNotPositive() {
    expectError(
      Self.doc(layers: #"{"id": "a", "sublayerTransform": [{"perspective": 0}]}"#),
      path: "$.layers[0].sublayerTransform[0].perspective", "greater than 0")
  }

  @Test func transformOverflowIsNotInfinity() {
    expectError(
      Self.doc(
        layers: #"{"id": "a", "transform": [{"scale": [1e200, 1]}, {"scale": [1e200, 1]}]}"#),
      path: "$.layers[0].transform", "not finite")
  }

  // MARK: Animations

  @Test func unknownKeyPath() {
    expectError(
      Self.anim(#"{"keyPath": "frame", "type": "basic", "toValue": 1}"#),
      path: "$.layers[0].animations[0].keyPath", "unknown key path 'frame'")
  }

  @Test func unknownAnimationType() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "group"}"#),
      path: "$.layers[0].animations[0].type", "unknown animation type 'group'")
  }

  @Test func keyOfAnotherAnimationType() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "basic", "values": [0, 1]}"#),
      path: "$.layers[0].animations[0].values", "unknown key 'values' for a basic animation")
  }

  @Test func valueOfTheWrongKind() {
    expectError(
      Self.anim(#"{"keyPath": "position", "type": "basic", "toValue": 3}"#),
      path: "$.layers[0].animations[0].toValue", "expected a point [x, y], found a number")
  }

  @Test func keyframeValueOfTheWrongKind() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "keyframe", "values": [0, [1, 2]]}"#),
      path: "$.layers[0].animations[0].values[1]", "expected a number, found an array")
  }

  @Test func keyTimesDecreasingNamesTheIndex() {
    expectError(
      Self.anim(
        #"{"keyPath": "opacity", "type": "keyframe", "values": [0, 1, 0], "keyTimes": [0, 0.6, 0.5, 1]}"#
      ),
      path: "$.layers[0].animations[0].keyTimes", "3 entries")
    expectError(
      Self.anim(
        #"{"keyPath": "opacity", "type": "keyframe", "values": [0, 1, 0, 1], "keyTimes": [0, 0.6, 0.5, 1]}"#
      ),
      path: "$.layers[0].animations[0].keyTimes[2]", "smaller than the entry before it")
  }

  @Test func tensionOutOfRange() {
    expectError(
      Self.anim(
        #"{"keyPath": "opacity", "type": "keyframe", "values": [0, 1], "calculationMode": "cubic", "tensionValues": [0, 2]}"#
      ),
      path: "$.layers[0].animations[0].tensionValues[1]", "[-1.0, 1.0]")
  }

  @Test func unknownCalculationMode() {
    expectError(
      Self.anim(
        #"{"keyPath": "opacity", "type": "keyframe", "values": [0, 1], "calculationMode": "smooth"}"#
      ),
      path: "$.layers[0].animations[0].calculationMode", "unknown calculation mode 'smooth'")
  }

  @Test func missingKeyframeValues() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "keyframe"}"#),
      path: "$.layers[0].animations[0]", "missing required key 'values'")
  }

  @Test func unknownTimingFunctionName() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "basic", "timingFunction": "easeInOut"}"#),
      path: "$.layers[0].animations[0].timingFunction", "unknown timing function 'easeInOut'")
  }

  @Test func controlPointOutOfRange() {
    expectError(
      Self.anim(
        #"{"keyPath": "opacity", "type": "basic", "timingFunction": {"controlPoints": [1.5, 0, 1, 1]}}"#
      ),
      path: "$.layers[0].animations[0].timingFunction.controlPoints[0]", "must be in [0.0, 1.0]")
  }

  @Test func timingFunctionOnSpring() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "spring", "timingFunction": "linear"}"#),
      path: "$.layers[0].animations[0].timingFunction", "unknown key 'timingFunction' for a spring")
  }

  @Test func springMassNotPositive() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "spring", "mass": 0}"#),
      path: "$.layers[0].animations[0].mass", "greater than 0")
  }

  @Test func dampingRatioWithStiffness() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "spring", "dampingRatio": 0.5, "stiffness": 10}"#),
      path: "$.layers[0].animations[0].stiffness", "cannot be combined with 'dampingRatio'")
  }

  @Test func negativeDuration() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "basic", "duration": -1}"#),
      path: "$.layers[0].animations[0].duration", "negative")
  }

  @Test func repeatCountString() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "basic", "repeatCount": "forever"}"#),
      path: "$.layers[0].animations[0].repeatCount", "\"infinity\"")
  }

  @Test func unknownFillMode() {
    expectError(
      Self.anim(#"{"keyPath": "opacity", "type": "basic", "fillMode": "none"}"#),
      path: "$.layers[0].animations[0].fillMode", "unknown fill mode 'none'")
  }

  // MARK: Model changes and blend modes

  @Test func eventsOutOfOrder() {
    expectError(
      Self.doc(extra: #", "events": [{"time": 0.5, "remove": "b"}, {"time": 0.2, "remove": "a"}]"#),
      path: "$.events[1].time", "time order")
  }

  @Test func eventTimeNegative() {
    expectError(
      Self.doc(extra: #", "events": [{"time": -1, "remove": "b"}]"#), path: "$.events[0].time",
      "negative")
  }

  @Test func eventNamesUnknownLayer() {
    expectError(
      Self.doc(
        extra: #", "events": [{"time": 0, "layer": "q", "keyPath": "opacity", "value": 1}]"#),
      path: "$.events[0].layer", "no layer has the id 'q'")
  }

  @Test func eventValueOfTheWrongKind() {
    expectError(
      Self.doc(extra: #", "finish": [{"layer": "a", "keyPath": "bounds", "value": [1, 2]}]"#),
      path: "$.finish[0].value", "rectangle")
  }

  @Test func removeCombinedWithSet() {
    expectError(
      Self.doc(extra: #", "cancel": [{"remove": "a", "layer": "a"}]"#), path: "$.cancel[0].layer",
      "cannot be combined with 'remove'")
  }

  @Test func changeWithTimeInFinish() {
    expectError(
      Self.doc(extra: #", "finish": [{"time": 1, "remove": "a"}]"#), path: "$.finish[0].time",
      "unknown key 'time'")
  }

  @Test func blendModeUnknownLayer() {
    expectError(
      Self.doc(extra: #", "blendModes": {"my layer": "add"}"#), path: #"$.blendModes["my layer"]"#,
      "no layer has the id 'my layer'")
  }

  @Test func blendModeUnknownName() {
    expectError(
      Self.doc(extra: #", "blendModes": {"a": "multiply"}"#), path: "$.blendModes.a",
      "unknown blend mode 'multiply'")
  }

  // MARK: Interaction

  @Test func interactionEventsOutOfOrder() {
    expectError(
      Self.doc(
        extra: #", "interaction": [{"time": 0.5, "update": 0.1}, {"time": 0.4, "update": 0.2}]"#),
      path: "$.interaction[1].time", "time order")
  }

  @Test func interactionEventWithTwoActions() {
    expectError(
      Self.doc(extra: #", "interaction": [{"time": 0.5, "update": 0.1, "pause": true}]"#),
      path: "$.interaction[0]", "exactly one of")
  }

  @Test func interactionUnknownAction() {
    expectError(
      Self.doc(extra: #", "interaction": {"events": [{"time": 0, "jump": 1}]}"#),
      path: "$.interaction.events[0].jump", "unknown key 'jump'")
  }

  @Test func interactionEventAfterFinish() {
    expectError(
      Self.doc(
        extra: #", "interaction": [{"time": 0.1, "finish": {}}, {"time": 0.2, "update": 0.5}]"#),
      path: "$.interaction[1]", "already finished")
  }

  @Test func completionSpeedNotPositive() {
    expectError(
      Self.doc(extra: #", "interaction": [{"time": 0.1, "cancel": {"completionSpeed": 0}}]"#),
      path: "$.interaction[0].cancel.completionSpeed", "greater than 0")
  }

  @Test func pauseFalse() {
    expectError(
      Self.doc(extra: #", "interaction": [{"time": 0.1, "pause": false}]"#),
      path: "$.interaction[0].pause", "expected true")
  }
}
