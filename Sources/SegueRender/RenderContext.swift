import Segue
import Synchronization

/// Caller-owned working memory and threads for the fast renderer (``Rasterizer``,
/// ``SceneRenderer/render(_:at:into:context:)``): the compiled render list of the current frame,
/// one set of band images per thread, and the worker threads. Keep one per render loop and
/// reuse it: after the first frame of a given size a frame allocates nothing in the
/// rasteriser.
///
/// **Bands.** A frame is rendered in bands of ``bandHeight`` rows in a small Float image
/// (`width × bandHeight` premultiplied RGBA, about 200 KB at 780 pixels wide, so it stays in the
/// core's L2 cache), whose rows start as one run of the background colour (runs of one colour
/// are kept over the Floats); every op of the render list is applied to it (off-screen levels
/// for cross-dissolves and groups are further band images), and it is quantised into the
/// caller's RGBA8 image, each run of one colour once. With ``threads`` `> 1` the bands are
/// shared out among the threads of a persistent ``/Segue/BatchContext`` (each thread claims the
/// next band from an atomic counter, so a thread slowed by other load takes fewer).
///
/// Not thread-safe: one render call at a time per context.
public final class RenderContext {
  /// The threads a frame is rendered on (the calling thread included), `1…64`.
  public let threads: Int
  /// Rows per band.
  public let bandHeight: Int
  /// The compiled render list of the current frame.
  var program = RasterProgram()
  /// One set of band images per thread.
  let scratch: [RasterScratch]
  /// The workers (`nil` with one thread).
  let batch: BatchContext?
  /// The next band to render in the current frame.
  let nextBand = Atomic<Int>(0)

  /// Creates a context for `threads` threads (starting `threads − 1` workers).
  ///
  /// - Parameters:
  ///   - threads: `1…64` (default 1).
  ///   - bandHeight: rows per band, `1…1024` (default 16).
  /// - Throws: ``/Segue/ValidationError`` naming `threads` or `bandHeight` outside those ranges.
  public init(threads: Int = 1, bandHeight: Int = 16) throws(ValidationError) {
    guard threads >= 1 && threads <= 64 else {
      throw ValidationError(field: "threads", reason: .outOfRange(lower: 1, upper: 64))
    }
    guard bandHeight >= 1 && bandHeight <= 1024 else {
      throw ValidationError(field: "bandHeight", reason: .outOfRange(lower: 1, upper: 1024))
    }
    self.threads = threads
    self.bandHeight = bandHeight
    scratch = (0..<threads).map { _ in RasterScratch() }
    batch = threads > 1 ? try BatchContext(threads: threads) : nil
  }

  // MARK: - Running a compiled program

  /// Renders the compiled ``program`` into an RGBA8 image of `image.width × image.height`
  /// (already sized), in bands, on ``threads`` threads.
  func run(into image: inout PixelBufferRGBA8, background: SIMD4<Float>) {
    let width = image.width
    let height = image.height
    guard width > 0 && height > 0 else { return }
    for s in scratch {
      s.reserve(levels: program.depth + 1, width: width, rows: bandHeight)
      s.reserve(edges: program.edges.count)
    }
    let bands = (height + bandHeight - 1) / bandHeight
    nextBand.store(0, ordering: .relaxed)
    let stride = image.stride
    program.withView { program in
      image.components.withUnsafeMutableBufferPointer { output in
        var job = BandJob(
          owner: self, program: program, output: output.baseAddress!, outputStride: stride,
          width: width, height: height, background: background, bands: bands)
        withUnsafePointer(to: &job) { pointer in
          let invoke: BatchChunkFunction = { raw, lower, upper in
            let job = raw.assumingMemoryBound(to: BandJob.self)
            for slot in lower..<upper { job.pointee.work(slot: slot) }
          }
          if let batch {
            batch.run(
              range: 0..<threads, chunkSize: 1, invoke: invoke,
              context: UnsafeRawPointer(pointer))
          } else {
            invoke(UnsafeRawPointer(pointer), 0, 1)
          }
        }
      }
    }
  }

