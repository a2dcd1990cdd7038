/// The nine-part layout of a resizable snapshot view with cap insets
/// (`resizableSnapshotView(from:afterScreenUpdates:withCapInsets:)`), the layer-tree form of
/// `contentsCenter` stretching: the caps keep their size and the middle stretches.
///
/// The snapshot root (size `W × H`, bounds origin `o`) holds up to nine clipping parts, one per
/// column `c ∈ {left, centre, right}` and row `r ∈ {top, middle, bottom}` of non-zero source
/// extent; each part holds a copy of the captured view scaled by `s = (sx, sy)`, with
/// `sx = 1` for a cap column and `sx = (W − L − R) / (w₀ − L − R)` for the centre (`w₀` the
/// source rectangle's width, `L`, `R` the insets; rows alike). A part spans `[o.x + a, o.x + b]`
/// of the root, with `[a, b]` = `[0, L]`, `[L, W − R]` or `[W − R, W]`, and shows the source's
/// `[u, u + (b − a) / sx]` from `u` = `rect.minX`, `rect.minX + L` or `rect.maxX − R`; the copy's
/// position is `s · (A − u)` (`A` the copy's anchor in its bounds), so a part point `p` shows
/// the source point `u + p / s`.
///
/// Every part position, part size, scale and copy position is affine in the root's bounds
/// (`W`, `H`, `o`), and scale-only transforms interpolate their scale factors linearly, so
/// animating each of them with the root's curve gives, at every time, exactly the layout of the
/// root's size at that time: the stretched image.
struct NinePartSnapshot: Hashable, Sendable {
  /// One band of a column or row: its cap or the stretched centre.
  enum Band: CaseIterable, Sendable {
    case leading
    case centre
    case trailing
  }

  /// The source rectangle, standardised, in the captured view's bounds space.
  var source: Rect
  /// The cap insets, finite, `≥ 0`, leaving a centre of positive width and height.
  var capInsets: EdgeInsets
  /// The id of the captured view (each part's copy is `"part/view"`).
  var viewID: String
  /// The copy's anchor (``Layer/anchor``, x and y) in its bounds space.
  var copyAnchor: Point

  /// Checks `insets` against `rect`'s size.
  ///
  /// - Throws: ``ValidationError`` on `"capInsets"`: ``ValidationError/Reason/notFinite`` or
  ///   ``ValidationError/Reason/negative`` with the index (top, left, bottom, right);
  ///   ``ValidationError/Reason/invalidState(_:)`` when left + right or top + bottom leave no
  ///   stretchable centre.
  static func validate(_ insets: EdgeInsets, in rect: Rect) throws(ValidationError) {
    for (index, value) in [insets.top, insets.left, insets.bottom, insets.right].enumerated() {
      guard value.isFinite else {
        throw ValidationError(field: "capInsets", index: index, reason: .notFinite)
      }
      guard value >= 0 else {
        throw ValidationError(field: "capInsets", index: index, reason: .negative)
      }
    }
    guard insets.left + insets.right < rect.width, insets.top + insets.bottom < rect.height else {
      throw ValidationError(
        field: "capInsets",
        reason: .invalidState(
          "\(insets) leaves no centre to stretch in a \(rect.width) × \(rect.height) rect"))
    }
  }

  /// The bands of non-zero source extent along one axis.
  static func bands(leading: Double, trailing: Double) -> [Band] {
    Band.allCases.filter { $0 == .centre || ($0 == .leading ? leading : trailing) > 0 }
  }

  /// The parts present: their id suffix and bands.
  var parts: [(name: String, column: Band, row: Band)] {
    let columns = Self.bands(leading: capInsets.left, trailing: capInsets.right)
    let rows = Self.bands(leading: capInsets.top, trailing: capInsets.bottom)
    return rows.flatMap { row in columns.map { (Self.name(column: $0, row: row), $0, row) } }
  }

  /// `"topLeft"`, `"top"`, …, `"center"`, …, `"bottomRight"`.
  static func name(column: Band, row: Band) -> String {
    let vertical = ["top", "", "bottom"][Band.allCases.firstIndex(of: row) ?? 1]
    let horizontal = ["Left", "", "Right"][Band.allCases.firstIndex(of: column) ?? 1]
    switch (vertical.isEmpty, horizontal.isEmpty) {
    case (true, true): return "center"
    case (true, false): return horizontal.lowercased()
    default: return vertical + horizontal
    }
  }

