/// The geometry and opacity of one layer of a ``LayerTree``, in container space.
public struct LayerGeometry: Hashable, Sendable {
  /// The layer's id.
  public var id: String
  /// The index of the layer's parent in ``LayerTree/layers``, `nil` for a direct child of the
  /// container.
  public var parent: Int?
  /// ``LayerTree/localMatrix(at:)``: layer space to parent space.
  public var localMatrix: Transform3D
  /// ``LayerTree/matrixToContainer(at:)``: layer space to container space.
  public var matrix: Transform3D
  /// ``LayerTree/effectiveOpacity(at:)``, in `[0, 1]`.
  public var opacity: Double
  /// ``LayerTree/corners(at:)``: the bounds corners TL, TR, BR, BL in container space.
  public var corners: [ProjectedPoint]
  /// The position of the layer's first step in ``LayerTree/drawOrder()`` (0 is drawn first, at
  /// the bottom).
  public var drawIndex: Int
  /// Every step at which the layer is drawn, when depth sorting cut it or a layer it is
  /// flattened into (<doc:DepthOrder>); empty for a layer drawn once, whole, at ``drawIndex``.
  public var pieces: [LayerPiece] = []

  /// Creates a geometry record from its parts.
  public init(
    id: String, parent: Int?, localMatrix: Transform3D, matrix: Transform3D, opacity: Double,
    corners: [ProjectedPoint], drawIndex: Int, pieces: [LayerPiece] = []
  ) {
    self.id = id
    self.parent = parent
    self.localMatrix = localMatrix
    self.matrix = matrix
    self.opacity = opacity
    self.corners = corners
    self.drawIndex = drawIndex
    self.pieces = pieces
  }
}

/// A layer hierarchy stored flat: an array of layers in insertion order, each with the index of its
/// parent (`nil` = a direct child of the container, in container space). Ids are unique.
///
/// Invariant: a parent's index is always smaller than its children's, so one forward pass over
/// ``layers`` visits every parent before its sublayers. Every stored layer has passed
/// ``Layer/validate()``, so all geometry is finite.
///
/// Geometry (`CALayer`'s, as <doc:TransitionCatalog> states it; row vectors):
///
///     local(L)     = T(−A) · transform · T(position.x, position.y, zPosition) · C_parent
///     C_parent     = T(−P) · parent.sublayerTransform · T(P)      (identity for top-level layers)
///     toContainer(L) = local(L)                                   (top-level)
///                    = local(L) · F_parent · toContainer(parent)   (deeper)
///
/// with `A` the layer's ``Layer/anchor``, `P` the parent's anchor (including its `bounds.origin`
/// and `anchorPointZ`; GNUstep omits the bounds origin, the two agree when it is zero) and
/// `F = diag(1, 1, 0, 1)` for an ordinary parent (it flattens its sublayers into its plane, z
/// dropped, w kept) or the identity for a transform layer. A top-level layer's `C_parent` is the
/// container layer's (``container``, the identity unless a transition sets
/// `containerView.layer.sublayerTransform`). The container applies no `F`, so container-space
/// results keep z.
public struct LayerTree: Equatable, Sendable {
  @usableFromInline var storage: [Layer] = []
  @usableFromInline var parents: [Int?] = []
  @usableFromInline var indexByID: [String: Int] = [:]
  /// The container's own layer (`containerView.layer`): its `sublayerTransform`, about its
  /// centre, applies to every top-level layer (``ContainerLayer``). Set with ``setContainer(_:)``.
  public internal(set) var container = ContainerLayer()
  /// The resizable snapshots with cap insets, by root id: setting a root's bounds re-lays out
  /// its parts (``NinePartSnapshot``).
  var ninePartSnapshots: [String: NinePartSnapshot] = [:]

  /// An empty tree.
  public init() {}

  /// Replaces the container layer.
  ///
  /// - Throws: the container's ``ContainerLayer/validate()`` error; the tree is unchanged.
  public mutating func setContainer(_ container: ContainerLayer) throws(ValidationError) {
    try container.validate()
    self.container = container
  }

  /// The layers in insertion order (indices used by every `at:` method).
  public var layers: [Layer] { storage }

  /// The number of layers.
  public var count: Int { storage.count }

  /// The index of the layer named `id` in ``layers``, or `nil`.
  public func index(of id: String) -> Int? { indexByID[id] }

  /// The layer named `id`, or `nil`.
  public subscript(id id: String) -> Layer? {
    indexByID[id].map { storage[$0] }
  }

