import ArgumentParser
import Segue
import SegueBenchSupport
import SegueMallocCounter
import SegueToolSupport

// MARK: - Live workload

extension SegueBench {
  /// Instances of the live workload: `--n` when given, else 10 000.
  var liveInstances: Int {
    CommandLine.arguments.contains("--n") ? layerCount : 10_000
  }

  /// Frames of the live workload: `--frames` when given, else 600 (ten seconds at 60 Hz), after
  /// ``liveWarmUpFrames`` untimed ones.
  var liveFrames: Int {
    CommandLine.arguments.contains("--frames") ? frames : 600
  }

  static let liveWarmUpFrames = 30
  /// The scalar baseline runs at most this many timed frames (it is ~100× slower).
  static let liveScalarFrames = 60
  /// `--alternate`: frames per block of one setting.
  static let alternationBlockFrames = 20
  /// `--alternate`: the first frames of each block, which still meet the caches the other
  /// setting left, are not counted.
  static let alternationSettleFrames = 2

  /// `live` (``LiveWorkload``): N animator-driven preset instances at 60 Hz, each frame its
  /// seeded control calls (``LiveBatchDriver/control(_:at:)``: completions delivered and
  /// replaced, then start / interrupt / scrub / finish, with `--retargets` some interruptions
  /// retargeting) and one evaluation of every layer
  /// (``SceneEvaluationJob/run(threads:chunkSize:)``; `--streaming on` streams the rows past the
  /// caches, `off` keeps them, `auto` leaves it to the job). Reported: frame time p50 / p99 / max,
  /// the control phase per frame and per call, allocations per frame, the last frame evaluated
  /// with and without velocities, and the same script through
  /// ``LiveScalarDriver`` (one `PropertyAnimator` per instance, sampled with the `Double` path).
  func runLiveWorkload() throws {
    let n = liveInstances
    let frameCount = liveFrames
    var driver = try LiveBatchDriver(slots: n, retargets: retargets)
    var script = LiveWorkload.Script(slots: n)
    var calls: [LiveWorkload.Call] = []
    calls.reserveCapacity(n)
    let context = try SceneBatchContext(batch: driver.batch, threads: threads)
    let rows = driver.batch.layerCount
    // Aligned outputs, as a renderer's upload buffer would be: one cache line per matrix row.
    let matrices = alignedFloats(16 * rows)
    let opacities = alignedFloats(rows)
    defer {
      matrices.deallocate()
      opacities.deallocate()
    }
    var frameSeconds: [Double] = []
    var controlSeconds: [Double] = []
    var evaluationSeconds: [Double] = []
    var perCall: [Double] = []
    var allocations: [UInt64] = []
    frameSeconds.reserveCapacity(frameCount)
    evaluationSeconds.reserveCapacity(frameCount)
    controlSeconds.reserveCapacity(frameCount)
    perCall.reserveCapacity(frameCount)
    allocations.reserveCapacity(frameCount)
    var alternated: [[Double]] = [[], []]
    for setting in alternated.indices { alternated[setting].reserveCapacity(frameCount) }
    var time = [0.0]
    var checksum = 0.0
    for f in 0..<(Self.liveWarmUpFrames + frameCount) {
      let t = Double(f) * LiveWorkload.framePeriod
      time[0] = t
      script.nextFrame(into: &calls)
      let before = segue_allocation_count()
      let callsBefore = driver.callCount
      let t0 = monotonicSeconds()
      try driver.control(calls, at: t)
      let setting = (f / Self.alternationBlockFrames) % 2
      let t1 = monotonicSeconds()
      try time.withUnsafeBufferPointer { times in
        var job = SceneEvaluationJob(
          batch: driver.batch, context: context, times: times, matrices: matrices,
          opacities: opacities)
        job.streamingStores = streaming.sceneJobChoice
        switch alternate {
        case .prefetch: job.prefetchesAhead = setting == 0
        case .streaming: job.streamingStores = setting == 1
        case nil: break
        }
        try job.run(threads: threads, chunkSize: chunkSize)
      }
      let t2 = monotonicSeconds()
      let allocated = segue_allocation_count() &- before
      guard f >= Self.liveWarmUpFrames else { continue }
      frameSeconds.append(t2 - t0)
      controlSeconds.append(t1 - t0)
      evaluationSeconds.append(t2 - t1)
      if alternate != nil && f % Self.alternationBlockFrames >= Self.alternationSettleFrames {
        alternated[setting].append(t2 - t1)
      }
      perCall.append((t1 - t0) / Double(max(driver.callCount - callsBefore, 1)))
      allocations.append(allocated)
      checksum += opacities.reduce(0) { $0 + Double($1) }
    }
    let totalCalls = Double(driver.callCount)
    let velocities = try measureVelocities(
      driver.batch, context: context,
      at: Double(Self.liveWarmUpFrames + frameCount - 1) * LiveWorkload.framePeriod)
    // The scalar baseline: the same script, one PropertyAnimator per instance.
    var scalar = try LiveScalarDriver(slots: n, retargets: retargets)
    var scalarScript = LiveWorkload.Script(slots: n)
    var scalarSeconds: [Double] = []
    let scalarFrames = min(frameCount, Self.liveScalarFrames)
    for f in 0..<(Self.liveWarmUpFrames + scalarFrames) {
      let t = Double(f) * LiveWorkload.framePeriod
      scalarScript.nextFrame(into: &calls)
      let t0 = monotonicSeconds()
      try scalar.control(calls, at: t)
      _ = try scalar.evaluate(at: t)
      let t1 = monotonicSeconds()
      if f >= Self.liveWarmUpFrames { scalarSeconds.append(t1 - t0) }
    }
    try printLiveReport(
      LiveReport(
        instances: n, layers: rows, frames: frameCount, frameSeconds: frameSeconds,
        controlSeconds: controlSeconds, evaluationSeconds: evaluationSeconds, perCall: perCall,
        callsPerFrame: totalCalls / Double(Self.liveWarmUpFrames + frameCount),
        completions: driver.completionCount, rejected: driver.rejectedCount,
        retargets: driver.retargetCount, rejectedRetargets: driver.rejectedRetargetCount,
        retargetSeconds: driver.retargetSeconds,
        additiveAnimations: driver.batch.additiveAnimationCount,
        allocations: allocations, callDurations: driver.callDurations,
        velocities: velocities, scalarSeconds: scalarSeconds, alternated: alternated,
        checksum: checksum))
  }

