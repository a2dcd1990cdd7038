import Foundation
import Segue
import SegueRender

/// The fonts `scripts/ensure-deps.sh` installs: Inter (fonts-inter, the default font, CFF
/// outlines with cubic curves) and DejaVu Sans (fonts-dejavu-core, TrueType, quadratic curves).
enum TextTestFonts {
  static let library = FontLibrary.shared

  static func inter() throws -> FontFace { try library.face(for: .name("Inter")) }
  static func dejaVuSans() throws -> FontFace { try library.face(for: .name("DejaVu Sans")) }

  /// `request` laid out with `face`.
  static func layout(_ request: TextLayoutRequest, face: FontFace) throws -> TextLayout {
    try TextLayoutJob(request: request, face: face).run()
  }

  /// A fresh temporary file holding `bytes`.
  static func temporaryFile(_ bytes: [UInt8], suffix: String = ".ttf") throws -> String {
    let path = NSTemporaryDirectory() + "segue-font-\(UUID().uuidString)\(suffix)"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }
}

/// The smallest box holding every point of `elements` (end points and control points; for
/// outlines whose extremes are on-curve points, as TrueType and CFF fonts require, that is the
/// outline's box).
func controlBox(_ elements: [BezierPath.Element]) -> Rect? {
  var points: [Point] = []
  for element in elements {
    switch element {
    case .move(let p), .line(let p): points.append(p)
    case .quadCurve(let p, let c): points += [p, c]
    case .curve(let p, let c1, let c2): points += [p, c1, c2]
    case .closeSubpath: break
    }
  }
  guard let first = points.first else { return nil }
  var minX = first.x
  var maxX = first.x
  var minY = first.y
  var maxY = first.y
  for p in points {
    minX = min(minX, p.x)
    maxX = max(maxX, p.x)
    minY = min(minY, p.y)
    maxY = max(maxY, p.y)
  }
  return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
}

/// A reader of the few TrueType tables a test needs, straight from the file's bytes (big-endian,
/// as the OpenType specification lays them out): independent of FreeType and HarfBuzz.
struct TrueTypeTables {
  let data: [UInt8]
  let tables: [String: Int]

  init(path: String) throws {
    data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    var tables: [String: Int] = [:]
    let count = Int(Self.u16(data, 4))
    for index in 0..<count {
      let record = 12 + 16 * index
      let tag = String(decoding: data[record..<(record + 4)], as: UTF8.self)
      tables[tag] = Int(Self.u32(data, record + 8))
    }
    self.tables = tables
  }

  static func u16(_ data: [UInt8], _ offset: Int) -> UInt16 {
    UInt16(data[offset]) << 8 | UInt16(data[offset + 1])
  }
  static func i16(_ data: [UInt8], _ offset: Int) -> Int {
    Int(Int16(bitPattern: u16(data, offset)))
  }
  static func u32(_ data: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(u16(data, offset)) << 16 | UInt32(u16(data, offset + 2))
  }

  /// `head.unitsPerEm`.
  var unitsPerEm: Int { Int(Self.u16(data, tables["head"]! + 18)) }
  /// `hhea.ascender`.
  var ascender: Int { Self.i16(data, tables["hhea"]! + 4) }

  /// The glyph's `xMin, yMin, xMax, yMax` from its `glyf` header (through `loca`).
  func glyphBox(_ glyph: UInt32) -> (xMin: Int, yMin: Int, xMax: Int, yMax: Int) {
    let longOffsets = Self.i16(data, tables["head"]! + 50) == 1
    let loca = tables["loca"]!
    let offset =
      longOffsets
      ? Int(Self.u32(data, loca + 4 * Int(glyph))) : 2 * Int(Self.u16(data, loca + 2 * Int(glyph)))
    let header = tables["glyf"]! + offset
    return (
      Self.i16(data, header + 2), Self.i16(data, header + 4), Self.i16(data, header + 6),
      Self.i16(data, header + 8)
    )
  }
}
