/// DEFLATE's format (RFC 1951): the symbols, the length codes, a bit writer and the header of a
/// dynamic-Huffman block, for ``PNG/RunLengthCompressor``.
enum Deflate {
  /// Literal/length symbols: 256 literals, end of block, 29 length codes.
  static let literalLengthSymbols = 286
  /// The symbol that ends a block.
  static let endOfBlock = 256

  /// The fixed Huffman code's literal/length lengths (RFC 1951 §3.2.6): 8 bits for 0–143, 9 for
  /// 144–255, 7 for 256–279, 8 for 280–287 (all 288 count in the canonical codes; 286 are
  /// used).
  static let fixedLengths: [UInt8] = (0..<288).map { s in
    s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8
  }
  /// The fixed code's distance codes are 5 bits, the code's value (bit-reversed for writing).
  static let fixedDistanceBits = 5

  /// The block types (RFC 1951 §3.2.3), as the two `BTYPE` bits.
  enum BlockType: UInt64 {
    case stored = 0
    case fixed = 1
    case dynamic = 2
  }

  /// The shortest match length of each length symbol `257…285` (RFC 1951 §3.2.5).
  private static let lengthBases: [Int] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  /// The extra bits of each length symbol `257…285`.
  private static let lengthExtraBits: [Int] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  /// The length symbol of each match length `0…258` (0 below 3).
  private static let lengthSymbols: [UInt16] = {
    var table = [UInt16](repeating: 0, count: 259)
    for (k, base) in lengthBases.enumerated() {
      let top = k + 1 < lengthBases.count ? lengthBases[k + 1] : 259
      for length in base..<top { table[length] = UInt16(257 + k) }
    }
    return table
  }()

  /// The length symbol of a match of `length` bytes (`3…258`).
  @inline(__always)
  static func lengthSymbol(_ length: Int) -> UInt16 { lengthSymbols[length] }

  /// The shortest length of length symbol `symbol` (`257…285`) and its extra bits.
  @inline(__always)
  static func lengthExtra(_ symbol: Int) -> (base: Int, bits: Int) {
    (lengthBases[symbol - 257], lengthExtraBits[symbol - 257])
  }

  /// Writes bits least significant first (RFC 1951 §3.1.1) to memory the caller has sized:
  /// four bytes at a time, so the buffer needs four bytes of slack past the stream.
  struct BitWriter {
    private let start: UnsafeMutablePointer<UInt8>
    private var position: UnsafeMutablePointer<UInt8>
    private var buffer: UInt64 = 0
    private var count = 0

    init(_ start: UnsafeMutablePointer<UInt8>) {
      self.start = start
      position = start
    }

    /// Appends the low `bits` bits of `value` (`bits ≤ 16`, higher bits of `value` zero).
    @inline(__always)
    mutating func write(_ value: UInt64, bits: Int) {
      buffer |= value << UInt64(count)
      count += bits
      if count >= 32 {
        UnsafeMutableRawPointer(position).storeBytes(
          of: UInt32(truncatingIfNeeded: buffer).littleEndian, as: UInt32.self)
        position += 4
        buffer >>= 32
        count -= 32
      }
    }

    /// Writes the last partial byte (zero-padded); returns the bytes written in all.
    mutating func finish() -> Int {
      while count > 0 {
        position.pointee = UInt8(truncatingIfNeeded: buffer)
        position += 1
        buffer >>= 8
        count -= 8
      }
      count = 0
      return position - start
    }
  }

  /// The header of a dynamic-Huffman block (RFC 1951 §3.2.7): the literal/length code lengths
  /// and two one-bit distance codes (distances 1 and 4), run-length coded with the code
  /// length alphabet (16: repeat the previous 3–6 times, 17: 3–10 zeros, 18: 11–138 zeros),
  /// which gets its own Huffman code of at most 7 bits.
  struct BlockHeader {
    /// The most bytes a header takes: 14 bits of counts, 19 three-bit lengths, at most 288
    /// symbols of at most 7 + 7 bits.
    static let maximumBytes = (14 + 19 * 3 + 288 * 14 + 7) / 8
    /// The order the code length code's lengths are written in.
    private static let order: [Int] = [
      16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ]
    private static let codeLengthSymbols = 19
    private static let maximumCodeLengthBits = 7
    /// The distance code lengths written: codes 0 (distance 1) and 3 (distance 4) of one bit
    /// each (a complete code), codes 1 and 2 unused.
    private static let distanceLengths: [UInt8] = [1, 0, 0, 1]

