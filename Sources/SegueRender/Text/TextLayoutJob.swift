import Segue

/// Lays out a ``TextLayoutRequest`` with a loaded face (`CATextLayer`'s drawing, done once):
///
/// 1. The string is cut into paragraphs at line separators; each is shaped as one HarfBuzz run
///    (direction and script guessed from its text; no bidirectional reordering inside it).
/// 2. With `isWrapped`, paragraphs break into lines that fit the bounds' width
///    (see <doc:TextLayers>); otherwise each paragraph is one line.
/// 3. With a truncation mode, lines that would end below the bounds are dropped (one is always
///    kept) and the last kept line takes the rest of its paragraph; then every line wider than
///    the bounds is cut with an ellipsis.
/// 4. Line `i`'s baseline is `ascent + i · lineHeight` below the bounds' top (CATextLayer draws
///    from the top); each line is placed by the alignment mode; glyph outlines are scaled by
///    `fontSize / unitsPerEm`, flipped to y-down and moved to their pen positions.
///
/// Nothing is clipped: text past the bounds is kept, as CATextLayer draws it unless the layer
/// masks to its bounds. Linear in the string's length.
public struct TextLayoutJob: Sendable {
  /// What to lay out.
  public var request: TextLayoutRequest
  /// The face the request's font resolved to.
  public var face: FontFace

  /// A job for `request` drawn with `face`.
  public init(request: TextLayoutRequest, face: FontFace) {
    self.request = request
    self.face = face
  }

  /// Checks the request (see ``TextLayoutRequest/validate()``).
  public func validate() throws(ValidationError) {
    try request.validate()
  }

  /// The layout.
  ///
  /// - Throws: ``/Segue/ValidationError`` from ``validate()``.
  public func run() throws(ValidationError) -> TextLayout {
    try validate()
    let metrics = face.metrics(fontSize: request.fontSize)
    let codepoints = Self.codepoints(of: request.string)
    let paragraphs = Self.paragraphRanges(codepoints).map {
      ShapedParagraph(face: face, codepoints: codepoints, scalars: $0)
    }
    let width = metrics.scale > 0 ? request.bounds.width / metrics.scale : .infinity
    var plans = linePlans(paragraphs, width: width)
    if request.truncationMode != .none {
      dropLinesBelowBounds(&plans, paragraphs: paragraphs, metrics: metrics)
    }
    var builder = TextLayoutBuilder(
      face: face, metrics: metrics, request: request, ellipsis: face.ellipsis,
      glyphCount: paragraphs.reduce(0) { $0 + $1.glyphs.count })
    for (index, plan) in plans.enumerated() {
      let paragraph = paragraphs[plan.paragraph]
      let cut = LineTruncation.truncate(
        plan.clusters, of: paragraph, mode: request.truncationMode, width: width,
        ellipsis: builder.ellipsisWidth, continues: plan.continues)
      builder.addLine(
        index: index, paragraph: paragraph, clusters: plan.clusters, cut: cut,
        isLastOfParagraph: plan.isLastOfParagraph)
    }
    return try builder.layout()
  }

  /// One line before truncation: a range of a paragraph's clusters.
  struct LinePlan {
    var paragraph: Int
    var clusters: Range<Int>
    var isLastOfParagraph: Bool
    var continues = false
  }

  private func linePlans(_ paragraphs: [ShapedParagraph], width: Double) -> [LinePlan] {
    var plans: [LinePlan] = []
    for (index, paragraph) in paragraphs.enumerated() {
      let ranges =
        request.isWrapped
        ? LineBreaker.lines(of: paragraph, width: width) : [0..<paragraph.clusters.count]
      for (k, range) in ranges.enumerated() {
        plans.append(
          LinePlan(paragraph: index, clusters: range, isLastOfParagraph: k == ranges.count - 1))
      }
    }
    return plans
  }

  /// Keeps the lines whose descent ends within the bounds' height (at least one); the last kept
  /// line takes the rest of its paragraph and is marked as continued.
  private func dropLinesBelowBounds(
    _ plans: inout [LinePlan], paragraphs: [ShapedParagraph], metrics: FontMetrics
  ) {
    let glyphHeight = metrics.ascent + metrics.descent
    let room = request.bounds.height - glyphHeight
    var fitting = 1
    if metrics.lineHeight > 0, room >= 0 {
      let extra = ((room + LineBreaker.tolerance(room)) / metrics.lineHeight).rounded(.down)
      fitting = Int(Swift.min(extra, Double(plans.count))) + 1
    }
    guard plans.count > fitting else { return }
    plans.removeLast(plans.count - fitting)
    var last = plans[fitting - 1]
    last.clusters = last.clusters.lowerBound..<paragraphs[last.paragraph].clusters.count
    last.isLastOfParagraph = true
    last.continues = true
    plans[fitting - 1] = last
  }

  /// The string's scalars for shaping: tabs as spaces (no tab stops), other control characters
  /// as zero-width spaces (never a missing-glyph box).
  static func codepoints(of string: String) -> [UInt32] {
    string.unicodeScalars.map { scalar in
      let value = scalar.value
      if value == 0x09 { return 0x20 }
      if LineBreakRules.isParagraphSeparator(value) { return value }
      if value < 0x20 || (0x7F...0x9F).contains(value) { return 0x200B }
      return value
    }
  }

  /// The paragraphs between separators (CR LF counts once; a separator at the end starts no
  /// empty paragraph); none for an empty string.
  static func paragraphRanges(_ codepoints: [UInt32]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    var index = 0
    while index < codepoints.count {
      guard LineBreakRules.isParagraphSeparator(codepoints[index]) else {
        index += 1
        continue
      }
      ranges.append(start..<index)
      let isCRLF =
        codepoints[index] == 0x0D && index + 1 < codepoints.count && codepoints[index + 1] == 0x0A
      index += isCRLF ? 2 : 1
      start = index
    }
    if start < codepoints.count { ranges.append(start..<codepoints.count) }
    return ranges
  }
}
