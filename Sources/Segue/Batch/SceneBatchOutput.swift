/// One frame of a ``SceneBatch``, read per instance and per layer: the safe way to use
/// ``SceneEvaluationJob`` without pointers or hand-computed offsets.
///
/// The caller owns the output and reuses it frame after frame:
/// ``SceneBatch/evaluate(at:context:into:threads:)`` fills it, allocating only when the batch has
/// more layers than the output has room for (the first frame, or after instances were added), so
/// a steady run allocates nothing per frame. Reading allocates nothing either: ``subscript(instance:)``
/// gives an ``Instance`` whose ``Instance/layers`` lists the layers present in the container at
/// the frame's time, in the scene's ``LayerTree/layers`` order, as ``TransitionScene/sample(at:)``
/// lists them (a layer removed by an event or the completion is absent, not transparent).
///
/// ```swift
/// var frame = SceneBatchOutput()
/// try batch.evaluate(at: 0.25, context: context, into: &frame)
/// for layer in frame[instance: 0]!.layers {
///   draw(layer.id, layer.matrix, layer.opacity)
/// }
/// ```
///
/// Values are the job's `Float` results widened to `Double`, within the tolerance
/// ``SceneEvaluationJob`` documents of the `Double` sample. The output describes the batch as
/// it was when it was filled: instance ids and layers stay readable after the batch changes, until
/// the next fill.
public struct SceneBatchOutput: Sendable {
  /// The frame time on the batch clock, in seconds (`nil` before the first fill).
  public internal(set) var time: Double?
  /// Whether the fill computes the projected corners (``Layer/corners``).
  public let includesCorners: Bool
  /// Whether the fill computes each layer's velocity (``Layer/velocity``).
  public let includesVelocities: Bool
  /// The layout of the batch as filled (it names the rows): copied into the output's own
  /// storage at each fill, not shared, so the batch can be changed in place after a fill without
  /// copying itself (``SceneBatch/apply(_:to:)-(AnimatorEvent,_)`` stays allocation-free).
  var templates: [SceneTemplate] = []
  var records: [(group: Int, slot: Int)] = []
  var groupRows: [Int] = []
  /// `16·N` matrix fields, `N` opacities, `16·N` corner values (when requested), `N` presence flags.
  var matrices: [Float] = []
  var opacities: [Float] = []
  var corners: [Float] = []
  var presence: [Float] = []
  /// `16·N` matrix velocities and `N` opacity velocities (when requested), in `Double`.
  var matrixVelocities: [Double] = []
  var opacityVelocities: [Double] = []

  /// An empty output; the first ``SceneBatch/evaluate(at:context:into:threads:)`` sizes it.
  ///
  /// - Parameters:
  ///   - includesCorners: whether to compute each layer's projected bounds corners
  ///     (``Layer/corners``; 16 more floats per layer and frame).
  ///   - includesVelocities: whether to compute each layer's velocity (``Layer/velocity``,
  ///     ``SceneBatch/velocity(of:at:)`` of every instance: the `Double` path, which allocates).
  public init(includesCorners: Bool = false, includesVelocities: Bool = false) {
    self.includesCorners = includesCorners
    self.includesVelocities = includesVelocities
  }

  /// An output with room for `batch` (so the first fill allocates nothing either, unless it
  /// includes velocities).
  public init(
    for batch: SceneBatch, includesCorners: Bool = false, includesVelocities: Bool = false
  ) {
    self.includesCorners = includesCorners
    self.includesVelocities = includesVelocities
    reserve(layerCount: batch.layerCount)
  }

  /// Makes room for `n` layers; allocates only when the output is smaller.
  mutating func reserve(layerCount n: Int) {
    guard presence.count < n else { return }
    matrices = [Float](repeating: 0, count: LaneMatrix.fieldCount * n)
    opacities = [Float](repeating: 0, count: n)
    corners = [Float](repeating: 0, count: includesCorners ? LaneCorners.floatCount * n : 0)
    presence = [Float](repeating: 0, count: n)
    let velocities = includesVelocities ? n : 0
    matrixVelocities = [Double](repeating: 0, count: LaneMatrix.fieldCount * velocities)
    opacityVelocities = [Double](repeating: 0, count: velocities)
  }

