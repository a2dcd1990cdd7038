// Output files that appear all together or not at all, without ever destroying a file that
// existed before the command ran, and without leaving temporaries behind when the process is
// interrupted.

import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A set of output files committed together: each file is written under a temporary name in its
/// destination's directory, and ``commit()`` renames them all into place; on any failure the
/// directories are left exactly as they were before the command ran.
///
/// **Names.** The temporary file for `DIR/NAME` is `DIR/.NAME.segue-PID.XXXXXX` (`PID` the
/// writing process, `XXXXXX` from `mkstemp`); while a destination that already exists is being
/// replaced, its previous version is kept as `DIR/.NAME.segue-PID-old.XXXXXX`. Both patterns are
/// recognised by ``sweep(_:)``.
///
/// **Commit.** For each file in the order added: if the destination exists, its previous version
/// is kept under the backup name (a hard link, so the destination never disappears; a rename
/// where the file system has no hard links); then the temporary file is renamed over the
/// destination (atomic for readers). When every rename succeeded the backups are removed. When a
/// rename fails, the files already renamed are rolled back in reverse order — each backup
/// renamed back over its destination (atomically), each destination that did not exist before
/// removed — and the remaining temporary files are removed; the error names the file that
/// failed. A backup that cannot be restored is kept, and the error says where.
///
/// **Interruption.** Every temporary and backup file is registered with ``Interruption`` while it
/// exists: SIGINT, SIGTERM or SIGHUP remove them before the process dies, and a commit in
/// progress completes or rolls back first (it holds the registry's lock). A process killed with
/// SIGKILL cannot clean up: what it leaves matches the names above, and the next
/// ``FileCommit`` writing into the same directory removes the files of processes that no longer
/// run (``sweep(_:)``).
///
/// **Use.** ``add(_:to:argument:)`` writes a whole file; ``open(_:argument:)`` returns an
/// ``OutputWriter`` to stream a large one, finished with ``close(_:)``. A ``FileCommit`` that is
/// released without ``commit()`` discards its temporary files.
///
/// **Testing hook.** When the environment variable `SEGUE_TEST_FAIL_RENAME` is a number `k ≥ 1`
/// (or ``failingRename`` is set), the `k`-th rename of a temporary file over its destination
/// (counted from 1 within one ``commit()``) fails with `EIO`, so tests can check the rollback at
/// every step.
final class FileCommit {
  /// A temporary file and its destination.
  private struct Entry {
    var temporary: String
    var path: String
    var argument: String
  }

  /// The temporary files written and closed so far, in order.
  private var pending: [Entry] = []
  /// Directories already swept for stale files.
  private var swept: Set<String> = []
  /// Where informational notes (stale files removed) go; `nil` for none.
  private let note: ((String) -> Void)?

  /// The rename of ``commit()`` that fails with `EIO` (1 for the first), for tests; from
  /// `SEGUE_TEST_FAIL_RENAME` by default.
  var failingRename: Int?

  /// Creates an empty commit. `note` receives a line for each directory where stale files of an
  /// earlier, killed run were removed.
  init(note: ((String) -> Void)? = nil) {
    self.note = note
    self.failingRename = Self.injectedFailure
  }

  deinit { discard() }

  /// Writes `bytes` as the new content of `path`.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/cannotCreate`` naming `argument` (after discarding the
  ///   whole commit).
  func add(_ bytes: [UInt8], to path: String, argument: String) throws(CLIError) {
    let writer = try open(path, argument: argument)
    do {
      try writer.write(bytes)
      try close(writer)
    } catch {
      writer.abandon()
      discard()
      throw error
    }
  }