    /// The run-length coded lengths: symbol and extra bits' value.
    private var symbols = [UInt8](repeating: 0, count: 320)
    private var extras = [UInt8](repeating: 0, count: 320)
    private var frequencies = [UInt32](repeating: 0, count: codeLengthSymbols)
    private var code = HuffmanCode(capacity: codeLengthSymbols)

    /// What ``prepare(_:)`` found: literal/length lengths sent, symbols, code lengths sent.
    private var used = 0
    private var count = 0
    private var sent = 0

    /// Codes the lengths of `literalLength` (286 lengths) and of the distance code; returns the
    /// header's size in bits, written by ``write(to:)``.
    mutating func prepare(_ literalLength: UnsafeBufferPointer<UInt8>) -> Int {
      used = Deflate.endOfBlock + 1
      for s in used..<literalLength.count where literalLength[s] != 0 { used = s + 1 }
      count = encodeLengths(literalLength, used: used)
      frequencies.withUnsafeBufferPointer {
        code.build(
          frequencies: $0, count: Self.codeLengthSymbols,
          maximumLength: Self.maximumCodeLengthBits)
      }
      sent = 4
      for k in 4..<Self.codeLengthSymbols where code.lengths[Self.order[k]] != 0 { sent = k + 1 }
      var bits = 14 + 3 * sent
      for s in 0..<Self.codeLengthSymbols {
        bits += Int(frequencies[s]) * (Int(code.lengths[s]) + Self.extraBits(s))
      }
      return bits
    }

    /// Writes `HLIT`, `HDIST`, `HCLEN`, the code length code and the code lengths prepared.
    func write(to writer: inout BitWriter) {
      writer.write(UInt64(used - 257), bits: 5)
      writer.write(UInt64(Self.distanceLengths.count - 1), bits: 5)
      writer.write(UInt64(sent - 4), bits: 4)
      for k in 0..<sent { writer.write(UInt64(code.lengths[Self.order[k]]), bits: 3) }
      for k in 0..<count {
        let symbol = Int(symbols[k])
        writer.write(UInt64(code.codes[symbol]), bits: Int(code.lengths[symbol]))
        writer.write(UInt64(extras[k]), bits: Self.extraBits(symbol))
      }
    }

    /// The extra bits after code length symbol `symbol`: 2, 3 and 7 after 16, 17 and 18.
    private static func extraBits(_ symbol: Int) -> Int {
      switch symbol {
      case 16: 2
      case 17: 3
      case 18: 7
      default: 0
      }
    }

    /// Run-length codes the first `used` literal/length lengths and the distance lengths into
    /// ``symbols`` and ``extras``, counting ``frequencies``; returns the number of symbols.
    private mutating func encodeLengths(_ lengths: UnsafeBufferPointer<UInt8>, used: Int) -> Int {
      let total = used + Self.distanceLengths.count
      func length(_ k: Int) -> UInt8 { k < used ? lengths[k] : Self.distanceLengths[k - used] }
      for s in 0..<Self.codeLengthSymbols { frequencies[s] = 0 }
      var count = 0
      func emit(_ symbol: UInt8, _ extra: Int = 0) {
        symbols[count] = symbol
        extras[count] = UInt8(extra)
        frequencies[Int(symbol)] += 1
        count += 1
      }
      var k = 0
      while k < total {
        let value = length(k)
        var run = 1
        while k + run < total && length(k + run) == value { run += 1 }
        k += run
        if value == 0 {
          while run >= 11 {
            let n = Swift.min(run, 138)
            emit(18, n - 11)
            run -= n
          }
          if run >= 3 {
            emit(17, run - 3)
            run = 0
          }
        } else {
          emit(value)
          run -= 1
          while run >= 3 {
            let n = Swift.min(run, 6)
            emit(16, n - 3)
            run -= n
          }
        }
        for _ in 0..<run { emit(value) }
      }
      return count
    }
  }
}
