import Segue
import SegueSIMDSupport

extension PNG {
  /// The filtered scanlines of one image (each row its filter type byte and `4·width` filtered
  /// bytes) and the filter's working rows, kept by ``PNGEncoder`` from one image to the next.
  struct Scanlines {
    /// The filtered rows, `(4·width + 1)·height` bytes of it in use.
    private var filtered: [UInt8] = []
    /// With ``FilterChoice/adaptive``: the same rows unfiltered (filter type None), the
    /// alternative ``PNGEncoder`` weighs against the per-row choice, written only where it is
    /// weighed or chosen (``unfilter(_:x:y:width:rows:)``).
    private var unfiltered: [UInt8] = []
    /// Two straight-alpha rows, each after ``leftPadding`` zero bytes (the "left" of the first
    /// pixel).
    private var rows: [UInt8] = []
    /// The five filtered versions of the current row.
    private var candidates: [UInt8] = []
    /// Whether each row equals the row above (``filter(_:x:y:width:height:filter:)``).
    private var repeats: [Bool] = []
    /// The rows that are not repeats, gathered for
    /// ``runsCompressSmaller(rowBytes:height:runs:search:output:)``.
    private var gathered: [UInt8] = []
    /// The zero bytes before each straight row: 16, so that 16-byte loads at `i − 4` stay in
    /// the buffer.
    static let leftPadding = 16

    /// Filters the `width × height` region of `image` at `(x, y)`; returns the number of bytes
    /// written (`(4·width + 1)·height`) and of rows equal to the row above. Grows the buffers
    /// only when the region is larger than every one before.
    mutating func filter(
      _ image: PixelBufferRGBA8, x: Int, y: Int, width: Int, height: Int, filter: FilterChoice
    ) -> (bytes: Int, repeated: Int) {
      let rowBytes = 4 * width
      let padded = rowBytes + Self.leftPadding
      let count = (rowBytes + 1) * height
      Self.grow(&filtered, to: count)
      if filter == .adaptive { Self.grow(&unfiltered, to: count) }
      Self.grow(&rows, to: 2 * padded)
      Self.grow(&candidates, to: 5 * rowBytes)
      if repeats.count < height {
        repeats.append(contentsOf: repeatElement(false, count: height - repeats.count))
      }
      var repeated = 0
      image.components.withUnsafeBufferPointer { pixels in
        filtered.withUnsafeMutableBufferPointer { out in
          rows.withUnsafeMutableBufferPointer { rows in
            candidates.withUnsafeMutableBufferPointer { candidates in
              // Zero left padding and a zero row above the first.
              rows.update(repeating: 0)
              var rowsView = RowPair(
                current: rows.baseAddress! + Self.leftPadding,
                previous: rows.baseAddress! + padded + Self.leftPadding)
              let first = pixels.baseAddress! + y * image.stride + 4 * x
              for row in 0..<height {
                let isRepeat = PNG.filterRow(
                  first + row * image.stride, stride: image.stride, isFirst: row == 0,
                  rows: &rowsView, count: rowBytes, filter: filter,
                  into: out.baseAddress! + row * (rowBytes + 1), scratch: candidates.baseAddress!)
                if isRepeat { repeated += 1 }
                repeats[row] = isRepeat
              }
            }
          }
        }
      }
      return (count, repeated)
    }

    /// Writes `rows` of the `width`-pixel region of `image` at `(x, y)` unfiltered: filter type
    /// None and the straight pixels (``unpremultiply(_:into:pixels:)``), into the unfiltered
    /// rows (sized by ``filter(_:x:y:width:height:filter:)``).
    mutating func unfilter(
      _ image: PixelBufferRGBA8, x: Int, y: Int, width: Int, rows: Range<Int>
    ) {
      let rowBytes = 4 * width + 1
      image.components.withUnsafeBufferPointer { pixels in
        unfiltered.withUnsafeMutableBufferPointer { plain in
          for row in rows {
            let target = plain.baseAddress! + row * rowBytes
            target[0] = Filter.none.rawValue
            PNG.unpremultiply(
              pixels.baseAddress! + (y + row) * image.stride + 4 * x, into: target + 1,
              pixels: width)
          }
        }
      }
    }

