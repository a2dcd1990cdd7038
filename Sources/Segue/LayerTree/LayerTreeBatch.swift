/// The hierarchy of a layer tree compiled once for ``LayerTreeEvaluationJob``: the layers in
/// **level order** (every top-level layer, then every layer at depth 1, …), so that one level can be
/// evaluated sixteen layers at a time after all of its parents are done.
///
/// Positions: the job's buffers hold layer ``order``[`q`] in column `q` (the level position);
/// ``positions`` maps back. Within a level, layers are grouped by parent (parents in level order,
/// siblings in input order), which keeps the parents' gathered columns close together.
public struct LayerTreeBatch: Hashable, Sendable {
  /// The number of layers.
  public let count: Int
  /// `order[q]`: the input index (``LayerTree/layers`` index) of the layer at level position `q`.
  public let order: [Int]
  /// `positions[i]`: the level position of input layer `i` (the inverse of ``order``).
  public let positions: [Int]
  /// The parent of the layer at each level position, as a level position; `−1` for a top-level
  /// layer.
  public let parents: [Int32]
  /// Level `L` holds positions `levelStarts[L] ..< levelStarts[L + 1]`; the first entry is 0 and the
  /// last is ``count`` (`[0]` for an empty tree).
  public let levelStarts: [Int32]
  /// Per level position: 0 when the parent flattens its sublayers into its plane (an ordinary
  /// parent, `F = diag(1, 1, 0, 1)`), 1 when there is no parent or the parent is a transform layer.
  public let keepsDepth: [Float]

  /// The number of levels (the tree's depth; 0 for an empty tree).
  public var levelCount: Int { levelStarts.count - 1 }

  /// Compiles a hierarchy given as a parent list in any order.
  ///
  /// - Parameters:
  ///   - parents: `parents[i]` is the input index of layer `i`'s parent, `nil` for a top-level
  ///     layer.
  ///   - isTransformLayer: Per layer, whether it is a `CATransformLayer` (does not flatten its
  ///     sublayers).
  /// - Throws: ``ValidationError``: `"isTransformLayer"`
  ///   ``ValidationError/Reason/countMismatch(expected:actual:)`` when the counts differ;
  ///   `"parents"` with the layer index: ``ValidationError/Reason/outOfRange(lower:upper:)`` for an
  ///   index outside `0..<count`, ``ValidationError/Reason/cyclic`` for the first layer (lowest
  ///   index) that is not reached from a top-level layer (it is on a cycle, its own parent, or below
  ///   one).
  public init(parents: [Int?], isTransformLayer: [Bool]) throws(ValidationError) {
    let n = parents.count
    guard isTransformLayer.count == n else {
      throw ValidationError(
        field: "isTransformLayer",
        reason: .countMismatch(expected: n, actual: isTransformLayer.count))
    }
    for (i, p) in parents.enumerated() {
      if let p, p < 0 || p >= n {
        throw ValidationError(
          field: "parents", index: i, reason: .outOfRange(lower: 0, upper: Double(n - 1)))
      }
    }
    self.init(unchecked: parents, isTransformLayer: isTransformLayer)
    if order.count < n {
      var reached = [Bool](repeating: false, count: n)
      for i in order { reached[i] = true }
      let first = reached.firstIndex(of: false)!
      throw ValidationError(field: "parents", index: first, reason: .cyclic)
    }
  }

  /// Compiles the hierarchy of `tree` (always valid: a ``LayerTree`` has no cycles).
  public init(_ tree: LayerTree) {
    let parents = (0..<tree.count).map { (try? tree.parentIndex(at: $0)) ?? nil }
    self.init(unchecked: parents, isTransformLayer: tree.layers.map(\.isTransformLayer))
  }

