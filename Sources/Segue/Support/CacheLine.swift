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
}
