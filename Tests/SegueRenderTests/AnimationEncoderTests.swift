import Foundation
import Segue
import SegueRender
import SegueTestSupport
import Testing

/// A scratch directory removed by the caller.
private func scratchDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "segue-animation-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A preset's frames at `times` (default views, `scale` px/pt).
private func presetFrames(
  _ preset: TransitionPreset, _ operation: TransitionOperation, scale: Double,
  gradient: Bool = false, times: [Double]
) throws -> [PixelBufferRGBA8] {
  let animator = PresetAnimator(preset)
  let scene = try animator.animateTransition(
    using: animator.defaultContext(operation: operation, content: .bare))
  let renderer = SceneRenderer(scale: scale, gradient: gradient)
  return try times.map { try renderer.render(scene, at: $0) }
}

/// Straight-alpha RGBA bytes of a premultiplied image (the PNG/GIF convention), row-major.
private func straight(_ image: PixelBufferRGBA8) -> [UInt8] {
  var out: [UInt8] = []
  for y in 0..<image.height {
    for x in 0..<image.width {
      let p = image[x, y]
      let a = Int(p[3])
      if a == 0 {
        out += [0, 0, 0, 0]
      } else {
        for c in 0..<3 { out.append(UInt8(min(255, (510 * Int(p[c]) + a) / (2 * a)))) }
        out.append(p[3])
      }
    }
  }
  return out
}

// MARK: - APNG

@Suite("APNG")
struct APNGTests {
  /// Delay fractions by hand: 0.1 s = 1/10, 1/30 s = 1/30 (its double), 0.04 = 1/25,
  /// 0.125 = 1/8, 2.5 = 5/2, 1/3 = 1/3, 1 ms = 1/1000; π/100 → 71/2260, the best fraction
  /// with denominator ≤ 65535 (Python's `Fraction.limit_denominator`); 10⁻⁷ s → 1/65535 (the
  /// shortest positive delay); 65535 s → 65535/1.
  @Test func delayFractions() {
    func fraction(_ d: Double) -> (UInt16, UInt16) {
      let f = APNGEncoder.delayFraction(d)
      return (f.numerator, f.denominator)
    }
    #expect(fraction(0.1) == (1, 10))
    #expect(fraction(1.0 / 30) == (1, 30))
    #expect(fraction(0.04) == (1, 25))
    #expect(fraction(0.125) == (1, 8))
    #expect(fraction(2.5) == (5, 2))
    #expect(fraction(1.0 / 3) == (1, 3))
    #expect(fraction(0.001) == (1, 1000))
    // Python: Fraction(math.pi / 100).limit_denominator(65535) == Fraction(71, 2260).
    #expect(fraction(Double.pi / 100) == (71, 2260))
    #expect(fraction(1e-7) == (1, 65535))
    #expect(fraction(65535) == (65535, 1))
  }