  /// Breadth-first level order from the top-level layers; layers not reached (cycles) are left out
  /// of ``order`` (the throwing initialiser reports them).
  private init(unchecked parents: [Int?], isTransformLayer: [Bool]) {
    let n = parents.count
    var children = [[Int]](repeating: [], count: n)
    var level: [Int] = []
    for (i, p) in parents.enumerated() {
      if let p { children[p].append(i) } else { level.append(i) }
    }
    var order: [Int] = []
    order.reserveCapacity(n)
    var starts: [Int32] = [0]
    while !level.isEmpty {
      order.append(contentsOf: level)
      starts.append(Int32(order.count))
      level = level.flatMap { children[$0] }
    }
    var positions = [Int](repeating: -1, count: n)
    for (q, i) in order.enumerated() { positions[i] = q }
    self.count = n
    self.order = order
    self.positions = positions
    self.levelStarts = starts
    self.parents = order.map { i in parents[i].map { Int32(positions[$0]) } ?? -1 }
    self.keepsDepth = order.map { i in
      guard let p = parents[i] else { return 1 }
      return isTransformLayer[p] ? 1 : 0
    }
  }

  /// The property planes (``LayerPlanes``) of `tree`'s layers in level order, `stride == count`:
  /// the model values, ready for ``evaluate(properties:)`` (or to be overwritten with animated values
  /// first).
  ///
  /// - Throws: ``ValidationError`` `"tree"` ``ValidationError/Reason/countMismatch(expected:actual:)``
  ///   when `tree` has a different number of layers; `"layers"` (with the input index) when a value
  ///   does not fit in `Float`.
  public func properties(of tree: LayerTree) throws(ValidationError) -> [Float] {
    guard tree.count == count else {
      throw ValidationError(
        field: "tree", reason: .countMismatch(expected: count, actual: tree.count))
    }
    var buffer = [Float](repeating: 0, count: LayerPlanes.count * count)
    for (i, layer) in tree.layers.enumerated() {
      let q = positions[i]
      for (p, v) in try LayerPlanes.values(of: layer, index: i).enumerated() {
        buffer[p * count + q] = v
      }
    }
    return buffer
  }

  /// Runs ``LayerTreeEvaluationJob`` on `properties` (``LayerPlanes``, level order,
  /// `stride == count`) into newly allocated outputs.
  ///
  /// - Throws: the job's ``LayerTreeEvaluationJob/validate()`` errors.
  public func evaluate(properties: [Float]) throws(ValidationError) -> LayerTreeBatchResult {
    var local = [Float](repeating: 0, count: 16 * count)
    var matrix = [Float](repeating: 0, count: 16 * count)
    var opacity = [Float](repeating: 0, count: count)
    var corners = [Float](repeating: 0, count: 16 * count)
    var failure: ValidationError?
    parents.withUnsafeBufferPointer { parents in
      levelStarts.withUnsafeBufferPointer { starts in
        keepsDepth.withUnsafeBufferPointer { keeps in
          properties.withUnsafeBufferPointer { props in
            local.withUnsafeMutableBufferPointer { local in
              matrix.withUnsafeMutableBufferPointer { matrix in
                opacity.withUnsafeMutableBufferPointer { opacity in
                  corners.withUnsafeMutableBufferPointer { corners in
                    do throws(ValidationError) {
                      try LayerTreeEvaluationJob(
                        parents: parents, levelStarts: starts, keepsDepth: keeps,
                        properties: props, local: local, matrix: matrix, opacity: opacity,
                        corners: corners
                      ).run()
                    } catch { failure = error }
                  }
                }
              }
            }
          }
        }
      }
    }
    if let failure { throw failure }
    return LayerTreeBatchResult(
      positions: positions, local: local, matrix: matrix, opacity: opacity, corners: corners)
  }
}