  /// The instance ids of the batch as filled, ascending.
  public var instanceIDs: [Int] { records.indices.filter { records[$0].group >= 0 } }

  /// Instance `id` of the batch as filled, or `nil` when it has no such instance (or the output
  /// was never filled).
  public subscript(instance id: Int) -> Instance? {
    guard time != nil, id >= 0, id < records.count else { return nil }
    let (g, slot) = records[id]
    guard g >= 0 else { return nil }
    let template = templates[g]
    return Instance(
      id: id,
      layers: Layers(
        output: self, model: template.scene.model,
        firstRow: groupRows[g] + slot * template.layerCount))
  }

  /// One instance of the frame.
  public struct Instance: Sendable {
    /// The instance id (``SceneBatch/add(_:clock:)``).
    public let id: Int
    /// The layers present in the container at the frame's time, in the scene's layer order.
    public let layers: Layers

    /// The present layer `layerID`, or `nil` when the scene has no such layer or it is not in the
    /// container at the frame's time.
    public subscript(layerID: String) -> Layer? {
      guard let i = layers.model.index(of: layerID), layers.isPresent(i) else { return nil }
      return layers[i]
    }
  }

  /// The present layers of one instance (a collection indexed by the layer's position in the
  /// scene's ``LayerTree/layers``; absent layers are skipped).
  public struct Layers: Collection, Sendable {
    let output: SceneBatchOutput
    let model: LayerTree
    let firstRow: Int

    func isPresent(_ i: Int) -> Bool { output.presence[firstRow + i] != 0 }

    /// The position of the first present layer.
    public var startIndex: Int {
      var i = 0
      while i < model.count && !isPresent(i) { i += 1 }
      return i
    }

    /// The scene's layer count.
    public var endIndex: Int { model.count }

    /// The next present layer after `i`.
    public func index(after i: Int) -> Int {
      var j = i + 1
      while j < model.count && !isPresent(j) { j += 1 }
      return j
    }

    /// The velocity of `row`, or `nil` when the output has none.
    func velocity(row: Int, id: String) -> LayerVelocity? {
      guard output.includesVelocities else { return nil }
      let matrix = Self.matrix(output.matrixVelocities, row: row)
      return LayerVelocity(id: id, matrix: matrix, opacity: output.opacityVelocities[row])
    }

    /// The 16 fields of `row` in `fields` (matrix rows, 16 values each), as a matrix.
    static func matrix<F: BinaryFloatingPoint>(_ fields: [F], row: Int) -> Transform3D {
      let m = LaneMatrix.fieldCount * row
      func d(_ k: Int) -> Double { Double(fields[m + k]) }
      return Transform3D(
        m11: d(0), m12: d(1), m13: d(2), m14: d(3), m21: d(4), m22: d(5), m23: d(6), m24: d(7),
        m31: d(8), m32: d(9), m33: d(10), m34: d(11), m41: d(12), m42: d(13), m43: d(14),
        m44: d(15))
    }

    /// The layer at position `i` of the scene's layers.
    public subscript(i: Int) -> Layer {
      let row = firstRow + i
      let matrix = Self.matrix(output.matrices, row: row)
      var corners: Corners?
      if output.includesCorners {
        let c = output.corners
        func corner(_ k: Int) -> ProjectedPoint {
          let base = LaneCorners.floatCount * row + LaneCorners.valuesPerCorner * k
          let w = Double(c[base + 3])
          return ProjectedPoint(
            point: Point(x: Double(c[base]), y: Double(c[base + 1])), z: Double(c[base + 2]),
            w: w, isBehindEye: !(w > Transform3D.minimumW))
        }
        corners = Corners(
          topLeft: corner(0), topRight: corner(1), bottomRight: corner(2), bottomLeft: corner(3))
      }
      return Layer(
        id: model.layers[i].id, matrix: matrix, opacity: Double(output.opacities[row]),
        corners: corners, velocity: velocity(row: row, id: model.layers[i].id))
    }
  }

