import PropertyBased
import Testing

@testable import Segue

@Suite("LayerTreeBatch: level order, parent concatenation, opacity and corners")
struct LayerTreeBatchTests {
  typealias S = BatchTestSupport

  /// A random tree of `count` layers, at most `maxDepth` levels deep: each layer is top-level with
  /// probability 0.2, else a sublayer of a random earlier layer that is not yet at the deepest level.
  static func randomTree(_ r: inout S.Random, count: Int, maxDepth: Int = 6) throws -> LayerTree {
    var tree = LayerTree()
    var depth: [Int] = []
    for i in 0..<count {
      let candidates = depth.indices.filter { depth[$0] < maxDepth - 1 }
      var parent: Int?
      if !candidates.isEmpty && !r.chance(0.2) {
        // Prefer deep parents so that trees reach the depth limit.
        let pick = candidates[Int(r.uniform(0, Double(candidates.count)))]
        let deeper = candidates.last!
        parent = r.chance(0.5) ? deeper : pick
      }
      try tree.add(S.randomLayer(&r, id: "l\(i)"), parent: parent.map { "l\($0)" })
      depth.append(parent.map { depth[$0] + 1 } ?? 0)
    }
    return tree
  }

  /// The tolerance on matrix fields: `1e-5·(1 + max |mᵢⱼ|)·(1 + depth)` of the reference matrix.
  /// Each level of the tree is one more `Float` 4×4 product (and one flattening), each adding
  /// rounding of the order of `4·2⁻²⁴` relative to the product of the operands' magnitudes, so
  /// the bound grows linearly with the depth (a top-level layer gets `1e-5·(1 + max |mᵢⱼ|)`).
  /// The largest error seen on random trees without the depth factor was 1.03 of that bound, on
  /// a layer five levels deep.
  static func matrixTolerance(_ reference: Transform3D, depth: Int = 0) -> Double {
    1e-5 * (1 + reference.maxMagnitude) * Double(1 + depth)
  }

  /// Compares the batch evaluation of `tree` with ``LayerTree/evaluate()``: local and container
  /// matrices within ``matrixTolerance(_:depth:)``, opacity within 1e-6, corners' `w` within the matrix
  /// tolerance times `(1 + |x| + |y|)` of the corner, and — for corners clearly in front of the eye
  /// (`w > 0.05`) — the projected point and depth within `1e-4·(1 + |p|)/w`, the behind flag equal
  /// wherever `|w − minimumW|` exceeds the `w` tolerance. Returns the worst matrix error relative
  /// to the tolerance, for reporting.
  @discardableResult
  static func expectMatches(_ tree: LayerTree) throws -> Double {
    let batch = LayerTreeBatch(tree)
    let result = try batch.evaluate(properties: batch.properties(of: tree))
    var worst = 0.0
    let geometry = tree.evaluate()
    var depths = [Int](repeating: 0, count: geometry.count)
    for (i, g) in geometry.enumerated() {  // parents come before their sublayers
      if let p = g.parent { depths[i] = depths[p] + 1 }
    }
    for (i, g) in geometry.enumerated() {
      let local = try result.localMatrix(ofLayer: i)
      let matrix = try result.matrix(ofLayer: i)
      let localError = InterpolationTestSupport.maxDifference(local, g.localMatrix)
      let matrixError = InterpolationTestSupport.maxDifference(matrix, g.matrix)
      worst = max(
        worst, localError / matrixTolerance(g.localMatrix),
        matrixError / matrixTolerance(g.matrix, depth: depths[i]))
      #expect(localError <= matrixTolerance(g.localMatrix), "local \(i)")
      #expect(matrixError <= matrixTolerance(g.matrix, depth: depths[i]), "matrix \(i)")
      #expect(abs(try result.opacity(ofLayer: i) - g.opacity) <= 1e-6)
      let layer = tree.layers[i]
      let corners = try result.corners(ofLayer: i)
      for (c, (batchCorner, reference)) in zip(corners, g.corners).enumerated() {
        let q = Quad(layer.bounds).points[c]
        let wTolerance = matrixTolerance(g.matrix, depth: depths[i]) * (1 + abs(q.x) + abs(q.y))
        #expect(abs(batchCorner.w - reference.w) <= wTolerance)
        if abs(reference.w - Transform3D.minimumW) > wTolerance {
          #expect(batchCorner.isBehindEye == reference.isBehindEye)
        }
        if reference.w > 0.05 {
          let p = reference.point
          let tolerance = 1e-4 * (1 + abs(p.x) + abs(p.y) + abs(reference.z)) / reference.w
          #expect(abs(batchCorner.point.x - p.x) <= tolerance)
          #expect(abs(batchCorner.point.y - p.y) <= tolerance)
          #expect(abs(batchCorner.z - reference.z) <= tolerance)
        }
      }
    }
    return worst
  }

