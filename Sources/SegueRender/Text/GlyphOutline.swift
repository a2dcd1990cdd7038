import CFreeType
import Segue

/// A glyph's outline in font units, y up (the font's own coordinates), as FreeType loads it
/// unhinted: closed contours of lines, quadratic (TrueType) and cubic (CFF) Bézier curves,
/// filled with the non-zero rule.
public struct GlyphOutline: Hashable, Sendable {
  /// The glyph index in its font.
  public var glyph: UInt32
  /// The contours: each a `move`, then lines and curves back to its start, then `closeSubpath`.
  public var elements: [BezierPath.Element]
  /// The horizontal advance, in font units.
  public var advance: Double
  /// FreeType's box of the glyph (`FT_Glyph_Metrics`: left bearing, top bearing minus height,
  /// width, height), in font units, y up; `.zero` for a glyph without an outline.
  public var bounds: Rect

  /// An outline; see the properties.
  public init(glyph: UInt32, elements: [BezierPath.Element], advance: Double, bounds: Rect) {
    self.glyph = glyph
    self.elements = elements
    self.advance = advance
    self.bounds = bounds
  }

  /// The outline as a path, in font units, y up.
  public var path: BezierPath {
    (try? BezierPath(elements: elements)) ?? BezierPath()
  }
}

/// `FT_Outline_Decompose` into path elements.
enum OutlineDecomposer {
  /// Where the callbacks append; reached through FreeType's user pointer.
  private struct Sink {
    var elements: [BezierPath.Element] = []
    var scale: Double
    var isOpen = false

    func point(_ vector: UnsafePointer<FT_Vector>?) -> Point {
      guard let v = vector?.pointee else { return .zero }
      return Point(x: Double(v.x) / scale, y: Double(v.y) / scale)
    }

    mutating func closeIfOpen() {
      if isOpen { elements.append(.closeSubpath) }
      isOpen = false
    }
  }

  /// The elements of `outline`, whose coordinates are `unitsPerFixed` to the font unit; every
  /// contour closed.
  static func elements(of outline: inout FT_Outline, unitsPerFixed: Double)
    -> [BezierPath.Element]
  {
    var sink = Sink(scale: unitsPerFixed)
    var funcs = FT_Outline_Funcs(
      move_to: { to, user in
        OutlineDecomposer.withSink(user) { sink in
          sink.closeIfOpen()
          sink.elements.append(.move(to: sink.point(to)))
          sink.isOpen = true
        }
      },
      line_to: { to, user in
        OutlineDecomposer.withSink(user) { sink in sink.elements.append(.line(to: sink.point(to))) }
      },
      conic_to: { control, to, user in
        OutlineDecomposer.withSink(user) { sink in
          sink.elements.append(.quadCurve(to: sink.point(to), control: sink.point(control)))
        }
      },
      cubic_to: { control1, control2, to, user in
        OutlineDecomposer.withSink(user) { sink in
          sink.elements.append(
            .curve(
              to: sink.point(to), control1: sink.point(control1), control2: sink.point(control2)))
        }
      },
      shift: 0, delta: 0)
    let error = withUnsafeMutablePointer(to: &sink) { pointer in
      FT_Outline_Decompose(&outline, &funcs, UnsafeMutableRawPointer(pointer))
    }
    guard error == 0 else { return [] }
    sink.closeIfOpen()
    return sink.elements
  }

  private static func withSink(
    _ user: UnsafeMutableRawPointer?, _ body: (inout Sink) -> Void
  ) -> Int32 {
    guard let user else { return 1 }
    body(&user.assumingMemoryBound(to: Sink.self).pointee)
    return 0
  }
}