  /// One present layer of an instance, in container space (the batch's counterpart of
  /// ``LayerSample``).
  public struct Layer: Hashable, Sendable {
    /// The layer's id.
    public var id: String
    /// The matrix from the layer's coordinates to the container, as ``LayerSample/matrix``.
    public var matrix: Transform3D
    /// The presented opacity in `[0, 1]`, as ``LayerSample/opacity``.
    public var opacity: Double
    /// The projected bounds corners, as ``LayerSample/corners``; `nil` unless the output was made
    /// with `includesCorners`.
    public var corners: Corners?
    /// The layer's velocity, as ``SceneBatch/velocity(of:at:)`` gives it; `nil` unless the output
    /// was made with `includesVelocities`.
    public var velocity: LayerVelocity?
  }

  /// The four projected bounds corners of a layer (top-left, top-right, bottom-right,
  /// bottom-left), a fixed-size collection so reading them allocates nothing.
  public struct Corners: RandomAccessCollection, Hashable, Sendable {
    /// The top-left corner.
    public var topLeft: ProjectedPoint
    /// The top-right corner.
    public var topRight: ProjectedPoint
    /// The bottom-right corner.
    public var bottomRight: ProjectedPoint
    /// The bottom-left corner.
    public var bottomLeft: ProjectedPoint

    /// 0.
    public var startIndex: Int { 0 }
    /// 4.
    public var endIndex: Int { 4 }

    /// Corner `i` in the order top-left, top-right, bottom-right, bottom-left.
    public subscript(i: Int) -> ProjectedPoint {
      switch i {
      case 0: topLeft
      case 1: topRight
      case 2: bottomRight
      default: bottomLeft
      }
    }
  }
}

extension SceneBatch {
  /// Evaluates the batch at `time` (seconds on the batch clock) into `output`, with the scratch
  /// of `context` on `threads` threads (see ``SceneEvaluationJob/run(threads:chunkSize:)``).
  ///
  /// Allocates only when `output` has less room than ``layerCount`` (its first fill, or after
  /// instances were added); otherwise nothing, unless the output includes velocities: those are
  /// ``velocity(of:at:)`` of every instance, on the `Double` path, after the job.
  ///
  /// - Throws: what ``SceneEvaluationJob/validate()`` and
  ///   ``SceneEvaluationJob/run(threads:chunkSize:)`` throw (`"times"` names a non-finite
  ///   `time`); with velocities, what ``velocity(of:at:)`` throws. The output is not readable
  ///   after an error (its ``SceneBatchOutput/time`` is `nil`).
  public func evaluate(
    at time: Double, context: SceneBatchContext, into output: inout SceneBatchOutput,
    threads: Int = 1
  ) throws(ValidationError) {
    output.reserve(layerCount: layerCount)
    output.time = nil
    output.templates.removeAll(keepingCapacity: true)
    output.templates.append(contentsOf: templates)
    output.records.removeAll(keepingCapacity: true)
    output.records.append(contentsOf: records)
    output.groupRows.removeAll(keepingCapacity: true)
    output.groupRows.append(contentsOf: groupRows)
    let includesCorners = output.includesCorners
    try withUnsafePointer(to: time) { (t: UnsafePointer<Double>) throws(ValidationError) in
      try output.matrices.withUnsafeMutableBufferPointer {
        (m: inout UnsafeMutableBufferPointer<Float>) throws(ValidationError) in
        try output.opacities.withUnsafeMutableBufferPointer {
          (o: inout UnsafeMutableBufferPointer<Float>) throws(ValidationError) in
          try output.corners.withUnsafeMutableBufferPointer {
            (c: inout UnsafeMutableBufferPointer<Float>) throws(ValidationError) in
            try output.presence.withUnsafeMutableBufferPointer {
              (p: inout UnsafeMutableBufferPointer<Float>) throws(ValidationError) in
              let job = SceneEvaluationJob(
                batch: self, context: context, times: UnsafeBufferPointer(start: t, count: 1),
                matrices: m, opacities: o, corners: includesCorners ? c : nil, presence: p)
              if threads == 1 { try job.run() } else { try job.run(threads: threads) }
            }
          }
        }
      }
    }
    if output.includesVelocities {
      try writeVelocities(
        at: time, matrices: &output.matrixVelocities, opacities: &output.opacityVelocities)
    }
    output.time = time
  }
}
