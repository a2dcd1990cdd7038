import Segue
import SegueBenchSupport
import Testing

/// The benchmarks' output buffers: whole cache lines from the first float, zeroed.
@Suite struct AlignedFloatsTests {
  @Test(arguments: [0, 1, 15, 16, 17, 16 * 31_000])
  func startsOnACacheLineAndIsZeroed(count: Int) {
    let floats = alignedFloats(count)
    defer { floats.deallocate() }
    #expect(floats.count == count)
    #expect(floats.baseAddress.map { CacheLine.isAligned($0) } == true)
    #expect(floats.allSatisfy { $0 == 0 })
  }

  @Test func aMatrixRowFillsOneLine() {
    #expect(CacheLine.floats * MemoryLayout<Float>.stride == CacheLine.bytes)
    #expect(CacheLine.floats == 16)
  }
}
