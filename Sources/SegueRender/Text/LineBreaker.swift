/// Greedy line filling (Core Text's word wrapping): each line takes clusters while the text
/// without its trailing spaces fits the width, and breaks at the last opportunity
/// (``LineBreakRules``); a word wider than the width alone breaks between clusters, keeping at
/// least one cluster per line. Linear in the paragraph's clusters.
enum LineBreaker {
  /// The lines of `paragraph` within `width` font units, as cluster ranges covering it in
  /// order; one empty range for an empty paragraph.
  static func lines(of paragraph: ShapedParagraph, width: Double) -> [Range<Int>] {
    let count = paragraph.clusters.count
    guard count > 0 else { return [0..<0] }
    let limit = width + tolerance(width)
    var lines: [Range<Int>] = []
    var start = 0
    while start < count {
      var lastBreak: Int?
      var index = start
      while index < count {
        let cluster = paragraph.clusters[index]
        if !cluster.isSpace && index > start
          && paragraph.width(start..<(index + 1)) > limit
        {
          break
        }
        if cluster.allowsBreakAfter { lastBreak = index + 1 }
        index += 1
      }
      let end = index == count ? count : (lastBreak ?? index)
      lines.append(start..<end)
      start = end
    }
    return lines
  }

  /// Widths within a few ulps of the limit count as fitting.
  static func tolerance(_ width: Double) -> Double {
    width.isFinite ? Swift.max(abs(width), 1) * 1e-9 : 0
  }
}