  /// Renders the compiled ``program`` onto rows of an existing Float image (its current
  /// contents are the background), on the calling thread.
  func run(onto buffer: inout PixelBufferRGBAFloat) {
    let width = buffer.width
    let height = buffer.height
    guard width > 0 && height > 0 else { return }
    let s = scratch[0]
    s.reserve(levels: program.depth + 1, width: width, rows: bandHeight)
    s.reserve(edges: program.edges.count)
    let stride = buffer.stride
    program.withView { program in
      buffer.components.withUnsafeMutableBufferPointer { pixels in
        var y = 0
        while y < height {
          let rows = y..<Swift.min(height, y + bandHeight)
          let frame = RasterTarget(base: pixels.baseAddress!, stride: stride, firstRow: 0)
          BandJob.execute(program, frame: frame, rows: rows, scratch: s)
          y = rows.upperBound
        }
      }
    }
  }
}

/// One frame's work, shared (read-only) by the threads: the program, the output and the band
/// counter. Passed to the workers by address.
struct BandJob {
  unowned(unsafe) let owner: RenderContext
  let program: RasterProgram.View
  let output: UnsafeMutablePointer<UInt8>
  let outputStride: Int
  let width: Int
  let height: Int
  let background: SIMD4<Float>
  let bands: Int

  /// Claims and renders bands until none is left, with the band images of `slot`.
  func work(slot: Int) {
    let scratch = owner.scratch[slot]
    let bandHeight = owner.bandHeight
    while true {
      let band = owner.nextBand.wrappingAdd(1, ordering: .relaxed).oldValue
      guard band < bands else { return }
      let rows = (band * bandHeight)..<Swift.min(height, (band + 1) * bandHeight)
      let frame = RasterTarget(
        base: scratch.level(0), stride: scratch.stride, firstRow: rows.lowerBound)
      // Each row starts as one run of the background; runs are quantised once per run.
      let runs = scratch.runs(over: frame)
      runs.reset(rows, width: width, colour: background)
      Self.execute(program, frame: frame, rows: rows, scratch: scratch, runs: runs)
      for y in rows { runs.quantise(y, width: width, into: output + y * outputStride) }
    }
  }

  /// Applies every op to rows `rows` of `frame` (level 0), with the off-screen levels in
  /// `scratch` (cleared on entry, left cleared on exit). With `runs`, level 0 is those runs over
  /// `frame` (``SolidRunRows``).
  static func execute(
    _ program: RasterProgram.View, frame: RasterTarget, rows: Range<Int>, scratch: RasterScratch,
    runs: SolidRunRows? = nil
  ) {
    var level = 0
    let dirty = scratch.dirty
    dirty[0] = (Int.max, Int.min)
    func target(_ level: Int) -> RasterTarget {
      level == 0
        ? frame
        : RasterTarget(
          base: scratch.level(level), stride: scratch.stride, firstRow: rows.lowerBound)
    }
    for (position, op) in program.ops.enumerated() {
      switch op {
      case .draw(let index):
        let hidden = level == 0 ? program.hiddenColumns(after: position, rows: rows) : 0..<0
        let d = RasterSpans.draw(
          program.layers[index], program, target: target(level), rows: rows, hidden: hidden,
          crossings: scratch.pathCrossings, bandEdges: scratch.bandEdges,
          runs: level == 0 ? runs : nil)
        dirty[level] = (Swift.min(dirty[level].lo, d.lo), Swift.max(dirty[level].hi, d.hi))
      case .push:
        level += 1
        dirty[level] = (Int.max, Int.min)
      case .popOver(let opacity), .popAdd(let opacity):
        let source = target(level)
        let destination = target(level - 1)
        let (lo, hi) = dirty[level]
        if lo < hi {
          for y in rows {
            if level == 1 { runs?.materialise(y, lo, hi) }
            let s = source.row(y) + 4 * lo
            let d = destination.row(y) + 4 * lo
            if case .popOver = op {
              RasterSpans.overSpan(s, d, count: hi - lo, opacity: opacity)
            } else {
              RasterSpans.addSpan(s, d, count: hi - lo, weight: opacity)
            }
            RasterSpans.setSpan(s, count: hi - lo, .zero)
          }
        }
        level -= 1
        dirty[level] = (Swift.min(dirty[level].lo, lo), Swift.max(dirty[level].hi, hi))
      }
    }
  }
}

