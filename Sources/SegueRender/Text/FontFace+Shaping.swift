import CHarfBuzz

/// One glyph HarfBuzz placed, in font units.
struct ShapedGlyph: Hashable, Sendable {
  /// The glyph index.
  var glyph: UInt32
  /// The offset of the first Unicode scalar of the glyph's cluster in the shaped text.
  var cluster: Int
  /// How far the pen moves after the glyph.
  var advance: Int32
  /// The glyph's offset from the pen (y up).
  var xOffset: Int32
  var yOffset: Int32
}

/// A shaped run: its glyphs in logical order (the order of the text) and its direction.
struct ShapedRun: Sendable {
  var glyphs: [ShapedGlyph]
  var isRightToLeft: Bool
}

extension FontFace {
  /// Shapes `codepoints[range]` as one run with HarfBuzz (the text around it as context), its
  /// direction, script and language guessed from the text (`hb_buffer_guess_segment_properties`):
  /// kerning, ligatures, marks and right-to-left scripts as the font defines them. Clusters are
  /// whole graphemes (HarfBuzz's default cluster level) and count scalars from the start of
  /// `codepoints`.
  func shape(_ codepoints: [UInt32], range: Range<Int>) -> ShapedRun {
    Self.shape(codepoints, range: range, font: shapingFont)
  }

  /// The ellipsis "…" shaped alone, or three full stops when the font has no "…".
  static func shapeEllipsis(_ font: OpaquePointer) -> [ShapedGlyph] {
    var glyph: hb_codepoint_t = 0
    let text: [UInt32] =
      hb_font_get_nominal_glyph(font, 0x2026, &glyph) != 0 ? [0x2026] : [0x2E, 0x2E, 0x2E]
    return shape(text, range: 0..<text.count, font: font).glyphs
  }

  private static func shape(_ codepoints: [UInt32], range: Range<Int>, font: OpaquePointer)
    -> ShapedRun
  {
    guard !range.isEmpty, let buffer = hb_buffer_create() else {
      return ShapedRun(glyphs: [], isRightToLeft: false)
    }
    defer { hb_buffer_destroy(buffer) }
    codepoints.withUnsafeBufferPointer { text in
      hb_buffer_add_utf32(
        buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound),
        Int32(range.count))
    }
    hb_buffer_guess_segment_properties(buffer)
    hb_shape(font, buffer, nil, 0)
    let isRightToLeft = hb_buffer_get_direction(buffer) == HB_DIRECTION_RTL
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
      let positions = hb_buffer_get_glyph_positions(buffer, &count)
    else { return ShapedRun(glyphs: [], isRightToLeft: isRightToLeft) }
    var glyphs: [ShapedGlyph] = []
    glyphs.reserveCapacity(Int(count))
    for index in 0..<Int(count) {
      let visual = isRightToLeft ? Int(count) - 1 - index : index
      glyphs.append(
        ShapedGlyph(
          glyph: infos[visual].codepoint, cluster: Int(infos[visual].cluster),
          advance: positions[visual].x_advance, xOffset: positions[visual].x_offset,
          yOffset: positions[visual].y_offset))
    }
    return ShapedRun(glyphs: glyphs, isRightToLeft: isRightToLeft)
  }
}
