/// A rejected input: the field that was wrong, the index within it when it is a list, and why.
///
/// Every public entry point that takes user data validates it and throws this error (with typed
/// throws) instead of crashing or silently producing NaN. The `field` is the Core Animation or UIKit
/// name of the property (`"keyTimes"`, `"controlPoint1.x"`, `"mass"`), so a message reads like the
/// API the caller used.
public struct ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Why a value was rejected.
  public enum Reason: Hashable, Sendable {
    /// NaN or ±infinity.
    case notFinite
    /// The value must be strictly greater than zero.
    case notPositive
    /// The value must be greater than or equal to zero.
    case negative
    /// The value must lie in the closed interval `[lower, upper]`.
    case outOfRange(lower: Double, upper: Double)
    /// Two lists that must match in length do not: `expected` entries were needed, `actual` given.
    case countMismatch(expected: Int, actual: Int)
    /// A list needs at least `minimum` entries and has `actual`.
    case tooFew(minimum: Int, actual: Int)
    /// The entry is smaller than the one before it; the list must not decrease.
    case decreasing
    /// The value must be exactly `required` (for example the first key time must be 0).
    case mustEqual(Double)
    /// Two intervals overlap where they must not (UIView keyframes that set the same property).
    case overlapping
    /// The name occurs more than once where it must be unique.
    case duplicate(String)
    /// The name is not one this API knows.
    case unknown(String)
    /// Following parents leads back to the start.
    case cyclic
    /// The matrix has no inverse (the test of ``Transform3D/isSingular``).
    case singular
    /// An operation that is not allowed in the current state (the text says which).
    case invalidState(String)
  }

  /// The property name, as Core Animation or UIKit spells it.
  public var field: String
  /// The position within `field` when it is a list, else `nil`.
  public var index: Int?
  /// Why the value was rejected.
  public var reason: Reason

  /// Creates an error for `field` (at `index`, if a list) with `reason`.
  public init(field: String, index: Int? = nil, reason: Reason) {
    self.field = field
    self.index = index
    self.reason = reason
  }

  /// `field[index]: reason`, in words.
  public var description: String {
    let place = index.map { "\(field)[\($0)]" } ?? field
    let why: String
    switch reason {
    case .notFinite: why = "must be finite (got NaN or infinity)"
    case .notPositive: why = "must be greater than 0"
    case .negative: why = "must not be negative"
    case .outOfRange(let lower, let upper): why = "must be in [\(lower), \(upper)]"
    case .countMismatch(let expected, let actual):
      why = "must have \(expected) entries (got \(actual))"
    case .tooFew(let minimum, let actual):
      why = "needs at least \(minimum) entries (got \(actual))"
    case .decreasing: why = "must not be smaller than the entry before it"
    case .mustEqual(let required): why = "must be \(required)"
    case .overlapping: why = "overlaps another interval that sets the same property"
    case .duplicate(let name): why = "'\(name)' occurs more than once"
    case .unknown(let name): why = "'\(name)' is not known"
    case .cyclic: why = "forms a cycle"
    case .singular: why = "is singular (has no inverse)"
    case .invalidState(let text): why = text
    }
    return "\(place) \(why)"
  }
}