  /// Creates the temporary file for `path` and returns a writer to it; finish with
  /// ``close(_:)``.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/cannotCreate`` naming `argument`: the path is empty,
  ///   names a directory, or its directory does not exist or is not writable. The commit is
  ///   discarded first.
  func open(_ path: String, argument: String) throws(CLIError) -> OutputWriter {
    do throws(CLIError) {
      switch try Self.destination(path, argument: argument) {
      case .special:
        // A device, FIFO or socket (`/dev/null`, `/dev/stdout`, a named pipe) is written in
        // place: renaming over it would replace the device node with a file.
        let fd = posixOpen(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else {
          throw CLIError(.cannotCreate, argument, "cannot write '\(path)': \(errorText())")
        }
        return OutputWriter(fd: fd, argument: argument, name: "'\(path)'", path: path)
      case .file(let target):
        return try openTemporary(for: target, shownAs: path, argument: argument)
      }
    } catch {
      discard()
      throw error
    }
  }

  /// Creates the temporary file beside `path` (sweeping its directory first).
  private func openTemporary(for path: String, shownAs shown: String, argument: String)
    throws(CLIError) -> OutputWriter
  {
    do {
      let (directory, name) = Self.splitUnchecked(path)
      if !swept.contains(directory) {
        swept.insert(directory)
        let removed = Self.sweep(directory)
        if !removed.isEmpty, let note {
          note(
            "removed \(removed.count) stale temporary file\(removed.count == 1 ? "" : "s") "
              + "of an interrupted run from '\(directory)'")
        }
      }
      let prefix = directory + "/." + name + ".segue-\(getpid())"
      let (fd, temporary) = try Interruption.createTemporary(prefix: prefix, argument: argument)
      // mkstemp creates the file 0600; give it the usual 0666 minus the umask.
      let mask = umask(0)
      umask(mask)
      _ = fchmod(fd, 0o666 & ~mask)
      return OutputWriter(
        fd: fd, argument: argument, name: "'\(shown)'", path: path,
        temporary: temporary)
    } catch {
      discard()
      throw error
    }
  }

  /// Closes a writer from ``open(_:argument:)`` after flushing it; its file joins the commit.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/cannotCreate`` when the last write or the close fails
  ///   (the commit is discarded first).
  func close(_ writer: OutputWriter) throws(CLIError) {
    do {
      try writer.closeFile()
    } catch {
      writer.abandon()
      discard()
      throw error
    }
    if let temporary = writer.temporary {
      pending.append(Entry(temporary: temporary, path: writer.path, argument: writer.argument))
    }
  }

  /// Renames every temporary file over its destination (see the type's documentation).
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/cannotCreate`` naming the argument of the file whose
  ///   rename failed, after the rollback.
  func commit() throws(CLIError) {
    let entries = pending
    pending = []
    let failAt = failingRename
    let outcome: CLIError? = Interruption.registry.withLock { paths in
      var done: [(path: String, backup: String?)] = []
      for (k, entry) in entries.enumerated() {
        var backup: String?
        var linked = false
        var reason: String?
        var isDirectory = false
        var info = stat()
        if lstat(entry.path, &info) == 0 {
          if info.st_mode & S_IFMT == S_IFDIR {
            isDirectory = true
          } else {
            if let kept = Self.keepPrevious(entry.path) {
              (backup, linked) = kept
            } else {
              reason = "cannot keep its previous version: \(errorText())"
            }
          }
        }
        if let backup { paths.insert(backup) }
        if isDirectory {
          reason = "it is a directory"
        } else if reason == nil {
          if failAt == k + 1 {
            errno = EIO
            reason = errorText()
          } else if rename(entry.temporary, entry.path) != 0 {
            reason = errorText()
          }
        }
        if let reason {
          // The destination was not replaced. A hard-linked backup is a second name of it (a
          // rename between two names of one file does nothing, so unlink it); a moved-aside one
          // is restored with the others.
          if let backup {
            if linked {
              unlink(backup)
              paths.remove(backup)
            } else {
              done.append((entry.path, backup))
            }
          }
          var message = "cannot create '\(entry.path)': \(reason)"
          for (path, backup) in done.reversed() {
            if let backup {
              if rename(backup, path) == 0 {
                paths.remove(backup)
              } else {
                message +=
                  "; the previous '\(path)' could not be restored and is kept as '\(backup)'"
                paths.remove(backup)
              }
            } else {
              unlink(path)
            }
          }
          for rest in entries[k...] {
            unlink(rest.temporary)
            paths.remove(rest.temporary)
          }
          return CLIError(.cannotCreate, entry.argument, message)
        }
        paths.remove(entry.temporary)
        done.append((entry.path, backup))
      }
      for (_, backup) in done {
        if let backup {
          unlink(backup)
          paths.remove(backup)
        }
      }
      return nil
    }
    if let outcome { throw outcome }
  }

  /// Removes every temporary file written so far; the destinations are untouched.
  func discard() {
    let entries = pending
    pending = []
    guard !entries.isEmpty else { return }
    Interruption.registry.withLock { paths in
      for entry in entries {
        unlink(entry.temporary)
        paths.remove(entry.temporary)
      }
    }
  }

  // MARK: - Stale files

  /// Removes from `directory` the temporary and backup files (names as in the type's
  /// documentation) of `segue` processes that no longer run — what a run killed with SIGKILL
  /// leaves — and returns their names. Files of running processes (this one included) are kept.
  static func sweep(_ directory: String) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return []
    }
    var removed: [String] = []
    for name in names {
      guard let pid = stalePID(name), pid != getpid() else { continue }
      // kill(pid, 0) fails with ESRCH only when no such process exists.
      guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
      if unlink(directory + "/" + name) == 0 { removed.append(name) }
    }
    return removed.sorted()
  }

  /// The process id in a temporary or backup file name `.NAME.segue-PID.XXXXXX` or
  /// `.NAME.segue-PID-old.XXXXXX`, or `nil` when `name` is not one.
  static func stalePID(_ name: String) -> pid_t? {
    let bytes = Array(name.utf8)
    guard bytes.count > 15, bytes[0] == UInt8(ascii: ".") else { return nil }
    // The six-character suffix and the dot before it.
    let suffix = bytes[(bytes.count - 6)...]
    guard bytes[bytes.count - 7] == UInt8(ascii: "."),
      suffix.allSatisfy({
        (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
          || (0x61...0x7A).contains($0)
      })
    else { return nil }
    var end = bytes.count - 7
    let old = Array("-old".utf8)
    if end >= old.count, Array(bytes[(end - old.count)..<end]) == old { end -= old.count }
    var start = end
    while start > 0, (0x30...0x39).contains(bytes[start - 1]) { start -= 1 }
    let marker = Array(".segue-".utf8)
    guard start < end, end - start <= 10, start >= marker.count + 2,
      Array(bytes[(start - marker.count)..<start]) == marker
    else { return nil }
    guard let pid = Int32(String(decoding: bytes[start..<end], as: UTF8.self)), pid > 0 else {
      return nil
    }
    return pid
  }

  // MARK: - Private helpers

  /// The failing rename number from `SEGUE_TEST_FAIL_RENAME` (see the type's documentation).
  private static var injectedFailure: Int? {
    guard let text = ProcessInfo.processInfo.environment["SEGUE_TEST_FAIL_RENAME"],
      let k = Int(text), k >= 1
    else { return nil }
    return k
  }

  /// Keeps the current `path` under a new backup name — a hard link (`linked`), else, where the
  /// file system has none, a rename — and returns that name, or `nil` with `errno` set.
  private static func keepPrevious(_ path: String) -> (backup: String, linked: Bool)? {
    let (directory, name) = splitUnchecked(path)
    for _ in 0..<100 {
      let backup = directory + "/." + name + ".segue-\(getpid())-old." + randomSuffix()
      if link(path, backup) == 0 { return (backup, true) }
      if errno == EEXIST { continue }
      // No hard links here (or not for this file): move it aside instead.
      var info = stat()
      guard lstat(backup, &info) != 0 else { continue }
      if rename(path, backup) == 0 { return (backup, false) }
      return nil
    }
    errno = EEXIST
    return nil
  }

  /// Six random characters from `[A-Za-z0-9]`.
  private static func randomSuffix() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    return String((0..<6).map { _ in alphabet.randomElement()! })
  }

  /// `path`'s directory (`.` when it has none) and last component, checked.
  /// Where the new content of `path` goes.
  private enum Destination {
    /// A regular file (existing or not) at this path: written through a temporary file and a
    /// rename. A symbolic link is followed, so the file it points to is replaced and the link
    /// kept, as a shell's `>` does.
    case file(String)
    /// An existing device, FIFO or socket: written in place.
    case special
  }

  /// Checks `path` and classifies it.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/cannotCreate``: an empty path, a path naming a
  ///   directory, or a symbolic link that cannot be resolved.
  private static func destination(_ path: String, argument: String) throws(CLIError)
    -> Destination
  {
    guard !path.isEmpty else { throw CLIError(.cannotCreate, argument, "the path is empty") }
    let (_, name) = splitUnchecked(path)
    guard !name.isEmpty, name != ".", name != ".." else {
      throw CLIError(.cannotCreate, argument, "'\(path)' names a directory, not a file")
    }
    var link = stat()
    guard lstat(path, &link) == 0 else { return .file(path) }
    var info = stat()
    guard stat(path, &info) == 0 else {
      // A dangling symbolic link: write the file it names, if its directory exists.
      guard link.st_mode & S_IFMT == S_IFLNK, let target = readLink(path) else {
        throw CLIError(.cannotCreate, argument, "cannot create '\(path)': \(errorText())")
      }
      return .file(target)
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR:
      throw CLIError(.cannotCreate, argument, "cannot create '\(path)': it is a directory")
    case S_IFREG:
      guard link.st_mode & S_IFMT == S_IFLNK else { return .file(path) }
      guard let resolved = realpath(path, nil) else {
        throw CLIError(.cannotCreate, argument, "cannot resolve '\(path)': \(errorText())")
      }
      defer { free(resolved) }
      return .file(String(cString: resolved))
    default:
      return .special
    }
  }

  /// The target of the symbolic link `path`, made relative to the link's directory.
  private static func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    let target = String(
      decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if target.hasPrefix("/") { return target }
    return splitUnchecked(path).0 + "/" + target
  }

  private static func splitUnchecked(_ path: String) -> (String, String) {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    return (directory, name)
  }
}

