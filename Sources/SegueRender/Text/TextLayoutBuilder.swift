import Segue

/// Places lines one after another: alignment, justification, glyph positions, placed outlines.
struct TextLayoutBuilder {
  let face: FontFace
  let metrics: FontMetrics
  let request: TextLayoutRequest
  let ellipsis: [ShapedGlyph]
  let ellipsisWidth: Double
  private var lines: [TextLine] = []
  private var glyphs: [PositionedGlyph] = []
  private var elements: [BezierPath.Element] = []

  /// Path elements reserved per glyph: a Latin letter's outline has about 14 (measured on Inter
  /// over random words), so most layouts never grow the array.
  static let elementsPerGlyph = 16

  /// A builder for about `glyphCount` glyphs.
  init(
    face: FontFace, metrics: FontMetrics, request: TextLayoutRequest, ellipsis: [ShapedGlyph],
    glyphCount: Int
  ) {
    self.face = face
    self.metrics = metrics
    self.request = request
    self.ellipsis = ellipsis
    ellipsisWidth = ellipsis.reduce(0) { $0 + Double($1.advance) }
    glyphs.reserveCapacity(glyphCount + ellipsis.count)
    elements.reserveCapacity((glyphCount + ellipsis.count) * Self.elementsPerGlyph)
  }

  /// A glyph in a line, in logical order, before it is placed.
  private struct LineGlyph {
    var shaped: ShapedGlyph
    var extra: Double
    var characterIndex: Int
  }

  /// Adds line `index`: `clusters` of `paragraph`, cut as `cut`.
  mutating func addLine(
    index: Int, paragraph: ShapedParagraph, clusters: Range<Int>, cut: TruncatedLine,
    isLastOfParagraph: Bool
  ) {
    let head = cut.hasEllipsis ? cut.head : paragraph.trimmingTrailingSpaces(cut.head)
    let extra = justification(paragraph, head: head, cut: cut, isLast: isLastOfParagraph)
    var logical: [LineGlyph] = []
    append(head, of: paragraph, extra: extra, to: &logical)
    if cut.hasEllipsis {
      let lineStart = paragraph.scalars(of: clusters, emptyAt: paragraph.scalars.lowerBound)
      let hidden = paragraph.scalars(of: cut.head, emptyAt: lineStart.lowerBound)
      for glyph in ellipsis {
        logical.append(LineGlyph(shaped: glyph, extra: 0, characterIndex: hidden.upperBound))
      }
    }
    append(cut.tail, of: paragraph, extra: 0, to: &logical)
    if paragraph.isRightToLeft { logical.reverse() }
    let width = logical.reduce(0) { $0 + Double($1.shaped.advance) + $1.extra } * metrics.scale
    let baseline = metrics.ascent + Double(index) * metrics.lineHeight
    let x = offset(width: width, isRightToLeft: paragraph.isRightToLeft, justified: extra > 0)
    let firstGlyph = glyphs.count
    place(logical, at: Point(x: x, y: baseline))
    lines.append(
      TextLine(
        origin: Point(x: x, y: baseline), width: width,
        box: Rect(
          x: x, y: baseline - metrics.ascent, width: width, height: metrics.lineHeight),
        characterRange: paragraph.scalars(
          of: clusters, emptyAt: paragraph.scalars.lowerBound),
        isTruncated: cut.hasEllipsis, glyphRange: firstGlyph..<glyphs.count))
  }

  private func append(
    _ range: Range<Int>, of paragraph: ShapedParagraph, extra: Double,
    to logical: inout [LineGlyph]
  ) {
    for cluster in paragraph.clusters[range] {
      let widen = cluster.isJustifiable ? extra : 0
      for (k, glyphIndex) in cluster.glyphs.enumerated() {
        let shaped = paragraph.glyphs[glyphIndex]
        logical.append(
          LineGlyph(shaped: shaped, extra: k == 0 ? widen : 0, characterIndex: shaped.cluster))
      }
    }
  }

  /// The font units added to each inner space of a justified line (0 when it is not justified:
  /// the last line of its paragraph, a cut line, a line without spaces or one wider than the
  /// bounds).
  private func justification(
    _ paragraph: ShapedParagraph, head: Range<Int>, cut: TruncatedLine, isLast: Bool
  ) -> Double {
    guard request.alignmentMode == .justified, !isLast, !cut.hasEllipsis, metrics.scale > 0
    else { return 0 }
    let spaces = paragraph.clusters[head].reduce(0) { $0 + ($1.isJustifiable ? 1 : 0) }
    let room = request.bounds.width / metrics.scale - paragraph.width(head)
    guard spaces > 0, room > 0 else { return 0 }
    return room / Double(spaces)
  }

  /// The line's x by the alignment mode.
  private func offset(width: Double, isRightToLeft: Bool, justified: Bool) -> Double {
    let free = request.bounds.width - width
    switch request.alignmentMode {
    case .left: return 0
    case .right: return free
    case .center: return free / 2
    case .natural: return isRightToLeft ? free : 0
    case .justified: return justified || !isRightToLeft ? 0 : free
    }
  }

  /// Places `visual` (left to right) from `origin` and appends the glyphs' outlines.
  private mutating func place(_ visual: [LineGlyph], at origin: Point) {
    let scale = metrics.scale
    var pen = origin.x
    for item in visual {
      let advance = (Double(item.shaped.advance) + item.extra) * scale
      let position = Point(
        x: pen + Double(item.shaped.xOffset) * scale,
        y: origin.y - Double(item.shaped.yOffset) * scale)
      glyphs.append(
        PositionedGlyph(
          glyph: item.shaped.glyph, position: position, advance: advance,
          characterIndex: item.characterIndex))
      appendOutline(of: item.shaped.glyph, at: position)
      pen += advance
    }
  }

  /// The glyph's outline scaled to points, flipped to y-down, at `position`.
  private mutating func appendOutline(of glyph: UInt32, at position: Point) {
    let scale = metrics.scale
    func place(_ p: Point) -> Point {
      Point(x: position.x + p.x * scale, y: position.y - p.y * scale)
    }
    for element in face.outline(of: glyph).elements {
      switch element {
      case .move(let p): elements.append(.move(to: place(p)))
      case .line(let p): elements.append(.line(to: place(p)))
      case .quadCurve(let p, let c): elements.append(.quadCurve(to: place(p), control: place(c)))
      case .curve(let p, let c1, let c2):
        elements.append(.curve(to: place(p), control1: place(c1), control2: place(c2)))
      case .closeSubpath: elements.append(.closeSubpath)
      }
    }
  }

  /// The finished layout.
  ///
  /// - Throws: ``/Segue/ValidationError`` if a placed point is not finite (it cannot be: sizes and
  ///   outlines are finite).
  func layout() throws(ValidationError) -> TextLayout {
    TextLayout(
      lines: lines, glyphs: glyphs, path: try BezierPath(elements: elements), metrics: metrics,
      fontFile: face.file)
  }
}