  /// The last frame evaluated into a ``SceneBatchOutput`` with and without velocities.
  struct LiveVelocities {
    var withVelocities: Double
    var without: Double
    /// Instances whose scene time moves at that time (their velocities take the `Double` path).
    var moving: Int
  }

  static let velocityRepeats = 5

  /// Times ``SceneBatch/evaluate(at:context:into:threads:)`` at `t` into an output with
  /// velocities and into one without, alternately (the median of ``velocityRepeats`` each).
  func measureVelocities(_ batch: SceneBatch, context: SceneBatchContext, at t: Double) throws
    -> LiveVelocities
  {
    var outputs = [
      SceneBatchOutput(for: batch, includesVelocities: true), SceneBatchOutput(for: batch),
    ]
    var seconds: [[Double]] = [[], []]
    for _ in 0...Self.velocityRepeats {
      for k in outputs.indices {
        let start = monotonicSeconds()
        try batch.evaluate(at: t, context: context, into: &outputs[k], threads: threads)
        seconds[k].append(monotonicSeconds() - start)
      }
    }
    let moving = try batch.instanceIDs.filter { try batch.time(of: $0, at: t).rate != 0 }.count
    // The first pass of each sized its output: not counted.
    return LiveVelocities(
      withVelocities: Self.quantile(Array(seconds[0].dropFirst()), 0.5),
      without: Self.quantile(Array(seconds[1].dropFirst()), 0.5), moving: moving)
  }

