#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a font file into memory within a size budget.
enum FontFileReader {
  /// The bytes of the regular file at `path` (freed by the caller with `deallocate()`).
  ///
  /// - Throws: ``FontError/fileNotFound(path:)``; ``FontError/fileUnreadable(path:reason:)`` for
  ///   anything but a readable regular file; ``FontError/fileTooLarge(path:size:limit:)`` past
  ///   `limit` bytes; ``FontError/corruptFile(path:reason:)`` for an empty file.
  static func bytes(ofFile path: String, limit: Int) throws(FontError)
    -> UnsafeMutableRawBufferPointer
  {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR || path.isEmpty { throw .fileNotFound(path: path) }
      throw .fileUnreadable(path: path, reason: systemText(code))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw .fileUnreadable(path: path, reason: "not a regular file")
    }
    let size = Int(info.st_size)
    guard size <= limit else { throw .fileTooLarge(path: path, size: size, limit: limit) }
    guard size > 0 else { throw .corruptFile(path: path, reason: "the file is empty") }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .fileUnreadable(path: path, reason: systemText(errno)) }
    defer { close(descriptor) }
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    var filled = 0
    while filled < size {
      let count = read(descriptor, bytes.baseAddress! + filled, size - filled)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else {
        let code = errno
        bytes.deallocate()
        if count == 0 { throw .corruptFile(path: path, reason: "the file shrank while read") }
        throw .fileUnreadable(path: path, reason: systemText(code))
      }
      filled += count
    }
    return bytes
  }

  private static func systemText(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
