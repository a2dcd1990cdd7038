// The standard `stack` workload: N layers of six-channel keyframe animations at one time.

import ArgumentParser
import Segue
import SegueBenchSupport
import SegueMallocCounter
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension SegueBench {
  /// Runs the `stack` workload on `--path` (simd, scalar, naive or reference).
  func runStackWorkload() throws {
    let n = layerCount
    let ts = frameTimes
    let batch: StackBatch
    do { batch = try StackBatch(count: n) } catch { throw ValidationError("\(error)") }

    // Output buffers, 64-byte aligned; planar stride padded like the input planes (n rounded up
    // to 16, plus 16: planes never a power of two bytes apart).
    let stride = StackBatch.paddedStride(count: n)
    let floatLayout: StackOutputLayout = layout == .planar ? .planar(stride: stride) : .interleaved
    let floatCount = floatLayout.requiredCount(upperBound: n)!
    let outputBytesPerFrame = Double(n * 17 * (path == .reference ? 8 : 4))
    let useStreaming: Bool
    switch streaming {
    case .on: useStreaming = true
    case .off: useStreaming = false
    case .auto: useStreaming = outputBytesPerFrame > 8 * 1024 * 1024
    }
    let floatOut = alignedFloats(path == .reference ? 0 : floatCount)
    defer { floatOut.deallocate() }
    let doubleCount = path == .reference ? 17 * n : 0
    let doubleOut = UnsafeMutableBufferPointer<Double>.allocate(capacity: max(doubleCount, 1))
    defer { doubleOut.deallocate() }
    doubleOut.initialize(repeating: 0)
    let scene = path == .naive ? SceneBox(StackNaiveScene(batch: batch)) : nil

    /// One frame at `t`.
    func frame(_ t: Double) throws {
      switch path {
      case .simd, .scalar:
        let job = StackEvaluationJob(
          batch: batch, time: Float(t), output: floatOut, layout: floatLayout,
          path: path == .simd ? .simd : .scalar, streamingStores: useStreaming)
        try job.run(threads: threads, chunkSize: chunkSize)
      case .naive:
        let box = scene!
        let out = Unchecked(floatOut)
        let layout = floatLayout
        let failure = FirstError()
        try BatchThreads.forEachChunk(of: 0..<n, threads: threads) { chunk in
          failure.record {
            try box.scene.evaluate(time: t, range: chunk, into: out.value, layout: layout)
          }
        }
        try failure.rethrow()
      case .reference:
        let out = Unchecked(doubleOut)
        let failure = FirstError()
        try BatchThreads.forEachChunk(of: 0..<n, threads: threads) { chunk in
          failure.record { try batch.evaluateReference(time: t, range: chunk, into: out.value) }
        }
        try failure.rethrow()
      case .blas:
        break
      }
    }

    // Warm-up, then timed passes.
    for t in ts { try frame(t) }
    let (passSeconds, maxAllocationsPerPass) = try timedPasses { for t in ts { try frame(t) } }

    // Checksums, one per time (the buffer holds the last time; recompute the others untimed),
    // and the allocation calls of each frame on its own.
    var checksums: [Double] = []
    var maxAllocationsPerFrame: UInt64 = 0
    for t in ts {
      let before = segue_allocation_count()
      try frame(t)
      maxAllocationsPerFrame = max(maxAllocationsPerFrame, segue_allocation_count() &- before)
      if path == .reference {
        var sum = 0.0
        for i in 0..<(17 * n) { sum += doubleOut[i] }
        checksums.append(sum)
      } else {
        checksums.append(try batch.checksum(of: UnsafeBufferPointer(floatOut), layout: floatLayout))
      }
    }

    let sorted = passSeconds.sorted()
    let median =
      sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    let best = sorted[0]
    let evals = Double(n * ts.count)
    let report = Report(
      workload: workload, n: n, times: ts, threads: threads, path: path.rawValue,
      layout: path == .reference ? "interleaved-double" : layout.rawValue,
      streaming: useStreaming && (path == .simd),
      passes: passSeconds.count, medianSeconds: median, bestSeconds: best,
      layerEvalsPerSecond: evals / median, bestLayerEvalsPerSecond: evals / best,
      nsPerLayer: median / evals * 1e9,
      outputGBPerSecond: outputBytesPerFrame * Double(ts.count) / median / 1e9,
      allocationsPerFrame: segue_allocation_counting_available() != 0
        ? Int(maxAllocationsPerFrame) : nil,
      allocationsPerPass: segue_allocation_counting_available() != 0
        ? Int(maxAllocationsPerPass) : nil,
      blasLibrary: loadedBLASLibrary(),
      cpuRuntime: CPUFeatures.runtime.description,
      swiftCompiledFor: CPUFeatures.compiled.description,
      checksums: checksums)
    print(format == .json ? report.json : report.text)
  }
}

/// Lets the (read-only) naive scene cross into Dispatch's workers.
final class SceneBox: @unchecked Sendable {
  let scene: StackNaiveScene
  init(_ scene: StackNaiveScene) { self.scene = scene }
}

/// The first error thrown by any of the chunks a frame runs on Dispatch's workers, rethrown by
/// the caller after the frame: a failed evaluation fails the run instead of being timed.
final class FirstError: @unchecked Sendable {
  private let lock = Mutex<(any Error)?>(nil)

  /// Runs `body`, keeping its error if it is the first.
  func record(_ body: () throws -> Void) {
    do { try body() } catch { lock.withLock { if $0 == nil { $0 = error } } }
  }

  /// Throws the first recorded error.
  func rethrow() throws {
    if let error = lock.withLock({ $0 }) { throw error }
  }
}

/// A buffer pointer handed to Dispatch's workers, each of which writes only its own chunk.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
