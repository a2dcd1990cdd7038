// libFuzzer entry point: one input through FuzzOracles.events(_:); a violation traps.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvents(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  if let problem = FuzzOracles.events(bytes) { fatalError(problem) }
  return 0
}
