// Time, throughput and allocations of the `stack` workload, stage by stage and per frame.
//
// Stages (SIMD path, planar output, N = 16 384, t = 0.3): `timing` (progress + bezier solve),
// `channels` (+ segment search and Catmull–Rom), `frame` (+ sin/cos and matrix composition). The
// composition cost is `frame − channels`. Each stage writes the same number of values, so the store
// traffic is the same in all three. One benchmark iteration = one frame of N layers, so
// layer-evals/s = N × the reported throughput (frames/s).

import Benchmark
import Segue

let layerCount = 16_384
let time: Float = 0.3

/// A batch and a 64-byte aligned planar output shared by the benchmarks (never freed).
struct Fixture: @unchecked Sendable {
  let batch: StackBatch
  let output: UnsafeMutableBufferPointer<Float>
  let layout: StackOutputLayout

  init(count: Int) {
    batch = try! StackBatch(count: count)
    let stride = (count + 15) / 16 * 16
    layout = .planar(stride: stride)
    let values = layout.requiredCount(upperBound: count)!
    let raw = UnsafeMutableRawPointer.allocate(byteCount: 4 * values, alignment: 64)
    output = UnsafeMutableBufferPointer(
      start: raw.bindMemory(to: Float.self, capacity: values), count: values)
    output.initialize(repeating: 0)
  }

  func job(path: StackKernelPath = .simd, stage: StackStage = .frame) -> StackEvaluationJob {
    var job = StackEvaluationJob(
      batch: batch, time: time, output: output, layout: layout, path: path)
    job.stage = stage
    return job
  }
}

let benchmarks: @Sendable () -> Void = {
  let fixture = Fixture(count: layerCount)
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
    scalingFactor: .one,
    maxDuration: .seconds(2)
  )
  for stage in StackStage.allCases {
    Benchmark("stack simd \(stage.rawValue) N=\(layerCount)", configuration: configuration) {
      benchmark in
      let job = fixture.job(stage: stage)
      for _ in benchmark.scaledIterations {
        try job.run()
        blackHole(fixture.output[0])
      }
    }
  }
  Benchmark("stack scalar frame N=\(layerCount)", configuration: configuration) { benchmark in
    let job = fixture.job(path: .scalar)
    for _ in benchmark.scaledIterations {
      try job.run()
      blackHole(fixture.output[0])
    }
  }
  Benchmark("stack simd frame N=\(layerCount) threads=2", configuration: configuration) {
    benchmark in
    let job = fixture.job()
    for _ in benchmark.scaledIterations {
      try job.run(threads: 2)
      blackHole(fixture.output[0])
    }
  }
}
