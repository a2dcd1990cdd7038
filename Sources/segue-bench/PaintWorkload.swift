import ArgumentParser
import Segue
import SegueRender

// MARK: - Paint workload (paint)
//
// `paint`: one of SegueRender's per-pixel paint kernels filling a W×H frame (W = `--width`,
// H = N / W, N = `--n` pixels, default 1920×1080), one row at a time into one reused row
// buffer, single thread:
//
// * image-linear, image-trilinear, image-nearest: `ImageSampler.fill` of a 1024 × 1024 image
//   (premultiplied, splitmix64 noise seeded with 42, mipmapped untimed) seen through a
//   perspective map: the frame is the image plane rotated 30° about y with m34 = −1/1000,
//   scaled so the image spans the frame (texels per pixel 0.5…1.5 along a row), with the
//   named filter as both minification and magnification filter;
// * gradient-axial, gradient-radial, gradient-conic: `GradientSpanShader.fill` of a four-stop
//   gradient over the frame (straight colours, one translucent), affine rows.
//
// One pass = the whole frame; after one untimed warm-up pass, `repeats` passes are timed (or
// until `--seconds`). Each pass is timed on the wall clock and in process CPU time (a busy
// machine slows the first, not the second). The checksum is the sum of the last row's bytes.

/// The kernels of the `paint` workload.
enum PaintKernel: String, ExpressibleByArgument, CaseIterable {
  case imageLinear = "image-linear"
  case imageTrilinear = "image-trilinear"
  case imageNearest = "image-nearest"
  case gradientAxial = "gradient-axial"
  case gradientRadial = "gradient-radial"
  case gradientConic = "gradient-conic"
}

/// The options of the `paint` workload (parsed with the others, used only by it).
struct PaintOptions: ParsableArguments {
  @Option(
    help:
      "Kernel of the paint workload: \(PaintKernel.allCases.map(\.rawValue).joined(separator: "|"))."
  )
  var paint: PaintKernel = .imageLinear
}

extension SegueBench {
  /// Checks the options of `paint` (called from `validate()`): as `blend`'s frame size.
  func validatePaintWorkload() throws {
    let n = blendPixelCount
    let width = blendOptions.width
    guard width >= 1 && width <= 1 << 24, n % width == 0 else {
      throw ValidationError("--n (\(n)) must be a multiple of --width (\(width))")
    }
    guard threads == 1 else {
      throw ValidationError("--threads does not apply to 'paint' (one core)")
    }
  }

