import Segue

/// `count` zeroed floats whose first lies on a 64-byte boundary (a cache line), for the jobs'
/// outputs: each 16-float matrix row then fills one line (rows of a Swift array straddle two),
/// and a job may write whole rows with streaming stores. The caller frees it with
/// `deallocate()` (or keeps it until the process ends).
public func alignedFloats(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
  let capacity = max(count, 1)
  let p = UnsafeMutableRawPointer.allocate(
    byteCount: MemoryLayout<Float>.stride * capacity, alignment: CacheLine.bytes
  ).bindMemory(to: Float.self, capacity: capacity)
  p.initialize(repeating: 0, count: capacity)
  return UnsafeMutableBufferPointer(start: p, count: count)
}