/// The outputs of ``LayerTreeBatch/evaluate(properties:)``: planar `Float` buffers in level order
/// (`stride == count`), with accessors by input index.
public struct LayerTreeBatchResult: Hashable, Sendable {
  /// Input index → level position (``LayerTreeBatch/positions``).
  public let positions: [Int]
  /// The local matrices (16 planes), ``LayerTree/localMatrix(at:)``.
  public var local: [Float]
  /// The matrices to container space (16 planes), ``LayerTree/matrixToContainer(at:)``.
  public var matrix: [Float]
  /// The presented opacities (1 plane), ``LayerTree/effectiveOpacity(at:)``.
  public var opacity: [Float]
  /// The projected bounds corners (16 planes, see ``LayerTreeEvaluationJob/corners``).
  public var corners: [Float]

  /// Creates a result from its parts.
  public init(positions: [Int], local: [Float], matrix: [Float], opacity: [Float], corners: [Float])
  {
    self.positions = positions
    self.local = local
    self.matrix = matrix
    self.opacity = opacity
    self.corners = corners
  }

  private func position(_ index: Int) throws(ValidationError) -> Int {
    guard index >= 0, index < positions.count else {
      throw ValidationError(
        field: "index", reason: .outOfRange(lower: 0, upper: Double(positions.count - 1)))
    }
    return positions[index]
  }

  /// The local matrix of input layer `index`, widened to `Double`.
  ///
  /// - Throws: `"index"` ``ValidationError/Reason/outOfRange(lower:upper:)``.
  public func localMatrix(ofLayer index: Int) throws(ValidationError) -> Transform3D {
    planarTransform(local, stride: positions.count, index: try position(index))
  }

  /// The matrix to container space of input layer `index`, widened to `Double`.
  ///
  /// - Throws: `"index"` ``ValidationError/Reason/outOfRange(lower:upper:)``.
  public func matrix(ofLayer index: Int) throws(ValidationError) -> Transform3D {
    planarTransform(matrix, stride: positions.count, index: try position(index))
  }

  /// The presented opacity of input layer `index`, in `[0, 1]`.
  ///
  /// - Throws: `"index"` ``ValidationError/Reason/outOfRange(lower:upper:)``.
  public func opacity(ofLayer index: Int) throws(ValidationError) -> Double {
    Double(opacity[try position(index)])
  }

  /// The four projected corners (TL, TR, BR, BL) of input layer `index`, as
  /// ``LayerTree/corners(at:)`` reports them; `isBehindEye` is `!(w > Float(minimumW))`.
  ///
  /// - Throws: `"index"` ``ValidationError/Reason/outOfRange(lower:upper:)``.
  public func corners(ofLayer index: Int) throws(ValidationError) -> [ProjectedPoint] {
    let q = try position(index)
    let n = positions.count
    return (0..<4).map { c in
      let v = (0..<4).map { corners[(4 * c + $0) * n + q] }
      return ProjectedPoint(
        point: Point(x: Double(v[0]), y: Double(v[1])), z: Double(v[2]), w: Double(v[3]),
        isBehindEye: !(v[3] > Float(Transform3D.minimumW)))
    }
  }
}

