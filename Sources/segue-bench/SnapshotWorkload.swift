import ArgumentParser
import Foundation
import Segue
import SegueRender
import SegueSnapshot

// MARK: - Snapshot verification workload (snapshot)
//
// `snapshot`: what `segue snapshot verify` and `assertTransitionSnapshot` do for
// `--snapshot-transitions` transitions (the ten presets, push and pop, in five container sizes,
// repeated) of `--snapshot-frames` frames each at `--snapshot-scale`: the frames strategy's
// snapshots are recorded once into a temporary folder (not timed), then one timed pass verifies
// them all with `SnapshotVerification` — read each PNG, decode it (once), render the frame,
// compare. On one thread.
//
// Also timed, each over all the frames: reading and decoding alone, rendering alone, and the
// comparison alone (decoded snapshots against rendered frames, equal: the passing case), with
// an exact tolerance and with a perceptual one; and the comparison of images that differ in
// every pixel by one level (the perceptual path's worst case: a colour difference per pixel).

/// The options of the `snapshot` workload.
struct SnapshotWorkloadOptions: ParsableArguments {
  @Option(help: "snapshot: transitions verified in a pass, 1…2000.")
  var snapshotTransitions: Int = 100

  @Option(help: "snapshot: frames per transition, 1…100 (evenly spaced, both ends included).")
  var snapshotFrames: Int = 10

  @Option(help: "snapshot: pixels per point, in (0, 4].")
  var snapshotScale: Double = 1
}

extension SegueBench {
  /// Checks the options of `snapshot` (called from `validate()`).
  func validateSnapshotWorkload() throws {
    let o = snapshotOptions
    guard (1...2000).contains(o.snapshotTransitions) else {
      throw ValidationError(
        "--snapshot-transitions must be in 1…2000 (got \(o.snapshotTransitions))")
    }
    guard (1...100).contains(o.snapshotFrames) else {
      throw ValidationError("--snapshot-frames must be in 1…100 (got \(o.snapshotFrames))")
    }
    guard o.snapshotScale.isFinite && o.snapshotScale > 0 && o.snapshotScale <= 4 else {
      throw ValidationError("--snapshot-scale must be in (0, 4] (got \(o.snapshotScale))")
    }
    guard threads == 1 else { throw ValidationError("'snapshot' runs on one thread") }
  }

  /// The transitions of the workload: presets × push, pop × five containers, cycled.
  private func snapshotScenes() throws -> [(name: String, scene: TransitionScene)] {
    let containers = [
      Size(width: 390, height: 844), Size(width: 375, height: 667),
      Size(width: 414, height: 896), Size(width: 428, height: 926), Size(width: 360, height: 780),
    ]
    var all: [(String, TransitionScene)] = []
    for container in containers {
      for preset in TransitionPreset.allCases {
        for operation in [TransitionOperation.push, .pop] {
          let animator = PresetAnimator(preset)
          let context = try animator.defaultContext(
            operation: operation, containerSize: container)
          all.append(
            (
              "\(preset.rawValue)-\(operation.rawValue)-\(Int(container.width))",
              try animator.animateTransition(using: context)
            ))
        }
      }
    }
    return (0..<snapshotOptions.snapshotTransitions).map { k in
      let (name, scene) = all[k % all.count]
      return (k < all.count ? name : "\(name)-\(k / all.count)", scene)
    }
  }

