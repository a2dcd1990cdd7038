import SegueSIMDSupport
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splitting a range of independent items over threads.
///
/// With more than one thread the chunks run on a persistent ``BatchContext`` (a worker set started
/// once and woken per call), so a call allocates nothing after the first one with the same thread
/// count. Which thread runs which chunk is decided at run time (each thread claims the chunks of
/// its own share first, then what is left of the others'), which is harmless because the chunks
/// are independent.
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

  /// Runs the chunks of `range` in order on the calling thread: the path of a call made while
  /// its context is busy (a nested or concurrent call), which must neither wait for the running
  /// call nor allocate.
  static func runSerially(
    range: Range<Int>, chunkSize size: Int, invoke: BatchChunkFunction,
    context: UnsafeRawPointer
  ) {
    var lower = range.lowerBound
    while lower < range.upperBound {
      let upper = lower + Swift.min(size, range.upperBound - lower)
      invoke(context, lower, upper)
      lower = upper
    }
  }
}

/// A caller-owned set of `threads − 1` persistent worker threads (plus the calling thread) for
/// running independent chunks of a batch frame after frame without allocating.
///
/// The workers are POSIX threads started once, in ``init(threads:)`` (no Dispatch); on Linux
/// worker `w` pins itself to CPU `w + 1` of the process's affinity mask (modulo its size), so
/// that workers and the calling thread (usually on the first CPU) do not share a core. A call
/// publishes its chunk function and opens a frame; the workers that are awake see it within a
/// fraction of a microsecond (between frames they spin on the frame counter for about
/// ``BatchContext/idleSpinSeconds`` of running time before going to sleep on a condition
/// variable), join, and claim chunks together with the calling thread: each thread has a home
/// share of the chunks (the same consecutive chunks every frame, so its layers stay in its own
/// caches), runs it first and then takes what is left of the others'. When every chunk has been
/// claimed the caller closes the frame and waits only for the workers that are inside it: a
/// worker that was asleep and wakes late finds the frame closed and does nothing, so a frame
/// never waits for a wake-up. Chunks run on whoever claims them first, so a thread slowed by
/// other load takes fewer chunks; results do not depend on who runs what as long as the chunks
/// are independent.
///
/// One call runs at a time. A call made while another is running on the same context (from
/// another thread, or from inside a chunk) does not wait: it runs its chunks in order on its own
/// thread. The workers stop when the context is released.
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
  /// Allocates nothing (a call on a busy context runs its chunks in order on the calling thread,
  /// see the type's description). `body` must only touch data that belongs to its chunk (or read
  /// shared data).
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
    // workers by address; they use it only while the call's frame is open.
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
      BatchThreads.runSerially(range: range, chunkSize: size, invoke: invoke, context: context)
      return
    }
    defer { state.release() }
    state.runFrame(
      invoke: invoke, context: context, lowerBound: lowerBound, upperBound: upperBound,
      size: size, chunks: chunks)
  }

  /// How long an idle worker of this context spins on the frame counter (running time, seconds)
  /// before it sleeps; ``spinSeconds`` until ``setIdleSpinSeconds(_:)`` changes it.
  public var idleSpinSeconds: Double {
    Double(bitPattern: state.spinBits.load(ordering: .relaxed))
  }

  /// Sets ``idleSpinSeconds`` (workers asleep are woken to spin again with it). A program that
  /// runs frames back to back on a loaded machine (a benchmark) spins longer, so that a worker
  /// does not fall asleep while the calling thread is preempted and then miss frames while it
  /// wakes up; an app keeps the default, so that an idle context costs no CPU.
  ///
  /// - Throws: ``ValidationError`` `"idleSpinSeconds"`: ``ValidationError/Reason/notFinite`` for
  ///   NaN or infinity, ``ValidationError/Reason/outOfRange(lower:upper:)`` outside `[0, 1]`.
  public func setIdleSpinSeconds(_ seconds: Double) throws(ValidationError) {
    guard seconds.isFinite else {
      throw ValidationError(field: "idleSpinSeconds", reason: .notFinite)
    }
    guard seconds >= 0 && seconds <= 1 else {
      throw ValidationError(field: "idleSpinSeconds", reason: .outOfRange(lower: 0, upper: 1))
    }
    state.spinBits.store(seconds.bitPattern, ordering: .relaxed)
    state.wakeSleepers()
  }

  /// How long an idle worker spins on the frame counter before it sleeps (seconds), by default:
  /// 200 µs, more
  /// than the gap between back-to-back frames and far less than a display frame, so a burst of
  /// frames never pays for a wake-up and an idle context costs no CPU.
  public static let spinSeconds = 200e-6

  /// How long the calling thread spins for workers still inside a closed frame before it yields
  /// its CPU (seconds).
  static let yieldSeconds = 100e-6

  /// A gap between two of a spinning worker's clock checks longer than this (seconds) is taken
  /// as time the worker was not running; it does not count towards ``spinSeconds``.
  static let preemptedSeconds = 20e-6

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