/// What a command does when it is interrupted: SIGINT, SIGTERM and SIGHUP are handled by one
/// thread (``install()``), which removes every registered temporary file and then lets the
/// signal end the process as usual (a shell reports 130 for SIGINT, 143 for SIGTERM).
enum Interruption {
  /// The temporary and backup files to remove if the process is interrupted. Files are created
  /// and registered, and commits run, under this lock, so the signal thread never misses one.
  static let registry = Mutex<Set<String>>([])
  /// Whether a progress line is open on stderr (the signal thread ends it first).
  static let progressLineOpen = Atomic<Bool>(false)

  /// The signals handled.
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// Blocks the signals in this thread (and so in every thread started later) and starts the
  /// thread that waits for them. Call first in `main`, before any other thread starts. Also
  /// ignores SIGPIPE, so a write to a closed pipe fails with `EPIPE` (reported as exit 73)
  /// instead of killing the process silently, and reopens closed standard streams on
  /// `/dev/null`.
  static func install() {
    // A closed standard stream would be reused by the next open file (a temporary file would
    // receive what is printed on stdout): point it at /dev/null, read-only for stdin and stdout
    // (so a write to a closed stdout still fails, with EBADF, and exits 73), write-only for
    // stderr.
    for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 {
      let null = posixOpen("/dev/null", fd == STDERR_FILENO ? O_WRONLY : O_RDONLY)
      if null >= 0 && null != fd {
        dup2(null, fd)
        _ = posixClose(null)
      }
    }
    signal(SIGPIPE, SIG_IGN)
    var set = sigset_t()
    sigemptyset(&set)
    for s in signals { sigaddset(&set, s) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
    let thread = Thread {
      var set = sigset_t()
      sigemptyset(&set)
      for s in Interruption.signals { sigaddset(&set, s) }
      var received: Int32 = 0
      while sigwait(&set, &received) != 0 {}
      Interruption.terminate(received)
    }
    thread.start()
  }

  /// Removes the registered files and ends the process by `signal` (called on the signal thread;
  /// keeps the lock so no new temporary file can appear).
  private static func terminate(_ received: Int32) -> Never {
    registry.withLock { paths in
      for path in paths { unlink(path) }
      paths.removeAll()
      if progressLineOpen.load(ordering: .relaxed) {
        let newline: [UInt8] = [0x0A]
        _ = newline.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, 1) }
      }
      signal(received, SIG_DFL)
      var set = sigset_t()
      sigemptyset(&set)
      sigaddset(&set, received)
      pthread_sigmask(SIG_UNBLOCK, &set, nil)
      raise(received)
      _exit(128 + received)
    }
  }

  /// Creates a temporary file `PREFIX.XXXXXX` with `mkstemp` and registers it, under the lock.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/cannotCreate`` naming `argument`.
  static func createTemporary(prefix: String, argument: String) throws(CLIError) -> (
    Int32, String
  ) {
    let created: (Int32, String)? = registry.withLock { paths in
      var template = Array((prefix + ".XXXXXX").utf8CString)
      let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard fd >= 0 else { return nil }
      let path = String(
        decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      paths.insert(path)
      return (fd, path)
    }
    guard let created else {
      let directory = prefix.lastIndex(of: "/").map { String(prefix[..<$0]) } ?? "."
      throw CLIError(
        .cannotCreate, argument, "cannot create a file in '\(directory)': \(errorText())")
    }
    return created
  }

  /// Removes a registered temporary file.
  static func remove(_ path: String) {
    registry.withLock { paths in
      unlink(path)
      paths.remove(path)
    }
  }
}

