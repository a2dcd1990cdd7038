import SegueToolSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A progress line on stderr, drawn only when stderr is a terminal and `--quiet` is not given:
/// `[##########..........]  12/55 frames  8.3 frames/s  ETA 5 s`, redrawn in place (carriage
/// return and erase-to-end-of-line) at most ten times a second, and erased when the work ends.
/// Writes to stderr that fail are ignored.
struct Progress {
  /// The number of steps.
  let total: Int
  /// What a step is, plural (`frames`).
  let unit: String
  /// Steps done.
  private(set) var done = 0
  /// Whether the line is drawn.
  let isEnabled: Bool
  /// When the work started and when the line was last drawn (monotonic seconds).
  private let start: Double
  private var lastDrawn = -Double.infinity

  /// A progress line for `total` steps, drawn when stderr is a terminal and not `quiet`.
  init(total: Int, unit: String, quiet: Bool) {
    self.total = total
    self.unit = unit
    self.isEnabled = !quiet && isatty(STDERR_FILENO) == 1
    self.start = monotonicSeconds()
  }

  /// One more step done.
  mutating func advance() {
    done += 1
    guard isEnabled else { return }
    let now = monotonicSeconds()
    guard now - lastDrawn >= 0.1 || done == total else { return }
    lastDrawn = now
    Interruption.progressLineOpen.store(true, ordering: .relaxed)
    Self.draw(
      "\r" + Self.line(done: done, total: total, unit: unit, elapsed: now - start) + "\u{1B}[K")
  }

  /// Erases the line (before the summary or an error message).
  func finish() {
    guard isEnabled else { return }
    Self.endLine()
  }

  /// Erases an open progress line, if any.
  static func endLine() {
    guard Interruption.progressLineOpen.exchange(false, ordering: .relaxed) else { return }
    draw("\r\u{1B}[K")
  }

  /// The text of the line after `done` of `total` steps in `elapsed` seconds: a 20-character
  /// bar, the count, the rate (steps per second, from the steps so far) and the estimated time
  /// left (`ETA`, the steps left at that rate; omitted until a step is done).
  static func line(done: Int, total: Int, unit: String, elapsed: Double) -> String {
    let width = 20
    let filled = total > 0 ? min(done, total) * width / total : width
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    var text = "[\(bar)] \(done)/\(total) \(unit)"
    if done > 0, elapsed > 0 {
      let rate = Double(done) / elapsed
      text += "  \(fixed(rate, rate < 10 ? 1 : 0)) \(unit)/s"
      let left = Double(total - done) / rate
      if left.isFinite { text += "  ETA \(duration(left))" }
    }
    return text
  }

  /// `s` seconds as `12 s`, `3 min 05 s` or `2 h 07 min`.
  static func duration(_ s: Double) -> String {
    let seconds = Int(min(s, 1e9).rounded(.up))
    if seconds < 60 { return "\(seconds) s" }
    if seconds < 3600 {
      let r = seconds % 60
      return "\(seconds / 60) min \(r < 10 ? "0" : "")\(r) s"
    }
    let m = seconds / 60 % 60
    return "\(seconds / 3600) h \(m < 10 ? "0" : "")\(m) min"
  }

  private static func draw(_ text: String) {
    try? OutputWriter.writeAll(
      STDERR_FILENO, Array(text.utf8), argument: "standard error", name: "")
  }
}
