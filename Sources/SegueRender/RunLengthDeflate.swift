import CDeflate

extension PNG {
  /// A zlib stream (RFC 1950/1951) whose only matches are runs: bytes repeating the byte before
  /// them (distance 1) or the RGBA pixel before them (distance 4), 3…258 bytes a match, the
  /// longer of the two taken greedily, every other byte a literal, in dynamic-Huffman blocks of
  /// at most ``blockTokens`` symbols (zlib's `Z_RLE` strategy, with pixel runs added). On
  /// filtered rows of flat images (rows of zeros under Up) it writes smaller streams than a
  /// hash-chain search, comparing eight bytes at a time. Keeps its buffers from one stream to
  /// the next.
  final class RunLengthCompressor: ZlibCompressor {
    /// The most symbols (literals and runs) in one block.
    static let blockTokens = 1 << 16
    /// The shortest and longest run one DEFLATE match codes.
    static let minimumRun = 3
    static let maximumRun = 258
    /// The symbol offset of runs of the pixel before (distance 4).
    static let pixelRun = 768

    /// The block's symbols: a literal byte `b` as `b`, a run of length `n` as `256 + n` (of the
    /// byte before) or ``pixelRun`` `+ n` (of the pixel before).
    private var tokens = [UInt16](repeating: 0, count: blockTokens)
    /// Literal/length symbol frequencies (286 symbols; 256 ends the block).
    private var frequencies = [UInt32](repeating: 0, count: Deflate.literalLengthSymbols)
    private var literalLength = HuffmanCode(capacity: Deflate.literalLengthSymbols)
    private var header = Deflate.BlockHeader()

    init() {}

    func zlib(_ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Int {
      let n = input.count
      let blocks = n / Self.blockTokens + 1
      // Literal codes have at most 15 bits, a run at most 15 + 5 + 1 for three bytes or more.
      let bound = 2 + (15 * n + 7) / 8 + blocks * Deflate.BlockHeader.maximumBytes + 4 + 8
      if output.count < bound {
        output.append(contentsOf: repeatElement(0, count: bound - output.count))
      }
      return output.withUnsafeMutableBufferPointer { out in
        // CMF: deflate, 32 KiB window; FLG: fastest level, check bits (0x7801 % 31 == 0).
        out[0] = 0x78
        out[1] = 0x01
        var writer = Deflate.BitWriter(out.baseAddress! + 2)
        var start = 0
        repeat {
          let (end, count) = tokenize(input, from: start)
          writeBlock(count: count, final: end == n, to: &writer)
          start = end
        } while start < n
        var size = 2 + writer.finish()
        let adler = libdeflate_adler32(1, input.baseAddress, n)
        for k in 0..<4 {
          out[size + k] = UInt8(truncatingIfNeeded: adler >> (24 - 8 * k))
        }
        size += 4
        return size
      }
    }

    /// Splits `input[start...]` into literals and runs until the input or the block's symbols
    /// end; counts their frequencies. Returns where it stopped and the number of symbols.
    private func tokenize(_ input: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Int) {
      let n = input.count
      let p = input.baseAddress
      var i = start
      var count = 0
      frequencies.withUnsafeMutableBufferPointer { frequencies in
        tokens.withUnsafeMutableBufferPointer { tokens in
          for s in 0..<frequencies.count { frequencies[s] = 0 }
          while i < n && count < Self.blockTokens {
            let (run, distance) = Self.longestRun(p! + i, available: i, limit: n - i)
            if run >= Self.minimumRun {
              var left = run
              while left >= Self.minimumRun && count < Self.blockTokens {
                let length = Swift.min(left, Self.maximumRun)
                tokens[count] = UInt16((distance == 1 ? 256 : Self.pixelRun) + length)
                frequencies[Int(Deflate.lengthSymbol(length))] += 1
                count += 1
                left -= length
                i += length
              }
              continue
            }
            let byte = p![i]
            tokens[count] = UInt16(byte)
            frequencies[Int(byte)] += 1
            count += 1
            i += 1
          }
          frequencies[Deflate.endOfBlock] = 1
        }
      }
      return (i, count)
    }

    /// The longer run at `p` (`available` bytes before it, `limit` after): of the byte before
    /// (distance 1) or of the pixel before (distance 4); ties go to distance 1.
    @inline(__always)
    static func longestRun(_ p: UnsafePointer<UInt8>, available: Int, limit: Int) -> (Int, Int) {
      let byteRun = available >= 1 ? matchLength(p, p - 1, limit: limit) : 0
      guard byteRun < maximumRun, available >= 4 else { return (byteRun, 1) }
      let pixelRun = matchLength(p, p - 4, limit: limit)
      return pixelRun > byteRun ? (pixelRun, 4) : (byteRun, 1)
    }

    /// How many of the `limit` bytes at `p` equal those at `q` (`q < p`; overlapping, as
    /// DEFLATE copies), eight at a time, at most ``maximumRun`` beyond the first eight that
    /// differ — counted to the end of the run.
    @inline(__always)
    static func matchLength(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>, limit: Int)
      -> Int
    {
      var k = 0
      while k + 8 <= limit {
        let difference =
          UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self)
          ^ UnsafeRawPointer(q + k).loadUnaligned(as: UInt64.self)
        if difference != 0 { return k + difference.trailingZeroBitCount / 8 }
        k += 8
      }
      while k < limit && p[k] == q[k] { k += 1 }
      return k
    }

