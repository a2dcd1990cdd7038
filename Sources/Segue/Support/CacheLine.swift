import SegueSIMDSupport

/// The cache line of every x86-64 and Arm core Segue runs on: the alignment of the batch
/// scratch, of the template tables and of outputs written with streaming stores.
package enum CacheLine {
  /// Bytes per line.
  package static var bytes: Int { 64 }
  /// Floats per line (one 16-lane vector).
  package static var floats: Int { bytes / MemoryLayout<Float>.stride }

  /// Whether `pointer` is on a line's start (the condition for a streaming store).
  @inline(__always)
  package static func isAligned(_ pointer: UnsafeRawPointer) -> Bool {
    Int(bitPattern: pointer) % bytes == 0
  }

  /// What a prefetch readies a line for.
  package enum Access {
    /// Loads (`segue_prefetch`).
    case read
    /// Stores: the line arrives owned, so a store to it does not wait (`segue_prefetch_write`).
    case write
  }

  /// Starts loading every line of the `byteCount` bytes at `start` into the caches (a hint:
  /// results never depend on it; nothing for `byteCount ≤ 0`).
  @inline(__always)
  package static func prefetch(
    _ start: UnsafeRawPointer, byteCount: Int, for access: Access = .read
  ) {
    guard byteCount > 0 else { return }
    var line = UnsafeRawPointer(bitPattern: Int(bitPattern: start) & -bytes)!
    let end = start + byteCount
    while line < end {
      switch access {
      case .read: segue_prefetch(line)
      case .write: segue_prefetch_write(line)
      }
      line += bytes
    }
  }
}
