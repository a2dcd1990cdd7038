/// The limits that keep depth sorting linear-ish on any input (<doc:DepthOrder>).
public enum DepthSortLimits {
  /// The most vertex-against-plane tests one 3D rendering context may spend building its
  /// partition, `2²²`; a context that needs more is ordered by the fallback (no cuts, members by
  /// the mean depth of their polygons).
  public static let contextWork = 1 << 22
  /// The most such tests one draw order may spend in all, `2²⁴`.
  public static let totalWork = 1 << 24
  /// The most pieces (and members that show nothing) a context may have for its order to be
  /// refined to keep the input order wherever pieces do not overlap on screen, 256; a larger
  /// context keeps the partition's order as it is.
  public static let refinedPieces = 256
  /// The most draw steps a tree of `layerCount` layers may have, `4·layerCount + 65 536`: the
  /// cuts of a context that would take the draw order beyond it are not made (fallback order).
  public static func maximumSteps(layerCount: Int) -> Int { 4 * layerCount + (1 << 16) }
}

/// A member of a 3D rendering context at its place in the context's order: the layer, the part
/// of its plane drawn there (its own coordinates) and its matrix into the context's space.
struct ContextStep {
  var layer: Int
  var region: ConvexRegion
  var matrix: Transform3D
}

/// Computes ``LayerTree/drawOrder()``: each 3D rendering context ordered (by `zPosition` and
/// insertion, then by depth where its members leave the context's plane), the contexts walked
/// depth first, and the pieces of cut layers carried down to the layers flattened into them.
/// No recursion: any depth of tree is walked with explicit stacks.
struct DrawOrderBuilder {
  let layers: [Layer]
  let parents: [Int?]
  /// Each layer's matrix into its parent (``LayerTree/localMatrix(at:)``).
  let locals: [Transform3D]
  /// Sublayers of each layer, and at `layers.count` the container's, by (`zPosition`, index).
  private var children: [[Int]]
  /// The extent each layer draws into its plane (``extents()``), computed when first needed.
  private var extentCache: [Rect?]?
  /// Layers in each subtree, computed when first needed.
  private var subtreeCache: [Int]?
  /// How many times each context root is drawn, when more than once (a cut ancestor).
  private var multiplicity: [Int: Int] = [:]
  /// The orders of contexts drawn more than once.
  private var orderCache: [Int: [ContextStep]] = [:]
  /// The steps the draw order will have if nothing more is cut.
  private var plannedSteps: Int
  /// Vertex classifications spent so far.
  private var work = 0

  init(layers: [Layer], parents: [Int?], children: [[Int]], locals: [Transform3D]) {
    self.layers = layers
    self.parents = parents
    self.locals = locals
    self.children = children
    plannedSteps = layers.count
  }

  /// The draw order of the layers `layers` with parents `parents`, `local(i)` being layer `i`'s
  /// matrix into its parent: ``plainOrder(_:children:local:)`` when no context needs sorting (no
  /// allocation beyond the children lists and the result), else the full walk.
  static func drawOrder(layers: [Layer], parents: [Int?], local: (Int) -> Transform3D)
    -> [DrawStep]
  {
    var children = [[Int]](repeating: [], count: layers.count + 1)
    for i in layers.indices { children[parents[i] ?? layers.count].append(i) }
    for k in children.indices where children[k].count > 1 {
      children[k].sort { (layers[$0].zPosition, $0) < (layers[$1].zPosition, $1) }
    }
    if let plain = plainOrder(layers, children: children, local: local) { return plain }
    var builder = DrawOrderBuilder(
      layers: layers, parents: parents, children: children, locals: layers.indices.map(local))
    return builder.steps()
  }

  /// The draw order when every context keeps its input order — no transform layer has
  /// sublayers, and in every group of siblings each member is parallel to the parent's plane at
  /// a depth no smaller than the one before (``parallelOrder(_:)``'s test) — as the walk: each
  /// layer before its sublayers, siblings in `children` order. `nil` otherwise.
  static func plainOrder(_ layers: [Layer], children: [[Int]], local: (Int) -> Transform3D)
    -> [DrawStep]?
  {
    for i in layers.indices where layers[i].isTransformLayer && !children[i].isEmpty {
      return nil
    }
    for group in children where group.count > 1 {
      var previous = -Double.infinity
      for m in group {
        let g = local(m)
        guard g.m13 == 0 && g.m23 == 0 && g.m14 == 0 && g.m24 == 0 else { return nil }
        guard let depth = depth(g) else { continue }
        guard depth >= previous else { return nil }
        previous = depth
      }
    }
    var out: [DrawStep] = []
    out.reserveCapacity(layers.count)
    var stack: [Int] = children[layers.count].reversed()
    while let next = stack.popLast() {
      out.append(DrawStep(layer: next))
      stack.append(contentsOf: children[next].reversed())
    }
    return out
  }

