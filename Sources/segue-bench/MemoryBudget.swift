// The memory budget: every option is checked for its own range, but their product can still ask
// for more memory than the machine has (`--workload dissolve --frames 100000 --n 10000000` wants
// 16 TB of output). `validate()` estimates what the run allocates and rejects it as a usage error
// (exit 64) when the estimate exceeds the budget, instead of dying in the allocator.

import ArgumentParser
import SegueBenchSupport
import SegueToolSupport

/// What a run of segue-bench allocates, estimated from its options before anything is
/// allocated: the largest buffers of each workload (inputs, outputs, references), with a per-item
/// allowance for the object-heavy paths. Sizes are computed with overflow checks; a product that
/// overflows `Int` counts as unbounded.
struct MemoryEstimate: Equatable {
  /// The estimated bytes, or `nil` when the computation overflows `Int`.
  var bytes: Int?
  /// What dominates the estimate, for the error message (e.g. "output 100000 × 4 × 10000000
  /// floats").
  var largest: String
}

extension SegueBench {
  /// The allocation estimate of the options (see ``MemoryEstimate``). `n` and the other options
  /// must already be in their ranges.
  var memoryEstimate: MemoryEstimate {
    let n = layerCount
    let frameCount = frameTimes.count
    if let kind = batchWorkload {
      switch kind {
      case .bake:
        let columns = checkedProduct(n, channels)
        let input = columns.flatMap { checkedProduct(2, keys, $0, 4) }
        let output = columns.flatMap { checkedProduct(frames, $0, 4) }
        return MemoryEstimate(
          bytes: checkedSum(input, output),
          largest: "output \(frames) frames × \(n) × \(channels) floats")
      case .children:
        return MemoryEstimate(
          bytes: checkedProduct(3, 16, n, 4), largest: "\(n) input and output 4×4 matrices")
      case .dissolve:
        let output = checkedProduct(frames, 4, n, 4)
        return MemoryEstimate(
          bytes: checkedSum(checkedProduct(2, 8, n, 4), output),
          largest: "output \(frames) frames × 4 × \(n) floats")
      }
    }
    switch workload {
    case "bezier", "spring":
      // Inputs, outputs, Double references, indices or springs and their batch.
      let perLane = workload == "bezier" ? 4 + 4 + 8 + 2 + 8 : 4 + 4 + 8 + 160
      return MemoryEstimate(
        bytes: checkedProduct(perLane, n), largest: "\(n) lanes of \(perLane) bytes")
    case "presets":
      // The compiled batch and its context (about 512 bytes per layer), 17 floats of output per
      // layer and frame.
      let batch = checkedProduct(512, n)
      let output = checkedProduct(17, 4, n, frameCount)
      return MemoryEstimate(
        bytes: checkedSum(batch, output), largest: "output \(frameCount) frames × \(n) layers")
    case "live":
      // N instances of about 5 layers: the batch and its live clocks (about 1 KB per instance),
      // the outputs (17 floats per layer) and the scalar baseline's animators and samples
      // (about 16 KB per instance).
      let instances = liveInstances
      return MemoryEstimate(
        bytes: checkedProduct(20 * 1024, instances), largest: "\(instances) live instances")
    case "blend":
      // Three images of 16-byte Float pixels at most.
      return MemoryEstimate(bytes: checkedProduct(3, 16, n), largest: "3 images of \(n) pixels")
    default:
      // stack: the Double inputs (26 per layer) and the padded Float planes (26), the output (17
      // per layer, Float or Double), and for the naive path about 2 KB of objects per layer.
      let stride = StackBatch.paddedStride(count: n)
      let inputs = checkedSum(checkedProduct(26, 8, n), checkedProduct(26, 4, stride), n)
      let output = checkedSum(
        checkedProduct(17, 4, stride), path == .reference ? checkedProduct(17, 8, n) : 0)
      let objects = path == .naive ? checkedProduct(2048, n) : 0
      return MemoryEstimate(
        bytes: checkedSum(inputs, output, objects), largest: "\(n) layers")
    }
  }

  /// Rejects options whose allocations would exceed the physical-memory budget
  /// (`physicalMemoryBudget`).
  func validateMemoryBudget() throws {
    let estimate = memoryEstimate
    let budget = physicalMemoryBudget
    if fits(estimate.bytes, within: budget) { return }
    throw ValidationError(
      "--workload \(workload) with these options needs about \(byteText(estimate.bytes)) of "
        + "memory (\(estimate.largest)), more than segue-bench's budget of "
        + "\(byteText(budget)) (3/4 of the physical memory); lower --n"
        + (batchWorkload == .dissolve || batchWorkload == .bake ? " or --frames" : ""))
  }
}
