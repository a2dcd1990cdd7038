import Foundation
import Segue
import SegueRender
import SegueTestSupport
import Testing

/// The path of a `python3` executable on `PATH`, or nil.
private let python3: String? = {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/python3"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return nil
}()

/// An independent PNG decoder using only Python's zlib and struct: checks the signature, every
/// chunk's CRC-32 (zlib.crc32), IHDR first and IEND last, inflates the IDAT data (zlib checks
/// the Adler-32), undoes all five scanline filters, then prints `IHDR w h depth colour
/// compression filter interlace`, optionally `PIXELS match|differ` against a raw RGBA file, and
/// `PX x y r g b a` for each requested pixel.
private let decoderScript = """
  import sys, zlib, struct
  \(PNGFilterPython.definitions)
  data = open(sys.argv[1], 'rb').read()
  if data[:8] != b'\\x89PNG\\r\\n\\x1a\\n':
      print('BADSIGNATURE'); sys.exit(1)
  pos = 8
  chunks = []
  while pos < len(data):
      (n,) = struct.unpack('>I', data[pos:pos + 4])
      typ = data[pos + 4:pos + 8]
      body = data[pos + 8:pos + 8 + n]
      (crc,) = struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])
      if zlib.crc32(typ + body) & 0xffffffff != crc:
          print('BADCRC', typ.decode()); sys.exit(1)
      chunks.append((typ.decode(), body))
      pos += 12 + n
  if chunks[0][0] != 'IHDR' or chunks[-1][0] != 'IEND':
      print('BADORDER'); sys.exit(1)
  w, h, depth, ctype, comp, filt, inter = struct.unpack('>IIBBBBB', chunks[0][1])
  print('IHDR', w, h, depth, ctype, comp, filt, inter)
  raw = zlib.decompress(b''.join(b for t, b in chunks if t == 'IDAT'))
  stride = 4 * w
  out = bytearray()
  prev = bytearray(stride)
  for y in range(h):
      f = raw[y * (stride + 1)]
      line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
      if f > 4:
          print('BADFILTER'); sys.exit(1)
      unfilter(f, line, prev)
      out += line
      prev = line
  if len(sys.argv) > 2 and sys.argv[2] != '-':
      print('PIXELS', 'match' if open(sys.argv[2], 'rb').read() == bytes(out) else 'differ')
  for spec in sys.argv[3:]:
      x, y = map(int, spec.split(','))
      i = 4 * (y * w + x)
      print('PX', x, y, *out[i:i + 4])
  """

/// Writes `files` to a temporary directory, runs `script` with `python3 -c` on their paths
/// followed by `arguments`, and returns its standard output.
private func runPython(_ script: String, files: [[UInt8]], arguments: [String] = []) throws
  -> String
{
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "segue-png-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  var paths: [String] = []
  for (k, bytes) in files.enumerated() {
    let url = directory.appendingPathComponent("file\(k)")
    try Data(bytes).write(to: url)
    paths.append(url.path)
  }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: python3!)
  process.arguments = ["-c", script] + paths + arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: output, as: UTF8.self)
}

