import ArgumentParser
import Segue
import SegueBenchSupport
import SegueMallocCounter
import SegueToolSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// MARK: - Compositing workload (blend)
//
// `blend`: one of the `BlendKernels` over a W×H frame (W = `--width`, H = N / W, N = `--n`
// pixels, default 1920×1080 = 2 073 600), single thread, into a preallocated destination:
//
// * over8:         `overRGBA8(source, opacity:, onto: &destination)`, in place;
// * overFloat:     `overFloat(source, opacity:, onto: &destination)`, in place;
// * dissolve8:     `crossDissolveRGBA8(from, to, fraction:, into: &destination)`;
// * dissolveFloat: `crossDissolveFloat(from, to, fraction:, into: &destination)`.
//
// Inputs (not timed): splitmix64 seeded with 42; the source has a random alpha per pixel and
// colour components ≤ alpha (valid premultiplied), the destination and the dissolve images are
// random and opaque. One pass = one call (validation included); after one untimed warm-up pass,
// `repeats` passes are timed (or until `--seconds`). "over" runs in place, so later passes
// composite onto earlier results; the kernels have no data-dependent branches, so the timing does
// not depend on it. The checksum is taken after restoring the destination and running one more
// pass (so it does not depend on the number of passes), and for the RGBA8 kernels every 97th pixel
// is compared with the `Blend` reference rule (`mismatches`).
//
// Bytes moved per pixel: over reads source and destination and writes the destination (RGBA8
// 8 + 4, Float 32 + 16); dissolve reads two images and writes one (RGBA8 8 + 4, Float 32 + 16).
// The memory bound printed with it is a simple model from two bandwidths measured in the same
// run, on the same core and sizes (best of 5 passes each, untimed for the kernel): reading as
// many bytes as the kernel reads (a sum of 64-bit words) and storing as many as it writes
// (memset). A pass cannot take less than `read/R + written/W` if reads and writes do not
// overlap, nor less than `max(read/R, written/W)` if they overlap perfectly. Where the images
// fit in the last-level cache, both the kernel and the measured bandwidths run from it.

/// The compositing kernels of the `blend` workload.
enum BlendKernel: String, ExpressibleByArgument, CaseIterable {
  case over8, overFloat, dissolve8, dissolveFloat

  /// Bytes read and written per pixel.
  var bytesPerPixel: (read: Int, written: Int) {
    switch self {
    case .over8, .dissolve8: (8, 4)
    case .overFloat, .dissolveFloat: (32, 16)
    }
  }

  var isOver: Bool { self == .over8 || self == .overFloat }
}

/// The single-core read and store bandwidths (bytes/s) of this machine for `read` and `written`
/// bytes: the best of 5 passes of summing 64-bit words of a `read`-byte buffer, and of memset
/// of a `written`-byte buffer (each touched once before, so no page faults are timed).
func measuredBandwidth(read: Int, written: Int) -> (read: Double, store: Double) {
  let source = UnsafeMutableRawBufferPointer.allocate(
    byteCount: max(read, 8), alignment: CacheLine.bytes)
  let target = UnsafeMutableRawBufferPointer.allocate(
    byteCount: max(written, 8), alignment: CacheLine.bytes)
  defer {
    source.deallocate()
    target.deallocate()
  }
  memset(source.baseAddress!, 1, source.count)
  memset(target.baseAddress!, 0, target.count)
  var bestRead = Double.infinity
  var bestStore = Double.infinity
  var sum: UInt64 = 0
  let words = source.bindMemory(to: UInt64.self)
  for pass in 0..<5 {
    let t0 = monotonicSeconds()
    for w in words { sum &+= w }
    let t1 = monotonicSeconds()
    memset(target.baseAddress!, Int32(pass), target.count)
    let t2 = monotonicSeconds()
    bestRead = min(bestRead, t1 - t0)
    bestStore = min(bestStore, t2 - t1)
  }
  // Keep the sum alive so the reads are not removed.
  if sum == 42 { print("", terminator: "") }
  return (Double(read) / bestRead, Double(written) / bestStore)
}

/// The options of the `blend` workload (parsed with the others, used only by it).
struct BlendOptions: ParsableArguments {
  @Option(
    help:
      "Kernel of the blend workload: \(BlendKernel.allCases.map(\.rawValue).joined(separator: "|"))."
  )
  var blend: BlendKernel = .over8