/// Parent concatenation, opacity down the tree and projected corners for every layer of a
/// compiled tree (``LayerTreeBatch``), level by level in `SIMD16<Float>` lanes, in the style of
/// ozz-animation's local-to-model job: the job owns nothing and allocates nothing.
///
/// Per layer at level position `q` with parent `p` (``LayerTree``'s rule):
///
///     own(q)     = T(−A) · transform · T(position.x, position.y, zPosition)
///                  (LayerMatrixEvaluationJob)
///     local(q)   = own(q) · C(p),   C(p) = T(−A_p) · sublayerTransform_p · T(A_p)
///     matrix(q)  = local(q) · F · matrix(p),   F = diag(1, 1, keepsDepth(q)·1, 1) on column 3
///     opacity(q) = clamp(opacity, 0, 1) · opacity(p)
///
/// and for a top-level layer `local = matrix = own`, `opacity = clamp(opacity, 0, 1)`. Level 0 is
/// evaluated first; each later level gathers its parents' matrices, opacities and sublayer terms
/// (lane by lane: scalar loads, the parents are not contiguous) from the outputs already written,
/// then runs the products sixteen layers at a time (a block whose layers share one parent loads
/// each parent value once and broadcasts it); a level's final partial block is padded.
///
/// Corners: the bounds corners TL `(minX, minY)`, TR `(maxX, minY)`, BR `(maxX, maxY)`, BL
/// `(minX, maxY)` at z = 0 through `matrix` with the homogeneous divide as
/// ``Transform3D/project(_:)``: `(X, Y, Z, w) = [x y 0 1] · matrix`, divided by `w` when
/// `w > minimumW` (`1e-6`), else by `minimumW` (behind the eye: clamped, finite).
///
/// Accuracy (`Float`, checked by the tests against ``LayerTree/evaluate()``): matrices agree
/// within `1e-5·(1 + max |mᵢⱼ|)` per field (measured: about `2e-6·(1 + max |mᵢⱼ|)`) on trees up
/// to six levels deep with random 3D transforms and perspective sublayer transforms; opacities
/// within `1e-6`. Projected corners inherit the matrix error divided by `w`, so they are accurate
/// only for corners well in front of the eye.
public struct LayerTreeEvaluationJob: @unchecked Sendable {
  /// The parent of each level position (``LayerTreeBatch/parents``), `−1` for top-level layers. Its
  /// count is the number of layers.
  public var parents: UnsafeBufferPointer<Int32>
  /// The level boundaries (``LayerTreeBatch/levelStarts``).
  public var levelStarts: UnsafeBufferPointer<Int32>
  /// Per layer 0 (the parent flattens) or 1 (``LayerTreeBatch/keepsDepth``).
  public var keepsDepth: UnsafeBufferPointer<Float>
  /// The property planes (``LayerPlanes``) in level order.
  public var properties: UnsafeBufferPointer<Float>
  /// Output: the local matrices, 16 planes.
  public var local: UnsafeMutableBufferPointer<Float>
  /// Output: the matrices to container space, 16 planes.
  public var matrix: UnsafeMutableBufferPointer<Float>
  /// Output: the presented opacities, 1 plane.
  public var opacity: UnsafeMutableBufferPointer<Float>
  /// Output: the projected corners, 16 planes: corner `c` (0 TL, 1 TR, 2 BR, 3 BL), value `v`
  /// (0 x, 1 y, 2 z after the divide, 3 the unclamped w) at plane `4c + v`.
  public var corners: UnsafeMutableBufferPointer<Float>
  /// The distance between planes in every planar buffer, `≥ parents.count`.
  public var stride: Int

  /// Creates a job; nothing is checked until ``validate()`` or ``run()``. `stride` defaults to the
  /// number of layers.
  public init(
    parents: UnsafeBufferPointer<Int32>, levelStarts: UnsafeBufferPointer<Int32>,
    keepsDepth: UnsafeBufferPointer<Float>, properties: UnsafeBufferPointer<Float>,
    local: UnsafeMutableBufferPointer<Float>, matrix: UnsafeMutableBufferPointer<Float>,
    opacity: UnsafeMutableBufferPointer<Float>, corners: UnsafeMutableBufferPointer<Float>,
    stride: Int? = nil
  ) {
    self.parents = parents
    self.levelStarts = levelStarts
    self.keepsDepth = keepsDepth
    self.properties = properties
    self.local = local
    self.matrix = matrix
    self.opacity = opacity
    self.corners = corners
    self.stride = stride ?? parents.count
  }

