import Segue

/// What a line keeps of its clusters when it is cut: `head`, an ellipsis, then `tail`
/// (`CTLineCreateTruncatedLine` with "…" as the token).
struct TruncatedLine: Equatable, Sendable {
  var head: Range<Int>
  var tail: Range<Int>
  var hasEllipsis: Bool

  /// Clusters `range` as they are, without an ellipsis.
  static func whole(_ range: Range<Int>) -> TruncatedLine {
    TruncatedLine(head: range, tail: range.upperBound..<range.upperBound, hasEllipsis: false)
  }
}

enum LineTruncation {
  /// Cuts `range` of `paragraph` to fit `width` font units with an ellipsis `ellipsis` units
  /// wide, by `mode`; `continues`: text follows that is not shown (the last line kept when
  /// lines were dropped), so `.end` marks it even when it fits. The cut falls between clusters
  /// and the spaces at it are dropped. When not even the ellipsis fits, only the ellipsis is
  /// kept.
  static func truncate(
    _ range: Range<Int>, of paragraph: ShapedParagraph, mode: TextTruncationMode, width: Double,
    ellipsis: Double, continues: Bool
  ) -> TruncatedLine {
    let visible = paragraph.trimmingTrailingSpaces(range)
    let limit = width + LineBreaker.tolerance(width)
    let fits = paragraph.width(visible) <= limit
    let empty = range.lowerBound..<range.lowerBound
    switch mode {
    case .none:
      return .whole(range)
    case .end where fits && continues && paragraph.width(visible) + ellipsis <= limit:
      return TruncatedLine(
        head: visible, tail: visible.upperBound..<visible.upperBound, hasEllipsis: true)
    case _ where fits:
      return .whole(range)
    case _ where ellipsis > limit:
      return TruncatedLine(head: empty, tail: empty, hasEllipsis: true)
    case .end:
      let head = prefix(of: visible, in: paragraph, fitting: limit - ellipsis)
      return TruncatedLine(head: head, tail: head.upperBound..<head.upperBound, hasEllipsis: true)
    case .start:
      let tail = suffix(of: visible, in: paragraph, fitting: limit - ellipsis)
      return TruncatedLine(head: empty, tail: tail, hasEllipsis: true)
    case .middle:
      let budget = limit - ellipsis
      let head = prefix(of: visible, in: paragraph, fitting: budget / 2)
      let rest = head.upperBound..<visible.upperBound
      let tail = suffix(of: rest, in: paragraph, fitting: budget - paragraph.width(head))
      return TruncatedLine(head: head, tail: tail, hasEllipsis: true)
    }
  }

  /// The longest start of `range` no wider than `budget` once its trailing spaces are dropped,
  /// without them (a space never makes it wider, so each step is one subtraction).
  private static func prefix(
    of range: Range<Int>, in paragraph: ShapedParagraph, fitting budget: Double
  ) -> Range<Int> {
    var end = range.lowerBound
    while end < range.upperBound
      && (paragraph.clusters[end].isSpace
        || paragraph.width(range.lowerBound..<(end + 1)) <= budget)
    {
      end += 1
    }
    return paragraph.trimmingTrailingSpaces(range.lowerBound..<end)
  }

  /// The longest end of `range` no wider than `budget` once its leading spaces are dropped,
  /// without them.
  private static func suffix(
    of range: Range<Int>, in paragraph: ShapedParagraph, fitting budget: Double
  ) -> Range<Int> {
    var start = range.upperBound
    while start > range.lowerBound
      && (paragraph.clusters[start - 1].isSpace
        || paragraph.width((start - 1)..<range.upperBound) <= budget)
    {
      start -= 1
    }
    return paragraph.trimmingLeadingSpaces(start..<range.upperBound)
  }
}