    /// Runs `body` on the first `count` filtered bytes, or on the unfiltered rows.
    func withFiltered<R>(
      count: Int, unfiltered isUnfiltered: Bool = false, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
      (isUnfiltered ? unfiltered : filtered).withUnsafeBufferPointer {
        body(UnsafeBufferPointer(rebasing: $0[0..<count]))
      }
    }

    /// Grows `buffer` to at least `count` bytes (zeros), keeping it when it is long enough.
    private static func grow(_ buffer: inout [UInt8], to count: Int) {
      if buffer.count < count {
        buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
      }
    }
  }

  /// The straight-alpha rows the filters read: the current row and the one above it.
  struct RowPair {
    var current: UnsafeMutablePointer<UInt8>
    var previous: UnsafeMutablePointer<UInt8>
  }

  /// Filters one row: writes its filter type byte and `count` filtered bytes to `out`.
  ///
  /// A row (premultiplied, at `source`) equal to the row above it in the image is not
  /// un-premultiplied or filtered: its straight pixels are those of `rows.previous`, so Up makes
  /// every byte 0 and the adaptive choice is Up (None when the row is all zeros, the first
  /// filter of cost 0); with ``FilterChoice/fixed(_:)`` Up it is the same. Otherwise the row is
  /// un-premultiplied into `rows.current`, filtered (``filterRow(_:_:count:filter:into:scratch:)``),
  /// and the two rows swap. `scratch` holds `5·count` bytes. Returns whether the row equals the
  /// row above.
  @discardableResult
  static func filterRow(
    _ source: UnsafePointer<UInt8>, stride: Int, isFirst: Bool, rows: inout RowPair, count: Int,
    filter: FilterChoice, into out: UnsafeMutablePointer<UInt8>,
    scratch: UnsafeMutablePointer<UInt8>
  ) -> Bool {
    let isRepeat = !isFirst && segue_equal_bytes(source, source - stride, UInt(count)) != 0
    if isRepeat, filter == .adaptive || filter == .fixed(.up) {
      let zeroRow = filter == .adaptive && isZero(rows.previous, count: count)
      out[0] = (zeroRow ? Filter.none : Filter.up).rawValue
      (out + 1).update(repeating: 0, count: count)
      return true
    }
    unpremultiply(source, into: rows.current, pixels: count / 4)
    filterRow(
      rows.current, rows.previous, count: count, filter: filter, into: out, scratch: scratch)
    swap(&rows.current, &rows.previous)
    return isRepeat
  }

  /// Whether the `count` bytes at `p` are all 0 (eight at a time).
  static func isZero(_ p: UnsafePointer<UInt8>, count: Int) -> Bool {
    var any: UInt64 = 0
    var i = 0
    while i + 8 <= count {
      any |= UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
      i += 8
    }
    while i < count {
      any |= UInt64(p[i])
      i += 1
    }
    return any == 0
  }

  /// Premultiplied RGBA8 → straight RGBA8 for `pixels` pixels (see ``encode(_:compression:filter:)``).
  static func unpremultiply(
    _ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels: Int
  ) {
    // Two opaque pixels at a time (the common case) are copied as they are.
    let opaque: UInt64 = 0xFF00_0000_FF00_0000
    var p = 0
    while p + 2 <= pixels {
      let v = UnsafeRawPointer(source + 4 * p).loadUnaligned(as: UInt64.self)
      guard v & opaque == opaque else { break }
      UnsafeMutableRawPointer(target + 4 * p).storeBytes(of: v, as: UInt64.self)
      p += 2
    }
    while p < pixels {
      defer { p += 1 }
      if p + 2 <= pixels {
        let v = UnsafeRawPointer(source + 4 * p).loadUnaligned(as: UInt64.self)
        if v & opaque == opaque {
          UnsafeMutableRawPointer(target + 4 * p).storeBytes(of: v, as: UInt64.self)
          p += 1
          continue
        }
      }
      let i = 4 * p
      let a = source[i + 3]
      if a == 255 {
        target[i] = source[i]
        target[i + 1] = source[i + 1]
        target[i + 2] = source[i + 2]
        target[i + 3] = 255
      } else if a == 0 {
        target[i] = 0
        target[i + 1] = 0
        target[i + 2] = 0
        target[i + 3] = 0
      } else {
        let a2 = 2 * Int(a)
        for c in 0..<3 {
          target[i + c] = UInt8(Swift.min(255, (510 * Int(source[i + c]) + Int(a)) / a2))
        }
        target[i + 3] = a
      }
    }
  }

