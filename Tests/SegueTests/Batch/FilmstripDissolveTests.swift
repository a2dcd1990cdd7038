import PropertyBased
import Testing

@testable import Segue

/// Runs a filmstrip job into a fresh buffer.
func runFilmstrip(
  _ images: BatchMatrix, fractions: [Double], path: BatchPath, threads: Int = 1,
  streaming: Bool = false, outputCount: Int? = nil
) throws -> (out: [Float], ran: BatchPath) {
  var out = [Float](repeating: -7, count: outputCount ?? fractions.count * images.columns)
  var ran = BatchPath.automatic
  try out.withUnsafeMutableBufferPointer { buffer throws(ValidationError) in
    let job = FilmstripDissolveJob(
      images: images, fractions: fractions, output: buffer, path: path,
      streamingStores: streaming)
    ran = try job.run(threads: threads)
  }
  return (out, ran)
}

/// A random premultiplied Float image (alpha in [0, 1], colour ≤ alpha).
func randomImage(width: Int, height: Int, _ rng: inout BatchTestRandom) throws
  -> PixelBufferRGBAFloat
{
  var image = try PixelBufferRGBAFloat(width: width, height: height)
  for y in 0..<height {
    for x in 0..<width {
      let a = Float(rng.next(0, 1))
      try image.setPixel(
        SIMD4(Float(rng.next(0, 1)) * a, Float(rng.next(0, 1)) * a, Float(rng.next(0, 1)) * a, a),
        x: x, y: y)
    }
  }
  return image
}

@Suite("Cross-dissolve filmstrip (SIMD and BLAS)")
struct FilmstripDissolveTests {
  /// By hand: A = opaque red (1, 0, 0, 1), B = opaque blue (0, 0, 1, 1); q = 0.25 gives
  /// 0.75·A + 0.25·B = (0.75, 0, 0.25, 1), q = 0 gives A, q = 1 gives B (all exact in Float).
  @Test(arguments: availableBatchPaths)
  func dissolveByHand(path: BatchPath) throws {
    let images = try BatchMatrix(rows: 2, columns: 4, elements: [1, 0, 0, 1, 0, 0, 1, 1])
    let (out, ran) = try runFilmstrip(images, fractions: [0.25, 0, 1], path: path)
    #expect(ran == path)
    #expect(out == [0.75, 0, 0.25, 1, 1, 0, 0, 1, 0, 0, 1, 1])
  }

  /// The SIMD path is, bit for bit, ``BlendKernels/crossDissolveFloat(_:_:fraction:into:)`` run
  /// frame by frame (the existing per-frame kernel); the BLAS path is within one rounding
  /// (2⁻²⁴) of it and inside [0, 1]. Odd sizes exercise the tails.
  @Test func pathsMatchPerFrameKernel() async throws {
    await propertyCheck(count: 40, input: Gen.int(in: 0...1_000_000), Gen.int(in: 1...23)) {
      seed, width in
      var rng = BatchTestRandom(state: UInt64(seed))
      let height = 1 + Int(rng.next(0, 5))
      let a = try! randomImage(width: width, height: height, &rng)
      let b = try! randomImage(width: width, height: height, &rng)
      let fractions = (0..<(1 + Int(rng.next(0, 6)))).map { _ in rng.next(0, 1) } + [0, 1]
      let images = try! FilmstripDissolveJob.stacking(from: a, to: b)
      let n = 4 * width * height
      let simd = try! runFilmstrip(images, fractions: fractions, path: .simd).out
      let blas = try! runFilmstrip(images, fractions: fractions, path: blasWhereAvailable).out
      for (f, q) in fractions.enumerated() {
        var frame = try! PixelBufferRGBAFloat(width: width, height: height)
        try! BlendKernels.crossDissolveFloat(a, b, fraction: q, into: &frame)
        #expect(Array(simd[(f * n)..<((f + 1) * n)]) == frame.components)
        for i in 0..<n {
          let x = blas[f * n + i]
          #expect(x >= 0 && x <= 1)
          #expect(abs(x - frame.components[i]) <= 0x1p-24)
        }
      }
    }
  }

