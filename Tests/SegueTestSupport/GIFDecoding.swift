/// An independent GIF89a decoder for the tests, written from the specification: header, logical
/// screen, extensions (graphic control: disposal, delay, transparency; NETSCAPE2.0: loops),
/// image descriptors with local colour tables, LZW with variable code width (a clear code resets
/// the table; the width grows when the next free code reaches `2^width`, up to 12), and frame
/// composition on a canvas cleared to transparent.
public struct GIFDecoding {
  public struct Frame {
    public var delay: Int
    public var disposal: Int
    /// The canvas after this frame: RGBA, transparent as (0, 0, 0, 0).
    public var canvas: [UInt8]
    public var region: (x: Int, y: Int, width: Int, height: Int)
  }

  public var width = 0
  public var height = 0
  public var loops: Int?
  public var frames: [Frame] = []

  public enum Failure: Error { case bad(String) }

  public init(_ data: [UInt8]) throws {
    var pos = 0
    func byte() throws -> Int {
      guard pos < data.count else { throw Failure.bad("truncated at \(pos)") }
      pos += 1
      return Int(data[pos - 1])
    }
    func word() throws -> Int {
      let low = try byte()
      return low | (try byte()) << 8
    }
    func subBlocks() throws -> [UInt8] {
      var out: [UInt8] = []
      while true {
        let n = try byte()
        if n == 0 { return out }
        guard pos + n <= data.count else { throw Failure.bad("sub-block") }
        out += data[pos..<(pos + n)]
        pos += n
      }
    }
    guard data.count >= 13, String(decoding: data[0..<6], as: UTF8.self) == "GIF89a" else {
      throw Failure.bad("header")
    }
    pos = 6
    width = try word()
    height = try word()
    let flags = try byte()
    _ = try byte()
    _ = try byte()
    if flags & 0x80 != 0 { pos += 3 << ((flags & 7) + 1) }
    var canvas = [UInt8](repeating: 0, count: 4 * width * height)
    var delay = 0
    var disposal = 0
    var transparent: Int?
    while true {
      let introducer = try byte()
      if introducer == 0x3B { return }
      if introducer == 0x21 {
        let label = try byte()
        let block = try subBlocks()
        if label == 0xF9 {
          guard block.count == 4 else { throw Failure.bad("graphic control") }
          disposal = Int(block[0] >> 2) & 7
          delay = Int(block[1]) | Int(block[2]) << 8
          transparent = block[0] & 1 != 0 ? Int(block[3]) : nil
        } else if label == 0xFF, block.count >= 14,
          String(decoding: block[0..<11], as: UTF8.self) == "NETSCAPE2.0", block[11] == 1
        {
          loops = Int(block[12]) | Int(block[13]) << 8
        }
        continue
      }
      guard introducer == 0x2C else { throw Failure.bad("block \(introducer) at \(pos - 1)") }
      let x = try word()
      let y = try word()
      let w = try word()
      let h = try word()
      let imageFlags = try byte()
      guard imageFlags & 0x40 == 0 else { throw Failure.bad("interlaced") }
      var table: [UInt8] = []
      if imageFlags & 0x80 != 0 {
        let n = 3 << ((imageFlags & 7) + 1)
        table = Array(data[pos..<(pos + n)])
        pos += n
      }
      let minimum = try byte()
      let indices = try Self.lzwDecode(try subBlocks(), minimumCodeSize: minimum, count: w * h)
      guard x + w <= width, y + h <= height else { throw Failure.bad("region") }
      for row in 0..<h {
        for column in 0..<w {
          let index = Int(indices[row * w + column])
          if index == transparent { continue }
          guard 3 * index + 2 < table.count else { throw Failure.bad("index \(index)") }
          let at = 4 * ((y + row) * width + x + column)
          canvas[at] = table[3 * index]
          canvas[at + 1] = table[3 * index + 1]
          canvas[at + 2] = table[3 * index + 2]
          canvas[at + 3] = 255
        }
      }
      frames.append(
        Frame(delay: delay, disposal: disposal, canvas: canvas, region: (x, y, w, h)))
      if disposal == 2 {
        for row in 0..<h {
          for i in 0..<(4 * w) { canvas[4 * ((y + row) * width + x) + i] = 0 }
        }
      }
      transparent = nil
    }
  }

  /// Decodes GIF LZW codes into `count` indices.
  public static func lzwDecode(_ bytes: [UInt8], minimumCodeSize: Int, count: Int) throws -> [UInt8]
  {
    let clear = 1 << minimumCodeSize
    let end = clear + 1
    var width = minimumCodeSize + 1
    var entries: [[UInt8]] = []
    func reset() {
      entries = (0..<clear).map { [UInt8($0)] } + [[], []]
      width = minimumCodeSize + 1
    }
    reset()
    var out: [UInt8] = []
    var previous: [UInt8]?
    var bitPosition = 0
    while true {
      guard bitPosition + width <= 8 * bytes.count else { throw Failure.bad("no end code") }
      var code = 0
      for b in 0..<width {
        let bit = bitPosition + b
        code |= Int(bytes[bit >> 3] >> UInt8(bit & 7) & 1) << b
      }
      bitPosition += width
      if code == clear {
        reset()
        previous = nil
        continue
      }
      if code == end { break }
      var string: [UInt8]
      if code < entries.count {
        string = entries[code]
        if let previous, entries.count < 4096 { entries.append(previous + [string[0]]) }
      } else if code == entries.count, let previous {
        string = previous + [previous[0]]
        entries.append(string)
      } else {
        throw Failure.bad("code \(code) with \(entries.count) entries")
      }
      out += string
      previous = string
      if entries.count == 1 << width && width < 12 { width += 1 }
    }
    guard out.count == count else { throw Failure.bad("\(out.count) indices, expected \(count)") }
    return out
  }
}