  @Option(help: "Layer opacity of the blend over kernels, in [0, 1].")
  var opacity: Double = 0.8

  @Option(help: "Eased progress q of the blend dissolve kernels, in [0, 1].")
  var fraction: Double = 0.5

  @Option(help: "Frame width W of the blend workload (N must be a multiple of W).")
  var width: Int = 1920
}

extension SegueBench {
  /// The default pixel count of `blend` when `--n` is not given (1920×1080).
  static let blendDefaultPixels = 1920 * 1080

  /// N for the blend workload: `--n`, or 1920×1080 when it was not given.
  var blendPixelCount: Int {
    CommandLine.arguments.contains(where: { $0 == "--n" || $0.hasPrefix("--n=") })
      ? layerCount : Self.blendDefaultPixels
  }

  /// Checks the options of `blend` (called from `validate()`).
  func validateBlendWorkload() throws {
    let o = blendOptions
    guard o.opacity.isFinite && o.opacity >= 0 && o.opacity <= 1 else {
      throw ValidationError("--opacity must be in [0, 1] (got \(o.opacity))")
    }
    guard o.fraction.isFinite && o.fraction >= 0 && o.fraction <= 1 else {
      throw ValidationError("--fraction must be in [0, 1] (got \(o.fraction))")
    }
    let n = blendPixelCount
    guard o.width >= 1 && o.width <= 1 << 24 else {
      throw ValidationError("--width must be in 1…16777216 (got \(o.width))")
    }
    guard n % o.width == 0 else {
      throw ValidationError(
        "--n (\(n) pixels) must be a multiple of --width (\(o.width)); e.g. --n 2073600 for "
          + "1920×1080")
    }
    guard threads == 1 else {
      throw ValidationError("--threads does not apply to 'blend' (the kernels run on one core)")
    }
    guard path == .simd else {
      throw ValidationError("--path \(path.rawValue) does not apply to 'blend' (simd only)")
    }
    if time != nil || times != nil {
      throw ValidationError("--t/--times do not apply to 'blend'")
    }
  }

  /// Runs the blend workload and prints the report.
  func runBlendWorkload() throws {
    let options = blendOptions
    let kernel = options.blend
    let n = blendPixelCount
    let images = blendImages(pixels: n, opaqueFirst: !kernel.isOver)
    let run: BlendRun
    do {
      run = try BlendRun(kernel, options, images: images, pixels: n)
    } catch {
      throw ValidationError("\(error)")
    }
    // Make the destination unique before timing (the first write copies it away from `b`).
    try run.pass()
    let (passSeconds, maxAllocations) = try timedPasses { try run.pass() }
    run.restore()
    try run.pass()
    let sum = run.checksum()
    let allocations =
      segue_allocation_counting_available() != 0 ? Int(maxAllocations) : nil
    let result = BlendResult(
      kernel: kernel, pixels: n, width: options.width,
      setting: kernel.isOver ? options.opacity : options.fraction, passSeconds: passSeconds,
      allocations: allocations, mismatches: run.mismatches, checksum: sum)
    if format == .json {
      print("{" + result.fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    } else {
      print(result.text)
    }
  }

  /// The two input images of the blend workload (splitmix64 seeded with 42): premultiplied
  /// pixels with a random alpha and components ≤ alpha for the first unless `opaqueFirst`; the
  /// second opaque.
  func blendImages(pixels n: Int, opaqueFirst: Bool) -> (first: [UInt8], second: [UInt8]) {
    var state: UInt64 = 42
    func byte() -> UInt8 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return UInt8(truncatingIfNeeded: (z ^ (z >> 31)) >> 56)
    }
    /// Premultiplied pixels: a random alpha and components ≤ alpha, or opaque.
    func image(opaque: Bool) -> [UInt8] {
      var data = [UInt8](repeating: 0, count: 4 * n)
      for p in 0..<n {
        let a = opaque ? 255 : byte()
        for c in 0..<3 { data[4 * p + c] = UInt8(UInt16(byte()) * UInt16(a) / 255) }
        data[4 * p + 3] = a
      }
      return data
    }
    let first = image(opaque: opaqueFirst)
    let second = image(opaque: true)
    return (first, second)
  }
}