  /// Runs the paint workload and prints the report.
  func runPaintWorkload() throws {
    let kernel = paintOptions.paint
    let width = blendOptions.width
    let height = blendPixelCount / width
    var row = [UInt8](repeating: 0, count: 4 * width)
    let fillRow: (Int, UnsafeMutablePointer<UInt8>) -> Void
    switch kernel {
    case .imageLinear, .imageTrilinear, .imageNearest:
      let filter: ContentsFilter =
        kernel == .imageLinear ? .linear : kernel == .imageNearest ? .nearest : .trilinear
      let sampler = ImageSampler(
        Mipmaps(Self.noiseImage(side: 1024)), minificationFilter: filter,
        magnificationFilter: filter)
      let map = Self.perspectiveMap(width: width, height: height, side: 1024)
      fillRow = { y, out in
        sampler.fill(map(y), count: width, into: out)
      }
    case .gradientAxial, .gradientRadial, .gradientConic:
      let type: GradientType =
        kernel == .gradientAxial ? .axial : kernel == .gradientRadial ? .radial : .conic
      let colors = try [
        RGBAColor(red: 0.1, green: 0.4, blue: 0.9),
        RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.5),
        RGBAColor(red: 0.9, green: 0.2, blue: 0.3), RGBAColor(red: 0.2, green: 0.8, blue: 0.4),
      ]
      let shader = try GradientSpanShader(
        GradientPaint(
          type: type, colors: colors, locations: [0, 0.3, 0.7, 1],
          startPoint: Point(x: 0.3, y: 0.4),
          endPoint: Point(x: 0.9, y: 0.9),
          bounds: Rect(x: 0, y: 0, width: Double(width), height: Double(height))))
      fillRow = { y, out in
        shader.fill(
          ProjectiveSpan(x: 0.5, y: Double(y) + 0.5, dx: 1, dy: 0, rowDX: 0, rowDY: 1),
          count: width, into: out)
      }
    }
    var cpuSeconds: [Double] = []
    cpuSeconds.reserveCapacity(repeats + 1_000)
    let pass = {
      let start = processCPUSeconds()
      row.withUnsafeMutableBufferPointer { buffer in
        for y in 0..<height { fillRow(y, buffer.baseAddress!) }
      }
      cpuSeconds.append(processCPUSeconds() - start)
    }
    pass()
    cpuSeconds.removeAll()
    let (passSeconds, allocations) = timedPasses { pass() }
    let sum = row.reduce(0.0) { $0 + Double($1) }
    let median = passSeconds.sorted()[passSeconds.count / 2]
    let cpuMedian = cpuSeconds.sorted()[cpuSeconds.count / 2]
    let n = Double(width * height)
    print(
      """
      workload paint  kernel \(kernel.rawValue)  \(width)×\(height) = \(width * height) pixels  threads 1
      Mpixel/s       median \(fixed(n / median / 1e6, 1)) wall, \(fixed(n / cpuMedian / 1e6, 1)) per \
      CPU-second  (\(passSeconds.count) timed passes)
      ns per pixel   \(fixed(cpuMedian / n * 1e9, 3)) CPU
      allocations    \(allocations) per pass
      CPU            \(cpuModelName()), \(CPUFeatures.runtime.description)
      Swift built for \(CPUFeatures.compiled.description)
      checksum       \(sci(sum, digits: 12)) (the last row)
      """)
  }

  /// A `side × side` premultiplied noise image (splitmix64, seed 42).
  static func noiseImage(side: Int) -> PixelBufferRGBA8 { noiseImage(width: side, height: side) }

  /// The pixel → texel spans of the rows of a frame showing the image plane rotated 30° about
  /// y under m34 = −1/1000, scaled to span the frame.
  static func perspectiveMap(width: Int, height: Int, side: Int) -> (Int) -> ProjectiveSpan {
    let frame = Size(width: Double(width), height: Double(height))
    let scale = Swift.min(frame.width, frame.height) / Double(side)
    let half = Double(side) / 2 * scale
    // Texel → frame: scale, centre on the origin, rotate about y, project, move to the centre.
    let full =
      Transform3D.makeScale(x: scale, y: scale, z: 1)
      * Transform3D.makeTranslation(x: -half, y: -half, z: 0)
      * Transform3D.makeRotation(by: Double.pi / 6, x: 0, y: 1, z: 0)
      * Transform3D.makePerspective(distance: 1000)
      * Transform3D.makeTranslation(x: frame.width / 2, y: frame.height / 2, z: 0)
    return planeInverse(full)
  }

  /// The pixel → layer spans of the rows of a frame drawn through `full` (layer → pixels):
  /// the inverse of the plane homography (rows and columns x, y, w) by its adjugate.
  static func planeInverse(_ full: Transform3D) -> (Int) -> ProjectiveSpan {
    let h = [
      full.m11, full.m12, full.m14, full.m21, full.m22, full.m24, full.m41, full.m42, full.m44,
    ]
    var c = [
      h[4] * h[8] - h[5] * h[7], h[2] * h[7] - h[1] * h[8], h[1] * h[5] - h[2] * h[4],
      h[5] * h[6] - h[3] * h[8], h[0] * h[8] - h[2] * h[6], h[2] * h[3] - h[0] * h[5],
      h[3] * h[7] - h[4] * h[6], h[1] * h[6] - h[0] * h[7], h[0] * h[4] - h[1] * h[3],
    ]
    // The adjugate is the inverse times det(h): flip its sign so that w > 0 in front of the eye.
    if h[0] * c[0] + h[1] * c[3] + h[2] * c[6] < 0 { c = c.map { -$0 } }
    return { y in
      let py = Double(y) + 0.5
      return ProjectiveSpan(
        x: 0.5 * c[0] + py * c[3] + c[6], y: 0.5 * c[1] + py * c[4] + c[7],
        w: 0.5 * c[2] + py * c[5] + c[8], dx: c[0], dy: c[1], dw: c[2], rowDX: c[3], rowDY: c[4],
        rowDW: c[5])
    }
  }
}