  /// Writes the filter type byte and the `count` filtered bytes of row `current` (above it
  /// `previous`, all zeros for the first row) to `out`; `scratch` holds `5·count` bytes. Both
  /// rows must be preceded by 4 readable zero bytes (the pixel left of the first).
  static func filterRow(
    _ current: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>, count: Int,
    filter: FilterChoice, into out: UnsafeMutablePointer<UInt8>,
    scratch: UnsafeMutablePointer<UInt8>
  ) {
    let costs = filterAll(current, previous, count: count, into: scratch)
    var best = Filter.none
    switch filter {
    case .fixed(let f):
      best = f
    case .adaptive:
      for f in Filter.allCases where costs[Int(f.rawValue)] < costs[Int(best.rawValue)] {
        best = f
      }
    }
    out[0] = best.rawValue
    (out + 1).update(from: scratch + Int(best.rawValue) * count, count: count)
  }

  /// Filters one row with all five filters (filter `f` to `out + f·count`) and returns each
  /// output's `Σ min(b, 256 − b)`. Sixteen bytes at a time (the Paeth predictor and the cost
  /// from ``segue_paeth_u8x16`` and ``segue_png_cost_u8x16``), the last few one by one. `x` and
  /// `b` (the row above) must be preceded by 4 readable zero bytes.
  static func filterAll(
    _ x: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int,
    into out: UnsafeMutablePointer<UInt8>
  ) -> SIMD8<Int> {
    var costs = SIMD8<Int>.zero
    var i = 0
    while i + 16 <= count {
      let xv = segue_load_u8x16(x + i)
      let av = segue_load_u8x16(x + i - 4)
      let bv = segue_load_u8x16(b + i)
      let cv = segue_load_u8x16(b + i - 4)
      let average = (av & bv) &+ ((av ^ bv) &>> 1)
      let filtered = (
        xv, xv &- av, xv &- bv, xv &- average, xv &- segue_paeth_u8x16(av, bv, cv)
      )
      store(filtered.0, out + i, &costs[0])
      store(filtered.1, out + count + i, &costs[1])
      store(filtered.2, out + 2 * count + i, &costs[2])
      store(filtered.3, out + 3 * count + i, &costs[3])
      store(filtered.4, out + 4 * count + i, &costs[4])
      i += 16
    }
    while i < count {
      let (xv, a, up, c) = (x[i], x[i - 4], b[i], b[i - 4])
      let pa = abs(Int(up) - Int(c))
      let pb = abs(Int(a) - Int(c))
      let pc = abs(Int(a) + Int(up) - 2 * Int(c))
      let paeth = pa <= pb && pa <= pc ? a : (pb <= pc ? up : c)
      let average = UInt8((UInt16(a) + UInt16(up)) >> 1)
      func put(_ f: Int, _ prediction: UInt8) {
        let d = xv &- prediction
        out[f * count + i] = d
        costs[f] += Int(Swift.min(d, 0 &- d))
      }
      put(0, 0)
      put(1, a)
      put(2, up)
      put(3, average)
      put(4, paeth)
      i += 1
    }
    return costs
  }

  @inline(__always)
  private static func store(
    _ v: SIMD16<UInt8>, _ p: UnsafeMutablePointer<UInt8>, _ cost: inout Int
  ) {
    segue_store_u8x16(p, v)
    cost += Int(segue_png_cost_u8x16(v))
  }
}

extension PNG.Scanlines {
  /// The bands of rows compressed both ways to choose between the per-row filters and no
  /// filter: ``trialBands`` bands of ``trialRows`` rows, evenly spread (the whole image when it
  /// is shorter than all of them).
  static let trialBands = 8
  static let trialRows = 16

