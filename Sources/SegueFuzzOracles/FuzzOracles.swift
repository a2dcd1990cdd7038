// The fuzzing oracles: what must hold for every input of the three fuzz targets (the JSON parser,
// the spec decoder and the interaction-events decoder). One library target, shared by the seeded
// mutation harness of the test suite (MutationHarnessTests) and the libFuzzer targets of the
// nested package in Fuzz/ (through the product SegueFuzzOracles). Imports only the libraries.
//
// Each oracle runs one input and returns `nil` when every property holds, else a description of
// the violation. Crashes, hangs and runaway memory are caught by the runner itself (the test
// process, or libFuzzer with its timeout and RSS limit); what the oracles add:
// - a rejection is a `SpecError` (typed throws guarantee the type) that says where: a line and a
//   column ≥ 1 for malformed JSON, or a JSON path starting at `$`, and a non-empty message;
// - an accepted input re-encodes and decodes to the same value: JSON text through
//   `serialized()` and `serialized(pretty: true)`; a spec through `SpecFile.encode` (the encoded
//   document is a fixed point, and model, animations, events, completion changes, blend modes and
//   interaction come back equal); an interaction through a one-layer spec that carries it;
// - an accepted spec samples at its sample times (at most eight) without error, with every
//   matrix field, opacity and corner finite, and its re-decoded copy samples the same; the only
//   error allowed there is the typed report of geometry that overflows `Double` (field
//   "layers").

import Segue
import SegueSpec

/// The fuzzing oracles (see the file's header).
public enum FuzzOracles {
  /// The duration the events target decodes interactions with, in seconds.
  public static let eventsDuration = 0.5

  /// JSON: parse; on success, both serializations parse back to an equal value.
  public static func json(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    let value: JSONValue
    do {
      value = try JSONValue.parse(text)
    } catch {
      return checkRejection(error, syntax: true)
    }
    for pretty in [false, true] {
      let out = value.serialized(pretty: pretty)
      do {
        let again = try JSONValue.parse(out)
        if again != value { return "serialized(pretty: \(pretty)) parses to a different value" }
      } catch {
        return "serialized(pretty: \(pretty)) does not parse: \(error)"
      }
    }
    return nil
  }

  /// Spec: decode; on success, the encode/decode round trip and the samples (see the header).
  public static func spec(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    let document: SpecDocument
    do {
      document = try loadSpec(text)
    } catch {
      return checkRejection(error, syntax: error.line != nil)
    }
    let encoded = SpecFile.encode(scene: document.scene, interaction: document.interaction)
    let again: SpecDocument
    do {
      again = try loadSpec(encoded.serialized())
    } catch {
      return "the re-encoded spec does not decode: \(error)"
    }
    let a = document.scene
    let b = again.scene
    if SpecFile.encode(scene: b, interaction: again.interaction) != encoded {
      return "the re-encoded spec is not a fixed point of decode ∘ encode"
    }
    if a.model != b.model { return "model differs after the round trip" }
    if a.animations.entries != b.animations.entries { return "animations differ" }
    if a.events != b.events { return "events differ" }
    if a.finishChanges != b.finishChanges || a.cancelChanges != b.cancelChanges {
      return "completion changes differ"
    }
    if a.blendModes != b.blendModes { return "blend modes differ" }
    if a.duration != b.duration || a.containerSize != b.containerSize {
      return "duration or container differ"
    }
    if document.interaction != again.interaction { return "interaction differs" }
    for t in document.sampleTimes.prefix(8) {
      do {
        let sample = try document.sample(at: t)
        if let problem = nonFinite(sample) { return "t = \(t): \(problem)" }
        if try again.sample(at: t) != sample {
          return "t = \(t): the round trip samples differently"
        }
      } catch {
        // Geometry that overflows Double is a typed rejection of its own (field "layers").
        if error.validation?.field == "layers" { continue }
        return "sampling at t = \(t) failed: \(error)"
      }
    }
    return nil
  }

  /// Events: decode an interaction; on success, a one-layer spec carrying it decodes back to an
  /// equal timeline.
  public static func events(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    let timeline: InteractionTimeline
    do {
      timeline = try SpecFile.decodeInteraction(text: text, duration: eventsDuration)
    } catch {
      return checkRejection(error, syntax: error.line != nil)
    }
    do {
      var tree = LayerTree()
      try tree.add(Layer(id: "a"))
      let scene = try TransitionScene(
        duration: eventsDuration, containerSize: Size(width: 1, height: 1), model: tree,
        animations: AnimationSet())
      let text = SpecFile.encode(scene: scene, interaction: timeline).serialized()
      let document = try loadSpec(text)
      if document.interaction != timeline { return "the interaction differs after the round trip" }
      for t in document.sampleTimes {
        if let problem = nonFinite(try document.sample(at: t)) { return "t = \(t): \(problem)" }
      }
    } catch {
      return "the round trip failed: \(error)"
    }
    return nil
  }

  /// A rejection must say where and what.
  public static func checkRejection(_ error: SpecError, syntax: Bool) -> String? {
    if error.message.isEmpty { return "a rejection without a message: \(error)" }
    if syntax {
      guard let line = error.line, let column = error.column, line >= 1, column >= 1 else {
        return "a syntax error without a line and column: \(error)"
      }
      return error.path == "$" ? nil : "a syntax error with a path: \(error)"
    }
    return error.path.hasPrefix("$") ? nil : "a rejection without a JSON path: \(error)"
  }

  /// The first non-finite number of a sample, described, or `nil`.
  public static func nonFinite(_ sample: TransitionSample) -> String? {
    for layer in sample.layers {
      if !layer.opacity.isFinite { return "layer \(layer.id): opacity \(layer.opacity)" }
      if let v = layer.matrix.fields.first(where: { !$0.isFinite }) {
        return "layer \(layer.id): matrix field \(v)"
      }
      let appearance = [
        layer.cornerRadius, layer.borderWidth, layer.shadowOpacity, layer.shadowRadius,
        layer.shadowOffset.width, layer.shadowOffset.height,
      ]
      if let v = appearance.first(where: { !$0.isFinite }) {
        return "layer \(layer.id): appearance value \(v)"
      }
      for corner in layer.corners {
        let values = [corner.point.x, corner.point.y, corner.z, corner.w]
        if let v = values.first(where: { !$0.isFinite }) {
          return "layer \(layer.id): corner value \(v)"
        }
      }
    }
    return nil
  }
}