  /// The draw order: one step per layer, more for layers drawn in pieces.
  mutating func steps() -> [DrawStep] {
    struct Frame {
      var sequence: [ContextStep]
      var next = 0
      /// The root's own region at this visit (its coordinates), applied to every member.
      var inherited: ConvexRegion
    }
    var out: [DrawStep] = []
    out.reserveCapacity(layers.count)
    var stack = [Frame(sequence: order(of: nil), inherited: .wholePlane)]
    while !stack.isEmpty {
      let top = stack.count - 1
      guard stack[top].next < stack[top].sequence.count else {
        stack.removeLast()
        continue
      }
      let member = stack[top].sequence[stack[top].next]
      stack[top].next += 1
      var region = member.region
      let inherited = stack[top].inherited.halfPlanes
      if !inherited.isEmpty {
        region.halfPlanes =
          inherited.map { $0.pulledBack(through: member.matrix) } + region.halfPlanes
      }
      out.append(DrawStep(layer: member.layer, region: region))
      let m = member.layer
      if !layers[m].isTransformLayer && !children[m].isEmpty {
        stack.append(Frame(sequence: order(of: m), inherited: region))
      }
    }
    return out
  }

  // MARK: - One context

  /// The order of the context of `root` (the container when `nil`), cached when it is drawn
  /// more than once.
  private mutating func order(of root: Int?) -> [ContextStep] {
    if let root, let cached = orderCache[root] { return cached }
    let count = root.flatMap { multiplicity[$0] } ?? 1
    let members = members(of: root)
    var sequence: [ContextStep]
    if members.count <= 1 {
      sequence = members
    } else if let parallel = Self.parallelOrder(members) {
      sequence = parallel
    } else {
      sequence = depthOrder(members, multiplicity: count)
    }
    if let root, count > 1 { orderCache[root] = sequence }
    if count > 1 || sequence.count > members.count {
      var pieces: [Int: Int] = [:]
      for step in sequence { pieces[step.layer, default: 0] += 1 }
      for (m, k) in pieces where count * k > 1 { multiplicity[m] = count * k }
    }
    return sequence
  }

  /// The members of the context of `root` in input order, with their matrices into its space:
  /// a depth-first walk of its sublayers by (`zPosition`, insertion) that goes on into the
  /// sublayers of transform layers (they keep their 3D positions in the context) but not into
  /// those of ordinary layers (flattened into their own planes).
  private func members(of root: Int?) -> [ContextStep] {
    var out: [ContextStep] = []
    var stack: [(layer: Int, up: Transform3D?)] = children[root ?? layers.count].reversed().map {
      ($0, nil)
    }
    while let (m, up) = stack.popLast() {
      let matrix = up.map { locals[m].concatenating($0) } ?? locals[m]
      out.append(ContextStep(layer: m, region: .wholePlane, matrix: matrix))
      if layers[m].isTransformLayer {
        for c in children[m].reversed() { stack.append((c, matrix)) }
      }
    }
    return out
  }

  /// The order when every member lies in a plane parallel to the context's (`m13 = m23 = m14 =
  /// m24 = 0` in its matrix: depth `m43/m44` everywhere on it): by depth, ties in input order, a
  /// member wholly behind the eye (`m44 ≤ minimumW`) keeping its place. `nil` when a member is
  /// tilted or under perspective in its plane.
  static func parallelOrder(_ members: [ContextStep]) -> [ContextStep]? {
    var sorted = true
    var previous = -Double.infinity
    for member in members {
      let g = member.matrix
      guard g.m13 == 0 && g.m23 == 0 && g.m14 == 0 && g.m24 == 0 else { return nil }
      guard let depth = depth(g) else { continue }
      if depth < previous { sorted = false }
      previous = depth
    }
    if sorted { return members }
    let slots = members.indices.filter { depth(members[$0].matrix) != nil }
    let byDepth = slots.sorted {
      (depth(members[$0].matrix)!, $0) < (depth(members[$1].matrix)!, $1)
    }
    var out = members
    for (slot, source) in zip(slots, byDepth) { out[slot] = members[source] }
    return out
  }

  /// The depth `m43/m44` of a member parallel to the context's plane, `nil` when it is behind
  /// the eye or the depth is not finite.
  static func depth(_ g: Transform3D) -> Double? {
    guard g.m44 > Transform3D.minimumW else { return nil }
    let d = g.m43 / g.m44
    return d.isFinite ? d : nil
  }

  // MARK: - Sorting by depth