/// One thread's band images: `levels` Float images of `rows × stride` floats in one block
/// (level 0 the frame band, the others off-screen levels, kept cleared between uses), and the
/// changed x-range of each level.
final class RasterScratch {
  private(set) var storage: UnsafeMutablePointer<Float>?
  private(set) var levels = 0
  private(set) var rows = 0
  /// Floats per row: `4·width` rounded up to a multiple of 16 (one cache line), plus 16 when
  /// the row size is a multiple of 4 KiB (so rows do not collide in the caches).
  private(set) var stride = 0
  private(set) var dirty: UnsafeMutablePointer<(lo: Int, hi: Int)>
  private var dirtyCapacity = 1
  /// A path row's sorted crossings (``PathRowCrossings``).
  let pathCrossings: UnsafeMutablePointer<Int32>
  /// A path layer's edges that reach the current band (``reserve(edges:)`` sized).
  private(set) var bandEdges: UnsafeMutablePointer<PathEdge>
  private var bandEdgeCapacity = 0
  /// The frame band's runs (``SolidRunRows``): `rows` rows of runs, their counts, and room
  /// for one row's edit.
  private var solidRuns: UnsafeMutablePointer<SolidRun>?
  private var solidRunCounts: UnsafeMutablePointer<Int>?
  private let spareRuns: UnsafeMutablePointer<SolidRun>

  init() {
    dirty = .allocate(capacity: 1)
    pathCrossings = .allocate(capacity: PathRowCrossings.bufferCount)
    bandEdges = .allocate(capacity: 0)
    spareRuns = .allocate(capacity: SolidRunRows.spareCapacity)
  }

  deinit {
    storage?.deallocate()
    dirty.deallocate()
    pathCrossings.deallocate()
    bandEdges.deallocate()
    solidRuns?.deallocate()
    solidRunCounts?.deallocate()
    spareRuns.deallocate()
  }

  /// The runs of the frame band `frame` (level 0), which ``reserve(levels:width:rows:)`` sized.
  func runs(over frame: RasterTarget) -> SolidRunRows {
    SolidRunRows(
      runs: solidRuns!, counts: solidRunCounts!, spare: spareRuns, target: frame)
  }

  /// Level `k`'s first row.
  @inline(__always)
  func level(_ k: Int) -> UnsafeMutablePointer<Float> { storage! + k * rows * stride }

  /// Makes room for the band edges of a program of `edges` path edges.
  func reserve(edges: Int) {
    guard edges > bandEdgeCapacity else { return }
    bandEdges.deallocate()
    bandEdges = .allocate(capacity: edges)
    bandEdgeCapacity = edges
  }

  /// Makes room for `levels` levels of `rows` rows of `width` pixels (zeroed when reallocated).
  func reserve(levels: Int, width: Int, rows: Int) {
    var stride = (4 * width + 15) / 16 * 16
    if stride % 1024 == 0 { stride += 16 }
    if levels > dirtyCapacity {
      dirty.deallocate()
      dirty = .allocate(capacity: levels)
      dirtyCapacity = levels
    }
    guard levels > self.levels || rows != self.rows || stride != self.stride else { return }
    solidRuns?.deallocate()
    solidRunCounts?.deallocate()
    solidRuns = .allocate(capacity: rows * SolidRunRows.capacity)
    solidRunCounts = .allocate(capacity: rows)
    solidRunCounts!.initialize(repeating: 0, count: rows)
    storage?.deallocate()
    let count = levels * rows * stride
    storage = .allocate(capacity: count)
    storage!.initialize(repeating: 0, count: count)
    self.levels = levels
    self.rows = rows
    self.stride = stride
  }
}