/// The shared contexts of ``BatchThreads/forEachChunk(of:threads:chunkSize:_:)``, by thread count.
private let sharedContexts = Mutex<[Int: BatchContext]>([:])

/// The workers' side of a ``BatchContext``: the frame counter, the chunk cursors, the count of
/// workers inside the open frame, the busy flag, and the sleep/wake condition.
///
/// Protocol: `frame` is odd while a frame is open. The caller writes the frame's fields while it
/// is even (no worker inside: it waited for `inside == 0` when it closed the previous one), then
/// opens it (`frame + 1`, sequentially consistent), wakes sleepers, claims chunks, closes it
/// (`frame + 1`) and waits for `inside == 0`. A worker that sees an odd `frame` registers
/// (`inside + 1`), then checks that the same frame is still open before it touches the fields;
/// the sequentially consistent order of the caller's close and the worker's registration
/// guarantees that either the worker backs out or the caller waits for it.
final class BatchWorkerState: @unchecked Sendable {
  let helpers: Int
  /// Odd while a frame is open.
  let frame = Atomic<Int>(0)
  /// Workers inside the open frame.
  let inside = Atomic<Int>(0)
  /// Per participant (0: the calling thread, `w + 1`: worker `w`), the next chunk to claim of
  /// its home range (chunks `[i·chunks/n, (i+1)·chunks/n)` of `n = helpers + 1` participants),
  /// one 64-byte line each. A thread runs its own range first, then takes what is left of the
  /// others': frame after frame each thread mostly touches the same layers, so they stay in its
  /// own caches (with one shared counter the chunks change hands every frame, and every output
  /// line written by the other core's cache has to come back from there first).
  let cursors: UnsafeMutablePointer<BatchCursor>
  /// Set while a call runs (a try-lock).
  let busy = Atomic<Bool>(false)
  /// Set when the context is released.
  let stopping = Atomic<Bool>(false)
  /// Workers asleep on `wakeUp` (or about to be).
  let sleepers = Atomic<Int>(0)
  let mutex: UnsafeMutablePointer<pthread_mutex_t>
  let wakeUp: UnsafeMutablePointer<pthread_cond_t>
  /// The current frame; written only while no frame is open (see the protocol).
  var invoke: BatchChunkFunction?
  var context: UnsafeRawPointer?
  var lowerBound = 0
  var upperBound = 0
  var size = 1
  var chunks = 0
  var threads: [BatchThreadHandle] = []
  /// ``BatchContext/idleSpinSeconds`` as bits.
  let spinBits = Atomic<UInt64>(BatchContext.spinSeconds.bitPattern)
  /// Incremented (under `mutex`) when the spin budget changes: sleeping workers wake up and spin.
  var spinGeneration = 0
  /// The CPU each worker pins itself to (−1: none), set before the workers start.
  var cpus: [Int] = []
  /// The next worker index to hand out.
  let started = Atomic<Int>(0)