  /// Frame delays from sample times: the differences, the last repeating the one before; one
  /// frame gets `single`.
  @Test func delaysFromTimes() throws {
    let delays = try FrameTiming.delays(for: [0, 0.1, 0.25, 0.3])
    #expect(delays.count == 4)
    for (d, e) in zip(delays, [0.1, 0.15, 0.05, 0.05]) { #expect(abs(d - e) < 1e-12) }
    #expect(try FrameTiming.delays(for: [2], single: 0.04) == [0.04])
  }

  @Test func delaysRejectBadTimes() {
    #expect(throws: ValidationError(field: "times", reason: .tooFew(minimum: 1, actual: 0))) {
      try FrameTiming.delays(for: [])
    }
    #expect(throws: ValidationError(field: "times", index: 2, reason: .decreasing)) {
      try FrameTiming.delays(for: [0, 0.2, 0.1])
    }
    #expect(throws: ValidationError(field: "times", index: 1, reason: .notFinite)) {
      try FrameTiming.delays(for: [0, .nan])
    }
    #expect(throws: ValidationError.self) { try FrameTiming.delays(for: [0, 0]) }
    #expect(throws: ValidationError(field: "single", reason: .notPositive)) {
      try FrameTiming.delays(for: [0], single: 0)
    }
  }

  /// A system push (0.5 s) at 10 fps and 0.25 px/pt, one frame past its end: decoded by the
  /// Python reader, the frame count, play count (0), each delay (1/10) and every composited
  /// canvas equal the rendered frames; the first frame covers the canvas, later ones only their
  /// changed region (1 × 1 for the last, equal to the one before).
  @Test(
    .enabled(
      if: APNGReading.python != nil,
      "python3 not found on PATH: apt-get install python3, or make setup-test"))
  func systemPushDecodes() throws {
    let times = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    let frames = try presetFrames(.system, .push, scale: 0.25, times: times)
    let delays = try FrameTiming.delays(for: times)
    var encoder = try APNGEncoder(
      width: frames[0].width, height: frames[0].height, frameCount: frames.count)
    for (frame, delay) in zip(frames, delays) { try encoder.add(frame, delay: delay) }
    let file = try encoder.finish()
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("a.png")
    try Data(file).write(to: url)
    var expected: [String] = []
    for (k, frame) in frames.enumerated() {
      let raw = directory.appendingPathComponent("\(k).rgba")
      try Data(straight(frame)).write(to: raw)
      expected.append(raw.path)
    }
    let lines = try APNGReading.run([url.path] + expected).split(separator: "\n")
    #expect(lines.first == "ACTL 7 0")
    let frameLines = lines.filter { $0.hasPrefix("FRAME") }.map { $0.split(separator: " ") }
    try #require(frameLines.count == 7)
    #expect(frameLines[0][2...] == ["1", "10", "0", "0", "98", "211"])
    for line in frameLines { #expect(line[2] == "1" && line[3] == "10") }
    #expect(frameLines[6][6...] == ["1", "1"])
    #expect(lines.filter { $0.hasPrefix("CANVAS") }.count == 7)
    #expect(lines.filter { $0.hasSuffix("differ") }.isEmpty, "\(lines)")
  }

  @Test func rejectsBadInput() throws {
    #expect(throws: ValidationError(field: "frameCount", reason: .tooFew(minimum: 1, actual: 0))) {
      try APNGEncoder(width: 2, height: 2, frameCount: 0)
    }
    #expect(
      throws: ValidationError(field: "width", reason: .outOfRange(lower: 1, upper: 2_147_483_647))
    ) {
      try APNGEncoder(width: 0, height: 2, frameCount: 1)
    }
    #expect(throws: ValidationError(field: "level", reason: .outOfRange(lower: 0, upper: 12))) {
      try APNGEncoder(width: 2, height: 2, frameCount: 1, compression: .level(13))
    }
    var encoder = try APNGEncoder(width: 2, height: 2, frameCount: 1)
    let wrong = try PixelBufferRGBA8(width: 3, height: 2)
    #expect(
      throws: ValidationError(field: "frame.width", reason: .countMismatch(expected: 2, actual: 3))
    ) {
      try encoder.add(wrong, delay: 0.1)
    }
    let frame = try PixelBufferRGBA8(width: 2, height: 2)
    #expect(throws: ValidationError(field: "delay", reason: .notPositive)) {
      try encoder.add(frame, delay: 0)
    }
    #expect(
      throws: ValidationError(field: "frameCount", reason: .countMismatch(expected: 1, actual: 0))
    ) {
      try encoder.finish()
    }
    try encoder.add(frame, delay: 0.1)
    #expect(throws: ValidationError.self) { try encoder.add(frame, delay: 0.1) }
    #expect(try encoder.finish().count > 8)
  }
}

// MARK: - GIF

@Suite("GIF")
struct GIFTests {
  /// Every preset's push at 0.25 px/pt on bare views, 11 frames over its duration: each frame has
  /// few enough colours to be stored exactly, so every decoded canvas equals the rendered frame
  /// (straight alpha, all opaque); the loop count is 0 (forever).
  @Test(arguments: TransitionPreset.allCases)
  func presetsRoundTripExactly(preset: TransitionPreset) throws {
    let animator = PresetAnimator(preset)
    let scene = try animator.animateTransition(
      using: animator.defaultContext(operation: .push, content: .bare))
    let times = (0...10).map { Double($0) * scene.duration / 10 }
    let frames = try presetFrames(preset, .push, scale: 0.25, times: times)
    var encoder = try GIFEncoder(width: frames[0].width, height: frames[0].height)
    for frame in frames { try encoder.add(frame, delay: scene.duration / 10) }
    let gif = try GIFDecoding(try encoder.finish())
    #expect(gif.loops == 0)
    #expect(gif.frames.count == frames.count)
    for (k, frame) in frames.enumerated() where k < gif.frames.count {
      #expect(gif.frames[k].canvas == straight(frame), "\(preset) frame \(k)")
    }
  }

  /// A frame with more than 256 colours (hero pop on bare views with gradients at 0.5 px/pt: 626
  /// colours, counted here; and a 64 × 64 ramp with 4096 colours) stays close after median cut. UI frame: every channel
  /// within 6 levels, mean below 2 (RGBA). Ramp (R = 4x, G = 4y, B = 2(x + y), every colour
  /// once): 256 boxes hold 16 colours each, about a 4 × 4 block of (x, y), so R and G spread
  /// over 12 levels around the box mean (|error| 2 or 6, mean 4) and B less: every channel
  /// within 10, mean below 3 (RGBA, alpha exact).
  @Test func manyColoursStayClose() throws {
    let hero = try presetFrames(
      .hero, .pop, scale: 0.5, gradient: true, times: [0.35])[0]
    var ramp = try PixelBufferRGBA8(width: 64, height: 64)
    for y in 0..<64 {
      for x in 0..<64 {
        ramp[x, y] = SIMD4(UInt8(4 * x), UInt8(4 * y), UInt8(2 * (x + y)), 255)
      }
    }
    for (image, bound, meanBound) in [(hero, 6, 2.0), (ramp, 10, 3.0)] {
      let colours = Set(
        (0..<image.height).flatMap { y in (0..<image.width).map { x in image[x, y] } })
      #expect(colours.count > 256, "\(colours.count) colours: the palette would hold them all")
      var encoder = try GIFEncoder(width: image.width, height: image.height)
      try encoder.add(image, delay: 0.1)
      let decoded = try GIFDecoding(try encoder.finish()).frames[0].canvas
      let expected = straight(image)
      var worst = 0
      var total = 0
      for i in 0..<expected.count {
        let d = abs(Int(decoded[i]) - Int(expected[i]))
        worst = max(worst, d)
        total += d
      }
      #expect(worst <= bound, "worst \(worst)")
      let mean = Double(total) / Double(expected.count)
      #expect(mean < meanBound, "mean \(mean)")
    }
  }

