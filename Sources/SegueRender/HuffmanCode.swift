/// Length-limited canonical Huffman codes for DEFLATE (RFC 1951 §3.2.2), built into
/// caller-owned buffers so a block allocates nothing.
///
/// ``build(frequencies:count:maximumLength:)`` gives each symbol of nonzero frequency a code
/// length of at most `maximumLength` bits (Huffman's construction, then the longest codes shortened
/// and the Kraft sum restored by moving codes one level down, as miniz does); a lone used symbol is
/// given a partner so the code stays complete. ``lengths`` and ``codes`` then hold each symbol's
/// length and its canonical code, bit-reversed for a least-significant-bit-first writer.
struct HuffmanCode {
  /// The code length of each symbol (0 for unused symbols).
  private(set) var lengths: [UInt8]
  /// The canonical code of each symbol, bits reversed (written least significant bit first).
  private(set) var codes: [UInt16]
  /// Working memory: the used symbols sorted by frequency, node weights and parents, depths.
  private var order: [UInt32]
  private var weights: [UInt32]
  private var parents: [UInt16]
  private var perLength: [Int]

  /// Buffers for alphabets of up to `capacity` symbols.
  init(capacity: Int) {
    lengths = Array(repeating: 0, count: capacity)
    codes = Array(repeating: 0, count: capacity)
    order = Array(repeating: 0, count: capacity)
    weights = Array(repeating: 0, count: 2 * capacity)
    parents = Array(repeating: 0, count: 2 * capacity)
    perLength = Array(repeating: 0, count: 2 * capacity + 1)
  }

  /// The canonical code of the given lengths (a fixed code).
  init(lengths fixed: [UInt8]) {
    self.init(capacity: fixed.count)
    lengths = fixed
    assignCodes(count: fixed.count)
  }

  /// The longest code a DEFLATE literal/length or distance code may have.
  static let maximumLength = 15

  /// Builds the code of the first `count` symbols of `frequencies`.
  mutating func build(
    frequencies: UnsafeBufferPointer<UInt32>, count: Int, maximumLength: Int
  ) {
    for k in perLength.indices { perLength[k] = 0 }
    var used = 0
    for s in 0..<count {
      lengths[s] = 0
      guard frequencies[s] > 0 else { continue }
      // Sort key: frequency, then symbol (deterministic ties). Insertion sort: ≤ 288 symbols.
      let key = frequencies[s]
      var k = used
      while k > 0, frequencies[Int(order[k - 1])] > key {
        order[k] = order[k - 1]
        k -= 1
      }
      order[k] = UInt32(s)
      used += 1
    }
    if used == 1 {
      // One symbol: a complete one-bit code with an unused partner.
      let only = Int(order[0])
      lengths[only] = 1
      lengths[only == 0 ? 1 : 0] = 1
    } else if used > 1 {
      depths(frequencies, used: used)
      limit(used: used, maximumLength: maximumLength)
      var next = 0
      for length in stride(from: maximumLength, through: 1, by: -1) {
        for _ in 0..<perLength[length] {
          lengths[Int(order[next])] = UInt8(length)
          next += 1
        }
      }
    }
    assignCodes(count: count)
  }

  /// Huffman's construction over the `used` sorted leaves (two queues: leaves, then internal
  /// nodes in the order made); counts the leaves at each depth into ``perLength``.
  private mutating func depths(_ frequencies: UnsafeBufferPointer<UInt32>, used: Int) {
    for k in 0..<used { weights[k] = frequencies[Int(order[k])] }
    var leaf = 0
    var node = used
    for made in used..<(2 * used - 1) {
      var pair = (0, 0)
      for side in 0..<2 {
        let takeLeaf = leaf < used && (node >= made || weights[leaf] <= weights[node])
        let taken = takeLeaf ? leaf : node
        if takeLeaf { leaf += 1 } else { node += 1 }
        if side == 0 { pair.0 = taken } else { pair.1 = taken }
      }
      weights[made] = weights[pair.0] &+ weights[pair.1]
      parents[pair.0] = UInt16(made)
      parents[pair.1] = UInt16(made)
    }
    // Depths, reusing `weights` (a parent always comes after its children).
    let root = 2 * used - 2
    weights[root] = 0
    for k in stride(from: root - 1, through: 0, by: -1) {
      weights[k] = weights[Int(parents[k])] + 1
      if k < used { perLength[Int(weights[k])] += 1 }
    }
  }

  /// Folds the depths beyond `maximumLength` into it and restores the Kraft sum to exactly 1.
  private mutating func limit(used: Int, maximumLength: Int) {
    guard used > 1 else { return }
    var deepest = used
    while deepest > maximumLength && perLength[deepest] == 0 { deepest -= 1 }
    if deepest > maximumLength {
      for d in (maximumLength + 1)...deepest {
        perLength[maximumLength] += perLength[d]
        perLength[d] = 0
      }
    }
    var total = 0
    for d in 1...maximumLength { total += perLength[d] << (maximumLength - d) }
    while total != 1 << maximumLength {
      perLength[maximumLength] -= 1
      for d in stride(from: maximumLength - 1, through: 1, by: -1) where perLength[d] != 0 {
        perLength[d] -= 1
        perLength[d + 1] += 2
        break
      }
      total -= 1
    }
  }

  /// Canonical codes from ``lengths`` (RFC 1951 §3.2.2), bit-reversed.
  private mutating func assignCodes(count: Int) {
    var firstCode: (counts: SIMD16<UInt16>, next: SIMD16<UInt16>) = (.zero, .zero)
    for s in 0..<count where lengths[s] > 0 { firstCode.counts[Int(lengths[s])] &+= 1 }
    var code: UInt16 = 0
    for length in 1..<16 {
      code = (code &+ firstCode.counts[length - 1]) << 1
      firstCode.next[length] = code
    }
    for s in 0..<count {
      let length = Int(lengths[s])
      guard length > 0 else {
        codes[s] = 0
        continue
      }
      let value = firstCode.next[length]
      firstCode.next[length] = value &+ 1
      codes[s] = value.bitReversed(length)
    }
  }
}

extension UInt16 {
  /// The low `count` bits in reverse order.
  fileprivate func bitReversed(_ count: Int) -> UInt16 {
    (self.bitSwapped >> (16 - count))
  }

  private var bitSwapped: UInt16 {
    var v = self
    v = ((v & 0x5555) << 1) | ((v >> 1) & 0x5555)
    v = ((v & 0x3333) << 2) | ((v >> 2) & 0x3333)
    v = ((v & 0x0F0F) << 4) | ((v >> 4) & 0x0F0F)
    return v.byteSwapped
  }
}
