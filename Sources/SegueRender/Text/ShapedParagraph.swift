/// A cluster of a shaped paragraph: the smallest piece a line keeps whole (a grapheme, or more
/// when a ligature joins several).
struct TextCluster: Sendable {
  /// Its scalars (offsets into the whole string).
  var scalars: Range<Int>
  /// Its glyphs in the paragraph's logical glyph order.
  var glyphs: Range<Int>
  /// Whether it is breaking white space (hangs at a line's end).
  var isSpace: Bool
  /// Whether a justified line may widen it.
  var isJustifiable: Bool
  /// Whether a line may break after it.
  var allowsBreakAfter: Bool
}

/// One paragraph shaped as a single run, cut into clusters with prefix sums of their advances
/// (font units), so any range's width is one subtraction.
struct ShapedParagraph: Sendable {
  /// The paragraph's scalars (offsets into the whole string).
  var scalars: Range<Int>
  var isRightToLeft: Bool
  /// The glyphs in logical order.
  var glyphs: [ShapedGlyph]
  var clusters: [TextCluster]
  /// `offsets[i]`: the advance of clusters `0..<i`; `clusters.count + 1` entries.
  var offsets: [Double]

  init(face: FontFace, codepoints: [UInt32], scalars: Range<Int>) {
    self.scalars = scalars
    let run = face.shape(codepoints, range: scalars)
    isRightToLeft = run.isRightToLeft
    glyphs = run.glyphs
    clusters = []
    offsets = [0]
    var start = 0
    while start < glyphs.count {
      var end = start + 1
      var advance = Double(glyphs[start].advance)
      while end < glyphs.count && glyphs[end].cluster == glyphs[start].cluster {
        advance += Double(glyphs[end].advance)
        end += 1
      }
      let next = end < glyphs.count ? glyphs[end].cluster : scalars.upperBound
      let range = glyphs[start].cluster..<Swift.max(next, glyphs[start].cluster + 1)
      let first = codepoints[range.lowerBound]
      clusters.append(
        TextCluster(
          scalars: range, glyphs: start..<end,
          isSpace: range.allSatisfy { LineBreakRules.isBreakingSpace(codepoints[$0]) },
          isJustifiable: LineBreakRules.isJustifiableSpace(first), allowsBreakAfter: false))
      offsets.append(offsets[offsets.count - 1] + advance)
      start = end
    }
    markBreaks(codepoints)
  }

  private mutating func markBreaks(_ codepoints: [UInt32]) {
    guard clusters.count > 1 else { return }
    for index in 0..<(clusters.count - 1) {
      let before = codepoints[clusters[index].scalars.upperBound - 1]
      let after = codepoints[clusters[index + 1].scalars.lowerBound]
      let previous =
        clusters[index].scalars.count > 1
        ? codepoints[clusters[index].scalars.upperBound - 2]
        : index > 0 ? codepoints[clusters[index - 1].scalars.upperBound - 1] : nil
      clusters[index].allowsBreakAfter = LineBreakRules.allowsBreak(
        previous: previous, before: before, after: after)
    }
  }

  /// The advance of `range` (cluster indices), in font units.
  func width(_ range: Range<Int>) -> Double {
    offsets[range.upperBound] - offsets[range.lowerBound]
  }

  /// `range` without the spaces at its end.
  func trimmingTrailingSpaces(_ range: Range<Int>) -> Range<Int> {
    var end = range.upperBound
    while end > range.lowerBound && clusters[end - 1].isSpace { end -= 1 }
    return range.lowerBound..<end
  }

  /// `range` without the spaces at its start.
  func trimmingLeadingSpaces(_ range: Range<Int>) -> Range<Int> {
    var start = range.lowerBound
    while start < range.upperBound && clusters[start].isSpace { start += 1 }
    return start..<range.upperBound
  }

  /// The scalars clusters `range` stand for (an empty range at `at` when it is empty).
  func scalars(of range: Range<Int>, emptyAt at: Int) -> Range<Int> {
    guard !range.isEmpty else { return at..<at }
    return clusters[range.lowerBound].scalars
      .lowerBound..<clusters[range.upperBound - 1].scalars
      .upperBound
  }
}