  /// Delays in centiseconds with the rounding carried forward: 1/30 s each gives cumulative
  /// 3.33, 6.67, 10, 13.33 … cs → 3, 4, 3, 3, 4, 3 (totals 3, 7, 10, 13, 17, 20); delays under
  /// 2 cs become 2.
  @Test func delaysCarryTheirRounding() throws {
    let frame = try PixelBufferRGBA8(width: 2, height: 2, fill: SIMD4(0, 0, 0, 255))
    var encoder = try GIFEncoder(width: 2, height: 2, loops: 3)
    for _ in 0..<6 { try encoder.add(frame, delay: 1.0 / 30) }
    let gif = try GIFDecoding(try encoder.finish())
    #expect(gif.frames.map(\.delay) == [3, 4, 3, 3, 4, 3])
    #expect(gif.loops == 3)
    var fast = try GIFEncoder(width: 2, height: 2)
    for _ in 0..<3 { try fast.add(frame, delay: 0.005) }
    #expect(try GIFDecoding(try fast.finish()).frames.map(\.delay) == [2, 2, 2])
  }

  /// Transparent pixels (alpha below 128) round-trip as transparent, and frames with
  /// transparency are whole-canvas with disposal 2, so a pixel that turns transparent does not
  /// keep the old colour.
  @Test func transparency() throws {
    var a = try PixelBufferRGBA8(width: 3, height: 1, fill: SIMD4(255, 0, 0, 255))
    a[2, 0] = .zero
    var b = a
    b[0, 0] = .zero
    b[2, 0] = SIMD4(0, 0, 200, 200)
    var encoder = try GIFEncoder(width: 3, height: 1)
    try encoder.add(a, delay: 0.1)
    try encoder.add(b, delay: 0.1)
    let gif = try GIFDecoding(try encoder.finish())
    #expect(gif.frames[0].canvas == [255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 0, 0])
    #expect(gif.frames[1].canvas == [0, 0, 0, 0, 255, 0, 0, 255, 0, 0, 255, 255])
    #expect(gif.frames.map(\.disposal) == [2, 2])
  }

  /// LZW over long inputs: 300 000 indices of a 4-colour pattern with long runs and noise
  /// (several table resets at 4096 codes) decode to the same indices.
  @Test func longStreamsResetTheTable() throws {
    var state: UInt64 = 7
    var image = try PixelBufferRGBA8(width: 600, height: 500)
    for y in 0..<500 {
      for x in 0..<600 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let noise = Int(state >> 61)
        let v = UInt8(((x / 7 + y / 3 + noise) % 4) * 60)
        image[x, y] = SIMD4(v, 255 - v, v / 2, 255)
      }
    }
    var encoder = try GIFEncoder(width: 600, height: 500)
    try encoder.add(image, delay: 0.5)
    let gif = try GIFDecoding(try encoder.finish())
    #expect(gif.frames[0].canvas == straight(image))
  }

  @Test func rejectsBadInput() throws {
    #expect(throws: ValidationError(field: "width", reason: .outOfRange(lower: 1, upper: 65535))) {
      try GIFEncoder(width: 70000, height: 2)
    }
    #expect(throws: ValidationError(field: "loops", reason: .outOfRange(lower: 0, upper: 65535))) {
      try GIFEncoder(width: 2, height: 2, loops: -1)
    }
    var encoder = try GIFEncoder(width: 2, height: 2)
    #expect(throws: ValidationError(field: "frames", reason: .tooFew(minimum: 1, actual: 0))) {
      try encoder.finish()
    }
    let frame = try PixelBufferRGBA8(width: 2, height: 2)
    #expect(throws: ValidationError(field: "delay", reason: .outOfRange(lower: 0, upper: 655.35))) {
      try encoder.add(frame, delay: 700)
    }
    #expect(
      throws: ValidationError(field: "frame.height", reason: .countMismatch(expected: 2, actual: 3))
    ) {
      try encoder.add(try PixelBufferRGBA8(width: 2, height: 3), delay: 0.1)
    }
  }
}
