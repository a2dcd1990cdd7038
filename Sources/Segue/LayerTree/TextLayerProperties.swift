/// What a `CATextLayer` adds to a layer: its text and how it is set, with Core Animation's
/// defaults. The layer's `contentsScale` is the layer's own (``Layer/contentsScale``).
///
/// The text is laid out in the layer's bounds, first line at the top; renderers draw it as
/// glyph outlines filled with ``foregroundColor`` (the text layout of `SegueRender`).
public struct TextLayerProperties: Hashable, Sendable {
  /// `string`: the text (plain, not attributed); default empty (Core Animation's `nil`), which
  /// draws nothing.
  public var string: String
  /// `font`: the typeface; default ``FontDescriptor/helvetica`` (Core Animation's Helvetica),
  /// drawn with the renderer's default font.
  public var font: FontDescriptor
  /// `fontSize`, points; default 36. Animatable. Any finite value is stored; it is presented at
  /// `max(0, fontSize)`.
  public var fontSize: Double
  /// `foregroundColor`, straight RGBA; default opaque white. Animatable.
  public var foregroundColor: RGBAColor
  /// `alignmentMode`; default ``TextAlignmentMode/natural``.
  public var alignmentMode: TextAlignmentMode
  /// `isWrapped`: whether lines wrap at the bounds' width; default `false`.
  public var isWrapped: Bool
  /// `truncationMode`; default ``TextTruncationMode/none``.
  public var truncationMode: TextTruncationMode

  /// `CATextLayer`'s default `fontSize`, 36 points.
  public static let defaultFontSize = 36.0

  /// Text layer properties; what is not given has `CATextLayer`'s default.
  public init(
    string: String = "", font: FontDescriptor = .helvetica, fontSize: Double = defaultFontSize,
    foregroundColor: RGBAColor = .white, alignmentMode: TextAlignmentMode = .natural,
    isWrapped: Bool = false, truncationMode: TextTruncationMode = .none
  ) {
    self.string = string
    self.font = font
    self.fontSize = fontSize
    self.foregroundColor = foregroundColor
    self.alignmentMode = alignmentMode
    self.isWrapped = isWrapped
    self.truncationMode = truncationMode
  }

  /// Throws the first unusable value: `fontSize` (``ValidationError/Reason/notFinite``); `font`
  /// (``ValidationError/Reason/invalidState(_:)``) for a file path or name that is empty or
  /// holds a NUL character, or ``ValidationError/Reason/negative`` for a negative face index.
  ///
  /// Whether a named font is installed and a font file usable is decided by the renderer.
  public func validate() throws(ValidationError) {
    try Validate.finite(fontSize, "fontSize")
    try font.validate(field: "font")
  }

  /// The presented form: `fontSize` at least 0.
  var presented: TextLayerProperties {
    var p = self
    p.fontSize = Swift.max(fontSize, 0)
    return p
  }
}

extension FontDescriptor {
  /// Throws ``ValidationError/Reason/invalidState(_:)`` naming `field` for an empty name, family
  /// or path, or one holding a NUL character; ``ValidationError/Reason/negative`` for a negative
  /// face index.
  public func validate(field: String) throws(ValidationError) {
    let text: String
    switch self {
    case .name(let name): text = name
    case .family(let family, _, _): text = family
    case .file(let path, let faceIndex):
      guard faceIndex >= 0 else { throw ValidationError(field: field, reason: .negative) }
      text = path
    }
    guard !text.isEmpty else {
      throw ValidationError(field: field, reason: .invalidState("is empty"))
    }
    guard !text.unicodeScalars.contains("\0") else {
      throw ValidationError(field: field, reason: .invalidState("holds a NUL character"))
    }
  }
}