  /// Threads and streaming stores leave the SIMD output bitwise unchanged.
  @Test func threadsAndStreamingDoNotChangeResults() throws {
    var rng = BatchTestRandom(state: 11)
    let a = try randomImage(width: 64, height: 37, &rng)
    let b = try randomImage(width: 64, height: 37, &rng)
    let images = try FilmstripDissolveJob.stacking(from: a, to: b)
    let fractions = (0..<5).map { Double($0) / 4 }
    let one = try runFilmstrip(images, fractions: fractions, path: .simd).out
    #expect(try runFilmstrip(images, fractions: fractions, path: .simd, threads: 2).out == one)
    #expect(try runFilmstrip(images, fractions: fractions, path: .simd, streaming: true).out == one)
  }

  /// Inner dimension 2: the rule picks SIMD.
  @Test func automaticPicksSIMD() throws {
    let images = try BatchMatrix(rows: 2, columns: 4, elements: [1, 1, 1, 1, 0, 0, 0, 0])
    #expect(try runFilmstrip(images, fractions: [0.5], path: .automatic).ran == .simd)
  }

  /// Stacking drops row padding: a 1×2 image with stride 12 keeps only its 8 pixel components.
  @Test func stackingDropsRowPadding() throws {
    let a = try PixelBufferRGBAFloat(
      width: 2, height: 1, stride: 12,
      components: [
        0.5, 0, 0, 0.5, 1, 1, 1, 1, 0.25, 0.25, 0.25, 0.25,
      ])
    let b = try PixelBufferRGBAFloat(width: 2, height: 1, fill: SIMD4(0, 0, 0, 1))
    let m = try FilmstripDissolveJob.stacking(from: a, to: b)
    #expect(m.rows == 2 && m.columns == 8)
    #expect(m.elements == [0.5, 0, 0, 0.5, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1])
  }

  // MARK: Rejected input

  @Test func sizeMismatchIsRejected() throws {
    let a = try PixelBufferRGBAFloat(width: 2, height: 2)
    let b = try PixelBufferRGBAFloat(width: 3, height: 2)
    #expect(throws: ValidationError.self) { try FilmstripDissolveJob.stacking(from: a, to: b) }
    do {
      _ = try FilmstripDissolveJob.stacking(from: a, to: b)
    } catch {
      #expect(error.field == "to.width")
    }
  }

  @Test func emptyImageIsRejected() throws {
    let a = try PixelBufferRGBAFloat(width: 0, height: 2)
    #expect(throws: ValidationError(field: "from.width", reason: .notPositive)) {
      try FilmstripDissolveJob.stacking(from: a, to: a)
    }
  }

  @Test func wrongRowCountIsRejected() throws {
    let images = try BatchMatrix(rows: 3, columns: 4, elements: [Float](repeating: 0, count: 12))
    #expect(
      throws: ValidationError(field: "images.rows", reason: .countMismatch(expected: 2, actual: 3))
    ) { try runFilmstrip(images, fractions: [0], path: .simd) }
  }

  @Test func emptyFractionsAreRejected() throws {
    let images = try BatchMatrix(rows: 2, columns: 4, elements: [Float](repeating: 0, count: 8))
    #expect(throws: ValidationError(field: "fractions", reason: .tooFew(minimum: 1, actual: 0))) {
      try runFilmstrip(images, fractions: [], path: .simd, outputCount: 1)
    }
  }

  @Test func nanFractionIsRejected() throws {
    let images = try BatchMatrix(rows: 2, columns: 4, elements: [Float](repeating: 0, count: 8))
    #expect(throws: ValidationError(field: "fractions", index: 1, reason: .notFinite)) {
      try runFilmstrip(images, fractions: [0.5, .nan], path: blasWhereAvailable)
    }
  }

  @Test func fractionOutsideUnitIntervalIsRejected() throws {
    let images = try BatchMatrix(rows: 2, columns: 4, elements: [Float](repeating: 0, count: 8))
    #expect(
      throws: ValidationError(field: "fractions", index: 0, reason: .outOfRange(lower: 0, upper: 1))
    ) { try runFilmstrip(images, fractions: [1.5], path: .simd) }
  }

  @Test func shortOutputIsRejected() throws {
    let images = try BatchMatrix(rows: 2, columns: 4, elements: [Float](repeating: 0, count: 8))
    #expect(throws: ValidationError(field: "output", reason: .tooFew(minimum: 8, actual: 5))) {
      try runFilmstrip(images, fractions: [0, 1], path: .simd, outputCount: 5)
    }
  }
}