  /// Hand-worked level order: parents `[nil, 0, nil, 1, 0]` give level 0 = layers 0, 2; level 1 =
  /// the children of 0 (1, 4; layer 2 has none); level 2 = layer 3. Positions of layers 0…4 are
  /// 0, 2, 1, 4, 3; layer 3's parent (layer 1) sits at position 2. Layer 0 is a transform layer, so
  /// its sublayers keep depth.
  @Test func levelOrderHandWorked() throws {
    let batch = try LayerTreeBatch(
      parents: [nil, 0, nil, 1, 0], isTransformLayer: [true, false, false, false, false])
    #expect(batch.order == [0, 2, 1, 4, 3])
    #expect(batch.positions == [0, 2, 1, 4, 3])
    #expect(batch.levelStarts == [0, 2, 4, 5])
    #expect(batch.parents == [-1, -1, 0, 0, 2])
    #expect(batch.keepsDepth == [1, 1, 1, 1, 0])
    #expect(batch.levelCount == 3)
  }

  /// Hand-worked: parent at position `(100, 100)` with bounds `(0, 0, 200, 100)` (anchor `(100, 50)`),
  /// opacity 0.5; child bounds `(0, 0, 20, 20)` at position `(30, 40)`, opacity 1.5 (clamped to 1).
  /// Parent matrix `T(0, 50)`; child local `T(20, 30)`; child matrix `T(20, 80)` with `m33 = 0`
  /// (`T(20, 30) · F · T(0, 50)`); child opacity
  /// `1 · 0.5`; child corners `(20, 80)`, `(40, 80)`, `(40, 100)`, `(20, 100)`, all `w = 1`.
  @Test func handWorkedTwoLayers() throws {
    var tree = LayerTree()
    try tree.add(
      Layer(
        id: "p", bounds: Rect(x: 0, y: 0, width: 200, height: 100), position: Point(x: 100, y: 100),
        opacity: 0.5))
    try tree.add(
      Layer(
        id: "c", bounds: Rect(x: 0, y: 0, width: 20, height: 20), position: Point(x: 30, y: 40),
        opacity: 1.5), parent: "p")
    let batch = LayerTreeBatch(tree)
    let result = try batch.evaluate(properties: batch.properties(of: tree))
    #expect(try result.matrix(ofLayer: 0) == .makeTranslation(x: 0, y: 50, z: 0))
    #expect(try result.localMatrix(ofLayer: 1) == .makeTranslation(x: 20, y: 30, z: 0))
    var flatTranslation = Transform3D.makeTranslation(x: 20, y: 80, z: 0)
    flatTranslation.m33 = 0  // the ordinary parent flattens: F = diag(1, 1, 0, 1)
    #expect(try result.matrix(ofLayer: 1) == flatTranslation)
    #expect(try result.opacity(ofLayer: 1) == 0.5)
    let corners = try result.corners(ofLayer: 1)
    #expect(
      corners.map(\.point) == [
        Point(x: 20, y: 80), Point(x: 40, y: 80), Point(x: 40, y: 100), Point(x: 20, y: 100),
      ])
    #expect(corners.allSatisfy { $0.w == 1 && !$0.isBehindEye })
  }

  /// Random trees (1…70 layers, up to six levels, random 3D transforms, perspective sublayer
  /// transforms, transform layers) agree with ``LayerTree/evaluate()`` (property-based over seeds).
  @Test func randomTreesMatchEvaluate() async {
    await propertyCheck(count: 60, input: Gen.int(in: 0...1_000_000), Gen.int(in: 1...70)) {
      seed, n in
      var r = S.Random(seed: seed)
      guard let tree = try? Self.randomTree(&r, count: n) else {
        #expect(Bool(false))
        return
      }
      #expect((try? Self.expectMatches(tree)) != nil)
    }
  }

  /// A deep chain (six levels) of perspective layers, 40 siblings per level: blocks across levels
  /// with full blocks and tails.
  @Test func wideSixLevelTree() throws {
    var r = S.Random(seed: 99)
    var tree = LayerTree()
    for level in 0..<6 {
      for s in 0..<40 {
        let parent = level == 0 ? nil : "l\(level - 1)_\(s % 7)"
        try tree.add(S.randomLayer(&r, id: "l\(level)_\(s)"), parent: parent)
      }
    }
    #expect(LayerTreeBatch(tree).levelCount == 6)
    try Self.expectMatches(tree)
  }

  /// Wide fan-outs: one root with 40 sublayers and one of those with 37 (blocks whose lanes all
  /// share one parent take the kernel's broadcast path; the tails mix parents).
  @Test func sharedParentBlocks() throws {
    var r = S.Random(seed: 4)
    var tree = LayerTree()
    try tree.add(S.randomLayer(&r, id: "root"))
    for s in 0..<40 { try tree.add(S.randomLayer(&r, id: "a\(s)"), parent: "root") }
    for s in 0..<37 { try tree.add(S.randomLayer(&r, id: "b\(s)"), parent: "a3") }
    try tree.add(S.randomLayer(&r, id: "c"), parent: "a5")
    try Self.expectMatches(tree)
  }

  /// The default views of every preset and their presented trees while animating (push and pop, at
  /// several times), including the 3D presets' perspective and rotations.
  @Test(arguments: TransitionPreset.allCases)
  func presetTreesMatchEvaluate(preset: TransitionPreset) throws {
    let animator = PresetAnimator(preset)
    for operation in [TransitionOperation.push, .pop] {
      let views = try animator.defaultViews(
        operation: operation, containerSize: Size(width: 390, height: 844))
      try Self.expectMatches(views.from)
      try Self.expectMatches(views.to)
      let scene = try animator.animateTransition(
        using: animator.defaultContext(operation: operation))
      for fraction in [0.0, 0.25, 0.5, 0.8, 1.0] {
        try Self.expectMatches(scene.presentation(at: fraction * scene.duration))
      }
    }
  }

  @Test func emptyTreeEvaluates() throws {
    let batch = LayerTreeBatch(LayerTree())
    #expect(batch.levelStarts == [0])
    let result = try batch.evaluate(properties: [])
    #expect(result.matrix.isEmpty)
  }

  // MARK: Rejected hierarchies

  @Test func compileRejectsCountMismatch() {
    #expect(
      throws: ValidationError(
        field: "isTransformLayer", reason: .countMismatch(expected: 2, actual: 1))
    ) {
      try LayerTreeBatch(parents: [nil, 0], isTransformLayer: [false])
    }
  }

  @Test func compileRejectsParentOutOfRange() {
    #expect(
      throws: ValidationError(field: "parents", index: 1, reason: .outOfRange(lower: 0, upper: 1))
    ) {
      try LayerTreeBatch(parents: [nil, 2], isTransformLayer: [false, false])
    }
  }

  @Test func compileRejectsSelfParent() {
    #expect(throws: ValidationError(field: "parents", index: 1, reason: .cyclic)) {
      try LayerTreeBatch(parents: [nil, 1], isTransformLayer: [false, false])
    }
  }

  /// Layers 1 → 2 → 1 form a cycle; layer 3 hangs below it. The first unreached layer is 1.
  @Test func compileRejectsCycle() {
    #expect(throws: ValidationError(field: "parents", index: 1, reason: .cyclic)) {
      try LayerTreeBatch(parents: [nil, 2, 1, 2], isTransformLayer: [false, false, false, false])
    }
  }

  @Test func propertiesRejectOtherTree() throws {
    var other = LayerTree()
    try other.add(Layer(id: "x"))
    #expect(throws: ValidationError(field: "tree", reason: .countMismatch(expected: 0, actual: 1)))
    {
      try LayerTreeBatch(LayerTree()).properties(of: other)
    }
  }

  @Test func resultRejectsIndexOutOfRange() throws {
    var tree = LayerTree()
    try tree.add(Layer(id: "x"))
    let batch = LayerTreeBatch(tree)
    let result = try batch.evaluate(properties: batch.properties(of: tree))
    #expect(throws: ValidationError(field: "index", reason: .outOfRange(lower: 0, upper: 0))) {
      try result.matrix(ofLayer: 1)
    }
  }

  // MARK: Rejected jobs

  /// A valid job description for three layers (0 top-level, 1 and 2 its sublayers) that each test
  /// breaks in one way.
  struct JobSpec {
    var parents: [Int32] = [-1, 0, 0]
    var levelStarts: [Int32] = [0, 1, 3]
    var keepsDepth: [Float] = [1, 0, 0]
    var properties = 43 * 3
    var local = 48
    var matrix = 48
    var opacity = 3
    var corners = 48
    var stride = 3

    func error() -> ValidationError? {
      let props = [Float](repeating: 0, count: properties)
      var l = [Float](repeating: 0, count: local)
      var m = [Float](repeating: 0, count: matrix)
      var o = [Float](repeating: 0, count: opacity)
      var c = [Float](repeating: 0, count: corners)
      return parents.withUnsafeBufferPointer { parents in
        levelStarts.withUnsafeBufferPointer { starts in
          keepsDepth.withUnsafeBufferPointer { keeps in
            props.withUnsafeBufferPointer { props in
              l.withUnsafeMutableBufferPointer { l in
                m.withUnsafeMutableBufferPointer { m in
                  o.withUnsafeMutableBufferPointer { o in
                    c.withUnsafeMutableBufferPointer { c in
                      do throws(ValidationError) {
                        try LayerTreeEvaluationJob(
                          parents: parents, levelStarts: starts, keepsDepth: keeps,
                          properties: props, local: l, matrix: m, opacity: o, corners: c,
                          stride: stride
                        ).run()
                        return nil
                      } catch { return error }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  static func jobError(_ change: (inout JobSpec) -> Void) -> ValidationError? {
    var spec = JobSpec()
    change(&spec)
    return spec.error()
  }

  @Test func validJobRuns() {
    #expect(Self.jobError { _ in } == nil)
  }

  @Test func jobRejectsKeepsDepthCount() {
    #expect(
      Self.jobError { $0.keepsDepth = [1, 0] }
        == ValidationError(field: "keepsDepth", reason: .countMismatch(expected: 3, actual: 2)))
  }

  @Test func jobRejectsEmptyLevelStarts() {
    #expect(
      Self.jobError { $0.levelStarts = [] }
        == ValidationError(field: "levelStarts", reason: .tooFew(minimum: 1, actual: 0)))
  }

  @Test func jobRejectsLevelStartsNotFromZero() {
    #expect(
      Self.jobError { $0.levelStarts = [1, 1, 3] }
        == ValidationError(field: "levelStarts", index: 0, reason: .mustEqual(0)))
  }

  @Test func jobRejectsDecreasingLevelStarts() {
    #expect(
      Self.jobError { $0.levelStarts = [0, 2, 1, 3] }
        == ValidationError(field: "levelStarts", index: 2, reason: .decreasing))
  }

  @Test func jobRejectsLevelStartsNotEndingAtCount() {
    #expect(
      Self.jobError { $0.levelStarts = [0, 1, 2] }
        == ValidationError(field: "levelStarts", index: 2, reason: .mustEqual(3)))
  }

  @Test func jobRejectsStrideBelowCount() {
    #expect(
      Self.jobError { $0.stride = 2 }
        == ValidationError(field: "stride", reason: .outOfRange(lower: 3, upper: Double(Int.max))))
  }

  /// 43 planes of stride 3 for 3 layers: `42·3 + 3 = 129`.
  @Test func jobRejectsShortProperties() {
    #expect(
      Self.jobError { $0.properties = 128 }
        == ValidationError(field: "properties", reason: .tooFew(minimum: 129, actual: 128)))
  }

  @Test func jobRejectsShortLocal() {
    #expect(
      Self.jobError { $0.local = 47 }
        == ValidationError(field: "local", reason: .tooFew(minimum: 48, actual: 47)))
  }

  @Test func jobRejectsShortMatrix() {
    #expect(
      Self.jobError { $0.matrix = 10 }
        == ValidationError(field: "matrix", reason: .tooFew(minimum: 48, actual: 10)))
  }

  @Test func jobRejectsShortOpacity() {
    #expect(
      Self.jobError { $0.opacity = 2 }
        == ValidationError(field: "opacity", reason: .tooFew(minimum: 3, actual: 2)))
  }

  @Test func jobRejectsShortCorners() {
    #expect(
      Self.jobError { $0.corners = 0 }
        == ValidationError(field: "corners", reason: .tooFew(minimum: 48, actual: 0)))
  }

  @Test func jobRejectsParentOutOfRange() {
    #expect(
      Self.jobError { $0.parents = [-1, 0, 3] }
        == ValidationError(field: "parents", index: 2, reason: .outOfRange(lower: -1, upper: 2)))
  }

  @Test func jobRejectsParentInLevelZero() {
    #expect(
      Self.jobError { $0.parents = [0, 0, 0] }
        == ValidationError(
          field: "parents", index: 0,
          reason: .invalidState("parent after child: level 0 holds top-level layers only")))
  }

  @Test func jobRejectsLaterLevelWithoutParent() {
    #expect(
      Self.jobError { $0.parents = [-1, 0, -1] }
        == ValidationError(
          field: "parents", index: 2,
          reason: .invalidState("a layer after level 0 needs a parent in an earlier level")))
  }

  /// Layer 1's parent is layer 2, which is in the same level (it would be evaluated at the same
  /// time, after its child's read). A cycle 1 ↔ 2 is rejected the same way.
  @Test func jobRejectsParentAfterChild() {
    #expect(
      Self.jobError { $0.parents = [-1, 2, 0] }
        == ValidationError(
          field: "parents", index: 1,
          reason: .invalidState("parent after child: parent 2 is not in an earlier level")))
  }
}