  /// Checks the job without running it (`O(count)`).
  ///
  /// - Throws: ``ValidationError``:
  ///   * `"keepsDepth"` ``ValidationError/Reason/countMismatch(expected:actual:)`` unless it has one
  ///     entry per layer;
  ///   * `"levelStarts"`: ``ValidationError/Reason/tooFew(minimum:actual:)`` when empty,
  ///     ``ValidationError/Reason/mustEqual(_:)`` (index 0) unless the first entry is 0,
  ///     ``ValidationError/Reason/decreasing`` (with the index) when an entry is below the one before,
  ///     ``ValidationError/Reason/mustEqual(_:)`` (last index) unless the last entry is the count;
  ///   * `"stride"` ``ValidationError/Reason/outOfRange(lower:upper:)`` when `stride < count`;
  ///   * `"properties"` (43 planes), `"local"`, `"matrix"`, `"corners"` (16 planes), `"opacity"`
  ///     (1 plane): ``ValidationError/Reason/tooFew(minimum:actual:)``;
  ///   * `"parents"` with the layer index: ``ValidationError/Reason/outOfRange(lower:upper:)`` for an
  ///     index outside `−1 ..< count`; ``ValidationError/Reason/invalidState(_:)`` for a parent that
  ///     is not in an earlier level (parent after child, its own parent, or a parent in a cycle —
  ///     level order rules cycles out), and for a layer after level 0 with no parent.
  public func validate() throws(ValidationError) {
    let n = parents.count
    try Validate.count(keepsDepth.count, equals: n, "keepsDepth")
    try validateLevelStarts(layerCount: n)
    let fields = LaneMatrix.fieldCount
    try Validate.countAndStride(count: n, stride: stride)
    try Validate.planar(
      properties.count, planes: LayerPlanes.count, stride: stride, count: n, "properties")
    try Validate.planar(local.count, planes: fields, stride: stride, count: n, "local")
    try Validate.planar(matrix.count, planes: fields, stride: stride, count: n, "matrix")
    try Validate.planar(opacity.count, planes: 1, stride: stride, count: n, "opacity")
    try Validate.planar(corners.count, planes: fields, stride: stride, count: n, "corners")
    try validateParents()
  }

  /// The `"levelStarts"` rejections of ``validate()``: empty, not starting at 0, decreasing, not
  /// ending at `layerCount`.
  func validateLevelStarts(layerCount n: Int) throws(ValidationError) {
    guard let first = levelStarts.first, let last = levelStarts.last else {
      throw ValidationError(field: "levelStarts", reason: .tooFew(minimum: 1, actual: 0))
    }
    guard first == 0 else {
      throw ValidationError(field: "levelStarts", index: 0, reason: .mustEqual(0))
    }
    for i in levelStarts.indices.dropFirst() where levelStarts[i] < levelStarts[i - 1] {
      throw ValidationError(field: "levelStarts", index: i, reason: .decreasing)
    }
    guard Int(last) == n else {
      throw ValidationError(
        field: "levelStarts", index: levelStarts.count - 1, reason: .mustEqual(Double(n)))
    }
  }

  /// The `"parents"` rejections of ``validate()``, level by level (``levelStarts`` valid).
  func validateParents() throws(ValidationError) {
    let n = parents.count
    for level in 0..<(levelStarts.count - 1) {
      let start = Int(levelStarts[level])
      for i in start..<Int(levelStarts[level + 1]) {
        let p = Int(parents[i])
        guard p >= -1, p < n else {
          throw ValidationError(
            field: "parents", index: i, reason: .outOfRange(lower: -1, upper: Double(n - 1)))
        }
        if level == 0 && p != -1 {
          throw ValidationError(
            field: "parents", index: i,
            reason: .invalidState("parent after child: level 0 holds top-level layers only"))
        }
        if level > 0 && p == -1 {
          throw ValidationError(
            field: "parents", index: i,
            reason: .invalidState("a layer after level 0 needs a parent in an earlier level"))
        }
        if level > 0 && p >= start {
          throw ValidationError(
            field: "parents", index: i,
            reason: .invalidState("parent after child: parent \(p) is not in an earlier level"))
        }
      }
    }
  }

