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
  /// A file, replaced atomically through a ``FileCommit``.
  case file(String)

  /// `--output PATH`, or stdout when absent or `-`.
  init(_ path: String?) {
    if let path, path != "-" { self = .file(path) } else { self = .standardOutput }
  }

  /// Writes `bytes`: to stdout, or to a file through a ``FileCommit`` (nothing partial is ever
  /// left, and an existing file is replaced only when the new one is complete).
  ///
  /// - Throws: ``CLIError`` with ``ExitStatus/cannotCreate`` naming `argument` (or `standard
  ///   output`).
  func write(_ bytes: [UInt8], argument: String = "--output") throws(CLIError) {
    try stream(argument: argument) { writer throws(CLIError) in try writer.write(bytes) }
  }

  /// Writes a string as UTF-8.
  func write(_ text: String, argument: String = "--output") throws(CLIError) {
    try write(Array(text.utf8), argument: argument)
  }

  /// Streams the output: `body` writes through the ``OutputWriter``; a file is committed only when
  /// `body` returns, and discarded when it throws. Standard output receives the bytes as they
  /// are written (in 64 KiB blocks).
  ///
  /// - Throws: what `body` throws; ``CLIError`` ``ExitStatus/cannotCreate`` when a write fails.
  func stream(
    argument: String = "--output", note: ((String) -> Void)? = nil,
    _ body: (OutputWriter) throws(CLIError) -> Void
  ) throws(CLIError) {
    switch self {
    case .standardOutput:
      let writer = OutputWriter.standardOutput()
      try body(writer)
      try writer.flush()
    case .file(let path):
      let commit = FileCommit(note: note)
      let writer = try commit.open(path, argument: argument)
      do throws(CLIError) {
        try body(writer)
      } catch {
        writer.abandon()
        throw error
      }
      try commit.close(writer)
      try commit.commit()
    }
  }
}

/// The largest input file (`--spec`, `--events`) read: 32 MiB. Spec files of real transitions
/// are kilobytes (the preset examples are 1–12 KiB); the limit keeps the parsed document (several
/// times the text) well inside memory.
let maximumInputBytes = 32 << 20

/// Reads a whole input file, or standard input when `path` is `-`.
///
/// - Throws: ``CLIError``: ``ExitStatus/noInput`` naming `argument` when the file is missing, is
///   a directory, or cannot be read; ``ExitStatus/dataError`` when it is larger than
///   ``maximumInputBytes`` (checked before reading when the size is known).
func readInputFile(_ path: String, argument: String) throws(CLIError) -> [UInt8] {
  let name = path == "-" ? "standard input" : "'\(path)'"
  func tooLarge(_ size: String) -> CLIError {
    CLIError(
      .dataError, argument,
      "\(name) is \(size) bytes; input files are limited to \(maximumInputBytes) bytes (32 MiB)")
  }
  let fd: Int32
  if path == "-" {
    fd = STDIN_FILENO
  } else {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let reason = errno == ENOENT ? "no such file" : errorText()
      throw CLIError(.noInput, argument, "cannot read '\(path)': \(reason)")
    }
    guard info.st_mode & S_IFMT != S_IFDIR else {
      throw CLIError(.noInput, argument, "cannot read '\(path)': it is a directory")
    }
    if info.st_mode & S_IFMT == S_IFREG, info.st_size > maximumInputBytes {
      throw tooLarge("\(info.st_size)")
    }
    fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw CLIError(.noInput, argument, "cannot read '\(path)': \(errorText())")
    }
  }
  defer { if fd != STDIN_FILENO { close(fd) } }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n < 0 {
      if errno == EINTR { continue }
      throw CLIError(.noInput, argument, "cannot read \(name): \(errorText())")
    }
    if n == 0 { break }
    bytes.append(contentsOf: chunk[..<n])
    if bytes.count > maximumInputBytes { throw tooLarge("more than \(maximumInputBytes)") }
  }
  return bytes
}

/// Reads a whole input file (or standard input for `-`) as UTF-8 text.
///
/// - Throws: ``CLIError``: as ``readInputFile(_:argument:)``; ``ExitStatus/dataError`` when the
///   bytes are not valid UTF-8.
func readInputText(_ path: String, argument: String) throws(CLIError) -> String {
  let bytes = try readInputFile(path, argument: argument)
  guard let text = String(validating: bytes, as: UTF8.self) else {
    let name = path == "-" ? "standard input" : "'\(path)'"
    throw CLIError(.dataError, argument, "\(name) is not UTF-8 text")
  }
  return text
}

/// Writes `text` and a newline to stderr; a failed write is ignored (there is nowhere left to
/// report it).
func printError(_ text: String) {
  let bytes = Array((text + "\n").utf8)
  try? OutputWriter.writeAll(STDERR_FILENO, bytes, argument: "standard error", name: "")
}
