import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where a command writes its result.
enum OutputTarget {
  /// Standard output.
  case standardOutput
  /// A file, replaced atomically.
  case file(String)

  /// `--output PATH`, or stdout when absent or `-`.
  init(_ path: String?) {
    if let path, path != "-" { self = .file(path) } else { self = .standardOutput }
  }

  /// Writes `bytes`. A file is written to a temporary file in the same directory (`.NAME.XXXXXX`)
  /// that is renamed over `path` once complete; on any failure the temporary file is removed, so
  /// no partial output is ever left behind.
  ///
  /// - Throws: ``CLIError`` with ``ExitStatus/cannotCreate`` naming `argument`.
  func write(_ bytes: [UInt8], argument: String = "--output") throws(CLIError) {
    switch self {
    case .standardOutput:
      FileHandle.standardOutput.write(Data(bytes))
    case .file(let path):
      try Self.writeAtomically(bytes, to: path, argument: argument)
    }
  }

  /// Writes a string as UTF-8.
  func write(_ text: String, argument: String = "--output") throws(CLIError) {
    try write(Array(text.utf8), argument: argument)
  }

  private static func writeAtomically(_ bytes: [UInt8], to path: String, argument: String)
    throws(CLIError)
  {
    var batch = FileBatch()
    try batch.add(bytes, to: path, argument: argument)
    try batch.commit()
  }
}

/// Files written together or not at all: each is written to a temporary file `.NAME.XXXXXX` in
/// its destination's directory; ``commit()`` renames them all into place. On any failure every
/// temporary file (and, if a rename fails, every destination already renamed) is removed, so no
/// partial output is ever left behind.
struct FileBatch {
  /// The temporary files written so far and their destinations.
  private var pending: [(temporary: String, path: String, argument: String)] = []

  /// Writes `bytes` to a temporary file beside `path`.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/cannotCreate`` naming `argument` (after discarding the
  ///   whole batch).
  mutating func add(_ bytes: [UInt8], to path: String, argument: String) throws(CLIError) {
    do {
      pending.append(
        (try Self.writeTemporary(bytes, for: path, argument: argument), path, argument))
    } catch {
      discard()
      throw error
    }
  }

  /// Renames every temporary file over its destination, in order.
  ///
  /// - Throws: ``CLIError`` ``ExitStatus/cannotCreate`` naming the failed file's argument; the
  ///   destinations already renamed and the remaining temporary files are removed first.
  mutating func commit() throws(CLIError) {
    for (k, file) in pending.enumerated() where rename(file.temporary, file.path) != 0 {
      let reason = errorText()
      for done in pending[..<k] { unlink(done.path) }
      for rest in pending[k...] { unlink(rest.temporary) }
      pending = []
      throw CLIError(.cannotCreate, file.argument, "cannot create '\(file.path)': \(reason)")
    }
    pending = []
  }

  /// Removes every temporary file written so far.
  mutating func discard() {
    for file in pending { unlink(file.temporary) }
    pending = []
  }

  /// Writes `bytes` to a new temporary file in `path`'s directory and returns its path.
  private static func writeTemporary(_ bytes: [UInt8], for path: String, argument: String)
    throws(CLIError) -> String
  {
    guard !path.isEmpty else {
      throw CLIError(.cannotCreate, argument, "the path is empty")
    }
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard !name.isEmpty else {
      throw CLIError(.cannotCreate, argument, "'\(path)' names a directory, not a file")
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      throw CLIError(.cannotCreate, argument, "cannot create '\(path)': it is a directory")
    }
    var template = Array((directory + "/." + name + ".XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      throw CLIError(
        .cannotCreate, argument,
        "cannot create a file in '\(directory)': \(errorText())")
    }
    let temporary = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    func fail(_ what: String) -> CLIError {
      let reason = errorText()
      close(fd)
      unlink(temporary)
      return CLIError(.cannotCreate, argument, "cannot write '\(path)': \(what): \(reason)")
    }
    // mkstemp creates the file 0600; give it the usual 0666 minus the umask.
    let mask = umask(0)
    umask(mask)
    _ = fchmod(fd, 0o666 & ~mask)
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { raw in
        systemWrite(fd, raw.baseAddress! + written, raw.count - written)
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw fail("write failed")
      }
      written += n
    }
    guard close(fd) == 0 else {
      let reason = errorText()
      unlink(temporary)
      throw CLIError(.cannotCreate, argument, "cannot write '\(path)': \(reason)")
    }
    return temporary
  }
}

/// `strerror(errno)`.
private func errorText() -> String {
  guard let text = strerror(errno) else { return "error \(errno)" }
  return String(validatingCString: text) ?? "error \(errno)"
}

/// `write(2)`, outside ``OutputTarget`` and ``FileBatch`` whose methods shadow the name.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}

/// Reads a whole input file.
///
/// - Throws: ``CLIError`` with ``ExitStatus/noInput`` naming `argument` when the file is missing,
///   is a directory, or cannot be read.
func readInputFile(_ path: String, argument: String) throws(CLIError) -> Data {
  var isDirectory: ObjCBool = false
  guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
    throw CLIError(.noInput, argument, "cannot read '\(path)': no such file")
  }
  guard !isDirectory.boolValue else {
    throw CLIError(.noInput, argument, "cannot read '\(path)': it is a directory")
  }
  guard let data = FileManager.default.contents(atPath: path) else {
    throw CLIError(.noInput, argument, "cannot read '\(path)': permission denied or I/O error")
  }
  return data
}

/// Reads a whole input file as UTF-8 text.
///
/// - Throws: ``CLIError``: ``ExitStatus/noInput`` as ``readInputFile(_:argument:)``;
///   ``ExitStatus/dataError`` when the bytes are not valid UTF-8.
func readInputText(_ path: String, argument: String) throws(CLIError) -> String {
  let data = try readInputFile(path, argument: argument)
  guard let text = String(validating: data, as: UTF8.self) else {
    throw CLIError(.dataError, argument, "'\(path)' is not UTF-8 text")
  }
  return text
}