  /// Validates, then evaluates every layer. Allocates nothing.
  public func run() throws(ValidationError) {
    try validate()
    guard parents.count > 0 else { return }
    let lanes = Lanes.scalarCount
    for level in 0..<(levelStarts.count - 1) {
      let end = Int(levelStarts[level + 1])
      var j = Int(levelStarts[level])
      while j < end {
        let valid = Swift.min(lanes, end - j)
        if valid == lanes {
          runBlock(first: j, lanes: lanes, topLevel: level == 0)
        } else {
          runBlock(first: j, lanes: valid, topLevel: level == 0)
        }
        j += valid
      }
    }
  }

  /// One block of `lanes` layers of one level starting at position `first`.
  @inline(always)
  private func runBlock(first j: Int, lanes: Int, topLevel: Bool) {
    typealias P = LayerPlanes
    let block = PlanarLanes(first: j, lanes: lanes, stride: stride)
    let props = properties.baseAddress!
    let own = laneLayerMatrix(.inSuperlayer) { block.load(props, $0) }
    var alpha = SIMDMath.clamp(block.load(props, P.opacity), 0, 1)
    let localMatrix: LaneMatrix
    let world: LaneMatrix
    if topLevel {
      localMatrix = own
      world = own
    } else {
      let parent = ParentLanes(parents, first: j, lanes: lanes, stride: stride)
      let sublayer = laneLayerMatrix(.sublayer) { parent.gather(props, $0) }
      localMatrix = own.concatenating(sublayer)
      let done = UnsafePointer(matrix.baseAddress!)
      world = localMatrix.flatteningDepth(keepsDepth: block.load(keepsDepth.baseAddress!, 0))
        .concatenating(LaneMatrix { parent.gather(done, $0) })
      alpha *= parent.gather(UnsafePointer(opacity.baseAddress!), 0)
    }
    for k in 0..<LaneMatrix.fieldCount {
      block.store(localMatrix.field(k), local.baseAddress!, k)
      block.store(world.field(k), matrix.baseAddress!, k)
    }
    block.store(alpha, opacity.baseAddress!, 0)
    let c = LaneCorners(
      world: world, minX: block.load(props, P.boundsMinX), minY: block.load(props, P.boundsMinY),
      width: block.load(props, P.boundsWidth), height: block.load(props, P.boundsHeight))
    let out = corners.baseAddress!
    block.store(c.values.0, out, 0)
    block.store(c.values.1, out, 1)
    block.store(c.values.2, out, 2)
    block.store(c.values.3, out, 3)
    block.store(c.values.4, out, 4)
    block.store(c.values.5, out, 5)
    block.store(c.values.6, out, 6)
    block.store(c.values.7, out, 7)
    block.store(c.values.8, out, 8)
    block.store(c.values.9, out, 9)
    block.store(c.values.10, out, 10)
    block.store(c.values.11, out, 11)
    block.store(c.values.12, out, 12)
    block.store(c.values.13, out, 13)
    block.store(c.values.14, out, 14)
    block.store(c.values.15, out, 15)
  }
}

/// `lanes` layers from layer `first` of planar buffers whose planes are `stride` apart: whole
/// vectors when the block is full, else only its lanes (the others load 0).
struct PlanarLanes {
  let first: Int
  let lanes: Int
  let stride: Int

  @inline(always)
  func load(_ base: UnsafePointer<Float>, _ plane: Int) -> Lanes {
    let p = base + plane * stride + first
    return lanes == Lanes.scalarCount
      ? UnsafeRawPointer(p).loadUnaligned(as: Lanes.self) : laneLoad(p, lanes: lanes)
  }

  @inline(always)
  func store(_ v: Lanes, _ base: UnsafeMutablePointer<Float>, _ plane: Int) {
    let p = base + plane * stride + first
    if lanes == Lanes.scalarCount {
      UnsafeMutableRawPointer(p).storeBytes(of: v, as: Lanes.self)
    } else {
      laneStore(v, p, lanes: lanes)
    }
  }
}