  /// The order of a context whose members leave its plane: each member's extent as a polygon
  /// in the context's space, a ``DepthSortTree`` of them walked back to front, and the pieces of
  /// each member that follow one another merged back; members that show nothing first, in input
  /// order. Falls back to ``fallbackOrder(_:_:)`` beyond the work budgets or when the cuts
  /// would take the draw order beyond ``DepthSortLimits/maximumSteps(layerCount:)``.
  private mutating func depthOrder(_ members: [ContextStep], multiplicity count: Int)
    -> [ContextStep]
  {
    let extents = extents()
    var planes: [DepthPlane?] = []
    var polygons: [DepthPolygon] = []
    var scale = 1.0
    for (i, member) in members.enumerated() {
      let plane = DepthPlane(layerMatrix: member.matrix)
      planes.append(plane)
      guard plane != nil, let extent = extents[member.layer],
        let polygon = DepthPolygon(member: i, rect: extent, matrix: member.matrix)
      else { continue }
      for p in polygon.points { scale = Swift.max(scale, abs(p.x), abs(p.y), abs(p.z)) }
      polygons.append(polygon)
    }
    let hidden = Self.hidden(members.count, polygons)
    var tree = DepthSortTree(
      planes: planes, matrices: members.map(\.matrix), tolerance: 1e-9 * scale)
    let budget = Swift.min(DepthSortLimits.contextWork, DepthSortLimits.totalWork - work)
    let built = tree.build(polygons, budget: budget)
    work += tree.work
    guard built else { return fallbackOrder(members, polygons) }
    let shown = tree.backToFront()
    let all = hidden.map { DepthPolygon(member: $0, points: [], cuts: []) } + shown
    let pieces = Self.merged(
      all.count <= DepthSortLimits.refinedPieces
        ? DepthOrderRefinement.keepingInputOrder(all, tolerance: tree.tolerance) : all)
    // The steps the cuts add: each extra piece of a member repeats it and, for an ordinary
    // layer, everything flattened into it, every time the context is drawn.
    var piecesOf = [Int](repeating: 0, count: members.count)
    for piece in pieces { piecesOf[piece.member] += 1 }
    var extra = 0
    for (i, k) in piecesOf.enumerated() where k > 1 {
      let m = members[i].layer
      extra += (k - 1) * (layers[m].isTransformLayer ? 1 : subtreeSizes()[m])
    }
    guard plannedSteps + count * extra <= DepthSortLimits.maximumSteps(layerCount: layers.count)
    else { return fallbackOrder(members, polygons) }
    plannedSteps += count * extra
    return pieces.map { piece in
      var step = members[piece.member]
      step.region = ConvexRegion(halfPlanes: piece.cuts)
      return step
    }
  }

  /// The order without cuts: the members that show nothing first (input order), then the others
  /// by the mean depth of their polygons, ties in input order.
  private func fallbackOrder(_ members: [ContextStep], _ polygons: [DepthPolygon])
    -> [ContextStep]
  {
    let hidden = Self.hidden(members.count, polygons)
    let sorted = polygons.sorted { ($0.meanDepth, $0.member) < ($1.meanDepth, $1.member) }
    return hidden.map { members[$0] } + sorted.map { members[$0.member] }
  }

  /// The input positions `0..<count` that have no polygon, in order.
  static func hidden(_ count: Int, _ polygons: [DepthPolygon]) -> [Int] {
    var shown = [Bool](repeating: false, count: count)
    for polygon in polygons { shown[polygon.member] = true }
    return shown.indices.filter { !shown[$0] }
  }

  /// `pieces` with every run of consecutive pieces of one member that a single cut separated
  /// (the same earlier cuts, complementary last cuts) merged back into the piece they came from.
  static func merged(_ pieces: [DepthPolygon]) -> [DepthPolygon] {
    var out: [DepthPolygon] = []
    for piece in pieces {
      var current = piece
      while let last = out.last, last.member == current.member,
        let a = last.cuts.last, let b = current.cuts.last,
        last.cuts.count == current.cuts.count, a == b.complement,
        last.cuts.dropLast() == current.cuts.dropLast()
      {
        out.removeLast()
        current.cuts.removeLast()
      }
      out.append(current)
    }
    return out
  }

  // MARK: - Extents and subtree sizes

  /// For every layer, the rectangle of its own plane that it and everything flattened into it
  /// draw on (its bounds, and each member of its context mapped into its plane; only the bounds
  /// when it masks to them), `nil` when that is nothing. Shadows are not included. One pass from
  /// the last layer to the first: every sublayer comes after its parent.
  private mutating func extents() -> [Rect?] {
    if let extentCache { return extentCache }
    var matrix = locals
    var root = [Int?](repeating: nil, count: layers.count)
    for i in layers.indices {
      guard let p = parents[i] else { continue }
      if layers[p].isTransformLayer {
        matrix[i] = locals[i].concatenating(matrix[p])
        root[i] = root[p]
      } else {
        root[i] = p
      }
    }
    var boxes: [Rect?] = layers.map {
      $0.bounds.width > 0 && $0.bounds.height > 0 ? $0.bounds : nil
    }
    for i in layers.indices.reversed() {
      guard let box = boxes[i], let r = root[i], !layers[r].masksToBounds else { continue }
      let mapped = matrix[i].mapQuad(Quad(box))
      guard mapped.count >= 3, mapped.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
        continue
      }
      var all = mapped
      if let existing = boxes[r] { all += Quad(existing).points }
      boxes[r] = Rect(boundingBoxOf: all)
    }
    extentCache = boxes
    return boxes
  }

  /// The number of layers in each layer's subtree, itself included.
  private mutating func subtreeSizes() -> [Int] {
    if let subtreeCache { return subtreeCache }
    var sizes = [Int](repeating: 1, count: layers.count)
    for i in layers.indices.reversed() {
      if let p = parents[i] { sizes[p] += sizes[i] }
    }
    subtreeCache = sizes
    return sizes
  }
}
