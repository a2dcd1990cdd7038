/// Where lines may break: a subset of the Unicode line breaking algorithm (UAX #14) that covers
/// text with spaces between words (Latin, Cyrillic, Greek, Hebrew, Arabic, …) and Chinese and
/// Japanese:
///
/// - after a run of breaking spaces (not before it; the spaces hang at the line's end);
/// - after a hyphen or dash that follows a letter (`well-|known`, not `-|5`);
/// - before and after a CJK ideograph or kana, except before closing punctuation and after
///   opening brackets.
///
/// No-break spaces (U+00A0, U+2007, U+202F) do not break. Not covered: dictionary breaking
/// (Thai, Lao, Khmer), hyphenation, numeric and quotation subtleties.
enum LineBreakRules {
  /// Spaces that allow a break after them and hang at the end of a line.
  static func isBreakingSpace(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x20, 0x09, 0x1680, 0x2000...0x2006, 0x2008...0x200B, 0x205F, 0x3000: true
    default: false
    }
  }

  /// Spaces a justified line widens (not the zero-width space).
  static func isJustifiableSpace(_ scalar: UInt32) -> Bool {
    isBreakingSpace(scalar) && scalar != 0x200B
  }

  /// Hyphen-minus, hyphen, en dash and em dash.
  static func isHyphen(_ scalar: UInt32) -> Bool {
    scalar == 0x2D || scalar == 0x2010 || scalar == 0x2013 || scalar == 0x2014
  }

  /// CJK ideographs, kana and Hangul syllables: a break is allowed on either side.
  static func isIdeographic(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF,
      0x20000...0x3FFFF:
      true
    default: false
    }
  }

  /// Punctuation no line may start with.
  static func forbidsBreakBefore(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x21, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D, 0x3001, 0x3002, 0x3009, 0x300B,
      0x300D, 0x300F, 0x3011, 0x30FC, 0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F:
      true
    default: false
    }
  }

  /// Opening brackets no line may end with.
  static func forbidsBreakAfter(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x28, 0x5B, 0x7B, 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0xFF08: true
    default: false
    }
  }

  /// Whether a line may break between `before` (the last scalar of a cluster, preceded by
  /// `previous`, the last scalar of the cluster before it, if any) and `after` (the first scalar
  /// of the next cluster).
  static func allowsBreak(previous: UInt32?, before: UInt32, after: UInt32) -> Bool {
    let spaceBefore = isBreakingSpace(before)
    if isBreakingSpace(after) { return false }
    if spaceBefore { return true }
    if forbidsBreakBefore(after) || forbidsBreakAfter(before) { return false }
    if isHyphen(before), let previous, !isBreakingSpace(previous), !isHyphen(previous) {
      return true
    }
    return isIdeographic(before) || isIdeographic(after)
  }

  /// Scalars that end a paragraph: line feed, vertical tab, form feed, carriage return, next
  /// line, line separator, paragraph separator.
  static func isParagraphSeparator(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }
}