/// The parents of a block of layers, for gathering their columns. Padding lanes repeat the first
/// lane's parent (always in range). When the whole block shares one parent (siblings are
/// contiguous in level order), a gather is a single load and a broadcast.
struct ParentLanes {
  let index: SIMD16<Int32>
  let shared: Bool
  let stride: Int

  @inline(always)
  init(_ parents: UnsafeBufferPointer<Int32>, first j: Int, lanes: Int, stride: Int) {
    let firstParent = parents[j]
    var index = SIMD16<Int32>(repeating: firstParent)
    var shared = true
    for l in 0..<lanes {
      index[l] = parents[j + l]
      shared = shared && index[l] == firstParent
    }
    self.index = index
    self.shared = shared
    self.stride = stride
  }

  /// Plane `plane` of every lane's parent.
  @inline(always)
  func gather(_ base: UnsafePointer<Float>, _ plane: Int) -> Lanes {
    let p = base + plane * stride
    if shared { return Lanes(repeating: p[Int(index[0])]) }
    var v = Lanes()
    for l in 0..<Lanes.scalarCount { v[l] = p[Int(index[l])] }
    return v
  }
}

extension LaneMatrix {
  /// `self · F` with `F = diag(1, 1, keepsDepth, 1)`: column 3 scaled by `keepsDepth` (0 where the
  /// parent flattens its sublayers into its plane, 1 where it keeps depth), the step between a
  /// layer's local matrix and its parent's matrix to the container.
  @inline(always)
  func flatteningDepth(keepsDepth keep: Lanes) -> LaneMatrix {
    var up = self
    up.m13 *= keep
    up.m23 *= keep
    up.m33 *= keep
    up.m43 *= keep
    return up
  }
}

/// The projected bounds corners of sixteen layers (``LayerTreeEvaluationJob/corners``): corner
/// `c` (TL `(minX, minY)`, TR `(maxX, minY)`, BR `(maxX, maxY)`, BL `(minX, maxY)`) at z = 0
/// through `world` with the homogeneous divide of ``Transform3D/project(_:)`` (by `w` when
/// `w > minimumW`, else by `minimumW`); value `4c + v` is x, y, z after the divide and the
/// unclamped w.
struct LaneCorners {
  /// The floats of one layer's corners: four corners (TL, TR, BR, BL) of four values (x, y, z,
  /// w).
  static var floatCount: Int { 4 * valuesPerCorner }
  /// The values of one corner: x, y, z after the divide, w.
  static var valuesPerCorner: Int { 4 }

  var values:
    (
      Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes,
      Lanes, Lanes, Lanes
    )

  @inline(always)
  init(world: LaneMatrix, minX x0: Lanes, minY y0: Lanes, width: Lanes, height: Lanes) {
    let x1 = x0 + width
    let y1 = y0 + height
    let minimumW = Lanes(repeating: Float(Transform3D.minimumW))
    @inline(always) func corner(_ x: Lanes, _ y: Lanes) -> (Lanes, Lanes, Lanes, Lanes) {
      let cx = x * world.m11 + y * world.m21 + world.m41
      let cy = x * world.m12 + y * world.m22 + world.m42
      let cz = x * world.m13 + y * world.m23 + world.m43
      let cw = x * world.m14 + y * world.m24 + world.m44
      let divisor = SIMDMath.select(.!(cw .> minimumW), minimumW, cw)
      return (cx / divisor, cy / divisor, cz / divisor, cw)
    }
    let a = corner(x0, y0)
    let b = corner(x1, y0)
    let c = corner(x1, y1)
    let d = corner(x0, y1)
    values = (a.0, a.1, a.2, a.3, b.0, b.1, b.2, b.3, c.0, c.1, c.2, c.3, d.0, d.1, d.2, d.3)
  }
}