  /// One axis of one part: where it spans in the root (`start`, `length`), its scale, and the
  /// source coordinate its start shows.
  struct Span: Equatable {
    var start: Double
    var length: Double
    var scale: Double
    var sourceStart: Double
  }

  /// The span of `band` for a root extent `[origin, origin + size]` and a source extent
  /// `[sourceMin, sourceMin + sourceSize]` with caps `leading`, `trailing`.
  static func span(
    _ band: Band, origin: Double, size: Double, sourceMin: Double, sourceSize: Double,
    leading: Double, trailing: Double
  ) -> Span {
    switch band {
    case .leading:
      return Span(start: origin, length: leading, scale: 1, sourceStart: sourceMin)
    case .trailing:
      return Span(
        start: origin + size - trailing, length: trailing, scale: 1,
        sourceStart: sourceMin + sourceSize - trailing)
    case .centre:
      let length = size - leading - trailing
      return Span(
        start: origin + leading, length: length,
        scale: length / (sourceSize - leading - trailing), sourceStart: sourceMin + leading)
    }
  }

  /// The values of every part and copy for a root of bounds `bounds`: the part's
  /// `bounds.size` and `position`, the copy's `position` and `transform`.
  ///
  /// - Throws: ``ValidationError`` on `field` (``ValidationError/Reason/invalidState(_:)``) when
  ///   the bounds are not wider than left + right or not taller than top + bottom.
  func layout(for bounds: Rect, snapshotID: String, field: String) throws(ValidationError)
    -> [(id: String, property: LayerProperty, value: AnimationValue)]
  {
    let b = bounds.standardized
    guard b.width > capInsets.left + capInsets.right, b.height > capInsets.top + capInsets.bottom
    else {
      throw ValidationError(
        field: field,
        reason: .invalidState(
          "a \(b.width) × \(b.height) snapshot is not larger than its cap insets \(capInsets)"))
    }
    var values: [(id: String, property: LayerProperty, value: AnimationValue)] = []
    for part in parts {
      let x = Self.span(
        part.column, origin: b.minX, size: b.width, sourceMin: source.minX,
        sourceSize: source.width, leading: capInsets.left, trailing: capInsets.right)
      let y = Self.span(
        part.row, origin: b.minY, size: b.height, sourceMin: source.minY,
        sourceSize: source.height, leading: capInsets.top, trailing: capInsets.bottom)
      let partID = "\(snapshotID)/\(part.name)"
      values.append((partID, .boundsSize, .size(Size(width: x.length, height: y.length))))
      values.append(
        (partID, .position, .point(Point(x: x.start + x.length / 2, y: y.start + y.length / 2))))
      let copyID = "\(partID)/\(viewID)"
      values.append(
        (
          copyID, .position,
          .point(
            Point(
              x: x.scale * (copyAnchor.x - x.sourceStart),
              y: y.scale * (copyAnchor.y - y.sourceStart)))
        ))
      values.append(
        (copyID, .transform, .transform(.makeScale(x: x.scale, y: y.scale, z: 1))))
    }
    return values
  }
}

extension LayerTree {
  /// The nine-part layout of the resizable snapshot rooted at `id` for its current bounds, or
  /// `[]` when `id` is not such a root.
  ///
  /// - Throws: as ``NinePartSnapshot/layout(for:snapshotID:field:)``.
  func ninePartLayout(of id: String, field: String) throws(ValidationError)
    -> [(id: String, property: LayerProperty, value: AnimationValue)]
  {
    guard let snapshot = ninePartSnapshots[id], let root = self[id: id] else { return [] }
    return try snapshot.layout(for: root.bounds, snapshotID: id, field: field)
  }

  /// Sets the parts of the resizable snapshot rooted at `id` to its current bounds; no change
  /// for any other layer.
  ///
  /// - Throws: as ``ninePartLayout(of:field:)``; the tree is unchanged when it throws.
  mutating func layOutNineParts(of id: String, field: String) throws(ValidationError) {
    for change in try ninePartLayout(of: id, field: field) {
      guard let index = index(of: change.id) else { continue }
      try set(change.property, to: change.value, at: index)
    }
  }
}