  /// The index of the parent of the layer at `index` (`nil` for a top-level layer).
  public func parentIndex(at index: Int) throws(ValidationError) -> Int? {
    try check(index)
    return parents[index]
  }

  /// The indices of the direct sublayers of the layer named `id` (of the container when `id` is
  /// `nil`), in insertion order.
  public func children(of id: String?) throws(ValidationError) -> [Int] {
    let parent = try resolveParent(id)
    return storage.indices.filter { parents[$0] == parent }
  }

  // MARK: - Editing

  /// Appends `layer` as the last sublayer of the layer named `parent` (of the container when
  /// `nil`), like `addSublayer`.
  ///
  /// - Throws: the layer's ``Layer/validate()`` error; `field "id"` with `.duplicate(id)` when the
  ///   id is taken; `field "parent"` with `.unknown(parent)` when no layer has that id.
  public mutating func add(_ layer: Layer, parent id: String? = nil) throws(ValidationError) {
    try layer.validate()
    guard indexByID[layer.id] == nil else {
      throw ValidationError(field: "id", reason: .duplicate(layer.id))
    }
    let parent = try resolveParent(id)
    indexByID[layer.id] = storage.count
    storage.append(layer)
    parents.append(parent)
  }

  /// Replaces the stored layer that has `layer.id` with `layer` (same place in the tree).
  ///
  /// - Throws: the layer's ``Layer/validate()`` error; `field "id"` with `.unknown(id)`.
  public mutating func update(_ layer: Layer) throws(ValidationError) {
    try layer.validate()
    guard let index = indexByID[layer.id] else {
      throw ValidationError(field: "id", reason: .unknown(layer.id))
    }
    storage[index] = layer
  }

  /// Writes `value` into `property` of the layer at `index` (``LayerProperty/set(_:in:)``) when
  /// the result passes ``Layer/validate()``; the tree is unchanged when it throws.
  ///
  /// - Throws: the errors of ``LayerProperty/set(_:in:)`` and of ``Layer/validate()``.
  mutating func set(_ property: LayerProperty, to value: AnimationValue, at index: Int)
    throws(ValidationError)
  {
    var layer = storage[index]
    try property.set(value, in: &layer)
    try layer.validate()
    storage[index] = layer
  }

  /// Removes the layer named `id` and all its descendants (`removeFromSuperlayer`); the remaining
  /// layers keep their insertion order (their indices shift down).
  ///
  /// - Returns: the removed layers in insertion order.
  /// - Throws: `field "id"` with `.unknown(id)`.
  @discardableResult
  public mutating func remove(id: String) throws(ValidationError) -> [Layer] {
    guard let root = indexByID[id] else {
      throw ValidationError(field: "id", reason: .unknown(id))
    }
    let removed = subtreeMask(root)
    let removedLayers = storage.indices.filter { removed[$0] }.map { storage[$0] }
    rebuild(order: storage.indices.filter { !removed[$0] }, overridingParentOf: nil)
    if !ninePartSnapshots.isEmpty {
      ninePartSnapshots = ninePartSnapshots.filter { indexByID[$0.key] != nil }
    }
    return removedLayers
  }

  /// Moves the layer named `id` (with its subtree) to be the last sublayer of `parent` (of the
  /// container when `nil`), like `addSublayer` on a layer that already has a superlayer. The moved
  /// subtree goes to the end of ``layers``, keeping its internal order.
  ///
  /// - Throws: `field "id"` with `.unknown(id)`; `field "parent"` with `.unknown(parent)`, or with
  ///   `.cyclic` when `parent` is the layer itself or one of its descendants.
  public mutating func move(_ id: String, toParent parent: String?) throws(ValidationError) {
    guard let index = indexByID[id] else {
      throw ValidationError(field: "id", reason: .unknown(id))
    }
    let newParent = try resolveParent(parent)
    let moving = subtreeMask(index)
    if let newParent, moving[newParent] {
      throw ValidationError(field: "parent", reason: .cyclic)
    }
    let order =
      storage.indices.filter { !moving[$0] } + storage.indices.filter { moving[$0] }
    rebuild(order: order, overridingParentOf: (index, newParent))
  }

  // MARK: - Geometry

  /// The matrix from the layer's space to its parent's (the container's for a top-level layer):
  /// `T(−A) · transform · T(position.x, position.y, zPosition) · C_parent` (see the type's
  /// documentation); `C_parent` is the container's ``ContainerLayer/sublayerMatrix`` for a
  /// top-level layer.
  public func localMatrix(at index: Int) throws(ValidationError) -> Transform3D {
    try check(index)
    return local(index)
  }

