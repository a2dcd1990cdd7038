import Segue
import Testing

/// The example of the DocC article "Batch evaluation", kept compiling and checked against the
/// scalar sampler.
@Suite("Batch evaluation article")
struct BatchEvaluationArticleTests {
  /// The batch's Float matrix of the push's **to** layer at 0.25 s equals the `Double` sample's
  /// (within the scene batch's documented tolerance, 1e-5·(1 + max|m|) plus 1e-6·844 points on the
  /// translation row), and the half-way pop instance is evaluated too.
  @Test func articleExample() throws {
    let animator = PresetAnimator(.system)
    let push = try animator.animateTransition(using: animator.defaultContext(operation: .push))
    let pop = try animator.animateTransition(using: animator.defaultContext(operation: .pop))
    let batch = try SceneBatch([
      .init(scene: push, clock: .timed(start: 0, speed: 1)),
      .init(scene: pop, clock: .position(0.5)),
    ])
    let context = try SceneBatchContext(batch: batch, threads: 2)
    var matrices = [Float](repeating: 0, count: 16 * batch.layerCount)
    var opacities = [Float](repeating: 0, count: batch.layerCount)
    let times: [Double] = [0.25]
    try matrices.withUnsafeMutableBufferPointer { m in
      try opacities.withUnsafeMutableBufferPointer { o in
        try times.withUnsafeBufferPointer { t in
          let job = SceneBatchEvaluationJob(
            batch: batch, context: context, times: t, matrices: m, opacities: o)
          try job.run(threads: 2)
        }
      }
    }
    let i = try #require(batch.layerIndex(instance: 0, layerID: "to"))
    let expected = try #require(try push.sample(at: 0.25)["to"])
    let fields = expected.matrix.fields
    let scale = 1 + (fields.map { abs($0) }.max() ?? 0)
    for k in 0..<16 {
      let slack = 1e-5 * scale + (k >= 12 ? 1e-6 * 844 : 0)
      #expect(abs(Double(matrices[16 * i + k]) - fields[k]) <= slack, "field \(k)")
    }
    #expect(abs(Double(opacities[i]) - expected.opacity) <= 1e-5)
    let j = try #require(batch.layerIndex(instance: 1, layerID: "to"))
    let half = try #require(try pop.sample(at: 0.5 * pop.duration)["to"])
    #expect(abs(Double(matrices[16 * j + 12]) - half.matrix.m41) <= 1e-5 * scale + 1e-3)
  }

  /// The article's template/instance example: ids survive a removal, indices are read after the
  /// last change, and the second instance of the push matches the scalar sample.
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
    var rows = [Float](repeating: 0, count: 16 * running.layerCount)
    var alphas = [Float](repeating: 0, count: running.layerCount)
    let now: [Double] = [0.3]
    try rows.withUnsafeMutableBufferPointer { m in
      try alphas.withUnsafeMutableBufferPointer { o in
        try now.withUnsafeBufferPointer { t in
          try SceneBatchEvaluationJob(
            batch: running, context: scratch, times: t, matrices: m, opacities: o
          ).run()
        }
      }
    }
    // Indices are read after the last change.
    let row = try #require(running.layerIndex(instance: second, layerID: "to"))
    #expect(running.instanceIDs == [second, reverse])
    let expected = try #require(try push.sample(at: 0.2)["to"])
    let fields = expected.matrix.fields
    let scale = 1 + (fields.map { abs($0) }.max() ?? 0)
    for k in 0..<16 {
      let slack = 1e-5 * scale + (k >= 12 ? 1e-6 * 844 : 0)
      #expect(abs(Double(rows[16 * row + k]) - fields[k]) <= slack, "field \(k)")
    }
    #expect(abs(Double(alphas[row]) - expected.opacity) <= 1e-5)
  }
}
