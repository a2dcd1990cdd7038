import Segue
import SegueSpec

// The last line of defence against overflow: every number `sample` writes and every matrix
// `render` draws is checked before anything is written. Inputs are range-checked first (a
// container side is at most 2^24 points, the preset lengths likewise, a spec's numbers finite),
// but finite inputs can still overflow when they are combined: a layer's transform composed with
// its ancestors', a corner after the homogeneous divide (which can multiply by 10^6), an animated
// value at some time. A non-finite result is reported as bad data (65) naming the input behind
// it: the spec file's JSON path of the layer (`--spec: $.layers[3] ('card'): …`), or the preset
// options that set the scene's geometry.

extension LoadedTransition {
  /// Throws unless every number of `sample` (taken at `time`, sample `index`) is finite; when
  /// `scale` is given (render), also each layer's matrix scaled to pixels.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/dataError`` naming the input (see above).
  func checkFinite(_ sample: TransitionSample, index: Int, scale: Double? = nil) throws(CLIError) {
    let time = "at \(decimal(sample.time)) s (sample \(index))"
    guard sample.progress.isFinite, sample.time.isFinite else {
      throw CLIError(.dataError, timesSource, "\(time): the progress is not finite")
    }
    var culprit: (layer: Int, kind: Overflow)?
    var depths: [Int]?
    for (i, layer) in sample.layers.enumerated() {
      var kind: Overflow?
      if !layer.opacity.isFinite {
        kind = .opacity
      } else if layer.matrix.fields.contains(where: { !$0.isFinite }) {
        kind = .matrix
      } else if layer.corners.contains(where: { !$0.point.x.isFinite || !$0.point.y.isFinite }) {
        kind = .corners
      } else if let scale, layer.matrix.fields.contains(where: { !($0 * scale).isFinite }) {
        kind = .scaled(scale)
      } else if layer.nonFiniteAppearance != nil {
        kind = .appearance
      }
      guard let kind else { continue }
      // Report the layer closest to the root: its descendants inherit the overflow.
      guard let current = culprit else {
        culprit = (i, kind)
        continue
      }
      let depth = depths ?? modelDepths()
      depths = depth
      if self.depth(of: layer.id, depth) < self.depth(of: sample.layers[current.layer].id, depth) {
        culprit = (i, kind)
      }
    }
    guard let culprit else { return }
    let id = sample.layers[culprit.layer].id
    let animated = hasAnimations(id) ? " (as its animations present them at this time)" : ""
    let cause: String
    switch culprit.kind {
    case .opacity:
      cause = "its opacity is not finite\(animated)"
    case .matrix:
      if localMatrixIsFinite(id, at: sample) == true {
        cause =
          "its matrix to the container is not finite: its own matrix is finite, but composed "
          + "with its ancestors' (their transforms and sublayer transforms) it overflows"
      } else {
        cause =
          "its matrix to the container is not finite: its own position, bounds, anchor point "
          + "or transform overflow\(animated)"
      }
    case .corners:
      cause =
        "its projected corners are not finite: its bounds mapped through its matrix, or the "
        + "homogeneous divide by w (a perspective that brings a corner close to the eye), "
        + "overflow\(animated)"
    case .scaled(let scale):
      cause = "its matrix scaled to pixels (× \(decimal(scale))) is not finite"
    case .appearance:
      cause =
        "its corner radius, border, shadow or colours are not finite\(animated)"
    }
    throw CLIError(.dataError, sourceArgument, "\(describe(layer: id)): \(time) \(cause)")
  }

  /// What is not finite in a layer sample.
  private enum Overflow {
    case opacity, matrix, corners, appearance
    case scaled(Double)
  }

  /// The argument to blame for the scene's geometry: `--spec`, else the first numeric preset
  /// option given (`--container`, `--hero-…`), else `--preset`.
  var sourceArgument: String {
    if spec != nil { return "--spec" }
    return geometryOptions.first ?? "--preset"
  }

  /// The argument the times came from, for a non-finite progress.
  var timesSource: String { spec != nil ? "--spec" : "--preset" }

  /// `$.layers[K] ('id')` for a spec, `layer 'id'` for a preset.
  func describe(layer id: String) -> String {
    if let k = specLayerIndex[id] { return "$.layers[\(k)] ('\(id)')" }
    return "layer '\(id)'"
  }

  /// The depth of every layer of the model tree (0 for a root), in one pass: a parent's index is
  /// below its children's.
  private func modelDepths() -> [Int] {
    let model = scene.model
    var depths = [Int](repeating: 0, count: model.count)
    for index in 0..<model.count {
      if let parent = (try? model.parentIndex(at: index)) ?? nil {
        depths[index] = depths[parent] + 1
      }
    }
    return depths
  }

  /// The depth of layer `id` in the model tree from `depths` (large when unknown).
  private func depth(of id: String, _ depths: [Int]) -> Int {
    scene.model.index(of: id).map { depths[$0] } ?? Int.max
  }

  /// Whether the presented layer's own matrix in its superlayer is finite, or `nil` when the layer
  /// is not in the presentation.
  private func localMatrixIsFinite(_ id: String, at sample: TransitionSample) -> Bool? {
    let tree: LayerTree
    if sample.isCompleted {
      tree = scene.presentation(at: 0, completion: sample.isCancelled ? .cancelled : .finished)
    } else {
      tree = scene.presentation(at: sample.progress * scene.duration)
    }
    guard let index = tree.index(of: id) else { return nil }
    let layer = tree.layers[index]
    let values =
      layer.matrixInSuperlayer.fields + [
        layer.bounds.minX, layer.bounds.minY, layer.bounds.width, layer.bounds.height,
      ]
    return values.allSatisfy(\.isFinite)
  }

  /// Whether any animation targets layer `id`.
  private func hasAnimations(_ id: String) -> Bool {
    scene.animations.entries.contains { $0.layerID == id }
  }
}