  /// The matrix from the layer's space to container space:
  /// `local · F_parent · toContainer(parent)`, or `local` for a top-level layer.
  public func matrixToContainer(at index: Int) throws(ValidationError) -> Transform3D {
    try check(index)
    return try matrix(from: index, to: nil)
  }

  /// The matrix from the space of the layer at `index` to the space of its ancestor at `ancestor`
  /// (container space when `nil`): `local(L) · F(p₁) · local(p₁) · … · F(pₖ) · local(pₖ)` over the
  /// layers `p₁ … pₖ` strictly between them. The ancestor's own flattening of its sublayers is not
  /// applied (coordinates keep their z in its space); `from == to` gives the identity.
  ///
  /// - Throws: `field "index"`/`"ancestor"` with `.outOfRange` for a bad index; `field "ancestor"`
  ///   with `.invalidState` when it is not an ancestor of the layer (or the layer itself).
  public func matrix(from index: Int, to ancestor: Int?) throws(ValidationError) -> Transform3D {
    try check(index)
    if let ancestor { try check(ancestor, field: "ancestor") }
    var result = Transform3D.identity
    var current: Int? = index
    while let layer = current, layer != ancestor {
      result = result.concatenating(local(layer))
      let parent = parents[layer]
      if let parent, parent != ancestor, !storage[parent].isTransformLayer {
        result = result.flattened
      }
      current = parent
    }
    if current != ancestor {
      throw ValidationError(
        field: "ancestor", reason: .invalidState("is not an ancestor of layer \(index)"))
    }
    return result
  }

  /// The four corners of the layer's bounds, top-left, top-right, bottom-right, bottom-left
  /// (`(minX, minY)`, `(maxX, minY)`, `(maxX, maxY)`, `(minX, maxY)`, z = 0), mapped to container
  /// space with ``Transform3D/project(_:)`` (homogeneous divide; corners behind the eye are flagged
  /// and clamped, never NaN).
  public func corners(at index: Int) throws(ValidationError) -> [ProjectedPoint] {
    try corners(of: storage[check(index)], matrix: matrixToContainer(at: index))
  }

  /// The presented opacity: `clamp(opacity, 0, 1) × effectiveOpacity(parent)` (1 above the
  /// top-level layers), in `[0, 1]` (<doc:TransitionCatalog#Presented-opacity>).
  public func effectiveOpacity(at index: Int) throws(ValidationError) -> Double {
    try check(index)
    var result = 1.0
    var current: Int? = index
    while let layer = current {
      result *= clampedOpacity(storage[layer].opacity)
      current = parents[layer]
    }
    return result
  }

  /// The draw order, bottom first: one depth-first walk from the container, each layer before
  /// (below) its sublayers. The sublayers of a layer are composited in that layer's plane, those
  /// of a transform layer in its parent's (its 3D rendering context); within a context, siblings
  /// go by ascending `zPosition`, then insertion order (later on top), and where members leave
  /// the context's plane (tilted, or at depths that disagree with that order) by depth from the
  /// viewer, members that intersect cut into pieces. The rule, its sources and its cost are in
  /// <doc:DepthOrder>.
  ///
  /// One step per layer, in the order of the walk, unless depth sorting cut a layer: a cut layer
  /// is drawn once per piece, and so is every layer flattened into it, each step with the region
  /// of the layer's plane it draws (``DrawStep/region``).
  public func drawOrder() -> [DrawStep] {
    DrawOrderBuilder.drawOrder(layers: storage, parents: parents, local: local)
  }

  /// Every layer's geometry in one forward pass (parents before children), in ``layers`` order:
  /// local and container matrices, presented opacity, projected corners and draw position (and
  /// pieces). Equal to calling the `at:` methods for each index.
  public func evaluate() -> [LayerGeometry] { evaluate(placing: true) }

