/// A face's vertical metrics at a size, in points (`CTFontGetAscent`, `CTFontGetDescent`,
/// `CTFontGetLeading`): the font units times `fontSize / unitsPerEm`.
///
/// A line of text is `lineHeight = ascent + descent + leading` tall: its baseline `ascent` below
/// its top, the leading below its descent.
public struct FontMetrics: Hashable, Sendable {
  /// The size in points (the em).
  public var fontSize: Double
  /// Font units per em.
  public var unitsPerEm: Int
  /// Points per font unit: `fontSize / unitsPerEm`.
  public var scale: Double
  /// From the baseline up to the top of the line.
  public var ascent: Double
  /// From the baseline down to the bottom of the glyphs' line box, positive.
  public var descent: Double
  /// Extra space below the descent before the next line.
  public var leading: Double

  /// The metrics of a face with these font-unit values at `fontSize` points.
  public init(fontSize: Double, unitsPerEm: Int, ascender: Int, descender: Int, lineGap: Int) {
    self.fontSize = fontSize
    self.unitsPerEm = unitsPerEm
    scale = fontSize / Double(unitsPerEm)
    ascent = Double(ascender) * scale
    descent = Double(descender) * scale
    leading = Double(lineGap) * scale
  }

  /// `ascent + descent + leading`: the distance between baselines.
  public var lineHeight: Double { ascent + descent + leading }
}