  init(helpers: Int) {
    self.helpers = helpers
    mutex = .allocate(capacity: 1)
    wakeUp = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(wakeUp, nil)
    cursors = UnsafeMutableRawPointer.allocate(
      byteCount: (helpers + 1) * MemoryLayout<BatchCursor>.stride, alignment: CacheLine.bytes
    ).bindMemory(to: BatchCursor.self, capacity: helpers + 1)
    for i in 0...helpers { (cursors + i).initialize(to: BatchCursor()) }
    // Each worker on its own CPU of the process's affinity mask, skipping the first (the usual
    // home of the calling thread): on a loaded machine the scheduler would otherwise often run
    // a spinning worker on the caller's CPU, where it helps nothing.
    var allowed = [Int32](repeating: 0, count: 1024)
    let count = Int(segue_affinity_cpus(&allowed, 1024))
    cpus = (0..<helpers).map { w in count > 1 ? Int(allowed[(w + 1) % count]) : -1 }
    for _ in 0..<helpers {
      threads.append(BatchThreadHandle.start(Unmanaged.passRetained(self).toOpaque()))
    }
  }

  deinit {
    pthread_cond_destroy(wakeUp)
    pthread_mutex_destroy(mutex)
    wakeUp.deallocate()
    mutex.deallocate()
    _ = cursors.deinitialize(count: helpers + 1)
    UnsafeMutableRawPointer(cursors).deallocate()
  }

  func tryAcquire() -> Bool {
    busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
  }

  func release() { busy.store(false, ordering: .releasing) }

  /// Publishes the frame, opens it, claims chunks here too, closes it and waits for the workers
  /// inside it.
  func runFrame(
    invoke: BatchChunkFunction, context: UnsafeRawPointer, lowerBound: Int, upperBound: Int,
    size: Int, chunks: Int
  ) {
    self.invoke = invoke
    self.context = context
    self.lowerBound = lowerBound
    self.upperBound = upperBound
    self.size = size
    self.chunks = chunks
    for i in 0...helpers { cursors[i].next.store(homeStart(i), ordering: .relaxed) }
    frame.wrappingAdd(1, ordering: .sequentiallyConsistent)  // open (odd)
    if sleepers.load(ordering: .sequentiallyConsistent) > 0 {
      pthread_mutex_lock(mutex)
      pthread_cond_broadcast(wakeUp)
      pthread_mutex_unlock(mutex)
    }
    drain(participant: 0)
    frame.wrappingAdd(1, ordering: .sequentiallyConsistent)  // closed (even)
    // A worker inside the frame is finishing its last chunk: spin. Yield only after
    // `BatchContext.yieldSeconds` (a worker that shares this CPU, or was preempted): yielding
    // earlier hands a loaded CPU's time slice to another process for nothing.
    var spins = 0
    var waitStart = 0.0
    while inside.load(ordering: .sequentiallyConsistent) != 0 {
      spins &+= 1
      if spins & 255 == 0 {
        let now = batchClock()
        if waitStart == 0 {
          waitStart = now
        } else if now - waitStart > BatchContext.yieldSeconds {
          sched_yield()
          continue
        }
      }
      segue_spin_pause()
    }
    self.invoke = nil
    self.context = nil
  }

  /// The first chunk of participant `i`'s home range (`i = helpers + 1`: the end of the last).
  @inline(__always)
  func homeStart(_ i: Int) -> Int { i * chunks / (helpers + 1) }

  /// Claims and runs chunks of the open frame until none is left: those of `participant`'s home
  /// range first, then those left in the other ranges, in turn.
  func drain(participant: Int) {
    guard let invoke, let context else { return }
    let participants = helpers + 1
    for k in 0..<participants {
      let i = (participant + k) % participants
      let end = homeStart(i + 1)
      while true {
        let c = cursors[i].next.wrappingAdd(1, ordering: .relaxed).oldValue
        if c >= end { break }
        let lower = lowerBound + c * size
        invoke(context, lower, Swift.min(lower + size, upperBound))
      }
    }
  }