  /// Whether the unfiltered rows of the `width × height` region of `image` at `(x, y)` compress
  /// smaller (by `unfilteredCompressor`) than the filtered ones (by `compressor`), judged on
  /// sample bands (written unfiltered here) compressed into `output`. Flat artwork with text
  /// often compresses best unfiltered: its rows repeat exactly, which filtering hides;
  /// photographs and gradients filtered.
  mutating func unfilteredIsSmaller(
    _ image: PixelBufferRGBA8, x: Int, y: Int, width: Int, height: Int,
    compressor: any PNG.ZlibCompressor, unfilteredCompressor: any PNG.ZlibCompressor,
    output: inout [UInt8]
  ) -> Bool {
    let rowBytes = 4 * width + 1
    var sizes = (filtered: 0, unfiltered: 0)
    Self.forEachBand(height: height) { rows in
      unfilter(image, x: x, y: y, width: width, rows: rows)
      let range = (rows.lowerBound * rowBytes)..<(rows.upperBound * rowBytes)
      func size(unfiltered: Bool) -> Int {
        withFiltered(count: range.upperBound, unfiltered: unfiltered) { all in
          (unfiltered ? unfilteredCompressor : compressor).zlib(
            UnsafeBufferPointer(rebasing: all[range]), into: &output)
        }
      }
      sizes.filtered += size(unfiltered: false)
      sizes.unfiltered += size(unfiltered: true)
    }
    return sizes.unfiltered < sizes.filtered
  }

  /// At most one row in ``runRowsPerDetailRow`` may differ from the row above for
  /// ``runsCompressSmaller(rowBytes:height:runs:search:output:)`` to choose the run coder.
  static let runRowsPerDetailRow = 64

  /// How much larger than the match search the run coder may write the rows of detail: 11/10.
  /// They are few, a few dozen bytes each way on flat frames, where a byte or two of Huffman
  /// header decides; the rows of zeros then cost less by runs.
  static let runsTolerance = (numerator: 11, denominator: 10)

  /// Whether the run coder (`runs`) suits the filtered rows: at most one row in
  /// ``runRowsPerDetailRow`` differs from the row above, and those rows (gathered) compress by
  /// runs to at most ``runsTolerance`` × their size by a match search (`search`), both into
  /// `output`. Repeated rows (zeros under Up) cost a little less by runs; rows of detail (text,
  /// gradients) are where runs fall behind a search for earlier strings, so they must be few and
  /// suit runs.
  mutating func runsCompressSmaller(
    rowBytes: Int, height: Int, runs: any PNG.ZlibCompressor, search: any PNG.ZlibCompressor,
    output: inout [UInt8]
  ) -> Bool {
    let detailRows = repeats[0..<height].reduce(0) { $0 + ($1 ? 0 : 1) }
    guard detailRows * Self.runRowsPerDetailRow <= height else { return false }
    if gathered.count < detailRows * rowBytes {
      gathered.append(contentsOf: repeatElement(0, count: detailRows * rowBytes - gathered.count))
    }
    var count = 0
    withFiltered(count: height * rowBytes) { all in
      gathered.withUnsafeMutableBufferPointer { gathered in
        for row in 0..<height where !repeats[row] {
          (gathered.baseAddress! + count).update(
            from: all.baseAddress! + row * rowBytes, count: rowBytes)
          count += rowBytes
        }
      }
    }
    return gathered.withUnsafeBufferPointer { all in
      let rows = UnsafeBufferPointer(rebasing: all[0..<count])
      let sizes = (runs: runs.zlib(rows, into: &output), search: search.zlib(rows, into: &output))
      return Self.runsTolerance.denominator * sizes.runs
        <= Self.runsTolerance.numerator * sizes.search
    }
  }

  /// Calls `body` with the rows of each sample band: ``trialBands`` bands of ``trialRows`` rows,
  /// evenly spread, or the whole image when it is shorter than all of them.
  private static func forEachBand(height: Int, _ body: (Range<Int>) -> Void) {
    let bands = height <= trialBands * trialRows ? 1 : trialBands
    let rows = bands == 1 ? height : trialRows
    for band in 0..<bands {
      let first = bands == 1 ? 0 : (height - rows) * band / (bands - 1)
      body(first..<(first + rows))
    }
  }
}