    /// Writes one block of the first `count` symbols: dynamic Huffman codes, or the fixed code
    /// when that is smaller.
    private func writeBlock(count: Int, final: Bool, to writer: inout Deflate.BitWriter) {
      frequencies.withUnsafeBufferPointer {
        literalLength.build(
          frequencies: $0, count: Deflate.literalLengthSymbols,
          maximumLength: HuffmanCode.maximumLength)
      }
      let headerBits = literalLength.lengths.withUnsafeBufferPointer { header.prepare($0) }
      var bits = (dynamic: headerBits, fixed: 0)
      var matches = 0
      for s in 0..<Deflate.literalLengthSymbols where frequencies[s] > 0 {
        let extra = s > Deflate.endOfBlock ? Deflate.lengthExtra(s).bits : 0
        let f = Int(frequencies[s])
        if s > Deflate.endOfBlock { matches += f }
        bits.dynamic += f * (Int(literalLength.lengths[s]) + extra)
        bits.fixed += f * (Int(Deflate.fixedLengths[s]) + extra)
      }
      bits.dynamic += matches
      bits.fixed += matches * Deflate.fixedDistanceBits
      let fixed = bits.fixed < bits.dynamic
      writer.write(final ? 1 : 0, bits: 1)
      writer.write((fixed ? Deflate.BlockType.fixed : .dynamic).rawValue, bits: 2)
      if fixed {
        // Distance symbols 0 and 3 as 5-bit codes, bit-reversed: 00000 and 11000.
        writeSymbols(
          count: count, Self.fixedCode, distance: (0, 0b11000, Deflate.fixedDistanceBits),
          to: &writer)
      } else {
        header.write(to: &writer)
        writeSymbols(count: count, literalLength, distance: (0, 1, 1), to: &writer)
      }
    }

    /// The fixed literal/length code.
    private static let fixedCode = HuffmanCode(lengths: Deflate.fixedLengths)

    /// Writes the block's symbols and its end with `code`; runs take the distance code
    /// `distance.byte` (distance 1) or `distance.pixel` (distance 4) of `distance.bits` bits.
    private func writeSymbols(
      count: Int, _ code: HuffmanCode, distance: (byte: UInt64, pixel: UInt64, bits: Int),
      to writer: inout Deflate.BitWriter
    ) {
      code.lengths.withUnsafeBufferPointer { lengths in
        code.codes.withUnsafeBufferPointer { codes in
          tokens.withUnsafeBufferPointer { tokens in
            for k in 0..<count {
              let token = Int(tokens[k])
              if token < 256 {
                writer.write(UInt64(codes[token]), bits: Int(lengths[token]))
                continue
              }
              let isPixel = token >= Self.pixelRun
              let length = token - (isPixel ? Self.pixelRun : 256)
              let symbol = Int(Deflate.lengthSymbol(length))
              writer.write(UInt64(codes[symbol]), bits: Int(lengths[symbol]))
              let extra = Deflate.lengthExtra(symbol)
              writer.write(UInt64(length - extra.base), bits: extra.bits)
              writer.write(isPixel ? distance.pixel : distance.byte, bits: distance.bits)
            }
            let end = Deflate.endOfBlock
            writer.write(UInt64(codes[end]), bits: Int(lengths[end]))
          }
        }
      }
    }
  }

  /// What ``PNGEncoder`` compresses filtered rows with: libdeflate at a level
  /// (``Compressor``) or the run coder (``RunLengthCompressor``).
  protocol ZlibCompressor: AnyObject {
    /// Writes the zlib stream of `input` to the start of `output` (grown when shorter than the
    /// stream may be); returns the stream's length.
    func zlib(_ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> Int
  }
}
