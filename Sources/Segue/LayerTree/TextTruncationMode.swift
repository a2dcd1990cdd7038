/// Where a text layer cuts text that does not fit its bounds, marking the cut with an ellipsis
/// "…" (`CATextLayerTruncationMode`).
///
/// A line wider than the bounds keeps as much text as fits beside the ellipsis; with any mode
/// but ``none`` lines that would end below the bounds are dropped and the last line shown takes
/// the rest of its paragraph before it is cut (so "ends here…" tells that text follows).
public enum TextTruncationMode: String, Hashable, Sendable, CaseIterable {
  /// `none` (the default): lines are never cut; text may extend past the bounds.
  case none
  /// `start`: the start of the line is replaced: "…end of the line".
  case start
  /// `middle`: the middle is replaced: "start…end".
  case middle
  /// `end`: the end is replaced: "start of the line…".
  case end
}
