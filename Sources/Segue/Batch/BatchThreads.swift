import Dispatch
import Synchronization

/// Splitting a range of independent items over threads.
///
/// With more than one thread the chunks run on a persistent ``BatchContext`` (a worker set started
/// once and woken per call), so a call allocates nothing after the first one with the same thread
/// count. Which thread runs which chunk is decided at run time (workers claim chunks from a shared
/// counter), which is harmless because the chunks are independent.
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
  /// on up to `threads` threads at once; returns when every chunk is done. With `threads == 1`
  /// everything runs on the calling thread in order. Otherwise the chunks run on the process-wide
  /// ``BatchContext`` for `threads` (created at the first call with that count, then reused, so
  /// later calls allocate nothing). `body` must only touch data that belongs to its chunk (or read
  /// shared data).
  public static func forEachChunk(
    of range: Range<Int>, threads: Int, chunkSize: Int? = nil,
    _ body: @Sendable (Range<Int>) -> Void
  ) throws(ValidationError) {
    let size = try Self.chunkSize(for: range, threads: threads, chunkSize: chunkSize)
    let chunks = (range.count + size - 1) / size
    if threads == 1 || chunks <= 1 {
      let lowerBound = range.lowerBound
      for c in 0..<chunks {
        let lower = lowerBound + c * size
        body(lower..<min(lower + size, range.upperBound))
      }
      return
    }
    BatchContext.shared(threads: threads).run(range: range, chunkSize: size, body)
  }

  /// The old path, kept for callers that run while the context is busy (a nested or concurrent
  /// call): `min(threads, chunks)` workers of `DispatchQueue.concurrentPerform`, worker `w` taking
  /// chunks `w, w + workers, …`. Allocates inside Dispatch.
  static func concurrentPerform(
    range: Range<Int>, threads: Int, chunkSize size: Int, _ body: @Sendable (Range<Int>) -> Void
  ) {
    let chunks = (range.count + size - 1) / size
    let lowerBound = range.lowerBound
    let upperBound = range.upperBound
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

/// A caller-owned set of `threads − 1` persistent worker threads (plus the calling thread) for
/// running independent chunks of a batch frame after frame without allocating.
///
/// The workers are started once, in ``init(threads:)``, each on its own serial Dispatch queue
/// (an overcommitting queue, so a worker parked on its semaphore never starves Dispatch's shared
/// pool), and sleep on a semaphore between calls. ``forEachChunk(of:chunkSize:_:)`` publishes
/// the call's closure (without copying it to the heap: `withoutActuallyEscaping`), wakes the
/// workers it needs, runs chunks on the calling thread too, and waits for the workers to finish.
/// Chunks are claimed from a shared atomic counter, so a thread slowed by other load simply takes
/// fewer chunks; results do not depend on who runs what as long as the chunks are independent.
///
/// One call runs at a time. A call made while another is running on the same context (from
/// another thread, or from inside a chunk) does not wait: it runs through
/// `DispatchQueue.concurrentPerform` instead, which is correct but allocates. The workers stop
/// when the context is released.
public final class BatchContext: Sendable {
  /// The number of threads a call uses, the calling thread included (`≥ 1`).
  public let threads: Int
  let state: BatchWorkerState

  /// Starts `threads − 1` workers.
  ///
  /// - Throws: ``ValidationError`` `"threads"` ``ValidationError/Reason/notPositive`` when
  ///   `threads < 1`, ``ValidationError/Reason/outOfRange(lower:upper:)`` when `threads > 1024`.
  public init(threads: Int) throws(ValidationError) {
    guard threads >= 1 else { throw ValidationError(field: "threads", reason: .notPositive) }
    guard threads <= 1024 else {
      throw ValidationError(field: "threads", reason: .outOfRange(lower: 1, upper: 1024))
    }
    self.threads = threads
    self.state = BatchWorkerState(helpers: threads - 1)
  }

  deinit { state.stop() }

  /// Calls `body` once per chunk of `range` (chunks as ``BatchThreads/chunkSize(for:threads:chunkSize:alignment:)``
  /// cuts them for ``threads``) on up to ``threads`` threads; returns when every chunk is done.
  /// Allocates nothing (unless the context is already busy, see the type's description). `body`
  /// must only touch data that belongs to its chunk (or read shared data).
  ///
  /// - Throws: ``ValidationError`` `"chunkSize"` ``ValidationError/Reason/notPositive`` when
  ///   `chunkSize < 1`.
  public func forEachChunk(
    of range: Range<Int>, chunkSize: Int? = nil, _ body: @Sendable (Range<Int>) -> Void
  ) throws(ValidationError) {
    let size = try BatchThreads.chunkSize(for: range, threads: threads, chunkSize: chunkSize)
    run(range: range, chunkSize: size, body)
  }

  /// ``forEachChunk(of:chunkSize:_:)`` with a validated chunk size.
  func run(range: Range<Int>, chunkSize size: Int, _ body: @Sendable (Range<Int>) -> Void) {
    // The caller's non-escaping closure (its context on the caller's stack) is handed to the
    // workers by address; they use it only between this call's wake-up and completion signals.
    // (When the optimiser specialises a caller's closure into this function it may box one small
    // context per call; kernels that pass themselves to `run(range:chunkSize:invoke:context:)` avoid closures.)
    withoutActuallyEscaping(body) { body in
      withUnsafePointer(to: body) { pointer in
        run(
          range: range, chunkSize: size,
          invoke: { context, lower, upper in
            context.assumingMemoryBound(to: (@Sendable (Range<Int>) -> Void).self)
              .pointee(lower..<upper)
          }, context: UnsafeRawPointer(pointer))
      }
    }
  }

  /// Runs `invoke(context, lower, upper)` once per chunk `lower..<upper` of `range` (chunks of
  /// `size ≥ 1` items) on up to ``threads`` threads. No closure, so nothing to box: allocates
  /// nothing. `context` must stay valid until the call returns; `invoke` must only touch data
  /// that belongs to its chunk (or read shared data). This is the entry point for a kernel's own
  /// job type that passes itself by address (see `StackEvaluationJob` in `SegueBenchSupport`).
  public func run(
    range: Range<Int>, chunkSize size: Int, invoke: BatchChunkFunction,
    context: UnsafeRawPointer
  ) {
    let chunks = (range.count + size - 1) / size
    let lowerBound = range.lowerBound
    let upperBound = range.upperBound
    if threads == 1 || chunks <= 1 {
      for c in 0..<chunks {
        let lower = lowerBound + c * size
        invoke(context, lower, min(lower + size, upperBound))
      }
      return
    }
    guard state.tryAcquire() else {
      let box = UncheckedChunkCall(invoke: invoke, context: context)
      BatchThreads.concurrentPerform(range: range, threads: threads, chunkSize: size) { chunk in
        box.invoke(box.context, chunk.lowerBound, chunk.upperBound)
      }
      return
    }
    defer { state.release() }
    state.runFrame(
      helpers: min(threads, chunks) - 1, invoke: invoke, context: context,
      lowerBound: lowerBound, upperBound: upperBound, size: size, chunks: chunks)
  }

  /// The process-wide context for `threads` threads (`≥ 1`, capped at 1024), created at its first
  /// use and kept for the life of the process.
  public static func shared(threads: Int) -> BatchContext {
    sharedContexts.withLock { contexts in
      if let context = contexts[threads] { return context }
      // `threads` was validated by the caller (`chunkSize(for:threads:)`); cap absurd counts.
      let context = try! BatchContext(threads: min(threads, 1024))
      contexts[threads] = context
      return context
    }
  }
}

/// A chunk of work without a closure: `invoke(context, lower, upper)` runs items
/// `lower..<upper`.
public typealias BatchChunkFunction = @convention(c) (UnsafeRawPointer, Int, Int) -> Void

/// A chunk function and its context, handed to Dispatch's workers on the fallback path.
struct UncheckedChunkCall: @unchecked Sendable {
  let invoke: BatchChunkFunction
  let context: UnsafeRawPointer
}

/// The shared contexts of ``BatchThreads/forEachChunk(of:threads:chunkSize:_:)``, by thread count.
private let sharedContexts = Mutex<[Int: BatchContext]>([:])

/// The workers' side of a ``BatchContext``: wake-up and completion semaphores, the current
/// frame's closure, the chunk counter and the busy flag.
final class BatchWorkerState: @unchecked Sendable {
  let helpers: Int
  let wake: [DispatchSemaphore]
  let done = DispatchSemaphore(value: 0)
  /// The next chunk to claim in the current frame.
  let next = Atomic<Int>(0)
  /// Set while a frame runs (a try-lock).
  let busy = Atomic<Bool>(false)
  /// The current frame: its chunk function, context and chunking; written by the caller before
  /// the wake-up signals and read by the workers after their wait (the semaphores order the
  /// accesses).
  var invoke: BatchChunkFunction?
  var context: UnsafeRawPointer?
  var lowerBound = 0
  var upperBound = 0
  var size = 1
  var chunks = 0
  /// Set (before the wake-up signals) when the context is released.
  var stopping = false

  init(helpers: Int) {
    self.helpers = helpers
    self.wake = (0..<helpers).map { _ in DispatchSemaphore(value: 0) }
    for w in 0..<helpers {
      let queue = DispatchQueue(label: "segue.batch.worker.\(w)")
      queue.async { [self] in workerLoop(w) }
    }
  }

  func tryAcquire() -> Bool {
    busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
  }

  func release() { busy.store(false, ordering: .releasing) }

  /// Publishes the frame, wakes `count` workers, claims chunks here too, waits for the workers.
  func runFrame(
    helpers count: Int, invoke: BatchChunkFunction, context: UnsafeRawPointer, lowerBound: Int,
    upperBound: Int, size: Int, chunks: Int
  ) {
    self.invoke = invoke
    self.context = context
    self.lowerBound = lowerBound
    self.upperBound = upperBound
    self.size = size
    self.chunks = chunks
    next.store(0, ordering: .relaxed)
    for w in 0..<count { wake[w].signal() }
    drain()
    for _ in 0..<count { done.wait() }
    self.invoke = nil
    self.context = nil
  }

  /// Claims and runs chunks of the current frame until none is left.
  func drain() {
    guard let invoke, let context else { return }
    while true {
      let c = next.wrappingAdd(1, ordering: .relaxed).oldValue
      if c >= chunks { return }
      let lower = lowerBound + c * size
      invoke(context, lower, min(lower + size, upperBound))
    }
  }

  func workerLoop(_ w: Int) {
    while true {
      wake[w].wait()
      if stopping { return }
      drain()
      done.signal()
    }
  }

  func stop() {
    stopping = true
    for semaphore in wake { semaphore.signal() }
  }
}
