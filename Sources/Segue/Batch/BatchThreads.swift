import Dispatch

/// Splitting a range of independent items over threads with `DispatchQueue.concurrentPerform`.
public enum BatchThreads {
  /// The chunks `forEachChunk` uses: `range` cut into consecutive pieces of `chunkSize` items (the
  /// last one shorter), or, when `chunkSize` is `nil`, into about `4·threads` pieces rounded up to
  /// a multiple of `alignment` items so that each piece starts on an aligned item.
  ///
  /// - Throws: ``ValidationError``: `"threads"` ``ValidationError/Reason/notPositive`` when
  ///   `threads < 1`; `"chunkSize"` ``ValidationError/Reason/notPositive`` when `chunkSize < 1`;
  ///   `"alignment"` ``ValidationError/Reason/notPositive`` when `alignment < 1`.
  public static func chunkSize(
    for range: Range<Int>, threads: Int, chunkSize: Int? = nil, alignment: Int = 16
  ) throws(ValidationError) -> Int {
    guard threads >= 1 else { throw ValidationError(field: "threads", reason: .notPositive) }
    guard alignment >= 1 else { throw ValidationError(field: "alignment", reason: .notPositive) }
    if let chunkSize {
      guard chunkSize >= 1 else { throw ValidationError(field: "chunkSize", reason: .notPositive) }
      return chunkSize
    }
    if threads == 1 { return max(range.count, 1) }
    let pieces = 4 * threads
    let raw = (range.count + pieces - 1) / pieces
    return max((raw + alignment - 1) / alignment * alignment, alignment)
  }

  /// Calls `body` once per chunk of `range` (see ``chunkSize(for:threads:chunkSize:alignment:)``),
  /// on up to `threads` threads at once (`min(threads, chunks)` workers of
  /// `DispatchQueue.concurrentPerform`, worker `w` running chunks `w, w + threads, …`); returns when every chunk is done. With `threads == 1`
  /// everything runs on the calling thread in order. `body` must only touch data that belongs to
  /// its chunk (or read shared data).
  public static func forEachChunk(
    of range: Range<Int>, threads: Int, chunkSize: Int? = nil,
    _ body: @Sendable (Range<Int>) -> Void
  ) throws(ValidationError) {
    let size = try Self.chunkSize(for: range, threads: threads, chunkSize: chunkSize)
    let chunks = (range.count + size - 1) / size
    let lowerBound = range.lowerBound
    let upperBound = range.upperBound
    if threads == 1 || chunks <= 1 {
      for c in 0..<chunks {
        let lower = lowerBound + c * size
        body(lower..<min(lower + size, upperBound))
      }
    } else {
      // `threads` workers, worker `w` taking chunks `w, w + threads, …`: at most `threads` chunks
      // run at once whatever the width of Dispatch's pool.
      let workers = min(threads, chunks)
      DispatchQueue.concurrentPerform(iterations: workers) { w in
        var c = w
        while c < chunks {
          let lower = lowerBound + c * size
          body(lower..<min(lower + size, upperBound))
          c += workers
        }
      }
    }
  }
}

extension StackEvaluationJob {
  /// Validates, then runs the job split into chunks over `threads` threads
  /// (``BatchThreads/forEachChunk(of:threads:chunkSize:_:)``). The output is bitwise the same for
  /// every `threads` and `chunkSize`: each layer is computed independently of the others.
  ///
  /// - Throws: what ``validate()`` throws, and `"threads"` / `"chunkSize"`
  ///   ``ValidationError/Reason/notPositive``.
  public func run(threads: Int, chunkSize: Int? = nil) throws(ValidationError) {
    try validate()
    try BatchThreads.forEachChunk(of: range, threads: threads, chunkSize: chunkSize) { chunk in
      var part = self
      part.range = chunk
      part.runUnchecked()
    }
  }
}
