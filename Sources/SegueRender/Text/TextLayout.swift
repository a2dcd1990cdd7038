import Segue

/// A text layer's string laid out in its bounds: lines, glyphs and their outlines, in layer
/// coordinates (points, y down, the bounds' top-left at the origin).
///
/// Computed once per ``TextLayoutRequest`` (by ``TextLayoutJob`` or a ``TextLayoutCache``) and
/// then only drawn: fill ``path`` with ``fillRule`` in the text colour through the layer's matrix.
/// Outlines are unhinted, so ``path`` scales under any transform; `contentsScale` plays no part
/// (in Core Animation it sets the resolution of the layer's bitmap, and outlines have none).
public struct TextLayout: Hashable, Sendable {
  /// The lines, top to bottom.
  public var lines: [TextLine]
  /// Every glyph drawn, line by line, each line's glyphs left to right.
  public var glyphs: [PositionedGlyph]
  /// The outlines of all glyphs, placed; fill with ``fillRule``.
  public var path: BezierPath
  /// The font's vertical metrics at the request's size.
  public var metrics: FontMetrics
  /// The face the text is drawn with.
  public var fontFile: FontFile

  /// Glyph outlines are filled with the non-zero winding rule (as Core Text draws them).
  public static let fillRule = FillRule.nonZero

  /// The union of the line boxes (`CTFramesetterSuggestFrameSizeWithConstraints` without the
  /// trailing leading): `.zero` without lines.
  public var typographicBounds: Rect {
    guard let first = lines.first, let last = lines.last else { return .zero }
    let minX = lines.map(\.box.minX).min() ?? 0
    let maxX = lines.map(\.box.maxX).max() ?? 0
    let bottom = last.origin.y + metrics.descent
    return Rect(x: minX, y: first.box.minY, width: maxX - minX, height: bottom - first.box.minY)
  }
}

/// One line of a ``TextLayout``.
public struct TextLine: Hashable, Sendable {
  /// The left end of the line's baseline.
  public var origin: Point
  /// The advance width of the glyphs drawn (trailing white space left out), in points.
  public var width: Double
  /// The line's box: from `origin.x`, `width` wide, `ascent` above the baseline to `descent`
  /// and `leading` below it (`lineHeight` tall).
  public var box: Rect
  /// The Unicode scalars of the string (offsets into `string.unicodeScalars`) the line stands
  /// for, trailing white space included; for a truncated line, also the text the ellipsis hides.
  public var characterRange: Range<Int>
  /// Whether an ellipsis replaces part of ``characterRange``.
  public var isTruncated: Bool
  /// The line's glyphs in ``TextLayout/glyphs``.
  public var glyphRange: Range<Int>
}

/// One glyph of a ``TextLayout``, placed.
public struct PositionedGlyph: Hashable, Sendable {
  /// The glyph index in the layout's font.
  public var glyph: UInt32
  /// The glyph's origin on the baseline (the pen position plus HarfBuzz's offset), in layer
  /// coordinates.
  public var position: Point
  /// How far the pen moved after it, in points (with a justified line's extra space).
  public var advance: Double
  /// The offset in `string.unicodeScalars` of the first scalar the glyph draws (for the
  /// ellipsis: of the first scalar it hides).
  public var characterIndex: Int
}
