import PropertyBased
import SegueBenchSupport
import Testing

@testable import Segue

/// Runs a ``SpringEvaluationJob`` and returns the outputs.
func springBatchRun(_ batch: SpringBatch, _ times: [Float]) throws(ValidationError) -> [Float] {
  var out = [Float](repeating: .nan, count: batch.count)
  try times.withUnsafeBufferPointer { t throws(ValidationError) in
    try out.withUnsafeMutableBufferPointer { o throws(ValidationError) in
      try SpringEvaluationJob(springs: batch, times: t, output: o).run()
    }
  }
  return out
}

/// A random UI spring: response 0.1…2 s, damping ratio 0.05…2 (overdamping allowed half the
/// time), initial velocity −10…10 /s; every fourth one from `uiViewSpring` or `bounce`.
func randomUISpring(_ rng: inout SplitMix64, _ i: Int) -> DampedSpring {
  let response = 0.1 + 1.9 * rng.nextUnit()
  let zeta = 0.05 + 1.95 * rng.nextUnit()
  let v0 = 20 * rng.nextUnit() - 10
  switch i % 4 {
  case 0:
    return try! DampedSpring.uiViewSpring(
      duration: response, dampingRatio: min(zeta, 1), initialVelocity: v0)
  case 1:
    return try! DampedSpring.response(
      response, dampingRatio: zeta, initialVelocity: v0, allowsOverdamping: true)
  default:
    return try! DampedSpring.response(response, dampingRatio: zeta, initialVelocity: v0)
  }
}

/// The batch spring kernel against ``DampedSpring/value(at:)`` in `Double` at the same `Float` times.
@Suite("SpringBatch: Float SIMD closed forms vs the Double reference")
struct SpringBatchTests {
  /// 4 000 random UI springs (all three families), each at 12 random times in
  /// [0, settlingDuration]: measured max |x − x_ref| = 2.85e-7 (bound 1e-6).
  @Test func randomSpringsWithin1e6() throws {
    var rng = SplitMix64(state: 21)
    let springs = (0..<4000).map { randomUISpring(&rng, $0) }
    let batch = SpringBatch(springs: springs)
    let settle = springs.map { min($0.settlingDuration, 30) }
    var worst = 0.0
    for _ in 0..<12 {
      let times = settle.map { Float($0 * rng.nextUnit()) }
      let xs = try springBatchRun(batch, times)
      for j in 0..<springs.count {
        worst = max(worst, abs(Double(xs[j]) - springs[j].value(at: Double(times[j]))))
      }
    }
    #expect(worst <= 1e-6, "worst \(worst)")
  }

  /// Near-critical and light damping edge families: ζ = 1 ± 1e-6 (overdamped with cancelling
  /// P, Q; and underdamped with tiny ωd), ζ = 0.01 over many periods, an undamped spring, and
  /// a stiff overdamped one; all within 1e-6 at random times up to 3 s.
  @Test func edgeFamiliesWithin1e6() async throws {
    let springs: [DampedSpring] = [
      try .response(0.5, dampingRatio: 1 + 1e-6, initialVelocity: 3, allowsOverdamping: true),
      try .response(0.5, dampingRatio: 1 - 1e-6, initialVelocity: -3),
      try .response(0.3, dampingRatio: 0.01, initialVelocity: 0),
      try .response(0.7, dampingRatio: 0, initialVelocity: 1),
      try .response(0.2, dampingRatio: 8, initialVelocity: 5, allowsOverdamping: true),
      try DampedSpring(mass: 1, stiffness: 100, damping: 20),  // exactly critical
    ]
    let batch = SpringBatch(springs: springs)
    #expect(batch.kind == [2, 0, 0, 0, 2, 1])
    await propertyCheck(count: 150, input: Gen.float(in: 0...3)) { t in
      let xs = try springBatchRun(batch, Array(repeating: t, count: springs.count))
      for (j, spring) in springs.enumerated() {
        #expect(abs(Double(xs[j]) - spring.value(at: Double(t))) <= 1e-6, "spring \(j) t \(t)")
      }
    }
  }

  /// Times ≤ 0 give exactly 0 for every family (the spring has not started).
  @Test func nonPositiveTimesGiveZero() throws {
    var rng = SplitMix64(state: 2)
    let springs = (0..<20).map { randomUISpring(&rng, $0) }
    let xs = try springBatchRun(
      SpringBatch(springs: springs), (0..<20).map { $0 % 2 == 0 ? 0 : -Float($0) })
    #expect(xs.allSatisfy { $0 == 0 })
  }

  /// Counts that are not multiples of 16 are evaluated fully and nothing past them is written.
  @Test(arguments: [1, 15, 17, 31])
  func tailsAreHandled(count: Int) throws {
    let spring = try DampedSpring(mass: 1, stiffness: 200, damping: 12)
    let batch = SpringBatch(springs: Array(repeating: spring, count: count))
    let times = (0..<count).map { Float($0) * 0.05 }
    var out = [Float](repeating: -9, count: count + 16)
    try times.withUnsafeBufferPointer { t throws(ValidationError) in
      try out.withUnsafeMutableBufferPointer { o throws(ValidationError) in
        try SpringEvaluationJob(springs: batch, times: t, output: o).run()
      }
    }
    for j in 0..<count {
      #expect(abs(Double(out[j]) - spring.value(at: Double(times[j]))) <= 1e-6)
    }
    #expect(out[count...].allSatisfy { $0 == -9 })
  }

  // MARK: Rejected inputs

  @Test func rejectsTimeCountMismatch() throws {
    let batch = SpringBatch(springs: [try DampedSpring(), try DampedSpring()])
    #expect(throws: ValidationError(field: "times", reason: .countMismatch(expected: 2, actual: 3)))
    {
      try springBatchRun(batch, [0, 0.1, 0.2])
    }
  }

  @Test func rejectsShortOutput() throws {
    let batch = SpringBatch(springs: [try DampedSpring(), try DampedSpring()])
    let times: [Float] = [0, 0.1]
    var out = [Float](repeating: 0, count: 1)
    #expect(throws: ValidationError(field: "output", reason: .tooFew(minimum: 2, actual: 1))) {
      try times.withUnsafeBufferPointer { t throws(ValidationError) in
        try out.withUnsafeMutableBufferPointer { o throws(ValidationError) in
          try SpringEvaluationJob(springs: batch, times: t, output: o).run()
        }
      }
    }
  }

  @Test func rejectsNaNTime() throws {
    let batch = SpringBatch(springs: [try DampedSpring(), try DampedSpring()])
    #expect(throws: ValidationError(field: "times", index: 1, reason: .notFinite)) {
      try springBatchRun(batch, [0.1, .nan])
    }
  }

  @Test func rejectsInfiniteTime() throws {
    let batch = SpringBatch(springs: [try DampedSpring()])
    #expect(throws: ValidationError(field: "times", index: 0, reason: .notFinite)) {
      try springBatchRun(batch, [.infinity])
    }
  }
}
