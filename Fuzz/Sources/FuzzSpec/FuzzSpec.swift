// libFuzzer entry point: one input through FuzzOracles.spec(_:); a violation traps.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  if let problem = FuzzOracles.spec(bytes) { fatalError(problem) }
  return 0
}