/// One blend kernel bound to its images and destination: a pass, a restore of the destination,
/// the destination's checksum, and the reference mismatches of the RGBA8 kernels.
struct BlendRun {
  let pass: () throws -> Void
  let restore: () -> Void
  let checksum: () -> Double
  var mismatches: Int? = nil

  init(
    _ kernel: BlendKernel, _ options: BlendOptions, images: (first: [UInt8], second: [UInt8]),
    pixels n: Int
  ) throws {
    let (width, height) = (options.width, n / options.width)
    switch kernel {
    case .over8, .dissolve8:
      let a = try PixelBufferRGBA8(width: width, height: height, components: images.first)
      let b = try PixelBufferRGBA8(width: width, height: height, components: images.second)
      var destination = kernel.isOver ? b : try PixelBufferRGBA8(width: width, height: height)
      let opacity = options.opacity
      let fraction = options.fraction
      pass =
        kernel == .over8
        ? { try BlendKernels.overRGBA8(a, opacity: opacity, onto: &destination) }
        : { try BlendKernels.crossDissolveRGBA8(a, b, fraction: fraction, into: &destination) }
      restore = { if kernel.isOver { destination = b } }
      checksum = { destination.components.reduce(0.0) { $0 + Double($1) } }
      try pass()
      restore()
      try pass()
      mismatches = try Self.referenceMismatches(
        kernel, options, images: images, pixels: n, result: destination.components)
    case .overFloat, .dissolveFloat:
      let a = try PixelBufferRGBAFloat(
        width: width, height: height, components: images.first.map { Float($0) / 255 })
      let b = try PixelBufferRGBAFloat(
        width: width, height: height, components: images.second.map { Float($0) / 255 })
      var destination =
        kernel.isOver ? b : try PixelBufferRGBAFloat(width: width, height: height)
      let opacity = options.opacity
      let fraction = options.fraction
      pass =
        kernel == .overFloat
        ? { try BlendKernels.overFloat(a, opacity: opacity, onto: &destination) }
        : { try BlendKernels.crossDissolveFloat(a, b, fraction: fraction, into: &destination) }
      restore = { if kernel.isOver { destination = b } }
      checksum = { destination.components.reduce(0.0) { $0 + Double($1) } }
    }
  }

  /// Every 97th pixel of an RGBA8 kernel's `result` compared with the ``Blend`` reference rule.
  static func referenceMismatches(
    _ kernel: BlendKernel, _ options: BlendOptions, images: (first: [UInt8], second: [UInt8]),
    pixels n: Int, result: [UInt8]
  ) throws -> Int {
    let o = try Blend.opacityByte(options.opacity)
    let k = try Blend.dissolveWeight(options.fraction)
    var count = 0
    for p in Swift.stride(from: 0, to: n, by: 97) {
      func pixel(_ data: [UInt8]) -> SIMD4<UInt8> {
        SIMD4(data[4 * p], data[4 * p + 1], data[4 * p + 2], data[4 * p + 3])
      }
      let expected =
        kernel == .over8
        ? Blend.overRGBA8(pixel(images.first), onto: pixel(images.second), opacity: o)
        : Blend.crossDissolveRGBA8(pixel(images.first), pixel(images.second), weight: k)
      if pixel(result) != expected { count += 1 }
    }
    return count
  }
}

/// The measurements of one blend run and the report made from them.
struct BlendResult {
  let kernel: BlendKernel
  let pixels: Int
  let width: Int
  /// The opacity (over) or the fraction (dissolve).
  let setting: Double
  let passSeconds: [Double]
  let allocations: Int?
  let mismatches: Int?
  let checksum: Double

  var height: Int { pixels / width }
  var median: Double {
    let sorted = passSeconds.sorted()
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }
  var best: Double { passSeconds.min() ?? .nan }
  var read: Double { Double(pixels * kernel.bytesPerPixel.read) }
  var written: Double { Double(pixels * kernel.bytesPerPixel.written) }

  /// The read and store bandwidths (bytes/s) measured after the timed passes, for the same
  /// sizes.
  let bandwidth: (read: Double, store: Double)

