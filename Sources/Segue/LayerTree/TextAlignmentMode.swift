/// How a text layer places each line across its bounds' width (`CATextLayerAlignmentMode`).
///
/// The offset of a line of width `w` in bounds of width `W`: `0` (left), `W − w` (right),
/// `(W − w)/2` (center). A line's width leaves out its trailing white space, which hangs past the
/// edge as in Core Text. The offset may be negative when a line is wider than the bounds.
public enum TextAlignmentMode: String, Hashable, Sendable, CaseIterable {
  /// `natural` (the default): left for left-to-right paragraphs, right for right-to-left ones.
  case natural
  /// `left`.
  case left
  /// `right`.
  case right
  /// `center`.
  case center
  /// `justified`: every line of a paragraph but its last is stretched to the bounds' width by
  /// widening its inner spaces equally; a last line, or a line without inner spaces, is
  /// aligned as ``natural``.
  case justified
}
