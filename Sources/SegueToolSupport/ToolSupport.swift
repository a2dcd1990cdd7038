// What the command-line tools (`segue`, `segue-bench`) and their benchmark drivers share besides
// their budgets.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Seconds on the monotonic clock.
package func monotonicSeconds() -> Double {
  Double(monotonicNanoseconds()) * 1e-9
}

/// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`; never 0 on a running system): a plain
/// integer, so timing a short call costs the clock read and nothing more.
@inline(__always)
package func monotonicNanoseconds() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

extension Substring {
  /// Without leading and trailing spaces.
  package func trimmingSpaces() -> Substring {
    var s = self
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return s
  }
}