/// Small checks shared by every validator; each throws a ``ValidationError`` naming `field`.
@usableFromInline package enum Validate {
  /// Throws ``ValidationError/Reason/notFinite`` unless `value` is finite.
  @inlinable
  package static func finite(_ value: Double, _ field: String, index: Int? = nil)
    throws(ValidationError)
  {
    guard value.isFinite else {
      throw ValidationError(field: field, index: index, reason: .notFinite)
    }
  }

  /// Throws ``ValidationError/Reason/notFinite`` naming `field` with the index 0…3 (x, y,
  /// width, height) of the first component of `rect` that is not finite.
  @inlinable
  package static func finite(_ rect: Rect, _ field: String) throws(ValidationError) {
    try finite(rect.origin.x, field, index: 0)
    try finite(rect.origin.y, field, index: 1)
    try finite(rect.size.width, field, index: 2)
    try finite(rect.size.height, field, index: 3)
  }

  /// Throws unless `value` is finite and `> 0`.
  @inlinable
  package static func positive(_ value: Double, _ field: String, index: Int? = nil)
    throws(ValidationError)
  {
    try finite(value, field, index: index)
    guard value > 0 else { throw ValidationError(field: field, index: index, reason: .notPositive) }
  }

  /// Throws unless `value` is finite and `≥ 0`.
  @inlinable
  package static func nonNegative(_ value: Double, _ field: String, index: Int? = nil)
    throws(ValidationError)
  {
    try finite(value, field, index: index)
    guard value >= 0 else { throw ValidationError(field: field, index: index, reason: .negative) }
  }

  /// Throws unless `value` is finite and in `[lower, upper]`.
  @inlinable
  package static func inRange(
    _ value: Double, _ lower: Double, _ upper: Double, _ field: String, index: Int? = nil
  ) throws(ValidationError) {
    try finite(value, field, index: index)
    guard value >= lower && value <= upper else {
      throw ValidationError(
        field: field, index: index, reason: .outOfRange(lower: lower, upper: upper))
    }
  }

  // MARK: Batch jobs' buffers

  /// Throws ``ValidationError/Reason/countMismatch(expected:actual:)`` unless `count == expected`.
  @inlinable
  package static func count(_ count: Int, equals expected: Int, _ field: String)
    throws(ValidationError)
  {
    guard count == expected else {
      throw ValidationError(field: field, reason: .countMismatch(expected: expected, actual: count))
    }
  }

  /// Throws ``ValidationError/Reason/tooFew(minimum:actual:)`` unless `count ≥ minimum`.
  @inlinable
  package static func count(_ count: Int, atLeast minimum: Int, _ field: String)
    throws(ValidationError)
  {
    guard count >= minimum else {
      throw ValidationError(field: field, reason: .tooFew(minimum: minimum, actual: count))
    }
  }

  /// Throws ``ValidationError/Reason/notFinite`` with the index of the first entry of `values`
  /// that is NaN or infinite.
  @inlinable
  package static func allFinite<Values: Sequence>(_ values: Values, _ field: String)
    throws(ValidationError) where Values.Element: FloatingPoint
  {
    for (i, v) in values.enumerated() where !v.isFinite {
      throw ValidationError(field: field, index: i, reason: .notFinite)
    }
  }

  /// Throws ``ValidationError/Reason/outOfRange(lower:upper:)`` (`0…count`) unless `range` lies
  /// in `0 ..< count`.
  @inlinable
  package static func subrange(_ range: Range<Int>, of count: Int, _ field: String)
    throws(ValidationError)
  {
    guard range.lowerBound >= 0, range.upperBound <= count else {
      throw ValidationError(field: field, reason: .outOfRange(lower: 0, upper: Double(count)))
    }
  }

  /// Throws ``ValidationError/Reason/outOfRange(lower:upper:)`` (`count…Int.max`) unless the
  /// planar `stride ≥ count`.
  @inlinable
  package static func stride(_ stride: Int, atLeast count: Int, _ field: String)
    throws(ValidationError)
  {
    guard stride >= count else {
      throw ValidationError(
        field: field, reason: .outOfRange(lower: Double(count), upper: Double(Int.max)))
    }
  }

  /// Throws `"count"` ``ValidationError/Reason/negative`` unless `count ≥ 0`, then what
  /// ``stride(_:atLeast:_:)`` throws on `"stride"`.
  @inlinable
  package static func countAndStride(count: Int, stride: Int) throws(ValidationError) {
    guard count >= 0 else { throw ValidationError(field: "count", reason: .negative) }
    try Validate.stride(stride, atLeast: count, "stride")
  }

  /// Throws ``ValidationError/Reason/tooFew(minimum:actual:)`` unless a buffer of `bufferCount`
  /// values holds `planes` planes `stride` apart of `count` entries each
  /// (``planarCount(planes:stride:count:)``; `minimum` is `Int.max` when that overflows).
  @inlinable
  package static func planar(
    _ bufferCount: Int, planes: Int, stride: Int, count: Int, _ field: String
  ) throws(ValidationError) {
    let needed = planarCount(planes: planes, stride: stride, count: count) ?? Int.max
    try Validate.count(bufferCount, atLeast: needed, field)
  }

  /// The values a planar buffer of `planes` planes `stride` apart needs for entries `0 ..< count`
  /// of every plane: `(planes − 1)·stride + count` (0 when `count == 0`), `nil` on overflow.
  @inlinable
  package static func planarCount(planes: Int, stride: Int, count: Int) -> Int? {
    if count == 0 { return 0 }
    let (a, o1) = (planes - 1).multipliedReportingOverflow(by: stride)
    let (n, o2) = a.addingReportingOverflow(count)
    return o1 || o2 ? nil : n
  }

  /// Throws `field` ``ValidationError/Reason/tooFew(minimum:actual:)`` unless a buffer of
  /// `bufferCount` values holds a `rows × columns` matrix (`minimum` is `Int.max` when the product
  /// overflows).
  @inlinable
  package static func matrix(_ bufferCount: Int, rows: Int, columns: Int, _ field: String)
    throws(ValidationError)
  {
    let (needed, overflow) = rows.multipliedReportingOverflow(by: columns)
    try Validate.count(bufferCount, atLeast: overflow ? Int.max : needed, field)
  }
}
