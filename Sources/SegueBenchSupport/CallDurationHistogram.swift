/// Durations of individual calls, in bins of one nanosecond up to ``limitNanoseconds`` and one
/// bin for longer calls: fixed size, so recording allocates nothing.
public struct CallDurationHistogram: Sendable {
  /// The longest duration with a bin of its own, nanoseconds.
  public static let limitNanoseconds = 20_000
  var bins = [Int](repeating: 0, count: limitNanoseconds + 1)
  /// Durations recorded.
  public private(set) var count = 0

  public init() {}

  /// Records one duration, in nanoseconds (longer than ``limitNanoseconds``: the last bin).
  @inline(__always)
  public mutating func record(nanoseconds: UInt64) {
    bins[Int(min(nanoseconds, UInt64(Self.limitNanoseconds)))] += 1
    count += 1
  }

  /// The duration below which a fraction `q ∈ [0, 1]` of the recorded ones lie, in seconds
  /// (the upper edge of its bin; `nil` when nothing was recorded).
  public func quantile(_ q: Double) -> Double? {
    guard count > 0 else { return nil }
    let rank = min(Int((Double(count - 1) * q).rounded()), count - 1)
    var seen = 0
    for (nanoseconds, n) in bins.enumerated() {
      seen += n
      if seen > rank { return Double(nanoseconds + 1) * 1e-9 }
    }
    return Double(Self.limitNanoseconds + 1) * 1e-9
  }
}
