import Foundation
import Testing

/// Decodes PNG files with an independent decoder: a small Python program using only `zlib` and
/// `struct` (signature, chunk CRCs, IHDR, concatenated IDATs, inflate, the five scanline filters
/// 0–4 of the PNG specification), not the code under test. It handles 8-bit RGBA
/// non-interlaced images, which is what `segue render` writes, and fails on anything else.
enum PNGDecoding {
  /// One decoded image: its size and the RGBA bytes at the requested points.
  struct Image: Decodable {
    var width: Int
    var height: Int
    /// RGBA (straight alpha) at each requested `(x, y)`, in order.
    var pixels: [[Int]]
  }

  static let program = #"""
    import sys, zlib, struct, json
    def decode(path):
        data = open(path, 'rb').read()
        assert data[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
        pos, idat, ihdr = 8, b'', None
        while pos < len(data):
            n, kind = struct.unpack('>I4s', data[pos:pos+8])
            body = data[pos+8:pos+8+n]
            crc, = struct.unpack('>I', data[pos+8+n:pos+12+n])
            assert zlib.crc32(kind + body) & 0xffffffff == crc, 'crc'
            if kind == b'IHDR': ihdr = struct.unpack('>IIBBBBB', body)
            elif kind == b'IDAT': idat += body
            elif kind == b'IEND': break
            pos += 12 + n
        w, h, depth, ctype, _, _, interlace = ihdr
        assert (depth, ctype, interlace) == (8, 6, 0), 'RGBA8 non-interlaced'
        raw, bpp, stride = zlib.decompress(idat), 4, 4 * w
        assert len(raw) == h * (stride + 1), 'data length'
        rows, prev, i = [], bytearray(stride), 0
        for y in range(h):
            f = raw[i]; line = bytearray(raw[i+1:i+1+stride]); i += 1 + stride
            for x in range(stride):
                a = line[x-bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x-bpp] if x >= bpp else 0
                if f == 1: line[x] = (line[x] + a) & 255
                elif f == 2: line[x] = (line[x] + b) & 255
                elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c; pa, pb, pc = abs(p-a), abs(p-b), abs(p-c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                    line[x] = (line[x] + pred) & 255
                else: assert f == 0, 'filter type'
            rows.append(line); prev = line
        return w, h, rows
    out = []
    for arg in sys.argv[1:]:
        path, points = arg.split('@')
        w, h, rows = decode(path)
        px = [list(rows[y][4*x:4*x+4]) for x, y in (map(int, p.split(',')) for p in points.split(';'))]
        out.append({'width': w, 'height': h, 'pixels': px})
    print(json.dumps(out))
    """#

  /// Decodes each file and reads the pixels at its points.
  static func decode(_ requests: [(path: String, points: [(Int, Int)])]) throws -> [Image] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["python3", "-c", program]
      + requests.map { r in
        r.path + "@" + r.points.map { "\($0.0),\($0.1)" }.joined(separator: ";")
      }
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "the Python PNG decoder failed")
    return try JSONDecoder().decode([Image].self, from: data)
  }
}