/// A buffered writer to standard output or to a ``FileCommit`` temporary file. Every failed
/// write is a ``CLIError`` with ``ExitStatus/cannotCreate`` naming the output (`EPIPE` on a
/// closed pipe, `ENOSPC` on a full disk, …).
final class OutputWriter {
  /// The file descriptor.
  let fd: Int32
  /// The argument reported in errors (`--output`, `--filmstrip`, `standard output`).
  let argument: String
  /// How errors name the output (`'out.json'`); empty for standard output.
  let name: String
  /// The destination path (files only).
  let path: String
  /// The temporary file being written (files only).
  private(set) var temporary: String?
  /// Bytes not yet written.
  private var buffer: [UInt8] = []
  /// The buffer size that triggers a write.
  private static let capacity = 1 << 16

  init(fd: Int32, argument: String, name: String, path: String = "", temporary: String? = nil) {
    self.fd = fd
    self.argument = argument
    self.name = name
    self.path = path
    self.temporary = temporary
    buffer.reserveCapacity(Self.capacity)
  }

  /// Standard output.
  static func standardOutput() -> OutputWriter {
    OutputWriter(fd: STDOUT_FILENO, argument: "standard output", name: "")
  }

  /// Appends `text` as UTF-8.
  func write(_ text: String) throws(CLIError) {
    var text = text
    text.withUTF8 { buffer.append(contentsOf: $0) }
    if buffer.count >= Self.capacity { try flush() }
  }