  struct LiveReport {
    var instances: Int
    var layers: Int
    var frames: Int
    var frameSeconds: [Double]
    var controlSeconds: [Double]
    /// The scene batch's evaluation of each frame (the frame without its control phase).
    var evaluationSeconds: [Double]
    var perCall: [Double]
    var callsPerFrame: Double
    var completions: Int
    var rejected: Int
    var retargets: Int
    var rejectedRetargets: Int
    var retargetSeconds: Double
    var additiveAnimations: Int
    var allocations: [UInt64]
    /// One call in ``LiveBatchDriver/callSampleStride``, timed on its own.
    var callDurations: CallDurationHistogram
    var velocities: LiveVelocities
    var scalarSeconds: [Double]
    /// `--alternate`: the evaluation times under the first and the second setting.
    var alternated: [[Double]]
    var checksum: Double
  }

  static func quantile(_ values: [Double], _ q: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(Int((Double(sorted.count - 1) * q).rounded()), sorted.count - 1)]
  }

  func printLiveReport(_ r: LiveReport) throws {
    let p50 = Self.quantile(r.frameSeconds, 0.5)
    let p99 = Self.quantile(r.frameSeconds, 0.99)
    let worst = r.frameSeconds.max() ?? .nan
    let control50 = Self.quantile(r.controlSeconds, 0.5)
    let call50 = Self.quantile(r.perCall, 0.5)
    let single50 = r.callDurations.quantile(0.5) ?? .nan
    let single99 = r.callDurations.quantile(0.99) ?? .nan
    let callsPerSecond =
      r.callsPerFrame / max(r.controlSeconds.reduce(0, +) / Double(r.frames), 1e-12)
    let scalar50 = Self.quantile(r.scalarSeconds, 0.5)
    let counted = segue_allocation_counting_available() != 0
    let allocationsMax = r.allocations.max() ?? 0
    let steady = r.allocations.dropFirst(r.allocations.count / 2).max() ?? 0
    let a50 = Self.quantile(r.alternated[0], 0.5)
    let b50 = Self.quantile(r.alternated[1], 0.5)
    if format == .json {
      let fields: [(String, String)] = [
        ("workload", "\"live\""), ("instances", "\(r.instances)"), ("layers", "\(r.layers)"),
        ("frames", "\(r.frames)"), ("threads", "\(threads)"),
        ("streaming", "\"\(streaming.rawValue)\""),
        ("frameSecondsP50", "\(p50)"), ("frameSecondsP99", "\(p99)"),
        ("frameSecondsMax", "\(worst)"), ("controlSecondsP50", "\(control50)"),
        ("evaluationSecondsP50", "\(Self.quantile(r.evaluationSeconds, 0.5))"),
        ("evaluationSecondsP99", "\(Self.quantile(r.evaluationSeconds, 0.99))"),
        ("secondsPerCallP50", "\(call50)"), ("callsPerFrame", "\(r.callsPerFrame)"),
        ("callSecondsP50", r.callDurations.quantile(0.5).map { "\($0)" } ?? "null"),
        ("callSecondsP99", r.callDurations.quantile(0.99).map { "\($0)" } ?? "null"),
        ("callsTimed", "\(r.callDurations.count)"),
        ("controlCallsPerSecond", "\(callsPerSecond)"), ("completions", "\(r.completions)"),
        ("rejectedCalls", "\(r.rejected)"), ("retargets", "\(r.retargets)"),
        ("rejectedRetargets", "\(r.rejectedRetargets)"),
        ("secondsPerRetargetMean", "\(r.retargetSeconds / Double(max(r.retargets, 1)))"),
        ("additiveAnimationsAtEnd", "\(r.additiveAnimations)"),
        ("evaluationWithVelocitiesSeconds", "\(r.velocities.withVelocities)"),
        ("evaluationWithoutVelocitiesSeconds", "\(r.velocities.without)"),
        ("movingInstancesAtEnd", "\(r.velocities.moving)"),
        ("allocationsPerFrameMax", counted ? "\(allocationsMax)" : "null"),
        ("allocationsPerFrameSecondHalfMax", counted ? "\(steady)" : "null"),
        ("scalarFrames", "\(r.scalarSeconds.count)"), ("scalarFrameSecondsP50", "\(scalar50)"),
        ("speedupOverScalar", "\(scalar50 / p50)"),
        ("alternate", alternate.map { "\"\($0.rawValue)\"" } ?? "null"),
        (
          "alternateSettings",
          alternate.map { "[\"\($0.settings[0])\",\"\($0.settings[1])\"]" } ?? "null"
        ),
        (
          "alternateEvaluationSecondsP50",
          alternate == nil ? "null" : "[\(jsonNumber(a50)),\(jsonNumber(b50))]"
        ),
        ("cpuRuntime", "\"\(CPUFeatures.runtime.description)\""),
        ("swiftCompiledFor", "\"\(CPUFeatures.compiled.description)\""),
        ("checksum", jsonNumber(r.checksum)),
      ]
      print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
      return
    }
    print(
      """
      workload live  instances \(r.instances) (\(r.layers) layers)  frames \(r.frames)  \
      threads \(threads)  streaming \(streaming.rawValue)
      frame          p50 \(fixed(p50 * 1e3, 3)) ms  p99 \(fixed(p99 * 1e3, 3)) ms  \
      max \(fixed(worst * 1e3, 3)) ms
      control        p50 \(fixed(control50 * 1e6, 1)) µs per frame  \
      \(fixed(r.callsPerFrame, 1)) calls per frame  \(fixed(call50 * 1e9, 1)) ns per call (median)  \
      \(sci(callsPerSecond)) calls/s  completions \(r.completions)  rejected \(r.rejected)
      one call       p50 \(fixed(single50 * 1e9, 0)) ns  p99 \(fixed(single99 * 1e9, 0)) ns  \
      (\(r.callDurations.count) calls timed on their own, one in \(LiveBatchDriver.callSampleStride))
      evaluation     p50 \(fixed(Self.quantile(r.evaluationSeconds, 0.5) * 1e3, 3)) ms  \
      p99 \(fixed(Self.quantile(r.evaluationSeconds, 0.99) * 1e3, 3)) ms (the frame without its control phase)
      retargets      \(r.retargets) (\(r.rejectedRetargets) rejected: instance at its end)  \
      \(fixed(r.retargetSeconds / Double(max(r.retargets, 1)) * 1e9, 1)) ns per retarget (mean)  \
      \(r.additiveAnimations) additive animations held at the end
      velocities     evaluate with \(fixed(r.velocities.withVelocities * 1e3, 3)) ms, without \
      \(fixed(r.velocities.without * 1e3, 3)) ms (SceneBatch.evaluate into a SceneBatchOutput, the last \
      frame, median of \(Self.velocityRepeats); \(r.velocities.moving) moving instances on the Double path)
      allocations    \(counted ? "\(allocationsMax) per frame at most (\(steady) in the second half)" : "not counted on this platform")
      scalar         p50 \(fixed(scalar50 * 1e3, 3)) ms per frame (\(r.scalarSeconds.count) frames, one PropertyAnimator per instance)  \
      batch \(fixed(scalar50 / p50, 1))× faster
      CPU (runtime)  \(CPUFeatures.runtime.description)
      checksum       \(r.checksum)
      """)
    if let alternate {
      let names = alternate.settings
      print(
        """
        alternate      \(alternate.rawValue), \(Self.alternationBlockFrames) frames each: \
        evaluation p50 \(names[0]) \(fixed(a50 * 1e3, 3)) ms (\(r.alternated[0].count) frames), \
        \(names[1]) \(fixed(b50 * 1e3, 3)) ms (\(r.alternated[1].count) frames), \
        \(names[1]) / \(names[0]) \(fixed(b50 / a50, 3))
        """)
    }
  }
}