  init(
    kernel: BlendKernel, pixels: Int, width: Int, setting: Double, passSeconds: [Double],
    allocations: Int?, mismatches: Int?, checksum: Double
  ) {
    (self.kernel, self.pixels, self.width, self.setting) = (kernel, pixels, width, setting)
    (self.passSeconds, self.allocations) = (passSeconds, allocations)
    (self.mismatches, self.checksum) = (mismatches, checksum)
    bandwidth = measuredBandwidth(
      read: pixels * kernel.bytesPerPixel.read, written: pixels * kernel.bytesPerPixel.written)
  }

  /// Pixel rate of the memory model with reads and writes serialised.
  var boundSerial: Double { Double(pixels) / (read / bandwidth.read + written / bandwidth.store) }
  /// Pixel rate of the memory model with reads and writes fully overlapped.
  var boundOverlap: Double {
    Double(pixels) / max(read / bandwidth.read, written / bandwidth.store)
  }

  /// The JSON report's fields, in order.
  var fields: [(String, String)] {
    let n = Double(pixels)
    let (readPerPixel, writtenPerPixel) = kernel.bytesPerPixel
    return [
      ("workload", "\"blend\""),
      ("blend", "\"\(kernel.rawValue)\""),
      ("n", "\(pixels)"),
      ("width", "\(width)"),
      ("height", "\(height)"),
      (kernel.isOver ? "opacity" : "fraction", "\(setting)"),
      ("threads", "1"),
      ("path", "\"simd\""),
      ("passes", "\(passSeconds.count)"),
      ("medianSeconds", "\(median)"),
      ("bestSeconds", "\(best)"),
      ("pixelsPerSecond", "\(n / median)"),
      ("bestPixelsPerSecond", "\(n / best)"),
      ("nsPerPixel", "\(median / n * 1e9)"),
      ("bytesReadPerPixel", "\(readPerPixel)"),
      ("bytesWrittenPerPixel", "\(writtenPerPixel)"),
      ("GBPerSecond", "\((read + written) / median / 1e9)"),
      ("bestGBPerSecond", "\((read + written) / best / 1e9)"),
      ("measuredReadGBPerSecond", "\(bandwidth.read / 1e9)"),
      ("measuredStoreGBPerSecond", "\(bandwidth.store / 1e9)"),
      ("memoryBoundPixelsPerSecondSerial", "\(boundSerial)"),
      ("memoryBoundPixelsPerSecondOverlapped", "\(boundOverlap)"),
      ("allocationsPerPass", allocations.map { "\($0)" } ?? "null"),
      ("allocationsPerFrame", allocations.map { "\($0)" } ?? "null"),
      ("referenceMismatches", mismatches.map { "\($0)" } ?? "null"),
      ("cpuRuntime", "\"\(CPUFeatures.runtime.description)\""),
      ("swiftCompiledFor", "\"\(CPUFeatures.compiled.description)\""),
      ("checksum", "\(checksum)"),
    ]
  }

  /// The text report.
  var text: String {
    let n = Double(pixels)
    let (readPerPixel, writtenPerPixel) = kernel.bytesPerPixel
    return """
      workload blend  kernel \(kernel.rawValue)  \(width)×\(height) = \(pixels) pixels  \
      \(kernel.isOver ? "opacity" : "fraction") \(setting)  threads 1
      pixels/s       median \(sci(n / median))  best \(sci(n / best))  \
      (\(passSeconds.count) timed passes)
      ns per pixel   \(fixed(median / n * 1e9, 3))
      GB/s moved     median \(fixed((read + written) / median / 1e9, 2))  best \
      \(fixed((read + written) / best / 1e9, 2))  (read \(readPerPixel) + written \
      \(writtenPerPixel) B/pixel)
      memory bound   \(sci(boundSerial)) pixels/s (reads then stores) … \(sci(boundOverlap)) \
      (overlapped), from \(fixed(bandwidth.read / 1e9, 1)) GB/s read, \
      \(fixed(bandwidth.store / 1e9, 1)) GB/s store measured in this run (same sizes, one core)
      allocations    \(allocations.map { "\($0) per pass" } ?? "not counted on this platform")
      reference      \(mismatches.map { "\($0) mismatches in every 97th pixel" } ?? "not checked (Float)")
      CPU (runtime)  \(CPUFeatures.runtime.description)
      Swift built for \(CPUFeatures.compiled.description)
      checksum       \(sci(checksum, digits: 12))
      """
  }
}
