// The size arithmetic of the command-line tools' budgets: `segue` checks the samples, pixels and
// page bytes of a request, `segue-bench` the memory its options allocate, before anything runs.
// Sizes are computed with overflow checks; a size that overflows `Int` is over every budget.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `terms` multiplied with overflow checks; `nil` on overflow.
package func checkedProduct(_ terms: Int...) -> Int? {
  var result = 1
  for t in terms {
    let (p, o) = result.multipliedReportingOverflow(by: t)
    if o { return nil }
    result = p
  }
  return result
}

/// `terms` added with overflow checks; `nil` if any term is `nil` or the sum overflows.
package func checkedSum(_ terms: Int?...) -> Int? {
  var result = 0
  for t in terms {
    guard let t else { return nil }
    let (s, o) = result.addingReportingOverflow(t)
    if o { return nil }
    result = s
  }
  return result
}

/// Whether `size` (`nil`: beyond `Int`) is at most `limit`.
package func fits(_ size: Int?, within limit: Int) -> Bool {
  guard let size else { return false }
  return size <= limit
}

/// The memory a tool's run may allocate: three quarters of the physical memory
/// (`sysconf(_SC_PHYS_PAGES)` pages of `_SC_PAGESIZE` bytes), or 4 GiB when the system does not
/// say.
package var physicalMemoryBudget: Int {
  let pages = sysconf(Int32(_SC_PHYS_PAGES))
  let size = sysconf(Int32(_SC_PAGESIZE))
  guard pages > 0, size > 0 else { return 4 << 30 }
  let (total, overflow) = pages.multipliedReportingOverflow(by: size)
  return overflow ? Int.max / 4 * 3 : total / 4 * 3
}

/// Bytes as text with a binary unit and one decimal: "16.0 TB", "512.0 MB", "100 bytes"; `nil`
/// (a size beyond `Int`) is "more than 9.2 EB".
package func byteText(_ bytes: Int?) -> String {
  guard let bytes else { return "more than 9.2 EB" }
  let units = ["bytes", "KB", "MB", "GB", "TB", "PB", "EB"]
  var value = Double(bytes)
  var unit = 0
  while value >= 1024 && unit < units.count - 1 {
    value /= 1024
    unit += 1
  }
  guard unit > 0 else { return "\(bytes) bytes" }
  // swift-format-ignore: NeverForceUnwrap
  let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
    _ = withVaList([value]) { vsnprintf(buffer.baseAddress!, 64, "%.1f", $0) }
    return String(cString: buffer.baseAddress!)
  }
  return text + " " + units[unit]
}