  /// ``evaluate()``; with `placing` false only the matrices and opacities (no corners, every
  /// ``LayerGeometry/drawIndex`` −1), which is what velocities read.
  func evaluate(placing: Bool) -> [LayerGeometry] {
    var result: [LayerGeometry] = []
    result.reserveCapacity(storage.count)
    for i in storage.indices {
      let localMatrix = local(i)
      let matrix: Transform3D
      let opacity: Double
      if let parent = parents[i] {
        let up = storage[parent].isTransformLayer ? localMatrix : localMatrix.flattened
        matrix = up.concatenating(result[parent].matrix)
        opacity = clampedOpacity(storage[i].opacity) * result[parent].opacity
      } else {
        matrix = localMatrix
        opacity = clampedOpacity(storage[i].opacity)
      }
      result.append(
        LayerGeometry(
          id: storage[i].id, parent: parents[i], localMatrix: localMatrix, matrix: matrix,
          opacity: opacity, corners: placing ? corners(of: storage[i], matrix: matrix) : [],
          drawIndex: -1))
    }
    guard placing else { return result }
    let steps = DrawOrderBuilder.drawOrder(layers: storage, parents: parents) {
      result[$0].localMatrix
    }
    var pieced = false
    for (position, step) in steps.enumerated() {
      if result[step.layer].drawIndex < 0 {
        result[step.layer].drawIndex = position
        pieced = pieced || !step.region.isWholePlane
      } else {
        pieced = true
      }
    }
    if pieced { addPieces(steps, to: &result) }
    return result
  }

  /// Fills ``LayerGeometry/pieces`` of every layer drawn in more than one step or cut.
  private func addPieces(_ steps: [DrawStep], to result: inout [LayerGeometry]) {
    var pieces = [[LayerPiece]](repeating: [], count: storage.count)
    for (position, step) in steps.enumerated() {
      pieces[step.layer].append(
        LayerPiece(
          order: position, region: step.region,
          polygon: step.region.polygon(clipping: storage[step.layer].bounds)))
    }
    for i in storage.indices
    where pieces[i].count > 1 || pieces[i].contains(where: { !$0.region.isWholePlane }) {
      result[i].pieces = pieces[i]
    }
  }

  // MARK: - Private helpers

  func local(_ index: Int) -> Transform3D {
    let own = storage[index].matrixInSuperlayer
    guard let parent = parents[index] else {
      let c = container.sublayerMatrix
      return c.isIdentity ? own : own.concatenating(c)
    }
    let c = storage[parent].sublayerMatrix
    return c.isIdentity ? own : own.concatenating(c)
  }

  private func corners(of layer: Layer, matrix: Transform3D) -> [ProjectedPoint] {
    Quad(layer.bounds).points.map { matrix.project(Vector3(x: $0.x, y: $0.y, z: 0)) }
  }

  private func clampedOpacity(_ value: Double) -> Double { Swift.min(Swift.max(value, 0), 1) }

  @discardableResult
  private func check(_ index: Int, field: String = "index") throws(ValidationError) -> Int {
    guard storage.indices.contains(index) else {
      throw ValidationError(
        field: field, reason: .outOfRange(lower: 0, upper: Double(storage.count - 1)))
    }
    return index
  }

  private func resolveParent(_ id: String?) throws(ValidationError) -> Int? {
    guard let id else { return nil }
    guard let index = indexByID[id] else {
      throw ValidationError(field: "parent", reason: .unknown(id))
    }
    return index
  }

  /// `mask[i]` is true for `root` and its descendants (parents precede children, so one pass).
  private func subtreeMask(_ root: Int) -> [Bool] {
    var mask = [Bool](repeating: false, count: storage.count)
    mask[root] = true
    for i in (root + 1)..<Swift.max(root + 1, storage.count) {
      if let parent = parents[i], mask[parent] { mask[i] = true }
    }
    return mask
  }

  /// Keeps the layers at `order` (old indices) in that order and remaps parents; `override`
  /// sets one layer's new parent (an old index or nil).
  private mutating func rebuild(order: [Int], overridingParentOf override: (Int, Int?)?) {
    var newIndex = [Int?](repeating: nil, count: storage.count)
    for (new, old) in order.enumerated() { newIndex[old] = new }
    var newStorage: [Layer] = []
    var newParents: [Int?] = []
    newStorage.reserveCapacity(order.count)
    newParents.reserveCapacity(order.count)
    for old in order {
      var parent = parents[old]
      if let override, override.0 == old { parent = override.1 }
      newStorage.append(storage[old])
      newParents.append(parent.flatMap { newIndex[$0] })
    }
    storage = newStorage
    parents = newParents
    indexByID = [:]
    for (i, layer) in storage.enumerated() { indexByID[layer.id] = i }
  }
}

extension Transform3D {
  /// `self · diag(1, 1, 0, 1)`: the third column (`m13, m23, m33, m43`) set to 0, dropping z
  /// while keeping x, y and w (a CALayer flattening its sublayers into its plane).
  @usableFromInline
  var flattened: Transform3D {
    var t = self
    t.m13 = 0
    t.m23 = 0
    t.m33 = 0
    t.m43 = 0
    return t
  }
}
