import Segue
import Testing

/// The examples of the DocC article "Batch evaluation", kept compiling and checked against the
/// scalar sampler.
@Suite("Batch evaluation article")
struct BatchEvaluationArticleTests {
  /// `expected` and `actual` within the scene batch's documented tolerance: `1e-5·(1 + max|m|)`
  /// per field, plus `1e-6·844` points on the translation row.
  static func expectClose(_ actual: Transform3D, _ expected: Transform3D) {
    let fields = expected.fields
    let scale = 1 + (fields.map { abs($0) }.max() ?? 0)
    for (k, (a, b)) in zip(actual.fields, fields).enumerated() {
      let slack = 1e-5 * scale + (k >= 12 ? 1e-6 * 844 : 0)
      #expect(abs(a - b) <= slack, "field \(k)")
    }
  }

  /// The batch's matrix of the push's **to** layer at 0.25 s equals the `Double` sample's, and the
  /// half-way pop instance is evaluated too.
  @Test func articleExample() throws {
    let animator = PresetAnimator(.system)
    let push = try animator.animateTransition(using: animator.defaultContext(operation: .push))
    let pop = try animator.animateTransition(using: animator.defaultContext(operation: .pop))
    let batch = try SceneBatch([
      .init(scene: push, clock: .timed(start: 0, speed: 1)),
      .init(scene: pop, clock: .position(0.5)),
    ])
    let context = try SceneBatchContext(batch: batch, threads: 2)
    var frame = SceneBatchOutput()  // yours, reused every frame
    try batch.evaluate(at: 0.25, context: context, into: &frame, threads: 2)
    let to = try #require(frame[instance: 0]?["to"])
    let expected = try #require(try push.sample(at: 0.25)["to"])
    Self.expectClose(to.matrix, expected.matrix)
    #expect(abs(to.opacity - expected.opacity) <= 1e-5)
    let half = try #require(try pop.sample(at: 0.5 * pop.duration)["to"])
    let halfway = try #require(frame[instance: 1]?["to"])
    Self.expectClose(halfway.matrix, half.matrix)
  }

  /// The article's template/instance example: ids survive a removal, the output reads by id, and
  /// the second instance of the push matches the scalar sample, present layers and corners
  /// included.
  @Test func incrementalExample() throws {
    let animator = PresetAnimator(.system)
    let push = try animator.animateTransition(using: animator.defaultContext(operation: .push))
    let pop = try animator.animateTransition(using: animator.defaultContext(operation: .pop))
    var running = SceneBatch()
    let template = try SceneTemplate(push)  // compiled once
    let first = try running.add(template, clock: .timed(start: 0, speed: 1))
    let second = try running.add(template, clock: .timed(start: 0.1, speed: 1))  // no compile
    let reverse = try running.add(.init(scene: pop, clock: .timed(start: 0.2, speed: 1)))
    try running.remove(first)  // "second" and "reverse" keep their ids
    let scratch = try SceneBatchContext(batch: running)  // sized by the templates
    var now = SceneBatchOutput(includesCorners: true)
    try running.evaluate(at: 0.3, context: scratch, into: &now)
    #expect(running.instanceIDs == [second, reverse])
    let sample = try push.sample(at: 0.2)
    let layers = try #require(now[instance: second]?.layers)
    #expect(layers.map(\.id) == sample.layers.map(\.id))
    for layer in layers {
      let expected = try #require(sample[layer.id])
      Self.expectClose(layer.matrix, expected.matrix)
      #expect(abs(layer.opacity - expected.opacity) <= 1e-5)
      #expect(layer.corners?.count == 4)
    }
  }
}
