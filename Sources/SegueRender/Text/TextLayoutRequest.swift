import Segue

/// What a text layer lays out: `CATextLayer`'s text properties and its bounds' size. The key of a
/// ``TextLayoutCache``: a layer whose request did not change keeps its layout.
///
/// `string` is plain text (attributed strings are not supported). Line feeds, carriage returns
/// and the Unicode line and paragraph separators end a line; a separator at the very end does not
/// start an empty line.
public struct TextLayoutRequest: Hashable, Sendable {
  /// `string`.
  public var string: String
  /// `font` (default Helvetica, drawn with the default font).
  public var font: FontDescriptor
  /// `fontSize` in points (default 36, as CATextLayer's), `0…maximumFontSize`.
  public var fontSize: Double
  /// The layer's `bounds.size`; the width is where lines wrap and how they align, the height
  /// where lines stop when truncating. Both finite and `≥ 0`.
  public var bounds: Size
  /// `alignmentMode` (default natural).
  public var alignmentMode: TextAlignmentMode
  /// `isWrapped` (default `false`): break lines at word boundaries to fit the bounds' width, a
  /// word wider than the bounds between characters.
  public var isWrapped: Bool
  /// `truncationMode` (default none).
  public var truncationMode: TextTruncationMode

  /// The largest `fontSize`, in points (so that every placed point stays finite).
  public static let maximumFontSize = 1e6

  /// The longest string laid out, in Unicode scalars.
  public static let maximumScalarCount = 1 << 20

  /// A request with CATextLayer's defaults for what is not given.
  public init(
    string: String, font: FontDescriptor = .helvetica, fontSize: Double = 36, bounds: Size,
    alignmentMode: TextAlignmentMode = .natural, isWrapped: Bool = false,
    truncationMode: TextTruncationMode = .none
  ) {
    self.string = string
    self.font = font
    self.fontSize = fontSize
    self.bounds = bounds
    self.alignmentMode = alignmentMode
    self.isWrapped = isWrapped
    self.truncationMode = truncationMode
  }

  /// Checks the request's values. Rejected: `fontSize` not finite, negative or above
  /// ``maximumFontSize``; `bounds.size.width` or `bounds.size.height` not finite or negative;
  /// `string` longer than ``maximumScalarCount`` scalars. (A font that cannot be found or
  /// loaded is the font library's ``FontError``.)
  ///
  /// - Throws: ``/Segue/ValidationError`` naming the property.
  public func validate() throws(ValidationError) {
    try Self.nonNegative(fontSize, "fontSize")
    guard fontSize <= Self.maximumFontSize else {
      throw ValidationError(
        field: "fontSize", reason: .outOfRange(lower: 0, upper: Self.maximumFontSize))
    }
    try Self.nonNegative(bounds.width, "bounds.size.width")
    try Self.nonNegative(bounds.height, "bounds.size.height")
    let count = string.unicodeScalars.count
    guard count <= Self.maximumScalarCount else {
      throw ValidationError(
        field: "string",
        reason: .invalidState(
          "has \(count) characters, more than \(Self.maximumScalarCount) (Unicode scalars)"))
    }
  }

  private static func nonNegative(_ value: Double, _ field: String) throws(ValidationError) {
    guard value.isFinite else { throw ValidationError(field: field, reason: .notFinite) }
    guard value >= 0 else { throw ValidationError(field: field, reason: .negative) }
  }
}