  /// A worker: waits for a frame it has not seen (spinning, then sleeping), joins it if it is
  /// still open, and runs chunks.
  func workerLoop() {
    let w = started.wrappingAdd(1, ordering: .relaxed).oldValue
    if w < cpus.count && cpus[w] >= 0 { _ = segue_pin_current_thread(Int32(cpus[w])) }
    var seen = 0
    while true {
      let current = waitForFrame(after: seen)
      if current < 0 { return }
      seen = current
      inside.wrappingAdd(1, ordering: .sequentiallyConsistent)
      if frame.load(ordering: .sequentiallyConsistent) == current { drain(participant: w + 1) }
      inside.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }
  }

  /// The next open frame other than `seen` (or −1 when the context stops): spins for about
  /// ``BatchContext/spinSeconds``, then sleeps on the condition variable until a caller opens a
  /// frame (or the context stops).
  func waitForFrame(after seen: Int) -> Int {
    @inline(__always) func openFrame() -> Int? {
      let f = frame.load(ordering: .sequentiallyConsistent)
      return f != seen && f & 1 == 1 ? f : nil
    }
    while true {
      let budget = Double(bitPattern: spinBits.load(ordering: .relaxed))
      var start = batchClock()
      var last = start
      var spins = 0
      while true {
        if stopping.load(ordering: .relaxed) { return -1 }
        if let f = openFrame() { return f }
        spins &+= 1
        if spins & 63 == 0 {
          let now = batchClock()
          // A long gap between two checks (64 pauses) means this thread was preempted: the
          // budget counts spinning, not time spent descheduled, so that a worker on a loaded
          // CPU does not fall asleep between back-to-back frames.
          if now - last > BatchContext.preemptedSeconds { start = now }
          last = now
          if now - start > budget { break }
        }
        segue_spin_pause()
      }
      pthread_mutex_lock(mutex)
      sleepers.wrappingAdd(1, ordering: .sequentiallyConsistent)
      let generation = spinGeneration
      while !stopping.load(ordering: .sequentiallyConsistent) && openFrame() == nil
        && spinGeneration == generation
      {
        pthread_cond_wait(wakeUp, mutex)
      }
      sleepers.wrappingSubtract(1, ordering: .sequentiallyConsistent)
      pthread_mutex_unlock(mutex)
    }
  }

  /// Wakes the sleeping workers so that they spin again with the current budget.
  func wakeSleepers() {
    pthread_mutex_lock(mutex)
    spinGeneration &+= 1
    pthread_cond_broadcast(wakeUp)
    pthread_mutex_unlock(mutex)
  }

  /// Stops the workers and waits for them to exit.
  func stop() {
    pthread_mutex_lock(mutex)
    stopping.store(true, ordering: .sequentiallyConsistent)
    pthread_cond_broadcast(wakeUp)
    pthread_mutex_unlock(mutex)
    for thread in threads { thread.join() }
  }
}

/// A participant's chunk cursor, alone on its 64-byte line.
struct BatchCursor: ~Copyable {
  let next = Atomic<Int>(0)
  let padding: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
}

/// Seconds on the monotonic clock.
func batchClock() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// A started worker thread.
struct BatchThreadHandle {
  let thread: pthread_t

  /// Starts a thread running `workerLoop()` of the retained `BatchWorkerState` at `state` (the
  /// thread releases it when it exits).
  static func start(_ state: UnsafeMutableRawPointer) -> BatchThreadHandle {
    #if canImport(Darwin)
      var thread: pthread_t?
      let rc = pthread_create(
        &thread, nil,
        { argument in
          Unmanaged<BatchWorkerState>.fromOpaque(argument).takeRetainedValue().workerLoop()
          return nil
        }, state)
      precondition(rc == 0 && thread != nil, "pthread_create failed (\(rc))")
      return BatchThreadHandle(thread: thread!)
    #else
      var thread = pthread_t()
      let rc = pthread_create(
        &thread, nil,
        { argument in
          Unmanaged<BatchWorkerState>.fromOpaque(argument!).takeRetainedValue().workerLoop()
          return nil
        }, state)
      precondition(rc == 0, "pthread_create failed (\(rc))")
      return BatchThreadHandle(thread: thread)
    #endif
  }

  /// Waits for the thread to exit.
  func join() { pthread_join(thread, nil) }
}
