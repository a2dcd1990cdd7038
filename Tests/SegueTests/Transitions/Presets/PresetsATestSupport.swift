import Segue
import Testing

/// What one sampled full-container view layer should show: its frame origin in the container
/// (points), presented opacity, draw order and blend mode.
///
/// Every view layer of these presets has bounds `(0, 0, W, H)`, anchorPoint `(0.5, 0.5)` and an
/// identity transform (the transition catalog, Conventions), so its matrix to the container is
/// `T(−W/2, −H/2, 0) · T(position)`: `m41 = position.x − W/2` is the frame origin x itself (the
/// anchor term is already inside the matrix), `m42` the frame origin y, and `corners[0]` (top-left)
/// is `(x, y)`, `corners[2]` (bottom-right) `(x + W, y + H)`.
struct ExpectedLayer: Sendable {
  var id: String
  var x: Double
  var y: Double = 0
  var opacity: Double = 1
  var order: Int
  var blend: BlendMode = .over
}

/// Shared harness for the preset tests of this folder (system, fade-slide, cross-dissolve,
/// slide-over and the CATransition presets).
enum PresetsAHarness {
  /// The default container, 390 × 844 points.
  static let width = 390.0
  static let height = 844.0

  /// The preset's scene in its default context for `operation`.
  static func scene(
    _ preset: TransitionPreset, _ operation: TransitionOperation,
    parameters: PresetParameters = PresetParameters()
  ) throws -> TransitionScene {
    let animator = PresetAnimator(preset, parameters: parameters)
    let context = try animator.defaultContext(operation: operation, content: .bare)
    #expect(context.containerSize == Size(width: width, height: height))
    return try animator.animateTransition(using: context)
  }

  /// Checks the whole sample against `expected`: the same id set, and every layer's frame origin
  /// (from the matrix and from the corners), size (unscaled), opacity, order and blend mode.
  static func check(
    _ sample: TransitionSample, _ expected: [ExpectedLayer], tolerance: Double = 1e-9,
    _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let ids = sample.layers.map(\.id)
    #expect(
      Set(ids) == Set(expected.map(\.id)) && ids.count == expected.count,
      "ids \(ids) \(comment)", sourceLocation: sourceLocation)
    for e in expected {
      guard let layer = sample[e.id] else {
        Issue.record("missing \(e.id) \(comment)", sourceLocation: sourceLocation)
        continue
      }
      let note = "\(e.id) \(comment)"
      #expect(
        abs(layer.matrix.m41 - e.x) <= tolerance, "m41 \(note)", sourceLocation: sourceLocation)
      #expect(
        abs(layer.matrix.m42 - e.y) <= tolerance, "m42 \(note)", sourceLocation: sourceLocation)
      #expect(layer.corners.count == 4, "corners \(note)", sourceLocation: sourceLocation)
      if layer.corners.count == 4 {
        let tl = layer.corners[0]
        let br = layer.corners[2]
        #expect(!tl.isBehindEye && !br.isBehindEye, sourceLocation: sourceLocation)
        #expect(abs(tl.point.x - e.x) <= tolerance, "x \(note)", sourceLocation: sourceLocation)
        #expect(abs(tl.point.y - e.y) <= tolerance, "y \(note)", sourceLocation: sourceLocation)
        #expect(
          abs(br.point.x - (e.x + width)) <= tolerance, "BR x \(note)",
          sourceLocation: sourceLocation)
        #expect(
          abs(br.point.y - (e.y + height)) <= tolerance, "BR y \(note)",
          sourceLocation: sourceLocation)
      }
      #expect(
        abs(layer.opacity - e.opacity) <= tolerance, "opacity \(layer.opacity) \(note)",
        sourceLocation: sourceLocation)
      #expect(layer.order == e.order, "order \(note)", sourceLocation: sourceLocation)
      #expect(layer.blend == e.blend, "blend \(note)", sourceLocation: sourceLocation)
    }
  }

  /// Samples `scene` at `t` (running) and checks time, progress, completion and the layers.
  static func checkRunning(
    _ scene: TransitionScene, at t: Double, _ expected: [ExpectedLayer],
    tolerance: Double = 1e-9, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let sample = try scene.sample(at: t)
    #expect(!sample.isCompleted, "t = \(t)", sourceLocation: sourceLocation)
    #expect(!sample.isCancelled, sourceLocation: sourceLocation)
    #expect(sample.time == t, sourceLocation: sourceLocation)
    #expect(
      abs(sample.progress - t / scene.duration) <= 1e-15, "progress at \(t)",
      sourceLocation: sourceLocation)
    check(sample, expected, tolerance: tolerance, "at t = \(t)", sourceLocation: sourceLocation)
  }

  /// At `t = duration` and later the transition is complete and finished: only `toID` remains,
  /// at its final frame `(0, 0)`, opacity 1, drawn first, blending "over".
  static func checkCompleted(
    _ scene: TransitionScene, toID: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for t in [scene.duration, scene.duration + 0.001, 3 * scene.duration] {
      let sample = try scene.sample(at: t)
      #expect(sample.isCompleted, "t = \(t)", sourceLocation: sourceLocation)
      #expect(!sample.isCancelled, sourceLocation: sourceLocation)
      #expect(sample.progress == 1, sourceLocation: sourceLocation)
      check(
        sample, [ExpectedLayer(id: toID, x: 0, order: 0)], "completed at \(t)",
        sourceLocation: sourceLocation)
    }
  }

  /// A cancelled transition keeps only `fromID`, in its progress-0 state: frame `(0, 0, W, H)`,
  /// opacity 1, the only layer drawn; whatever time is asked for.
  static func checkCancelled(
    _ scene: TransitionScene, fromID: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for t in [0, 0.5 * scene.duration, scene.duration, 2 * scene.duration] {
      let tree = scene.presentation(at: t, completion: .cancelled)
      #expect(tree.layers.map(\.id) == [fromID], "t = \(t)", sourceLocation: sourceLocation)
      let geometry = tree.evaluate()
      guard geometry.count == 1, let g = geometry.first else {
        Issue.record("expected one layer, got \(geometry.count)", sourceLocation: sourceLocation)
        continue
      }
      #expect(abs(g.matrix.m41) <= 1e-12, sourceLocation: sourceLocation)
      #expect(abs(g.matrix.m42) <= 1e-12, sourceLocation: sourceLocation)
      #expect(g.corners[0].point == Point(x: 0, y: 0), sourceLocation: sourceLocation)
      #expect(g.corners[2].point == Point(x: width, y: height), sourceLocation: sourceLocation)
      #expect(g.opacity == 1, sourceLocation: sourceLocation)
      #expect(g.drawIndex == 0, sourceLocation: sourceLocation)
    }
  }
}