  /// Appends `bytes`.
  func write(_ bytes: [UInt8]) throws(CLIError) {
    if bytes.count >= Self.capacity {
      try flush()
      try Self.writeAll(fd, bytes, argument: argument, name: name)
      return
    }
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.capacity { try flush() }
  }

  /// Writes the buffered bytes.
  func flush() throws(CLIError) {
    guard !buffer.isEmpty else { return }
    let bytes = buffer
    buffer.removeAll(keepingCapacity: true)
    try Self.writeAll(fd, bytes, argument: argument, name: name)
  }

  /// Flushes and closes a file (not standard output).
  fileprivate func closeFile() throws(CLIError) {
    try flush()
    guard posixClose(fd) == 0 else {
      throw CLIError(.cannotCreate, argument, "cannot write \(name): \(errorText())")
    }
  }

  /// After a failure: closes and removes the temporary file (files only).
  func abandon() {
    buffer = []
    guard let temporary else { return }
    _ = posixClose(fd)
    Interruption.remove(temporary)
    self.temporary = nil
  }

  /// `write(2)` until every byte is written, retrying on `EINTR`.
  static func writeAll(_ fd: Int32, _ bytes: [UInt8], argument: String, name: String)
    throws(CLIError)
  {
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { raw in
        posixWrite(fd, raw.baseAddress! + written, raw.count - written)
      }
      if n < 0 {
        if errno == EINTR { continue }
        let reason = errorText()
        let what = name.isEmpty ? "cannot write" : "cannot write \(name)"
        throw CLIError(.cannotCreate, argument, "\(what): \(reason)")
      }
      written += n
    }
  }
}

/// `write(2)`, outside ``OutputWriter`` whose methods shadow the name.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}

/// `open(2)` without creating, outside ``FileCommit`` whose method shadows the name.
private func posixOpen(_ path: String, _ flags: Int32) -> Int32 {
  open(path, flags)
}

/// `close(2)`, outside ``OutputWriter`` and ``FileCommit`` whose methods shadow the name.
private func posixClose(_ fd: Int32) -> Int32 {
  close(fd)
}

/// `strerror(errno)`.
func errorText() -> String {
  let code = errno
  guard let text = strerror(code) else { return "error \(code)" }
  return String(validatingCString: text) ?? "error \(code)"
}
