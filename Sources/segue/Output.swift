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
    guard !path.isEmpty else {
      throw CLIError(.cannotCreate, argument, "the path is empty")
    }
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard !name.isEmpty else {
      throw CLIError(.cannotCreate, argument, "'\(path)' names a directory, not a file")
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
    guard rename(temporary, path) == 0 else {
      let reason = errorText()
      unlink(temporary)
      throw CLIError(.cannotCreate, argument, "cannot create '\(path)': \(reason)")
    }
  }
}

/// `strerror(errno)`.
private func errorText() -> String {
  guard let text = strerror(errno) else { return "error \(errno)" }
  return String(validatingCString: text) ?? "error \(errno)"
}

/// `write(2)`, outside ``OutputTarget`` whose methods shadow the name.
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