/// The integers of a line of output separated by spaces.
private func integers(_ output: String) -> [Int] {
  output.split(separator: " ").compactMap {
    Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}

/// Runs the decoder on `png` (and compares with `raw` if given) with the requested pixels, and
/// returns its output lines.
private func decode(_ png: [UInt8], raw: [UInt8]? = nil, pixels: [(Int, Int)] = []) throws
  -> [String]
{
  let files = [png] + (raw.map { [$0] } ?? [])
  let arguments = (raw == nil ? ["-"] : []) + pixels.map { "\($0.0),\($0.1)" }
  return try runPython(decoderScript, files: files, arguments: arguments)
    .split(separator: "\n").map(String.init)
}

/// The PNG encoder: checksums by published check values, and files decoded by an independent
/// decoder (Python's zlib) with the expected pixels.
@Suite("PNG")
struct PNGTests {
  /// Published check values: CRC-32 of "123456789" is 0xCBF43926 (the CRC catalogue's "check");
  /// every PNG's IEND chunk ends with CRC 0xAE426082; Adler-32 of "Wikipedia" is 0x11E60398
  /// (RFC 1950 example on Wikipedia), of nothing is 1.
  @Test func checksums() {
    #expect(PNG.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(PNG.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    #expect(PNG.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    #expect(PNG.adler32([]) == 1)
  }

  /// Adler-32 over more than 5552 bytes (the reduction interval) matches a direct mod-65521
  /// computation: 100 000 bytes of 255 give s1 = 1 + 255·10⁵ mod 65521 and
  /// s2 = Σₖ (1 + 255k) for k = 1…10⁵ mod 65521, computed here in 64-bit integers.
  @Test func adler32LongInput() {
    let n: UInt64 = 100_000
    let s1 = (1 + 255 * n) % 65521
    let s2 = (n + 255 * n * (n + 1) / 2) % 65521
    #expect(PNG.adler32([UInt8](repeating: 255, count: Int(n))) == UInt32(s2 << 16 | s1))
  }

  /// A stored zlib stream by hand (zlib at level 0): "abc" → 78 01, block header 01 (final, stored), LEN 03 00,
  /// NLEN FC FF, the bytes, then Adler-32 big-endian: s1 = 1 + 97 + 98 + 99 = 295 = 0x127,
  /// s2 = 98 + 196 + 295 = 589 = 0x24D → 02 4D 01 27.
  @Test func storedZlibByHand() throws {
    let expected: [UInt8] = [
      0x78, 0x01, 0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61, 0x62, 0x63, 0x02, 0x4D, 0x01, 0x27,
    ]
    #expect(try PNG.zlib(Array("abc".utf8), level: 0) == expected)
  }

  /// Un-premultiplying and the header, decoded by Python. Pixels (premultiplied → straight):
  /// (255, 0, 0, 255) unchanged; (128, 0, 0, 128): ⌊(510·128 + 128)/256⌋ = 255;
  /// (64, 32, 0, 128): R = ⌊32768/256⌋ = 128, G = ⌊16448/256⌋ = 64; (0, 0, 0, 0) stays;
  /// (10, 20, 30, 40): R = ⌊5140/80⌋ = 64 (63.75), G = ⌊10240/80⌋ = 128 (127.5 ties up),
  /// B = ⌊15340/80⌋ = 191 (191.25); invalid (200, 0, 0, 100): ⌊102100/200⌋ = 510 → 255.
  @Test(
    .enabled(
      if: python3 != nil, "python3 not found on PATH: apt-get install python3, or make setup-test"))
  func smallImageDecodes() throws {
    let image = try PixelBufferRGBA8(
      width: 3, height: 2,
      components: [
        255, 0, 0, 255, 128, 0, 0, 128, 64, 32, 0, 128,
        0, 0, 0, 0, 10, 20, 30, 40, 200, 0, 0, 100,
      ])
    let settings: [(PNG.Compression, PNG.FilterChoice)] =
      [(.level(0), .adaptive), (.automatic, .adaptive), (.level(12), .adaptive)]
      + PNG.Filter.allCases.map { (.automatic, .fixed($0)) }
    for (compression, filter) in settings {
      let png = try PNG.encode(image, compression: compression, filter: filter)
      let lines = try decode(png, pixels: [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)])
      #expect(
        lines == [
          "IHDR 3 2 8 6 0 0 0", "PX 0 0 255 0 0 255", "PX 1 0 255 0 0 128", "PX 2 0 128 64 0 128",
          "PX 0 1 0 0 0 0", "PX 1 1 64 128 191 40", "PX 2 1 255 0 0 100",
        ])
    }
  }

  /// A 300×200 opaque image with gradients, stripes and repeated rows decodes to exactly its
  /// bytes stored (level 0), compressed with adaptive filters, and with each single filter; a
  /// padded stride is not written. The compressed file is smaller than the stored one.
  @Test(
    .enabled(
      if: python3 != nil, "python3 not found on PATH: apt-get install python3, or make setup-test"))
  func largeImageRoundTrips() throws {
    let width = 300
    let height = 200
    var image = try PixelBufferRGBA8(width: width, height: height, stride: 4 * width + 12)
    var raw: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let p = SIMD4<UInt8>(
          UInt8(x & 255), UInt8((y * 3) & 255), UInt8((x / 7 + y / 5) % 2 * 200), 255)
        image[x, y] = p
        raw += [p[0], p[1], p[2], p[3]]
      }
    }
    let stored = try PNG.encode(image, compression: .level(0))
    let compressed = try PNG.encode(image)
    #expect(compressed.count < stored.count)
    var files = [stored, compressed]
    for filter in PNG.Filter.allCases {
      files.append(try PNG.encode(image, filter: .fixed(filter)))
    }
    for png in files {
      let lines = try decode(png, raw: raw)
      #expect(lines == ["IHDR 300 200 8 6 0 0 0", "PIXELS match"])
    }
  }

  /// End to end: a CATransition fade at q = 0.5 rendered from red and blue snapshots over white,
  /// quantised, encoded and decoded by Python: every chosen pixel is (128, 0, 128, 255), the
  /// cross-dissolve midpoint (127.5 rounded half up). A second layer at opacity 0.5 of green over
  /// the white margin gives (0.5, 1, 0.5) → (128, 255, 128, 255).
  @Test(
    .enabled(
      if: python3 != nil, "python3 not found on PATH: apt-get install python3, or make setup-test"))
  func renderedCrossDissolveDecodes() throws {
    let frame = Rect(x: 0, y: 0, width: 20, height: 12)
    let green = try RGBAColor(red: 0, green: 1, blue: 0)
    let items: [RenderItem] = [
      .layer(
        RasterLayer(
          snapshot: LayerSnapshot(
            bounds: frame, fill: .solid(try RGBAColor(red: 1, green: 0, blue: 0))),
          opacity: 0.5, blendMode: .add)),
      .layer(
        RasterLayer(
          snapshot: LayerSnapshot(
            bounds: frame, fill: .solid(try RGBAColor(red: 0, green: 0, blue: 1))),
          opacity: 0.5, blendMode: .add)),
      .layer(
        RasterLayer(
          snapshot: LayerSnapshot(
            bounds: Rect(x: 0, y: 0, width: 4, height: 4), fill: .solid(green)),
          matrix: .makeTranslation(x: 22, y: 0, z: 0), opacity: 0.5)),
    ]
    let image = PixelBufferRGBA8(
      try Rasterizer.render(items, width: 26, height: 12, background: .white))
    let png = try PNG.encode(image)
    let lines = try decode(png, pixels: [(0, 0), (10, 6), (19, 11), (23, 2), (25, 11)])
    #expect(
      lines == [
        "IHDR 26 12 8 6 0 0 0", "PX 0 0 128 0 128 255", "PX 10 6 128 0 128 255",
        "PX 19 11 128 0 128 255", "PX 23 2 128 255 128 255", "PX 25 11 255 255 255 255",
      ])
  }

  /// Compression against zlib on the same pixels: Python decodes each file (CRCs, inflate,
  /// the five filters), then filters the decoded pixels with each single filter for every row
  /// and compresses that with `zlib.compress(…, 6)`. Our `IDAT` data (adaptive filters,
  /// automatic compression) must be at most 1.1 × the best of those five. Images: the committed system filmstrip's
  /// sheet (bare views, text captions), a hero pop frame with gradient fills, and a
  /// cross-dissolve frame (its dissolve colours) at 0.5 px/pt, and a hero push frame on the
  /// iOS-screen views (flat fills and text, which compress best unfiltered) at 2 px/pt.
  @Test(
    .enabled(
      if: python3 != nil, "python3 not found on PATH: apt-get install python3, or make setup-test"))
  func compressionWithinTenPercentOfTheBestSingleFilter() throws {
    func frame(
      _ preset: TransitionPreset, _ operation: TransitionOperation, _ f: Double,
      _ renderer: SceneRenderer, content: DefaultViewContent = .bare
    ) throws -> PixelBufferRGBA8 {
      let animator = PresetAnimator(preset)
      let scene = try animator.animateTransition(
        using: animator.defaultContext(operation: operation, content: content))
      return try renderer.render(scene, at: f * scene.duration)
    }
    let animator = PresetAnimator(.system)
    let system = try animator.animateTransition(
      using: animator.defaultContext(operation: .push, content: .bare))
    let sheet = try Filmstrip(renderer: SceneRenderer(scale: 0.25), columns: 6).render(
      system, times: (0...5).map { Double($0) * system.duration / 5 })
    let images = [
      sheet,
      try frame(.hero, .pop, 0.4, SceneRenderer(scale: 0.5, gradient: true)),
      try frame(.caFade, .push, 0.5, SceneRenderer(scale: 0.5)),
      try frame(.hero, .push, 0.6, SceneRenderer(scale: 2), content: .screens),
    ]
    let script = """
      import sys, zlib, struct
      d = open(sys.argv[1], 'rb').read()
      assert d[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
      pos, idat = 8, b''
      while pos < len(d):
          (n,) = struct.unpack('>I', d[pos:pos + 4]); t = d[pos + 4:pos + 8]; b = d[pos + 8:pos + 8 + n]
          assert zlib.crc32(t + b) & 0xffffffff == struct.unpack('>I', d[pos + 8 + n:pos + 12 + n])[0]
          if t == b'IHDR': w, h = struct.unpack('>II', b[:8])
          if t == b'IDAT': idat += b
          pos += 12 + n
      raw, s = zlib.decompress(idat), 4 * w
      \(PNGFilterPython.definitions)
      rows, prev = [], bytearray(s)
      for y in range(h):
          f = raw[y * (s + 1)]; line = bytearray(raw[y * (s + 1) + 1:(y + 1) * (s + 1)])
          unfilter(f, line, prev)
          rows.append(line); prev = line
      sizes = []
      for f in range(5):
          out, prev = bytearray(), bytearray(s)
          for line in rows:
              out.append(f)
              out += bytes((line[i] - predict(f, line, prev, i)) & 255 for i in range(s))
              prev = line
          sizes.append(len(zlib.compress(bytes(out), 6)))
      print(len(idat), min(sizes), *sizes)
      """
    for (k, image) in images.enumerated() {
      let output = try runPython(script, files: [try PNG.encode(image)])
      let numbers = integers(output)
      try #require(numbers.count == 7, "image \(k): \(output)")
      #expect(
        Double(numbers[0]) <= 1.1 * Double(numbers[1]),
        "image \(k): IDAT \(numbers[0]) B, single filters \(numbers[2...])")
    }
  }

  /// The size bound on full-size frames: rendered frames at scale 2 (780 × 1688, the size
  /// `segue render` writes by default for these presets) of the iOS-screen views, flat and with
  /// gradient fills. Python inflates each file's `IDAT` data and compresses the same filtered rows with
  /// `zlib.compress(…, 6)` (what the encoder wrote with zlib before); ours must be at most
  /// 1.1 × that.
  @Test(
    .enabled(
      if: python3 != nil, "python3 not found on PATH: apt-get install python3, or make setup-test"))
  func fullSizeFramesWithinTenPercentOfZlibSix() throws {
    let script = """
      import sys, zlib, struct
      d = open(sys.argv[1], 'rb').read()
      pos, idat = 8, b''
      while pos < len(d):
          (n,) = struct.unpack('>I', d[pos:pos + 4])
          if d[pos + 4:pos + 8] == b'IDAT': idat += d[pos + 8:pos + 8 + n]
          pos += 12 + n
      print(len(idat), len(zlib.compress(zlib.decompress(idat), 6)))
      """
    let cases: [(TransitionPreset, SceneRenderer)] = [
      (.system, SceneRenderer(scale: 2)),
      (.hero, SceneRenderer(scale: 2, gradient: true)),
    ]
    for (preset, renderer) in cases {
      let animator = PresetAnimator(preset)
      let scene = try animator.animateTransition(using: animator.defaultContext(operation: .push))
      let png = try PNG.encode(try renderer.render(scene, at: 0.5 * scene.duration))
      let output = try runPython(script, files: [png])
      let numbers = integers(output)
      try #require(numbers.count == 2, "\(preset): \(output)")
      #expect(
        Double(numbers[0]) <= 1.1 * Double(numbers[1]),
        "\(preset): IDAT \(numbers[0]) B, zlib 6 \(numbers[1]) B")
    }
  }

  @Test func rejectsLevelsOutsideZeroToTwelve() throws {
    let image = try PixelBufferRGBA8(width: 1, height: 1)
    let error = ValidationError(field: "level", reason: .outOfRange(lower: 0, upper: 12))
    #expect(throws: error) { try PNG.encode(image, compression: .level(13)) }
    #expect(throws: error) { try PNG.encode(image, compression: .level(-1)) }
    #expect(throws: error) { try PNG.zlib([1, 2, 3], level: 13) }
    #expect(throws: error) { try PNGEncoder(compression: .level(13)) }
    #expect(throws: error) { try PNGEncoder(compression: .level(-1)) }
  }

  @Test func rejectsZeroWidth() throws {
    let image = try PixelBufferRGBA8(width: 0, height: 3)
    #expect(throws: ValidationError(field: "width", reason: .notPositive)) {
      try PNG.encode(image)
    }
  }

  @Test func rejectsZeroHeight() throws {
    let image = try PixelBufferRGBA8(width: 3, height: 0)
    #expect(throws: ValidationError(field: "height", reason: .notPositive)) {
      try PNG.encode(image)
    }
  }
}
