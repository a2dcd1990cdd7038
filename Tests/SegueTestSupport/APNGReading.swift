import Foundation

/// An independent APNG reader in Python (zlib and struct only): checks the signature, every
/// chunk's CRC, `IHDR`, `acTL`, the sequence numbers of `fcTL`/`fdAT` (0, 1, 2, … with no gap),
/// inflates each frame's data, undoes the five filters, composites each frame's region onto
/// the canvas by its `dispose_op`/`blend_op`, and prints `ACTL frames plays`, one
/// `FRAME k num den x y w h` per frame and `CANVAS k match|differ` against the expected raw
/// canvases (straight RGBA, one file per frame; frames without a file are not compared).
public enum APNGReading {
  /// The path of a `python3` executable on `PATH`, or nil.
  public static let python: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/python3"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  /// The reader's program.
  static let program = #"""
    import sys, zlib, struct
    \#(PNGFilterPython.definitions)
    data = open(sys.argv[1], 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
    pos, chunks = 8, []
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + body) & 0xffffffff == crc, 'crc'
        chunks.append((kind.decode(), body)); pos += 12 + n
    assert chunks[0][0] == 'IHDR' and chunks[-1][0] == 'IEND'
    W, H, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', chunks[0][1])
    assert (depth, ctype, interlace) == (8, 6, 0)
    actl = [b for k, b in chunks if k == 'acTL']
    assert len(actl) == 1
    frames, plays = struct.unpack('>II', actl[0])
    print('ACTL', frames, plays)
    seq, regions = 0, []
    for kind, body in chunks:
        if kind == 'fcTL':
            s, w, h, x, y, num, den, dispose, blend = struct.unpack('>IIIIIHHBB', body)
            assert s == seq; seq += 1
            regions.append([(w, h, x, y, num, den, dispose, blend), b''])
        elif kind == 'IDAT':
            assert len(regions) == 1, 'IDAT belongs to the first fcTL'
            regions[-1][1] += body
        elif kind == 'fdAT':
            s, = struct.unpack('>I', body[:4]); assert s == seq; seq += 1
            regions[-1][1] += body[4:]
    assert len(regions) == frames
    canvas = bytearray(4 * W * H)
    for k, ((w, h, x, y, num, den, dispose, blend), compressed) in enumerate(regions):
        print('FRAME', k, num, den, x, y, w, h)
        assert x + w <= W and y + h <= H and dispose == 0 and blend == 0
        raw, stride = zlib.decompress(compressed), 4 * w
        assert len(raw) == h * (stride + 1)
        prev, i = bytearray(stride), 0
        for row in range(h):
            f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
            unfilter(f, line, prev)
            start = 4 * ((y + row) * W + x)
            canvas[start:start + stride] = line
            prev = line
        if len(sys.argv) > 2 + k:
            expected = open(sys.argv[2 + k], 'rb').read()
            print('CANVAS', k, 'match' if bytes(canvas) == expected else 'differ')
    """#

  /// Runs the reader with `arguments` (the APNG file, then the expected canvases as raw
  /// straight RGBA files, frame by frame) and returns its output. Requires ``python``.
  public static func run(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python!)
    process.arguments = ["-c", program] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
  }
}