  /// Runs the snapshot workload and prints its report.
  func runSnapshotWorkload() throws {
    let o = snapshotOptions
    let scenes = try snapshotScenes()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "segue-bench-snapshots-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }
    func strategy(_ scene: TransitionScene) -> TransitionSnapshotting {
      let n = o.snapshotFrames
      let times = n == 1 ? [0] : (0..<n).map { scene.duration * Double($0) / Double(n - 1) }
      return .frames(times: times, scale: o.snapshotScale)
    }
    func verification(_ k: Int, _ record: SnapshotRecordMode) -> SnapshotVerification {
      SnapshotVerification(
        scene: scenes[k].scene, strategy: strategy(scenes[k].scene),
        reference: SnapshotReference(directory: folder, baseName: scenes[k].name), record: record)
    }
    for k in scenes.indices { _ = verification(k, .all).run() }
    let verify: () throws -> Void = {
      for k in scenes.indices {
        let outcome = verification(k, .never).run()
        guard !outcome.isFailure else { throw ValidationError(outcome.message) }
      }
    }
    try verify()
    let (verifyWall, verifyCPU) = try timedWithCPU(verify)
    // The parts, each over all frames.
    var files: [URL] = []
    var frames: [PixelBufferRGBA8] = []
    for k in scenes.indices {
      for (f, part) in try strategy(scenes[k].scene).snapshot(of: scenes[k].scene).enumerated() {
        files.append(folder.appendingPathComponent("\(scenes[k].name).frame-\(f).png"))
        if case .image(let image) = part.content { frames.append(image) }
      }
    }
    var decoded: [PixelBufferRGBA8] = []
    let decode: () throws -> Void = {
      decoded = try files.map { try SnapshotImageDecoder.decode([UInt8](Data(contentsOf: $0))) }
    }
    try decode()
    let decodeTimes = try timedWithCPU(decode)
    let render: () throws -> Void = {
      for k in scenes.indices { _ = try strategy(scenes[k].scene).snapshot(of: scenes[k].scene) }
    }
    let renderTimes = try timedWithCPU(render)
    let pixels = Double(frames.reduce(0) { $0 + $1.width * $1.height })
    func comparePass(_ tolerance: ImageTolerance, _ a: [PixelBufferRGBA8], _ b: [PixelBufferRGBA8])
      throws -> (wall: Double, cpu: Double)
    {
      var failing = 0
      let pass: () throws -> Void = {
        for (x, y) in zip(a, b) { failing += tolerance.compare(x, y).failingPixels }
      }
      try pass()
      return try timedWithCPU(pass)
    }
    let exact = try comparePass(.exact, decoded, frames)
    let perceptual = try comparePass(ImageTolerance(perceptualPrecision: 0.98), decoded, frames)
    // Worst case: every pixel one level brighter (on a tenth of the frames).
    let some = Array(frames.prefix(max(1, frames.count / 10)))
    let brighter = some.map { frame in
      var copy = frame
      for i in copy.components.indices where i % 4 != 3 {
        copy.components[i] = copy.components[i] == 255 ? 254 : copy.components[i] + 1
      }
      return copy
    }
    let somePixels = Double(some.reduce(0) { $0 + $1.width * $1.height })
    let worst = try comparePass(ImageTolerance(perceptualPrecision: 0.98), some, brighter)
    printSnapshotReport(
      scenes.count, frames.count, pixels, (verifyWall, verifyCPU), decodeTimes, renderTimes,
      (exact, perceptual, worst, somePixels))
  }

  /// A timing: median wall seconds of a pass, CPU seconds per pass.
  typealias PassTime = (wall: Double, cpu: Double)

  private func printSnapshotReport(
    _ transitions: Int, _ frameCount: Int, _ pixels: Double, _ verify: PassTime,
    _ decode: PassTime, _ render: PassTime,
    _ compare: (exact: PassTime, perceptual: PassTime, worst: PassTime, worstPixels: Double)
  ) {
    let o = snapshotOptions
    func line(_ name: String, _ t: PassTime, _ count: Double = pixels) -> String {
      name.padding(44) + "\(fixed(t.wall, 3)) s wall  \(fixed(t.cpu, 3)) s CPU  "
        + "\(fixed(count / t.cpu / 1e6, 1)) Mpixel per CPU-s"
    }
    print(
      "workload snapshot  transitions \(transitions)  frames \(frameCount)  scale "
        + "\(o.snapshotScale)  \(fixed(pixels / 1e6, 1)) Mpixel per pass  threads 1")
    print("CPU \(cpuModelName())  (\(CPUFeatures.runtime.description))")
    print(line("verify (read, decode, render, compare)", verify))
    print(line("  read + decode", decode))
    print(line("  render", render))
    print(line("  compare, exact", compare.exact))
    print(line("  compare, perceptual 0.98 (equal images)", compare.perceptual))
    print(line("  compare, perceptual 0.98, every pixel +1", compare.worst, compare.worstPixels))
  }

  /// The median wall seconds of the timed passes and the CPU seconds of the process over them,
  /// per pass.
  private func timedWithCPU(_ pass: () throws -> Void) throws -> (wall: Double, cpu: Double) {
    let c0 = processCPUSeconds()
    let (wall, _) = try timedPasses(pass)
    let cpu = (processCPUSeconds() - c0) / Double(wall.count)
    return (wall.sorted()[wall.count / 2], cpu)
  }
}
